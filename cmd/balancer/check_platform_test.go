package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bigSite is examples/site.yaml on platform with two balance groups of
// 2^16 slots each (131,072 slots in all: a Tofino build's whole slot
// table, eight times BMv2's).
func bigSite(t *testing.T, platform string) string {
	t.Helper()
	data, err := os.ReadFile("../../examples/site.yaml")
	require.NoError(t, err)
	s := strings.Replace(string(data), "platform: sim", "platform: "+platform, 1)
	old := `balance_groups:
  - name: group_filter
    members: [F1, F2, F3]
    profile: default
    slot_bits: 12`
	require.Contains(t, s, old)
	s = strings.Replace(s, old, `balance_groups:
  - name: group_filter
    members: [F1, F2]
    profile: default
    slot_bits: 16
  - name: group_b
    members: [F3]
    profile: default
    slot_bits: 16`, 1)
	path := filepath.Join(t.TempDir(), platform+".yaml")
	require.NoError(t, os.WriteFile(path, []byte(s), 0o600))
	return path
}

// config check compiles a site against its own platform's build: a
// wedge100bf-32x site with 2 x 65,536 slots fits the Tofino build's
// 131,072-entry slot table; the same site on bmv2 (and sim) is refused,
// naming the size.
func TestConfigCheckTakesThePlatform(t *testing.T) {
	r := runCLI(t, "", "config", "check", bigSite(t, "wedge100bf-32x"))
	require.Equal(t, exitOK, r.code, "stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	assertRows(t, r.stdout,
		"BalancerIngress.slots 131072 131072 100.0%",
		"BalancerIngress.flow_rules 9 4096 0.2%")
	assert.Contains(t, r.stdout, "valid for platform wedge100bf-32x")

	for _, p := range []string{"bmv2", "sim"} {
		r := runCLI(t, "", "config", "check", bigSite(t, p))
		assert.Equal(t, exitError, r.code, "%s: stdout:\n%s", p, r.stdout)
		assert.Contains(t, r.stderr, "balance_groups: 131072 slots in all exceed the 16384 slots of platform "+p)
	}

	// The site's own size on each platform: the slot table's capacity is
	// the platform build's.
	data, err := os.ReadFile("../../examples/site.yaml")
	require.NoError(t, err)
	for p, capacity := range map[string]string{"sim": "16384", "bmv2": "16384", "wedge100bf-32x": "131072"} {
		path := filepath.Join(t.TempDir(), p+".yaml")
		require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(data), "platform: sim", "platform: "+p, 1)), 0o600))
		r := runCLI(t, "", "config", "check", path)
		require.Equal(t, exitOK, r.code, "%s: %s", p, r.stderr)
		assertRows(t, r.stdout, "BalancerIngress.slots 4096 "+capacity+" "+map[string]string{"16384": "25.0%", "131072": "3.1%"}[capacity])
	}
}
