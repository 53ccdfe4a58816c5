package profiles

import (
	"math/rand"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
)

// healthBench is a bench on failbackSite whose profile line is
// replaced by limits (interval 100ms, 10ms ticks, fake clock).
func healthBench(t *testing.T, limits string) *failbackBench {
	t.Helper()
	fb := newFailbackBench(t, "auto", "0s", Options{})
	if limits == "" {
		return fb
	}
	src := sprintf(failbackSite, "auto", "0s")
	if strings.Contains(limits, "loss_threshold") {
		src = strings.Replace(src, "loss_threshold: 3, ", "", 1)
	}
	if strings.Contains(limits, "failback") {
		src = strings.Replace(src, "failback: auto, ", "", 1)
	}
	src = strings.Replace(src, "min_up_time: 0s}", "min_up_time: 0s, "+limits+"}", 1)
	cfg, err := config.Parse([]byte(src))
	require.NoError(t, err)
	e, err := New(cfg, fb.send, Options{TimestampUnit: time.Nanosecond, OnTransition: func(tr Transition) {
		fb.mu.Lock()
		fb.trans = append(fb.trans, tr)
		fb.mu.Unlock()
	}})
	require.NoError(t, err)
	e.Start(fb.now)
	fb.e = e
	fb.run(1300 * time.Millisecond)
	for _, n := range []string{"F1", "F2", "F3"} {
		require.Equal(t, StateUp, fb.state(n), n)
	}
	return fb
}

func (fb *failbackBench) status(name string) FilterStatus {
	for _, s := range fb.e.Status() {
		if s.Name == name {
			return s
		}
	}
	fb.t.Fatalf("no filter group %s", name)
	return FilterStatus{}
}

// roundsUntil runs rounds (100ms each, in 10ms ticks) until F1 is in
// state s, and returns how many rounds were judged (at most limit).
func (fb *failbackBench) roundsUntil(s State, limit int) int {
	fb.t.Helper()
	start := fb.status("F1").Passes + fb.status("F1").Losses
	for fb.state("F1") != s {
		st := fb.status("F1")
		require.Less(fb.t, int(st.Passes+st.Losses-start), limit, "F1 not %s within %d rounds: %s (%s)", s, limit, st.State, st.Reason)
		fb.run(10 * time.Millisecond)
	}
	st := fb.status("F1")
	return int(st.Passes + st.Losses - start)
}

// TestMaxRTTOverRounds: rtt_rounds keep-alive rounds in a row over
// max_rtt take the filter out with the round-trip reason and its
// figures; fewer do not; it comes back by the recovery rules once its
// round trip is under the limit, and not while it is over.
func TestMaxRTTOverRounds(t *testing.T) {
	fb := healthBench(t, "max_rtt: 10ms, rtt_rounds: 3")
	st := fb.status("F1")
	require.Len(t, st.RoundTrips, 1)
	assert.Equal(t, 20*time.Microsecond, st.RoundTrips[0].P50)
	assert.Equal(t, 20*time.Microsecond, st.RoundTrips[0].P99)

	// A change of the filter's delay reaches the keep-alives sent after
	// it: the round in flight is judged first, by the delay it had.
	// Two rounds over, then one under: the count starts again.
	fb.cross = map[uint32]time.Duration{40: 12300 * time.Microsecond}
	fb.run(200 * time.Millisecond)
	delete(fb.cross, 40)
	fb.run(100 * time.Millisecond)
	assert.Equal(t, uint32(2), fb.status("F1").RTTOver)
	fb.run(100 * time.Millisecond)
	assert.Equal(t, uint32(0), fb.status("F1").RTTOver)
	require.Equal(t, StateUp, fb.state("F1"))

	fb.cross[40] = 12300 * time.Microsecond
	n := fb.roundsUntil(StateDown, 10)
	assert.Equal(t, 1+3, n, "out at the third round over max_rtt (after the one in flight)")
	tr := fb.last()
	assert.Equal(t, ReasonRoundTrip, tr.Reason)
	assert.Equal(t, "round trip 12.3 ms over max_rtt 10ms for 3 rounds", tr.Detail)
	st = fb.status("F1")
	assert.Equal(t, tr.Detail, st.Detail)
	assert.Zero(t, st.Losses, "no keep-alive was lost")
	assert.Equal(t, StateUp, fb.state("F2"))

	// Still slow: it passes its keep-alives but never recovers.
	fb.run(2 * time.Second)
	assert.Equal(t, StateDown, fb.state("F1"))
	st = fb.status("F1")
	assert.Equal(t, 12300*time.Microsecond, st.RoundTrips[0].P50)
	assert.Equal(t, 12300*time.Microsecond, st.RoundTrips[0].Last)

	// Fast again: recovery_threshold (2) rounds bring it back.
	delete(fb.cross, 40)
	n = fb.roundsUntil(StateUp, 5)
	assert.Equal(t, 1+2, n, "the one in flight, then recovery_threshold")
	assert.Equal(t, ReasonKeepAlivesPass, fb.last().Reason)
	assert.Empty(t, fb.status("F1").Detail)
}

