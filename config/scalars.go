package config

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// This file holds the scalar types of the model. Each reads its YAML
// forms (yaml.v3 *yaml.Node), writes the canonical form back
// (MarshalYAML), does the same for JSON, and has a String giving the
// canonical form, so a configuration round-trips.

// nodeError reports a bad scalar as a *yaml.TypeError, so that yaml.v3
// keeps decoding and Parse reports every bad value with its line at once.
func nodeError(n *yaml.Node, err error) error {
	return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: %v", n.Line, err)}}
}

// scalarValue returns the node's text, or an error when the node is a
// sequence or mapping. what describes the expected value for the message.
func scalarValue(n *yaml.Node, what string) (string, error) {
	if n.Kind == yaml.ScalarNode {
		return n.Value, nil
	}
	kind := "a mapping"
	switch n.Kind {
	case yaml.SequenceNode:
		kind = "a list"
	case yaml.AliasNode:
		if n.Alias != nil {
			return scalarValue(n.Alias, what)
		}
		kind = "an alias"
	}
	return "", nodeError(n, errorf(ErrSyntax, "want %s, not %s", what, kind))
}

// jsonString decodes a JSON value that must be a string.
func jsonString(data []byte, what string) (string, error) {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return "", errorf(ErrSyntax, "want %s as a JSON string, got %s", what, data)
	}
	return s, nil
}

// jsonScalar decodes a JSON string or number into its text.
func jsonScalar(data []byte, what string) (string, error) {
	data = []byte(strings.TrimSpace(string(data)))
	if len(data) > 0 && data[0] == '"' {
		return jsonString(data, what)
	}
	var n json.Number
	if err := json.Unmarshal(data, &n); err != nil {
		return "", errorf(ErrSyntax, "want %s as a JSON string or number, got %s", what, data)
	}
	return n.String(), nil
}

// ---------------------------------------------------------------- Range

// Range is an inclusive range of numbers (VLAN ids, L4 ports). YAML forms:
// 100, "100" and "100-110". A single value has Lo == Hi.
type Range struct {
	Lo, Hi uint32
}

// ParseRange reads "100" or "100-110". It does not require Lo <= Hi:
// Validate reports that with the value's path.
func ParseRange(s string) (Range, error) {
	bad := func() (Range, error) {
		return Range{}, errorf(ErrSyntax, "bad range %q: want a number or lo-hi, like 100 or 100-110", s)
	}
	lo, hi, isRange := strings.Cut(s, "-")
	lo = strings.TrimSpace(lo)
	l, err := strconv.ParseUint(lo, 10, 32)
	if err != nil || lo == "" || lo[0] == '+' {
		return bad()
	}
	if !isRange {
		return Range{Lo: uint32(l), Hi: uint32(l)}, nil
	}
	hi = strings.TrimSpace(hi)
	h, err := strconv.ParseUint(hi, 10, 32)
	if err != nil || hi == "" || hi[0] == '+' {
		return bad()
	}
	return Range{Lo: uint32(l), Hi: uint32(h)}, nil
}

// Single reports whether the range holds one value.
func (r Range) Single() bool { return r.Lo == r.Hi }

// Contains reports whether v is in the range.
func (r Range) Contains(v uint32) bool { return r.Lo <= v && v <= r.Hi }

// String gives "100" or "100-110".
func (r Range) String() string {
	if r.Single() {
		return strconv.FormatUint(uint64(r.Lo), 10)
	}
	return fmt.Sprintf("%d-%d", r.Lo, r.Hi)
}

// MarshalYAML writes a number for a single value, else "lo-hi".
func (r Range) MarshalYAML() (any, error) {
	if r.Single() {
		return r.Lo, nil
	}
	return r.String(), nil
}

// UnmarshalYAML reads 100, "100" or 100-110.
func (r *Range) UnmarshalYAML(n *yaml.Node) error {
	s, err := scalarValue(n, "a number or range like 100-110")
	if err != nil {
		return err
	}
	v, err := ParseRange(s)
	if err != nil {
		return nodeError(n, err)
	}
	*r = v
	return nil
}

