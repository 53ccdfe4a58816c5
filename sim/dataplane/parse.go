package dataplane

import (
	"encoding/binary"

	"github.com/dpi-balancer/balancer/p4src/wire"
)

// EtherTypes and protocols the parser selects on (p4src/shared/defines.p4).
const (
	etherIPv4      = 0x0800
	etherIPv6      = 0x86DD
	etherVLAN      = 0x8100
	etherQinQ      = 0x88A8
	etherQinQOld   = 0x9100
	etherMPLS      = 0x8847
	etherMPLSMC    = 0x8848
	etherPPPoESess = 0x8864
	pppIPv4        = 0x0021
	pppIPv6        = 0x0057
	protoTCP       = 6
	protoUDP       = 17

	ethLen   = 12 // ethernet_t: the two MAC addresses
	vlanLen  = 4
	mplsLen  = 4
	pppoeLen = 8
	ipv4Len  = 20
	ipv6Len  = 40
	tcpLen   = 20
	udpLen   = 8
)

// meta is a packet's parsed headers and metadata (hdr and md of the P4
// program). Absent headers leave their fields zero.
type meta struct {
	// packet_out (frames from the CPU port).
	po      bool
	poPort  uint32
	poFlags uint8
	ethOff  int // where ethernet starts (after packet_out)

	eth      bool
	dst, src uint64 // 48-bit MACs

	core     bool
	coreTPID uint16
	coreLink uint32
	coreID   uint32

	ka    bool
	kaOff int // offset of keepalive_t in the frame
	// keepalive_t.direction and .filter_group
	kaDir, kaFG uint32

	vlanDepth uint32
	outerVID  uint32
	innerVID  uint32
	ethType   uint32 // md.eth_type
	mplsDepth uint32

	ipv4, ipv6   bool
	v4src, v4dst uint32
	v6src, v6dst u128
	proto        uint32
	l4src, l4dst uint32

	// parseErr: the parser stopped on an error (a header or a lookahead
	// did not fit in the frame: PacketTooShort). badIHL: an IPv4 header
	// with IHL < 5. Either makes the frame malformed (meta.malformed).
	parseErr bool
	badIHL   bool

	// port_role results.
	linkID, side, peer, fg uint32

	// pipe: the ingress pipe of the port the frame arrived on (pipes.go).
	pipe uint8
}

// malformed is md.malformed of the P4 program: a parser error or an IPv4
// IHL below 5. The ingress drops such a frame (unless the controller sent
// it) with drop reason 6.
func (m *meta) malformed() bool { return m.parseErr || m.badIHL }

func isVLAN(t uint16) bool { return t == etherVLAN || t == etherQinQ || t == etherQinQOld }

func be16(b []byte) uint16 { return binary.BigEndian.Uint16(b) }

func be48(b []byte) uint64 {
	_ = b[5]
	return uint64(b[0])<<40 | uint64(b[1])<<32 | uint64(b[2])<<24 | uint64(b[3])<<16 | uint64(b[4])<<8 | uint64(b[5])
}

// parse runs the P4 parser (p4src/shared/parser.p4 and the v1model start
// state) over b. As in BMv2's v1model, a header that does not fit in what
// is left is not extracted and parsing stops there with parser error
// PacketTooShort (m.parseErr); the headers extracted so far stay valid and
// the packet goes on to ingress, which drops it as malformed unless it is
// a packet-out. A select on a lookahead that does not fit is the same
// error: in BMv2 it reads past the packet, but every state it could pick
// then fails its own extract, except after an MPLS bottom of stack that
// ends the frame (BMv2 picks by whatever byte follows; the software switch
// says parser error).
func (d *Dataplane) parse(b []byte, fromCPUPort bool, m *meta) {
	off := 0
	if fromCPUPort {
		// parse_packet_out: egress_port (9) | _pad0 (7) | flags (8).
		if len(b) < d.poLen || d.poLen < 3 {
			m.parseErr = true
			return
		}
		m.po = true
		m.poPort = uint32(b[0])<<1 | uint32(b[1]>>7)
		m.poFlags = b[2]
		off = d.poLen
	}
	d.parseEthernet(b, off, m)
}

func (d *Dataplane) parseEthernet(b []byte, off int, m *meta) {
	m.ethOff = off
	// parse_ethernet
	if len(b)-off < ethLen {
		m.parseErr = true
		return
	}
	m.eth = true
	m.dst = be48(b[off:])
	m.src = be48(b[off+6:])
	off += ethLen
	if len(b)-off < 2 {
		m.parseErr = true
		return
	}
	la := be16(b[off:])
	// parse_ethernet's select, in the P4 program's order: the default core
	// TPID and keep-alive EtherType are constants, tried before the value
	// sets, so they are recognised even with empty value sets.
	core := la == wire.DefaultCoreTPID || (la != wire.DefaultKeepAliveEtherType && d.coreTPID.has(la))
	switch {
	case core:
		if off, la = parseCore(b, off, la, m); m.parseErr {
			return
		}
	case la == wire.DefaultKeepAliveEtherType || d.keepAlive.has(la):
		parseKeepAlive(b, off, la, m)
		return
	}
	if off = parseVLANs(b, off, la, m); m.parseErr {
		return
	}
	d.parseEthType(b, off, m)
}

// parseCore is parse_core: the core header with TPID la at off. It
// returns the offset after it and the EtherType that follows.
func parseCore(b []byte, off int, la uint16, m *meta) (int, uint16) {
	if len(b)-off < wire.CoreHeaderLen {
		m.parseErr = true
		return off, la
	}
	w := be16(b[off+2:])
	m.coreLink, m.coreID = wire.ParseCoreTag(w)
	m.core, m.coreTPID = true, la
	off += wire.CoreHeaderLen
	if len(b)-off < 2 {
		m.parseErr = true
		return off, la
	}
	return off, be16(b[off:])
}

