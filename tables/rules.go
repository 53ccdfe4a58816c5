package tables

import (
	"errors"
	"fmt"
	"net/netip"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/config"
)

// atom is one TCAM entry's worth of conditions: every field single-valued
// (a list of VLANs or "l4_port" become several atoms). nil means wildcard.
type atom struct {
	link                 *uint32
	vid, ivid            *config.Range
	vlanDepth, mplsDepth *uint32
	srcMAC, dstMAC       *config.MACMask
	ethType              *uint16
	src, dst             *config.Prefix
	proto                *uint8
	l4src, l4dst         *config.Range
}

// expand turns a match on the given links (nil: every link) into atoms.
func expand(m config.Match, links []uint32) []atom {
	base := atom{
		vlanDepth: m.VLANDepth, mplsDepth: m.MPLSDepth,
		srcMAC: m.SrcMAC, dstMAC: m.DstMAC, ethType: m.EtherType,
		src: m.Src, dst: m.Dst,
	}
	if m.Proto != nil {
		p := uint8(*m.Proto)
		base.proto = &p
	}
	out := []atom{base}
	cross := func(n int, set func(a *atom, i int)) {
		if n == 0 {
			return
		}
		next := make([]atom, 0, len(out)*n)
		for _, a := range out {
			for i := 0; i < n; i++ {
				b := a
				set(&b, i)
				next = append(next, b)
			}
		}
		out = next
	}
	cross(len(links), func(a *atom, i int) { a.link = &links[i] })
	cross(len(m.VLAN), func(a *atom, i int) { a.vid = &m.VLAN[i] })
	cross(len(m.InnerVLAN), func(a *atom, i int) { a.ivid = &m.InnerVLAN[i] })
	switch {
	case m.L4Port != nil:
		cross(2, func(a *atom, i int) {
			if i == 0 {
				a.l4src = m.L4Port
			} else {
				a.l4dst = m.L4Port
			}
		})
	default:
		for i := range out {
			out[i].l4src, out[i].l4dst = m.L4Src, m.L4Dst
		}
	}
	return out
}

// intersect returns the atom matching exactly the packets both match, or
// false when no packet can match both.
func intersect(a, b atom) (atom, bool) {
	ok := true
	r := a
	r.link = eqPtr(a.link, b.link, &ok)
	r.vlanDepth = eqPtr(a.vlanDepth, b.vlanDepth, &ok)
	r.mplsDepth = eqPtr(a.mplsDepth, b.mplsDepth, &ok)
	r.ethType = eqPtr(a.ethType, b.ethType, &ok)
	r.proto = eqPtr(a.proto, b.proto, &ok)
	r.vid = rangeAnd(a.vid, b.vid, &ok)
	r.ivid = rangeAnd(a.ivid, b.ivid, &ok)
	r.l4src = rangeAnd(a.l4src, b.l4src, &ok)
	r.l4dst = rangeAnd(a.l4dst, b.l4dst, &ok)
	r.srcMAC = macAnd(a.srcMAC, b.srcMAC, &ok)
	r.dstMAC = macAnd(a.dstMAC, b.dstMAC, &ok)
	r.src = prefixAnd(a.src, b.src, &ok)
	r.dst = prefixAnd(a.dst, b.dst, &ok)
	return r, ok
}

func eqPtr[T comparable](a, b *T, ok *bool) *T {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	case *a != *b:
		*ok = false
	}
	return a
}

func rangeAnd(a, b *config.Range, ok *bool) *config.Range {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	r := config.Range{Lo: max(a.Lo, b.Lo), Hi: min(a.Hi, b.Hi)}
	if r.Lo > r.Hi {
		*ok = false
	}
	return &r
}

func macAnd(a, b *config.MACMask, ok *bool) *config.MACMask {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	var r config.MACMask
	for i := range r.Value {
		common := a.Mask[i] & b.Mask[i]
		if (a.Value[i]^b.Value[i])&common != 0 {
			*ok = false
		}
		r.Mask[i] = a.Mask[i] | b.Mask[i]
		r.Value[i] = a.Value[i]&a.Mask[i] | b.Value[i]&b.Mask[i]
	}
	return &r
}

func prefixAnd(a, b *config.Prefix, ok *bool) *config.Prefix {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	pa, pb := a.Netip(), b.Netip()
	switch {
	case pa.Addr().Is4() != pb.Addr().Is4():
		*ok = false
		return a
	case pa.Bits() >= pb.Bits() && pb.Contains(pa.Addr()):
		return a
	case pb.Bits() >= pa.Bits() && pa.Contains(pb.Addr()):
		return b
	}
	*ok = false
	return a
}

// family says which flow table an atom belongs in.
func (a atom) family() (v4, v6 bool) {
	is6 := (a.src != nil && a.src.Is6()) || (a.dst != nil && a.dst.Is6())
	is4 := (a.src != nil && a.src.Is4()) || (a.dst != nil && a.dst.Is4())
	return !is6, !is4
}

// needsIP says whether the atom only matches IP packets.
func (a atom) needsIP() bool {
	return a.src != nil || a.dst != nil || a.proto != nil || a.l4src != nil || a.l4dst != nil
}

