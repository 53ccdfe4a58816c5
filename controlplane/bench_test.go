package controlplane

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/internal/p4rtfloor"
	"github.com/dpi-balancer/balancer/internal/testsites"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sim"
	"github.com/dpi-balancer/balancer/tables"
)

func bigSite(tb testing.TB, bits int) *config.Config {
	cfg, err := testsites.Big(bits)
	require.NoError(tb, err)
	return cfg
}

// startBigSwitch serves a software switch able to hold a Tofino layout.
func startBigSwitch(b *testing.B) string {
	sw, err := sim.New(sim.Options{Ports: map[uint32]sim.Port{}, SlotCapacity: 131072})
	require.NoError(b, err)
	addr := serveSwitch(b, sw)
	return addr
}

// tofinoSizedPipeline is the software switch's program sized as the Tofino
// build (the P4Info pushed sizes the tables the compiler fills) and its
// compiler.
func tofinoSizedPipeline(b *testing.B) (*tables.Compiler, Pipeline) {
	info, err := testsites.TofinoSizedP4Info()
	require.NoError(b, err)
	s, err := p4src.NewSchema(info)
	require.NoError(b, err)
	comp, err := tables.New(s)
	require.NoError(b, err)
	return comp, Pipeline{P4Info: info, DeviceConfig: p4src.BMv2JSON}
}

// BenchmarkColdStart: a full site programmed from nothing against the
// software switch (pipeline push, read-back, diff, batched writes): 1,000
// rules and 2 x 32,768 slots (64k in all), and 2 x 65,536 (Tofino's 128k).
func BenchmarkColdStart(b *testing.B) {
	for _, bits := range []int{15, 16} {
		b.Run(fmt.Sprintf("rules=1000/slots=%dk", 2<<(bits-10)), func(b *testing.B) { coldStart(b, bits) })
	}
}

func coldStart(b *testing.B, bits int) {
	comp, pipe := tofinoSizedPipeline(b)
	des, err := comp.Compile(bigSite(b, bits), tables.State{})
	require.NoError(b, err)
	b.ReportMetric(float64(len(des.Entities)), "entities")
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		addr := startBigSwitch(b)
		s := New(Options{Addr: addr, DeviceID: 1, Program: comp, Guard: tables.NewWriteGuard(comp, tables.GuardOptions{}), BatchSize: 1000, Pipeline: pipe})
		s.SetDesired(des.Entities)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		b.StartTimer()
		go func() { s.Run(ctx); close(done) }()
		require.Eventually(b, func() bool { return s.Stats().Reconciles > 0 }, 5*time.Minute, time.Millisecond, "not programmed")
		b.StopTimer()
		if got := s.Stats().Updates; got != uint64(len(des.Entities)) {
			b.Fatalf("%d updates, want %d (%s)", got, len(des.Entities), s.Status().LastError)
		}
		cancel()
		<-done
	}
}

// BenchmarkWriteBatch: entries per second at batch sizes 1, 100 and 1000
// (inserting slot entries; each op is one entry).
func BenchmarkWriteBatch(b *testing.B) {
	for _, size := range []int{1, 100, 1000} {
		b.Run(fmt.Sprintf("batch=%d", size), func(b *testing.B) {
			addr := startBigSwitch(b)
			comp, pipe := tofinoSizedPipeline(b)
			schema := comp.Schema()
			s := New(Options{Addr: addr, DeviceID: 1, Program: comp, Guard: tables.NewWriteGuard(comp, tables.GuardOptions{}), BatchSize: size, Pipeline: pipe})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go s.Run(ctx)
			require.Eventually(b, func() bool { return s.Status().Primary && s.Stats().Reconciles > 0 }, 5*time.Minute, time.Millisecond,
				"not programmed")
			slots, _ := schema.Table(p4src.TableSlots)
			toFilter, _ := schema.Action(p4src.ActionToFilter)
			entry := func(i int) *p4v1.Entity {
				return &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{
					TableId: slots.GetPreamble().GetId(),
					Match: []*p4v1.FieldMatch{
						{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: []byte{byte(i >> 16)}}}},
						{FieldId: 2, FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: []byte{byte(i >> 8), byte(i)}}}},
					},
					Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: &p4v1.Action{ActionId: toFilter.GetPreamble().GetId(),
						Params: []*p4v1.Action_Param{{ParamId: 1, Value: []byte{1}}, {ParamId: 2, Value: []byte{2}}}}}},
				}}}
			}
			n := min(b.N, 131072)
			es := make([]*p4v1.Entity, n)
			for i := range es {
				es[i] = entry(i)
			}
			b.ResetTimer()
			if _, err := s.ApplyUpdates(ctx, FullChange(es)); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "entries/s")
		})
	}
}

// tofinoSession programs a software switch with the Tofino-size site
// (1,000 rules, 2 x 65,536 slots) and returns the primary session.
func tofinoSession(b *testing.B, timing Timing) (*Session, *tables.Desired) {
	comp, pipe := tofinoSizedPipeline(b)
	des, err := comp.Compile(bigSite(b, 16), tables.State{})
	require.NoError(b, err)
	addr := startBigSwitch(b)
	s := New(Options{Addr: addr, DeviceID: 1, Program: comp, Guard: tables.NewWriteGuard(comp, tables.GuardOptions{}), BatchSize: 1000, Timing: timing, Pipeline: pipe})
	s.SetDesired(des.Entities)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	b.Cleanup(func() { cancel(); <-done })
	require.Eventually(b, func() bool { return s.Stats().Reconciles > 0 && !s.Status().Pending }, 5*time.Minute, 10*time.Millisecond,
		"not programmed")
	return s, des
}

