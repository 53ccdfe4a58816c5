package controlplane

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/program"
	"github.com/dpi-balancer/balancer/sessionmem"
)

// Errors callers can test with errors.Is.
var (
	// ErrNotPrimary: the session is connected as a backup (or not at all),
	// so it does not write. The desired state is kept and written when it
	// becomes primary.
	ErrNotPrimary = errors.New("controlplane: not the primary controller")
	// ErrWrite: the switch rejected some updates; the message lists them.
	ErrWrite = errors.New("controlplane: write rejected")
	// ErrClosed: Run has ended.
	ErrClosed = errors.New("controlplane: session closed")
	// ErrNotConnected: no connection the switch has answered.
	ErrNotConnected = errors.New("controlplane: not connected to the switch")
	// ErrStalled: the switch kept its connection open but stopped
	// answering (an RPC deadline, the liveness probe or the arbitration
	// ran out); the session dropped the connection and reconnects.
	ErrStalled = errors.New("controlplane: switch stalled")
	// ErrElectionIDInUse: the switch refused the session's arbitration
	// because another stream of its role holds the same election id:
	// most likely the session's own earlier stream, cut off by the
	// network without a close, which the switch has not dropped yet
	// (else another controller runs with the same id). The session
	// retries (electionRefusedRetry) and Status says so.
	ErrElectionIDInUse = errors.New("controlplane: election id in use on the switch")
)

// Pipeline is the forwarding pipeline to run on the switch.
type Pipeline struct {
	P4Info       *p4configv1.P4Info
	DeviceConfig []byte // BMv2 JSON; for Tofino the bf-p4c output
}

// Cookie identifies a pipeline: a hash of its P4Info and device config.
func (p Pipeline) Cookie() uint64 {
	h := fnv.New64a()
	b, _ := proto.MarshalOptions{Deterministic: true}.Marshal(p.P4Info)
	h.Write(b)
	h.Write(p.DeviceConfig)
	return h.Sum64()
}

// Options configure a Session.
type Options struct {
	Addr     string // host:port or unix:///path
	DeviceID uint64
	// Election is this controller's election id (high, low). The zero
	// value picks a time-based id, so a controller started later outranks
	// an earlier one.
	ElectionHigh, ElectionLow uint64
	// FixedElection: the election id is managed by the caller (for
	// instance from a leader election, see SetElection); with it, the id
	// 0 (high and low) is sent unset: a backup that never becomes
	// primary. When the switch
	// has no primary the session waits instead of bidding above the
	// highest id it was told about, so the only way to become primary is
	// an id handed in by the caller.
	FixedElection bool
	Role          string
	// TLS, when set, is used for the connection (set Certificates and
	// RootCAs for mutual TLS). Nil means plaintext.
	TLS      *tls.Config
	Pipeline Pipeline
	// Program is what the session writes: what it reads back, how it
	// readies what it read and plans the writes (the daemon hands in the
	// balancer's compiler).
	Program program.Program
	// Guard is what a read-back may hold back (the daemon hands in the
	// compiler's failure and epoch guards). Nil holds nothing back.
	Guard program.WriteGuard
	// BatchSize is the number of updates per Write request (default 500).
	BatchSize int
	// WriteDepth is how many Write requests of one batch may be in flight
	// at once (default 4; 1 writes one request at a time).
	WriteDepth int
	// MinBackoff and MaxBackoff bound the reconnect delay and the delay
	// between retries of a failed write (defaults 100ms and 5s). The
	// reconnect delay returns to MinBackoff after a healthy connection
	// (one the switch answered).
	MinBackoff, MaxBackoff time.Duration
	// Timing bounds every wait on the switch (deadlines, liveness probe,
	// keepalives, periodic reconcile).
	Timing
	Logger *slog.Logger
	// OnPrimary is called (from Run's goroutine) when the session becomes
	// primary and has reconciled, or stops being primary.
	OnPrimary func(primary bool)
	// Verdict: the data-plane verdict's digests (verdict.go).
	Verdict VerdictOptions
	// SessionMemory: the session memory's digests and idle notifications
	// (sessionmem.go), for a program that has it.
	SessionMemory SessionMemoryOptions
	// EvidenceCopy: the mirror sessions of the evidence copy across a
	// multi-pipe Tofino's pipes (p4src.EvidenceCopySessions), written on
	// every reconciliation (and again at each periodic reconcile while the
	// switch refuses them); none for a program or a switch without them.
	EvidenceCopy []*p4v1.CloneSessionEntry
	// OnEvidenceCopy, when set, is called (from Run's goroutine) with the
	// result of writing EvidenceCopy whenever the switch refuses them
	// (err: why, naming each session), and once when it takes them after
	// a refusal (nil): what EvidenceCopyErr says from then on.
	OnEvidenceCopy func(err error)
}

// Session is one controller's connection to one switch.
type Session struct {
	opts Options
	log  *slog.Logger

	work    chan func(*conn) // handed to Run's goroutine
	kick    chan struct{}    // a desired state waits to be written (see nudge)
	ins     chan PacketIn
	verdict verdictState
	sessMem sessionMemState
	done    chan struct{}
	started atomic.Bool

	mu         sync.Mutex // guards desired, desiredFn, desiredGen, status and elHigh/elLow (read by others)
	desired    []*p4v1.Entity
	desiredFn  func() []*p4v1.Entity // when set, desired is built on demand (ApplyUpdates)
	desiredGen uint64
	status     Status
	elHigh     uint64 // the election id of the next connection (SetElection)
	elLow      uint64

	guard         program.WriteGuard // Options.Guard, or one that holds nothing back
	verdictDigest *p4configv1.Digest // the pipeline's verdict digest; nil: none
	vsWarned      atomic.Bool
	copyErr       atomic.Pointer[error] // the evidence copy's last configuration error (nil: taken)
	primaryConn   atomic.Pointer[conn]  // set while a connection is primary and reconciled
	readConn      atomic.Pointer[conn]  // set while a connection is answered (reads)

	stats struct {
		connects, reconciles, pushes, writeReqs, updates, in, inDropped, out atomic.Uint64
		savedPushes, plans                                                   atomic.Uint64
		stalls, retries, readBacks, repairs, refusals                        atomic.Uint64
	}
}

