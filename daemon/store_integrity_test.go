package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/tables"
)

// disk is a fault injector: a disk with a byte budget that fails writes
// with ENOSPC once it is spent.
type disk struct{ left int }

func (d *disk) write(w io.Writer, b []byte) error {
	if len(b) > d.left {
		d.left = 0
		return &os.PathError{Op: "write", Path: "(test disk)", Err: syscall.ENOSPC}
	}
	d.left -= len(b)
	_, err := w.Write(b)
	return err
}

func testLayouts(seed uint32) map[string]*tables.Layout {
	l, err := tables.BaseLayout(1, 6, []tables.Member{{ID: seed % 8, Cores: 3}, {ID: 9, Cores: 1 + seed%5}})
	if err != nil {
		panic(err)
	}
	return map[string]*tables.Layout{"G": l}
}

// TestStoreFullDisk runs saves, runtime saves and restarts against a disk
// that fills up and is freed at random: every operation either succeeds
// durably or fails with ErrNotDurable and leaves no trace, and after every
// restart the state is exactly what was acknowledged.
func TestStoreFullDisk(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(4, 5))
	d := &disk{left: 1 << 20}
	open := func() *Store {
		s, err := OpenStore(dir, WithRetention(8, 1<<20))
		require.NoError(t, err)
		s.write = d.write
		return s
	}
	s := open()
	var acked []Revision
	var ackedData []byte
	var ackedLayouts map[string]*tables.Layout
	var ackedRuntime Runtime
	failures := map[string]int{}
	for i := 0; i < 400; i++ {
		if rng.IntN(5) == 0 {
			d.left = rng.IntN(3000) // the disk fills up
		}
		if rng.IntN(7) == 0 {
			d.left = 1 << 20 // space is freed
		}
		switch rng.IntN(3) {
		case 0, 1:
			data := []byte(fmt.Sprintf("site: s%d\n# %s\n", i, strings.Repeat("x", rng.IntN(1500))))
			var ls map[string]*tables.Layout
			if rng.IntN(2) == 0 {
				ls = testLayouts(uint32(i))
			}
			before, err := s.History()
			require.NoError(t, err)
			r, err := s.Commit(data, Note{Comment: fmt.Sprint("change ", i)}, time.Unix(int64(i), 0), ls)
			if err != nil {
				require.ErrorIs(t, err, ErrNotDurable)
				var errno syscall.Errno
				require.True(t, errors.As(err, &errno) && errno == syscall.ENOSPC, "%v", err)
				after, err := s.History()
				require.NoError(t, err)
				assert.Equal(t, before, after, "a refused change leaves no trace in history")
				failures["commit"]++
				break
			}
			acked = append(acked, r)
			ackedData = data
			if ls != nil {
				ackedLayouts = ls
			}
		case 2:
			rt := Runtime{BypassAll: rng.IntN(2) == 0, Down: []string{fmt.Sprint("F", i)}}
			if err := s.SaveRuntime(rt); err != nil {
				require.ErrorIs(t, err, ErrNotDurable)
				failures["runtime"]++
				break
			}
			ackedRuntime = rt
		}
		if rng.IntN(4) == 0 || i == 399 {
			require.NoError(t, s.Close())
			s = open() // restart
			if len(acked) == 0 {
				_, _, err := s.Running()
				require.ErrorIs(t, err, os.ErrNotExist)
				continue
			}
			data, rev, err := s.Running()
			require.NoError(t, err)
			assert.Equal(t, string(ackedData), string(data))
			assert.Equal(t, acked[len(acked)-1], rev)
			h, err := s.History()
			require.NoError(t, err)
			want := acked[max(0, len(acked)-8):]
			assert.Equal(t, want, h, "history is the acknowledged revisions, the newest 8 kept")
			ls, err := s.Layouts()
			require.NoError(t, err)
			assert.Equal(t, ackedLayouts, ls)
			rt, err := s.LoadRuntime()
			require.NoError(t, err)
			assert.Equal(t, ackedRuntime, rt)
			left, err := filepath.Glob(filepath.Join(dir, "*", ".*tmp*"))
			require.NoError(t, err)
			assert.Empty(t, left, "no temporary file left behind")
		}
	}
	t.Logf("%d acknowledged revisions, refused: %v", len(acked), failures)
	require.Greater(t, failures["commit"], 10)
	require.Greater(t, failures["runtime"], 3)
	require.Greater(t, len(acked), 50)
}

