// Package matchexpr reads and writes the operator's one-line form of a flow
// rule match, as the `balancer rule` commands take it:
//
//	vlan 1,100-110 proto tcp l4-port 179
//	src 10.0.0.0/8 and dst 2001:db8::/32
//	any
//
// An expression is a list of terms, each a keyword and its value, joined
// by spaces, commas or the word "and" (every term must hold). vlan and
// inner-vlan take a list of ids and ranges ("1,100-110" or "1, 100-110");
// the other keywords one value. "any" alone matches everything.
//
// Keywords (the config's YAML key in brackets; "_" may be written for
// "-"): vlan [vlan], inner-vlan [inner_vlan], vlan-depth [vlan_depth],
// mpls-depth [mpls_depth], src-mac and dst-mac (a MAC, MAC/mask or
// MAC/length), ethertype (0x8100 or decimal), src and dst (an IPv4 or
// IPv6 prefix or address), proto (a number or tcp, udp, icmp, ...),
// l4-src, l4-dst and l4-port (source or destination; a port or a range).
//
// Values are read with the config package's parsers, so they mean what
// they mean in YAML; ranges and combinations are checked by
// config.Validate when the configuration is applied, not here.
package matchexpr

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/dpi-balancer/balancer/config"
)

// ErrSyntax: the expression is not one this package reads. Every error
// Parse returns wraps it.
var ErrSyntax = errors.New("bad match expression")

// Error is a problem with one term of an expression.
type Error struct {
	// Term is the term as written ("vlan 1x"), or the word at fault.
	Term string
	Msg  string
}

func (e *Error) Error() string {
	if e.Term == "" {
		return e.Msg
	}
	return fmt.Sprintf("%q: %s", e.Term, e.Msg)
}

func (e *Error) Unwrap() error { return ErrSyntax }

type kind uint8

const (
	kList   kind = iota // vlan ids / ranges, one or more
	kRange              // one port or range
	kNumber             // one small number
	kMAC                // MAC[/mask]
	kPrefix             // IP prefix or address
	kProto              // IP protocol
	kEther              // ethertype
)

type term struct {
	name    string // canonical keyword
	kind    kind
	example string
	set     func(m *config.Match, v any)
	isSet   func(m *config.Match) bool
	format  func(m *config.Match) string
}

func ptr[T any](v T) *T { return &v }

