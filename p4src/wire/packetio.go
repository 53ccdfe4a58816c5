package wire

import (
	"fmt"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/p4src"
)

// Packet-I/O metadata: the fields of the packet_in and packet_out
// controller headers, and their values.
const (
	MetaIngressPort = "ingress_port" // packet_in
	MetaReason      = "reason"       // packet_in
	MetaRxTimestamp = "rx_timestamp" // packet_in, TimestampBits
	MetaEgressPort  = "egress_port"  // packet_out
	MetaFlags       = "flags"        // packet_out
	MetaPad         = "_pad0"        // both

	PacketInReasonKeepAlive = 1
	PacketOutFlagKeepAlive  = 0x01
)

// PacketIO maps the controller headers' metadata names to their P4Info ids
// and back, resolved once from the schema.
type PacketIO struct {
	inID, outID     map[string]uint32
	inName, outName map[uint32]string
}

// NewPacketIO resolves the packet_in and packet_out headers of the schema.
// Each field the balancer writes must be present.
func NewPacketIO(s *p4src.Schema) (*PacketIO, error) {
	p := &PacketIO{inID: map[string]uint32{}, outID: map[string]uint32{}, inName: map[uint32]string{}, outName: map[uint32]string{}}
	for _, h := range []struct {
		header string
		ids    map[string]uint32
		names  map[uint32]string
		need   []string
	}{
		{p4src.HeaderPacketIn, p.inID, p.inName, []string{MetaIngressPort, MetaReason, MetaRxTimestamp}},
		{p4src.HeaderPacketOut, p.outID, p.outName, []string{MetaEgressPort, MetaFlags}},
	} {
		ch, err := s.ControllerHeader(h.header)
		if err != nil {
			return nil, err
		}
		for n, m := range ch.Fields {
			h.ids[n], h.names[m.GetId()] = m.GetId(), n
		}
		for _, n := range h.need {
			if _, ok := h.ids[n]; !ok {
				return nil, fmt.Errorf("p4info: controller header %q field %q: %w", h.header, n, p4src.ErrUnknownName)
			}
		}
	}
	return p, nil
}

// PacketOutMetadata is the packet_out header of a frame for port.
func (p *PacketIO) PacketOutMetadata(port uint32, flags uint8) []*p4v1.PacketMetadata {
	return p.metadata(p.outID, []field{{MetaEgressPort, uint64(port)}, {MetaFlags, uint64(flags)}})
}

// PacketInMetadata is the packet_in header of a frame from ingressPort.
func (p *PacketIO) PacketInMetadata(ingressPort uint32, reason uint8, rxTimestamp uint64) []*p4v1.PacketMetadata {
	return p.metadata(p.inID, []field{{MetaIngressPort, uint64(ingressPort)}, {MetaReason, uint64(reason)}, {MetaRxTimestamp, rxTimestamp & TimestampMask}})
}

type field struct {
	name  string
	value uint64
}

func (p *PacketIO) metadata(ids map[string]uint32, fs []field) []*p4v1.PacketMetadata {
	md := make([]*p4v1.PacketMetadata, 0, len(fs)+1)
	for _, f := range fs {
		md = append(md, &p4v1.PacketMetadata{MetadataId: ids[f.name], Value: Canonical(f.value)})
	}
	if id, ok := ids[MetaPad]; ok {
		md = append(md, &p4v1.PacketMetadata{MetadataId: id, Value: []byte{0}})
	}
	return md
}

// InName is the packet_in field of that id, or "".
func (p *PacketIO) InName(id uint32) string { return p.inName[id] }

// OutName is the packet_out field of that id, or "".
func (p *PacketIO) OutName(id uint32) string { return p.outName[id] }

// DecodePacketIn gives the packet_in header's values by field name;
// fields of unknown ids are left out.
func (p *PacketIO) DecodePacketIn(md []*p4v1.PacketMetadata) map[string]uint64 {
	out := make(map[string]uint64, len(md))
	for _, m := range md {
		if n, ok := p.inName[m.GetMetadataId()]; ok {
			out[n] = Uint(m.GetValue())
		}
	}
	return out
}
