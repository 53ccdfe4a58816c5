package config_test

import (
	"encoding/json"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/dpi-balancer/balancer/config"
)

// scalarCase is one input of a scalar parser: the value and canonical
// string it gives, or the exact error.
type scalarCase[T any] struct {
	in      string
	want    T
	str     string // canonical form; "" = same as in
	wantErr error
	msg     string
}

func runScalar[T interface{ String() string }](t *testing.T, parse func(string) (T, error), cases []scalarCase[T]) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parse(tt.in)
			if tt.wantErr != nil {
				require.Error(t, err)
				assert.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, tt.msg, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			str := tt.str
			if str == "" {
				str = tt.in
			}
			assert.Equal(t, str, got.String())
			// The canonical form reads back as the same value.
			again, err := parse(got.String())
			require.NoError(t, err)
			assert.Equal(t, got, again)
		})
	}
}

func TestParseRange(t *testing.T) {
	const want = "want a number or lo-hi, like 100 or 100-110"
	runScalar(t, config.ParseRange, []scalarCase[config.Range]{
		{in: "100", want: config.Range{Lo: 100, Hi: 100}},
		{in: "0", want: config.Range{}},
		{in: "100-110", want: config.Range{Lo: 100, Hi: 110}},
		{in: "100 - 110", want: config.Range{Lo: 100, Hi: 110}, str: "100-110"},
		{in: "7-7", want: config.Range{Lo: 7, Hi: 7}, str: "7"},
		{in: "110-100", want: config.Range{Lo: 110, Hi: 100}}, // Validate reports lo > hi
		{in: "4294967295", want: config.Range{Lo: 1<<32 - 1, Hi: 1<<32 - 1}},
		{in: "", wantErr: config.ErrSyntax, msg: `bad range "": ` + want},
		{in: "abc", wantErr: config.ErrSyntax, msg: `bad range "abc": ` + want},
		{in: "-5", wantErr: config.ErrSyntax, msg: `bad range "-5": ` + want},
		{in: "5-", wantErr: config.ErrSyntax, msg: `bad range "5-": ` + want},
		{in: "1-2-3", wantErr: config.ErrSyntax, msg: `bad range "1-2-3": ` + want},
		{in: "+5", wantErr: config.ErrSyntax, msg: `bad range "+5": ` + want},
		{in: "1.5", wantErr: config.ErrSyntax, msg: `bad range "1.5": ` + want},
		{in: "4294967296", wantErr: config.ErrSyntax, msg: `bad range "4294967296": ` + want},
	})
	r := config.Range{Lo: 10, Hi: 20}
	assert.True(t, r.Contains(10))
	assert.True(t, r.Contains(20))
	assert.False(t, r.Contains(21))
	assert.False(t, r.Single())
}

func TestParseMAC(t *testing.T) {
	const want = "want six hex bytes like aa:bb:cc:dd:ee:ff"
	runScalar(t, config.ParseMAC, []scalarCase[config.MAC]{
		{in: "aa:bb:cc:dd:ee:ff", want: config.MAC{0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff}},
		{in: "AA:BB:CC:00:00:01", want: config.MAC{0xaa, 0xbb, 0xcc, 0, 0, 1}, str: "aa:bb:cc:00:00:01"},
		{in: "02-00-00-00-00-02", want: config.MAC{2, 0, 0, 0, 0, 2}, str: "02:00:00:00:00:02"},
		{in: "", wantErr: config.ErrSyntax, msg: `bad MAC "": ` + want},
		{in: "aa:bb:cc:dd:ee", wantErr: config.ErrSyntax, msg: `bad MAC "aa:bb:cc:dd:ee": ` + want},
		{in: "aa:bb:cc:dd:ee:gg", wantErr: config.ErrSyntax, msg: `bad MAC "aa:bb:cc:dd:ee:gg": ` + want},
		{in: "aa:bb-cc:dd:ee:ff", wantErr: config.ErrSyntax, msg: `bad MAC "aa:bb-cc:dd:ee:ff": ` + want},
		{in: "aabb.ccdd.eeff.00", wantErr: config.ErrSyntax, msg: `bad MAC "aabb.ccdd.eeff.00": ` + want},
		{in: "a:b:c:d:e:f", wantErr: config.ErrSyntax, msg: `bad MAC "a:b:c:d:e:f": ` + want},
		{in: "aa:bb:cc:dd:ee:ff:00", wantErr: config.ErrSyntax, msg: `bad MAC "aa:bb:cc:dd:ee:ff:00": ` + want},
	})
	assert.True(t, config.MAC{}.IsZero())
}

