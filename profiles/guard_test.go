package profiles

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/tables"
)

// newGuardBench is the bench site with the profile's stall guard set
// (guard "" keeps the defaults: hold for 1s).
func newGuardBench(t *testing.T, action, guard string) *bench {
	yaml := sprintf(site, action, "lan-to-wan")
	if guard != "" {
		yaml = strings.Replace(yaml, "probe: lan-to-wan}", "probe: lan-to-wan, "+guard+"}", 1)
	}
	cfg, err := config.Parse([]byte(yaml))
	require.NoError(t, err)
	b := &bench{t: t, now: time.Unix(1000, 0), dead: map[uint32]bool{}}
	b.e, err = New(cfg, b.send, Options{TimestampUnit: time.Nanosecond})
	require.NoError(t, err)
	b.e.Start(b.now)
	return b
}

func (b *bench) fgState() map[string]tables.FilterGroupState { return b.e.State().FilterGroups }

// A new filter group earns its traffic: software bypass until
// recovery_threshold keep-alives have crossed it.
func TestNewFilterEarnsItsTraffic(t *testing.T) {
	b := newBench(t, "bypass", "lan-to-wan")
	all := map[string]tables.FilterGroupState{"F1": tables.FGSWBypass, "F2": tables.FGSWBypass, "F3": tables.FGSWBypass}
	assert.Equal(t, all, b.fgState(), "unproven filters take no traffic")
	assert.Empty(t, b.e.State().BalanceGroups, "the group stays active: each unproven filter is bypassed on its own")
	// Initial delay 1s; probes at 1.0s, 1.1s, ...: the first pass is
	// judged at 1.1s, the second (recovery_threshold 2) at 1.2s.
	b.run(1150 * time.Millisecond)
	assert.Equal(t, StateInit, b.state("F1"))
	assert.Equal(t, all, b.fgState(), "one keep-alive is not enough")
	b.run(100 * time.Millisecond)
	assert.Equal(t, StateUp, b.state("F1"))
	assert.Empty(t, b.fgState(), "forwarding once recovery_threshold keep-alives crossed")

	// A filter that never answers never takes traffic.
	b2 := newBench(t, "bypass", "lan-to-wan")
	b2.dead[60] = true
	b2.run(1500 * time.Millisecond)
	assert.Equal(t, StateDown, b2.state("F2"))
	assert.Equal(t, map[string]tables.FilterGroupState{"F2": tables.FGSWBypass}, b2.fgState())
}

// Under failure action rebalance an unproven filter's slots stay with the
// proven members.
func TestNewFilterRebalanced(t *testing.T) {
	b := newBench(t, "rebalance", "lan-to-wan")
	b.dead[80] = true
	b.run(1250 * time.Millisecond)
	st := b.e.State()
	assert.Equal(t, map[string]bool{"F3": true}, st.Rebalanced)
	assert.Equal(t, map[string]tables.FilterGroupState{"F3": tables.FGSWBypass}, st.FilterGroups)
}

// Most of a balance group losing keep-alives at once, ports up: the state
// is held (with an alarm) and nothing fails if they come back within
// stall_hold.
func TestStallGuardHoldsThroughGroupWideLoss(t *testing.T) {
	b := newGuardBench(t, "bypass", "")
	b.run(1300 * time.Millisecond)
	require.Empty(t, b.fgState())
	for _, p := range []uint32{40, 60, 80} {
		b.dead[p] = true
	}
	// 3 losses (300ms after the first lost probe) would fail them.
	b.run(600 * time.Millisecond)
	for _, n := range []string{"F1", "F2", "F3"} {
		assert.Equal(t, StateUp, b.state(n), n)
	}
	assert.Empty(t, b.fgState(), "no failover while the keep-alive path is suspected")
	al := b.e.Alarms()
	require.Len(t, al, 1)
	assert.Equal(t, "G", al[0].BalanceGroup)
	assert.Equal(t, []string{"F1", "F2", "F3"}, al[0].FilterGroups)
	st := b.e.Status()[0]
	assert.True(t, st.Held)
	assert.Equal(t, ReasonPathSuspected, st.Reason)

	for _, p := range []uint32{40, 60, 80} {
		delete(b.dead, p)
	}
	b.run(200 * time.Millisecond)
	assert.Empty(t, b.e.Alarms(), "alarm cleared when keep-alives pass")
	assert.Empty(t, b.e.Held())
	for _, n := range []string{"F1", "F2", "F3"} {
		assert.Equal(t, StateUp, b.state(n), n)
	}
}

