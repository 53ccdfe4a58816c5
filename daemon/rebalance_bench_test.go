package daemon

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	grpcproto "google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"

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
// The move is split (p50 of each over the moves, ms): detect-ms from the
// death to the state owner starting the write (the keep-alive detection
// and the engine's hand-over), compute-ms the entries' computation
// (tables.WithState), write-ms the session's write up to the switch's
// last acknowledgement; within the write, encode-ms is the controller's
// proto encoding of the Write requests, decode-ms the switch's decoding
// of them and apply-ms the switch's handling of them (the Write handler:
// checks and the data plane's apply), each summed over the requests
// (requests overlap: the write is pipelined). gc-cycles is the collector
// cycles of the benchmark's process per move (mean).
//
// switch=process runs the software switch and the filter emulators in
// a process of their own (this test binary, serveRebalanceSwitch), so
// the daemon's process holds the daemon alone: its heap, its collector;
// decode-ms and apply-ms are then the switch process's.
//
// F2 recovers between moves (its slots move back; not measured).
func BenchmarkRebalanceSlotMove(b *testing.B) {
	for _, site := range []string{"small", "big"} {
		for _, where := range []string{"in-process", "process"} {
			b.Run("site="+site+"/switch="+where, func(b *testing.B) {
				path, slotCap := rebalanceSite(b, site)
				var floor time.Duration
				if site == "big" && where == "in-process" {
					floor = moveFloor(b, rebalanceYAML())
				}
				var bd *bed
				var sw rebalanceSwitch
				if where == "in-process" {
					bd = newBedTuned(b, path, slotCap, nil, platformCPUPort(b, path), bedFilters, func(o *sim.Options) {
						o.GRPCOptions = append(o.GRPCOptions, grpc.ChainUnaryInterceptor(timeApply))
					})
					sw = inProcessSwitch{bd}
				} else {
					var ps *rebalanceProcess
					bd, ps = rebalanceSwitchProcess(b, path, slotCap)
					sw = ps
				}
				rebalanceMoves(b, bd, sw, floor)
			})
		}
	}
}

// rebalanceSite writes the site's configuration with failure action
// rebalance and returns its path and the switch's slot capacity (0: the
// default).
func rebalanceSite(b *testing.B, site string) (string, int) {
	path := filepath.Join(b.TempDir(), site+".yaml")
	if site == "small" {
		data, err := os.ReadFile("testdata/fast.yaml")
		require.NoError(b, err)
		require.NoError(b, os.WriteFile(path, []byte(strings.ReplaceAll(string(data), "failure_action: bypass", "failure_action: rebalance")), 0o644))
		return path, 0
	}
	// The software switch's slot table is the platform's, which holds
	// both balance groups.
	cfg, err := config.Parse([]byte(bigSiteYAML(16)))
	require.NoError(b, err)
	p, err := config.LookupPlatform(cfg.Platform)
	require.NoError(b, err)
	require.Equal(b, p4src.SlotsSizeTofino, p.SlotCapacity, "the bed's pipeline is sized for Tofino")
	require.GreaterOrEqual(b, p.SlotCapacity, 2<<16)
	require.NoError(b, os.WriteFile(path, []byte(rebalanceYAML()), 0o644))
	return path, p.SlotCapacity
}

// rebalanceYAML is the big site with failure action rebalance.
func rebalanceYAML() string {
	return strings.ReplaceAll(bigSiteYAML(16), "failure_action: bypass", "failure_action: rebalance")
}

// rebalanceSwitch is where the bed's switch and filters run.
type rebalanceSwitch interface {
	setAlive(name string, alive bool)
	// times is the switch's decode and apply time of the Write requests
	// so far.
	times() (decode, apply time.Duration)
}

type inProcessSwitch struct{ bd *bed }

func (s inProcessSwitch) setAlive(name string, alive bool) { s.bd.filters[name].alive.Store(alive) }
func (inProcessSwitch) times() (time.Duration, time.Duration) {
	return time.Duration(writeTimes.decode.Load()), time.Duration(writeTimes.apply.Load())
}

// moveSplit is one move's time by part.
type moveSplit struct {
	total, detect, compute, write, encode, decode, apply time.Duration
	gc                                                   uint64
}

