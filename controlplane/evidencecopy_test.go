package controlplane

import (
	"context"
	"log/slog"
	"net"
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
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/internal/testbed"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sim"
	"github.com/dpi-balancer/balancer/tables"
)

// The evidence copy's mirror sessions of a 2-pipe Tofino are written on
// reconciliation, and taken over by the next primary (MODIFY after
// ALREADY_EXISTS) without a warning; the software switch's P4Runtime
// server holds what was written.
func TestEvidenceCopySessionsWritten(t *testing.T) {
	sw, addr, comp, _ := verdictRig(t)
	want := p4src.EvidenceCopySessions(2)
	start := func(election uint64, sessions []*p4v1.CloneSessionEntry) (*Session, *testbed.SyncBuffer) {
		logs := &testbed.SyncBuffer{}
		s, _, _ := newSession(t, addr, election, comp, nil, withOpts(func(o *Options) {
			o.EvidenceCopy = sessions
			o.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
		}))
		waitPrimary(t, s)
		return s, logs
	}
	held := func(sessions []*p4v1.CloneSessionEntry) func() bool {
		return func() bool {
			got := sw.P4Runtime().CloneSessions()
			if len(got) != len(sessions) {
				return false
			}
			for _, cs := range sessions {
				if !proto.Equal(got[cs.GetSessionId()], cs) {
					return false
				}
			}
			return true
		}
	}
	s1, logs1 := start(10, want)
	require.Eventually(t, held(want), 5*time.Second, time.Millisecond, "the switch holds the two sessions")
	assert.NoError(t, s1.EvidenceCopyErr())

	// The next primary writes its own (here: a longer copy) over them.
	longer := p4src.EvidenceCopySessions(2)
	for _, cs := range longer {
		cs.PacketLengthBytes = 128
	}
	s2, logs2 := start(20, longer)
	require.Eventually(t, held(longer), 5*time.Second, time.Millisecond, "the new primary's sessions replace the old")
	assert.NoError(t, s2.EvidenceCopyErr())
	assert.NotContains(t, logs1.String()+logs2.String(), "evidence copy")
}

// A switch that refuses a session: the session says why (naming the
// session), warns once, and the rest of the reconciliation goes on.
func TestEvidenceCopyRefusedIsReported(t *testing.T) {
	sw, addr, comp, _ := verdictRig(t)
	bad := p4src.EvidenceCopySessions(2)
	bad[1].SessionId = 0                                        // not a session id
	bad = append(bad, &p4v1.CloneSessionEntry{SessionId: 2000}) // nor this
	logs := &testbed.SyncBuffer{}
	var told atomic.Pointer[error]
	s, _, _ := newSession(t, addr, 30, comp, nil, withOpts(func(o *Options) {
		o.EvidenceCopy = bad
		o.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
		o.OnEvidenceCopy = func(err error) { told.Store(&err) }
	}))
	waitPrimary(t, s)
	err := s.EvidenceCopyErr()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "mirror session 0")
	assert.Contains(t, err.Error(), "mirror session 2000")
	assert.NotContains(t, err.Error(), "\n", "one line, for an alarm's message")
	require.NotNil(t, told.Load(), "OnEvidenceCopy is told")
	assert.Equal(t, err, *told.Load())
	assert.Contains(t, logs.String(), "did not take the evidence copy's mirror sessions")
	got := sw.P4Runtime().CloneSessions()
	assert.Len(t, got, 1, "the valid session is held")
	assert.Contains(t, got, uint32(p4src.EvidenceCopySessionBase))
}

// A switch that refused the sessions and takes them later gets them at
// the next periodic reconcile, on the same connection: the session's
// EvidenceCopyErr and OnEvidenceCopy say so (nil). While it refuses, the
// periodic reconcile tries again.
func TestEvidenceCopyRetriedByPeriodicReconcile(t *testing.T) {
	schema, err := p4src.Load()
	require.NoError(t, err)
	sw, err := sim.New(sim.Options{Ports: map[uint32]sim.Port{}, Schema: schema})
	require.NoError(t, err)
	var refuse atomic.Bool
	var refused atomic.Uint64
	refuse.Store(true)
	unary := func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		if w, ok := req.(*p4v1.WriteRequest); ok && refuse.Load() {
			for _, u := range w.GetUpdates() {
				if u.GetEntity().GetPacketReplicationEngineEntry().GetCloneSessionEntry() != nil {
					refused.Add(1)
					return nil, status.Error(codes.Unimplemented, "no clone sessions here")
				}
			}
		}
		return h(ctx, req)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	g := grpc.NewServer(append(sw.ServerOptions(), grpc.ChainUnaryInterceptor(unary))...)
	sw.Register(g)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	sw.Start(ctx, &wg)
	wg.Go(func() { _ = g.Serve(lis) })
	t.Cleanup(func() { cancel(); g.Stop(); wg.Wait() })
	comp, err := tables.New(schema)
	require.NoError(t, err)

	var mu sync.Mutex
	var told []error
	s, _, _ := newSession(t, lis.Addr().String(), 40, comp, nil, withOpts(func(o *Options) {
		o.EvidenceCopy = p4src.EvidenceCopySessions(2)
		o.ReconcileInterval = 50 * time.Millisecond
		o.OnEvidenceCopy = func(err error) { mu.Lock(); told = append(told, err); mu.Unlock() }
	}))
	waitPrimary(t, s)
	require.Error(t, s.EvidenceCopyErr())
	assert.Contains(t, s.EvidenceCopyErr().Error(), "no clone sessions here")
	first := refused.Load()
	require.Eventually(t, func() bool { return refused.Load() >= first+4 }, 10*time.Second, time.Millisecond,
		"the periodic reconcile tries again while they are refused")

	refuse.Store(false)
	require.Eventually(t, func() bool { return s.EvidenceCopyErr() == nil }, 10*time.Second, time.Millisecond)
	assert.Len(t, sw.P4Runtime().CloneSessions(), 2)
	assert.Equal(t, uint64(1), s.Stats().Connects, "on the same connection")
	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, told)
	assert.NoError(t, told[len(told)-1], "told the switch took them")
	for _, err := range told[:len(told)-1] {
		assert.Error(t, err, "nil only once they are taken")
	}
}
