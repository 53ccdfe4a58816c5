package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"slices"

	"github.com/gopacket/gopacket/layers"
	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sessionmem"
	"github.com/dpi-balancer/balancer/sim/dataplane"
	"github.com/dpi-balancer/balancer/sim/frames"
	"github.com/dpi-balancer/balancer/symhash"
	"github.com/dpi-balancer/balancer/tables"
)

// Locate implements Service: for each balance group, a packet of the flow
// runs through the software model of the pipeline (package sim/dataplane)
// loaded with the desired entries (the model trace uses), with a probe
// rule above the configuration's rules that sends it to that group; the
// tables it meets say where it lands.
//
// With the session memory on, the session is looked up in the switch's
// sessions table for each balance group (one read of its entry; the
// learner's view when the switch cannot be read, as trace): a held
// session is placed by its entry, as the switch forwards it, with its
// slot's target beside.
func (d *Daemon) Locate(ctx context.Context, src, dst netip.Addr, proto uint8) ([]Placement, error) {
	if !src.IsValid() || !dst.IsValid() {
		return nil, kindf(ErrInvalid, "locate needs a source and a destination address")
	}
	if src.Is4() != dst.Is4() {
		return nil, kindf(ErrInvalid, "%s and %s are of different families", src, dst)
	}
	r := d.snapshot()
	cfg, site := r.cfg, r.site
	des := site.Desired()
	m, err := d.traces.model(des, func() (*traceModel, error) { return newTraceModel(d.schema, cfg, des) })
	if err != nil {
		return nil, err
	}
	if d.learner == nil || len(cfg.Links) == 0 {
		return locateRun(m, cfg, src, dst, proto, nil)
	}
	held := map[uint32]*sessionInModel{}
	for _, bg := range cfg.BalanceGroups {
		if bg.ID == nil {
			continue
		}
		k := sessionmem.AddrKey(uint8(*bg.ID), src, dst, proto)
		e, from := d.heldEntry(ctx, k)
		held[*bg.ID] = &sessionInModel{key: k, entry: e, from: from}
	}
	return locateRun(m, cfg, src, dst, proto, held)
}

// locate compiles cfg in state st and locates a flow in it.
func locate(s *p4src.Schema, cfg *config.Config, st tables.State, src, dst netip.Addr, proto uint8) ([]Placement, error) {
	m, err := compiledModel(s, cfg, st)
	if err != nil {
		return nil, err
	}
	return locateRun(m, cfg, src, dst, proto, nil)
}

// probeVID is the outer VLAN id of the probe packet for the balance group
// with id g: the group's probe rule matches it. The tag takes no part in
// the hash.
func probeVID(g uint32) uint16 { return uint16(g + 1) }

// probeRules are the flow rule entries locate adds to the model while it
// runs its probe packets: one per balance group, above every rule of the
// configuration (priorities past config.MaxPriority), balancing packets
// with the group's probe VLAN onto the group.
func probeRules(s *p4src.Schema, cfg *config.Config) ([]*p4v1.Entity, error) {
	comp, err := tables.New(s)
	if err != nil {
		return nil, err
	}
	probe := *cfg
	probe.Rules = nil
	for _, bg := range cfg.BalanceGroups {
		vid := uint32(probeVID(*bg.ID))
		probe.Rules = append(probe.Rules, config.Rule{Name: "locate " + bg.Name, Priority: config.MaxPriority + vid,
			Action: "balance " + bg.Name, Match: config.Match{VLAN: []config.Range{{Lo: vid, Hi: vid}}}})
	}
	rules, err := comp.FlowRules(&probe)
	if err != nil {
		return nil, fmt.Errorf("locate: probe rules: %w", err)
	}
	return rules, nil
}

// probeRoom is s with n more entries in each flow table: room for the
// probe rules beside a configuration that fills the tables.
func probeRoom(s *p4src.Schema, n int) (*p4src.Schema, error) {
	info := proto.Clone(s.Info).(*p4configv1.P4Info)
	for _, t := range info.GetTables() {
		if name := t.GetPreamble().GetName(); name == p4src.TableFlowRules || name == p4src.TableFlowRulesV6 {
			t.Size += int64(n)
		}
	}
	ms, err := p4src.NewSchema(info)
	if err != nil {
		return nil, fmt.Errorf("locate: %w", err)
	}
	return ms, nil
}

