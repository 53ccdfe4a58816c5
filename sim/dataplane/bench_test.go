package dataplane

import (
	"fmt"
	"net/netip"
	"os"
	"strings"
	"testing"

	"github.com/gopacket/gopacket/layers"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	pc "github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/tables"
)

// benchSite is the pipeline cases' site plus 4000 flow rules (3500 IPv4,
// 500 IPv6) above the site's rules, none of which matches the benchmark
// traffic: every lookup has to rule them out. Its port range 32768-65535
// is one ternary prefix, so the rules fit the 4096-entry table.
func benchSite(tb testing.TB) *config.Config {
	tb.Helper()
	site, err := os.ReadFile("../../internal/pipelinecases/site.yaml")
	require.NoError(tb, err)
	var s strings.Builder
	s.Write(site)
	for i := 0; i < 4000; i++ {
		prio := 1000 + i
		var m string
		switch {
		case i >= 3500:
			m = fmt.Sprintf("{src: '2001:db8:%x::/48', proto: tcp, l4_dst: %d}", i, 1000+i%500)
		case i%4 == 0:
			m = fmt.Sprintf("{src: 100.%d.%d.0/24, proto: udp, l4_dst: %d}", 64+i/256%64, i%256, 5000+i%1000)
		case i%4 == 1:
			m = fmt.Sprintf("{dst: 172.20.%d.%d/32}", i/256, i%256)
		case i%4 == 2:
			m = fmt.Sprintf("{src: 198.18.%d.0/24, vlan: [%d]}", i%256, 1+i%4000)
		default:
			m = fmt.Sprintf("{dst: 203.0.%d.0/24, proto: tcp, l4_src: 32768-65535}", i%256)
		}
		fmt.Fprintf(&s, "  - {name: x%d, priority: %d, match: %s, action: bypass}\n", i, prio, m)
	}
	cfg, err := config.Parse([]byte(s.String()))
	require.NoError(tb, err)
	return cfg
}

type flowFrames struct {
	port   uint32
	frames [][]byte
}

func v4flow(i int) (netip.Addr, netip.Addr) {
	return netip.AddrFrom4([4]byte{10, byte(i >> 8), byte(i), 1}), netip.AddrFrom4([4]byte{10, 200, byte(i >> 8), byte(i)})
}

func benchFrames(kind string) flowFrames {
	const flows = 1000
	var ff flowFrames
	for i := 0; i < flows; i++ {
		src, dst := v4flow(i)
		switch kind {
		case "bypass":
			ff.port = pc.L1LAN
			ff.frames = append(ff.frames, pc.Frame(macX, macY, pc.Encap{}, pc.L3{Src: src, Dst: dst, Proto: layers.IPProtocolTCP, SrcPort: uint16(30000 + i), DstPort: 179}))
		case "ipv4":
			ff.port = pc.L1LAN
			ff.frames = append(ff.frames, pc.Frame(macX, macY, pc.Encap{}, pc.L3{Src: src, Dst: dst, Proto: layers.IPProtocolTCP, SrcPort: uint16(30000 + i), DstPort: 443}))
		case "ipv6":
			ff.port = pc.L1LAN
			s6 := netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, byte(i >> 8), byte(i)})
			d6 := netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0xee, 0, 0, 0, 0, 0, 0, 0, 0, 0, byte(i >> 8), byte(i)})
			ff.frames = append(ff.frames, pc.Frame(macX, macY, pc.Encap{Tags: []pc.Tag{{TPID: 0x88a8, VID: 100}, {TPID: 0x8100, VID: 200}}, MPLS: []uint32{100, 200, 300}},
				pc.L3{Src: s6, Dst: d6, Proto: layers.IPProtocolUDP, SrcPort: uint16(1000 + i), DstPort: 53}))
		case "return":
			ff.port = pc.F1LAN
			f := pc.Frame(macX, macY, pc.Encap{Tags: []pc.Tag{{TPID: 0x8100, VID: 42}}}, pc.L3{Src: src, Dst: dst, Proto: layers.IPProtocolTCP, SrcPort: 1, DstPort: 2})
			ff.frames = append(ff.frames, pc.PushCore(f, wire.DefaultCoreTPID, uint32(i%2)*pc.L2ID, uint32(i%4)))
		}
	}
	return ff
}

func benchDP(b *testing.B) *Dataplane {
	d := newDP(b)
	program(b, d, benchSite(b), tables.State{})
	return d
}