// parseKeepAlive is parse_keepalive: eth_type la at off, then
// keepalive_t; accept.
func parseKeepAlive(b []byte, off int, la uint16, m *meta) {
	m.ethType = uint32(la)
	off += 2
	if len(b)-off < wire.KeepAliveLen {
		m.parseErr = true
		return
	}
	m.ka, m.kaOff = true, off
	m.kaDir, m.kaFG = uint32(b[off+5]), uint32(be16(b[off+6:]))
}

// parseVLANs is parse_vlan_0 .. parse_vlan_2: up to three tags from off,
// the first with TPID la. It returns the offset of the EtherType after
// them.
func parseVLANs(b []byte, off int, la uint16, m *meta) int {
	for i := uint32(0); i < 3 && isVLAN(la); i++ {
		if len(b)-off < vlanLen {
			m.parseErr = true
			return off
		}
		vid := uint32(be16(b[off+2:]) & 0xfff)
		switch i {
		case 0:
			m.outerVID = vid
		case 1:
			m.innerVID = vid
		}
		m.vlanDepth = i + 1
		off += vlanLen
		if i == 2 {
			break // a fourth tag is not parsed: parse_eth_type
		}
		if len(b)-off < 2 {
			m.parseErr = true
			return off
		}
		la = be16(b[off:])
	}
	return off
}

// parseEthType is parse_eth_type at off and the states it selects.
func (d *Dataplane) parseEthType(b []byte, off int, m *meta) {
	if len(b)-off < 2 {
		m.parseErr = true
		return
	}
	et := be16(b[off:])
	m.ethType = uint32(et)
	off += 2
	switch et {
	case etherIPv4:
		d.parseIPv4(b, off, m)
	case etherIPv6:
		d.parseIPv6(b, off, m)
	case etherMPLS, etherMPLSMC:
		d.parseMPLS(b, off, m)
	case etherPPPoESess:
		d.parsePPPoE(b, off, m)
	}
}

// parsePPPoE is parse_pppoe: the session header at off, then IPv4 or
// IPv6 by its PPP protocol.
func (d *Dataplane) parsePPPoE(b []byte, off int, m *meta) {
	if len(b)-off < pppoeLen {
		m.parseErr = true
		return
	}
	proto := be16(b[off+6:])
	off += pppoeLen
	switch proto {
	case pppIPv4:
		d.parseIPv4(b, off, m)
	case pppIPv6:
		d.parseIPv6(b, off, m)
	}
}

// parseMPLS is parse_mpls_0 .. parse_mpls_7: up to 8 labels from off,
// then parse_mpls_payload after the bottom of stack.
func (d *Dataplane) parseMPLS(b []byte, off int, m *meta) {
	for i := uint32(0); i < 8; i++ {
		if len(b)-off < mplsLen {
			m.parseErr = true
			return
		}
		bos := b[off+2] & 1
		m.mplsDepth = i + 1
		off += mplsLen
		if bos == 1 {
			// parse_mpls_payload: the version nibble.
			if len(b)-off < 1 {
				m.parseErr = true
				return
			}
			switch b[off] >> 4 {
			case 4:
				d.parseIPv4(b, off, m)
			case 6:
				d.parseIPv6(b, off, m)
			}
			return
		}
	}
	// 8 labels without bottom of stack: the rest is payload.
}

func (d *Dataplane) parseIPv4(b []byte, off int, m *meta) {
	if len(b)-off < ipv4Len {
		m.parseErr = true
		return
	}
	h := b[off : off+ipv4Len]
	m.ipv4 = true
	m.proto = uint32(h[9])
	m.v4src = binary.BigEndian.Uint32(h[12:])
	m.v4dst = binary.BigEndian.Uint32(h[16:])
	ihl := int(h[0] & 0xf)
	frag := be16(h[6:]) & 0x1fff
	off += ipv4Len
	switch {
	case ihl < 5:
		m.badIHL = true // malformed: no L4, dropped by the ingress
		return
	case ihl > 5:
		opt := (ihl - 5) * 4
		if len(b)-off < opt {
			m.parseErr = true
			return
		}
		off += opt
	}
	// parse_ipv4_l4: only the first fragment carries L4.
	if frag == 0 {
		d.parseL4(b, off, h[9], m)
	}
}

func (d *Dataplane) parseIPv6(b []byte, off int, m *meta) {
	if len(b)-off < ipv6Len {
		m.parseErr = true
		return
	}
	h := b[off : off+ipv6Len]
	m.ipv6 = true
	m.proto = uint32(h[6])
	m.v6src = u128{binary.BigEndian.Uint64(h[8:]), binary.BigEndian.Uint64(h[16:])}
	m.v6dst = u128{binary.BigEndian.Uint64(h[24:]), binary.BigEndian.Uint64(h[32:])}
	d.parseL4(b, off+ipv6Len, h[6], m)
}

func (d *Dataplane) parseL4(b []byte, off int, proto byte, m *meta) {
	switch proto {
	case protoTCP:
		if len(b)-off < tcpLen {
			m.parseErr = true
			return
		}
	case protoUDP:
		if len(b)-off < udpLen {
			m.parseErr = true
			return
		}
	default:
		return
	}
	m.l4src = uint32(be16(b[off:]))
	m.l4dst = uint32(be16(b[off+2:]))
}
