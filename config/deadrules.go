package config

import (
	"fmt"
	"slices"
	"strings"
)

// RuleWarning is a flow rule that is valid but can never do what it says:
// its action never applies to any packet (a "not" entry takes every packet
// it matches, or a higher-priority rule does), or a "not" entry leaves it
// only a sliver of what it names (every VLAN excluded). Rule is the
// operator's name for it.
type RuleWarning struct {
	Rule string
	Path string // rules[i], or rules[i].not[j]
	Msg  string // why, and how to fix it
}

func (w RuleWarning) String() string { return w.Path + ": " + w.Msg }

// maxShadowPairs bounds the pairwise shadow analysis (rules x rules / 2):
// past it only the other warnings are given, so no configuration costs
// more than a few milliseconds to analyse.
const maxShadowPairs = 1 << 21

// RuleWarnings analyses c's rules (a configuration that validates) for
// rules that can never match:
//
//   - a "not" entry that covers the rule's whole match (equal to it, or
//     wider): every packet the rule matches is an exception, bypassed, and
//     its action never applies;
//   - a "not" entry that covers every value of a field (every VLAN, every
//     inner VLAN, every port, a /0 prefix): the exception takes every
//     packet that has the field, and the rule is left with the packets
//     that lack it;
//   - "not" entries that differ from the rule's match only in a VLAN
//     field (vlan, inner_vlan) and together cover its match, or every
//     value of that field, as one entry would;
//   - a rule whose every packet a single higher-priority rule on (at
//     least) the same links already matches (the same or a wider match):
//     that rule wins every lookup, whatever its "not" entries (they turn
//     its packets into bypass at its own priority, never down to lower
//     rules).
//
// It is conservative: a warning is only given when the analysis is sure,
// so a rule shadowed by several rules together is not reported. The
// online path (the daemon's apply) and the offline one (config check)
// give the same warnings.
func (c *Config) RuleWarnings() []RuleWarning {
	var out []RuleWarning
	for i, r := range c.Rules {
		path := fmt.Sprintf("rules[%d]", i)
		warned := len(out)
		for j, n := range r.Not {
			npath := fmt.Sprintf("%s.not[%d]", path, j)
			if matchCovers(n, r.Match) {
				out = append(out, RuleWarning{Rule: r.Name, Path: npath, Msg: fmt.Sprintf(
					"rule %q can never apply its action %q: its not[%d] covers the rule's whole match, so every packet the rule matches is an exception (bypassed); "+
						"narrow the not entry to the traffic to exclude, or delete the rule if bypass is what is meant",
					r.Name, r.Action, j)})
				continue
			}
			if f := fullField(n, r.Match); f != "" {
				out = append(out, RuleWarning{Rule: r.Name, Path: npath, Msg: fmt.Sprintf(
					"rule %q: its not[%d] covers every value of %s, so every packet with that field is an exception (bypassed) and the rule's action %q only applies to packets without it; "+
						"narrow the not entry, or if that is meant say it in the match (e.g. vlan_depth: 0 for untagged traffic) and drop the not entry",
					r.Name, j, f, r.Action)})
			}
		}
		if len(out) == warned {
			if w, ok := notUnionWarning(path, r); ok {
				out = append(out, w)
			}
		}
	}
	if len(c.Rules)*len(c.Rules)/2 > maxShadowPairs {
		return out
	}
	// Highest priority first: a rule can only be shadowed by one before it.
	order := make([]int, len(c.Rules))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return int(c.Rules[b].Priority) - int(c.Rules[a].Priority) })
	for k, bi := range order {
		b := c.Rules[bi]
		for _, ai := range order[:k] {
			a := c.Rules[ai]
			if a.Priority == b.Priority || !linksCover(a, b) || !matchCovers(a.Match, b.Match) {
				continue
			}
			same := "a wider"
			if matchCovers(b.Match, a.Match) {
				same = "the same"
			}
			out = append(out, RuleWarning{Rule: b.Name, Path: fmt.Sprintf("rules[%d]", bi), Msg: fmt.Sprintf(
				"rule %q (priority %d) can never match: rule %q (priority %d) has %s match on %s and wins every lookup first; "+
					"give %q a priority above %d, narrow %q, or delete %q",
				b.Name, b.Priority, a.Name, a.Priority, same, linksText(b), b.Name, a.Priority, a.Name, b.Name)})
			break
		}
	}
	return out
}

