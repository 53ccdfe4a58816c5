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
	Role                      string
	// TLS, when set, is used for the connection (set Certificates and
	// RootCAs for mutual TLS). Nil means plaintext.
	TLS      *tls.Config
	Pipeline Pipeline
	Compiler *tables.Compiler
	// BatchSize is the number of updates per Write request (default 500).
	BatchSize int
	// MinBackoff and MaxBackoff bound the reconnect delay (defaults 100ms
	// and 5s).
	MinBackoff, MaxBackoff time.Duration
	Logger                 *slog.Logger
	// OnPrimary is called (from Run's goroutine) when the session becomes
	// primary and has reconciled, or stops being primary.
	OnPrimary func(primary bool)
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
	WriteRequests, Updates               uint64
	PacketsIn, PacketsInDropped          uint64
	PacketsOut                           uint64
}

// Status is a snapshot of the session.
type Status struct {
	Connected, Primary bool
	ElectionHigh       uint64
	ElectionLow        uint64
	LastError          string
	LastReconcile      time.Time
	LastPlan           string // "n inserts, m modifies, k deletes"
	AtomicWrites       bool   // the switch accepts ROLLBACK_ON_ERROR
}

// Session is one controller's connection to one switch.
type Session struct {
	opts Options
	log  *slog.Logger

	work    chan func(*conn) // handed to Run's goroutine
	ins     chan PacketIn
	done    chan struct{}
	started atomic.Bool

	mu        sync.Mutex // guards desired and status (read by others)
	desired   []*p4v1.Entity
	desiredFn func() []*p4v1.Entity // when set, desired is built on demand (ApplyUpdates)
	status    Status

	vsWarned    atomic.Bool
	primaryConn atomic.Pointer[conn] // set while a connection is primary

	stats struct {
		connects, reconciles, pushes, writeReqs, updates, in, inDropped, out atomic.Uint64
	}
}

// New returns a session; it starts nothing.
func New(opts Options) *Session {
	if opts.BatchSize <= 0 {
		opts.BatchSize = 500
	}
	if opts.MinBackoff <= 0 {
		opts.MinBackoff = 100 * time.Millisecond
	}
	if opts.MaxBackoff <= 0 {
		opts.MaxBackoff = 5 * time.Second
	}
	if opts.ElectionHigh == 0 && opts.ElectionLow == 0 {
		opts.ElectionLow = uint64(time.Now().UnixNano())
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Session{opts: opts, log: log.With("switch", opts.Addr, "device", opts.DeviceID),
		work: make(chan func(*conn)), ins: make(chan PacketIn, 4096), done: make(chan struct{})}
	s.status.ElectionHigh, s.status.ElectionLow = opts.ElectionHigh, opts.ElectionLow
	s.status.AtomicWrites = true
	return s
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
		Connects: s.stats.connects.Load(), Reconciles: s.stats.reconciles.Load(), PipelinePushes: s.stats.pushes.Load(),
		WriteRequests: s.stats.writeReqs.Load(), Updates: s.stats.updates.Load(),
		PacketsIn: s.stats.in.Load(), PacketsInDropped: s.stats.inDropped.Load(), PacketsOut: s.stats.out.Load(),
	}
}

// Apply sets the desired state and, when primary, writes the difference.
// Without a primary connection it returns ErrNotPrimary; the state is kept
// and reconciled on the next connection.
func (s *Session) Apply(ctx context.Context, desired []*p4v1.Entity) (*tables.Plan, error) {
	s.mu.Lock()
	s.desired, s.desiredFn = desired, nil
	s.mu.Unlock()
	v, err := s.do(ctx, func(c *conn) (any, error) {
		if c == nil || !c.primary {
			return nil, ErrNotPrimary
		}
		return c.applyDelta(ctx, desired)
	})
	plan, _ := v.(*tables.Plan)
	return plan, err
}

