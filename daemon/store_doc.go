package daemon

import (
	"errors"
	"fmt"
	"os"
	"regexp"
)

// docName is a document's name: its file is NAME.json in the state
// directory.
var docName = regexp.MustCompile(`^[a-z][a-z-]{0,31}$`)

// LoadDoc implements statestore.DocStore: NAME.json in the state
// directory.
func (s *Store) LoadDoc(name string) ([]byte, error) {
	if !docName.MatchString(name) {
		return nil, fmt.Errorf("store: bad document name %q", name)
	}
	b, err := os.ReadFile(s.path(name + ".json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return b, nil
}

// SaveDoc implements statestore.DocStore: written to a synced temporary
// file and renamed into place (nil data: removed).
func (s *Store) SaveDoc(name string, data []byte) error {
	if !docName.MatchString(name) || name == "runtime" || name == "layouts" {
		return fmt.Errorf("store: bad document name %q", name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.path(name + ".json")
	if data == nil {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("store: %s %w: %w", name, ErrNotDurable, err)
		}
		if err := syncDir(s.dir); err != nil {
			return fmt.Errorf("store: %s %w: %w", name, ErrNotDurable, err)
		}
		return nil
	}
	tmp, err := s.writeTemp(p, data)
	if err != nil {
		return fmt.Errorf("store: %s %w: %w", name, ErrNotDurable, err)
	}
	if err := os.Rename(tmp, p); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("store: %s %w: %w", name, ErrNotDurable, err)
	}
	if err := syncDir(s.dir); err != nil {
		return fmt.Errorf("store: %s %w: %w", name, ErrNotDurable, err)
	}
	return nil
}
