package profiles

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/tables"
)

func (b *bench) verdicts(name string) VerdictStatus {
	for _, s := range b.e.Status() {
		if s.Name == name {
			return s.Verdicts
		}
	}
	b.t.Fatalf("no filter group %s", name)
	return VerdictStatus{}
}

// A data-plane verdict takes the group down at once with its reason;
// recovery stays the controller's (recovery_threshold passes), which then
// clears the verdict with the next epoch, and only that epoch.
func TestDataPlaneVerdictLifecycle(t *testing.T) {
	b := newBench(t, "bypass", "lan-to-wan")
	b.run(1300 * time.Millisecond)
	require.Equal(t, StateUp, b.state("F2"))

	// F2 dies; the pipeline proves it before the controller's own
	// keep-alive count does (the controller could be frozen).
	b.dead[60] = true
	b.run(150 * time.Millisecond)
	require.Equal(t, StateUp, b.state("F2"))
	require.NoError(t, b.e.OnVerdict(p4src.VerdictDigest{FilterGroup: 1, Direction: 0, Epoch: 0, Reason: p4src.VerdictData, Age: 120_000}, p4src.TickBMv2, b.now))
	assert.Equal(t, StateDown, b.state("F2"))
	st := b.e.Status()[1]
	assert.Equal(t, ReasonDataPlane, st.Reason)
	require.NotNil(t, st.Verdicts.Standing)
	assert.Equal(t, "data plane: no return on the WAN side for 120 ms (data of many sessions unanswered)", st.Verdicts.Standing.Text())
	assert.Equal(t, map[string]tables.FilterGroupState{"F2": tables.FGSWBypass}, latest(b.e).FilterGroups)
	assert.False(t, b.e.EpochAllowed(1, 1, 2), "no verdict received at epoch 1")
	assert.False(t, b.e.EpochAllowed(1, 0, 1), "not cleared yet")

	// Repeats of the standing verdict change nothing.
	require.NoError(t, b.e.OnVerdict(p4src.VerdictDigest{FilterGroup: 1, Epoch: 0, Reason: p4src.VerdictStanding}, p4src.TickBMv2, b.now))
	assert.Len(t, b.verdicts("F2").History, 1)
	assert.Equal(t, uint64(2), b.verdicts("F2").Received)

	// Still dead: the verdict stands however long.
	b.run(time.Second)
	assert.Equal(t, StateDown, b.state("F2"))
	assert.Zero(t, latest(b.e).Epochs["F2"])

	// Back: recovery_threshold (2) passes bring it up and clear the
	// verdict with epoch 1.
	delete(b.dead, 60)
	b.run(300 * time.Millisecond)
	assert.Equal(t, StateUp, b.state("F2"))
	s := latest(b.e)
	assert.Equal(t, uint8(1), s.Epochs["F2"])
	assert.Empty(t, s.FilterGroups)
	assert.True(t, b.e.EpochAllowed(1, 0, 1))
	assert.False(t, b.e.EpochAllowed(1, 0, 2))
	vs := b.verdicts("F2")
	assert.Zero(t, vs.Disagreements, "its keep-alives stopped passing before the pipeline's window")
	assert.Nil(t, vs.Standing)
	require.Len(t, vs.History, 1)
	assert.False(t, vs.History[0].Cleared.IsZero())

	// A late repeat of the cleared verdict is ignored.
	require.NoError(t, b.e.OnVerdict(p4src.VerdictDigest{FilterGroup: 1, Epoch: 0, Reason: p4src.VerdictStanding}, p4src.TickBMv2, b.now))
	assert.Equal(t, StateUp, b.state("F2"))
	assert.Equal(t, uint8(1), latest(b.e).Epochs["F2"])

	// A verdict while the controller's keep-alives pass: the views
	// disagree, which is counted (and alarmed by the daemon).
	require.NoError(t, b.e.OnVerdict(p4src.VerdictDigest{FilterGroup: 1, Epoch: 1, Reason: p4src.VerdictKeepAlive, Age: 600_000}, p4src.TickBMv2, b.now))
	vs = b.verdicts("F2")
	require.NotNil(t, vs.Standing)
	assert.True(t, vs.Standing.Disagree)
	assert.Equal(t, uint64(1), vs.Disagreements)
	assert.Equal(t, StateDown, b.state("F2"))
}

// A controller that did not clear a verdict adopts the switch's epoch and
// never moves it; unknown filter groups are an error.
func TestAdoptEpochs(t *testing.T) {
	b := newBench(t, "rebalance", "lan-to-wan")
	b.e.AdoptEpochs(map[uint32]uint8{0: 7})
	assert.Equal(t, uint8(7), latest(b.e).Epochs["F1"])
	assert.False(t, b.e.EpochAllowed(0, 7, 8))
	// A verdict of the adopted epoch arrives: it is this engine's now.
	require.NoError(t, b.e.OnVerdict(p4src.VerdictDigest{FilterGroup: 0, Epoch: 7, Reason: p4src.VerdictStanding}, p4src.TickBMv2, b.now))
	assert.Equal(t, StateDown, b.state("F1"))
	assert.True(t, latest(b.e).Rebalanced["F1"], "rebalance: the failed share's slots move (the pipeline bypassed it at once)")
	assert.Error(t, b.e.OnVerdict(p4src.VerdictDigest{FilterGroup: 9}, p4src.TickBMv2, b.now))
}
