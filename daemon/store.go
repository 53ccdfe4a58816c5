package daemon

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dpi-balancer/balancer/tables"
)

// ErrDamagedStore is returned when the state directory fails its checks:
// a revision that does not match its digest, a running configuration that
// is not the newest revision, an unreadable metadata or layout file.
var ErrDamagedStore = errors.New("damaged state directory")

// ErrNotDurable is returned when a change could not be written durably
// (a full disk, an I/O error): nothing of it was kept.
var ErrNotDurable = errors.New("not saved")

// Default history retention (WithRetention).
const (
	DefaultHistoryRevisions = 500
	DefaultHistoryBytes     = 64 << 20
)

// Store keeps the running configuration and its history on disk.
//
// A save is all or nothing: every file is first written in full to a
// temporary file and synced (this is where a full disk fails, and then
// nothing changed); only then are they renamed into place, newest
// revision's metadata last, which is the commit point. A save interrupted
// by a crash is rolled back when the store is opened again, so history
// never shows a revision that was not acknowledged, and the running
// configuration is always the newest revision.
//
// On open and on Running the store is verified: every revision against
// its digest, the running configuration against the newest revision. A
// damaged store is refused (ErrDamagedStore) with the problems and the
// last good revision named, never loaded as something else.
//
// History is bounded: after each save the oldest revisions beyond the
// retention (a count and a total size, WithRetention) are removed; the
// running revision is always kept.
//
// Layout under the state directory:
//
//	running.yaml          the running configuration
//	revisions/NNNNNNNN.yaml and .json (time, comment, digest, by)
//	layouts.json          the running revision's base slot layouts (the
//	                      input of the next planned change)
//	runtime.json          manual bypass and the last failed filter groups
//	session.json          the open configuration session (store_doc.go)
//	confirm.json          a commit confirmed waiting for its confirmation
//	lock                  held (flock) by the daemon using the directory;
//	                      it holds the daemon's PID
//
// One daemon at a time: OpenStore takes the directory's lock and refuses
// (ErrStateDirInUse, naming the holder's PID) while another process holds
// it. A save is made only on top of the revision on disk the daemon runs
// (CommitOn), so even a directory changed behind its back is never
// overwritten.
type Store struct {
	dir string
	// mu is a leaf lock on this directory's files alone (held for no
	// call out of the store).
	mu sync.Mutex
	// lock is the state directory's exclusive lock (lockFile), held
	// until Close.
	lock *os.File
	// warnings: what Running found and repaired (Warnings).
	warnings []string

	maxRevisions int
	maxBytes     int64
	// write writes to a temporary file; tests inject a full disk here.
	write func(w io.Writer, b []byte) error
	// beforeRename, when set, runs before each rename of a save (tests
	// stop a save there, as a crash would).
	beforeRename func(path string)
}

// StoreOption configures a Store.
type StoreOption func(*Store)

// WithRetention keeps at most revisions revisions and at most bytes bytes
// of history (configurations and metadata); the oldest go first, the
// running revision always stays. Both must be at least 1.
func WithRetention(revisions int, bytes int64) StoreOption {
	return func(s *Store) { s.maxRevisions, s.maxBytes = revisions, bytes }
}

type revMeta struct {
	Time    time.Time `json:"time"`
	Comment string    `json:"comment,omitempty"`
	Digest  string    `json:"digest"`
	By      string    `json:"by,omitempty"`
	// Check covers the revision's number, time, comment, digest and by
	// (metaCheck): a time or comment changed by hand fails it. Metadata
	// written before it existed has none.
	Check string `json:"check,omitempty"`
	// Runtime: runtime.json existed when the revision was saved (so one
	// missing later was removed).
	Runtime bool `json:"runtime,omitempty"`
}

// metaCheck is the check of revision n's metadata.
func metaCheck(n uint64, m revMeta) string {
	s := fmt.Sprintf("revision %d\n%s\n%q\n%s\n%t", n, m.Time.UTC().Format(time.RFC3339Nano), m.Comment, m.Digest, m.Runtime)
	if m.By != "" {
		// Metadata written before By existed keeps its check.
		s += fmt.Sprintf("\nby %q", m.By)
	}
	return digest([]byte(s))
}

const (
	runningFile = "running.yaml"
	layoutsFile = "layouts.json"
	backupExt   = ".prev" // a file as it was before an uncommitted save
)

