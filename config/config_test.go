package config_test

import (
	"io/fs"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/dpi-balancer/balancer/config"
)

const examplePath = "../examples/site.yaml"

func ptr[T any](v T) *T { return &v }

func TestParseExample(t *testing.T) {
	c, err := config.Load(examplePath)
	require.NoError(t, err)

	assert.Equal(t, "example-site", c.Site)
	assert.Equal(t, "sim", c.Platform)
	assert.Len(t, c.Ports, 9)

	require.Len(t, c.Links, 2)
	assert.Equal(t, config.Link{Name: "L1", ID: ptr(uint32(0)), LAN: "P42", WAN: "P41"}, c.Links[0])
	assert.Equal(t, config.Link{Name: "L2", ID: ptr(uint32(1)), LAN: "P10", WAN: "P9"}, c.Links[1])

	require.Len(t, c.FilterGroups, 3)
	for i, f := range c.FilterGroups {
		assert.Equal(t, uint32(31), f.Cores, f.Name)
		assert.Equal(t, uint32(i), *f.ID, f.Name)
		assert.Equal(t, uint16(0x88B5), f.TPID, f.Name)
	}

	b := c.BalanceGroupByName("group_filter")
	require.NotNil(t, b)
	assert.Equal(t, []string{"F1", "F2", "F3"}, b.Members)
	assert.Equal(t, uint32(12), b.SlotBits)
	assert.Equal(t, config.FailBypass, b.FailureAction)
	assert.Equal(t, uint32(93), c.TotalCores(b))

	p := c.ProfileByName("default")
	require.NotNil(t, p)
	assert.Equal(t, config.Profile{
		Name:              "default",
		InitialDelay:      config.Duration(time.Second),
		Interval:          config.Duration(100 * time.Millisecond),
		LossThreshold:     5,
		RecoveryThreshold: 5,
		MinActive:         1,
		FailureAction:     config.FailBypass,
		Probe:             config.ProbeLANToWAN,
		StallGuard:        config.StallGuardHold,
		StallHold:         config.Duration(time.Second),
		Failback:          config.FailbackAuto,
	}, *p)
	assert.Len(t, c.Profiles, 1, "the file defines default: no built-in one is added")

	require.Len(t, c.Rules, 5)
	names := make([]string, len(c.Rules))
	for i, r := range c.Rules {
		names[i] = r.Name
	}
	assert.Equal(t, []string{"bgp", "multicast", "multicast-v6", "vlan-balanced", "default"}, names)
	bgp := c.Rules[0]
	assert.Equal(t, config.ProtoTCP, *bgp.Match.Proto)
	assert.Equal(t, config.Range{Lo: 179, Hi: 179}, *bgp.Match.L4Port)
	assert.Equal(t, []config.Range{{Lo: 1, Hi: 1}, {Lo: 100, Hi: 110}}, c.Rules[3].Match.VLAN)
	act, group, err := c.Rules[3].ParseAction()
	require.NoError(t, err)
	assert.Equal(t, config.ActionBalance, act)
	assert.Equal(t, "group_filter", group)
	assert.True(t, c.Rules[4].Match.IsZero(), "default is a catch-all")
	assert.Equal(t, uint32(1), c.Rules[4].Priority)

	lan, err := c.PortNumber("P42")
	require.NoError(t, err)
	assert.Equal(t, uint32(42), lan)
	wan, err := c.PortNumber("P9")
	require.NoError(t, err)
	assert.Equal(t, uint32(90), wan)
}