// ApplyUpdates is Apply for a runtime state change: desired returns the
// new complete desired state (built only when needed: a reconciliation)
// and changed holds the entities in it that differ from the previous one
// (each replaces the entry of the same key), in write order. When the
// session's record of the switch is current, only those are written, in
// one batch, without a diff of the whole site; otherwise (after a failed
// write, before the first read-back) it falls back to Apply's full delta.
func (s *Session) ApplyUpdates(ctx context.Context, desired func() []*p4v1.Entity, changed []*p4v1.Entity) (*tables.Plan, error) {
	s.mu.Lock()
	s.desired, s.desiredFn = nil, desired
	s.mu.Unlock()
	v, err := s.do(ctx, func(c *conn) (any, error) {
		if c == nil || !c.primary {
			return nil, ErrNotPrimary
		}
		if c.dirty || c.current == nil {
			return c.applyDelta(ctx, desired())
		}
		return c.applyChanged(ctx, changed)
	})
	plan, _ := v.(*tables.Plan)
	return plan, err
}

// SetDesired sets the desired state without writing it: it is written
// at the next reconciliation (connection) or Apply.
func (s *Session) SetDesired(desired []*p4v1.Entity) {
	s.mu.Lock()
	s.desired, s.desiredFn = desired, nil
	s.mu.Unlock()
}

// desiredNow returns the desired state, building it if it was given as a
// function.
func (s *Session) desiredNow() []*p4v1.Entity {
	s.mu.Lock()
	desired, fn := s.desired, s.desiredFn
	s.mu.Unlock()
	if fn != nil {
		return fn()
	}
	return desired
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
func (s *Session) Read(ctx context.Context, entities ...*p4v1.Entity) ([]*p4v1.Entity, error) {
	v, err := s.do(ctx, func(c *conn) (any, error) {
		if c == nil {
			return nil, fmt.Errorf("controlplane: not connected")
		}
		return c.read(ctx, entities...)
	})
	out, _ := v.([]*p4v1.Entity)
	return out, err
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
	backoff := s.opts.MinBackoff
	for {
		err := s.connectAndServe(ctx)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.setStatus(func(st *Status) {
			st.Connected, st.Primary = false, false
			if err != nil {
				st.LastError = err.Error()
			}
		})
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
		backoff = min(backoff*2, s.opts.MaxBackoff)
		if err == nil {
			backoff = s.opts.MinBackoff
		}
	}
}

func (s *Session) setStatus(f func(*Status)) {
	s.mu.Lock()
	f(&s.status)
	s.mu.Unlock()
}

// conn is one connection; only Run's goroutine touches it.
type conn struct {
	s       *Session
	cc      *grpc.ClientConn
	rt      p4v1.P4RuntimeClient
	stream  p4v1.P4Runtime_StreamChannelClient
	primary bool
	atomic  bool
	dirty   bool // a write failed: re-read before the next delta
	current map[string]*p4v1.Entity
	elHigh  uint64
	elLow   uint64
	inMeta  map[uint32]string
	outMeta map[string]uint32
	sendq   chan *p4v1.StreamMessageRequest // the only writer of the stream
	sendErr chan error
}

type streamEvent struct {
	arb *p4v1.MasterArbitrationUpdate
	err error
}

func (s *Session) connectAndServe(ctx context.Context) error {
	creds := insecure.NewCredentials()
	if s.opts.TLS != nil {
		creds = credentials.NewTLS(s.opts.TLS)
	}
	cc, err := grpc.NewClient(s.opts.Addr, grpc.WithTransportCredentials(creds),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(256<<20), grpc.MaxCallSendMsgSize(64<<20)))
	if err != nil {
		return fmt.Errorf("dial %s: %w", s.opts.Addr, err)
	}
	defer cc.Close()
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c := &conn{s: s, cc: cc, rt: p4v1.NewP4RuntimeClient(cc), atomic: s.Status().AtomicWrites,
		elHigh: s.opts.ElectionHigh, elLow: s.opts.ElectionLow, dirty: true,
		inMeta: map[uint32]string{}, outMeta: map[string]uint32{}}
	for _, h := range s.opts.Pipeline.P4Info.GetControllerPacketMetadata() {
		for _, m := range h.GetMetadata() {
			switch h.GetPreamble().GetName() {
			case "packet_in":
				c.inMeta[m.GetId()] = m.GetName()
			case "packet_out":
				c.outMeta[m.GetName()] = m.GetId()
			}
		}
	}
	c.stream, err = c.rt.StreamChannel(sctx, grpc.WaitForReady(false))
	if err != nil {
		return fmt.Errorf("open stream: %w", err)
	}
	events := make(chan streamEvent, 16)
	recvDone := make(chan struct{})
	defer close(recvDone)
	go c.recvLoop(events, recvDone)
	c.sendq, c.sendErr = make(chan *p4v1.StreamMessageRequest, 1024), make(chan error, 1)
	go c.sendLoop(recvDone)
	defer s.primaryConn.CompareAndSwap(c, nil)
	if err := c.bid(); err != nil {
		return err
	}
	s.stats.connects.Add(1)
	s.setStatus(func(st *Status) { st.Connected = true; st.LastError = "" })
	defer func() {
		if c.primary && s.opts.OnPrimary != nil {
			s.opts.OnPrimary(false)
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-c.sendErr:
			return fmt.Errorf("stream send: %w", err)
		case ev := <-events:
			if ev.err != nil {
				return fmt.Errorf("stream: %w", ev.err)
			}
			if err := c.onArbitration(ctx, ev.arb); err != nil {
				return err
			}
		case f := <-s.work:
			f(c)
		}
	}
}

