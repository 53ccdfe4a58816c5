package dataplane

import (
	"slices"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/require"

	pc "github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/sessionmem"
	"github.com/dpi-balancer/balancer/tables"
)

// BenchmarkProcessSessionMemory: BenchmarkProcess's ipv4 traffic (1,000
// balanced flows, the site plus 4,000 rules) through the base program
// (off), the sessions profile with every flow held (held: the lookup
// hits, the slot is skipped), and the sessions profile holding none
// (not-held: the lookup misses and the session's digest, sent once and
// never acknowledged, is not sent again). The session memory's cost is
// held or not-held against off (docs/sessions.md: goal >= 0.9x).
func BenchmarkProcessSessionMemory(b *testing.B) {
	ff := benchFrames("ipv4")
	off := benchDP(b)
	sessionsDPOf := func() *Dataplane {
		clock := uint64(1_000_000)
		d, err := New(sessionsSchema(b, 0), WithClock(func() uint64 { clock += 1000; return clock }))
		require.NoError(b, err)
		program(b, d, benchSite(b), tables.State{})
		return d
	}
	held, notHeld := sessionsDPOf(), sessionsDPOf()
	st, err := sessionmem.Resolve(held.Schema())
	require.NoError(b, err)
	for _, f := range ff.frames {
		held.Process(ff.port, f, nil)
	}
	dgs, _ := held.SessionDigests()
	require.Len(b, dgs, len(ff.frames), "one digest per flow")
	var us []*p4v1.Update
	for _, dg := range dgs {
		us = append(us, &p4v1.Update{Type: p4v1.Update_INSERT, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{
			TableEntry: st.Entry(dg.Key, dg.FilterGroup, dg.Core, time.Hour)}}})
	}
	for i, err := range held.Write(us, p4v1.WriteRequest_CONTINUE_ON_ERROR) {
		require.NoError(b, err, "entry %d", i)
	}
	held.AckSessionDigests(dgs)
	for _, dp := range []*Dataplane{off, held, notHeld} {
		for _, f := range ff.frames {
			r := dp.Process(ff.port, f, nil)
			require.Equal(b, Forward, r.Kind)
			require.True(b, r.Port == pc.F1LAN || r.Port == pc.F2LAN, "to a filter: port %d", r.Port)
		}
	}
	dgs, _ = held.SessionDigests()
	require.Empty(b, dgs, "held: no digest")
	require.Equal(b, len(ff.frames), held.SessionStats().Held)
	// interleaved: on a shared host the load changes between
	// sub-benchmarks; here each round times 1,000 frames on each data
	// plane in turn, and the ratios are of the rounds' medians. A second
	// base data plane (off-again) is the control: its ratio to off is
	// the method's own spread.
	b.Run("interleaved", func(b *testing.B) {
		buf := make([]byte, 0, 2048)
		offAgain := benchDP(b)
		var per [4][]time.Duration
		for i := 0; i < b.N; i++ {
			for v, d := range []*Dataplane{off, held, notHeld, offAgain} {
				start := time.Now()
				for _, f := range ff.frames {
					d.Process(ff.port, f, buf)
				}
				per[v] = append(per[v], time.Since(start))
			}
		}
		med := func(ds []time.Duration) float64 {
			slices.Sort(ds)
			return float64(ds[len(ds)/2])
		}
		offMed := med(per[0])
		frames := float64(len(ff.frames))
		b.ReportMetric(frames/offMed*1e9, "off-pps")
		b.ReportMetric(frames/med(per[1])*1e9, "held-pps")
		b.ReportMetric(frames/med(per[2])*1e9, "not-held-pps")
		b.ReportMetric(offMed/med(per[1]), "held/off")
		b.ReportMetric(offMed/med(per[2]), "not-held/off")
		b.ReportMetric(offMed/med(per[3]), "off-again/off")
	})
	for _, tc := range []struct {
		name string
		d    *Dataplane
	}{{"off", off}, {"held", held}, {"not-held", notHeld}} {
		b.Run(tc.name, func(b *testing.B) {
			buf := make([]byte, 0, 2048)
			n := len(ff.frames)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				tc.d.Process(ff.port, ff.frames[i%n], buf)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pps")
		})
		b.Run(tc.name+"/parallel", func(b *testing.B) {
			n := len(ff.frames)
			b.ReportAllocs()
			b.RunParallel(func(p *testing.PB) {
				buf := make([]byte, 0, 2048)
				i := 0
				for p.Next() {
					tc.d.Process(ff.port, ff.frames[i%n], buf)
					i++
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pps")
		})
	}
}
