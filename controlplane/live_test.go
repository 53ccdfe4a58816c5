package controlplane

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dpi-balancer/balancer/internal/stallproxy"
	"github.com/dpi-balancer/balancer/internal/testbed"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sim"
	"github.com/dpi-balancer/balancer/tables"
)

// hookedSwitch is a software switch whose gRPC server can fail writes
// and hold reads, to put the session in front of a misbehaving switch.
type hookedSwitch struct {
	addr       string
	sw         *sim.Switch
	failWrites atomic.Bool
	holdReads  atomic.Bool
	readHeld   chan struct{} // a read is being held
	release    chan struct{} // closed: held reads go on
}

func startHookedSwitch(t *testing.T) *hookedSwitch {
	t.Helper()
	h := &hookedSwitch{readHeld: make(chan struct{}, 64), release: make(chan struct{})}
	var err error
	h.sw, err = sim.New(sim.Options{Ports: map[uint32]sim.Port{}})
	require.NoError(t, err)
	unary := func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if strings.HasSuffix(info.FullMethod, "/Write") && h.failWrites.Load() {
			return nil, status.Error(codes.Internal, "test: writes fail")
		}
		return handler(ctx, req)
	}
	stream := func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		if strings.HasSuffix(info.FullMethod, "/Read") && h.holdReads.Load() {
			h.readHeld <- struct{}{}
			select {
			case <-h.release:
			case <-ss.Context().Done():
				return ss.Context().Err()
			}
		}
		return handler(srv, ss)
	}
	g := grpc.NewServer(grpc.UnaryInterceptor(unary), grpc.StreamInterceptor(stream))
	h.sw.Register(g)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	h.addr = lis.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	h.sw.Start(ctx, &wg)
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = g.Serve(lis)
	}()
	t.Cleanup(func() {
		h.releaseReads()
		cancel()
		g.Stop()
		wg.Wait()
	})
	return h
}

func (h *hookedSwitch) releaseReads() {
	select {
	case <-h.release:
	default:
		close(h.release)
	}
}

func fgBypass(t *testing.T, comp *tables.Compiler, group string) []*p4v1.Entity {
	return desired(t, comp, "../examples/site.yaml",
		tables.State{FilterGroups: map[string]tables.FilterGroupState{group: tables.FGSWBypass}})
}

// A switch that keeps its TCP connection but stops answering (a proxy in
// front of it goes silent) is noticed within the detection bound with
// the default timing: a write in flight returns ErrStalled instead of
// hanging, Status says stalled and not connected, and when the switch
// answers again the session reconnects and writes what was asked
// meanwhile.
func TestHungSwitchDetectedAndRestored(t *testing.T) {
	sw := startSwitch(t, "")
	proxy := stallproxy.New(t, sw.addr)
	comp := compiler(t)
	want := desired(t, comp, "../examples/site.yaml", tables.State{})
	// Default Timing.
	s, _, _ := newSession(t, proxy.Addr(), 1, comp, nil, withDesired(want))
	waitPrimary(t, s)
	require.False(t, s.Status().Pending)
	bound := Timing{}.DetectionBound()
	require.LessOrEqual(t, bound, 5*time.Second, "default detection bound")

	proxy.Pause()
	start := time.Now()
	changed := fgBypass(t, comp, "F2")
	_, err := s.ApplyUpdates(context.Background(), FullChange(changed))
	applyReturned := time.Since(start)
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrStalled, "the write in flight ends with the stall")
	var st Status
	require.Eventually(t, func() bool {
		st = s.Status()
		return st.Stalled && !st.Connected
	}, 10*time.Second, 5*time.Millisecond)
	detected := time.Since(start)
	t.Logf("hung switch: write returned after %v, status stalled after %v (bound %v)", applyReturned, detected, bound)
	assert.Less(t, detected, 5*time.Second, "status shows the stall within 5s")
	assert.False(t, st.Primary)
	assert.True(t, st.Pending)
	assert.Contains(t, st.LastError, "stalled")
	assert.False(t, st.StalledSince.IsZero())
	assert.False(t, st.StalledSince.After(start), "stalled since the last answer, before the proxy went silent")
	assert.GreaterOrEqual(t, s.Stats().Stalls, uint64(1))

	// Still silent: reconnection attempts stall at the arbitration and
	// the status keeps the first "since".
	require.Eventually(t, func() bool { return s.Stats().Stalls >= 2 }, 20*time.Second, 10*time.Millisecond)
	assert.Equal(t, st.StalledSince, s.Status().StalledSince)
	assert.Contains(t, s.Status().LastError, st.StalledSince.UTC().Format(time.RFC3339), "the message keeps the first since")

	proxy.Resume()
	require.Eventually(t, func() bool {
		st := s.Status()
		return st.Connected && st.Primary && !st.Pending && !st.Stalled
	}, 30*time.Second, 10*time.Millisecond, "%+v", s.Status())
	assert.True(t, comp.Diff(changed, readAll(t, s, comp)).Empty(), "the change asked during the stall is on the switch")
	assert.Empty(t, s.Status().LastError)
}

