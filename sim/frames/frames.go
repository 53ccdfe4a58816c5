// Package frames builds Ethernet frames for labs, demos and tests: VLAN
// tags, MPLS labels or PPPoE in front of IPv4 or IPv6 with TCP, UDP or
// another protocol, or a non-IP frame. The trace tool, the software
// switch's traffic generator and the pipeline cases all build their
// frames here.
package frames

import (
	"fmt"
	"net"
	"net/netip"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// L3 describes the IP part of a test frame.
type L3 struct {
	Src, Dst netip.Addr
	Proto    layers.IPProtocol
	SrcPort  uint16
	DstPort  uint16
	// FragOffset (IPv4, in 8-byte units) makes a non-first fragment.
	FragOffset uint16
	// Options adds 4 bytes of IPv4 options (IHL 6).
	Options bool
	// OptionWords, when > 0, adds that many 4-byte words of IPv4 options
	// instead (IHL 5 + OptionWords, at most 10): a record-route option
	// filling them, then an end-of-options byte.
	OptionWords int
	// EtherType of a frame without IP (Src unset): 0 (or 0x0806) makes an
	// ARP request; another value a frame of that EtherType with a short
	// payload.
	EtherType uint16
	// Payload replaces the default payload after the L4 header (after the
	// EtherType of a non-IP frame); nil keeps the default.
	Payload []byte
}

// Encap describes the tags in front of the IP header.
type Encap struct {
	// Tags are VLAN tags outermost first: TPID and VID.
	Tags []Tag
	// MPLS labels outermost first (bottom of stack set on the last).
	MPLS  []uint32
	PPPoE bool
}

// Tag is one VLAN tag.
type Tag struct {
	TPID uint16
	VID  uint16
}

// pppLCP is the PPP protocol number of the link control protocol.
const pppLCP layers.PPPType = 0xc021

// Frame builds an Ethernet frame with the given encapsulation and IP part.
// It panics on a description gopacket cannot serialise (a VLAN id past
// 4095, an MPLS label past 20 bits): use Build for values from outside.
func Frame(src, dst net.HardwareAddr, enc Encap, l3 L3) []byte {
	b, err := Build(src, dst, enc, l3)
	if err != nil {
		panic(err)
	}
	return b
}

// Build is Frame returning an error for a description that cannot be
// serialised.
func Build(src, dst net.HardwareAddr, enc Encap, l3 L3) ([]byte, error) {
	var ls []gopacket.SerializableLayer
	eth := &layers.Ethernet{SrcMAC: src, DstMAC: dst}
	ls = append(ls, eth)
	next := func(t layers.EthernetType) {
		switch x := ls[len(ls)-1].(type) {
		case *layers.Ethernet:
			x.EthernetType = t
		case *layers.Dot1Q:
			x.Type = t
		}
	}
	for _, tg := range enc.Tags {
		next(layers.EthernetType(tg.TPID))
		ls = append(ls, &layers.Dot1Q{VLANIdentifier: tg.VID})
	}
	is6 := l3.Src.Is6()
	ipType := layers.EthernetTypeIPv4
	if is6 {
		ipType = layers.EthernetTypeIPv6
	}
	switch {
	case len(enc.MPLS) > 0:
		next(layers.EthernetTypeMPLSUnicast)
		for i, l := range enc.MPLS {
			ls = append(ls, &layers.MPLS{Label: l, TTL: 64, StackBottom: i == len(enc.MPLS)-1})
		}
	case enc.PPPoE:
		next(layers.EthernetTypePPPoESession)
		ls = append(ls, &layers.PPPoE{Version: 1, Type: 1, Code: layers.PPPoECodeSession, SessionId: 0x1234})
		pt := layers.PPPTypeIPv4
		switch {
		case !l3.Src.IsValid():
			pt = pppLCP // no IP inside
		case is6:
			pt = layers.PPPTypeIPv6
		}
		ls = append(ls, &layers.PPP{PPPType: pt})
	default:
		next(ipType)
	}
	if !l3.Src.IsValid() && l3.EtherType != 0 && l3.EtherType != uint16(layers.EthernetTypeARP) {
		next(layers.EthernetType(l3.EtherType))
		payload := l3.Payload
		if payload == nil {
			payload = []byte("balancer frame")
		}
		return serialize(append(ls, gopacket.Payload(payload)))
	}
	if !l3.Src.IsValid() {
		next(layers.EthernetTypeARP)
		ls = append(ls, &layers.ARP{AddrType: layers.LinkTypeEthernet, Protocol: layers.EthernetTypeIPv4,
			HwAddressSize: 6, ProtAddressSize: 4, Operation: layers.ARPRequest,
			SourceHwAddress: src, SourceProtAddress: []byte{10, 0, 0, 1},
			DstHwAddress: make([]byte, 6), DstProtAddress: []byte{10, 0, 0, 2}})
		return serialize(ls)
	}
	var ipl gopacket.NetworkLayer
	if is6 {
		ip := &layers.IPv6{Version: 6, HopLimit: 64, NextHeader: l3.Proto, SrcIP: l3.Src.AsSlice(), DstIP: l3.Dst.AsSlice()}
		ls = append(ls, ip)
		ipl = ip
	} else {
		ip := &layers.IPv4{Version: 4, IHL: 5, TTL: 64, Protocol: l3.Proto, SrcIP: l3.Src.AsSlice(), DstIP: l3.Dst.AsSlice(),
			FragOffset: l3.FragOffset, Id: 7}
		switch {
		case l3.OptionWords > 0:
			// Record route (type 7): type, length, pointer, route data.
			n := min(l3.OptionWords, 10)*4 - 1
			data := make([]byte, n-2)
			data[0] = 4
			ip.Options = []layers.IPv4Option{{OptionType: 7, OptionLength: uint8(n), OptionData: data}, {OptionType: 0}}
		case l3.Options:
			ip.Options = []layers.IPv4Option{{OptionType: 1}, {OptionType: 1}, {OptionType: 1}, {OptionType: 0}}
		}
		ls = append(ls, ip)
		ipl = ip
	}
	payload := gopacket.Payload([]byte("balancer test payload"))
	if l3.Payload != nil {
		payload = l3.Payload
	}
	switch {
	case l3.FragOffset > 0:
		ls = append(ls, payload)
	case l3.Proto == layers.IPProtocolTCP:
		tcp := &layers.TCP{SrcPort: layers.TCPPort(l3.SrcPort), DstPort: layers.TCPPort(l3.DstPort), Seq: 1, SYN: true, Window: 1024}
		_ = tcp.SetNetworkLayerForChecksum(ipl)
		ls = append(ls, tcp, payload)
	case l3.Proto == layers.IPProtocolUDP:
		udp := &layers.UDP{SrcPort: layers.UDPPort(l3.SrcPort), DstPort: layers.UDPPort(l3.DstPort)}
		_ = udp.SetNetworkLayerForChecksum(ipl)
		ls = append(ls, udp, payload)
	default:
		ls = append(ls, payload)
	}
	return serialize(ls)
}

func serialize(ls []gopacket.SerializableLayer) ([]byte, error) {
	buf := gopacket.NewSerializeBuffer()
	if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}, ls...); err != nil {
		return nil, fmt.Errorf("frames: %w", err)
	}
	b := buf.Bytes()
	// Pad to the Ethernet minimum like a NIC would, so every target sees
	// the same bytes.
	for len(b) < 60 {
		b = append(b, 0)
	}
	return append([]byte(nil), b...), nil
}
