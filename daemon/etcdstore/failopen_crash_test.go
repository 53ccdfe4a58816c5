package etcdstore

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/daemon/statestore"
	"github.com/dpi-balancer/balancer/internal/testbed"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/tables"
)

// crashChildEnv hands TestHAFailOpenCrashChild, run as a child process of
// the test binary, what it needs to lead the parent's switch: a
// crashChild in JSON.
const crashChildEnv = "BALANCER_FAILOPEN_CRASH_CHILD"

// crashChild is the leader process of TestHAKilledBetweenFailOpenSteps:
// the etcd and the key prefix, the switch, the configuration to seed,
// and the point it blocks at (to be killed there) once armed.
type crashChild struct {
	Etcd, Prefix, Switch, Config string
	// At: "written" blocks at the first write that takes F2 out of
	// service, "saved" at the first save that marks F2 failed open,
	// "written-two" at the first write that takes F2 or F3 out.
	At string
}

// TestHAFailOpenCrashChild is the leader daemon of
// TestHAKilledBetweenFailOpenSteps in a process of its own (it does
// nothing in a plain run). Once the parent writes a line on its stdin it
// blocks at its crash point for good, prints "CRASHPOINT <point>" and
// waits for the parent's kill -9: nothing after that point happens.
func TestHAFailOpenCrashChild(t *testing.T) {
	env := os.Getenv(crashChildEnv)
	if env == "" {
		return // only as the parent's child process
	}
	var c crashChild
	require.NoError(t, json.Unmarshal([]byte(env), &c))
	armed := make(chan struct{})
	go func() {
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		close(armed)
	}()
	b := &haBed{t: t, etcd: c.Etcd, prefix: c.Prefix, addr: c.Switch, config: c.Config, logOut: os.Stderr}
	var h atomic.Pointer[haDaemon]
	held := false
	b.crash = func(p daemon.CrashPoint) {
		select {
		case <-armed:
		default:
			return
		}
		if c.At == "written-busy" && !held && p.Point == daemon.CrashRuntimeSaved && slices.Contains(p.Runtime.Down, "F3") {
			// F3's failover saved: hold the state owner here (a slow
			// store) until F2 is judged failed open, so that its mark
			// and its action wait side by side when the owner is free.
			held = true
			fmt.Println("HELD")
			for !failedOpenNow(h.Load(), "F2") {
				time.Sleep(time.Millisecond) // polling the engine, on the held owner
			}
			return
		}
		var hit bool
		switch c.At {
		case "written", "written-busy":
			hit = p.Point == daemon.CrashStateWritten && p.State.FilterGroups["F2"] != tables.FGForward
		case "saved":
			_, open := p.Runtime.FailedOpen["F2"]
			hit = p.Point == daemon.CrashRuntimeSaved && open
		case "written-two":
			hit = p.Point == daemon.CrashStateWritten &&
				(p.State.FilterGroups["F2"] != tables.FGForward || p.State.FilterGroups["F3"] != tables.FGForward)
		}
		if !hit {
			return
		}
		fmt.Printf("CRASHPOINT %s\n", p.Point)
		select {} // until kill -9
	}
	h.Store(b.start("a"))
	select {}
}

// failedOpenNow says whether h's engine has judged filter group name
// failed open.
func failedOpenNow(h *haDaemon, name string) bool {
	st, err := h.d.Status(context.Background())
	if err != nil {
		return false
	}
	for _, f := range st.Filters {
		if f.Name == name {
			return f.FailOpen != nil && f.FailOpen.FailedOpen
		}
	}
	return false
}

// runtimeNow reads the runtime state from the store, again when a read
// fails (an etcd read can time out on a starved host).
func runtimeNow(t *testing.T, check *Store) statestore.Runtime {
	t.Helper()
	var rt statestore.Runtime
	var err error
	require.Eventually(t, func() bool { rt, err = check.LoadRuntime(); return err == nil }, 20*time.Second, 5*time.Millisecond,
		"reading the runtime state: %v", err)
	return rt
}

