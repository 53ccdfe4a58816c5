package dataplane

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
	"testing"

	"github.com/gopacket/gopacket/layers"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	pc "github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/tables"
)

var (
	macX  = net.HardwareAddr{0x00, 0x11, 0x22, 0x33, 0x44, 0x55}
	macY  = net.HardwareAddr{0x00, 0x66, 0x77, 0x88, 0x99, 0xaa}
	macHB = net.HardwareAddr{0x00, 0xe0, 0xed, 0xaa, 0xbb, 0xcc}
	ipA   = netip.MustParseAddr("10.0.0.1")
	ipB   = netip.MustParseAddr("10.0.0.2")
)

// counterDeltas reads every counter cell and the direct counters summed
// per table, as "name[index]" -> packets, bytes.
type counts map[string][2]uint64

func readCounts(tb testing.TB, d *Dataplane) counts {
	tb.Helper()
	c := counts{}
	names := map[uint32]string{}
	for _, x := range d.counters {
		names[x.id] = x.name
	}
	q := []*p4v1.Entity{{Entity: &p4v1.Entity_DirectCounterEntry{DirectCounterEntry: &p4v1.DirectCounterEntry{}}}}
	for _, x := range d.counters {
		if x != d.coreCtr {
			q = append(q, &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: x.id}}})
		}
	}
	// core_counters: only its cells that moved, each read by index (a
	// wildcard read is 64k entities).
	for i := range d.coreCtr.cells {
		if p, _ := d.coreCtr.cells[i].get(); p != 0 {
			q = append(q, &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: d.coreCtr.id, Index: &p4v1.Index{Index: int64(i)}}}})
		}
	}
	for _, e := range readQ(tb, d, q...) {
		if ce := e.GetCounterEntry(); ce != nil {
			if ce.GetData().GetPacketCount() != 0 {
				c[fmt.Sprintf("%s[%d]", names[ce.GetCounterId()], ce.GetIndex().GetIndex())] = [2]uint64{uint64(ce.GetData().GetPacketCount()), uint64(ce.GetData().GetByteCount())}
			}
			continue
		}
		dc := e.GetDirectCounterEntry()
		k := "direct:" + d.tableByID[dc.GetTableEntry().GetTableId()].name
		v := c[k]
		v[0] += uint64(dc.GetData().GetPacketCount())
		v[1] += uint64(dc.GetData().GetByteCount())
		if v[0] != 0 {
			c[k] = v
		}
	}
	return c
}

func (a counts) minus(b counts) counts {
	out := counts{}
	for k, v := range a {
		w := b[k]
		if v != w {
			out[k] = [2]uint64{v[0] - w[0], v[1] - w[1]}
		}
	}
	return out
}

// ihl4 returns a copy of an IPv4 frame with IHL 4.
func ihl4(f []byte) []byte {
	b := append([]byte(nil), f...)
	b[14] = 0x44
	return b
}

func link(id, kind int) string { return fmt.Sprintf("%s[%d]", p4src.CounterLink, id<<3|kind) }
func fgc(id, kind int) string  { return fmt.Sprintf("%s[%d]", p4src.CounterFilterGroup, id<<2|kind) }
func drop(reason int) string   { return fmt.Sprintf("%s[%d]", p4src.CounterDrop, reason) }
func rx(port int) string       { return fmt.Sprintf("%s[%d]", p4src.CounterPortRx, port) }
func tx(port int) string       { return fmt.Sprintf("%s[%d]", p4src.CounterPortTx, port) }

const (
	dFlow  = "direct:" + p4src.TableFlowRules
	dFlow6 = "direct:" + p4src.TableFlowRulesV6
	// dCore stands for the core_counters cell of the slot the frame
	// hits; the test resolves it from the slots entry (Explain on a twin
	// data plane).
	dCore = "core_counters[slot's target]"
)

func coreCell(fg, core uint32) string {
	return fmt.Sprintf("%s[%d]", p4src.CounterCore, p4src.CoreCounterIndex(fg, core))
}

