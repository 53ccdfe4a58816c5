package daemon

import (
	"context"
	"log/slog"
	"net/netip"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/controlplane"
	"github.com/dpi-balancer/balancer/internal/stallproxy"
	"github.com/dpi-balancer/balancer/internal/testbed"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sim/frames"
)

// trafficGen sends frames of many sessions into L1's LAN port (20) at
// about rate per second, and drains what leaves by L1's WAN port (10),
// until ctx ends.
func (b *bed) trafficGen(ctx context.Context, rate int) *atomic.Uint64 {
	var sent atomic.Uint64
	var fs [][]byte
	for i := 0; i < 512; i++ {
		src := netip.AddrFrom4([4]byte{10, 8, byte(i >> 8), byte(i)})
		dst := netip.AddrFrom4([4]byte{198, 51, 100, byte(i)})
		fs = append(fs, frames.Frame([]byte{0, 0x11, 0x22, 0x33, 0x44, 0x55}, []byte{0, 0x66, 0x77, 0x88, 0x99, 0xaa},
			frames.Encap{}, frames.L3{Src: src, Dst: dst, Proto: layers.IPProtocolTCP, SrcPort: 40000, DstPort: 443}))
	}
	gap := time.Second / time.Duration(rate)
	go func() {
		next := time.Now()
		for i := 0; ctx.Err() == nil; i++ {
			if d := time.Until(next); d > 0 {
				time.Sleep(d) // pacing: rate frames a second
			}
			next = next.Add(gap)
			if b.peers[20].Send(fs[i%len(fs)]) == nil {
				sent.Add(1)
			}
		}
	}()
	go func() {
		for ctx.Err() == nil {
			b.peers[10].Recv(20 * time.Millisecond)
		}
	}()
	return &sent
}

