package tables

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRangeTernsExact: for random ranges of 12- and 16-bit fields (and
// every range of a 5-bit field), the prefixes match exactly the integers
// in the range, each one prefix, and are a minimal cover (at most 2w-2).
func TestRangeTernsExact(t *testing.T) {
	// check: each prefix lies inside the range, the prefixes are
	// pairwise disjoint and their sizes add up to the range's: together
	// they are exactly the range.
	check := func(lo, hi uint64, w int32) {
		ts := appendRangeTerns(nil, lo, hi, w)
		require.LessOrEqual(t, len(ts), max(1, 2*int(w)-2), "%d-%d/%d", lo, hi, w)
		var total uint64
		for i, a := range ts {
			first, last := a.v, a.v|(maxValue(w)&^a.m)
			require.Equal(t, a.v, a.v&a.m, "value within its mask")
			require.True(t, lo <= first && last <= hi, "%d-%d outside %d-%d", first, last, lo, hi)
			total += last - first + 1
			for _, b := range ts[i+1:] {
				require.NotEqual(t, a.v&b.m&a.m, b.v&a.m&b.m, "%v and %v overlap", a, b)
			}
		}
		require.Equal(t, hi-lo+1, total, "%d-%d/%d: %v", lo, hi, w, ts)
	}
	// fewest counts the maximal prefix blocks inside lo..hi by walking the
	// binary tree of the field's values: the size of a minimal cover.
	var fewest func(a, b, lo, hi uint64) int
	fewest = func(a, b, lo, hi uint64) int {
		switch {
		case b < lo || a > hi:
			return 0
		case lo <= a && b <= hi:
			return 1
		}
		mid := a + (b-a)/2
		return fewest(a, mid, lo, hi) + fewest(mid+1, b, lo, hi)
	}
	// Every range of a 5-bit field, by enumeration too, and minimal.
	for lo := uint64(0); lo < 32; lo++ {
		for hi := lo; hi < 32; hi++ {
			check(lo, hi, 5)
			ts := appendRangeTerns(nil, lo, hi, 5)
			require.Len(t, ts, fewest(0, 31, lo, hi), "%d-%d: %v", lo, hi, ts)
			for x := uint64(0); x < 32; x++ {
				hits := 0
				for _, tm := range ts {
					if x&tm.m == tm.v {
						hits++
					}
				}
				require.Equal(t, lo <= x && x <= hi, hits == 1, "%d in %d-%d", x, lo, hi)
				require.LessOrEqual(t, hits, 1)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		for _, w := range []int32{12, 16} {
			a, b := r.Uint64N(maxValue(w)+1), r.Uint64N(maxValue(w)+1)
			check(min(a, b), max(a, b), w)
			require.Len(t, appendRangeTerns(nil, min(a, b), max(a, b), w), fewest(0, maxValue(w), min(a, b), max(a, b)))
		}
	}
	// Known minimal covers.
	assert.Equal(t, []tern{{0, 0}}, appendRangeTerns(nil, 0, 65535, 16), "full range: one wildcard")
	assert.Equal(t, []tern{{80, 0xffff}}, appendRangeTerns(nil, 80, 80, 16))
	assert.Len(t, appendRangeTerns(nil, 1, 65534, 16), 30, "the worst case, 2w-2")
	assert.Len(t, appendRangeTerns(nil, 1024, 65535, 16), 6, "1024-2047, 2048-4095, ..., 32768-65535")
	assert.Empty(t, appendRangeTerns(nil, 5, 4, 16))
}

// BenchmarkRangeTerns: expanding the worst-case 16-bit range.
func BenchmarkRangeTerns(b *testing.B) {
	var buf [32]tern
	b.ReportAllocs()
	for b.Loop() {
		if len(appendRangeTerns(buf[:0], 1, 65534, 16)) != 30 {
			b.Fatal("not 30")
		}
	}
}
