package tables

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
)

// ErrCapacity is returned when the configuration needs more entries than a
// table holds.
var ErrCapacity = errors.New("table capacity exceeded")

// FilterGroupState is the forwarding state of a filter group (its
// BalancerIngress.filter_groups entry).
type FilterGroupState uint8

const (
	FGForward  FilterGroupState = iota // traffic goes through the filter
	FGSWBypass                         // software bypass: looped on the switch
	FGDrop                             // dropped (failure action drop)
)

func (s FilterGroupState) String() string {
	switch s {
	case FGForward:
		return "forward"
	case FGSWBypass:
		return "sw-bypass"
	case FGDrop:
		return "drop"
	}
	return fmt.Sprintf("FilterGroupState(%d)", uint8(s))
}

// BalanceGroupState is the state of a balance group (its
// BalancerIngress.balance_groups entry).
type BalanceGroupState uint8

const (
	BGActive BalanceGroupState = iota // balance over the slot table
	BGBypass                          // the whole group bypasses the filters
	BGDrop                            // the whole group is dropped
)

func (s BalanceGroupState) String() string {
	switch s {
	case BGActive:
		return "active"
	case BGBypass:
		return "bypass"
	case BGDrop:
		return "drop"
	}
	return fmt.Sprintf("BalanceGroupState(%d)", uint8(s))
}

// State is the runtime state that changes entries without a configuration
// change: the availability profiles' decisions and manual bypass. The zero
// State means everything forwards.
type State struct {
	// FilterGroups by name; absent means FGForward.
	FilterGroups map[string]FilterGroupState
	// BalanceGroups by name; absent means BGActive.
	BalanceGroups map[string]BalanceGroupState
	// Rebalanced names the filter groups whose slots are dealt to the
	// surviving members of their balance group (failure action rebalance).
	Rebalanced map[string]bool
	// Spared maps a failed member to the spare of its balance group that
	// carries its whole share (failure action spare): every slot of the
	// member points at the spare, on the same core.
	Spared map[string]string
	// Epochs are the filter groups' verdict epochs (filter_forward.epoch,
	// on a program with the data-plane verdict); absent means 0. A
	// data-plane verdict stands while the entry keeps the epoch it was
	// proven at: the controller clears one by writing the next epoch
	// (verdict.go).
	Epochs map[string]uint8
}

// GroupLayout is a balance group's base and in-use slot layouts.
type GroupLayout struct {
	Name   string
	ID     uint32
	Base   *Layout // from the configuration alone
	Active *Layout // with the rebalanced filter groups' slots dealt out, the spared ones' given to their spares
}

// Desired is the complete state a switch must hold for one configuration
// and State, in write order.
type Desired struct {
	Entities []*p4v1.Entity
	Layouts  []*GroupLayout
}

// CompileOption changes what Compile starts from.
type CompileOption func(*compileOptions)

type compileOptions struct {
	layouts map[string]*Layout
}

// FromLayouts makes Compile lay out each balance group's slots as a
// planned change from the base layout the switch was last programmed with
// (PlannedLayout; by balance group name, as Desired.BaseLayouts returns
// them), so that adding, removing or resizing a member moves only the
// slots it must. A group without one gets BaseLayout. Without this option
// every layout is BaseLayout, a function of the configuration alone.
func FromLayouts(prev map[string]*Layout) CompileOption {
	return func(o *compileOptions) { o.layouts = prev }
}

// BaseLayouts returns the base layout of every balance group, by name: the
// input of the next planned change (FromLayouts).
func (d *Desired) BaseLayouts() map[string]*Layout {
	out := make(map[string]*Layout, len(d.Layouts))
	for _, l := range d.Layouts {
		out[l.Name] = l.Base
	}
	return out
}

