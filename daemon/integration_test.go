package daemon

import (
	"context"
	"encoding/binary"
	"fmt"
	"log/slog"
	"math/rand"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/controlplane"
	"github.com/dpi-balancer/balancer/internal/testsites"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/profiles"
	"github.com/dpi-balancer/balancer/sim"
)

// filterEmu is a DPI filter between two switch ports: it passes frames
// LAN<->WAN unchanged while alive. setDelay makes it hold every frame
// for a round-trip delay before passing it on (in order, a delay line);
// setLoss makes it lose a share of the frames at random, from a seeded
// source. A healthy filter drops the fail-open probes (frames its DPI
// blocks); passAll makes it fail open: it passes every frame, probes
// too.
type filterEmu struct {
	lan, wan *sim.MemPeer
	alive    atomic.Bool
	got      atomic.Uint64 // frames that reached the filter (alive or not)
	data     atomic.Uint64 // of them, data frames (not keep-alives)
	delay    atomic.Int64  // ns each frame is held; 0: passed at once
	// loss: the share of frames lost, in millionths; lostKA and passedKA
	// count the keep-alives it lost and passed while alive (LAN to WAN,
	// the direction probed).
	loss             atomic.Uint32
	lostKA, passedKA atomic.Uint64
	// passAll: failed open (probes pass); probes counts the fail-open
	// probes that reached it, probesPassed those it passed.
	passAll              atomic.Bool
	probes, probesPassed atomic.Uint64
	// firstPassAt: when it passed its first probe (unix ns);
	// probesAtFirst: how many probes had reached it then.
	firstPassAt   atomic.Int64
	probesAtFirst atomic.Uint64
	mu            sync.Mutex
	rng           *rand.Rand
	// rounds: when each keep-alive round's LAN-to-WAN keep-alive reached
	// the filter (alive or not), to count rounds between two instants.
	roundsMu sync.Mutex
	rounds   []roundSeen
}

// maxRoundsSeen bounds the rounds a filter emulator remembers (the
// latest; a soak runs for minutes).
const maxRoundsSeen = 1 << 14

type roundSeen struct {
	at  time.Time
	seq uint32
}

// roundsIn is how many keep-alive rounds reached the filter after from
// and at or before to (their LAN-to-WAN keep-alives): the engine's
// rounds in that time, whatever the host's scheduling stretched them to.
func (f *filterEmu) roundsIn(from, to time.Time) int {
	f.roundsMu.Lock()
	defer f.roundsMu.Unlock()
	seqs := map[uint32]bool{}
	for _, r := range f.rounds {
		if r.at.After(from) && !r.at.After(to) {
			seqs[r.seq] = true
		}
	}
	return len(seqs)
}

// setDelay holds every frame d before passing it on (0: at once).
func (f *filterEmu) setDelay(d time.Duration) { f.delay.Store(int64(d)) }

// setLoss loses share (0..1) of the frames at random, drawn from a
// source seeded with seed; the keep-alive counts start again.
func (f *filterEmu) setLoss(share float64, seed int64) {
	f.mu.Lock()
	f.rng = rand.New(rand.NewSource(seed))
	f.mu.Unlock()
	f.lostKA.Store(0)
	f.passedKA.Store(0)
	f.loss.Store(uint32(share * 1e6))
}

