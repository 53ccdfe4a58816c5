package daemon

import (
	"context"
	"fmt"
	"math/big"
	"net"
	"strings"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/symhash"
	"github.com/dpi-balancer/balancer/tables"
)

// Trace implements Service: it walks a described packet through the
// pipeline as programmed (the desired entries, with the current
// availability state), the way docs/dataplane.md describes it.
func (d *Daemon) Trace(_ context.Context, req TraceRequest) (*TraceResult, error) {
	d.mu.Lock()
	cfg, des, eng := d.cfg, d.desired, d.engine
	d.mu.Unlock()
	return trace(d.schema, cfg, des, eng.State(), req)
}

func trace(s *p4src.Schema, cfg *config.Config, des *tables.Desired, st tables.State, req TraceRequest) (*TraceResult, error) {
	link := cfg.LinkByName(req.Link)
	if link == nil {
		return nil, kindf(ErrNotFound, "unknown link %q", req.Link)
	}
	var inName, peerName string
	var side config.Side
	switch strings.ToLower(req.Side) {
	case "lan":
		inName, peerName, side = link.LAN, link.WAN, config.SideLAN
	case "wan":
		inName, peerName, side = link.WAN, link.LAN, config.SideWAN
	default:
		return nil, kindf(ErrInvalid, "side must be lan or wan, not %q", req.Side)
	}
	if req.Src.IsValid() != req.Dst.IsValid() || (req.Src.IsValid() && req.Src.Is4() != req.Dst.Is4()) {
		return nil, kindf(ErrInvalid, "give both addresses, of the same family")
	}
	if len(req.VLANs) > 3 {
		return nil, kindf(ErrInvalid, "the data plane parses up to 3 VLAN tags")
	}
	if len(req.MPLS) > 8 {
		return nil, kindf(ErrInvalid, "the data plane parses up to 8 MPLS labels")
	}
	comp, err := tables.New(s)
	if err != nil {
		return nil, err
	}
	r := &TraceResult{}
	step := func(f string, a ...any) { r.Steps = append(r.Steps, fmt.Sprintf(f, a...)) }
	inPort, _ := cfg.PortNumber(inName)
	peer, _ := cfg.PortNumber(peerName)
	step("enters %s (port %d): link %s (id %d), %s side", inName, inPort, link.Name, *link.ID, side)

	// Lookup keys.
	srcMAC, err := parseMAC(req.SrcMAC, "00:00:00:00:00:01")
	if err != nil {
		return nil, err
	}
	dstMAC, err := parseMAC(req.DstMAC, "00:00:00:00:00:02")
	if err != nil {
		return nil, err
	}
	keys := map[string]*big.Int{
		"link_id": big.NewInt(int64(*link.ID)), "vlan_depth": big.NewInt(int64(len(req.VLANs))),
		"mpls_depth": big.NewInt(int64(len(req.MPLS))), "src_mac": macInt(srcMAC), "dst_mac": macInt(dstMAC),
		"outer_vid": big.NewInt(0), "inner_vid": big.NewInt(0), "is_ipv4": big.NewInt(0),
		"ipv4_src": big.NewInt(0), "ipv4_dst": big.NewInt(0), "ip_proto": big.NewInt(0),
		"l4_src": big.NewInt(0), "l4_dst": big.NewInt(0), "ipv6_src": big.NewInt(0), "ipv6_dst": big.NewInt(0),
	}
	if len(req.VLANs) > 0 {
		keys["outer_vid"] = big.NewInt(int64(req.VLANs[0]))
	}
	if len(req.VLANs) > 1 {
		keys["inner_vid"] = big.NewInt(int64(req.VLANs[1]))
	}
	isIP := req.Src.IsValid()
	ethType := req.EtherType
	switch {
	case len(req.MPLS) > 0:
		ethType = 0x8847
	case req.PPPoE:
		ethType = 0x8864
	case isIP && req.Src.Is4():
		ethType = 0x0800
	case isIP:
		ethType = 0x86DD
	}
	keys["eth_type"] = big.NewInt(int64(ethType))
	if isIP {
		keys["ip_proto"] = big.NewInt(int64(req.Proto))
		if req.Proto == 6 || req.Proto == 17 {
			keys["l4_src"], keys["l4_dst"] = big.NewInt(int64(req.SrcPort)), big.NewInt(int64(req.DstPort))
		}
		if req.Src.Is4() {
			keys["is_ipv4"] = big.NewInt(1)
			keys["ipv4_src"] = new(big.Int).SetBytes(req.Src.AsSlice())
			keys["ipv4_dst"] = new(big.Int).SetBytes(req.Dst.AsSlice())
		} else {
			keys["ipv6_src"] = new(big.Int).SetBytes(req.Src.AsSlice())
			keys["ipv6_dst"] = new(big.Int).SetBytes(req.Dst.AsSlice())
		}
	}
	out := func(port string, num uint32, verdict string) (*TraceResult, error) {
		r.OutPort, r.OutPortNum, r.Verdict = port, num, verdict
		step("leaves by %s (port %d): %s", port, num, verdict)
		return r, nil
	}

	// Heartbeats.
	for _, e := range tableEntries(s, des, p4src.TableHeartbeat) {
		if matches(s, e, keys) {
			step("heartbeat entry matches: passed straight through")
			return out(peerName, peer, "heartbeat")
		}
	}

	// Flow rules: IPv6 packets only in the IPv6 table.
	table := p4src.TableFlowRules
	if isIP && req.Src.Is6() {
		table = p4src.TableFlowRulesV6
	}
	var hit *p4v1.TableEntry
	for _, e := range tableEntries(s, des, table) {
		if matches(s, e, keys) && (hit == nil || e.GetPriority() > hit.GetPriority()) {
			hit = e
		}
	}
	balance, group := false, uint32(0)
	if hit == nil {
		step("%s: no rule matches: default bypass", table)
	} else {
		fr, _ := comp.DecodeFlowRule(hit)
		p, negated := fr.Rule, fr.Negated
		for _, rule := range cfg.Rules {
			if rule.Priority == p {
				r.Rule = rule.Name
			}
		}
		balance, group = fr.Balance, fr.Group
		what := "bypass"
		if balance {
			what = "balance"
		}
		if negated {
			step("%s: rule %q (priority %d) matches one of its \"not\" exceptions: bypass", table, r.Rule, p)
		} else {
			step("%s: rule %q (priority %d) matches: %s", table, r.Rule, p, what)
		}
	}
	if !balance {
		r.Action = "bypass"
		return out(peerName, peer, "bypass by rule")
	}
	r.Action = "balance"
	if !isIP {
		step("not IP: nothing to hash on")
		return out(peerName, peer, "non-IP bypass")
	}
	var bg *config.BalanceGroup
	for i := range cfg.BalanceGroups {
		if *cfg.BalanceGroups[i].ID == group {
			bg = &cfg.BalanceGroups[i]
		}
	}
	if bg == nil {
		step("balance group id %d has no entry: group bypass", group)
		return out(peerName, peer, "group bypass")
	}
	r.BalanceGroup = bg.Name
	switch st.BalanceGroups[bg.Name] {
	case tables.BGBypass:
		step("balance group %s is in bypass (fewer filters alive than its minimum, or manual bypass)", bg.Name)
		return out(peerName, peer, "group bypass")
	case tables.BGDrop:
		step("balance group %s drops (failure action drop)", bg.Name)
		r.Verdict = "drop"
		return r, nil
	}
	in := symhash.Input(req.Src, req.Dst, req.Proto)
	r.Hash = symhash.Sum(req.Src, req.Dst, req.Proto)
	r.Slot = symhash.Slot(r.Hash, uint(bg.SlotBits))
	step("hash: CRC-32 of %x = %#08x; slot %d of %d", in, r.Hash, r.Slot, 1<<bg.SlotBits)
	var layout *tables.GroupLayout
	for _, l := range des.Layouts {
		if l.Name == bg.Name {
			layout = l
		}
	}
	t := layout.Active.Slots[r.Slot]
	names := fgNames(cfg)
	r.FilterGroup, r.Core = names[t.FilterGroup], t.Core
	if base := layout.Base.Slots[r.Slot]; base != t {
		step("slot %d belongs to %s core %d, rebalanced to %s core %d", r.Slot, names[base.FilterGroup], base.Core, r.FilterGroup, r.Core)
	} else {
		step("slot %d: filter group %s, core %d", r.Slot, r.FilterGroup, r.Core)
	}
	fg := cfg.FilterGroupByName(r.FilterGroup)
	switch st.FilterGroups[fg.Name] {
	case tables.FGSWBypass:
		step("filter group %s is in software bypass", fg.Name)
		return out(peerName, peer, "sw-bypass")
	case tables.FGDrop:
		step("filter group %s drops (failure action drop)", fg.Name)
		r.Verdict = "drop"
		return r, nil
	}
	hdr := wire.CoreHeader{TPID: fg.TPID, Link: *link.ID, Core: t.Core}.Append(nil)
	r.HeaderHex = fmt.Sprintf("%x", hdr)
	step("core header %s inserted after the source MAC (TPID %#04x, link %d, core %d)", r.HeaderHex, fg.TPID, *link.ID, t.Core)
	port := fg.LAN
	if side == config.SideWAN {
		port = fg.WAN
	}
	num, _ := cfg.PortNumber(port)
	return out(port, num, "to filter")
}

