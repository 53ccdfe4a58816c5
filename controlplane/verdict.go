package controlplane

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"

	"github.com/dpi-balancer/balancer/p4src"
)

// VerdictOptions connect a session to the data-plane verdict's digests
// (docs/availability.md), which the pipeline sends for every verdict. The
// guard that keeps the controller from clearing a verdict it has not
// received is the session's WriteGuard (Options.Guard).
type VerdictOptions struct {
	// AckTimeout is how long the switch holds back a repeat of a digest
	// the controller has not acknowledged (P4Runtime DigestEntry
	// ack_timeout_ns; default 500ms).
	AckTimeout time.Duration
}

// Verdict is one data-plane verdict digest as received.
type Verdict struct {
	p4src.VerdictDigest
	Received time.Time
}

type verdictState struct {
	once     sync.Once
	ch       chan Verdict
	received atomic.Uint64
	dropped  atomic.Uint64
	warned   atomic.Bool
}

func (v *verdictState) channel() chan Verdict {
	v.once.Do(func() { v.ch = make(chan Verdict, 1024) })
	return v.ch
}

// Verdicts delivers the data-plane verdict digests the switch sends
// (each verdict when it is proven, and repeats of standing verdicts at
// most once per AckTimeout). A reader that falls behind loses the newest;
// repeats bring standing verdicts back.
func (s *Session) Verdicts() <-chan Verdict { return s.verdict.channel() }

// VerdictStats are the digest counts: received and dropped because the
// reader fell behind.
func (s *Session) VerdictStats() (received, dropped uint64) {
	return s.verdict.received.Load(), s.verdict.dropped.Load()
}

// onDigest takes a DigestList from the stream: every verdict goes to
// Verdicts and the list is acknowledged.
func (c *conn) onDigest(l *p4v1.DigestList) {
	if sd := c.s.sessMem.digestInfo; sd != nil && c.s.sessionMemOn() && l.GetDigestId() == sd.GetPreamble().GetId() {
		c.onSessionDigest(l)
		return
	}
	d := c.s.verdictDigest
	if d == nil || l.GetDigestId() != d.GetPreamble().GetId() {
		return
	}
	now := time.Now()
	ch := c.s.verdict.channel()
	for _, item := range l.GetData() {
		v, err := p4src.DecodeVerdictDigest(item)
		if err != nil {
			c.s.log.Warn("switch sent a verdict digest this controller cannot read", "err", err)
			continue
		}
		c.s.verdict.received.Add(1)
		select {
		case ch <- Verdict{VerdictDigest: v, Received: now}:
		default:
			c.s.verdict.dropped.Add(1)
		}
	}
	ack := &p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_DigestAck{
		DigestAck: &p4v1.DigestListAck{DigestId: l.GetDigestId(), ListId: l.GetListId()}}}
	select {
	case c.sendq <- ack:
	default: // the stream is backed up: the switch resends after its ack timeout
	}
}

// configureDigest enables the verdict digest on the switch (P4Runtime
// DigestEntry: lists of one, sent at once). It is not a data-plane write
// (it is not counted in the session's updates). A switch that has the
// entry already (configured by this controller before a reconnect, or by
// another one) answers the INSERT with ALREADY_EXISTS, as PI (BMv2,
// Stratum) and the software switch do, in the update's error; the entry
// is then written again with MODIFY, the spec's way to change an existing
// entry, so the switch holds this controller's configuration (its ack
// timeout). A target that refuses either leaves the controller without
// data-plane verdicts (the pipeline still applies them): that is logged
// once.
func (c *conn) configureDigest(ctx context.Context) {
	d := c.s.verdictDigest
	if d == nil {
		return
	}
	ack := c.s.opts.Verdict.AckTimeout
	if ack <= 0 {
		ack = 500 * time.Millisecond
	}
	e := &p4v1.Entity{Entity: &p4v1.Entity_DigestEntry{DigestEntry: &p4v1.DigestEntry{DigestId: d.GetPreamble().GetId(),
		Config: &p4v1.DigestEntry_Config{MaxTimeoutNs: 0, MaxListSize: 1, AckTimeoutNs: int64(ack)}}}}
	if err := c.insertOrModify(ctx, e); err != nil && !c.s.verdict.warned.Swap(true) {
		c.s.log.Warn("the switch did not take the verdict digest's configuration: data-plane verdicts will not reach this controller", "err", err)
	}
}

