package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProblemsNameObjects: a problem inside a named object says which,
// by the name the operator wrote; the path stays for finding it in the
// file; problems outside objects read as before.
func TestProblemsNameObjects(t *testing.T) {
	_, err := Parse([]byte(`site: s
platform: sim
ports:
  - {port: 1, speed: 100G}
  - {port: 2, speed: 100G}
  - {port: 3, speed: 100G}
  - {port: 4, speed: 100G}
links:
  - {name: uplink, lan: P2, wan: P1}
filter_groups:
  - {name: dpi-a, lan: P3, wan: P4, cores: 2}
balance_groups:
  - {name: edge, members: [dpi-a, dpi-z]}
rules:
  - {name: web, priority: 5, action: balance nosuch}
`))
	require.Error(t, err)
	assert.Equal(t, []string{
		`filter group dpi-a: filter_groups[0].lan: P3 is odd (WAN side); a LAN port must be even (set ignore_parity to override)`,
		`filter group dpi-a: filter_groups[0].wan: P4 is even (LAN side); a WAN port must be odd (set ignore_parity to override)`,
		`balance group edge: balance_groups[0].members[1]: unknown filter group "dpi-z"`,
		`rule web: rules[0].action: unknown balance group "nosuch"`,
	}, Problems(err))
	// Error keeps the path alone (what programs match on).
	assert.Contains(t, err.Error(), "\nbalance_groups[0].members[1]: unknown filter group \"dpi-z\"")
}
