package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBadInputChangesNothing feeds every kind of bad input an operator can
// give: each gets a non-zero exit, a message naming the object and the fix,
// and leaves the running configuration as it was.
func TestBadInputChangesNothing(t *testing.T) {
	withRuleOnL2 := strings.Replace(testSite, "  - {name: default, priority: 1, action: bypass}",
		"  - {name: r6, priority: 600, links: [L2], action: bypass}\n  - {name: default, priority: 1, action: bypass}", 1)
	big := testSite + "\n# " + strings.Repeat("x", 10<<20) + "\n"

	tests := []struct {
		name  string
		site  string            // running configuration; testSite when empty
		files map[string]string // written to the test's directory; FILE in args is replaced by the path
		args  []string
		code  int
		want  []string // each must be in stderr
	}{
		{name: "cores 0", args: []string{"filter-group", "set", "F1", "--cores", "0"}, code: exitUsage,
			want: []string{"--cores 0 is out of range 1..1024 cores"}},
		{name: "cores 0 on add", args: []string{"filter-group", "add", "F9", "--lan", "P44", "--wan", "P43", "--cores", "0"}, code: exitUsage,
			want: []string{"--cores 0 is out of range 1..1024 cores", "leave the flag out"}},
		{name: "interval 0s", args: []string{"profile", "set", "default", "--interval", "0s"}, code: exitUsage,
			want: []string{"--interval 0s is out of range 10ms..60s"}},
		{name: "interval 1ms", args: []string{"profile", "set", "default", "--interval", "1ms"}, code: exitUsage,
			want: []string{"--interval 1ms is out of range 10ms..60s"}},
		{name: "flag value too large: no strconv in the message", args: []string{"rule", "add", "x", "--prio", "99999999999", "--match", "any", "--action", "bypass"}, code: exitUsage,
			want: []string{"rule x: --prio 99999999999 is out of range: want a whole number 1..65535"}},
		{name: "cores not a number names the filter group and the real range", args: []string{"filter-group", "add", "F9", "--lan", "P44", "--wan", "P43", "--cores", "many"}, code: exitUsage,
			want: []string{`filter group F9: --cores "many": want a whole number 1..1024 cores`}},
		{name: "min_active -1 in a file: the real range and the profile", args: []string{"config", "apply", "-f", "FILE"}, code: exitError,
			files: map[string]string{"FILE": "site: x\nprofiles:\n  - {name: p, min_active: -1}\n"}, want: []string{"profile p: profiles[0].min_active: -1 is out of range 1..64 members"}},
		{name: "cores too large in a file", args: []string{"config", "check", "FILE"}, code: exitError,
			files: map[string]string{"FILE": "site: x\nfilter_groups:\n  - {name: F1, lan: P2, wan: P1, cores: 99999999999}\n"}, want: []string{"filter group F1: filter_groups[0].cores: 99999999999 is out of range 1..1024 cores"}},
		{name: "flag value not a number", args: []string{"filter-group", "set", "F1", "--cores", "abc"}, code: exitUsage,
			want: []string{`filter group F1: --cores "abc": want a whole number 1..1024 cores`}},
		{name: "a list where a rule goes", args: []string{"config", "apply", "-f", "FILE"}, code: exitError,
			files: map[string]string{"FILE": "site: x\nrules:\n  - [a, b]\n"}, want: []string{"rules[0]: a list here; want a rule (a mapping)"}},
		{name: "a number too large in a file", args: []string{"config", "apply", "-f", "FILE"}, code: exitError,
			files: map[string]string{"FILE": "site: x\nrules:\n  - {name: a, priority: 99999999999, action: bypass}\n"}, want: []string{"rule a: rules[0].priority: 99999999999 is out of range 1..65535 (higher wins)"}},
		{name: "trace: bad address exits as locate does", args: []string{"trace", "--link", "L1", "--side", "lan", "--src", "1.2.3.999", "--dst", "1.1.1.1", "--proto", "tcp"}, code: exitUsage,
			want: []string{`--src "1.2.3.999" is not an IPv4 or IPv6 address`}},
		{name: "locate: bad address", args: []string{"locate", "1.2.3.999", "1.1.1.1", "tcp"}, code: exitUsage,
			want: []string{`SRC "1.2.3.999" is not an IPv4 or IPv6 address`}},
		{name: "interval 10h", args: []string{"profile", "set", "default", "--interval", "10h"}, code: exitUsage,
			want: []string{"--interval 10h is out of range 10ms..60s"}},
		{name: "loss threshold 0", args: []string{"profile", "set", "default", "--loss-threshold", "0"}, code: exitUsage,
			want: []string{"--loss-threshold 0 is out of range 1..1000 keep-alives"}},
		{name: "stall hold 0s", args: []string{"profile", "set", "default", "--stall-hold", "0s"}, code: exitUsage,
			want: []string{"--stall-hold 0s is out of range 10ms..60s"}},
		{name: "stall guard typo", args: []string{"profile", "set", "default", "--stall-guard", "hodl"}, code: exitUsage,
			want: []string{`--stall-guard "hodl": want hold or off`}},
		{name: "min active 0", args: []string{"profile", "add", "p", "--min-active", "0"}, code: exitUsage,
			want: []string{"--min-active 0 is out of range 1..64 members"}},
		{name: "slot bits 0", args: []string{"balance-group", "set", "group_filter", "--slot-bits", "0"}, code: exitUsage,
			want: []string{"--slot-bits 0 is out of range 1..16 bits"}},
		{name: "priority 0", args: []string{"rule", "add", "r", "--prio", "0", "--match", "any", "--action", "bypass"}, code: exitUsage,
			want: []string{"--prio 0 is out of range 1..65535"}},
		{name: "tpid 0", args: []string{"filter-group", "set", "F1", "--tpid", "0"}, code: exitUsage,
			want: []string{"--tpid 0 is not an ethertype"}},
		{name: "lane beyond 4", args: []string{"link", "add", "L9", "--lan", "P99", "--wan", "P43"}, code: exitError,
			want: []string{"link L9: --lan P99: unknown port P99: front-panel ports are 1..32 and lanes 1..4"}},
		{name: "undefined port", args: []string{"link", "add", "L9", "--lan", "P16", "--wan", "P43"}, code: exitError,
			want: []string{"link L9: --lan P16: unknown port P16: port 16 is not defined; add it to ports (balancer port add 16 --speed 100G)"}},
		{name: "port of a filter", args: []string{"link", "add", "L9", "--lan", "P0", "--wan", "P1"}, code: exitError,
			want: []string{"link L9: --lan P0: unknown port P0", "--wan P1: the port is already used by filter group F1 (wan P1)"}},
		{name: "live link", args: []string{"link", "del", "L1"}, code: exitError,
			want: []string{"it would remove link L1", "repeat with --force"}},
		{name: "link used by a rule", site: withRuleOnL2, args: []string{"link", "del", "L2", "--force"}, code: exitError,
			want: []string{"rule r6 still uses link L2"}},
		{name: "port with lanes in use", args: []string{"port", "del", "4"}, code: exitError,
			want: []string{"port 4 is still used by link L1 (lan P42), link L1 (wan P41): delete or move them first"}},
		{name: "file of only ---", files: map[string]string{"f.yaml": "---\n"}, args: []string{"config", "apply", "-f", "FILE"}, code: exitError,
			want: []string{"it would remove links L1, L2; filter groups F1, F2, F3; balance group group_filter", "--force"}},
		{name: "file of a comment", files: map[string]string{"f.yaml": "# nothing here\n"}, args: []string{"config", "apply", "-f", "FILE"}, code: exitError,
			want: []string{"it would remove links L1, L2"}},
		{name: "file of null", files: map[string]string{"f.yaml": "null\n"}, args: []string{"config", "apply", "-f", "FILE"}, code: exitError,
			want: []string{"it would remove links L1, L2"}},
		{name: "file of a site name", files: map[string]string{"f.yaml": "site: x\n"}, args: []string{"config", "apply", "-f", "FILE"}, code: exitError,
			want: []string{"it would remove links L1, L2"}},
		{name: "port_map beyond the port width", files: map[string]string{"f.yaml": testSite + "port_map: {P1: 600}\n"},
			args: []string{"config", "apply", "-f", "FILE"}, code: exitError,
			want: []string{`port_map["P1"]: data-plane port 600 is out of range 0..511 (a data-plane port number is 9 bits wide)`}},
		{name: "fraction", files: map[string]string{"f.yaml": strings.Replace(testSite, "priority: 1000,", "priority: 1000.5,", 1)},
			args: []string{"config", "apply", "-f", "FILE"}, code: exitError,
			want: []string{"rules[0].priority: 1000.5 is not a whole number; write an integer"}},
		{name: "interval 1ns in a file", files: map[string]string{"f.yaml": testSite + "profiles: [{name: default, interval: 1ns}]\n"},
			args: []string{"config", "apply", "-f", "FILE"}, code: exitError,
			want: []string{"profiles[0].interval: 1ns is out of range 10ms..60s (the keep-alive interval)"}},
		{name: "explicit zero in a file", files: map[string]string{"f.yaml": strings.Replace(testSite, "cores: 4}", "cores: 0}", 1)},
			args: []string{"config", "apply", "-f", "FILE"}, code: exitError,
			want: []string{"filter_groups[2].cores: 0 is out of range 1..1024 cores"}},
		{name: "type error with path", files: map[string]string{"f.yaml": strings.Replace(testSite, "cores: 4}", "cores: many}", 1)},
			args: []string{"config", "apply", "-f", "FILE"}, code: exitError,
			want: []string{`line 20: filter_groups[2].cores: "many" is text; want a whole number`}},
		{name: "escape in the site name", files: map[string]string{"f.yaml": strings.Replace(testSite, "site: test-site", "site: \"test\\e[31m\"", 1)},
			args: []string{"config", "apply", "-f", "FILE"}, code: exitError,
			want: []string{"site: holds control character U+001B (ESC); remove it"}},
		{name: "raw escape in the file", files: map[string]string{"f.yaml": strings.Replace(testSite, "site: test-site", "site: test\x1b[31m", 1)},
			args: []string{"config", "apply", "-f", "FILE"}, code: exitError,
			want: []string{"line 2 column 11: control character U+001B (ESC) is not allowed; remove it"}},
		{name: "right-to-left override", files: map[string]string{"f.yaml": strings.Replace(testSite, "site: test-site", "site: test\u202esite", 1)},
			args: []string{"config", "apply", "-f", "FILE"}, code: exitError,
			want: []string{"U+202E (RIGHT-TO-LEFT OVERRIDE) is not allowed"}},
		{name: "invalid UTF-8", files: map[string]string{"f.yaml": strings.Replace(testSite, "site: test-site", "site: test\xff", 1)},
			args: []string{"config", "apply", "-f", "FILE"}, code: exitError,
			want: []string{"line 2 column 11: byte 0xff is not UTF-8; save the file as UTF-8"}},
		{name: "10 MB file", files: map[string]string{"f.yaml": big}, args: []string{"config", "apply", "-f", "FILE"}, code: exitError,
			want: []string{"the configuration is 10.0 MiB; the limit is 1 MiB (1048576 bytes)"}},
		{name: "escape in a comment", args: []string{"link", "add", "L3", "--lan", "P44", "--wan", "P43", "--comment", "ok\x1b[2J"}, code: exitUsage,
			want: []string{"--comment holds control character U+001B (ESC) at byte 2; remove it"}},
		{name: "CR in a comment", args: []string{"link", "add", "L3", "--lan", "P44", "--wan", "P43", "--comment", "done\rfake line"}, code: exitUsage,
			want: []string{"--comment holds control character U+000D (CR) at byte 4; remove it"}},
		{name: "NUL in a comment", args: []string{"link", "add", "L3", "--lan", "P44", "--wan", "P43", "--comment", "a\x00b"}, code: exitUsage,
			want: []string{"--comment holds control character U+0000 (NUL)"}},
		{name: "long comment", args: []string{"link", "add", "L3", "--lan", "P44", "--wan", "P43", "--comment", strings.Repeat("c", 2000)}, code: exitUsage,
			want: []string{"--comment is 2000 bytes; the limit is 1024"}},
		{name: "invalid UTF-8 in a name", args: []string{"link", "add", "L\xff", "--lan", "P44", "--wan", "P43"}, code: exitUsage,
			want: []string{`argument 1 ("L\xff") is not valid UTF-8: give it as UTF-8 text`}},
		{name: "invalid UTF-8 in a flag", args: []string{"bypass", "on", "--group", "F\xff"}, code: exitUsage,
			want: []string{`--group "F\xff" is not valid UTF-8`}},
		{name: "control character in a name", args: []string{"link", "add", "L\x1b", "--lan", "P44", "--wan", "P43"}, code: exitError,
			want: []string{`links[2].name: holds control character U+001B (ESC); remove it`}},
		{name: "unknown balance group", args: []string{"slots", "nosuch"}, code: exitError,
			want: []string{`unknown balance group "nosuch" (defined: group_filter)`}},
		{name: "rule set: unknown rule", args: []string{"rule", "set", "DNS", "--prio", "5"}, code: exitError,
			want: []string{`unknown rule "DNS" (rules: bgp, vlan-balanced, default)`}},
		{name: "rule set: nothing to change", args: []string{"rule", "set", "bgp", "--comment", "x"}, code: exitUsage,
			want: []string{"rule bgp: nothing to change: give --prio, --match, --action, --link, --not or --clear-not"}},
		{name: "rule set: match typo", args: []string{"rule", "set", "bgp", "--match", "vlna 100"}, code: exitUsage,
			want: []string{`rule bgp: --match: "vlna": unknown match term`}},
		{name: "rule set: bad exception", args: []string{"rule", "set", "bgp", "--not", "src 10.0.0.0/8", "--not", "vlan 1x"}, code: exitUsage,
			want: []string{`rule bgp: --not 2 ("vlan 1x"): "vlan 1x": bad range "1x"`}},
		{name: "rule set: exceptions given and cleared", args: []string{"rule", "set", "bgp", "--not", "vlan 1", "--clear-not"}, code: exitUsage,
			want: []string{"rule bgp: give either --not or --clear-not, not both"}},
		{name: "rule set: bad action", args: []string{"rule", "set", "bgp", "--action", "balance"}, code: exitUsage,
			want: []string{`rule bgp: --action "balance": want bypass or balance:GROUP`}},
		{name: "rule set: priority 0", args: []string{"rule", "set", "bgp", "--priority", "0"}, code: exitUsage,
			want: []string{"rule bgp: --prio 0 is out of range 1..65535"}},
		{name: "rule set: priority taken", args: []string{"rule", "set", "bgp", "--prio", "500"}, code: exitError,
			want: []string{`rule bgp: --prio 500 is taken by rule "vlan-balanced"; move that one first or pick another`}},
		{name: "rule set: unknown balance group", args: []string{"rule", "set", "bgp", "--action", "balance:nope"}, code: exitError,
			want: []string{`rule bgp: rules[0].action: unknown balance group "nope"`}},
		{name: "rule set: unknown link", args: []string{"rule", "set", "vlan-balanced", "--link", "L1", "--link", "L9"}, code: exitError,
			want: []string{`rule vlan-balanced: rules[1].links[1]: rule vlan-balanced uses link "L9", which is not defined (links: L1, L2)`}},
		{name: "rule set: VLAN out of range", args: []string{"rule", "set", "vlan-balanced", "--match", "vlan 1,5000"}, code: exitError,
			want: []string{"rule vlan-balanced: rules[1].match.vlan[1]: 5000 is out of range 1..4094"}},
		{name: "rule set: past the flow tables", args: []string{"rule", "set", "bgp", "--match", "vlan 1-4094 inner-vlan 1-4094 l4-port 1-65535"}, code: exitError,
			want: []string{"entries for the IPv4 table exceed its 4096 capacity", `rules[0] "bgp" alone expands to`}},
		{name: "offline check", files: map[string]string{"f.yaml": strings.Replace(testSite, "cores: 4}", "cores: 0}", 1)},
			args: []string{"config", "check", "FILE"}, code: exitError,
			want: []string{"filter_groups[2].cores: 0 is out of range 1..1024 cores"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site := tt.site
			if site == "" {
				site = testSite
			}
			e := newEnvSite(t, site)
			dir := t.TempDir()
			args := append([]string(nil), tt.args...)
			for name, body := range tt.files {
				path := filepath.Join(dir, name)
				require.NoError(t, os.WriteFile(path, []byte(body), 0o600))
				for i, a := range args {
					if a == "FILE" {
						args[i] = path
					}
				}
			}
			before, _, err := e.svc.Config(t.Context())
			require.NoError(t, err)
			revs := e.revisions()

			r := e.run(args...)
			assert.Equal(t, tt.code, r.code, "stderr: %s", r.stderr)
			for _, w := range tt.want {
				assert.Contains(t, r.stderr, w)
			}
			assert.Equal(t, 1, strings.Count(r.stderr, "balancer: "), "one message: %s", r.stderr)
			for _, leak := range []string{"strconv.", "cannot unmarshal", "config.", "!!"} {
				assert.NotContains(t, r.stderr, leak, "a Go error leaked")
			}
			after, _, err := e.svc.Config(t.Context())
			require.NoError(t, err)
			assert.Same(t, before, after, "the running configuration is unchanged")
			assert.Equal(t, revs, e.revisions(), "no revision saved")
		})
	}
}

// A wrong --socket says what it is.
func TestSocketNotASocket(t *testing.T) {
	r := runCLI(t, "", "--socket", "/etc/passwd", "status")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "/etc/passwd is not a socket: give the daemon's socket with --socket or $BALANCER_SOCKET")
}