func (c *conn) bid() error {
	var role *p4v1.Role
	if c.s.opts.Role != "" {
		role = &p4v1.Role{Name: c.s.opts.Role}
	}
	m := &p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Arbitration{
		Arbitration: &p4v1.MasterArbitrationUpdate{DeviceId: c.s.opts.DeviceID, Role: role,
			ElectionId: &p4v1.Uint128{High: c.elHigh, Low: c.elLow}}}}
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
			p := PacketIn{Payload: u.Packet.GetPayload(), Metadata: map[string]uint64{}, Received: time.Now()}
			for _, md := range u.Packet.GetMetadata() {
				p.Metadata[c.inMeta[md.GetMetadataId()]] = beUint(md.GetValue())
			}
			select {
			case c.s.ins <- p:
			default:
				c.s.stats.inDropped.Add(1)
			}
		case *p4v1.StreamMessageResponse_Error:
			c.s.log.Warn("switch reported a stream error", "code", codes.Code(u.Error.GetCanonicalCode()), "msg", u.Error.GetMessage())
		}
	}
}

// onArbitration follows the switch's view of who is primary.
func (c *conn) onArbitration(ctx context.Context, a *p4v1.MasterArbitrationUpdate) error {
	st := a.GetStatus().GetCode()
	switch st {
	case int32(code.Code_OK):
		if c.primary {
			return nil
		}
		c.primary = true
		c.s.log.Info("primary controller", "election_id", fmt.Sprintf("%d:%d", c.elHigh, c.elLow))
		c.s.setStatus(func(s *Status) { s.Primary = true; s.ElectionHigh, s.ElectionLow = c.elHigh, c.elLow })
		if err := c.reconcile(ctx); err != nil {
			c.s.setStatus(func(s *Status) { s.LastError = err.Error() })
			return fmt.Errorf("reconcile: %w", err)
		}
		c.s.primaryConn.Store(c)
		if c.s.opts.OnPrimary != nil {
			c.s.opts.OnPrimary(true)
		}
	case int32(code.Code_NOT_FOUND):
		// No primary: take over by bidding above the highest id seen.
		was := c.primary
		c.primary = false
		c.s.primaryConn.CompareAndSwap(c, nil)
		c.s.setStatus(func(s *Status) { s.Primary = false })
		if was && c.s.opts.OnPrimary != nil {
			c.s.opts.OnPrimary(false)
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
		return c.bid()
	default:
		c.s.primaryConn.CompareAndSwap(c, nil)
		if c.primary {
			c.s.log.Warn("lost primary role to another controller")
			if c.s.opts.OnPrimary != nil {
				c.s.opts.OnPrimary(false)
			}
		} else {
			c.s.log.Info("backup controller", "primary_election_id", fmt.Sprintf("%d:%d", a.GetElectionId().GetHigh(), a.GetElectionId().GetLow()))
		}
		c.primary = false
		c.s.setStatus(func(s *Status) { s.Primary = false })
	}
	return nil
}

func (c *conn) election() *p4v1.Uint128 { return &p4v1.Uint128{High: c.elHigh, Low: c.elLow} }

func (c *conn) roleName() string { return c.s.opts.Role }

// reconcile makes sure the pipeline is ours, then writes the difference
// between the desired state and what the switch holds.
func (c *conn) reconcile(ctx context.Context) error {
	p := c.s.opts.Pipeline
	want := p.Cookie()
	resp, err := c.rt.GetForwardingPipelineConfig(ctx, &p4v1.GetForwardingPipelineConfigRequest{
		DeviceId: c.s.opts.DeviceID, ResponseType: p4v1.GetForwardingPipelineConfigRequest_COOKIE_ONLY})
	have, hasCookie := uint64(0), false
	switch {
	case err == nil && resp.GetConfig().GetCookie() != nil:
		have, hasCookie = resp.GetConfig().GetCookie().GetCookie(), true
	case err != nil && status.Code(err) != codes.FailedPrecondition && status.Code(err) != codes.NotFound:
		return fmt.Errorf("get pipeline: %w", err)
	}
	if !hasCookie || have != want {
		c.s.log.Info("pushing pipeline", "had_cookie", have, "cookie", want)
		_, err := c.rt.SetForwardingPipelineConfig(ctx, &p4v1.SetForwardingPipelineConfigRequest{
			DeviceId: c.s.opts.DeviceID, Role: c.roleName(), ElectionId: c.election(),
			Action: p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT,
			Config: &p4v1.ForwardingPipelineConfig{P4Info: p.P4Info, P4DeviceConfig: p.DeviceConfig,
				Cookie: &p4v1.ForwardingPipelineConfig_Cookie{Cookie: want}},
		})
		if err != nil {
			return fmt.Errorf("push pipeline: %w", err)
		}
		c.s.stats.pushes.Add(1)
		c.current = map[string]*p4v1.Entity{}
		c.dirty = false
	} else {
		c.dirty = true
	}
	plan, err := c.applyDelta(ctx, c.s.desiredNow())
	if err != nil {
		return err
	}
	c.s.stats.reconciles.Add(1)
	c.s.log.Info("reconciled", "inserts", plan.Inserts, "modifies", plan.Modifies, "deletes", plan.Deletes)
	return nil
}

// readOwned reads every table and value set the compiler owns.
func (c *conn) readOwned(ctx context.Context) (map[string]*p4v1.Entity, error) {
	comp := c.s.opts.Compiler
	var wild []*p4v1.Entity
	for _, id := range comp.TableIDs() {
		wild = append(wild, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: id}}})
	}
	for _, id := range comp.ValueSetIDs() {
		wild = append(wild, &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{ValueSetId: id}}})
	}
	es, err := c.read(ctx, wild[:len(comp.TableIDs())]...)
	if err != nil {
		return nil, err
	}
	if vs, err := c.read(ctx, wild[len(comp.TableIDs()):]...); err == nil {
		es = append(es, vs...)
	} else if status.Code(err) != codes.Unimplemented {
		return nil, err
	}
	cur := make(map[string]*p4v1.Entity, len(es))
	for _, e := range es {
		if e.GetTableEntry().GetIsDefaultAction() {
			continue
		}
		comp.Canonical(e) // a target may spell out don't-care matches
		cur[tables.Key(e)] = e
	}
	return cur, nil
}

