package tables

import (
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
	"github.com/dpi-balancer/balancer/p4src/wire"
)

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
	counters        counterRefs // the counters of a snapshot

	coreTPID, keepAlive uint32 // value set ids

	// The switch's CPU port, written when the program takes it at run
	// time (cpuTable's default action setCPUPort, value set cpuVS; all
	// nil/0 for a program with the compiled-in port only). cpuPort is the
	// schema's compiled-in port until SetCPUPort.
	cpuTable   *tableRef
	setCPUPort *actionRef
	cpuVS      uint32
	cpuPort    uint32
	vsSize     map[uint32]int
	rank       map[uint32]int

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
	// mods is the modifies' list a finished diff let go, emptied, for
	// the next one: a planned change's diff lists tens of thousands of
	// modifies, and grown anew each time they were a good part of what a
	// change allocates. (The inserts' list is not kept: a cold start's is
	// the whole site, once.) Kept here rather than in a sync.Pool: the
	// allocations of a compile between two diffs run the garbage
	// collector, which empties a pool.
	modsMu sync.Mutex
	mods   []diffUpdate
}

type slotSet struct {
	ents    []*p4v1.Entity
	targets []Target
	// patched is how many of ents were built after the compile that
	// built them all: a kept entry keeps the whole array it was built in
	// alive, so once half the group was built again since, all of it is
	// (the group's slots then cost one array, not a trail of half-used
	// ones).
	patched int
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
	c.counters = resolveCounters(s)
	c.cpuPort = s.CompiledCPUPort()
	if s.HasCPUPortSetting() {
		c.cpuTable = tbl(p4src.TableSwitchInfo)
		c.setCPUPort = act(p4src.ActionSwitchInfo, p4src.ParamCPUPort)
		if vs, err := s.ValueSet(p4src.ValueSetCPUPort); err == nil {
			c.cpuVS = vs.GetPreamble().GetId()
			c.vsSize[c.cpuVS] = int(vs.GetSize())
		}
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
func (c *Compiler) ValueSetIDs() []uint32 {
	if c.cpuVS != 0 {
		return []uint32{c.coreTPID, c.keepAlive, c.cpuVS}
	}
	return []uint32{c.coreTPID, c.keepAlive}
}

// ValueSetDefault is the value the program parses for value set id even
// when the value set is empty (a constant tried before it: the default
// core TPID, the default keep-alive EtherType, the compiled-in CPU port),
// and the value set's name; ok is false for a value set the compiler does
// not write.
func (c *Compiler) ValueSetDefault(id uint32) (v uint64, name string, ok bool) {
	switch {
	case id == c.coreTPID:
		return wire.DefaultCoreTPID, "core TPID", true
	case id == c.keepAlive:
		return wire.DefaultKeepAliveEtherType, "keep-alive EtherType", true
	case c.cpuVS != 0 && id == c.cpuVS:
		return uint64(c.schema.CompiledCPUPort()), "CPU port", true
	}
	return 0, "", false
}

// DefaultEntryTableIDs returns the ids of the tables whose default entry
// the compiler writes (a Read of each with is_default_action reads it
// back): the switch_info table of a program that takes the CPU port at run
// time.
func (c *Compiler) DefaultEntryTableIDs() []uint32 {
	if c.cpuTable != nil {
		return []uint32{c.cpuTable.id}
	}
	return nil
}

// ReadQueries are the Read requests that read back everything the
// compiler writes: tables has a wildcard of each table and a read of each
// default entry it writes; valueSets has each value set (a target may
// answer those UNIMPLEMENTED: read them by themselves).
func (c *Compiler) ReadQueries() (tables, valueSets []*p4v1.Entity) {
	for _, id := range c.TableIDs() {
		tables = append(tables, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: id}}})
	}
	for _, id := range c.DefaultEntryTableIDs() {
		tables = append(tables, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: id, IsDefaultAction: true}}})
	}
	for _, id := range c.ValueSetIDs() {
		valueSets = append(valueSets, &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{ValueSetId: id}}})
	}
	return tables, valueSets
}

// FirstWrite is the update type that puts e on an empty switch: INSERT,
// or MODIFY for what exists from the start and is only ever modified (a
// value set, a table's default entry).
func FirstWrite(e *p4v1.Entity) p4v1.Update_Type {
	if e.GetValueSetEntry() != nil || e.GetTableEntry().GetIsDefaultAction() {
		return p4v1.Update_MODIFY
	}
	return p4v1.Update_INSERT
}

// ManagesDefault says whether the compiler writes the default entry of
// table id (DefaultEntryTableIDs).
func (c *Compiler) ManagesDefault(id uint32) bool {
	return c.cpuTable != nil && id == c.cpuTable.id
}

// SetCPUPort sets the switch's CPU port, which Compile writes into a
// program that takes it at run time (Schema.HasCPUPortSetting). Call it
// before the first Compile. A program with the compiled-in port only
// takes nothing: the port is then the one it was compiled for, as the
// operator says.
func (c *Compiler) SetCPUPort(port uint32) error {
	if c.cpuTable != nil {
		if bits := c.setCPUPort.params[p4src.ParamCPUPort].bits; bits > 0 && bits < 32 && port >= 1<<bits {
			return fmt.Errorf("%w: CPU port %d does not fit the program's %d-bit ports", ErrPlatform, port, bits)
		}
	}
	c.cpuPort = port
	return nil
}

// CPUPort returns the CPU port Compile writes (SetCPUPort), or the
// program's compiled-in one.
func (c *Compiler) CPUPort() uint32 { return c.cpuPort }

// HasCPUPortSetting says whether the program takes the CPU port at run
// time.
func (c *Compiler) HasCPUPortSetting() bool { return c.cpuTable != nil }

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
