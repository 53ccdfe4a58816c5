package cli

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"

	apiv1 "github.com/dpi-balancer/balancer/api"
)

// A dry run says how many slots it would rewrite and what share of the
// sessions would move, per filter group; groups with no slot writes are quiet.
func TestWriteApplySlotMoves(t *testing.T) {
	var b bytes.Buffer
	writeApply(&b, &apiv1.ApplyResult{DryRun: true, Changes: []string{"+ filter-group F4"}, Inserts: 1030,
		SlotMoves: []*apiv1.SlotMove{
			{BalanceGroup: "idle", Slots: 0},
			{BalanceGroup: "group_filter", Slots: 1024, Moved: 0.25, FilterGroups: []*apiv1.FilterSlotMove{
				{FilterGroup: "F1", Before: 1.0 / 3, After: 0.25, Moved: 0.25},
				{FilterGroup: "F4", Before: 0, After: 0.25, Moved: 0},
			}},
		}})
	assert.Equal(t, "dry run: 1 change (nothing saved or written):\n"+
		"  + filter-group F4\n"+
		"switch: would write 1030 inserts, 0 modifies, 0 deletes\n"+
		"slots: balance group group_filter: would rewrite 1024 slots, 25.0% of its sessions move\n"+
		"  F1           share 33.3% -> 25.0%, 25.0% of its sessions move\n"+
		"  F4           share 0.0% -> 25.0%, 0.0% of its sessions move\n", b.String())
}
