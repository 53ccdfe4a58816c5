package apiserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/dpi-balancer/balancer/daemon"
)

// The management API carries the session's and the stall guard's alarms.
func TestStatusToProtoCarriesAlarms(t *testing.T) {
	at := time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC)
	st := &daemon.Status{
		Switch: daemon.SwitchStatus{Stalled: true, StalledSince: at, Pending: true, NextRetry: at.Add(time.Second),
			StatePending: true, Alarm: "switch stalled"},
		Filters: []daemon.FilterStatus{{Name: "F1", Held: true, Returning: true}},
		Balance: []daemon.BalanceGroupStatus{{Name: "G", KeepAliveStall: true, StallSince: at}},
	}
	p := statusToProto(st)
	sw := p.GetSwitchStatus()
	assert.True(t, sw.GetStalled())
	assert.Equal(t, at, sw.GetStalledSince().AsTime())
	assert.True(t, sw.GetPending())
	assert.Equal(t, at.Add(time.Second), sw.GetNextRetry().AsTime())
	assert.True(t, sw.GetStatePending())
	assert.Equal(t, "switch stalled", sw.GetAlarm())
	assert.True(t, p.GetFilters()[0].GetHeld())
	assert.True(t, p.GetFilters()[0].GetReturning())
	assert.True(t, p.GetBalanceGroups()[0].GetKeepaliveStall())
	assert.Equal(t, at, p.GetBalanceGroups()[0].GetStallSince().AsTime())
}