// TestCounters sends one frame per case through the site and checks every
// counter that moved: port_rx/tx, link and filter group kinds, drop
// reasons, direct counters (only on entry hits, as BMv2 counts them).
func TestCounters(t *testing.T) {
	tcp := pc.Frame(macX, macY, pc.Encap{}, pc.L3{Src: ipA, Dst: ipB, Proto: layers.IPProtocolTCP, SrcPort: 1234, DstPort: 80})
	tcp6 := pc.Frame(macX, macY, pc.Encap{}, pc.L3{Src: netip.MustParseAddr("2001:db8::1"), Dst: netip.MustParseAddr("2001:db8::2"), Proto: layers.IPProtocolUDP, SrcPort: 1, DstPort: 2})
	bgp := pc.Frame(macX, macY, pc.Encap{}, pc.L3{Src: ipA, Dst: ipB, Proto: layers.IPProtocolTCP, SrcPort: 40000, DstPort: 179})
	arp := pc.Frame(macX, macY, pc.Encap{}, pc.L3{})
	hb := pc.Frame(macX, macHB, pc.Encap{}, pc.L3{Src: ipA, Dst: ipB, Proto: layers.IPProtocolUDP, SrcPort: 1, DstPort: 2})
	ret := pc.PushCore(tcp, wire.DefaultCoreTPID, pc.L1ID, 1)
	ka := pc.KeepAlive(pc.F1ID, 1, 0)
	n, nhb := uint64(len(tcp)), uint64(len(hb))
	// The known answer: 10.0.0.1 -> 10.0.0.2 tcp is slot 3 -> F2 core 1.
	ka6fg, _ := pc.Placement(siteConfig(t), netip.MustParseAddr("2001:db8::1"), netip.MustParseAddr("2001:db8::2"), 17)

	for _, tc := range []struct {
		name   string
		state  tables.State
		in     uint32
		po     *pc.PacketOut
		frame  []byte
		kind   ResultKind
		port   uint32
		reason uint8
		want   counts
	}{
		{name: "balanced to F2", in: pc.L1LAN, frame: tcp, kind: Forward, port: pc.F2LAN, want: counts{
			rx(pc.L1LAN): {1, n}, tx(pc.F2LAN): {1, n}, link(pc.L1ID, p4src.LinkCntToFilter): {1, n},
			fgc(pc.F2ID, p4src.FGCntToFilter): {1, n}, dFlow: {1, n}, coreCell(pc.F2ID, pc.KnownAnswer.Core): {1, n}}},
		{name: "IPv6 balanced", in: pc.L2WAN, frame: tcp6, kind: Forward, port: map[uint32]uint32{pc.F1ID: pc.F1WAN, pc.F2ID: pc.F2WAN}[ka6fg], want: counts{
			rx(pc.L2WAN): {1, uint64(len(tcp6))}, tx(int(map[uint32]uint32{pc.F1ID: pc.F1WAN, pc.F2ID: pc.F2WAN}[ka6fg])): {1, uint64(len(tcp6))},
			link(pc.L2ID, p4src.LinkCntToFilter): {1, uint64(len(tcp6))}, fgc(int(ka6fg), p4src.FGCntToFilter): {1, uint64(len(tcp6))},
			dFlow6: {1, uint64(len(tcp6))}, dCore: {1, uint64(len(tcp6))}}},
		{name: "rule bypass", in: pc.L1LAN, frame: bgp, kind: Forward, port: pc.L1WAN, want: counts{
			rx(pc.L1LAN): {1, n}, tx(pc.L1WAN): {1, n}, link(pc.L1ID, p4src.LinkCntRuleBypass): {1, n}, dFlow: {1, n}}},
		{name: "non-IP bypass", in: pc.L2LAN, frame: arp, kind: Forward, port: pc.L2WAN, want: counts{
			rx(pc.L2LAN): {1, 60}, tx(pc.L2WAN): {1, 60}, link(pc.L2ID, p4src.LinkCntNonIPBypass): {1, 60}, dFlow: {1, 60}}},
		{name: "heartbeat", in: pc.L1WAN, frame: hb, kind: Forward, port: pc.L1LAN, want: counts{
			rx(pc.L1WAN): {1, nhb}, tx(pc.L1LAN): {1, nhb}, link(pc.L1ID, p4src.LinkCntHeartbeat): {1, nhb}}},
		{name: "returned from a filter", in: pc.F2WAN, frame: ret, kind: Forward, port: pc.L1WAN, want: counts{
			rx(pc.F2WAN): {1, n + 4}, tx(pc.L1WAN): {1, n + 4}, link(pc.L1ID, p4src.LinkCntReturned): {1, n + 4},
			fgc(pc.F2ID, p4src.FGCntReturned): {1, n + 4}}},
		{name: "unknown link id", in: pc.F1WAN, frame: pc.PushCore(tcp, wire.DefaultCoreTPID, 9, 0), kind: Drop, reason: p4src.DropUnknownLinkID, want: counts{
			rx(pc.F1WAN): {1, n + 4}, drop(p4src.DropUnknownLinkID): {1, n + 4}}},
		{name: "no core header", in: pc.F1LAN, frame: tcp, kind: Drop, reason: p4src.DropNoCoreHeader, want: counts{
			rx(pc.F1LAN): {1, n}, drop(p4src.DropNoCoreHeader): {1, n}}},
		{name: "unknown port", in: pc.Unknown, frame: tcp, kind: Drop, reason: p4src.DropUnknownPort, want: counts{
			rx(pc.Unknown): {1, n}, drop(p4src.DropUnknownPort): {1, n}}},
		{name: "keep-alive to the controller", in: pc.F1WAN, frame: ka, kind: ToCPU, port: p4src.CPUPortBMv2, want: counts{
			rx(pc.F1WAN): {1, 60}, tx(p4src.CPUPortBMv2): {1, 60}, fgc(pc.F1ID, p4src.FGCntKeepAlive): {1, 60}}},
		{name: "packet-out counts its header", po: &pc.PacketOut{Port: pc.F1LAN, Flags: 1}, frame: ka, kind: Forward, port: pc.F1LAN, want: counts{
			tx(pc.F1LAN): {1, 63}}},
		{name: "filter group in software bypass", state: tables.State{FilterGroups: map[string]tables.FilterGroupState{"F2": tables.FGSWBypass}},
			in: pc.L1LAN, frame: tcp, kind: Forward, port: pc.L1WAN, want: counts{
				rx(pc.L1LAN): {1, n}, tx(pc.L1WAN): {1, n}, link(pc.L1ID, p4src.LinkCntSWBypass): {1, n},
				fgc(pc.F2ID, p4src.FGCntSWBypass): {1, n}, dFlow: {1, n}, dCore: {1, n}}},
		{name: "filter group drop", state: tables.State{FilterGroups: map[string]tables.FilterGroupState{"F2": tables.FGDrop}},
			in: pc.L1LAN, frame: tcp, kind: Drop, reason: p4src.DropFilterGroup, want: counts{
				rx(pc.L1LAN): {1, n}, link(pc.L1ID, p4src.LinkCntDropped): {1, n}, drop(p4src.DropFilterGroup): {1, n}, dFlow: {1, n}, dCore: {1, n}}},
		{name: "balance group bypass", state: tables.State{BalanceGroups: map[string]tables.BalanceGroupState{"G": tables.BGBypass}},
			in: pc.L1LAN, frame: tcp, kind: Forward, port: pc.L1WAN, want: counts{
				rx(pc.L1LAN): {1, n}, tx(pc.L1WAN): {1, n}, link(pc.L1ID, p4src.LinkCntGroupBypass): {1, n}, dFlow: {1, n}}},
		{name: "balance group drop", state: tables.State{BalanceGroups: map[string]tables.BalanceGroupState{"G": tables.BGDrop}},
			in: pc.L1LAN, frame: tcp, kind: Drop, reason: p4src.DropBalanceGroup, want: counts{
				rx(pc.L1LAN): {1, n}, link(pc.L1ID, p4src.LinkCntDropped): {1, n}, drop(p4src.DropBalanceGroup): {1, n}, dFlow: {1, n}}},
		{name: "malformed: TCP header cut, dropped before any table", in: pc.L1LAN, frame: tcp[:14+20+6], kind: Drop, reason: p4src.DropMalformed, want: counts{
			rx(pc.L1LAN): {1, 40}, drop(p4src.DropMalformed): {1, 40}}},
		{name: "malformed: shorter than the MAC addresses", in: pc.L1LAN, frame: tcp[:10], kind: Drop, reason: p4src.DropMalformed, want: counts{
			rx(pc.L1LAN): {1, 10}, drop(p4src.DropMalformed): {1, 10}}},
		{name: "malformed: EtherType cut", in: pc.L2WAN, frame: tcp[:13], kind: Drop, reason: p4src.DropMalformed, want: counts{
			rx(pc.L2WAN): {1, 13}, drop(p4src.DropMalformed): {1, 13}}},
		{name: "malformed: IPv4 IHL 4", in: pc.L1WAN, frame: ihl4(tcp), kind: Drop, reason: p4src.DropMalformed, want: counts{
			rx(pc.L1WAN): {1, n}, drop(p4src.DropMalformed): {1, n}}},
		{name: "malformed: cut core header from a filter", in: pc.F1WAN, frame: ret[:15], kind: Drop, reason: p4src.DropMalformed, want: counts{
			rx(pc.F1WAN): {1, 15}, drop(p4src.DropMalformed): {1, 15}}},
		{name: "malformed: on an unknown port the parser's verdict comes first", in: pc.Unknown, frame: tcp[:20], kind: Drop, reason: p4src.DropMalformed, want: counts{
			rx(pc.Unknown): {1, 20}, drop(p4src.DropMalformed): {1, 20}}},
		{name: "malformed: a packet-out of a cut frame leaves as given", po: &pc.PacketOut{Port: pc.L1WAN}, frame: tcp[:20], kind: Forward, port: pc.L1WAN, want: counts{
			tx(pc.L1WAN): {1, 23}}},
		{name: "rebalanced: F2's slot dealt to F1", state: tables.State{Rebalanced: map[string]bool{"F2": true}},
			in: pc.L1LAN, frame: tcp, kind: Forward, port: pc.F1LAN, want: counts{
				rx(pc.L1LAN): {1, n}, tx(pc.F1LAN): {1, n}, link(pc.L1ID, p4src.LinkCntToFilter): {1, n},
				fgc(pc.F1ID, p4src.FGCntToFilter): {1, n}, dFlow: {1, n}, dCore: {1, n}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDP(t)
			program(t, d, siteConfig(t), tc.state)
			if v, ok := tc.want[dCore]; ok {
				twin := newDP(t)
				program(t, twin, siteConfig(t), tc.state)
				_, hits := twin.Explain(tc.in, tc.frame)
				var cell string
				for _, h := range hits {
					if h.Table == p4src.TableSlots && h.Matched {
						cell = coreCell(uint32(h.Params["filter_group"]), uint32(h.Params["core"]))
					}
				}
				require.NotEmpty(t, cell, "the frame hits a slot")
				want := counts{}
				for k, x := range tc.want {
					want[k] = x
				}
				delete(want, dCore)
				want[cell] = v
				tc.want = want
			}
			before := readCounts(t, d)
			var r Result
			if tc.po != nil {
				r = d.PacketOut(tc.po.Port, tc.po.Flags, tc.frame, make([]byte, 0, len(tc.frame)+4))
			} else {
				r = d.Process(tc.in, tc.frame, make([]byte, 0, len(tc.frame)+4))
			}
			assert.Equal(t, tc.kind, r.Kind)
			assert.Equal(t, tc.port, r.Port)
			assert.Equal(t, tc.reason, r.DropReason)
			assert.Equal(t, tc.want, readCounts(t, d).minus(before))
		})
	}
}

