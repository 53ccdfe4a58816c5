package apiserver

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/daemon/telemetry"
)

func serveDaemon(t *testing.T) *daemon.Daemon {
	t.Helper()
	d, err := daemon.New(daemon.Options{StateDir: t.TempDir(), InitialConfig: "../testdata/fast.yaml", SwitchAddr: "127.0.0.1:1", DeviceID: 1})
	require.NoError(t, err)
	return d
}

// TestServeRunsAndStops: the API and metrics answer while Serve runs; the
// end of the context stops everything and Serve returns nil (goleak
// checks that nothing is left running).
func TestServeRunsAndStops(t *testing.T) {
	d := serveDaemon(t)
	api, err := ListenUnix(filepath.Join(t.TempDir(), "b.sock"))
	require.NoError(t, err)
	ml, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	reg := telemetry.New(nil).Registry(d)
	go func() { done <- Serve(ctx, d, Servers{API: api, Metrics: ml, MetricsRegistry: reg}) }()

	var body string
	require.Eventually(t, func() bool {
		r, err := http.Get("http://" + ml.Addr().String() + "/metrics")
		if err != nil {
			return false
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		body = string(b)
		return r.StatusCode == http.StatusOK
	}, 10*time.Second, 10*time.Millisecond)
	assert.Contains(t, body, "balancer_")
	cancel()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after its context ended")
	}
	http.DefaultClient.CloseIdleConnections()
}

// TestServeReturnsTheFirstFailure: a failing daemon run stops the servers
// and is what Serve returns.
func TestServeReturnsTheFirstFailure(t *testing.T) {
	d := serveDaemon(t)
	api, err := ListenUnix(filepath.Join(t.TempDir(), "b.sock"))
	require.NoError(t, err)
	boom := errors.New("boom")
	err = Serve(context.Background(), d, Servers{API: api, Run: func(context.Context) error { return boom }})
	assert.ErrorIs(t, err, boom)

	assert.Error(t, Serve(context.Background(), d, Servers{}), "no API listener")
}

// TestServeStopsWithMonitorFollowing: a monitor following the events
// (which never ends by itself) does not keep the daemon from stopping:
// when Serve's context ends, the stream ends UNAVAILABLE, saying the
// daemon is stopping (what the CLI turns into "the daemon stopped"), and
// Serve returns.
func TestServeStopsWithMonitorFollowing(t *testing.T) {
	d := serveDaemon(t)
	socket := filepath.Join(t.TempDir(), "b.sock")
	api, err := ListenUnix(socket)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, d, Servers{API: api}) }()

	conn, err := grpc.NewClient("unix://"+socket, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer conn.Close()
	cl := apiv1.NewBalancerClient(conn)
	_, err = cl.SetBypass(context.Background(), &apiv1.SetBypassRequest{Group: "F2", On: true})
	require.NoError(t, err)
	st, err := cl.Monitor(context.Background(), &apiv1.MonitorRequest{Replay: 1, Object: "F2", Follow: true})
	require.NoError(t, err)
	// The replayed event: the daemon's handler is following now.
	e, err := st.Recv()
	require.NoError(t, err)
	require.Equal(t, "F2", e.GetObject())

	cancel()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not return while a monitor followed the events")
	}
	_, err = st.Recv()
	assert.Equal(t, codes.Unavailable, status.Code(err), "%v", err)
	assert.Contains(t, status.Convert(err).Message(), "the daemon is stopping")
}