// applyDelta writes desired - current. The current state is the switch's
// as last read or written; after a failed write it is read again.
func (c *conn) applyDelta(ctx context.Context, desired []*p4v1.Entity) (*tables.Plan, error) {
	if c.dirty || c.current == nil {
		cur, err := c.readOwned(ctx)
		if err != nil {
			return nil, fmt.Errorf("read back: %w", err)
		}
		c.current, c.dirty = cur, false
	}
	current := make([]*p4v1.Entity, 0, len(c.current))
	for _, e := range c.current {
		current = append(current, e)
	}
	plan := c.s.opts.Compiler.Diff(desired, current)
	for i := range plan.Batches {
		rest, err := c.writeValueSets(ctx, plan.Batches[i].Updates)
		if err != nil {
			c.dirty = true
			return plan, err
		}
		plan.Batches[i].Updates = rest
	}
	for _, b := range plan.Batches {
		if err := c.writeBatch(ctx, b); err != nil {
			c.dirty = true
			return plan, fmt.Errorf("%s: %w", b.Name, err)
		}
		for _, u := range b.Updates {
			k := tables.Key(u.GetEntity())
			if u.GetType() == p4v1.Update_DELETE {
				delete(c.current, k)
			} else {
				c.current[k] = u.GetEntity()
			}
		}
	}
	summary := fmt.Sprintf("%d inserts, %d modifies, %d deletes", plan.Inserts, plan.Modifies, plan.Deletes)
	c.s.setStatus(func(s *Status) { s.LastReconcile = time.Now(); s.LastPlan = summary })
	return plan, nil
}

