package e2e

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"net"
	"net/netip"

	"github.com/gopacket/gopacket/layers"

	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/sim/frames"
)

// dir is the direction of a frame on its link.
type dir uint8

const (
	lanToWAN dir = 0 // sent into the link's LAN port, must leave by its WAN port
	wanToLAN dir = 1
)

func (d dir) String() string {
	if d == wanToLAN {
		return "WAN->LAN"
	}
	return "LAN->WAN"
}

// Every test frame ends with a tag: magic(4) flow(4) seq(4) dir(1) pad(3).
const tagLen = 16

var tagMagic = [4]byte{0xe2, 0xe0, 0xba, 0x1a}

// key identifies one frame sent by a test.
type key struct {
	flow uint32
	seq  uint32
	dir  dir
}

func readTag(frame []byte) (key, bool) {
	if len(frame) < tagLen {
		return key{}, false
	}
	t := frame[len(frame)-tagLen:]
	if [4]byte(t[0:4]) != tagMagic {
		return key{}, false
	}
	return key{flow: binary.BigEndian.Uint32(t[4:8]), seq: binary.BigEndian.Uint32(t[8:12]), dir: dir(t[12])}, true
}

func putTag(b []byte, k key) {
	copy(b[0:4], tagMagic[:])
	binary.BigEndian.PutUint32(b[4:8], k.flow)
	binary.BigEndian.PutUint32(b[8:12], k.seq)
	b[12] = byte(k.dir)
}

// setSeq rewrites the sequence number of a tagged frame in place.
func setSeq(frame []byte, seq uint32) {
	binary.BigEndian.PutUint32(frame[len(frame)-8:len(frame)-4], seq)
}

var (
	macLAN = net.HardwareAddr{0x02, 0xe2, 0xe0, 0x00, 0x00, 0x01} // subscriber side host
	macWAN = net.HardwareAddr{0x02, 0xe2, 0xe0, 0x00, 0x00, 0x02} // internet side host
	// macHeartbeat is the bypass units' heartbeat destination (site config).
	macHeartbeat = net.HardwareAddr{0x00, 0xe0, 0xed, 0xaa, 0xbb, 0xcc}
)

// etherTypeNonIP is the EtherType of the test's non-IP frames (IEEE local
// experimental 2).
const etherTypeNonIP = 0x88b7

// flow is one session on one link. Src/Dst and the ports are as sent
// LAN->WAN; the other direction swaps them.
type flow struct {
	id           uint32
	link         int // index into topology links
	enc          pipelinecases.Encap
	src, dst     netip.Addr // invalid: a non-IP frame
	proto        layers.IPProtocol
	sport, dport uint16
	fragOffset   uint16           // IPv4 non-first fragment (8-byte units)
	dstMAC       net.HardwareAddr // both directions (heartbeats); nil: the hosts' MACs
}

func (f *flow) isIP() bool { return f.src.IsValid() }

func (f *flow) String() string {
	if !f.isIP() {
		return fmt.Sprintf("flow %d non-IP on link %d", f.id, f.link)
	}
	return fmt.Sprintf("flow %d %s->%s proto %d %d->%d on link %d", f.id, f.src, f.dst, f.proto, f.sport, f.dport, f.link)
}

// triple returns the session's addresses and protocol as sent in d.
func (f *flow) triple(d dir) (src, dst netip.Addr, proto uint8) {
	if d == wanToLAN {
		return f.dst, f.src, uint8(f.proto)
	}
	return f.src, f.dst, uint8(f.proto)
}

// frame builds the flow's frame in direction d with sequence number seq.
// The tag is always the last 16 bytes; frames are at least 60 bytes.
func (f *flow) frame(d dir, seq uint32) []byte {
	b := f.build(d, seq, 0)
	// gopacket pads a short frame to 60 bytes after the payload: put the
	// padding in front of the tag instead.
	if i := bytes.LastIndex(b, tagMagic[:]); i+tagLen < len(b) {
		b = f.build(d, seq, len(b)-i-tagLen)
	}
	return b
}

func (f *flow) build(d dir, seq uint32, pad int) []byte {
	srcMAC, dstMAC := macLAN, macWAN
	src, dst, sport, dport := f.src, f.dst, f.sport, f.dport
	if d == wanToLAN {
		srcMAC, dstMAC = macWAN, macLAN
		src, dst, sport, dport = dst, src, dport, sport
	}
	if f.dstMAC != nil {
		dstMAC = f.dstMAC
	}
	payload := make([]byte, pad+tagLen)
	putTag(payload[pad:], key{flow: f.id, seq: seq, dir: d})
	l3 := frames.L3{Src: src, Dst: dst, Proto: f.proto, SrcPort: sport, DstPort: dport, FragOffset: f.fragOffset, Payload: payload}
	enc := f.enc
	if !f.isIP() {
		l3 = frames.L3{EtherType: etherTypeNonIP, Payload: payload}
		enc = frames.Encap{Tags: f.enc.Tags}
	}
	b, err := frames.Build(srcMAC, dstMAC, enc, l3)
	if err != nil {
		panic(fmt.Sprintf("e2e: %v: %v", f, err))
	}
	return b
}

// Address pools of the generated flows: none of them hits a bypass rule
// of the test site (BGP, VLAN 666, 192.0.2.0/24 on L2, 203.0.113.0/24).
func randV4(r *rand.Rand, first byte) netip.Addr {
	return netip.AddrFrom4([4]byte{first, byte(r.IntN(256)), byte(r.IntN(256)), byte(1 + r.IntN(254))})
}

func randV6(r *rand.Rand) netip.Addr {
	var a [16]byte
	a[0], a[1], a[2], a[3] = 0x20, 0x01, 0x0d, 0xb8
	for i := 4; i < 16; i++ {
		a[i] = byte(r.IntN(256))
	}
	return netip.AddrFrom16(a)
}

// genFlows returns n sessions spread over the links: IPv4 (most) and IPv6,
// TCP and UDP, some with VLAN, QinQ, MPLS or PPPoE encapsulation. The set
// depends only on seed, so runs are reproducible.
func genFlows(n int, links int, firstID uint32, seed uint64) []*flow {
	r := rand.New(rand.NewPCG(seed, 0xe2e))
	encs := []pipelinecases.Encap{
		{},
		{Tags: []pipelinecases.Tag{{TPID: 0x8100, VID: 100}}},
		{Tags: []pipelinecases.Tag{{TPID: 0x88a8, VID: 200}, {TPID: 0x8100, VID: 300}}},
		{MPLS: []uint32{1000, 2000}},
		{PPPoE: true},
	}
	out := make([]*flow, 0, n)
	for i := 0; i < n; i++ {
		f := &flow{id: firstID + uint32(i), link: i % links, proto: layers.IPProtocolTCP,
			sport: uint16(1024 + r.IntN(60000)), dport: uint16(1024 + r.IntN(60000))}
		if r.IntN(3) == 0 {
			f.proto = layers.IPProtocolUDP
		}
		if r.IntN(10) == 0 {
			f.src, f.dst = randV6(r), randV6(r)
		} else {
			f.src, f.dst = randV4(r, 10), randV4(r, 100)
		}
		if r.IntN(4) == 0 {
			f.enc = encs[1+r.IntN(len(encs)-1)]
		}
		out = append(out, f)
	}
	return out
}
