package controlplane

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/tables"
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
	Compiler *tables.Compiler
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
	// Verdict: the data-plane verdict's digests and epoch guard (verdict.go).
	Verdict VerdictOptions
}

// PacketIn is a frame the switch sent to the controller.
type PacketIn struct {
	Payload  []byte
	Metadata map[string]uint64
	Received time.Time
}

// Stats counts what the session did.
type Stats struct {
	Connects, Reconciles, PipelinePushes uint64
	// SavedPipelinePushes: the pushes made as VERIFY_AND_SAVE + COMMIT.
	SavedPipelinePushes         uint64
	WriteRequests, Updates      uint64
	PacketsIn, PacketsInDropped uint64
	PacketsOut                  uint64
	// Stalls counts connections dropped because the switch stopped
	// answering; Retries the timed retries of failed writes.
	Stalls, Retries uint64
	// ReadBacks counts periodic read-back reconciles; Repairs the
	// entries they rewrote because the switch had drifted.
	ReadBacks, Repairs uint64
}

// Status is a snapshot of the session.
type Status struct {
	Connected, Primary bool
	ElectionHigh       uint64
	ElectionLow        uint64
	LastError          string
	LastErrorAt        time.Time
	LastReconcile      time.Time
	LastPlan           string // "n inserts, m modifies, k deletes"
	AtomicWrites       bool   // the switch accepts ROLLBACK_ON_ERROR
	// Stalled: the last connection was dropped because the switch kept
	// it open but stopped answering; StalledSince is when it last
	// answered. Both clear when a connection is answered again.
	Stalled      bool
	StalledSince time.Time
	// Pending: the desired state is not known to be on the switch yet
	// (not connected, not primary, or a write failed and is retried at
	// NextRetry).
	Pending   bool
	NextRetry time.Time
	// LastReadBack is the end of the last periodic read-back reconcile.
	LastReadBack time.Time
	// OtherPrimary is the election id ("high:low") of the controller the
	// switch names as its primary while this session is a backup: that
	// controller can rewrite every table. "" when this session is
	// primary, the switch has no primary, or it is not connected.
	// OtherPrimarySince is when the switch first named it.
	OtherPrimary      string
	OtherPrimarySince time.Time
	// Standby: the session is a backup by design (FixedElection with the
	// id unset: a standby of a leader election), so another primary is
	// expected and raises no alarm.
	Standby bool
}

// ArbitrationCheckInterval is the pace at which a connected session
// repeats its arbitration update: the switch answers with the primary it
// has now, so another controller taking the primary role is noticed even
// from a switch that does not tell its backups (the switch tells them at
// once otherwise).
const ArbitrationCheckInterval = 500 * time.Millisecond

// Alarm is the operator's one-line view of a session that needs
// attention ("" when it is healthy): stalled, disconnected, or writes
// failing and retried.
func (st Status) Alarm() string {
	switch {
	case st.Stalled && !st.Connected:
		return fmt.Sprintf("switch stalled: no answer since %s", st.StalledSince.UTC().Format(time.RFC3339))
	case !st.Connected && st.LastError != "":
		return "switch disconnected: " + st.LastError
	case !st.Connected:
		return "switch not connected"
	case st.Pending && !st.NextRetry.IsZero():
		return "switch writes failing, retrying: " + st.LastError
	case !st.Primary && st.OtherPrimary != "" && !st.Standby:
		return fmt.Sprintf("another controller is primary on the switch (election id %s, this daemon's %d:%d, since %s): it can rewrite every table, and this daemon stays backup and writes nothing while it is there; stop that controller, or restart this daemon with a higher --election-id",
			st.OtherPrimary, st.ElectionHigh, st.ElectionLow, st.OtherPrimarySince.UTC().Format(time.RFC3339Nano))
	}
	return ""
}

// Session is one controller's connection to one switch.
type Session struct {
	opts Options
	log  *slog.Logger

	work    chan func(*conn) // handed to Run's goroutine
	kick    chan struct{}    // a desired state waits to be written (see nudge)
	ins     chan PacketIn
	verdict verdictState
	done    chan struct{}
	started atomic.Bool

	mu         sync.Mutex // guards desired, desiredFn, desiredGen, status and elHigh/elLow (read by others)
	desired    []*p4v1.Entity
	desiredFn  func() []*p4v1.Entity // when set, desired is built on demand (ApplyUpdates)
	desiredGen uint64
	status     Status
	elHigh     uint64 // the election id of the next connection (SetElection)
	elLow      uint64

	vsWarned    atomic.Bool
	primaryConn atomic.Pointer[conn] // set while a connection is primary and reconciled
	readConn    atomic.Pointer[conn] // set while a connection is answered (reads)

	stats struct {
		connects, reconciles, pushes, writeReqs, updates, in, inDropped, out atomic.Uint64
		savedPushes                                                          atomic.Uint64
		stalls, retries, readBacks, repairs                                  atomic.Uint64
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
	return s
}

// SetElection changes the session's election id and re-arbitrates with
// it on the open connection (later connections use it too). A lower id
// than the current one stops the session's writes at once, before the
// switch answers; a higher one bids for primary, and the session
// reconciles when the switch makes it primary. It waits for the
// session's goroutine (a write under way finishes first) or ctx.
//
// When lowering the id and ctx ends before the session's goroutine took
// the change (a long write under way), the connection is dropped: the
// write is cancelled and the next connection arbitrates with the new id.
func (s *Session) SetElection(ctx context.Context, high, low uint64) error {
	s.mu.Lock()
	lower := high < s.elHigh || (high == s.elHigh && low < s.elLow)
	s.elHigh, s.elLow = high, low
	s.status.ElectionHigh, s.status.ElectionLow = high, low
	s.mu.Unlock()
	if !s.started.Load() {
		return nil
	}
	_, err := s.do(ctx, func(c *conn) (any, error) {
		if c == nil {
			return nil, nil // the next connection bids with it
		}
		lower := high < c.elHigh || (high == c.elHigh && low < c.elLow)
		c.elHigh, c.elLow = high, low
		if lower && c.primary {
			c.s.log.Info("stepping down", "election_id", fmt.Sprintf("%d:%d", high, low))
			c.demote()
		}
		return nil, c.bid()
	})
	if err != nil && lower {
		if c := s.readConn.Load(); c != nil {
			c.cancel(fmt.Errorf("stepping down to election id %d:%d while the session was busy", high, low))
		}
	}
	return err
}

// PacketIns delivers packet-ins (dropped when the reader falls behind).
func (s *Session) PacketIns() <-chan PacketIn { return s.ins }

// Status returns a snapshot.
func (s *Session) Status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status
}

// Stats returns the counters.
func (s *Session) Stats() Stats {
	return Stats{
		Connects: s.stats.connects.Load(), Reconciles: s.stats.reconciles.Load(), PipelinePushes: s.stats.pushes.Load(), SavedPipelinePushes: s.stats.savedPushes.Load(),
		WriteRequests: s.stats.writeReqs.Load(), Updates: s.stats.updates.Load(),
		PacketsIn: s.stats.in.Load(), PacketsInDropped: s.stats.inDropped.Load(), PacketsOut: s.stats.out.Load(),
		Stalls: s.stats.stalls.Load(), Retries: s.stats.retries.Load(),
		ReadBacks: s.stats.readBacks.Load(), Repairs: s.stats.repairs.Load(),
	}
}