// The controller is gone (stopped: as frozen, crashed or cut off, the
// switch hears nothing from it) and a filter dies: the pipeline proves it
// from the data alone and bypasses its share. Measured: the frames the
// switch still sends the dead filter from detection + 100 ms on, against
// its share before. Then a controller comes back: it learns the standing
// verdict from the digests and keeps it (the filter is still dead), and
// clears it by the next epoch only once the filter answers again.
func TestFrozenDaemonDataPlaneFailsDeadFilter(t *testing.T) {
	schema, err := p4src.Load()
	require.NoError(t, err)
	b := newBedWith(t, "testdata/verdict.yaml", 0, schema)
	d, stop := b.startDaemon(10)
	b.allUp(d)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sent := b.trafficGen(ctx, 5000)
	f3 := b.filters["F3"]
	// waitSent waits for n more frames sent (about 1 s of traffic on a
	// quiet host; however long a busy one takes to send them) and says
	// how many of them reached F3, of how many.
	waitSent := func(n uint64) (got, of uint64) {
		s0, g0 := sent.Load(), f3.got.Load()
		require.Eventually(t, func() bool { return sent.Load()-s0 >= n }, 60*time.Second, time.Millisecond)
		return f3.got.Load() - g0, sent.Load() - s0
	}
	waitSent(5000) // the traffic under way (about 1 s of it)
	got, of := waitSent(5000)
	share := float64(got) / float64(of) // F3's share of the frames sent while alive
	require.Greater(t, share, 0.2, "F3 carries its share (%d of %d frames)", got, of)

	st0, err := d.Status(context.Background())
	require.NoError(t, err)
	e0 := st0.Filters[2].VerdictEpoch
	healthy := 0
	for _, f := range st0.Filters {
		healthy += len(f.Verdicts)
	}
	t.Logf("data-plane verdicts while every filter was healthy: %d", healthy)
	stop()                           // the controller is gone
	detect := 200 * time.Millisecond // testdata/verdict.yaml: 5 x 40ms
	f3.alive.Store(false)
	died := time.Now()
	time.Sleep(detect + 100*time.Millisecond) // the window starts at detection + 100 ms: a time, by premise
	// From detection + 100 ms on, F3 gets under 2% of its share: the
	// window runs until the pipeline's own verdict stands (by now on a
	// quiet host; on a starved one the switch may not yet have run the
	// frames that prove it) and 5,000 frames after.
	s1, g1 := sent.Load(), f3.got.Load()
	require.Eventually(t, func() bool { _, set := b.sw.Dataplane().Verdict(2); return set }, 30*time.Second, time.Millisecond,
		"the pipeline's own verdict")
	proved := time.Since(died)
	epoch, _ := b.sw.Dataplane().Verdict(2)
	assert.Equal(t, e0, epoch)
	waitSent(5000)
	got, of = f3.got.Load()-g1, sent.Load()-s1
	after := float64(got) / float64(of)
	t.Logf("controller stopped, F3 killed: verdict seen %v after (detection %v); from detection + 100 ms, %d of %d frames to F3 (%.3f%% of its share, %.1f%%)",
		proved.Round(time.Millisecond), detect, got, of, 100*after/share, 100*share)
	assert.Less(t, after, 0.02*share, "under 2%% of its share")

	// A controller comes back: the verdict is learnt, and stands.
	d2, _ := b.startDaemon(20)
	require.Eventually(t, func() bool {
		st, err := d2.Status(context.Background())
		return err == nil && len(st.Filters) == 3 && st.Filters[2].Verdict != "" && st.Filters[2].State == "down"
	}, 10*time.Second, 5*time.Millisecond, "the new controller learns the standing verdict")
	st, err := d2.Status(context.Background())
	require.NoError(t, err)
	t.Logf("status: %s: %s", st.Filters[2].Reason, st.Filters[2].Verdict)
	_, set := b.sw.Dataplane().Verdict(2)
	assert.True(t, set)
	from := f3.got.Load()
	// A window of wall time: its bound is the keep-alives 300 ms can carry.
	time.Sleep(300 * time.Millisecond)
	assert.Less(t, f3.got.Load()-from, uint64(2*300/40), "keep-alives only (at most), no data to the dead filter")
	oneSecond := uint64(5000)

	// F3 answers again: recovery_threshold keep-alives, then the next epoch.
	f3.alive.Store(true)
	require.Eventually(t, func() bool {
		st, err := d2.Status(context.Background())
		return err == nil && st.Filters[2].State == "up" && st.Filters[2].VerdictEpoch == e0+1 && !st.Switch.StatePending
	}, 10*time.Second, 5*time.Millisecond)
	got, of = waitSent(oneSecond / 3)
	assert.Greater(t, float64(got)/float64(of), share/10, "F3 carries traffic again (%d of %d frames)", got, of)
	st, err = d2.Status(context.Background())
	require.NoError(t, err)
	var cleared, later []VerdictEvent
	for _, v := range st.Filters[2].Verdicts {
		if v.Epoch == e0 {
			cleared = append(cleared, v)
		} else {
			later = append(later, v)
		}
	}
	require.Len(t, cleared, 1, "the verdict of epoch %d in the history", e0)
	assert.False(t, cleared[0].Cleared.IsZero(), "the verdict is marked cleared")
	if len(later) > 0 {
		// A new proof after the epoch moved on (a starved switch that did
		// not run F3's returns for a detection time) is an event of its
		// own; it never clears or changes the one above.
		t.Logf("later verdicts: %+v", later)
	}
}

// linkCount reads one link_counters cell (packets) from the switch.
func (b *bed) linkCount(link, kind uint32) uint64 {
	return b.counterPackets(p4src.CounterLink, int64(p4src.LinkCounterIndex(link, kind)))
}

// counterPackets reads the packets of one cell of an indexed counter from
// the switch.
func (b *bed) counterPackets(counter string, index int64) uint64 {
	b.t.Helper()
	s := b.sw.Dataplane().Schema()
	c, err := s.Counter(counter)
	require.NoError(b.t, err)
	var n uint64
	require.NoError(b.t, b.sw.Dataplane().Read([]*p4v1.Entity{{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{
		CounterId: c.GetPreamble().GetId(), Index: &p4v1.Index{Index: index}}}}},
		func(e *p4v1.Entity) bool { n = uint64(e.GetCounterEntry().GetData().GetPacketCount()); return true }))
	return n
}

