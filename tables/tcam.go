package tables

import "math/bits"

// tern is one ternary match value: the bits of v under mask m. m == 0 is
// a wildcard (the field is left out of the entry).
type tern struct{ v, m uint64 }

// appendRangeTerns appends to dst the fewest ternary values (prefixes)
// that together match exactly the integers lo..hi of a field w bits wide,
// smallest first; hi past the field is cut to its maximum, and the full
// range is one wildcard. The prefixes are disjoint: a packet matches at
// most one of them.
func appendRangeTerns(dst []tern, lo, hi uint64, w int32) []tern {
	full := maxValue(w)
	hi = min(hi, full)
	if lo > hi {
		return dst
	}
	for {
		// The largest aligned block that starts at lo and stays within hi.
		size := uint(w)
		if lo != 0 {
			size = min(size, uint(bits.TrailingZeros64(lo)))
		}
		span := ^uint64(0) >> (64 - size) // the low size bits; 0 for size 0
		for lo|span > hi {
			size--
			span >>= 1
		}
		dst = append(dst, tern{v: lo, m: full &^ span})
		if lo|span == hi {
			return dst
		}
		lo = (lo | span) + 1
	}
}