// Apply sets the desired state and, when primary, writes the difference.
// Without a primary connection it returns ErrNotPrimary; the state is kept
// and reconciled on the next connection. When a write fails the error is
// returned and the session keeps retrying on a timer (with backoff) until
// the desired state is on the switch.
func (s *Session) Apply(ctx context.Context, desired []*p4v1.Entity) (*tables.Plan, error) {
	gen := s.setDesired(desired)
	var handed atomic.Bool
	v, err := s.do(ctx, func(c *conn) (any, error) {
		handed.Store(true)
		if c == nil || !c.primary {
			return nil, ErrNotPrimary
		}
		plan, err := c.applyDelta(ctx, desired)
		c.applied(gen, err)
		return plan, err
	})
	if err != nil && !handed.Load() {
		// The caller gave up before Run's goroutine took the state:
		// it writes it on its own.
		s.nudge()
	}
	plan, _ := v.(*tables.Plan)
	return plan, err
}

// ApplyUpdates is Apply for a runtime state change: desired returns the
// new complete desired state (built only when needed: a reconciliation, a
// retry, a read-back) and changed holds the entities in it that differ
// from the previous one (each replaces the entry of the same key), in
// write order. When the session's record of the switch is current, only
// those are written, in one batch, without a diff of the whole site;
// otherwise (after a failed write, before the first read-back) it falls
// back to Apply's full delta. Failures are retried as for Apply.
func (s *Session) ApplyUpdates(ctx context.Context, desired func() []*p4v1.Entity, changed []*p4v1.Entity) (*tables.Plan, error) {
	gen := s.setDesiredFn(desired)
	var handed atomic.Bool
	v, err := s.do(ctx, func(c *conn) (any, error) {
		handed.Store(true)
		if c == nil || !c.primary {
			return nil, ErrNotPrimary
		}
		var plan *tables.Plan
		var err error
		if !c.known() || c.writtenGen != gen-1 {
			plan, err = c.applyDelta(ctx, desired())
		} else {
			plan, err = c.applyChanged(ctx, desired, changed)
		}
		c.applied(gen, err)
		return plan, err
	})
	if err != nil && !handed.Load() {
		s.nudge()
	}
	plan, _ := v.(*tables.Plan)
	return plan, err
}

// SetDesired sets the desired state without waiting for it: before Run
// it is what the first reconciliation writes; while connected as primary
// the session writes it on its own within MinBackoff (unless an Apply
// comes first), and retries until it is on the switch.
func (s *Session) SetDesired(desired []*p4v1.Entity) {
	s.setDesired(desired)
	s.nudge()
}

// nudge tells Run's goroutine that a desired state waits to be written.
func (s *Session) nudge() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

func (s *Session) setDesired(desired []*p4v1.Entity) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.desired, s.desiredFn = desired, nil
	s.desiredGen++
	s.status.Pending = true
	return s.desiredGen
}

func (s *Session) setDesiredFn(desired func() []*p4v1.Entity) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.desired, s.desiredFn = nil, desired
	s.desiredGen++
	s.status.Pending = true
	return s.desiredGen
}

// desiredState returns the desired entities and their generation,
// building them (outside the lock) when they were given as a function.
func (s *Session) desiredState() ([]*p4v1.Entity, uint64) {
	s.mu.Lock()
	desired, fn, gen := s.desired, s.desiredFn, s.desiredGen
	s.mu.Unlock()
	if fn != nil {
		desired = fn()
	}
	return desired, gen
}

// PacketOut sends a frame through the switch (primary only).
//
// It does not wait for Run's goroutine (which may be busy writing): the
// frame is queued on the stream's sender, so keep-alives keep their pace
// while the switch is being programmed.
func (s *Session) PacketOut(ctx context.Context, port uint32, flags uint8, frame []byte) error {
	c := s.primaryConn.Load()
	if c == nil {
		return ErrNotPrimary
	}
	return c.packetOut(port, flags, frame)
}

// Read returns entities from the switch (any connected session may read).
//
// Reads do not pass through Run's goroutine: they use a connection of
// their own to the switch, so a large read (a counter poll of every slot)
// never delays a write, and a write never waits for a read. Each read is
// bounded by Timing.ReadTimeout.
func (s *Session) Read(ctx context.Context, entities ...*p4v1.Entity) ([]*p4v1.Entity, error) {
	c := s.readConn.Load()
	if c == nil {
		return nil, ErrNotConnected
	}
	return c.read(ctx, c.readRT, entities...)
}

