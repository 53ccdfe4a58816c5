package daemon_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/daemon/telemetry"
	bgnmi "github.com/dpi-balancer/balancer/gnmi"
	"github.com/dpi-balancer/balancer/internal/stallproxy"
	"github.com/dpi-balancer/balancer/internal/testbed"
)

// A switch that keeps its connection but stops answering shows in the
// daemon's status, in the telemetry tree (switch-alarm) and in Prometheus
// (balancer_switch_stalled) within 5s with the default session timing,
// and clears when the switch answers again.
func TestSwitchStallShowsInStatusTelemetryAndMetrics(t *testing.T) {
	b := daemon.NewBed(t)
	proxy := stallproxy.New(t, b.Addr())
	tele := bgnmi.NewServer("balancer")
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	g := grpc.NewServer()
	tele.Register(g)
	go g.Serve(lis)
	t.Cleanup(func() { g.Stop(); tele.Close() })

	pub := telemetry.New(tele)
	d, err := daemon.New(daemon.Options{StateDir: b.Dir(), InitialConfig: "testdata/fast.yaml", SwitchAddr: proxy.Addr(), SwitchGNMI: b.GNMIAddr(),
		DeviceID: 1, Tick: time.Millisecond, Telemetry: pub, StateInterval: 20 * time.Millisecond, CounterInterval: time.Hour})
	require.NoError(t, err)
	testbed.Run(t, func(ctx context.Context) { d.Run(ctx) })
	b.AllUp(d)

	reg := prometheus.NewRegistry()
	reg.MustRegister(pub.Collector(d))
	prom := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	defer prom.Close()
	metrics := func() string {
		resp, err := http.Get(prom.URL)
		if err != nil {
			return ""
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return string(body)
	}
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer cc.Close()
	alarm := func() string { return gnmiSwitchAlarm(cc) }
	require.Eventually(t, func() bool {
		return strings.Contains(metrics(), "balancer_switch_connected 1") && alarm() == ""
	}, 5*time.Second, 20*time.Millisecond)
	assert.Contains(t, metrics(), "balancer_switch_stalled 0")

	proxy.Pause()
	start := time.Now()
	var st *daemon.Status
	require.Eventually(t, func() bool {
		st, err = d.Status(context.Background())
		return err == nil && st.Switch.Stalled
	}, 10*time.Second, 5*time.Millisecond)
	inStatus := time.Since(start)
	require.Eventually(t, func() bool {
		m := metrics()
		return strings.Contains(m, "balancer_switch_stalled 1") && strings.Contains(m, "balancer_switch_connected 0") &&
			strings.HasPrefix(alarm(), "switch stalled: no answer since ")
	}, 10*time.Second, 5*time.Millisecond, "alarm %q", alarm())
	everywhere := time.Since(start)
	t.Logf("hung switch in daemon status after %v, in telemetry and metrics after %v", inStatus, everywhere)
	assert.Less(t, inStatus, 5*time.Second)
	assert.Less(t, everywhere, 5*time.Second)
	assert.False(t, st.Switch.Connected)
	assert.False(t, st.Switch.Primary)
	assert.Contains(t, st.Switch.LastError, "stalled")
	assert.Contains(t, st.Switch.Alarm, "switch stalled")

	proxy.Resume()
	require.Eventually(t, func() bool {
		st, err := d.Status(context.Background())
		return err == nil && st.Switch.Primary && !st.Switch.Stalled && st.Switch.Alarm == "" &&
			strings.Contains(metrics(), "balancer_switch_stalled 0") && alarm() == ""
	}, 30*time.Second, 10*time.Millisecond)
}

// gnmiSwitchAlarm reads /balancer/state/switch-alarm from the daemon's
// gNMI server over cc ("error: ..." when the Get fails).
func gnmiSwitchAlarm(cc *grpc.ClientConn) string {
	rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	resp, err := gpb.NewGNMIClient(cc).Get(rctx, &gpb.GetRequest{Encoding: gpb.Encoding_PROTO, Path: []*gpb.Path{{Elem: []*gpb.PathElem{
		{Name: "balancer"}, {Name: "state"}, {Name: "switch-alarm"}}}}})
	if err != nil {
		return "error: " + err.Error()
	}
	for _, n := range resp.GetNotification() {
		for _, u := range n.GetUpdate() {
			return u.GetVal().GetStringVal()
		}
	}
	return ""
}
