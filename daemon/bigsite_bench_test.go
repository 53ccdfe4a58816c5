package daemon

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/controlplane"
	"github.com/dpi-balancer/balancer/internal/p4rtfloor"
	"github.com/dpi-balancer/balancer/internal/testsites"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sim"
	"github.com/dpi-balancer/balancer/tables"
)

// The programming-path benchmarks run at Tofino size: the benchmark
// site's 1,000 flow rules and two balance groups of 2^16 slots (F1 of 31
// cores, F2 of 63) on wedge100bf-32x, with a port_map that keeps the
// software switch's port numbers. Each reports entries/s beside a floor
// measured in the same run: a minimal client writing the same pre-built
// updates to a P4Runtime server that does nothing.
// TestBigSiteBeds runs every bed's body once, on a smaller site, so a
// broken bed fails the tests.

// tofinoBits is the slot bits of the benchmarks' balance groups.
const tofinoBits = 16

// tofinoSiteYAML is the big site with F1 of f1Cores cores and balance
// groups of 2^bits slots.
func tofinoSiteYAML(f1Cores, bits int) string { return testsites.TofinoYAML(f1Cores, bits) }

// tofinoSwitch serves a software switch that holds the Tofino slot table
// (no ports: nothing is sent through it), until the benchmark ends.
func tofinoSwitch(tb testing.TB) (*sim.Switch, string) {
	sw, err := sim.New(sim.Options{Ports: map[uint32]sim.Port{}, SlotCapacity: p4src.SlotsSizeTofino})
	require.NoError(tb, err)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(tb, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sw.Serve(ctx, lis, nil) }()
	tb.Cleanup(func() { cancel(); <-done })
	return sw, lis.Addr().String()
}

// tofinoPipeline is what the daemon pushes to the software switch of a
// Tofino slot table: the v1model build with its P4Info sized as the
// Tofino build (the pushed P4Info sizes every table the compiler fills).
func tofinoPipeline(tb testing.TB) *controlplane.Pipeline {
	info, err := testsites.TofinoSizedP4Info()
	require.NoError(tb, err)
	return &controlplane.Pipeline{P4Info: info, DeviceConfig: p4src.BMv2JSON}
}

// tofinoEntries is the entries the site of 2^bits slots per balance
// group compiles to, for that pipeline.
func tofinoEntries(tb testing.TB, bits int) []*p4v1.Entity {
	s, err := p4src.NewSchema(tofinoPipeline(tb).P4Info)
	require.NoError(tb, err)
	comp, err := tables.New(s)
	require.NoError(tb, err)
	cfg, err := config.Parse([]byte(tofinoSiteYAML(31, bits)))
	require.NoError(tb, err)
	des, err := comp.Compile(cfg, tables.State{})
	require.NoError(tb, err)
	return des.Entities
}

// startTofinoDaemon starts a daemon with a fresh state dir on the switch
// at addr and returns once every entry is acknowledged.
func startTofinoDaemon(tb testing.TB, addr string, sw target, bits, want int) (*Daemon, func()) {
	d, stop, _ := startTofinoDaemonTimed(tb, addr, sw, bits, want)
	return d, stop
}

// startTofinoDaemonTimed is startTofinoDaemon that also returns how long
// New took (load and compile: before the daemon even connects).
func startTofinoDaemonTimed(tb testing.TB, addr string, sw target, bits, want int) (*Daemon, func(), time.Duration) {
	dir := tb.TempDir()
	path := filepath.Join(dir, "site.yaml")
	require.NoError(tb, os.WriteFile(path, []byte(tofinoSiteYAML(31, bits)), 0o644))
	t0 := time.Now()
	d, err := New(Options{StateDir: filepath.Join(dir, "state"), InitialConfig: path, SwitchAddr: addr, DeviceID: 1,
		Pipeline: tofinoPipeline(tb), Tick: 5 * time.Millisecond, CounterInterval: time.Hour, Logger: testLogger})
	require.NoError(tb, err)
	loaded := time.Since(t0)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = d.Run(ctx) })
	waitProgrammed(tb, d, sw, want)
	return d, func() { cancel(); wg.Wait() }, loaded
}

// target is where a bed's daemon writes: the software switch, or the
// floor's server that does nothing.
type target interface {
	// held is the entries the target holds (the floor's server: was
	// written).
	held() int
}

type simTarget struct{ sw *sim.Switch }

func (t simTarget) held() int { return t.sw.Dataplane().StateSize() }

type floorTarget struct{ srv *p4rtfloor.Server }