// TestCountersAfterCases runs every shared case and checks the totals the
// cases imply.
func TestCountersAfterCases(t *testing.T) {
	d := siteDP(t)
	cfg := siteConfig(t)
	cases := pc.Cases(cfg)
	_, failed := pc.RunT(t, newTarget(d), cases, pc.Timing{})
	require.Zero(t, failed)
	c := readCounts(t, d)
	// Every case enters once: port_rx counts all but the packet-outs.
	var rxTotal, packetOuts, drops uint64
	for _, x := range cases {
		if x.PacketOut != nil {
			packetOuts++
			continue
		}
		rxTotal++
		if len(x.Out) == 0 && x.PacketIn == nil {
			drops++
		}
	}
	sum := func(prefix string) (n uint64) {
		for k, v := range c {
			if len(k) > len(prefix) && k[:len(prefix)] == prefix {
				n += v[0]
			}
		}
		return n
	}
	assert.Equal(t, rxTotal, sum(p4src.CounterPortRx+"["))
	assert.Equal(t, rxTotal+packetOuts-drops, sum(p4src.CounterPortTx+"["))
	assert.Equal(t, drops, sum(p4src.CounterDrop+"["))
	assert.Equal(t, uint64(1), c[drop(p4src.DropUnknownPort)][0])
	assert.Equal(t, uint64(1), c[drop(p4src.DropUnknownLinkID)][0])
	assert.Equal(t, uint64(1), c[drop(p4src.DropNoCoreHeader)][0])
	var malformed uint64
	for _, x := range cases {
		if strings.HasPrefix(x.Name, "malformed:") && x.PacketOut == nil {
			malformed++
		}
	}
	assert.NotZero(t, malformed)
	assert.Equal(t, malformed, c[drop(p4src.DropMalformed)][0], "every malformed frame is dropped as malformed")
	assert.Equal(t, uint64(2), c[link(pc.L1ID, p4src.LinkCntReturned)][0]+c[link(pc.L2ID, p4src.LinkCntReturned)][0])
	assert.Equal(t, uint64(1), c[link(pc.L1ID, p4src.LinkCntHeartbeat)][0])
	assert.Equal(t, uint64(1), c[fgc(pc.F1ID, p4src.FGCntKeepAlive)][0])
	assert.Equal(t, uint64(1), c[tx(p4src.CPUPortBMv2)][0])
	// Balanced frames: every to-filter link count has its slot hit.
	toFilter := c[link(pc.L1ID, p4src.LinkCntToFilter)][0] + c[link(pc.L2ID, p4src.LinkCntToFilter)][0]
	assert.Equal(t, toFilter, sum(p4src.CounterCore+"["))
	assert.Equal(t, toFilter, c[fgc(pc.F1ID, p4src.FGCntToFilter)][0]+c[fgc(pc.F2ID, p4src.FGCntToFilter)][0])
	t.Logf("counters: %v", c)
}
