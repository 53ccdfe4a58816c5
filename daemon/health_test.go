package daemon

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/p4src"
)

// healthSite is testdata/verdict.yaml (interval 40 ms, recovery_threshold
// 3) with loss_threshold 10 (30 % lost at random is then never 10 in a
// row in practice) and the round-trip and loss limits.
func healthSite(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("testdata/verdict.yaml")
	require.NoError(t, err)
	src := replaceOnce(t, string(data), "loss_threshold: 5,", "loss_threshold: 10,")
	src = replaceOnce(t, src, "failure_action: bypass}", "failure_action: bypass, max_rtt: 5ms, rtt_rounds: 3, max_loss: 20, loss_window: 50}")
	path := filepath.Join(t.TempDir(), "site.yaml")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	return path
}

var errFound = errors.New("found")

// waitTransition waits for the first transition of filter group name to
// state to after event seq after (an event, not a time), and returns it.
func waitTransition(t *testing.T, d *Daemon, name, to string, after uint64, within time.Duration) Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	var got Event
	err := d.Monitor(ctx, eventLogSize, name, true, func(e Event) error {
		if e.Seq > after && e.Kind == EventFilterGroup && e.To == to {
			got = e
			return errFound
		}
		return nil
	})
	require.ErrorIs(t, err, errFound, "filter group %s not %s within %s", name, to, within)
	return got
}

// lastSeq is the sequence number of the daemon's latest event.
func lastSeq(d *Daemon) uint64 {
	if ev := d.events.Recent(1, ""); len(ev) > 0 {
		return ev[0].Seq
	}
	return 0
}

var (
	rttReason  = regexp.MustCompile(`^round trip (\d+\.\d) ms over max_rtt 5ms for 3 rounds$`)
	lossReason = regexp.MustCompile(`^lost (\d+) % of keep-alives over the last 50 rounds, over max_loss 20 %$`)
)

