package tables

import (
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/config"
)

// SameEntry agrees with proto.Equal on the entries a compile writes: each
// is the same as a copy of itself, and no two of a site are the same
// (they all have identities of their own).
func TestSameEntryOnACompiledSite(t *testing.T) {
	c := compiler(t)
	cfg, err := config.Load("../examples/site.yaml")
	require.NoError(t, err)
	d, err := c.Compile(cfg, State{})
	require.NoError(t, err)
	require.Greater(t, len(d.Entities), 100)
	for i, e := range d.Entities {
		require.True(t, SameEntry(e, proto.Clone(e).(*p4v1.Entity)), "entity %d (%s) and its copy", i, Key(e))
		if i > 0 {
			prev := d.Entities[i-1]
			require.Equal(t, proto.Equal(prev, e), SameEntry(prev, e), "entities %d (%s) and %d (%s)", i-1, Key(prev), i, Key(e))
			require.False(t, SameEntry(prev, e), "entities %d (%s) and %d (%s)", i-1, Key(prev), i, Key(e))
		}
	}
}

// SameEntry compares what the switch holds: the identity and the action
// in canonical bytes (a zero-padded value is the same value), a value
// set's members as a set.
func TestSameEntryCanonical(t *testing.T) {
	c := compiler(t)
	slot := c.slotEntry(1, 7, Target{FilterGroup: 2, Core: 3})
	padded := proto.Clone(slot).(*p4v1.Entity)
	for _, p := range padded.GetTableEntry().GetAction().GetAction().GetParams() {
		p.Value = append([]byte{0, 0}, p.Value...)
	}
	for _, m := range padded.GetTableEntry().GetMatch() {
		m.GetExact().Value = append([]byte{0}, m.GetExact().GetValue()...)
	}
	require.False(t, proto.Equal(slot, padded))
	assert.True(t, SameEntry(slot, padded), "zero-padded parameters and matches")
	assert.True(t, SameEntry(padded, slot))

	assert.False(t, SameEntry(slot, c.slotEntry(1, 7, Target{FilterGroup: 2, Core: 4})), "another core")
	assert.False(t, SameEntry(slot, c.slotEntry(1, 7, Target{FilterGroup: 1, Core: 3})), "another filter group")
	assert.False(t, SameEntry(slot, c.slotEntry(1, 8, Target{FilterGroup: 2, Core: 3})), "another slot")
	assert.False(t, SameEntry(slot, c.slotEntry(2, 7, Target{FilterGroup: 2, Core: 3})), "another balance group")

	// Matches in another order: the same identity (Key sorts them).
	swapped := proto.Clone(slot).(*p4v1.Entity)
	ms := swapped.GetTableEntry().GetMatch()
	ms[0], ms[1] = ms[1], ms[0]
	assert.True(t, SameEntry(slot, swapped), "matches in another order")
	other := c.slotEntry(1, 7, Target{FilterGroup: 2, Core: 4})
	ms = other.GetTableEntry().GetMatch()
	ms[0], ms[1] = ms[1], ms[0]
	assert.False(t, SameEntry(slot, other), "matches in another order, another core")

	// A ternary's value bits under a zero mask bit are no part of it.
	tern := func(v byte) *p4v1.Entity {
		return &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: 9, Priority: 5,
			Match:  []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{Value: []byte{v}, Mask: []byte{0xf0}}}}},
			Action: c.action(c.groupBypass)}}}
	}
	assert.True(t, SameEntry(tern(0x12), tern(0x1f)), "bits under the mask's zeros")
	assert.False(t, SameEntry(tern(0x12), tern(0x22)))

	// A default entry is not the entry of a match.
	def := &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: 9, IsDefaultAction: true, Action: c.action(c.groupBypass)}}}
	assert.True(t, SameEntry(def, proto.Clone(def).(*p4v1.Entity)))
	assert.False(t, SameEntry(def, tern(0x12)))

	vs := func(vals ...byte) *p4v1.Entity {
		v := &p4v1.ValueSetEntry{ValueSetId: 4}
		for _, x := range vals {
			v.Members = append(v.Members, &p4v1.ValueSetMember{Match: []*p4v1.FieldMatch{{FieldId: 1,
				FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: []byte{0, x}}}}}})
		}
		return &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: v}}
	}
	assert.True(t, SameEntry(vs(1, 2), vs(2, 1)), "members in another order")
	assert.False(t, SameEntry(vs(1, 2), vs(1, 3)))
	assert.False(t, SameEntry(vs(1, 2), vs(1)))
	assert.False(t, SameEntry(vs(1), slot), "a value set and a table entry")
	assert.False(t, SameEntry(slot, vs(1)), "a table entry and a value set")
}

// The slot entries a rebalance builds from arrays are the entries
// slotEntry builds one by one, for the slots whose target changes alone.
func TestMovedSlotEntriesAsSlotEntry(t *testing.T) {
	c := compiler(t)
	was := &Layout{Slots: make([]Target, 1000)}
	now := &Layout{Slots: make([]Target, 1000)}
	var want []int
	for i := range was.Slots {
		was.Slots[i] = Target{FilterGroup: uint32(i % 3), Core: uint32(i % 5)}
		now.Slots[i] = was.Slots[i]
		if i%3 == 1 {
			now.Slots[i] = Target{FilterGroup: 0, Core: uint32(i % 7)}
			want = append(want, i)
		}
	}
	m := c.movedSlotEntries(&GroupLayout{ID: 3, Base: was, Active: was}, now)
	require.Equal(t, want, m.slots)
	require.Len(t, m.ents, len(want))
	for j, i := range m.slots {
		require.True(t, proto.Equal(c.slotEntry(3, i, now.Slots[i]), m.ents[j]), "slot %d", i)
	}
	assert.Empty(t, c.movedSlotEntries(&GroupLayout{ID: 3, Base: was, Active: was}, was).ents, "nothing moves")
}
