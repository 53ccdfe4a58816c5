package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestBalanceGroupDelInUse: deleting a balance group a rule balances to
// names the rule and says what to do, not "unknown balance group".
func TestBalanceGroupDelInUse(t *testing.T) {
	e := newEnv(t)
	n := e.revisions()
	r := e.run("balance-group", "del", "group_filter", "--force")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "balance group group_filter is in use by rule vlan-balanced (action balance group_filter): point the rule elsewhere first ('balancer rule set vlan-balanced --action bypass'")
	assert.NotContains(t, r.stderr, "unknown balance group")
	assert.Equal(t, n, e.revisions(), "nothing saved")
}

// TestFilterGroupDelLast: deleting the last filter group of a balance
// group says what to do.
func TestFilterGroupDelLast(t *testing.T) {
	e := newEnv(t)
	e.ok("filter-group", "del", "F1", "--force")
	e.ok("filter-group", "del", "F2", "--force")
	n := e.revisions()
	want := "filter group F3 is the last member of balance group group_filter, and a balance group needs at least one: " +
		"add another filter group to group_filter first ('balancer filter-group add NAME --lan PORT --wan PORT', then 'balancer balance-group member add group_filter NAME'), " +
		"or delete the balance group ('balancer balance-group del group_filter', after pointing rule vlan-balanced elsewhere ('balancer rule set vlan-balanced --action bypass'))"
	r := e.run("filter-group", "del", "F3", "--force")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, want)
	r = e.run("balance-group", "member", "del", "group_filter", "F3")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, want)
	assert.Equal(t, n, e.revisions(), "nothing saved")
}

// TestTraceUnknownLinkListsLinks: trace on a link the daemon does not
// have lists the links it has (the real daemon's answer).
func TestTraceUnknownLinkListsLinks(t *testing.T) {
	e := realDaemonEnv(t)
	r := e.run("trace", "--link", "L9", "--side", "lan", "--src", "10.0.0.1", "--dst", "10.0.0.2", "--proto", "tcp")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, `unknown link "L9" (links: L1)`)
}