// The reconnect delay returns to the minimum after every connection the
// switch answered: a dozen drops in a row each reconnect at once (without
// the reset the delay doubles to a minute by the ninth).
func TestReconnectBackoffResetsAfterHealthySession(t *testing.T) {
	sw := startSwitch(t, "")
	proxy := stallproxy.New(t, sw.addr)
	comp := compiler(t)
	s, _, _ := newSession(t, proxy.Addr(), 1, comp, nil, withOpts(func(o *Options) {
		o.MinBackoff, o.MaxBackoff = 20*time.Millisecond, time.Minute
	}))
	waitPrimary(t, s)
	for i := range 12 {
		n := s.Stats().Connects
		proxy.Cut()
		require.Eventually(t, func() bool { return s.Stats().Connects > n && s.Status().Primary }, 5*time.Second, 5*time.Millisecond,
			"drop %d: not reconnected within 5s", i+1)
	}
}

func TestNextBackoff(t *testing.T) {
	lo, hi := 100*time.Millisecond, 5*time.Second
	for _, tc := range []struct {
		name    string
		in, out time.Duration
	}{
		{"doubles", 100 * time.Millisecond, 200 * time.Millisecond},
		{"capped", 4 * time.Second, 5 * time.Second},
		{"at cap", 5 * time.Second, 5 * time.Second},
		{"at least lo", 0, 100 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.out, nextBackoff(tc.in, lo, hi)) })
	}
}

// A failed write is retried on a timer until the desired state is on the
// switch, with no further Apply.
func TestFailedApplyRetriedOnTimer(t *testing.T) {
	sw := startHookedSwitch(t)
	comp := compiler(t)
	s, _, _ := newSession(t, sw.addr, 1, comp, nil, withDesired(desired(t, comp, "../examples/site.yaml", tables.State{})))
	waitPrimary(t, s)

	sw.failWrites.Store(true)
	changed := fgBypass(t, comp, "F1")
	_, err := s.ApplyUpdates(context.Background(), FullChange(changed))
	require.Error(t, err)
	st := s.Status()
	assert.True(t, st.Pending)
	assert.False(t, st.NextRetry.IsZero())
	assert.Contains(t, st.LastError, "writes fail")
	require.Eventually(t, func() bool { return s.Stats().Retries >= 2 }, 10*time.Second, 5*time.Millisecond, "retried while failing")
	assert.True(t, s.Status().Pending)

	sw.failWrites.Store(false)
	require.Eventually(t, func() bool { return !s.Status().Pending }, 10*time.Second, 5*time.Millisecond)
	assert.True(t, comp.Diff(changed, readAll(t, s, comp)).Empty())
	assert.Empty(t, s.Status().LastError)
	assert.True(t, s.Status().NextRetry.IsZero())
}

// Reads (counter polls, the periodic read-back) have a path of their own:
// a write completes while a read is held by the switch.
func TestReadDoesNotDelayWrite(t *testing.T) {
	sw := startHookedSwitch(t)
	comp := compiler(t)
	s, _, _ := newSession(t, sw.addr, 1, comp, nil, withOpts(func(o *Options) { o.ReconcileInterval = 20 * time.Millisecond }), withDesired(desired(t, comp, "../examples/site.yaml", tables.State{})))
	waitPrimary(t, s)

	sw.holdReads.Store(true)
	readDone := make(chan error, 1)
	go func() {
		_, err := s.Read(context.Background(), &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{}}})
		readDone <- err
	}()
	<-sw.readHeld // the counter-poll-like read is in the switch
	<-sw.readHeld // and so is a periodic read-back

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	plan, err := s.ApplyUpdates(ctx, FullChange(fgBypass(t, comp, "F2")))
	require.NoError(t, err, "the write must not wait for the reads")
	assert.Equal(t, 1, plan.Len())
	select {
	case err := <-readDone:
		t.Fatalf("the read was not held: %v", err)
	default:
	}
	sw.holdReads.Store(false)
	sw.releaseReads()
	require.NoError(t, <-readDone)
}

