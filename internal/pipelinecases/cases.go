// Package pipelinecases is the one table of packet cases that every target
// of the balancer's pipeline must pass: BMv2 running the compiled P4 program
// and the software switch. Each case is a frame into a port and exactly the
// frames (port and bytes) that must come out, or the packet-in that must
// reach the controller, under the configuration in site.yaml.
//
// Expected results come from the contracts (docs/dataplane.md): the
// symmetric hash (package symhash), the slot layout (package tables) and
// the wire formats. A few are also worked by hand (see KnownAnswer).
package pipelinecases

import (
	_ "embed"
	"fmt"
	"net"
	"net/netip"

	"github.com/gopacket/gopacket/layers"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/sim/frames"
	"github.com/dpi-balancer/balancer/symhash"
	"github.com/dpi-balancer/balancer/tables"
)

//go:embed site.yaml
var siteYAML []byte

// Data-plane ports of site.yaml (platform sim).
const (
	L1WAN = 10
	L1LAN = 20
	F1WAN = 30
	F1LAN = 40
	L2WAN = 51
	L2LAN = 52
	F2WAN = 53
	F2LAN = 54
	// Unknown is a port with no role.
	Unknown = 60
	L1ID    = 0
	L2ID    = 5
	F1ID    = 0
	F2ID    = 1
)

// Ports lists every data-plane port the cases use.
var Ports = []uint32{L1WAN, L1LAN, F1WAN, F1LAN, L2WAN, L2LAN, F2WAN, F2LAN, Unknown}

// Config returns the parsed and validated site.yaml.
func Config() (*config.Config, error) { return config.Parse(siteYAML) }

// Case is one packet through the pipeline.
type Case struct {
	Name string
	// In is the ingress port; when PacketOut is set the frame comes from
	// the controller instead.
	In        uint32
	PacketOut *PacketOut
	Frame     []byte
	// Out lists every frame that must leave the switch (none: dropped).
	Out []Output
	// PacketIn is the packet-in the controller must get, if any.
	PacketIn *PacketIn
}

// PacketOut is the controller header of a frame sent by the controller.
type PacketOut struct {
	Port  uint32
	Flags uint8
}

// PacketIn is an expected packet-in.
type PacketIn struct {
	IngressPort uint32
	Reason      uint8
	Frame       []byte
}

// Output is an expected frame on a port.
type Output struct {
	Port  uint32
	Frame []byte
	// TxTimestampAt, when > 0, is the offset of an 8-byte keep-alive tx
	// timestamp the data plane writes: it must be non-zero and is not
	// compared.
	TxTimestampAt int
}

var (
	macA   = net.HardwareAddr{0x00, 0x11, 0x22, 0x33, 0x44, 0x55}
	macB   = net.HardwareAddr{0x00, 0x66, 0x77, 0x88, 0x99, 0xaa}
	macHB  = net.HardwareAddr{0x00, 0xe0, 0xed, 0xaa, 0xbb, 0xcc}
	ip1    = netip.MustParseAddr("10.0.0.1")
	ip2    = netip.MustParseAddr("10.0.0.2")
	v6a    = netip.MustParseAddr("2001:db8::1")
	v6b    = netip.MustParseAddr("2001:db8:ffff::2")
	testIP = netip.MustParseAddr("192.0.2.5")
)

// The frame builder is package frames; these are its names here.
type (
	L3    = frames.L3
	Encap = frames.Encap
	Tag   = frames.Tag
)

// Frame builds an Ethernet frame with the given encapsulation and IP part.
func Frame(src, dst net.HardwareAddr, enc Encap, l3 L3) []byte {
	return frames.Frame(src, dst, enc, l3)
}

// PushCore returns the frame with the core header inserted after the
// source MAC (contract §3.2).
func PushCore(frame []byte, tpid uint16, link, core uint32) []byte {
	return wire.InsertCoreHeader(frame, wire.CoreHeader{TPID: tpid, Link: link, Core: core})
}

// KeepAlive builds a keep-alive frame (contract §3.2), 60 bytes.
func KeepAlive(fg uint16, seq uint32, tx uint64) []byte {
	return wire.EncodeKeepAlive([6]byte{0x02, 0, 0, 0, 0, 0x02}, [6]byte{0x02, 0, 0, 0, 0, 0x01}, wire.DefaultKeepAliveEtherType,
		wire.KeepAlive{FilterGroup: fg, Seq: seq, TxTimestamp: tx})
}

