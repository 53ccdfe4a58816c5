package daemon

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Store keeps the running configuration and its history on disk. Every
// write is atomic (temporary file, fsync, rename, fsync of the directory):
// after a crash at any moment the running configuration is the old one or
// the new one, never a mix.
//
// Layout under the state directory:
//
//	running.yaml          the running configuration
//	revisions/NNNNNNNN.yaml and .json (time, comment)
//	runtime.json          manual bypass and the last failed filter groups
type Store struct {
	dir string
	mu  sync.Mutex
}

// Runtime is the runtime state that survives restarts.
type Runtime struct {
	BypassAll    bool     `json:"bypass_all"`
	BypassGroups []string `json:"bypass_groups,omitempty"`
	// Down lists the filter groups that were down, so a restarted daemon
	// keeps them failed until keep-alives prove them up (and writes
	// nothing to the switch).
	Down []string `json:"down,omitempty"`
	// Up lists the filter groups keep-alives had proved up, so a restarted
	// daemon keeps forwarding to them; any other starts unproven (in
	// software bypass until keep-alives pass). Always written (an empty
	// list when none): a file without it predates it, and every filter
	// not down is then taken as up.
	Up []string `json:"up"`
}

type revMeta struct {
	Time    time.Time `json:"time"`
	Comment string    `json:"comment,omitempty"`
	Digest  string    `json:"digest"`
}

// OpenStore opens (creating) a state directory.
func OpenStore(dir string) (*Store, error) {
	if err := os.MkdirAll(filepath.Join(dir, "revisions"), 0o750); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return &Store{dir: dir}, nil
}

// Dir is the state directory.
func (s *Store) Dir() string { return s.dir }

// Running returns the running configuration and its revision, or
// os.ErrNotExist when none was saved yet.
func (s *Store) Running() ([]byte, Revision, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	data, err := os.ReadFile(filepath.Join(s.dir, "running.yaml"))
	if err != nil {
		return nil, Revision{}, err
	}
	revs, err := s.history()
	if err != nil {
		return nil, Revision{}, err
	}
	d := digest(data)
	for i := len(revs) - 1; i >= 0; i-- {
		if revs[i].Digest == d {
			return data, revs[i], nil
		}
	}
	return data, Revision{Digest: d}, nil
}

// Save stores data as a new revision and makes it the running one.
func (s *Store) Save(data []byte, comment string, now time.Time) (Revision, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	revs, err := s.history()
	if err != nil {
		return Revision{}, err
	}
	n := uint64(1)
	if len(revs) > 0 {
		n = revs[len(revs)-1].Number + 1
	}
	r := Revision{Number: n, Time: now.UTC(), Comment: comment, Digest: digest(data)}
	base := filepath.Join(s.dir, "revisions", fmt.Sprintf("%08d", n))
	meta, _ := json.Marshal(revMeta{Time: r.Time, Comment: comment, Digest: r.Digest})
	if err := writeAtomic(base+".yaml", data); err != nil {
		return Revision{}, err
	}
	if err := writeAtomic(base+".json", meta); err != nil {
		return Revision{}, err
	}
	if err := writeAtomic(filepath.Join(s.dir, "running.yaml"), data); err != nil {
		return Revision{}, err
	}
	return r, nil
}

// Revision returns a saved revision's configuration.
func (s *Store) Revision(n uint64) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(s.dir, "revisions", fmt.Sprintf("%08d.yaml", n)))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("revision %d: %w", n, ErrNotFound)
	}
	return data, err
}

// History lists the saved revisions, oldest first.
func (s *Store) History() ([]Revision, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.history()
}

func (s *Store) history() ([]Revision, error) {
	ents, err := os.ReadDir(filepath.Join(s.dir, "revisions"))
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	var out []Revision
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok {
			continue
		}
		n, err := strconv.ParseUint(name, 10, 64)
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(s.dir, "revisions", e.Name()))
		if err != nil {
			return nil, err
		}
		var m revMeta
		if err := json.Unmarshal(b, &m); err != nil {
			continue // a torn metadata file: its revision is skipped
		}
		if _, err := os.Stat(filepath.Join(s.dir, "revisions", name+".yaml")); err != nil {
			continue
		}
		out = append(out, Revision{Number: n, Time: m.Time, Comment: m.Comment, Digest: m.Digest})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Number < out[j].Number })
	return out, nil
}

// LoadRuntime returns the saved runtime state (zero when none).
func (s *Store) LoadRuntime() (Runtime, error) {
	var r Runtime
	b, err := os.ReadFile(filepath.Join(s.dir, "runtime.json"))
	if errors.Is(err, os.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return Runtime{}, fmt.Errorf("store: runtime.json: %w", err)
	}
	return r, nil
}

// SaveRuntime stores the runtime state atomically.
func (s *Store) SaveRuntime(r Runtime) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(s.dir, "runtime.json"), b)
}

func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:6])
}

// writeAtomic replaces path with data so that a reader (or a crash) sees
// the old or the new content, never a mix.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after the rename
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("store: write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("store: sync %s: %w", path, err)
	}
	if err := f.Chmod(0o640); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("store: rename %s: %w", path, err)
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