// TestStoreInterruptedSave stops a save before each of its renames, as a
// crash would, and opens the store again: the save is rolled back (its
// revision was never acknowledged) or, past the commit point, complete.
func TestStoreInterruptedSave(t *testing.T) {
	for step := 0; step < 5; step++ {
		t.Run(fmt.Sprint("before rename ", step), func(t *testing.T) {
			dir := t.TempDir()
			s, err := OpenStore(dir)
			require.NoError(t, err)
			r1, err := s.Commit([]byte("site: one\n"), Note{Comment: "one"}, time.Unix(1, 0), testLayouts(1))
			require.NoError(t, err)
			n := 0
			s.beforeRename = func(string) {
				if n == step {
					runtime.Goexit() // the crash: nothing after this runs
				}
				n++
			}
			done := make(chan struct{})
			go func() {
				defer close(done)
				_, _ = s.Commit([]byte("site: two\n"), Note{Comment: "two"}, time.Unix(2, 0), testLayouts(2))
			}()
			<-done
			if step == 4 {
				// Committed; a crash before the backups were removed
				// leaves one behind.
				require.NoError(t, os.WriteFile(filepath.Join(dir, "running.yaml.prev"), []byte("site: one\n"), 0o640))
			}
			require.NoError(t, s.Close()) // the crashed process's lock goes with it
			s2, err := OpenStore(dir)
			require.NoError(t, err)
			data, rev, err := s2.Running()
			require.NoError(t, err)
			h, err := s2.History()
			require.NoError(t, err)
			ls, err := s2.Layouts()
			require.NoError(t, err)
			_, err = os.Stat(filepath.Join(dir, "running.yaml.prev"))
			assert.ErrorIs(t, err, os.ErrNotExist, "no backup is left")
			if step < 4 { // the metadata rename (the fourth) is the commit point
				assert.Equal(t, "site: one\n", string(data))
				assert.Equal(t, r1, rev)
				assert.Equal(t, []Revision{r1}, h)
				assert.Equal(t, testLayouts(1), ls)
				_, err = os.Stat(filepath.Join(dir, "revisions", "00000002.yaml"))
				assert.ErrorIs(t, err, os.ErrNotExist, "no uncommitted revision is left")
				// And the next save takes the number.
				r2, err := s2.Save([]byte("site: three\n"), "", time.Unix(3, 0))
				require.NoError(t, err)
				assert.Equal(t, uint64(2), r2.Number)
				return
			}
			assert.Equal(t, "site: two\n", string(data))
			assert.Equal(t, uint64(2), rev.Number)
			assert.Len(t, h, 2)
			assert.Equal(t, testLayouts(2), ls)
		})
	}
}

// TestStoreRefusesDamage damages a store in the ways a disk or an operator
// can, and checks each is refused with the problem and the last good
// revision named.
func TestStoreRefusesDamage(t *testing.T) {
	setup := func(t *testing.T) *Store {
		s, err := OpenStore(t.TempDir())
		require.NoError(t, err)
		for i := 1; i <= 3; i++ {
			_, err := s.Commit([]byte(fmt.Sprintf("site: s%d\nlinks: []\n", i)), Note{Comment: ""}, time.Unix(int64(i), 0), testLayouts(uint32(i)))
			require.NoError(t, err)
		}
		return s
	}
	for _, tt := range []struct {
		name   string
		damage func(dir string) error
		want   []string
	}{
		{"running truncated but still parses", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "running.yaml"), []byte("site: s3\n"), 0o640)
		}, []string{"running.yaml (digest", "is not the newest revision 3", "the last good revision is 3"}},
		{"newest revision damaged", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "revisions", "00000003.yaml"), []byte("site: s9\n"), 0o640)
		}, []string{"revision 3: revisions/00000003.yaml has digest", "the last good revision is 2"}},
		{"torn metadata", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "revisions", "00000002.json"), []byte(`{"time":`), 0o640)
		}, []string{"revision 2: revisions/00000002.json is not valid metadata", "the last good revision is 3"}},
		{"running removed", func(dir string) error {
			return os.Remove(filepath.Join(dir, "running.yaml"))
		}, []string{"running.yaml is missing but history holds 3 revisions", "the last good revision is 3"}},
		{"layouts damaged", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "layouts.json"), []byte(`{"revision":3,"groups":[],"digest":"x"}`), 0o640)
		}, []string{"layouts.json: digest mismatch (remove it", "the last good revision is 3"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := setup(t)
			require.NoError(t, tt.damage(s.Dir()))
			require.NoError(t, s.Close())
			s, err := OpenStore(s.Dir())
			require.NoError(t, err)
			_, _, err = s.Running()
			require.ErrorIs(t, err, ErrDamagedStore)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
	t.Run("a damaged revision is not rolled back to", func(t *testing.T) {
		s := setup(t)
		require.NoError(t, os.WriteFile(filepath.Join(s.Dir(), "revisions", "00000001.yaml"), []byte("site: s1\n"), 0o640))
		_, err := s.Revision(1)
		assert.ErrorIs(t, err, ErrDamagedStore)
	})
}

