package config_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
)

// messages splits a joined error into its messages.
func messages(err error) []string {
	if err == nil {
		return nil
	}
	return strings.Split(err.Error(), "\n")
}

// basePorts is a port set most cases build on: 1, 2, 9..14 unbroken, 4
// broken out into 4 lanes.
const basePorts = `
ports:
  - {port: 1, speed: 100G}
  - {port: 2, speed: 100G}
  - {port: 4, speed: 10G, breakout: 4}
  - {port: 9, speed: 100G}
  - {port: 10, speed: 100G}
  - {port: 11, speed: 100G}
  - {port: 12, speed: 100G}
  - {port: 13, speed: 100G}
  - {port: 14, speed: 100G}
`

func TestParseRejects(t *testing.T) {
	tests := []struct {
		name string
		yaml string // or file, under testdata/
		file string
		want []string
	}{
		{
			name: "unknown port",
			yaml: `
ports: [{port: 9, speed: 100G}]
links: [{name: L1, lan: P10, wan: P9}]
filter_groups: [{name: F1, lan: P77, wan: "40/0"}]
`,
			want: []string{
				"links[0].lan: unknown port P10: port 10 is not defined; add it to ports (balancer port add 10 --speed 100G)",
				"filter_groups[0].lan: unknown port P77: front-panel ports are 1..32 and lanes 1..4 (P9 is port 9, P41 is port 4 lane 1)",
				"filter_groups[0].wan: unknown port 40/0: front-panel ports are numbered 1..32",
			},
		},
		{
			name: "bad port name",
			yaml: `
ports: [{port: 9, speed: 100G}, {port: 10, speed: 100G}]
links: [{name: L1, lan: X10, wan: "9/"}]
`,
			want: []string{
				`links[0].lan: "X10" is not a port name; write P<port>, P<port><lane>, <port>/<lane> or <port>`,
				`links[0].wan: "9/" is not a port name; write P<port>, P<port><lane>, <port>/<lane> or <port>`,
			},
		},
		{
			name: "ambiguous port name",
			yaml: `
ports:
  - {port: 1, speed: 10G, breakout: 4}
  - {port: 11, speed: 100G}
  - {port: 2, speed: 100G}
links: [{name: L1, lan: P2, wan: P11}]
`,
			want: []string{
				"links[0].wan: P11 is ambiguous: port 1 lane 1 or port 11; write 1/1 or 11/0",
			},
		},
		{
			name: "lane on an unbroken port",
			yaml: `
ports: [{port: 9, speed: 100G}, {port: 2, speed: 100G}]
links: [{name: L1, lan: P2, wan: "9/1"}]
filter_groups: [{name: F1, lan: "9/2", wan: P91}]
`,
			want: []string{
				"links[0].wan: 9/1: port 9 is not broken out, so it has no lane 1",
				"filter_groups[0].lan: 9/2: port 9 is not broken out, so it has no lane 2",
				"filter_groups[0].wan: P91: port 9 is not broken out, so it has no lane 1",
			},
		},
		{
			name: "lane beyond breakout and whole broken-out port",
			yaml: `
ports: [{port: 4, speed: 25G, breakout: 4}]
links: [{name: L1, lan: "4/6", wan: P45}]
filter_groups: [{name: F1, lan: P4, wan: "4/0"}]
`,
			want: []string{
				"links[0].lan: 4/6: port 4 has 4 lanes, so there is no lane 6",
				"links[0].wan: P45: port 4 has 4 lanes, so there is no lane 5",
				"filter_groups[0].lan: P4: port 4 is broken out; name one of its lanes, P41..P44 (4/1..4/4)",
				"filter_groups[0].wan: 4/0: port 4 is broken out; name one of its lanes, P41..P44 (4/1..4/4)",
			},
		},
		{
			name: "port problems",
			yaml: `
ports:
  - {port: 4, speed: 10G, breakout: 4}
  - {port: 4, speed: 10G, breakout: 4}
  - {port: 33, speed: 100G}
  - {port: 5}
  - {port: 6, speed: 1G}
  - {port: 7, speed: 100G, breakout: 2}
  - {port: 8, speed: 100G, breakout: 4}
  - {port: 0, speed: 10G}
`,
			want: []string{
				"ports[1].port: port 4 is already defined by ports[0]",
				"ports[2].port: 33 is out of range 1..32",
				"ports[3].speed: missing; one of 10G, 25G, 40G, 50G, 100G",
				`ports[4].speed: "1G" is not one of 10G, 25G, 40G, 50G, 100G`,
				"ports[5].breakout: 2 is not supported; use 0 (none) or 4",
				"ports[6].speed: a port broken out into 4 lanes runs 10G or 25G lanes, not 100G",
				"ports[7].port: 0 is out of range 1..32",
				"ports[7].speed: port 0 is whole (not broken out): it runs 40G, 50G or 100G; for 10G lanes set breakout: 4",
			},
		},
		{
			name: "port used twice",
			yaml: basePorts + `
links:
  - {name: L1, lan: P10, wan: P9}
  - {name: L2, lan: "10/0", wan: "9"}
  - {name: L3, lan: P12, wan: P12}
filter_groups:
  - {name: F1, lan: P10, wan: P41}
`,
			want: []string{
				"links[1].lan: P10 is already used by links[0].lan",
				"links[1].wan: P9 is already used by links[0].wan",
				"links[2].wan: P12 is already used by links[2].lan",
				"filter_groups[0].lan: P10 is already used by links[0].lan",
			},
		},
		{
			name: "lan/wan parity",
			yaml: basePorts + `
links:
  - {name: L1, lan: P41, wan: P42}
  - {name: L2, lan: P9, wan: P10}
  - {name: L3, lan: P43, wan: P44, ignore_parity: true}
filter_groups:
  - {name: F1, lan: P1, wan: P2, ignore_parity: true}
  - {name: F2, lan: P11, wan: P13}
`,
			want: []string{
				"links[0].lan: P41 is odd (WAN side); a LAN port must be even (set ignore_parity to override)",
				"links[0].wan: P42 is even (LAN side); a WAN port must be odd (set ignore_parity to override)",
				"links[1].lan: P9 is odd (WAN side); a LAN port must be even (set ignore_parity to override)",
				"links[1].wan: P10 is even (LAN side); a WAN port must be odd (set ignore_parity to override)",
				"filter_groups[1].lan: P11 is odd (WAN side); a LAN port must be even (set ignore_parity to override)",
			},
		},
		{
			name: "missing sides and names",
			yaml: basePorts + `
links:
  - {lan: P10}
filter_groups:
  - {name: F1, wan: P1}
`,
			want: []string{
				"links[0].name: missing",
				"links[0].wan: missing",
				"filter_groups[0].lan: missing",
			},
		},
		{
			name: "ids out of range or duplicated",
			yaml: basePorts + `
links:
  - {name: L1, id: 64, lan: P42, wan: P41}
  - {name: L2, id: 3, lan: P10, wan: P9}
  - {name: L3, id: 3, lan: P44, wan: P43}
filter_groups:
  - {name: F1, id: 64, lan: P2, wan: P1}
  - {name: F2, lan: P12, wan: P11}
  - {name: F3, lan: P14, wan: P13}
balance_groups:
  - {name: g1, id: 16, members: [F1]}
  - {name: g2, id: 5, members: [F2]}
  - {name: g3, id: 5, members: [F3]}
`,
			want: []string{
				"links[0].id: 64 is out of range 0..63",
				`links[2].id: 3 is already used by links[1] "L2"`,
				"filter_groups[0].id: 64 is out of range 0..63",
				"balance_groups[0].id: 16 is out of range 0..15",
				`balance_groups[2].id: 5 is already used by balance_groups[1] "g2"`,
			},
		},
		{
			name: "cores out of range",
			yaml: basePorts + `
defaults: {cores: 2000}
filter_groups:
  - {name: F1, lan: P2, wan: P1}
  - {name: F2, lan: P12, wan: P11, cores: 1025}
balance_groups: [{name: g, members: [F1, F2]}]
`,
			want: []string{
				"defaults.cores: 2000 is out of range 1..1024 cores",
				"filter_groups[0].cores: 2000 is out of range 1..1024 cores",
				"filter_groups[1].cores: 1025 is out of range 1..1024 cores",
			},
		},
		{
			name: "duplicate and bad names",
			yaml: basePorts + `
links:
  - {name: L1, lan: P42, wan: P41}
  - {name: L1, lan: P44, wan: P43}
  - {name: all, lan: P10, wan: P9}
filter_groups:
  - {name: F1, lan: P2, wan: P1}
  - {name: F1, lan: P12, wan: P11}
  - {name: "my filter", lan: P14, wan: P13}
balance_groups:
  - {name: g, members: [F1]}
  - {name: g, members: ["my filter"]}
profiles:
  - {name: p}
  - {name: p}
rules:
  - {name: r, priority: 2, action: bypass}
  - {name: r, priority: 1, action: bypass}
  - {name: L1, priority: 3, action: bypass}
`,
			want: []string{
				`links[1].name: "L1" is already used by links[0]`,
				`links[2].name: "all" is reserved: in a rule it means every link`,
				`filter_groups[1].name: "F1" is already used by filter_groups[0]`,
				`filter_groups[2].name: "my filter" may hold only letters, digits, '-', '_' and '.'`,
				`balance_groups[1].name: "g" is already used by balance_groups[0]`,
				`profiles[1].name: "p" is already used by profiles[0]`,
				`rules[1].name: "r" is already used by rules[0]`,
			},
		},
		{
			name: "balance group members and profile",
			yaml: basePorts + `
filter_groups:
  - {name: F1, lan: P2, wan: P1}
  - {name: F2, lan: P12, wan: P11}
balance_groups:
  - {name: g1, members: [F1, F9, F1], failure_action: explode}
  - {name: g2, members: [F1, F2], profile: fast}
  - {name: g3, members: []}
  - {name: g4, members: [F2], profile: strict}
profiles:
  - {name: strict, min_active: 2}
`,
			want: []string{
				`balance_groups[0].members[1]: unknown filter group "F9"`,
				`balance_groups[0].members[2]: filter group "F1" is listed twice`,
				`balance_groups[0].failure_action: "explode" is not one of bypass, drop, rebalance, spare`,
				`balance_groups[1].members[0]: filter group "F1" is already a member of balance_groups[0] "g1"`,
				`balance_groups[1].profile: unknown profile "fast"`,
				"balance_groups[2].members: empty; list at least one filter group",
				`balance_groups[3].members[0]: filter group "F2" is already a member of balance_groups[1] "g2"`,
				`balance_groups[3]: profile "strict" has min_active 2 but the group has 1 member`,
			},
		},
		{
			name: "profile values",
			yaml: basePorts + `
filter_groups: [{name: F1, lan: P2, wan: P1}]
balance_groups: [{name: g, members: [F1], profile: p1}]
profiles:
  - {name: p1, interval: -100ms, initial_delay: -1s, failure_action: explode, probe: sideways}
`,
			want: []string{
				"profiles[0].initial_delay: -1s is out of range 10ms..10m (the wait before a filter's first keep-alive counts)",
				"profiles[0].interval: -100ms is out of range 10ms..60s (the keep-alive interval)",
				`profiles[0].failure_action: "explode" is not one of bypass, drop, rebalance, spare`,
				`profiles[0].probe: "sideways" is not one of lan-to-wan, both`,
			},
		},
		{
			name: "slot bits",
			yaml: basePorts + `
defaults: {slot_bits: 17}
filter_groups:
  - {name: F1, lan: P2, wan: P1, cores: 31}
  - {name: F2, lan: P12, wan: P11, cores: 31}
  - {name: F3, lan: P14, wan: P13, cores: 31}
  - {name: F4, lan: P42, wan: P41}
balance_groups:
  - {name: g1, members: [F1, F2, F3], slot_bits: 4}
  - {name: g2, members: [F4]}
`,
			want: []string{
				"defaults.slot_bits: 17 is out of range 1..16 bits",
				"balance_groups[0].slot_bits: slot_bits 4 gives 16 slots for 93 cores; need at least 7 bits",
				"balance_groups[1].slot_bits: 17 is out of range 1..16 bits",
			},
		},
		{
			name: "total slots exceed the sim slot table",
			yaml: basePorts + `
filter_groups:
  - {name: F1, lan: P2, wan: P1}
  - {name: F2, lan: P12, wan: P11}
balance_groups:
  - {name: g1, members: [F1], slot_bits: 14}
  - {name: g2, members: [F2]}
`,
			want: []string{
				"balance_groups: 20480 slots in all exceed the 16384 slots of platform sim",
			},
		},
		{
			name: "total slots exceed the tofino slot table",
			yaml: `platform: wedge100bf-32x` + basePorts + `
filter_groups:
  - {name: F1, lan: P2, wan: P1}
  - {name: F2, lan: P12, wan: P11}
  - {name: F3, lan: P14, wan: P13}
balance_groups:
  - {name: g1, members: [F1], slot_bits: 16}
  - {name: g2, members: [F2], slot_bits: 16}
  - {name: g3, members: [F3], slot_bits: 16}
`,
			want: []string{
				"balance_groups: 196608 slots in all exceed the 131072 slots of platform wedge100bf-32x",
			},
		},
		{
			name: "unknown platform",
			yaml: `platform: tofino9`,
			want: []string{
				`platform: unknown platform "tofino9"; known: bmv2, sim, wedge100bf-32x`,
			},
		},
		{
			name: "port map",
			yaml: `
ports: [{port: 9, speed: 100G}, {port: 10, speed: 100G}]
port_map: {P9: 100, "9/0": 91, P77: 5, "10": 255}
links: [{name: L1, lan: P10, wan: P9}]
`,
			want: []string{
				`port_map["10"]: data-plane port 255 is the CPU port of platform sim`,
				`port_map["P77"]: unknown port P77: front-panel ports are 1..32 and lanes 1..4 (P9 is port 9, P41 is port 4 lane 1)`,
				`port_map["P9"]: P9 is already mapped by port_map["9/0"]`,
				"links[0].lan: P10 has data-plane port 255, the CPU port",
			},
		},
		{
			name: "port map onto a tofino recirculation port",
			yaml: `
platform: wedge100bf-32x
ports: [{port: 9, speed: 100G}, {port: 10, speed: 100G}]
port_map: {P9: 68, "10": 196}
links: [{name: L1, lan: P10, wan: P9}]
`,
			want: []string{
				`port_map["10"]: data-plane port 196 is pipe 1's recirculation port on platform wedge100bf-32x (the data plane's evidence copies arrive there); map the port to a front-panel port`,
				`port_map["P9"]: data-plane port 68 is pipe 0's recirculation port on platform wedge100bf-32x (the data plane's evidence copies arrive there); map the port to a front-panel port`,
				"links[0].lan: P10 has data-plane port 196, pipe 1's recirculation port on platform wedge100bf-32x (the data plane's evidence copies arrive there); give it a front-panel port in port_map",
				"links[0].wan: P9 has data-plane port 68, pipe 0's recirculation port on platform wedge100bf-32x (the data plane's evidence copies arrive there); give it a front-panel port in port_map",
			},
		},
		{
			name: "port map makes two ports one",
			yaml: `
ports: [{port: 9, speed: 100G}, {port: 10, speed: 100G}]
port_map: {P9: 100}
links: [{name: L1, lan: P10, wan: P9}]
`,
			want: []string{
				"links[0].wan: P9 has data-plane port 100, as has links[0].lan",
			},
		},
		{
			name: "ethertypes the data plane parses",
			yaml: basePorts + `
defaults:
  core_tpid: 0x8100
  keepalive: {ethertype: 0x8100}
filter_groups:
  - {name: F1, lan: P2, wan: P1, tpid: 0x88B6}
  - {name: F2, lan: P12, wan: P11, tpid: 0x86DD}
`,
			want: []string{
				"defaults.core_tpid: 0x8100 (VLAN) is parsed by the data plane; pick an ethertype of its own",
				"defaults.keepalive.ethertype: 0x8100 (VLAN) is parsed by the data plane; pick an ethertype of its own",
				"defaults.keepalive.ethertype: 0x8100 is also the core header TPID",
				"filter_groups[1].tpid: 0x86dd (IPv6) is parsed by the data plane; pick an ethertype of its own",
			},
		},
		{
			name: "core header tpid equal to the keep-alive ethertype",
			yaml: basePorts + `
filter_groups:
  - {name: F1, lan: P2, wan: P1, tpid: 0x88B6}
  - {name: F2, lan: P12, wan: P11, tpid: 0x88B7}
`,
			want: []string{
				"filter_groups[0].tpid: 0x88b6 is also the keep-alive ethertype",
			},
		},
		{
			name: "heartbeat entry that sets nothing",
			yaml: `
defaults:
  heartbeat:
    - {ethertype: 0x88B7}
    - {}
    - dst_mac: 00:e0:ed:00:00:00/ff:ff:ff:00:00:00
`,
			want: []string{
				"defaults.heartbeat[1]: sets nothing; set dst_mac or ethertype",
			},
		},
		{
			name: "rule references, actions and priorities",
			yaml: basePorts + `
links: [{name: L1, lan: P10, wan: P9}]
filter_groups: [{name: F1, lan: P2, wan: P1}]
balance_groups: [{name: g, members: [F1]}]
rules:
  - {name: a, priority: 10, links: [L1, L9], action: bypass}
  - {name: b, priority: 10, action: balance nope}
  - {name: c, priority: 0, action: drop}
  - {name: d, priority: 70000, action: balance}
  - {name: e, priority: 20, action: balance g extra}
  - {name: f, priority: 30, links: [all, L1], action: ""}
  - {name: g, priority: 40, links: [L1, L1], action: balance g}
  - {name: h, priority: 50, links: [all], action: balance g}
`,
			want: []string{
				`rules[0].links[1]: rule a uses link "L9", which is not defined (links: L1); define the link or take it out of the rule`,
				`rules[1].priority: 10 is already used by rules[0] "a"; two rules with one priority are ambiguous in a TCAM`,
				`rules[1].action: unknown balance group "nope"`,
				"rules[2].priority: 0 is out of range 1..65535 (higher wins)",
				`rules[2].action: "drop" is not "bypass" or "balance <group>"`,
				"rules[3].priority: 70000 is out of range 1..65535 (higher wins)",
				`rules[3].action: "balance" names no balance group; write "balance <group>"`,
				`rules[4].action: "balance g extra" is not "bypass" or "balance <group>"`,
				`rules[5].links[0]: "all" cannot be combined with link names`,
				`rules[5].action: missing; write "bypass" or "balance <group>"`,
				`rules[6].links[1]: link "L1" is listed twice`,
			},
		},
		{
			name: "match sanity",
			yaml: `
rules:
  - name: vlans
    priority: 1
    match: {vlan: [0, 4095, 110-100, 100-5000], inner_vlan: [5], vlan_depth: 1}
    action: bypass
  - name: depths
    priority: 2
    match: {vlan_depth: 4, mpls_depth: 9}
    action: bypass
  - name: family
    priority: 3
    match: {src: 10.0.0.0/8, dst: "2001:db8::/32"}
    action: bypass
  - name: l4-proto
    priority: 4
    match: {proto: icmp, l4_dst: 80, l4_src: 70000}
    action: bypass
  - name: l4-both
    priority: 5
    match: {proto: udp, l4_port: 53, l4_dst: 53}
    action: bypass
  - name: catch-all
    priority: 6
    match: {}
    action: bypass
  - name: untagged
    priority: 7
    match: {vlan_depth: 0, vlan: [10]}
    action: bypass
  - name: nots
    priority: 8
    match: {proto: tcp}
    not: [{}, {l4_dst: 100-90}]
    action: bypass
  - name: l4-without-proto
    priority: 9
    match: {l4_dst: 443, vlan_depth: 2, inner_vlan: [7], mpls_depth: 8}
    action: bypass
`,
			want: []string{
				"rules[0].match.vlan[0]: 0 is out of range 1..4094",
				"rules[0].match.vlan[1]: 4095 is out of range 1..4094",
				"rules[0].match.vlan[2]: range 110-100 has lo > hi",
				"rules[0].match.vlan[3]: 100-5000 is out of range 1..4094",
				"rules[0].match.vlan_depth: 1 contradicts inner_vlan, which needs 2 tags",
				"rules[1].match.vlan_depth: 4 is out of range 0..3",
				"rules[1].match.mpls_depth: 9 is out of range 0..8",
				"rules[2].match.dst: 2001:db8::/32 is IPv6 but src 10.0.0.0/8 is IPv4",
				"rules[3].match.l4_src: 70000 is out of range 0..65535",
				"rules[3].match.l4_src: l4 ports need proto tcp or udp, not icmp",
				"rules[3].match.l4_dst: l4 ports need proto tcp or udp, not icmp",
				"rules[4].match.l4_port: cannot be combined with l4_src or l4_dst",
				"rules[6].match.vlan_depth: 0 (untagged) contradicts vlan",
				"rules[7].not[0]: sets nothing; it would turn the whole rule into bypass",
				"rules[7].not[1].l4_dst: range 100-90 has lo > hi",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.yaml)
			if tt.file != "" {
				var err error
				data, err = os.ReadFile("testdata/" + tt.file)
				require.NoError(t, err)
			}
			c, err := config.Parse(data)
			require.Error(t, err)
			assert.Nil(t, c)
			assert.Equal(t, tt.want, messages(err))
			// Every validation problem is a *FieldError with its path.
			fes := config.FieldErrors(err)
			require.Len(t, fes, len(tt.want))
			for i, fe := range fes {
				assert.Equal(t, tt.want[i], fe.Error())
				assert.True(t, strings.HasPrefix(tt.want[i], fe.Path+": "), "path %q", fe.Path)
			}
		})
	}
}