// BenchmarkProcess: one frame per op through the full pipeline, rotating
// over 1000 flows, with the site plus 4000 extra rules programmed.
func BenchmarkProcess(b *testing.B) {
	d := benchDP(b)
	b.Logf("flow_rules: %d entries, %d shapes; flow_rules_v6: %d entries, %d shapes",
		len(d.flowRules.list), len(d.flowRules.tss.shapes), len(d.flowRulesV6.list), len(d.flowRulesV6.tss.shapes))
	for _, tc := range []struct {
		name string
		want ResultKind
		port func(r Result) bool
	}{
		{"bypass", Forward, func(r Result) bool { return r.Port == pc.L1WAN }},
		{"ipv4", Forward, func(r Result) bool { return r.Port == pc.F1LAN || r.Port == pc.F2LAN }},
		{"ipv6", Forward, func(r Result) bool { return r.Port == pc.F1LAN || r.Port == pc.F2LAN }},
		{"return", Forward, func(r Result) bool { return r.Port == pc.L1LAN || r.Port == pc.L2LAN }},
	} {
		ff := benchFrames(tc.name)
		for _, f := range ff.frames {
			r := d.Process(ff.port, f, make([]byte, 0, 2048))
			require.Equal(b, tc.want, r.Kind, tc.name)
			require.True(b, tc.port(r), "%s: port %d", tc.name, r.Port)
		}
		b.Run(tc.name, func(b *testing.B) {
			buf := make([]byte, 0, 2048)
			n := len(ff.frames)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				d.Process(ff.port, ff.frames[i%n], buf)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pps")
		})
		b.Run(tc.name+"/batch64", func(b *testing.B) {
			pkts := make([]Packet, 64)
			for i := range pkts {
				pkts[i].InPort = ff.port
				pkts[i].Buf = make([]byte, 0, 2048)
			}
			n := len(ff.frames)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i += len(pkts) {
				for j := range pkts {
					pkts[j].Frame = ff.frames[(i+j)%n]
				}
				d.ProcessBatch(pkts)
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
					d.Process(ff.port, ff.frames[i%n], buf)
					i++
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pps")
		})
	}
}

// bigSite is tables/bench_test.go's benchmark site: 1,000 rules and two
// balance groups of 65,536 slots each, on a Tofino platform.
func bigSite(tb testing.TB) *config.Config {
	var b strings.Builder
	b.WriteString("platform: wedge100bf-32x\nports:\n")
	for p := 1; p <= 8; p++ {
		fmt.Fprintf(&b, "  - {port: %d, speed: 100G}\n", p)
	}
	b.WriteString("links:\n  - {name: L1, lan: P2, wan: P1}\n  - {name: L2, lan: P4, wan: P3}\n")
	b.WriteString("filter_groups:\n  - {name: F1, lan: P6, wan: P5, cores: 31}\n  - {name: F2, lan: P8, wan: P7, cores: 63}\n")
	b.WriteString("balance_groups:\n  - {name: G1, members: [F1], slot_bits: 16}\n  - {name: G2, members: [F2], slot_bits: 16}\nrules:\n")
	for i := 0; i < 1000; i++ {
		action := "bypass"
		if i%2 == 0 {
			action = fmt.Sprintf("balance G%d", 1+i%4/2)
		}
		fmt.Fprintf(&b, "  - {name: r%d, priority: %d, match: {src: 10.%d.%d.0/24, proto: tcp, l4_dst: %d}, action: %s}\n",
			i, 1000-i, i/256, i%256, 1000+i, action)
	}
	cfg, err := config.Parse([]byte(b.String()))
	require.NoError(tb, err)
	return cfg
}

// chunks splits a plan's batches into writes of at most n updates.
func chunks(p *tables.Plan, n int) [][]*p4v1.Update {
	var out [][]*p4v1.Update
	for _, b := range p.Batches {
		for i := 0; i < len(b.Updates); i += n {
			out = append(out, b.Updates[i:min(i+n, len(b.Updates))])
		}
	}
	return out
}

// BenchmarkWriteBigSite programs 1,000 rules and 2 x 65,536 slots in
// writes of 1,000 updates into an empty data plane (the compile and the
// diff are done once, outside the timer).
func BenchmarkWriteBigSite(b *testing.B) {
	comp, desired := compileSite(b, bigSite(b), tables.State{})
	plan := comp.Diff(desired.Entities, nil)
	writes := chunks(plan, 1000)
	d := newDP(b, WithSlotCapacity(p4src.SlotsSizeTofino))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		d.Reset()
		b.StartTimer()
		for _, w := range writes {
			for _, err := range d.Write(w, p4v1.WriteRequest_CONTINUE_ON_ERROR) {
				if err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.StopTimer()
	require.Len(b, d.slots.list, 131072)
	b.ReportMetric(float64(plan.Len()), "updates/op")
}

// TestWriteBigSite checks the big site fits and reads back, and that a
// layout change is a small diff against what the data plane holds.
func TestWriteBigSite(t *testing.T) {
	if testing.Short() {
		t.Skip("programs 132k entries")
	}
	cfg := bigSite(t)
	d := newDP(t, WithSlotCapacity(p4src.SlotsSizeTofino))
	program(t, d, cfg, tables.State{})
	assert := require.New(t)
	assert.Len(d.slots.list, 131072)
	// Without the Tofino capacity, the slots do not fit.
	small := newDP(t)
	comp, desired := compileSite(t, cfg, tables.State{})
	var full error
	for _, w := range chunks(comp.Diff(desired.Entities, nil), 1000) {
		for _, err := range small.Write(w, 0) {
			if err != nil {
				full = err
			}
		}
	}
	assert.ErrorIs(full, ErrResourceExhausted)
	// Rebalancing F1 in G1 away is impossible (it is alone); F2 sw-bypass
	// is one MODIFY.
	plan := program(t, d, cfg, tables.State{FilterGroups: map[string]tables.FilterGroupState{"F2": tables.FGSWBypass}})
	assert.Equal(1, plan.Len())
}
