package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/dpi-balancer/balancer/tables"
)

// Save stores data as a new revision and makes it the running one; the
// saved slot layouts are left as they are.
func (s *Store) Save(data []byte, comment string, now time.Time) (Revision, error) {
	return s.Commit(data, Note{Comment: comment}, now, nil)
}

// Commit stores data as a new revision and makes it the running one, with
// the base slot layouts it was compiled with (nil: leave the saved ones).
// It is all or nothing: on error (ErrNotDurable) nothing changed, and
// history does not show the revision.
func (s *Store) Commit(data []byte, note Note, now time.Time, layouts map[string]*tables.Layout) (Revision, error) {
	return s.commit(nil, data, note, now, layouts)
}

// CommitOn is Commit made only while the newest revision on disk is base
// (the one the caller runs); otherwise nothing is saved and the error
// (ErrConflict) names the revision on disk.
func (s *Store) CommitOn(base uint64, data []byte, note Note, now time.Time, layouts map[string]*tables.Layout) (Revision, error) {
	return s.commit(&base, data, note, now, layouts)
}

func (s *Store) commit(base *uint64, data []byte, note Note, now time.Time, layouts map[string]*tables.Layout) (Revision, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	revs, _, err := s.scan()
	if err != nil {
		return Revision{}, err
	}
	if err := s.onBase(base, revs); err != nil {
		return Revision{}, err
	}
	n := uint64(1)
	if len(revs) > 0 {
		n = revs[len(revs)-1].Number + 1
	}
	r := Revision{Number: n, Time: now.UTC(), Comment: note.Comment, Digest: digest(data), By: note.By}
	w, err := s.newSave(r, data, layouts)
	if err != nil {
		return Revision{}, err
	}
	if err := w.prepare(); err != nil {
		return Revision{}, err
	}
	if err := w.commit(); err != nil {
		return Revision{}, err
	}
	s.prune(append(revs, r))
	return r, nil
}

// onBase refuses a save made on another revision than the newest on disk
// (base nil: any).
func (s *Store) onBase(base *uint64, revs []Revision) error {
	if base == nil {
		return nil
	}
	var onDisk uint64
	if len(revs) > 0 {
		onDisk = revs[len(revs)-1].Number
	}
	if onDisk != *base {
		return fmt.Errorf("store %s: %w: revision %d is on disk, not revision %d that this daemon runs (something else saved into its state directory); nothing was saved: restart the daemon to load revision %d, then make the change again",
			s.dir, ErrConflict, onDisk, *base, onDisk)
	}
	return nil
}

// saveFile is one file of a save.
type saveFile struct {
	path, tmp string
	data      []byte
	backup    bool // replaces a file: keep it until the commit point
	hadOld    bool
}

// fileSave saves files all or nothing: each is written to a synced
// temporary file first, then they are renamed into place, the last one
// (the revision's metadata) being the commit point.
type fileSave struct {
	s     *Store
	n     uint64 // the revision saved
	files []*saveFile
	done  []*saveFile // renamed into place
}

// newSave lists the files of revision r's save: the revision, the
// running configuration, the slot layouts (when given) and, last, the
// revision's metadata.
func (s *Store) newSave(r Revision, data []byte, layouts map[string]*tables.Layout) (*fileSave, error) {
	n := r.Number
	m := revMeta{Time: r.Time, Comment: r.Comment, Digest: r.Digest, By: r.By, Runtime: fileExists(s.path("runtime.json"))}
	m.Check = metaCheck(n, m)
	meta, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	files := []*saveFile{
		{path: s.revPath(n, ".yaml"), data: data},
		{path: s.path(runningFile), data: data, backup: true},
	}
	if layouts != nil {
		b, err := tables.EncodeLayouts(n, layouts)
		if err != nil {
			return nil, err
		}
		files = append(files, &saveFile{path: s.path(layoutsFile), data: b, backup: true})
	}
	files = append(files, &saveFile{path: s.revPath(n, ".json"), data: meta}) // the commit point
	return &fileSave{s: s, n: n, files: files}, nil
}

