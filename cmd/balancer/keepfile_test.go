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