// The hold is bounded: a loss that persists fails over after stall_hold.
func TestStallGuardIsBounded(t *testing.T) {
	b := newGuardBench(t, "bypass", "stall_hold: 500ms")
	b.run(1300 * time.Millisecond)
	for _, p := range []uint32{40, 60, 80} {
		b.dead[p] = true
	}
	// Held from the third loss (~400ms after they died) for 500ms.
	b.run(800 * time.Millisecond)
	assert.Equal(t, StateUp, b.state("F1"), "held")
	b.run(200 * time.Millisecond)
	for _, n := range []string{"F1", "F2", "F3"} {
		assert.Equal(t, StateDown, b.state(n), n)
		assert.False(t, b.e.Status()[0].Held)
	}
	assert.Equal(t, tables.BGBypass, b.e.State().BalanceGroups["G"])
	assert.Empty(t, b.e.Alarms())
}

// stall_hold does not run while nothing can be sent (the control
// channel is down): a held filter group is judged by stall_hold from the
// first round sent after it comes back, not failed by the first loss.
func TestStallGuardHoldPausesWhileNothingIsSent(t *testing.T) {
	b := newGuardBench(t, "bypass", "")
	b.run(1300 * time.Millisecond)
	for _, p := range []uint32{40, 60, 80} {
		b.dead[p] = true
	}
	b.run(600 * time.Millisecond)
	require.Len(t, b.e.Held(), 3, "held as a suspected keep-alive path stall")
	b.fail = true // the channel is down for twice stall_hold
	b.run(2 * time.Second)
	b.fail = false
	delete(b.dead, 40)
	delete(b.dead, 80)
	// F2's first round sent after the channel is back (sent after up to
	// an interval, judged an interval later) is lost once more.
	b.run(250 * time.Millisecond)
	assert.Equal(t, StateUp, b.state("F2"), "held: stall_hold counts again from the first round sent")
	assert.Empty(t, b.fgState(), "no failover")
	delete(b.dead, 60)
	b.run(300 * time.Millisecond)
	assert.Empty(t, b.e.Held())
	for _, n := range []string{"F1", "F2", "F3"} {
		assert.Equal(t, StateUp, b.state(n), n)
	}
	// A loss that then persists past stall_hold still fails.
	b.dead[60] = true
	b.run(2 * time.Second)
	assert.Equal(t, StateDown, b.state("F2"))
}

// With the guard off the same loss fails over at loss_threshold.
func TestStallGuardOff(t *testing.T) {
	b := newGuardBench(t, "bypass", "stall_guard: off")
	b.run(1300 * time.Millisecond)
	for _, p := range []uint32{40, 60, 80} {
		b.dead[p] = true
	}
	b.run(500 * time.Millisecond)
	assert.Equal(t, StateDown, b.state("F1"))
	assert.Empty(t, b.e.Alarms())
}

// A minority failing is the filters' own: no hold.
func TestStallGuardMinorityFailsAtOnce(t *testing.T) {
	b := newGuardBench(t, "bypass", "")
	b.run(1300 * time.Millisecond)
	b.dead[40] = true
	b.run(450 * time.Millisecond)
	assert.Equal(t, StateDown, b.state("F1"))
	assert.Empty(t, b.e.Alarms())
}

// Data-plane evidence: traffic sent to a held filter and none coming back
// for the detection time fails it before stall_hold; traffic coming back
// shows it alive.
func TestStallGuardPassiveEvidence(t *testing.T) {
	b := newGuardBench(t, "bypass", "stall_hold: 5s")
	b.run(1300 * time.Millisecond)
	for _, p := range []uint32{40, 60, 80} {
		b.dead[p] = true
	}
	b.run(500 * time.Millisecond)
	require.Equal(t, []string{"F1", "F2", "F3"}, b.e.Held())
	b.e.OnTraffic("F1", 1000, 900, b.now)
	b.e.OnTraffic("F2", 1000, 900, b.now)
	b.run(100 * time.Millisecond)
	b.e.OnTraffic("F1", 1100, 900, b.now) // sent 100, none back for 100ms: not yet evidence
	b.e.OnTraffic("F2", 1100, 990, b.now) // coming back: alive
	b.run(100 * time.Millisecond)
	assert.Equal(t, StateUp, b.state("F1"), "a silence shorter than the detection time (3 x 100ms) is no evidence")
	b.run(100 * time.Millisecond)
	b.e.OnTraffic("F1", 1300, 900, b.now) // none back for 300ms: dead
	b.run(200 * time.Millisecond)
	assert.Equal(t, StateDown, b.state("F1"), "evidence agrees: fail before stall_hold")
	assert.Equal(t, StateUp, b.state("F2"))
	for _, s := range b.e.Status() {
		if s.Name == "F2" {
			assert.True(t, s.Held)
			assert.True(t, s.Returning, "traffic comes back from F2")
		}
	}
}

