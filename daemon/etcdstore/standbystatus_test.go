package etcdstore

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/p4src"
)

// A standby judges no filter (no keep-alives, no verdicts): its filter
// states are the leader's as last saved in the store. Its status says so
// (stale, each filter's reason ReasonStandby) whether the store is
// healthy or not. Before, a healthy standby showed "up before restart"
// for every filter, and during a quorum loss a standby showed a filter
// the leader had failed over as "up forward", unmarked (9 of 9 outages,
// 3 etcd processes).
func TestHAStandbyStatusIsStale(t *testing.T) {
	// Its own etcd processes (it faults them): beside the other tests
	// that do, as TestHAChurnKeepsFailover.
	t.Parallel()
	procs, _ := startEtcdUp(t, 3)
	b := newHABedOn(t, "", nil, func(b *haBed) { b.endpoints = procs.clients }, withLease(quorumLossLease))
	a := b.start("a")
	b.allUp(a)
	s := b.start("s")
	b.waitStandby(s)
	b.waitSavedUp("F1", "F2", "F3")

	check := func(what string, storeHealthy bool) *daemon.Status {
		t.Helper()
		var st *daemon.Status
		require.Eventually(t, func() bool {
			var err error
			st, err = s.d.Status(context.Background())
			return err == nil && st.HA != nil && st.HA.StoreHealthy == storeHealthy
		}, 20*time.Second, 5*time.Millisecond, "%s: the standby's store health", what)
		assert.True(t, st.Stale, "%s: a standby's filter states are stale", what)
		assert.True(t, st.Switch.Standby, what)
		for _, f := range st.Filters {
			assert.Equal(t, daemon.ReasonStandby, f.Reason, "%s: %s", what, f.Name)
		}
		return st
	}
	check("healthy", true)
	ast, err := a.d.Status(context.Background())
	require.NoError(t, err)
	assert.False(t, ast.Stale, "the leader's status is live")

	procs.kill(t, 1, 2)
	require.Eventually(t, func() bool { return a.el.Leadership().Held }, 20*time.Second, time.Millisecond, "the leader holds")
	b.filters["F2"].alive.Store(false)
	require.Eventually(t, func() bool {
		st, _, _ := filterState(a, "F2")
		return st == "down" && b.fgAction(1) == p4src.ActionFilterSWBypass
	}, 20*time.Second, time.Millisecond, "the holding leader fails F2 over")
	st := check("quorum lost", false)
	for _, f := range st.Filters {
		if f.Name == "F2" {
			t.Logf("the standby during the quorum loss: F2 %s %s (%s), stale %v; the switch: %s", f.State, f.Effective, f.Reason, st.Stale, b.fgAction(1))
		}
	}
}
