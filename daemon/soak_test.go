package daemon

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// soakEnv opts in to TestHealthLimitsSoak with its duration ("10m").
const soakEnv = "BALANCER_SOAK"

// loadAvg is the host's load average as /proc/loadavg gives it.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// TestHealthLimitsSoak runs healthy filters on the software switch
// (testdata/verdict.yaml: interval 40 ms, 2,000 frames/s) with round-trip
// and loss limits at 5x what they showed when quiet, for BALANCER_SOAK
// (e.g. 10m), and counts false removals: every filter is healthy
// throughout, so any filter taken out is one. Quiet figures: 15 windows of
// 100 keep-alive rounds without limits; max_rtt is 5x the largest p99
// round trip shown (kept under the interval), max_loss 5x the p99 of the
// windows' loss (at least 1 %), over rtt_rounds 3 and loss_window 100.
// Opt in: it takes the time it is given.
func TestHealthLimitsSoak(t *testing.T) {
	val := os.Getenv(soakEnv)
	if val == "" {
		t.Skipf("soak test: set %s to a duration (e.g. %s=10m) to run healthy filters with max_rtt and max_loss at 5x their quiet p99 that long and count false removals", soakEnv, soakEnv)
	}
	soak, err := time.ParseDuration(val)
	require.NoError(t, err, "%s=%q: want a duration such as 10m", soakEnv, val)
	const (
		interval = 40 * time.Millisecond // testdata/verdict.yaml
		windows  = 15
		window   = 100 // rounds
	)
	data, err := os.ReadFile("testdata/verdict.yaml")
	require.NoError(t, err)
	base := string(data)
	path := filepath.Join(t.TempDir(), "site.yaml")
	require.NoError(t, os.WriteFile(path, data, 0o644))

	b := newBedWith(t, path, 0, nil)
	d, _ := b.startDaemon(10)
	b.allUp(d)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.trafficGen(ctx, 2000)
	names := []string{"F1", "F2", "F3"}
	loadStart := loadAvg()

	// Quiet: windows of 100 rounds, without limits.
	var rttP99s []time.Duration
	var lossPcts []float64
	for range windows {
		start := map[string]FilterStatus{}
		for _, n := range names {
			start[n] = filterNamed(t, d, n)
		}
		require.Eventually(t, func() bool {
			for _, n := range names {
				f := filterNamed(t, d, n)
				if f.Passes+f.Losses < start[n].Passes+start[n].Losses+window {
					return false
				}
			}
			return true
		}, 100*window*interval, time.Millisecond, "100 rounds")
		for _, n := range names {
			f := filterNamed(t, d, n)
			rounds := f.Passes + f.Losses - start[n].Passes - start[n].Losses
			lossPcts = append(lossPcts, 100*float64(f.Losses-start[n].Losses)/float64(rounds))
			for _, r := range f.RoundTrips {
				rttP99s = append(rttP99s, r.P99)
			}
			require.Equal(t, "up", f.State, "%s while quiet", n)
		}
	}
	slices.Sort(rttP99s)
	slices.Sort(lossPcts)
	rttP99 := rttP99s[len(rttP99s)-1] // the p99 of every window's p99s (45 of them): the largest
	lossP99 := lossPcts[int(math.Ceil(0.99*float64(len(lossPcts))))-1]
	maxRTT := (5 * rttP99).Round(time.Microsecond)
	clamped := ""
	if maxRTT >= interval {
		maxRTT, clamped = interval-time.Millisecond, " (5x is not under the interval: kept under it)"
	}
	maxLoss := 5 * lossP99
	if maxLoss < 1 {
		maxLoss = 1
	}
	maxLoss = math.Min(maxLoss, 99)
	t.Logf("quiet (%d windows of %d rounds, 3 filters, load %s): round trip p99 up to %v, window loss p99 %.2f %% -> max_rtt %v%s over 3 rounds, max_loss %.2f %% over %d rounds",
		windows, window, loadAvg(), rttP99, lossP99, maxRTT, clamped, maxLoss, window)

	limited := replaceOnce(t, base, "failure_action: bypass}",
		fmt.Sprintf("failure_action: bypass, max_rtt: %s, rtt_rounds: 3, max_loss: %s, loss_window: %d}", maxRTT, fmt.Sprintf("%.2f", maxLoss), window))
	_, err = d.ApplyConfig(context.Background(), []byte(limited), false, "soak: limits at 5x the quiet p99")
	require.NoError(t, err)

	// The soak: every filter taken out is a false removal.
	seq := lastSeq(d)
	before := map[string]FilterStatus{}
	for _, n := range names {
		before[n] = filterNamed(t, d, n)
	}
	var removals []string
	sctx, scancel := context.WithTimeout(context.Background(), soak)
	defer scancel()
	err = d.Monitor(sctx, eventLogSize, "", true, func(e Event) error {
		if e.Seq > seq && e.Kind == EventFilterGroup && e.To == "down" {
			removals = append(removals, fmt.Sprintf("%s %s: %s", e.At.Format(time.TimeOnly), e.Object, e.Reason))
			t.Logf("false removal: %s %s (%s), load %s", e.Object, e.Reason, e.At.Format(time.TimeOnly), loadAvg())
		}
		return nil
	})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	var rounds uint64
	var tail []string
	for _, n := range names {
		f := filterNamed(t, d, n)
		rounds += f.Passes + f.Losses - before[n].Passes - before[n].Losses
		for _, r := range f.RoundTrips {
			tail = append(tail, fmt.Sprintf("%s p50 %v p99 %v", n, r.P50, r.P99))
		}
		tail = append(tail, fmt.Sprintf("%s loss %.1f %% of %d", n, f.LossPercent, f.LossRounds))
	}
	t.Logf("soak %v: %d keep-alive rounds judged (3 filters), %d false removals; load average at the start %s, now %s; at the end: %s",
		soak, rounds, len(removals), loadStart, loadAvg(), strings.Join(tail, "; "))
	assert.Empty(t, removals, "healthy filters taken out")
}
