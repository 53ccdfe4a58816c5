package tables

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/config"
)

// Site is a compiled configuration in one runtime State, indexed so that a
// state change (a filter group failing or recovering, a manual bypass, a
// rebalance) is computed from the entries it touches alone, without
// compiling the site again. A Site is immutable: WithState returns a new
// one that shares everything the change leaves alone, so readers of an
// older Site need no lock. Its complete entity list is built on demand
// (Desired): a state change costs its own entries, not a copy of the site.
type Site struct {
	cfg   *config.Config
	state State
	// The entities are base with patches applied in order (position ->
	// entity); both are shared between Sites and never written.
	base    []*p4v1.Entity
	patches []map[int]*p4v1.Entity
	patched int // entries in patches
	layouts []*GroupLayout
	once    sync.Once
	desired *Desired
	// Positions in desired.Entities.
	fgPos   map[string]int   // filter group entry by filter group name
	bgPos   map[string]int   // balance group entry by balance group name
	slotPos map[string][]int // slot entries by balance group name, by slot
	layout  map[string]int   // index in desired.Layouts by balance group name
}

// NewSite indexes a Desired compiled by Compile(cfg, st). It scans the
// entities once; do it off any lock a keep-alive path needs.
func (c *Compiler) NewSite(cfg *config.Config, d *Desired, st State) (*Site, error) {
	s := &Site{cfg: cfg, base: d.Entities, layouts: d.Layouts, desired: d, state: cloneState(st), fgPos: map[string]int{}, bgPos: map[string]int{},
		slotPos: map[string][]int{}, layout: map[string]int{}}
	s.once.Do(func() {}) // desired is given
	fgByID := map[uint64]string{}
	for _, fg := range cfg.FilterGroups {
		fgByID[uint64(*fg.ID)] = fg.Name
	}
	bgByID := s.indexLayouts()
	c.indexEntities(s, fgByID, bgByID)
	if missing := s.missingEntries(); len(missing) > 0 {
		return nil, fmt.Errorf("tables: the compiled site has no entry for %v: was it compiled from this configuration?", missing)
	}
	return s, nil
}

// indexLayouts places each balance group's layout and makes its slot
// positions, none found yet (-1); it returns the balance group names by
// id.
func (s *Site) indexLayouts() map[uint64]string {
	bgByID := map[uint64]string{}
	for i, l := range s.layouts {
		bgByID[uint64(l.ID)] = l.Name
		s.layout[l.Name] = i
		pos := make([]int, len(l.Active.Slots))
		for j := range pos {
			pos[j] = -1
		}
		s.slotPos[l.Name] = pos
	}
	return bgByID
}

// indexEntities finds the positions of the filter group, balance group
// and slot entries in the site's entities.
func (c *Compiler) indexEntities(s *Site, fgByID, bgByID map[uint64]string) {
	fgField := c.filterGroups.fields["filter_group"].id
	bgField := c.balanceGroups.fields["balance_group"].id
	sBG, sSlot := c.slots.fields["balance_group"].id, c.slots.fields["slot"].id
	// The slot positions of the group of the last slot entry (a group's
	// slots come together): two map lookups per group, not per slot.
	lastG, lastPos := ^uint64(0), []int(nil)
	for i, e := range s.base {
		te := e.GetTableEntry()
		if te == nil {
			continue
		}
		switch te.GetTableId() {
		case c.filterGroups.id:
			if v, ok := exactOf(te, fgField); ok && fgByID[v] != "" {
				s.fgPos[fgByID[v]] = i
			}
		case c.balanceGroups.id:
			if v, ok := exactOf(te, bgField); ok && bgByID[v] != "" {
				s.bgPos[bgByID[v]] = i
			}
		case c.slots.id:
			g, ok1 := exactOf(te, sBG)
			slot, ok2 := exactOf(te, sSlot)
			if g != lastG {
				lastG, lastPos = g, s.slotPos[bgByID[g]]
			}
			if ok1 && ok2 && slot < uint64(len(lastPos)) {
				lastPos[slot] = i
			}
		}
	}
}

// exactOf is the value of an entry's exact match on field.
func exactOf(te *p4v1.TableEntry, field uint32) (uint64, bool) {
	for _, m := range te.GetMatch() {
		if m.GetFieldId() == field && m.GetExact() != nil {
			return beUint(m.GetExact().GetValue()), true
		}
	}
	return 0, false
}

// missingEntries names the filter groups, balance groups and slots of
// the site that no entry was found for.
func (s *Site) missingEntries() []string {
	var missing []string
	for _, fg := range s.cfg.FilterGroups {
		if _, ok := s.fgPos[fg.Name]; !ok {
			missing = append(missing, "filter group "+fg.Name)
		}
	}
	for _, l := range s.layouts {
		if _, ok := s.bgPos[l.Name]; !ok {
			missing = append(missing, "balance group "+l.Name)
		}
		if slices.Contains(s.slotPos[l.Name], -1) {
			missing = append(missing, "slots of balance group "+l.Name)
		}
	}
	return missing
}

