package apiserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/internal/buildinfo"
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

// The management API carries the daemon's build and start time, field by
// field.
func TestStatusToProtoCarriesDaemonInfo(t *testing.T) {
	at := time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC)
	st := &daemon.Status{Daemon: daemon.DaemonInfo{StartedAt: at, Build: buildinfo.Info{Version: "v1.2.3",
		Revision: "abc", Time: "2026-11-30T00:00:00Z", Modified: true, Go: "go1.26.8", Platform: "linux/amd64"}}}
	d := statusToProto(st).GetDaemon()
	assert.Equal(t, "v1.2.3", d.GetVersion())
	assert.Equal(t, "abc", d.GetRevision())
	assert.Equal(t, "2026-11-30T00:00:00Z", d.GetRevisionTime())
	assert.True(t, d.GetModified())
	assert.Equal(t, "go1.26.8", d.GetGo())
	assert.Equal(t, "linux/amd64", d.GetPlatform())
	assert.Equal(t, at, d.GetStartedAt().AsTime())
}
