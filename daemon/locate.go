package daemon

import (
	"context"
	"fmt"
	"net"
	"net/netip"

	"github.com/gopacket/gopacket/layers"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sim/dataplane"
	"github.com/dpi-balancer/balancer/sim/frames"
	"github.com/dpi-balancer/balancer/symhash"
	"github.com/dpi-balancer/balancer/tables"
)

// Locate implements Service: for each balance group, a packet of the flow
// runs through the software model of the pipeline (package sim/dataplane)
// loaded with the desired entries, its rules swapped for probe rules that
// send it to that group, and the tables it meets say where it lands.
func (d *Daemon) Locate(_ context.Context, src, dst netip.Addr, proto uint8) ([]Placement, error) {
	if !src.IsValid() || !dst.IsValid() {
		return nil, kindf(ErrInvalid, "locate needs a source and a destination address")
	}
	if src.Is4() != dst.Is4() {
		return nil, kindf(ErrInvalid, "%s and %s are of different families", src, dst)
	}
	d.mu.Lock()
	cfg, site := d.cfg, d.site
	d.mu.Unlock()
	des := site.Desired()
	m, err := d.locates.model(des, func() (*traceModel, error) { return newLocateModel(d.schema, cfg, des) })
	if err != nil {
		return nil, err
	}
	return locateRun(m, cfg, src, dst, proto)
}

// locate compiles cfg in state st and locates a flow in it.
func locate(s *p4src.Schema, cfg *config.Config, st tables.State, src, dst netip.Addr, proto uint8) ([]Placement, error) {
	m, err := compiledModel(s, cfg, st, newLocateModel)
	if err != nil {
		return nil, err
	}
	return locateRun(m, cfg, src, dst, proto)
}

// probeVID is the outer VLAN id of the probe packet for the balance group
// with id g: the locate model's probe rule for the group matches it. The
// tag does not take part in the hash.
func probeVID(g uint32) uint16 { return uint16(g + 1) }

// newLocateModel loads des into a software data plane with cfg's rules
// replaced by one probe rule per balance group: packets tagged with the
// group's probe VLAN are balanced onto it.
func newLocateModel(s *p4src.Schema, cfg *config.Config, des *tables.Desired) (*traceModel, error) {
	comp, err := tables.New(s)
	if err != nil {
		return nil, err
	}
	probe := *cfg
	probe.Rules = nil
	for _, bg := range cfg.BalanceGroups {
		vid := uint32(probeVID(*bg.ID))
		probe.Rules = append(probe.Rules, config.Rule{Name: "locate " + bg.Name, Priority: vid, Action: "balance " + bg.Name,
			Match: config.Match{VLAN: []config.Range{{Lo: vid, Hi: vid}}}})
	}
	rules, err := comp.FlowRules(&probe)
	if err != nil {
		return nil, fmt.Errorf("locate: probe rules: %w", err)
	}
	swapped := &tables.Desired{Layouts: des.Layouts}
	for _, e := range des.Entities {
		if !comp.IsFlowRule(e) {
			swapped.Entities = append(swapped.Entities, e)
		}
	}
	swapped.Entities = append(swapped.Entities, rules...)
	m, err := newTraceModel(s, cfg, swapped)
	if err != nil {
		return nil, err
	}
	m.des = des
	return m, nil
}

// locateRun places the flow in every balance group of a loaded locate
// model: the probe packet enters the first link's LAN port.
func locateRun(m *traceModel, cfg *config.Config, src, dst netip.Addr, proto uint8) ([]Placement, error) {
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
		l3.SrcPort, l3.DstPort = 1, 2 // ports do not take part in the hash
	}
	var out []Placement
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
		_, hits := m.dp.Explain(in, frame)
		slot := symhash.Slot(h, l.Base.SlotBits)
		base := l.Base.Slots[slot]
		fg := cfg.FilterGroupByName(names[base.FilterGroup])
		p := Placement{BalanceGroup: l.Name, Hash: h, Slot: slot, FilterGroup: names[base.FilterGroup], Core: base.Core,
			Effective: "forward", LANPort: fg.LAN, WANPort: fg.WAN}
		p.Effective, err = locateEffective(hits, base, names)
		if err != nil {
			return nil, fmt.Errorf("locate: balance group %s: %w", l.Name, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// locateEffective reads where the probe packet went from the tables it
// met: forward, group bypass, group drop, rebalanced to another target,
// or its filter group's sw-bypass or drop.
func locateEffective(hits []dataplane.Hit, base tables.Target, names map[uint32]string) (string, error) {
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
