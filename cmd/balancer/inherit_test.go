package main

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
)

// An edit saves what the operator wrote: defaults stay inherited, so a
// profile's failure action reaches the groups that set none of their own.
func TestEditKeepsInheritedValues(t *testing.T) {
	e := newEnv(t)
	e.ok("profile", "add", "strict", "--failure-action", "drop")
	out := e.ok("balance-group", "set", "group_filter", "--profile", "strict")
	assertRows(t, out, "~ balance-group group_filter: profile default -> strict, failure_action bypass -> drop")
	assert.Equal(t, config.FailDrop, e.running().BalanceGroupByName("group_filter").FailureAction,
		"the group follows its new profile's failure action")

	yaml, _ := e.svc.ConfigYAML()
	raw, err := config.Decode(yaml)
	require.NoError(t, err)
	b := raw.BalanceGroupByName("group_filter")
	require.NotNil(t, b)
	assert.Empty(t, b.FailureAction, "no failure action written out for the group")
	assert.Zero(t, raw.Defaults.Cores, "no defaults written out")
	assert.Nil(t, raw.ProfileByName("default"), "the built-in profile is not written out")
	p := raw.ProfileByName("strict")
	require.NotNil(t, p)
	assert.Zero(t, p.Interval, "the profile's interval stays the default")
	assert.Nil(t, raw.Links[0].ID, "an id is written out only when the object would otherwise be renumbered")

	// A profile change reaches the group; field-level changes are shown.
	out = e.ok("profile", "set", "strict", "--failure-action", "rebalance", "--interval", "50ms")
	assertRows(t, out, "~ profile strict: interval 100ms -> 50ms, failure_action drop -> rebalance",
		"~ balance-group group_filter: failure_action drop -> rebalance")
	out = e.ok("profile", "set", "default", "--interval", "50ms", "--dry-run")
	assertRows(t, out, "~ profile default: interval 100ms -> 50ms")

	// A site change alone is a change.
	h, err := e.svc.History(context.Background())
	require.NoError(t, err)
	assert.Len(t, h, 4)

	// Ids never change once assigned: with L1 gone, L2 would take id 0; it
	// keeps its 1, written out.
	l2 := *e.running().LinkByName("L2").ID
	e.ok("link", "del", "L1", "--force")
	assert.Equal(t, l2, *e.running().LinkByName("L2").ID)
	yaml, _ = e.svc.ConfigYAML()
	raw, err = config.Decode(yaml)
	require.NoError(t, err)
	require.NotNil(t, raw.LinkByName("L2").ID)
	assert.Equal(t, l2, *raw.LinkByName("L2").ID)
}