// Desired returns the site's complete desired state. It is built once,
// on the first call (a copy of the site's entity list): call it off the
// failover path.
func (s *Site) Desired() *Desired {
	s.once.Do(func() {
		ents := slices.Clone(s.base)
		for _, p := range s.patches {
			for i, e := range p {
				ents[i] = e
			}
		}
		s.desired = &Desired{Entities: ents, Layouts: s.layouts}
	})
	return s.desired
}

// Layouts returns the site's slot layouts (cheap, unlike Desired).
func (s *Site) Layouts() []*GroupLayout { return s.layouts }

// BaseLayouts returns the base layout of every balance group, by name (as
// Desired.BaseLayouts): the input of the next planned change.
func (s *Site) BaseLayouts() map[string]*Layout {
	m := make(map[string]*Layout, len(s.layouts))
	for _, l := range s.layouts {
		m[l.Name] = l.Base
	}
	return m
}

// maxPatches bounds the patch chain: past it (or past a quarter of the
// site patched) WithState folds the patches into a new base.
const maxPatches = 64

// State returns the runtime state the site is in.
func (s *Site) State() State { return cloneState(s.state) }

// Config returns the configuration the site was compiled from.
func (s *Site) Config() *config.Config { return s.cfg }

// WithState returns the site in another runtime state and the entities
// that changed, in a safe write order: filter groups that start
// forwarding first, then slots, then balance groups, then filter groups
// that stop forwarding. So a recovering filter forwards before slots
// point at it again, a failing one loses its slots to the survivors
// before it is bypassed, and a balance group is activated only once its
// slots and filters are in place. Every changed entity replaces the entry
// of the same key (a MODIFY); the result equals Compile(cfg, to).
func (c *Compiler) WithState(s *Site, to State) (*Site, []*p4v1.Entity, error) {
	out := &Site{cfg: s.cfg, state: cloneState(to), fgPos: s.fgPos, bgPos: s.bgPos, slotPos: s.slotPos, layout: s.layout}
	patch := map[int]*p4v1.Entity{}
	layouts := s.layouts
	lcopied := false
	set := func(pos int, e *p4v1.Entity) { patch[pos] = e }
	var toForward, slotsOut, bgsOut, fromForward []*p4v1.Entity
	var errs []error

	for _, fg := range s.cfg.FilterGroups {
		was, now := s.state.FilterGroups[fg.Name], to.FilterGroups[fg.Name]
		// A new epoch clears a data-plane verdict: a MODIFY of the same
		// forwarding entry.
		epochChanged := c.verdict && now == FGForward && s.state.Epochs[fg.Name] != to.Epochs[fg.Name]
		if was == now && !epochChanged {
			continue
		}
		e, err := c.filterGroupEntry(s.cfg, fg, now, to)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		set(s.fgPos[fg.Name], e)
		if now == FGForward {
			toForward = append(toForward, e)
		} else {
			fromForward = append(fromForward, e)
		}
	}
	for _, bg := range s.cfg.BalanceGroups {
		li, ok := s.layout[bg.Name]
		if !ok {
			continue
		}
		gl := s.layouts[li]
		if rebalancedChanged(bg, s.state, to) {
			active := gl.Base.Rebalanced(rebalancedIDs(s.cfg, bg, to)).Spared(sparedIDs(s.cfg, bg, to))
			pos := s.slotPos[bg.Name]
			moved := c.movedSlotEntries(gl, active)
			for j, i := range moved.slots {
				set(pos[i], moved.ents[j])
			}
			slotsOut = append(slotsOut, moved.ents...)
			if !lcopied {
				layouts, lcopied = slices.Clone(layouts), true
			}
			layouts[li] = &GroupLayout{Name: gl.Name, ID: gl.ID, Base: gl.Base, Active: active}
		}
		if s.state.BalanceGroups[bg.Name] != to.BalanceGroups[bg.Name] {
			e := c.balanceGroupEntry(gl, to.BalanceGroups[bg.Name])
			set(s.bgPos[bg.Name], e)
			bgsOut = append(bgsOut, e)
		}
	}
	if len(errs) > 0 {
		return nil, nil, fmt.Errorf("tables: %w", errors.Join(errs...))
	}
	out.layouts = layouts
	out.base, out.patches, out.patched = s.base, s.patches, s.patched
	if len(patch) > 0 {
		out.patches = append(slices.Clip(s.patches), patch)
		out.patched += len(patch)
	}
	if len(out.patches) > maxPatches || out.patched > len(out.base)/4 {
		out.base, out.patches, out.patched = out.Desired().Entities, nil, 0
	}
	changed := slices.Concat(toForward, slotsOut, bgsOut, fromForward)
	return out, changed, nil
}

