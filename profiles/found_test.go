package profiles

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/tables"
)

// A failure found on the switch takes an up filter group down with its
// own reason; it comes back only after recovery_threshold passes counted
// from the adoption (not from the passes it had before), as any failed
// filter group. Unknown ids and groups already down change nothing.
func TestAdoptFailures(t *testing.T) {
	for _, action := range []string{"bypass", "drop", "rebalance"} {
		t.Run(action, func(t *testing.T) {
			b := newBench(t, action, "lan-to-wan")
			b.run(1300 * time.Millisecond)
			require.Equal(t, StateUp, b.state("F2"))
			require.Empty(t, latest(b.e).FilterGroups)

			b.e.AdoptFailures([]uint32{1, 99}, b.now)
			assert.Equal(t, StateDown, b.state("F2"))
			assert.Equal(t, StateUp, b.state("F1"))
			st := b.e.Status()[1]
			assert.Equal(t, ReasonFoundFailed, st.Reason)
			assert.Equal(t, "failed on the switch before this controller took over", st.Reason.String())
			assert.Equal(t, []string{"F2"}, b.e.Down(), "saved as down")
			want := map[string]tables.FilterGroupState{"F2": tables.FGSWBypass}
			if action == "drop" {
				want["F2"] = tables.FGDrop
			}
			s := latest(b.e)
			assert.Equal(t, want, s.FilterGroups)
			assert.Equal(t, action == "rebalance", s.Rebalanced["F2"])

			// The keep-alives pass: one round short of recovery_threshold
			// (2 x 100 ms) it is still down, then it is up.
			b.run(100 * time.Millisecond)
			assert.Equal(t, StateDown, b.state("F2"), "one pass after the adoption")
			b.run(200 * time.Millisecond)
			assert.Equal(t, StateUp, b.state("F2"))
			assert.Empty(t, latest(b.e).FilterGroups)

			// Already down: the reason it has stays.
			b.dead[60] = true
			b.run(time.Second)
			require.Equal(t, StateDown, b.state("F2"))
			b.e.AdoptFailures([]uint32{1}, b.now)
			assert.Equal(t, ReasonKeepAliveLoss, b.e.Status()[1].Reason)
		})
	}
}

// A failure found on the switch of a filter group that sends fail-open
// probes (with a fail-open action) may be a fail-open whose mark the last
// controller could not save: keep-alives alone do not bring it back, a
// round of its probes dropped must come first (probes every 10 rounds,
// 1 s, here; recovery_threshold 2 rounds). One that passes its probes is
// judged failed open at its first probe round and stays out. Under
// fail_open_action alarm the keep-alives alone bring it back, as before.
func TestAdoptFailuresWaitsForDroppedProbes(t *testing.T) {
	for _, c := range []struct {
		name, action string
		passesProbes bool
	}{
		{name: "inspects", action: "bypass"},
		{name: "failed-open", action: "bypass", passesProbes: true},
		{name: "alarm", action: "alarm"},
	} {
		t.Run(c.name, func(t *testing.T) {
			pb := newProbeBench(t, "auto", "probe_payload: dpi-probe-block-me, probe_every: 10, fail_open_action: "+c.action)
			pb.open[40] = c.passesProbes
			dropped := pb.status("F1").FailOpen.Dropped
			pb.e.AdoptFailures([]uint32{0}, pb.now)
			require.Equal(t, StateDown, pb.state("F1"))
			if c.action == "alarm" {
				pb.run(300 * time.Millisecond)
				assert.Equal(t, StateUp, pb.state("F1"), "alarm: back by its keep-alives")
				return
			}
			// Until a probe round is judged: down, however many passes.
			for pb.status("F1").FailOpen.Dropped == dropped && pb.status("F1").FailOpen.Returned == 0 {
				require.Equal(t, StateDown, pb.state("F1"), "back by keep-alives alone, %d passes", pb.status("F1").Passes)
				pb.run(10 * time.Millisecond)
			}
			if c.passesProbes {
				pb.run(3 * time.Second)
				st := pb.status("F1")
				assert.Equal(t, StateDown, st.State)
				assert.Equal(t, ReasonFailedOpen, st.Reason)
				assert.True(t, st.FailOpen.FailedOpen)
				return
			}
			pb.run(100 * time.Millisecond)
			assert.Equal(t, StateUp, pb.state("F1"), "back once a probe round was dropped")
		})
	}
}