func TestParseMACMask(t *testing.T) {
	const want = "want aa:bb:cc:dd:ee:ff, aa:bb:cc:00:00:00/ff:ff:ff:00:00:00 or aa:bb:cc:00:00:00/24"
	oui := config.MAC{0xaa, 0xbb, 0xcc, 0, 0, 0}
	ouiMask := config.MAC{0xff, 0xff, 0xff, 0, 0, 0}
	runScalar(t, config.ParseMACMask, []scalarCase[config.MACMask]{
		{in: "aa:bb:cc:00:00:00/ff:ff:ff:00:00:00", want: config.MACMask{Value: oui, Mask: ouiMask}},
		{in: "aa:bb:cc:dd:ee:ff", want: config.MACMask{Value: config.MAC{0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff}, Mask: config.FullMask}},
		{in: "aa:bb:cc:00:00:00/24", want: config.MACMask{Value: oui, Mask: ouiMask}, str: "aa:bb:cc:00:00:00/ff:ff:ff:00:00:00"},
		{
			in:   "01:00:5e:7f:ff:ff/25",
			want: config.MACMask{Value: config.MAC{1, 0, 0x5e, 0, 0, 0}, Mask: config.MAC{0xff, 0xff, 0xff, 0x80, 0, 0}},
			str:  "01:00:5e:00:00:00/ff:ff:ff:80:00:00",
		},
		{in: "aa:bb:cc:dd:ee:ff/ff:ff:ff:00:00:00", want: config.MACMask{Value: oui, Mask: ouiMask}, str: "aa:bb:cc:00:00:00/ff:ff:ff:00:00:00"},
		{in: "aa:bb:cc:dd:ee:ff/48", want: config.MACMask{Value: config.MAC{0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff}, Mask: config.FullMask}, str: "aa:bb:cc:dd:ee:ff"},
		{in: "00:00:00:00:00:00/0", want: config.MACMask{}, str: "00:00:00:00:00:00/00:00:00:00:00:00"},
		{in: "aa:bb:cc:00:00:00/49", wantErr: config.ErrOutOfRange, msg: `bad MAC mask "aa:bb:cc:00:00:00/49": prefix length 49 is out of range 0..48`},
		{in: "aa:bb:cc:00:00:00/", wantErr: config.ErrSyntax, msg: `bad MAC mask "aa:bb:cc:00:00:00/": ` + want},
		{in: "aa:bb:cc:00:00:00/ff:ff", wantErr: config.ErrSyntax, msg: `bad MAC mask "aa:bb:cc:00:00:00/ff:ff": ` + want},
		{in: "zz/24", wantErr: config.ErrSyntax, msg: `bad MAC mask "zz/24": ` + want},
	})
}

