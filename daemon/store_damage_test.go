package daemon

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/dpi-balancer/balancer/tables"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// populated is a state directory with 4 revisions, layouts and a runtime
// state with a manual bypass.
func populated(t *testing.T) string {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.SaveRuntime(Runtime{Up: []string{}}))
	for i := 1; i <= 4; i++ {
		_, err := s.Commit([]byte(fmt.Sprintf("site: s%d\nlinks: []\n", i)), Note{Comment: fmt.Sprint("change ", i)}, time.Unix(int64(1000+i), 0), testLayouts(uint32(i)))
		require.NoError(t, err)
	}
	require.NoError(t, s.SaveRuntime(Runtime{BypassGroups: []string{"F2"}, Down: []string{"F3"}, Up: []string{"F1"}}))
	return dir
}

// loaded is everything a daemon loads from a state directory.
type loaded struct {
	data    string
	rev     Revision
	history []Revision
	layouts string
	runtime Runtime
}

func load(t *testing.T, dir string) (loaded, []string, error) {
	s, err := OpenStore(dir)
	if err != nil {
		return loaded{}, nil, err
	}
	defer s.Close()
	var l loaded
	data, rev, err := s.Running()
	if err != nil {
		return l, nil, err
	}
	l.data, l.rev = string(data), rev
	if l.history, err = s.History(); err != nil {
		return l, nil, err
	}
	ls, err := s.Layouts()
	if err != nil {
		return l, nil, err
	}
	b, _ := tables.EncodeLayouts(0, ls)
	l.layouts = string(b)
	if l.runtime, err = s.LoadRuntime(); err != nil {
		return l, nil, err
	}
	return l, s.Warnings(), nil
}

// TestStoreEverySingleFileDamage damages each file of a state directory
// in turn (removed, truncated, one value changed) and opens it: each
// damage is refused (naming what to do) or repaired with a warning; none
// loads silently as something else.
func TestStoreEverySingleFileDamage(t *testing.T) {
	clean := populated(t)
	want, warns, err := load(t, clean)
	require.NoError(t, err)
	require.Empty(t, warns)
	var files []string
	require.NoError(t, filepath.Walk(clean, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && filepath.Base(p) != lockFile {
			rel, _ := filepath.Rel(clean, p)
			files = append(files, rel)
		}
		return err
	}))
	sort.Strings(files)
	require.Len(t, files, 11, "running, layouts, runtime, 4 revisions x 2: %v", files)
	damages := []struct {
		name string
		do   func(b []byte) []byte // nil: remove
	}{
		{"removed", nil},
		{"truncated", func(b []byte) []byte { return b[:len(b)/2] }},
		{"a value changed", func(b []byte) []byte {
			for _, r := range [][2]string{{`"bypass_groups": [`, `"bypass_groups": [ "F1",`}, {"1970", "1971"}, {"change", "chanGe"},
				{"s1", "s9"}, {"s2", "s9"}, {"s3", "s9"}, {"s4", "s9"}, {`"slots":"E`, `"slots":"F`}, {"2", "3"}} {
				if bytes.Contains(b, []byte(r[0])) {
					return bytes.Replace(b, []byte(r[0]), []byte(r[1]), 1)
				}
			}
			return append(b, ' ')
		}},
	}
	refused, repaired, silent := 0, 0, 0
	for _, f := range files {
		for _, dmg := range damages {
			dir := t.TempDir()
			require.NoError(t, os.CopyFS(dir, os.DirFS(clean)))
			p := filepath.Join(dir, f)
			if dmg.do == nil {
				require.NoError(t, os.Remove(p))
			} else {
				b, err := os.ReadFile(p)
				require.NoError(t, err)
				nb := dmg.do(b)
				require.NotEqual(t, b, nb, "%s %s", f, dmg.name)
				require.NoError(t, os.WriteFile(p, nb, 0o640))
			}
			got, warns, err := load(t, dir)
			switch {
			case err != nil:
				refused++
				assert.ErrorIs(t, err, ErrDamagedStore, "%s %s", f, dmg.name)
				msg := err.Error()
				assert.True(t, strings.Contains(msg, "the last good revision is") || strings.Contains(msg, "runtime.json"),
					"%s %s: the refusal says what to do: %s", f, dmg.name, msg)
				if strings.Contains(msg, "runtime.json") {
					assert.Contains(t, msg, "echo '{\"up\": []}'", "%s %s", f, dmg.name)
				}
			case len(warns) > 0:
				repaired++
				t.Logf("%s %s: repaired: %s", f, dmg.name, strings.Join(warns, "; "))
			default:
				if assert.Equal(t, want, got, "%s %s loaded silently as something else", f, dmg.name) {
					t.Logf("%s %s: loads the same", f, dmg.name)
				} else {
					silent++
				}
			}
		}
	}
	t.Logf("%d single-file damages: %d refused, %d repaired with a warning, %d loaded silently", len(files)*len(damages), refused, repaired, silent)
	assert.Zero(t, silent)
}

// TestStoreUndamagedNeverRefused: 100 restarts of a state directory in
// use (a change, a runtime save, a restart of a daemon on it) are never
// refused and never warn.
func TestStoreUndamagedNeverRefused(t *testing.T) {
	dir := t.TempDir()
	refusals := 0
	for i := range 100 {
		if i%10 == 0 {
			d, err := New(Options{StateDir: dir, InitialConfig: "testdata/fast.yaml", SwitchAddr: "127.0.0.1:1"})
			if !assert.NoError(t, err, "restart %d", i) {
				refusals++
				continue
			}
			require.NoError(t, d.Close())
			continue
		}
		s, err := OpenStore(dir, WithRetention(20, 1<<20))
		require.NoError(t, err)
		_, rev, err := s.Running()
		if err == nil {
			_, err = s.LoadRuntime()
		}
		if err == nil {
			_, err = s.Layouts()
		}
		if !assert.NoError(t, err, "restart %d", i) {
			refusals++
			require.NoError(t, s.Close())
			continue
		}
		assert.Empty(t, s.Warnings(), "restart %d", i)
		base, err := os.ReadFile("testdata/fast.yaml")
		require.NoError(t, err)
		_, err = s.CommitOn(rev.Number, append(base, fmt.Sprintf("# change %d\n", i)...), Note{Comment: fmt.Sprint("change ", i)}, time.Now(), testLayouts(uint32(i)))
		require.NoError(t, err)
		require.NoError(t, s.SaveRuntime(Runtime{BypassAll: i%3 == 0, Up: []string{"F1"}}))
		require.NoError(t, s.Close())
	}
	assert.Zero(t, refusals, "refusals of an undamaged state directory over 100 restarts")
}
