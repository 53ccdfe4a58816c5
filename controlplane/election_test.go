package controlplane

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/tables"
)

// With FixedElection, a session with no id is a backup for good (even when
// the switch has no primary), becomes primary only with an id handed in by
// SetElection, and stops writing at once when its id is lowered.
func TestSetElectionFixed(t *testing.T) {
	sw := startSwitch(t, "")
	comp := compiler(t)
	want := desired(t, comp, "../examples/site.yaml", tables.State{})
	fixed := withOpts(func(o *Options) { o.ElectionLow, o.FixedElection = 0, true })
	a, _, _ := newSession(t, sw.addr, 0, comp, nil, fixed, withDesired(want))
	b, _, _ := newSession(t, sw.addr, 0, comp, nil, fixed, withDesired(want))
	require.Eventually(t, func() bool { return a.Status().Connected && b.Status().Connected }, 10*time.Second, 5*time.Millisecond)
	_, err := a.ApplyUpdates(context.Background(), FullChange(want))
	assert.ErrorIs(t, err, ErrNotPrimary, "no id: never primary, even with no primary at all")
	assert.False(t, b.Status().Primary)
	assert.Equal(t, uint64(0), a.Stats().WriteRequests+b.Stats().WriteRequests)

	ctx := context.Background()
	require.NoError(t, a.SetElection(ctx, 0, 7))
	waitPrimary(t, a)
	assert.False(t, b.Status().Primary)

	// a steps down: it is not primary before the switch even answers, and
	// b (still without an id) does not take over on its own.
	require.NoError(t, a.SetElection(ctx, 0, 0))
	assert.False(t, a.Status().Primary)
	_, err = a.ApplyUpdates(ctx, FullChange(want))
	assert.ErrorIs(t, err, ErrNotPrimary)

	// b gets a higher id: primary, and the switch already holds the state.
	require.NoError(t, b.SetElection(ctx, 0, 9))
	waitPrimary(t, b)
	assert.Equal(t, uint64(0), b.Stats().Updates, "the switch already held everything")
	assert.Equal(t, uint64(9), b.Status().ElectionLow)

	// A deposed id cannot come back: a bids its old id again, the switch
	// keeps b.
	require.NoError(t, a.SetElection(ctx, 0, 7))
	time.Sleep(50 * time.Millisecond) // let an (erroneous) arbitration land
	assert.False(t, a.Status().Primary)
	assert.True(t, b.Status().Primary)
}
