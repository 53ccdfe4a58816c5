package tables

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
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
	Active *Layout // with the rebalanced filter groups' slots dealt out
}

// Desired is the complete state a switch must hold for one configuration
// and State, in write order.
type Desired struct {
	Entities []*p4v1.Entity
	Layouts  []*GroupLayout
}

// Compiler turns configurations into entities for one P4Info. Every name
// it uses is resolved once, in New.
type Compiler struct {
	schema *p4src.Schema

	portRole, heartbeat, flowRules, flowRulesV6 *tableRef
	balanceGroups, slots, filterGroups, links   *tableRef

	setOperatorPort, setFilterPort, heartbeatPass *actionRef
	bypass, balance, bypassV6, balanceV6          *actionRef
	groupActive, groupBypass, groupDrop           *actionRef
	toFilter, filterForward, filterSWBypass       *actionRef
	filterDrop, setLink                           *actionRef

	coreCounter     uint32 // core_counters id
	coreCounterSize int64

	coreTPID, keepAlive uint32 // value set ids
	vsSize              map[uint32]int
	rank                map[uint32]int

	// verdict: the program keeps the data-plane verdict (filter_forward
	// has epoch, detect and fail_drop); tick is its clock's unit.
	verdict bool
	tick    time.Duration
	// The slot entries of the last compile, by balance group id: the
	// next compile reuses every one whose target stays (two sites in a
	// row share them, and a diff of the two compares pointers). Shared
	// entities are never changed.
	slotMu    sync.Mutex
	slotCache map[uint32]*slotSet
	// slotMatches[i] is the match of slot i (shared by every group).
	slotMatches []*p4v1.FieldMatch
}

type slotSet struct {
	ents    []*p4v1.Entity
	targets []Target
}

type tableRef struct {
	name   string
	id     uint32
	size   int
	fields map[string]fieldRef
}

type fieldRef struct {
	id   uint32
	bits int32
	kind p4configv1.MatchField_MatchType // of a match field
}

type actionRef struct {
	name   string
	id     uint32
	params map[string]fieldRef
}