func TestDefaultsApplied(t *testing.T) {
	c, err := config.Parse([]byte(`
ports:
  - {port: 1, speed: 100G}
  - {port: 2, speed: 100G}
  - {port: 9, speed: 100G}
  - {port: 10, speed: 100G}
  - {port: 11, speed: 100G}
  - {port: 12, speed: 100G}
links: [{name: L1, lan: P10, wan: P9}]
filter_groups:
  - {name: F1, lan: P2, wan: P1}
  - {name: F2, lan: P12, wan: P11, cores: 7, tpid: 0x88B8}
balance_groups:
  - {name: g1, members: [F1]}
  - {name: g2, members: [F2], profile: strict, slot_bits: 8}
profiles:
  - {name: strict, failure_action: drop, interval: 50ms}
`))
	require.NoError(t, err)

	want := &config.Config{
		Platform: "sim",
		Defaults: config.Defaults{
			Cores:    1,
			CoreTPID: 0x88B5,
			SlotBits: 12,
			KeepAlive: config.KeepAlive{
				EtherType: 0x88B6,
				DstMAC:    config.MAC{0x02, 0, 0, 0, 0, 0x02},
				SrcMAC:    config.MAC{0x02, 0, 0, 0, 0, 0x01},
			},
		},
		// A 100G port runs RS-FEC, autoneg off, MTU 9216, enabled.
		Ports: []config.Port{
			port100G(1), port100G(2), port100G(9), port100G(10), port100G(11), port100G(12),
		},
		Links: []config.Link{{Name: "L1", ID: ptr(uint32(0)), LAN: "P10", WAN: "P9"}},
		FilterGroups: []config.FilterGroup{
			{Name: "F1", ID: ptr(uint32(0)), LAN: "P2", WAN: "P1", Cores: 1, TPID: 0x88B5},
			{Name: "F2", ID: ptr(uint32(1)), LAN: "P12", WAN: "P11", Cores: 7, TPID: 0x88B8},
		},
		BalanceGroups: []config.BalanceGroup{
			{Name: "g1", ID: ptr(uint32(0)), Members: []string{"F1"}, Profile: "default", FailureAction: config.FailBypass, SlotBits: 12},
			{Name: "g2", ID: ptr(uint32(1)), Members: []string{"F2"}, Profile: "strict", FailureAction: config.FailDrop, SlotBits: 8},
		},
		Profiles: []config.Profile{
			{
				Name: "strict", InitialDelay: config.Duration(time.Second), Interval: config.Duration(50 * time.Millisecond),
				LossThreshold: 5, RecoveryThreshold: 5, MinActive: 1, FailureAction: config.FailDrop, Probe: config.ProbeLANToWAN,
				StallGuard: config.StallGuardHold, StallHold: config.Duration(time.Second), Failback: config.FailbackAuto,
			},
			{
				Name: "default", InitialDelay: config.Duration(time.Second), Interval: config.Duration(100 * time.Millisecond),
				LossThreshold: 5, RecoveryThreshold: 5, MinActive: 1, FailureAction: config.FailBypass, Probe: config.ProbeLANToWAN,
				StallGuard: config.StallGuardHold, StallHold: config.Duration(time.Second), Failback: config.FailbackAuto,
			},
		},
		Sessions: config.Sessions{IdleTimeout: config.SessionIdleTimeout{TCP: config.DefaultSessionIdleTCP,
			UDP: config.DefaultSessionIdleUDP, Other: config.DefaultSessionIdleOther}},
	}
	assert.Equal(t, want, c)
}

func port100G(n uint32) config.Port {
	return config.Port{Port: n, Speed: "100G", FEC: config.FECRS, Autoneg: ptr(false), MTU: 9216, Enabled: ptr(true)}
}

func TestApplyDefaultsIdempotent(t *testing.T) {
	data, err := os.ReadFile(examplePath)
	require.NoError(t, err)
	raw := func() *config.Config {
		var c config.Config
		require.NoError(t, yaml.Unmarshal(data, &c))
		return &c
	}
	once := raw()
	once.ApplyDefaults()
	twice := raw()
	twice.ApplyDefaults()
	twice.ApplyDefaults()
	assert.Equal(t, once, twice)

	empty := &config.Config{}
	empty.ApplyDefaults()
	again := *empty
	again.Profiles = append([]config.Profile(nil), empty.Profiles...)
	again.ApplyDefaults()
	assert.Equal(t, empty, &again)
	assert.Len(t, again.Profiles, 1, "the built-in default profile is added once")
}

