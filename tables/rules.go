package tables

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
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

// notBase is the atom of a "not" match's scalar fields (its lists are
// met with each own atom by notAtoms).
func notBase(n config.Match) atom {
	nb, _ := ownAtoms(config.Match{VLANDepth: n.VLANDepth, MPLSDepth: n.MPLSDepth, SrcMAC: n.SrcMAC, DstMAC: n.DstMAC,
		EtherType: n.EtherType, Src: n.Src, Dst: n.Dst, Proto: n.Proto, L4Src: n.L4Src, L4Dst: n.L4Dst}, nil)
	return nb
}

// notAtoms gives the atoms of the packets that match both own atom a and
// the "not" match n: the intersection is taken field by field, so a long
// list of n is first cut to the values that meet a. ok is false when no
// packet matches both.
func notAtoms(a atom, n config.Match, nb atom) (base atom, dims []dim, ok bool) {
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
	nbs := make([]atom, len(r.Not))
	for i, n := range r.Not {
		nbs[i] = notBase(n)
	}
	cross(base, dims, func(a atom) bool {
		in4, in6 := a.family()
		if in4 && !fn(a, false, false) || in6 && !fn(a, false, true) {
			return false
		}
		for i, n := range r.Not {
			nb, ndims, ok := notAtoms(a, n, nbs[i])
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
	if err := checkExpansion(cfg); err != nil {
		return nil, nil, err
	}
	use := c.countRules(cfg)
	if err := use.err(); err != nil {
		return nil, nil, err
	}
	var errs []error
	n4, n6 := use[0].n, use[1].n
	v4, v6 = make([]*p4v1.Entity, 0, n4), make([]*p4v1.Entity, 0, n6)
	seen := map[flowKey]bool{}
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
		c.ruleKeys(r, links, func(k flowKey) bool {
			if seen[k] {
				return true // a repeated value in a list: one entry is enough
			}
			seen[k] = true
			ra := act
			if _, negated := DecodeRulePriority(k.prio); negated {
				ra = config.ActionBypass
			}
			if e := c.flowEntity(k, ra, group); k.v6 {
				v6 = append(v6, e)
			} else {
				v4 = append(v4, e)
			}
			return true
		})
	}
	return v4, v6, errors.Join(errs...)
}

// FlowRules compiles cfg's rules alone: their flow_rules and
// flow_rules_v6 entries as Compile writes them (capacity checked the same
// way). Locate compiles its probe rules with it.
func (c *Compiler) FlowRules(cfg *config.Config) ([]*p4v1.Entity, error) {
	v4, v6, err := c.compileRules(cfg)
	if err != nil {
		return nil, err
	}
	return append(v4, v6...), nil
}

// countCap is how far countRules counts a table's entries exactly: past
// it, a configuration is refused without counting further.
func countCap(t *tableRef) int { return 4*t.size + 1024 }

// tableUse is how many flow rule entries a configuration needs in one
// table, and the rule that needs the most.
type tableUse struct {
	t       *tableRef
	family  string // IPv4 or IPv6
	n       int
	big     string // `rules[3] "x"`
	bigN    int
	partial bool // counting stopped (some table passed countCap): n is a lower bound
}

// err is the capacity problem of a table the rules do not fit in: a
// *config.FieldError at "rules", in the shape of the configuration's
// other problems, that unwraps to ErrCapacity and config.ErrCapacity.
func (u tableUse) err() error {
	if u.n <= u.t.size {
		return nil
	}
	n, bigN := fmt.Sprint(u.n), fmt.Sprint(u.bigN)
	if u.partial {
		n, bigN = "at least "+n, "at least "+bigN
	}
	return &config.FieldError{Path: "rules", Err: &capacityError{fmt.Sprintf(
		"%s entries for the %s table exceed its %d capacity (%s alone expands to %s)", n, u.family, u.t.size, u.big, bigN)}}
}

// capacityError is a flow table's capacity problem.
type capacityError struct{ msg string }

func (e *capacityError) Error() string   { return e.msg }
func (e *capacityError) Unwrap() []error { return []error{ErrCapacity, config.ErrCapacity} }

// CheckCapacity refuses rules past the flow tables' capacity with the
// error Compile gives (a *config.FieldError at "rules" naming the table,
// the count, its size and the rule that expands most; errors.Is
// ErrCapacity and config.ErrCapacity), counting the compiler's exact entries
// without building them and stopping past countCap: no configuration
// costs more than a few megabytes to check. Every place that accepts a
// configuration for a switch without compiling it calls this.
func (c *Compiler) CheckCapacity(cfg *config.Config) error {
	if err := checkExpansion(cfg); err != nil {
		return err
	}
	return c.countRules(cfg).err()
}

// MaxNotIntersections is how many intersections of a match value with a
// "not" value one rule may need to be expanded: every value of the match
// (each link, VLAN, inner VLAN and l4_port side of its lists, combined) is
// met with every value of every "not" entry. Past it the rule is refused
// before anything is expanded: the work grows with the product of the
// lists while the entries it finds may be few, and a rule this size cannot
// fit the flow tables in any useful form.
const MaxNotIntersections = 1 << 20

// notIntersections is how many intersections expanding r on links takes
// (saturating at math.MaxInt64), and the factors: the match's value
// combinations and the "not" values each of them meets. Nothing is
// expanded.
func notIntersections(r config.Rule, links []uint32) (n, own, per int64) {
	if len(r.Not) == 0 {
		return 0, 1, 0
	}
	mul := func(a, b int64) int64 {
		if a != 0 && b > math.MaxInt64/a {
			return math.MaxInt64
		}
		return a * b
	}
	_, dims := ownAtoms(r.Match, links)
	own = 1
	for _, d := range dims {
		own = mul(own, int64(d.n))
	}
	for _, m := range r.Not {
		per += 1 + int64(len(m.VLAN)) + int64(len(m.InnerVLAN))
		if m.L4Port != nil {
			per += 2
		}
	}
	return mul(own, per), own, per
}

// checkExpansion refuses, before any expansion, each rule whose "not"
// entries take more than MaxNotIntersections intersections with its match
// values: a *config.FieldError at the rule naming it, the count and the
// limit, that unwraps to ErrCapacity and config.ErrCapacity.
func checkExpansion(cfg *config.Config) error {
	var errs []error
	for i, r := range cfg.Rules {
		links, _ := ruleLinks(cfg, "", r) // unknown links are reported elsewhere
		if err := ruleExpansionErr(r, links); err != nil {
			errs = append(errs, &config.FieldError{Path: fmt.Sprintf("rules[%d]", i), Err: err})
		}
	}
	return errors.Join(errs...)
}

func ruleExpansionErr(r config.Rule, links []uint32) error {
	n, own, per := notIntersections(r, links)
	if n <= MaxNotIntersections {
		return nil
	}
	return &capacityError{fmt.Sprintf("rule %q: each of its %d match value combinations (links x vlan x inner_vlan x l4_port sides) "+
		"meets its %d \"not\" entries and their %d list values, %d intersections to expand, past the limit of %d per rule, beyond what the flow tables' capacity could hold; "+
		"split the rule into rules of fewer match values, each carrying only the \"not\" entries within its own values, "+
		"or replace many single-value \"not\" entries by a few ranges", r.Name, own, len(r.Not), per-int64(len(r.Not)), n, MaxNotIntersections)}
}

// flowUse is the use of both flow tables: IPv4 (and non-IP), IPv6.
type flowUse [2]tableUse

// err joins the tables' ErrCapacity errors.
func (use flowUse) err() error {
	return errors.Join(use[0].err(), use[1].err())
}

// countRules counts the entries compileRules makes in each flow table
// (IPv4, IPv6), without building them, and stops once a table's count
// passes countCap.
func (c *Compiler) countRules(cfg *config.Config) flowUse {
	use := flowUse{{t: c.flowRules, family: "IPv4"}, {t: c.flowRulesV6, family: "IPv6"}}
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
	if err := ruleExpansionErr(r, links); err != nil {
		return 0, 0, err
	}
	v4, v6 = c.countRule(r, links, limit, limit)
	return v4, v6, nil
}

// countRule counts a rule's distinct entries per table, stopping once
// either passes its limit. Entries are told apart by their identity
// (flowKey), as compileRules does; none is built.
func (c *Compiler) countRule(r config.Rule, links []uint32, lim4, lim6 int) (v4, v6 int) {
	seen := map[flowKey]struct{}{}
	c.ruleKeys(r, links, func(k flowKey) bool {
		if _, ok := seen[k]; !ok {
			seen[k] = struct{}{}
			if k.v6 {
				v6++
			} else {
				v4++
			}
		}
		return v4 <= lim4 && v6 <= lim6
	})
	return v4, v6
}

// flowKey is the identity of one flow_rules or flow_rules_v6 entry: its
// table, priority and ternary matches (values masked; a zero mask is a
// field left out). It is comparable, so entries are counted and told
// apart without building them.
type flowKey struct {
	v6   bool
	prio int32

	link, vid, ivid, vlanDepth, mplsDepth, srcMAC, dstMAC, ethType, isIPv4, proto, l4src, l4dst tern

	// An IPv6 prefix in its high and low 64 bits; an IPv4 prefix in lo.
	srcHi, srcLo, dstHi, dstLo tern
}

// ruleKeys calls fn with the key of every entry rule r takes, in the
// compiler's order (repeats included), until fn returns false.
func (c *Compiler) ruleKeys(r config.Rule, links []uint32, fn func(flowKey) bool) {
	expandRule(r, links, func(a atom, negated, v6 bool) bool {
		return c.atomKeys(a, v6, RulePriority(r.Priority, negated), fn)
	})
}

// atomKeys calls fn with the key of every entry atom a takes in one flow
// table at priority prio: each range field is expanded into the fewest
// prefixes that cover it, and each combination of one prefix per range
// field is one entry. The prefixes of a range are disjoint, so a packet
// hits exactly one entry of the combination where it hit the range entry.
func (c *Compiler) atomKeys(a atom, v6 bool, prio int32, fn func(flowKey) bool) bool {
	t := c.flowRules
	if v6 {
		t = c.flowRulesV6
	}
	exact := func(field string, v uint64) tern {
		m := maxValue(t.fields[field].bits)
		return tern{v & m, m}
	}
	k := flowKey{v6: v6, prio: prio}
	if a.link != nil {
		k.link = exact("link_id", uint64(*a.link))
	}
	if a.vlanDepth != nil {
		k.vlanDepth = exact("vlan_depth", uint64(*a.vlanDepth))
	}
	if a.mplsDepth != nil {
		k.mplsDepth = exact("mpls_depth", uint64(*a.mplsDepth))
	}
	mac := func(field string, m *config.MACMask) tern {
		mask := macU64(m.Mask) & maxValue(t.fields[field].bits)
		return tern{macU64(m.Value) & mask, mask}
	}
	if a.srcMAC != nil {
		k.srcMAC = mac("src_mac", a.srcMAC)
	}
	if a.dstMAC != nil {
		k.dstMAC = mac("dst_mac", a.dstMAC)
	}
	if a.ethType != nil {
		k.ethType = exact("eth_type", uint64(*a.ethType))
	}
	if !v6 && a.needsIP() {
		k.isIPv4 = exact("is_ipv4", 1)
	}
	if a.src != nil {
		k.srcHi, k.srcLo = prefixTerns(a.src.Netip(), v6)
	}
	if a.dst != nil {
		k.dstHi, k.dstLo = prefixTerns(a.dst.Netip(), v6)
	}
	if a.proto != nil {
		k.proto = exact("ip_proto", uint64(*a.proto))
	}
	var bufs [4][32]tern
	ranges := func(i int, field string, r *config.Range) []tern {
		if r == nil {
			return append(bufs[i][:0], tern{})
		}
		return appendRangeTerns(bufs[i][:0], uint64(r.Lo), uint64(r.Hi), t.fields[field].bits)
	}
	vids, ivids := ranges(0, "outer_vid", a.vid), ranges(1, "inner_vid", a.ivid)
	l4srcs, l4dsts := ranges(2, "l4_src", a.l4src), ranges(3, "l4_dst", a.l4dst)
	for _, k.vid = range vids {
		for _, k.ivid = range ivids {
			for _, k.l4src = range l4srcs {
				for _, k.l4dst = range l4dsts {
					if !fn(k) {
						return false
					}
				}
			}
		}
	}
	return true
}

// prefixTerns is an IPv4 or IPv6 prefix as ternary values: the high and
// low 64 bits of an IPv6 address, an IPv4 address in lo.
func prefixTerns(p netip.Prefix, v6 bool) (hi, lo tern) {
	p = p.Masked()
	if !v6 {
		a := p.Addr().As4()
		m := uint64(0)
		if p.Bits() > 0 {
			m = (maxValue(32) << uint(32-p.Bits())) & maxValue(32)
		}
		return tern{}, tern{uint64(binary.BigEndian.Uint32(a[:])), m}
	}
	a := p.Addr().As16()
	half := func(bits int) uint64 { // the mask of the first bits bits of 64
		switch {
		case bits <= 0:
			return 0
		case bits >= 64:
			return ^uint64(0)
		}
		return ^uint64(0) << uint(64-bits)
	}
	mh, ml := half(p.Bits()), half(p.Bits()-64)
	return tern{binary.BigEndian.Uint64(a[:8]) & mh, mh}, tern{binary.BigEndian.Uint64(a[8:]) & ml, ml}
}

// flowEntity builds the entry of key k with the rule's action.
func (c *Compiler) flowEntity(k flowKey, act config.RuleAction, group uint32) *p4v1.Entity {
	t := c.flowRules
	if k.v6 {
		t = c.flowRulesV6
	}
	m := []*p4v1.FieldMatch{
		ternary(t, "link_id", k.link.v, k.link.m),
		ternary(t, "outer_vid", k.vid.v, k.vid.m),
		ternary(t, "inner_vid", k.ivid.v, k.ivid.m),
		ternary(t, "vlan_depth", k.vlanDepth.v, k.vlanDepth.m),
		ternary(t, "mpls_depth", k.mplsDepth.v, k.mplsDepth.m),
		ternary(t, "src_mac", k.srcMAC.v, k.srcMAC.m),
		ternary(t, "dst_mac", k.dstMAC.v, k.dstMAC.m),
		ternary(t, "eth_type", k.ethType.v, k.ethType.m),
		ternary(t, "ip_proto", k.proto.v, k.proto.m),
		ternary(t, "l4_src", k.l4src.v, k.l4src.m),
		ternary(t, "l4_dst", k.l4dst.v, k.l4dst.m),
	}
	var ta *p4v1.TableAction
	if k.v6 {
		m = append(m, ternaryBytes(t, "ipv6_src", bytes128(k.srcHi.v, k.srcLo.v), bytes128(k.srcHi.m, k.srcLo.m)),
			ternaryBytes(t, "ipv6_dst", bytes128(k.dstHi.v, k.dstLo.v), bytes128(k.dstHi.m, k.dstLo.m)))
		ta = c.action(c.bypassV6)
		if act == config.ActionBalance {
			ta = c.action(c.balanceV6, uint64(group))
		}
	} else {
		m = append(m, ternary(t, "is_ipv4", k.isIPv4.v, k.isIPv4.m),
			ternary(t, "ipv4_src", k.srcLo.v, k.srcLo.m), ternary(t, "ipv4_dst", k.dstLo.v, k.dstLo.m))
		ta = c.action(c.bypass)
		if act == config.ActionBalance {
			ta = c.action(c.balance, uint64(group))
		}
	}
	return c.entry(t, k.prio, ta, m...)
}

// bytes128 is a 128-bit value from its high and low halves.
func bytes128(hi, lo uint64) []byte {
	b := make([]byte, 16)
	binary.BigEndian.PutUint64(b, hi)
	binary.BigEndian.PutUint64(b[8:], lo)
	return b
}