// do runs f on Run's goroutine with the current connection (nil when not
// connected) and returns its result. When ctx ends first, the result is
// dropped (f still completes on Run's goroutine).
func (s *Session) do(ctx context.Context, f func(*conn) (any, error)) (any, error) {
	type result struct {
		v   any
		err error
	}
	res := make(chan result, 1)
	select {
	case s.work <- func(c *conn) { v, err := f(c); res <- result{v, err} }:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.done:
		return nil, ErrClosed
	}
	select {
	case r := <-res:
		return r.v, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
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
		s.log.Warn("switch session lost; reconnecting", "err", err, "in", backoff)
		t := time.NewTimer(backoff)
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

// nextBackoff doubles d within [lo, hi].
func nextBackoff(d, lo, hi time.Duration) time.Duration {
	return min(max(d*2, lo), hi)
}

// lost records the end of a connection in the status.
func (s *Session) lost(err error) {
	var se *stallError
	stalled := errors.As(err, &se)
	if stalled {
		s.stats.stalls.Add(1)
	}
	s.setStatus(func(st *Status) {
		st.Connected, st.Primary, st.NextRetry = false, false, time.Time{}
		st.OtherPrimary, st.OtherPrimarySince = "", time.Time{}
		if err != nil {
			st.LastError, st.LastErrorAt = err.Error(), time.Now()
		}
		if stalled && st.Stalled {
			// Still stalled: the switch has not answered since the first
			// stall, whatever this attempt waited for.
			again := *se
			again.since = st.StalledSince
			st.LastError = again.Error()
		}
		switch {
		case stalled && !st.Stalled:
			st.Stalled, st.StalledSince = true, se.since
		case !stalled:
			st.Stalled, st.StalledSince = false, time.Time{}
		}
	})
}

func (s *Session) setStatus(f func(*Status)) {
	s.mu.Lock()
	f(&s.status)
	s.mu.Unlock()
}

// stallError: the switch kept the connection open but did not answer.
type stallError struct {
	since time.Time // the switch's last answer
	what  string    // what went unanswered
}

func (e *stallError) Error() string {
	return fmt.Sprintf("%v: %s; no answer from the switch since %s", ErrStalled, e.what, e.since.UTC().Format(time.RFC3339))
}

func (e *stallError) Unwrap() error { return ErrStalled }

// conn is one connection; only Run's goroutine touches it, except for
// the fields marked otherwise.
type conn struct {
	noSaveCommit bool // the switch answered UNIMPLEMENTED to VERIFY_AND_SAVE
	s            *Session
	ctx          context.Context // ends with the connection; its cause says why
	cancel       context.CancelCauseFunc
	cc           *grpc.ClientConn
	rt           p4v1.P4RuntimeClient
	readRT       p4v1.P4RuntimeClient // on a connection of its own (any goroutine)
	stream       p4v1.P4Runtime_StreamChannelClient

	wg      sync.WaitGroup // the probe and a read-back
	heard   atomic.Int64   // unix nanos of the switch's last answer (any goroutine)
	longOps atomic.Int32   // RPCs allowed to take long (pipeline push)

	primary bool
	ready   bool // primary and reconciled: OnPrimary(true) was called
	atomic  bool
	dirty   bool // a write failed: re-read before the next delta
	// synced is what the switch holds (unless dirty): the desired
	// entities last written, in the order they were given (shared with
	// the desired state, so the session holds no copy of the site;
	// called when needed). Nil: read the switch back first.
	synced func() []*p4v1.Entity
	// heldFG holds, by key, the filter_forward entries of filter_groups
	// as the switch holds them (last read back, then as written): the
	// epoch guard compares a write with it (guardEpochs). The record
	// (synced) is the desired list, which a guarded write differs from.
	heldFG map[string]*p4v1.Entity
	// fail is the failure guard's record (failguard.go).
	fail tables.FailureGuard
	// changedSince holds, by key, the entities ApplyUpdates wrote since
	// the last full write (synced): an unchanged one is not written again.
	changedSince map[string]*p4v1.Entity
	// writtenGen is the desired state generation last written (in full,
	// or its changes): ApplyUpdates writes only the changes from the
	// generation right before it.
	writtenGen uint64
	writeGen   uint64 // writes attempted on this connection
	pushedAt   time.Time
	elHigh     uint64
	elLow      uint64
	pio        *wire.PacketIO
	sendq      chan *p4v1.StreamMessageRequest // the only writer of the stream
	sendErr    chan error

	retryDelay time.Duration
	retryTimer *time.Timer
	retryC     <-chan time.Time // nil: no retry armed

	reconcileTick *time.Ticker
	reconcileC    <-chan time.Time // nil: periodic reconcile off
	readBackBusy  bool
	retryRead     bool // a retry waits for the read-back under way
	readBacks     chan readBack
	pipelineLost  chan time.Time // from the probe: when its request was sent
}

type streamEvent struct {
	arb *p4v1.MasterArbitrationUpdate
	err error
}

// readBack is the result of a periodic read-back, computed off Run's
// goroutine.
type readBack struct {
	desired    []*p4v1.Entity // what plan writes
	cur        []*p4v1.Entity
	plan       *tables.Plan
	writeGen   uint64
	desiredGen uint64
	err        error
}

func (c *conn) markHeard() { c.heard.Store(time.Now().UnixNano()) }

func (c *conn) heardAt() time.Time { return time.Unix(0, c.heard.Load()) }

// answered reports whether an RPC's result came from the switch.
func answered(err error) bool {
	switch status.Code(err) {
	case codes.DeadlineExceeded, codes.Canceled, codes.Unavailable:
		return false
	}
	return true
}

// unaryHeard and streamHeard note every answer of the switch.
func (c *conn) unaryHeard(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn,
	invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	err := invoker(ctx, method, req, reply, cc, opts...)
	if answered(err) {
		c.markHeard()
	}
	return err
}

func (c *conn) streamHeard(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string,
	streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	cs, err := streamer(ctx, desc, cc, method, opts...)
	if err != nil {
		return nil, err
	}
	return heardStream{cs, c}, nil
}

type heardStream struct {
	grpc.ClientStream
	c *conn
}

func (h heardStream) RecvMsg(m any) error {
	err := h.ClientStream.RecvMsg(m)
	if err == nil || errors.Is(err, io.EOF) || answered(err) {
		h.c.markHeard()
	}
	return err
}

// cause returns why the connection ended when it did, else err.
func (c *conn) cause(err error) error {
	if c.ctx.Err() != nil {
		if cause := context.Cause(c.ctx); cause != nil && !errors.Is(cause, context.Canceled) {
			return cause
		}
	}
	return err
}

// rpcCtx is the context of one RPC: it ends with the caller's context,
// with the connection, or after d.
func (c *conn) rpcCtx(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	rctx, cancel := context.WithTimeout(c.ctx, d)
	stop := context.AfterFunc(ctx, cancel)
	return rctx, func() { stop(); cancel() }
}

// rpcErr classifies an RPC error. When the RPC's own deadline ran out
// and the switch answered nothing for StallTimeout, the switch is hung:
// the connection is dropped (and reconnected) and the stall returned.
func (c *conn) rpcErr(ctx, rctx context.Context, what string, d time.Duration, err error) error {
	if err == nil {
		return nil
	}
	if c.ctx.Err() != nil {
		return c.cause(err)
	}
	if ctx.Err() == nil && errors.Is(rctx.Err(), context.DeadlineExceeded) {
		if heard := c.heardAt(); time.Since(heard) >= c.s.opts.StallTimeout {
			se := &stallError{since: heard, what: fmt.Sprintf("%s not answered within %v", what, d)}
			c.cancel(se)
			return se
		}
		return fmt.Errorf("%s not answered within %v: %w", what, d, err)
	}
	return err
}

func (s *Session) dialOptions(c *conn) []grpc.DialOption {
	creds := insecure.NewCredentials()
	if s.opts.TLS != nil {
		creds = credentials.NewTLS(s.opts.TLS)
	}
	return []grpc.DialOption{grpc.WithTransportCredentials(creds),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(256<<20), grpc.MaxCallSendMsgSize(64<<20)),
		grpc.WithKeepaliveParams(s.opts.KeepaliveParams()),
		grpc.WithChainUnaryInterceptor(c.unaryHeard), grpc.WithChainStreamInterceptor(c.streamHeard)}
}

// connectAndServe runs one connection until it fails. healthy reports
// whether the switch answered it (arbitration).
func (s *Session) connectAndServe(ctx context.Context) (healthy bool, _ error) {
	start := time.Now()
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	s.mu.Lock()
	elHigh, elLow := s.elHigh, s.elLow
	s.mu.Unlock()
	c := &conn{s: s, ctx: cctx, cancel: cancel, atomic: s.Status().AtomicWrites,
		elHigh: elHigh, elLow: elLow, dirty: true,
		readBacks: make(chan readBack, 1), pipelineLost: make(chan time.Time, 1)}
	c.heard.Store(start.UnixNano())
	cc, err := grpc.NewClient(s.opts.Addr, s.dialOptions(c)...)
	if err != nil {
		return false, fmt.Errorf("dial %s: %w", s.opts.Addr, err)
	}
	defer cc.Close()
	// Reads get a connection of their own: a large read streaming back
	// never sits in front of a write.
	rcc, err := grpc.NewClient(s.opts.Addr, s.dialOptions(c)...)
	if err != nil {
		return false, fmt.Errorf("dial %s: %w", s.opts.Addr, err)
	}
	defer rcc.Close()
	c.cc, c.rt, c.readRT = cc, p4v1.NewP4RuntimeClient(cc), p4v1.NewP4RuntimeClient(rcc)
	defer c.stopTimers()
	schema, err := p4src.NewSchema(s.opts.Pipeline.P4Info)
	if err == nil {
		c.pio, err = wire.NewPacketIO(schema)
	}
	if err != nil {
		return false, fmt.Errorf("pipeline: %w", err)
	}
	// The switch must answer the arbitration within StallTimeout (a TCP
	// connection that opens but carries nothing stalls here).
	arbTimer := time.AfterFunc(s.opts.StallTimeout, func() {
		cancel(&stallError{since: start, what: fmt.Sprintf("arbitration not answered within %v", s.opts.StallTimeout)})
	})
	defer arbTimer.Stop()
	c.stream, err = c.rt.StreamChannel(cctx, grpc.WaitForReady(false))
	if err != nil {
		return false, c.cause(fmt.Errorf("open stream: %w", err))
	}
	events := make(chan streamEvent, 16)
	recvDone := make(chan struct{})
	defer close(recvDone)
	go c.recvLoop(events, recvDone)
	c.sendq, c.sendErr = make(chan *p4v1.StreamMessageRequest, 1024), make(chan error, 1)
	go c.sendLoop(recvDone)
	defer c.wg.Wait()
	defer cancel(nil) // ends the probe and a read-back before they are waited for
	defer s.primaryConn.CompareAndSwap(c, nil)
	defer s.readConn.CompareAndSwap(c, nil)
	if err := c.bid(); err != nil {
		return false, c.cause(err)
	}
	defer func() {
		if c.primary && s.opts.OnPrimary != nil {
			s.opts.OnPrimary(false)
		}
	}()
	arbCheck := time.NewTicker(ArbitrationCheckInterval)
	defer arbCheck.Stop()
	for {
		select {
		case <-arbCheck.C:
			// Who is primary now? (The answer comes as an arbitration
			// update, handled below.)
			if healthy {
				if err := c.bid(); err != nil {
					return healthy, c.cause(err)
				}
			}
		case <-ctx.Done():
			return healthy, nil
		case <-cctx.Done():
			return healthy, c.cause(cctx.Err())
		case err := <-c.sendErr:
			return healthy, c.cause(fmt.Errorf("stream send: %w", err))
		case ev := <-events:
			if ev.err != nil {
				return healthy, c.cause(fmt.Errorf("stream: %w", ev.err))
			}
			if !healthy {
				healthy = true
				arbTimer.Stop()
				s.stats.connects.Add(1)
				s.setStatus(func(st *Status) {
					st.Connected, st.LastError, st.Stalled, st.StalledSince = true, "", false, time.Time{}
				})
				s.readConn.Store(c)
				c.wg.Go(c.probe)
			}
			c.onArbitration(ctx, ev.arb)
		case f := <-s.work:
			f(c)
		case <-c.retryC:
			c.retry()
		case <-s.kick:
			if st := s.Status(); c.primary && st.Pending && c.retryC == nil {
				c.arm(s.opts.MinBackoff)
			}
		case <-c.reconcileC:
			c.startReadBack()
		case rb := <-c.readBacks:
			c.onReadBack(rb)
		case sent := <-c.pipelineLost:
			if c.ready && c.pushedAt.Before(sent) {
				s.log.Warn("the switch lost the pipeline; reconciling")
				_, gen := s.desiredState()
				err := c.reconcile(ctx)
				if err == nil {
					s.stats.reconciles.Add(1)
				}
				c.applied(gen, err)
			}
		}
		if err := c.ctx.Err(); err != nil {
			return healthy, c.cause(err)
		}
	}
}

// stallGrace is how long the probe lets answers already on the wire be
// read before it judges the switch silent.
const stallGrace = 100 * time.Millisecond

// probe asks the switch for its pipeline cookie every ProbeInterval. No
// answer within StallTimeout, with nothing else heard from the switch in
// that time, is a stall: the connection is dropped. A switch that lost
// the pipeline (restarted behind the same connection) gets it back.
func (c *conn) probe() {
	t := c.s.opts.Timing
	want := c.s.opts.Pipeline.Cookie()
	timer := time.NewTimer(t.ProbeInterval)
	defer timer.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-timer.C:
		}
		sent := time.Now()
		pctx, cancel := context.WithTimeout(c.ctx, t.StallTimeout)
		resp, err := c.rt.GetForwardingPipelineConfig(pctx, &p4v1.GetForwardingPipelineConfigRequest{
			DeviceId: c.s.opts.DeviceID, ResponseType: p4v1.GetForwardingPipelineConfigRequest_COOKIE_ONLY})
		cancel()
		if c.ctx.Err() != nil {
			return
		}
		next := t.ProbeInterval
		switch {
		case err == nil && resp.GetConfig().GetCookie().GetCookie() == want:
		case err == nil || status.Code(err) == codes.FailedPrecondition || status.Code(err) == codes.NotFound:
			select {
			case c.pipelineLost <- sent:
			default:
			}
		case status.Code(err) == codes.DeadlineExceeded:
			next = 0 // ask again at once
			if time.Since(sent) > t.StallTimeout+t.StallTimeout/4 {
				// The deadline fired late: this process was not running
				// (a host stall), the switch may well have answered.
				break
			}
			// Let answers already received be read before judging.
			time.Sleep(stallGrace)
			heard := c.heardAt()
			if c.longOps.Load() == 0 && time.Since(heard) >= t.StallTimeout && c.ctx.Err() == nil {
				c.cancel(&stallError{since: heard, what: fmt.Sprintf("liveness probe not answered within %v", t.StallTimeout)})
				return
			}
		default:
			c.s.log.Debug("liveness probe failed", "err", err)
		}
		timer.Reset(next)
	}
}