func rebalanceMoves(b *testing.B, bd *bed, sw rebalanceSwitch, floor time.Duration) {
	d, _ := bd.startDaemon(10)
	var (
		mu     sync.Mutex
		writes []moveSplit // by the hook: start, compute and write
	)
	d.stateWritten = func(start, computed, written time.Time, _ int) {
		mu.Lock()
		writes = append(writes, moveSplit{compute: computed.Sub(start), write: written.Sub(computed), detect: time.Duration(start.UnixNano())})
		mu.Unlock()
	}
	waitAllUp(b, bd, d)
	var moves []moveSplit
	entries := 0
	gcCycles := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	for b.Loop() { // the timer starts here
		before := d.currentSite().Layouts()
		mu.Lock()
		writes = writes[:0]
		mu.Unlock()
		enc0 := writeTimes.encode.Load()
		dec0, app0 := sw.times()
		metrics.Read(gcCycles)
		gc0 := gcCycles[0].Value.Uint64()
		died := time.Now()
		sw.setAlive("F2", false)
		waitWritten(b, d, func(st tables.State) bool { return st.Rebalanced["F2"] }, "F2's slots never moved")
		m := moveSplit{total: time.Since(died)}
		b.StopTimer()
		metrics.Read(gcCycles)
		m.gc = gcCycles[0].Value.Uint64() - gc0
		m.encode = time.Duration(writeTimes.encode.Load() - enc0)
		dec1, app1 := sw.times()
		m.decode, m.apply = dec1-dec0, app1-app0
		mu.Lock()
		// The move is the last write (a bypass may be written first).
		require.NotEmpty(b, writes, "no state written")
		first, last := writes[0], writes[len(writes)-1]
		m.detect = time.Duration(first.detect) - time.Duration(died.UnixNano())
		m.compute, m.write = last.compute, last.write
		mu.Unlock()
		moves = append(moves, m)
		entries = movedSlots(before, d.currentSite().Layouts())
		require.Positive(b, entries, "a rebalance that moved no slot")
		sw.setAlive("F2", true)
		waitWritten(b, d, func(st tables.State) bool { return !st.Rebalanced["F2"] && st.FilterGroups["F2"] == tables.FGForward },
			"F2 never recovered")
		b.StartTimer()
	}
	b.StopTimer()
	pct := func(get func(moveSplit) float64, q float64) float64 {
		v := make([]float64, len(moves))
		for i, m := range moves {
			v[i] = get(m)
		}
		sort.Float64s(v)
		return v[int(q*float64(len(v)-1))]
	}
	ms := func(get func(moveSplit) time.Duration) func(moveSplit) float64 {
		return func(m moveSplit) float64 { return float64(get(m).Microseconds()) / 1000 }
	}
	total := ms(func(m moveSplit) time.Duration { return m.total })
	b.ReportMetric(pct(total, 0.5), "slot-move-p50-ms")
	b.ReportMetric(pct(total, 0.99), "slot-move-p99-ms")
	b.ReportMetric(pct(ms(func(m moveSplit) time.Duration { return m.detect }), 0.5), "detect-ms")
	b.ReportMetric(pct(ms(func(m moveSplit) time.Duration { return m.compute }), 0.5), "compute-ms")
	b.ReportMetric(pct(ms(func(m moveSplit) time.Duration { return m.write }), 0.5), "write-ms")
	b.ReportMetric(pct(ms(func(m moveSplit) time.Duration { return m.encode }), 0.5), "encode-ms")
	b.ReportMetric(pct(ms(func(m moveSplit) time.Duration { return m.decode }), 0.5), "decode-ms")
	b.ReportMetric(pct(ms(func(m moveSplit) time.Duration { return m.apply }), 0.5), "apply-ms")
	var gcs uint64
	for _, m := range moves {
		gcs += m.gc
	}
	b.ReportMetric(float64(gcs)/float64(len(moves)), "gc-cycles")
	b.ReportMetric(float64(entries), "slots-moved")
	if floor > 0 {
		b.ReportMetric(float64(floor.Microseconds())/1000, "switch-floor-ms")
	}
}

// waitAllUp waits for every filter group up and forwarding as written to
// the switch (bd.allUp, without reading the switch: it may be in
// another process).
func waitAllUp(b *testing.B, bd *bed, d *Daemon) {
	require.Eventually(b, func() bool {
		st, err := d.Status(context.Background())
		if err != nil || !st.Switch.Primary || st.Switch.StatePending || len(st.Filters) == 0 {
			return false
		}
		written := d.snapshot().written
		for _, f := range st.Filters {
			if f.State != "up" || written.FilterGroups[f.Name] != tables.FGForward {
				return false
			}
		}
		return true
	}, 60*time.Second, 2*time.Millisecond)
}

// writeTimes is this process's time encoding (client) and decoding
// (server) P4Runtime Write requests, and handling them (the switch's
// Write handler), in ns (timingCodec, timeApply).
var writeTimes struct{ encode, decode, apply atomic.Int64 }