func TestParsePrefix(t *testing.T) {
	const want = "want an address or address/length, like 10.0.0.0/8 or 2001:db8::/32"
	pfx := func(s string) config.Prefix { return config.PrefixFrom(netip.MustParsePrefix(s)) }
	runScalar(t, config.ParsePrefix, []scalarCase[config.Prefix]{
		{in: "10.0.0.0/8", want: pfx("10.0.0.0/8")},
		{in: "10.1.2.3/8", want: pfx("10.0.0.0/8"), str: "10.0.0.0/8"},
		{in: "192.0.2.1", want: pfx("192.0.2.1/32"), str: "192.0.2.1/32"},
		{in: "0.0.0.0/0", want: pfx("0.0.0.0/0")},
		{in: "2001:db8::/32", want: pfx("2001:db8::/32")},
		{in: "2001:DB8:1::5/32", want: pfx("2001:db8::/32"), str: "2001:db8::/32"},
		{in: "::1", want: pfx("::1/128"), str: "::1/128"},
		{in: "ff00::/8", want: pfx("ff00::/8")},
		{in: "", wantErr: config.ErrSyntax, msg: `bad prefix "": ` + want},
		{in: "10.0.0/8", wantErr: config.ErrSyntax, msg: `bad prefix "10.0.0/8": ` + want},
		{in: "10.0.0.0/", wantErr: config.ErrSyntax, msg: `bad prefix "10.0.0.0/": ` + want},
		{in: "10.0.0.0/-1", wantErr: config.ErrSyntax, msg: `bad prefix "10.0.0.0/-1": ` + want},
		{in: "10.0.0.0/33", wantErr: config.ErrOutOfRange, msg: `bad prefix "10.0.0.0/33": length 33 is out of range 0..32`},
		{in: "2001:db8::/129", wantErr: config.ErrOutOfRange, msg: `bad prefix "2001:db8::/129": length 129 is out of range 0..128`},
		{in: "fe80::1%eth0", wantErr: config.ErrSyntax, msg: `bad prefix "fe80::1%eth0": ` + want},
		{in: "example.com", wantErr: config.ErrSyntax, msg: `bad prefix "example.com": ` + want},
	})
	v4, v6 := pfx("10.0.0.0/8"), pfx("2001:db8::/32")
	assert.True(t, v4.Is4())
	assert.False(t, v4.Is6())
	assert.True(t, v6.Is6())
	assert.Equal(t, "IPv4", v4.Family())
	assert.Equal(t, "IPv6", v6.Family())
	assert.Equal(t, 8, v4.Bits())
	assert.Equal(t, netip.MustParseAddr("10.0.0.0"), v4.Addr())
	assert.Equal(t, netip.MustParsePrefix("10.0.0.0/8"), v4.Netip())
	var zero config.Prefix
	assert.True(t, zero.IsZero())
	assert.Equal(t, "", zero.String())
	assert.Equal(t, "", zero.Family())
}

func TestParseIPProto(t *testing.T) {
	const want = "want a number 0..255 or a name (ah, egp, eigrp, esp, gre, icmp, icmpv6, igmp, ipip, ipv6, l2tp, ospf, pim, rsvp, sctp, tcp, udp, udplite, vrrp)"
	runScalar(t, config.ParseIPProto, []scalarCase[config.IPProto]{
		{in: "tcp", want: 6},
		{in: "TCP", want: 6, str: "tcp"},
		{in: "udp", want: 17},
		{in: "icmp", want: 1},
		{in: "icmpv6", want: 58},
		{in: "ipv6-icmp", want: 58, str: "icmpv6"},
		{in: "gre", want: 47},
		{in: "esp", want: 50},
		{in: "sctp", want: 132},
		{in: "ospf", want: 89},
		{in: "6", want: 6, str: "tcp"},
		{in: "0", want: 0},
		{in: "200", want: 200},
		{in: "255", want: 255},
		{in: "256", wantErr: config.ErrOutOfRange, msg: "bad IP protocol 256: out of range 0..255"},
		{in: "6x", wantErr: config.ErrSyntax, msg: `bad IP protocol "6x": ` + want},
		{in: "tcpp", wantErr: config.ErrSyntax, msg: `unknown IP protocol "tcpp": ` + want},
		{in: "", wantErr: config.ErrSyntax, msg: `unknown IP protocol "": ` + want},
		{in: "-1", wantErr: config.ErrSyntax, msg: `unknown IP protocol "-1": ` + want},
	})
	assert.True(t, config.ProtoTCP.HasPorts())
	assert.True(t, config.ProtoUDP.HasPorts())
	assert.False(t, config.ProtoICMP.HasPorts())
}