// TestMaxRTTManualFailback: a filter taken out by max_rtt under manual
// failback waits for return once its round trip is back under the limit.
func TestMaxRTTManualFailback(t *testing.T) {
	fb := healthBench(t, "failback: manual, max_rtt: 5ms, rtt_rounds: 2")
	fb.cross = map[uint32]time.Duration{40: 6 * time.Millisecond}
	assert.Equal(t, 1+2, fb.roundsUntil(StateDown, 5))
	assert.Equal(t, "round trip 6.0 ms over max_rtt 5ms for 2 rounds", fb.last().Detail)
	delete(fb.cross, 40)
	fb.roundsUntil(StateRecovered, 5)
	fb.run(time.Second)
	assert.Equal(t, StateRecovered, fb.state("F1"))
	require.NoError(t, fb.e.Return("F1", fb.now))
	assert.Equal(t, StateUp, fb.state("F1"))
}

var lossDetail = regexp.MustCompile(`^lost (\d+) % of keep-alives over the last 100 rounds, over max_loss 20 %$`)

// TestMaxLossRandom: a filter losing 30 % of its keep-alives at random
// (never loss_threshold in a row) is taken out once its loss window is
// full, with the loss-rate reason and the share lost; it comes back by
// the recovery rules when it stops losing, and its loss is judged afresh.
// One losing 10 % stays in service.
func TestMaxLossRandom(t *testing.T) {
	fb := healthBench(t, "loss_threshold: 20, max_loss: 20, loss_window: 100")
	fb.rng = rand.New(rand.NewSource(1))
	fb.lose = map[uint32]float64{40: 0.30}
	n := fb.roundsUntil(StateDown, 101)
	t.Logf("F1 (30 %% loss) out after %d rounds: %s", n, fb.last().Detail)
	assert.LessOrEqual(t, n, 100, "out within loss_window rounds (at the round that fills it)")
	tr := fb.last()
	assert.Equal(t, ReasonLossRate, tr.Reason)
	m := lossDetail.FindStringSubmatch(tr.Detail)
	require.NotNil(t, m, "detail %q", tr.Detail)
	lost, err := strconv.Atoi(m[1])
	require.NoError(t, err)
	assert.Greater(t, lost, 20)
	assert.Equal(t, tr.Detail, fb.status("F1").Detail)
	assert.Less(t, fb.status("F1").Consecutive, uint32(20), "never loss_threshold in a row")

	// It stops losing: back by recovery_threshold, judged afresh.
	fb.lose[40] = 0
	n = fb.roundsUntil(StateUp, 10)
	assert.LessOrEqual(t, n, 1+2, "back by recovery_threshold")
	assert.Zero(t, fb.status("F1").LossRounds, "judged afresh from its return")
	fb.run(10 * time.Second)
	assert.Equal(t, StateUp, fb.state("F1"))
	assert.Equal(t, 100, fb.status("F1").LossRounds)
	assert.Zero(t, fb.status("F1").LossPercent)
}

// TestMaxLossUnderLimit: 10 % lost at random over 300 rounds stays in
// service at max_loss 20.
func TestMaxLossUnderLimit(t *testing.T) {
	fb := healthBench(t, "loss_threshold: 20, max_loss: 20, loss_window: 100")
	fb.rng = rand.New(rand.NewSource(1))
	fb.lose = map[uint32]float64{40: 0.10}
	fb.run(30 * time.Second)
	assert.Equal(t, StateUp, fb.state("F1"))
	st := fb.status("F1")
	assert.Equal(t, 100, st.LossRounds)
	assert.Greater(t, st.LossPercent, 0.0)
	assert.LessOrEqual(t, st.LossPercent, 20.0)
	assert.NotZero(t, st.Losses)
}

// TestHealthLimitsOff: with no limit set a slow, lossy filter is judged
// by loss_threshold alone, as before.
func TestHealthLimitsOff(t *testing.T) {
	fb := healthBench(t, "loss_threshold: 20")
	fb.rng = rand.New(rand.NewSource(7))
	fb.cross = map[uint32]time.Duration{40: 50 * time.Millisecond}
	fb.lose = map[uint32]float64{40: 0.3}
	fb.run(30 * time.Second)
	assert.Equal(t, StateUp, fb.state("F1"))
	st := fb.status("F1")
	assert.Zero(t, st.LossRounds)
	assert.Equal(t, 50*time.Millisecond, st.RoundTrips[0].P99)
}

func TestQuantileRing(t *testing.T) {
	var r rttRing
	for i := 1; i <= 300; i++ {
		r.add(time.Duration(i) * time.Microsecond)
	}
	s := r.status(0)
	// The latest 128: 173..300 µs.
	assert.Equal(t, RTTSamples, s.Samples)
	assert.Equal(t, 236*time.Microsecond, s.P50)
	assert.Equal(t, 299*time.Microsecond, s.P99)
	assert.Equal(t, 300*time.Microsecond, s.Last)
	w := newLossWindow(10)
	for i := 0; i < 25; i++ {
		w.add(i%5 == 0)
	}
	assert.True(t, w.full())
	assert.Equal(t, 20.0, w.percent())
	w.add(true)
	w.dropLastLoss()
	w.add(false)
	assert.Equal(t, 10, w.n)
}