// KeepAliveTxOffset is where the tx timestamp sits in a keep-alive frame.
const KeepAliveTxOffset = 14 + wire.KeepAliveTxOffset

// Placement is where a session lands under site.yaml, by the Go model.
func Placement(cfg *config.Config, src, dst netip.Addr, proto uint8) (fg, core uint32) {
	bg := cfg.BalanceGroups[0]
	var members []tables.Member
	for _, name := range bg.Members {
		f := cfg.FilterGroupByName(name)
		members = append(members, tables.Member{ID: *f.ID, Cores: f.Cores})
	}
	l, err := tables.BaseLayout(*bg.ID, uint(bg.SlotBits), members)
	if err != nil {
		panic(err)
	}
	t := l.Slots[symhash.Slot(symhash.Sum(src, dst, proto), uint(bg.SlotBits))]
	return t.FilterGroup, t.Core
}

// KnownAnswer is a session placement worked by hand from the contracts:
// CRC-32 of 0a000001 0a000002 06 is 0x299e9283, slot (4 bits) 3; the
// layout of F1 (4 cores) and F2 (2 cores) deals F1/0 F2/0 F1/1 F2/1 F1/2
// F1/3, so slot 3 is filter group F2 (id 1), core 1.
var KnownAnswer = struct {
	Src, Dst netip.Addr
	Proto    uint8
	FG, Core uint32
}{ip1, ip2, 6, F2ID, 1}

