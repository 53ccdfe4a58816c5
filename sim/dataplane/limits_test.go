package dataplane

import (
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/tables"
)

// everything is one wildcard query of each kind: all table entries with
// their counters, all direct counters, all counter cells, all value sets.
func everything() []*p4v1.Entity {
	return []*p4v1.Entity{
		{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{CounterData: &p4v1.CounterData{}}}},
		{Entity: &p4v1.Entity_DirectCounterEntry{DirectCounterEntry: &p4v1.DirectCounterEntry{}}},
		{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{}}},
		{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{}}},
	}
}

func TestReadLimit(t *testing.T) {
	d := newDP(t)
	program(t, d, siteConfig(t), tables.State{})
	assert.Equal(t, d.StateSize(), d.ReadLimit(), "default: the whole state once")
	assert.Greater(t, d.StateSize(), 16384*2, "the slots table and its counters fit")

	t.Run("one read of everything passes", func(t *testing.T) {
		n := 0
		require.NoError(t, d.Read(everything(), func(*p4v1.Entity) bool { n++; return true }))
		assert.Positive(t, n)
		assert.LessOrEqual(t, n, d.ReadLimit())
	})
	t.Run("the same wildcard 400 times is refused before it is copied", func(t *testing.T) {
		// Each wildcard matches every slot entry's direct counter: 400
		// copies of the largest table.
		q := make([]*p4v1.Entity, 400)
		for i := range q {
			q[i] = &p4v1.Entity{Entity: &p4v1.Entity_DirectCounterEntry{DirectCounterEntry: &p4v1.DirectCounterEntry{}}}
		}
		d := newDP(t, WithReadLimit(1000))
		program(t, d, siteConfig(t), tables.State{})
		yielded := 0
		err := d.Read(q, func(*p4v1.Entity) bool { yielded++; return true })
		require.ErrorIs(t, err, ErrResourceExhausted)
		assert.Contains(t, err.Error(), "more than 1000 entities")
		assert.Zero(t, yielded)
	})
	t.Run("too many queries", func(t *testing.T) {
		d := newDP(t, WithReadLimit(3))
		err := d.Read(everything(), func(*p4v1.Entity) bool { return true })
		require.ErrorIs(t, err, ErrResourceExhausted)
		assert.Contains(t, err.Error(), "read of 4 queries: one read takes at most 3")
	})
	t.Run("a limit must hold one entity", func(t *testing.T) {
		_, err := New(loadSchema(t), WithReadLimit(0))
		require.ErrorContains(t, err, "read limit 0")
	})
}

// BenchmarkReadEverything is one read of the whole programmed state.
func BenchmarkReadEverything(b *testing.B) {
	d := newDP(b)
	program(b, d, siteConfig(b), tables.State{})
	b.ReportAllocs()
	for b.Loop() {
		if err := d.Read(everything(), func(*p4v1.Entity) bool { return true }); err != nil {
			b.Fatal(err)
		}
	}
}
