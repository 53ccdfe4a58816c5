package tables

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkBalanced asserts every core of every member has the same number of
// slots within one.
func checkBalanced(t *testing.T, l *Layout, ms []Member) {
	t.Helper()
	share := l.Share()
	lo, hi := len(l.Slots), 0
	total := 0
	for _, m := range ms {
		for c := uint32(0); c < m.Cores; c++ {
			n := share[Target{FilterGroup: m.ID, Core: c}]
			lo, hi = min(lo, n), max(hi, n)
			total += n
		}
	}
	assert.Equal(t, len(l.Slots), total, "every slot on a member's core")
	assert.LessOrEqual(t, hi-lo, 1, "per-core share within one slot")
}

// sameTarget counts the slots that keep their target.
func sameTarget(a, b *Layout) int {
	n := 0
	for i := range a.Slots {
		if a.Slots[i] == b.Slots[i] {
			n++
		}
	}
	return n
}

func TestPlannedLayoutMinimalDisruption(t *testing.T) {
	const bits = 12
	n := 1 << bits
	tests := []struct {
		name     string
		from, to []Member
	}{
		{"3 to 4 equal filters", members(8, 8, 8), members(8, 8, 8, 8)},
		{"4 to 3 equal filters", members(8, 8, 8, 8), members(8, 8, 8)},
		{"4 to 3: the middle one leaves", members(8, 8, 8, 8), []Member{{1, 8}, {2, 8}, {4, 8}}},
		{"31 to 15 cores on one filter", members(31), members(15)},
		{"15 to 31 cores on one filter", members(15), members(31)},
		{"uneven add", members(7, 31, 1), members(7, 31, 1, 63)},
		{"resize one of three", members(4, 4, 4), members(4, 6, 4)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old, err := BaseLayout(1, bits, tt.from)
			require.NoError(t, err)
			nl, err := PlannedLayout(old, 1, bits, tt.to)
			require.NoError(t, err)
			checkBalanced(t, nl, tt.to)

			cores := func(ms []Member) map[Target]bool {
				m := map[Target]bool{}
				for _, x := range ms {
					for c := uint32(0); c < x.Cores; c++ {
						m[Target{x.ID, c}] = true
					}
				}
				return m
			}
			before, after := cores(tt.from), cores(tt.to)
			var gone, added, total int
			for t := range before {
				if !after[t] {
					gone++
				}
			}
			for t := range after {
				if !before[t] {
					added++
				}
			}
			total = len(after)
			moved := n - sameTarget(old, nl)
			// Sessions on a core that stays keep it, unless the core must
			// give some up to a new one.
			var lostOwn int
			for i, tg := range old.Slots {
				if after[tg] && nl.Slots[i] != tg {
					lostOwn++
				}
			}
			if added == 0 {
				assert.Zero(t, lostOwn, "removing moves only the leaving cores' slots")
				wantMoved := 0
				for _, tg := range old.Slots {
					if !after[tg] {
						wantMoved++
					}
				}
				assert.Equal(t, wantMoved, moved)
			} else {
				limit := n*added/total + n/100
				assert.LessOrEqual(t, moved, limit, "adding k of C cores moves at most k/C of the slots + 1%%")
				// Only to the new cores.
				for i := range old.Slots {
					if old.Slots[i] != nl.Slots[i] && before[old.Slots[i]] && after[old.Slots[i]] {
						assert.False(t, before[nl.Slots[i]], "slot %d moved between two old cores", i)
					}
				}
			}
			m := Moves(old, nl)
			assert.Equal(t, moved, m.Slots)
			assert.InDelta(t, float64(moved)/float64(n), m.Moved, 1e-9)
			t.Logf("%s: %d of %d slots move (%.1f %% of sessions); cores %d -> %d (%d leave, %d join)",
				tt.name, m.Slots, n, 100*m.Moved, len(before), len(after), gone, added)
			for _, f := range m.Filters {
				t.Logf("  filter group %d: share %.1f %% -> %.1f %%, %.1f %% of its sessions move", f.FilterGroup, 100*f.Before, 100*f.After, 100*f.Moved)
			}

			// Compiling again from the new layout changes nothing.
			again, err := PlannedLayout(nl, 1, bits, tt.to)
			require.NoError(t, err)
			assert.Equal(t, nl.Slots, again.Slots, "a planned layout is a fixed point")
		})
	}
}