// lose draws whether to lose a frame.
func (f *filterEmu) lose() bool {
	share := f.loss.Load()
	if share == 0 {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rng.Uint32()%1_000_000 < share
}

// delayLine is how many frames a direction may hold in its delay line
// (more are lost: a filter's buffer is finite).
const delayLine = 4096

type heldFrame struct {
	frame []byte
	due   time.Time
}

func (f *filterEmu) run(ctx context.Context) {
	pass := func(from, to *sim.MemPeer, probed bool) {
		line := make(chan heldFrame, delayLine)
		go func() {
			for {
				select {
				case <-ctx.Done():
					return
				case h := <-line:
					if w := time.Until(h.due); w > 0 {
						time.Sleep(w) // the delay line: a frame is held for its wall-time delay
					}
					_ = to.Send(h.frame)
				}
			}
		}()
		for ctx.Err() == nil {
			fr, err := from.Recv(20 * time.Millisecond)
			if err != nil {
				continue
			}
			f.got.Add(1)
			keepAlive := len(fr) >= 14 && binary.BigEndian.Uint16(fr[12:14]) == wire.DefaultKeepAliveEtherType
			if !keepAlive {
				f.data.Add(1)
			}
			if keepAlive && probed && !profiles.IsProbe(fr, wire.DefaultKeepAliveEtherType) {
				if ka, err := wire.DecodeKeepAlive(fr, wire.DefaultKeepAliveEtherType); err == nil {
					f.roundsMu.Lock()
					if len(f.rounds) >= maxRoundsSeen {
						f.rounds = append(f.rounds[:0], f.rounds[maxRoundsSeen/2:]...) // the latest half
					}
					f.rounds = append(f.rounds, roundSeen{time.Now(), ka.Seq})
					f.roundsMu.Unlock()
				}
			}
			if !f.alive.Load() {
				continue
			}
			if keepAlive && profiles.IsProbe(fr, wire.DefaultKeepAliveEtherType) {
				f.probes.Add(1)
				if !f.passAll.Load() {
					continue // its DPI blocks the probe's payload
				}
				if f.probesPassed.Add(1) == 1 {
					f.firstPassAt.Store(time.Now().UnixNano())
					f.probesAtFirst.Store(f.probes.Load())
				}
			}
			if f.lose() {
				if keepAlive && probed {
					f.lostKA.Add(1)
				}
				continue
			}
			if keepAlive && probed {
				f.passedKA.Add(1)
			}
			d := time.Duration(f.delay.Load())
			if d <= 0 && len(line) == 0 {
				_ = to.Send(fr)
				continue
			}
			select {
			case line <- heldFrame{fr, time.Now().Add(d)}:
			default: // the line is full: lost
			}
		}
	}
	go pass(f.lan, f.wan, true)
	go pass(f.wan, f.lan, false)
}

type bed struct {
	t       testing.TB
	sw      *sim.Switch
	addr    string
	gaddr   string
	filters map[string]*filterEmu
	peers   map[uint32]*sim.MemPeer
	dir     string
	config  string        // initial configuration file
	schema  *p4src.Schema // the program switch and daemon run (nil: the committed build)
	// pipeline is pushed by the daemons (nil: the embedded build, or
	// schema's): a software switch of Tofino's slots gets the program
	// sized so.
	pipeline *controlplane.Pipeline
	// cpuPort is the switch's CPU port, given to the bed's daemons (0:
	// the default).
	cpuPort uint32
}

// newBed serves a software switch for testdata/fast.yaml: link ports with
// nothing attached, and a filter emulator per filter group.
func newBed(t testing.TB) *bed { return newBedFor(t, "testdata/fast.yaml", 0) }

// newBedFor serves a software switch (of slotCapacity slots, 0 = the
// P4Info's) for a configuration with testdata/fast.yaml's ports and filter
// groups. The switch runs the CPU port of the configuration's platform
// (192 for wedge100bf-32x), as the daemon gives it.
func newBedFor(t testing.TB, configPath string, slotCapacity int) *bed {
	t.Helper()
	return newBedWith(t, configPath, slotCapacity, nil)
}

// platformCPUPort is the CPU port of the platform of the configuration
// at path (0, the default, for sim and bmv2).
func platformCPUPort(t testing.TB, path string) uint32 {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	cfg, err := config.Parse(data)
	require.NoError(t, err)
	p, err := config.LookupPlatform(cfg.Platform)
	require.NoError(t, err)
	if p.CPUPort == p4src.CPUPortBMv2 {
		return 0
	}
	return p.CPUPort
}

// newBedWith is newBedFor running the program of schema (nil: the
// committed v1model build) on the switch and in the daemon.
func newBedWith(t testing.TB, configPath string, slotCapacity int, schema *p4src.Schema) *bed {
	t.Helper()
	return newBedCPU(t, configPath, slotCapacity, schema, platformCPUPort(t, configPath))
}

// newBedCPU is newBedWith on a switch whose CPU port is cpuPort (0: the
// default, 255); the bed's daemons are given it.
func newBedCPU(t testing.TB, configPath string, slotCapacity int, schema *p4src.Schema, cpuPort uint32) *bed {
	t.Helper()
	return newBedFilters(t, configPath, slotCapacity, schema, cpuPort, bedFilters)
}

// bedFilters are the bed's filter emulators: name -> {LAN port, WAN
// port}, testdata/fast.yaml's.
var bedFilters = map[string][2]uint32{"F1": {40, 30}, "F2": {60, 50}, "F3": {80, 70}}

// newBedFilters is newBedCPU with the given filter emulators (name ->
// {LAN port, WAN port}) beside the link ports 10 and 20.
func newBedFilters(t testing.TB, configPath string, slotCapacity int, schema *p4src.Schema, cpuPort uint32, filters map[string][2]uint32) *bed {
	t.Helper()
	return newBedTuned(t, configPath, slotCapacity, schema, cpuPort, filters, nil)
}

// newBedTuned is newBedFilters with the switch's options changed by tune
// (nil: as they are).
func newBedTuned(t testing.TB, configPath string, slotCapacity int, schema *p4src.Schema, cpuPort uint32, filters map[string][2]uint32,
	tune func(*sim.Options)) *bed {
	t.Helper()
	b := &bed{t: t, filters: map[string]*filterEmu{}, peers: map[uint32]*sim.MemPeer{}, dir: t.TempDir(), config: configPath, schema: schema, cpuPort: cpuPort}
	ports := map[uint32]sim.Port{}
	portNums := []uint32{10, 20}
	for _, pp := range filters {
		portNums = append(portNums, pp[0], pp[1])
	}
	for _, n := range portNums {
		p, peer := sim.NewMemPort(1024)
		ports[n], b.peers[n] = p, peer
	}
	ctx, cancel := context.WithCancel(context.Background())
	for name, pp := range filters {
		f := &filterEmu{lan: b.peers[pp[0]], wan: b.peers[pp[1]]}
		f.alive.Store(true)
		f.run(ctx)
		b.filters[name] = f
	}
	opts := sim.Options{Ports: ports, CounterInterval: 50 * time.Millisecond, SlotCapacity: slotCapacity, Schema: schema, CPUPort: cpuPort}
	if tune != nil {
		tune(&opts)
	}
	sw, err := sim.New(opts)
	require.NoError(t, err)
	if slotCapacity == p4src.SlotsSizeTofino {
		info, err := testsites.TofinoSizedP4Info()
		require.NoError(t, err)
		b.pipeline = &controlplane.Pipeline{P4Info: info, DeviceConfig: p4src.BMv2JSON}
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	glis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	b.sw, b.addr, b.gaddr = sw, lis.Addr().String(), glis.Addr().String()
	done := make(chan error, 1)
	go func() { done <- sw.Serve(ctx, lis, glis) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return b
}

var testLogger = func() *slog.Logger {
	if os.Getenv("DEBUG_DAEMON") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	return nil
}()

// startDaemon runs a daemon on the bed until the test ends (or stop).
func (b *bed) startDaemon(election uint64) (*Daemon, func()) {
	b.t.Helper()
	pipe := b.pipeline
	if pipe == nil && b.schema != nil {
		pipe = &controlplane.Pipeline{P4Info: b.schema.Info, DeviceConfig: p4src.BMv2JSON}
	}
	d, err := New(Options{StateDir: b.dir, InitialConfig: b.config, SwitchAddr: b.addr, SwitchGNMI: b.gaddr, Pipeline: pipe,
		DeviceID: 1, ElectionLow: election, Tick: time.Millisecond, CounterInterval: time.Hour, Logger: testLogger, CPUPort: b.cpuPort})
	require.NoError(b.t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		d.Run(ctx)
	}()
	var once sync.Once
	stop := func() { once.Do(func() { cancel(); wg.Wait() }) }
	b.t.Cleanup(stop)
	return d, stop
}

// fgAction reads a filter group's entry from the switch.
func (b *bed) fgAction(id uint32) string {
	s := b.sw.Dataplane().Schema()
	t, _ := s.Table(p4src.TableFilterGroups)
	var out string
	_ = b.sw.Dataplane().Read([]*p4v1.Entity{{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: t.GetPreamble().GetId()}}}},
		func(e *p4v1.Entity) bool {
			te := e.GetTableEntry()
			if len(te.GetMatch()) == 1 && wire.Uint(te.GetMatch()[0].GetExact().GetValue()) == uint64(id) {
				out = s.ActionByID(te.GetAction().GetAction().GetActionId()).GetPreamble().GetName()
			}
			return true
		})
	return out
}

func (b *bed) waitFG(id uint32, action string, within time.Duration) time.Duration {
	b.t.Helper()
	start := time.Now()
	require.Eventually(b.t, func() bool { return b.fgAction(id) == action }, within, time.Millisecond,
		"filter group %d never became %s (is %s)", id, action, b.fgAction(id))
	return time.Since(start)
}

func (b *bed) allUp(d *Daemon) {
	b.t.Helper()
	require.Eventually(b.t, func() bool {
		st, err := d.Status(context.Background())
		if err != nil {
			return false
		}
		for _, f := range st.Filters {
			if f.State != "up" || b.fgAction(f.ID) != p4src.ActionFilterForward {
				return false // proven, and forwarding on the switch
			}
		}
		return st.Switch.Primary && !st.Switch.StatePending
	}, 60*time.Second, 2*time.Millisecond)
}

func TestDaemonFailoverAndRecovery(t *testing.T) {
	b := newBed(t)
	d, _ := b.startDaemon(10)
	b.allUp(d)
	assert.Equal(t, p4src.ActionFilterForward, b.fgAction(1))

	// F2 stops answering: software bypass within loss threshold x interval
	// (3 x 10ms) plus up to one interval before the first lost probe and
	// scheduling slack.
	b.filters["F2"].alive.Store(false)
	took := b.waitFG(1, p4src.ActionFilterSWBypass, 2*time.Second)
	t.Logf("keep-alive loss -> software bypass in %v (threshold x interval = 30ms)", took)
	assert.Equal(t, p4src.ActionFilterForward, b.fgAction(0), "other groups untouched")
	assert.Equal(t, p4src.ActionFilterForward, b.fgAction(2), "other groups untouched")
	st, _ := d.Status(context.Background())
	assert.Equal(t, "down", st.Filters[1].State)
	// Whichever proves it first at threshold x interval: the controller's
	// keep-alive count or the pipeline (the committed program judges its
	// filters too).
	assert.Contains(t, []string{"keep-alive loss", "data-plane verdict"}, st.Filters[1].Reason)

	// It recovers after the recovery threshold.
	b.filters["F2"].alive.Store(true)
	b.waitFG(1, p4src.ActionFilterForward, 2*time.Second)

	// A filter port going down (gNMI ON_CHANGE) bypasses at once.
	b.peers[70].SetCarrier(false)
	took = b.waitFG(2, p4src.ActionFilterSWBypass, 2*time.Second)
	t.Logf("port down -> software bypass in %v", took)
	b.peers[70].SetCarrier(true)
	b.waitFG(2, p4src.ActionFilterForward, 3*time.Second)
}

// A restarted daemon in front of a programmed switch writes nothing.
func TestDaemonRestartWritesNothing(t *testing.T) {
	b := newBed(t)
	d, stop := b.startDaemon(10)
	b.allUp(d)
	stop()
	d2, _ := b.startDaemon(20)
	b.allUp(d2)
	// Let a few keep-alive rounds pass (30 packet-outs: 3 filters,
	// at least 5 rounds), then count.
	out := d2.Session().Stats().PacketsOut
	require.Eventually(t, func() bool { return d2.Session().Stats().PacketsOut >= out+30 }, 10*time.Second, time.Millisecond)
	st := d2.Session().Stats()
	assert.Equal(t, uint64(0), st.PipelinePushes)
	assert.Equal(t, uint64(0), st.Updates, "zero data-plane writes after a daemon restart")
}

// An invalid configuration is rejected whole; a valid one is applied and
// saved; rollback returns to an earlier revision.
func TestDaemonApplyRejectRollback(t *testing.T) {
	b := newBed(t)
	d, _ := b.startDaemon(10)
	b.allUp(d)
	ctx := context.Background()
	_, rev0, _ := d.Config(ctx)

	_, err := d.ApplyConfig(ctx, []byte("links: [{name: X, lan: P99, wan: P1}]\n"), false, "bad")
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrInvalid)
	_, rev, _ := d.Config(ctx)
	assert.Equal(t, rev0, rev, "the running configuration is unchanged")

	data, err := os.ReadFile("testdata/fast.yaml")
	require.NoError(t, err)
	changed := append(data, []byte("  - {name: bgp, priority: 100, match: {proto: tcp, l4_port: 179}, action: bypass}\n")...)
	res, err := d.ApplyConfig(ctx, changed, true, "dry")
	require.NoError(t, err)
	assert.True(t, res.DryRun)
	assert.Equal(t, []string{"+ rule bgp"}, res.Changes)
	assert.Equal(t, 4, res.Inserts, "2 entries in each rule table")
	res, err = d.ApplyConfig(ctx, changed, false, "add bgp")
	require.NoError(t, err)
	assert.True(t, res.Written)
	assert.Equal(t, 4, res.Inserts)
	assert.Equal(t, rev0.Number+1, res.Revision.Number)

	// The same file again changes nothing: no revision.
	res, err = d.ApplyConfig(ctx, changed, false, "again")
	require.NoError(t, err)
	assert.True(t, res.Unchanged)
	assert.Equal(t, rev0.Number+1, res.Revision.Number, "the running revision")
	assert.Empty(t, res.Changes)

	// A rollback can be previewed; nothing is saved.
	res, err = d.Rollback(ctx, rev0.Number, true, "")
	require.NoError(t, err)
	assert.True(t, res.DryRun)
	assert.Equal(t, []string{"- rule bgp"}, res.Changes)
	assert.Equal(t, 4, res.Deletes)
	_, rev, _ = d.Config(ctx)
	assert.Equal(t, rev0.Number+1, rev.Number, "a dry run saves nothing")

	res, err = d.Rollback(ctx, rev0.Number, false, "back to the start")
	require.NoError(t, err)
	assert.Equal(t, []string{"- rule bgp"}, res.Changes)
	assert.Equal(t, 4, res.Deletes)
	assert.Equal(t, "back to the start", res.Revision.Comment)
	// Rolling back again to what runs makes no revision.
	res, err = d.Rollback(ctx, rev0.Number, false, "")
	require.NoError(t, err)
	assert.True(t, res.Unchanged)
	h, err := d.History(ctx)
	require.NoError(t, err)
	assert.Len(t, h, 3)

	// Every kept revision reads back as saved.
	y, r, err := d.RevisionYAML(ctx, rev0.Number+1)
	require.NoError(t, err)
	assert.Equal(t, string(changed), string(y))
	assert.Equal(t, "add bgp", r.Comment)
	_, _, err = d.RevisionYAML(ctx, 999)
	assert.ErrorIs(t, err, ErrNotFound)

	// A filter group that does not exist: the message lists those that do.
	err = d.SetBypass(ctx, "NOSUCH", true)
	assert.ErrorIs(t, err, ErrNotFound)
	assert.EqualError(t, err, `unknown filter group "NOSUCH"; the filter groups are F1, F2, F3`)
}

