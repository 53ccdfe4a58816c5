// Package statestore is the contract of the daemon's state store: what a
// daemon must not lose (the running configuration, its revisions, the
// slot layouts it was compiled with, the runtime state), kept in the state
// directory (package daemon's Store) or shared by the daemons of a switch
// (package etcdstore), and the errors a store returns.
package statestore

import (
	"errors"
	"time"

	"github.com/dpi-balancer/balancer/tables"
)

// Errors of a store; the daemon's API maps ErrNotFound and ErrUnavailable
// to gRPC codes.
var (
	ErrNotFound    = errors.New("not found")
	ErrUnavailable = errors.New("switch unavailable")
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
	Commit(data []byte, note Note, now time.Time, layouts map[string]*tables.Layout) (Revision, error)
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

// SharedStore is a StateStore shared by several daemons. CommitOn saves
// only while the running revision is base (the one this daemon runs);
// SaveRuntimeOn only while the runtime state is still at the store
// revision base (the one this daemon's engine was built from, as
// LoadRuntimeRev returned it): both fail with ErrConflict otherwise.
// Saving the runtime state the store holds already writes nothing.
type SharedStore interface {
	StateStore
	CommitOn(base uint64, data []byte, note Note, now time.Time, layouts map[string]*tables.Layout) (Revision, error)
	LoadRuntimeRev() (Runtime, int64, error)
	SaveRuntimeOn(base int64, rt Runtime) (int64, error)
}

// Revision is one saved configuration.
type Revision struct {
	Number  uint64
	Time    time.Time
	Comment string
	Digest  string // sha256 of the YAML, 12 hex digits
	// By says who made it: the API client's user ("root (uid 0)") or
	// TLS certificate subject ("CN=ops1"); "" when not known (the
	// initial configuration, or a revision saved before it was kept).
	By string
}

// Note is what a revision is saved with besides its configuration.
type Note struct {
	Comment string
	By      string // Revision.By
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
	// Recovered lists the filter groups (among Down) that recovered under
	// manual failback and wait for an operator to return them: a
	// restarted daemon or a new HA leader keeps them out of service until
	// then. A daemon that predates it takes them as down.
	Recovered []string `json:"recovered,omitempty"`
	// Epochs are the filter groups' data-plane verdict epochs that are
	// not 0 (docs/availability.md, "The verdict and its epoch"): a
	// restarted daemon or a new HA leader starts from them, so that its
	// first recovery of a filter moves past the epoch a verdict the last
	// controller's pipeline proved can hold.
	Epochs map[string]uint8 `json:"epochs,omitempty"`
	// FailedOpen lists the filter groups judged failed open (a fail-open
	// probe came back, and no round of probes was dropped since), with
	// when and what found it: a restarted daemon or a new HA leader keeps
	// them so (and out of service under a fail-open action other than
	// alarm) until a round of their probes is dropped again, rather than
	// judging them afresh. A daemon that predates it probes them again.
	FailedOpen map[string]FailedOpen `json:"failed_open,omitempty"`
}

// FailedOpen is a filter group judged failed open, as saved.
type FailedOpen struct {
	Since  time.Time `json:"since"`
	Detail string    `json:"detail,omitempty"`
}

// HAStatus is the shared store and the leader election of the daemons of
// one switch (daemon.Options.HAStatus; absent with the state directory).
type HAStatus struct {
	// Store says where the state lives ("etcd <prefix>").
	Store string
	// StoreHealthy: the store answered just now; else StoreError says why.
	StoreHealthy bool
	StoreError   string
	// Name is this daemon's name in the election; Leader whether it leads.
	Name   string
	Leader bool
	// LeaderName is the leading daemon's name ("" when none).
	LeaderName string
	Standbys   []string
}

// DocStore is what a store may also keep: small named documents beside the
// configuration (the open configuration session, a commit confirmed
// waiting for its confirmation), so that they survive a restart and, in a
// shared store, a takeover. A store without it keeps them nowhere: they
// live as long as the daemon.
type DocStore interface {
	// LoadDoc returns the document (nil, nil when there is none).
	LoadDoc(name string) ([]byte, error)
	// SaveDoc replaces the document durably; nil data removes it.
	SaveDoc(name string, data []byte) error
}
