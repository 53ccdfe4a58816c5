package profiles

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/tables"
)

// failbackSite is the test site with F1..F3 in G, its profile's failback
// and min_up_time given.
const failbackSite = `
platform: sim
ports:
  - {port: 1, speed: 100G}
  - {port: 2, speed: 100G}
  - {port: 3, speed: 100G}
  - {port: 4, speed: 100G}
  - {port: 5, speed: 100G}
  - {port: 6, speed: 100G}
  - {port: 7, speed: 100G}
  - {port: 8, speed: 100G}
links:
  - {name: L1, lan: P2, wan: P1}
filter_groups:
  - {name: F1, lan: P4, wan: P3, cores: 2}
  - {name: F2, lan: P6, wan: P5, cores: 2}
  - {name: F3, lan: P8, wan: P7, cores: 2}
profiles:
  - {name: p, initial_delay: 1s, interval: 100ms, loss_threshold: 3, recovery_threshold: 2, min_active: 1, failure_action: bypass, failback: %s, min_up_time: %s}
balance_groups:
  - {name: G, members: [F1, F2, F3], profile: p}
`

// failbackBench is a bench on failbackSite whose engine records its
// transitions, started with opts.
type failbackBench struct {
	*bench
	mu    sync.Mutex
	trans []Transition
	// firstSend: F1's first keep-alive sent since watchF1 was called.
	firstSend time.Time
	watch     bool
}

func newFailbackBench(t *testing.T, failback, minUp string, opts Options) *failbackBench {
	t.Helper()
	cfg, err := config.Parse([]byte(sprintf(failbackSite, failback, minUp)))
	require.NoError(t, err)
	fb := &failbackBench{}
	fb.bench = &bench{t: t, now: time.Unix(1000, 0), dead: map[uint32]bool{}}
	fb.onSend = func(port uint32) {
		if port == 40 && fb.watch && fb.firstSend.IsZero() {
			fb.firstSend = fb.now
		}
	}
	opts.TimestampUnit = time.Nanosecond
	opts.OnTransition = func(tr Transition) {
		fb.mu.Lock()
		fb.trans = append(fb.trans, tr)
		fb.mu.Unlock()
	}
	fb.e, err = New(cfg, fb.send, opts)
	require.NoError(t, err)
	fb.e.Start(fb.now)
	return fb
}

// last is F1's last transition.
func (fb *failbackBench) last() Transition {
	fb.mu.Lock()
	defer fb.mu.Unlock()
	for i := len(fb.trans) - 1; i >= 0; i-- {
		if fb.trans[i].FilterGroup == "F1" {
			return fb.trans[i]
		}
	}
	return Transition{}
}

// failF1 brings every filter up, then kills F1 until it is down.
func (fb *failbackBench) failF1() {
	fb.run(1300 * time.Millisecond)
	require.Equal(fb.t, StateUp, fb.state("F1"))
	fb.dead[40] = true
	fb.run(500 * time.Millisecond)
	require.Equal(fb.t, StateDown, fb.state("F1"))
}

// reviveF1 makes F1 answer again, noting the first keep-alive sent to it
// from then on (where a run of passes, and min_up_time, starts).
func (fb *failbackBench) reviveF1() {
	delete(fb.dead, 40)
	fb.firstSend, fb.watch = time.Time{}, true
}

// runUntil runs 10ms ticks until F1 is in state s (at most limit).
func (fb *failbackBench) runUntil(s State, limit time.Duration) {
	fb.t.Helper()
	for end := fb.now.Add(limit); fb.state("F1") != s; {
		require.True(fb.t, fb.now.Before(end), "F1 not %s within %s: %s", s, limit, fb.state("F1"))
		fb.run(10 * time.Millisecond)
	}
}