// Compile returns the entities for a validated configuration in a given
// runtime state.
func (c *Compiler) Compile(cfg *config.Config, st State, opts ...CompileOption) (*Desired, error) {
	var o compileOptions
	for _, opt := range opts {
		opt(&o)
	}
	x := &compiling{c: c, cfg: cfg, st: st, d: &Desired{}}
	x.valueSets()
	x.cpuPort()
	roles := x.portRoles()
	x.links()
	x.filterGroups()
	// Flow rules (compiled first: the entities are grown once for the
	// slots and what comes after them).
	v4, v6, rulesErr := c.compileRules(cfg)
	x.tail = len(cfg.Defaults.Heartbeat) + len(v4) + len(v6)
	compiled := map[uint32]bool{}
	defer c.keepSlotSets(compiled)
	x.balanceGroups(o.layouts, compiled)
	x.heartbeats()
	if rulesErr != nil {
		x.fail(rulesErr)
	}
	d := x.d
	d.Entities = append(d.Entities, v4...)
	d.Entities = append(d.Entities, v6...)
	for _, t := range []struct {
		ref *tableRef
		n   int
	}{{c.flowRules, len(v4)}, {c.flowRulesV6, len(v6)}, {c.heartbeat, len(cfg.Defaults.Heartbeat)}, {c.portRole, roles}} {
		if t.n > t.ref.size {
			x.fail(fmt.Errorf("%s: %d entries exceed its %d capacity: %w", t.ref.name, t.n, t.ref.size, ErrCapacity))
		}
	}
	if len(x.errs) == 0 {
		// The slot entries are made of shared parts: their probes carry
		// every value the others do.
		x.fail(c.checkWidths(slices.Concat(d.Entities[:x.slots[0]], x.slotProbes, d.Entities[x.slots[1]:])))
	}
	if err := errors.Join(x.errs...); err != nil {
		return nil, fmt.Errorf("tables: %w", err)
	}
	return d, nil
}

// compiling is the work of one Compile: the entities so far and every
// problem found.
type compiling struct {
	c    *Compiler
	cfg  *config.Config
	st   State
	d    *Desired
	errs []error
	// slots is where the slot entries are in d.Entities; slotProbes are
	// the slot entries whose values stand for all of them (checkWidths).
	slots      [2]int
	slotProbes []*p4v1.Entity
	// tail is how many entities come after the slots (heartbeats, flow
	// rules).
	tail int
}

func (x *compiling) fail(err error) { x.errs = append(x.errs, err) }

// port is the number of a port by name (0 and a problem at path when it
// has none).
func (x *compiling) port(path, name string) uint64 {
	n, err := x.cfg.PortNumber(name)
	if err != nil {
		x.fail(fmt.Errorf("%s: %w", path, err))
	}
	return uint64(n)
}

// valueSets adds the parser value sets.
func (x *compiling) valueSets() {
	c, cfg := x.c, x.cfg
	tpids := []uint64{uint64(cfg.Defaults.CoreTPID)}
	for _, fg := range cfg.FilterGroups {
		tpids = append(tpids, uint64(fg.TPID))
	}
	slices.Sort(tpids)
	tpids = slices.Compact(tpids)
	x.d.Entities = append(x.d.Entities,
		valueSet(c.coreTPID, tpids),
		valueSet(c.keepAlive, []uint64{uint64(cfg.Defaults.KeepAlive.EtherType)}))
}

// cpuPort adds the switch's CPU port, for a program that takes it at run
// time: the packet-out port the parser recognises (value set) and the
// packet-in port (the switch_info table's default entry).
func (x *compiling) cpuPort() {
	c := x.c
	if c.cpuTable == nil {
		return
	}
	if c.cpuVS != 0 {
		x.d.Entities = append(x.d.Entities, valueSet(c.cpuVS, []uint64{uint64(c.cpuPort)}))
	}
	x.d.Entities = append(x.d.Entities, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{
		TableId: c.cpuTable.id, IsDefaultAction: true, Action: c.action(c.setCPUPort, uint64(c.cpuPort)),
	}}})
}

