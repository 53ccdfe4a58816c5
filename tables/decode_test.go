package tables

import (
	"slices"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/config"
)

func TestRulePriorityRoundTrip(t *testing.T) {
	for _, p := range []uint32{1, 2, 100, config.MaxPriority} {
		for _, neg := range []bool{false, true} {
			got, gotNeg := DecodeRulePriority(RulePriority(p, neg))
			assert.Equal(t, p, got)
			assert.Equal(t, neg, gotNeg)
		}
	}
	// A rule's "not" entries sit above its own and below the next rule.
	assert.Less(t, RulePriority(7, false), RulePriority(7, true))
	assert.Less(t, RulePriority(7, true), RulePriority(8, false))
}

// TestDecodeCompiled decodes every flow rule and slot entry the compiler
// writes for the example site back to the configuration and layouts.
func TestDecodeCompiled(t *testing.T) {
	c := compiler(t)
	cfg := load(t, "../examples/site.yaml")
	d, err := c.Compile(cfg, State{})
	require.NoError(t, err)
	rules := map[uint32]config.Rule{}
	for _, r := range cfg.Rules {
		rules[r.Priority] = r
	}
	groups := map[uint32]*GroupLayout{}
	for _, l := range d.Layouts {
		groups[l.ID] = l
	}
	var flows, slots, others int
	for _, e := range d.Entities {
		te := e.GetTableEntry()
		if te == nil {
			continue
		}
		fr, isFlow := c.DecodeFlowRule(te)
		se, isSlot := c.DecodeSlot(te)
		switch te.GetTableId() {
		case c.flowRules.id, c.flowRulesV6.id:
			flows++
			require.True(t, isFlow)
			assert.False(t, isSlot)
			r, ok := rules[fr.Rule]
			require.True(t, ok, "entry priority %d decodes to rule priority %d, which no rule has", te.GetPriority(), fr.Rule)
			act, group, err := r.ParseAction()
			require.NoError(t, err)
			if fr.Negated {
				assert.False(t, fr.Balance, "a not entry bypasses")
				continue
			}
			assert.Equal(t, act == config.ActionBalance, fr.Balance, r.Name)
			if fr.Balance {
				assert.Equal(t, *cfg.BalanceGroupByName(group).ID, fr.Group, r.Name)
			}
		case c.slots.id:
			slots++
			require.True(t, isSlot)
			assert.False(t, isFlow)
			l := groups[se.BalanceGroup]
			require.NotNil(t, l, "slot entry of unknown balance group %d", se.BalanceGroup)
			assert.Equal(t, l.Active.Slots[se.Slot], se.Target)
		default:
			others++
			assert.False(t, isFlow)
			assert.False(t, isSlot)
		}
	}
	assert.NotZero(t, flows)
	assert.NotZero(t, slots)
	assert.NotZero(t, others)
}

// TestDecodeSlotParamsByID: parameters are found by id, not by position.
func TestDecodeSlotParamsByID(t *testing.T) {
	c := compiler(t)
	d, err := c.Compile(load(t, "../examples/site.yaml"), State{})
	require.NoError(t, err)
	i := slices.IndexFunc(d.Entities, func(e *p4v1.Entity) bool { return e.GetTableEntry().GetTableId() == c.slots.id })
	require.GreaterOrEqual(t, i, 0)
	te := proto.Clone(d.Entities[i].GetTableEntry()).(*p4v1.TableEntry)
	want, ok := c.DecodeSlot(te)
	require.True(t, ok)
	slices.Reverse(te.GetAction().GetAction().Params)
	got, ok := c.DecodeSlot(te)
	require.True(t, ok)
	assert.Equal(t, want, got)

	te.GetAction().GetAction().Params = te.GetAction().GetAction().Params[:1]
	_, ok = c.DecodeSlot(te)
	assert.False(t, ok, "a slot entry without its core parameter does not decode")
}

// TestDecodeRuleCounter: a direct-counter entry as a switch returns it
// (the table entry's key only: match and priority, no action) decodes to
// the rule of every flow rule entry the compiler writes; the default entry
// and entries of other tables belong to no rule.
func TestDecodeRuleCounter(t *testing.T) {
	c := compiler(t)
	cfg := load(t, "../examples/site.yaml")
	d, err := c.Compile(cfg, State{})
	require.NoError(t, err)
	rules := map[uint32]bool{}
	for _, r := range cfg.Rules {
		rules[r.Priority] = true
	}
	seen := map[uint32]bool{}
	for _, e := range d.Entities {
		te := e.GetTableEntry()
		if te == nil {
			continue
		}
		key := &p4v1.TableEntry{TableId: te.GetTableId(), Match: te.GetMatch(), Priority: te.GetPriority()}
		rule, negated, ok := c.DecodeRuleCounter(&p4v1.DirectCounterEntry{TableEntry: key})
		want, _ := DecodeRulePriority(te.GetPriority())
		switch te.GetTableId() {
		case c.flowRules.id, c.flowRulesV6.id:
			require.True(t, ok, "flow rule entry of priority %d", te.GetPriority())
			assert.Equal(t, want, rule)
			assert.True(t, rules[rule], "priority %d decodes to rule %d, which no rule has", te.GetPriority(), rule)
			_, wantNeg := DecodeRulePriority(te.GetPriority())
			assert.Equal(t, wantNeg, negated)
			seen[rule] = true
		default:
			assert.False(t, ok, "an entry of table %d is no rule's counter", te.GetTableId())
		}
	}
	for p := range rules {
		assert.True(t, seen[p], "rule of priority %d has no counter entry", p)
	}
	for _, id := range []uint32{c.flowRules.id, c.flowRulesV6.id} {
		_, _, ok := c.DecodeRuleCounter(&p4v1.DirectCounterEntry{TableEntry: &p4v1.TableEntry{TableId: id, IsDefaultAction: true}})
		assert.False(t, ok, "the default entry belongs to no rule")
		_, _, ok = c.DecodeRuleCounter(&p4v1.DirectCounterEntry{TableEntry: &p4v1.TableEntry{TableId: id}})
		assert.False(t, ok, "an entry without match or priority belongs to no rule")
	}
}