// TestMinUpTimeHonoured: a failed filter returns at the first round
// judged min_up_time or more after the first keep-alive of its run of
// passes was sent, never before; 0 is the recovery threshold alone; a
// loss in the run starts the count again.
func TestMinUpTimeHonoured(t *testing.T) {
	for _, tt := range []struct {
		minUp string
		want  time.Duration // from the run's first keep-alive to the return
	}{
		{"0s", 200 * time.Millisecond},    // recovery_threshold 2 x 100ms
		{"100ms", 200 * time.Millisecond}, // shorter than the threshold: no effect
		{"1s", time.Second},               // exactly
		{"250ms", 300 * time.Millisecond}, // the first round judged at or after
		{"10s", 10 * time.Second},         // exactly
		{"1m30s", 90 * time.Second},       // exactly
	} {
		t.Run(tt.minUp, func(t *testing.T) {
			fb := newFailbackBench(t, "auto", tt.minUp, Options{})
			fb.failF1()
			fb.reviveF1()
			fb.runUntil(StateUp, tt.want+time.Second)
			require.False(t, fb.firstSend.IsZero())
			tr := fb.last()
			assert.Equal(t, StateDown, tr.From)
			assert.Equal(t, ReasonKeepAlivesPass, tr.Reason)
			assert.Equal(t, tt.want, tr.At.Sub(fb.firstSend), "returned %s after the first passing keep-alive", tr.At.Sub(fb.firstSend))
			assert.Empty(t, latest(fb.e).FilterGroups, "in service")
		})
	}

	t.Run("loss restarts the count", func(t *testing.T) {
		fb := newFailbackBench(t, "auto", "1s", Options{})
		fb.failF1()
		fb.reviveF1()
		fb.run(600 * time.Millisecond)
		require.Equal(t, StateDown, fb.state("F1"))
		// One keep-alive lost (less than loss_threshold): the run ends.
		fb.dead[40] = true
		fb.run(100 * time.Millisecond)
		fb.reviveF1()
		fb.runUntil(StateUp, 3*time.Second)
		assert.Equal(t, time.Second, fb.last().At.Sub(fb.firstSend))
	})
}

// TestManualFailbackWaitsForReturn: under manual failback a recovered
// filter keeps its failure action for as long as nobody returns it;
// Return puts it back, and refuses, naming it, a filter group that does
// not wait.
func TestManualFailbackWaitsForReturn(t *testing.T) {
	fb := newFailbackBench(t, "manual", "500ms", Options{})
	fb.failF1()
	assert.ErrorIs(t, fb.e.Return("F1", fb.now), ErrNotWaiting, "still down")
	assert.ErrorContains(t, fb.e.Return("F1", fb.now), "filter group F1 is not waiting for return: it is down (keep-alive loss)")
	select {
	case <-fb.e.Saves():
	default:
	}
	fb.reviveF1()
	fb.runUntil(StateRecovered, 2*time.Second)
	tr := fb.last()
	assert.Equal(t, StateDown, tr.From)
	assert.Equal(t, ReasonWaitingReturn, tr.Reason)
	assert.Equal(t, 500*time.Millisecond, tr.At.Sub(fb.firstSend), "min_up_time before it waits")
	select {
	case <-fb.e.Saves():
	default:
		t.Fatal("entering recovered was not offered for saving")
	}
	st := fb.e.Status()[0]
	assert.Equal(t, "recovered", st.State.String())
	assert.Equal(t, "recovered, waiting for return", st.Reason.String())
	assert.Equal(t, "sw-bypass", st.Effective)
	assert.Equal(t, []string{"F1"}, fb.e.Recovered())
	assert.Equal(t, []string{"F1"}, fb.e.Down(), "failed: saved with the down ones")

	// Ten minutes of passing keep-alives: still out of service.
	fb.run(10 * time.Minute)
	assert.Equal(t, StateRecovered, fb.state("F1"))
	assert.Equal(t, map[string]tables.FilterGroupState{"F1": tables.FGSWBypass}, latest(fb.e).FilterGroups)

	assert.ErrorContains(t, fb.e.Return("F2", fb.now), "filter group F2 is not waiting for return: it is up, in service already")
	err := fb.e.Return("F9", fb.now)
	assert.ErrorIs(t, err, ErrUnknownFilterGroup)
	assert.ErrorContains(t, err, `"F9"`)

	require.NoError(t, fb.e.Return("F1", fb.now))
	assert.Equal(t, StateUp, fb.state("F1"))
	tr = fb.last()
	assert.Equal(t, Transition{FilterGroup: "F1", From: StateRecovered, To: StateUp, Reason: ReasonReturned, At: fb.now}, tr)
	assert.Empty(t, latest(fb.e).FilterGroups, "in service")
	assert.Empty(t, fb.e.Recovered())
	assert.ErrorIs(t, fb.e.Return("F1", fb.now), ErrNotWaiting)
	fb.run(time.Second)
	assert.Equal(t, StateUp, fb.state("F1"))
}