// WarningList writes warnings one per line, for a message.
func WarningList(ws []RuleWarning) string {
	lines := make([]string, len(ws))
	for i, w := range ws {
		lines[i] = w.String()
	}
	return strings.Join(lines, "\n")
}

func linksText(r Rule) string {
	if r.AllLinks() {
		return "every link"
	}
	return "its links (" + strings.Join(r.Links, ", ") + ")"
}

// linksCover: every link b applies to, a applies to.
func linksCover(a, b Rule) bool {
	if a.AllLinks() {
		return true
	}
	if b.AllLinks() {
		return false
	}
	for _, l := range b.Links {
		if !slices.Contains(a.Links, l) {
			return false
		}
	}
	return true
}

// matchCovers reports whether every packet b matches, a matches too
// (unset fields are wildcards). It errs on the side of false.
func matchCovers(a, b Match) bool {
	return rangesCover(a.VLAN, b.VLAN) && rangesCover(a.InnerVLAN, b.InnerVLAN) &&
		eqCovers(a.VLANDepth, b.VLANDepth) && eqCovers(a.MPLSDepth, b.MPLSDepth) &&
		eqCovers(a.EtherType, b.EtherType) && eqCovers(a.Proto, b.Proto) &&
		macCovers(a.SrcMAC, b.SrcMAC) && macCovers(a.DstMAC, b.DstMAC) &&
		prefixCovers(a.Src, b.Src) && prefixCovers(a.Dst, b.Dst) &&
		portsCover(a, b)
}

func eqCovers[T comparable](a, b *T) bool { return a == nil || (b != nil && *a == *b) }

// rangesCover: a list of ranges (empty: any value, or no tag) covers b's.
func rangesCover(a, b []Range) bool {
	if len(a) == 0 {
		return true
	}
	if len(b) == 0 {
		return false // b also matches packets without the field
	}
	merged := mergeRanges(a)
	for _, r := range b {
		if !slices.ContainsFunc(merged, func(m Range) bool { return m.Lo <= r.Lo && r.Hi <= m.Hi }) {
			return false
		}
	}
	return true
}