// proxiedDaemon runs a daemon on the verdict site (testdata/verdict.yaml,
// the program with the data-plane verdict) through a proxy to the
// software switch, lagging by lag, until the test ends; its log (INFO) is
// kept.
func proxiedDaemon(t *testing.T, lag time.Duration) (*bed, *stallproxy.Proxy, *Daemon, *testbed.SyncBuffer) {
	t.Helper()
	schema, err := p4src.Load()
	require.NoError(t, err)
	b := newBedWith(t, "testdata/verdict.yaml", 0, schema)
	proxy := stallproxy.New(t, b.addr)
	proxy.Lag(lag)
	logs := &testbed.SyncBuffer{}
	d, err := New(Options{StateDir: b.dir, InitialConfig: b.config, SwitchAddr: proxy.Addr(), SwitchGNMI: b.gaddr,
		DeviceID: 1, Tick: time.Millisecond, CounterInterval: time.Hour,
		Logger:   slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo})),
		Pipeline: &controlplane.Pipeline{P4Info: schema.Info, DeviceConfig: p4src.BMv2JSON}})
	require.NoError(t, err)
	testbed.Run(t, func(ctx context.Context) { d.Run(ctx) })
	return b, proxy, d, logs
}

// A 5 s hang of the control channel (TCP open, no answers) with healthy
// filters: no frame is software- or group-bypassed, during it or in the
// 5 s after (the controller forms no verdict while it cannot see the
// switch, and writes none on reconnect).
//
// Healthy filters are the premise: the switch, the filter emulators and
// the daemon all run in this process, so a host that stalls it for a
// keep-alive interval (40 ms) or more makes healthy filters late by the
// switch's own clock, and the switch's rules rightly fail them (a stall
// of the detection time, 200 ms, proves them dead in the pipeline). A
// run that failed while the host stalled the process that long is not
// the scenario: it is said, and the scenario runs again once every filter
// is up, until a run in which the host kept the premise (or one that
// passed).
func TestControlChannelHangBypassesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 15 s")
	}
	stalls := testbed.WatchStalls(t)
	b, proxy, d, logs := proxiedDaemon(t, 0)
	tctx, tcancel := context.WithCancel(context.Background())
	defer tcancel()
	b.allUp(d)
	sent := b.trafficGen(tctx, 2000)
	// The traffic under way (about 500 ms of it) before counting.
	require.Eventually(t, func() bool { return sent.Load() >= 1000 }, 60*time.Second, time.Millisecond)

	bypassed := func() uint64 {
		return b.linkCount(0, p4src.LinkCntSWBypass) + b.linkCount(0, p4src.LinkCntGroupBypass)
	}
	giveUp := time.Now().Add(2 * time.Minute)
	for run := 1; ; run++ {
		b.allUp(d)
		from := time.Now()
		before, sent0 := bypassed(), sent.Load()
		proxy.Pause()
		time.Sleep(5 * time.Second) // the hang: its length is the scenario
		proxy.Resume()
		during := bypassed() - before
		require.Eventually(t, func() bool {
			st, err := d.Status(context.Background())
			return err == nil && st.Switch.Primary && !st.Switch.Stalled
		}, 30*time.Second, 10*time.Millisecond)
		time.Sleep(5 * time.Second) // the 5 s after the hang that are watched too
		total := bypassed() - before
		st, err := d.Status(context.Background())
		require.NoError(t, err)
		allUp := true
		for _, f := range st.Filters {
			allUp = allUp && f.State == "up"
		}
		if worst := stalls.Worst(from, time.Now()); (total > 0 || !allUp) && worst >= hostStallBound {
			t.Logf("run %d: %d frames bypassed while the host stalled this process %v (premise: under %v): not the scenario, run again",
				run, total, worst.Round(time.Millisecond), hostStallBound)
			if time.Now().After(giveUp) {
				t.Skipf("the host never ran this process without a stall of %v or more for the scenario's 12 s: the premise (healthy filters) never held", hostStallBound)
			}
			continue
		}
		verdicts := 0
		for _, f := range st.Filters {
			verdicts += len(f.Verdicts)
			assert.Equal(t, "up", f.State, "%s", f.Name)
		}
		t.Logf("run %d: 5 s hang with healthy filters: %d frames bypassed during it, %d in all until 5 s after (of %d sent); data-plane verdicts %d",
			run, during, total, sent.Load()-sent0, verdicts)
		if !assert.Zero(t, total, "no frame software- or group-bypassed") {
			// Say which judgement bypassed them: the daemon's log.
			lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
			t.Logf("daemon log (last 60 lines):\n%s", strings.Join(lines[max(0, len(lines)-60):], "\n"))
		}
		return
	}
}

