package tables

import (
	"math/big"
)

// canon returns the P4Runtime canonical binary form of v: big-endian with
// leading zero bytes removed, at least one byte.
func canon(v uint64) []byte {
	var b [8]byte
	for i := 7; i >= 0; i-- {
		b[i] = byte(v)
		v >>= 8
	}
	return trim(b[:])
}

// trim drops leading zero bytes, keeping at least one.
func trim(b []byte) []byte {
	i := 0
	for i < len(b)-1 && b[i] == 0 {
		i++
	}
	out := make([]byte, len(b)-i)
	copy(out, b[i:])
	return out
}

// canonBytes returns the canonical form of a big-endian byte string.
func canonBytes(b []byte) []byte { return trim(b) }

// maxValue returns 2^bits - 1.
func maxValue(bits int32) uint64 {
	if bits >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(bits) - 1
}

// bigCanon is canon for values wider than 64 bits.
func bigCanon(v *big.Int) []byte {
	b := v.Bytes()
	if len(b) == 0 {
		return []byte{0}
	}
	return b
}