var terms = []term{
	{name: "vlan", kind: kList, example: "vlan 1,100-110",
		set:    func(m *config.Match, v any) { m.VLAN = v.([]config.Range) },
		isSet:  func(m *config.Match) bool { return len(m.VLAN) > 0 },
		format: func(m *config.Match) string { return ranges(m.VLAN) }},
	{name: "inner-vlan", kind: kList, example: "inner-vlan 5",
		set:    func(m *config.Match, v any) { m.InnerVLAN = v.([]config.Range) },
		isSet:  func(m *config.Match) bool { return len(m.InnerVLAN) > 0 },
		format: func(m *config.Match) string { return ranges(m.InnerVLAN) }},
	{name: "vlan-depth", kind: kNumber, example: "vlan-depth 2",
		set:    func(m *config.Match, v any) { m.VLANDepth = ptr(v.(uint32)) },
		isSet:  func(m *config.Match) bool { return m.VLANDepth != nil },
		format: func(m *config.Match) string { return strconv.FormatUint(uint64(*m.VLANDepth), 10) }},
	{name: "mpls-depth", kind: kNumber, example: "mpls-depth 2",
		set:    func(m *config.Match, v any) { m.MPLSDepth = ptr(v.(uint32)) },
		isSet:  func(m *config.Match) bool { return m.MPLSDepth != nil },
		format: func(m *config.Match) string { return strconv.FormatUint(uint64(*m.MPLSDepth), 10) }},
	{name: "src-mac", kind: kMAC, example: "src-mac aa:bb:cc:00:00:00/ff:ff:ff:00:00:00",
		set:    func(m *config.Match, v any) { m.SrcMAC = ptr(v.(config.MACMask)) },
		isSet:  func(m *config.Match) bool { return m.SrcMAC != nil },
		format: func(m *config.Match) string { return m.SrcMAC.String() }},
	{name: "dst-mac", kind: kMAC, example: "dst-mac 01:00:5e:00:00:00/25",
		set:    func(m *config.Match, v any) { m.DstMAC = ptr(v.(config.MACMask)) },
		isSet:  func(m *config.Match) bool { return m.DstMAC != nil },
		format: func(m *config.Match) string { return m.DstMAC.String() }},
	{name: "ethertype", kind: kEther, example: "ethertype 0x8100",
		set:    func(m *config.Match, v any) { m.EtherType = ptr(v.(uint16)) },
		isSet:  func(m *config.Match) bool { return m.EtherType != nil },
		format: func(m *config.Match) string { return fmt.Sprintf("0x%04x", *m.EtherType) }},
	{name: "src", kind: kPrefix, example: "src 10.0.0.0/8",
		set:    func(m *config.Match, v any) { m.Src = ptr(v.(config.Prefix)) },
		isSet:  func(m *config.Match) bool { return m.Src != nil },
		format: func(m *config.Match) string { return m.Src.String() }},
	{name: "dst", kind: kPrefix, example: "dst 2001:db8::/32",
		set:    func(m *config.Match, v any) { m.Dst = ptr(v.(config.Prefix)) },
		isSet:  func(m *config.Match) bool { return m.Dst != nil },
		format: func(m *config.Match) string { return m.Dst.String() }},
	{name: "proto", kind: kProto, example: "proto tcp",
		set:    func(m *config.Match, v any) { m.Proto = ptr(v.(config.IPProto)) },
		isSet:  func(m *config.Match) bool { return m.Proto != nil },
		format: func(m *config.Match) string { return m.Proto.String() }},
	{name: "l4-src", kind: kRange, example: "l4-src 1000-2000",
		set:    func(m *config.Match, v any) { m.L4Src = ptr(v.(config.Range)) },
		isSet:  func(m *config.Match) bool { return m.L4Src != nil },
		format: func(m *config.Match) string { return m.L4Src.String() }},
	{name: "l4-dst", kind: kRange, example: "l4-dst 53",
		set:    func(m *config.Match, v any) { m.L4Dst = ptr(v.(config.Range)) },
		isSet:  func(m *config.Match) bool { return m.L4Dst != nil },
		format: func(m *config.Match) string { return m.L4Dst.String() }},
	{name: "l4-port", kind: kRange, example: "l4-port 179",
		set:    func(m *config.Match, v any) { m.L4Port = ptr(v.(config.Range)) },
		isSet:  func(m *config.Match) bool { return m.L4Port != nil },
		format: func(m *config.Match) string { return m.L4Port.String() }},
}

// Any is the catch-all expression.
const Any = "any"

// Values lists the values a keyword takes when they are a fixed set:
// protocol names for proto, the depths for vlan-depth and mpls-depth
// (nil for a keyword whose values are numbers, ranges, addresses or
// prefixes, and for a word that is no keyword).
func Values(keyword string) []string {
	t := lookup(keyword)
	switch {
	case t == nil:
		return nil
	case t.kind == kProto:
		return config.ProtoNames()
	case t.name == "vlan-depth":
		return upTo(config.MaxVLANDepth)
	case t.name == "mpls-depth":
		return upTo(config.MaxMPLSDepth)
	}
	return nil
}

// upTo is "0" .. n.
func upTo(n int) []string {
	out := make([]string, n+1)
	for i := range out {
		out[i] = strconv.Itoa(i)
	}
	return out
}

// Keywords lists the term keywords in the order Format writes them.
func Keywords() []string {
	out := make([]string, len(terms))
	for i, t := range terms {
		out[i] = t.name
	}
	return out
}

func lookup(word string) *term {
	w := strings.ReplaceAll(strings.ToLower(word), "_", "-")
	for i := range terms {
		if terms[i].name == w {
			return &terms[i]
		}
	}
	return nil
}

// token is one word of the expression; comma says a comma came right
// before it.
type token struct {
	text  string
	comma bool
}

func tokenize(s string) []token {
	var out []token
	comma := false
	start := -1
	flush := func(end int) {
		if start >= 0 {
			out = append(out, token{text: s[start:end], comma: comma})
			comma = false
			start = -1
		}
	}
	for i, r := range s {
		switch {
		case r == ',':
			flush(i)
			comma = true
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			flush(i)
		default:
			if start < 0 {
				start = i
			}
		}
	}
	flush(len(s))
	return out
}

