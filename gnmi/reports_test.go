package gnmi

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSpeedStrings(t *testing.T) {
	assert.Equal(t, "SPEED_100GB", SpeedString(100_000_000_000))
	assert.Equal(t, "SPEED_25GB", SpeedString(25_000_000_000))
	assert.Equal(t, SpeedUnknown, SpeedString(1))
	assert.Equal(t, uint64(10_000_000_000), ParseSpeed("SPEED_10GB"))
	assert.Equal(t, uint64(40_000_000_000), ParseSpeed("openconfig-if-ethernet:SPEED_40GB"))
	assert.Zero(t, ParseSpeed(SpeedUnknown))
}

// WithPortReports follows admin-status and port-speed in the same stream,
// before the sync is reported, then every change and delete.
func TestWatchPortReports(t *testing.T) {
	srv := newTestServer(t)
	require.NoError(t, srv.PublishInterface(InterfaceState{Name: "9/0", OperUp: true, AdminUp: true, SpeedBPS: 100_000_000_000}))
	require.NoError(t, srv.PublishInterface(InterfaceState{Name: "4/1", AdminUp: false, SpeedBPS: 10_000_000_000}))
	require.NoError(t, srv.PublishInterface(InterfaceState{Name: "5/0", OperUp: true, AdminUp: true})) // no speed leaf
	_, addr := serve(t, srv, "127.0.0.1:0")

	reports := make(chan PortReport, 32)
	conn := make(chan bool, 4)
	events := make(chan OperEvent, 32)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- WatchOperStatus(ctx, addr, []string{"9/0", "4/1", "5/0", "6/0"}, insecureDial, events,
			WithTarget(testTarget), WithConnState(func(c bool) { conn <- c }),
			WithPortReports(func(r PortReport) { reports <- r }))
	}()
	defer func() {
		cancel()
		<-done
	}()

	assert.True(t, next(t, conn, "sync"))
	// Everything of the initial state was reported before the sync.
	got := map[string]PortReport{}
	for len(reports) > 0 {
		r := <-reports
		got[r.Name+" "+r.Leaf] = r
	}
	assert.Equal(t, map[string]PortReport{
		"9/0 " + LeafAdminStatus: {Name: "9/0", Leaf: LeafAdminStatus, AdminUp: true},
		"9/0 " + LeafPortSpeed:   {Name: "9/0", Leaf: LeafPortSpeed, Speed: "SPEED_100GB", SpeedBPS: 100_000_000_000},
		"4/1 " + LeafAdminStatus: {Name: "4/1", Leaf: LeafAdminStatus},
		"4/1 " + LeafPortSpeed:   {Name: "4/1", Leaf: LeafPortSpeed, Speed: "SPEED_10GB", SpeedBPS: 10_000_000_000},
		"5/0 " + LeafAdminStatus: {Name: "5/0", Leaf: LeafAdminStatus, AdminUp: true},
	}, got)

	// A change of speed only reaches the callback for that leaf.
	require.NoError(t, srv.PublishInterface(InterfaceState{Name: "9/0", OperUp: true, AdminUp: true, SpeedBPS: 40_000_000_000}))
	r := next(t, reports, "speed change")
	assert.Equal(t, PortReport{Name: "9/0", Leaf: LeafPortSpeed, Speed: "SPEED_40GB", SpeedBPS: 40_000_000_000}, r)

	// The port goes away: both leaves are deleted.
	require.NoError(t, srv.DeleteInterface("4/1"))
	deleted := map[string]bool{}
	deadline := time.After(testTimeout)
	for len(deleted) < 2 {
		select {
		case r := <-reports:
			require.True(t, r.Deleted, "%+v", r)
			require.Equal(t, "4/1", r.Name)
			deleted[r.Leaf] = true
		case <-deadline:
			require.FailNow(t, "no deletes")
		}
	}
}