// hostStallBound is the premise of the scenarios with healthy filters on
// testdata/verdict.yaml: the host never stalls the test process for its
// keep-alive interval (40 ms) or more (testbed.WatchStalls).
const hostStallBound = 40 * time.Millisecond

// A control channel that lags (everything the switch sends reaches the
// daemon 60 ms late, in order; the keep-alive interval is 40 ms, so every
// answer arrives after its round was judged) with healthy filters: the
// filters still come up (the answers are in time by the data plane's own
// clock), and over 3 s no frame is software- or group-bypassed and no
// filter leaves "up". Then F2 dies: it still fails over.
//
// The premise, as in TestControlChannelHangBypassesNothing: the host does
// not stall this process for an interval or more while the 3 s are
// watched (a starved switch and filter emulator make healthy filters late
// by the switch's clock, and losses by its rules); 3 s that failed while
// it did are said and watched again once every filter is up.
func TestLaggingChannelFailsNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 10 s")
	}
	stalls := testbed.WatchStalls(t)
	b, _, d, logs := proxiedDaemon(t, 60*time.Millisecond)
	var mu sync.Mutex
	var trans []string
	b.allUp(d) // new filters earn their traffic through late answers
	mctx, mcancel := context.WithCancel(context.Background())
	defer mcancel()
	go d.Monitor(mctx, 0, "", true, func(ev Event) error {
		if ev.Kind == EventFilterGroup {
			mu.Lock()
			trans = append(trans, ev.String())
			mu.Unlock()
		}
		return nil
	})
	waitFollowers(t, d.events, 1)
	tctx, tcancel := context.WithCancel(context.Background())
	defer tcancel()
	sent := b.trafficGen(tctx, 2000)
	bypassed := func() uint64 {
		return b.linkCount(0, p4src.LinkCntSWBypass) + b.linkCount(0, p4src.LinkCntGroupBypass)
	}
	giveUp := time.Now().Add(2 * time.Minute)
	for run := 1; ; run++ {
		b.allUp(d)
		mu.Lock()
		trans = nil
		mu.Unlock()
		from := time.Now()
		before, sent0 := bypassed(), sent.Load()
		time.Sleep(3 * time.Second) // the 3 s watched: nothing must happen in them
		total := bypassed() - before
		st, err := d.Status(context.Background())
		require.NoError(t, err)
		mu.Lock()
		changed := append([]string(nil), trans...)
		mu.Unlock()
		allUp := true
		for _, f := range st.Filters {
			allUp = allUp && f.State == "up"
		}
		if worst := stalls.Worst(from, time.Now()); (total > 0 || !allUp || len(changed) > 0) && worst >= hostStallBound {
			t.Logf("run %d: the host stalled this process %v (premise: under %v); %d frames bypassed, state changes %v: not the scenario, watched again",
				run, worst.Round(time.Millisecond), hostStallBound, total, changed)
			if time.Now().After(giveUp) {
				t.Skipf("the host never ran this process without a stall of %v or more for 3 s: the premise (healthy filters) never held", hostStallBound)
			}
			continue
		}
		for _, f := range st.Filters {
			assert.Equal(t, "up", f.State, "%s", f.Name)
		}
		t.Logf("run %d: channel lagging 60 ms (interval 40 ms), healthy filters: %d frames bypassed in 3 s (of %d sent); state changes %v",
			run, total, sent.Load()-sent0, changed)
		assert.Empty(t, changed, "no filter changed state")
		if !assert.Zero(t, total, "no frame software- or group-bypassed") {
			lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
			t.Logf("daemon log (last 60 lines):\n%s", strings.Join(lines[max(0, len(lines)-60):], "\n"))
		}
		break
	}

	b.filters["F2"].alive.Store(false)
	require.Eventually(t, func() bool {
		st, err := d.Status(context.Background())
		return err == nil && st.Filters[1].State == "down"
	}, 10*time.Second, time.Millisecond, "a dead F2 fails over on a lagging channel too")
	st, err := d.Status(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "up", st.Filters[0].State)
	assert.Equal(t, "up", st.Filters[2].State)
}