// configureEvidenceCopy points the evidence copy's mirror sessions of a
// multi-pipe Tofino at the other pipes' recirculation ports
// (Options.EvidenceCopy; p4src.EvidenceCopySessions), as the verdict
// digest is configured: written with INSERT, or MODIFY when the switch
// holds them already. Like the digest's, they are not data-plane writes.
// A switch that refuses them leaves each pipe judging a filter by the
// returns it sees itself: the session's EvidenceCopyErr says so until a
// later reconciliation takes them (a new primary's, or the periodic
// reconcile's, which writes them again while they are refused).
func (c *conn) configureEvidenceCopy(ctx context.Context) {
	var errs []error
	for _, cs := range c.s.opts.EvidenceCopy {
		e := &p4v1.Entity{Entity: &p4v1.Entity_PacketReplicationEngineEntry{PacketReplicationEngineEntry: &p4v1.PacketReplicationEngineEntry{
			Type: &p4v1.PacketReplicationEngineEntry_CloneSessionEntry{CloneSessionEntry: cs}}}}
		if err := c.insertOrModify(ctx, e); err != nil {
			errs = append(errs, fmt.Errorf("mirror session %d: %w", cs.GetSessionId(), err))
		}
	}
	var err error
	if len(errs) > 0 {
		err = sessionErrs(errs)
	}
	prev := c.s.setEvidenceCopyErr(err)
	if err != nil && prev == nil {
		c.s.log.Warn("the switch did not take the evidence copy's mirror sessions: a filter whose links are in another pipe can be judged dead while it answers", "err", err)
	} else if err == nil && prev != nil {
		c.s.log.Info("the switch took the evidence copy's mirror sessions")
	}
	if f := c.s.opts.OnEvidenceCopy; f != nil && (err != nil || prev != nil) {
		f(err)
	}
}

// sessionErrs are the mirror sessions the switch refused: one line
// ("; " between them, for an alarm's message), each still matched by
// errors.Is and errors.As.
type sessionErrs []error

func (e sessionErrs) Error() string {
	s := make([]string, len(e))
	for i, err := range e {
		s[i] = err.Error()
	}
	return strings.Join(s, "; ")
}

func (e sessionErrs) Unwrap() []error { return e }

// insertOrModify writes one entity the controller configures outside the
// desired state (the digest, mirror sessions): INSERT, then MODIFY when
// the switch answers ALREADY_EXISTS (the spec's way to change an
// existing entry), so the switch holds this controller's configuration.
func (c *conn) insertOrModify(ctx context.Context, e *p4v1.Entity) error {
	write := func(typ p4v1.Update_Type) error {
		req := &p4v1.WriteRequest{DeviceId: c.s.opts.DeviceID, Role: c.roleName(), ElectionId: c.election(),
			Updates: []*p4v1.Update{{Type: typ, Entity: e}}, Atomicity: p4v1.WriteRequest_CONTINUE_ON_ERROR}
		rctx, cancel := c.rpcCtx(ctx, c.s.opts.RPCTimeout)
		defer cancel()
		if _, err := c.rt.Write(rctx, req); err != nil {
			return describeWriteError(err, req.GetUpdates())
		}
		return nil
	}
	err := write(p4v1.Update_INSERT)
	if err != nil && alreadyExists(err) {
		err = write(p4v1.Update_MODIFY)
	}
	return err
}

// alreadyExists says whether a one-update write failed with
// ALREADY_EXISTS: the update's error says so (P4Runtime's batch errors:
// the RPC's code is UNKNOWN, each update has its own), or the RPC's code
// does and no update's error says otherwise.
func alreadyExists(err error) bool {
	var we *WriteError
	if !errors.As(err, &we) {
		return false
	}
	if len(we.Updates) == 0 {
		return we.Code == codes.AlreadyExists
	}
	return len(we.Updates) == 1 && we.Updates[0].Code == codes.AlreadyExists
}

// Heard returns when the switch last answered the primary connection (any
// RPC or stream message), and false while there is none.
func (s *Session) Heard() (time.Time, bool) {
	c := s.primaryConn.Load()
	if c == nil {
		return time.Time{}, false
	}
	return c.heardAt(), true
}
