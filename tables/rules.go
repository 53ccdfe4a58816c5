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

// dim is one list of a match: each of its n values sets a field of an
// atom. Entries are the cross product of a match's dims.
type dim struct {
	n   int
	set func(a *atom, i int)
}

// cross calls fn with base and every combination of one value per dim,
// the first dim outermost, each list in order, until fn returns false.
// Combinations are made one at a time, never stored.
func cross(base atom, dims []dim, fn func(atom) bool) bool {
	for _, d := range dims {
		if d.n == 0 {
			return true
		}
	}
	idx := make([]int, len(dims))
	for {
		a := base
		for i, d := range dims {
			d.set(&a, idx[i])
		}
		if !fn(a) {
			return false
		}
		i := len(dims) - 1
		for ; i >= 0; i-- {
			if idx[i]++; idx[i] < dims[i].n {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return true
		}
	}
}

// distinct returns xs without repeated values, first occurrences in order:
// a repeated value makes the same entries again.
func distinct[T comparable](xs []T) []T {
	seen := make(map[T]bool, len(xs))
	out := make([]T, 0, len(xs))
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// rangeDim is the dim of a list of ranges on one field.
func rangeDim(rs []config.Range, field func(a *atom) **config.Range) dim {
	return dim{len(rs), func(a *atom, i int) { *field(a) = &rs[i] }}
}

func vidField(a *atom) **config.Range  { return &a.vid }
func ividField(a *atom) **config.Range { return &a.ivid }

// ownAtoms gives the atoms of a match on the given links (nil: every
// link): its scalar fields in base, its lists as dims.
func ownAtoms(m config.Match, links []uint32) (base atom, dims []dim) {
	base = atom{
		vlanDepth: m.VLANDepth, mplsDepth: m.MPLSDepth,
		srcMAC: m.SrcMAC, dstMAC: m.DstMAC, ethType: m.EtherType,
		src: m.Src, dst: m.Dst,
	}
	if m.Proto != nil {
		p := uint8(*m.Proto)
		base.proto = &p
	}
	if len(links) > 0 {
		ls := distinct(links)
		dims = append(dims, dim{len(ls), func(a *atom, i int) { a.link = &ls[i] }})
	}
	if len(m.VLAN) > 0 {
		dims = append(dims, rangeDim(distinct(m.VLAN), vidField))
	}
	if len(m.InnerVLAN) > 0 {
		dims = append(dims, rangeDim(distinct(m.InnerVLAN), ividField))
	}
	if m.L4Port != nil {
		dims = append(dims, dim{2, func(a *atom, i int) {
			if i == 0 {
				a.l4src = m.L4Port
			} else {
				a.l4dst = m.L4Port
			}
		}})
	} else {
		base.l4src, base.l4dst = m.L4Src, m.L4Dst
	}
	return base, dims
}

// notAtoms gives the atoms of the packets that match both own atom a and
// the "not" match n: the intersection is taken field by field, so a long
// list of n is first cut to the values that meet a. ok is false when no
// packet matches both.
func notAtoms(a atom, n config.Match) (base atom, dims []dim, ok bool) {
	nb, _ := ownAtoms(config.Match{VLANDepth: n.VLANDepth, MPLSDepth: n.MPLSDepth, SrcMAC: n.SrcMAC, DstMAC: n.DstMAC,
		EtherType: n.EtherType, Src: n.Src, Dst: n.Dst, Proto: n.Proto, L4Src: n.L4Src, L4Dst: n.L4Dst}, nil)
	if base, ok = intersect(a, nb); !ok {
		return base, nil, false
	}
	meet := func(own *config.Range, list []config.Range) []config.Range {
		var out []config.Range
		for _, r := range distinct(list) {
			ok := true
			if x := rangeAnd(own, &r, &ok); ok {
				out = append(out, *x)
			}
		}
		return distinct(out)
	}
	if len(n.VLAN) > 0 {
		vs := meet(a.vid, n.VLAN)
		dims = append(dims, rangeDim(vs, vidField))
	}
	if len(n.InnerVLAN) > 0 {
		vs := meet(a.ivid, n.InnerVLAN)
		dims = append(dims, rangeDim(vs, ividField))
	}
	if n.L4Port != nil {
		type side struct {
			src bool
			r   config.Range
		}
		var sides []side
		for _, src := range []bool{true, false} {
			own := a.l4dst
			if src {
				own = a.l4src
			}
			ok := true
			if x := rangeAnd(own, n.L4Port, &ok); ok {
				sides = append(sides, side{src, *x})
			}
		}
		dims = append(dims, dim{len(sides), func(x *atom, i int) {
			r := sides[i].r
			if sides[i].src {
				x.l4src = &r
			} else {
				x.l4dst = &r
			}
		}})
	}
	for _, d := range dims {
		if d.n == 0 {
			return base, nil, false
		}
	}
	return base, dims, true
}

// expandRule calls fn for every flow rule atom of r in the compiler's
// order: each own atom, then the atoms of its "not" matches (negated),
// each with the table it goes in; until fn returns false. Nothing is
// stored: a rule of millions of atoms costs no memory to count.
func expandRule(r config.Rule, links []uint32, fn func(a atom, negated, v6 bool) bool) {
	base, dims := ownAtoms(r.Match, links)
	cross(base, dims, func(a atom) bool {
		in4, in6 := a.family()
		if in4 && !fn(a, false, false) || in6 && !fn(a, false, true) {
			return false
		}
		for _, n := range r.Not {
			nb, ndims, ok := notAtoms(a, n)
			if !ok {
				continue
			}
			if !cross(nb, ndims, func(x atom) bool {
				x4, x6 := x.family()
				return !(in4 && x4 && !fn(x, true, false) || in6 && x6 && !fn(x, true, true))
			}) {
				return false
			}
		}
		return true
	})
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

// ruleLinks resolves a rule's links to ids (nil: every link).
func ruleLinks(cfg *config.Config, path string, r config.Rule) ([]uint32, error) {
	if r.AllLinks() {
		return nil, nil
	}
	var links []uint32
	var errs []error
	for _, name := range r.Links {
		l := cfg.LinkByName(name)
		if l == nil {
			errs = append(errs, fmt.Errorf("%s.links: unknown link %q", path, name))
			continue
		}
		links = append(links, *l.ID)
	}
	return links, errors.Join(errs...)
}

// compileRules expands every rule into flow_rules and flow_rules_v6
// entries. The entries are counted first, without building them: rules
// past a table's capacity are an ErrCapacity error and nothing is built.
func (c *Compiler) compileRules(cfg *config.Config) (v4, v6 []*p4v1.Entity, err error) {
	use := c.countRules(cfg)
	var errs []error
	for _, u := range use {
		if err := u.err(); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, nil, errors.Join(errs...)
	}
	n4, n6 := use[0].n, use[1].n
	v4, v6 = make([]*p4v1.Entity, 0, n4), make([]*p4v1.Entity, 0, n6)
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
		links, lerr := ruleLinks(cfg, path, r)
		if lerr != nil {
			errs = append(errs, lerr)
		}
		expandRule(r, links, func(a atom, negated, toV6 bool) bool {
			t, ra := c.flowRules, act
			if toV6 {
				t = c.flowRulesV6
			}
			if negated {
				ra = config.ActionBypass
			}
			add(c.ruleEntry(t, a, RulePriority(r.Priority, negated), ra, group), toV6)
			return true
		})
	}
	return v4, v6, errors.Join(errs...)
}

// countCap is how far countRules counts a table's entries exactly: past
// it, a configuration is refused without counting further.
func countCap(t *tableRef) int { return 4*t.size + 1024 }

// tableUse is how many flow rule entries a configuration needs in one
// table, and the rule that needs the most.
type tableUse struct {
	t       *tableRef
	n       int
	big     string // `rules[3] "x"`
	bigN    int
	partial bool // counting stopped (some table passed countCap): n is a lower bound
}

// err is the ErrCapacity error of a table the rules do not fit in.
func (u tableUse) err() error {
	if u.n <= u.t.size {
		return nil
	}
	n, bigN := fmt.Sprint(u.n), fmt.Sprint(u.bigN)
	if u.partial {
		n, bigN = "at least "+n, "at least "+bigN
	}
	return fmt.Errorf("%s: %s entries exceed its %d capacity (%s alone expands to %s; "+
		"each combination of values of its lists, and of its \"not\" entries' lists, is one entry): %w",
		u.t.name, n, u.t.size, u.big, bigN, ErrCapacity)
}

// countRules counts the entries compileRules makes in each flow table
// (IPv4, IPv6), without building them, and stops once a table's count
// passes countCap.
func (c *Compiler) countRules(cfg *config.Config) [2]tableUse {
	use := [2]tableUse{{t: c.flowRules}, {t: c.flowRulesV6}}
	for i, r := range cfg.Rules {
		links, _ := ruleLinks(cfg, fmt.Sprintf("rules[%d]", i), r) // compileRules reports unknown links
		a, b := c.countRule(r, links, countCap(use[0].t)-use[0].n, countCap(use[1].t)-use[1].n)
		for k, n := range [2]int{a, b} {
			u := &use[k]
			u.n += n
			if n > u.bigN {
				u.bigN, u.big = n, fmt.Sprintf("rules[%d] %q", i, r.Name)
			}
		}
		if use[0].n > countCap(use[0].t) || use[1].n > countCap(use[1].t) {
			use[0].partial, use[1].partial = true, true
			break
		}
	}
	return use
}

// RuleEntries is how many entries rule r of cfg takes in the IPv4 and
// IPv6 flow tables: exactly what Compile writes for it, counted without
// building the entries. Counting stops past limit entries in a table
// (the result is then limit+1 or more).
func (c *Compiler) RuleEntries(cfg *config.Config, r config.Rule, limit int) (v4, v6 int, err error) {
	links, err := ruleLinks(cfg, "rule "+r.Name, r)
	if err != nil {
		return 0, 0, err
	}
	v4, v6 = c.countRule(r, links, limit, limit)
	return v4, v6, nil
}

// countRule counts a rule's distinct entries per table, stopping once
// either passes its limit. Entries are told apart by their identity
// (Key), as compileRules does; each is built and dropped at once.
func (c *Compiler) countRule(r config.Rule, links []uint32, lim4, lim6 int) (v4, v6 int) {
	seen := map[string]bool{}
	var key []byte
	expandRule(r, links, func(a atom, negated, toV6 bool) bool {
		t := c.flowRules
		if toV6 {
			t = c.flowRulesV6
		}
		key = AppendKey(key[:0], c.ruleEntry(t, a, RulePriority(r.Priority, negated), config.ActionBypass, 0))
		if !seen[string(key)] {
			seen[string(key)] = true
			if toV6 {
				v6++
			} else {
				v4++
			}
		}
		return v4 <= lim4 && v6 <= lim6
	})
	return v4, v6
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
