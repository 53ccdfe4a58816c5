package tables

import (
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/p4src/wire"
)

// The decoders here read back what the compiler encodes: readers of
// entries (status, counters, telemetry, trace) call them rather than
// re-deriving priorities and parameters.

// RulePriority is the entry priority of a rule of priority p: 2p for its
// own entries, 2p+1 for its "not" (bypass) entries, above its own and
// below rule p+1.
func RulePriority(p uint32, negated bool) int32 {
	if negated {
		return int32(2*p + 1)
	}
	return int32(2 * p)
}

// DecodeRulePriority is the inverse of RulePriority: the rule's priority
// and whether the entry is one of its "not" exceptions.
func DecodeRulePriority(prio int32) (rule uint32, negated bool) {
	return uint32(prio) / 2, prio%2 == 1
}

// FlowRuleAction is what a flow_rules or flow_rules_v6 entry does.
type FlowRuleAction struct {
	Rule    uint32 // the rule's priority
	Negated bool   // one of the rule's "not" exceptions (always bypass)
	Balance bool   // balance onto Group; otherwise bypass
	Group   uint32 // balance group id
}

// DecodeFlowRule reads a flow_rules or flow_rules_v6 entry; ok is false
// for an entry of another table or action.
func (c *Compiler) DecodeFlowRule(te *p4v1.TableEntry) (a FlowRuleAction, ok bool) {
	var balance *actionRef
	switch te.GetTableId() {
	case c.flowRules.id:
		balance = c.balance
	case c.flowRulesV6.id:
		balance = c.balanceV6
	default:
		return a, false
	}
	a.Rule, a.Negated = DecodeRulePriority(te.GetPriority())
	act := te.GetAction().GetAction()
	switch act.GetActionId() {
	case balance.id:
		g, ok := param(act, balance, "group")
		if !ok {
			return a, false
		}
		a.Balance, a.Group = true, uint32(g)
	case c.bypass.id, c.bypassV6.id:
	default:
		return a, false
	}
	return a, true
}

// DecodeRuleCounter is the rule a flow_rules or flow_rules_v6 direct
// counter entry counts, found by its table and priority: a direct-counter
// read carries only the entry's key (match and priority), never its action,
// so DecodeFlowRule cannot read it. ok is false for another table, and for
// a table's default entry (no match, priority 0), which no rule owns.
func (c *Compiler) DecodeRuleCounter(dc *p4v1.DirectCounterEntry) (rule uint32, negated bool, ok bool) {
	te := dc.GetTableEntry()
	switch te.GetTableId() {
	case c.flowRules.id, c.flowRulesV6.id:
	default:
		return 0, false, false
	}
	if te.GetIsDefaultAction() || (len(te.GetMatch()) == 0 && te.GetPriority() == 0) {
		return 0, false, false
	}
	rule, negated = DecodeRulePriority(te.GetPriority())
	if rule == 0 {
		return 0, false, false
	}
	return rule, negated, true
}

// SlotEntry is what a slots entry says: the slot of a balance group and
// the filter core it sends to.
type SlotEntry struct {
	BalanceGroup uint32
	Slot         uint32
	Target       Target
}

// DecodeSlot reads a slots entry (parameters by id); ok is false for an
// entry of another table or action.
func (c *Compiler) DecodeSlot(te *p4v1.TableEntry) (s SlotEntry, ok bool) {
	if te.GetTableId() != c.slots.id {
		return s, false
	}
	act := te.GetAction().GetAction()
	if act.GetActionId() != c.toFilter.id {
		return s, false
	}
	fg, ok1 := param(act, c.toFilter, "filter_group")
	core, ok2 := param(act, c.toFilter, "core")
	bg, ok3 := match(te, c.slots, "balance_group")
	slot, ok4 := match(te, c.slots, "slot")
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return s, false
	}
	return SlotEntry{BalanceGroup: uint32(bg), Slot: uint32(slot), Target: Target{FilterGroup: uint32(fg), Core: uint32(core)}}, true
}

// param is the value of an action parameter, found by its id.
func param(act *p4v1.Action, a *actionRef, name string) (uint64, bool) {
	id := a.params[name].id
	for _, p := range act.GetParams() {
		if p.GetParamId() == id {
			return wire.Uint(p.GetValue()), true
		}
	}
	return 0, false
}

// match is the value of an exact match field, found by its id.
func match(te *p4v1.TableEntry, t *tableRef, name string) (uint64, bool) {
	id := t.fields[name].id
	for _, m := range te.GetMatch() {
		if m.GetFieldId() == id {
			return wire.Uint(m.GetExact().GetValue()), true
		}
	}
	return 0, false
}
