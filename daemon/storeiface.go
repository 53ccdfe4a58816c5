package daemon

import (
	"errors"
	"time"

	"github.com/dpi-balancer/balancer/profiles"
	"github.com/dpi-balancer/balancer/tables"
)

// StateStore keeps what a daemon must not lose: the running configuration,
// its revisions and the runtime state (manual bypasses, failed filter
// groups). The state directory (Store) is the default for a single daemon;
// a store shared by several daemons (etcd) implements the same methods.
type StateStore interface {
	// Running returns the running configuration and its revision, or an
	// error wrapping os.ErrNotExist when none was saved yet.
	Running() ([]byte, Revision, error)
	// Save stores data as a new revision and makes it the running one.
	// A shared store refuses the save (ErrConflict) when another daemon
	// saved a revision since this one read the running configuration
	// (see SharedStore for a save conditioned on a given revision).
	Save(data []byte, comment string, now time.Time) (Revision, error)
	// Commit is Save with the base slot layouts the configuration was
	// compiled with, stored with the revision (nil: leave the saved
	// ones), all or nothing: on error nothing changed.
	Commit(data []byte, comment string, now time.Time, layouts map[string]*tables.Layout) (Revision, error)
	// Layouts returns the base slot layouts saved with the running
	// revision (nil when none were saved), by balance group name.
	Layouts() (map[string]*tables.Layout, error)
	// Revision returns a saved revision's configuration (ErrNotFound).
	Revision(n uint64) ([]byte, error)
	// History lists the saved revisions, oldest first.
	History() ([]Revision, error)
	// LoadRuntime returns the saved runtime state (zero when none).
	LoadRuntime() (Runtime, error)
	// SaveRuntime stores the runtime state.
	SaveRuntime(Runtime) error
}

// ErrConflict: another daemon changed the shared store since this daemon
// read it; the change was not made. The error's message names the
// revision to re-read.
var ErrConflict = errors.New("conflict")

var _ StateStore = (*Store)(nil)

// SharedStore is a StateStore shared by several daemons. CommitOn saves
// only while the running revision is base (the one this daemon runs);
// SaveRuntimeOn only while the runtime state is still at the store
// revision base (the one this daemon's engine was built from, as
// LoadRuntimeRev returned it): both fail with ErrConflict otherwise.
// Saving the runtime state the store holds already writes nothing.
type SharedStore interface {
	StateStore
	CommitOn(base uint64, data []byte, comment string, now time.Time, layouts map[string]*tables.Layout) (Revision, error)
	LoadRuntimeRev() (Runtime, int64, error)
	SaveRuntimeOn(base int64, rt Runtime) (int64, error)
}

// saveRuntimeOf saves the runtime state of engine eng. With a shared
// store the save is conditioned on the store revision eng reflects, so a
// change another daemon made meanwhile is never overwritten; the state of
// an engine replaced meanwhile is not saved (its successor's is).
func (d *Daemon) saveRuntimeOf(eng *profiles.Engine, rt Runtime) error {
	s, ok := d.store.(SharedStore)
	if !ok {
		return d.store.SaveRuntime(rt)
	}
	d.mu.Lock()
	cur, base := d.engine, d.rtBase
	d.mu.Unlock()
	if cur != eng {
		return nil
	}
	rev, err := s.SaveRuntimeOn(base, rt)
	if err != nil {
		return err
	}
	d.mu.Lock()
	if d.engine == eng && d.rtBase == base {
		d.rtBase = rev
	}
	d.mu.Unlock()
	return nil
}

// commitConfig saves a new running configuration made from revision base
// with the base slot layouts it was compiled with (the state owner).
func (d *Daemon) commitConfig(base uint64, data []byte, comment string, layouts map[string]*tables.Layout) (Revision, error) {
	if s, ok := d.store.(interface {
		CommitOn(base uint64, data []byte, comment string, now time.Time, layouts map[string]*tables.Layout) (Revision, error)
	}); ok {
		return s.CommitOn(base, data, comment, d.now(), layouts)
	}
	return d.store.Commit(data, comment, d.now(), layouts)
}