// OpenStore opens (creating) a state directory and finishes or rolls back
// a save a crash interrupted.
func OpenStore(dir string, opts ...StoreOption) (*Store, error) {
	s := &Store{dir: dir, maxRevisions: DefaultHistoryRevisions, maxBytes: DefaultHistoryBytes,
		write: func(w io.Writer, b []byte) error { _, err := w.Write(b); return err }}
	for _, o := range opts {
		o(s)
	}
	if s.maxRevisions < 1 {
		return nil, fmt.Errorf("store: history retention of %d revisions: must be at least 1 (the running revision is always kept)", s.maxRevisions)
	}
	if s.maxBytes < 1 {
		return nil, fmt.Errorf("store: history retention of %d bytes: must be at least 1 (the running revision is always kept)", s.maxBytes)
	}
	if err := os.MkdirAll(filepath.Join(dir, "revisions"), 0o750); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	lock, err := lockDir(dir, filepath.Join(dir, lockFile))
	if err != nil {
		return nil, err
	}
	s.lock = lock
	if err := s.recover(); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

// Dir is the state directory.
func (s *Store) Dir() string { return s.dir }

func (s *Store) path(name string) string { return filepath.Join(s.dir, name) }

func (s *Store) revPath(n uint64, ext string) string {
	return filepath.Join(s.dir, "revisions", fmt.Sprintf("%08d%s", n, ext))
}

// recover undoes a save that did not reach its commit point, and removes
// what a crash left behind: temporary files, backups, revisions without
// metadata.
func (s *Store) recover() error {
	for _, d := range []string{s.dir, filepath.Join(s.dir, "revisions")} {
		ents, err := os.ReadDir(d)
		if err != nil {
			return fmt.Errorf("store: %w", err)
		}
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".") && strings.Contains(e.Name(), ".tmp") {
				_ = os.Remove(filepath.Join(d, e.Name()))
			}
		}
	}
	revs, _, err := s.scan()
	if err != nil {
		return err
	}
	var newest uint64
	var newestDigest string
	if len(revs) > 0 {
		newest, newestDigest = revs[len(revs)-1].Number, revs[len(revs)-1].Digest
	}
	running, err := os.ReadFile(s.path(runningFile))
	runningOK := err == nil && digest(running) == newestDigest
	for _, f := range []string{runningFile, layoutsFile} {
		b := s.path(f) + backupExt
		if _, err := os.Lstat(b); err != nil {
			continue
		}
		if runningOK {
			_ = os.Remove(b) // the save committed; the backup is stale
			continue
		}
		// The save did not commit: put the file back as it was (an
		// empty backup: it did not exist).
		if fi, err := os.Stat(b); err == nil && fi.Size() == 0 {
			_ = os.Remove(s.path(f))
			_ = os.Remove(b)
			continue
		}
		if err := os.Rename(b, s.path(f)); err != nil {
			return fmt.Errorf("store: rolling back an interrupted save: %w", err)
		}
	}
	// Revisions newer than the newest committed one never committed.
	ents, err := os.ReadDir(filepath.Join(s.dir, "revisions"))
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".yaml")
		if !ok {
			continue
		}
		if n, err := strconv.ParseUint(name, 10, 64); err == nil && n > newest {
			_ = os.Remove(filepath.Join(s.dir, "revisions", e.Name()))
		}
	}
	return syncDir(s.dir)
}

// Running returns the running configuration and its revision, or
// os.ErrNotExist when none was saved yet. The store is verified first: a
// damaged one is ErrDamagedStore, naming each problem and the last good
// revision.
func (s *Store) Running() ([]byte, Revision, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	data, err := os.ReadFile(s.path(runningFile))
	if errors.Is(err, os.ErrNotExist) {
		revs, _, serr := s.scan()
		if serr == nil && len(revs) > 0 {
			return nil, Revision{}, s.damaged([]string{fmt.Sprintf("%s is missing but history holds %d revisions", runningFile, len(revs))})
		}
		return nil, Revision{}, err
	}
	if err != nil {
		return nil, Revision{}, fmt.Errorf("store: %w", err)
	}
	revs, problems, err := s.scan()
	if err != nil {
		return nil, Revision{}, err
	}
	rev, problems := s.verify(data, revs, problems)
	if len(problems) > 0 {
		return nil, Revision{}, s.damaged(problems)
	}
	// What can be repaired without losing anything the operator made is,
	// with a warning.
	s.warnings = s.repairs(revs, rev)
	return data, rev, nil
}