func TestStoreRetention(t *testing.T) {
	s, err := OpenStore(t.TempDir(), WithRetention(5, 1<<30))
	require.NoError(t, err)
	for i := 1; i <= 12; i++ {
		_, err := s.Save([]byte(fmt.Sprintf("site: s%d\n", i)), "", time.Unix(int64(i), 0))
		require.NoError(t, err)
	}
	h, err := s.History()
	require.NoError(t, err)
	require.Len(t, h, 5)
	assert.Equal(t, uint64(8), h[0].Number)
	assert.Equal(t, uint64(12), h[4].Number)
	_, err = s.Revision(3)
	assert.ErrorIs(t, err, ErrNotFound)
	assert.Contains(t, err.Error(), "pruned")

	// By size: 120 kB comments, 1 MB of history.
	s, err = OpenStore(t.TempDir(), WithRetention(1000, 1<<20))
	require.NoError(t, err)
	comment := strings.Repeat("c", 120<<10)
	for i := 1; i <= 40; i++ {
		_, err := s.Save([]byte(fmt.Sprintf("site: s%d\n", i)), comment, time.Unix(int64(i), 0))
		require.NoError(t, err)
	}
	h, err = s.History()
	require.NoError(t, err)
	assert.Len(t, h, 8, "1 MB holds 8 revisions of 120 kB")
	assert.Equal(t, uint64(40), h[len(h)-1].Number)

	// The running revision stays even when it alone is over the limit.
	s, err = OpenStore(t.TempDir(), WithRetention(1, 10))
	require.NoError(t, err)
	for i := 1; i <= 3; i++ {
		_, err := s.Save([]byte(fmt.Sprintf("site: s%d\n", i)), comment, time.Unix(int64(i), 0))
		require.NoError(t, err)
	}
	h, err = s.History()
	require.NoError(t, err)
	require.Len(t, h, 1)
	assert.Equal(t, uint64(3), h[0].Number)
	_, _, err = s.Running()
	require.NoError(t, err)

	_, err = OpenStore(t.TempDir(), WithRetention(0, 1))
	assert.ErrorContains(t, err, "retention of 0 revisions: must be at least 1")
}

// TestDaemonApplyOnFullDisk: a configuration change that cannot be saved
// is refused (an error, the running configuration and history unchanged),
// and after a restart the daemon runs what was acknowledged.
func TestDaemonApplyOnFullDisk(t *testing.T) {
	dir := t.TempDir()
	start := func() *Daemon {
		d, err := New(Options{StateDir: dir, InitialConfig: "testdata/fast.yaml", SwitchAddr: "127.0.0.1:1", SwitchGNMI: ""})
		require.NoError(t, err)
		return d
	}
	d := start()
	// No switch session runs: a cancelled context makes programming give
	// up at once (the save comes first).
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	base, err := os.ReadFile("testdata/fast.yaml")
	require.NoError(t, err)
	edit := func(i int) []byte {
		return []byte(strings.Replace(string(base), "site: fast", fmt.Sprintf("site: fast%d", i), 1))
	}

	res, err := d.ApplyConfig(ctx, edit(1), false, "one")
	require.NoError(t, err)
	acked := res.Revision
	h0, err := d.History(ctx)
	require.NoError(t, err)

	full := &disk{left: 10}
	d.store.(*Store).write = full.write
	_, err = d.ApplyConfig(ctx, edit(2), false, "two")
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrNotDurable)
	assert.Contains(t, err.Error(), "configuration refused, the running one is unchanged")
	_, rev, _ := d.Config(ctx)
	assert.Equal(t, acked, rev)
	h, err := d.History(ctx)
	require.NoError(t, err)
	assert.Equal(t, h0, h, "a refused change leaves no trace in history")
	_, err = d.Rollback(ctx, 1, false, "")
	assert.ErrorIs(t, err, ErrNotDurable)

	require.NoError(t, d.Close())
	d2 := start()
	cfg, rev, _ := d2.Config(ctx)
	assert.Equal(t, acked, rev)
	assert.Equal(t, "fast1", cfg.Site)
}

