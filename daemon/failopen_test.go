package daemon

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/p4src"
)

// failOpenInterval is the keep-alive interval of failOpenSite. The
// fail-open rules count rounds; at testdata/verdict.yaml's 40 ms a 2-core
// host under stress-ng --cpu 8 running -race (gaps of 200-270 ms in the
// software switch's forwarding and the filter emulators) made the data
// plane's verdict (5 rounds without a return) and the keep-alive rules
// find healthy filters lost before the test began, so rounds are long
// enough to hold on such a host.
const failOpenInterval = 150 * time.Millisecond

// failOpenSite is testdata/verdict.yaml (recovery_threshold 3) at
// failOpenInterval whose profile sends a fail-open probe every
// probe_every rounds, with the fail-open action given.
func failOpenSite(t *testing.T, every int, action string) string {
	t.Helper()
	data, err := os.ReadFile("testdata/verdict.yaml")
	require.NoError(t, err)
	src := replaceOnce(t, string(data), "failure_action: bypass}",
		fmt.Sprintf("failure_action: bypass, probe_payload: dpi-probe-block-me, probe_every: %d, fail_open_action: %s}", every, action))
	src = replaceOnce(t, src, "interval: 40ms,", fmt.Sprintf("interval: %s,", failOpenInterval))
	path := filepath.Join(t.TempDir(), "site.yaml")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	return path
}

// waitAlarmEvent waits for the first alarm event of object to state to
// ("raised", "cleared") after event seq after, and returns it.
func waitAlarmEvent(t *testing.T, d *Daemon, object, to string, after uint64, within time.Duration) Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	var got Event
	err := d.Monitor(ctx, eventLogSize, object, true, func(e Event) error {
		if e.Seq > after && e.Kind == EventAlarm && e.To == to {
			got = e
			return errFound
		}
		return nil
	})
	require.ErrorIs(t, err, errFound, "no alarm of %s %s within %s", object, to, within)
	return got
}

