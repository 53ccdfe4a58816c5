package daemon_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/dpi-balancer/balancer/controlplane"
	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/daemon/telemetry"
	bgnmi "github.com/dpi-balancer/balancer/gnmi"
	"github.com/dpi-balancer/balancer/internal/stallproxy"
	"github.com/dpi-balancer/balancer/internal/testbed"
	"github.com/dpi-balancer/balancer/sim"
)

// A network cut that loses the close of the daemon's connection (the
// proxy severs it) leaves the software switch holding the daemon's
// stream: the daemon, reconnected at once, is refused its own election
// id. Its status and the telemetry tree (switch-alarm) say so with the
// remedy, and once the switch's keepalive (the default 3s + 3s) drops the
// dead stream the daemon is primary again and the alarm clears.
func TestNetworkCutRefusedIDShowsAndEnds(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the switch's default keepalive, about 7s (-short)")
	}
	b := daemon.NewBed(t)
	proxy := stallproxy.New(t, b.Addr())
	tele := bgnmi.NewServer("balancer")
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	g := grpc.NewServer()
	tele.Register(g)
	go g.Serve(lis)
	t.Cleanup(func() { g.Stop(); tele.Close() })
	d, err := daemon.New(daemon.Options{StateDir: b.Dir(), InitialConfig: "testdata/fast.yaml", SwitchAddr: proxy.Addr(), SwitchGNMI: b.GNMIAddr(),
		DeviceID: 1, Tick: time.Millisecond, Telemetry: telemetry.New(tele), StateInterval: 20 * time.Millisecond, CounterInterval: time.Hour,
		SwitchTiming: controlplane.Timing{ProbeInterval: 100 * time.Millisecond, StallTimeout: 500 * time.Millisecond}})
	require.NoError(t, err)
	testbed.Run(t, func(ctx context.Context) { d.Run(ctx) })
	b.AllUp(d)
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer cc.Close()
	alarm := func() string { return gnmiSwitchAlarm(cc) }
	st, err := d.Status(context.Background())
	require.NoError(t, err)
	id := st.Switch.ElectionID

	proxy.Sever()
	cut := time.Now()
	require.Eventually(t, func() bool {
		st, err = d.Status(context.Background())
		return err == nil && st.Switch.ElectionRefused
	}, sim.DefaultKeepaliveTime+sim.DefaultKeepaliveTimeout, 5*time.Millisecond, "the switch did not refuse the id: %+v", st.Switch)
	refusedAfter := time.Since(cut)
	assert.False(t, st.Switch.Connected)
	assert.False(t, st.Switch.Primary)
	assert.Contains(t, st.Switch.Alarm, "switch refuses election id "+id+": another stream holds it")
	assert.Contains(t, st.Switch.Alarm, "restart the switch's P4Runtime agent")
	require.Eventually(t, func() bool { return strings.HasPrefix(alarm(), "switch refuses election id "+id) }, 5*time.Second, 10*time.Millisecond,
		"telemetry switch-alarm %q", alarm())

	require.Eventually(t, func() bool {
		st, err = d.Status(context.Background())
		return err == nil && st.Switch.Primary && !st.Switch.ElectionRefused && st.Switch.Alarm == "" && alarm() == ""
	}, 60*time.Second, 10*time.Millisecond, "%+v", st.Switch)
	t.Logf("refused %v after the cut, primary again %v after it (switch keepalive %v + %v)",
		refusedAfter.Round(time.Millisecond), time.Since(cut).Round(time.Millisecond), sim.DefaultKeepaliveTime, sim.DefaultKeepaliveTimeout)
	assert.Equal(t, id, st.Switch.ElectionID, "the same election id")
}