// BenchmarkKeepAliveLossToRebalance is BenchmarkKeepAliveLossToBypass for
// failure action rebalance on the program with the data-plane verdict:
// F2 (in G1 with F1) dies; reported are the time from its death to its
// share being out of service (its verdict register set in the pipeline,
// every frame of its share bypassed from then on, or the controller's own
// software bypass of its entry, whichever is first; by-pipeline-share says
// how often the pipeline was), beyond the detection time (3 x 10 ms), as
// p50/p99-µs, and the slot move that follows (the controller's rewrite of
// its slots to F1, from the death) as slot-move-p50/p99-µs, on the small
// and the big site.
//
// REBALANCE_BASELINE=1 runs it on the committed program instead (no
// data-plane verdict: the controller alone), for comparison.
func BenchmarkKeepAliveLossToRebalance(b *testing.B) {
	schema, err := p4src.Load()
	require.NoError(b, err)
	if os.Getenv("REBALANCE_BASELINE") != "" {
		schema = nil
	}
	run := func(b *testing.B, bd *bed) {
		d, _ := bd.startDaemon(10)
		bd.allUp(d)
		dp := bd.sw.Dataplane()
		var lat, moved []time.Duration
		byPipeline := 0
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			st0, err := d.Status(context.Background())
			require.NoError(b, err)
			e0 := st0.Filters[1].VerdictEpoch
			bd.filters["F2"].alive.Store(false)
			died := time.Now()
			// Out of service: the pipeline's verdict, or the controller's
			// own failover of the entry, whichever comes first.
			for {
				if e, set := dp.Verdict(1); set && e == e0 {
					byPipeline++
					break
				}
				if bd.fgAction(1) != p4src.ActionFilterForward {
					break
				}
				require.Less(b, time.Since(died), 5*time.Second, "F2 stays in service")
				time.Sleep(200 * time.Microsecond) // polling; the resolution of the measured latency
			}
			lat = append(lat, time.Since(died)-30*time.Millisecond)
			for {
				st, err := d.Status(context.Background())
				require.NoError(b, err)
				if st.Filters[1].Effective == "rebalanced" && !st.Switch.StatePending {
					break
				}
				require.Less(b, time.Since(died), 60*time.Second, "slots never moved")
				time.Sleep(5 * time.Millisecond) // status digests the layouts: not too often
			}
			moved = append(moved, time.Since(died))
			b.StopTimer()
			bd.filters["F2"].alive.Store(true)
			require.Eventually(b, func() bool {
				st, err := d.Status(context.Background())
				return err == nil && st.Filters[1].State == "up" && st.Filters[1].Effective == "forward" && !st.Switch.StatePending
			}, 30*time.Second, time.Millisecond)
			b.StartTimer()
		}
		reportPercentiles(b, lat)
		b.ReportMetric(float64(byPipeline)/float64(b.N), "by-pipeline-share")
		sort.Slice(moved, func(i, j int) bool { return moved[i] < moved[j] })
		b.ReportMetric(float64(moved[len(moved)/2].Microseconds()), "slot-move-p50-µs")
		b.ReportMetric(float64(moved[int(0.99*float64(len(moved)-1))].Microseconds()), "slot-move-p99-µs")
	}
	b.Run("site=small", func(b *testing.B) {
		data, err := os.ReadFile("testdata/fast.yaml")
		require.NoError(b, err)
		path := filepath.Join(b.TempDir(), "small.yaml")
		require.NoError(b, os.WriteFile(path, []byte(strings.ReplaceAll(string(data), "failure_action: bypass", "failure_action: rebalance")), 0o644))
		run(b, newBedWith(b, path, 0, schema))
	})
	b.Run("site=big", func(b *testing.B) {
		path := filepath.Join(b.TempDir(), "big.yaml")
		require.NoError(b, os.WriteFile(path, []byte(strings.ReplaceAll(bigSiteYAML(16), "failure_action: bypass", "failure_action: rebalance")), 0o644))
		run(b, newBedWith(b, path, 2<<16, schema))
	})
}