// benchSites are the sites the failover benchmarks run on: the small test
// site, and the same filters behind 1,000 flow rules and 2 x 65,536 slots
// (Tofino's slot table) on a software switch that holds them.
func benchSites(b *testing.B, f func(b *testing.B, bd *bed)) {
	b.Run("site=small", func(b *testing.B) { f(b, newBed(b)) })
	b.Run("site=big", func(b *testing.B) {
		path := filepath.Join(b.TempDir(), "big.yaml")
		require.NoError(b, os.WriteFile(path, []byte(bigSiteYAML(16)), 0o644))
		f(b, newBedFor(b, path, 2<<16))
	})
}

// bigSiteYAML is testdata/fast.yaml's ports and filters on a Tofino
// platform (port_map keeps the software switch's port numbers) with 1,000
// rules and two balance groups of 2^slotBits slots: G1 of F1 and F2, G2
// of F3.
func bigSiteYAML(slotBits int) string {
	var sb strings.Builder
	sb.WriteString("site: big\nplatform: wedge100bf-32x\nport_map: {P1: 10, P2: 20, P3: 30, P4: 40, P5: 50, P6: 60, P7: 70, P8: 80}\nports:\n")
	for p := 1; p <= 8; p++ {
		fmt.Fprintf(&sb, "  - {port: %d, speed: 100G}\n", p)
	}
	sb.WriteString("links:\n  - {name: L1, lan: P2, wan: P1}\n")
	sb.WriteString("filter_groups:\n  - {name: F1, lan: P4, wan: P3, cores: 4}\n  - {name: F2, lan: P6, wan: P5, cores: 4}\n  - {name: F3, lan: P8, wan: P7, cores: 4}\n")
	sb.WriteString("profiles:\n  - {name: fast, initial_delay: 20ms, interval: 10ms, loss_threshold: 3, recovery_threshold: 3, min_active: 1, failure_action: bypass}\n")
	fmt.Fprintf(&sb, "balance_groups:\n  - {name: G1, members: [F1, F2], profile: fast, slot_bits: %d}\n  - {name: G2, members: [F3], profile: fast, slot_bits: %d}\nrules:\n", slotBits, slotBits)
	testsites.WriteRules(&sb, 1000)
	return sb.String()
}

