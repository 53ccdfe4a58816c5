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
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/controlplane"
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

// tofinoSiteYAML is the big site with F1 of f1Cores cores.
func tofinoSiteYAML(f1Cores int) string { return testsites.TofinoYAML(f1Cores) }

// tofinoSwitch serves a software switch that holds the Tofino slot table
// (no ports: nothing is sent through it), until the benchmark ends.
func tofinoSwitch(b *testing.B) (*sim.Switch, string) {
	sw, err := sim.New(sim.Options{Ports: map[uint32]sim.Port{}, SlotCapacity: p4src.SlotsSizeTofino})
	require.NoError(b, err)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(b, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sw.Serve(ctx, lis, nil) }()
	b.Cleanup(func() { cancel(); <-done })
	return sw, lis.Addr().String()
}

// tofinoPipeline is what the daemon pushes to the software switch of a
// Tofino slot table: the v1model build with its P4Info sized as the
// Tofino build (the pushed P4Info sizes every table the compiler fills).
func tofinoPipeline(b *testing.B) *controlplane.Pipeline {
	info, err := testsites.TofinoSizedP4Info()
	require.NoError(b, err)
	return &controlplane.Pipeline{P4Info: info, DeviceConfig: p4src.BMv2JSON}
}

// tofinoEntries is the entries the site compiles to, for that pipeline.
func tofinoEntries(b *testing.B) []*p4v1.Entity {
	s, err := p4src.NewSchema(tofinoPipeline(b).P4Info)
	require.NoError(b, err)
	comp, err := tables.New(s)
	require.NoError(b, err)
	cfg, err := config.Parse([]byte(tofinoSiteYAML(31)))
	require.NoError(b, err)
	des, err := comp.Compile(cfg, tables.State{})
	require.NoError(b, err)
	return des.Entities
}

// startTofinoDaemon starts a daemon with a fresh state dir on the switch
// at addr and returns once every entry is acknowledged.
func startTofinoDaemon(b *testing.B, addr string, sw *sim.Switch, want int) (*Daemon, func()) {
	d, stop, _ := startTofinoDaemonTimed(b, addr, sw, want)
	return d, stop
}

// startTofinoDaemonTimed is startTofinoDaemon that also returns how long
// New took (load and compile: before the daemon even connects).
func startTofinoDaemonTimed(b *testing.B, addr string, sw *sim.Switch, want int) (*Daemon, func(), time.Duration) {
	dir := b.TempDir()
	path := filepath.Join(dir, "site.yaml")
	require.NoError(b, os.WriteFile(path, []byte(tofinoSiteYAML(31)), 0o644))
	t0 := time.Now()
	d, err := New(Options{StateDir: filepath.Join(dir, "state"), InitialConfig: path, SwitchAddr: addr, DeviceID: 1,
		Pipeline: tofinoPipeline(b), Tick: 5 * time.Millisecond, CounterInterval: time.Hour, Logger: testLogger})
	require.NoError(b, err)
	loaded := time.Since(t0)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = d.Run(ctx) })
	waitProgrammed(b, d, sw, want)
	return d, func() { cancel(); wg.Wait() }, loaded
}

// waitProgrammed polls until the session has written the desired state
// and the switch holds want entries.
func waitProgrammed(b *testing.B, d *Daemon, sw *sim.Switch, want int) {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		st := d.Session().Status()
		if st.Primary && !st.Pending && d.Session().Stats().Reconciles > 0 {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("not programmed within 2 minutes: %+v", st)
		}
		time.Sleep(200 * time.Microsecond)
	}
	if got := sw.Dataplane().StateSize(); got < want {
		b.Fatalf("the switch holds %d entries, want %d", got, want)
	}
}

// BenchmarkColdStartBigSite: daemon start (a fresh state dir: load,
// compile, connect, push the pipeline, write everything) until the
// software switch acknowledged the last entry, at Tofino size. The floor
// sub-benchmark writes the same entries, pre-built, with a minimal
// client to a P4Runtime server that does nothing.
func BenchmarkColdStartBigSite(b *testing.B) {
	ents := tofinoEntries(b)
	b.Run("floor", func(b *testing.B) { floorWrite(b, ents, "") })
	b.Run("floor-switch", func(b *testing.B) {
		// The same client writing to the software switch: the switch's
		// own rate, which no controller can pass.
		for b.Loop() {
			b.StopTimer()
			sw, addr := tofinoSwitch(b)
			pushPipeline(b, addr)
			b.StartTimer()
			floorWrite(b, ents, addr)
			_ = sw
		}
	})
	b.Run("daemon", func(b *testing.B) {
		var load time.Duration
		for b.Loop() {
			b.StopTimer()
			sw, addr := tofinoSwitch(b)
			runtime.GC()
			b.StartTimer()
			_, stop, l := startTofinoDaemonTimed(b, addr, sw, len(ents))
			load += l
			b.StopTimer()
			stop()
			b.StartTimer()
		}
		b.ReportMetric(float64(len(ents)*b.N)/b.Elapsed().Seconds(), "entries/s")
		b.ReportMetric(float64(load.Milliseconds())/float64(b.N), "load-ms/op")
		b.ReportMetric(float64(len(ents)), "entries")
	})
}