// New returns a session; it starts nothing.
func New(opts Options) *Session {
	if opts.BatchSize <= 0 {
		opts.BatchSize = 500
	}
	if opts.WriteDepth <= 0 {
		opts.WriteDepth = 4
	}
	if opts.MinBackoff <= 0 {
		opts.MinBackoff = 100 * time.Millisecond
	}
	if opts.MaxBackoff <= 0 {
		opts.MaxBackoff = 5 * time.Second
	}
	opts.MaxBackoff = max(opts.MaxBackoff, opts.MinBackoff)
	opts.Timing = opts.Timing.withDefaults()
	if opts.ElectionHigh == 0 && opts.ElectionLow == 0 && !opts.FixedElection {
		opts.ElectionLow = uint64(time.Now().UnixNano())
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Session{opts: opts, log: log.With("switch", opts.Addr, "device", opts.DeviceID),
		work: make(chan func(*conn)), kick: make(chan struct{}, 1), ins: make(chan PacketIn, 4096), done: make(chan struct{})}
	s.status.ElectionHigh, s.status.ElectionLow = opts.ElectionHigh, opts.ElectionLow
	s.elHigh, s.elLow = opts.ElectionHigh, opts.ElectionLow
	s.status.AtomicWrites = true
	s.guard = opts.Guard
	if s.guard == nil {
		s.guard = program.NoGuard{}
	}
	s.verdictDigest = (&p4src.Schema{Info: opts.Pipeline.P4Info}).Digest(p4src.DigestVerdict)
	if sm := &s.opts.SessionMemory; sm.Enabled {
		s.sessMem.digestInfo = (&p4src.Schema{Info: opts.Pipeline.P4Info}).Digest(sessionmem.DigestName)
		if sm.ListSize <= 0 {
			sm.ListSize = 256
		}
		if sm.MaxDelay <= 0 {
			sm.MaxDelay = time.Millisecond
		}
		if sm.AckTimeout <= 0 {
			sm.AckTimeout = 500 * time.Millisecond
		}
		if sm.Queue <= 0 {
			sm.Queue = 1024
		}
		s.sessMem.init(sm.Queue)
	}
	return s
}

// do runs f on Run's goroutine with the current connection (nil when not
// connected) and returns its result. When ctx ends first, the result is
// dropped (f still completes on Run's goroutine).
func do[T any](ctx context.Context, s *Session, f func(*conn) (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	var zero T
	res := make(chan result, 1)
	select {
	case s.work <- func(c *conn) { v, err := f(c); res <- result{v, err} }:
	case <-ctx.Done():
		return zero, ctx.Err()
	case <-s.done:
		return zero, ErrClosed
	}
	select {
	case r := <-res:
		return r.v, r.err
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}

// Run connects and keeps the switch programmed until ctx ends.
func (s *Session) Run(ctx context.Context) error {
	if s.started.Swap(true) {
		return errors.New("controlplane: Run called twice")
	}
	defer close(s.done)
	if err := s.opts.Timing.Validate(); err != nil {
		return fmt.Errorf("controlplane: %w", err)
	}
	backoff := s.opts.MinBackoff
	for {
		healthy, err := s.connectAndServe(ctx)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if healthy {
			// The switch answered this connection: a new outage starts
			// from the shortest delay.
			backoff = s.opts.MinBackoff
		}
		s.lost(err)
		delay := backoff
		if errors.Is(err, ErrElectionIDInUse) {
			// The switch answered and frees the id at a moment it does not
			// tell: ask often enough to be back soon after it does.
			delay = min(delay, electionRefusedRetry)
		}
		s.log.Warn("switch session lost; reconnecting", "err", err, "in", delay)
		t := time.NewTimer(delay)
	wait:
		for {
			select {
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			case f := <-s.work:
				f(nil)
			case <-t.C:
				break wait
			}
		}
		backoff = nextBackoff(backoff, s.opts.MinBackoff, s.opts.MaxBackoff)
	}
}

// electionRefusedRetry bounds the reconnect delay while the switch
// refuses the election id (ErrElectionIDInUse): one refused arbitration a
// second costs the switch a connection and a log line, and the session is
// primary again within a second of the switch dropping the dead stream.
const electionRefusedRetry = time.Second

// nextBackoff doubles d within [lo, hi].
func nextBackoff(d, lo, hi time.Duration) time.Duration {
	return min(max(d*2, lo), hi)
}

// EvidenceCopyErr says why the switch holds no evidence-copy mirror
// sessions (Options.EvidenceCopy) after the last reconciliation, or nil
// when it took them (or there are none to write).
func (s *Session) EvidenceCopyErr() error {
	if p := s.copyErr.Load(); p != nil {
		return *p
	}
	return nil
}

// setEvidenceCopyErr records the evidence copy's configuration result,
// returning the one before it.
func (s *Session) setEvidenceCopyErr(err error) error {
	var p *error
	if err != nil {
		p = &err
	}
	if old := s.copyErr.Swap(p); old != nil {
		return *old
	}
	return nil
}