// Cases returns every case. cfg must be Config().
func Cases(cfg *config.Config) []Case {
	var cs []Case
	add := func(c Case) { cs = append(cs, c) }
	tpid := uint16(wire.DefaultCoreTPID)
	fgPort := map[uint32][2]uint32{F1ID: {F1LAN, F1WAN}, F2ID: {F2LAN, F2WAN}}
	// balanced: the frame enters link port in (side lan?) and must reach
	// the filter group chosen by the model, on the same side.
	balanced := func(name string, in uint32, link uint32, lan bool, frame []byte, src, dst netip.Addr, proto uint8) {
		fg, core := Placement(cfg, src, dst, proto)
		side := 1
		if lan {
			side = 0
		}
		add(Case{Name: name, In: in, Frame: frame, Out: []Output{{Port: fgPort[fg][side], Frame: PushCore(frame, tpid, link, core)}}})
	}
	bypass := func(name string, in, out uint32, frame []byte) {
		add(Case{Name: name, In: in, Frame: frame, Out: []Output{{Port: out, Frame: frame}}})
	}
	arp := Frame(macA, macB, Encap{}, L3{})
	bypass("pairing: L1 LAN to WAN (non-IP bypass)", L1LAN, L1WAN, arp)
	bypass("pairing: L1 WAN to LAN (non-IP bypass)", L1WAN, L1LAN, arp)
	bypass("pairing: L2 lanes LAN to WAN", L2LAN, L2WAN, arp)
	bypass("pairing: L2 lanes WAN to LAN", L2WAN, L2LAN, arp)

	bgp := func(sp, dp uint16) []byte {
		return Frame(macA, macB, Encap{}, L3{Src: ip1, Dst: ip2, Proto: layers.IPProtocolTCP, SrcPort: sp, DstPort: dp})
	}
	bypass("rule: BGP dst port 179 bypassed", L1LAN, L1WAN, bgp(40000, 179))
	bypass("rule: BGP src port 179 bypassed (other direction)", L1WAN, L1LAN, bgp(179, 40000))
	v666 := Frame(macA, macB, Encap{Tags: []Tag{{TPID: 0x8100, VID: 666}}}, L3{Src: ip1, Dst: ip2, Proto: layers.IPProtocolTCP, SrcPort: 1, DstPort: 2})
	bypass("rule: VLAN 666 bypassed with its tag untouched", L1LAN, L1WAN, v666)
	// Range borders (rules udp-3001-3999, vlan-701-749): lo-1 and hi+1
	// are balanced, lo and hi bypassed.
	for _, p := range []struct {
		port   uint16
		inside bool
	}{{3000, false}, {3001, true}, {3999, true}, {4000, false}} {
		f := Frame(macA, macB, Encap{}, L3{Src: ip1, Dst: ip2, Proto: layers.IPProtocolUDP, SrcPort: 7, DstPort: p.port})
		if p.inside {
			bypass(fmt.Sprintf("rule: UDP dst port %d in 3001-3999 bypassed", p.port), L1LAN, L1WAN, f)
		} else {
			balanced(fmt.Sprintf("rule: UDP dst port %d outside 3001-3999 balanced", p.port), L1LAN, L1ID, true, f, ip1, ip2, 17)
		}
	}
	for _, v := range []struct {
		vid    uint16
		inside bool
	}{{700, false}, {701, true}, {749, true}, {750, false}} {
		f := Frame(macA, macB, Encap{Tags: []Tag{{TPID: 0x8100, VID: v.vid}}}, L3{Src: ip1, Dst: ip2, Proto: layers.IPProtocolTCP, SrcPort: 1, DstPort: 2})
		if v.inside {
			bypass(fmt.Sprintf("rule: VLAN %d in 701-749 bypassed", v.vid), L1LAN, L1WAN, f)
		} else {
			balanced(fmt.Sprintf("rule: VLAN %d outside 701-749 balanced", v.vid), L1LAN, L1ID, true, f, ip1, ip2, 6)
		}
	}
	tn := Frame(macA, macB, Encap{}, L3{Src: testIP, Dst: ip2, Proto: layers.IPProtocolUDP, SrcPort: 5, DstPort: 6})
	bypass("rule bound to L2: bypassed on L2", L2LAN, L2WAN, tn)
	balanced("rule bound to L2: balanced on L1", L1LAN, L1ID, true, tn, testIP, ip2, 17)

	ka := KnownAnswer
	tcp := Frame(macA, macB, Encap{}, L3{Src: ka.Src, Dst: ka.Dst, Proto: layers.IPProtocolTCP, SrcPort: 1234, DstPort: 80})
	add(Case{Name: "balance: known answer 10.0.0.1->10.0.0.2 tcp to F2 core 1", In: L1LAN, Frame: tcp,
		Out: []Output{{Port: F2LAN, Frame: PushCore(tcp, tpid, L1ID, ka.Core)}}})
	rev := Frame(macB, macA, Encap{}, L3{Src: ka.Dst, Dst: ka.Src, Proto: layers.IPProtocolTCP, SrcPort: 80, DstPort: 1234})
	add(Case{Name: "balance: symmetric, reply 10.0.0.2->10.0.0.1 from WAN to F2 WAN core 1", In: L1WAN, Frame: rev,
		Out: []Output{{Port: F2WAN, Frame: PushCore(rev, tpid, L1ID, ka.Core)}}})
	frag := Frame(macA, macB, Encap{}, L3{Src: ka.Src, Dst: ka.Dst, Proto: layers.IPProtocolTCP, FragOffset: 100})
	add(Case{Name: "balance: non-first fragment follows its session", In: L1LAN, Frame: frag,
		Out: []Output{{Port: F2LAN, Frame: PushCore(frag, tpid, L1ID, ka.Core)}}})
	opt := Frame(macA, macB, Encap{}, L3{Src: ip1, Dst: ip2, Proto: layers.IPProtocolTCP, SrcPort: 40000, DstPort: 179, Options: true})
	bypass("parse: IPv4 options skipped to reach the BGP port", L1LAN, L1WAN, opt)
	opt15 := Frame(macA, macB, Encap{}, L3{Src: ip1, Dst: ip2, Proto: layers.IPProtocolTCP, SrcPort: 40000, DstPort: 179, OptionWords: 10})
	bypass("parse: 40 bytes of IPv4 options (IHL 15) skipped to reach the BGP port", L1LAN, L1WAN, opt15)
	for _, w := range []int{1, 7, 10} {
		f := Frame(macA, macB, Encap{}, L3{Src: ip2, Dst: ip1, Proto: layers.IPProtocolUDP, SrcPort: 4000, DstPort: 5000, OptionWords: w})
		balanced(fmt.Sprintf("parse: IPv4 options IHL %d balanced, options unchanged", 5+w), L1WAN, L1ID, false, f, ip2, ip1, 17)
	}
	l2 := Frame(macA, macB, Encap{}, L3{Src: ip1, Dst: ip2, Proto: layers.IPProtocolUDP, SrcPort: 9, DstPort: 9})
	balanced("balance: link L2 id in the header", L2LAN, L2ID, true, l2, ip1, ip2, 17)

	for i := 0; i < 8; i++ {
		src := netip.AddrFrom4([4]byte{172, 16, byte(i), 1})
		dst := netip.AddrFrom4([4]byte{198, 51, 100, byte(i * 7)})
		f := Frame(macA, macB, Encap{}, L3{Src: src, Dst: dst, Proto: layers.IPProtocolUDP, SrcPort: 1000, DstPort: 2000})
		balanced(fmt.Sprintf("balance: IPv4 session %d", i), L1LAN, L1ID, true, f, src, dst, 17)
		r := Frame(macB, macA, Encap{}, L3{Src: dst, Dst: src, Proto: layers.IPProtocolUDP, SrcPort: 2000, DstPort: 1000})
		balanced(fmt.Sprintf("balance: IPv4 session %d reply", i), L1WAN, L1ID, false, r, dst, src, 17)
	}
	qinq := Frame(macA, macB, Encap{Tags: []Tag{{TPID: 0x88a8, VID: 100}, {TPID: 0x8100, VID: 200}}}, L3{Src: ip1, Dst: ip2, Proto: layers.IPProtocolUDP, SrcPort: 53, DstPort: 53})
	balanced("encap: QinQ IPv4, header before the tags, tags untouched", L1LAN, L1ID, true, qinq, ip1, ip2, 17)
	tags3 := Frame(macA, macB, Encap{Tags: []Tag{{TPID: 0x9100, VID: 1}, {TPID: 0x88a8, VID: 2}, {TPID: 0x8100, VID: 3}}}, L3{Src: v6a, Dst: v6b, Proto: layers.IPProtocolTCP, SrcPort: 1, DstPort: 2})
	balanced("encap: three tags IPv6", L1WAN, L1ID, false, tags3, v6a, v6b, 6)
	mpls := Frame(macA, macB, Encap{Tags: []Tag{{TPID: 0x88a8, VID: 10}, {TPID: 0x8100, VID: 20}}, MPLS: []uint32{100, 200, 300}}, L3{Src: v6a, Dst: v6b, Proto: layers.IPProtocolUDP, SrcPort: 7, DstPort: 8})
	balanced("encap: QinQ + 3 MPLS labels + IPv6", L1LAN, L1ID, true, mpls, v6a, v6b, 17)
	mpls4 := Frame(macA, macB, Encap{MPLS: []uint32{16}}, L3{Src: ip2, Dst: ip1, Proto: layers.IPProtocolTCP, SrcPort: 7, DstPort: 8})
	balanced("encap: MPLS IPv4", L1WAN, L1ID, false, mpls4, ip2, ip1, 6)
	pppoe := Frame(macA, macB, Encap{PPPoE: true}, L3{Src: ip1, Dst: ip2, Proto: layers.IPProtocolTCP, SrcPort: 7, DstPort: 8})
	balanced("encap: PPPoE IPv4", L1LAN, L1ID, true, pppoe, ip1, ip2, 6)
	pppoe6 := Frame(macA, macB, Encap{Tags: []Tag{{TPID: 0x8100, VID: 5}}, PPPoE: true}, L3{Src: v6b, Dst: v6a, Proto: layers.IPProtocolUDP, SrcPort: 7, DstPort: 8})
	balanced("encap: VLAN PPPoE IPv6", L1LAN, L1ID, true, pppoe6, v6b, v6a, 17)
	v6 := Frame(macA, macB, Encap{}, L3{Src: v6a, Dst: v6b, Proto: layers.IPProtocolTCP, SrcPort: 443, DstPort: 5555})
	balanced("balance: IPv6", L2LAN, L2ID, true, v6, v6a, v6b, 6)
	v6r := Frame(macB, macA, Encap{}, L3{Src: v6b, Dst: v6a, Proto: layers.IPProtocolTCP, SrcPort: 5555, DstPort: 443})
	balanced("balance: IPv6 reply", L2WAN, L2ID, false, v6r, v6b, v6a, 6)
	tags4 := Frame(macA, macB, Encap{Tags: []Tag{{TPID: 0x8100, VID: 1}, {TPID: 0x8100, VID: 2}, {TPID: 0x8100, VID: 3}, {TPID: 0x8100, VID: 4}}}, L3{Src: ip1, Dst: ip2, Proto: layers.IPProtocolTCP, SrcPort: 1, DstPort: 2})
	bypass("parse: a fourth VLAN tag is not parsed: non-IP bypass", L1LAN, L1WAN, tags4)
	malformedCases(add)
	hb := Frame(macA, macHB, Encap{}, L3{Src: ip1, Dst: ip2, Proto: layers.IPProtocolUDP, SrcPort: 1, DstPort: 2})
	bypass("heartbeat: bypass-unit heartbeat passed straight through", L1WAN, L1LAN, hb)

	// Return path.
	ret := Frame(macA, macB, Encap{Tags: []Tag{{TPID: 0x8100, VID: 42}}}, L3{Src: ip1, Dst: ip2, Proto: layers.IPProtocolTCP, SrcPort: 1, DstPort: 2})
	add(Case{Name: "return: header popped, out of L1 WAN", In: F2WAN, Frame: PushCore(ret, tpid, L1ID, 1), Out: []Output{{Port: L1WAN, Frame: ret}}})
	add(Case{Name: "return: header popped, out of L2 LAN", In: F1LAN, Frame: PushCore(ret, tpid, L2ID, 3), Out: []Output{{Port: L2LAN, Frame: ret}}})
	add(Case{Name: "return: unknown link id dropped", In: F1WAN, Frame: PushCore(ret, tpid, 9, 0)})
	add(Case{Name: "return: frame without core header dropped", In: F1WAN, Frame: ret})
	add(Case{Name: "unknown port dropped", In: Unknown, Frame: tcp})

	// Keep-alives.
	kaf := KeepAlive(F1ID, 77, 0)
	add(Case{Name: "keep-alive from a filter port to the controller", In: F1WAN, Frame: kaf,
		PacketIn: &PacketIn{IngressPort: F1WAN, Reason: wire.PacketInReasonKeepAlive, Frame: kaf}})
	add(Case{Name: "packet-out keep-alive gets its tx timestamp", PacketOut: &PacketOut{Port: F1LAN, Flags: wire.PacketOutFlagKeepAlive}, Frame: kaf,
		Out: []Output{{Port: F1LAN, Frame: kaf, TxTimestampAt: KeepAliveTxOffset}}})
	add(Case{Name: "packet-out plain frame leaves unchanged", PacketOut: &PacketOut{Port: L1WAN}, Frame: arp,
		Out: []Output{{Port: L1WAN, Frame: arp}}})
	return cs
}