// TestFailOpenOnSwitch: fail-open probes on the software switch. Healthy
// filters drop every probe (the emulator's DPI blocks the payload) and
// nothing else changes. F2 switched to pass everything is found failed
// open within probe_every keep-alive intervals by a probe that came
// back; with fail_open_action bypass the switch then sends it no data
// frame (its to-filter counter and the emulator both count 0) while
// keep-alives still pass; it comes back by the recovery rules once it
// drops probes again.
func TestFailOpenOnSwitch(t *testing.T) {
	const (
		interval = failOpenInterval
		every    = 5
		slack    = 30 * time.Millisecond // the switch's and the host's scheduling
	)
	b := newBedWith(t, failOpenSite(t, every, "bypass"), 0, nil)
	d, _ := b.startDaemon(10)
	b.allUp(d)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.trafficGen(ctx, 2000)
	f2 := b.filters["F2"]
	require.Eventually(t, func() bool { return f2.data.Load() > 50 }, 10*time.Second, time.Millisecond, "F2 carries traffic")

	// Healthy: probes reach the filters and are dropped. A probe round
	// counts as dropped only when its keep-alives came back within the
	// round too: on a host too loaded to run 40 ms rounds (-race under
	// stress-ng --cpu 8) many rounds fail, so this waits for three that
	// did, for up to a minute.
	require.Eventually(t, func() bool {
		fo := filterNamed(t, d, "F2").FailOpen
		return fo != nil && fo.Dropped >= 3
	}, time.Minute, time.Millisecond, "probe rounds dropped")
	fo := filterNamed(t, d, "F2").FailOpen
	assert.Equal(t, uint32(every), fo.ProbeEvery)
	assert.Equal(t, "bypass", fo.Action)
	assert.Zero(t, fo.Returned)
	assert.False(t, fo.FailedOpen)
	assert.Positive(t, f2.probes.Load(), "probes reached the filter")
	assert.Zero(t, f2.probesPassed.Load())
	for _, n := range []string{"F1", "F2", "F3"} {
		f := filterNamed(t, d, n)
		assert.Equal(t, "up", f.State, n)
		assert.Empty(t, f.Verdict, "%s: a dropped probe is no evidence of loss for the pipeline", n)
	}

	// F2 fails open.
	seq := lastSeq(d)
	dataBefore := f2.data.Load()
	probesBefore := f2.probes.Load()
	at := time.Now()
	f2.passAll.Store(true)
	alarm := waitAlarmEvent(t, d, "F2", "raised", seq, time.Minute)
	down := waitTransition(t, d, "F2", "down", seq, time.Minute)
	took := alarm.At.Sub(at)
	firstPass := time.Unix(0, f2.firstPassAt.Load())
	t.Logf("F2 failed open -> found after %s (%.2f probe intervals of %d x %s; the first probe it passed went through %s after the change, found %s after that), down after %s: %s",
		took, float64(took)/float64(every*interval), every, interval, firstPass.Sub(at), alarm.At.Sub(firstPass), down.At.Sub(at), down.Reason)
	// By the probes, whatever the host's scheduling: the first probe
	// round after the change found it (2 probes, one a direction), and
	// the first probe it passed is what found it.
	assert.LessOrEqual(t, f2.probesAtFirst.Load()-probesBefore, uint64(2), "the first probe round after the change found it")
	// Found from that probe's packet-in: 0.1-0.2 ms later on a quiet
	// host; the packet-in path's scheduling (126 ms once with -race at
	// load 20) is the host's, bounded here by the next probe round,
	// counted in the engine's rounds (a loaded host stretches them).
	assert.Less(t, f2.roundsIn(firstPass, alarm.At), every, "found by the probe that came back, before the next probe round")
	// By the clock: within probe_every intervals plus the crossing, on a
	// quiet host (a loaded one delays the engine's ticks, and so the probes).
	if took > every*interval+slack {
		t.Logf("found later than probe_every intervals + %s: the host delayed the engine's ticks", slack)
	}
	assert.Less(t, took, 5*time.Second)
	assert.Contains(t, alarm.Reason, "filter-failed-open: failed open: probe returned")
	assert.True(t, strings.HasPrefix(down.Reason, "failed open: probe returned "), down.Reason)
	b.waitFG(1, p4src.ActionFilterSWBypass, 5*time.Second)
	acted := time.Now()
	uninspected := f2.data.Load() - dataBefore
	t.Logf("data frames F2 passed uninspected from the fail-open to the bypass on the switch (%s): %d", acted.Sub(at), uninspected)

	// After the action: nothing to F2, by the switch's counters and the
	// emulator's, while its keep-alives keep passing.
	toFilter := b.counterPackets(p4src.CounterFilterGroup, int64(p4src.FilterGroupCounterIndex(1, p4src.FGCntToFilter)))
	bypassed := b.counterPackets(p4src.CounterFilterGroup, int64(p4src.FilterGroupCounterIndex(1, p4src.FGCntSWBypass)))
	data, passes := f2.data.Load(), filterNamed(t, d, "F2").Passes
	require.Eventually(t, func() bool { return filterNamed(t, d, "F2").Passes >= passes+25 }, 30*time.Second, time.Millisecond)
	f := filterNamed(t, d, "F2")
	toFilter2 := b.counterPackets(p4src.CounterFilterGroup, int64(p4src.FilterGroupCounterIndex(1, p4src.FGCntToFilter)))
	bypassed2 := b.counterPackets(p4src.CounterFilterGroup, int64(p4src.FilterGroupCounterIndex(1, p4src.FGCntSWBypass)))
	t.Logf("%d keep-alive rounds after the action: %d data frames to F2 (switch counter), %d reached the emulator, %d software-bypassed; %d probes returned",
		f.Passes-passes, toFilter2-toFilter, f2.data.Load()-data, bypassed2-bypassed, f.FailOpen.Returned)
	assert.Zero(t, toFilter2-toFilter, "the switch sends the failed-open filter nothing")
	assert.Zero(t, f2.data.Load()-data, "no data frame reached it")
	assert.Greater(t, bypassed2-bypassed, uint64(100), "its share is software-bypassed")
	assert.Equal(t, "down", f.State, "kept out while its probes come back")
	assert.Equal(t, "sw-bypass", f.Effective)
	assert.True(t, f.FailOpen.FailedOpen)
	assert.Equal(t, down.Reason, f.Reason)
	assert.Equal(t, f.FailOpen.Detail, f.Reason)
	assert.Positive(t, f.FailOpen.Returned)
	assert.Equal(t, "up", filterNamed(t, d, "F1").State)
	assert.Equal(t, "up", filterNamed(t, d, "F3").State)

	// F2 inspects again: the next probe round dropped ends the fail-open,
	// and recovery_threshold (3) rounds later it forwards.
	seq = lastSeq(d)
	lost := filterNamed(t, d, "F2").Losses
	at = time.Now()
	f2.passAll.Store(false)
	cleared := waitAlarmEvent(t, d, "F2", "cleared", seq, time.Minute)
	up := waitTransition(t, d, "F2", "up", seq, time.Minute)
	rounds := f2.roundsIn(at, up.At)
	lost = filterNamed(t, d, "F2").Losses - lost
	t.Logf("F2 drops probes again -> fail-open cleared after %s, up after %s: %d keep-alive rounds, %d of them lost (%s)",
		cleared.At.Sub(at), up.At.Sub(at), rounds, lost, up.Reason)
	assert.Equal(t, "keep-alives pass", up.Reason)
	// Up within every+1+3 of the engine's keep-alive rounds after the
	// change: the first probe round after it (at most every rounds), its
	// judgment a round later, recovery_threshold (3) passes counting that
	// round; the +1 is a round in flight at the change. Counted in rounds
	// (the keep-alives that reached F2 meanwhile), not by the clock: on a
	// loaded host the engine's ticks come late and a round takes longer
	// than interval (559 ms against 390 ms once under -race at load 20).
	// The rules count rounds whose keep-alives came back: a round lost to
	// the host's load (its keep-alives back after the next round began)
	// restarts the recovery count, as it must, and the bound is then not
	// the rules' but the load's; it is judged when no round was lost.
	if lost == 0 {
		assert.LessOrEqual(t, rounds, every+1+3, "up within probe_every + 1 + recovery_threshold keep-alive rounds")
	} else {
		t.Logf("%d keep-alive rounds lost to the host's load meanwhile: the bound of %d rounds is not judged", lost, every+1+3)
	}
	if up.At.Sub(at) > (every+1+3)*interval+slack {
		t.Logf("up later than %s by the clock: the host delayed the engine's ticks", (every+1+3)*interval+slack)
	}
	// The round whose probes were dropped is the first of the 3 passes: 2
	// more rounds, counted in rounds (their keep-alives reached F2 after
	// the clear and before the return). By the clock they were at least
	// 1.5 intervals apart on a quiet host; a round the host delayed is
	// followed by one that is not (the engine keeps its pace), and 190 ms
	// against 225 ms came under stress-ng --cpu 8.
	assert.GreaterOrEqual(t, f2.roundsIn(cleared.At, up.At), 2, "the recovery rules count from the dropped round: 2 more rounds")
	b.waitFG(1, p4src.ActionFilterForward, time.Minute)
	back := f2.data.Load()
	require.Eventually(t, func() bool { return f2.data.Load() > back+20 }, time.Minute, time.Millisecond, "F2 carries traffic again")
	assert.False(t, filterNamed(t, d, "F2").FailOpen.FailedOpen)
}

