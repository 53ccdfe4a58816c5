package daemon_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/daemon/telemetry"
	bgnmi "github.com/dpi-balancer/balancer/gnmi"
	"github.com/dpi-balancer/balancer/internal/testbed"
)

// gnmiFilterLeaf reads one state leaf of filter group fg over gNMI.
func gnmiFilterLeaf(cc *grpc.ClientConn, fg, leaf string) string {
	rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	resp, err := gpb.NewGNMIClient(cc).Get(rctx, &gpb.GetRequest{Encoding: gpb.Encoding_PROTO, Path: []*gpb.Path{{Elem: []*gpb.PathElem{
		{Name: "balancer"}, {Name: "filter-groups"}, {Name: "filter-group", Key: map[string]string{"name": fg}}, {Name: "state"}, {Name: leaf}}}}})
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

// gNMI shows a filter recovered under manual failback as recovered,
// waiting for return, and as up once returned.
func TestRecoveredShownOverGNMI(t *testing.T) {
	b := daemon.NewBed(t)
	data, err := os.ReadFile("testdata/verdict.yaml") // 40 ms keep-alives: fast.yaml's 10 ms may fail a filter at start under -race, and manual failback would keep it out
	require.NoError(t, err)
	site := strings.Replace(string(data), "failure_action: bypass}", "failure_action: bypass, failback: manual}", 1)
	require.NotEqual(t, string(data), site)
	path := filepath.Join(t.TempDir(), "site.yaml")
	require.NoError(t, os.WriteFile(path, []byte(site), 0o644))

	tele := bgnmi.NewServer("balancer")
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	g := grpc.NewServer()
	tele.Register(g)
	go g.Serve(lis)
	t.Cleanup(func() { g.Stop(); tele.Close() })
	d, err := daemon.New(daemon.Options{StateDir: b.Dir(), InitialConfig: path, SwitchAddr: b.Addr(), SwitchGNMI: b.GNMIAddr(),
		DeviceID: 1, Tick: time.Millisecond, Telemetry: telemetry.New(tele), StateInterval: 20 * time.Millisecond, CounterInterval: time.Hour})
	require.NoError(t, err)
	testbed.Run(t, func(ctx context.Context) { d.Run(ctx) })
	b.AllUp(d)
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer cc.Close()
	leaf := func(l string) string { return gnmiFilterLeaf(cc, "F2", l) }

	b.SetFilterAlive("F2", false)
	require.Eventually(t, func() bool { return leaf("state") == "down" }, 10*time.Second, 5*time.Millisecond, "state %q", leaf("state"))
	b.SetFilterAlive("F2", true)
	require.Eventually(t, func() bool { return leaf("state") == "recovered" }, 10*time.Second, 5*time.Millisecond, "state %q", leaf("state"))
	require.Equal(t, "recovered, waiting for return", leaf("reason"))
	require.NoError(t, d.ReturnFilterGroup(context.Background(), "F2"))
	require.Eventually(t, func() bool { return leaf("state") == "up" }, 10*time.Second, 5*time.Millisecond, "state %q", leaf("state"))
	require.Equal(t, "returned by the operator", leaf("reason"))
}
