package dataplane

import (
	"errors"
	"fmt"
	"slices"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sessionmem"
)

// portSpace is the number of 9-bit data-plane ports.
const portSpace = 512

// actKind is what an action means to the pipeline.
type actKind uint8

const (
	actNone actKind = iota // an action the pipeline does not know (no-op)
	actSetOperatorPort
	actSetFilterPort
	actUnknownPort
	actHeartbeatPass
	actNoHeartbeat
	actBypass // bypass and bypass_v6
	actBalance
	actGroupActive
	actGroupBypass
	actGroupDrop
	actToFilter
	actSlotMiss
	actFilterForward
	actFilterSWBypass
	actFilterDrop
	actSetLink
	actUnknownLink
	actSetCPUPort
	actKeep        // the session memory's keep
	actSessionMiss // and its default
)

// pipelineActions lists every action the pipeline runs, with its
// parameters in the order the pipeline reads them (dpAction.p).
// optional params are read when the P4Info has all of them (a program
// older than the data-plane verdict has none).
var pipelineActions = []struct {
	name     string
	kind     actKind
	params   []string
	optional []string
}{
	{p4src.ActionSetOperatorPort, actSetOperatorPort, []string{"link_id", "side", "peer_port"}, nil},
	{p4src.ActionSetFilterPort, actSetFilterPort, []string{"filter_group", "side"}, nil},
	{p4src.ActionUnknownPort, actUnknownPort, nil, nil},
	{p4src.ActionHeartbeatPass, actHeartbeatPass, nil, nil},
	{p4src.ActionNoHeartbeat, actNoHeartbeat, nil, nil},
	{p4src.ActionBypass, actBypass, nil, nil},
	{p4src.ActionBalance, actBalance, []string{"group"}, nil},
	{p4src.ActionBypassV6, actBypass, nil, nil},
	{p4src.ActionBalanceV6, actBalance, []string{"group"}, nil},
	{p4src.ActionGroupActive, actGroupActive, []string{"slot_mask"}, nil},
	{p4src.ActionGroupBypass, actGroupBypass, nil, nil},
	{p4src.ActionGroupDrop, actGroupDrop, nil, nil},
	{p4src.ActionToFilter, actToFilter, []string{"filter_group", "core"}, nil},
	{p4src.ActionSlotMiss, actSlotMiss, nil, nil},
	{p4src.ActionFilterForward, actFilterForward, []string{"lan_port", "wan_port", "tpid"}, []string{"epoch", "detect", "fail_drop"}},
	{p4src.ActionFilterSWBypass, actFilterSWBypass, nil, nil},
	{p4src.ActionFilterDrop, actFilterDrop, nil, nil},
	{p4src.ActionSetLink, actSetLink, []string{"lan_port", "wan_port"}, nil},
	{p4src.ActionUnknownLink, actUnknownLink, nil, nil},
}

// initialDefaults are the non-const default actions of the P4 program
// (p4c 1.2.4.8 does not put them in the P4Info; initial_default_action
// wins when it is there).
var initialDefaults = map[string]string{
	p4src.TableFlowRules:     p4src.ActionBypass,
	p4src.TableFlowRulesV6:   p4src.ActionBypassV6,
	p4src.TableBalanceGroups: p4src.ActionGroupBypass,
	p4src.TableFilterGroups:  p4src.ActionFilterSWBypass,
}

// Packet fields the lookups read (md.* and hdr.* of the P4 keys).
type extractor uint8

const (
	extNone extractor = iota
	extLinkID
	extOuterVID
	extInnerVID
	extVLANDepth
	extMPLSDepth
	extSrcMAC
	extDstMAC
	extEthType
	extIsIPv4
	extIPv4Src
	extIPv4Dst
	extIPProto
	extL4Src
	extL4Dst
	extIPv6Src
	extIPv6Dst
)

var ruleKeys = map[string]extractor{
	"link_id": extLinkID, "outer_vid": extOuterVID, "inner_vid": extInnerVID,
	"vlan_depth": extVLANDepth, "mpls_depth": extMPLSDepth, "src_mac": extSrcMAC,
	"dst_mac": extDstMAC, "eth_type": extEthType, "ip_proto": extIPProto,
	"l4_src": extL4Src, "l4_dst": extL4Dst,
}