// floorWrite writes every entity as an INSERT, in requests of 500, one
// request at a time, to addr, or ("") to a P4Runtime server whose Write
// does nothing.
func floorWrite(b *testing.B, ents []*p4v1.Entity, addr string) {
	noop := addr == ""
	if noop {
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(b, err)
		srv := grpc.NewServer(grpc.MaxRecvMsgSize(64 << 20))
		p4v1.RegisterP4RuntimeServer(srv, noopP4RT{})
		go func() { _ = srv.Serve(lis) }()
		b.Cleanup(srv.Stop)
		addr = lis.Addr().String()
	}
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(b, err)
	b.Cleanup(func() { cc.Close() })
	rt := p4v1.NewP4RuntimeClient(cc)
	var reqs []*p4v1.WriteRequest
	for i := 0; i < len(ents); i += 500 {
		req := &p4v1.WriteRequest{DeviceId: 1, ElectionId: &p4v1.Uint128{Low: 1}, Atomicity: p4v1.WriteRequest_ROLLBACK_ON_ERROR}
		for _, e := range ents[i:min(i+500, len(ents))] {
			typ := p4v1.Update_INSERT
			if e.GetValueSetEntry() != nil {
				typ = p4v1.Update_MODIFY // value sets are only modified
			}
			req.Updates = append(req.Updates, &p4v1.Update{Type: typ, Entity: e})
		}
		reqs = append(reqs, req)
	}
	ctx := context.Background()
	if !noop {
		t0 := time.Now()
		for _, req := range reqs {
			if _, err := rt.Write(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(ents))/time.Since(t0).Seconds(), "entries/s")
		return
	}
	b.ResetTimer()
	for b.Loop() {
		for _, req := range reqs {
			if _, err := rt.Write(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(ents)*b.N)/b.Elapsed().Seconds(), "entries/s")
}

// pushPipeline makes a minimal client primary on the switch at addr and
// pushes the pipeline (what floorWrite needs to write there).
func pushPipeline(b *testing.B, addr string) {
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(b, err)
	rt := p4v1.NewP4RuntimeClient(cc)
	ctx, cancel := context.WithCancel(context.Background())
	stream, err := rt.StreamChannel(ctx)
	require.NoError(b, err)
	el := &p4v1.Uint128{Low: 1}
	require.NoError(b, stream.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Arbitration{
		Arbitration: &p4v1.MasterArbitrationUpdate{DeviceId: 1, ElectionId: el}}}))
	_, err = stream.Recv()
	require.NoError(b, err)
	pipe := tofinoPipeline(b)
	_, err = rt.SetForwardingPipelineConfig(ctx, &p4v1.SetForwardingPipelineConfigRequest{DeviceId: 1, ElectionId: el,
		Action: p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT,
		Config: &p4v1.ForwardingPipelineConfig{P4Info: pipe.P4Info, P4DeviceConfig: pipe.DeviceConfig}})
	require.NoError(b, err)
	// The stream stays open (the client stays primary) until the end.
	b.Cleanup(func() { cancel(); cc.Close() })
}

type noopP4RT struct {
	p4v1.UnimplementedP4RuntimeServer
}

func (noopP4RT) Write(context.Context, *p4v1.WriteRequest) (*p4v1.WriteResponse, error) {
	return &p4v1.WriteResponse{}, nil
}

// BenchmarkPlannedChangeBigSite: a planned change at Tofino size, F1's
// cores 31 -> 12 (and back, alternately), from ApplyConfig to the
// switch's acknowledgement; entries/s counts the entries written.
func BenchmarkPlannedChangeBigSite(b *testing.B) {
	ents := tofinoEntries(b)
	sw, addr := tofinoSwitch(b)
	d, stop := startTofinoDaemon(b, addr, sw, len(ents))
	defer stop()
	ctx := context.Background()
	written := 0
	cores := []int{12, 31}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		res, err := d.ApplyConfig(ctx, []byte(tofinoSiteYAML(cores[i%2])), false, "bench")
		if err != nil {
			b.Fatal(err)
		}
		if !res.Written {
			b.Fatalf("not written: %+v", res)
		}
		written += res.Inserts + res.Modifies + res.Deletes
	}
	b.StopTimer()
	b.ReportMetric(float64(written)/b.Elapsed().Seconds(), "entries/s")
	b.ReportMetric(float64(written/b.N), "entries/op")
}

// BenchmarkHeapBigSite: the daemon's live heap at Tofino size, fresh,
// after 100 planned changes and after 100 failovers (F1 into manual
// bypass and back: the state owner's failover path), with the software
// switch in the same process (its share is constant: the same entries).
// HEAP_PROFILE=file writes the heap profile after all of them. The live
// heap is read after a collection (for the measurement only).
func BenchmarkHeapBigSite(b *testing.B) {
	if b.N > 1 {
		b.Skip("one run is the measurement")
	}
	ents := tofinoEntries(b)
	sw, addr := tofinoSwitch(b)
	d, stop := startTofinoDaemon(b, addr, sw, len(ents))
	defer stop()
	live := func(when string) {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "live-MiB/"+when)
	}
	live("fresh")
	ctx := context.Background()
	for i := range 100 {
		cores := 12
		if i%2 == 1 {
			cores = 31
		}
		res, err := d.ApplyConfig(ctx, []byte(tofinoSiteYAML(cores)), false, "bench")
		require.NoError(b, err)
		require.True(b, res.Written)
	}
	live("changes")
	for i := range 100 {
		require.NoError(b, d.SetBypass(ctx, "F1", i%2 == 0))
	}
	waitProgrammed(b, d, sw, len(ents))
	live("failovers")
	if path := os.Getenv("HEAP_PROFILE"); path != "" {
		// While the daemon runs (a -memprofile is written after it ended).
		f, err := os.Create(path)
		require.NoError(b, err)
		require.NoError(b, pprof.Lookup("heap").WriteTo(f, 0))
		require.NoError(b, f.Close())
	}
}