// portRoles adds the port roles of links and filter groups and returns
// how many there are.
func (x *compiling) portRoles() int {
	c, cfg := x.c, x.cfg
	var roles []*p4v1.Entity
	for i, l := range cfg.Links {
		path := fmt.Sprintf("links[%d]", i)
		lan, wan := x.port(path+".lan", l.LAN), x.port(path+".wan", l.WAN)
		id := uint64(*l.ID)
		roles = append(roles,
			c.entry(c.portRole, 0, c.action(c.setOperatorPort, id, uint64(config.SideLAN), wan), exact(c.portRole, "port", lan)),
			c.entry(c.portRole, 0, c.action(c.setOperatorPort, id, uint64(config.SideWAN), lan), exact(c.portRole, "port", wan)))
	}
	for i, fg := range cfg.FilterGroups {
		path := fmt.Sprintf("filter_groups[%d]", i)
		lan, wan := x.port(path+".lan", fg.LAN), x.port(path+".wan", fg.WAN)
		id := uint64(*fg.ID)
		roles = append(roles,
			c.entry(c.portRole, 0, c.action(c.setFilterPort, id, uint64(config.SideLAN)), exact(c.portRole, "port", lan)),
			c.entry(c.portRole, 0, c.action(c.setFilterPort, id, uint64(config.SideWAN)), exact(c.portRole, "port", wan)))
	}
	sortByKey(roles)
	x.d.Entities = append(x.d.Entities, roles...)
	return len(roles)
}

// links adds the links' return paths.
func (x *compiling) links() {
	c := x.c
	var links []*p4v1.Entity
	for i, l := range x.cfg.Links {
		path := fmt.Sprintf("links[%d]", i)
		lan, wan := x.port(path+".lan", l.LAN), x.port(path+".wan", l.WAN)
		links = append(links, c.entry(c.links, 0, c.action(c.setLink, lan, wan), exact(c.links, "link_id", uint64(*l.ID))))
	}
	sortByKey(links)
	x.d.Entities = append(x.d.Entities, links...)
}

// filterGroups adds the filter group states.
func (x *compiling) filterGroups() {
	c, cfg, st := x.c, x.cfg, x.st
	var fgs []*p4v1.Entity
	for i, fg := range cfg.FilterGroups {
		path := fmt.Sprintf("filter_groups[%d]", i)
		var a *p4v1.TableAction
		switch st.FilterGroups[fg.Name] {
		case FGForward:
			a = c.forwardAction(cfg, fg, st, x.port(path+".lan", fg.LAN), x.port(path+".wan", fg.WAN))
		case FGSWBypass:
			a = c.action(c.filterSWBypass)
		case FGDrop:
			a = c.action(c.filterDrop)
		}
		fgs = append(fgs, c.entry(c.filterGroups, 0, a, exact(c.filterGroups, "filter_group", uint64(*fg.ID))))
	}
	sortByKey(fgs)
	x.d.Entities = append(x.d.Entities, fgs...)
}

// balanceGroups adds the balance group states and their slots, laid out
// from prev (FromLayouts), and notes each group compiled.
func (x *compiling) balanceGroups(prev map[string]*Layout, compiled map[uint32]bool) {
	c, cfg, d := x.c, x.cfg, x.d
	var bgs []*p4v1.Entity
	slotEntries := make([][]*p4v1.Entity, 0, len(cfg.BalanceGroups)) // each group's, appended once counted
	totalSlots := 0
	for i, bg := range cfg.BalanceGroups {
		path := fmt.Sprintf("balance_groups[%d]", i)
		members, failed := x.members(path, bg)
		base, err := PlannedLayout(prev[bg.Name], *bg.ID, uint(bg.SlotBits), members)
		if err != nil {
			x.fail(fmt.Errorf("%s: %w", path, err))
			continue
		}
		active := base.Rebalanced(failed).Spared(sparedIDs(cfg, bg, x.st))
		d.Layouts = append(d.Layouts, &GroupLayout{Name: bg.Name, ID: *bg.ID, Base: base, Active: active})
		var a *p4v1.TableAction
		switch x.st.BalanceGroups[bg.Name] {
		case BGActive:
			a = c.action(c.groupActive, uint64(len(base.Slots)-1))
		case BGBypass:
			a = c.action(c.groupBypass)
		case BGDrop:
			a = c.action(c.groupDrop)
		}
		bgs = append(bgs, c.entry(c.balanceGroups, 0, a, exact(c.balanceGroups, "balance_group", uint64(*bg.ID))))
		totalSlots += len(active.Slots)
		ents := c.slotEntries(*bg.ID, active.Slots)
		x.slotProbes = append(x.slotProbes, slotProbes(ents, active.Slots)...)
		slotEntries = append(slotEntries, ents)
		compiled[*bg.ID] = true
	}
	sortByKey(bgs)
	d.Entities = slices.Grow(d.Entities, len(bgs)+totalSlots+x.tail)
	d.Entities = append(d.Entities, bgs...)
	x.slots[0] = len(d.Entities)
	for _, ents := range slotEntries {
		d.Entities = append(d.Entities, ents...) // already in (group, slot) order
	}
	x.slots[1] = len(d.Entities)
	if totalSlots > c.slots.size {
		x.fail(fmt.Errorf("balance_groups: %d slots exceed the slot table's %d entries: %w", totalSlots, c.slots.size, ErrCapacity))
	}
}

