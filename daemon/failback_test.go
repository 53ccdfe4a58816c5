package daemon

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/p4src"
)

// manualSite is testdata/verdict.yaml (interval 40 ms, loss_threshold 5,
// recovery_threshold 3) with manual failback and min_up_time minUp.
func manualSite(t *testing.T, minUp string) string {
	t.Helper()
	return failbackSite(t, "manual", minUp)
}

// failbackSite is testdata/verdict.yaml with the failback and min_up_time
// given.
func failbackSite(t *testing.T, failback, minUp string) string {
	t.Helper()
	data, err := os.ReadFile("testdata/verdict.yaml")
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "site.yaml")
	require.NoError(t, os.WriteFile(path, []byte(replaceOnce(t, string(data), "failure_action: bypass}",
		"failure_action: bypass, failback: "+failback+", min_up_time: "+minUp+"}")), 0o644))
	return path
}

// savedRuntime reads runtime.json as the daemon last saved it (the file,
// not through a store: the daemon holds the store's lock).
func savedRuntime(t *testing.T, dir string) Runtime {
	t.Helper()
	var doc runtimeDoc
	b, err := os.ReadFile(filepath.Join(dir, "runtime.json"))
	if err != nil {
		return Runtime{}
	}
	if json.Unmarshal(b, &doc) != nil {
		return Runtime{} // being replaced: read again
	}
	return doc.Runtime
}