func (c *conn) stopTimers() {
	if c.retryTimer != nil {
		c.retryTimer.Stop()
	}
	if c.reconcileTick != nil {
		c.reconcileTick.Stop()
	}
}

// applied records the outcome of writing the desired state of
// generation gen: on success the state is on the switch (if gen is still
// the latest); on failure a retry is armed with backoff.
func (c *conn) applied(gen uint64, err error) {
	s := c.s
	if err == nil {
		c.writtenGen = gen
		c.retryDelay, c.retryC = 0, nil
		if c.retryTimer != nil {
			c.retryTimer.Stop()
		}
		s.mu.Lock()
		latest := gen == s.desiredGen
		if latest {
			s.status.Pending, s.status.NextRetry, s.status.LastError = false, time.Time{}, ""
		}
		s.mu.Unlock()
		if !latest {
			// A newer state arrived meanwhile: its Apply is usually
			// queued and cancels this; if not, the timer writes it.
			c.arm(s.opts.MinBackoff)
		}
		return
	}
	if errors.Is(err, ErrNotPrimary) || c.ctx.Err() != nil {
		return // the next connection reconciles
	}
	if c.retryDelay == 0 {
		c.retryDelay = s.opts.MinBackoff
	} else {
		c.retryDelay = nextBackoff(c.retryDelay, s.opts.MinBackoff, s.opts.MaxBackoff)
	}
	c.arm(c.retryDelay)
	s.setStatus(func(st *Status) { st.LastError, st.LastErrorAt = err.Error(), time.Now() })
	s.log.Warn("writing the switch failed; retrying", "err", err, "in", c.retryDelay)
}