// slotProbes returns the slot entries of a balance group whose values
// stand for all of them: one per target (its action; every entry has the
// group's match) and the last slot's (the widest slot number).
func slotProbes(ents []*p4v1.Entity, slots []Target) []*p4v1.Entity {
	if len(ents) == 0 {
		return nil
	}
	seen := map[Target]bool{}
	var out []*p4v1.Entity
	for i, t := range slots {
		if !seen[t] {
			seen[t] = true
			out = append(out, ents[i])
		}
	}
	return append(out, ents[len(ents)-1])
}

// members returns a balance group's members and, by filter group id,
// those rebalanced in the runtime state.
func (x *compiling) members(path string, bg config.BalanceGroup) ([]Member, map[uint32]bool) {
	members := make([]Member, 0, len(bg.Members))
	failed := map[uint32]bool{}
	for _, name := range bg.Members {
		fg := x.cfg.FilterGroupByName(name)
		if fg == nil {
			x.fail(fmt.Errorf("%s.members: unknown filter group %q", path, name))
			continue
		}
		members = append(members, Member{ID: *fg.ID, Cores: fg.Cores})
		if x.st.Rebalanced[name] {
			failed[*fg.ID] = true
		}
	}
	return members, failed
}

// heartbeats adds the heartbeat entries: earlier entries win.
func (x *compiling) heartbeats() {
	c, hbs := x.c, x.cfg.Defaults.Heartbeat
	for i, h := range hbs {
		var m []*p4v1.FieldMatch
		if h.DstMAC != nil {
			m = append(m, ternary(c.heartbeat, "dst_mac", macU64(h.DstMAC.Value), macU64(h.DstMAC.Mask)))
		}
		if h.EtherType != nil {
			m = append(m, ternary(c.heartbeat, "eth_type", uint64(*h.EtherType), 0xffff))
		}
		x.d.Entities = append(x.d.Entities, c.entry(c.heartbeat, int32(len(hbs)-i), c.action(c.heartbeatPass), m...))
	}
}

func (c *Compiler) entry(t *tableRef, prio int32, a *p4v1.TableAction, m ...*p4v1.FieldMatch) *p4v1.Entity {
	var matches []*p4v1.FieldMatch
	for _, fm := range m {
		if fm != nil {
			matches = append(matches, fm)
		}
	}
	slices.SortFunc(matches, func(a, b *p4v1.FieldMatch) int { return cmp.Compare(a.FieldId, b.FieldId) })
	return &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{
		TableId:  t.id,
		Match:    matches,
		Action:   a,
		Priority: prio,
	}}}
}

// action builds a direct action with its parameters in declaration order.
func (c *Compiler) action(a *actionRef, values ...uint64) *p4v1.TableAction {
	names := actionParamOrder[a.name]
	act := &p4v1.Action{ActionId: a.id}
	for i, v := range values {
		p := a.params[names[i]]
		act.Params = append(act.Params, &p4v1.Action_Param{ParamId: p.id, Value: canon(v)}) // checkWidths refuses a wider value
	}
	return &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: act}}
}