// delivered waits until filter emulator f has taken every data frame
// the switch sent filter group id so far (sent, its to-filter count),
// frames still queued on its ports included, and returns its count: the
// frames that reach it after that, it was sent later.
func delivered(t *testing.T, f *filterEmu, sent uint64) uint64 {
	t.Helper()
	require.Eventually(t, func() bool { return f.data.Load() >= sent }, 20*time.Second, time.Millisecond,
		"the filter emulator takes the %d data frames the switch sent it (has %d)", sent, f.data.Load())
	return f.data.Load()
}

// leaderProc is the leader daemon's child process.
type leaderProc struct {
	cmd    *exec.Cmd
	arm    func()
	points chan string
	log    *testbed.SyncBuffer
}

// startLeaderProc runs the leader daemon of b in a child process that
// blocks at crash point at once armed.
func startLeaderProc(t *testing.T, b *haBed, at string) *leaderProc {
	t.Helper()
	env, err := json.Marshal(crashChild{Etcd: b.etcd, Prefix: b.prefix, Switch: b.addr, Config: b.config, At: at})
	require.NoError(t, err)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHAFailOpenCrashChild$", "-test.count=1", "-test.timeout=10m")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+string(env))
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	p := &leaderProc{cmd: cmd, points: make(chan string, 2), log: &testbed.SyncBuffer{}}
	cmd.Stderr = p.log
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("leader process's log:\n%s", p.log.String())
		}
	})
	p.arm = func() { _, err := stdin.Write([]byte("arm\n")); require.NoError(t, err) }
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if sc.Text() == "HELD" {
				p.points <- "HELD"
			}
			if pt, ok := strings.CutPrefix(sc.Text(), "CRASHPOINT "); ok {
				p.points <- pt
				return
			}
		}
	}()
	return p
}

// A leader that finds a filter failed open must leave the mark in etcd
// whenever the switch holds its fail-open action: the leader (a process
// of its own) is killed with kill -9 exactly between the two steps, the
// switch write and the save of the mark, in either order: "written"
// right after the write that takes F2 out (fail_open_action bypass),
// "saved" right after the save of the mark. The standby that takes over
// keeps F2 failed open with the old leader's mark (reason, detail, since)
// for 20 rounds of its own whose probes keep coming back, and not one data
// frame reaches F2 from the moment the switch held the bypass ("written":
// the kill; "saved": the old leader never wrote it, so from the new
// leader's first write). Mended, F2 comes back by the normal rules.
func TestHAKilledBetweenFailOpenSteps(t *testing.T) {
	t.Parallel() // the shared member, its keys under its own prefix; no fault of etcd
	for _, at := range []string{"written", "saved", "written-busy"} {
		t.Run(at, func(t *testing.T) {
			// "saved" has a premise: the store saves the mark within the
			// half second the leader waits before it writes the switch
			// anyway (an embedded member beside stress-ng --cpu 8 took
			// longer). A run where the leader said it wrote first for
			// that is not the scenario: it runs again (as
			// TestHATakeoverRecoveryClearsOldVerdict does), up to 5 times.
			for run := 1; ; run++ {
				var starved string
				if !t.Run(fmt.Sprintf("run%d", run), func(t *testing.T) { killedMidFailOpen(t, at, &starved) }) && starved == "" {
					t.FailNow()
				}
				if starved == "" {
					return
				}
				t.Logf("run %d: %s: not the scenario, run again", run, starved)
				if run == 5 {
					t.Skipf("the host never kept the premise for a whole run (last: %s)", starved)
				}
			}
		})
	}
}

