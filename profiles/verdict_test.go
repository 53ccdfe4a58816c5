package profiles

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
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

// A recovery clears whatever verdict stands, of any epoch, in its write:
// a failure adopted from the switch (the previous controller's pipeline
// proved it; this engine never received the verdict, and its epoch is
// the store's or the default) comes back with an epoch half the space
// ahead, so neither the epoch it held nor the next ones the previous
// controller may have written can stand; a digest of an older epoch,
// sent before that write landed, does not fail it again. Once this
// engine wrote an epoch itself, the next recovery moves one on.
func TestRecoveryClearsVerdictOfAnyEpoch(t *testing.T) {
	b := newBench(t, "bypass", "lan-to-wan")
	b.run(1300 * time.Millisecond)
	require.Equal(t, StateUp, b.state("F2"))
	require.Zero(t, latest(b.e).Epochs["F2"])

	b.e.AdoptFailures([]uint32{1}, b.now)
	require.Equal(t, StateDown, b.state("F2"))
	b.run(300 * time.Millisecond)
	require.Equal(t, StateUp, b.state("F2"))
	const jumped = epochJump
	assert.Equal(t, uint8(jumped), latest(b.e).Epochs["F2"], "a new epoch, far from any the last controller wrote")
	assert.True(t, b.e.EpochAllowed(1, 0, jumped), "the recovery's epoch replaces the switch's")
	assert.True(t, b.e.EpochAllowed(1, 5, jumped), "whatever the switch holds")
	assert.False(t, b.e.EpochAllowed(1, 0, 1))

	for _, old := range []uint8{0, 1, 3, jumped - 1} {
		require.NoError(t, b.e.OnVerdict(p4src.VerdictDigest{FilterGroup: 1, Epoch: old, Reason: p4src.VerdictStanding}, p4src.TickBMv2, b.now))
		assert.Equal(t, StateUp, b.state("F2"), "a digest of epoch %d (older than %d) fails nothing", old, jumped)
		assert.Equal(t, uint8(jumped), latest(b.e).Epochs["F2"])
	}
	assert.Empty(t, b.verdicts("F2").History)

	// A verdict of the epoch it wrote is a verdict: down, and cleared by
	// the next epoch on recovery.
	b.dead[60] = true
	require.NoError(t, b.e.OnVerdict(p4src.VerdictDigest{FilterGroup: 1, Epoch: jumped, Reason: p4src.VerdictData, Age: 120_000}, p4src.TickBMv2, b.now))
	require.Equal(t, StateDown, b.state("F2"))
	delete(b.dead, 60)
	b.run(300 * time.Millisecond)
	require.Equal(t, StateUp, b.state("F2"))
	assert.Equal(t, uint8(jumped+1), latest(b.e).Epochs["F2"])

	// Failed by its keep-alives alone (no digest: the pipeline may have
	// proved it too, at the epoch this engine wrote): the next epoch.
	b.dead[60] = true
	b.run(time.Second)
	require.Equal(t, StateDown, b.state("F2"))
	delete(b.dead, 60)
	b.run(300 * time.Millisecond)
	require.Equal(t, StateUp, b.state("F2"))
	assert.Equal(t, uint8(jumped+2), latest(b.e).Epochs["F2"])

	// The controller lost the primary role: another may have written the
	// switch since, so the guard keeps the switch's epoch again and the
	// next recovery jumps.
	require.True(t, b.e.EpochAllowed(1, 7, jumped+2))
	b.e.ForgetOwnEpochs()
	assert.False(t, b.e.EpochAllowed(1, 7, jumped+2), "not this engine's own any more")
	b.e.AdoptFailures([]uint32{1}, b.now)
	b.run(300 * time.Millisecond)
	require.Equal(t, StateUp, b.state("F2"))
	assert.Equal(t, uint8(jumped+2+jumped-256), latest(b.e).Epochs["F2"])

	// An epoch taken over from the switch is not this engine's: its next
	// recovery jumps again.
	b.e.AdoptEpochs(map[uint32]uint8{1: 200})
	b.e.AdoptFailures([]uint32{1}, b.now)
	b.run(300 * time.Millisecond)
	require.Equal(t, StateUp, b.state("F2"))
	assert.Equal(t, uint8(200+jumped-256), latest(b.e).Epochs["F2"])
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

const singles = `
platform: sim
ports:
  - {port: 1, speed: 100G}
  - {port: 2, speed: 100G}
  - {port: 3, speed: 100G}
  - {port: 4, speed: 100G}
  - {port: 5, speed: 100G}
  - {port: 6, speed: 100G}
  - {port: 7, speed: 100G}
  - {port: 8, speed: 100G}
links:
  - {name: L1, lan: P2, wan: P1}
filter_groups:
  - {name: F1, lan: P4, wan: P3, cores: 2}
  - {name: F2, lan: P6, wan: P5, cores: 2}
  - {name: F3, lan: P8, wan: P7, cores: 2}
profiles:
  - {name: p, initial_delay: 1s, interval: 100ms, loss_threshold: 3, recovery_threshold: 2, stall_hold: 1s}
balance_groups:
  - {name: G1, members: [F1], profile: p}
  - {name: G2, members: [F2], profile: p}
  - {name: G3, members: [F3], profile: p}
`

func newSinglesBench(t *testing.T) *bench {
	cfg, err := config.Parse([]byte(singles))
	require.NoError(t, err)
	b := &bench{t: t, now: time.Unix(1000, 0), dead: map[uint32]bool{}}
	b.e, err = New(cfg, b.send, Options{TimestampUnit: time.Nanosecond})
	require.NoError(t, err)
	b.e.Start(b.now)
	return b
}

// The stall guard looks at the whole switch: when the keep-alives of most
// of its filters are late together, single-member balance groups included,
// the balancer's own path is suspected and nothing fails before
// stall_hold; one filter losing alone fails at loss_threshold.
func TestStallGuardWholeSwitch(t *testing.T) {
	b := newSinglesBench(t)
	b.run(1300 * time.Millisecond)
	for _, n := range []string{"F1", "F2", "F3"} {
		require.Equal(t, StateUp, b.state(n))
	}
	b.stalled = true
	b.run(800 * time.Millisecond)
	for _, n := range []string{"F1", "F2", "F3"} {
		assert.Equal(t, StateUp, b.state(n), "%s held: the whole switch lost keep-alives together", n)
	}
	b.stalled = false
	b.run(400 * time.Millisecond)
	for _, n := range []string{"F1", "F2", "F3"} {
		assert.Equal(t, StateUp, b.state(n))
	}
	assert.Empty(t, latest(b.e).FilterGroups)

	// One alone: it fails.
	b.dead[40] = true
	b.run(500 * time.Millisecond)
	assert.Equal(t, StateDown, b.state("F1"))
	assert.Equal(t, StateUp, b.state("F2"))
}

// While the switch answers nothing (a hung control channel), the stall
// guard holds past stall_hold: the controller forms no verdict it could
// write on reconnect. Once the switch answers again, a hold that
// outlasted stall_hold ends in a failover as before.
func TestNoVerdictWhileSwitchSilent(t *testing.T) {
	b := newSinglesBench(t)
	b.run(1300 * time.Millisecond)
	b.e.SwitchHeard(b.now)
	b.stalled = true // a hang: keep-alives are queued, nothing answers
	b.run(5 * time.Second)
	for _, n := range []string{"F1", "F2", "F3"} {
		assert.Equal(t, StateUp, b.state(n), "%s: no verdict while the switch is silent", n)
	}
	assert.Empty(t, latest(b.e).FilterGroups)
	assert.Empty(t, latest(b.e).BalanceGroups)
	// The channel comes back; the filters answer.
	b.stalled = false
	b.e.SwitchHeard(b.now)
	b.run(500 * time.Millisecond)
	for _, n := range []string{"F1", "F2", "F3"} {
		assert.Equal(t, StateUp, b.state(n))
	}
	// The switch answers, but every filter is dead: after stall_hold they fail.
	b.dead[40], b.dead[60], b.dead[80] = true, true, true
	for end := b.now.Add(3 * time.Second); b.now.Before(end); {
		b.e.SwitchHeard(b.now)
		b.run(10 * time.Millisecond)
	}
	assert.Equal(t, StateDown, b.state("F1"))
}

// After a hung control channel resumes, stall_hold counts from when the
// switch answers again, not from when the hold began: keep-alives still
// late for a while after a 5 s hang (a starved host catching up) fail
// nothing within stall_hold of the switch being seen; late past it, they
// fail as before.
func TestStallHoldCountsWhileSwitchSeen(t *testing.T) {
	for _, tt := range []struct {
		late time.Duration // keep-alives still late after the channel resumes
		want State
	}{{700 * time.Millisecond, StateUp}, {1500 * time.Millisecond, StateDown}} {
		t.Run(tt.late.String(), func(t *testing.T) {
			b := newSinglesBench(t)
			b.run(1300 * time.Millisecond)
			b.e.SwitchHeard(b.now)
			b.stalled = true
			b.run(5 * time.Second) // the hang: the switch answers nothing
			// The channel is back: the switch answers, the keep-alives
			// are still processed late.
			for end := b.now.Add(tt.late); b.now.Before(end); {
				b.e.SwitchHeard(b.now)
				b.run(10 * time.Millisecond)
			}
			for _, n := range []string{"F1", "F2", "F3"} {
				assert.Equal(t, tt.want, b.state(n), "%s, keep-alives late for %v after the hang (stall_hold 1s)", n, tt.late)
			}
			// They answer in time again: up (at once if held, after
			// recovery_threshold rounds if failed).
			b.stalled = false
			for end := b.now.Add(500 * time.Millisecond); b.now.Before(end); {
				b.e.SwitchHeard(b.now)
				b.run(10 * time.Millisecond)
			}
			for _, n := range []string{"F1", "F2", "F3"} {
				assert.Equal(t, StateUp, b.state(n))
			}
		})
	}
}
