package main

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
)

// commentLines lists a file's comments (whole lines and trailing ones).
func commentLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if i := strings.Index(l, "#"); i >= 0 {
			out = append(out, strings.TrimSpace(l[i:]))
		}
	}
	return out
}

// TestCLIEditsKeepTheFile: the operator's commented file (the example
// site) survives 10 CLI edits with every comment in place, and an edit
// followed by its undo gives back the same bytes.
func TestCLIEditsKeepTheFile(t *testing.T) {
	site, err := os.ReadFile("../../examples/site.yaml")
	require.NoError(t, err)
	e := newEnvSite(t, string(site))
	export := func() string { return e.ok("config", "export") }
	require.Equal(t, string(site), export())

	e.ok("port", "add", "3", "--speed", "100G")
	assert.Contains(t, export(), "  - {port: 2, speed: 100G}\n  - {port: 3, speed: 100G}\n  - {port: 11, speed: 100G}\n",
		"added after the next lower port, in the list's style")
	e.ok("port", "del", "3")
	assert.Equal(t, string(site), export(), "port add 3 + port del 3 is byte-identical")

	edits := [][]string{
		{"port", "add", "3", "--speed", "100G"},
		{"port", "add", "5", "--speed", "100G"},
		{"link", "add", "L3", "--lan", "P44", "--wan", "P43"},
		{"profile", "set", "default", "--interval", "50ms"},
		{"filter-group", "set", "F2", "--cores", "15"},
		{"rule", "add", "dns", "--prio", "700", "--match", "proto udp l4-port 53", "--action", "bypass"},
		{"rule", "del", "multicast-v6"},
		{"link", "del", "L3", "--force"},
		{"port", "del", "5"},
		{"profile", "set", "default", "--loss-threshold", "4"},
	}
	for _, args := range edits {
		e.ok(args...)
	}
	out := export()
	assert.Equal(t, commentLines(string(site)), commentLines(out), "every comment in place after 10 edits:\n%s", out)
	assert.Contains(t, out, "    interval: 50ms         # one keep-alive per filter per interval\n")
	assert.Contains(t, out, "  - {name: F2, lan: P12, wan: P11, cores: 15}\n")
	assert.NotContains(t, out, "multicast-v6")
	cfg, err := config.Parse([]byte(out))
	require.NoError(t, err)
	assert.Equal(t, uint32(4), cfg.Profiles[0].LossThreshold)
	assert.Contains(t, out, "name: dns")
}

// TestRuleSetKeepsTheFile: rule set edits a rule where it stands in the
// operator's file (same place, every comment kept), and each edit
// followed by its undo gives back the same bytes.
func TestRuleSetKeepsTheFile(t *testing.T) {
	site, err := os.ReadFile("../../examples/site.yaml")
	require.NoError(t, err)
	e := newEnvSite(t, string(site))
	export := func() string { return e.ok("config", "export") }
	order := func(out string) []string {
		cfg, err := config.Decode([]byte(out))
		require.NoError(t, err)
		return ruleNames(cfg)
	}
	want := order(string(site))

	tests := []struct {
		name       string
		edit, undo []string
		changed    []string // lines of the edited file
	}{
		{name: "action", edit: []string{"bgp", "--action", "balance:group_filter"}, undo: []string{"bgp", "--action", "bypass"},
			changed: []string{"      l4_port: 179 # source or destination port\n    action: balance group_filter\n  - name: multicast\n"}},
		{name: "match and links", edit: []string{"vlan-balanced", "--match", "vlan 1,100-120", "--link", "L1"},
			undo:    []string{"vlan-balanced", "--match", "vlan 1,100-110", "--link", "all"},
			changed: []string{"    links: [L1]\n", "      vlan: [1, 100-120] # outer VLAN 1 or 100..110\n"}},
		{name: "priority below every other", edit: []string{"bgp", "--priority", "2"}, undo: []string{"bgp", "--prio", "1000"},
			changed: []string{"  - name: bgp\n    priority: 2\n"}},
		{name: "exceptions", edit: []string{"multicast", "--not", "dst 224.0.0.0/24", "--not", "src 10.0.0.0/8"}, undo: []string{"multicast", "--clear-not"},
			changed: []string{"      dst: 224.0.0.0/4\n    action: bypass\n    not:\n      - dst: 224.0.0.0/24\n      - src: 10.0.0.0/8\n"}},
		{name: "everything at once", edit: []string{"default", "--prio", "5", "--match", "proto udp", "--action", "balance:group_filter", "--not", "vlan 7"},
			undo: []string{"default", "--prio", "1", "--match", "any", "--action", "bypass", "--clear-not"},
			changed: []string{"  # Catch-all: whatever no rule above sent to the filters bypasses them.\n  - name: default\n    priority: 5\n" +
				"    match:\n      proto: udp\n    action: balance group_filter\n    not:\n      - vlan:\n          - 7\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := export()
			e.ok(append([]string{"rule", "set"}, tt.edit...)...)
			out := export()
			assert.NotEqual(t, before, out)
			for _, l := range tt.changed {
				assert.Contains(t, out, l)
			}
			assert.Equal(t, commentLines(string(site)), commentLines(out), "every comment in place:\n%s", out)
			assert.Equal(t, want, order(out), "the rule keeps its place in the file")
			e.ok(append([]string{"rule", "set"}, tt.undo...)...)
			assert.Equal(t, before, export(), "the edit and its undo are byte-identical")
		})
	}
}
