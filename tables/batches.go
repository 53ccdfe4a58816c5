package tables

import (
	"fmt"
	"maps"
	"slices"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

// writeBatches are the inserts and modifies sorted into the batches they
// go in (batches 2 to 8 of Diff).
type writeBatches struct {
	prep, fgIn, slots, groups, admit, fgOut []*p4v1.Update
	ruleLevels                              map[int32][]*p4v1.Update // by priority
}

// writeBatch is one of the batches of inserts and modifies.
type writeBatch int

const (
	wPrep writeBatch = iota
	wFgIn
	wSlots
	wGroups
	wRules
	wAdmit
	wFgOut
	nWriteBatches
)

// batchOf says which batch an insert or modify goes in, and for a rule
// its level (priority; 0 for all before any operator port admits
// traffic: one batch).
func (df *differ) batchOf(u diffUpdate) (writeBatch, int32) {
	c := df.c
	e := u.u.GetEntity()
	switch t := e.GetTableEntry(); {
	case t == nil, t.GetIsDefaultAction(): // value sets, the CPU port
		return wPrep, 0
	case t.GetTableId() == c.portRole.id:
		if c.isOperatorPort(e) {
			return wAdmit, 0
		}
		return wPrep, 0
	case t.GetTableId() == c.links.id:
		return wPrep, 0
	case t.GetTableId() == c.filterGroups.id:
		// New filter groups go in before any slot points at them,
		// whatever their state (a missing entry would fail open).
		if u.u.GetType() == p4v1.Update_INSERT || t.GetAction().GetAction().GetActionId() == c.filterForward.id {
			return wFgIn, 0
		}
		return wFgOut, 0
	case t.GetTableId() == c.slots.id:
		return wSlots, 0
	case t.GetTableId() == c.balanceGroups.id:
		return wGroups, 0
	case !df.admitted:
		return wRules, 0
	default: // heartbeats and flow rules
		return wRules, u.prio
	}
}

// sortWrites sorts the modifies, then the inserts, into their batches
// (counted first: each batch is allocated once, at its size).
func (df *differ) sortWrites() writeBatches {
	var n [nWriteBatches]int
	levels := map[int32]int{}
	for _, us := range [][]diffUpdate{df.mods, df.ins} {
		for _, u := range us {
			b, level := df.batchOf(u)
			n[b]++
			if b == wRules {
				levels[level]++
			}
		}
	}
	var out [nWriteBatches][]*p4v1.Update
	for b := range out {
		if b != int(wRules) && n[b] > 0 {
			out[b] = make([]*p4v1.Update, 0, n[b])
		}
	}
	w := writeBatches{ruleLevels: make(map[int32][]*p4v1.Update, len(levels))}
	for level, k := range levels {
		w.ruleLevels[level] = make([]*p4v1.Update, 0, k)
	}
	for _, us := range [][]diffUpdate{df.mods, df.ins} {
		for _, u := range us {
			b, level := df.batchOf(u)
			if b == wRules {
				w.ruleLevels[level] = append(w.ruleLevels[level], u.u)
				continue
			}
			out[b] = append(out[b], u.u)
		}
	}
	w.prep, w.fgIn, w.slots, w.groups, w.admit, w.fgOut = out[wPrep], out[wFgIn], out[wSlots], out[wGroups], out[wAdmit], out[wFgOut]
	return w
}

// sortDeletes splits the deletes into those of rules, by priority, and
// the stale entries of the other tables.
func (df *differ) sortDeletes() (ruleDels map[int32][]*p4v1.Update, stale []*p4v1.Update) {
	ruleDels = map[int32][]*p4v1.Update{}
	for _, d := range df.dels {
		if d.rank >= int32(df.c.rank[df.c.heartbeat.id]) {
			ruleDels[d.prio] = append(ruleDels[d.prio], d.u)
		} else {
			stale = append(stale, d.u)
		}
	}
	return ruleDels, stale
}

// addBatches appends the plan's batches in Diff's order.
func (df *differ) addBatches(plan *Plan, freeFirst []*p4v1.Update) {
	w := df.sortWrites()
	ruleDels, stale := df.sortDeletes()
	add := func(name string, us []*p4v1.Update) {
		if len(us) > 0 {
			plan.Batches = append(plan.Batches, Batch{Name: name, Updates: us})
		}
	}
	add("delete to free capacity", freeFirst)
	add("value sets, filter ports and links", w.prep)
	add("filter groups into service", w.fgIn)
	add("slots", w.slots)
	add("balance groups", w.groups)
	if !df.admitted {
		add("heartbeats and flow rules", w.ruleLevels[0])
	} else {
		levels := slices.Sorted(maps.Keys(w.ruleLevels))
		for i := len(levels) - 1; i >= 0; i-- {
			add(fmt.Sprintf("rules at priority %d", levels[i]), w.ruleLevels[levels[i]])
		}
	}
	add("operator ports", w.admit)
	add("filter groups out of service", w.fgOut)
	add("value sets", updatesOf(df.vsFinal))
	add("delete operator ports", updatesOf(df.operatorDels))
	for _, p := range slices.Sorted(maps.Keys(ruleDels)) {
		add(fmt.Sprintf("delete rules at priority %d", p), ruleDels[p])
	}
	add("delete stale entries", stale)
}

// updatesOf returns the updates of us, in order.
func updatesOf(us []diffUpdate) []*p4v1.Update {
	var out []*p4v1.Update
	for _, u := range us {
		out = append(out, u.u)
	}
	return out
}

// isOperatorPort says whether e is a port role entry of a link's port (an
// entry that admits operator traffic).
func (c *Compiler) isOperatorPort(e *p4v1.Entity) bool {
	t := e.GetTableEntry()
	return t != nil && t.GetTableId() == c.portRole.id && t.GetAction().GetAction().GetActionId() == c.setOperatorPort.id
}