// actionParamOrder lists each action's parameters in the order the
// compiler passes them.
var actionParamOrder = map[string][]string{
	p4src.ActionSetOperatorPort: {"link_id", "side", "peer_port"},
	p4src.ActionSetFilterPort:   {"filter_group", "side"},
	p4src.ActionBalance:         {"group"},
	p4src.ActionBalanceV6:       {"group"},
	p4src.ActionGroupActive:     {"slot_mask"},
	p4src.ActionToFilter:        {"filter_group", "core"},
	p4src.ActionFilterForward:   {"lan_port", "wan_port", "tpid", p4src.ParamEpoch, p4src.ParamDetect, p4src.ParamFailDrop},
	p4src.ActionSetLink:         {"lan_port", "wan_port"},
	p4src.ActionSwitchInfo:      {p4src.ParamCPUPort},
}

func exact(t *tableRef, field string, v uint64) *p4v1.FieldMatch {
	f := t.fields[field]
	return &p4v1.FieldMatch{FieldId: f.id, FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: canon(v)}}} // checkWidths refuses a wider value
}

// ternary returns a ternary match, or nil (wildcard) when the mask is zero.
func ternary(t *tableRef, field string, v, mask uint64) *p4v1.FieldMatch {
	f := t.fields[field]
	mask &= maxValue(f.bits)
	if mask == 0 {
		return nil
	}
	return &p4v1.FieldMatch{FieldId: f.id, FieldMatchType: &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{Value: canon(v & mask), Mask: canon(mask)}}}
}

// ternaryBytes is ternary for fields wider than 64 bits.
func ternaryBytes(t *tableRef, field string, v, mask []byte) *p4v1.FieldMatch {
	f := t.fields[field]
	zero := true
	val := make([]byte, len(v))
	for i := range v {
		val[i] = v[i] & mask[i]
		if mask[i] != 0 {
			zero = false
		}
	}
	if zero {
		return nil
	}
	return &p4v1.FieldMatch{FieldId: f.id, FieldMatchType: &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{Value: canonBytes(val), Mask: canonBytes(mask)}}}
}

func valueSet(id uint32, values []uint64) *p4v1.Entity {
	vs := &p4v1.ValueSetEntry{ValueSetId: id}
	for _, v := range values {
		vs.Members = append(vs.Members, &p4v1.ValueSetMember{Match: []*p4v1.FieldMatch{{
			FieldId:        1,
			FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: canon(v)}},
		}}})
	}
	return &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: vs}}
}

func macU64(m config.MAC) uint64 {
	var v uint64
	for _, b := range m {
		v = v<<8 | uint64(b)
	}
	return v
}

func sortByKey(es []*p4v1.Entity) {
	slices.SortStableFunc(es, func(a, b *p4v1.Entity) int { return cmp.Compare(Key(a), Key(b)) })
}

// slotEntries returns a balance group's slot entries, as slotEntry
// builds them: the entries of the last compile whose target stays are
// reused, and the others built in a handful of allocations rather than a
// dozen per entry (the messages come from arrays; the entries share the
// balance group's match, each slot's match and one action per target; a
// compiled entity is never changed). A group whose slots are the last
// compile's gets the last list itself: callers only read it.
func (c *Compiler) slotEntries(group uint32, slots []Target) []*p4v1.Entity {
	c.slotMu.Lock()
	defer c.slotMu.Unlock()
	n := len(slots)
	prev := c.slotCache[group]
	kept := 0 // the leading positions' entries of prev that stay
	if prev != nil {
		kept = min(n, len(prev.ents))
	}
	changed := n - kept
	for i := range kept {
		if prev.targets[i] != slots[i] {
			changed++
		}
	}
	if prev != nil && changed == 0 && len(prev.ents) == n {
		// The group's slots are the last compile's: its entries as they
		// are (a compiled entity, and the cache's list, is never changed).
		return prev.ents
	}
	patched := changed
	if prev != nil && changed < n {
		patched += prev.patched
	}
	var build []int // nil: every position
	var out []*p4v1.Entity
	if changed == n || patched > n/2 {
		// Past half the group rebuilt since its last full build (or all
		// of it changed): all of it, in one array (the arrays the kept
		// entries pin are let go).
		patched = 0
		out = c.buildSlotEntries(group, slots, nil)
	} else {
		build = make([]int, 0, changed)
		out = make([]*p4v1.Entity, n)
		for i, t := range slots {
			if i < kept && prev.targets[i] == t {
				out[i] = prev.ents[i]
			} else {
				build = append(build, i)
			}
		}
		for j, e := range c.buildSlotEntries(group, slots, build) {
			out[build[j]] = e
		}
	}
	if c.slotCache == nil {
		c.slotCache = map[uint32]*slotSet{}
	}
	// The last targets' array is written over (no one else reads it).
	var targets []Target
	if prev != nil && cap(prev.targets) >= n {
		targets = prev.targets[:n]
	}
	targets = append(targets[:0], slots...)
	c.slotCache[group] = &slotSet{ents: out, targets: targets, patched: patched}
	return out
}