// withProbes runs fn with the probe rules in the model, holding the model
// for itself meanwhile, and takes the rules out again.
func (m *traceModel) withProbes(fn func()) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	write := func(typ p4v1.Update_Type) error {
		us := make([]*p4v1.Update, len(m.probes))
		for i, e := range m.probes {
			us[i] = &p4v1.Update{Type: typ, Entity: e}
		}
		var errs []error
		for i, err := range m.dp.Write(us, p4v1.WriteRequest_CONTINUE_ON_ERROR) {
			if err != nil {
				errs = append(errs, fmt.Errorf("probe rule %d (%s): %w", i, typ, err))
			}
		}
		return errors.Join(errs...)
	}
	err := write(p4v1.Update_INSERT)
	if err == nil {
		fn()
	}
	// Take out what went in (a rule that did not go in is NOT_FOUND).
	if derr := write(p4v1.Update_DELETE); err == nil {
		err = derr
	}
	if err != nil {
		return fmt.Errorf("locate: %w", err)
	}
	return nil
}

// locateRun places the flow in every balance group of a loaded model: the
// probe packets enter the first link's LAN port. held (nil: the session
// memory is off) is what the switch holds of the session, by balance
// group id: the entries are in the model while the probes run.
func locateRun(m *traceModel, cfg *config.Config, src, dst netip.Addr, proto uint8, held map[uint32]*sessionInModel) ([]Placement, error) {
	if len(cfg.Links) == 0 {
		return nil, kindf(ErrInvalid, "locate runs a packet of the flow through the pipeline and the configuration has no link for it to enter by; add a link")
	}
	in, err := cfg.PortNumber(cfg.Links[0].LAN)
	if err != nil {
		return nil, err
	}
	names := fgNames(cfg)
	h := symhash.Sum(src, dst, proto)
	l3 := frames.L3{Src: src, Dst: dst, Proto: layers.IPProtocol(proto)}
	if proto == uint8(layers.IPProtocolTCP) || proto == uint8(layers.IPProtocolUDP) {
		l3.SrcPort, l3.DstPort = 1, 2 // ports take no part in the hash
	}
	type probe struct {
		l     *tables.GroupLayout
		frame []byte
		hits  []dataplane.Hit
	}
	var probes []*probe
	for _, l := range m.des.Layouts {
		bg := cfg.BalanceGroupByName(l.Name)
		if bg == nil {
			continue
		}
		frame, err := frames.Build(net.HardwareAddr{0, 0, 0, 0, 0, 1}, net.HardwareAddr{0, 0, 0, 0, 0, 2},
			frames.Encap{Tags: []frames.Tag{{TPID: uint16(layers.EthernetTypeDot1Q), VID: probeVID(*bg.ID)}}}, l3)
		if err != nil {
			return nil, kindf(ErrInvalid, "cannot build the packet: %v", err)
		}
		probes = append(probes, &probe{l: l, frame: frame})
	}
	var entries []*p4v1.Entity
	for _, h := range held {
		if h.entry != nil {
			entries = append(entries, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: h.entry}})
		}
	}
	var heldErr error
	if err := m.withProbes(func() {
		// The held sessions' entries, for these probes only.
		if heldErr = m.writeAll(p4v1.Update_INSERT, entries); heldErr != nil {
			m.writeAll(p4v1.Update_DELETE, entries)
			return
		}
		for _, p := range probes {
			_, p.hits = m.dp.Explain(in, p.frame)
		}
		heldErr = m.writeAll(p4v1.Update_DELETE, entries)
	}); err != nil {
		return nil, err
	}
	if heldErr != nil {
		return nil, fmt.Errorf("locate: the held session's entry: %w", heldErr)
	}
	var out []Placement
	for _, pr := range probes {
		l := pr.l
		slot := symhash.Slot(h, l.Base.SlotBits)
		base := l.Base.Slots[slot]
		fg := cfg.FilterGroupByName(names[base.FilterGroup])
		p := Placement{BalanceGroup: l.Name, Hash: h, Slot: slot, FilterGroup: names[base.FilterGroup], Core: base.Core,
			LANPort: fg.LAN, WANPort: fg.WAN}
		if hm := held[l.ID]; hm != nil {
			p.Session, p.SessionFrom = "not held", hm.from
			if kept, ok := keptBy(pr.hits); ok {
				// A held session: its entry, not its slot, decides.
				p.Session = "held"
				p.SlotFilterGroup, p.SlotCore = p.FilterGroup, p.Core
				p.FilterGroup, p.Core, p.LANPort, p.WANPort = heldName(cfg, names, kept.FilterGroup), kept.Core, "", ""
				if f := cfg.FilterGroupByName(p.FilterGroup); f != nil {
					p.LANPort, p.WANPort = f.LAN, f.WAN
				}
				if p.Effective, err = locateHeldEffective(pr.hits); err != nil {
					return nil, fmt.Errorf("locate: balance group %s: %w", l.Name, err)
				}
				out = append(out, p)
				continue
			}
		}
		if p.Effective, err = locateEffective(pr.hits, base, names, sparesOf(cfg, l.Name)); err != nil {
			return nil, fmt.Errorf("locate: balance group %s: %w", l.Name, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// writeAll writes es into the model, one update each (m.mu held).
func (m *traceModel) writeAll(typ p4v1.Update_Type, es []*p4v1.Entity) error {
	if len(es) == 0 {
		return nil
	}
	us := make([]*p4v1.Update, len(es))
	for i, e := range es {
		us[i] = &p4v1.Update{Type: typ, Entity: e}
	}
	return errors.Join(m.dp.Write(us, p4v1.WriteRequest_CONTINUE_ON_ERROR)...)
}

// keptBy is the entry of the sessions table the probe packet hit: the
// filter group and core it keeps the session on.
func keptBy(hits []dataplane.Hit) (tables.Target, bool) {
	for _, h := range hits {
		if h.Table == p4src.TableSessions && h.Matched && h.Action == sessionmem.ActionKeep {
			return tables.Target{FilterGroup: uint32(h.Params[sessionmem.ParamFG]), Core: uint32(h.Params[sessionmem.ParamCore])}, true
		}
	}
	return tables.Target{}, false
}

// locateHeldEffective is locateEffective for a held session: the slot is
// not looked up; the balance group's and the entry's filter group's
// actions say where it is.
func locateHeldEffective(hits []dataplane.Hit) (string, error) {
	by := map[string]dataplane.Hit{}
	for _, h := range hits {
		by[h.Table] = h
	}
	bg, ok := by[p4src.TableBalanceGroups]
	switch {
	case !ok || !bg.Matched:
		return "", fmt.Errorf("the probe packet met no balance group entry")
	case bg.Action == p4src.ActionGroupBypass:
		return "group bypass", nil
	case bg.Action == p4src.ActionGroupDrop:
		return "group drop", nil
	}
	switch fg := by[p4src.TableFilterGroups]; {
	case !fg.Matched || fg.Action == p4src.ActionFilterSWBypass:
		return "sw-bypass", nil
	case fg.Action == p4src.ActionFilterDrop:
		return "drop", nil
	}
	return "forward", nil
}

// sparesOf is the spares of the balance group called name.
func sparesOf(cfg *config.Config, name string) []string {
	if bg := cfg.BalanceGroupByName(name); bg != nil {
		return bg.Spares
	}
	return nil
}

// locateEffective reads where the probe packet went from the tables it
// met: forward, group bypass, group drop, rebalanced to another target,
// taken by a spare (one of spares, the balance group's), or its filter
// group's sw-bypass or drop.
func locateEffective(hits []dataplane.Hit, base tables.Target, names map[uint32]string, spares []string) (string, error) {
	by := map[string]dataplane.Hit{}
	for _, h := range hits {
		by[h.Table] = h
	}
	bg, ok := by[p4src.TableBalanceGroups]
	switch {
	case !ok || !bg.Matched:
		return "", fmt.Errorf("the probe packet met no balance group entry")
	case bg.Action == p4src.ActionGroupBypass:
		return "group bypass", nil
	case bg.Action == p4src.ActionGroupDrop:
		return "group drop", nil
	}
	sh, ok := by[p4src.TableSlots]
	if !ok || !sh.Matched {
		return "", fmt.Errorf("the probe packet met no slot entry")
	}
	if act := (tables.Target{FilterGroup: uint32(sh.Params["filter_group"]), Core: uint32(sh.Params["core"])}); act != base {
		if slices.Contains(spares, names[act.FilterGroup]) {
			return fmt.Sprintf("spare %s core %d for %s", names[act.FilterGroup], act.Core, names[base.FilterGroup]), nil
		}
		return fmt.Sprintf("rebalanced to %s core %d", names[act.FilterGroup], act.Core), nil
	}
	switch by[p4src.TableFilterGroups].Action {
	case p4src.ActionFilterSWBypass:
		return "sw-bypass", nil
	case p4src.ActionFilterDrop:
		return "drop", nil
	}
	return "forward", nil
}