// pipelineTables says how the pipeline looks up each of its tables:
// exact tables by a direct index over the named fields (in that order),
// the others by tuple space search with the named packet fields.
var pipelineTables = []struct {
	name  string
	exact []string
	keys  map[string]extractor
}{
	{name: p4src.TablePortRole, exact: []string{"port"}},
	{name: p4src.TableHeartbeat, keys: map[string]extractor{"dst_mac": extDstMAC, "eth_type": extEthType}},
	{name: p4src.TableFlowRules, keys: withKeys(ruleKeys, map[string]extractor{"is_ipv4": extIsIPv4, "ipv4_src": extIPv4Src, "ipv4_dst": extIPv4Dst})},
	{name: p4src.TableFlowRulesV6, keys: withKeys(ruleKeys, map[string]extractor{"ipv6_src": extIPv6Src, "ipv6_dst": extIPv6Dst})},
	{name: p4src.TableBalanceGroups, exact: []string{"balance_group"}},
	{name: p4src.TableSlots, exact: []string{"balance_group", "slot"}},
	{name: p4src.TableFilterGroups, exact: []string{"filter_group"}},
	{name: p4src.TableLinks, exact: []string{"link_id"}},
}

func withKeys(a, b map[string]extractor) map[string]extractor {
	m := make(map[string]extractor, len(a)+len(b))
	for k, v := range a {
		m[k] = v
	}
	for k, v := range b {
		m[k] = v
	}
	return m
}

// resolve indexes the P4Info and binds the pipeline's objects by name.
func (d *Dataplane) resolve() error {
	var errs []error
	errs = append(errs, d.resolveActions()...)
	errs = append(errs, d.resolveTables()...)
	errs = append(errs, d.resolveCounters()...)
	errs = append(errs, d.resolveValueSets()...)
	errs = append(errs, d.resolveControllerHeaders()...)
	return errors.Join(errs...)
}