// The balancer itself stalls (its packet-ins are late, the tick comes late):
// a lone filter's losses judged across the stall are held, not failed.
func TestStallGuardHostStall(t *testing.T) {
	for _, tt := range []struct {
		guard string
		want  State
	}{{"", StateUp}, {"stall_guard: off", StateDown}} {
		t.Run("guard "+tt.guard, func(t *testing.T) {
			yaml := strings.Replace(sprintf(site, "bypass", "lan-to-wan"), "loss_threshold: 3", "loss_threshold: 2", 1)
			yaml = strings.Replace(yaml, "members: [F1, F2, F3]", "members: [F1]", 1)
			if tt.guard != "" {
				yaml = strings.Replace(yaml, "probe: lan-to-wan}", "probe: lan-to-wan, "+tt.guard+"}", 1)
			}
			yaml = strings.Replace(yaml, "min_active: 2", "min_active: 1", 1)
			cfg, err := config.Parse([]byte(yaml))
			require.NoError(t, err)
			b := &bench{t: t, now: time.Unix(1000, 0), dead: map[uint32]bool{}}
			b.e, err = New(cfg, b.send, Options{TimestampUnit: time.Nanosecond})
			require.NoError(t, err)
			b.e.Start(b.now)
			b.run(1300 * time.Millisecond)
			require.Equal(t, StateUp, b.state("F1"))

			// The host stalls for 450ms: the next tick is late and the
			// keep-alive answers are processed after the rounds are judged.
			b.stalled = true
			b.run(100 * time.Millisecond) // a probe goes out just before the stall
			b.now = b.now.Add(450 * time.Millisecond)
			b.e.Tick(b.now)
			b.run(100 * time.Millisecond) // a second round judged before the host catches up
			b.stalled = false
			assert.Equal(t, tt.want, b.state("F1"))
			b.run(200 * time.Millisecond)
			assert.Equal(t, tt.want, b.state("F1"))
			assert.Empty(t, b.e.Held())
		})
	}
}

// Held filters whose group recovers around them: the one still losing
// keep-alives, now alone, fails over well before stall_hold; the others
// stay up.
func TestStallGuardGroupRecoversAroundADeadFilter(t *testing.T) {
	b := newGuardBench(t, "bypass", "stall_hold: 10s")
	b.run(1300 * time.Millisecond)
	for _, p := range []uint32{40, 60, 80} {
		b.dead[p] = true
	}
	b.run(500 * time.Millisecond)
	require.Equal(t, []string{"F1", "F2", "F3"}, b.e.Held())
	delete(b.dead, 40)
	delete(b.dead, 60)
	b.run(500 * time.Millisecond)
	assert.Equal(t, StateUp, b.state("F1"))
	assert.Equal(t, StateUp, b.state("F2"))
	assert.Equal(t, StateDown, b.state("F3"), "its loss is its own once the others answer")
	assert.Empty(t, b.e.Alarms())
}

// The keep-alive path backs up for one filter: its answers cross it in
// time (by the data plane's clock) but reach the engine after their round
// was judged, 130 ms later at a 100 ms interval. The losses are taken
// back: it stays up, is never held, and a new one earns its traffic the
// same way; a dead one among them fails as fast as without the delay. A filter that itself answers later than the interval (150 ms
// by the data plane's clock) fails, delivered late or not, and so does
// a dead one among late answers.
func TestLateAnswersInTimeArePasses(t *testing.T) {
	statusOf := func(b *bench, name string) FilterStatus {
		for _, s := range b.e.Status() {
			if s.Name == name {
				return s
			}
		}
		t.Fatalf("no %s", name)
		return FilterStatus{}
	}
	t.Run("late path", func(t *testing.T) {
		b := newGuardBench(t, "bypass", "")
		b.slow = map[uint32]time.Duration{40: 130 * time.Millisecond, 60: 130 * time.Millisecond}
		b.run(1300 * time.Millisecond)
		assert.Equal(t, StateUp, b.state("F1"), "a new filter earns its traffic through late answers")
		b.run(3 * time.Second)
		for _, n := range []string{"F1", "F2", "F3"} {
			assert.Equal(t, StateUp, b.state(n), n)
		}
		assert.Empty(t, b.e.Held())
		s := statusOf(b, "F1")
		assert.Greater(t, s.LateReturns, uint64(30))
		// Every loss taken back but the last round's, when its answer is
		// still on its way.
		assert.LessOrEqual(t, s.Losses, uint64(1))
		assert.LessOrEqual(t, s.Consecutive, uint32(1))
		assert.Greater(t, s.Passes, uint64(30))
		assert.Zero(t, statusOf(b, "F3").LateReturns)

		// F2 dies among late answers: it fails.
		b.dead[60] = true
		b.run(600 * time.Millisecond)
		assert.Equal(t, StateDown, b.state("F2"))
		assert.Equal(t, StateUp, b.state("F1"))
	})
	t.Run("slow filter", func(t *testing.T) {
		b := newGuardBench(t, "bypass", "")
		b.run(1300 * time.Millisecond)
		require.Equal(t, StateUp, b.state("F1"))
		b.cross = map[uint32]time.Duration{40: 150 * time.Millisecond}
		b.run(600 * time.Millisecond)
		assert.Equal(t, StateDown, b.state("F1"), "answers later than the interval are losses")
		assert.Zero(t, statusOf(b, "F1").LateReturns)
	})
}