// arm schedules a write of the desired state after d.
func (c *conn) arm(d time.Duration) {
	if c.retryTimer == nil {
		c.retryTimer = time.NewTimer(d)
	} else {
		c.retryTimer.Stop()
		c.retryTimer.Reset(d)
	}
	c.retryC = c.retryTimer.C
	c.s.setStatus(func(st *Status) { st.Pending, st.NextRetry = true, time.Now().Add(d) })
}

// retry writes the desired state again: the pipeline is checked (and
// pushed if the switch lost it), the switch re-read if a write failed,
// and the difference written.
func (c *conn) retry() {
	c.retryC = nil
	if !c.primary {
		return
	}
	c.s.stats.retries.Add(1)
	desired, gen := c.s.desiredState()
	if err := c.ensurePipeline(c.ctx); err != nil {
		c.applied(gen, err)
		return
	}
	if c.dirty {
		// A write failed: the switch is read back off this goroutine
		// (a failover write may come meanwhile) and onReadBack writes
		// the difference.
		c.retryRead = true
		c.startReadBack()
		return
	}
	_, err := c.applyDelta(c.ctx, desired)
	c.finishRetry(gen, err)
}

// finishRetry records the outcome of a retry; a primary that could not
// reconcile when it was elected becomes ready with its first success.
func (c *conn) finishRetry(gen uint64, err error) {
	c.applied(gen, err)
	if err == nil && c.primary && !c.ready {
		c.becomeReady()
	}
}

// becomeReady: primary and reconciled. Keep-alives may flow and the
// periodic reconcile starts.
func (c *conn) becomeReady() {
	c.ready = true
	if iv := c.s.opts.ReconcileInterval; iv > 0 && c.reconcileTick == nil {
		c.reconcileTick = time.NewTicker(iv)
		c.reconcileC = c.reconcileTick.C
	}
	c.s.primaryConn.Store(c)
	if c.s.opts.OnPrimary != nil {
		c.s.opts.OnPrimary(true)
	}
}

// startReadBack reads every owned table on the read connection and diffs
// it with the desired state, off Run's goroutine; onReadBack writes the
// repair.
func (c *conn) startReadBack() {
	if c.readBackBusy || !c.primary {
		return // one read-back at a time: the one under way serves
	}
	c.readBackBusy = true
	desired, dgen := c.s.desiredState()
	wgen := c.writeGen
	c.wg.Go(func() {
		rb := readBack{desired: desired, writeGen: wgen, desiredGen: dgen}
		rb.cur, rb.err = c.readOwned(c.ctx, c.readRT)
		if rb.err == nil {
			rb.plan = c.s.opts.Compiler.Diff(desired, rb.cur)
		}
		select {
		case c.readBacks <- rb:
		case <-c.ctx.Done():
		}
	})
}

func (c *conn) onReadBack(rb readBack) {
	c.readBackBusy = false
	retry := c.retryRead
	c.retryRead = false
	s := c.s
	if rb.err != nil {
		if retry {
			c.applied(rb.desiredGen, fmt.Errorf("read back: %w", rb.err))
		} else {
			s.log.Warn("periodic read-back failed", "err", rb.err)
		}
		return
	}
	if _, gen := s.desiredState(); rb.writeGen != c.writeGen || rb.desiredGen != gen || !c.primary {
		// Written meanwhile: this snapshot is stale. A write still owed
		// is retried; else the next periodic read-back counts.
		if c.primary && c.retryC == nil && s.Status().Pending {
			c.arm(s.opts.MinBackoff)
		}
		return
	}
	c.synced, c.dirty = nil, false // the plan is from rb.cur
	c.noteRead(rb.cur)
	c.guardFailures(rb.plan) // a kept failure is no drift to repair
	if !retry {
		s.stats.readBacks.Add(1)
		s.setStatus(func(st *Status) { st.LastReadBack = time.Now() })
		if !rb.plan.Empty() {
			s.log.Warn("the switch differs from the desired state; repairing",
				"inserts", rb.plan.Inserts, "modifies", rb.plan.Modifies, "deletes", rb.plan.Deletes)
			s.stats.repairs.Add(uint64(rb.plan.Len()))
		}
	}
	err := c.writePlan(c.ctx, rb.plan)
	if err == nil {
		c.syncedTo(rb.desired)
	}
	c.finishRetry(rb.desiredGen, err)
}

func (c *conn) bid() error {
	var role *p4v1.Role
	if c.s.opts.Role != "" {
		role = &p4v1.Role{Name: c.s.opts.Role}
	}
	el := &p4v1.Uint128{High: c.elHigh, Low: c.elLow}
	if c.s.opts.FixedElection && c.elHigh == 0 && c.elLow == 0 {
		el = nil // unset: a backup that never becomes primary (P4Runtime, Unset Election ID)
	}
	m := &p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Arbitration{
		Arbitration: &p4v1.MasterArbitrationUpdate{DeviceId: c.s.opts.DeviceID, Role: role, ElectionId: el}}}
	if c.sendq == nil { // before the sender runs
		return c.stream.Send(m)
	}
	c.sendq <- m
	return nil
}

// sendLoop is the stream's only writer.
func (c *conn) sendLoop(done <-chan struct{}) {
	for {
		select {
		case m := <-c.sendq:
			if err := c.stream.Send(m); err != nil {
				select {
				case c.sendErr <- err:
				default:
				}
				return
			}
		case <-done:
			return
		}
	}
}

func (c *conn) recvLoop(events chan<- streamEvent, done <-chan struct{}) {
	emit := func(ev streamEvent) bool {
		select {
		case events <- ev:
			return true
		case <-done:
			return false
		}
	}
	for {
		m, err := c.stream.Recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = errors.New("switch closed the stream")
			}
			emit(streamEvent{err: err})
			return
		}
		switch u := m.GetUpdate().(type) {
		case *p4v1.StreamMessageResponse_Arbitration:
			if !emit(streamEvent{arb: u.Arbitration}) {
				return
			}
		case *p4v1.StreamMessageResponse_Packet:
			c.s.stats.in.Add(1)
			p := PacketIn{Payload: u.Packet.GetPayload(), Metadata: c.pio.DecodePacketIn(u.Packet.GetMetadata()), Received: time.Now()}
			select {
			case c.s.ins <- p:
			default:
				c.s.stats.inDropped.Add(1)
			}
		case *p4v1.StreamMessageResponse_Digest:
			c.onDigest(u.Digest)
		case *p4v1.StreamMessageResponse_Error:
			c.s.log.Warn("switch reported a stream error", "code", codes.Code(u.Error.GetCanonicalCode()), "msg", u.Error.GetMessage())
		}
	}
}

