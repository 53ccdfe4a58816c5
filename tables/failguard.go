package tables

import (
	"slices"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/config"
)

// The failure guard (docs/availability.md, "Failure states found on the
// switch"): a controller that restarts, reconnects, takes over as HA leader
// or reconciles must never write a filter group that the switch holds in a
// failure state back into service on the strength of its desired state
// alone. The failure may be another controller's (an HA leader that failed
// the filter while etcd had no quorum and could not save it) or its own,
// decided before it could record it. Such a filter group is kept failed
// until the controller has adopted the failure and its own keep-alives
// bring the filter back.

// FilterGroupOf says what a filter_groups entry does: its filter group id
// and its state (forward, software bypass, drop). ok is false for an
// entry of another table or action. It reads programs with and without
// the data-plane verdict alike.
func (c *Compiler) FilterGroupOf(e *p4v1.Entity) (fg uint32, st FilterGroupState, ok bool) {
	te := e.GetTableEntry()
	if te == nil || te.GetTableId() != c.filterGroups.id {
		return 0, 0, false
	}
	id, found := match(te, c.filterGroups, "filter_group")
	if !found {
		return 0, 0, false
	}
	switch te.GetAction().GetAction().GetActionId() {
	case c.filterForward.id:
		st = FGForward
	case c.filterSWBypass.id:
		st = FGSWBypass
	case c.filterDrop.id:
		st = FGDrop
	default:
		return 0, 0, false
	}
	return uint32(id), st, true
}

// FilterGroupID is the filter group id of a filter_groups entry (by its
// match alone: a DELETE carries no action); ok is false for another table.
func (c *Compiler) FilterGroupID(e *p4v1.Entity) (uint32, bool) {
	te := e.GetTableEntry()
	if te == nil || te.GetTableId() != c.filterGroups.id {
		return 0, false
	}
	id, ok := match(te, c.filterGroups, "filter_group")
	return uint32(id), ok
}

// NoteRead records in g one entity a read-back found: a filter group
// entry's state (Held) and the filter group a slot points at (Shares).
// A read-back is handed to it entity by entity as the switch answers, so
// it is never held whole; the other entities are let go.
func (c *Compiler) NoteRead(g *FailureGuard, e *p4v1.Entity) {
	if fg, st, ok := c.FilterGroupOf(e); ok {
		if g.Held == nil {
			g.Held = map[uint32]FilterGroupState{}
		}
		g.Held[fg] = st
		return
	}
	slot, ok := c.DecodeSlot(e.GetTableEntry())
	if !ok {
		return
	}
	if g.Shares == nil {
		g.Shares = map[uint32]map[uint32]int{}
	}
	m := g.Shares[slot.BalanceGroup]
	if m == nil {
		m = map[uint32]int{}
		g.Shares[slot.BalanceGroup] = m
	}
	m[slot.Target.FilterGroup]++
}

// FailureGuard is what a controller knows of the failure states the switch
// holds, for GuardFailures.
type FailureGuard struct {
	// Held is the state of every filter group entry the switch holds, by
	// filter group id: as read back, then as written.
	Held map[uint32]FilterGroupState
	// Kept names the filter groups found failed on the switch whose
	// failure the controller keeps until it writes a failure state of its
	// own for them (it adopted the failure): no write puts them back into
	// service, neither their entry nor slots given back to them.
	// GuardFailures adds the filter groups it finds.
	Kept map[uint32]bool
	// Own names the filter groups the controller has written a failure
	// state for (or tried to: the outcome of a failed write is unknown)
	// since it became primary: a failure state of theirs on the switch
	// is its own, and it may undo it. GuardFailures adds the failure
	// states of every plan it lets through. Empty it when the controller
	// stops being primary: another may write then.
	Own map[uint32]bool
	// Read says the updates were computed from a read-back of the switch
	// (what it holds against the desired state): only then is a
	// difference a finding. A forwarding entry written over a held
	// software bypass or drop is one; so are slots given back to a filter
	// group that forwards but holds no slot of that balance group on the
	// switch (its share was moved to the other members: a failover under
	// rebalance).
	Read bool
	// Shares counts, with Read, the slots each filter group held on the
	// switch in each balance group as read back (balance group -> filter
	// group -> slots; NoteRead fills it).
	Shares map[uint32]map[uint32]int
	// Spares are the filter groups that are a balance group's spare
	// (SpareIDs): one holding no slot is on standby, not failed over, so
	// slots given to it are a spare taking a share, never a share given
	// back.
	Spares map[uint32]bool
}

// SpareIDs is the ids of every filter group that is a spare of a balance
// group of cfg (FailureGuard.Spares).
func SpareIDs(cfg *config.Config) map[uint32]bool {
	var ids map[uint32]bool
	for _, bg := range cfg.BalanceGroups {
		for _, s := range bg.Spares {
			if fg := cfg.FilterGroupByName(s); fg != nil && fg.ID != nil {
				if ids == nil {
					ids = map[uint32]bool{}
				}
				ids[*fg.ID] = true
			}
		}
	}
	return ids
}

