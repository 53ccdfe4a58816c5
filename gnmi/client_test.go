package gnmi

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

var insecureDial = []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}

func next[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(testTimeout):
		require.FailNow(t, "timed out waiting for "+what)
		var zero T
		return zero
	}
}

// nextStates reads n events and returns the reported state by name.
func nextStates(t *testing.T, events <-chan OperEvent, n int) map[string]bool {
	t.Helper()
	got := map[string]bool{}
	for range n {
		ev := next(t, events, "oper-status event")
		assert.False(t, ev.At.IsZero(), "event time")
		got[ev.Name] = ev.Up
	}
	return got
}

func TestWatchOperStatus(t *testing.T) {
	srv1 := newTestServer(t)
	publishFixture(t, srv1)
	g1, addr := serve(t, srv1, "127.0.0.1:0")

	events := make(chan OperEvent, 16)
	conn := make(chan bool, 16)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errC := make(chan error, 1)
	go func() {
		errC <- WatchOperStatus(ctx, addr, []string{"P1", "P2", "P3"}, insecureDial, events,
			WithBackoff(10*time.Millisecond, 100*time.Millisecond),
			WithConnState(func(c bool) { conn <- c }),
			WithTarget(testTarget),
			WithWatchLogger(slog.New(slog.DiscardHandler)))
	}()

	// Initial state of the interfaces the switch has (P3 has none yet).
	assert.Equal(t, map[string]bool{"P1": true, "P2": false}, nextStates(t, events, 2))
	assert.True(t, next(t, conn, "connected"))

	// A change.
	st := p1
	st.OperUp = false
	require.NoError(t, srv1.PublishInterface(st))
	ev := next(t, events, "P1 down")
	assert.Equal(t, "P1", ev.Name)
	assert.False(t, ev.Up)

	// A new interface appears.
	require.NoError(t, srv1.PublishInterface(InterfaceState{Name: "P3", OperUp: true}))
	assert.Equal(t, map[string]bool{"P3": true}, nextStates(t, events, 1))

	// Switch restart: the loss is reported through the connection state
	// only, then the state of the new switch arrives.
	g1.Stop()
	assert.False(t, next(t, conn, "disconnected"))
	srv2 := newTestServer(t)
	require.NoError(t, srv2.PublishInterface(InterfaceState{Name: "P1", OperUp: true}))
	require.NoError(t, srv2.PublishInterface(InterfaceState{Name: "P2", OperUp: true}))
	serve(t, srv2, addr)
	assert.Equal(t, map[string]bool{"P1": true, "P2": true}, nextStates(t, events, 2))
	assert.True(t, next(t, conn, "reconnected"))

	cancel()
	assert.ErrorIs(t, next(t, errC, "WatchOperStatus to return"), context.Canceled)
	assert.False(t, next(t, conn, "disconnected at exit"))
	assert.Empty(t, events, "no events besides the real ones")
}

func TestWatchOperStatusUnreachable(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := lis.Addr().String()
	require.NoError(t, lis.Close())

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	events := make(chan OperEvent, 1)
	var calls []bool
	err = WatchOperStatus(ctx, addr, []string{"P1"}, insecureDial, events,
		WithBackoff(10*time.Millisecond, 50*time.Millisecond),
		WithConnState(func(c bool) { calls = append(calls, c) }))
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Empty(t, events)
	assert.Empty(t, calls, "never connected, so no transitions")
}

// A server that accepts the TCP connection but never answers (a hung
// switch) is taken as lost after the sync timeout and redialled; when a
// real server answers at that address the watch connects.
func TestWatchOperStatusSilentServer(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := lis.Addr().String()
	accepted := make(chan net.Conn, 64)
	acceptDone := make(chan struct{})
	go func() {
		defer close(acceptDone)
		for {
			c, err := lis.Accept()
			if err != nil {
				return
			}
			accepted <- c // held open, never answered
		}
	}()
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()

	events := make(chan OperEvent, 16)
	conn := make(chan bool, 16)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errC := make(chan error, 1)
	go func() {
		errC <- WatchOperStatus(ctx, addr, []string{"P1"}, insecureDial, events,
			WithBackoff(10*time.Millisecond, 50*time.Millisecond),
			WithSyncTimeout(100*time.Millisecond),
			WithConnState(func(c bool) { conn <- c }),
			WithTarget(testTarget))
	}()
	// Without the sync timeout the first connection would wait for ever.
	for i := range 3 {
		held = append(held, next(t, accepted, fmt.Sprintf("connection %d", i+1)))
	}
	assert.Empty(t, conn, "never synced, never connected")

	require.NoError(t, lis.Close())
	<-acceptDone
	srv := newTestServer(t)
	publishFixture(t, srv)
	serve(t, srv, addr)
	assert.True(t, next(t, conn, "connected"))
	assert.Equal(t, "P1", next(t, events, "P1 state").Name)
	cancel()
	assert.ErrorIs(t, next(t, errC, "WatchOperStatus to return"), context.Canceled)
}