// onArbitration follows the switch's view of who is primary. A failed
// reconciliation keeps the connection and is retried on a timer.
func (c *conn) onArbitration(ctx context.Context, a *p4v1.MasterArbitrationUpdate) {
	st := a.GetStatus().GetCode()
	switch st {
	case int32(code.Code_OK):
		c.otherPrimary(nil)
		if c.primary {
			return
		}
		c.primary = true
		c.s.log.Info("primary controller", "election_id", fmt.Sprintf("%d:%d", c.elHigh, c.elLow))
		c.s.setStatus(func(s *Status) { s.Primary = true; s.ElectionHigh, s.ElectionLow = c.elHigh, c.elLow })
		_, gen := c.s.desiredState()
		err := c.reconcile(ctx)
		c.applied(gen, err)
		if err != nil {
			return
		}
		c.s.stats.reconciles.Add(1)
		c.becomeReady()
	case int32(code.Code_NOT_FOUND):
		// No primary: take over by bidding above the highest id seen
		// (unless the caller manages the id: then wait for it).
		c.otherPrimary(nil)
		c.demote()
		if c.s.opts.FixedElection {
			c.s.log.Info("no primary controller; waiting for this controller's turn", "election_id", fmt.Sprintf("%d:%d", c.elHigh, c.elLow))
			return
		}
		hi, lo := a.GetElectionId().GetHigh(), a.GetElectionId().GetLow()
		if hi > c.elHigh || (hi == c.elHigh && lo >= c.elLow) {
			lo++
			if lo == 0 {
				hi++
			}
			c.elHigh, c.elLow = hi, lo
		}
		c.s.log.Info("no primary controller; bidding", "election_id", fmt.Sprintf("%d:%d", c.elHigh, c.elLow))
		if err := c.bid(); err != nil {
			c.cancel(fmt.Errorf("bid: %w", err))
		}
	default:
		// Another controller is primary: the update carries its id.
		if c.primary {
			c.s.log.Warn("lost primary role to another controller", "primary_election_id", fmt.Sprintf("%d:%d", a.GetElectionId().GetHigh(), a.GetElectionId().GetLow()))
		}
		c.otherPrimary(a.GetElectionId())
		c.demote()
	}
}

// otherPrimary records the primary the switch named while this session
// is a backup (nil: none), and logs each new one once. The policy is to
// stay backup: bidding above it would start a fight in which both rewrite
// the tables; the alarm asks the operator to decide.
func (c *conn) otherPrimary(id *p4v1.Uint128) {
	other := ""
	if id != nil {
		other = fmt.Sprintf("%d:%d", id.GetHigh(), id.GetLow())
	}
	standby := c.s.opts.FixedElection && c.elHigh == 0 && c.elLow == 0
	var was string
	c.s.setStatus(func(s *Status) {
		was = s.OtherPrimary
		if other != s.OtherPrimary {
			s.OtherPrimarySince = time.Now()
		}
		if other == "" {
			s.OtherPrimarySince = time.Time{}
		}
		s.OtherPrimary, s.Standby = other, standby
	})
	switch {
	case other == "" || other == was:
	case standby:
		c.s.log.Info("standby: another controller is primary", "primary_election_id", other)
	default:
		c.s.log.Error("ALARM another controller is primary on the switch: staying backup, writing nothing",
			"primary_election_id", other, "election_id", fmt.Sprintf("%d:%d", c.elHigh, c.elLow))
	}
}

// demote: no longer primary (backup, or no primary at all).
func (c *conn) demote() {
	was := c.primary
	c.primary, c.ready = false, false
	c.fail = tables.FailureGuard{} // another controller may write now
	c.s.primaryConn.CompareAndSwap(c, nil)
	c.retryC, c.reconcileC = nil, nil
	if c.reconcileTick != nil {
		c.reconcileTick.Stop()
		c.reconcileTick = nil
	}
	c.s.setStatus(func(s *Status) { s.Primary, s.NextRetry = false, time.Time{} })
	if was && c.s.opts.OnPrimary != nil {
		c.s.opts.OnPrimary(false)
	}
}

func (c *conn) election() *p4v1.Uint128 { return &p4v1.Uint128{High: c.elHigh, Low: c.elLow} }

func (c *conn) roleName() string { return c.s.opts.Role }

// reconcile makes sure the pipeline is ours, then reads the switch back
// and writes the difference between the desired state and what it holds.
func (c *conn) reconcile(ctx context.Context) error {
	c.dirty = true // re-read unless the pipeline push empties the switch
	if err := c.ensurePipeline(ctx); err != nil {
		return err
	}
	c.configureDigest(ctx)
	desired, _ := c.s.desiredState()
	plan, err := c.applyDelta(ctx, desired)
	if err != nil {
		return err
	}
	c.s.log.Info("reconciled", "inserts", plan.Inserts, "modifies", plan.Modifies, "deletes", plan.Deletes)
	return nil
}

// ensurePipeline pushes the pipeline when the switch runs none or another
// one (judged by the cookie); the switch then holds no entries.
func (c *conn) ensurePipeline(ctx context.Context) error {
	p := c.s.opts.Pipeline
	want := p.Cookie()
	t := c.s.opts.Timing
	rctx, cancel := c.rpcCtx(ctx, t.RPCTimeout)
	resp, err := c.rt.GetForwardingPipelineConfig(rctx, &p4v1.GetForwardingPipelineConfigRequest{
		DeviceId: c.s.opts.DeviceID, ResponseType: p4v1.GetForwardingPipelineConfigRequest_COOKIE_ONLY})
	err = c.rpcErr(ctx, rctx, "GetForwardingPipelineConfig", t.RPCTimeout, err)
	cancel()
	have, hasCookie := uint64(0), false
	switch {
	case err == nil && resp.GetConfig().GetCookie() != nil:
		have, hasCookie = resp.GetConfig().GetCookie().GetCookie(), true
	case err != nil && status.Code(err) != codes.FailedPrecondition && status.Code(err) != codes.NotFound:
		return fmt.Errorf("get pipeline: %w", err)
	}
	if !hasCookie || have != want {
		c.s.log.Info("pushing pipeline", "had_cookie", have, "cookie", want)
		twoStep, err := c.pushPipeline(ctx, p, want)
		if err != nil {
			return fmt.Errorf("push pipeline: %w", err)
		}
		c.s.stats.pushes.Add(1)
		if twoStep {
			c.s.stats.savedPushes.Add(1)
		}
		c.pushedAt = time.Now()
		c.syncedTo(nil) // an empty switch
		c.dirty = false

	}
	return nil
}

// pushPipeline sends the program to the switch. Where the switch
// implements them it is VERIFY_AND_SAVE, then COMMIT: the transfer and
// the verification of the program (the slow part: megabytes, a compile
// check on the target) happen while the old program still forwards, and
// only COMMIT resets the switch, right before the site is written. A
// switch that answers UNIMPLEMENTED (BMv2 with PI 0.1.2) gets
// VERIFY_AND_COMMIT, and is not asked again on this connection.
func (c *conn) pushPipeline(ctx context.Context, p Pipeline, cookie uint64) (twoStep bool, err error) {
	t := c.s.opts.Timing
	set := func(act p4v1.SetForwardingPipelineConfigRequest_Action, cfg *p4v1.ForwardingPipelineConfig) error {
		c.longOps.Add(1)
		defer c.longOps.Add(-1)
		rctx, cancel := c.rpcCtx(ctx, t.PipelineTimeout)
		defer cancel()
		_, err := c.rt.SetForwardingPipelineConfig(rctx, &p4v1.SetForwardingPipelineConfigRequest{
			DeviceId: c.s.opts.DeviceID, Role: c.roleName(), ElectionId: c.election(), Action: act, Config: cfg})
		return c.rpcErr(ctx, rctx, "SetForwardingPipelineConfig "+act.String(), t.PipelineTimeout, err)
	}
	cfg := &p4v1.ForwardingPipelineConfig{P4Info: p.P4Info, P4DeviceConfig: p.DeviceConfig,
		Cookie: &p4v1.ForwardingPipelineConfig_Cookie{Cookie: cookie}}
	if !c.noSaveCommit {
		err := set(p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_SAVE, cfg)
		if err == nil {
			if err := set(p4v1.SetForwardingPipelineConfigRequest_COMMIT, nil); err != nil {
				return false, err
			}
			return true, nil
		}
		if status.Code(err) != codes.Unimplemented {
			return false, err
		}
		c.noSaveCommit = true
		c.s.log.Info("switch does not implement VERIFY_AND_SAVE + COMMIT; pushing with VERIFY_AND_COMMIT (the switch is reset while the program is transferred)")
	}
	return false, set(p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT, cfg)
}

