package tables

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func members(cores ...uint32) []Member {
	m := make([]Member, len(cores))
	for i, c := range cores {
		m[i] = Member{ID: uint32(i + 1), Cores: c}
	}
	return m
}

// Every slot assigned; every core of every filter gets an equal share
// within one slot; shares are proportional to core counts.
func TestBaseLayoutEqualPerCoreShare(t *testing.T) {
	tests := []struct {
		name  string
		bits  uint
		cores []uint32
	}{
		{"three filters of 31 cores", 12, []uint32{31, 31, 31}},
		{"uneven filters", 16, []uint32{7, 31, 1, 63}},
		{"one core", 4, []uint32{1}},
		{"more cores than slots within one", 10, []uint32{1000}},
		{"max", 16, []uint32{1024, 1024, 1024, 1024}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := BaseLayout(3, tt.bits, members(tt.cores...))
			require.NoError(t, err)
			require.Len(t, l.Slots, 1<<tt.bits)
			share := l.Share()
			var total uint32
			for _, c := range tt.cores {
				total += c
			}
			lo, hi := (1<<tt.bits)/int(total), ((1<<tt.bits)+int(total)-1)/int(total)
			for i, c := range tt.cores {
				for core := uint32(0); core < c; core++ {
					n := share[Target{FilterGroup: uint32(i + 1), Core: core}]
					if int(total) <= 1<<tt.bits {
						assert.True(t, n >= lo && n <= hi, "core %d/%d has %d slots, want %d..%d", i+1, core, n, lo, hi)
					} else {
						assert.LessOrEqual(t, n, 1)
					}
				}
			}
			for tg := range share {
				assert.Less(t, tg.Core, tt.cores[tg.FilterGroup-1], "core out of range")
			}
		})
	}
}

func TestBaseLayoutErrors(t *testing.T) {
	_, err := BaseLayout(0, 0, members(1))
	assert.EqualError(t, err, "slot layout: group 0: slot bits 0 outside 1..16")
	_, err = BaseLayout(0, 17, members(1))
	assert.EqualError(t, err, "slot layout: group 0: slot bits 17 outside 1..16")
	_, err = BaseLayout(2, 8, nil)
	assert.EqualError(t, err, "slot layout: group 2: no members")
	_, err = BaseLayout(2, 8, members(0))
	assert.EqualError(t, err, "slot layout: group 2: members have no cores")
}

func TestLayoutDeterministicDigest(t *testing.T) {
	a, err := BaseLayout(1, 12, members(31, 31, 31))
	require.NoError(t, err)
	b, err := BaseLayout(1, 12, members(31, 31, 31))
	require.NoError(t, err)
	assert.Equal(t, a.Digest(), b.Digest())
	assert.Len(t, a.Digest(), 16)
	c, err := BaseLayout(1, 12, members(31, 31, 30))
	require.NoError(t, err)
	assert.NotEqual(t, a.Digest(), c.Digest())
	d, err := BaseLayout(2, 12, members(31, 31, 31))
	require.NoError(t, err)
	assert.NotEqual(t, a.Digest(), d.Digest(), "the group id takes part")

	// SHA-256 of group, slot bits and each target, 4 bytes each
	// (big-endian), at every size the buffered hashing meets.
	for _, bits := range []uint{1, 8, 9, 16} {
		l, err := BaseLayout(7, bits, members(31, 63))
		require.NoError(t, err)
		in := binary.BigEndian.AppendUint32(nil, 7)
		in = binary.BigEndian.AppendUint32(in, uint32(bits))
		for _, t := range l.Slots {
			in = binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(in, t.FilterGroup), t.Core)
		}
		sum := sha256.Sum256(in)
		assert.Equal(t, hex.EncodeToString(sum[:])[:16], l.Digest(), "%d slot bits", bits)
		assert.Equal(t, l.Digest(), l.Digest(), "the same, once computed")
	}
}

// Rebalance moves only the failed groups' slots (0 % of survivors'), keeps
// per-core shares equal within one slot, and recovery restores the base.
func TestRebalanceMovesOnlyFailedSlots(t *testing.T) {
	base, err := BaseLayout(1, 14, members(31, 31, 31, 7))
	require.NoError(t, err)
	for _, failed := range []map[uint32]bool{{2: true}, {1: true, 4: true}, {4: true}} {
		r := base.Rebalanced(failed)
		moved := 0
		for i, t0 := range base.Slots {
			if failed[t0.FilterGroup] {
				assert.False(t, failed[r.Slots[i].FilterGroup], "slot %d still on a failed group", i)
				moved++
				continue
			}
			assert.Equal(t, t0, r.Slots[i], "survivor slot %d moved", i)
		}
		assert.Greater(t, moved, 0)
		share := r.Share()
		lo, hi := 1<<30, 0
		for tg, n := range share {
			require.False(t, failed[tg.FilterGroup])
			lo, hi = min(lo, n), max(hi, n)
		}
		assert.LessOrEqual(t, hi-lo, 1, "per-core share within one slot after %v", failed)
		assert.Equal(t, base.Digest(), base.Rebalanced(nil).Digest(), "recovery restores the base layout")
		assert.Same(t, base, base.Rebalanced(nil), "nothing to deal: the layout itself, not a copy")
	}
}

func TestRebalanceNoSurvivor(t *testing.T) {
	base, err := BaseLayout(1, 4, members(2))
	require.NoError(t, err)
	r := base.Rebalanced(map[uint32]bool{1: true})
	assert.Equal(t, base.Slots, r.Slots)
}