// TestDaemonApplyReportsMoves: adding a filter group to a balance group
// moves only the slots the new member takes, and the result says so.
func TestDaemonApplyReportsMoves(t *testing.T) {
	d, err := New(Options{StateDir: t.TempDir(), InitialConfig: "testdata/fast.yaml", SwitchAddr: "127.0.0.1:1"})
	require.NoError(t, err)
	base, err := os.ReadFile("testdata/fast.yaml")
	require.NoError(t, err)
	four := strings.Replace(string(base), "  - {name: F3, lan: P8, wan: P7, cores: 4}\n",
		"  - {name: F3, lan: P8, wan: P7, cores: 4}\n  - {name: F4, lan: P10, wan: P9, cores: 4}\n", 1)
	four = strings.Replace(four, "  - {port: 8, speed: 100G}\n", "  - {port: 8, speed: 100G}\n  - {port: 9, speed: 100G}\n  - {port: 10, speed: 100G}\n", 1)
	four = strings.Replace(four, "members: [F1, F2, F3]", "members: [F1, F2, F3, F4]", 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // no switch session runs: programming gives up at once

	for _, dry := range []bool{true, false} {
		res, err := d.ApplyConfig(ctx, []byte(four), dry, "add F4")
		require.NoError(t, err)
		require.Len(t, res.Slots, 1)
		m := res.Slots[0]
		assert.Equal(t, "G", m.Name)
		assert.Equal(t, 64, m.Slots, "a quarter of 256 slots")
		assert.InDelta(t, 0.25, m.Moved, 1e-9)
		for _, f := range m.Filters[:3] {
			assert.InDelta(t, 0.25, f.Moved, 0.01, "filter group %d", f.FilterGroup)
		}
	}
	// Restarted, the daemon compiles the same layout (it is saved).
	require.NoError(t, d.Close())
	d2, err := New(Options{StateDir: d.store.(*Store).Dir(), SwitchAddr: "127.0.0.1:1"})
	require.NoError(t, err)
	assert.Equal(t, d.snapshot().site.Layouts()[0].Base.Digest(), d2.snapshot().site.Layouts()[0].Base.Digest())
	// And removing the member moves only its slots.
	res, err := d2.ApplyConfig(WithForce(ctx, true), base, false, "remove F4") // a removal is forced
	require.NoError(t, err)
	assert.Equal(t, 64, res.Slots[0].Slots)
	for _, f := range res.Slots[0].Filters[:3] {
		assert.Zero(t, f.Moved)
	}
}

// TestStoreRealFullDisk fills a real 256 kB tmpfs (mounted in a private
// mount namespace of a child process, so nothing outlives the test): every
// save either succeeds durably or fails with ENOSPC and leaves no trace,
// and a reopened store holds exactly what was acknowledged.
func TestStoreRealFullDisk(t *testing.T) {
	if os.Getenv("BALANCER_TMPFS_CHILD") != "" {
		return // the child runs TestStoreTmpfsChild
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a tmpfs in a private mount namespace")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("needs unshare(1) to mount a tmpfs in a private mount namespace")
	}
	dir := t.TempDir()
	script := fmt.Sprintf("mount -t tmpfs -o size=256k tmpfs %s && exec %s -test.run='^TestStoreTmpfsChild$' -test.v", dir, os.Args[0])
	cmd := exec.Command(unshare, "--mount", "--propagation", "private", "sh", "-c", script)
	cmd.Env = append(os.Environ(), "BALANCER_TMPFS_CHILD="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil && strings.Contains(string(out), "mount:") {
		t.Skipf("cannot mount a tmpfs here: %s", out)
	}
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "--- PASS: TestStoreTmpfsChild", "%s", out)
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "tmpfs:") {
			t.Log(strings.TrimSpace(l))
		}
	}
}