// readOwned reads every table and value set the compiler owns with rt,
// in the switch's order (a switch that answers in write order lets
// tables.Diff pair the entries by position), without default entries.
func (c *conn) readOwned(ctx context.Context, rt p4v1.P4RuntimeClient) ([]*p4v1.Entity, error) {
	comp := c.s.opts.Compiler
	var wild []*p4v1.Entity
	for _, id := range comp.TableIDs() {
		wild = append(wild, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: id}}})
	}
	for _, id := range comp.ValueSetIDs() {
		wild = append(wild, &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{ValueSetId: id}}})
	}
	es, err := c.read(ctx, rt, wild[:len(comp.TableIDs())]...)
	if err != nil {
		return nil, err
	}
	if vs, err := c.read(ctx, rt, wild[len(comp.TableIDs()):]...); err == nil {
		es = append(es, vs...)
	} else if status.Code(err) != codes.Unimplemented {
		return nil, err
	}
	cur := es[:0]
	for _, e := range es {
		if e.GetTableEntry().GetIsDefaultAction() {
			continue
		}
		comp.Canonical(e) // a target may spell out don't-care matches
		cur = append(cur, e)
	}
	return cur, nil
}

// applyDelta writes desired - current. The current state is the switch's
// as last read or written; after a failed write it is read again.
func (c *conn) applyDelta(ctx context.Context, desired []*p4v1.Entity) (*tables.Plan, error) {
	var current []*p4v1.Entity
	if c.known() {
		// In the order it was written: the diff pairs most entries by
		// position (tables.Diff).
		current = c.synced()
	} else {
		cur, err := c.readOwned(ctx, c.rt)
		if err != nil {
			return nil, fmt.Errorf("read back: %w", err)
		}
		current, c.synced, c.dirty = cur, nil, false
		c.noteRead(cur)
	}
	plan := c.s.opts.Compiler.Diff(desired, current)
	err := c.writePlan(ctx, plan)
	if err == nil {
		c.syncedTo(desired)
	}
	return plan, err
}

// known says whether the session knows what the switch holds without
// reading it back.
func (c *conn) known() bool { return !c.dirty && c.synced != nil }

// syncedTo records that the switch holds exactly desired (as written in
// full): the record is the desired list itself, no copy.
func (c *conn) syncedTo(desired []*p4v1.Entity) {
	c.synced, c.changedSince = func() []*p4v1.Entity { return desired }, nil
}

// writePlan writes a plan's batches in order (the caller records the
// state written); after a failure the switch is re-read before the next
// delta.
func (c *conn) writePlan(ctx context.Context, plan *tables.Plan) error {
	c.guardFailures(plan)
	c.guardEpochs(plan)
	for i := range plan.Batches {
		rest, err := c.writeValueSets(ctx, plan.Batches[i].Updates)
		if err != nil {
			c.dirty = true
			return err
		}
		plan.Batches[i].Updates = rest
	}
	for _, b := range plan.Batches {
		if err := c.writeBatch(ctx, b); err != nil {
			c.dirty = true
			return fmt.Errorf("%s: %w", b.Name, err)
		}
	}
	c.noteWritten(plan)
	summary := fmt.Sprintf("%d inserts, %d modifies, %d deletes", plan.Inserts, plan.Modifies, plan.Deletes)
	c.s.setStatus(func(s *Status) { s.LastReconcile = time.Now(); s.LastPlan = summary })
	return nil
}

// applyChanged writes the changed entities in one batch, each replacing
// the entry of its key on the switch (as ApplyUpdates promises): all are
// modifies, so a key the switch lacks fails the write and the retry reads
// the switch back. One the session wrote since the last full write, and
// unchanged, is not written again. The new desired state is then the
// record (synced).
func (c *conn) applyChanged(ctx context.Context, desired func() []*p4v1.Entity, changed []*p4v1.Entity) (*tables.Plan, error) {
	plan := &tables.Plan{}
	b := tables.Batch{Name: "runtime state"}
	var keys []string
	for _, e := range changed {
		k := tables.Key(e)
		if cur, ok := c.changedSince[k]; ok && proto.Equal(cur, e) {
			continue
		}
		b.Updates = append(b.Updates, &p4v1.Update{Type: p4v1.Update_MODIFY, Entity: e})
		keys = append(keys, k)
	}
	plan.Modifies = len(b.Updates)
	if len(b.Updates) == 0 {
		return plan, nil
	}
	plan.Batches = []tables.Batch{b}
	err := c.writePlan(ctx, plan)
	if err == nil {
		if c.changedSince == nil {
			c.changedSince = map[string]*p4v1.Entity{}
		}
		for i, k := range keys {
			c.changedSince[k] = b.Updates[i].GetEntity()
		}
		c.synced = desired
	}
	return plan, err
}

// DefaultValueSetMembers are the values the data plane parses even with
// empty value sets (p4src/shared/defines.p4).
var DefaultValueSetMembers = map[uint64]bool{wire.DefaultCoreTPID: true, wire.DefaultKeepAliveEtherType: true}

// writeValueSets writes the value set updates of a batch on their own and
// returns the rest. A target that cannot program value sets (BMv2 with PI
// 0.1.2) is tolerated while the values are the defaults the P4 program
// parses anyway; any other value is an error that says so.
func (c *conn) writeValueSets(ctx context.Context, us []*p4v1.Update) ([]*p4v1.Update, error) {
	var vs, rest []*p4v1.Update
	for _, u := range us {
		if u.GetEntity().GetValueSetEntry() != nil {
			vs = append(vs, u)
		} else {
			rest = append(rest, u)
		}
	}
	for _, u := range vs {
		err := c.write(ctx, []*p4v1.Update{u})
		if err == nil {
			continue
		}
		if we := (*WriteError)(nil); !errors.As(err, &we) || !we.Unimplemented() {
			return nil, err
		}
		var odd []string
		for _, m := range u.GetEntity().GetValueSetEntry().GetMembers() {
			for _, fm := range m.GetMatch() {
				if v := wire.Uint(fm.GetExact().GetValue()); !DefaultValueSetMembers[v] {
					odd = append(odd, fmt.Sprintf("%#04x", v))
				}
			}
		}
		if len(odd) > 0 {
			return nil, fmt.Errorf("%w: this switch cannot program parser value sets (UNIMPLEMENTED), so only the default core TPID %#04x and keep-alive EtherType %#04x are parsed; configured %s would not be recognised",
				ErrWrite, wire.DefaultCoreTPID, wire.DefaultKeepAliveEtherType, strings.Join(odd, ", "))
		}
		if !c.s.vsWarned.Swap(true) {
			c.s.log.Warn("switch cannot program parser value sets; the defaults are parsed by the program itself",
				"core_tpid", fmt.Sprintf("%#04x", wire.DefaultCoreTPID), "keepalive_ethertype", fmt.Sprintf("%#04x", wire.DefaultKeepAliveEtherType))
		}
	}
	return rest, nil
}

