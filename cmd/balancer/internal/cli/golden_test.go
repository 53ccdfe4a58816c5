package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	apiv1 "github.com/dpi-balancer/balancer/api"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(want), got)
}

// goldenStatuses cover every line and state writeStatus can print: a
// primary with everything, a standby of a leader election, a backup with
// an alarm, and a disconnected switch with stale state.
func goldenStatuses() map[string]*apiv1.Status {
	now := time.Date(2026, 12, 1, 3, 0, 10, 0, time.UTC)
	ts := func(ago time.Duration) *timestamppb.Timestamp { return timestamppb.New(now.Add(-ago)) }
	filters := []*apiv1.FilterStatus{
		{Name: "F1", BalanceGroup: "G", Lan: "P2", Wan: "P1", Cores: 4, State: "up", Reason: "keep-alives answered", Since: ts(time.Hour),
			Effective: "forward", LastPass: ts(100 * time.Millisecond), TimeOfPass: durationpb.New(120 * time.Microsecond), Losses: 3},
		{Name: "F2", BalanceGroup: "G", Lan: "P12", Wan: "P11", Cores: 2, State: "down", Reason: "keep-alives lost", Since: ts(time.Minute),
			Effective: "sw-bypass", Losses: 12, Consecutive: 7, Verdict: "dead: no returns for 60ms", VerdictEpoch: 3,
			Verdicts: []*apiv1.DataPlaneVerdict{{At: ts(time.Minute), Epoch: 3, Text: "dead", Disagree: true}}},
		{Name: "F3", BalanceGroup: "G", Lan: "P14", Wan: "P13", Cores: 2, State: "up", Effective: "forward", Held: true},
		{Name: "F4", BalanceGroup: "G", Lan: "P16", Wan: "P15", Cores: 2, State: "up", Effective: "forward", Held: true, Returning: true,
			Verdicts: []*apiv1.DataPlaneVerdict{{At: ts(time.Hour), Epoch: 1, Text: "dead", Disagree: true, Cleared: ts(time.Minute)}}},
	}
	// A standby's filters: the leader's states as last saved in the store.
	standbyFilters := []*apiv1.FilterStatus{
		{Name: "F1", BalanceGroup: "G", Lan: "P2", Wan: "P1", Cores: 4, State: "up", Reason: "standby: the leader's state as last saved in the store", Since: ts(time.Hour), Effective: "forward"},
		{Name: "F2", BalanceGroup: "G", Lan: "P12", Wan: "P11", Cores: 2, State: "down", Reason: "standby: the leader's state as last saved in the store", Since: ts(time.Minute), Effective: "sw-bypass"},
	}
	balance := []*apiv1.BalanceGroupStatus{
		{Name: "G", State: "active", Members: []string{"F1", "F2", "F3", "F4"}, Alive: 3, MinActive: 1, SlotBits: 4,
			Digest: "0123456789ab", BaseDigest: "ba9876543210", KeepaliveStall: true, StallSince: ts(4 * time.Second)},
		{Name: "H", State: "bypass", Members: []string{"F5"}, MinActive: 1, SlotBits: 2, Digest: "aaaaaaaaaaaa", BaseDigest: "aaaaaaaaaaaa"},
	}
	links := []*apiv1.LinkStatus{
		{Name: "L1", Id: 0, Lan: "P42", Wan: "P41", LanUp: true, WanUp: true},
		{Name: "L2", Id: 1, Lan: "P10", Wan: "P9", LanState: "up", WanState: "down"},
	}
	return map[string]*apiv1.Status{
		"primary": {Site: "lab", ObservedAt: timestamppb.New(now),
			Revision: &apiv1.Revision{Number: 7, Time: ts(2 * time.Hour), Comment: "faster keep-alives", Digest: "abcdef012345"},
			SwitchStatus: &apiv1.SwitchStatus{Address: "sw1:9559", Connected: true, Primary: true, ElectionId: "0:9", PipelineVerdict: true,
				LastError: "deadline exceeded", LastReconcile: ts(time.Second), LastPlan: "2 inserts, 0 modifies, 1 delete",
				AtomicWrites: true, PortsWatched: true, Pending: true, NextRetry: ts(-time.Second), StatePending: true,
				PortAlarms: []string{"port P9 is down"}},
			Bypass: &apiv1.BypassStatus{Groups: []string{"F3"}},
			Ha:     &apiv1.HAStatus{Store: "etcd", StoreHealthy: true, Name: "a", Leader: true, LeaderName: "a", Standbys: []string{"b"}},
			Links:  links, Filters: filters, BalanceGroups: balance,
			SessionMemory: &apiv1.SessionMemory{Held: 1500, Size: 65536, Occupancy: 1500.0 / 65536,
				FilterGroups: []*apiv1.SessionMemoryGroup{{Name: "F1", Id: 0, Held: 1000}, {Name: "F2", Id: 1, Held: 499}, {Id: 9, Held: 1}},
				Inserted:     1800, Aged: 300, Duplicates: 4, Full: 0, Failed: 0, Dropped: 2, Backlog: 3, QueueBound: 65536, LastReadBack: ts(10 * time.Second), Rehomed: 7, Reassigned: 5, Removed: 1}},
		"standby": {ObservedAt: timestamppb.New(now), Revision: &apiv1.Revision{Number: 1}, Stale: true,
			SwitchStatus: &apiv1.SwitchStatus{Address: "sw1:9559", Connected: true, ElectionId: "0:0", LastReconcile: ts(time.Minute)},
			Ha:           &apiv1.HAStatus{Store: "etcd", StoreHealthy: true, Name: "b", LeaderName: "a"},
			Filters:      standbyFilters},
		"standby-quorum-lost": {ObservedAt: timestamppb.New(now), Revision: &apiv1.Revision{Number: 1}, Stale: true,
			SwitchStatus: &apiv1.SwitchStatus{Address: "sw1:9559", Connected: true, ElectionId: "0:0"},
			Ha: &apiv1.HAStatus{Store: "etcd", Name: "b",
				StoreError: "etcd store /balancer/site-a/sw1/: etcd has lost its quorum (no etcd member this daemon reaches has a leader)"},
			Filters: standbyFilters},
		"backup": {ObservedAt: timestamppb.New(now),
			SwitchStatus: &apiv1.SwitchStatus{Address: "sw1:9559", Connected: true, ElectionId: "0:7", Alarm: "another controller is primary on the switch",
				Pending: true}},
		"disconnected": {Site: "lab", ObservedAt: timestamppb.New(now), Stale: true,
			SwitchStatus: &apiv1.SwitchStatus{Address: "sw1:9559", LastError: "connection refused", Stalled: true, StalledSince: ts(4 * time.Second),
				Alarm: "not shown: not connected"},
			Bypass: &apiv1.BypassStatus{All: true},
			Links:  links, Filters: filters[:2], BalanceGroups: balance[:1]},
	}
}

// TestStatusGolden: status's text, line for line, in every state.
func TestStatusGolden(t *testing.T) {
	for name, st := range goldenStatuses() {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			writeStatus(&b, st)
			golden(t, "status_"+name+".txt", b.String())
		})
	}
}