// New resolves every table, field, action and parameter the compiler uses.
// A P4Info that lacks one is an error naming it.
func New(s *p4src.Schema) (*Compiler, error) {
	c := &Compiler{schema: s, vsSize: map[uint32]int{}}
	var errs []error
	tbl := func(name string, fields ...string) *tableRef {
		t, err := s.Table(name)
		if err != nil {
			errs = append(errs, err)
			return &tableRef{name: name, fields: map[string]fieldRef{}}
		}
		r := &tableRef{name: name, id: t.GetPreamble().GetId(), size: int(t.GetSize()), fields: map[string]fieldRef{}}
		for _, f := range fields {
			mf, err := t.Field(f)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			r.fields[f] = fieldRef{id: mf.GetId(), bits: mf.GetBitwidth(), kind: mf.GetMatchType()}
		}
		return r
	}
	act := func(name string, params ...string) *actionRef {
		a, err := s.Action(name)
		if err != nil {
			errs = append(errs, err)
			return &actionRef{name: name, params: map[string]fieldRef{}}
		}
		r := &actionRef{name: name, id: a.GetPreamble().GetId(), params: map[string]fieldRef{}}
		for _, p := range params {
			ap, err := a.Param(p)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			r.params[p] = fieldRef{id: ap.GetId(), bits: ap.GetBitwidth()}
		}
		return r
	}
	ruleFields := []string{"link_id", "outer_vid", "inner_vid", "vlan_depth", "mpls_depth", "src_mac", "dst_mac", "eth_type", "ip_proto", "l4_src", "l4_dst"}
	c.portRole = tbl(p4src.TablePortRole, "port")
	c.heartbeat = tbl(p4src.TableHeartbeat, "dst_mac", "eth_type")
	c.flowRules = tbl(p4src.TableFlowRules, append(slices.Clone(ruleFields), "is_ipv4", "ipv4_src", "ipv4_dst")...)
	c.flowRulesV6 = tbl(p4src.TableFlowRulesV6, append(slices.Clone(ruleFields), "ipv6_src", "ipv6_dst")...)
	// Every flow rule field is written as a ternary match (ranges expanded
	// into prefixes): a P4Info with another kind is not this program.
	for _, t := range []*tableRef{c.flowRules, c.flowRulesV6} {
		for _, name := range slices.Sorted(maps.Keys(t.fields)) {
			if k := t.fields[name].kind; k != p4configv1.MatchField_TERNARY {
				errs = append(errs, fmt.Errorf("table %s, field %s: match kind %s, want TERNARY", t.name, name, k))
			}
		}
	}
	c.balanceGroups = tbl(p4src.TableBalanceGroups, "balance_group")
	c.slots = tbl(p4src.TableSlots, "balance_group", "slot")
	c.filterGroups = tbl(p4src.TableFilterGroups, "filter_group")
	c.links = tbl(p4src.TableLinks, "link_id")

	c.setOperatorPort = act(p4src.ActionSetOperatorPort, "link_id", "side", "peer_port")
	c.setFilterPort = act(p4src.ActionSetFilterPort, "filter_group", "side")
	c.heartbeatPass = act(p4src.ActionHeartbeatPass)
	c.bypass = act(p4src.ActionBypass)
	c.balance = act(p4src.ActionBalance, "group")
	c.bypassV6 = act(p4src.ActionBypassV6)
	c.balanceV6 = act(p4src.ActionBalanceV6, "group")
	c.groupActive = act(p4src.ActionGroupActive, "slot_mask")
	c.groupBypass = act(p4src.ActionGroupBypass)
	c.groupDrop = act(p4src.ActionGroupDrop)
	c.toFilter = act(p4src.ActionToFilter, "filter_group", "core")
	if s.HasVerdict() {
		c.verdict, c.tick = true, p4src.TickBMv2
		if s.Info.GetPkgInfo().GetArch() == "tna" {
			c.tick = p4src.TickTNA
		}
		c.filterForward = act(p4src.ActionFilterForward, "lan_port", "wan_port", "tpid", p4src.ParamEpoch, p4src.ParamDetect, p4src.ParamFailDrop)
	} else {
		c.filterForward = act(p4src.ActionFilterForward, "lan_port", "wan_port", "tpid")
	}
	c.filterSWBypass = act(p4src.ActionFilterSWBypass)
	c.filterDrop = act(p4src.ActionFilterDrop)
	c.setLink = act(p4src.ActionSetLink, "lan_port", "wan_port")

	if cc, err := s.Counter(p4src.CounterCore); err != nil {
		errs = append(errs, err)
	} else {
		c.coreCounter, c.coreCounterSize = cc.GetPreamble().GetId(), cc.GetSize()
	}
	if vs, err := s.ValueSet(p4src.ValueSetCoreTPID); err != nil {
		errs = append(errs, err)
	} else {
		c.coreTPID = vs.GetPreamble().GetId()
		c.vsSize[c.coreTPID] = int(vs.GetSize())
	}
	if vs, err := s.ValueSet(p4src.ValueSetKeepAlive); err != nil {
		errs = append(errs, err)
	} else {
		c.keepAlive = vs.GetPreamble().GetId()
		c.vsSize[c.keepAlive] = int(vs.GetSize())
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("tables: %w", err)
	}
	// Write order: what others point at first.
	c.rank = map[uint32]int{}
	for i, t := range []*tableRef{c.portRole, c.links, c.filterGroups, c.balanceGroups, c.slots, c.heartbeat, c.flowRules, c.flowRulesV6} {
		c.rank[t.id] = i + 1
	}
	return c, nil
}

// Load returns a compiler for the embedded v1model P4Info (p4src.Load).
func Load() (*Compiler, error) {
	s, err := p4src.Load()
	if err != nil {
		return nil, err
	}
	return New(s)
}

// LoadPlatform returns a compiler for the embedded P4Info of the build a
// platform's switch runs ("" is the default platform): the v1model build
// for sim and bmv2, the committed TNA build for a Tofino platform, so its
// tables have that build's sizes.
func LoadPlatform(platform string) (*Compiler, error) {
	if platform == "" {
		platform = config.DefaultPlatform
	}
	p, err := config.LookupPlatform(platform)
	if err != nil {
		return nil, err
	}
	s, err := p4src.LoadArch(p.Arch)
	if err != nil {
		return nil, err
	}
	c, err := New(s)
	if err != nil {
		return nil, err
	}
	return c, c.CheckPlatform(platform)
}

// Schema returns the P4Info schema the compiler was built for.
func (c *Compiler) Schema() *p4src.Schema { return c.schema }