// MarshalJSON writes a number for a single value, else "lo-hi".
func (r Range) MarshalJSON() ([]byte, error) {
	if r.Single() {
		return []byte(r.String()), nil
	}
	return json.Marshal(r.String())
}

// UnmarshalJSON reads 100, "100" or "100-110".
func (r *Range) UnmarshalJSON(data []byte) error {
	s, err := jsonScalar(data, "a range")
	if err != nil {
		return err
	}
	v, err := ParseRange(s)
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// ------------------------------------------------------------------ MAC

// MAC is an Ethernet address, written "aa:bb:cc:dd:ee:ff".
type MAC [6]byte

// ParseMAC reads six two-digit hex bytes separated by ':' (or '-').
func ParseMAC(s string) (MAC, error) {
	var m MAC
	if len(s) != 17 {
		return m, errorf(ErrSyntax, "bad MAC %q: want six hex bytes like aa:bb:cc:dd:ee:ff", s)
	}
	sep := s[2]
	if sep != ':' && sep != '-' {
		return m, errorf(ErrSyntax, "bad MAC %q: want six hex bytes like aa:bb:cc:dd:ee:ff", s)
	}
	for i := range m {
		if i > 0 && s[3*i-1] != sep {
			return m, errorf(ErrSyntax, "bad MAC %q: want six hex bytes like aa:bb:cc:dd:ee:ff", s)
		}
		b, err := strconv.ParseUint(s[3*i:3*i+2], 16, 8)
		if err != nil {
			return m, errorf(ErrSyntax, "bad MAC %q: want six hex bytes like aa:bb:cc:dd:ee:ff", s)
		}
		m[i] = byte(b)
	}
	return m, nil
}

// IsZero reports whether m is 00:00:00:00:00:00 (unset).
func (m MAC) IsZero() bool { return m == MAC{} }

// String gives "aa:bb:cc:dd:ee:ff" (lower case).
func (m MAC) String() string {
	return fmt.Sprintf("%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5])
}

// MarshalYAML writes the canonical form.
func (m MAC) MarshalYAML() (any, error) { return m.String(), nil }

// UnmarshalYAML reads "aa:bb:cc:dd:ee:ff".
func (m *MAC) UnmarshalYAML(n *yaml.Node) error {
	s, err := scalarValue(n, "a MAC like aa:bb:cc:dd:ee:ff")
	if err != nil {
		return err
	}
	v, err := ParseMAC(s)
	if err != nil {
		return nodeError(n, err)
	}
	*m = v
	return nil
}

// MarshalJSON writes the canonical form as a string.
func (m MAC) MarshalJSON() ([]byte, error) { return json.Marshal(m.String()) }

// UnmarshalJSON reads "aa:bb:cc:dd:ee:ff".
func (m *MAC) UnmarshalJSON(data []byte) error {
	s, err := jsonString(data, "a MAC")
	if err != nil {
		return err
	}
	v, err := ParseMAC(s)
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// -------------------------------------------------------------- MACMask

// MACMask is a ternary MAC match: the bits set in Mask must equal Value.
// YAML forms: "aa:bb:cc:00:00:00/ff:ff:ff:00:00:00", "01:00:5e:00:00:00/25"
// (a prefix length) or a plain MAC, which means the full mask. Value is kept
// masked (bits outside Mask are zero).
type MACMask struct {
	Value MAC
	Mask  MAC
}

// FullMask is the MAC mask that matches every bit.
var FullMask = MAC{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}

// ParseMACMask reads a MAC, MAC/MAC-mask or MAC/prefix-length.
func ParseMACMask(s string) (MACMask, error) {
	bad := func() (MACMask, error) {
		return MACMask{}, errorf(ErrSyntax, "bad MAC mask %q: want aa:bb:cc:dd:ee:ff, aa:bb:cc:00:00:00/ff:ff:ff:00:00:00 or aa:bb:cc:00:00:00/24", s)
	}
	vs, ms, hasMask := strings.Cut(s, "/")
	v, err := ParseMAC(vs)
	if err != nil {
		return bad()
	}
	mask := FullMask
	if hasMask {
		if bits, err := strconv.ParseUint(ms, 10, 8); err == nil && ms != "" && ms[0] != '+' {
			if bits > 48 {
				return MACMask{}, errorf(ErrOutOfRange, "bad MAC mask %q: prefix length %d is out of range 0..48", s, bits)
			}
			mask = MAC{}
			for i := 0; i < int(bits); i++ {
				mask[i/8] |= 0x80 >> (i % 8)
			}
		} else if mask, err = ParseMAC(ms); err != nil {
			return bad()
		}
	}
	return MACMask{Value: v, Mask: mask}.masked(), nil
}

func (m MACMask) masked() MACMask {
	for i := range m.Value {
		m.Value[i] &= m.Mask[i]
	}
	return m
}

// IsZero reports whether both value and mask are zero (unset).
func (m MACMask) IsZero() bool { return m.Value.IsZero() && m.Mask.IsZero() }

// String gives the plain MAC for a full mask, else "value/mask".
func (m MACMask) String() string {
	if m.Mask == FullMask {
		return m.Value.String()
	}
	return m.Value.String() + "/" + m.Mask.String()
}

// MarshalYAML writes the canonical form.
func (m MACMask) MarshalYAML() (any, error) { return m.String(), nil }

// UnmarshalYAML reads a MAC, MAC/mask or MAC/length.
func (m *MACMask) UnmarshalYAML(n *yaml.Node) error {
	s, err := scalarValue(n, "a MAC or MAC/mask")
	if err != nil {
		return err
	}
	v, err := ParseMACMask(s)
	if err != nil {
		return nodeError(n, err)
	}
	*m = v
	return nil
}

// MarshalJSON writes the canonical form as a string.
func (m MACMask) MarshalJSON() ([]byte, error) { return json.Marshal(m.String()) }

// UnmarshalJSON reads a MAC, MAC/mask or MAC/length.
func (m *MACMask) UnmarshalJSON(data []byte) error {
	s, err := jsonString(data, "a MAC mask")
	if err != nil {
		return err
	}
	v, err := ParseMACMask(s)
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// --------------------------------------------------------------- Prefix

// Prefix is an IPv4 or IPv6 prefix, always masked (canonical): "10.0.0.0/8",
// "2001:db8::/32". A plain address is a host prefix (/32 or /128).
type Prefix struct {
	p netip.Prefix
}

// ParsePrefix reads "10.0.0.0/8", "2001:db8::/32" or a plain address.
// Host bits are cleared: "10.1.2.3/8" reads as 10.0.0.0/8.
func ParsePrefix(s string) (Prefix, error) {
	bad := func() (Prefix, error) {
		return Prefix{}, errorf(ErrSyntax, "bad prefix %q: want an address or address/length, like 10.0.0.0/8 or 2001:db8::/32", s)
	}
	as, bs, hasLen := strings.Cut(s, "/")
	a, err := netip.ParseAddr(as)
	if err != nil || a.Zone() != "" {
		return bad()
	}
	if !hasLen {
		return PrefixFrom(netip.PrefixFrom(a, a.BitLen())), nil
	}
	bits, err := strconv.Atoi(bs)
	if err != nil || bs == "" || bs[0] == '+' || bs[0] == '-' {
		return bad()
	}
	if bits > a.BitLen() {
		return Prefix{}, errorf(ErrOutOfRange, "bad prefix %q: length %d is out of range 0..%d", s, bits, a.BitLen())
	}
	return PrefixFrom(netip.PrefixFrom(a, bits)), nil
}

// PrefixFrom wraps p, clearing its host bits.
func PrefixFrom(p netip.Prefix) Prefix { return Prefix{p: p.Masked()} }

// Netip returns the prefix as a netip.Prefix.
func (p Prefix) Netip() netip.Prefix { return p.p }

// Addr returns the (masked) network address.
func (p Prefix) Addr() netip.Addr { return p.p.Addr() }

// Bits returns the prefix length, or -1 when p is unset.
func (p Prefix) Bits() int { return p.p.Bits() }

// Is4 reports whether p is an IPv4 prefix.
func (p Prefix) Is4() bool { return p.p.IsValid() && p.p.Addr().Is4() }

// Is6 reports whether p is an IPv6 prefix (IPv4-mapped ones included).
func (p Prefix) Is6() bool { return p.p.IsValid() && p.p.Addr().Is6() }

// IsZero reports whether p is unset.
func (p Prefix) IsZero() bool { return !p.p.IsValid() }

// Family gives "IPv4", "IPv6", or "" when unset.
func (p Prefix) Family() string {
	switch {
	case p.Is4():
		return "IPv4"
	case p.Is6():
		return "IPv6"
	}
	return ""
}

// String gives the canonical "addr/len", or "" when unset.
func (p Prefix) String() string {
	if !p.p.IsValid() {
		return ""
	}
	return p.p.String()
}

// MarshalYAML writes the canonical form.
func (p Prefix) MarshalYAML() (any, error) { return p.String(), nil }

// UnmarshalYAML reads a prefix or an address.
func (p *Prefix) UnmarshalYAML(n *yaml.Node) error {
	s, err := scalarValue(n, "an IP prefix like 10.0.0.0/8")
	if err != nil {
		return err
	}
	v, err := ParsePrefix(s)
	if err != nil {
		return nodeError(n, err)
	}
	*p = v
	return nil
}

// MarshalJSON writes the canonical form as a string.
func (p Prefix) MarshalJSON() ([]byte, error) { return json.Marshal(p.String()) }

// UnmarshalJSON reads a prefix or an address.
func (p *Prefix) UnmarshalJSON(data []byte) error {
	s, err := jsonString(data, "an IP prefix")
	if err != nil {
		return err
	}
	v, err := ParsePrefix(s)
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// -------------------------------------------------------------- IPProto

// IPProto is an IP protocol number. YAML may give the number or a name
// (tcp, udp, icmp, icmpv6, gre, esp, ah, sctp, ospf, ...).
type IPProto uint8

// Protocols the data plane parses past the IP header.
const (
	ProtoICMP   IPProto = 1
	ProtoTCP    IPProto = 6
	ProtoUDP    IPProto = 17
	ProtoICMPv6 IPProto = 58
)

// protoNames are the names ParseIPProto reads, lower case (IANA keywords).
var protoNames = map[string]IPProto{
	"icmp":    1,
	"igmp":    2,
	"ipip":    4,
	"tcp":     6,
	"egp":     8,
	"udp":     17,
	"ipv6":    41,
	"rsvp":    46,
	"gre":     47,
	"esp":     50,
	"ah":      51,
	"icmpv6":  58,
	"eigrp":   88,
	"ospf":    89,
	"pim":     103,
	"vrrp":    112,
	"l2tp":    115,
	"sctp":    132,
	"udplite": 136,
}

// protoAliases are further names read but never written.
var protoAliases = map[string]IPProto{
	"ipv6-icmp": 58,
	"ip-in-ip":  4,
	"ipv4":      4,
}

var protoByNumber = func() map[IPProto]string {
	m := make(map[IPProto]string, len(protoNames))
	for n, p := range protoNames {
		m[p] = n
	}
	return m
}()

// ProtoNames lists the IP protocol names ParseIPProto reads and String
// writes (the IANA keywords), sorted; a number is read too.
func ProtoNames() []string {
	names := make([]string, 0, len(protoNames))
	for n := range protoNames {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func protoNameList() string {
	return strings.Join(ProtoNames(), ", ")
}

// ParseIPProto reads a protocol number 0..255 or a name (case-insensitive).
func ParseIPProto(s string) (IPProto, error) {
	if s != "" && s[0] >= '0' && s[0] <= '9' {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return 0, errorf(ErrSyntax, "bad IP protocol %q: want a number 0..255 or a name (%s)", s, protoNameList())
		}
		if n > 255 {
			return 0, errorf(ErrOutOfRange, "bad IP protocol %d: out of range 0..255", n)
		}
		return IPProto(n), nil
	}
	l := strings.ToLower(s)
	if p, ok := protoNames[l]; ok {
		return p, nil
	}
	if p, ok := protoAliases[l]; ok {
		return p, nil
	}
	return 0, errorf(ErrSyntax, "unknown IP protocol %q: want a number 0..255 or a name (%s)", s, protoNameList())
}

// String gives the protocol's name when it has one, else its number.
func (p IPProto) String() string {
	if n, ok := protoByNumber[p]; ok {
		return n
	}
	return strconv.Itoa(int(p))
}

// HasPorts reports whether the data plane reads L4 ports for p (TCP, UDP).
func (p IPProto) HasPorts() bool { return p == ProtoTCP || p == ProtoUDP }

// MarshalYAML writes the name when there is one, else the number.
func (p IPProto) MarshalYAML() (any, error) {
	if n, ok := protoByNumber[p]; ok {
		return n, nil
	}
	return uint8(p), nil
}

// UnmarshalYAML reads a number or a name.
func (p *IPProto) UnmarshalYAML(n *yaml.Node) error {
	s, err := scalarValue(n, "an IP protocol number or name")
	if err != nil {
		return err
	}
	v, err := ParseIPProto(s)
	if err != nil {
		return nodeError(n, err)
	}
	*p = v
	return nil
}

// MarshalJSON writes the name as a string when there is one, else the number.
func (p IPProto) MarshalJSON() ([]byte, error) {
	if n, ok := protoByNumber[p]; ok {
		return json.Marshal(n)
	}
	return []byte(strconv.Itoa(int(p))), nil
}

// UnmarshalJSON reads a number or a name.
func (p *IPProto) UnmarshalJSON(data []byte) error {
	s, err := jsonScalar(data, "an IP protocol")
	if err != nil {
		return err
	}
	v, err := ParseIPProto(s)
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// ------------------------------------------------------------- Duration

// ParseDuration reads a Go duration such as "100ms", "1s" or "1m30s". A
// bare number other than 0 is refused: its unit would be a guess.
func ParseDuration(s string) (Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		if _, nerr := strconv.ParseFloat(s, 64); nerr == nil {
			return 0, errorf(ErrSyntax, "bad duration %q: give a unit, like 100ms or 1s", s)
		}
		return 0, errorf(ErrSyntax, "bad duration %q: want a number with a unit, like 100ms or 1s", s)
	}
	return Duration(d), nil
}

// Std returns d as a time.Duration.
func (d Duration) Std() time.Duration { return time.Duration(d) }

// String gives the time.Duration form ("100ms", "1s", "1m30s").
func (d Duration) String() string { return time.Duration(d).String() }

// MarshalYAML writes the String form.
func (d Duration) MarshalYAML() (any, error) { return d.String(), nil }

// UnmarshalYAML reads "100ms", "1s" etc.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	s, err := scalarValue(n, "a duration like 100ms")
	if err != nil {
		return err
	}
	v, err := ParseDuration(s)
	if err != nil {
		return nodeError(n, err)
	}
	*d = v
	return nil
}

// MarshalJSON writes the String form as a string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// UnmarshalJSON reads "100ms", "1s" etc.
func (d *Duration) UnmarshalJSON(data []byte) error {
	s, err := jsonString(data, "a duration")
	if err != nil {
		return err
	}
	v, err := ParseDuration(s)
	if err != nil {
		return err
	}
	*d = v
	return nil
}
