package etcdstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/p4src"
)

// failOpenSite writes testdata/ha.yaml with fail-open probes every 3
// keep-alive rounds (150 ms) and fail_open_action bypass, plus extra
// profile settings.
func failOpenSite(t *testing.T, extra string) string {
	t.Helper()
	data, err := os.ReadFile("testdata/ha.yaml")
	require.NoError(t, err)
	site := strings.Replace(string(data), "failure_action: bypass}",
		"failure_action: bypass, probe_payload: dpi-probe-block-me, probe_every: 3, fail_open_action: bypass"+extra+"}", 1)
	require.NotEqual(t, string(data), site)
	path := filepath.Join(t.TempDir(), "ha.yaml")
	require.NoError(t, os.WriteFile(path, []byte(site), 0o644))
	return path
}

// filterNamed is a filter group as a daemon's status shows it.
func filterNamed(t *testing.T, h *haDaemon, name string) daemon.FilterStatus {
	t.Helper()
	st, err := h.d.Status(context.Background())
	require.NoError(t, err)
	for _, f := range st.Filters {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("%s shows no filter group %s", h.name, name)
	return daemon.FilterStatus{}
}

// failedOpenMetric is balancer_filter_group_failed_open of a filter group
// in a daemon's metrics (-1: no such series).
func failedOpenMetric(t *testing.T, h *haDaemon, name string) float64 {
	t.Helper()
	reg := prometheus.NewRegistry()
	require.NoError(t, reg.Register(h.pub.Collector(h.d)))
	mfs, err := reg.Gather()
	require.NoError(t, err)
	for _, mf := range mfs {
		if mf.GetName() != "balancer_filter_group_failed_open" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "filter_group" && l.GetValue() == name {
					return m.GetGauge().GetValue()
				}
			}
		}
	}
	return -1
}

var errFound = errors.New("found")

// waitEvent waits for a daemon's first event of object (of kind, to
// state to) after seq after.
func waitEvent(t *testing.T, h *haDaemon, object, kind, to string, after uint64, within time.Duration) daemon.Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	var got daemon.Event
	err := h.d.Monitor(ctx, 1000, object, true, func(e daemon.Event) error {
		if e.Seq > after && e.Kind == kind && e.To == to {
			got = e
			return errFound
		}
		return nil
	})
	require.ErrorIs(t, err, errFound, "%s: no %s event of %s to %s within %s", h.name, kind, object, to, within)
	return got
}

// eventsOf are a daemon's events of object so far.
func eventsOf(t *testing.T, h *haDaemon, object string) []daemon.Event {
	t.Helper()
	var out []daemon.Event
	require.NoError(t, h.d.Monitor(context.Background(), 1000, object, false, func(e daemon.Event) error {
		out = append(out, e)
		return nil
	}))
	return out
}

func lastSeq(t *testing.T, h *haDaemon) uint64 {
	t.Helper()
	var seq uint64
	require.NoError(t, h.d.Monitor(context.Background(), 1, "", false, func(e daemon.Event) error {
		seq = e.Seq
		return nil
	}))
	return seq
}

// A filter judged failed open (fail_open_action bypass) stays out of
// service through an HA takeover: the leader saves the fail-open in etcd
// as it finds it, the standby that takes over (the leader killed, or
// stopped) starts with the filter failed open, its reason, detail and
// since as on the old leader, the fail-open shown in status and the
// metrics, and the switch keeps software-bypassing its share: not one
// data frame reaches the filter from the old leader's bypass, across the
// takeover and 20 rounds of the new leader whose probes keep coming back.
// Once the filter drops probes again (mended) the new leader clears the
// fail-open and returns it by the profile's recovery rules: at once under
// failback auto, only with `filter-group return` under manual.
func TestHATakeoverKeepsFailOpen(t *testing.T) {
	t.Parallel() // the shared member, its keys under its own prefix; no fault of etcd
	for _, c := range []struct {
		name         string
		manual, kill bool
	}{
		{name: "auto-killed", kill: true},
		{name: "manual-stopped", manual: true},
	} {
		t.Run(c.name, func(t *testing.T) { haTakeoverFailOpen(t, c.manual, c.kill) })
	}
}

