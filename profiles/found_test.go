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
