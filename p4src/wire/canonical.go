package wire

// Canonical is the P4Runtime canonical binary form of v: big-endian
// without leading zero bytes, at least one byte.
func Canonical(v uint64) []byte {
	return AppendCanonical(make([]byte, 0, canonicalLen(v)), v)
}

// AppendCanonical appends Canonical(v) to b.
func AppendCanonical(b []byte, v uint64) []byte {
	for i := canonicalLen(v) - 1; i >= 0; i-- {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}

// canonicalLen is the length of Canonical(v): its significant bytes, at
// least one.
func canonicalLen(v uint64) int {
	n := 1
	for x := v >> 8; x > 0; x >>= 8 {
		n++
	}
	return n
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