// GuardFailures rewrites a plan so that it puts no filter group found
// failed on the switch back into service: the MODIFY that would make its
// entry forward, and every slot MODIFY that would give it a slot, are left
// out (the switch keeps what it holds), Modifies is lowered by as many and
// a batch left empty is left out. It returns the filter groups a read-back
// found failed (they are added to g.Kept), sorted: those new in this plan,
// and those kept before whose return the plan asks for again (the
// controller has not adopted their failure yet: it is told again). The
// plan gets new batch and update slices: the slices given are not
// changed.
func (c *Compiler) GuardFailures(p *Plan, g *FailureGuard) (found []uint32) {
	wants := c.planFilterGroups(p, g)
	if !g.Read && len(g.Kept) == 0 {
		return nil
	}
	if g.Kept == nil {
		g.Kept = map[uint32]bool{}
	}
	newly := map[uint32]bool{}
	if g.Read {
		// A forwarding entry over a held failure state that is not the
		// controller's own.
		for fg, st := range wants {
			if h, ok := g.Held[fg]; ok && st == FGForward && h != FGForward && !g.Kept[fg] && !g.Own[fg] {
				newly[fg] = true
			}
		}
		c.sharesGivenBack(p, g, wants, newly)
	}
	for fg := range newly {
		g.Kept[fg] = true
	}
	if len(g.Kept) == 0 {
		return nil // nothing failed to keep: the plan stays as it is
	}
	c.dropKeptReturns(p, g, newly)
	for fg := range newly {
		found = append(found, fg)
	}
	slices.Sort(found)
	return found
}

// planFilterGroups returns the filter group entries the plan writes, with
// their new state; a failure state written is the controller's own from
// now on (it adopted any failure it kept).
func (c *Compiler) planFilterGroups(p *Plan, g *FailureGuard) map[uint32]FilterGroupState {
	wants := map[uint32]FilterGroupState{}
	for _, b := range p.Batches {
		for _, u := range b.Updates {
			if u.GetType() == p4v1.Update_DELETE {
				continue
			}
			fg, st, ok := c.FilterGroupOf(u.GetEntity())
			if !ok {
				continue
			}
			wants[fg] = st
			if st != FGForward {
				if g.Own == nil {
					g.Own = map[uint32]bool{}
				}
				g.Own[fg] = true
				delete(g.Kept, fg)
			}
		}
	}
	return wants
}

// sharesGivenBack adds to newly every forwarding filter group the plan
// gives slots back to while it holds none of that balance group on the
// switch (its share was moved: a failover under rebalance).
func (c *Compiler) sharesGivenBack(p *Plan, g *FailureGuard, wants map[uint32]FilterGroupState, newly map[uint32]bool) {
	shares := g.Shares
	for _, b := range p.Batches {
		for _, u := range b.Updates {
			if u.GetType() != p4v1.Update_MODIFY {
				continue
			}
			s, ok := c.DecodeSlot(u.GetEntity().GetTableEntry())
			if !ok {
				continue
			}
			fg := s.Target.FilterGroup
			if g.Kept[fg] || newly[fg] || g.Own[fg] || g.Spares[fg] {
				continue
			}
			if shares[s.BalanceGroup][fg] > 0 {
				continue
			}
			st, written := wants[fg]
			if !written {
				st, written = g.Held[fg]
			}
			if written && st == FGForward {
				newly[fg] = true
			}
		}
	}
}

// dropKeptReturns leaves out of the plan every MODIFY that would put a
// kept filter group back into service (a filter group found again is
// added to newly when the plan comes from a read-back), with new batch
// and update slices.
func (c *Compiler) dropKeptReturns(p *Plan, g *FailureGuard, newly map[uint32]bool) {
	dropped := 0
	batches := p.Batches[:0:0]
	for _, b := range p.Batches {
		out := make([]*p4v1.Update, 0, len(b.Updates))
		for _, u := range b.Updates {
			if u.GetType() == p4v1.Update_MODIFY {
				if fg, keep := c.keepsFailure(u.GetEntity(), g); keep {
					if g.Read {
						newly[fg] = true // found again: its return is still asked for
					}
					dropped++
					continue
				}
			}
			out = append(out, u)
		}
		if len(out) > 0 || len(b.Updates) == 0 {
			batches = append(batches, Batch{Name: b.Name, Updates: out})
		}
	}
	p.Batches = batches
	p.Modifies -= dropped
}

// keepsFailure says whether writing e would put a kept filter group back
// into service: its entry forwarding over a held failure state, or a slot
// pointing at it.
func (c *Compiler) keepsFailure(e *p4v1.Entity, g *FailureGuard) (uint32, bool) {
	if fg, st, ok := c.FilterGroupOf(e); ok {
		h, held := g.Held[fg]
		return fg, g.Kept[fg] && st == FGForward && held && h != FGForward
	}
	if s, ok := c.DecodeSlot(e.GetTableEntry()); ok {
		return s.Target.FilterGroup, g.Kept[s.Target.FilterGroup]
	}
	return 0, false
}