// The round-trip and loss limits on the software switch: F2's emulated
// round trip rises to 10 ms (max_rtt 5ms, rtt_rounds 3): it is taken out
// within a few rounds with the round-trip reason, the round trip shown
// is the emulator's delay plus the switch's and the host's scheduling,
// and it comes back when the delay goes. F3 loses 30 % of its frames at
// random (max_loss 20 over 50 rounds): taken out within the window, with
// the share the emulator lost.
func TestHealthLimitsOnSwitch(t *testing.T) {
	const (
		interval = 40 * time.Millisecond // testdata/verdict.yaml
		delay    = 10 * time.Millisecond
		// slack is what the switch and the host add to the emulated delay:
		// the filter's timer, the in-memory ports and the switch's
		// goroutines (the stamps are taken by the switch's clock, in ns).
		slack = 5 * time.Millisecond
	)
	b := newBedWith(t, healthSite(t), 0, nil)
	d, _ := b.startDaemon(10)
	b.allUp(d)

	base := filterNamed(t, d, "F2")
	require.Len(t, base.RoundTrips, 1)
	require.Positive(t, base.RoundTrips[0].Samples)
	t.Logf("F2 round trip before: p50 %s p99 %s (%d keep-alives)", base.RoundTrips[0].P50, base.RoundTrips[0].P99, base.RoundTrips[0].Samples)
	assert.Less(t, base.RoundTrips[0].P50, delay/2, "no emulated delay yet")

	// The round trip rises to 10 ms.
	seq := lastSeq(d)
	f2 := b.filters["F2"]
	at := time.Now()
	f2.setDelay(delay)
	down := waitTransition(t, d, "F2", "down", seq, 10*time.Second)
	took := down.At.Sub(at)
	rounds := float64(took) / float64(interval)
	t.Logf("F2 out %s (%.1f rounds of %s) after the delay rose: %s", took, rounds, interval, down.Reason)
	m := rttReason.FindStringSubmatch(down.Reason)
	require.NotNil(t, m, "reason %q", down.Reason)
	shown, err := strconv.ParseFloat(m[1], 64)
	require.NoError(t, err)
	// The reason gives the last round's round trip: at least the delay,
	// and a pass (under the interval); one keep-alive can take a host
	// stall on top, so the tight check is on the median below.
	assert.GreaterOrEqual(t, shown, 10.0, "the round trip shown is at least the emulated delay")
	assert.Less(t, shown, float64(interval/time.Millisecond))
	// The keep-alive in flight, then 3 rounds over; one more interval for
	// the schedule of the first one sent after the change.
	assert.LessOrEqual(t, took, (1+3+1)*interval+slack, "out within rtt_rounds")
	b.waitFG(1, p4src.ActionFilterSWBypass, 5*time.Second)
	st := filterNamed(t, d, "F2")
	assert.Equal(t, "down", st.State)
	assert.Equal(t, down.Reason, st.Reason)
	assert.Zero(t, st.Losses, "no keep-alive was lost: out by its round trip alone")
	// The percentiles shown: the latest 128 keep-alives hold those before
	// the change, so p99 shows the delay, and once enough came back p50
	// too. Wait for it (by keep-alives, up to 128 rounds).
	require.Eventually(t, func() bool { return filterNamed(t, d, "F2").RoundTrips[0].P50 >= delay }, 15*time.Second, interval)
	rt := filterNamed(t, d, "F2").RoundTrips[0]
	t.Logf("F2 round trip at 10 ms emulated: p50 %s p99 %s last %s", rt.P50, rt.P99, rt.Last)
	assert.GreaterOrEqual(t, rt.P99, delay)
	assert.LessOrEqual(t, rt.P50, delay+slack)
	assert.Equal(t, "down", filterNamed(t, d, "F2").State, "not back while over max_rtt")

	// The delay goes: back by recovery_threshold (3).
	seq = lastSeq(d)
	at = time.Now()
	f2.setDelay(0)
	up := waitTransition(t, d, "F2", "up", seq, 10*time.Second)
	t.Logf("F2 back %s after the delay went (%s)", up.At.Sub(at), up.Reason)
	assert.Equal(t, "keep-alives pass", up.Reason)
	assert.LessOrEqual(t, up.At.Sub(at), (1+3+1)*interval+slack)
	b.waitFG(1, p4src.ActionFilterForward, 5*time.Second)

	// F3 loses 30 % at random.
	seq = lastSeq(d)
	f3 := b.filters["F3"]
	at = time.Now()
	f3.setLoss(0.30, 1)
	down = waitTransition(t, d, "F3", "down", seq, 20*time.Second)
	took = down.At.Sub(at)
	lost, passed := f3.lostKA.Load(), f3.passedKA.Load()
	t.Logf("F3 out %s (%.1f rounds) after it began losing: %s; the emulator lost %d of %d keep-alives (%.1f %%)",
		took, float64(took)/float64(interval), down.Reason, lost, lost+passed, 100*float64(lost)/float64(lost+passed))
	m = lossReason.FindStringSubmatch(down.Reason)
	require.NotNil(t, m, "reason %q", down.Reason)
	pct, err := strconv.Atoi(m[1])
	require.NoError(t, err)
	assert.Greater(t, pct, 20)
	// The window held the rounds since F3 came up: at most 50, and the
	// one in flight when the loss began.
	assert.LessOrEqual(t, took, (50+2)*interval+slack, "out within the window")
	// The keep-alives lost that the share shown stands for (of the 50
	// rounds, those before the loss began passed) are those the emulator
	// lost, give or take the one in flight at detection.
	shownLost := float64(pct) * 50 / 100
	assert.InDelta(t, float64(lost), shownLost, 1.01, "shown %d %% of 50 rounds = %.1f lost; the emulator lost %d", pct, shownLost, lost)
	b.waitFG(2, p4src.ActionFilterSWBypass, 5*time.Second)
	assert.Equal(t, "up", filterNamed(t, d, "F1").State)
}
