package etcdstore

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/tables"
)

func TestStoreRevisionsAndConflicts(t *testing.T) {
	t.Parallel()
	addr := startEtcd(t)
	a, err := Open(newClient(t, addr), keys(t, "/balancer/test/sw1"), 0)
	require.NoError(t, err)
	b, err := Open(newClient(t, addr), keys(t, "/balancer/test/sw1/"), 0)
	require.NoError(t, err)
	other, err := Open(newClient(t, addr), keys(t, "/balancer/test/sw2/"), 0)
	require.NoError(t, err)
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

	_, _, err = a.Running()
	require.ErrorIs(t, err, os.ErrNotExist)

	// Two daemons seed at once: one revision.
	won, err := a.Seed([]byte("site: one\n"), "initial", now)
	require.NoError(t, err)
	assert.True(t, won)
	won, err = b.Seed([]byte("site: other\n"), "initial", now)
	require.NoError(t, err)
	assert.False(t, won, "the second seed finds the first")
	data, rev, err := b.Running()
	require.NoError(t, err)
	assert.Equal(t, "site: one\n", string(data))
	assert.Equal(t, uint64(1), rev.Number)
	assert.Equal(t, "initial", rev.Comment)
	assert.Equal(t, digest(data), rev.Digest)

	_, _, err = a.Running()
	require.NoError(t, err)
	// a saves revision 2; b read revision 1: its save is refused and says
	// which revision to re-read.
	r2, err := a.Save([]byte("site: two\n"), "by a", now)
	require.NoError(t, err)
	assert.Equal(t, uint64(2), r2.Number)
	_, err = b.Save([]byte("site: lost\n"), "by b", now)
	require.ErrorIs(t, err, daemon.ErrConflict)
	assert.Contains(t, err.Error(), "revision 2")
	assert.Contains(t, err.Error(), "read revision 1")
	data, _, err = a.Running()
	require.NoError(t, err)
	assert.Equal(t, "site: two\n", string(data), "the refused save changed nothing")

	// After re-reading, b's change goes through.
	_, _, err = b.Running()
	require.NoError(t, err)
	r3, err := b.Save([]byte("site: three\n"), "by b", now)
	require.NoError(t, err)
	assert.Equal(t, uint64(3), r3.Number)

	h, err := a.History()
	require.NoError(t, err)
	require.Len(t, h, 3)
	assert.Equal(t, []uint64{1, 2, 3}, []uint64{h[0].Number, h[1].Number, h[2].Number})
	assert.Equal(t, "by b", h[2].Comment)
	old, err := a.Revision(2)
	require.NoError(t, err)
	assert.Equal(t, "site: two\n", string(old))
	_, err = a.Revision(9)
	require.ErrorIs(t, err, daemon.ErrNotFound)

	// Another switch's prefix is another store.
	_, _, err = other.Running()
	require.ErrorIs(t, err, os.ErrNotExist)
}

func TestStoreRuntimeConflicts(t *testing.T) {
	t.Parallel()
	addr := startEtcd(t)
	a, err := Open(newClient(t, addr), keys(t, "/b/sw/"), 0)
	require.NoError(t, err)
	b, err := Open(newClient(t, addr), keys(t, "/b/sw/"), 0)
	require.NoError(t, err)
	rt, err := a.LoadRuntime()
	require.NoError(t, err)
	assert.Equal(t, daemon.Runtime{}, rt)
	_, err = b.LoadRuntime()
	require.NoError(t, err)

	require.NoError(t, a.SaveRuntime(daemon.Runtime{BypassGroups: []string{"F1"}}))
	require.NoError(t, a.SaveRuntime(daemon.Runtime{BypassGroups: []string{"F1"}, Down: []string{"F2"}}), "its own write is what it read")
	err = b.SaveRuntime(daemon.Runtime{BypassAll: true})
	require.ErrorIs(t, err, daemon.ErrConflict, "b read the runtime state before a changed it")
	rt, err = b.LoadRuntime()
	require.NoError(t, err)
	assert.Equal(t, daemon.Runtime{BypassGroups: []string{"F1"}, Down: []string{"F2"}}, rt)
	require.NoError(t, b.SaveRuntime(daemon.Runtime{BypassAll: true, BypassGroups: []string{"F1"}}))
	rt, err = a.LoadRuntime()
	require.NoError(t, err)
	assert.True(t, rt.BypassAll)
}

