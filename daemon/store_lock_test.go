package daemon

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestStoreLock: a state directory is opened by one store at a time; the
// second is refused at once, naming the holder's PID, and gets it once the
// first is closed.
func TestStoreLock(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	require.NoError(t, err)
	start := time.Now()
	_, err = OpenStore(dir)
	took := time.Since(start)
	require.ErrorIs(t, err, ErrStateDirInUse)
	assert.Contains(t, err.Error(), fmt.Sprintf("pid %d", os.Getpid()))
	assert.Contains(t, err.Error(), "--state-dir")
	assert.Less(t, took, time.Second)
	require.NoError(t, s.Close())
	require.NoError(t, s.Close(), "Close is idempotent")
	s2, err := OpenStore(dir)
	require.NoError(t, err)
	require.NoError(t, s2.Close())
}

// TestStoreLockNamesTheLiveHolder: the lock file still holds the PID of
// a holder that has ended, and the new holder has taken the lock but not
// yet written its own PID (a daemon killed with -9 and the next one
// starting, on a busy host): the refusal names the process that holds the
// lock, never the one that ended.
func TestStoreLockNamesTheLiveHolder(t *testing.T) {
	dir := t.TempDir()
	ended := exec.Command("true")
	require.NoError(t, ended.Run())
	gone := ended.ProcessState.Pid()
	path := filepath.Join(dir, lockFile)
	require.NoError(t, os.WriteFile(path, []byte(fmt.Sprintf("%-19d\n", gone)), 0o640))
	holder, err := os.OpenFile(path, os.O_RDWR, 0)
	require.NoError(t, err)
	defer holder.Close()
	require.NoError(t, unix.Flock(int(holder.Fd()), unix.LOCK_EX|unix.LOCK_NB))

	_, err = OpenStore(dir)
	require.ErrorIs(t, err, ErrStateDirInUse)
	assert.NotContains(t, err.Error(), fmt.Sprintf("pid %d ", gone), "a process that has ended is not the holder")
	if _, perr := os.Stat("/proc/locks"); perr == nil {
		assert.Contains(t, err.Error(), fmt.Sprintf("pid %d ", os.Getpid()), "the kernel's lock table names the holder")
	}
	t.Logf("refused: %v", err)
}

// TestStoreCommitOnRevisionOnDisk: a save made on a revision older than
// the one on disk is refused and overwrites nothing; a daemon whose state
// directory was changed behind its back refuses the change the same way.
func TestStoreCommitOnRevisionOnDisk(t *testing.T) {
	s, err := OpenStore(t.TempDir())
	require.NoError(t, err)
	defer s.Close()
	r1, err := s.Commit([]byte("site: one\n"), Note{Comment: "one"}, time.Unix(1, 0), nil)
	require.NoError(t, err)
	r2, err := s.CommitOn(r1.Number, []byte("site: two\n"), Note{Comment: "two"}, time.Unix(2, 0), nil)
	require.NoError(t, err)
	_, err = s.CommitOn(r1.Number, []byte("site: stale\n"), Note{Comment: "stale"}, time.Unix(3, 0), nil)
	require.ErrorIs(t, err, ErrConflict)
	assert.Contains(t, err.Error(), "revision 2 is on disk, not revision 1")
	data, rev, err := s.Running()
	require.NoError(t, err)
	assert.Equal(t, "site: two\n", string(data))
	assert.Equal(t, r2, rev)

	d, err := New(Options{StateDir: t.TempDir(), InitialConfig: "testdata/fast.yaml", SwitchAddr: "127.0.0.1:1"})
	require.NoError(t, err)
	defer d.Close()
	base, err := os.ReadFile("testdata/fast.yaml")
	require.NoError(t, err)
	behind := strings.Replace(string(base), "site: fast", "site: behind", 1)
	onDisk, err := d.store.Commit([]byte(behind), Note{Comment: "behind the daemon's back"}, time.Now(), nil)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // no switch session runs
	_, err = d.ApplyConfig(ctx, []byte(strings.Replace(string(base), "site: fast", "site: mine", 1)), false, "mine")
	require.ErrorIs(t, err, ErrConflict)
	data, rev, err = d.store.Running()
	require.NoError(t, err)
	assert.Equal(t, behind, string(data), "the newer revision on disk is kept")
	assert.Equal(t, onDisk, rev)
}
