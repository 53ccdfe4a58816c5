package controlplane

import (
	"context"
	"fmt"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
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

// BenchmarkColdStart: a full site programmed from nothing against the
// software switch (pipeline push, read-back, diff, batched writes): 1,000
// rules and 2 x 32,768 slots (64k in all), and 2 x 65,536 (Tofino's 128k).
func BenchmarkColdStart(b *testing.B) {
	for _, bits := range []int{15, 16} {
		b.Run(fmt.Sprintf("rules=1000/slots=%dk", 2<<(bits-10)), func(b *testing.B) { coldStart(b, bits) })
	}
}

func coldStart(b *testing.B, bits int) {
	comp := compiler(b)
	des, err := comp.Compile(bigSite(b, bits), tables.State{})
	require.NoError(b, err)
	b.ReportMetric(float64(len(des.Entities)), "entities")
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		addr := startBigSwitch(b)
		schema, _ := p4src.Load()
		s := New(Options{Addr: addr, DeviceID: 1, Compiler: comp, BatchSize: 1000,
			Pipeline: Pipeline{P4Info: schema.Info, DeviceConfig: p4src.BMv2JSON}})
		s.SetDesired(des.Entities)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		b.StartTimer()
		go func() { s.Run(ctx); close(done) }()
		for s.Stats().Reconciles == 0 {
			time.Sleep(time.Millisecond)
		}
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
			comp := compiler(b)
			schema, _ := p4src.Load()
			s := New(Options{Addr: addr, DeviceID: 1, Compiler: comp, BatchSize: size,
				Pipeline: Pipeline{P4Info: schema.Info, DeviceConfig: p4src.BMv2JSON}})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go s.Run(ctx)
			for !s.Status().Primary || s.Stats().Reconciles == 0 {
				time.Sleep(time.Millisecond)
			}
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
			if _, err := s.Apply(ctx, es); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "entries/s")
		})
	}
}