func TestStoreWatch(t *testing.T) {
	t.Parallel()
	addr := startEtcd(t)
	a, err := Open(newClient(t, addr), keys(t, "/b/sw/"), 0)
	require.NoError(t, err)
	b, err := Open(newClient(t, addr), keys(t, "/b/sw/"), 0)
	require.NoError(t, err)
	ch := a.Watch(ctxT(t))
	next := func() Change {
		select {
		case c := <-ch:
			return c
		case <-time.After(10 * time.Second):
			t.Fatal("no change reported within 10s")
		}
		return Change{}
	}
	assert.Equal(t, Change{Config: true, Runtime: true}, next(), "a new watch: re-read everything")
	_, err = b.Seed([]byte("site: x\n"), "", time.Now())
	require.NoError(t, err)
	assert.True(t, next().Config)
	_, err = b.LoadRuntime()
	require.NoError(t, err)
	require.NoError(t, b.SaveRuntime(daemon.Runtime{BypassAll: true}))
	assert.Equal(t, Change{Runtime: true}, next())
}

func TestOpenRefusesBadPrefix(t *testing.T) {
	t.Parallel()
	_, err := Open(nil, "balancer/sw1", 0)
	require.ErrorContains(t, err, "absolute key prefix")
	_, err = Open(nil, "", 0)
	require.Error(t, err)
	_, err = Open(nil, "/x/", -time.Second)
	require.ErrorContains(t, err, "must not be negative")
}

func TestStoreRuntimeOnBase(t *testing.T) {
	t.Parallel()
	addr := startEtcd(t)
	a, err := Open(newClient(t, addr), keys(t, "/b/sw/"), 0)
	require.NoError(t, err)
	b, err := Open(newClient(t, addr), keys(t, "/b/sw/"), 0)
	require.NoError(t, err)
	_, base, err := a.LoadRuntimeRev()
	require.NoError(t, err)
	assert.Zero(t, base, "nothing saved yet")
	r1, err := a.SaveRuntimeOn(0, daemon.Runtime{BypassGroups: []string{"F1"}})
	require.NoError(t, err)
	assert.NotZero(t, r1)
	same, err := b.SaveRuntimeOn(0, daemon.Runtime{BypassGroups: []string{"F1"}})
	require.NoError(t, err, "saving what the store holds is no conflict")
	assert.Equal(t, r1, same, "and writes nothing")
	// b took the state before a's save: its different change is refused,
	// even after b read the newer state (reading is not taking).
	_, _, err = b.LoadRuntimeRev()
	require.NoError(t, err)
	_, err = b.SaveRuntimeOn(0, daemon.Runtime{BypassAll: true})
	require.ErrorIs(t, err, daemon.ErrConflict)
	assert.Contains(t, err.Error(), "since this daemon took it at 0")
	r2, err := b.SaveRuntimeOn(r1, daemon.Runtime{BypassAll: true, BypassGroups: []string{"F1"}})
	require.NoError(t, err)
	assert.Greater(t, r2, r1)
	rt, at, err := a.LoadRuntimeRev()
	require.NoError(t, err)
	assert.Equal(t, r2, at)
	assert.True(t, rt.BypassAll)
}

func TestStoreKeepRevisions(t *testing.T) {
	t.Parallel()
	addr := startEtcd(t)
	s, err := Open(newClient(t, addr), keys(t, "/b/sw/"), 0)
	require.NoError(t, err)
	s.KeepRevisions(3)
	for i := range 5 {
		_, err := s.Save([]byte(fmt.Sprintf("site: s%d\n", i+1)), "", time.Now())
		require.NoError(t, err)
	}
	h, err := s.History()
	require.NoError(t, err)
	require.Len(t, h, 3)
	assert.Equal(t, []uint64{3, 4, 5}, []uint64{h[0].Number, h[1].Number, h[2].Number})
	_, err = s.Revision(2)
	require.ErrorIs(t, err, daemon.ErrNotFound)
	data, rev, err := s.Running()
	require.NoError(t, err)
	assert.Equal(t, uint64(5), rev.Number)
	assert.Equal(t, "site: s5\n", string(data))
}