// The periodic read-back finds an entry removed behind the session's back
// and writes it again.
func TestPeriodicReconcileRepairsDrift(t *testing.T) {
	sw := startSwitch(t, "")
	comp := compiler(t)
	want := desired(t, comp, "../examples/site.yaml", tables.State{})
	s, _, _ := newSession(t, sw.addr, 1, comp, nil, withOpts(func(o *Options) { o.ReconcileInterval = 50 * time.Millisecond }), withDesired(want))
	waitPrimary(t, s)
	require.Eventually(t, func() bool { return s.Stats().ReadBacks >= 1 }, 10*time.Second, 5*time.Millisecond)
	assert.Equal(t, uint64(0), s.Stats().Repairs, "nothing to repair")

	var victim *p4v1.Entity
	for _, e := range want {
		if e.GetTableEntry() != nil && !e.GetTableEntry().GetIsDefaultAction() {
			victim = e
			break
		}
	}
	require.NotNil(t, victim)
	errs := sw.sw.Dataplane().Write([]*p4v1.Update{{Type: p4v1.Update_DELETE, Entity: victim}}, p4v1.WriteRequest_ROLLBACK_ON_ERROR)
	require.NoError(t, errors.Join(errs...))
	require.False(t, comp.Diff(want, readAll(t, s, comp)).Empty(), "the entry is gone")

	require.Eventually(t, func() bool { return s.Stats().Repairs >= 1 }, 10*time.Second, 5*time.Millisecond)
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		es, ok := readAllCollect(c, s, comp)
		if !ok {
			return
		}
		left := comp.Diff(want, es)
		assert.True(c, left.Empty(), "the switch still differs after the repair was counted: %d inserts, %d modifies, %d deletes; session stats %+v; status %+v",
			left.Inserts, left.Modifies, left.Deletes, s.Stats(), s.Status())
	}, 10*time.Second, 10*time.Millisecond)
	assert.False(t, s.Status().LastReadBack.IsZero())
}

// The switch's CPU port is part of what the session keeps: the default
// entry of switch_info changed behind its back (another packet-in port) is
// read back by itself and written again, and the cpu_port value set too.
func TestPeriodicReconcileRepairsCPUPort(t *testing.T) {
	sw := startSwitch(t, "")
	comp := compiler(t)
	require.NoError(t, comp.SetCPUPort(255))
	want := desired(t, comp, "../examples/site.yaml", tables.State{})
	var logs testbed.SyncBuffer
	s, _, _ := newSession(t, sw.addr, 1, comp, nil, withOpts(func(o *Options) {
		o.ReconcileInterval = 50 * time.Millisecond
		o.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}), withDesired(want))
	waitPrimary(t, s)
	require.Eventually(t, func() bool { return s.Stats().ReadBacks >= 1 }, 10*time.Second, 5*time.Millisecond)
	require.True(t, comp.Diff(want, readAll(t, s, comp)).Empty(), "the default entry and value set read back as written")

	schema := sw.sw.Dataplane().Schema()
	tbl, err := schema.Table(p4src.TableSwitchInfo)
	require.NoError(t, err)
	act, err := schema.Action(p4src.ActionSwitchInfo)
	require.NoError(t, err)
	prm, err := act.Param(p4src.ParamCPUPort)
	require.NoError(t, err)
	other := &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: tbl.GetPreamble().GetId(), IsDefaultAction: true,
		Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: &p4v1.Action{ActionId: act.GetPreamble().GetId(),
			Params: []*p4v1.Action_Param{{ParamId: prm.GetId(), Value: []byte{0, 64}}}}}}}}}
	before := s.Stats()
	errs := sw.sw.Dataplane().Write([]*p4v1.Update{{Type: p4v1.Update_MODIFY, Entity: other}}, p4v1.WriteRequest_ROLLBACK_ON_ERROR)
	require.NoError(t, errors.Join(errs...))
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		st := s.Stats()
		if !assert.Greater(c, st.Repairs, before.Repairs, "the CPU port not written again after it was changed behind the session's back: stats before %+v, now %+v; status %+v; session log:\n%s",
			before, st, s.Status(), logs.String()) {
			return
		}
		if es, ok := readAllCollect(c, s, comp); ok {
			assert.True(c, comp.Diff(want, es).Empty(), "the repair left the switch different from the desired state")
		}
	}, time.Minute, 10*time.Millisecond) // a read-back under way may predate the change: the next one repairs it, seconds later under -race on a busy host
}