// applyChanged writes the entities that differ from the switch's record,
// as modifies (inserts where the switch lacks the key), in one batch.
func (c *conn) applyChanged(ctx context.Context, changed []*p4v1.Entity) (*tables.Plan, error) {
	plan := &tables.Plan{}
	b := tables.Batch{Name: "runtime state"}
	for _, e := range changed {
		k := tables.Key(e)
		cur, ok := c.current[k]
		switch {
		case ok && proto.Equal(cur, e):
			continue
		case ok:
			b.Updates = append(b.Updates, &p4v1.Update{Type: p4v1.Update_MODIFY, Entity: e})
			plan.Modifies++
		default:
			b.Updates = append(b.Updates, &p4v1.Update{Type: p4v1.Update_INSERT, Entity: e})
			plan.Inserts++
		}
	}
	if len(b.Updates) == 0 {
		return plan, nil
	}
	plan.Batches = []tables.Batch{b}
	if err := c.writeBatch(ctx, b); err != nil {
		c.dirty = true
		return plan, fmt.Errorf("%s: %w", b.Name, err)
	}
	for _, u := range b.Updates {
		c.current[tables.Key(u.GetEntity())] = u.GetEntity()
	}
	summary := fmt.Sprintf("%d inserts, %d modifies, %d deletes", plan.Inserts, plan.Modifies, plan.Deletes)
	c.s.setStatus(func(s *Status) { s.LastReconcile = time.Now(); s.LastPlan = summary })
	return plan, nil
}

// DefaultValueSetMembers are the values the data plane parses even with
// empty value sets (p4src/shared/defines.p4).
var DefaultValueSetMembers = map[uint64]bool{0x88B5: true, 0x88B6: true}

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
			// Written: remember it, or every later delta rewrites it.
			c.current[tables.Key(u.GetEntity())] = u.GetEntity()
			continue
		}
		if !strings.Contains(err.Error(), codes.Unimplemented.String()) {
			return nil, err
		}
		var odd []string
		for _, m := range u.GetEntity().GetValueSetEntry().GetMembers() {
			for _, fm := range m.GetMatch() {
				if v := beUint(fm.GetExact().GetValue()); !DefaultValueSetMembers[v] {
					odd = append(odd, fmt.Sprintf("%#04x", v))
				}
			}
		}
		if len(odd) > 0 {
			return nil, fmt.Errorf("%w: this switch cannot program parser value sets (UNIMPLEMENTED), so only the default core TPID 0x88b5 and keep-alive EtherType 0x88b6 are parsed; configured %s would not be recognised", ErrWrite, strings.Join(odd, ", "))
		}
		if !c.s.vsWarned.Swap(true) {
			c.s.log.Warn("switch cannot program parser value sets; the defaults (core TPID 0x88b5, keep-alive 0x88b6) are parsed by the program itself")
		}
		k := tables.Key(u.GetEntity())
		c.current[k] = u.GetEntity()
	}
	return rest, nil
}

