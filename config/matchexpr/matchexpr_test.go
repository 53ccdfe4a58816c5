package matchexpr

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
)

func u32(v uint32) *uint32 { return &v }
func u16(v uint16) *uint16 { return &v }

func prefix(t *testing.T, s string) *config.Prefix {
	t.Helper()
	p, err := config.ParsePrefix(s)
	require.NoError(t, err)
	return &p
}

func macMask(t *testing.T, s string) *config.MACMask {
	t.Helper()
	m, err := config.ParseMACMask(s)
	require.NoError(t, err)
	return &m
}

func proto(p config.IPProto) *config.IPProto { return &p }

func rng(lo, hi uint32) config.Range { return config.Range{Lo: lo, Hi: hi} }

func rp(lo, hi uint32) *config.Range { r := rng(lo, hi); return &r }

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		expr string
		want func(t *testing.T) config.Match
		// format is what Format gives back ("" = expr).
		format string
	}{
		{name: "any", expr: "any", want: func(*testing.T) config.Match { return config.Match{} }},
		{name: "any upper case", expr: " ANY ", want: func(*testing.T) config.Match { return config.Match{} }, format: "any"},
		{name: "vlan list", expr: "vlan 1,100-110", want: func(*testing.T) config.Match {
			return config.Match{VLAN: []config.Range{rng(1, 1), rng(100, 110)}}
		}},
		{name: "vlan list with spaces", expr: "vlan 1, 100-110 ,200", want: func(*testing.T) config.Match {
			return config.Match{VLAN: []config.Range{rng(1, 1), rng(100, 110), rng(200, 200)}}
		}, format: "vlan 1,100-110,200"},
		{name: "terms listed", expr: "vlan 100 proto tcp l4-port 179", want: func(*testing.T) config.Match {
			return config.Match{VLAN: []config.Range{rng(100, 100)}, Proto: proto(config.ProtoTCP), L4Port: rp(179, 179)}
		}},
		{name: "terms joined by and", expr: "proto tcp and l4-port 179", want: func(*testing.T) config.Match {
			return config.Match{Proto: proto(config.ProtoTCP), L4Port: rp(179, 179)}
		}, format: "proto tcp l4-port 179"},
		{name: "terms joined by commas", expr: "vlan 5, proto udp, l4-dst 53", want: func(*testing.T) config.Match {
			return config.Match{VLAN: []config.Range{rng(5, 5)}, Proto: proto(config.ProtoUDP), L4Dst: rp(53, 53)}
		}, format: "vlan 5 proto udp l4-dst 53"},
		{name: "inner vlan and depths", expr: "inner-vlan 5 vlan-depth 2 mpls-depth 2", want: func(*testing.T) config.Match {
			return config.Match{InnerVLAN: []config.Range{rng(5, 5)}, VLANDepth: u32(2), MPLSDepth: u32(2)}
		}},
		{name: "yaml key spelling", expr: "inner_vlan 5 L4_SRC 1000-2000", want: func(*testing.T) config.Match {
			return config.Match{InnerVLAN: []config.Range{rng(5, 5)}, L4Src: rp(1000, 2000)}
		}, format: "inner-vlan 5 l4-src 1000-2000"},
		{name: "prefixes", expr: "src 10.0.0.0/8 dst 2001:db8::/32", want: func(t *testing.T) config.Match {
			return config.Match{Src: prefix(t, "10.0.0.0/8"), Dst: prefix(t, "2001:db8::/32")}
		}},
		{name: "host address", expr: "dst 192.0.2.1", want: func(t *testing.T) config.Match {
			return config.Match{Dst: prefix(t, "192.0.2.1/32")}
		}, format: "dst 192.0.2.1/32"},
		{name: "macs", expr: "src-mac aa:bb:cc:00:00:00/ff:ff:ff:00:00:00 dst-mac 01:00:5e:00:00:00/25", want: func(t *testing.T) config.Match {
			return config.Match{SrcMAC: macMask(t, "aa:bb:cc:00:00:00/ff:ff:ff:00:00:00"), DstMAC: macMask(t, "01:00:5e:00:00:00/ff:ff:ff:80:00:00")}
		}, format: "src-mac aa:bb:cc:00:00:00/ff:ff:ff:00:00:00 dst-mac 01:00:5e:00:00:00/ff:ff:ff:80:00:00"},
		{name: "ethertype hex", expr: "ethertype 0x8100", want: func(*testing.T) config.Match {
			return config.Match{EtherType: u16(0x8100)}
		}},
		{name: "ethertype decimal", expr: "ethertype 2054", want: func(*testing.T) config.Match {
			return config.Match{EtherType: u16(0x0806)}
		}, format: "ethertype 0x0806"},
		{name: "proto number", expr: "proto 47", want: func(*testing.T) config.Match {
			return config.Match{Proto: proto(47)}
		}, format: "proto gre"},
		{name: "every term", expr: "vlan 1 inner-vlan 2 vlan-depth 2 mpls-depth 0 src-mac 00:00:00:00:00:01 dst-mac 00:00:00:00:00:02 ethertype 0x0800 src 10.0.0.0/8 dst 10.1.0.0/16 proto tcp l4-src 1 l4-dst 2",
			want: func(t *testing.T) config.Match {
				return config.Match{
					VLAN: []config.Range{rng(1, 1)}, InnerVLAN: []config.Range{rng(2, 2)}, VLANDepth: u32(2), MPLSDepth: u32(0),
					SrcMAC: macMask(t, "00:00:00:00:00:01"), DstMAC: macMask(t, "00:00:00:00:00:02"), EtherType: u16(0x0800),
					Src: prefix(t, "10.0.0.0/8"), Dst: prefix(t, "10.1.0.0/16"), Proto: proto(config.ProtoTCP),
					L4Src: rp(1, 1), L4Dst: rp(2, 2),
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.expr)
			require.NoError(t, err)
			assert.Equal(t, tt.want(t), got)
			want := tt.format
			if want == "" {
				want = tt.expr
			}
			assert.Equal(t, want, Format(got))
			again, err := Parse(Format(got))
			require.NoError(t, err, "Format's output parses")
			assert.Equal(t, got, again)
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		expr string
		want string // the whole message
	}{
		{name: "empty", expr: "  ", want: `empty match expression; write "any" to match every packet, or terms like "vlan 100 proto tcp"`},
		{name: "unknown term", expr: "vlan 100 prot tcp",
			want: `"prot": unknown match term; known terms: vlan, inner-vlan, vlan-depth, mpls-depth, src-mac, dst-mac, ethertype, src, dst, proto, l4-src, l4-dst, l4-port, and "any" alone`},
		{name: "unknown first term", expr: "vid 100",
			want: `"vid": unknown match term; known terms: vlan, inner-vlan, vlan-depth, mpls-depth, src-mac, dst-mac, ethertype, src, dst, proto, l4-src, l4-dst, l4-port, and "any" alone`},
		{name: "bad range", expr: "vlan 1x", want: `"vlan 1x": bad range "1x": want a number or lo-hi, like 100 or 100-110`},
		{name: "bad range in list", expr: "vlan 1,100-", want: `"vlan 1,100-": bad range "100-": want a number or lo-hi, like 100 or 100-110`},
		{name: "missing value", expr: "proto tcp l4-port", want: `"l4-port": l4-port needs a value, like "l4-port 179"`},
		{name: "missing value before keyword", expr: "vlan proto tcp", want: `"vlan": vlan needs a value, like "vlan 1,100-110"`},
		{name: "two values", expr: "proto tcp udp",
			want: `"udp": unknown match term; known terms: vlan, inner-vlan, vlan-depth, mpls-depth, src-mac, dst-mac, ethertype, src, dst, proto, l4-src, l4-dst, l4-port, and "any" alone`},
		{name: "list for a single value", expr: "l4-dst 53,853", want: `"l4-dst 53,853": l4-dst takes one value, like "l4-dst 53"; for several, use a range (lo-hi) or one rule each`},
		{name: "repeated term", expr: "vlan 1 vlan 2", want: `"vlan": vlan is given twice; list several values in one term, like "vlan 1,100-110"`},
		{name: "any combined", expr: "any proto tcp", want: `"any": "any" matches every packet and stands alone; leave it out to combine terms`},
		{name: "any after a term", expr: "proto tcp any", want: `"any": "any" matches every packet and stands alone; leave it out to combine terms`},
		{name: "leading and", expr: "and proto tcp", want: `"and": "and" joins two terms, like "proto tcp and l4-port 179"`},
		{name: "trailing and", expr: "proto tcp and", want: `"and": "and" joins two terms, like "proto tcp and l4-port 179"`},
		{name: "double and", expr: "proto tcp and and l4-port 1", want: `"and": "and" joins two terms, like "proto tcp and l4-port 179"`},
		{name: "bad prefix", expr: "src 10.0.0/8", want: `"src 10.0.0/8": bad prefix "10.0.0/8": want an address or address/length, like 10.0.0.0/8 or 2001:db8::/32`},
		{name: "prefix too long", expr: "dst 10.0.0.0/33", want: `"dst 10.0.0.0/33": bad prefix "10.0.0.0/33": length 33 is out of range 0..32`},
		{name: "bad proto", expr: "proto tcpp", want: `"proto tcpp": unknown IP protocol "tcpp": want a number 0..255 or a name (ah, egp, eigrp, esp, gre, icmp, icmpv6, igmp, ipip, ipv6, l2tp, ospf, pim, rsvp, sctp, tcp, udp, udplite, vrrp)`},
		{name: "bad mac", expr: "src-mac aa:bb:cc", want: `"src-mac aa:bb:cc": bad MAC mask "aa:bb:cc": want aa:bb:cc:dd:ee:ff, aa:bb:cc:00:00:00/ff:ff:ff:00:00:00 or aa:bb:cc:00:00:00/24`},
		{name: "bad ethertype", expr: "ethertype 0x1ffff", want: `"ethertype 0x1ffff": "0x1ffff" is not an ethertype; write 16 bits in hex like 0x8100, or decimal`},
		{name: "bad depth", expr: "vlan-depth two", want: `"vlan-depth two": "two" is not a number; write it like "vlan-depth 2"`},
		{name: "negative depth", expr: "mpls-depth -1", want: `"mpls-depth -1": "-1" is not a number; write it like "mpls-depth 2"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.expr)
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
			assert.True(t, errors.Is(err, ErrSyntax))
			var e *Error
			assert.True(t, errors.As(err, &e))
		})
	}
}

// Values are checked by config.Validate, not here: Parse takes what reads.
func TestParseLeavesRangesToValidate(t *testing.T) {
	m, err := Parse("vlan 5000 vlan-depth 9")
	require.NoError(t, err)
	assert.Equal(t, []config.Range{rng(5000, 5000)}, m.VLAN)
	assert.Equal(t, u32(9), m.VLANDepth)
}

func TestFormatCatchAll(t *testing.T) {
	assert.Equal(t, "any", Format(config.Match{}))
}

// TestValues: the keywords with a fixed set of values list them, and each
// one parses; the others list none.
func TestValues(t *testing.T) {
	assert.Equal(t, []string{"0", "1", "2", "3"}, Values("vlan-depth"))
	assert.Equal(t, []string{"0", "1", "2", "3", "4", "5", "6", "7", "8"}, Values("mpls_depth"), `"_" for "-" as Parse reads it`)
	assert.Contains(t, Values("proto"), "udp")
	for _, kw := range []string{"vlan-depth", "mpls-depth", "proto"} {
		for _, v := range Values(kw) {
			_, err := Parse(kw + " " + v)
			assert.NoError(t, err, "%s %s", kw, v)
		}
	}
	for _, kw := range []string{"vlan", "src", "l4-port", "ethertype", "nosuch", "any"} {
		assert.Nil(t, Values(kw), kw)
	}
}