// waitFGFast polls the switch for a filter group's action every 200µs, so
// the measurement resolution is well below the latencies measured.
func (b *bed) waitFGFast(id uint32, action string, within time.Duration) time.Duration {
	b.t.Helper()
	start := time.Now()
	require.EventuallyWithT(b.t, func(c *assert.CollectT) {
		is := b.fgAction(id)
		assert.Equal(c, action, is, "filter group %d never became %s (is %s)", id, action, is)
	}, within, 200*time.Microsecond)
	return time.Since(start)
}

// BenchmarkPortDownToBypass measures how long a filter port going down
// takes to put its filter group in software bypass on the switch (gNMI
// ON_CHANGE -> engine -> P4Runtime write), and reports p50/p99, on the
// small and the big site.
func BenchmarkPortDownToBypass(b *testing.B) {
	benchSites(b, func(b *testing.B, bd *bed) {
		d, _ := bd.startDaemon(10)
		bd.allUp(d)
		var lat []time.Duration
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			bd.peers[70].SetCarrier(false)
			lat = append(lat, bd.waitFGFast(2, p4src.ActionFilterSWBypass, 5*time.Second))
			b.StopTimer()
			bd.peers[70].SetCarrier(true)
			bd.waitFG(2, p4src.ActionFilterForward, 5*time.Second)
			b.StartTimer()
		}
		reportPercentiles(b, lat)
	})
}