func tableEntries(s *p4src.Schema, des *tables.Desired, name string) []*p4v1.TableEntry {
	t, err := s.Table(name)
	if err != nil {
		return nil
	}
	var out []*p4v1.TableEntry
	for _, e := range des.Entities {
		if te := e.GetTableEntry(); te != nil && te.GetTableId() == t.GetPreamble().GetId() {
			out = append(out, te)
		}
	}
	return out
}

// matches evaluates a P4Runtime entry's matches against the key values.
func matches(s *p4src.Schema, e *p4v1.TableEntry, keys map[string]*big.Int) bool {
	t := s.TableByID(e.GetTableId())
	for _, m := range e.GetMatch() {
		f := t.FieldsByID[m.GetFieldId()]
		v, ok := keys[f.GetName()]
		if !ok {
			return false
		}
		switch x := m.GetFieldMatchType().(type) {
		case *p4v1.FieldMatch_Exact_:
			if v.Cmp(new(big.Int).SetBytes(x.Exact.GetValue())) != 0 {
				return false
			}
		case *p4v1.FieldMatch_Ternary_:
			mask := new(big.Int).SetBytes(x.Ternary.GetMask())
			want := new(big.Int).And(new(big.Int).SetBytes(x.Ternary.GetValue()), mask)
			if new(big.Int).And(v, mask).Cmp(want) != 0 {
				return false
			}
		case *p4v1.FieldMatch_Range_:
			if v.Cmp(new(big.Int).SetBytes(x.Range.GetLow())) < 0 || v.Cmp(new(big.Int).SetBytes(x.Range.GetHigh())) > 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func parseMAC(s, def string) (net.HardwareAddr, error) {
	if s == "" {
		s = def
	}
	m, err := net.ParseMAC(s)
	if err != nil || len(m) != 6 {
		return nil, kindf(ErrInvalid, "bad MAC address %q", s)
	}
	return m, nil
}

func macInt(m net.HardwareAddr) *big.Int { return new(big.Int).SetBytes(m) }