// timingCodec is gRPC's proto codec, timing the Write requests'
// encoding and decoding (registered for this test binary: two clock
// reads per Write request, nothing else changes).
type timingCodec struct{ encoding.CodecV2 }

func (c timingCodec) Marshal(v any) (mem.BufferSlice, error) {
	if _, ok := v.(*p4v1.WriteRequest); ok {
		t0 := time.Now()
		defer func() { writeTimes.encode.Add(int64(time.Since(t0))) }()
	}
	return c.CodecV2.Marshal(v)
}

func (c timingCodec) Unmarshal(data mem.BufferSlice, v any) error {
	if _, ok := v.(*p4v1.WriteRequest); ok {
		t0 := time.Now()
		defer func() { writeTimes.decode.Add(int64(time.Since(t0))) }()
	}
	return c.CodecV2.Unmarshal(data, v)
}

func init() {
	encoding.RegisterCodecV2(timingCodec{encoding.GetCodecV2(grpcproto.Name)})
}

// timeApply times the switch's Write handler.
func timeApply(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if info.FullMethod != p4v1.P4Runtime_Write_FullMethodName {
		return handler(ctx, req)
	}
	t0 := time.Now()
	defer func() { writeTimes.apply.Add(int64(time.Since(t0))) }()
	return handler(ctx, req)
}

// rebalanceSwitchEnv makes the test binary the switch and filter
// emulators of a rebalance bed (serveRebalanceSwitch): its value is
// "<slot capacity> <CPU port>".
const rebalanceSwitchEnv = "BALANCER_TEST_REBALANCE_SWITCH"

// rebalanceProcess is the switch process of a rebalance bed.
type rebalanceProcess struct {
	mu  sync.Mutex
	in  io.Writer
	out *bufio.Reader
}

// ask sends one command line and returns the answer line.
func (p *rebalanceProcess) ask(cmd string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := fmt.Fprintln(p.in, cmd); err != nil {
		panic(fmt.Sprintf("switch process: %v", err))
	}
	line, err := p.out.ReadString('\n')
	if err != nil {
		panic(fmt.Sprintf("switch process: %v", err))
	}
	return strings.TrimSpace(line)
}

func (p *rebalanceProcess) setAlive(name string, alive bool) {
	cmd := "die "
	if alive {
		cmd = "live "
	}
	p.ask(cmd + name)
}

func (p *rebalanceProcess) times() (time.Duration, time.Duration) {
	var dec, app int64
	if _, err := fmt.Sscan(p.ask("times"), &dec, &app); err != nil {
		panic(fmt.Sprintf("switch process: times: %v", err))
	}
	return time.Duration(dec), time.Duration(app)
}

// rebalanceSwitchProcess starts the bed's switch and filter emulators in
// a process of their own and returns the bed (no switch in it: the
// daemon's side) and the process.
func rebalanceSwitchProcess(b *testing.B, path string, slotCap int) (*bed, *rebalanceProcess) {
	cpuPort := platformCPUPort(b, path)
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d %d", rebalanceSwitchEnv, slotCap, cpuPort))
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
	addr = strings.TrimSpace(addr)
	bd := &bed{t: b, dir: b.TempDir(), config: path, cpuPort: cpuPort, addr: addr, gaddr: addr}
	if slotCap == p4src.SlotsSizeTofino {
		bd.pipeline = tofinoPipeline(b)
	}
	return bd, &rebalanceProcess{in: in, out: out}
}

// serveRebalanceSwitch serves newBedFilters' switch and filter emulators
// (bedFilters) on 127.0.0.1, P4Runtime and gNMI on one address, which it
// prints; then it answers each line on stdin ("die F", "live F": the
// filter emulator F stops or resumes answering, "ok"; "times": the
// Write requests' decode and apply ns so far) until stdin closes.
func serveRebalanceSwitch() int {
	var slotCap int
	var cpuPort uint32
	if _, err := fmt.Sscan(os.Getenv(rebalanceSwitchEnv), &slotCap, &cpuPort); err != nil {
		fmt.Fprintln(os.Stderr, "switch process:", err)
		return 2
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ports := map[uint32]sim.Port{}
	peers := map[uint32]*sim.MemPeer{}
	for _, n := range []uint32{10, 20} {
		ports[n], peers[n] = sim.NewMemPort(1024)
	}
	for _, pp := range bedFilters {
		for _, n := range pp {
			ports[n], peers[n] = sim.NewMemPort(1024)
		}
	}
	filters := map[string]*filterEmu{}
	for name, pp := range bedFilters {
		f := &filterEmu{lan: peers[pp[0]], wan: peers[pp[1]]}
		f.alive.Store(true)
		f.run(ctx)
		filters[name] = f
	}
	sw, err := sim.New(sim.Options{Ports: ports, CounterInterval: 50 * time.Millisecond, SlotCapacity: slotCap, CPUPort: cpuPort,
		GRPCOptions: []grpc.ServerOption{grpc.ChainUnaryInterceptor(timeApply)}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "switch process:", err)
		return 1
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "switch process:", err)
		return 1
	}
	done := make(chan error, 1)
	go func() { done <- sw.Serve(ctx, lis, nil) }()
	fmt.Println(lis.Addr().String())
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		switch f := strings.Fields(in.Text()); {
		case len(f) == 2 && (f[0] == "die" || f[0] == "live") && filters[f[1]] != nil:
			filters[f[1]].alive.Store(f[0] == "live")
			fmt.Println("ok")
		case len(f) == 1 && f[0] == "times":
			fmt.Println(writeTimes.decode.Load(), writeTimes.apply.Load())
		default:
			fmt.Println("?")
		}
	}
	cancel()
	<-done
	return 0
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

