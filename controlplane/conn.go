package controlplane

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/stats"
	"google.golang.org/grpc/status"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
)

// stallError: the switch kept the connection open but did not answer.
type stallError struct {
	since time.Time // the switch's last answer
	what  string    // what went unanswered
}

func (e *stallError) Error() string {
	return fmt.Sprintf("%v: %s; no answer from the switch since %s", ErrStalled, e.what, e.since.UTC().Format(time.RFC3339))
}

func (e *stallError) Unwrap() error { return ErrStalled }

// electionRefusedError: the switch ended the stream refusing the election
// id (high:low) because another stream of the role holds it.
type electionRefusedError struct {
	high, low uint64
	err       error // the switch's answer
}

func (e *electionRefusedError) Error() string {
	return fmt.Sprintf("%v: the switch refused election id %d:%d: %v", ErrElectionIDInUse, e.high, e.low, e.err)
}

func (e *electionRefusedError) Unwrap() []error { return []error{ErrElectionIDInUse, e.err} }

// electionInUse reports whether err ends a stream because its election id
// is held by another stream of the role: INVALID_ARGUMENT (what the
// P4Runtime spec asks of the switch then), with the servers' words for it:
// Stratum "Election ID ... is already used by another connection with
// the same role", PI/BMv2 "Election id already exists", the software
// switch "election id N is already used by another controller".
func electionInUse(err error) bool {
	if status.Code(err) != codes.InvalidArgument {
		return false
	}
	msg := strings.ToLower(status.Convert(err).Message())
	return strings.Contains(msg, "election id") &&
		(strings.Contains(msg, "already used") || strings.Contains(msg, "already exists") || strings.Contains(msg, "already in use"))
}

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

	wg    sync.WaitGroup // the probe and a read-back
	heard atomic.Int64   // unix nanos of the switch's last answer (any goroutine)
	// readBorn: unix nanos when the read connection's transport last
	// opened (any goroutine); its answers count as heard only when it is
	// not newer than the last answer on the main connection (dial).
	readBorn atomic.Int64
	longOps  atomic.Int32 // RPCs allowed to take long (pipeline push)

	primary bool
	ready   bool // primary and reconciled: OnPrimary(true) was called
	atomic  bool
	dirty   bool // a write failed: re-read before the next delta
	// synced is what the switch holds (unless dirty): the desired
	// entities last written, in the order they were given (shared with
	// the desired state, so the session holds no copy of the site;
	// called when needed). Nil: read the switch back first.
	synced func() []*p4v1.Entity
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

func (c *conn) markHeard() { c.heard.Store(time.Now().UnixNano()) }

// readHeard is markHeard for an answer on the read connection: it counts
// only when that connection opened before the switch was last heard on
// the main one. A read connection opened later (at the first read after
// a network cut that lost the main one's close, over a path that works
// again) says nothing about the main connection, which the session must
// drop and open again.
func (c *conn) readHeard() {
	if c.readBorn.Load() <= c.heard.Load() {
		c.markHeard()
	}
}

// transportBirth notes when a connection's transport opens.
type transportBirth struct{ at *atomic.Int64 }

func (b transportBirth) TagRPC(ctx context.Context, _ *stats.RPCTagInfo) context.Context { return ctx }
func (b transportBirth) HandleRPC(context.Context, stats.RPCStats)                       {}
func (b transportBirth) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context {
	return ctx
}
func (b transportBirth) HandleConn(_ context.Context, s stats.ConnStats) {
	if _, ok := s.(*stats.ConnBegin); ok {
		b.at.Store(time.Now().UnixNano())
	}
}

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
// (heard is markHeard on the main connection, readHeard on the read one.)
func unaryHeard(heard func()) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn,
		invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		err := invoker(ctx, method, req, reply, cc, opts...)
		if answered(err) {
			heard()
		}
		return err
	}
}

func streamHeard(heard func()) grpc.StreamClientInterceptor {
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string,
		streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		cs, err := streamer(ctx, desc, cc, method, opts...)
		if err != nil {
			return nil, err
		}
		return heardStream{cs, heard}, nil
	}
}

type heardStream struct {
	grpc.ClientStream
	heard func()
}