// Parse reads an expression into a config.Match. The error names the
// term at fault and says what would be right; it wraps ErrSyntax.
func Parse(expr string) (config.Match, error) {
	var m config.Match
	toks := tokenize(expr)
	if len(toks) == 0 {
		return m, &Error{Msg: "empty match expression; write \"any\" to match every packet, or terms like \"vlan 100 proto tcp\""}
	}
	if len(toks) == 1 && strings.EqualFold(toks[0].text, Any) {
		return m, nil
	}
	seen := map[string]bool{}
	prevAnd := false
	for i := 0; i < len(toks); {
		word := toks[i].text
		switch {
		case strings.EqualFold(word, "and"):
			if i == 0 || prevAnd || i == len(toks)-1 {
				return m, &Error{Term: word, Msg: "\"and\" joins two terms, like \"proto tcp and l4-port 179\""}
			}
			prevAnd = true
			i++
			continue
		case strings.EqualFold(word, Any):
			return m, &Error{Term: word, Msg: "\"any\" matches every packet and stands alone; leave it out to combine terms"}
		}
		prevAnd = false
		t := lookup(word)
		if t == nil {
			return m, unknownTerm(word)
		}
		if seen[t.name] {
			return m, &Error{Term: word, Msg: fmt.Sprintf("%s is given twice; list several values in one term, like %q", t.name, terms[0].example)}
		}
		seen[t.name] = true
		// The values: the words up to the next keyword, "and" or "any".
		j := i + 1
		for j < len(toks) && !isWord(toks[j].text) {
			j++
		}
		vals := toks[i+1 : j]
		written := strings.TrimSpace(word + " " + joinTokens(vals))
		if len(vals) == 0 {
			return m, &Error{Term: written, Msg: fmt.Sprintf("%s needs a value, like %q", t.name, t.example)}
		}
		if t.kind != kList && len(vals) > 1 {
			if vals[1].comma {
				return m, &Error{Term: written, Msg: fmt.Sprintf("%s takes one value, like %q; for several, use a range (lo-hi) or one rule each", t.name, t.example)}
			}
			return m, unknownTerm(vals[1].text)
		}
		if t.kind == kList {
			for _, v := range vals {
				if c := v.text[0]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
					return m, unknownTerm(v.text)
				}
			}
		}
		v, err := value(t, vals)
		if err != nil {
			return m, &Error{Term: written, Msg: err.Error()}
		}
		t.set(&m, v)
		i = j
	}
	return m, nil
}

func unknownTerm(word string) error {
	return &Error{Term: word, Msg: fmt.Sprintf("unknown match term; known terms: %s, and %q alone", strings.Join(Keywords(), ", "), Any)}
}

// isWord reports whether s is a keyword, "and" or "any" (not a value).
func isWord(s string) bool {
	return lookup(s) != nil || strings.EqualFold(s, "and") || strings.EqualFold(s, Any)
}

func joinTokens(ts []token) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 {
			if t.comma {
				b.WriteByte(',')
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(t.text)
	}
	return b.String()
}

func value(t *term, vals []token) (any, error) {
	s := vals[0].text
	switch t.kind {
	case kList:
		out := make([]config.Range, 0, len(vals))
		for _, v := range vals {
			r, err := config.ParseRange(v.text)
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
		return out, nil
	case kRange:
		return config.ParseRange(s)
	case kNumber:
		n, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number; write it like %q", s, t.example)
		}
		return uint32(n), nil
	case kMAC:
		return config.ParseMACMask(s)
	case kPrefix:
		return config.ParsePrefix(s)
	case kProto:
		return config.ParseIPProto(s)
	case kEther:
		var n uint64
		var err error
		if h, ok := strings.CutPrefix(strings.ToLower(s), "0x"); ok {
			n, err = strconv.ParseUint(h, 16, 16)
		} else {
			n, err = strconv.ParseUint(s, 10, 16)
		}
		if err != nil {
			return nil, fmt.Errorf("%q is not an ethertype; write 16 bits in hex like 0x8100, or decimal", s)
		}
		return uint16(n), nil
	}
	return nil, fmt.Errorf("internal: unknown kind %d", t.kind)
}

func ranges(rs []config.Range) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.String()
	}
	return strings.Join(parts, ",")
}

// Format writes m in the form Parse reads back into an equal Match:
// terms in a fixed order, separated by spaces; "any" when m sets nothing.
func Format(m config.Match) string {
	var parts []string
	for _, t := range terms {
		if t.isSet(&m) {
			parts = append(parts, t.name+" "+t.format(&m))
		}
	}
	if len(parts) == 0 {
		return Any
	}
	return strings.Join(parts, " ")
}