// TestFailOpenSurvivesRestart: a filter judged failed open (fail-open
// action bypass) is saved so in the state directory at once, and a daemon
// restarted on it starts with the filter failed open and out of service
// (reason and detail as before the restart), not "down (restart)" to be
// judged afresh: through 25 more keep-alive rounds whose probes keep
// coming back, the switch sends it no data frame and it never returns.
// Once its probes are dropped again, the fail-open ends and it comes back
// by the recovery rules.
func TestFailOpenSurvivesRestart(t *testing.T) {
	b := newBedWith(t, failOpenSite(t, 5, "bypass"), 0, nil)
	d1, stop1 := b.startDaemon(10)
	b.allUp(d1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.trafficGen(ctx, 2000)
	f2 := b.filters["F2"]
	require.Eventually(t, func() bool { return f2.data.Load() > 50 }, 10*time.Second, time.Millisecond, "F2 carries traffic")

	seq := lastSeq(d1)
	f2.passAll.Store(true)
	down := waitTransition(t, d1, "F2", "down", seq, 10*time.Second)
	require.True(t, strings.HasPrefix(down.Reason, "failed open: probe returned "), down.Reason)
	b.waitFG(1, p4src.ActionFilterSWBypass, 5*time.Second)
	var saved FailedOpen
	require.Eventually(t, func() bool {
		var ok bool
		saved, ok = savedRuntime(t, b.dir).FailedOpen["F2"]
		return ok
	}, 5*time.Second, time.Millisecond, "the fail-open is saved in runtime.json")
	before := filterNamed(t, d1, "F2")
	assert.Equal(t, before.FailOpen.Detail, saved.Detail)
	assert.True(t, before.FailOpen.Since.Equal(saved.Since), "since %v, saved %v", before.FailOpen.Since, saved.Since)

	stop1()
	data := f2.data.Load()
	d2, _ := b.startDaemon(20)
	require.Eventually(t, func() bool { st := d2.mustStatus(t); return st.Switch.Primary && !st.Switch.StatePending },
		10*time.Second, time.Millisecond)
	f := filterNamed(t, d2, "F2")
	t.Logf("after the restart: %s (%s), failed open %v since %v", f.State, f.Reason, f.FailOpen.FailedOpen, f.FailOpen.Since)
	assert.Equal(t, "down", f.State)
	assert.True(t, f.FailOpen.FailedOpen, "still failed open: not judged afresh")
	assert.Equal(t, before.Reason, f.Reason, "the reason as before the restart")
	assert.True(t, f.FailOpen.Since.Equal(before.FailOpen.Since), "since the fail-open was found, not the restart")
	assert.Equal(t, p4src.ActionFilterSWBypass, b.fgAction(1))

	// Its probes keep coming back: 25 rounds later it is still out, and
	// was never in service meanwhile.
	passes := f.Passes
	require.Eventually(t, func() bool { return filterNamed(t, d2, "F2").Passes >= passes+25 }, 30*time.Second, time.Millisecond)
	for _, e := range d2.events.Recent(eventLogSize, "F2") {
		if e.Kind == EventFilterGroup {
			assert.NotEqual(t, "up", e.To, "F2 returned while failed open: %s", e)
		}
	}
	f = filterNamed(t, d2, "F2")
	assert.Equal(t, "down", f.State)
	assert.True(t, f.FailOpen.FailedOpen)
	assert.Positive(t, f.FailOpen.Returned, "its probes came back after the restart")
	assert.Equal(t, p4src.ActionFilterSWBypass, b.fgAction(1))
	assert.Zero(t, f2.data.Load()-data, "no data frame to F2 across the restart")

	// Inspecting again: the fail-open ends (and is saved as ended), then
	// the recovery rules bring it back.
	seq = lastSeq(d2)
	f2.passAll.Store(false)
	waitAlarmEvent(t, d2, "F2", "cleared", seq, 10*time.Second)
	waitTransition(t, d2, "F2", "up", seq, 10*time.Second)
	b.waitFG(1, p4src.ActionFilterForward, 5*time.Second)
	require.Eventually(t, func() bool {
		_, ok := savedRuntime(t, b.dir).FailedOpen["F2"]
		return !ok
	}, 5*time.Second, time.Millisecond, "the end of the fail-open is saved")
}

// A filter failed open whose mark cannot be saved (the state directory's
// disk full) still gets its fail-open action on the switch; the save
// failure raises runtime-save-failed, and once the disk has room again
// the daemon saves the mark by itself (the failed save is retried, 1 s
// after the failure, then less often), with no other change to carry it,
// and the alarm clears.
func TestFailOpenSaveRetried(t *testing.T) {
	b := newBedWith(t, failOpenSite(t, 5, "bypass"), 0, nil)
	d, _ := b.startDaemon(10)
	b.allUp(d)
	s := d.store.(*Store)
	s.mu.Lock()
	healthy := s.write
	s.write = (&disk{left: 0}).write
	s.mu.Unlock()
	alarmed := func() bool { _, ok := alarmNamed(d.mustStatus(t), AlarmRuntimeSaveFailed); return ok }

	b.filters["F2"].passAll.Store(true)
	b.waitFG(1, p4src.ActionFilterSWBypass, 5*time.Second)
	require.Eventually(t, alarmed, 5*time.Second, time.Millisecond, "the failed save raises runtime-save-failed")
	_, saved := savedRuntime(t, b.dir).FailedOpen["F2"]
	require.False(t, saved, "the disk is full: nothing saved")
	errs := d.RuntimeSaveErrors()
	require.Eventually(t, func() bool { return d.RuntimeSaveErrors() > errs }, 10*time.Second, time.Millisecond, "the save is retried")

	s.mu.Lock()
	s.write = healthy
	s.mu.Unlock()
	freed := time.Now()
	require.Eventually(t, func() bool {
		_, ok := savedRuntime(t, b.dir).FailedOpen["F2"]
		return ok
	}, 10*time.Second, time.Millisecond, "the retried save stores the mark")
	t.Logf("mark saved %v after the disk had room again", time.Since(freed))
	require.Eventually(t, func() bool { return !alarmed() }, 5*time.Second, time.Millisecond, "runtime-save-failed clears")
	assert.Equal(t, p4src.ActionFilterSWBypass, b.fgAction(1))
}