// resolveActions indexes every action of the P4Info and binds those the
// pipeline runs.
func (d *Dataplane) resolveActions() []error {
	var errs []error
	fail := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	d.actionByID = map[uint32]*action{}
	for _, pa := range d.schema.Info.GetActions() {
		a := &action{id: pa.GetPreamble().GetId(), name: pa.GetPreamble().GetName(), pos: map[uint32]int{}}
		for _, pp := range pa.GetParams() {
			if w := int(pp.GetBitwidth()); w <= 0 || w > maxBits {
				fail("action %q param %q: width %d not supported (1..%d)", a.name, pp.GetName(), w, maxBits)
				continue
			}
			a.params = append(a.params, param{id: pp.GetId(), name: pp.GetName(), width: int(pp.GetBitwidth())})
		}
		slices.SortFunc(a.params, func(x, y param) int { return cmpU32(x.id, y.id) })
		for i, p := range a.params {
			a.pos[p.id] = i
		}
		d.actionByID[a.id] = a
	}
	for _, pa := range pipelineActions {
		sa, err := d.schema.Action(pa.name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		a := d.actionByID[sa.GetPreamble().GetId()]
		a.kind = pa.kind
		errs = append(errs, d.bindArgs(a, sa, pa.kind, pa.params, pa.optional)...)
	}
	// The session memory's, in a program that has it.
	if d.schema.HasSessions() {
		for _, pa := range []struct {
			name   string
			kind   actKind
			params []string
		}{{sessionmem.ActionKeep, actKeep, []string{sessionmem.ParamFG, sessionmem.ParamCore}}, {sessionmem.ActionMiss, actSessionMiss, nil}} {
			sa, err := d.schema.Action(pa.name)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			a := d.actionByID[sa.GetPreamble().GetId()]
			a.kind = pa.kind
			errs = append(errs, d.bindArgs(a, sa, pa.kind, pa.params, nil)...)
		}
	}
	// The CPU port's, in a program that takes it at run time.
	if d.schema.HasCPUPortSetting() {
		sa, _ := d.schema.Action(p4src.ActionSwitchInfo)
		a := d.actionByID[sa.GetPreamble().GetId()]
		a.kind = actSetCPUPort
		errs = append(errs, d.bindArgs(a, sa, actSetCPUPort, []string{p4src.ParamCPUPort}, nil)...)
	}
	return errs
}

// bindArgs sets the positions of the parameters the pipeline reads of an
// action: params always, optional only when the P4Info has all of them
// (the data-plane verdict's, which turn it on).
func (d *Dataplane) bindArgs(a *action, sa *p4src.Action, kind actKind, params, optional []string) []error {
	var errs []error
	fail := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	for _, pn := range params {
		pp, err := sa.Param(pn)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if pp.GetBitwidth() > 32 {
			fail("action %q param %q: %d bits, the pipeline reads at most 32", a.name, pn, pp.GetBitwidth())
			continue
		}
		a.args = append(a.args, a.pos[pp.GetId()])
	}
	if len(optional) == 0 {
		return errs
	}
	var opt []int
	for _, pn := range optional {
		pp, err := sa.Param(pn)
		if err != nil {
			break
		}
		if pp.GetBitwidth() > 32 {
			fail("action %q param %q: %d bits, the pipeline reads at most 32", a.name, pn, pp.GetBitwidth())
			break
		}
		opt = append(opt, a.pos[pp.GetId()])
	}
	if len(opt) == len(optional) {
		a.args = append(a.args, opt...)
		if kind == actFilterForward {
			d.verdictOn = true
		}
	}
	return errs
}

// resolveTables indexes every table of the P4Info (with its direct
// counter) and binds those the pipeline looks up, each with its lookup.
func (d *Dataplane) resolveTables() []error {
	var errs []error
	directUnit := map[uint32]p4configv1.CounterSpec_Unit{}
	for _, dc := range d.schema.Info.GetDirectCounters() {
		directUnit[dc.GetPreamble().GetId()] = dc.GetSpec().GetUnit()
	}
	d.tableByID = map[uint32]*table{}
	d.directByID = map[uint32]*table{}
	for _, pt := range d.schema.Info.GetTables() {
		t, err := d.newTable(pt, directUnit)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		d.tables = append(d.tables, t)
		d.tableByID[t.id] = t
		if t.direct != 0 {
			d.directByID[t.direct] = t
		}
	}
	bind := map[string]**table{
		p4src.TablePortRole: &d.portRole, p4src.TableHeartbeat: &d.heartbeat,
		p4src.TableFlowRules: &d.flowRules, p4src.TableFlowRulesV6: &d.flowRulesV6,
		p4src.TableBalanceGroups: &d.balanceGroups, p4src.TableSlots: &d.slots,
		p4src.TableFilterGroups: &d.filterGroups, p4src.TableLinks: &d.links,
	}
	for _, pt := range pipelineTables {
		st, err := d.schema.Table(pt.name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		t := d.tableByID[st.GetPreamble().GetId()]
		if t == nil {
			continue // newTable failed: already reported
		}
		*bind[pt.name] = t
		if pt.exact != nil {
			if err := t.useDirectIndex(pt.exact); err != nil {
				errs = append(errs, err)
			}
		} else if err := t.useTSS(pt.keys); err != nil {
			errs = append(errs, err)
		}
	}
	if d.schema.HasCPUPortSetting() {
		st, _ := d.schema.Table(p4src.TableSwitchInfo)
		if t := d.tableByID[st.GetPreamble().GetId()]; t != nil {
			if len(t.fields) != 0 {
				errs = append(errs, fmt.Errorf("table %q: %d match fields, the pipeline applies it keyless", t.name, len(t.fields)))
			}
			d.cpuTable = t
		}
	}
	if d.schema.HasSessions() {
		errs = append(errs, d.resolveSessions()...)
	}
	for _, name := range []string{p4src.TableFlowRules, p4src.TableFlowRulesV6} {
		if t := *bind[name]; t != nil && t.direct == 0 {
			errs = append(errs, fmt.Errorf("table %q: no direct counter", name))
		}
	}
	if d.slots != nil && d.slotCap > 0 {
		d.slots.size = d.slotCap
	}
	return errs
}

// resolveCounters indexes every counter array and binds those the
// pipeline counts in (the verdict's when it is on).
func (d *Dataplane) resolveCounters() []error {
	var errs []error
	d.counterByID = map[uint32]*counterArray{}
	for _, pc := range d.schema.Info.GetCounters() {
		if pc.GetSize() < 0 || pc.GetSize() > 1<<24 {
			errs = append(errs, fmt.Errorf("counter %q: size %d not supported", pc.GetPreamble().GetName(), pc.GetSize()))
			continue
		}
		c := &counterArray{id: pc.GetPreamble().GetId(), name: pc.GetPreamble().GetName(), unit: pc.GetSpec().GetUnit(), cells: make([]counterCell, pc.GetSize())}
		d.counters = append(d.counters, c)
		d.counterByID[c.id] = c
	}
	for name, dst := range map[string]**counterArray{
		p4src.CounterPortRx: &d.portRx, p4src.CounterPortTx: &d.portTx, p4src.CounterLink: &d.linkCtr,
		p4src.CounterFilterGroup: &d.fgCtr, p4src.CounterDrop: &d.dropCtr, p4src.CounterCore: &d.coreCtr,
	} {
		c, err := d.schema.Counter(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		*dst = d.counterByID[c.GetPreamble().GetId()]
	}
	if d.verdictOn {
		c, err := d.schema.Counter(p4src.CounterVerdict)
		if err != nil {
			errs = append(errs, err)
		} else {
			d.verdictCtr = d.counterByID[c.GetPreamble().GetId()]
		}
		if dg := d.schema.Digest(p4src.DigestVerdict); dg != nil {
			d.verdictDigest = dg.GetPreamble().GetId()
		}
	}
	for _, name := range []string{p4src.DirectFlowRules, p4src.DirectFlowRulesV6} {
		if _, err := d.schema.DirectCounter(name); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// resolveValueSets indexes every parser value set and binds the two the
// parser selects on.
func (d *Dataplane) resolveValueSets() []error {
	var errs []error
	d.vsByID = map[uint32]*valueSet{}
	for _, pv := range d.schema.Info.GetValueSets() {
		vs, err := newValueSet(pv)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		d.valueSets = append(d.valueSets, vs)
		d.vsByID[vs.id] = vs
	}
	for name, dst := range map[string]**valueSet{p4src.ValueSetCoreTPID: &d.coreTPID, p4src.ValueSetKeepAlive: &d.keepAlive} {
		v, err := d.schema.ValueSet(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		vs := d.vsByID[v.GetPreamble().GetId()]
		if vs == nil {
			continue
		}
		if vs.width != 16 {
			errs = append(errs, fmt.Errorf("value set %q: %d bits, the parser selects on 16", name, vs.width))
		}
		*dst = vs
	}
	if v, err := d.schema.ValueSet(p4src.ValueSetCPUPort); err == nil {
		if vs := d.vsByID[v.GetPreamble().GetId()]; vs != nil {
			if vs.width > 16 {
				errs = append(errs, fmt.Errorf("value set %q: %d bits, the parser selects on a 9-bit port", p4src.ValueSetCPUPort, vs.width))
			}
			d.cpuVS = vs
		}
	}
	return errs
}

// resolveControllerHeaders checks the packet-in and packet-out headers
// and notes the packet-out header's length.
func (d *Dataplane) resolveControllerHeaders() []error {
	var errs []error
	if h, err := d.schema.ControllerHeader(p4src.HeaderPacketOut); err != nil {
		errs = append(errs, err)
	} else {
		bitsTotal := 0
		for _, m := range h.GetMetadata() {
			bitsTotal += int(m.GetBitwidth())
		}
		d.poLen = byteWidth(bitsTotal)
	}
	if _, err := d.schema.ControllerHeader(p4src.HeaderPacketIn); err != nil {
		errs = append(errs, err)
	}
	return errs
}

func cmpU32(a, b uint32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
