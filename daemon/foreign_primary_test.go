package daemon_test

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/daemon/telemetry"
	"github.com/dpi-balancer/balancer/internal/testbed"
)

// gatherText is what reg exposes, in the text format.
func gatherText(t *testing.T, reg prometheus.Gatherer) string {
	t.Helper()
	mfs, err := reg.Gather()
	require.NoError(t, err)
	var b bytes.Buffer
	enc := expfmt.NewEncoder(&b, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, mf := range mfs {
		require.NoError(t, enc.Encode(mf))
	}
	return b.String()
}

// TestForeignPrimaryAlarm: another P4Runtime client takes the primary role
// on the switch with a higher election id. Within a second the daemon's
// status, gNMI, Prometheus and log raise the alarm naming its election id;
// the daemon stays backup (writes nothing); when the other client leaves,
// the daemon takes the role back and the alarm clears.
func TestForeignPrimaryAlarm(t *testing.T) {
	b := daemon.NewBed(t)
	tele := telemetry.NewServer()
	glis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	g := grpc.NewServer()
	tele.Register(g)
	go g.Serve(glis)
	t.Cleanup(func() { g.Stop(); tele.Close() })
	var logs testbed.SyncBuffer
	pub := telemetry.New(tele)
	d, err := daemon.New(daemon.Options{StateDir: b.Dir(), InitialConfig: "testdata/fast.yaml", SwitchAddr: b.Addr(), SwitchGNMI: b.GNMIAddr(),
		DeviceID: 1, ElectionLow: 7, Tick: time.Millisecond, Telemetry: pub, StateInterval: 20 * time.Millisecond, CounterInterval: time.Hour,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); d.Run(ctx) }()
	t.Cleanup(func() { cancel(); wg.Wait() })
	b.AllUp(d)

	gc, err := grpc.NewClient(glis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { gc.Close() })
	gnmiLeaf := func(name string) string {
		resp, err := gpb.NewGNMIClient(gc).Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{{Elem: []*gpb.PathElem{{Name: "balancer"}, {Name: "state"}, {Name: name}}}}, Encoding: gpb.Encoding_PROTO})
		if err != nil || len(resp.GetNotification()) == 0 || len(resp.GetNotification()[0].GetUpdate()) == 0 {
			return ""
		}
		return resp.GetNotification()[0].GetUpdate()[0].GetVal().GetStringVal()
	}
	reg := pub.Registry(d)

	// The intruder: election id 5:0, above the daemon's 0:7.
	cc, err := grpc.NewClient(b.Addr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	sctx, scancel := context.WithCancel(ctx)
	stream, err := p4v1.NewP4RuntimeClient(cc).StreamChannel(sctx)
	require.NoError(t, err)
	took := time.Now()
	require.NoError(t, stream.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Arbitration{
		Arbitration: &p4v1.MasterArbitrationUpdate{DeviceId: 1, ElectionId: &p4v1.Uint128{High: 5}}}}))
	resp, err := stream.Recv()
	require.NoError(t, err)
	require.Zero(t, resp.GetArbitration().GetStatus().GetCode(), "the intruder is primary")

	// Each surface, timed when it first shows the alarm.
	var st *daemon.Status
	seen := map[string]time.Duration{}
	deadline := time.Now().Add(5 * time.Second)
	for len(seen) < 3 {
		if _, ok := seen["status"]; !ok {
			st, err = d.Status(ctx)
			require.NoError(t, err)
			if strings.Contains(st.Switch.Alarm, "election id 5:0") {
				seen["status"] = time.Since(took)
			}
		}
		if _, ok := seen["gNMI"]; !ok && gnmiLeaf("switch-other-primary") == "5:0" {
			seen["gNMI"] = time.Since(took)
		}
		if _, ok := seen["Prometheus"]; !ok && strings.Contains(gatherText(t, reg), `balancer_switch_other_primary{election_id="5:0"} 1`) {
			seen["Prometheus"] = time.Since(took)
		}
		require.True(t, time.Now().Before(deadline), "no alarm: %+v (seen %v)", st.Switch, seen)
		time.Sleep(time.Millisecond) // polling the daemon's surfaces
	}
	for _, k := range []string{"status", "gNMI", "Prometheus"} {
		t.Logf("alarm in %s %s after the intruder took the primary role", k, seen[k])
		assert.Less(t, seen[k], time.Second, k)
	}
	st, err = d.Status(ctx)
	require.NoError(t, err)
	assert.False(t, st.Switch.Primary)
	assert.Equal(t, "5:0", st.Switch.OtherPrimary)
	assert.Contains(t, st.Switch.Alarm, "another controller is primary on the switch")
	assert.Contains(t, st.Switch.Alarm, "this daemon's 0:7")
	assert.Contains(t, gnmiLeaf("switch-alarm"), "election id 5:0")
	text := gatherText(t, reg)
	assert.Contains(t, text, "balancer_switch_alarm 1")
	assert.Contains(t, text, "balancer_switch_primary 0")
	assert.Contains(t, logs.String(), "ALARM another controller is primary on the switch")
	assert.Contains(t, logs.String(), "primary_election_id=5:0")

	// The intruder leaves: the daemon bids again and is primary, no alarm.
	scancel()
	cc.Close()
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		st, err := d.Status(ctx)
		if assert.NoError(c, err) {
			assert.True(c, st.Switch.Primary && st.Switch.Alarm == "" && st.Switch.OtherPrimary == "", "the daemon never took the primary role back: %+v", st.Switch)
		}
	}, 10*time.Second, 5*time.Millisecond)
	require.Eventually(t, func() bool {
		return strings.Contains(gatherText(t, reg), `balancer_switch_other_primary{election_id=""} 0`) && gnmiLeaf("switch-other-primary") == ""
	}, 5*time.Second, 10*time.Millisecond)
}
