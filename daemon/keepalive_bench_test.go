package daemon

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// BenchmarkKeepAliveDuringBigApply: how late the daemon handles its
// keep-alive rounds (from the tick that made a round due to the round
// handled: packet-ins drained, rounds judged, the next keep-alives sent)
// while planned changes at Tofino size (F1's cores 31 -> 12 and back,
// ApplyConfig to the switch's acknowledgement) run back to back. Reported
// are p50, p99 and the worst in µs over the rounds due while a change
// ran, and the rounds measured. A keep-alive round that queued behind the
// change would show the change's length here.
func BenchmarkKeepAliveDuringBigApply(b *testing.B) {
	ents := tofinoEntries(b, tofinoBits)
	sw, addr := tofinoSwitch(b)
	dir := b.TempDir()
	path := filepath.Join(dir, "site.yaml")
	require.NoError(b, os.WriteFile(path, []byte(tofinoSiteYAML(31, tofinoBits)), 0o644))
	d, err := New(Options{StateDir: filepath.Join(dir, "state"), InitialConfig: path, SwitchAddr: addr, DeviceID: 1,
		Pipeline: tofinoPipeline(b), Tick: 5 * time.Millisecond, CounterInterval: time.Hour, Logger: testLogger})
	require.NoError(b, err)
	var (
		applying atomic.Bool
		mu       sync.Mutex
		lat      []time.Duration
	)
	d.roundDone = func(due time.Time) {
		if !applying.Load() {
			return
		}
		late := time.Since(due)
		mu.Lock()
		lat = append(lat, late)
		mu.Unlock()
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = d.Run(ctx) })
	defer func() { cancel(); wg.Wait() }()
	waitProgrammed(b, d, simTarget{sw}, len(ents))
	cores := []int{12, 31}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		applying.Store(true)
		plannedChange(b, d, cores[i%2], tofinoBits)
		applying.Store(false)
	}
	b.StopTimer()
	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(b, lat, "no keep-alive round was handled during a change")
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	p := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))].Microseconds()) }
	b.ReportMetric(p(0.5), "round-p50-µs")
	b.ReportMetric(p(0.99), "round-p99-µs")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds()), "round-max-µs")
	b.ReportMetric(float64(len(lat)), "rounds")
}
