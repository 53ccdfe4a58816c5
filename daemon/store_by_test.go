package daemon

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRevisionBySurvivesRestart: who made a revision is saved with it in
// the state directory and read back by a new store (a restarted daemon);
// changing it by hand fails the revision's check, as its comment does.
func TestRevisionBySurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	require.NoError(t, err)
	now := time.Unix(100, 0)
	r1, err := s.Save([]byte("a: 1\n"), "initial", now)
	require.NoError(t, err)
	assert.Empty(t, r1.By)
	r2, err := s.CommitOn(1, []byte("a: 2\n"), Note{Comment: "second", By: "ops (uid 1042)"}, now.Add(time.Second), nil)
	require.NoError(t, err)
	assert.Equal(t, "ops (uid 1042)", r2.By)
	require.NoError(t, s.Close())

	s, err = OpenStore(dir)
	require.NoError(t, err)
	h, err := s.History()
	require.NoError(t, err)
	assert.Equal(t, []Revision{r1, r2}, h)
	_, rev, err := s.Running()
	require.NoError(t, err)
	assert.Equal(t, "ops (uid 1042)", rev.By)
	require.NoError(t, s.Close())

	meta := s.revPath(2, ".json")
	b, err := os.ReadFile(meta)
	require.NoError(t, err)
	require.Contains(t, string(b), `"by":"ops (uid 1042)"`)
	require.NoError(t, os.WriteFile(meta, []byte(strings.Replace(string(b), "ops (uid 1042)", "root (uid 0)", 1)), 0o600))
	s, err = OpenStore(dir)
	require.NoError(t, err)
	defer s.Close()
	_, _, err = s.Running() // what a restarted daemon loads
	require.ErrorIs(t, err, ErrDamagedStore)
	assert.Contains(t, err.Error(), "revision 2: revisions/00000002.json fails its check (its time, comment, digest or author was changed)")
}