func TestWatchOperStatusArguments(t *testing.T) {
	events := make(chan OperEvent)
	tests := []struct {
		name     string
		addr     string
		names    []string
		dialOpts []grpc.DialOption
		events   chan<- OperEvent
	}{
		{name: "no address", names: []string{"P1"}, dialOpts: insecureDial, events: events},
		{name: "no names", addr: "127.0.0.1:1", dialOpts: insecureDial, events: events},
		{name: "empty name", addr: "127.0.0.1:1", names: []string{"P1", ""}, dialOpts: insecureDial, events: events},
		{name: "nil channel", addr: "127.0.0.1:1", names: []string{"P1"}, dialOpts: insecureDial},
		{name: "no credentials", addr: "127.0.0.1:1", names: []string{"P1"}, events: events},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := WatchOperStatus(context.Background(), tt.addr, tt.names, tt.dialOpts, tt.events)
			assert.ErrorIs(t, err, ErrInvalidArgument)
		})
	}
	t.Run("zero sync timeout", func(t *testing.T) {
		err := WatchOperStatus(context.Background(), "127.0.0.1:1", []string{"P1"}, insecureDial, events, WithSyncTimeout(0))
		assert.ErrorIs(t, err, ErrInvalidArgument)
		assert.Contains(t, err.Error(), "sync timeout 0s")
	})
}

func TestOperEvents(t *testing.T) {
	w := &watcher{want: map[string]bool{"P1": true, "P2": true}, log: slog.New(slog.DiscardHandler)}
	at := time.Unix(1700000000, 0)
	ts := at.UnixNano()
	tests := []struct {
		name  string
		known map[string]bool
		n     *gpb.Notification
		want  []OperEvent
	}{
		{
			name: "full path string value",
			n:    &gpb.Notification{Timestamp: ts, Update: []*gpb.Update{{Path: p(p1Oper), Val: strVal("UP")}}},
			want: []OperEvent{{Name: "P1", Up: true, At: at}},
		},
		{
			name: "prefix and json_ietf module-qualified value",
			n: &gpb.Notification{Timestamp: ts, Prefix: p("/interfaces/interface[name=P2]"), Update: []*gpb.Update{{
				Path: p("/state/oper-status"),
				Val:  &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: []byte(`"openconfig-interfaces:UP"`)}},
			}}},
			want: []OperEvent{{Name: "P2", Up: true, At: at}},
		},
		{
			name: "lower-layer-down is down",
			n:    &gpb.Notification{Timestamp: ts, Update: []*gpb.Update{{Path: p(p1Oper), Val: strVal("LOWER_LAYER_DOWN")}}},
			want: []OperEvent{{Name: "P1", Up: false, At: at}},
		},
		{
			name: "unwatched interface, other leaf, bad value",
			n: &gpb.Notification{Timestamp: ts, Update: []*gpb.Update{
				{Path: p("/interfaces/interface[name=P7]/state/oper-status"), Val: strVal("UP")},
				{Path: p("/interfaces/interface[name=P1]/state/admin-status"), Val: strVal("UP")},
				{Path: p(p1Oper), Val: boolVal(true)},
			}},
		},
		{
			name:  "delete of a known interface",
			known: map[string]bool{"P1": true, "P2": true},
			n:     &gpb.Notification{Timestamp: ts, Delete: []*gpb.Path{p("/interfaces/interface[name=P2]")}},
			want:  []OperEvent{{Name: "P2", Up: false, At: at}},
		},
		{
			name: "delete of an interface never reported",
			n:    &gpb.Notification{Timestamp: ts, Delete: []*gpb.Path{p(p1Oper)}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			known := tt.known
			if known == nil {
				known = map[string]bool{}
			}
			assert.Equal(t, tt.want, w.operEvents(tt.n, known))
		})
	}
}