// failOpenSiteSparse is failOpenSite with a probe every 10 rounds
// (500 ms), the default, while recovery_threshold is 3 (150 ms): a
// failed-open filter whose failure a daemon took over without its mark
// would be back in service by its keep-alives before its next probe. A
// filter group is down after 20 keep-alives lost (1 s), not 4: on a
// starved host (load 18) F1 and F3 flapped with 4, and they must stay up.
func failOpenSiteSparse(t *testing.T) string {
	t.Helper()
	site := failOpenSite(t, "")
	data, err := os.ReadFile(site)
	require.NoError(t, err)
	every10 := strings.Replace(strings.Replace(string(data), "probe_every: 3,", "probe_every: 10,", 1), "loss_threshold: 4,", "loss_threshold: 20,", 1)
	require.Equal(t, 2, strings.Count(every10, "probe_every: 10,")+strings.Count(every10, "loss_threshold: 20,"))
	require.NoError(t, os.WriteFile(site, []byte(every10), 0o644))
	return site
}

// killedMidFailOpen is one run of TestHAKilledBetweenFailOpenSteps; when
// the run missed its premise it says so in starved and skips.
func killedMidFailOpen(t *testing.T, at string, starved *string) {
	b := newHABedOn(t, startEtcd(t), nil, func(b *haBed) { b.config, b.publish = relaxKeepAlives(t, failOpenSiteSparse(t)), true })
	a := startLeaderProc(t, b, at)
	b.waitSavedUp("F1", "F2", "F3") // saved by the leader once it wrote them: the child leads
	s := b.start("s")
	b.waitStandby(s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.traffic(ctx, 2000)
	f2 := b.filters["F2"]
	require.Eventually(t, func() bool { return f2.data.Load() > 100 }, setupWait, time.Millisecond, "F2 carries its share")
	require.Eventually(t, func() bool { return f2.probes.Load() >= 4 }, setupWait, time.Millisecond, "the leader probes F2")
	require.Zero(t, f2.probesPassed.Load())

	// F2 fails open; the leader blocks at the crash point and is killed
	// there.
	a.arm()
	if at == "written-busy" {
		// F3 dies first; the leader holds its state owner in F3's
		// failover until F2 is judged failed open.
		b.filters["F3"].alive.Store(false)
		select {
		case pt := <-a.points:
			require.Equal(t, "HELD", pt)
		case <-time.After(setupWait):
			t.Fatal("the leader never failed F3 over")
		}
	}
	f2.passAll.Store(true)
	var point string
	select {
	case point = <-a.points:
	case <-time.After(setupWait):
		t.Fatalf("the leader never reached its crash point %q", at)
	}
	action := b.fgAction(1)
	sent := b.toFilter(1)
	require.NoError(t, a.cmd.Process.Kill())
	killed := time.Now()
	_ = a.cmd.Wait()
	switch at {
	case "written", "written-busy":
		require.Equal(t, p4src.ActionFilterSWBypass, action, "the switch holds F2's fail-open action at %s", point)
	case "saved":
		if wroteFirst := "the store has not saved the fail-open mark yet: writing its fail-open action to the switch first"; action != p4src.ActionFilterForward && strings.Contains(a.log.String(), wroteFirst) {
			*starved = fmt.Sprintf("the store saved the mark after the leader's half second: it wrote the switch first (%s at %s)", action, point)
			t.Skip(*starved)
		}
		require.Equal(t, p4src.ActionFilterForward, action, "the old leader never wrote F2's fail-open action")
	}
	check, err := Open(newClient(t, b.etcd), b.prefix, 0)
	require.NoError(t, err)
	rt := runtimeNow(t, check)
	mark, saved := rt.FailedOpen["F2"]
	reached := delivered(t, f2, sent) // frames the switch sent before the crash point
	assert.True(t, saved, "killed at %s with the switch holding %s: the store must hold F2's fail-open mark (store: %+v)", point, action, rt)

	b.waitReady(s, b.leaseTTL()+setupWait)
	took := time.Since(killed)
	require.Equal(t, p4src.ActionFilterSWBypass, b.fgAction(1), "the new leader holds F2 in bypass")
	if at == "saved" {
		// The old leader's switch never held the bypass: count from the
		// new leader's first round judged (frames in flight delivered).
		passes := filterNamed(t, s, "F2").Passes
		require.Eventually(t, func() bool { return filterNamed(t, s, "F2").Passes > passes }, setupWait, time.Millisecond)
		sent = b.toFilter(1)
		reached = delivered(t, f2, sent)
	}
	f := filterNamed(t, s, "F2")
	t.Logf("killed at %s (switch: %s, mark saved: %v); takeover in %v; F2 on the new leader: %s (%s), failed open %v since %v",
		point, action, saved, took, f.State, f.Reason, f.FailOpen.FailedOpen, f.FailOpen.Since)
	require.NotNil(t, f.FailOpen)
	assert.True(t, f.FailOpen.FailedOpen, "still failed open")
	assert.Equal(t, "down", f.State)
	assert.True(t, f.FailOpen.Since.Before(killed), "failed open since the old leader found it (%v), not judged afresh after the kill (%v)", f.FailOpen.Since, killed)
	if saved {
		assert.True(t, f.FailOpen.Since.Equal(mark.Since), "since as saved: %v, %v", f.FailOpen.Since, mark.Since)
		assert.Equal(t, mark.Detail, f.FailOpen.Detail)
		require.Eventually(t, func() bool { g := filterNamed(t, s, "F2"); return !g.Held && g.Reason == mark.Detail }, setupWait, time.Millisecond,
			"the reason as on the old leader, %q: %q", mark.Detail, filterNamed(t, s, "F2").Reason)
	}

	// 20 rounds of the new leader, its probes coming back: F2 never in
	// service.
	passes, returned := f.Passes, f.FailOpen.Returned
	require.Eventually(t, func() bool { return filterNamed(t, s, "F2").Passes >= passes+20 }, setupWait, time.Millisecond)
	f = filterNamed(t, s, "F2")
	assert.Equal(t, "down", f.State)
	assert.True(t, f.FailOpen.FailedOpen)
	assert.Greater(t, f.FailOpen.Returned, returned, "its probes came back to the new leader")
	assert.Equal(t, p4src.ActionFilterSWBypass, b.fgAction(1))
	assert.Equal(t, float64(1), failedOpenMetric(t, s, "F2"))
	for _, e := range eventsOf(t, s, "F2") {
		if e.Kind == daemon.EventFilterGroup {
			assert.NotContains(t, []string{"up", "recovered"}, e.To, "F2 on the new leader while failed open: %s", e)
		}
	}
	assert.Zero(t, b.toFilter(1)-sent, "no data frame to F2 across the takeover (switch counter)")
	assert.Zero(t, f2.data.Load()-reached, "no data frame reached F2 across the takeover")
	assert.Equal(t, "up", filterNamed(t, s, "F1").State)
	if at != "written-busy" {
		assert.Equal(t, "up", filterNamed(t, s, "F3").State)
	}

	// Mended: the mark clears and F2 comes back by the normal rules.
	seq := lastSeq(t, s)
	f2.passAll.Store(false)
	waitEvent(t, s, "F2", daemon.EventAlarm, "cleared", seq, setupWait)
	waitEvent(t, s, "F2", daemon.EventFilterGroup, "up", seq, setupWait)
	require.Eventually(t, func() bool { return b.fgAction(1) == p4src.ActionFilterForward }, setupWait, time.Millisecond)
	require.Eventually(t, func() bool {
		rt, err := check.LoadRuntime()
		_, open := rt.FailedOpen["F2"]
		return err == nil && !open
	}, setupWait, 5*time.Millisecond, "the end of the fail-open is saved")
}

// A leader cut off from etcd as a filter fails open cannot save the mark:
// it must not hold the filter in service waiting for etcd. It writes the
// fail-open action after at most half a second (the store's timeout is
// 3 s), raises runtime-save-failed and retries. The leader then dies
// (kill); the standby that takes over finds the bypass on the switch and
// no mark in the store, adopts the failure and, the profile sending
// probes, keeps the filter out until a round of its probes is dropped:
// its own probes find it failed open again. Probes every 10 rounds
// (500 ms), recovery_threshold 3 (150 ms): keep-alives alone would bring
// it back before its first probe round. Not one data frame reaches the
// filter from the bypass on, across the takeover and 20 rounds of the
// new leader.
func TestHAFailOpenLeaderCutOffFromEtcd(t *testing.T) {
	t.Parallel() // the shared member, its keys under its own prefix; no fault of etcd
	// Relaxed keep-alives (probes every 10 rounds of 200 ms, recovery
	// after 3): the premise (keep-alives alone would bring F2 back before
	// its next probe round) is in rounds; the test is not about how fast
	// a loss is found, and its waits are for events (setupWait). The
	// fail-open action's half second is its point: bounded below.
	site := relaxKeepAlives(t, failOpenSiteSparse(t))
	// heldLease: the leader cut off stays primary 3/4 of it (it steps down
	// a quarter lease before its lease can expire), long enough for the
	// probe, the bypass and the read below on a starved host.
	b := newHABedOn(t, startEtcd(t), nil, func(b *haBed) { b.config, b.publish = site, true }, withLease(heldLease))
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
		return fo != nil && fo.Dropped >= 1
	}, setupWait, time.Millisecond, "healthy: F2 drops the probes")

	a.etcd.partition()
	f2.passAll.Store(true)
	require.Eventually(t, func() bool { return f2.probesPassed.Load() > 0 }, setupWait, 100*time.Microsecond, "a probe comes back through F2")
	back := time.Now()
	require.Eventually(t, func() bool { return b.fgAction(1) == p4src.ActionFilterSWBypass }, setupWait, 100*time.Microsecond)
	bypassed := time.Since(back)
	sent := b.toFilter(1)
	reached := delivered(t, f2, sent) // frames the switch sent before the bypass
	t.Logf("leader cut off from etcd: F2's bypass on the switch %v after its probe came back", bypassed)
	assert.Less(t, bypassed, 3*time.Second, "the fail-open action waits at most half a second for the store, not its 3 s timeout")
	// Read while the cut-off leader still leads (its lease runs 6 s from
	// its last renewal): nobody could have saved since.
	check, err := Open(newClient(t, b.etcd), b.prefix, 0)
	require.NoError(t, err)
	rt := runtimeNow(t, check)
	_, marked := rt.FailedOpen["F2"]
	require.False(t, marked, "the cut-off leader could not save the mark")
	require.True(t, a.d.Session().Status().Primary, "still the leader when the store was read")
	require.Eventually(t, func() bool {
		st, err := a.d.Status(context.Background())
		if err != nil {
			return false
		}
		for _, al := range st.Alarms {
			if al.Name == daemon.AlarmRuntimeSaveFailed {
				return true
			}
		}
		return false
	}, setupWait, time.Millisecond, "the old leader raises runtime-save-failed")

	took := b.takeover(a, s)
	f := filterNamed(t, s, "F2")
	t.Logf("takeover in %v; F2 on the new leader: %s (%s)", took, f.State, f.Reason)
	assert.Equal(t, "down", f.State)
	require.Eventually(t, func() bool {
		fo := filterNamed(t, s, "F2").FailOpen
		return fo != nil && fo.FailedOpen
	}, setupWait, time.Millisecond, "the new leader's probes find F2 failed open")
	passes := filterNamed(t, s, "F2").Passes
	require.Eventually(t, func() bool { return filterNamed(t, s, "F2").Passes >= passes+20 }, setupWait, time.Millisecond)
	assert.Equal(t, "down", filterNamed(t, s, "F2").State)
	for _, e := range eventsOf(t, s, "F2") {
		if e.Kind == daemon.EventFilterGroup {
			assert.NotContains(t, []string{"up", "recovered"}, e.To, "F2 on the new leader before its probes were dropped: %s", e)
		}
	}
	assert.Equal(t, p4src.ActionFilterSWBypass, b.fgAction(1))
	assert.Zero(t, b.toFilter(1)-sent, "no data frame to F2 from its bypass on (switch counter)")
	assert.Zero(t, f2.data.Load()-reached, "no data frame reached F2 from its bypass on")

	seq := lastSeq(t, s)
	f2.passAll.Store(false)
	waitEvent(t, s, "F2", daemon.EventFilterGroup, "up", seq, setupWait)
	require.Eventually(t, func() bool { return b.fgAction(1) == p4src.ActionFilterForward }, setupWait, time.Millisecond)
}

