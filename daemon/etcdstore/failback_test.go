package etcdstore

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/p4src"
)

// A filter recovered under manual failback waits for return through an
// HA takeover: the leader saves the wait in etcd as it begins, the
// standby that takes over starts with it, keeps the filter in software
// bypass however long its keep-alives pass, and returns it only when the
// operator says so.
func TestHATakeoverKeepsRecoveredWait(t *testing.T) {
	t.Parallel() // the shared member, its keys under its own prefix; no fault of etcd
	data, err := os.ReadFile("testdata/ha.yaml")
	require.NoError(t, err)
	site := strings.Replace(string(data), "failure_action: bypass}", "failure_action: bypass, failback: manual, min_up_time: 1s}", 1)
	require.NotEqual(t, string(data), site)
	// testdata/ha.yaml's profile with keep-alives every 200 ms, not 50 ms,
	// and a filter group down after 50 lost (10 s, by the daemon's count
	// and by the pipeline's verdict), not 4 (200 ms): F1 and F3 must stay
	// up throughout, the takeover included (under manual failback a flap
	// of theirs waits for return too, in the saved state the test
	// compares), and F2 must get its passes in a row; a starved host
	// (load 20, -race) stalls the emulated filters and the daemons for
	// seconds.
	tolerant := strings.Replace(strings.Replace(site, "loss_threshold: 4,", "loss_threshold: 50,", 1), "interval: 50ms,", "interval: 200ms,", 1)
	require.Equal(t, 2, strings.Count(tolerant, "loss_threshold: 50,")+strings.Count(tolerant, "interval: 200ms,"))
	path := filepath.Join(t.TempDir(), "ha.yaml")
	require.NoError(t, os.WriteFile(path, []byte(tolerant), 0o644))

	// The lease docs/ha.md gives for etcd's default timing: with 2 s, a
	// leader on a starved host steps down on its own (its renewal late by
	// 1.5 s) before the test kills it.
	b := newHABedOn(t, startEtcd(t), nil, func(b *haBed) { b.config = path }, withLease(quorumLossLease))
	a := b.start("a")
	b.allUp(a)
	s := b.start("s")
	b.waitStandby(s)
	b.waitSavedUp("F1", "F2", "F3")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.traffic(ctx, 2000)
	share := b.toFilter(1)
	require.Eventually(t, func() bool { return b.toFilter(1) > share+100 }, 10*time.Second, time.Millisecond, "F2 carries its share")

	f2 := b.filters["F2"]
	f2.alive.Store(false)
	require.Eventually(t, func() bool {
		st, _, _ := filterState(a, "F2")
		return st == "down" && b.fgAction(1) == p4src.ActionFilterSWBypass
	}, 60*time.Second, time.Millisecond, "F2 failed over")
	f2.alive.Store(true)
	require.Eventually(t, func() bool { st, _, _ := filterState(a, "F2"); return st == "recovered" }, 60*time.Second, time.Millisecond)
	check, err := Open(newClient(t, b.etcd), b.prefix, 0)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		rt, err := check.LoadRuntime()
		return err == nil && slices.Equal(rt.Recovered, []string{"F2"}) && slices.Contains(rt.Down, "F2")
	}, 20*time.Second, 5*time.Millisecond, "the leader saves the wait")
	require.Eventually(t, func() bool { st, _, _ := filterState(s, "F2"); return st == "recovered" }, 20*time.Second, time.Millisecond,
		"the standby shows the wait from the store")

	took := b.takeover(a, s)
	st, reason, _ := filterState(s, "F2")
	t.Logf("takeover in %v; F2 on the new leader: %s (%s)", took, st, reason)
	require.Equal(t, "recovered", st)
	// While the stall guard holds a loss of a loaded host's first rounds
	// the reason says so instead: it ends.
	require.Eventually(t, func() bool {
		f := filterNamed(t, s, "F2")
		return !f.Held && f.Reason == "recovered, waiting for return"
	}, 10*time.Second, time.Millisecond, "reason %q", reason)

	// The new leader's keep-alives pass (20 rounds, 4 s): F2 stays out.
	passes := func() uint64 {
		stat, err := s.d.Status(context.Background())
		require.NoError(t, err)
		for _, f := range stat.Filters {
			if f.Name == "F2" {
				return f.Passes
			}
		}
		return 0
	}
	from, sent := passes(), b.toFilter(1)
	require.Eventually(t, func() bool { return passes() >= from+20 }, 60*time.Second, time.Millisecond)
	st, _, _ = filterState(s, "F2")
	assert.Equal(t, "recovered", st)
	assert.Equal(t, p4src.ActionFilterSWBypass, b.fgAction(1))
	assert.Zero(t, b.toFilter(1)-sent, "no data frame to F2 while it waits, after the takeover")

	require.NoError(t, s.d.ReturnFilterGroup(context.Background(), "F2"))
	assert.Equal(t, p4src.ActionFilterForward, b.fgAction(1))
	back := b.toFilter(1)
	require.Eventually(t, func() bool { return b.toFilter(1) > back+100 }, 10*time.Second, time.Millisecond, "F2 carries its share again")
	require.Eventually(t, func() bool {
		rt, err := check.LoadRuntime()
		return err == nil && len(rt.Recovered) == 0 && slices.Contains(rt.Up, "F2")
	}, 20*time.Second, 5*time.Millisecond, "the return is saved")
	assert.ErrorIs(t, s.d.ReturnFilterGroup(context.Background(), "F2"), daemon.ErrNotWaiting)
}