func TestIDAssignment(t *testing.T) {
	tests := []struct {
		name string
		ids  []*uint32
		want []uint32
	}{
		{name: "none set", ids: []*uint32{nil, nil, nil}, want: []uint32{0, 1, 2}},
		{name: "explicit ids are skipped", ids: []*uint32{nil, ptr(uint32(0)), nil, ptr(uint32(2)), nil}, want: []uint32{1, 0, 3, 2, 4}},
		{name: "a later explicit id is reserved", ids: []*uint32{nil, nil, ptr(uint32(1))}, want: []uint32{0, 2, 1}},
		{name: "gaps are filled lowest first", ids: []*uint32{ptr(uint32(5)), nil, ptr(uint32(0)), nil}, want: []uint32{5, 1, 0, 2}},
		{name: "explicit duplicates stay for Validate", ids: []*uint32{ptr(uint32(3)), ptr(uint32(3)), nil}, want: []uint32{3, 3, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clone := func() []*uint32 {
				out := make([]*uint32, len(tt.ids))
				for i, p := range tt.ids {
					if p != nil {
						out[i] = ptr(*p)
					}
				}
				return out
			}
			c := &config.Config{}
			for _, id := range clone() {
				c.Links = append(c.Links, config.Link{ID: id})
			}
			for _, id := range clone() {
				c.FilterGroups = append(c.FilterGroups, config.FilterGroup{ID: id})
			}
			for _, id := range clone() {
				c.BalanceGroups = append(c.BalanceGroups, config.BalanceGroup{ID: id})
			}
			c.ApplyDefaults()
			got := func(ids func(i int) *uint32) []uint32 {
				out := make([]uint32, len(tt.ids))
				for i := range out {
					require.NotNil(t, ids(i))
					out[i] = *ids(i)
				}
				return out
			}
			assert.Equal(t, tt.want, got(func(i int) *uint32 { return c.Links[i].ID }), "links")
			assert.Equal(t, tt.want, got(func(i int) *uint32 { return c.FilterGroups[i].ID }), "filter groups")
			assert.Equal(t, tt.want, got(func(i int) *uint32 { return c.BalanceGroups[i].ID }), "balance groups")
		})
	}
}

func TestStrictDecoding(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want []string
	}{
		{
			name: "unknown keys at every level",
			yaml: `site: x
platfrom: sim
defaults:
  keepalive: {ethertype: 0x88B6, dst: 02:00:00:00:00:02}
links:
  - name: L1
    lan_port: P10
rules:
  - name: r
    priority: 1
    action: bypass
    match: {vlans: [1]}
`,
			want: []string{
				`line 2: unknown key "platfrom" in the top level (known keys: site, platform, port_map, defaults, ports, links, filter_groups, balance_groups, profiles, rules, sessions)`,
				`line 4: unknown key "dst" in keepalive (known keys: ethertype, dst_mac, src_mac)`,
				`line 7: unknown key "lan_port" in a link (known keys: name, id, lan, wan, ignore_parity)`,
				`line 12: unknown key "vlans" in a match (known keys: vlan, inner_vlan, vlan_depth, mpls_depth, src_mac, dst_mac, ethertype, src, dst, proto, l4_src, l4_dst, l4_port)`,
			},
		},
		{
			name: "bad scalars, each with its line",
			yaml: `defaults:
  keepalive:
    dst_mac: zz:00:00:00:00:00
  heartbeat:
    - dst_mac: 00:11:22:33:44:55/99
profiles:
  - name: p
    interval: 100
rules:
  - name: r
    priority: high
    action: bypass
    match:
      vlan: [abc]
      src: 10.0.0.0/33
      proto: tcpp
      l4_dst: {port: 80}
`,
			want: []string{
				`line 3: defaults.keepalive.dst_mac: bad MAC "zz:00:00:00:00:00": want six hex bytes like aa:bb:cc:dd:ee:ff`,
				`line 5: defaults.heartbeat[0].dst_mac: bad MAC mask "00:11:22:33:44:55/99": prefix length 99 is out of range 0..48`,
				`line 8: profiles[0].interval: bad duration "100": give a unit, like 100ms or 1s`,
				`line 11: rules[0].priority: "high" is text; want a whole number`,
				`line 14: rules[0].match.vlan[0]: bad range "abc": want a number or lo-hi, like 100 or 100-110`,
				`line 15: rules[0].match.src: bad prefix "10.0.0.0/33": length 33 is out of range 0..32`,
				`line 16: rules[0].match.proto: unknown IP protocol "tcpp": want a number 0..255 or a name (ah, egp, eigrp, esp, gre, icmp, icmpv6, igmp, ipip, ipv6, l2tp, ospf, pim, rsvp, sctp, tcp, udp, udplite, vrrp)`,
				"line 17: rules[0].match.l4_dst: want a number or range like 100-110, not a mapping",
			},
		},
		{
			name: "yaml syntax",
			yaml: "links: [\n",
			want: []string{"line 1: did not find expected node content"},
		},
		{
			name: "two documents",
			yaml: "site: a\n---\nsite: b\n",
			want: []string{"the file holds more than one YAML document; keep one (remove the second '---')"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := config.Parse([]byte(tt.yaml))
			require.Error(t, err)
			assert.Nil(t, c)
			assert.Equal(t, tt.want, messages(err))
			assert.ErrorIs(t, err, config.ErrDecode)
		})
	}

	_, err := config.Parse([]byte("sight: x\n"))
	assert.ErrorIs(t, err, config.ErrUnknownKey)
}