// compileRules expands every rule into flow_rules and flow_rules_v6 entries.
func (c *Compiler) compileRules(cfg *config.Config) (v4, v6 []*p4v1.Entity, err error) {
	var errs []error
	seen := map[string]bool{}
	add := func(e *p4v1.Entity, toV6 bool) {
		k := Key(e)
		if seen[k] {
			return // a duplicate value in a list: one entry is enough
		}
		seen[k] = true
		if toV6 {
			v6 = append(v6, e)
		} else {
			v4 = append(v4, e)
		}
	}
	for i, r := range cfg.Rules {
		path := fmt.Sprintf("rules[%d]", i)
		act, groupName, aerr := r.ParseAction()
		if aerr != nil {
			errs = append(errs, fmt.Errorf("%s.action: %w", path, aerr))
			continue
		}
		var group uint32
		if act == config.ActionBalance {
			bg := cfg.BalanceGroupByName(groupName)
			if bg == nil {
				errs = append(errs, fmt.Errorf("%s.action: unknown balance group %q", path, groupName))
				continue
			}
			group = *bg.ID
		}
		var links []uint32
		if !r.AllLinks() {
			for _, name := range r.Links {
				l := cfg.LinkByName(name)
				if l == nil {
					errs = append(errs, fmt.Errorf("%s.links: unknown link %q", path, name))
					continue
				}
				links = append(links, *l.ID)
			}
		}
		atoms := expand(r.Match, links)
		for _, a := range atoms {
			in4, in6 := a.family()
			if in4 {
				add(c.ruleEntry(c.flowRules, a, RulePriority(r.Priority, false), act, group), false)
			}
			if in6 {
				add(c.ruleEntry(c.flowRulesV6, a, RulePriority(r.Priority, false), act, group), true)
			}
			for _, n := range r.Not {
				for _, na := range expand(n, nil) {
					x, ok := intersect(a, na)
					if !ok {
						continue
					}
					x4, x6 := x.family()
					if in4 && x4 {
						add(c.ruleEntry(c.flowRules, x, RulePriority(r.Priority, true), config.ActionBypass, 0), false)
					}
					if in6 && x6 {
						add(c.ruleEntry(c.flowRulesV6, x, RulePriority(r.Priority, true), config.ActionBypass, 0), true)
					}
				}
			}
		}
	}
	return v4, v6, errors.Join(errs...)
}

func (c *Compiler) ruleEntry(t *tableRef, a atom, prio int32, act config.RuleAction, group uint32) *p4v1.Entity {
	is6 := t == c.flowRulesV6
	var m []*p4v1.FieldMatch
	if a.link != nil {
		m = append(m, ternary(t, "link_id", uint64(*a.link), maxValue(t.fields["link_id"].bits)))
	}
	if a.vid != nil {
		m = append(m, rangeMatch(t, "outer_vid", uint64(a.vid.Lo), uint64(a.vid.Hi)))
	}
	if a.ivid != nil {
		m = append(m, rangeMatch(t, "inner_vid", uint64(a.ivid.Lo), uint64(a.ivid.Hi)))
	}
	if a.vlanDepth != nil {
		m = append(m, ternary(t, "vlan_depth", uint64(*a.vlanDepth), maxValue(t.fields["vlan_depth"].bits)))
	}
	if a.mplsDepth != nil {
		m = append(m, ternary(t, "mpls_depth", uint64(*a.mplsDepth), maxValue(t.fields["mpls_depth"].bits)))
	}
	if a.srcMAC != nil {
		m = append(m, ternary(t, "src_mac", macU64(a.srcMAC.Value), macU64(a.srcMAC.Mask)))
	}
	if a.dstMAC != nil {
		m = append(m, ternary(t, "dst_mac", macU64(a.dstMAC.Value), macU64(a.dstMAC.Mask)))
	}
	if a.ethType != nil {
		m = append(m, ternary(t, "eth_type", uint64(*a.ethType), 0xffff))
	}
	if !is6 && a.needsIP() {
		m = append(m, ternary(t, "is_ipv4", 1, 1))
	}
	if a.src != nil {
		m = append(m, prefixMatch(t, is6, "src", a.src.Netip()))
	}
	if a.dst != nil {
		m = append(m, prefixMatch(t, is6, "dst", a.dst.Netip()))
	}
	if a.proto != nil {
		m = append(m, ternary(t, "ip_proto", uint64(*a.proto), 0xff))
	}
	if a.l4src != nil {
		m = append(m, rangeMatch(t, "l4_src", uint64(a.l4src.Lo), uint64(a.l4src.Hi)))
	}
	if a.l4dst != nil {
		m = append(m, rangeMatch(t, "l4_dst", uint64(a.l4dst.Lo), uint64(a.l4dst.Hi)))
	}
	var ta *p4v1.TableAction
	switch {
	case act == config.ActionBalance && is6:
		ta = c.action(c.balanceV6, uint64(group))
	case act == config.ActionBalance:
		ta = c.action(c.balance, uint64(group))
	case is6:
		ta = c.action(c.bypassV6)
	default:
		ta = c.action(c.bypass)
	}
	return c.entry(t, prio, ta, m...)
}

// prefixMatch is a ternary match of an IPv4 or IPv6 prefix.
func prefixMatch(t *tableRef, is6 bool, which string, p netip.Prefix) *p4v1.FieldMatch {
	if !is6 {
		a := p.Addr().As4()
		v := uint64(a[0])<<24 | uint64(a[1])<<16 | uint64(a[2])<<8 | uint64(a[3])
		mask := uint64(0)
		if p.Bits() > 0 {
			mask = (maxValue(32) << uint(32-p.Bits())) & maxValue(32)
		}
		return ternary(t, "ipv4_"+which, v, mask)
	}
	a := p.Addr().As16()
	var mask [16]byte
	for i := 0; i < p.Bits(); i++ {
		mask[i/8] |= 0x80 >> uint(i%8)
	}
	return ternaryBytes(t, "ipv6_"+which, a[:], mask[:])
}
