package controlplane

import (
	"context"
	"slices"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/tables"
)

// ApplyUpdates writes only the changed entities in one request; the
// switch then holds exactly the new desired state, which is also what a
// later reconciliation (a reconnect) restores.
func TestApplyUpdatesWritesOnlyTheChange(t *testing.T) {
	sw := startSwitch(t, "")
	comp := compiler(t)
	cfg, err := config.Load("../examples/site.yaml")
	require.NoError(t, err)
	d, err := comp.Compile(cfg, tables.State{})
	require.NoError(t, err)
	site, err := comp.NewSite(cfg, d, tables.State{})
	require.NoError(t, err)

	s, _, _ := newSession(t, sw.addr, 10, comp, nil)
	s.SetDesired(d.Entities)
	waitPrimary(t, s)
	require.Eventually(t, func() bool { return s.Stats().Reconciles == 1 }, 10*time.Second, 5*time.Millisecond)
	before := s.Stats()

	st := tables.State{FilterGroups: map[string]tables.FilterGroupState{"F2": tables.FGSWBypass, "F3": tables.FGDrop},
		BalanceGroups: map[string]tables.BalanceGroupState{}}
	next, changed, err := comp.WithState(site, st)
	require.NoError(t, err)
	built := false
	plan, err := s.ApplyUpdates(context.Background(), Change{Desired: func() []*p4v1.Entity { built = true; return next.Desired().Entities }, Changed: changed})
	require.NoError(t, err)
	assert.Equal(t, 2, plan.Modifies)
	assert.False(t, built, "no full desired state built for a runtime change")
	after := s.Stats()
	assert.Equal(t, uint64(2), after.Updates-before.Updates)
	assert.Equal(t, uint64(1), after.WriteRequests-before.WriteRequests, "one batch")
	assert.True(t, comp.Diff(next.Desired().Entities, readAll(t, s, comp)).Empty(), "the switch holds the new state")

	// Unchanged entities are not written again.
	plan, err = s.ApplyUpdates(context.Background(), Change{Desired: func() []*p4v1.Entity { return next.Desired().Entities }, Changed: changed})
	require.NoError(t, err)
	assert.True(t, plan.Empty())
}

// A Full change that carries its plan (a planned change diffed against
// the running site) is written as it is when the session's record of the
// switch is the list the plan was made from, and diffed again when it is
// not: either way the switch then holds the new desired state.
func TestApplyUpdatesWritesTheGivenPlan(t *testing.T) {
	sw := startSwitch(t, "")
	comp := compiler(t)
	cfg, err := config.Load("../examples/site.yaml")
	require.NoError(t, err)
	d, err := comp.Compile(cfg, tables.State{})
	require.NoError(t, err)

	s, _, _ := newSession(t, sw.addr, 10, comp, nil)
	s.SetDesired(d.Entities)
	waitPrimary(t, s)
	require.Eventually(t, func() bool { return s.Stats().Reconciles == 1 }, 10*time.Second, 5*time.Millisecond)

	st := tables.State{FilterGroups: map[string]tables.FilterGroupState{"F2": tables.FGSWBypass}}
	d2, err := comp.Compile(cfg, st)
	require.NoError(t, err)
	plan := comp.Diff(d2.Entities, d.Entities)
	require.Equal(t, 1, plan.Modifies)
	ch := FullChange(d2.Entities)
	ch.Plan, ch.From = plan, d.Entities
	got, err := s.ApplyUpdates(context.Background(), ch)
	require.NoError(t, err)
	assert.Same(t, plan, got, "the plan given is the one written")
	assert.True(t, comp.Diff(d2.Entities, readAll(t, s, comp)).Empty(), "the switch holds the new state")

	// A plan made from another list than the record (an equal copy of
	// it) is not trusted: the session diffs its record.
	d3, err := comp.Compile(cfg, tables.State{})
	require.NoError(t, err)
	stale := comp.Diff(d3.Entities, slices.Clone(d.Entities))
	ch = FullChange(d3.Entities)
	ch.Plan, ch.From = stale, slices.Clone(d2.Entities)
	got, err = s.ApplyUpdates(context.Background(), ch)
	require.NoError(t, err)
	assert.NotSame(t, stale, got, "diffed again")
	assert.Equal(t, 1, got.Modifies)
	assert.True(t, comp.Diff(d3.Entities, readAll(t, s, comp)).Empty(), "the switch holds the new state")
}
