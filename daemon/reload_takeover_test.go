package daemon

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/profiles"
)

// TestStandbyReloadAfterTakeoverKeepsLeaderDecisions: a reload that read
// the store as a standby (an HA daemon's store follower) and is installed
// after the daemon became primary must not undo what it has decided as
// the leader since: here a failure found on the switch and adopted (F2,
// dead). Before, the standby's view of the store was installed as it
// was read: F2 lost its adopted failure ("down before restart" from the
// saved runtime, or up when the save had not happened), and a loaded HA
// run showed the new leader fail F2 again by its own keep-alives.
func TestStandbyReloadAfterTakeoverKeepsLeaderDecisions(t *testing.T) {
	b := newBed(t)
	d, _ := b.startDaemon(10)
	b.allUp(d)
	st, err := d.Status(context.Background())
	require.NoError(t, err)
	var id uint32
	for _, f := range st.Filters {
		if f.Name == "F2" {
			id = f.ID
		}
	}
	require.NotZero(t, id)
	b.filters["F2"].alive.Store(false)
	d.currentEngine().AdoptFailures([]uint32{id}, time.Now())
	reason := func() (string, string) {
		st, err := d.Status(context.Background())
		require.NoError(t, err)
		for _, f := range st.Filters {
			if f.Name == "F2" {
				return f.State, f.Reason
			}
		}
		return "", ""
	}
	state, why := reason()
	require.Equal(t, "down", state)
	require.Equal(t, profiles.ReasonFoundFailed.String(), why)

	require.NoError(t, d.ReloadAs(context.Background(), false), "a reload read as a standby, installed while primary")
	state, why = reason()
	assert.Equal(t, "down", state)
	assert.Equal(t, profiles.ReasonFoundFailed.String(), why, "the leader's adopted failure is kept, not replaced by the store's view")
}
