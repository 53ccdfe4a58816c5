package controlplane

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"

	"github.com/dpi-balancer/balancer/sessionmem"
)

// SessionMemoryOptions connect a session to the session memory of a
// program that has it (docs/sessions.md): the session digests and the
// sessions table's idle notifications, which the session hands to a
// learner (the daemon's) without waiting for it; the learner writes the
// table with WriteUnowned. Off (the zero value): the session configures
// no session digest and drops idle notifications.
type SessionMemoryOptions struct {
	Enabled bool
	// ListSize is the most digests the switch puts in one list
	// (DigestEntry max_list_size; default 256), MaxDelay how long it may
	// hold a list back to fill it (max_timeout_ns; default 1ms).
	ListSize int
	MaxDelay time.Duration
	// AckTimeout: as VerdictOptions.AckTimeout (default 500ms).
	AckTimeout time.Duration
	// Queue bounds the digest lists and the idle notifications waiting
	// for the learner (default 1024 each); past it they are dropped and
	// counted (an unlearned session behaves as without the memory).
	Queue int
}

type sessionMemState struct {
	once       sync.Once
	digests    chan []sessionmem.Digest
	idle       chan []*p4v1.TableEntry
	received   atomic.Uint64 // digests
	dropped    atomic.Uint64 // digests dropped: the learner's queue was full
	idleRecv   atomic.Uint64 // entries notified idle
	idleDrop   atomic.Uint64 // notified entries dropped
	bad        atomic.Uint64 // digests this controller could not read
	warned     atomic.Bool
	digestInfo *p4configv1.Digest
}

func (m *sessionMemState) init(n int) {
	m.once.Do(func() {
		m.digests = make(chan []sessionmem.Digest, n)
		m.idle = make(chan []*p4v1.TableEntry, n)
	})
}

// SessionDigests delivers the session digests the switch sends, a list
// at a time (each list acknowledged already). Nil without the session
// memory (SessionMemoryOptions.Enabled, a program with the digest).
func (s *Session) SessionDigests() <-chan []sessionmem.Digest {
	if !s.sessionMemOn() {
		return nil
	}
	return s.sessMem.digests
}

// IdleEntries delivers the entries the switch notifies idle (P4Runtime
// IdleTimeoutNotification), a notification at a time. Nil without the
// session memory.
func (s *Session) IdleEntries() <-chan []*p4v1.TableEntry {
	if !s.sessionMemOn() {
		return nil
	}
	return s.sessMem.idle
}

// SessionMemoryStats are the session memory's stream counts.
type SessionMemoryStats struct {
	Digests, DigestsDropped, DigestsUnreadable uint64
	Idle, IdleDropped                          uint64
}

// SessionMemoryStats returns the session memory's stream counts.
func (s *Session) SessionMemoryStats() SessionMemoryStats {
	m := &s.sessMem
	return SessionMemoryStats{Digests: m.received.Load(), DigestsDropped: m.dropped.Load(), DigestsUnreadable: m.bad.Load(),
		Idle: m.idleRecv.Load(), IdleDropped: m.idleDrop.Load()}
}

func (s *Session) sessionMemOn() bool {
	return s.opts.SessionMemory.Enabled && s.sessMem.digestInfo != nil
}

// onSessionDigest takes a list of session digests: to the learner, or
// counted as dropped when its queue is full; acknowledged either way (a
// session not learned sends again once the ack lets it).
func (c *conn) onSessionDigest(l *p4v1.DigestList) {
	m := &c.s.sessMem
	dgs := make([]sessionmem.Digest, 0, len(l.GetData()))
	for _, item := range l.GetData() {
		d, err := sessionmem.DecodeDigest(item)
		if err != nil {
			if m.bad.Add(1) == 1 {
				c.s.log.Warn("switch sent a session digest this controller cannot read", "err", err)
			}
			continue
		}
		dgs = append(dgs, d)
	}
	m.received.Add(uint64(len(dgs)))
	select {
	case m.digests <- dgs:
	default:
		m.dropped.Add(uint64(len(dgs)))
	}
	c.ackDigest(l)
}

// onIdle takes an idle notification: to the learner, or dropped and
// counted (the entry then stays until the learner's next read-back finds
// it idle).
func (c *conn) onIdle(n *p4v1.IdleTimeoutNotification) {
	if !c.s.sessionMemOn() {
		return
	}
	m := &c.s.sessMem
	m.idleRecv.Add(uint64(len(n.GetTableEntry())))
	select {
	case m.idle <- n.GetTableEntry():
	default:
		m.idleDrop.Add(uint64(len(n.GetTableEntry())))
	}
}

// ackDigest acknowledges a digest list on the stream.
func (c *conn) ackDigest(l *p4v1.DigestList) {
	ack := &p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_DigestAck{
		DigestAck: &p4v1.DigestListAck{DigestId: l.GetDigestId(), ListId: l.GetListId()}}}
	select {
	case c.sendq <- ack:
	default: // the stream is backed up: the switch resends after its ack timeout
	}
}

// configureSessionDigest enables the session digest on the switch, as
// configureDigest the verdict's.
func (c *conn) configureSessionDigest(ctx context.Context) {
	if !c.s.sessionMemOn() {
		return
	}
	o := c.s.opts.SessionMemory
	e := &p4v1.Entity{Entity: &p4v1.Entity_DigestEntry{DigestEntry: &p4v1.DigestEntry{DigestId: c.s.sessMem.digestInfo.GetPreamble().GetId(),
		Config: &p4v1.DigestEntry_Config{MaxTimeoutNs: int64(o.MaxDelay), MaxListSize: int32(o.ListSize), AckTimeoutNs: int64(o.AckTimeout)}}}}
	if err := c.insertOrModify(ctx, e); err != nil && !c.s.sessMem.warned.Swap(true) {
		c.s.log.Warn("the switch did not take the session digest's configuration: no session will be learned", "err", err)
	}
}

// WriteUnowned writes updates of entities the desired state does not
// hold (the session memory's entries: no read-back covers their table)
// on the primary connection, from the caller's goroutine, with
// CONTINUE_ON_ERROR: it never waits for Run's goroutine, and the desired
// state's writes never wait for it. It returns each update's error (nil:
// applied; an *UpdateError with the switch's code otherwise), or an error
// for the whole request (ErrNotPrimary before the session is primary and
// reconciled, the switch unreachable).
func (s *Session) WriteUnowned(ctx context.Context, us []*p4v1.Update) ([]error, error) {
	c := s.primaryConn.Load()
	if c == nil {
		return nil, ErrNotPrimary
	}
	err := c.send(ctx, ctx, us, p4v1.WriteRequest_CONTINUE_ON_ERROR)
	errs := make([]error, len(us))
	if err == nil {
		return errs, nil
	}
	var we *WriteError
	if !errors.As(err, &we) || len(we.Updates) == 0 {
		return nil, err
	}
	pos := make(map[*p4v1.Update]int, len(us))
	for i, u := range us {
		pos[u] = i
	}
	for j := range we.Updates {
		if i, ok := pos[we.Updates[j].Update]; ok {
			errs[i] = &we.Updates[j]
		}
	}
	return errs, nil
}

// UpdateCode is the switch's code of an update's error from WriteUnowned
// (codes.OK for nil, codes.Unknown for an error of another kind).
func UpdateCode(err error) codes.Code {
	if err == nil {
		return codes.OK
	}
	var ue *UpdateError
	if errors.As(err, &ue) {
		return ue.Code
	}
	return codes.Unknown
}