// Manual failback on the software switch: F2 dies and is failed over;
// it answers again and, after min_up_time of passing keep-alives, is
// recovered, waiting for return: still in software bypass (the switch's
// bypass counter grows, F2 gets no data frame) for as long as nobody
// returns it, through a restart of the daemon on the same state
// directory. `return` then puts it back at once.
func TestManualFailbackOnSwitch(t *testing.T) {
	const (
		interval = 200 * time.Millisecond
		minUp    = time.Second
	)
	// testdata/verdict.yaml's profile with keep-alives every 200 ms, not
	// 40 ms, and a filter group down after 50 lost (10 s, by the daemon's
	// count and by the pipeline's verdict), not 5 (200 ms): F1 and F3 must
	// stay up throughout (a flap of theirs is a manual failback too, and
	// the balance group's bypass then replaces F2's), and F2 must get its
	// passes in a row; a starved host (load 20, -race) stalls the
	// emulated filters and the daemon for seconds, and answers a 40 ms
	// round late often enough that a recovery took over 30 s.
	site := manualSite(t, "1s")
	data, err := os.ReadFile(site)
	require.NoError(t, err)
	relaxed := replaceOnce(t, replaceOnce(t, string(data), "loss_threshold: 5,", "loss_threshold: 50,"), "interval: 40ms,", "interval: 200ms,")
	require.NoError(t, os.WriteFile(site, []byte(relaxed), 0o644))
	b := newBedWith(t, site, 0, nil)
	d1, stop1 := b.startDaemon(10)
	b.allUp(d1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.trafficGen(ctx, 2000)
	f2 := b.filters["F2"]
	require.Eventually(t, func() bool { return f2.data.Load() > 50 }, 10*time.Second, time.Millisecond, "F2 carries traffic")

	// F2 dies: failed over.
	f2.alive.Store(false)
	b.waitFG(1, p4src.ActionFilterSWBypass, 30*time.Second)
	require.Eventually(t, func() bool { return filterNamed(t, d1, "F2").State == "down" }, 30*time.Second, time.Millisecond)
	assert.ErrorIs(t, d1.ReturnFilterGroup(context.Background(), "F2"), ErrNotWaiting)
	err = d1.ReturnFilterGroup(context.Background(), "F2")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "filter group F2 is not waiting for return: it is down")

	// F2 answers again: recovered after min_up_time, never returned.
	revived := time.Now()
	f2.alive.Store(true)
	require.Eventually(t, func() bool { return filterNamed(t, d1, "F2").State == "recovered" }, 30*time.Second, time.Millisecond)
	f := filterNamed(t, d1, "F2")
	took := f.Since.Sub(revived)
	// The first keep-alive to pass went out at most one interval after
	// the revival; the first round judged min_up_time after it is 1 s
	// later (5 x 200 ms).
	t.Logf("F2 answers again -> recovered, waiting for return after %v (min_up_time %v, interval %v: the first round judged at or past it is 1 s after the first passing keep-alive)", took, minUp, interval)
	assert.GreaterOrEqual(t, took, minUp, "min_up_time honoured")
	assert.Equal(t, "recovered, waiting for return", f.Reason)
	assert.Equal(t, "sw-bypass", f.Effective)
	assert.Equal(t, p4src.ActionFilterSWBypass, b.fgAction(1))
	// Saved at once (what a kill -9 leaves), not at shutdown.
	require.Eventually(t, func() bool {
		rt := savedRuntime(t, b.dir)
		return slices.Equal(rt.Recovered, []string{"F2"}) && slices.Contains(rt.Down, "F2")
	}, 30*time.Second, time.Millisecond, "the wait is saved in runtime.json")

	// It stays out: 25 more rounds pass (5 s) and over 100 frames of its
	// share come in (however slowly a starved host runs the generator),
	// the switch keeps bypassing its share and sends it nothing.
	stayOut := func(d *Daemon, rounds uint64) {
		t.Helper()
		data, bypassed, passes := f2.data.Load(), b.linkCount(0, p4src.LinkCntSWBypass), filterNamed(t, d, "F2").Passes
		require.Eventually(t, func() bool {
			return filterNamed(t, d, "F2").Passes >= passes+rounds && b.linkCount(0, p4src.LinkCntSWBypass)-bypassed > 100
		}, 60*time.Second, time.Millisecond)
		f := filterNamed(t, d, "F2")
		assert.Equal(t, "recovered", f.State)
		assert.Equal(t, p4src.ActionFilterSWBypass, b.fgAction(1))
		more := b.linkCount(0, p4src.LinkCntSWBypass) - bypassed
		t.Logf("%d keep-alive rounds passed while recovered: %d data frames to F2, %d software-bypassed by the switch", f.Passes-passes, f2.data.Load()-data, more)
		assert.Zero(t, f2.data.Load()-data, "no data frame to F2 while it waits")
		assert.Greater(t, more, uint64(100), "its share is bypassed on the switch")
	}
	stayOut(d1, 25)

	// A restart on the same state directory keeps the wait.
	stop1()
	d2, _ := b.startDaemon(20)
	require.Eventually(t, func() bool { st := d2.mustStatus(t); return st.Switch.Primary && !st.Switch.StatePending },
		30*time.Second, time.Millisecond)
	f = filterNamed(t, d2, "F2")
	assert.Equal(t, "recovered", f.State, "the wait survives the restart")
	assert.Equal(t, "recovered, waiting for return", f.Reason)
	stayOut(d2, 25)

	// Errors name the filter group.
	err = d2.ReturnFilterGroup(context.Background(), "F1")
	assert.ErrorIs(t, err, ErrNotWaiting)
	assert.ErrorContains(t, err, "filter group F1 is not waiting for return: it is up")
	err = d2.ReturnFilterGroup(context.Background(), "F9")
	assert.ErrorIs(t, err, ErrNotFound)
	assert.ErrorContains(t, err, `unknown filter group "F9"; the filter groups are F1, F2, F3`)

	// The operator returns it: forward at once, traffic again.
	asked := time.Now()
	require.NoError(t, d2.ReturnFilterGroup(context.Background(), "F2"))
	assert.Equal(t, p4src.ActionFilterForward, b.fgAction(1), "written before the call returns")
	t.Logf("return -> forward on the switch in %v", time.Since(asked))
	f = filterNamed(t, d2, "F2")
	assert.Equal(t, "up", f.State)
	assert.Equal(t, "returned by the operator", f.Reason)
	back := f2.data.Load()
	require.Eventually(t, func() bool { return f2.data.Load() > back+20 }, 10*time.Second, time.Millisecond, "F2 carries traffic again")
	rt := savedRuntime(t, b.dir)
	assert.Empty(t, rt.Recovered)
	assert.NotContains(t, rt.Down, "F2")
	assert.Contains(t, rt.Up, "F2")

	// Audited like a manual bypass: the return and the transition.
	var kinds []string
	for _, e := range d2.events.Recent(eventLogSize, "F2") {
		kinds = append(kinds, e.String()[len(e.At.Format(time.RFC3339Nano))+1:])
	}
	assert.Contains(t, kinds, "return F2: recovered -> up (by the operator)")
	assert.Contains(t, kinds, "filter-group F2: recovered -> up (returned by the operator)")
	assert.ErrorIs(t, d2.ReturnFilterGroup(context.Background(), "F2"), ErrNotWaiting, "returned already")
}

