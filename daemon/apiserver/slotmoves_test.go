package apiserver

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/daemon"
)

// TestAPIApplyReportsSlotMovesByName: the management API carries the slot
// moves of a dry run to the CLI, filter groups named, the removed one too.
func TestAPIApplyReportsSlotMovesByName(t *testing.T) {
	d, err := daemon.New(daemon.Options{StateDir: t.TempDir(), InitialConfig: "../testdata/fast.yaml", SwitchAddr: "127.0.0.1:1"})
	require.NoError(t, err)
	base, err := os.ReadFile("../testdata/fast.yaml")
	require.NoError(t, err)
	two := strings.Replace(string(base), "members: [F1, F2, F3]", "members: [F1, F2]", 1)
	two = strings.Replace(two, "  - {name: F3, lan: P8, wan: P7, cores: 4}\n", "", 1)
	require.NotEqual(t, string(base), two, "the fixture lists F3 as expected")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	api := New(d)
	res, err := api.ApplyConfig(ctx, &apiv1.ApplyConfigRequest{Yaml: two, DryRun: true, Force: true})
	require.NoError(t, err)
	require.Len(t, res.GetSlotMoves(), 1)
	m := res.GetSlotMoves()[0]
	assert.Equal(t, "G", m.GetBalanceGroup())
	assert.Positive(t, m.GetSlots())
	byName := map[string]*apiv1.FilterSlotMove{}
	for _, f := range m.GetFilterGroups() {
		byName[f.GetFilterGroup()] = f
	}
	require.Contains(t, byName, "F3", "the removed filter group is named")
	assert.InDelta(t, 1.0, byName["F3"].GetMoved(), 1e-9, "all of F3's sessions move")
	assert.Zero(t, byName["F3"].GetAfter())
	for _, n := range []string{"F1", "F2"} {
		require.Contains(t, byName, n)
		assert.Zero(t, byName[n].GetMoved(), "%s keeps every session it had", n)
		assert.Greater(t, byName[n].GetAfter(), byName[n].GetBefore())
	}
}