func (t floorTarget) held() int { return int(t.srv.Updates()) }

// floorServer serves a P4Runtime server that does nothing until the
// benchmark ends.
func floorServer(tb testing.TB) (*p4rtfloor.Server, string) {
	srv := &p4rtfloor.Server{}
	addr, stop, err := srv.Serve()
	require.NoError(tb, err)
	tb.Cleanup(stop)
	return srv, addr
}

// waitProgrammed polls until the session has written the desired state
// and the target holds want entries.
func waitProgrammed(tb testing.TB, d *Daemon, sw target, want int) {
	// Every 200 µs: the resolution of the measured time.
	require.EventuallyWithT(tb, func(c *assert.CollectT) {
		st := d.Session().Status()
		assert.True(c, st.Primary && !st.Pending && d.Session().Stats().Reconciles > 0, "not programmed within 2 minutes: %+v", st)
	}, 2*time.Minute, 200*time.Microsecond)
	if got := sw.held(); got < want {
		tb.Fatalf("the switch holds %d entries, want %d", got, want)
	}
}

// BenchmarkColdStartBigSite: daemon start (a fresh state dir: load,
// compile, connect, push the pipeline, write everything) until the
// software switch acknowledged the last entry, at Tofino size. The floor
// sub-benchmark writes the same entries, pre-built, with a minimal
// client to a P4Runtime server that does nothing.
func BenchmarkColdStartBigSite(b *testing.B) {
	ents := tofinoEntries(b, tofinoBits)
	reqs := p4rtfloor.Requests(ents)
	b.Run("floor", func(b *testing.B) {
		_, addr := floorServer(b)
		cl := floorClient(b, addr)
		for b.Loop() {
			require.NoError(b, cl.WriteAll(context.Background(), reqs))
		}
		b.ReportMetric(float64(len(ents)*b.N)/b.Elapsed().Seconds(), "entries/s")
	})
	b.Run("floor-switch", func(b *testing.B) {
		// The same client writing to the software switch: the switch's
		// own rate, which no controller can pass.
		for b.Loop() {
			b.StopTimer()
			_, addr := tofinoSwitch(b)
			cl := primaryFloorClient(b, addr)
			b.StartTimer()
			require.NoError(b, cl.WriteAll(context.Background(), reqs))
		}
		b.ReportMetric(float64(len(ents)*b.N)/b.Elapsed().Seconds(), "entries/s")
	})
	daemon := func(b *testing.B, serve func(testing.TB) (target, string)) {
		var load time.Duration
		for b.Loop() {
			b.StopTimer()
			sw, addr := serve(b)
			runtime.GC()
			b.StartTimer()
			_, stop, l := startTofinoDaemonTimed(b, addr, sw, tofinoBits, len(ents))
			load += l
			b.StopTimer()
			stop()
			b.StartTimer()
		}
		b.ReportMetric(float64(len(ents)*b.N)/b.Elapsed().Seconds(), "entries/s")
		b.ReportMetric(float64(load.Milliseconds())/float64(b.N), "load-ms/op")
		b.ReportMetric(float64(len(ents)), "entries")
	}
	// The daemon against the floor's server: the daemon's own rate.
	b.Run("daemon-floor", func(b *testing.B) {
		daemon(b, func(tb testing.TB) (target, string) {
			srv, addr := floorServer(tb)
			return floorTarget{srv}, addr
		})
	})
	b.Run("daemon", func(b *testing.B) {
		daemon(b, func(tb testing.TB) (target, string) {
			sw, addr := tofinoSwitch(tb)
			return simTarget{sw}, addr
		})
	})
}

// floorClient connects the floor's minimal client to addr until the
// benchmark ends.
func floorClient(tb testing.TB, addr string) *p4rtfloor.Client {
	cl, err := p4rtfloor.Dial(addr)
	require.NoError(tb, err)
	tb.Cleanup(func() { cl.Close() })
	return cl
}

// primaryFloorClient connects the floor's minimal client to the switch
// at addr, primary and with the pipeline pushed, until the benchmark
// ends.
func primaryFloorClient(tb testing.TB, addr string) *p4rtfloor.Client {
	cl := floorClient(tb, addr)
	pipe := tofinoPipeline(tb)
	require.NoError(tb, cl.Primary(context.Background(), pipe.P4Info, pipe.DeviceConfig))
	return cl
}

// plannedChange applies the big site with F1 of cores cores and returns
// the entries written.
func plannedChange(tb testing.TB, d *Daemon, cores, bits int) int {
	res, err := d.ApplyConfig(context.Background(), []byte(tofinoSiteYAML(cores, bits)), false, "bench")
	require.NoError(tb, err)
	require.True(tb, res.Written, "not written: %+v", res)
	return res.Inserts + res.Modifies + res.Deletes
}