// readAllCollect is readAll for a condition of EventuallyWithT: a failed
// read fails the try, not the test.
func readAllCollect(c *assert.CollectT, s *Session, comp *tables.Compiler) ([]*p4v1.Entity, bool) {
	tq, vq := comp.ReadQueries()
	es, err := s.Read(context.Background(), append(tq, vq...)...)
	return es, assert.NoError(c, err)
}

// ReconcileOff turns the periodic read-back off.
func TestPeriodicReconcileOff(t *testing.T) {
	sw := startSwitch(t, "")
	comp := compiler(t)
	s, _, _ := newSession(t, sw.addr, 1, comp, nil, withOpts(func(o *Options) { o.ReconcileInterval = ReconcileOff }))
	waitPrimary(t, s)
	assert.Nil(t, s.primaryConn.Load().reconcileTick)
}

// A switch that forgets its pipeline and entries behind an open
// connection (a restart the TCP connection survived) is noticed by the
// liveness probe and reprogrammed without any Apply.
func TestLostPipelineRestoredByProbe(t *testing.T) {
	sw := startSwitch(t, "")
	comp := compiler(t)
	want := desired(t, comp, "../examples/site.yaml", tables.State{})
	s, _, _ := newSession(t, sw.addr, 1, comp, nil, withOpts(func(o *Options) { o.ProbeInterval = 20 * time.Millisecond }), withDesired(want))
	waitPrimary(t, s)
	sw.sw.Restart()
	require.Eventually(t, func() bool { return s.Stats().PipelinePushes == 2 && s.Stats().Reconciles == 2 }, 10*time.Second, 5*time.Millisecond)
	assert.True(t, comp.Diff(want, readAll(t, s, comp)).Empty())
}

func TestTimingValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		t    Timing
		want string
	}{
		{"defaults", Timing{}, ""},
		{"reconcile off", Timing{ReconcileInterval: ReconcileOff}, ""},
		{"keepalive below grpc floor", Timing{KeepaliveTime: 5 * time.Second}, "keepalive time 5s: must be between 10s and 24h0m0s"},
		{"negative rpc timeout", Timing{RPCTimeout: -time.Second}, "rpc timeout -1s"},
		{"tiny stall timeout", Timing{StallTimeout: time.Millisecond}, "stall timeout 1ms"},
		{"reconcile too often", Timing{ReconcileInterval: time.Millisecond}, "reconcile interval 1ms: must be between 10ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.t.Validate()
			if tc.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// Run refuses timing that cannot work.
func TestRunRejectsBadTiming(t *testing.T) {
	s := New(Options{Addr: "127.0.0.1:1", Timing: Timing{KeepaliveTime: time.Second}})
	err := s.Run(context.Background())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "keepalive time")
	_, err = s.ApplyUpdates(context.Background(), FullChange(nil))
	assert.ErrorIs(t, err, ErrClosed)
}

// An Apply whose caller gives up (its context ends before or while the
// state is written) is still written by the session.
func TestAbandonedApplyIsWritten(t *testing.T) {
	sw := startSwitch(t, "")
	comp := compiler(t)
	s, _, _ := newSession(t, sw.addr, 1, comp, nil, withDesired(desired(t, comp, "../examples/site.yaml", tables.State{})))
	waitPrimary(t, s)
	for i, group := range []string{"F1", "F2", "F3"} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		changed := fgBypass(t, comp, group)
		_, err := s.ApplyUpdates(ctx, FullChange(changed))
		require.Error(t, err, "round %d", i)
		require.Eventually(t, func() bool { return !s.Status().Pending }, 10*time.Second, 5*time.Millisecond, "round %d", i)
		assert.True(t, comp.Diff(changed, readAll(t, s, comp)).Empty(), "round %d", i)
	}
}

// A state set with SetDesired while the session is primary is written by
// the session on its own.
func TestSetDesiredWhilePrimaryIsWritten(t *testing.T) {
	sw := startSwitch(t, "")
	comp := compiler(t)
	s, _, _ := newSession(t, sw.addr, 1, comp, nil, withDesired(desired(t, comp, "../examples/site.yaml", tables.State{})))
	waitPrimary(t, s)
	changed := fgBypass(t, comp, "F3")
	s.SetDesired(changed)
	require.Eventually(t, func() bool { return !s.Status().Pending }, 10*time.Second, 5*time.Millisecond)
	assert.True(t, comp.Diff(changed, readAll(t, s, comp)).Empty())
	assert.Equal(t, uint64(1), s.Stats().Reconciles, "written as a delta, not a reconnection")
}