// Two filters fail open in the same probe round, F2 and F3, and the
// leader process is killed (kill -9) right after the first switch write
// that takes either out: the second's probe comes back while the state
// owner is busy with the first's, so its mark and its action wait side by
// side (before the mark was saved first, which went first was the draw of
// a select: 1 in 2). Every filter the switch holds out has its mark in
// the store, and the new leader keeps it failed open with no data frame
// to it for 20 rounds.
func TestHAKilledMidFailOpenOfTwo(t *testing.T) {
	t.Parallel() // the shared member, its keys under its own prefix; no fault of etcd
	b := newHABedOn(t, startEtcd(t), nil, func(b *haBed) { b.config, b.publish = failOpenSiteSparse(t), true })
	a := startLeaderProc(t, b, "written-two")
	b.waitSavedUp("F1", "F2", "F3")
	s := b.start("s")
	b.waitStandby(s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.traffic(ctx, 2000)
	ids := map[string]uint32{"F2": 1, "F3": 2}
	for n := range ids {
		f := b.filters[n]
		require.Eventually(t, func() bool { return f.data.Load() > 100 && f.probes.Load() >= 4 }, 10*time.Second, time.Millisecond, "%s carries its share and is probed", n)
	}
	a.arm()
	b.filters["F2"].passAll.Store(true)
	b.filters["F3"].passAll.Store(true)
	select {
	case <-a.points:
	case <-time.After(30 * time.Second):
		t.Fatal("the leader never reached its crash point")
	}
	out := map[string][2]uint64{} // sent by the switch, reached the filter
	for n, id := range ids {
		if b.fgAction(id) == p4src.ActionFilterSWBypass {
			out[n] = [2]uint64{b.toFilter(id), 0}
		}
	}
	require.NoError(t, a.cmd.Process.Kill())
	killed := time.Now()
	_ = a.cmd.Wait()
	require.NotEmpty(t, out)
	for n, c := range out {
		out[n] = [2]uint64{c[0], delivered(t, b.filters[n], c[0])} // frames the switch sent before the crash point
	}
	check, err := Open(newClient(t, b.etcd), b.prefix, 0)
	require.NoError(t, err)
	rt := runtimeNow(t, check)
	for n := range out {
		_, saved := rt.FailedOpen[n]
		assert.True(t, saved, "the switch holds %s's fail-open action: the store must hold its mark (store: %+v)", n, rt.FailedOpen)
	}
	b.waitReady(s, b.leaseTTL()+setupWait)
	t.Logf("killed with %d of F2, F3 out on the switch, marks saved %d; takeover in %v", len(out), len(rt.FailedOpen), time.Since(killed))
	passes := filterNamed(t, s, "F2").Passes
	require.Eventually(t, func() bool { return filterNamed(t, s, "F2").Passes >= passes+20 }, 30*time.Second, time.Millisecond)
	for n, c := range out {
		f := filterNamed(t, s, n)
		assert.Equal(t, "down", f.State, n)
		assert.True(t, f.FailOpen.FailedOpen, n)
		assert.True(t, f.FailOpen.Since.Before(killed), "%s failed open since the old leader found it", n)
		for _, e := range eventsOf(t, s, n) {
			if e.Kind == daemon.EventFilterGroup {
				assert.NotContains(t, []string{"up", "recovered"}, e.To, "%s on the new leader while failed open: %s", n, e)
			}
		}
		assert.Zero(t, b.toFilter(ids[n])-c[0], "no data frame to %s across the takeover (switch counter)", n)
		assert.Zero(t, b.filters[n].data.Load()-c[1], "no data frame reached %s across the takeover", n)
	}
}

// A leader cut off from etcd for a few seconds as a filter fails open
// writes the fail-open action without the mark (its store does not
// answer) and saves the mark by itself once etcd answers again, still the
// leader, with no other change to carry it, and runtime-save-failed
// clears. (With etcd the store's watch catches up at once too, 30-60 ms
// after etcd answered; the retry of a failed save alone is checked with
// the state directory, daemon.TestFailOpenSaveRetried.)
func TestHAFailOpenMarkSavedWhenEtcdBack(t *testing.T) {
	t.Parallel() // the shared member, its keys under its own prefix; no fault of etcd
	// A 20 s lease: the leader cut off steps down 15 s after its last
	// renewal, which may have been a quarter lease before the cut, so at
	// 10 s after the cut at the earliest: after its save failed (the
	// store's timeout, 3 s, and the quorum check), etcd is back and its
	// client reconnected. With 10 s (5 s after the cut at the earliest)
	// the leader stepped down in 1 of 2 unloaded runs under -race: the
	// heal came 4.2 s after the cut and the reconnect took the rest.
	b := newHABedOn(t, startEtcd(t), nil, func(b *haBed) { b.config = failOpenSiteSparse(t) }, withLease(20*time.Second))
	a := b.start("a")
	b.allUp(a)
	b.waitSavedUp("F1", "F2", "F3")
	f2 := b.filters["F2"]
	require.Eventually(t, func() bool {
		fo := filterNamed(t, a, "F2").FailOpen
		return fo != nil && fo.Dropped >= 1
	}, setupWait, time.Millisecond, "healthy: F2 drops the probes")
	alarmed := func() bool {
		st, err := a.d.Status(context.Background())
		require.NoError(t, err)
		for _, al := range st.Alarms {
			if al.Name == daemon.AlarmRuntimeSaveFailed {
				return true
			}
		}
		return false
	}

	a.etcd.partition()
	f2.passAll.Store(true)
	require.Eventually(t, func() bool { return b.fgAction(1) == p4src.ActionFilterSWBypass }, 10*time.Second, time.Millisecond,
		"the fail-open action without waiting for etcd")
	require.Eventually(t, alarmed, 20*time.Second, time.Millisecond, "the failed save raises runtime-save-failed")
	check, err := Open(newClient(t, b.etcd), b.prefix, 0)
	require.NoError(t, err)
	rt := runtimeNow(t, check)
	require.NotContains(t, rt.FailedOpen, "F2", "etcd was cut off: nothing saved yet")

	healed := time.Now()
	a.etcd.heal()
	var mark statestore.FailedOpen
	require.Eventually(t, func() bool {
		rt, err := check.LoadRuntime()
		var ok bool
		mark, ok = rt.FailedOpen["F2"]
		return err == nil && ok
	}, 60*time.Second, 5*time.Millisecond, "the retried save stores the mark")
	t.Logf("mark saved %v after etcd answered again", time.Since(healed))
	require.Eventually(t, func() bool { return !alarmed() }, 10*time.Second, time.Millisecond, "runtime-save-failed clears")
	f := filterNamed(t, a, "F2")
	assert.True(t, mark.Since.Equal(f.FailOpen.Since), "the leader's mark: since %v, saved %v", f.FailOpen.Since, mark.Since)
	assert.True(t, a.d.Session().Status().Primary, "still the leader")
	assert.Equal(t, p4src.ActionFilterSWBypass, b.fgAction(1))
}