func (h heardStream) RecvMsg(m any) error {
	err := h.ClientStream.RecvMsg(m)
	if err == nil || errors.Is(err, io.EOF) || answered(err) {
		h.heard()
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

// dialOptions are a connection's options: every answer of the switch on
// it is given to heard.
func (s *Session) dialOptions(heard func()) []grpc.DialOption {
	creds := insecure.NewCredentials()
	if s.opts.TLS != nil {
		creds = credentials.NewTLS(s.opts.TLS)
	}
	return []grpc.DialOption{grpc.WithTransportCredentials(creds),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(256<<20), grpc.MaxCallSendMsgSize(64<<20)),
		grpc.WithKeepaliveParams(s.opts.KeepaliveParams()),
		grpc.WithChainUnaryInterceptor(unaryHeard(heard)), grpc.WithChainStreamInterceptor(streamHeard(heard))}
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
	s.guard.Reset() // a new connection: the switch is read back first
	c.heard.Store(start.UnixNano())
	cc, rcc, err := s.dial(c)
	if err != nil {
		return false, err
	}
	defer cc.Close()
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
	return c.serve(ctx, events, arbTimer)
}

// dial opens the connection's two gRPC connections to the switch: one for
// the stream and writes, one for reads (a large read streaming back never
// sits in front of a write).
//
// The read connection's answers (a chunk of a large read) keep the main
// connection heard only while the read connection is not newer than its
// last answer (readHeard). It opens at the first read: after a network
// cut that lost the main connection's close, over a path that works again,
// its answers kept the dead main connection "heard" as long as reads went
// on, and the cut was noticed 7 s after it instead of 4.1 s, after the
// switch had dropped the dead stream (TestCampaignNetworkCut, 3 runs of
// 10; TestNetworkCutWithNewReadConnection).
func (s *Session) dial(c *conn) (cc, rcc *grpc.ClientConn, _ error) {
	cc, err := grpc.NewClient(s.opts.Addr, s.dialOptions(c.markHeard)...)
	if err != nil {
		return nil, nil, fmt.Errorf("dial %s: %w", s.opts.Addr, err)
	}
	rcc, err = grpc.NewClient(s.opts.Addr, append(s.dialOptions(c.readHeard), grpc.WithStatsHandler(transportBirth{&c.readBorn}))...)
	if err != nil {
		cc.Close()
		return nil, nil, fmt.Errorf("dial %s: %w", s.opts.Addr, err)
	}
	return cc, rcc, nil
}

// serve is the connection's event loop, on Run's goroutine, until the
// connection fails or ctx ends. healthy reports whether the switch
// answered (its first stream message stops arbTimer).
func (c *conn) serve(ctx context.Context, events <-chan streamEvent, arbTimer *time.Timer) (healthy bool, _ error) {
	s := c.s
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
		case <-c.ctx.Done():
			return healthy, c.cause(c.ctx.Err())
		case err := <-c.sendErr:
			return healthy, c.cause(fmt.Errorf("stream send: %w", err))
		case ev := <-events:
			if ev.err != nil {
				if electionInUse(ev.err) && c.ctx.Err() == nil {
					return healthy, &electionRefusedError{high: c.elHigh, low: c.elLow, err: ev.err}
				}
				return healthy, c.cause(fmt.Errorf("stream: %w", ev.err))
			}
			if !healthy {
				healthy = true
				arbTimer.Stop()
				c.connected()
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
			if c.primary && c.s.EvidenceCopyErr() != nil {
				// Refused before: the switch may take them now.
				c.configureEvidenceCopy(ctx)
			}
			c.startReadBack()
		case rb := <-c.readBacks:
			c.onReadBack(rb)
		case sent := <-c.pipelineLost:
			c.onPipelineLost(ctx, sent)
		}
		if err := c.ctx.Err(); err != nil {
			return healthy, c.cause(err)
		}
	}
}

// connected: the switch answered this connection. It counts as a
// connection, reads may use it, and the liveness probe starts.
func (c *conn) connected() {
	s := c.s
	s.stats.connects.Add(1)
	var refused Status
	s.setStatus(func(st *Status) {
		refused = *st
		st.Connected, st.LastError, st.Stalled, st.StalledSince = true, "", false, time.Time{}
		st.ElectionRefused, st.ElectionRefusedSince, st.ElectionRefusals = false, time.Time{}, 0
	})
	if refused.ElectionRefused {
		s.log.Info("the switch accepts the election id again", "election_id", fmt.Sprintf("%d:%d", c.elHigh, c.elLow),
			"refusals", refused.ElectionRefusals, "refused_for", time.Since(refused.ElectionRefusedSince).Round(time.Millisecond))
	}
	s.readConn.Store(c)
	c.wg.Go(c.probe)
}

// onPipelineLost: the probe found the switch without the pipeline (its
// request sent at sent). A ready primary that has not pushed it since
// reconciles.
func (c *conn) onPipelineLost(ctx context.Context, sent time.Time) {
	if c.ready && c.pushedAt.Before(sent) {
		c.s.log.Warn("the switch lost the pipeline; reconciling")
		_, gen := c.s.desiredState()
		err := c.reconcile(ctx)
		if err == nil {
			c.s.stats.reconciles.Add(1)
		}
		c.applied(gen, err)
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
			// A newer state arrived meanwhile: its ApplyUpdates is
			// usually queued and cancels this; if not, the timer writes
			// it.
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
