package wire

// Canonical is the P4Runtime canonical binary form of v: big-endian
// without leading zero bytes, at least one byte.
func Canonical(v uint64) []byte {
	n := 1
	for x := v >> 8; x > 0; x >>= 8 {
		n++
	}
	b := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		b[i] = byte(v)
		v >>= 8
	}
	return b
}

// CanonicalBytes is the P4Runtime canonical binary form of a big-endian
// byte string of any width (an IPv6 address, a 128-bit mask): without
// leading zero bytes, at least one byte. It returns a new slice.
func CanonicalBytes(b []byte) []byte {
	i := 0
	for i < len(b)-1 && b[i] == 0 {
		i++
	}
	out := make([]byte, len(b)-i)
	copy(out, b[i:])
	return out
}

// Uint reads a big-endian byte string of at most 8 significant bytes;
// higher bytes are dropped.
func Uint(b []byte) uint64 {
	var v uint64
	for _, x := range b {
		v = v<<8 | uint64(x)
	}
	return v
}