func TestParseDuration(t *testing.T) {
	runScalar(t, config.ParseDuration, []scalarCase[config.Duration]{
		{in: "100ms", want: config.Duration(100 * time.Millisecond)},
		{in: "1s", want: config.Duration(time.Second)},
		{in: "1m30s", want: config.Duration(90 * time.Second)},
		{in: "1.5s", want: config.Duration(1500 * time.Millisecond)},
		{in: "-1s", want: config.Duration(-time.Second)}, // Validate says where it is not allowed
		{in: "0", want: 0, str: "0s"},
		{in: "100", wantErr: config.ErrSyntax, msg: `bad duration "100": give a unit, like 100ms or 1s`},
		{in: "1.5", wantErr: config.ErrSyntax, msg: `bad duration "1.5": give a unit, like 100ms or 1s`},
		{in: "soon", wantErr: config.ErrSyntax, msg: `bad duration "soon": want a number with a unit, like 100ms or 1s`},
		{in: "", wantErr: config.ErrSyntax, msg: `bad duration "": want a number with a unit, like 100ms or 1s`},
	})
	assert.Equal(t, 250*time.Millisecond, config.Duration(250*time.Millisecond).Std())
}

// scalars holds one field of every scalar type, to check the YAML and JSON
// forms.
type scalars struct {
	Range    config.Range    `yaml:"range" json:"range"`
	Span     config.Range    `yaml:"span" json:"span"`
	MAC      config.MAC      `yaml:"mac" json:"mac"`
	MACMask  config.MACMask  `yaml:"mac_mask" json:"mac_mask"`
	FullMask config.MACMask  `yaml:"full_mask" json:"full_mask"`
	Prefix   config.Prefix   `yaml:"prefix" json:"prefix"`
	Prefix6  config.Prefix   `yaml:"prefix6" json:"prefix6"`
	Proto    config.IPProto  `yaml:"proto" json:"proto"`
	RawProto config.IPProto  `yaml:"raw_proto" json:"raw_proto"`
	Duration config.Duration `yaml:"duration" json:"duration"`
}

func TestScalarEncodings(t *testing.T) {
	in := `range: 179
span: 100-110
mac: aa:bb:cc:dd:ee:ff
mac_mask: aa:bb:cc:00:00:00/24
full_mask: 02:00:00:00:00:01
prefix: 10.1.2.3/8
prefix6: 2001:db8::1
proto: TCP
raw_proto: 200
duration: 1m30s
`
	want := scalars{
		Range:    config.Range{Lo: 179, Hi: 179},
		Span:     config.Range{Lo: 100, Hi: 110},
		MAC:      config.MAC{0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff},
		MACMask:  config.MACMask{Value: config.MAC{0xaa, 0xbb, 0xcc}, Mask: config.MAC{0xff, 0xff, 0xff}},
		FullMask: config.MACMask{Value: config.MAC{2, 0, 0, 0, 0, 1}, Mask: config.FullMask},
		Prefix:   config.PrefixFrom(netip.MustParsePrefix("10.0.0.0/8")),
		Prefix6:  config.PrefixFrom(netip.MustParsePrefix("2001:db8::1/128")),
		Proto:    config.ProtoTCP,
		RawProto: 200,
		Duration: config.Duration(90 * time.Second),
	}
	var got scalars
	require.NoError(t, yaml.Unmarshal([]byte(in), &got))
	assert.Equal(t, want, got)

	out, err := yaml.Marshal(got)
	require.NoError(t, err)
	assert.Equal(t, `range: 179
span: 100-110
mac: aa:bb:cc:dd:ee:ff
mac_mask: aa:bb:cc:00:00:00/ff:ff:ff:00:00:00
full_mask: "02:00:00:00:00:01"
prefix: 10.0.0.0/8
prefix6: 2001:db8::1/128
proto: tcp
raw_proto: 200
duration: 1m30s
`, string(out))
	var back scalars
	require.NoError(t, yaml.Unmarshal(out, &back))
	assert.Equal(t, want, back)

	js, err := json.Marshal(got)
	require.NoError(t, err)
	assert.JSONEq(t, `{"range":179,"span":"100-110","mac":"aa:bb:cc:dd:ee:ff",
		"mac_mask":"aa:bb:cc:00:00:00/ff:ff:ff:00:00:00","full_mask":"02:00:00:00:00:01",
		"prefix":"10.0.0.0/8","prefix6":"2001:db8::1/128","proto":"tcp","raw_proto":200,
		"duration":"1m30s"}`, string(js))
	var fromJSON scalars
	require.NoError(t, json.Unmarshal(js, &fromJSON))
	assert.Equal(t, want, fromJSON)

	// JSON also takes the other forms YAML takes.
	var alt scalars
	require.NoError(t, json.Unmarshal([]byte(`{"range":"179","span":"100-110","proto":6,"raw_proto":"200"}`), &alt))
	assert.Equal(t, config.Range{Lo: 179, Hi: 179}, alt.Range)
	assert.Equal(t, config.ProtoTCP, alt.Proto)
	assert.Equal(t, config.IPProto(200), alt.RawProto)
}

