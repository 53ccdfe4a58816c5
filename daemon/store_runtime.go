package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// runtimeDoc is runtime.json: the runtime state and its check (the digest
// of the state's JSON without it).
type runtimeDoc struct {
	Runtime
	Check string `json:"check,omitempty"`
}

func runtimeCheck(r Runtime) (string, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return "", err
	}
	return digest(b), nil
}

// LoadRuntime returns the saved runtime state (zero when none).
func (s *Store) LoadRuntime() (Runtime, error) {
	empty := fmt.Sprintf(`echo '{"up": []}' > %s`, s.path("runtime.json"))
	remedy := "it holds the manual bypasses and the filter groups last seen down: not loaded. Restore it from a backup, or start with no manual bypass (" + empty + "; set the bypasses again with balancer bypass; filters are proven again by keep-alives)"
	b, err := os.ReadFile(s.path("runtime.json"))
	if errors.Is(err, os.ErrNotExist) {
		if m, ok := s.newestMeta(); ok && m.Runtime {
			return Runtime{}, fmt.Errorf("store %s: %w: runtime.json is missing (it was there when the running revision was saved); %s", s.dir, ErrDamagedStore, remedy)
		}
		return Runtime{}, nil // never saved
	}
	if err != nil {
		return Runtime{}, err
	}
	var doc runtimeDoc
	if err := json.Unmarshal(b, &doc); err != nil {
		return Runtime{}, fmt.Errorf("store %s: %w: runtime.json: %v; %s", s.dir, ErrDamagedStore, err, remedy)
	}
	want, err := runtimeCheck(doc.Runtime)
	if err != nil {
		return Runtime{}, err
	}
	switch {
	case doc.Check == "" && s.hasChecks() && !runtimeZero(doc.Runtime):
		return Runtime{}, fmt.Errorf("store %s: %w: runtime.json has no check, though the revisions have one (changed by hand?); %s", s.dir, ErrDamagedStore, remedy)
	case doc.Check != "" && doc.Check != want:
		return Runtime{}, fmt.Errorf("store %s: %w: runtime.json fails its check (changed by hand?); %s", s.dir, ErrDamagedStore, remedy)
	}
	return doc.Runtime, nil
}

// runtimeZero: no manual bypass, no filter group down or proven (what the
// remedy of a damaged runtime.json writes).
func runtimeZero(r Runtime) bool {
	return !r.BypassAll && len(r.BypassGroups) == 0 && len(r.Down) == 0 && len(r.Up) == 0 && len(r.Recovered) == 0 && len(r.FailedOpen) == 0
}

// hasChecks: the newest revision's metadata has a check (the directory is
// written by a daemon that writes checks, runtime.json included).
func (s *Store) hasChecks() bool {
	m, ok := s.newestMeta()
	return ok && m.Check != ""
}

// newestMeta is the newest revision's metadata.
func (s *Store) newestMeta() (revMeta, bool) {
	var m revMeta
	revs, _, err := s.scan()
	if err != nil || len(revs) == 0 {
		return m, false
	}
	b, err := os.ReadFile(s.revPath(revs[len(revs)-1].Number, ".json"))
	if err != nil {
		return m, false
	}
	return m, json.Unmarshal(b, &m) == nil
}

func (s *Store) SaveRuntime(r Runtime) error {
	check, err := runtimeCheck(r)
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(runtimeDoc{Runtime: r, Check: check}, "", "  ")
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.path("runtime.json")
	tmp, err := s.writeTemp(p, b)
	if err != nil {
		return fmt.Errorf("store: runtime state %w: %w", ErrNotDurable, err)
	}
	if err := os.Rename(tmp, p); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("store: runtime state %w: %w", ErrNotDurable, err)
	}
	if err := syncDir(s.dir); err != nil {
		return fmt.Errorf("store: runtime state %w: %w", ErrNotDurable, err)
	}
	return nil
}