// writeBatch writes one batch in requests of BatchSize updates, atomically
// where the switch supports it. The updates of a batch are independent,
// so after the first request (which finds out whether the switch takes
// atomic writes) up to WriteDepth requests are in flight: the switch
// applies one while the next is encoded and sent. The first error ends
// the batch (requests in flight are cancelled; some may have been
// applied, so the caller re-reads the switch).
func (c *conn) writeBatch(ctx context.Context, b tables.Batch) error {
	us := b.Updates
	size := c.s.opts.BatchSize
	n := min(len(us), size)
	if err := c.write(ctx, us[:n]); err != nil {
		return err
	}
	us = us[n:]
	if depth := c.s.opts.WriteDepth; depth <= 1 {
		for len(us) > 0 {
			n := min(len(us), size)
			if err := c.write(ctx, us[:n]); err != nil {
				return err
			}
			us = us[n:]
		}
		return nil
	}
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	slots := make(chan struct{}, c.s.opts.WriteDepth)
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	atom := c.atomicity()
	for len(us) > 0 {
		select {
		case slots <- struct{}{}:
		case <-pctx.Done():
		}
		if pctx.Err() != nil {
			break
		}
		n := min(len(us), size)
		chunk := us[:n]
		us = us[n:]
		c.writeGen++
		wg.Go(func() {
			defer func() { <-slots }()
			if err := c.send(ctx, pctx, chunk, atom); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
				cancel()
			}
		})
	}
	wg.Wait()
	if first == nil && ctx.Err() != nil {
		first = ctx.Err()
	}
	return first
}

func (c *conn) atomicity() p4v1.WriteRequest_Atomicity {
	if !c.atomic {
		return p4v1.WriteRequest_CONTINUE_ON_ERROR
	}
	return p4v1.WriteRequest_ROLLBACK_ON_ERROR
}

// write sends one Write request and waits for it; a switch that refuses
// atomic writes as unimplemented is written without them from then on.
func (c *conn) write(ctx context.Context, us []*p4v1.Update) error {
	c.writeGen++
	err := c.send(ctx, ctx, us, c.atomicity())
	if we := (*WriteError)(nil); err != nil && c.atomic && errors.As(err, &we) && we.Code == codes.Unimplemented {
		c.atomic = false
		c.s.setStatus(func(s *Status) { s.AtomicWrites = false })
		c.s.log.Warn("switch does not support atomic writes (ROLLBACK_ON_ERROR); writing with CONTINUE_ON_ERROR: a failed batch may be partly applied and is re-read")
		err = c.send(ctx, ctx, us, c.atomicity())
	}
	return err
}

// send runs one Write RPC (any goroutine). ctx is the caller's (a stall
// is judged against it), wctx the one the RPC runs under (ctx, or a
// pipeline's that ends at its first error).
func (c *conn) send(ctx, wctx context.Context, us []*p4v1.Update, atom p4v1.WriteRequest_Atomicity) error {
	req := &p4v1.WriteRequest{DeviceId: c.s.opts.DeviceID, Role: c.roleName(), ElectionId: c.election(), Updates: us, Atomicity: atom}
	c.s.stats.writeReqs.Add(1)
	d := c.s.opts.RPCTimeout
	rctx, cancel := c.rpcCtx(wctx, d)
	defer cancel()
	_, err := c.rt.Write(rctx, req)
	if err == nil {
		c.s.stats.updates.Add(uint64(len(us)))
		return nil
	}
	if err := c.rpcErr(ctx, rctx, "Write", d, err); !answered(err) || errors.Is(err, ErrStalled) {
		return err
	}
	return describeWriteError(err, us)
}

// WriteError is a Write the switch rejected: its gRPC status and each
// failed update with its own code and message (P4Runtime's per-update
// errors). errors.Is(err, ErrWrite) holds for it.
type WriteError struct {
	Code    codes.Code
	Message string
	Updates []UpdateError // the failed updates, in request order
}

// UpdateError is one failed update of a WriteError.
type UpdateError struct {
	Update  *p4v1.Update
	Code    codes.Code
	Message string
}

// maxListed is how many failed updates a WriteError's message lists.
const maxListed = 10

func (e *WriteError) Error() string {
	if len(e.Updates) == 0 {
		return fmt.Sprintf("%v: %s: %s", ErrWrite, e.Code, e.Message)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%v: ", ErrWrite)
	for i, u := range e.Updates {
		if i == maxListed {
			b.WriteString("\n... and more")
			break
		}
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s %s: %s: %s", u.Update.GetType(), tables.Key(u.Update.GetEntity()), u.Code, u.Message)
	}
	return b.String()
}

// Is reports ErrWrite.
func (e *WriteError) Is(target error) bool { return target == ErrWrite }

// Unimplemented reports whether the switch refused the write, or every
// failed update, as not implemented.
func (e *WriteError) Unimplemented() bool {
	if e.Code == codes.Unimplemented {
		return true
	}
	for _, u := range e.Updates {
		if u.Code != codes.Unimplemented {
			return false
		}
	}
	return len(e.Updates) > 0
}

// describeWriteError turns a Write error into a WriteError.
func describeWriteError(err error, us []*p4v1.Update) error {
	st := status.Convert(err)
	we := &WriteError{Code: st.Code(), Message: st.Message()}
	for i, d := range st.Details() {
		pe, ok := d.(*p4v1.Error)
		if !ok || pe.GetCanonicalCode() == int32(code.Code_OK) || i >= len(us) {
			continue
		}
		we.Updates = append(we.Updates, UpdateError{Update: us[i], Code: codes.Code(pe.GetCanonicalCode()), Message: pe.GetMessage()})
	}
	return we
}

// read runs one Read with rt (the write or the read connection), bounded
// by ReadTimeout.
func (c *conn) read(ctx context.Context, rt p4v1.P4RuntimeClient, entities ...*p4v1.Entity) ([]*p4v1.Entity, error) {
	d := c.s.opts.ReadTimeout
	rctx, cancel := c.rpcCtx(ctx, d)
	defer cancel()
	rc, err := rt.Read(rctx, &p4v1.ReadRequest{DeviceId: c.s.opts.DeviceID, Entities: entities})
	if err != nil {
		return nil, c.rpcErr(ctx, rctx, "Read", d, err)
	}
	var out []*p4v1.Entity
	for {
		r, err := rc.Recv()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, c.rpcErr(ctx, rctx, "Read", d, err)
		}
		out = append(out, r.GetEntities()...)
	}
}

func (c *conn) packetOut(port uint32, flags uint8, frame []byte) error {
	md := c.pio.PacketOutMetadata(port, flags)
	select {
	case c.sendq <- &p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Packet{
		Packet: &p4v1.PacketOut{Payload: frame, Metadata: md}}}:
	default:
		return errors.New("packet-out: stream send queue full")
	}
	c.s.stats.out.Add(1)
	return nil
}
