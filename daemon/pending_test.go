package daemon_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/daemon/telemetry"
)

// daemonGauge reads one unlabelled gauge of the daemon's metrics (d
// publishing to pub).
func daemonGauge(t *testing.T, pub *telemetry.Publisher, d *daemon.Daemon, name string) float64 {
	t.Helper()
	reg := prometheus.NewRegistry()
	require.NoError(t, reg.Register(pub.Collector(d)))
	mfs, err := reg.Gather()
	require.NoError(t, err)
	for _, mf := range mfs {
		if mf.GetName() == name {
			require.Len(t, mf.GetMetric(), 1)
			return mf.GetMetric()[0].GetGauge().GetValue()
		}
	}
	t.Fatalf("no metric %s", name)
	return 0
}

// What the CLI prints after a change ("switch: programmed" when the
// result says written, "not programmed yet" otherwise) and what
// balancer_switch_pending says agree the moment the change returns, not
// a state interval later.
func TestPendingAgreesWithProgrammed(t *testing.T) {
	b := daemon.NewBed(t)
	pub := telemetry.New(nil)
	d, err := daemon.New(daemon.Options{StateDir: b.Dir(), InitialConfig: b.Config(), SwitchAddr: b.Addr(), SwitchGNMI: b.GNMIAddr(), Telemetry: pub,
		DeviceID: 1, ElectionLow: 10, Tick: time.Millisecond, CounterInterval: time.Hour, StateInterval: time.Hour, Logger: daemon.TestLogger})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = d.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	b.AllUp(d)

	data, err := os.ReadFile(b.Config())
	require.NoError(t, err)
	for i, extra := range []string{
		"  - {name: bgp, priority: 100, match: {proto: tcp, l4_port: 179}, action: bypass}\n",
		"  - {name: dns, priority: 90, match: {proto: udp, l4_port: 53}, action: bypass}\n",
	} {
		data = append(data, extra...)
		res, err := d.ApplyConfig(context.Background(), data, false, "change")
		require.NoError(t, err)
		require.True(t, res.Written, "change %d: %+v", i, res)
		assert.Equal(t, 0.0, daemonGauge(t, pub, d, "balancer_switch_pending"), "change %d: programmed, so not pending", i)
	}

	// No switch: the change is saved, not programmed, and pending says
	// so at once.
	dir := t.TempDir()
	pub2 := telemetry.New(nil)
	d2, err := daemon.New(daemon.Options{StateDir: dir, InitialConfig: b.Config(), SwitchAddr: "127.0.0.1:1", Telemetry: pub2,
		DeviceID: 1, Tick: time.Millisecond, CounterInterval: time.Hour, StateInterval: time.Hour, Logger: daemon.TestLogger})
	require.NoError(t, err)
	ctx2, cancel2 := context.WithCancel(context.Background())
	done2 := make(chan struct{})
	go func() { _ = d2.Run(ctx2); close(done2) }()
	t.Cleanup(func() { cancel2(); <-done2 })
	require.Eventually(t, func() bool { return d2.Session().Status().LastError != "" }, 10*time.Second, time.Millisecond,
		"the session runs (and fails to connect)")
	res, err := d2.ApplyConfig(context.Background(), data, false, "no switch")
	require.NoError(t, err)
	require.False(t, res.Written)
	assert.Equal(t, 1.0, daemonGauge(t, pub2, d2, "balancer_switch_pending"), "not programmed, so pending")
}
