package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/tables"
)

// The session memory's previews, trace and counters reach the API: the
// held sessions per balance group of an apply, a trace's session and
// slot target, the counters' session table.
func TestSessionMemoryToProto(t *testing.T) {
	res := applyResultToProto(&daemon.ApplyResult{DryRun: true, SessionMemory: true,
		Slots:            []tables.GroupMove{{Name: "G", Move: tables.Move{Slots: 64, Moved: 0.25}}, {Name: "H", Move: tables.Move{}}},
		HeldSessions:     map[string]daemon.HeldMove{"G": {Held: 10, Stay: 7, Leave: 3, WouldMove: 4}},
		FilterGroupNames: map[uint32]string{}})
	require.True(t, res.GetSessionMemory())
	require.Len(t, res.GetSlotMoves(), 2)
	g := res.GetSlotMoves()[0].GetHeldSessions()
	assert.Equal(t, []int64{10, 7, 3, 4}, []int64{g.GetHeld(), g.GetStay(), g.GetLeave(), g.GetWouldMove()})
	assert.Zero(t, res.GetSlotMoves()[1].GetHeldSessions().GetHeld(), "a balance group holding none: zeros")
	off := applyResultToProto(&daemon.ApplyResult{Slots: []tables.GroupMove{{Name: "G"}}})
	assert.False(t, off.GetSessionMemory())
	assert.Nil(t, off.GetSlotMoves()[0].GetHeldSessions(), "without the session memory: no held sessions")

	tr := traceResultToProto(&daemon.TraceResult{FilterGroup: "F1", Core: 2, Session: "held", SlotFilterGroup: "F3", SlotCore: 0})
	assert.Equal(t, "held", tr.GetSession())
	assert.Equal(t, "F3", tr.GetSlotFilterGroup())

	c := countersToProto(&daemon.Counters{SessionMemory: &daemon.SessionMemoryStatus{Held: 5, Size: 10, Occupied: 0.5, Inserted: 6, Evicted: 1, Full: 2,
		Groups: []daemon.SessionMemoryGroup{{Name: "F1", ID: 0, Held: 5}}}})
	sm := c.GetSessionMemory()
	require.NotNil(t, sm)
	assert.Equal(t, int64(5), sm.GetHeld())
	assert.Equal(t, uint64(1), sm.GetAged())
	assert.Equal(t, uint64(2), sm.GetFull())
	require.Len(t, sm.GetFilterGroups(), 1)
	assert.Equal(t, "F1", sm.GetFilterGroups()[0].GetName())
	assert.Nil(t, countersToProto(&daemon.Counters{}).GetSessionMemory(), "off: none")
}