// verify checks every revision of revs against its digest, the running
// configuration data against the newest one, and the layouts file. It
// returns the running revision and problems with what it found added.
func (s *Store) verify(data []byte, revs []Revision, problems []string) (Revision, []string) {
	for _, r := range revs {
		b, err := os.ReadFile(s.revPath(r.Number, ".yaml"))
		if err != nil {
			problems = append(problems, fmt.Sprintf("revision %d: %v", r.Number, err))
			continue
		}
		if d := digest(b); d != r.Digest {
			problems = append(problems, fmt.Sprintf("revision %d: revisions/%08d.yaml has digest %s, its metadata says %s", r.Number, r.Number, d, r.Digest))
		}
	}
	var rev Revision
	switch d := digest(data); {
	case len(revs) == 0:
		problems = append(problems, fmt.Sprintf("%s (digest %s) has no revision in history", runningFile, d))
	case d != revs[len(revs)-1].Digest:
		newest := revs[len(revs)-1]
		problems = append(problems, fmt.Sprintf("%s (digest %s, %d bytes) is not the newest revision %d (digest %s)", runningFile, d, len(data), newest.Number, newest.Digest))
	default:
		rev = revs[len(revs)-1]
	}
	if _, err := s.loadLayouts(); err != nil {
		problems = append(problems, err.Error())
	}
	return rev, problems
}

// repairs lists what a verified store misses that it can do without: a
// removed layouts file (dealt again), revisions removed from history,
// revision files without their metadata.
func (s *Store) repairs(revs []Revision, rev Revision) []string {
	var warnings []string
	if _, err := os.Stat(s.path(layoutsFile)); errors.Is(err, os.ErrNotExist) && rev.Number > 1 {
		warnings = append(warnings, fmt.Sprintf("%s is missing: the slot layouts are dealt again from revision %d's configuration (sessions may move to other filter cores); it is saved again with the next change", layoutsFile, rev.Number))
	}
	var gaps []string
	for i := 1; i < len(revs); i++ {
		for n := revs[i-1].Number + 1; n < revs[i].Number; n++ {
			gaps = append(gaps, strconv.FormatUint(n, 10))
		}
	}
	warnings = append(warnings, s.orphans(revs, rev)...)
	switch {
	case len(gaps) == 1:
		warnings = append(warnings, fmt.Sprintf("revision %s is missing from history (its files were removed); the running revision %d and the others are intact", gaps[0], rev.Number))
	case len(gaps) > 1:
		warnings = append(warnings, fmt.Sprintf("revisions %s are missing from history (their files were removed); the running revision %d and the others are intact", strings.Join(gaps, ", "), rev.Number))
	}
	return warnings
}

// orphans names the revision files older than history that have no
// metadata (removed, or a pruning was interrupted).
func (s *Store) orphans(revs []Revision, rev Revision) []string {
	ents, err := os.ReadDir(filepath.Join(s.dir, "revisions"))
	if err != nil {
		return nil
	}
	var out []string
	have := map[uint64]bool{}
	for _, r := range revs {
		have[r.Number] = true
	}
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".yaml")
		if n, err := strconv.ParseUint(name, 10, 64); ok && err == nil && !have[n] && n < rev.Number && (len(revs) == 0 || n < revs[0].Number) {
			out = append(out, fmt.Sprintf("revisions/%s has no metadata (removed, or a pruning was interrupted): revision %d is not in history", e.Name(), n))
		}
	}
	return out
}

// Warnings are what the last Running repaired or found missing without
// refusing the directory (a removed layouts file, a gap in history).
func (s *Store) Warnings() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.warnings)
}

// damaged builds the error for a damaged store, naming the newest
// revision whose configuration matches its digest.
func (s *Store) damaged(problems []string) error {
	revs, _, _ := s.scan()
	good := "no revision is intact: move the state directory away and start with an initial configuration"
	for i := len(revs) - 1; i >= 0; i-- {
		b, err := os.ReadFile(s.revPath(revs[i].Number, ".yaml"))
		if err == nil && digest(b) == revs[i].Digest {
			good = fmt.Sprintf("the last good revision is %d (%s): to start from it, copy revisions/%08d.yaml over %s and remove the damaged revision files",
				revs[i].Number, revs[i].Time.Format(time.RFC3339), revs[i].Number, runningFile)
			break
		}
	}
	return fmt.Errorf("store %s: %w, not loaded:\n  %s\n%s", s.dir, ErrDamagedStore, strings.Join(problems, "\n  "), good)
}