func haTakeoverFailOpen(t *testing.T, manual, kill bool) {
	extra := ""
	if manual {
		extra = ", failback: manual"
	}
	// Relaxed keep-alives (probes every 3 rounds of 200 ms): the test is
	// about what a takeover keeps, not how fast a loss is found; its
	// waits are for events (setupWait), whatever the host's pace.
	b := newHABedOn(t, startEtcd(t), nil, func(b *haBed) { b.config, b.publish = relaxKeepAlives(t, failOpenSite(t, extra)), true })
	a := b.start("a")
	b.allUp(a)
	s := b.start("s")
	b.waitStandby(s)
	b.waitSavedUp("F1", "F2", "F3")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.traffic(ctx, 2000)
	f2 := b.filters["F2"]
	require.Eventually(t, func() bool { return f2.data.Load() > 100 }, setupWait, time.Millisecond, "F2 carries its share")
	require.Eventually(t, func() bool {
		fo := filterNamed(t, a, "F2").FailOpen
		return fo != nil && fo.Dropped >= 2
	}, setupWait, time.Millisecond, "healthy: F2 drops the probes")
	assert.Zero(t, f2.probesPassed.Load())

	// F2 fails open: the leader takes it out and saves it failed open.
	seq := lastSeq(t, a)
	f2.passAll.Store(true)
	down := waitEvent(t, a, "F2", daemon.EventFilterGroup, "down", seq, setupWait)
	require.True(t, strings.HasPrefix(down.Reason, "failed open: probe returned "), down.Reason)
	require.Eventually(t, func() bool { return b.fgAction(1) == p4src.ActionFilterSWBypass }, setupWait, time.Millisecond)
	before := filterNamed(t, a, "F2")
	require.NotNil(t, before.FailOpen)
	require.True(t, before.FailOpen.FailedOpen)
	check, err := Open(newClient(t, b.etcd), b.prefix, 0)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		rt, err := check.LoadRuntime()
		fo, ok := rt.FailedOpen["F2"]
		return err == nil && ok && fo.Detail == before.FailOpen.Detail && fo.Since.Equal(before.FailOpen.Since)
	}, setupWait, 5*time.Millisecond, "the leader saves the fail-open in etcd")
	require.Eventually(t, func() bool {
		fo := filterNamed(t, s, "F2").FailOpen
		return fo != nil && fo.FailedOpen
	}, setupWait, time.Millisecond, "the standby shows the fail-open from the store")
	// From here on the filter gets no data frame: by the switch's count
	// and the emulator's.
	sent, reached := b.toFilter(1), f2.data.Load()

	var took time.Duration
	if kill {
		took = b.takeover(a, s)
	} else {
		at := time.Now()
		a.stop()
		b.waitReady(s, setupWait)
		took = time.Since(at)
	}
	f := filterNamed(t, s, "F2")
	t.Logf("takeover in %v (leader %s); F2 on the new leader: %s (%s), effective %s, failed open %v since %v",
		took, map[bool]string{true: "killed", false: "stopped"}[kill], f.State, f.Reason, f.Effective, f.FailOpen.FailedOpen, f.FailOpen.Since)
	assert.Equal(t, "down", f.State)
	// The reason as on the old leader (while the stall guard holds a loss
	// of a loaded host's first rounds, it shows that instead: it ends).
	require.Eventually(t, func() bool { g := filterNamed(t, s, "F2"); return !g.Held && g.Reason == before.Reason }, setupWait, time.Millisecond,
		"the reason as on the old leader, %q: %q", before.Reason, filterNamed(t, s, "F2").Reason)
	require.NotNil(t, f.FailOpen)
	assert.True(t, f.FailOpen.FailedOpen, "still failed open: not judged afresh")
	assert.Equal(t, before.FailOpen.Detail, f.FailOpen.Detail)
	assert.True(t, f.FailOpen.Since.Equal(before.FailOpen.Since), "since the fail-open was found, not the takeover")
	assert.Equal(t, "bypass", f.FailOpen.Action)
	assert.Equal(t, p4src.ActionFilterSWBypass, b.fgAction(1))
	require.Eventually(t, func() bool { return failedOpenMetric(t, s, "F2") == 1 }, setupWait, 5*time.Millisecond,
		"balancer_filter_group_failed_open{filter_group=F2} on the new leader")

	// Its probes keep coming back: 20 rounds of the new leader, F2 never
	// in service.
	passes, returned := f.Passes, f.FailOpen.Returned
	require.Eventually(t, func() bool { return filterNamed(t, s, "F2").Passes >= passes+20 }, setupWait, time.Millisecond)
	f = filterNamed(t, s, "F2")
	assert.Equal(t, "down", f.State)
	assert.True(t, f.FailOpen.FailedOpen)
	assert.Greater(t, f.FailOpen.Returned, returned, "its probes came back to the new leader")
	assert.Equal(t, p4src.ActionFilterSWBypass, b.fgAction(1))
	assert.Equal(t, float64(1), failedOpenMetric(t, s, "F2"))
	for _, e := range eventsOf(t, s, "F2") {
		t.Logf("new leader's event: %s", e)
		if e.Kind == daemon.EventFilterGroup {
			assert.NotContains(t, []string{"up", "recovered"}, e.To, "F2 on the new leader while failed open: %s", e)
		}
		if e.Kind == daemon.EventAlarm {
			assert.NotEqual(t, "cleared", e.To, "the fail-open alarm cleared while probes come back: %s", e)
		}
	}
	assert.Zero(t, b.toFilter(1)-sent, "no data frame to F2 across the takeover (switch counter)")
	assert.Zero(t, f2.data.Load()-reached, "no data frame reached F2 across the takeover")
	assert.Equal(t, "up", filterNamed(t, s, "F1").State)
	assert.Equal(t, "up", filterNamed(t, s, "F3").State)

	// Mended: its probes are dropped again. The fail-open ends (and is
	// saved as ended); then the recovery rules.
	seq = lastSeq(t, s)
	at := time.Now()
	f2.passAll.Store(false)
	cleared := waitEvent(t, s, "F2", daemon.EventAlarm, "cleared", seq, setupWait)
	assert.Contains(t, cleared.Reason, "filter-failed-open")
	require.Eventually(t, func() bool {
		rt, err := check.LoadRuntime()
		_, open := rt.FailedOpen["F2"]
		return err == nil && !open
	}, setupWait, 5*time.Millisecond, "the end of the fail-open is saved")
	require.Eventually(t, func() bool { return failedOpenMetric(t, s, "F2") == 0 }, setupWait, 5*time.Millisecond)
	if manual {
		rec := waitEvent(t, s, "F2", daemon.EventFilterGroup, "recovered", seq, setupWait)
		t.Logf("mended: fail-open cleared after %v, recovered (waiting for return) after %v", cleared.At.Sub(at), rec.At.Sub(at))
		// 20 more rounds: it waits, its share still bypassed.
		sent, reached = b.toFilter(1), f2.data.Load()
		passes = filterNamed(t, s, "F2").Passes
		require.Eventually(t, func() bool { return filterNamed(t, s, "F2").Passes >= passes+20 }, setupWait, time.Millisecond)
		f = filterNamed(t, s, "F2")
		assert.Equal(t, "recovered", f.State)
		require.Eventually(t, func() bool {
			g := filterNamed(t, s, "F2")
			return !g.Held && g.Reason == "recovered, waiting for return"
		}, setupWait, time.Millisecond, "reason %q", filterNamed(t, s, "F2").Reason)
		assert.False(t, f.FailOpen.FailedOpen)
		assert.Equal(t, p4src.ActionFilterSWBypass, b.fgAction(1))
		assert.Zero(t, b.toFilter(1)-sent, "no data frame to F2 while it waits for return")
		assert.Zero(t, f2.data.Load()-reached)
		require.NoError(t, s.d.ReturnFilterGroup(context.Background(), "F2"))
		assert.Equal(t, p4src.ActionFilterForward, b.fgAction(1), "forwarding when return returns")
	} else {
		up := waitEvent(t, s, "F2", daemon.EventFilterGroup, "up", seq, setupWait)
		t.Logf("mended: fail-open cleared after %v, up after %v (%s)", cleared.At.Sub(at), up.At.Sub(at), up.Reason)
		assert.Equal(t, "keep-alives pass", up.Reason)
		// The dropped round is the first of recovery_threshold (3) passes:
		// 2 more rounds of relaxedInterval (half a round of slack for the
		// stamps).
		assert.GreaterOrEqual(t, up.At.Sub(cleared.At), 2*relaxedInterval-relaxedInterval/2, "the recovery rules count from the dropped round")
		require.Eventually(t, func() bool { return b.fgAction(1) == p4src.ActionFilterForward }, setupWait, time.Millisecond)
	}
	back := f2.data.Load()
	require.Eventually(t, func() bool { return f2.data.Load() > back+100 }, setupWait, time.Millisecond, "F2 carries its share again")
	assert.Equal(t, "up", filterNamed(t, s, "F2").State)
}