// prepare writes and syncs every byte before anything is replaced.
func (w *fileSave) prepare() error {
	for _, f := range w.files {
		tmp, err := w.s.writeTemp(f.path, f.data)
		if err != nil {
			w.cleanup()
			return fmt.Errorf("store: revision %d %w (nothing changed): %w", w.n, ErrNotDurable, err)
		}
		f.tmp = tmp
	}
	return nil
}

// cleanup removes the temporary files not renamed into place.
func (w *fileSave) cleanup() {
	for _, f := range w.files {
		if f.tmp != "" {
			_ = os.Remove(f.tmp)
		}
	}
}

// commit renames every file into place, backups made first by hard link
// (no space needed), and makes it durable; on failure it rolls back.
func (w *fileSave) commit() error {
	revDir := filepath.Join(w.s.dir, "revisions")
	for _, f := range w.files {
		if err := w.place(f); err != nil {
			return w.undo(err)
		}
		if f == w.files[len(w.files)-2] {
			// Everything but the metadata is in place: make it durable
			// before the commit point.
			if err := syncDir(revDir); err != nil {
				return w.undo(err)
			}
			if err := syncDir(w.s.dir); err != nil {
				return w.undo(err)
			}
		}
	}
	if err := syncDir(revDir); err != nil {
		return w.undo(err)
	}
	for _, f := range w.files {
		if f.backup {
			_ = os.Remove(f.path + backupExt)
		}
	}
	return nil
}

// place backs up the file f replaces, then renames f into place.
func (w *fileSave) place(f *saveFile) error {
	if f.backup {
		// A hard link needs no space; an empty backup says the file
		// did not exist.
		_ = os.Remove(f.path + backupExt)
		err := os.Link(f.path, f.path+backupExt)
		f.hadOld = err == nil
		if errors.Is(err, os.ErrNotExist) {
			err = os.WriteFile(f.path+backupExt, nil, 0o640)
		}
		if err != nil {
			return err
		}
	}
	if w.s.beforeRename != nil {
		w.s.beforeRename(f.path)
	}
	if err := os.Rename(f.tmp, f.path); err != nil {
		return err
	}
	f.tmp = ""
	w.done = append(w.done, f)
	return nil
}

// undo puts back what was renamed into place, newest first, and returns
// the save's error.
func (w *fileSave) undo(cause error) error {
	for i := len(w.done) - 1; i >= 0; i-- {
		f := w.done[i]
		if f.backup && f.hadOld {
			_ = os.Rename(f.path+backupExt, f.path) // else recover() finishes on the next open
			continue
		}
		_ = os.Remove(f.path)
		if f.backup {
			_ = os.Remove(f.path + backupExt)
		}
	}
	w.cleanup()
	_ = syncDir(filepath.Join(w.s.dir, "revisions"))
	_ = syncDir(w.s.dir)
	return fmt.Errorf("store: revision %d %w (rolled back): %w", w.n, ErrNotDurable, cause)
}

// prune removes the oldest revisions beyond the retention; the newest
// (running) one always stays. A failure is left for the next save.
func (s *Store) prune(revs []Revision) {
	sizes := make([]int64, len(revs))
	var total int64
	for i, r := range revs {
		for _, ext := range []string{".yaml", ".json"} {
			if fi, err := os.Stat(s.revPath(r.Number, ext)); err == nil {
				sizes[i] += fi.Size()
			}
		}
		total += sizes[i]
	}
	removed := false
	for i := 0; i < len(revs)-1; i++ {
		if len(revs)-i <= s.maxRevisions && total <= s.maxBytes {
			break
		}
		// Metadata first: a revision without it is not in history.
		if os.Remove(s.revPath(revs[i].Number, ".json")) != nil {
			break
		}
		_ = os.Remove(s.revPath(revs[i].Number, ".yaml"))
		total -= sizes[i]
		removed = true
	}
	if removed {
		_ = syncDir(filepath.Join(s.dir, "revisions"))
	}
}
