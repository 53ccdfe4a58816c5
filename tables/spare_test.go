package tables

import (
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
)

// spareSite: members F1 (3 cores) and F2 (2 cores), spare F3 (4 cores).
const spareSite = `
site: spare
platform: sim
defaults: {slot_bits: 6}
ports:
  - {port: 1, speed: 100G}
  - {port: 2, speed: 100G}
  - {port: 3, speed: 100G}
  - {port: 4, speed: 100G}
  - {port: 5, speed: 100G}
  - {port: 6, speed: 100G}
  - {port: 7, speed: 100G}
  - {port: 8, speed: 100G}
links:
  - {name: L1, lan: P2, wan: P1}
filter_groups:
  - {name: F1, lan: P4, wan: P3, cores: 3}
  - {name: F2, lan: P6, wan: P5, cores: 2}
  - {name: F3, lan: P8, wan: P7, cores: 4}
balance_groups:
  - {name: G, members: [F1, F2], spares: [F3], failure_action: spare}
`

// A spare holds no slot while the members are healthy; when a member is
// spared, the spare takes exactly the member's slots, each on the same
// core, and nothing else moves; recovery gives them back.
func TestSpareTakesExactlyTheFailedShare(t *testing.T) {
	c := compiler(t)
	cfg, err := config.Parse([]byte(spareSite))
	require.NoError(t, err)
	f1, f3 := *cfg.FilterGroupByName("F1").ID, *cfg.FilterGroupByName("F3").ID

	healthy, err := c.Compile(cfg, State{})
	require.NoError(t, err)
	require.Len(t, healthy.Layouts, 1)
	base := healthy.Layouts[0].Active
	f1Slots := 0
	for _, tg := range base.Slots {
		assert.NotEqual(t, f3, tg.FilterGroup, "a spare on standby holds no slot")
		if tg.FilterGroup == f1 {
			f1Slots++
		}
	}
	require.Equal(t, 38, f1Slots, "F1: 3 of the 5 member cores, 64 slots dealt round robin")

	spared := State{FilterGroups: map[string]FilterGroupState{"F1": FGSWBypass}, Spared: map[string]string{"F1": "F3"}}
	d, err := c.Compile(cfg, spared)
	require.NoError(t, err)
	active := d.Layouts[0].Active
	assert.Equal(t, healthy.Layouts[0].Base.Slots, d.Layouts[0].Base.Slots, "the base layout is the members'")
	for i, was := range base.Slots {
		now := active.Slots[i]
		if was.FilterGroup == f1 {
			assert.Equal(t, Target{FilterGroup: f3, Core: was.Core}, now, "slot %d: the spare on the member's core", i)
		} else {
			assert.Equal(t, was, now, "slot %d: no other slot moves", i)
		}
	}

	// Incrementally: the member's forwarding entry and exactly its slots.
	site, err := c.NewSite(cfg, healthy, State{})
	require.NoError(t, err)
	next, changed, err := c.WithState(site, spared)
	require.NoError(t, err)
	requireSameSwitchState(t, d, next.Desired())
	slots := 0
	for _, e := range changed {
		if e.GetTableEntry().GetTableId() == c.slots.id {
			slots++
			s, ok := c.DecodeSlot(e.GetTableEntry())
			require.True(t, ok)
			assert.Equal(t, f3, s.Target.FilterGroup)
		}
	}
	assert.Equal(t, f1Slots, slots)
	assert.Len(t, changed, f1Slots+1, "the slots and F1's filter group entry")
	plan := c.Diff(d.Entities, healthy.Entities)
	assert.Equal(t, f1Slots+1, plan.Modifies)
	assert.Zero(t, plan.Inserts+plan.Deletes)

	// The member returns: its slots come back, the spare holds none.
	back, changedBack, err := c.WithState(next, State{})
	require.NoError(t, err)
	requireSameSwitchState(t, healthy, back.Desired())
	assert.Len(t, changedBack, f1Slots+1)
	// A recovering member forwards before its slots point at it again.
	assert.Equal(t, c.filterGroups.id, changedBack[0].GetTableEntry().GetTableId())
	assert.Equal(t, p4v1.Update_MODIFY, c.Diff(healthy.Entities, d.Entities).Batches[0].Updates[0].GetType())
}

// A plan from a read-back that gives a standby spare a member's share is
// a takeover: the failure guard must not take the spare, which holds no
// slot on the switch, for a filter failed over by another controller.
func TestGuardLetsSpareTakeShare(t *testing.T) {
	c := compiler(t)
	cfg, err := config.Parse([]byte(spareSite))
	require.NoError(t, err)
	f3 := *cfg.FilterGroupByName("F3").ID
	healthy, err := c.Compile(cfg, State{})
	require.NoError(t, err)
	spared, err := c.Compile(cfg, State{FilterGroups: map[string]FilterGroupState{"F1": FGSWBypass}, Spared: map[string]string{"F1": "F3"}})
	require.NoError(t, err)
	guard := func(spares map[uint32]bool) (*Plan, []uint32) {
		g := &FailureGuard{Read: true, Spares: spares}
		for _, e := range healthy.Entities {
			c.NoteRead(g, e)
		}
		p := c.Diff(spared.Entities, healthy.Entities)
		return p, c.GuardFailures(p, g)
	}
	toF3 := func(p *Plan) (n int) {
		for _, b := range p.Batches {
			for _, u := range b.Updates {
				if s, ok := c.DecodeSlot(u.GetEntity().GetTableEntry()); ok && s.Target.FilterGroup == f3 {
					n++
				}
			}
		}
		return n
	}
	// Without knowing spares, the guard holds the spare back.
	p, found := guard(nil)
	assert.Equal(t, []uint32{f3}, found)
	assert.Zero(t, toF3(p))
	// Knowing them, the takeover is written whole.
	assert.Equal(t, map[uint32]bool{f3: true}, SpareIDs(cfg))
	p, found = guard(SpareIDs(cfg))
	assert.Empty(t, found)
	assert.Equal(t, 38, toF3(p))
}