// min_up_time on the software switch, automatic failback: a filter that
// answers again forwards only once its keep-alives have passed for
// min_up_time (the first round judged at or past it), and is sent no data
// frame before; 0s is the recovery threshold alone (3 rounds), as
// before.
//
// The rounds are failOpenInterval (150 ms), not testdata/verdict.yaml's
// 40 ms: min_up_time counts keep-alives passed without a loss, and a
// 2-core host under stress-ng --cpu 8 running -race loses 40 ms rounds
// so often (0s took 1.3 to 12.5 s for 3 passes in a row) that 1 s of them
// without one did not come within a minute.
func TestMinUpTimeOnSwitch(t *testing.T) {
	const interval = failOpenInterval
	for _, tt := range []struct {
		minUp string
		least time.Duration // revival -> forward, at least
	}{
		{"0s", 2 * interval}, // recovery_threshold 3: the first pass may be in flight at the revival
		{"300ms", 300 * time.Millisecond},
		{"1s", time.Second},
	} {
		t.Run(tt.minUp, func(t *testing.T) {
			yml, err := os.ReadFile(failbackSite(t, "auto", tt.minUp))
			require.NoError(t, err)
			path := filepath.Join(t.TempDir(), "site.yaml")
			require.NoError(t, os.WriteFile(path, []byte(replaceOnce(t, string(yml), "interval: 40ms,", "interval: "+interval.String()+",")), 0o644))
			b := newBedWith(t, path, 0, nil)
			d, _ := b.startDaemon(10)
			b.allUp(d)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			b.trafficGen(ctx, 2000)
			f2 := b.filters["F2"]
			f2.alive.Store(false)
			// Waits of a minute: the test bounds the return from below
			// (min_up_time), not the detection or the return from above.
			// On a host too loaded to run 40 ms keep-alive rounds (-race
			// under stress-ng --cpu 8) the stall guard holds the loss while
			// the engine's ticks come late, and lost rounds restart the
			// recovery count: both take seconds there.
			b.waitFG(1, p4src.ActionFilterSWBypass, time.Minute)
			require.Eventually(t, func() bool { return filterNamed(t, d, "F2").State == "down" }, time.Minute, time.Millisecond)
			data := f2.data.Load()
			seq := lastSeq(d)
			revived := time.Now()
			f2.alive.Store(true)
			// Polled: the data frames F2 got, read before the entry that
			// still says bypass, so they all came before the return.
			var before uint64
			var took time.Duration
			for deadline := revived.Add(time.Minute); ; {
				got := f2.data.Load() - data
				if b.fgAction(1) == p4src.ActionFilterForward {
					took = time.Since(revived)
					break
				}
				before = got
				require.True(t, time.Now().Before(deadline), "F2 never forwards again")
				time.Sleep(200 * time.Microsecond) // polling: the resolution of the measure
			}
			// The engine's return is its transition event, not the status
			// read now: on a loaded host the stall guard may have marked
			// the path suspected since (a reason, not a return).
			up := waitTransition(t, d, "F2", "up", seq, time.Minute)
			engine := up.At.Sub(revived)
			t.Logf("min_up_time %s: F2 answers again -> forward on the switch after %v (the engine's return %v after the revival; %d keep-alive passes counted in all; %d data frames to F2 before)",
				tt.minUp, took, engine, filterNamed(t, d, "F2").Passes, before)
			assert.GreaterOrEqual(t, took, tt.least, "not before min_up_time")
			assert.GreaterOrEqual(t, engine, tt.least, "not before min_up_time")
			assert.Zero(t, before, "no data frame to F2 before its return")
			assert.Equal(t, "keep-alives pass", up.Reason, "returned by the recovery rules")
		})
	}
}