// writeBatch writes one batch in requests of BatchSize updates, atomically
// where the switch supports it.
func (c *conn) writeBatch(ctx context.Context, b tables.Batch) error {
	us := b.Updates
	for len(us) > 0 {
		n := min(len(us), c.s.opts.BatchSize)
		if err := c.write(ctx, us[:n]); err != nil {
			return err
		}
		us = us[n:]
	}
	return nil
}

func (c *conn) write(ctx context.Context, us []*p4v1.Update) error {
	atom := p4v1.WriteRequest_ROLLBACK_ON_ERROR
	if !c.atomic {
		atom = p4v1.WriteRequest_CONTINUE_ON_ERROR
	}
	req := &p4v1.WriteRequest{DeviceId: c.s.opts.DeviceID, Role: c.roleName(), ElectionId: c.election(), Updates: us, Atomicity: atom}
	c.s.stats.writeReqs.Add(1)
	_, err := c.rt.Write(ctx, req)
	if err != nil && c.atomic && status.Code(err) == codes.Unimplemented {
		c.atomic = false
		c.s.setStatus(func(s *Status) { s.AtomicWrites = false })
		c.s.log.Warn("switch does not support atomic writes (ROLLBACK_ON_ERROR); writing with CONTINUE_ON_ERROR: a failed batch may be partly applied and is re-read")
		req.Atomicity = p4v1.WriteRequest_CONTINUE_ON_ERROR
		_, err = c.rt.Write(ctx, req)
	}
	if err == nil {
		c.s.stats.updates.Add(uint64(len(us)))
		return nil
	}
	return describeWriteError(err, us)
}

// describeWriteError lists the failed updates of a Write error.
func describeWriteError(err error, us []*p4v1.Update) error {
	st := status.Convert(err)
	var msgs []error
	for i, d := range st.Details() {
		pe, ok := d.(*p4v1.Error)
		if !ok || pe.GetCanonicalCode() == int32(code.Code_OK) || i >= len(us) {
			continue
		}
		msgs = append(msgs, fmt.Errorf("%s %s: %s: %s", us[i].GetType(), tables.Key(us[i].GetEntity()),
			codes.Code(pe.GetCanonicalCode()), pe.GetMessage()))
		if len(msgs) == 10 {
			msgs = append(msgs, fmt.Errorf("... and more"))
			break
		}
	}
	if len(msgs) == 0 {
		return fmt.Errorf("%w: %s: %s", ErrWrite, st.Code(), st.Message())
	}
	return fmt.Errorf("%w: %w", ErrWrite, errors.Join(msgs...))
}

func (c *conn) read(ctx context.Context, entities ...*p4v1.Entity) ([]*p4v1.Entity, error) {
	rc, err := c.rt.Read(ctx, &p4v1.ReadRequest{DeviceId: c.s.opts.DeviceID, Entities: entities})
	if err != nil {
		return nil, err
	}
	var out []*p4v1.Entity
	for {
		r, err := rc.Recv()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, r.GetEntities()...)
	}
}

func (c *conn) packetOut(port uint32, flags uint8, frame []byte) error {
	md := []*p4v1.PacketMetadata{
		{MetadataId: c.outMeta["egress_port"], Value: beBytes(uint64(port))},
		{MetadataId: c.outMeta["_pad0"], Value: []byte{0}},
		{MetadataId: c.outMeta["flags"], Value: []byte{flags}},
	}
	select {
	case c.sendq <- &p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Packet{
		Packet: &p4v1.PacketOut{Payload: frame, Metadata: md}}}:
	default:
		return errors.New("packet-out: stream send queue full")
	}
	c.s.stats.out.Add(1)
	return nil
}

func beUint(b []byte) uint64 {
	var v uint64
	for _, x := range b {
		v = v<<8 | uint64(x)
	}
	return v
}

func beBytes(v uint64) []byte {
	var b []byte
	for v > 0 {
		b = append([]byte{byte(v)}, b...)
		v >>= 8
	}
	if len(b) == 0 {
		return []byte{0}
	}
	return b
}
