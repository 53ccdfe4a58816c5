package cli

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"google.golang.org/protobuf/types/known/timestamppb"

	apiv1 "github.com/dpi-balancer/balancer/api"
)

// status shows the alarms an operator must act on: a hung switch, state
// not yet on the switch, a filter held by the stall guard and a balance
// group whose keep-alive path is suspected.
func TestStatusShowsAlarms(t *testing.T) {
	now := time.Date(2026, 12, 1, 3, 0, 10, 0, time.UTC)
	since := timestamppb.New(now.Add(-4 * time.Second))
	st := &apiv1.Status{
		ObservedAt: timestamppb.New(now),
		SwitchStatus: &apiv1.SwitchStatus{Address: "sw1:9559", Connected: false, Stalled: true, StalledSince: since,
			Pending: true, StatePending: true},
		Filters: []*apiv1.FilterStatus{{Name: "F1", BalanceGroup: "G", State: "up", Effective: "forward", Held: true, Returning: true}},
		BalanceGroups: []*apiv1.BalanceGroupStatus{{Name: "G", State: "active", Members: []string{"F1"}, Alive: 1,
			KeepaliveStall: true, StallSince: since}},
	}
	var b bytes.Buffer
	writeStatus(&b, st)
	out := b.String()
	assert.Contains(t, out, "NOT CONNECTED")
	assert.Contains(t, out, "ALARM switch stalled: the connection is open but the switch has not answered since")
	assert.Contains(t, out, "desired state not on the switch yet")
	assert.Contains(t, out, "an availability change (failover, recovery or bypass) is decided but not yet written to the switch")
	assert.Contains(t, out, "up (held) (traffic returning)")
	assert.Contains(t, out, "ALARM balance group G: keep-alives of most of its filters were lost at once")

	// A healthy status raises none of them.
	b.Reset()
	writeStatus(&b, &apiv1.Status{ObservedAt: timestamppb.New(now), SwitchStatus: &apiv1.SwitchStatus{Connected: true, Primary: true},
		Filters:       []*apiv1.FilterStatus{{Name: "F1", State: "up", Effective: "forward"}},
		BalanceGroups: []*apiv1.BalanceGroupStatus{{Name: "G", State: "active"}}})
	assert.NotContains(t, b.String(), "ALARM")
	assert.NotContains(t, b.String(), "held")
	assert.NotContains(t, b.String(), "not yet written")
}

// status raises the alarm of another controller being primary on the
// switch (the daemon connected as a backup, with the alarm line).
func TestStatusShowsOtherPrimary(t *testing.T) {
	alarm := "another controller is primary on the switch (election id 5:0, this daemon's 0:7, since 2026-12-01T03:00:09Z): it can rewrite every table"
	var b bytes.Buffer
	writeStatus(&b, &apiv1.Status{SwitchStatus: &apiv1.SwitchStatus{Address: "sw1:9559", Connected: true, Primary: false, ElectionId: "0:7", Alarm: alarm}})
	assert.Contains(t, b.String(), "connected, backup (not writing)")
	assert.Contains(t, b.String(), "  ALARM "+alarm+"\n")
}

// status raises the alarm of a switch that refuses the daemon's election
// id (another stream holds it: the daemon's own, cut off without a
// close) although the daemon is not connected.
func TestStatusShowsElectionRefused(t *testing.T) {
	alarm := "switch refuses election id 0:7: another stream holds it (most likely this daemon's own connection lost in a network cut, which the switch has not dropped yet; ...)"
	var b bytes.Buffer
	writeStatus(&b, &apiv1.Status{SwitchStatus: &apiv1.SwitchStatus{Address: "sw1:9559", ElectionId: "0:7", ElectionRefused: true, Alarm: alarm,
		LastError: "controlplane: election id in use on the switch: the switch refused election id 0:7: ..."}})
	assert.Contains(t, b.String(), "NOT CONNECTED")
	assert.Contains(t, b.String(), "  ALARM "+alarm+"\n")

	// Not connected for another reason: the last error says why, no ALARM
	// line (as before).
	b.Reset()
	writeStatus(&b, &apiv1.Status{SwitchStatus: &apiv1.SwitchStatus{Address: "sw1:9559", ElectionId: "0:7", Alarm: "switch disconnected: dial",
		LastError: "dial"}})
	assert.NotContains(t, b.String(), "ALARM")
}