// TestStoreTmpfsChild is the child of TestStoreRealFullDisk.
func TestStoreTmpfsChild(t *testing.T) {
	dir := os.Getenv("BALANCER_TMPFS_CHILD")
	if dir == "" {
		t.Skip("helper process of TestStoreRealFullDisk")
	}
	s, err := OpenStore(dir)
	require.NoError(t, err)
	var acked []Revision
	var ackedData []byte
	var ackedRuntime Runtime
	var ackedLayouts map[string]*tables.Layout
	refused, runtimeRefused := 0, 0
	for i := 0; refused < 20 && i < 1000; i++ {
		data := []byte(fmt.Sprintf("site: s%d\n# %s\n", i, strings.Repeat("y", 3000+i%7*1000)))
		before, err := s.History()
		require.NoError(t, err)
		r, err := s.Commit(data, Note{Comment: fmt.Sprint("change ", i)}, time.Unix(int64(i), 0), testLayouts(uint32(i)))
		if err != nil {
			require.ErrorIs(t, err, ErrNotDurable)
			require.ErrorIs(t, err, syscall.ENOSPC)
			after, err := s.History()
			require.NoError(t, err)
			require.Equal(t, before, after, "a refused change leaves no trace in history")
			refused++
		} else {
			acked = append(acked, r)
			ackedData = data
			ackedLayouts = testLayouts(uint32(i))
		}
		rt := Runtime{Down: []string{fmt.Sprint("F", i)}}
		if err := s.SaveRuntime(rt); err != nil {
			require.ErrorIs(t, err, ErrNotDurable)
			runtimeRefused++
		} else {
			ackedRuntime = rt
		}
	}
	require.NotEmpty(t, acked)
	require.Equal(t, 20, refused, "the disk filled up")
	require.NoError(t, s.Close())
	s2, err := OpenStore(dir)
	require.NoError(t, err)
	data, rev, err := s2.Running()
	require.NoError(t, err)
	require.Equal(t, string(ackedData), string(data))
	require.Equal(t, acked[len(acked)-1], rev)
	h, err := s2.History()
	require.NoError(t, err)
	require.Equal(t, acked, h)
	ls, err := s2.Layouts()
	require.NoError(t, err)
	require.Equal(t, ackedLayouts, ls)
	rt, err := s2.LoadRuntime()
	require.NoError(t, err)
	require.Equal(t, ackedRuntime, rt)
	t.Logf("tmpfs: %d revisions acknowledged, then %d saves and %d runtime saves refused with ENOSPC; state after reopening = acknowledged", len(acked), refused, runtimeRefused)
}

// TestDaemonRestartFinishesAnInterruptedChange: a daemon commits a change
// (a slot grow and a member removed) and dies after writing part of it to
// the switch; the restarted daemon compiles the same desired state from
// the store (configuration and saved slot layouts) and finishes the
// change.
//
// testdata/relaxed.yaml: the change is compiled for every filter group up,
// and the test compares the switch with it; with fast.yaml's 10 ms
// keep-alives a starved host fails a filter group over (a write of its
// own) while the test compares, or never has them all up.
func TestDaemonRestartFinishesAnInterruptedChange(t *testing.T) {
	b := newBedFor(t, "testdata/relaxed.yaml", 0)
	d1, stop := b.startDaemon(10)
	b.allUp(d1)
	base, err := os.ReadFile("testdata/relaxed.yaml")
	require.NoError(t, err)
	next := strings.Replace(string(base), "members: [F1, F2, F3], profile: relaxed, slot_bits: 8", "members: [F1, F3], profile: relaxed, slot_bits: 11", 1)
	require.NotEqual(t, string(base), next)
	cfg, err := config.Parse([]byte(next))
	require.NoError(t, err)
	r1 := d1.snapshot()
	st, prev := r1.engine.State(), r1.site.BaseLayouts()
	want, err := d1.comp.Compile(cfg, st, tables.FromLayouts(prev))
	require.NoError(t, err)
	stop()

	// What the first daemon did before it died: committed, then wrote
	// half of the plan.
	store, err := OpenStore(b.dir)
	require.NoError(t, err)
	_, err = store.Commit([]byte(next), Note{Comment: "interrupted"}, time.Now(), want.BaseLayouts())
	require.NoError(t, err)
	require.NoError(t, store.Close())
	dp := b.sw.Dataplane()
	read := func() []*p4v1.Entity {
		tq, vq := d1.comp.ReadQueries()
		q := append(tq, vq...)
		var out []*p4v1.Entity
		require.NoError(t, dp.Read(q, func(e *p4v1.Entity) bool { out = append(out, e); return true }))
		return out
	}
	plan := d1.comp.Diff(want.Entities, read())
	var all []*p4v1.Update
	for _, bt := range plan.Batches {
		all = append(all, bt.Updates...)
	}
	require.Greater(t, len(all), 100)
	for _, err := range dp.Write(all[:len(all)/2], p4v1.WriteRequest_CONTINUE_ON_ERROR) {
		require.NoError(t, err)
	}
	require.False(t, d1.comp.Diff(want.Entities, read()).Empty(), "the change is half done")

	d2, _ := b.startDaemon(20)
	b.allUp(d2)
	got := d2.snapshot().site.Desired()
	assert.Equal(t, want.Layouts[0].Base.Digest(), got.Layouts[0].Base.Digest(), "the restarted daemon computes the same layout")
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		left := d1.comp.Diff(want.Entities, read())
		assert.True(c, left.Empty(), "the restarted daemon finishes the change: %d updates left, desired differs by %d, session %+v",
			left.Len(), d1.comp.Diff(want.Entities, d2.snapshot().site.Desired().Entities).Len(), d2.Session().Stats())
	}, 30*time.Second, 5*time.Millisecond)
}
