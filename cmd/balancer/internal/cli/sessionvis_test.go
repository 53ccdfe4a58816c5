package cli

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/types/known/timestamppb"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/config"
)

// trace says whether the session is held, and where its slot points.
func TestWriteTraceSession(t *testing.T) {
	req := &apiv1.TraceRequest{Link: "L1", Side: "lan", Src: "10.0.0.1", Dst: "10.0.0.2", Proto: 6}
	var b bytes.Buffer
	writeTrace(&b, req, &apiv1.TraceResult{Action: "balance", BalanceGroup: "G", FilterGroup: "F1", Core: 2,
		SlotFilterGroup: "F3", SlotCore: 0, Session: "held", Verdict: "to filter"})
	assert.Contains(t, b.String(), "session:        held by the session memory on F1 core 2 (its slot points to F3 core 0)\n")
	b.Reset()
	writeTrace(&b, req, &apiv1.TraceResult{Action: "balance", BalanceGroup: "G", FilterGroup: "F3", Session: "not held", Verdict: "to filter"})
	assert.Contains(t, b.String(), "session:        not held by the session memory (its slot decides)\n")
	b.Reset()
	writeTrace(&b, req, &apiv1.TraceResult{Action: "balance", BalanceGroup: "G", FilterGroup: "F3", Verdict: "to filter"})
	assert.NotContains(t, b.String(), "session:", "no session memory: no line")
}

// counters --sessions shows the session table: held per filter group of
// the size, and the learner's counts; a rate reading keeps them as counts.
func TestWriteCountersSessions(t *testing.T) {
	at := timestamppb.New(time.Unix(1000, 0))
	sm := &apiv1.SessionMemory{Held: 301, Size: 65536, Occupancy: 301.0 / 65536, Inserted: 320, Aged: 19, Full: 4,
		FilterGroups: []*apiv1.SessionMemoryGroup{{Name: "F1", Id: 0, Held: 153}, {Name: "F2", Id: 1, Held: 148}},
		LastReadBack: timestamppb.New(time.Unix(990, 0))}
	c := &apiv1.Counters{At: at, Drops: []*apiv1.DropCounter{{Reason: "x", Count: &apiv1.PacketBytes{Packets: 1}}}, SessionMemory: sm}
	counterSections{sessions: true}.trim(c)
	assert.Empty(t, c.GetDrops())
	var b bytes.Buffer
	writeCounters(&b, c)
	assert.Equal(t, "SESSION MEMORY  301 of 65536 sessions held (0.5 %)\n"+
		"FILTER GROUP  SESSIONS HELD\n"+
		"F1            153\n"+
		"F2            148\n"+
		"learned 320, aged 19, moved off failed filters 0, moved off removed filters 0, deleted with their balance group 0, already held 0, refused (table full) 4, failed 0, dropped (learner behind) 0; backlog 0 of 0; read back 10s ago\n", b.String())

	a := &apiv1.Counters{At: timestamppb.New(time.Unix(999, 0)), SessionMemory: &apiv1.SessionMemory{Held: 1,
		FilterGroups: []*apiv1.SessionMemoryGroup{{Name: "F1", Held: 1}}}}
	r, err := counterRates(a, &apiv1.Counters{At: at, SessionMemory: sm}, 1)
	require.NoError(t, err, "filter groups that come and go between readings are no change of the site")
	assert.Equal(t, int64(301), r.GetSessionMemory().GetHeld(), "counts, the second reading's")
}

// The sessions kept in bypass (return: new-sessions) are a row of their
// own, named as such, and the count of those kept (and of returns not kept
// in time) follows the learner's counts.
func TestWriteSessionsKeptInBypass(t *testing.T) {
	sm := &apiv1.SessionMemory{Held: 40, Size: 1000, Occupancy: 0.04, Inserted: 40, Kept: 12, KeepTimedOut: 1,
		FilterGroups: []*apiv1.SessionMemoryGroup{{Name: "F2", Id: 1, Held: 30}, {Id: 63, Held: 10, KeptInBypass: true}, {Id: 9, Held: 0}}}
	var b bytes.Buffer
	writeSessionTable(&b, sm, nil)
	assert.Equal(t, "SESSION MEMORY  40 of 1000 sessions held (4.0 %)\n"+
		"FILTER GROUP                             SESSIONS HELD\n"+
		"F2                                       30\n"+
		"kept in bypass (id 63)                   10\n"+
		"id 9 (not in the running configuration)  0\n"+
		"learned 40, aged 0, moved off failed filters 0, moved off removed filters 0, deleted with their balance group 0, already held 0, refused (table full) 0, failed 0, dropped (learner behind) 0; backlog 0 of 0; kept in bypass on their filter's return 12 (1 returns not kept in time: their sessions went back)\n", b.String())
}

// locate shows a SESSION column with the session memory on: held (its
// entry's filter group and core, the slot's beside) or not held, and says
// when the learner's view stood in for the switch's table.
func TestWritePlacementsSession(t *testing.T) {
	var b bytes.Buffer
	writePlacements(&b, []*apiv1.Placement{
		{BalanceGroup: "G", Hash: 0x12, Slot: 18, FilterGroup: "F1", Core: 2, Effective: "forward", LanPort: "P4", WanPort: "P3",
			Session: "held", SessionFrom: "the switch's table", SlotFilterGroup: "F3", SlotCore: 0},
		{BalanceGroup: "H", Hash: 0x12, Slot: 2, FilterGroup: "F2", Core: 1, Effective: "forward", LanPort: "P6", WanPort: "P5",
			Session: "not held", SessionFrom: "the learner's view: the switch could not be read: x"},
	})
	out := b.String()
	assert.Contains(t, out, "SESSION")
	assert.Regexp(t, `G +0x00000012 +18 +F1 +2 +P4/P3 +forward +held \(its slot points to F3 core 0\)\n`, out)
	assert.Regexp(t, `H +0x00000012 +2 +F2 +1 +P6/P5 +forward +not held\n`, out)
	assert.Contains(t, out, "session memory read from the learner's view: the switch could not be read: x\n")
	b.Reset()
	writePlacements(&b, []*apiv1.Placement{{BalanceGroup: "G", FilterGroup: "F1", Effective: "forward"}})
	assert.NotContains(t, b.String(), "SESSION", "no session memory: no column")
}

// profile list's FAILBACK column says when a profile returns only new
// sessions to a filter back from software bypass.
func TestFailbackTextReturn(t *testing.T) {
	assert.Equal(t, "auto", failbackText(config.Profile{}))
	assert.Equal(t, "manual after 30s up, new sessions only", failbackText(config.Profile{Failback: config.FailbackManual,
		MinUpTime: config.Duration(30 * time.Second), Return: config.ReturnNewSessions}))
	assert.Equal(t, "auto", failbackText(config.Profile{Return: config.ReturnAll}))
}