// Revision returns a saved revision's configuration, checked against its
// digest.
func (s *Store) Revision(n uint64) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := os.ReadFile(s.revPath(n, ".json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("revision %d: %w (it may have been pruned: the history keeps the newest %d revisions and %d bytes)", n, ErrNotFound, s.maxRevisions, s.maxBytes)
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	var m revMeta
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("store: revision %d: metadata: %v: %w", n, err, ErrDamagedStore)
	}
	data, err := os.ReadFile(s.revPath(n, ".yaml"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("revision %d: %w", n, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if d := digest(data); d != m.Digest {
		return nil, fmt.Errorf("store: revision %d: revisions/%08d.yaml has digest %s, its metadata says %s: %w", n, n, d, m.Digest, ErrDamagedStore)
	}
	return data, nil
}

// History lists the saved revisions, oldest first.
func (s *Store) History() ([]Revision, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	revs, _, err := s.scan()
	return revs, err
}

// scan lists the committed revisions (a metadata file and a
// configuration), oldest first, and the problems found on the way
// (unreadable metadata).
func (s *Store) scan() ([]Revision, []string, error) {
	ents, err := os.ReadDir(filepath.Join(s.dir, "revisions"))
	if err != nil {
		return nil, nil, fmt.Errorf("store: %w", err)
	}
	var out []Revision
	var problems []string
	checked := uint64(0) // the oldest revision whose metadata has a check
	unchecked := []uint64{}
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || strings.HasPrefix(name, ".") {
			continue
		}
		n, err := strconv.ParseUint(name, 10, 64)
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(s.dir, "revisions", e.Name()))
		if err != nil {
			return nil, nil, fmt.Errorf("store: %w", err)
		}
		var m revMeta
		if err := json.Unmarshal(b, &m); err != nil || m.Digest == "" {
			problems = append(problems, fmt.Sprintf("revision %d: revisions/%s is not valid metadata", n, e.Name()))
			continue
		}
		switch {
		case m.Check == "":
			unchecked = append(unchecked, n)
		case m.Check != metaCheck(n, m):
			problems = append(problems, fmt.Sprintf("revision %d: revisions/%s fails its check (its time, comment, digest or author was changed)", n, e.Name()))
			continue
		case checked == 0 || n < checked:
			checked = n
		}
		if _, err := os.Stat(s.revPath(n, ".yaml")); err != nil {
			problems = append(problems, fmt.Sprintf("revision %d: revisions/%08d.yaml is missing", n, n))
			continue
		}
		out = append(out, Revision{Number: n, Time: m.Time, Comment: m.Comment, Digest: m.Digest, By: m.By})
	}
	// Metadata without a check is older than every one with a check;
	// one newer lost its check.
	for _, n := range unchecked {
		if checked != 0 && n > checked {
			problems = append(problems, fmt.Sprintf("revision %d: revisions/%08d.json has no check, though older revisions have one", n, n))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Number < out[j].Number })
	return out, problems, nil
}

// Layouts returns the base slot layouts saved with the running revision
// (nil when none were saved), by balance group name.
func (s *Store) Layouts() (map[string]*tables.Layout, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.loadLayouts()
}

func (s *Store) loadLayouts() (map[string]*tables.Layout, error) {
	b, err := os.ReadFile(s.path(layoutsFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	out, _, err := tables.DecodeLayouts(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %v (remove it to start from the base layouts; that moves sessions)", layoutsFile, err)
	}
	return out, nil
}

func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:6])
}

// writeTemp writes data to a synced temporary file beside path and returns
// its name.
func (s *Store) writeTemp(path string, data []byte) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return "", err
	}
	tmp := f.Name()
	fail := func(err error) (string, error) {
		f.Close()
		os.Remove(tmp)
		return "", err
	}
	if err := s.write(f, data); err != nil {
		return fail(fmt.Errorf("write %s: %w", filepath.Base(path), err))
	}
	if err := f.Sync(); err != nil {
		return fail(fmt.Errorf("sync %s: %w", filepath.Base(path), err))
	}
	if err := f.Chmod(0o640); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return "", err
	}
	return tmp, nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