func TestParseEmpty(t *testing.T) {
	for _, in := range []string{"", "# nothing yet\n", "{}"} {
		c, err := config.Parse([]byte(in))
		require.NoError(t, err, "%q", in)
		assert.Equal(t, "sim", c.Platform)
		assert.NotNil(t, c.ProfileByName("default"))
	}
}

func TestLoad(t *testing.T) {
	_, err := config.Load("testdata/does-not-exist.yaml")
	assert.ErrorIs(t, err, fs.ErrNotExist)

	_, err = config.Load("testdata/bad_parity.yaml")
	require.Error(t, err)
	assert.Equal(t, []string{
		"testdata/bad_parity.yaml: links[0].lan: P41 is odd (WAN side); a LAN port must be even (set ignore_parity to override)",
		"testdata/bad_parity.yaml: links[0].wan: P42 is even (LAN side); a WAN port must be odd (set ignore_parity to override)",
	}, messages(err))
	assert.ErrorIs(t, err, config.ErrParity)
	fes := config.FieldErrors(err)
	require.Len(t, fes, 2)
	assert.Equal(t, "links[0].lan", fes[0].Path)
	assert.Equal(t, "links[0].wan", fes[1].Path)
}

func TestLookups(t *testing.T) {
	c, err := config.Load(examplePath)
	require.NoError(t, err)

	require.NotNil(t, c.LinkByName("L2"))
	assert.Equal(t, "P9", c.LinkByName("L2").WAN)
	assert.Nil(t, c.LinkByName("L9"))

	require.NotNil(t, c.FilterGroupByName("F3"))
	assert.Equal(t, "P14", c.FilterGroupByName("F3").LAN)
	assert.Nil(t, c.FilterGroupByName("F9"))

	require.NotNil(t, c.BalanceGroupByName("group_filter"))
	assert.Nil(t, c.BalanceGroupByName("nope"))

	require.NotNil(t, c.ProfileByName("default"))
	assert.Nil(t, c.ProfileByName("fast"))

	require.NotNil(t, c.BalanceGroupOf("F2"))
	assert.Equal(t, "group_filter", c.BalanceGroupOf("F2").Name)
	assert.Nil(t, c.BalanceGroupOf("F9"))

	// Lookups return pointers into the configuration.
	c.LinkByName("L1").IgnoreParity = true
	assert.True(t, c.Links[0].IgnoreParity)
}
