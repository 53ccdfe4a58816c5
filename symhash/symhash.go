// Package symhash is the balancer's symmetric session hash (contract,
// docs/dataplane.md, "Symmetric hash"): both directions of a session, and every fragment of
// it, map to the same slot. The P4 programs (v1model and TNA), the software
// switch and the CLI's locate/trace all use this one definition.
//
//	fold(a) = a for IPv4; a[127:96] ^ a[95:64] ^ a[63:32] ^ a[31:0] for IPv6
//	x = fold(src), y = fold(dst); lo = min(x, y); hi = max(x, y)
//	h = CRC-32/ISO-HDLC over lo (4 bytes, big-endian) | hi (4) | proto (1)
//	slot = h mod 2^slotBits
package symhash

import (
	"encoding/binary"
	"hash/crc32"
	"net/netip"
)

// MaxSlotBits is the largest slot width of a balance group.
const MaxSlotBits = 16

// Fold reduces an address to the 32 bits the hash uses. IPv4 addresses are
// taken as they are; any other address (IPv6, including IPv4-mapped IPv6,
// which the data plane sees as IPv6) is XOR-folded. The zero Addr folds to 0.
func Fold(a netip.Addr) uint32 {
	if a.Is4() {
		b := a.As4()
		return binary.BigEndian.Uint32(b[:])
	}
	if !a.IsValid() {
		return 0
	}
	b := a.As16()
	return FoldIPv6(b)
}

// FoldIPv6 folds a 16-byte IPv6 address.
func FoldIPv6(b [16]byte) uint32 {
	return binary.BigEndian.Uint32(b[0:4]) ^ binary.BigEndian.Uint32(b[4:8]) ^
		binary.BigEndian.Uint32(b[8:12]) ^ binary.BigEndian.Uint32(b[12:16])
}

// Folded returns the hash of two already folded addresses and the IP
// protocol. It is symmetric in x and y and does not allocate.
func Folded(x, y uint32, proto uint8) uint32 {
	lo, hi := x, y
	if y < x {
		lo, hi = y, x
	}
	// Byte-wise table CRC: the 9 bytes never leave the stack (the
	// crc32.ChecksumIEEE slice escapes, one allocation per packet).
	c := ^uint32(0)
	for s := 24; s >= 0; s -= 8 {
		c = ieee[byte(c)^byte(lo>>s)] ^ c>>8
	}
	for s := 24; s >= 0; s -= 8 {
		c = ieee[byte(c)^byte(hi>>s)] ^ c>>8
	}
	c = ieee[byte(c)^proto] ^ c>>8
	return ^c
}

var ieee = crc32.MakeTable(crc32.IEEE)

// Sum returns the hash of a session (src, dst, proto). Sum(a, b, p) ==
// Sum(b, a, p) for all inputs.
func Sum(src, dst netip.Addr, proto uint8) uint32 {
	return Folded(Fold(src), Fold(dst), proto)
}

// Slot reduces a hash to a slot of a balance group with slotBits bits
// (1..MaxSlotBits).
func Slot(h uint32, slotBits uint) uint32 {
	return h & (1<<slotBits - 1)
}

// Input returns the 9 bytes the CRC is computed over, for documentation and
// for tools that show their work (trace).
func Input(src, dst netip.Addr, proto uint8) [9]byte {
	x, y := Fold(src), Fold(dst)
	lo, hi := x, y
	if y < x {
		lo, hi = y, x
	}
	var b [9]byte
	binary.BigEndian.PutUint32(b[0:4], lo)
	binary.BigEndian.PutUint32(b[4:8], hi)
	b[8] = proto
	return b
}
