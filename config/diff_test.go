package config_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
)

func TestDiffFieldLevel(t *testing.T) {
	parse := func(s string) *config.Config {
		c, err := config.Parse([]byte(s))
		require.NoError(t, err, s)
		return c
	}
	base := `
site: a
ports: [{port: 1, speed: 100G}, {port: 2, speed: 100G}, {port: 9, speed: 100G}, {port: 10, speed: 100G}]
links: [{name: L1, lan: P10, wan: P9}]
filter_groups: [{name: F1, lan: P2, wan: P1}]
balance_groups: [{name: g, members: [F1]}]
`
	a := parse(base)
	assert.Empty(t, config.Diff(a, parse(base)))
	assert.Equal(t, []string{`~ site: "a" -> "b"`}, config.Diff(a, parse(strings.Replace(base, "site: a", "site: b", 1))),
		"a change of the site alone is a change")

	b := parse(`
site: b
ports: [{port: 1, speed: 100G}, {port: 2, speed: 100G}, {port: 9, speed: 100G}, {port: 10, speed: 100G}]
links: [{name: L1, lan: P10, wan: P9}]
filter_groups: [{name: F1, lan: P2, wan: P1, cores: 8}]
balance_groups: [{name: g, members: [F1], failure_action: drop}]
profiles: [{name: default, interval: 50ms}]
`)
	assert.Equal(t, []string{
		`~ site: "a" -> "b"`,
		"~ filter-group F1: cores 1 -> 8",
		"~ balance-group g: failure_action bypass -> drop",
		"~ profile default: interval 100ms -> 50ms",
	}, config.Diff(a, b))
	assert.Equal(t, []string{"- link L1"}, config.Diff(a, parse(`
site: a
ports: [{port: 1, speed: 100G}, {port: 2, speed: 100G}, {port: 9, speed: 100G}, {port: 10, speed: 100G}]
filter_groups: [{name: F1, lan: P2, wan: P1}]
balance_groups: [{name: g, members: [F1]}]
`)))
}