// TestRecoveredFailsAgain: a recovered filter that loses loss_threshold
// keep-alives in a row (or a port) is down again, and a return is
// refused until it has recovered again.
func TestRecoveredFailsAgain(t *testing.T) {
	fb := newFailbackBench(t, "manual", "0s", Options{})
	fb.failF1()
	fb.reviveF1()
	fb.runUntil(StateRecovered, time.Second)
	fb.dead[40] = true
	fb.run(250 * time.Millisecond)
	assert.Equal(t, StateRecovered, fb.state("F1"), "fewer than loss_threshold losses")
	fb.runUntil(StateDown, time.Second)
	assert.Equal(t, ReasonKeepAliveLoss, fb.last().Reason)
	assert.ErrorIs(t, fb.e.Return("F1", fb.now), ErrNotWaiting)

	fb.reviveF1()
	fb.runUntil(StateRecovered, time.Second)
	fb.e.OnPortStatus(30, false, fb.now) // P3: F1's WAN port
	assert.Equal(t, StateDown, fb.state("F1"))
	assert.Equal(t, ReasonPortDown, fb.last().Reason)
	assert.ErrorIs(t, fb.e.Return("F1", fb.now), ErrNotWaiting)
}

// TestRecoveredSurvivesRestartAndAdopt: an engine started with a
// recovered filter group (a restart, a takeover) keeps it out of service
// however long its keep-alives pass, until it is returned; a
// configuration change (Adopt) keeps the wait too, and one that makes the
// profile automatic returns it by the recovery rules.
func TestRecoveredSurvivesRestartAndAdopt(t *testing.T) {
	fb := newFailbackBench(t, "manual", "0s", Options{Down: []string{"F1"}, Recovered: []string{"F1"}, Up: []string{"F2", "F3"}})
	assert.Equal(t, StateRecovered, fb.state("F1"))
	assert.Equal(t, map[string]tables.FilterGroupState{"F1": tables.FGSWBypass}, latest(fb.e).FilterGroups)
	fb.run(time.Minute)
	assert.Equal(t, StateRecovered, fb.state("F1"))

	cfg, err := config.Parse([]byte(sprintf(failbackSite, "manual", "0s")))
	require.NoError(t, err)
	next, err := New(cfg, fb.send, Options{TimestampUnit: time.Nanosecond})
	require.NoError(t, err)
	next.Adopt(fb.e)
	next.Start(fb.now)
	fb.e = next
	fb.run(time.Second)
	assert.Equal(t, StateRecovered, fb.state("F1"), "kept through a configuration change")

	cfg, err = config.Parse([]byte(sprintf(failbackSite, "auto", "0s")))
	require.NoError(t, err)
	auto, err := New(cfg, fb.send, Options{TimestampUnit: time.Nanosecond})
	require.NoError(t, err)
	auto.Adopt(fb.e)
	auto.Start(fb.now)
	fb.e = auto
	fb.run(200 * time.Millisecond)
	assert.Equal(t, StateUp, fb.state("F1"), "the profile made automatic: it returns by itself")
	assert.Empty(t, latest(fb.e).FilterGroups)
	assert.ErrorIs(t, fb.e.CanReturn("F1"), ErrNotWaiting, "up: nothing to return")
}

// TestRecoveredHeldThroughStall: a recovered filter whose keep-alives
// are lost together with those of the filters in service (the
// balancer's own keep-alive path is suspected) is held by the stall guard
// like a filter in service, and stays recovered.
func TestRecoveredHeldThroughStall(t *testing.T) {
	fb := newFailbackBench(t, "manual", "0s", Options{})
	fb.failF1()
	fb.reviveF1()
	fb.runUntil(StateRecovered, time.Second)
	// Every filter's keep-alives are lost for 4 rounds (loss_threshold 3).
	fb.stalled = true
	fb.run(400 * time.Millisecond)
	st := fb.e.Status()
	assert.True(t, st[0].Held, "F1 held")
	assert.Equal(t, ReasonPathSuspected, st[0].Reason)
	assert.Equal(t, StateRecovered, st[0].State)
	fb.stalled = false
	fb.run(300 * time.Millisecond)
	assert.Equal(t, StateRecovered, fb.state("F1"), "held, then keep-alives pass again")
	assert.Equal(t, StateRecovered, fb.last().To, "never down in between")
	assert.False(t, fb.e.Status()[0].Held)
	require.NoError(t, fb.e.Return("F1", fb.now))
}