// BenchmarkPlannedChangeBigSite: a planned change at Tofino size, F1's
// cores 31 -> 12 (and back, alternately), from ApplyConfig to the
// switch's acknowledgement; entries/s counts the entries written.
func BenchmarkPlannedChangeBigSite(b *testing.B) {
	ents := tofinoEntries(b, tofinoBits)
	sw, addr := tofinoSwitch(b)
	d, stop := startTofinoDaemon(b, addr, simTarget{sw}, tofinoBits, len(ents))
	defer stop()
	written := 0
	cores := []int{12, 31}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		written += plannedChange(b, d, cores[i%2], tofinoBits)
	}
	b.StopTimer()
	b.ReportMetric(float64(written)/b.Elapsed().Seconds(), "entries/s")
	b.ReportMetric(float64(written/b.N), "entries/op")
}

// changesAndFailovers makes n planned changes (F1's cores 31 -> 12 and
// back) and n failovers (F1 into manual bypass and back: the state
// owner's failover path), calling live after each series, and returns
// once the switch holds the desired state again.
func changesAndFailovers(tb testing.TB, d *Daemon, sw target, bits, want, n int, live func(when string)) {
	for i := range n {
		cores := 12
		if i%2 == 1 {
			cores = 31
		}
		require.Positive(tb, plannedChange(tb, d, cores, bits))
	}
	live("changes")
	for i := range n {
		require.NoError(tb, d.SetBypass(context.Background(), "F1", i%2 == 0))
	}
	waitProgrammed(tb, d, sw, want)
	live("failovers")
}

// liveHeap is the live heap in MiB, read after a collection (for the
// measurement only).
func liveHeap() float64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc) / (1 << 20)
}

// BenchmarkHeapBigSite: the daemon's live heap at Tofino size, fresh,
// after 100 planned changes and after 100 failovers, with the software
// switch in the same process (its share is constant: the same entries).
// HEAP_PROFILE=file writes the heap profile after all of them.
func BenchmarkHeapBigSite(b *testing.B) {
	if b.N > 1 {
		b.Skip("one run is the measurement")
	}
	ents := tofinoEntries(b, tofinoBits)
	sw, addr := tofinoSwitch(b)
	d, stop := startTofinoDaemon(b, addr, simTarget{sw}, tofinoBits, len(ents))
	defer stop()
	live := func(when string) { b.ReportMetric(liveHeap(), "live-MiB/"+when) }
	live("fresh")
	changesAndFailovers(b, d, simTarget{sw}, tofinoBits, len(ents), 100, live)
	if path := os.Getenv("HEAP_PROFILE"); path != "" {
		// While the daemon runs (a -memprofile is written after it ended).
		f, err := os.Create(path)
		require.NoError(b, err)
		require.NoError(b, pprof.Lookup("heap").WriteTo(f, 0))
		require.NoError(b, f.Close())
	}
}

// TestBigSiteBeds runs the bodies of the benchmarks above once each, on
// the same platform and pipeline with balance groups of 2^14 slots: more
// than the embedded v1model P4Info holds, so a bed that gets the
// pipeline or the switch's slot table wrong fails here, at a quarter of
// the benchmarks' size.
func TestBigSiteBeds(t *testing.T) {
	const bits = 14
	ents := tofinoEntries(t, bits)
	require.Greater(t, 2*(1<<bits), p4src.SlotsSizeBMv2, "the site's two balance groups must not fit the embedded P4Info's slot table")
	reqs := p4rtfloor.Requests(ents)
	srv, addr := floorServer(t)
	require.NoError(t, floorClient(t, addr).WriteAll(context.Background(), reqs))

	_, addr = tofinoSwitch(t)
	require.NoError(t, primaryFloorClient(t, addr).WriteAll(context.Background(), reqs))

	srv, addr = floorServer(t)
	_, stop := startTofinoDaemon(t, addr, floorTarget{srv}, bits, len(ents))
	stop()

	sw, addr := tofinoSwitch(t)
	d, stop := startTofinoDaemon(t, addr, simTarget{sw}, bits, len(ents))
	defer stop()
	var seen []string
	changesAndFailovers(t, d, simTarget{sw}, bits, len(ents), 2, func(when string) {
		seen = append(seen, when)
		require.Positive(t, liveHeap())
	})
	require.Equal(t, []string{"changes", "failovers"}, seen)
}
