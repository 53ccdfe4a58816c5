package wire

import "encoding/binary"

// EtherTypes the parser recognises even with empty value sets
// (p4src/shared/defines.p4).
const (
	DefaultCoreTPID           = 0x88B5 // core header
	DefaultKeepAliveEtherType = 0x88B6 // keep-alive frame
)

// Core header: TPID (16 bits), link id (6 bits), core (10 bits), inserted
// after the source MAC.
const (
	CoreHeaderLen    = 4
	CoreHeaderOffset = 12 // bytes from the frame's start: after the MACs
	LinkBits         = 6
	CoreBits         = 10
	MaxLink          = 1<<LinkBits - 1
	MaxCore          = 1<<CoreBits - 1
)

// CoreHeader is the header the data plane inserts in front of a filter:
// the filter group's TPID, the link the packet came in on and the filter
// core chosen for its session.
type CoreHeader struct {
	TPID uint16
	Link uint32 // 0..MaxLink
	Core uint32 // 0..MaxCore
}

// Tag is the 16 bits after the TPID. Bits above the widths are dropped,
// as the data plane drops them.
func (h CoreHeader) Tag() uint16 {
	return uint16(h.Link&MaxLink)<<CoreBits | uint16(h.Core&MaxCore)
}

// Put writes the header into b[:CoreHeaderLen].
func (h CoreHeader) Put(b []byte) {
	binary.BigEndian.PutUint16(b, h.TPID)
	binary.BigEndian.PutUint16(b[2:], h.Tag())
}

// Append appends the header's CoreHeaderLen bytes to b.
func (h CoreHeader) Append(b []byte) []byte {
	b = binary.BigEndian.AppendUint16(b, h.TPID)
	return binary.BigEndian.AppendUint16(b, h.Tag())
}

// ParseCoreTag splits the 16 bits after the TPID into link and core.
func ParseCoreTag(tag uint16) (link, core uint32) {
	return uint32(tag >> CoreBits), uint32(tag & MaxCore)
}

// ParseCoreHeader reads a core header from b[:CoreHeaderLen]; ok is false
// when b is shorter.
func ParseCoreHeader(b []byte) (h CoreHeader, ok bool) {
	if len(b) < CoreHeaderLen {
		return CoreHeader{}, false
	}
	h.TPID = binary.BigEndian.Uint16(b)
	h.Link, h.Core = ParseCoreTag(binary.BigEndian.Uint16(b[2:]))
	return h, true
}

// InsertCoreHeader returns a copy of the Ethernet frame with h inserted
// after the source MAC. frame must hold at least the two MACs.
func InsertCoreHeader(frame []byte, h CoreHeader) []byte {
	out := make([]byte, 0, len(frame)+CoreHeaderLen)
	out = append(out, frame[:CoreHeaderOffset]...)
	out = h.Append(out)
	return append(out, frame[CoreHeaderOffset:]...)
}