// buildSlotEntries builds the slot entries of the slots at the positions
// build (nil: every position) of a balance group's targets, in that
// order, as slotEntry builds them, in a handful of allocations rather
// than a dozen per entry (the messages come from arrays; the entries
// share the balance group's match, each slot's match and one action per
// target). The caller holds slotMu.
func (c *Compiler) buildSlotEntries(group uint32, slots []Target, build []int) []*p4v1.Entity {
	n := len(slots)
	slotField := c.slots.fields["slot"].id
	if have := len(c.slotMatches); have < n {
		// Built once per slot index, shared by every group and compile,
		// from arrays (four allocations, not four per slot).
		k := n - have
		fms := make([]p4v1.FieldMatch, k)
		wraps := make([]p4v1.FieldMatch_Exact_, k)
		exs := make([]p4v1.FieldMatch_Exact, k)
		vals := make([]byte, 0, 2*k)
		for j := range k {
			i := have + j
			v := len(vals)
			vals = wire.AppendCanonical(vals, uint64(i))
			exs[j].Value = vals[v:len(vals):len(vals)]
			wraps[j].Exact = &exs[j]
			fms[j] = p4v1.FieldMatch{FieldId: slotField, FieldMatchType: &wraps[j]}
			c.slotMatches = append(c.slotMatches, &fms[j])
		}
	}
	k := len(build)
	if build == nil {
		k = n
	}
	var (
		ents  = make([]p4v1.Entity, k)
		wraps = make([]p4v1.Entity_TableEntry, k)
		tes   = make([]p4v1.TableEntry, k)
		ms    = make([]*p4v1.FieldMatch, 2*k)
		res   = make([]*p4v1.Entity, k)
	)
	bgMatch := exact(c.slots, "balance_group", uint64(group))
	slotFirst := slotField < bgMatch.GetFieldId()
	actions := map[Target]*p4v1.TableAction{}
	for j := range k {
		i := j
		if build != nil {
			i = build[j]
		}
		t := slots[i]
		a := actions[t]
		if a == nil {
			a = c.action(c.toFilter, uint64(t.FilterGroup), uint64(t.Core))
			actions[t] = a
		}
		m := ms[2*j : 2*j+2 : 2*j+2]
		if slotFirst {
			m[0], m[1] = c.slotMatches[i], bgMatch
		} else {
			m[0], m[1] = bgMatch, c.slotMatches[i]
		}
		tes[j] = p4v1.TableEntry{TableId: c.slots.id, Match: m, Action: a}
		wraps[j].TableEntry = &tes[j]
		ents[j].Entity = &wraps[j]
		res[j] = &ents[j]
	}
	return res
}

// keepSlotSets drops the reusable slot entries of the groups a compile
// did not have (the cache holds one site's slots, not a history).
func (c *Compiler) keepSlotSets(groups map[uint32]bool) {
	c.slotMu.Lock()
	defer c.slotMu.Unlock()
	for g := range c.slotCache {
		if !groups[g] {
			delete(c.slotCache, g)
		}
	}
}
