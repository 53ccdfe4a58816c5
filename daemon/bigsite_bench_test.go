package daemon

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/internal/testsites"
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
func tofinoSiteYAML(f1Cores int) string {
	var b strings.Builder
	b.WriteString("site: tofino\nplatform: wedge100bf-32x\nport_map: {P1: 10, P2: 20, P3: 30, P4: 40, P5: 50, P6: 60, P7: 70, P8: 80}\nports:\n")
	for p := 1; p <= 8; p++ {
		fmt.Fprintf(&b, "  - {port: %d, speed: 100G}\n", p)
	}
	b.WriteString("links:\n  - {name: L1, lan: P2, wan: P1}\n  - {name: L2, lan: P4, wan: P3}\n")
	fmt.Fprintf(&b, "filter_groups:\n  - {name: F1, lan: P6, wan: P5, cores: %d}\n  - {name: F2, lan: P8, wan: P7, cores: 63}\n", f1Cores)
	b.WriteString("balance_groups:\n  - {name: G1, members: [F1], slot_bits: 16}\n  - {name: G2, members: [F2], slot_bits: 16}\nrules:\n")
	testsites.WriteRules(&b, 1000)
	return b.String()
}

// tofinoSwitch serves a software switch that holds the Tofino slot table
// (no ports: nothing is sent through it), until the benchmark ends.
func tofinoSwitch(b *testing.B) (*sim.Switch, string) {
	sw, err := sim.New(sim.Options{Ports: map[uint32]sim.Port{}, SlotCapacity: 2 << 16})
	require.NoError(b, err)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(b, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sw.Serve(ctx, lis, nil) }()
	b.Cleanup(func() { cancel(); <-done })
	return sw, lis.Addr().String()
}

// tofinoEntries is the number of entries the site compiles to.
func tofinoEntries(b *testing.B) []*p4v1.Entity {
	comp, err := tables.Load()
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
		Tick: 5 * time.Millisecond, CounterInterval: time.Hour, Logger: testLogger})
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
	b.Run("floor", func(b *testing.B) { floorWrite(b, ents) })
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

// floorWrite writes every entity as an INSERT, in requests of 500, to a
// P4Runtime server whose Write does nothing, one request at a time.
func floorWrite(b *testing.B, ents []*p4v1.Entity) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(b, err)
	srv := grpc.NewServer(grpc.MaxRecvMsgSize(64 << 20))
	p4v1.RegisterP4RuntimeServer(srv, noopP4RT{})
	go func() { _ = srv.Serve(lis) }()
	b.Cleanup(srv.Stop)
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(b, err)
	b.Cleanup(func() { cc.Close() })
	rt := p4v1.NewP4RuntimeClient(cc)
	var reqs []*p4v1.WriteRequest
	for i := 0; i < len(ents); i += 500 {
		req := &p4v1.WriteRequest{DeviceId: 1, ElectionId: &p4v1.Uint128{Low: 1}, Atomicity: p4v1.WriteRequest_ROLLBACK_ON_ERROR}
		for _, e := range ents[i:min(i+500, len(ents))] {
			req.Updates = append(req.Updates, &p4v1.Update{Type: p4v1.Update_INSERT, Entity: e})
		}
		reqs = append(reqs, req)
	}
	ctx := context.Background()
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
