package sim

import (
	"context"
	"errors"

	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dpi-balancer/balancer/p4src"
)

// The data-plane verdict's digests over P4Runtime (spec: DigestEntry,
// DigestList, DigestListAck), as PI serves them: nothing is sent until
// the controller configures the digest with a DigestEntry; every digest
// is sent in a list of its own (the pipeline already sends each verdict
// once until it is acknowledged); a list not acknowledged within the
// entry's ack_timeout is taken as lost, so that repeats of a standing
// verdict reach the controller again.

type digestState struct {
	config *p4v1.DigestEntry_Config // nil: not configured
	nextID uint64
	unack  map[uint64]sentList
}

type sentList struct {
	dgs []p4src.VerdictDigest
	at  time.Time
}

// maxUnacked bounds the lists waiting for an acknowledgement.
const maxUnacked = 4096

// verdictSource is the data plane's side of the digests.
type verdictSource interface {
	VerdictDigests() ([]p4src.VerdictDigest, <-chan struct{})
	AckVerdictDigests([]p4src.VerdictDigest)
	VerdictDigestID() uint32
}

// writeUpdates writes the updates, taking DigestEntry and clone
// session updates itself and the rest to the data plane; errors are in
// update order.
func (s *P4RTServer) writeUpdates(us []*p4v1.Update, atomicity p4v1.WriteRequest_Atomicity) []error {
	var rest []*p4v1.Update
	var pos []int
	errs := make([]error, len(us))
	for i, u := range us {
		if de := u.GetEntity().GetDigestEntry(); de != nil {
			errs[i] = s.writeDigestEntry(u.GetType(), de)
			continue
		}
		if pre := u.GetEntity().GetPacketReplicationEngineEntry(); pre != nil {
			errs[i] = s.writePRE(u.GetType(), pre)
			continue
		}
		rest = append(rest, u)
		pos = append(pos, i)
	}
	if len(rest) == 0 {
		return errs
	}
	for j, err := range s.ents.Write(rest, atomicity) {
		errs[pos[j]] = err
	}
	return errs
}

var errDigest = errors.New("digest entry")

func (s *P4RTServer) writeDigestEntry(typ p4v1.Update_Type, de *p4v1.DigestEntry) error {
	src, ok := s.ents.(verdictSource)
	if !ok || src.VerdictDigestID() == 0 || de.GetDigestId() != src.VerdictDigestID() {
		return status.Errorf(codes.NotFound, "%v: digest id %#x is not in the program", errDigest, de.GetDigestId())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := &s.digests
	switch typ {
	case p4v1.Update_INSERT:
		if d.config != nil {
			return status.Errorf(codes.AlreadyExists, "%v %#x: already configured", errDigest, de.GetDigestId())
		}
	case p4v1.Update_MODIFY:
		if d.config == nil {
			return status.Errorf(codes.NotFound, "%v %#x: not configured", errDigest, de.GetDigestId())
		}
	case p4v1.Update_DELETE:
		if d.config == nil {
			return status.Errorf(codes.NotFound, "%v %#x: not configured", errDigest, de.GetDigestId())
		}
		d.config = nil
		return nil
	default:
		return status.Errorf(codes.InvalidArgument, "%v: update type %v", errDigest, typ)
	}
	cfg := de.GetConfig()
	if cfg == nil || cfg.GetAckTimeoutNs() < 0 || cfg.GetMaxTimeoutNs() < 0 || cfg.GetMaxListSize() < 0 {
		return status.Errorf(codes.InvalidArgument, "%v %#x: a config with non-negative timeouts and list size is required", errDigest, de.GetDigestId())
	}
	d.config = cfg
	return nil
}

// ackDigests takes a controller's DigestListAck.
func (s *P4RTServer) ackDigests(a *p4v1.DigestListAck) {
	src, ok := s.ents.(verdictSource)
	if !ok {
		return
	}
	s.mu.Lock()
	l, found := s.digests.unack[a.GetListId()]
	delete(s.digests.unack, a.GetListId())
	s.mu.Unlock()
	if found {
		src.AckVerdictDigests(l.dgs)
	}
}

// sendVerdicts sends digests to every primary, one list each, or gives
// them back to the data plane when no controller configured the digest
// (or none would hear them).
func (s *P4RTServer) sendVerdicts(src verdictSource, dgs []p4src.VerdictDigest, now time.Time) {
	s.mu.Lock()
	d := &s.digests
	var drop []p4src.VerdictDigest
	var primaries []*stream
	for _, rs := range s.roles {
		if rs.primary != nil {
			primaries = append(primaries, rs.primary)
		}
	}
	if d.config == nil || len(primaries) == 0 {
		drop = dgs
	} else {
		if d.unack == nil {
			d.unack = map[uint64]sentList{}
		}
		for _, dg := range dgs {
			if len(d.unack) >= maxUnacked {
				drop = append(drop, dg)
				continue
			}
			d.nextID++
			d.unack[d.nextID] = sentList{dgs: []p4src.VerdictDigest{dg}, at: now}
			msg := &p4v1.StreamMessageResponse{Update: &p4v1.StreamMessageResponse_Digest{Digest: &p4v1.DigestList{
				DigestId: src.VerdictDigestID(), ListId: d.nextID, Data: []*p4v1.P4Data{dg.Data()},
				Timestamp: now.UnixNano()}}}
			for _, p := range primaries {
				p.trySend(msg)
			}
		}
	}
	s.mu.Unlock()
	if len(drop) > 0 {
		src.AckVerdictDigests(drop)
	}
}

// expireDigests takes lists unacknowledged past the ack timeout as lost.
func (s *P4RTServer) expireDigests(src verdictSource, now time.Time) {
	s.mu.Lock()
	d := &s.digests
	timeout := 500 * time.Millisecond
	if d.config != nil && d.config.GetAckTimeoutNs() > 0 {
		timeout = time.Duration(d.config.GetAckTimeoutNs())
	}
	var lost []p4src.VerdictDigest
	for id, l := range d.unack {
		if now.Sub(l.at) >= timeout {
			lost = append(lost, l.dgs...)
			delete(d.unack, id)
		}
	}
	s.mu.Unlock()
	if len(lost) > 0 {
		src.AckVerdictDigests(lost)
	}
}

// DigestConfigured says whether a controller configured the verdict
// digest, and its ack timeout.
func (s *P4RTServer) DigestConfigured() (bool, time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.digests.config == nil {
		return false, 0
	}
	return true, time.Duration(s.digests.config.GetAckTimeoutNs())
}

// digestLoop moves the data plane's verdict digests to the P4Runtime
// stream until ctx ends.
func (s *Switch) digestLoop(ctx context.Context) {
	if s.dp.VerdictDigestID() == 0 {
		return
	}
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		dgs, notify := s.dp.VerdictDigests()
		if len(dgs) > 0 {
			s.p4rt.sendVerdicts(s.dp, dgs, time.Now())
		}
		select {
		case <-ctx.Done():
			return
		case <-notify:
		case now := <-t.C:
			s.p4rt.expireDigests(s.dp, now)
		}
	}
}
