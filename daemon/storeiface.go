package daemon

import (
	"errors"
	"time"
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
	// saved a revision since this one read the running configuration.
	Save(data []byte, comment string, now time.Time) (Revision, error)
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
