package daemon

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStoreRevisions(t *testing.T) {
	s, err := OpenStore(t.TempDir())
	require.NoError(t, err)
	_, _, err = s.Running()
	assert.ErrorIs(t, err, os.ErrNotExist)
	now := time.Unix(100, 0)
	r1, err := s.Save([]byte("a: 1\n"), "first", now)
	require.NoError(t, err)
	r2, err := s.Save([]byte("a: 2\n"), "second", now.Add(time.Second))
	require.NoError(t, err)
	assert.Equal(t, uint64(1), r1.Number)
	assert.Equal(t, uint64(2), r2.Number)
	data, rev, err := s.Running()
	require.NoError(t, err)
	assert.Equal(t, "a: 2\n", string(data))
	assert.Equal(t, r2, rev)
	h, err := s.History()
	require.NoError(t, err)
	assert.Equal(t, []Revision{r1, r2}, h)
	old, err := s.Revision(1)
	require.NoError(t, err)
	assert.Equal(t, "a: 1\n", string(old))
	_, err = s.Revision(9)
	assert.ErrorIs(t, err, ErrNotFound)

	require.NoError(t, s.SaveRuntime(Runtime{BypassAll: true, Down: []string{"F1"}}))
	rt, err := s.LoadRuntime()
	require.NoError(t, err)
	assert.Equal(t, Runtime{BypassAll: true, Down: []string{"F1"}}, rt)

	// A torn temporary file left by a crash is ignored.
	require.NoError(t, os.WriteFile(filepath.Join(s.Dir(), ".running.yaml.tmp123"), []byte("a: garb"), 0o600))
	data, _, err = s.Running()
	require.NoError(t, err)
	assert.Equal(t, "a: 2\n", string(data))
}

// TestStoreSurvivesKill9 kills a process in the middle of saving
// configurations, many times; the running configuration is always one
// that was saved whole, never a torn mix.
func TestStoreSurvivesKill9(t *testing.T) {
	if os.Getenv("BALANCER_STORE_WRITER") != "" {
		return
	}
	dir := t.TempDir()
	for round := 0; round < 10; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestStoreWriterProcess$")
		cmd.Env = append(os.Environ(), "BALANCER_STORE_WRITER="+dir)
		require.NoError(t, cmd.Start())
		// The writer runs this long before the kill: a different point in
		// its saves each round.
		time.Sleep(time.Duration(20+round*7) * time.Millisecond)
		require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
		_ = cmd.Wait()

		// The killed writer's lock went with it.
		s, err := OpenStore(dir)
		require.NoError(t, err)
		data, rev, err := s.Running()
		if errors.Is(err, os.ErrNotExist) {
			require.NoError(t, s.Close())
			continue // killed before the first save
		}
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(string(data), "# config ") && strings.HasSuffix(string(data), "# end\n"),
			"round %d: torn running configuration %q", round, data)
		require.NotZero(t, rev.Number, "round %d: running configuration is not a saved revision", round)
		saved, err := s.Revision(rev.Number)
		require.NoError(t, err)
		assert.Equal(t, string(saved), string(data))
		require.NoError(t, s.Close())
	}
}

// TestStoreWriterProcess is the child of TestStoreSurvivesKill9: it saves
// configurations as fast as it can until killed.
func TestStoreWriterProcess(t *testing.T) {
	dir := os.Getenv("BALANCER_STORE_WRITER")
	if dir == "" {
		t.Skip("helper process of TestStoreSurvivesKill9")
	}
	s, err := OpenStore(dir)
	require.NoError(t, err)
	for i := 0; ; i++ {
		body := strings.Repeat(fmt.Sprintf("line %d\n", i), 2000)
		if _, err := s.Save([]byte(fmt.Sprintf("# config %d\n%s# end\n", i, body)), "", time.Now()); err != nil {
			t.Fatal(err)
		}
	}
}