// mergeRanges sorts rs and joins overlapping and adjacent ones.
func mergeRanges(rs []Range) []Range {
	s := slices.Clone(rs)
	slices.SortFunc(s, func(x, y Range) int { return int(x.Lo) - int(y.Lo) })
	var out []Range
	for _, r := range s {
		if n := len(out); n > 0 && r.Lo <= out[n-1].Hi+1 {
			out[n-1].Hi = max(out[n-1].Hi, r.Hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

func macCovers(a, b *MACMask) bool {
	if a == nil || a.IsZero() {
		return true
	}
	if b == nil || b.IsZero() {
		return false
	}
	for i := range a.Mask {
		if a.Mask[i]&^b.Mask[i] != 0 || (a.Value[i]^b.Value[i])&a.Mask[i] != 0 {
			return false
		}
	}
	return true
}

func prefixCovers(a, b *Prefix) bool {
	if a == nil || a.IsZero() {
		return true
	}
	if b == nil || b.IsZero() {
		return false
	}
	pa, pb := a.Netip(), b.Netip()
	return pa.Addr().Is4() == pb.Addr().Is4() && pa.Bits() <= pb.Bits() && pa.Contains(pb.Addr())
}

// l4alt is one alternative of a match's ports: l4_port is two (source or
// destination), l4_src/l4_dst one.
type l4alt struct{ src, dst *Range }

func l4alts(m Match) []l4alt {
	if m.L4Port != nil {
		return []l4alt{{src: m.L4Port}, {dst: m.L4Port}}
	}
	return []l4alt{{m.L4Src, m.L4Dst}}
}

func rangeCovers(a, b *Range) bool {
	return a == nil || (b != nil && a.Lo <= b.Lo && b.Hi <= a.Hi)
}

// portsCover: each of b's port alternatives is inside one of a's.
func portsCover(a, b Match) bool {
	for _, y := range l4alts(b) {
		if !slices.ContainsFunc(l4alts(a), func(x l4alt) bool { return rangeCovers(x.src, y.src) && rangeCovers(x.dst, y.dst) }) {
			return false
		}
	}
	return true
}

// fullField names a field of the "not" entry n that covers every value
// the rule's match m leaves to it, where m does not set the field itself
// (then it would be the whole-match case): "" when none.
func fullField(n, m Match) string {
	all := func(rs []Range, lo, hi uint32) bool {
		merged := mergeRanges(rs)
		return len(merged) == 1 && merged[0].Lo <= lo && merged[0].Hi >= hi
	}
	full := func(r *Range) bool { return r != nil && r.Lo == 0 && r.Hi == 65535 }
	zero := func(p *Prefix) bool { return p == nil || p.IsZero() }
	every := func(field string, p *Prefix) string {
		if zero(p) {
			return ""
		}
		return field + " (" + p.String() + ": every " + p.Family() + " packet)"
	}
	for _, f := range []struct {
		is    bool
		name  string
		clear func(*Match)
	}{
		{len(n.VLAN) > 0 && len(m.VLAN) == 0 && all(n.VLAN, 1, 4094), "vlan (1..4094: every tagged packet)", func(x *Match) { x.VLAN = nil }},
		{len(n.InnerVLAN) > 0 && len(m.InnerVLAN) == 0 && all(n.InnerVLAN, 1, 4094), "inner_vlan (1..4094: every double-tagged packet)", func(x *Match) { x.InnerVLAN = nil }},
		{full(n.L4Port) && m.L4Port == nil && m.L4Src == nil && m.L4Dst == nil, "l4_port (0..65535: every TCP and UDP packet)", func(x *Match) { x.L4Port = nil }},
		{full(n.L4Src) && m.L4Src == nil && m.L4Port == nil, "l4_src (0..65535: every TCP and UDP packet)", func(x *Match) { x.L4Src = nil }},
		{full(n.L4Dst) && m.L4Dst == nil && m.L4Port == nil, "l4_dst (0..65535: every TCP and UDP packet)", func(x *Match) { x.L4Dst = nil }},
		{!zero(n.Src) && n.Src.Bits() == 0 && zero(m.Src), every("src", n.Src), func(x *Match) { x.Src = nil }},
		{!zero(n.Dst) && n.Dst.Bits() == 0 && zero(m.Dst), every("dst", n.Dst), func(x *Match) { x.Dst = nil }},
	} {
		if !f.is {
			continue
		}
		// Only when the rest of the entry takes all the rule matches: a
		// "not" of every VLAN with proto udp excludes tagged UDP only.
		rest := n
		f.clear(&rest)
		if matchCovers(rest, m) {
			return f.name
		}
	}
	return ""
}

// notUnionWarning: the rule's "not" entries that leave the rule's match to
// one VLAN field (vlan or inner_vlan) and, together, take all of what the
// match gives that field (every value of it where the match leaves it
// open), as one entry covering it would: a list split over entries
// (not: [{vlan: [1-2000]}, {vlan: [2001-4094]}]).
func notUnionWarning(path string, r Rule) (RuleWarning, bool) {
	for _, f := range []struct {
		name, every string
		field       func(*Match) *[]Range
	}{
		{"vlan", "vlan (1..4094: every tagged packet)", func(x *Match) *[]Range { return &x.VLAN }},
		{"inner_vlan", "inner_vlan (1..4094: every double-tagged packet)", func(x *Match) *[]Range { return &x.InnerVLAN }},
	} {
		var entries []string
		var union []Range
		for j, n := range r.Not {
			rs := *f.field(&n)
			if len(rs) == 0 {
				continue
			}
			rest := n
			*f.field(&rest) = nil
			if !matchCovers(rest, r.Match) {
				continue
			}
			entries = append(entries, fmt.Sprintf("not[%d]", j))
			union = append(union, rs...)
		}
		if len(entries) < 2 {
			continue
		}
		list := strings.Join(entries, ", ")
		if mr := *f.field(&r.Match); len(mr) > 0 {
			if rangesCover(union, mr) {
				return RuleWarning{Rule: r.Name, Path: path + ".not", Msg: fmt.Sprintf(
					"rule %q can never apply its action %q: its not entries %s together cover every %s of the rule's match, so every packet the rule matches is an exception (bypassed); "+
						"narrow the not entries to the traffic to exclude, or delete the rule if bypass is what is meant",
					r.Name, r.Action, list, f.name)}, true
			}
			continue
		}
		if merged := mergeRanges(union); len(merged) == 1 && merged[0].Lo <= 1 && merged[0].Hi >= 4094 {
			return RuleWarning{Rule: r.Name, Path: path + ".not", Msg: fmt.Sprintf(
				"rule %q: its not entries %s together cover every value of %s, so every packet with that field is an exception (bypassed) and the rule's action %q only applies to packets without it; "+
					"narrow the not entries, or if that is meant say it in the match (e.g. vlan_depth: 0 for untagged traffic) and drop them",
				r.Name, list, f.every, r.Action)}, true
		}
	}
	return RuleWarning{}, false
}
