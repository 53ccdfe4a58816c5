package daemon

import (
	"os"
	"path/filepath"
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