// The numbers a data-plane verdict leaves, read back through the product
// (Counters) against what was sent: with the controller gone, F3 (failure
// action drop) dies while sessions of 12 session buckets keep sending to
// it. Every frame either reached F3 (its to-filter count equals what the
// filter emulator got) or was dropped by the standing verdict (drop reason
// "data-plane verdict drop", and the link's dropped count), and the
// verdict drops are all the frames sent once detection had passed.
func TestVerdictDropCounted(t *testing.T) {
	schema, err := p4src.Load()
	require.NoError(t, err)
	data, err := os.ReadFile("testdata/verdict.yaml")
	require.NoError(t, err)
	yml := replaceOnce(t, string(data), "failure_action: bypass}", "failure_action: drop}")
	path := filepath.Join(t.TempDir(), "site.yaml")
	require.NoError(t, os.WriteFile(path, []byte(yml), 0o644))
	b := newBedWith(t, path, 0, schema)
	d, stop := b.startDaemon(10)
	b.allUp(d)
	ctx := context.Background()

	// Sessions placed on F3, from 12 distinct session buckets.
	var fs [][]byte
	buckets := map[uint32]bool{}
	for i := 0; len(fs) < 48 && i < 4096; i++ {
		src := netip.AddrFrom4([4]byte{10, 9, byte(i >> 8), byte(i)})
		dst := netip.MustParseAddr("198.51.100.7")
		ps, err := d.Locate(ctx, src, dst, 6)
		require.NoError(t, err)
		require.Len(t, ps, 1)
		bk := ps[0].Hash >> 16 & (p4src.VerdictBuckets - 1)
		if ps[0].FilterGroup != "F3" || (len(buckets) >= 12 && !buckets[bk]) {
			continue
		}
		buckets[bk] = true
		fs = append(fs, frames.Frame([]byte{0, 0x11, 0x22, 0x33, 0x44, 0x55}, []byte{0, 0x66, 0x77, 0x88, 0x99, 0xaa},
			frames.Encap{}, frames.L3{Src: src, Dst: dst, Proto: layers.IPProtocolTCP, SrcPort: 40000, DstPort: 443}))
	}
	require.Len(t, buckets, 12, "sessions of 12 buckets on F3")
	dctx, dcancel := context.WithCancel(ctx)
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		for dctx.Err() == nil {
			b.peers[10].Recv(20 * time.Millisecond) // L1's WAN side: what comes back
		}
	}()
	defer func() { dcancel(); <-drained }()

	before, err := d.Counters(ctx)
	require.NoError(t, err)
	stop() // the controller is gone: no keep-alive, no write
	f3 := b.filters["F3"]
	f3.alive.Store(false)
	got0 := f3.got.Load()
	// The switch's own counters (read from the software switch, not
	// through the product): F3's to-filter count and the verdict drops.
	toF3 := func() uint64 {
		return b.counterPackets(p4src.CounterFilterGroup, int64(p4src.FilterGroupCounterIndex(2, p4src.FGCntToFilter)))
	}
	verdictDropped := func() uint64 { return b.counterPackets(p4src.CounterDrop, p4src.DropVerdict) }
	toF30, dropped0 := toF3(), verdictDropped()
	detect := 200 * time.Millisecond // testdata/verdict.yaml: 5 x 40ms
	start := time.Now()
	var sent, late int
	for i := 0; time.Since(start) < 3*detect; i++ {
		require.NoError(t, b.peers[20].Send(fs[i%len(fs)]))
		sent++
		if time.Since(start) > detect+100*time.Millisecond {
			late++
		}
		time.Sleep(2 * time.Millisecond) // pacing: a frame every 2 ms for 3 detection times
	}
	_, set := b.sw.Dataplane().Verdict(2)
	require.True(t, set, "the pipeline proved F3's loss")

	// Waited for: every frame sent has crossed the switch (sent to F3 or
	// dropped by the verdict, by the switch's counters) and every frame
	// it sent F3 reached the emulator (a memory port tells nobody when its
	// queue is empty). Read before a controller sends keep-alives again.
	var reached uint64
	for deadline := time.Now().Add(10 * time.Second); ; {
		reached = f3.got.Load() - got0
		switched, dropped := toF3()-toF30, verdictDropped()-dropped0
		if switched+dropped == uint64(sent) && reached == switched {
			break
		}
		require.True(t, time.Now().Before(deadline), "of %d frames sent, the switch sent F3 %d and dropped %d by the verdict; F3 got %d",
			sent, switched, dropped, reached)
		time.Sleep(time.Millisecond) // polling the counters
	}

	// A controller reads the counters back.
	d2, _ := b.startDaemon(20)
	var after *Counters
	require.Eventually(t, func() bool {
		if after, err = d2.Counters(ctx); err != nil {
			return false // not connected yet
		}
		return after.Filters[2].ToFilter.Packets-before.Filters[2].ToFilter.Packets == reached
	}, 5*time.Second, 10*time.Millisecond, "F3's to-filter count is what reached it (%d)", reached)
	var verdictDrops uint64
	for i, dr := range after.Drops {
		n := dr.Count.Packets - before.Drops[i].Count.Packets
		if dr.Reason == p4src.DropReasonName(p4src.DropVerdict) {
			verdictDrops = n
		} else {
			assert.Zero(t, n, "drop reason %s", dr.Reason)
		}
	}
	linkDropped := after.Links[0].Dropped.Packets - before.Links[0].Dropped.Packets
	t.Logf("sent %d frames to dead F3 (%d after detection + 100ms): %d reached it, %d dropped by the verdict; link L1 dropped %d",
		sent, late, reached, verdictDrops, linkDropped)
	assert.Equal(t, uint64(sent), reached+verdictDrops, "every frame reached F3 or was dropped by the verdict")
	assert.Equal(t, verdictDrops, linkDropped, "link L1's dropped count")
	assert.Equal(t, verdictDrops, after.Filters[2].VerdictDrop.Packets-before.Filters[2].VerdictDrop.Packets, "F3's verdict-drop count")
	assert.Equal(t, before.Filters[2].VerdictBypass, after.Filters[2].VerdictBypass, "F3's verdict-bypass count")
	assert.GreaterOrEqual(t, verdictDrops, uint64(late), "every frame sent after detection was dropped")
	assert.Positive(t, reached, "F3 got its frames until its loss was proven")
	for _, i := range []int{0, 1} {
		assert.Equal(t, before.Filters[i].ToFilter, after.Filters[i].ToFilter, "%s got nothing", after.Filters[i].Name)
	}
}