func TestPlannedLayoutSlotBits(t *testing.T) {
	ms := members(4, 3, 2)
	old, err := BaseLayout(1, 8, ms)
	require.NoError(t, err)
	t.Run("grow moves only the rounding", func(t *testing.T) {
		nl, err := PlannedLayout(old, 1, 11, ms)
		require.NoError(t, err)
		checkBalanced(t, nl, ms)
		m := Moves(old, nl)
		// 256 slots over 9 cores are 28 or 29 each; copied 8 times they
		// would differ by 8: at most 8 slots per core are re-dealt.
		assert.LessOrEqual(t, m.Moved, 9*8.0/(1<<11))
		assert.LessOrEqual(t, m.Slots, (1<<11)-(1<<8)+9*8, "the new slots and the rounding")
		t.Logf("grow 8 -> 11 bits: %d slot writes, %.2f %% of sessions move", m.Slots, 100*m.Moved)
		same, err := BaseLayout(1, 8, members(4, 4))
		require.NoError(t, err)
		nl, err = PlannedLayout(same, 1, 11, members(4, 4))
		require.NoError(t, err)
		assert.Zero(t, Moves(same, nl).Moved, "no session moves when the shares divide evenly")
	})
	t.Run("shrink keeps each slot's majority", func(t *testing.T) {
		nl, err := PlannedLayout(old, 1, 6, ms)
		require.NoError(t, err)
		checkBalanced(t, nl, ms)
		m := Moves(old, nl)
		// Four old slots fold onto each new one, and the base layout deals
		// them to four different cores: at best a quarter stays.
		assert.LessOrEqual(t, m.Moved, 0.75+9.0/(1<<6))
		t.Logf("shrink 8 -> 6 bits: %.1f %% of sessions move", 100*m.Moved)
	})
}

func TestPlannedLayoutDeterministic(t *testing.T) {
	old, err := BaseLayout(1, 10, members(5, 5, 5))
	require.NoError(t, err)
	a, err := PlannedLayout(old, 1, 10, []Member{{1, 5}, {2, 5}, {3, 5}, {9, 7}})
	require.NoError(t, err)
	b, err := PlannedLayout(old, 1, 10, []Member{{9, 7}, {3, 5}, {1, 5}, {2, 5}})
	require.NoError(t, err)
	assert.Equal(t, a.Digest(), b.Digest(), "member order does not matter")
	_, err = PlannedLayout(old, 1, 17, members(1))
	assert.ErrorContains(t, err, "slot bits 17 outside 1..16")
	_, err = PlannedLayout(old, 1, 10, nil)
	assert.ErrorContains(t, err, "no members")
}

// A random walk of planned changes: every layout balanced, and a member
// that stays keeps all its sessions when nothing joins.
func TestPlannedLayoutRandomWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ms := members(4, 4)
	l, err := BaseLayout(1, 10, ms)
	require.NoError(t, err)
	for i := 0; i < 300; i++ {
		next := append([]Member(nil), ms...)
		switch rng.IntN(3) {
		case 0:
			next = append(next, Member{ID: uint32(100 + i), Cores: uint32(1 + rng.IntN(16))})
		case 1:
			if len(next) > 1 {
				k := rng.IntN(len(next))
				next = append(next[:k], next[k+1:]...)
			}
		case 2:
			k := rng.IntN(len(next))
			next[k].Cores = uint32(1 + rng.IntN(16))
		}
		bits := uint(8 + rng.IntN(5))
		nl, err := PlannedLayout(l, 1, bits, next)
		require.NoError(t, err, "step %d", i)
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkBalanced(t, nl, next) })
		l, ms = nl, next
	}
}

func TestMovesAddedAndRemovedGroup(t *testing.T) {
	l, err := BaseLayout(2, 4, members(2))
	require.NoError(t, err)
	m := Moves(nil, l)
	assert.Equal(t, 16, m.Slots)
	assert.Equal(t, 1.0, m.Moved)
	m = Moves(l, nil)
	assert.Equal(t, 16, m.Slots)
	require.Len(t, m.Filters, 1)
	assert.Equal(t, 1.0, m.Filters[0].Moved)
	m = Moves(l, l)
	assert.Zero(t, m.Slots)
	assert.Zero(t, m.Moved)
}

func BenchmarkPlannedLayout(b *testing.B) {
	for _, bc := range []struct {
		name     string
		from, to []Member
	}{
		{"add/4x32cores", members(32, 32, 32), members(32, 32, 32, 32)},
		{"remove/4x32cores", members(32, 32, 32, 32), members(32, 32, 32)},
		{"resize/31to15", members(31), members(15)},
		{"same/4x32cores", members(32, 32, 32, 32), members(32, 32, 32, 32)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			old, err := BaseLayout(1, 16, bc.from)
			require.NoError(b, err)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := PlannedLayout(old, 1, 16, bc.to); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkMoves(b *testing.B) {
	old, err := BaseLayout(1, 16, members(32, 32, 32))
	require.NoError(b, err)
	nl, err := PlannedLayout(old, 1, 16, members(32, 32, 32, 32))
	require.NoError(b, err)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Moves(old, nl)
	}
}