// malformedCases are frames the parser cannot read to the end of their
// headers (parser error), or with an IPv4 IHL below 5: dropped on any
// port, never balanced or bypassed (drop reason 6). Frames from the
// controller leave as given. Each frame is cut inside one header.
func malformedCases(add func(Case)) {
	cut := func(f []byte, n int) []byte { return append([]byte(nil), f[:n]...) }
	drop := func(name string, in uint32, f []byte) {
		add(Case{Name: "malformed: " + name + " dropped", In: in, Frame: f})
	}
	tcp := Frame(macA, macB, Encap{}, L3{Src: ip1, Dst: ip2, Proto: layers.IPProtocolTCP, SrcPort: 1, DstPort: 2})
	udp := Frame(macA, macB, Encap{}, L3{Src: ip1, Dst: ip2, Proto: layers.IPProtocolUDP, SrcPort: 1, DstPort: 2})
	// Frames shorter than the 14-byte Ethernet header cannot be sent on a
	// Linux port (AF_PACKET refuses them), so they are not cases here;
	// the software switch's own tests drop them as malformed. The tags
	// cut short are 0x9100 ones: Linux drops a frame whose 802.1Q or
	// 802.1ad tag is cut short (it strips those tags on receive) before a
	// switch on a veth sees it.
	tag := func(n int) Encap {
		var ts []Tag
		for i := range n {
			ts = append(ts, Tag{TPID: 0x9100, VID: uint16(7 + i)})
		}
		return Encap{Tags: ts}
	}
	drop("frame cut after the TPID of a tag", L1LAN, cut(Frame(macA, macB, tag(1), L3{Src: ip1, Dst: ip2, Proto: layers.IPProtocolTCP, SrcPort: 1, DstPort: 2}), 14))
	drop("frame cut inside a tag", L1WAN, cut(Frame(macA, macB, tag(1), L3{Src: ip1, Dst: ip2, Proto: layers.IPProtocolTCP, SrcPort: 1, DstPort: 2}), 12+3))
	drop("frame cut inside the second tag", L1LAN, cut(Frame(macA, macB, tag(2), L3{Src: ip1, Dst: ip2, Proto: layers.IPProtocolTCP, SrcPort: 1, DstPort: 2}), 12+4+2))
	mpls := Frame(macA, macB, Encap{MPLS: []uint32{100, 200}}, L3{Src: ip1, Dst: ip2, Proto: layers.IPProtocolTCP, SrcPort: 1, DstPort: 2})
	drop("frame cut inside the MPLS label stack", L1LAN, cut(mpls, 14+4+2))
	pppoe := Frame(macA, macB, Encap{PPPoE: true}, L3{Src: ip1, Dst: ip2, Proto: layers.IPProtocolTCP, SrcPort: 1, DstPort: 2})
	drop("frame cut inside the PPPoE header", L1LAN, cut(pppoe, 14+5))
	drop("frame cut inside the IPv4 header", L1LAN, cut(tcp, 14+12))
	opt := Frame(macA, macB, Encap{}, L3{Src: ip1, Dst: ip2, Proto: layers.IPProtocolTCP, SrcPort: 1, DstPort: 2, OptionWords: 10})
	drop("frame cut inside the IPv4 options (IHL 15)", L1LAN, cut(opt, 14+20+22))
	// A first fragment too short to hold its L4 header (RFC 1858):
	// the total length says more than there is.
	shortTCP := cut(tcp, 14+20+6)
	shortTCP[14+2], shortTCP[14+3] = 0, 100
	drop("TCP header cut (IPv4)", L1LAN, shortTCP)
	drop("UDP header cut (IPv4)", L1WAN, cut(udp, 14+20+4))
	ihl4 := Frame(macA, macB, Encap{}, L3{Src: ip1, Dst: ip2, Proto: layers.IPProtocolUDP, SrcPort: 1, DstPort: 2})
	ihl4[14] = 0x44
	drop("IPv4 IHL 4", L1LAN, ihl4)
	v6 := Frame(macA, macB, Encap{}, L3{Src: v6a, Dst: v6b, Proto: layers.IPProtocolTCP, SrcPort: 1, DstPort: 2})
	drop("frame cut inside the IPv6 header", L2LAN, cut(v6, 14+30))
	drop("TCP header cut (IPv6)", L2WAN, cut(v6, 14+40+10))
	// The return path and the keep-alives parse the same way.
	ret := PushCore(tcp, wire.DefaultCoreTPID, L1ID, 1)
	drop("frame from a filter cut inside the core header", F1WAN, cut(ret, 12+3))
	drop("frame from a filter cut inside the IPv4 header", F1WAN, cut(ret, 12+4+2+10))
	drop("keep-alive cut short", F1WAN, cut(KeepAlive(F1ID, 5, 0), 14+10))
	drop("frame cut on an unknown port", Unknown, cut(tcp, 14+12))
	// The controller's frames are not inspected traffic: sent as given.
	cutTCP := cut(tcp, 14+12)
	add(Case{Name: "malformed: a packet-out of a cut frame leaves as given", PacketOut: &PacketOut{Port: L1WAN}, Frame: cutTCP,
		Out: []Output{{Port: L1WAN, Frame: cutTCP}}})
}

// EmptyValueSets returns the updates that empty the parser value sets the
// compiler writes (core TPID, keep-alive EtherType). The P4 program also
// parses the defaults as constants, so every case must still pass after
// them: the state of a target that cannot program value sets (BMv2 with PI
// 0.1.2) or of a switch before the controller wrote them.
func EmptyValueSets(c *tables.Compiler) []*p4v1.Update {
	var us []*p4v1.Update
	for _, id := range c.ValueSetIDs() {
		us = append(us, &p4v1.Update{Type: p4v1.Update_MODIFY, Entity: &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{
			ValueSetEntry: &p4v1.ValueSetEntry{ValueSetId: id}}}})
	}
	return us
}
