package daemon

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/metrics"
	"sort"
	"strconv"
	"strings"
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
// ran, and the rounds measured; idle-p50/p99 are the same over as many
// rounds measured first with no change running, on the same host at the
// same time (what the host's load alone costs). A keep-alive round that
// queued behind the change would show the change's length here. (What
// is left of the difference with idle on a 2-core host is the garbage
// collector's work for the change's allocations: GOGC=off removes most of
// it; gc-cycles is how many cycles the collector ran per change.)
//
// switch=in-process runs the software switch in the benchmark's process,
// as the other benchmarks do: its tables (half the live heap) and its
// unmarshalling of the writes (most of the allocations) are then the
// daemon's collector's work too. switch=process runs it as a separate
// process (this test binary, switchProcess), so the figures are the
// daemon's own.
func BenchmarkKeepAliveDuringBigApply(b *testing.B) {
	b.Run("switch=in-process", func(b *testing.B) {
		sw, addr := tofinoSwitch(b)
		keepAliveDuringBigApply(b, addr, simTarget{sw})
	})
	b.Run("switch=process", func(b *testing.B) {
		addr, tgt := switchProcess(b)
		keepAliveDuringBigApply(b, addr, tgt)
	})
}

// processTarget is a software switch in another process (switchProcess).
type processTarget struct {
	mu  sync.Mutex
	in  io.Writer
	out *bufio.Reader
}

func (t *processTarget) held() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, err := fmt.Fprintln(t.in, "held"); err != nil {
		return -1
	}
	line, err := t.out.ReadString('\n')
	if err != nil {
		return -1
	}
	n, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		return -1
	}
	return n
}

// switchProcess starts this test binary as a software switch of Tofino's
// slots (TestMain, switchProcessEnv) until the benchmark ends, and
// returns its P4Runtime address.
func switchProcess(b *testing.B) (string, *processTarget) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), switchProcessEnv+"=1")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	require.NoError(b, err)
	outPipe, err := cmd.StdoutPipe()
	require.NoError(b, err)
	require.NoError(b, cmd.Start())
	b.Cleanup(func() { in.Close(); _ = cmd.Wait() })
	out := bufio.NewReader(outPipe)
	addr, err := out.ReadString('\n')
	require.NoError(b, err, "the switch process's address")
	return strings.TrimSpace(addr), &processTarget{in: in, out: out}
}

func keepAliveDuringBigApply(b *testing.B, addr string, tgt target) {
	ents := tofinoEntries(b, tofinoBits)
	dir := b.TempDir()
	path := filepath.Join(dir, "site.yaml")
	require.NoError(b, os.WriteFile(path, []byte(tofinoSiteYAML(31, tofinoBits)), 0o644))
	d, err := New(Options{StateDir: filepath.Join(dir, "state"), InitialConfig: path, SwitchAddr: addr, DeviceID: 1,
		Pipeline: tofinoPipeline(b), Tick: 5 * time.Millisecond, CounterInterval: time.Hour, Logger: testLogger})
	require.NoError(b, err)
	const idleRounds = 500
	var (
		applying, idle atomic.Bool
		mu             sync.Mutex
		lat, idleLat   []time.Duration
		idleDone       = make(chan struct{})
	)
	d.roundDone = func(due time.Time) {
		late := time.Since(due)
		switch {
		case applying.Load():
			mu.Lock()
			lat = append(lat, late)
			mu.Unlock()
		case idle.Load():
			idleLat = append(idleLat, late) // the engine loop only, until idleDone
			if len(idleLat) == idleRounds {
				idle.Store(false)
				close(idleDone)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = d.Run(ctx) })
	defer func() { cancel(); wg.Wait() }()
	waitProgrammed(b, d, tgt, len(ents))
	idle.Store(true)
	<-idleDone
	cores := []int{12, 31}
	gcCycles := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(gcCycles)
	cycles0 := gcCycles[0].Value.Uint64()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		applying.Store(true)
		plannedChange(b, d, cores[i%2], tofinoBits)
		applying.Store(false)
	}
	b.StopTimer()
	metrics.Read(gcCycles)
	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(b, lat, "no keep-alive round was handled during a change")
	pct := func(l []time.Duration, q float64) float64 { return float64(l[int(q*float64(len(l)-1))].Microseconds()) }
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	sort.Slice(idleLat, func(i, j int) bool { return idleLat[i] < idleLat[j] })
	b.ReportMetric(pct(lat, 0.5), "round-p50-µs")
	b.ReportMetric(pct(lat, 0.99), "round-p99-µs")
	b.ReportMetric(pct(idleLat, 0.5), "idle-p50-µs")
	b.ReportMetric(pct(idleLat, 0.99), "idle-p99-µs")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds()), "round-max-µs")
	b.ReportMetric(float64(len(lat)), "rounds")
	b.ReportMetric(float64(gcCycles[0].Value.Uint64()-cycles0)/float64(b.N), "gc-cycles")
}
