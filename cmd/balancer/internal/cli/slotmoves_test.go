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

// With the session memory on, a dry run counts the held sessions apart:
// those that move (only those on a filter group or core the change takes
// out), those that stay, those that would move without the memory; the
// slot shares are said to be of the sessions not held.
func TestWriteApplyHeldSessions(t *testing.T) {
	res := &apiv1.ApplyResult{DryRun: true, SessionMemory: true, Changes: []string{"+ filter-group F4"}, Inserts: 1030,
		SlotMoves: []*apiv1.SlotMove{
			{BalanceGroup: "group_filter", Slots: 1024, Moved: 0.25, FilterGroups: []*apiv1.FilterSlotMove{
				{FilterGroup: "F1", Before: 1.0 / 3, After: 0.25, Moved: 0.25},
			}, HeldSessions: &apiv1.HeldSessionMove{Held: 1000, Stay: 1000, WouldMove: 251}},
		}}
	var b bytes.Buffer
	writeApply(&b, res)
	assert.Equal(t, "dry run: 1 change (nothing saved or written):\n"+
		"  + filter-group F4\n"+
		"switch: would write 1030 inserts, 0 modifies, 0 deletes\n"+
		"slots: balance group group_filter: would rewrite 1024 slots, 25.0% of its sessions not held move (new sessions follow the new layout)\n"+
		"held sessions: balance group group_filter: 1000 held: 0 would move, 1000 stay on their filter group and core (251 would move without the session memory)\n"+
		"  F1           share 33.3% -> 25.0%, 25.0% of its sessions not held move\n", b.String())
	res.DryRun = false
	res.Written = true
	res.SlotMoves[0].HeldSessions = &apiv1.HeldSessionMove{Held: 10, Stay: 7, Leave: 3, WouldMove: 5}
	b.Reset()
	writeApply(&b, res)
	assert.Contains(t, b.String(), "held sessions: balance group group_filter: 10 held: 3 move (held on a filter group or core the change takes out: their entries are rewritten to where their slots point), 7 stay on their filter group and core (5 would move without the session memory)\n")
}
