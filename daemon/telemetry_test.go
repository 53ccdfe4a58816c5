package daemon_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/daemon/telemetry"
	"github.com/dpi-balancer/balancer/internal/testbed"
)

// gnmiCLI finds the unmodified gnmi_cli of github.com/openconfig/gnmi
// (.ci/run installs it with go install).
func gnmiCLI(t *testing.T) string {
	if p, err := exec.LookPath("gnmi_cli"); err == nil {
		return p
	}
	out, err := exec.Command("go", "env", "GOPATH").Output()
	if err == nil {
		p := filepath.Join(strings.TrimSpace(string(out)), "bin", "gnmi_cli")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skip("gnmi_cli not installed (go install github.com/openconfig/gnmi/cmd/gnmi_cli@v0.14.1)")
	return ""
}

// The daemon's telemetry tree read with gnmi_cli, and the Prometheus
// metrics, on a daemon driving the software switch.
func TestTelemetry(t *testing.T) {
	cli := gnmiCLI(t)
	b := daemon.NewBed(t)
	tele := telemetry.NewServer()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	g := grpc.NewServer()
	tele.Register(g)
	go g.Serve(lis)
	t.Cleanup(func() { g.Stop(); tele.Close() })

	pub := telemetry.New(tele)
	d, err := daemon.New(daemon.Options{StateDir: b.Dir(), InitialConfig: "testdata/fast.yaml", SwitchAddr: b.Addr(), SwitchGNMI: b.GNMIAddr(),
		DeviceID: 1, Tick: time.Millisecond, Telemetry: pub, StateInterval: 20 * time.Millisecond, CounterInterval: 50 * time.Millisecond})
	require.NoError(t, err)
	testbed.Run(t, func(ctx context.Context) { d.Run(ctx) })
	b.AllUp(d)

	query := func(q string) string {
		out, err := exec.Command(cli, "-a", lis.Addr().String(), "-insecure", "-qt", "once", "-display_type", "single", "-q", q).CombinedOutput()
		require.NoError(t, err, "%s", out)
		return string(out)
	}
	require.Eventually(t, func() bool {
		return strings.Contains(query("balancer/filter-groups/filter-group[name=F1]/state/state"), "state/state, up")
	}, 5*time.Second, 50*time.Millisecond)
	out := query("balancer/filter-groups/filter-group[name=*]/state/effective")
	for _, f := range []string{"F1", "F2", "F3"} {
		assert.Contains(t, out, "filter-group/"+f+"/state/effective")
	}
	assert.Contains(t, out, "forward")
	require.Eventually(t, func() bool {
		return strings.Contains(query("balancer/filter-groups/filter-group[name=F1]/counters/keepalive-pkts"), "keepalive-pkts")
	}, 5*time.Second, 50*time.Millisecond)

	// A failure shows up in the tree.
	b.SetFilterAlive("F2", false)
	require.Eventually(t, func() bool {
		return strings.Contains(query("balancer/filter-groups/filter-group[name=F2]/state/effective"), "sw-bypass")
	}, 5*time.Second, 20*time.Millisecond)

	// Prometheus.
	srv := httptest.NewServer(promhttp.HandlerFor(pub.Registry(d), promhttp.HandlerOpts{}))
	defer srv.Close()
	require.Eventually(t, func() bool {
		resp, err := http.Get(srv.URL)
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return strings.Contains(string(body), `balancer_filter_group_state{filter_group="F2",state="down"} 1`) &&
			strings.Contains(string(body), `balancer_filter_group_effective{effective="sw_bypass",filter_group="F2"} 1`) &&
			strings.Contains(string(body), `balancer_filter_group_up{filter_group="F2"} 0`) &&
			strings.Contains(string(body), `balancer_switch_primary 1`)
	}, 5*time.Second, 20*time.Millisecond)
}

// TestTelemetryNamesTheBalancer: the balancer's name (the daemon's
// --name) is a gNMI leaf and every metric's balancer label, so that the
// boxes of one site can be told apart; the running revision's author is a
// leaf too.
func TestTelemetryNamesTheBalancer(t *testing.T) {
	cli := gnmiCLI(t)
	b := daemon.NewBed(t)
	tele := telemetry.NewServer()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	g := grpc.NewServer()
	tele.Register(g)
	go g.Serve(lis)
	t.Cleanup(func() { g.Stop(); tele.Close() })

	pub := telemetry.New(tele)
	pub.SetName("edge-1")
	// testdata/relaxed.yaml: the test reads names and labels, not
	// failover; with fast.yaml's 10 ms keep-alives a starved host loses
	// F1 (and every filter group) while it looks, or never has them up.
	d, err := daemon.New(daemon.Options{Name: "edge-1", StateDir: b.Dir(), InitialConfig: "testdata/relaxed.yaml", SwitchAddr: b.Addr(), SwitchGNMI: b.GNMIAddr(),
		DeviceID: 1, Tick: time.Millisecond, Telemetry: pub, StateInterval: 20 * time.Millisecond, CounterInterval: 50 * time.Millisecond})
	require.NoError(t, err)
	testbed.Run(t, func(ctx context.Context) { d.Run(ctx) })
	b.AllUp(d)

	ctx := daemon.WithBy(context.Background(), "ops (uid 1042)")
	cfg, _, err := d.Config(ctx)
	require.NoError(t, err)
	c := cfg.Clone()
	c.Rules = append(c.Rules, config.Rule{Name: "audit", Priority: 4242, Action: "bypass", Match: config.Match{VLAN: []config.Range{{Lo: 7, Hi: 7}}}})
	data, err := c.Marshal()
	require.NoError(t, err)
	_, err = d.ApplyConfig(ctx, data, false, "add audit")
	require.NoError(t, err)
	st, err := d.Status(ctx)
	require.NoError(t, err)
	assert.Equal(t, "edge-1", st.Daemon.Name)

	query := func(q string) string {
		out, err := exec.Command(cli, "-a", lis.Addr().String(), "-insecure", "-qt", "once", "-display_type", "single", "-q", q).CombinedOutput()
		require.NoError(t, err, "%s", out)
		return string(out)
	}
	require.Eventually(t, func() bool {
		return strings.Contains(query("balancer/state/revision-by"), "state/revision-by, ops (uid 1042)")
	}, 30*time.Second, 50*time.Millisecond) // each try runs gnmi_cli, a process of its own
	assert.Contains(t, query("balancer/state/name"), "state/name, edge-1")
	assert.Contains(t, query("balancer/state/revision-comment"), "state/revision-comment, add audit")

	srv := httptest.NewServer(promhttp.HandlerFor(pub.Registry(d), promhttp.HandlerOpts{}))
	defer srv.Close()
	var body string
	require.Eventually(t, func() bool {
		resp, err := http.Get(srv.URL)
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		body = string(b)
		return strings.Contains(body, `balancer_switch_primary{balancer="edge-1"} 1`)
	}, 30*time.Second, 20*time.Millisecond)
	assert.Contains(t, body, `balancer_filter_group_up{balancer="edge-1",filter_group="F1"} 1`)
	for _, l := range strings.Split(body, "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			assert.Contains(t, l, `balancer="edge-1"`, "every series names the balancer")
		}
	}
}