// BenchmarkReconcileReadBack: one periodic read-back reconcile at Tofino
// size (1,000 rules + 2 x 65,536 slots) against the software switch:
// read every owned table on the read connection, canonicalise, and diff
// with the desired state as the answers come. "read" is the switch's
// share, "read+diff" the whole read-back (the diff runs off the session's
// goroutine too).
func BenchmarkReconcileReadBack(b *testing.B) {
	s, des := tofinoSession(b, Timing{ReconcileInterval: ReconcileOff})
	c := s.readConn.Load()
	require.NotNil(b, c)
	ctx := context.Background()
	b.Run("read", func(b *testing.B) {
		var wild []*p4v1.Entity
		for _, id := range s.opts.Program.(*tables.Compiler).TableIDs() {
			wild = append(wild, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: id}}})
		}
		for b.Loop() {
			n := 0
			if err := c.readEach(ctx, c.readRT, func(es []*p4v1.Entity) { n += len(es) }, wild...); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(n), "entities")
		}
	})
	b.Run("read+diff", func(b *testing.B) {
		for b.Loop() {
			r, err := c.readDiff(ctx, c.readRT, des.Entities)
			p := r.plan
			if err != nil {
				b.Fatal(err)
			}
			if !p.Empty() {
				b.Fatalf("drift on a quiet switch: %d updates", p.Len())
			}
		}
	})
}

// BenchmarkWriteDuringBigRead: the latency of a one-entry write (what a
// failover writes) through the session's goroutine while reads of every
// slot entry (a Tofino-size counter poll or read-back: 131,072 entries)
// run back to back. reads=none is the quiet baseline; reads=owner-queue
// runs the reads as the session used to, on its own goroutine and
// connection (the write queues behind a read); reads=read-path runs them
// through Read, on the read connection.
func BenchmarkWriteDuringBigRead(b *testing.B) {
	s, des := tofinoSession(b, Timing{ReconcileInterval: ReconcileOff})
	schema, _ := p4src.Load()
	slots, err := schema.Table(p4src.TableSlots)
	require.NoError(b, err)
	slotsID := slots.GetPreamble().GetId()
	var entry *p4v1.Entity
	for _, e := range des.Entities {
		if e.GetTableEntry().GetTableId() == slotsID {
			entry = e
			break
		}
	}
	require.NotNil(b, entry)
	wild := &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: slotsID}}}
	write := func(ctx context.Context) error {
		_, err := do(ctx, s, func(c *conn) (any, error) {
			return nil, c.write(ctx, []*p4v1.Update{{Type: p4v1.Update_MODIFY, Entity: entry}})
		})
		return err
	}
	for _, mode := range []string{"none", "owner-queue", "read-path"} {
		b.Run("reads="+mode, func(b *testing.B) {
			ctx, cancel := context.WithCancel(context.Background())
			var reads atomic.Int64
			done := make(chan struct{})
			go func() {
				defer close(done)
				for ctx.Err() == nil {
					var err error
					switch mode {
					case "none":
						return
					case "owner-queue":
						_, err = do(ctx, s, func(c *conn) ([]*p4v1.Entity, error) { return c.read(ctx, c.rt, wild) })
					case "read-path":
						_, err = s.Read(ctx, wild)
					}
					if err == nil {
						reads.Add(1)
					}
				}
			}()
			if mode != "none" { // reads are under way
				require.Eventually(b, func() bool { return reads.Load() > 0 }, time.Minute, time.Millisecond, "no read answered")
			}
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for b.Loop() {
				t0 := time.Now()
				if err := write(ctx); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			cancel()
			<-done
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "max-ms")
			b.ReportMetric(float64(reads.Load()), "reads")
		})
	}
}

// BenchmarkWritePathBigSite: the session's write path alone at Tofino
// size (a plan already diffed, written from a fresh connection to a
// P4Runtime server that does nothing), beside the floor's minimal client
// writing the same entities one request at a time.
func BenchmarkWritePathBigSite(b *testing.B) {
	comp, pipe := tofinoSizedPipeline(b)
	des, err := comp.Compile(bigSite(b, 16), tables.State{})
	require.NoError(b, err)
	srv := &p4rtfloor.Server{}
	addr, stop, err := srv.Serve()
	require.NoError(b, err)
	b.Cleanup(stop)
	b.Run("floor", func(b *testing.B) {
		cl, err := p4rtfloor.Dial(addr)
		require.NoError(b, err)
		defer cl.Close()
		reqs := p4rtfloor.Requests(des.Entities)
		for b.Loop() {
			require.NoError(b, cl.WriteAll(context.Background(), reqs))
		}
		b.ReportMetric(float64(len(des.Entities)*b.N)/b.Elapsed().Seconds(), "entries/s")
	})
	for _, depth := range []int{1, 4} {
		b.Run(fmt.Sprintf("session/depth=%d", depth), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				s := New(Options{Addr: addr, DeviceID: 1, Program: comp, Guard: tables.NewWriteGuard(comp, tables.GuardOptions{}), Pipeline: pipe, WriteDepth: depth})
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan struct{})
				go func() { _ = s.Run(ctx); close(done) }()
				require.Eventually(b, func() bool { return s.Stats().Reconciles > 0 }, 5*time.Minute, time.Millisecond, "not programmed")
				ch := FullChange(des.Entities)
				ch.Plan, ch.From = comp.Diff(des.Entities, nil), nil
				b.StartTimer()
				_, err := s.ApplyUpdates(ctx, ch)
				b.StopTimer()
				require.NoError(b, err)
				cancel()
				<-done
				b.StartTimer()
			}
			b.ReportMetric(float64(len(des.Entities)*b.N)/b.Elapsed().Seconds(), "entries/s")
		})
	}
}
