package config_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
)

// sparesSite has three filter groups of 2, 2 and 4 cores (F3 is the
// spare) and one balance group; %s is the balance group's extra fields.
const sparesSite = `ports: [{port: 1, speed: 100G}, {port: 2, speed: 100G}, {port: 3, speed: 100G}, {port: 4, speed: 100G}, {port: 5, speed: 100G}, {port: 6, speed: 100G}, {port: 7, speed: 100G}, {port: 8, speed: 100G}]
filter_groups:
  - {name: F1, lan: P2, wan: P1, cores: 2}
  - {name: F2, lan: P4, wan: P3, cores: 2}
  - {name: F3, lan: P6, wan: P5, cores: %d}
  - {name: F4, lan: P8, wan: P7, cores: 2}
profiles:
  - {name: default}
  - {name: probing, probe_payload: "x", fail_open_action: spare}
balance_groups:
  - {name: g, members: [F1, F2], %s}
`

func TestBalanceGroupSpares(t *testing.T) {
	c, err := config.Parse(fmt.Appendf(nil, sparesSite, 4, "spares: [F3], failure_action: spare"))
	require.NoError(t, err)
	g := c.BalanceGroupByName("g")
	assert.Equal(t, []string{"F3"}, g.Spares)
	assert.Equal(t, config.FailSpare, c.Action(g))
	assert.Equal(t, g, c.BalanceGroupWith("F3"), "a spare belongs to its group")
	assert.Nil(t, c.BalanceGroupOf("F3"), "but is not a member")
	assert.Equal(t, uint32(4), c.TotalCores(g), "a spare's cores are not dealt slots")
	// The fail-open action alone may ask for spares.
	_, err = config.Parse(fmt.Appendf(nil, sparesSite, 2, "spares: [F3], profile: probing"))
	require.NoError(t, err)
	// Written back, the spares stay (round trip).
	out, err := c.Marshal()
	require.NoError(t, err)
	assert.Contains(t, string(out), "spares:")

	// A --dry-run (and every apply) lists the spares changed.
	plain, err := config.Parse(fmt.Appendf(nil, sparesSite, 4, "failure_action: rebalance"))
	require.NoError(t, err)
	changes := strings.Join(config.Diff(plain, c), "\n")
	assert.Contains(t, changes, "spares")
	assert.Contains(t, changes, "F3")
	t.Logf("changes: %s", changes)

	for _, tt := range []struct {
		cores        int
		fields, want string
	}{
		{1, "spares: [F3], failure_action: spare", `balance_groups[0].spares[0]: spare "F3" has 1 core but member "F1" has 2: a spare takes a member's share core for core; give "F3" at least 2 cores or remove it`},
		{2, "failure_action: spare", `balance_groups[0].spares: balance group "g" has failure action spare but no spares: list a standby filter group in spares`},
		{2, "profile: probing", `balance_groups[0].spares: balance group "g" uses profile "probing" whose fail_open_action is spare but has no spares`},
		{2, "spares: [F3]", `balance_groups[0].spares: balance group "g" has spares but its failure action is bypass: set failure_action: spare, or remove the spares`},
		{2, "spares: [F9], failure_action: spare", `balance_groups[0].spares[0]: unknown filter group "F9"`},
		{2, "spares: [F1], failure_action: spare", `balance_groups[0].spares[0]: filter group "F1" is listed twice in balance group "g" (a spare is not a member)`},
		{2, "spares: [F3, F3], failure_action: spare", `balance_groups[0].spares[1]: filter group "F3" is listed twice in balance group "g"`},
		{2, "failure_action: standby", `balance_groups[0].failure_action: "standby" is not one of bypass, drop, rebalance, spare`},
	} {
		t.Run(tt.fields, func(t *testing.T) {
			_, err := config.Parse(fmt.Appendf(nil, sparesSite, tt.cores, tt.fields))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	// A spare of one group is no member or spare of another.
	two := fmt.Sprintf(sparesSite, 2, "spares: [F3], failure_action: spare") + "  - {name: h, members: [F4], spares: [F3], failure_action: spare}\n"
	_, err = config.Parse([]byte(two))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `balance_groups[1].spares[0]: filter group "F3" is already in balance_groups[0] "g" (as a spare)`)
	two = fmt.Sprintf(sparesSite, 2, "spares: [F3], failure_action: spare") + "  - {name: h, members: [F3]}\n"
	_, err = config.Parse([]byte(two))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `balance_groups[1].members[0]: filter group "F3" is already a member of balance_groups[0] "g" (as a spare)`)
}