// BenchmarkKeepAliveLossToBypass measures keep-alive loss -> software
// bypass, and reports p50/p99 beyond the detection time (3 x 10ms), on the
// small and the big site.
func BenchmarkKeepAliveLossToBypass(b *testing.B) {
	benchSites(b, func(b *testing.B, bd *bed) {
		d, _ := bd.startDaemon(10)
		bd.allUp(d)
		var lat, afterVerdict []time.Duration
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			bd.filters["F3"].alive.Store(false)
			lat = append(lat, bd.waitFGFast(2, p4src.ActionFilterSWBypass, 5*time.Second)-30*time.Millisecond)
			seen := time.Now()
			b.StopTimer()
			st, err := d.Status(context.Background())
			require.NoError(b, err)
			require.Equal(b, "down", st.Filters[2].State)
			afterVerdict = append(afterVerdict, seen.Sub(st.Filters[2].Since))
			bd.filters["F3"].alive.Store(true)
			bd.waitFG(2, p4src.ActionFilterForward, 5*time.Second)
			b.StartTimer()
		}
		reportPercentiles(b, lat)
		sort.Slice(afterVerdict, func(i, j int) bool { return afterVerdict[i] < afterVerdict[j] })
		b.ReportMetric(float64(afterVerdict[len(afterVerdict)/2].Microseconds()), "verdict-to-switch-p50-µs")
		b.ReportMetric(float64(afterVerdict[int(0.99*float64(len(afterVerdict)-1))].Microseconds()), "verdict-to-switch-p99-µs")
	})
}

func reportPercentiles(b *testing.B, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	p := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))].Microseconds()) }
	b.ReportMetric(p(0.5), "p50-µs")
	b.ReportMetric(p(0.99), "p99-µs")
}
