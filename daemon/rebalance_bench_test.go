package daemon

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/internal/p4rtfloor"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sim"
	"github.com/dpi-balancer/balancer/tables"
)

// BenchmarkRebalanceSlotMove: F2, of failure action rebalance, stops
// answering its keep-alives (detection 3 x 10 ms) and its share of its
// balance group's slots moves to the survivors. Reported is the time from
// its death to the switch holding the moved slots (the daemon's record of
// the state written to the switch), p50 and p99 in ms, and the slot
// entries each move rewrites, on the committed program (the controller
// alone moves the slots):
//   - site=small: testdata/fast.yaml, one balance group of 256 slots over
//     F1, F2 and F3 on the software switch's platform;
//   - site=big: 1,000 flow rules and two balance groups of 65,536 slots
//     (F2's half of G1 moves) on wedge100bf-32x, whose slot table holds
//     both.
//
// F2 recovers between moves (its slots move back; not measured).
func BenchmarkRebalanceSlotMove(b *testing.B) {
	run := func(b *testing.B, bd *bed, floor time.Duration) {
		d, _ := bd.startDaemon(10)
		bd.allUp(d)
		var moves []time.Duration
		entries := 0
		for b.Loop() { // the timer starts here
			before := d.currentSite().Layouts()
			bd.filters["F2"].alive.Store(false)
			died := time.Now()
			waitWritten(b, d, func(st tables.State) bool { return st.Rebalanced["F2"] }, "F2's slots never moved")
			moves = append(moves, time.Since(died))
			b.StopTimer()
			entries = movedSlots(before, d.currentSite().Layouts())
			require.Positive(b, entries, "a rebalance that moved no slot")
			bd.filters["F2"].alive.Store(true)
			waitWritten(b, d, func(st tables.State) bool { return !st.Rebalanced["F2"] && st.FilterGroups["F2"] == tables.FGForward },
				"F2 never recovered")
			b.StartTimer()
		}
		b.StopTimer()
		sort.Slice(moves, func(i, j int) bool { return moves[i] < moves[j] })
		ms := func(q float64) float64 {
			return float64(moves[int(q*float64(len(moves)-1))].Microseconds()) / 1000
		}
		b.ReportMetric(ms(0.5), "slot-move-p50-ms")
		b.ReportMetric(ms(0.99), "slot-move-p99-ms")
		b.ReportMetric(float64(entries), "slots-moved")
		if floor > 0 {
			b.ReportMetric(float64(floor.Microseconds())/1000, "switch-floor-ms")
		}
	}
	b.Run("site=small", func(b *testing.B) {
		data, err := os.ReadFile("testdata/fast.yaml")
		require.NoError(b, err)
		path := filepath.Join(b.TempDir(), "small.yaml")
		require.NoError(b, os.WriteFile(path, []byte(strings.ReplaceAll(string(data), "failure_action: bypass", "failure_action: rebalance")), 0o644))
		run(b, newBedWith(b, path, 0, nil), 0)
	})
	b.Run("site=big", func(b *testing.B) {
		// The software switch's slot table is the platform's, which holds
		// both balance groups.
		cfg, err := config.Parse([]byte(bigSiteYAML(16)))
		require.NoError(b, err)
		p, err := config.LookupPlatform(cfg.Platform)
		require.NoError(b, err)
		require.Equal(b, p4src.SlotsSizeTofino, p.SlotCapacity, "the bed's pipeline is sized for Tofino")
		require.GreaterOrEqual(b, p.SlotCapacity, 2<<16)
		yml := strings.ReplaceAll(bigSiteYAML(16), "failure_action: bypass", "failure_action: rebalance")
		floor := moveFloor(b, yml)
		path := filepath.Join(b.TempDir(), "big.yaml")
		require.NoError(b, os.WriteFile(path, []byte(yml), 0o644))
		run(b, newBedWith(b, path, p.SlotCapacity, nil), floor)
	})
}

// currentSite is the compiled site in the daemon's current runtime state.
func (d *Daemon) currentSite() *tables.Site {
	return d.snapshot().site
}

// waitWritten polls (every 200 µs: the resolution of the measured time)
// until the runtime state last written to the switch satisfies ok.
func waitWritten(tb testing.TB, d *Daemon, ok func(tables.State) bool, msg string) {
	tb.Helper()
	require.Eventually(tb, func() bool { return ok(d.snapshot().written) }, time.Minute, 200*time.Microsecond, msg)
}

// movedSlots counts the slots whose target differs between two sets of
// layouts of the same balance groups.
func movedSlots(a, b []*tables.GroupLayout) int {
	n := 0
	for i := range a {
		for j, t := range a[i].Active.Slots {
			if b[i].Active.Slots[j] != t {
				n++
			}
		}
	}
	return n
}

// moveFloor is how long the floor's minimal client takes to write the
// entries F2's rebalance changes at the site yml (as MODIFYs) to a
// software switch of the Tofino slot table holding the site.
func moveFloor(tb testing.TB, yml string) time.Duration {
	pipe := tofinoPipeline(tb)
	s, err := p4src.NewSchema(pipe.P4Info)
	require.NoError(tb, err)
	comp, err := tables.New(s)
	require.NoError(tb, err)
	cfg, err := config.Parse([]byte(yml))
	require.NoError(tb, err)
	des, err := comp.Compile(cfg, tables.State{})
	require.NoError(tb, err)
	site, err := comp.NewSite(cfg, des, tables.State{})
	require.NoError(tb, err)
	_, changed, err := comp.WithState(site, tables.State{FilterGroups: map[string]tables.FilterGroupState{"F2": tables.FGSWBypass},
		Rebalanced: map[string]bool{"F2": true}})
	require.NoError(tb, err)
	require.Greater(tb, len(changed), 1<<15)
	// A switch of its own, stopped before the daemon's bed starts (its
	// heap is no part of the daemon's measurement).
	sw, err := sim.New(sim.Options{Ports: map[uint32]sim.Port{}, SlotCapacity: p4src.SlotsSizeTofino})
	require.NoError(tb, err)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(tb, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sw.Serve(ctx, lis, nil) }()
	defer func() { cancel(); <-done }()
	cl, err := p4rtfloor.Dial(lis.Addr().String())
	require.NoError(tb, err)
	defer cl.Close()
	require.NoError(tb, cl.Primary(context.Background(), pipe.P4Info, pipe.DeviceConfig))
	require.NoError(tb, cl.WriteAll(context.Background(), p4rtfloor.Requests(des.Entities)))
	reqs := p4rtfloor.Requests(changed)
	for _, r := range reqs {
		for _, u := range r.GetUpdates() {
			u.Type = p4v1.Update_MODIFY
		}
	}
	runtime.GC()
	t0 := time.Now()
	require.NoError(tb, cl.WriteAll(context.Background(), reqs))
	return time.Since(t0)
}