func TestStoreLayoutsWithTheRevision(t *testing.T) {
	t.Parallel()
	addr := startEtcd(t)
	a, err := Open(newClient(t, addr), keys(t, "/b/sw/"), 0)
	require.NoError(t, err)
	b, err := Open(newClient(t, addr), keys(t, "/b/sw/"), 0)
	require.NoError(t, err)
	ls, err := a.Layouts()
	require.NoError(t, err)
	assert.Nil(t, ls, "none saved yet")
	l1 := map[string]*tables.Layout{"bg": {Group: 1, SlotBits: 2, Slots: []tables.Target{{FilterGroup: 1}, {FilterGroup: 2}, {FilterGroup: 1, Core: 1}, {FilterGroup: 2, Core: 3}}}}
	_, err = a.CommitOn(0, []byte("site: one\n"), daemon.Note{Comment: "initial"}, time.Now(), l1)
	require.NoError(t, err)
	got, err := b.Layouts()
	require.NoError(t, err)
	assert.Equal(t, l1, got, "another daemon reads the layouts saved with the revision")

	// A refused commit changes neither the revision nor the layouts.
	l2 := map[string]*tables.Layout{"bg": {Group: 1, SlotBits: 1, Slots: []tables.Target{{FilterGroup: 2}, {FilterGroup: 1}}}}
	_, err = b.CommitOn(0, []byte("site: two\n"), daemon.Note{Comment: "stale"}, time.Now(), l2)
	require.ErrorIs(t, err, daemon.ErrConflict)
	got, err = a.Layouts()
	require.NoError(t, err)
	assert.Equal(t, l1, got)

	// Save (no layouts) keeps the saved ones; a commit with layouts replaces them.
	_, err = a.Save([]byte("site: two\n"), "", time.Now())
	require.NoError(t, err)
	got, err = a.Layouts()
	require.NoError(t, err)
	assert.Equal(t, l1, got)
	_, err = a.CommitOn(2, []byte("site: three\n"), daemon.Note{Comment: ""}, time.Now(), l2)
	require.NoError(t, err)
	got, err = b.Layouts()
	require.NoError(t, err)
	assert.Equal(t, l2, got)

	// Who made a revision is stored with it: another daemon (or this one
	// restarted) reads it back in the running revision and the history.
	r4, err := a.CommitOn(3, []byte("site: four\n"), daemon.Note{Comment: "four", By: "CN=ops1"}, time.Now(), nil)
	require.NoError(t, err)
	assert.Equal(t, "CN=ops1", r4.By)
	_, running, err := b.Running()
	require.NoError(t, err)
	assert.Equal(t, r4, running)
	h, err := b.History()
	require.NoError(t, err)
	require.NotEmpty(t, h)
	assert.Equal(t, r4, h[len(h)-1])
	assert.Empty(t, h[0].By, "the first revision was saved without one")
}

// A save under way when the leader starts holding (etcd lost its quorum)
// ends at once with ErrQuorumLost instead of waiting out its timeout, and
// later saves are refused without asking etcd until the hold ends.
func TestStoreHeldCancelsSaves(t *testing.T) {
	t.Parallel()
	addr := startEtcd(t)
	p := newProxy(t, addr)
	st, err := Open(newClient(t, p.addr()), keys(t, "/b/sw/"), time.Minute)
	require.NoError(t, err)
	_, err = st.Seed([]byte("site: one\n"), "initial", time.Now())
	require.NoError(t, err)
	_, base, err := st.LoadRuntimeRev()
	require.NoError(t, err)

	p.partition()
	before := p.dropped.Load()
	done := make(chan error, 1)
	go func() {
		_, err := st.SaveRuntimeOn(base, daemon.Runtime{BypassAll: true})
		done <- err
	}()
	require.Eventually(t, func() bool { return p.dropped.Load() > before }, 10*time.Second, time.Millisecond,
		"the save's request is on its way to etcd")
	st.setHeld(true)
	select {
	case err := <-done:
		require.ErrorIs(t, err, ErrQuorumLost)
		require.ErrorIs(t, err, daemon.ErrUnavailable)
	case <-time.After(30 * time.Second):
		t.Fatal("the save under way waited on etcd after the hold began")
	}
	_, err = st.CommitOn(1, []byte("site: two\n"), daemon.Note{Comment: ""}, time.Now(), nil)
	require.ErrorIs(t, err, ErrQuorumLost)
	require.ErrorIs(t, st.SaveRuntime(daemon.Runtime{BypassAll: true}), ErrQuorumLost)

	p.heal()
	st.setHeld(false)
	_, err = st.SaveRuntimeOn(base, daemon.Runtime{BypassAll: true})
	require.NoError(t, err, "saves go to etcd again")
}

// A filter judged failed open is in the runtime state etcd keeps, as in
// runtime.json: a new leader reads what found it and since when.
func TestStoreRuntimeKeepsFailedOpen(t *testing.T) {
	t.Parallel()
	addr := startEtcd(t)
	a, err := Open(newClient(t, addr), keys(t, "/b/sw/"), 0)
	require.NoError(t, err)
	b, err := Open(newClient(t, addr), keys(t, "/b/sw/"), 0)
	require.NoError(t, err)
	_, err = a.LoadRuntime()
	require.NoError(t, err)
	since := time.Date(2026, 12, 7, 5, 0, 0, 123456789, time.UTC)
	want := daemon.Runtime{Down: []string{"F2"}, Up: []string{"F1"},
		FailedOpen: map[string]daemon.FailedOpen{"F2": {Since: since, Detail: "failed open: probe returned lan-to-wan (on its WAN port 30): the filter passed its payload uninspected"}}}
	require.NoError(t, a.SaveRuntime(want))
	got, err := b.LoadRuntime()
	require.NoError(t, err)
	assert.Equal(t, want.FailedOpen["F2"].Detail, got.FailedOpen["F2"].Detail)
	assert.True(t, since.Equal(got.FailedOpen["F2"].Since), "since %v, read %v", since, got.FailedOpen["F2"].Since)
	assert.Equal(t, want.Down, got.Down)
}