// TableIDs returns the ids of every table the compiler writes, in write
// order: the tables a controller reads back to reconcile.
func (c *Compiler) TableIDs() []uint32 {
	return []uint32{c.portRole.id, c.links.id, c.filterGroups.id, c.balanceGroups.id, c.slots.id, c.heartbeat.id, c.flowRules.id, c.flowRulesV6.id}
}

// ValueSetIDs returns the ids of the parser value sets the compiler writes.
func (c *Compiler) ValueSetIDs() []uint32 { return []uint32{c.coreTPID, c.keepAlive} }

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
	roles := x.portRoles()
	x.links()
	x.filterGroups()
	compiled := map[uint32]bool{}
	defer c.keepSlotSets(compiled)
	x.balanceGroups(o.layouts, compiled)
	x.heartbeats()

	// Flow rules.
	v4, v6, err := c.compileRules(cfg)
	if err != nil {
		x.fail(err)
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
		x.fail(c.checkWidths(d.Entities))
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
	var bgs, slotEntries []*p4v1.Entity
	totalSlots := 0
	for i, bg := range cfg.BalanceGroups {
		path := fmt.Sprintf("balance_groups[%d]", i)
		members, failed := x.members(path, bg)
		base, err := PlannedLayout(prev[bg.Name], *bg.ID, uint(bg.SlotBits), members)
		if err != nil {
			x.fail(fmt.Errorf("%s: %w", path, err))
			continue
		}
		active := base.Rebalanced(failed)
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
		slotEntries = append(slotEntries, c.slotEntries(*bg.ID, active.Slots)...)
		compiled[*bg.ID] = true
	}
	sortByKey(bgs)
	d.Entities = append(d.Entities, bgs...)
	d.Entities = append(d.Entities, slotEntries...) // already in (group, slot) order
	if totalSlots > c.slots.size {
		x.fail(fmt.Errorf("balance_groups: %d slots exceed the slot table's %d entries: %w", totalSlots, c.slots.size, ErrCapacity))
	}
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

// ErrPlatform is returned for a P4Info whose tables are not those of the
// build the site's platform runs.
var ErrPlatform = errors.New("p4info does not fit the platform")

// CheckPlatform checks that the P4Info the compiler was made from is the
// build the platform's switch runs (its slots table has the platform's
// size): the P4Info alone sizes every table the compiler fills, so a
// build for another platform would be filled past, or short of, what the
// switch holds. "" is the default platform.
func (c *Compiler) CheckPlatform(platform string) error {
	if platform == "" {
		platform = config.DefaultPlatform
	}
	p, err := config.LookupPlatform(platform)
	if err != nil {
		return err
	}
	if c.slots.size != p.SlotCapacity {
		return fmt.Errorf("platform %s runs the %s build, whose %s has %d entries; the P4Info has %d: push the platform's build (or set the platform of the switch the P4Info was compiled for): %w",
			p.Name, p.Arch, c.slots.name, p.SlotCapacity, c.slots.size, ErrPlatform)
	}
	return nil
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
// compiled entity is never changed).
func (c *Compiler) slotEntries(group uint32, slots []Target) []*p4v1.Entity {
	c.slotMu.Lock()
	defer c.slotMu.Unlock()
	n := len(slots)
	out := make([]*p4v1.Entity, n)
	prev := c.slotCache[group]
	var build []int
	for i, t := range slots {
		if prev != nil && i < len(prev.ents) && prev.targets[i] == t {
			out[i] = prev.ents[i]
		} else {
			build = append(build, i)
		}
	}
	slotField := c.slots.fields["slot"].id
	for len(c.slotMatches) < n {
		// Built once per slot index, shared by every group and compile.
		i := len(c.slotMatches)
		c.slotMatches = append(c.slotMatches, &p4v1.FieldMatch{FieldId: slotField,
			FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: canon(uint64(i))}}})
	}
	var (
		k     = len(build)
		ents  = make([]p4v1.Entity, k)
		wraps = make([]p4v1.Entity_TableEntry, k)
		tes   = make([]p4v1.TableEntry, k)
		ms    = make([]*p4v1.FieldMatch, 2*k)
	)
	bgMatch := exact(c.slots, "balance_group", uint64(group))
	slotFirst := slotField < bgMatch.GetFieldId()
	actions := map[Target]*p4v1.TableAction{}
	for j, i := range build {
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
		out[i] = &ents[j]
	}
	if c.slotCache == nil {
		c.slotCache = map[uint32]*slotSet{}
	}
	c.slotCache[group] = &slotSet{ents: out, targets: slices.Clone(slots)}
	return out
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