// rebalancedIDs is the ids of a balance group's members whose slots are
// dealt to the others in state st.
func rebalancedIDs(cfg *config.Config, bg config.BalanceGroup, st State) map[uint32]bool {
	failed := map[uint32]bool{}
	for _, m := range bg.Members {
		if fg := cfg.FilterGroupByName(m); fg != nil && st.Rebalanced[m] {
			failed[*fg.ID] = true
		}
	}
	return failed
}

// sparedIDs maps the ids of a balance group's members whose share a
// spare carries in state st to the spare's id.
func sparedIDs(cfg *config.Config, bg config.BalanceGroup, st State) map[uint32]uint32 {
	var sub map[uint32]uint32
	for _, m := range bg.Members {
		s, ok := st.Spared[m]
		if !ok {
			continue
		}
		fg, sf := cfg.FilterGroupByName(m), cfg.FilterGroupByName(s)
		if fg == nil || sf == nil || !slices.Contains(bg.Spares, s) {
			continue
		}
		if sub == nil {
			sub = map[uint32]uint32{}
		}
		sub[*fg.ID] = *sf.ID
	}
	return sub
}

// slotMove is the slots of a balance group whose target changes and
// their new entries, in slot order.
type slotMove struct {
	slots []int
	ents  []*p4v1.Entity
}

// movedSlotEntries builds the entries of the slots whose target differs
// between a group's active layout and active, as slotEntry builds them
// but from arrays: a rebalance of a big group moves tens of thousands.
func (c *Compiler) movedSlotEntries(gl *GroupLayout, active *Layout) slotMove {
	var m slotMove
	for i, t := range active.Slots {
		if t != gl.Active.Slots[i] {
			m.slots = append(m.slots, i)
		}
	}
	if len(m.slots) == 0 {
		return m
	}
	c.slotMu.Lock()
	defer c.slotMu.Unlock()
	m.ents = c.buildSlotEntries(gl.ID, active.Slots, m.slots)
	return m
}

// rebalancedChanged says whether a balance group's failed (rebalanced)
// members differ between two states.
func rebalancedChanged(bg config.BalanceGroup, a, b State) bool {
	for _, m := range bg.Members {
		if a.Rebalanced[m] != b.Rebalanced[m] || a.Spared[m] != b.Spared[m] {
			return true
		}
	}
	return false
}

// filterGroupEntry is a filter group's BalancerIngress.filter_groups entry in a
// state (as Compile writes it).
func (c *Compiler) filterGroupEntry(cfg *config.Config, fg config.FilterGroup, st FilterGroupState, state State) (*p4v1.Entity, error) {
	var a *p4v1.TableAction
	switch st {
	case FGForward:
		lan, err := cfg.PortNumber(fg.LAN)
		if err != nil {
			return nil, fmt.Errorf("filter group %s: %w", fg.Name, err)
		}
		wan, err := cfg.PortNumber(fg.WAN)
		if err != nil {
			return nil, fmt.Errorf("filter group %s: %w", fg.Name, err)
		}
		a = c.forwardAction(cfg, fg, state, uint64(lan), uint64(wan))
	case FGSWBypass:
		a = c.action(c.filterSWBypass)
	case FGDrop:
		a = c.action(c.filterDrop)
	default:
		return nil, fmt.Errorf("filter group %s: unknown state %v", fg.Name, st)
	}
	return c.entry(c.filterGroups, 0, a, exact(c.filterGroups, "filter_group", uint64(*fg.ID))), nil
}

// balanceGroupEntry is a balance group's BalancerIngress.balance_groups entry.
func (c *Compiler) balanceGroupEntry(gl *GroupLayout, st BalanceGroupState) *p4v1.Entity {
	var a *p4v1.TableAction
	switch st {
	case BGBypass:
		a = c.action(c.groupBypass)
	case BGDrop:
		a = c.action(c.groupDrop)
	default:
		a = c.action(c.groupActive, uint64(len(gl.Base.Slots)-1))
	}
	return c.entry(c.balanceGroups, 0, a, exact(c.balanceGroups, "balance_group", uint64(gl.ID)))
}

// slotEntry is one BalancerIngress.slots entry.
func (c *Compiler) slotEntry(group uint32, slot int, t Target) *p4v1.Entity {
	return c.entry(c.slots, 0, c.action(c.toFilter, uint64(t.FilterGroup), uint64(t.Core)),
		exact(c.slots, "balance_group", uint64(group)), exact(c.slots, "slot", uint64(slot)))
}

func cloneState(s State) State {
	return State{FilterGroups: maps.Clone(s.FilterGroups), BalanceGroups: maps.Clone(s.BalanceGroups), Rebalanced: maps.Clone(s.Rebalanced),
		Spared: maps.Clone(s.Spared), Epochs: maps.Clone(s.Epochs)}
}

func beUint(b []byte) uint64 {
	var v uint64
	for _, x := range b {
		v = v<<8 | uint64(x)
	}
	return v
}