// BenchmarkRebalanceWritePath is the big site's rebalance write without
// the network, the daemon and the scheduler, per part, in ns per entry:
// encode is proto-encoding the Write requests (500 MODIFYs each, as the
// session sends them), decode is decoding them, apply is the software
// switch's data plane applying the decoded updates (the move and the
// move back alternately, so every MODIFY changes its entry).
func BenchmarkRebalanceWritePath(b *testing.B) {
	pipe := tofinoPipeline(b)
	s, err := p4src.NewSchema(pipe.P4Info)
	require.NoError(b, err)
	comp, err := tables.New(s)
	require.NoError(b, err)
	cfg, err := config.Parse([]byte(rebalanceYAML()))
	require.NoError(b, err)
	des, err := comp.Compile(cfg, tables.State{})
	require.NoError(b, err)
	site, err := comp.NewSite(cfg, des, tables.State{})
	require.NoError(b, err)
	moved, there, err := comp.WithState(site, tables.State{FilterGroups: map[string]tables.FilterGroupState{"F2": tables.FGSWBypass},
		Rebalanced: map[string]bool{"F2": true}})
	require.NoError(b, err)
	_, back, err := comp.WithState(moved, tables.State{})
	require.NoError(b, err)
	requests := func(ents []*p4v1.Entity) []*p4v1.WriteRequest {
		var reqs []*p4v1.WriteRequest
		for i := 0; i < len(ents); i += 500 {
			req := &p4v1.WriteRequest{DeviceId: 1, ElectionId: &p4v1.Uint128{Low: 1}, Atomicity: p4v1.WriteRequest_ROLLBACK_ON_ERROR}
			for _, e := range ents[i:min(i+500, len(ents))] {
				req.Updates = append(req.Updates, &p4v1.Update{Type: p4v1.Update_MODIFY, Entity: e})
			}
			reqs = append(reqs, req)
		}
		return reqs
	}
	sides := [2][]*p4v1.WriteRequest{requests(there), requests(back)}
	var wire [2][][]byte
	for i, reqs := range sides {
		for _, r := range reqs {
			data, err := proto.Marshal(r)
			require.NoError(b, err)
			wire[i] = append(wire[i], data)
		}
	}
	perEntry := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(there)), "ns/entry")
	}
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range sides[0] {
				if _, err := proto.Marshal(r); err != nil {
					b.Fatal(err)
				}
			}
		}
		perEntry(b)
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, data := range wire[0] {
				if err := proto.Unmarshal(data, &p4v1.WriteRequest{}); err != nil {
					b.Fatal(err)
				}
			}
		}
		perEntry(b)
	})
	b.Run("apply", func(b *testing.B) {
		sw, err := sim.New(sim.Options{Ports: map[uint32]sim.Port{}, SlotCapacity: p4src.SlotsSizeTofino})
		require.NoError(b, err)
		dp := sw.Dataplane()
		for _, r := range p4rtfloor.Requests(des.Entities) {
			for _, err := range dp.Write(r.GetUpdates(), p4v1.WriteRequest_CONTINUE_ON_ERROR) {
				require.NoError(b, err)
			}
		}
		var decoded [2][]*p4v1.WriteRequest
		for i := range wire {
			for _, data := range wire[i] {
				r := &p4v1.WriteRequest{}
				require.NoError(b, proto.Unmarshal(data, r))
				decoded[i] = append(decoded[i], r)
			}
		}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			for _, r := range decoded[i%2] {
				for _, err := range dp.Write(r.GetUpdates(), r.GetAtomicity()) {
					if err != nil {
						b.Fatal(err)
					}
				}
			}
			i++
		}
		perEntry(b)
	})
}
