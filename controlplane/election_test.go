package controlplane

import (
	"context"
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
	"google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/grpc"

	"github.com/dpi-balancer/balancer/internal/testbed"
	"github.com/dpi-balancer/balancer/sim"
	"github.com/dpi-balancer/balancer/tables"
)

// With FixedElection, a session with no id is a backup for good (even when
// the switch has no primary), becomes primary only with an id handed in by
// SetElection, and stops writing at once when its id is lowered.
func TestSetElectionFixed(t *testing.T) {
	sw := startSwitch(t, "")
	comp := compiler(t)
	want := desired(t, comp, "../examples/site.yaml", tables.State{})
	// The sessions' logs (debug: stale answers too), shown if the test
	// fails: which arbitration answers each took, and when.
	alog, blog := &testbed.SyncBuffer{}, &testbed.SyncBuffer{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("a's log:\n%s\nb's log:\n%s", alog.String(), blog.String())
		}
	})
	fixedLog := func(w *testbed.SyncBuffer) sessionOpt {
		return withOpts(func(o *Options) {
			o.ElectionLow, o.FixedElection = 0, true
			o.Logger = slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
		})
	}
	a, _, _ := newSession(t, sw.addr, 0, comp, nil, fixedLog(alog), withDesired(want))
	b, _, _ := newSession(t, sw.addr, 0, comp, nil, fixedLog(blog), withDesired(want))
	require.Eventually(t, func() bool { return a.Status().Connected && b.Status().Connected }, 10*time.Second, 5*time.Millisecond)
	_, err := a.ApplyUpdates(context.Background(), FullChange(want))
	assert.ErrorIs(t, err, ErrNotPrimary, "no id: never primary, even with no primary at all")
	assert.False(t, b.Status().Primary)
	assert.Equal(t, uint64(0), a.Stats().WriteRequests+b.Stats().WriteRequests)

	ctx := context.Background()
	require.NoError(t, a.SetElection(ctx, 0, 7))
	waitPrimary(t, a)
	assert.False(t, b.Status().Primary)

	// a steps down: it is not primary before the switch even answers, and
	// b (still without an id) does not take over on its own.
	require.NoError(t, a.SetElection(ctx, 0, 0))
	assert.False(t, a.Status().Primary)
	_, err = a.ApplyUpdates(ctx, FullChange(want))
	assert.ErrorIs(t, err, ErrNotPrimary)

	// b gets a higher id: primary, and the switch already holds the state.
	require.NoError(t, b.SetElection(ctx, 0, 9))
	waitPrimary(t, b)
	assert.Equal(t, uint64(0), b.Stats().Updates, "the switch already held everything")
	assert.Equal(t, uint64(9), b.Status().ElectionLow)

	// A deposed id cannot come back: a bids its old id again, the switch
	// keeps b. a, a standby, has heard of b first; then it waits for an
	// answer with its id set (Standby clears: a backup by the switch's
	// word now, or primary if the switch wrongly took the old id).
	require.Eventually(t, func() bool { st := a.Status(); return st.Standby && st.OtherPrimary == "0:9" }, 10*time.Second, time.Millisecond,
		"a hears that b is primary")
	require.NoError(t, a.SetElection(ctx, 0, 7))
	require.Eventually(t, func() bool { st := a.Status(); return !st.Standby && (st.OtherPrimary != "" || st.Primary) }, 10*time.Second,
		time.Millisecond, "the switch answers a's bid")
	assert.False(t, a.Status().Primary)
	assert.Equal(t, "0:9", a.Status().OtherPrimary)
	assert.True(t, b.Status().Primary)
	id, ok := sw.sw.P4Runtime().Primary("")
	assert.True(t, ok)
	assert.Equal(t, uint64(9), id, "the switch keeps b")
}

// holdOK is a stream interceptor of the switch's gRPC server: once armed,
// it holds the next OK arbitration answer (held closes) until release is
// closed; the stream's later messages queue behind it, as on a slow
// network.
type holdOK struct {
	armed   atomic.Bool
	held    chan struct{}
	release chan struct{}
}

type holdStream struct {
	grpc.ServerStream
	h *holdOK
}

func (h *holdOK) intercept(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	return handler(srv, holdStream{ss, h})
}

func (s holdStream) SendMsg(m any) error {
	if r, ok := m.(*p4v1.StreamMessageResponse); ok && r.GetArbitration().GetStatus().GetCode() == int32(code.Code_OK) &&
		s.h.armed.CompareAndSwap(true, false) {
		close(s.h.held)
		<-s.h.release
	}
	return s.ServerStream.SendMsg(m)
}

// A session that steps down ignores an OK the switch sent for its former
// id (the answer to a periodic bid still on its way): it is not primary
// again, does not reconcile and does not call OnPrimary(true) between
// stepping down and the switch's answer to its new bid.
func TestSteppedDownIgnoresStaleAnswer(t *testing.T) {
	sw, err := sim.New(sim.Options{Ports: map[uint32]sim.Port{}})
	require.NoError(t, err)
	h := &holdOK{held: make(chan struct{}), release: make(chan struct{})}
	g := grpc.NewServer(append(sw.ServerOptions(), grpc.ChainStreamInterceptor(h.intercept))...)
	sw.Register(g)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	sw.Start(ctx, &wg)
	wg.Go(func() { _ = g.Serve(lis) })
	var released sync.Once
	release := func() { released.Do(func() { close(h.release) }) }
	t.Cleanup(func() { release(); cancel(); g.Stop(); wg.Wait() })

	comp := compiler(t)
	want := desired(t, comp, "../examples/site.yaml", tables.State{})
	var promoted atomic.Int32 // OnPrimary(true) calls
	logs := &testbed.SyncBuffer{}
	a, _, _ := newSession(t, lis.Addr().String(), 0, comp, func(p bool) {
		if p {
			promoted.Add(1)
		}
	}, withDesired(want), withOpts(func(o *Options) {
		o.ElectionLow, o.FixedElection = 0, true
		o.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}))
	require.Eventually(t, func() bool { return a.Status().Connected }, 10*time.Second, 5*time.Millisecond)
	require.NoError(t, a.SetElection(context.Background(), 0, 7))
	waitPrimary(t, a)
	require.Eventually(t, func() bool { return promoted.Load() == 1 }, 10*time.Second, time.Millisecond)

	// The next periodic bid's OK is held on its way; a steps down.
	h.armed.Store(true)
	select {
	case <-h.held:
	case <-time.After(30 * time.Second):
		t.Fatal("no periodic arbitration answer within 30 s")
	}
	require.NoError(t, a.SetElection(context.Background(), 0, 0))
	require.False(t, a.Status().Primary)
	reconciles := a.Stats().Reconciles
	waiting := func() int { return strings.Count(logs.String(), "waiting for this controller's turn") }
	before := waiting()

	// The stale OK arrives, then the answer to the step-down (no primary:
	// the session waits for its turn, and logs it).
	release()
	require.Eventually(t, func() bool { return waiting() > before }, 10*time.Second, time.Millisecond, "the answer to the step-down")
	assert.False(t, a.Status().Primary)
	assert.Equal(t, reconciles, a.Stats().Reconciles, "no reconcile on the stale answer")
	assert.Equal(t, int32(1), promoted.Load(), "no OnPrimary(true) on the stale answer")
}