func TestScalarDecodeErrors(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		msg  string
	}{
		{name: "range from a list", yaml: "range: [1, 2]", msg: "yaml: unmarshal errors:\n  line 1: want a number or range like 100-110, not a list"},
		{name: "mac from a mapping", yaml: "mac: {a: 1}", msg: "yaml: unmarshal errors:\n  line 1: want a MAC like aa:bb:cc:dd:ee:ff, not a mapping"},
		{name: "bad mac mask", yaml: "mac_mask: aa", msg: "yaml: unmarshal errors:\n  line 1: bad MAC mask \"aa\": want aa:bb:cc:dd:ee:ff, aa:bb:cc:00:00:00/ff:ff:ff:00:00:00 or aa:bb:cc:00:00:00/24"},
		{name: "bad prefix", yaml: "prefix: 300.0.0.0/8", msg: "yaml: unmarshal errors:\n  line 1: bad prefix \"300.0.0.0/8\": want an address or address/length, like 10.0.0.0/8 or 2001:db8::/32"},
		{name: "proto out of range", yaml: "proto: 300", msg: "yaml: unmarshal errors:\n  line 1: bad IP protocol 300: out of range 0..255"},
		{name: "duration without unit", yaml: "duration: 5", msg: "yaml: unmarshal errors:\n  line 1: bad duration \"5\": give a unit, like 100ms or 1s"},
		{name: "every bad value at once", yaml: "range: x\nmac: y\n", msg: "yaml: unmarshal errors:\n  line 1: bad range \"x\": want a number or lo-hi, like 100 or 100-110\n  line 2: bad MAC \"y\": want six hex bytes like aa:bb:cc:dd:ee:ff"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s scalars
			err := yaml.Unmarshal([]byte(tt.yaml), &s)
			require.Error(t, err)
			assert.Equal(t, tt.msg, err.Error())
		})
	}

	jsonTests := []struct {
		name string
		json string
		msg  string
	}{
		{name: "mac as number", json: `{"mac": 5}`, msg: "want a MAC as a JSON string, got 5"},
		{name: "range as bool", json: `{"range": true}`, msg: "want a range as a JSON string or number, got true"},
		{name: "bad prefix", json: `{"prefix": "x"}`, msg: `bad prefix "x": want an address or address/length, like 10.0.0.0/8 or 2001:db8::/32`},
		{name: "bad duration", json: `{"duration": "7"}`, msg: `bad duration "7": give a unit, like 100ms or 1s`},
		{name: "bad proto", json: `{"proto": "nope"}`, msg: `unknown IP protocol "nope": want a number 0..255 or a name (ah, egp, eigrp, esp, gre, icmp, icmpv6, igmp, ipip, ipv6, l2tp, ospf, pim, rsvp, sctp, tcp, udp, udplite, vrrp)`},
		{name: "bad mac mask", json: `{"mac_mask": "aa:bb:cc:00:00:00/60"}`, msg: `bad MAC mask "aa:bb:cc:00:00:00/60": prefix length 60 is out of range 0..48`},
	}
	for _, tt := range jsonTests {
		t.Run("json "+tt.name, func(t *testing.T) {
			var s scalars
			err := json.Unmarshal([]byte(tt.json), &s)
			require.Error(t, err)
			assert.Equal(t, tt.msg, err.Error())
		})
	}
}

// TestProtoNames: every name listed reads back to a protocol that writes
// that name.
func TestProtoNames(t *testing.T) {
	names := config.ProtoNames()
	assert.IsIncreasing(t, names)
	assert.Contains(t, names, "tcp")
	assert.NotContains(t, names, "ipv6-icmp", "aliases are read, not listed")
	for _, n := range names {
		p, err := config.ParseIPProto(n)
		require.NoError(t, err, n)
		assert.Equal(t, n, p.String())
	}
}
