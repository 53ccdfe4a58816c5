package daemon

import (
	"time"

	"github.com/dpi-balancer/balancer/daemon/statestore"
	"github.com/dpi-balancer/balancer/profiles"
	"github.com/dpi-balancer/balancer/tables"
)

// The store's contract is package statestore's; these are its names in
// the daemon.
type (
	StateStore  = statestore.StateStore
	SharedStore = statestore.SharedStore
	Revision    = statestore.Revision
	Note        = statestore.Note
	Runtime     = statestore.Runtime
	FailedOpen  = statestore.FailedOpen
	HAStatus    = statestore.HAStatus
)

// ErrConflict: another daemon changed the shared store since this daemon
// read it (statestore.ErrConflict).
var ErrConflict = statestore.ErrConflict

var _ StateStore = (*Store)(nil)

// What a store can do beyond StateStore, each an interface it implements
// or not. The daemon checks them once, when New makes it (storeCaps), and
// uses what it found from then on.
type (
	// BaseCommitter saves a revision only while the running one is base
	// (the state directory and a shared store).
	BaseCommitter interface {
		CommitOn(base uint64, data []byte, note Note, now time.Time, layouts map[string]*tables.Layout) (Revision, error)
	}
	// Seeder saves a first revision only while the store holds none (of
	// daemons started at once, one seeds).
	Seeder interface {
		Seed(data []byte, comment string, now time.Time) (bool, error)
	}
	// DocStore keeps documents: the open configuration session and a
	// commit confirmed outlive the daemon.
	DocStore = statestore.DocStore
	// DirStore is a state directory on this host.
	DirStore interface{ Dir() string }
)

var (
	_ BaseCommitter = (*Store)(nil)
	_ DocStore      = (*Store)(nil)
	_ DirStore      = (*Store)(nil)
)

// storeCaps is what the daemon's store can do besides StateStore's
// contract (nil: it cannot).
type storeCaps struct {
	// shared: several daemons share it (HA): saves of the runtime state
	// are conditioned on the store revision the engine reflects.
	shared SharedStore
	commit BaseCommitter
	seed   Seeder
	docs   DocStore
	dir    DirStore
}

// capsOf checks once what store can do.
func capsOf(store StateStore) storeCaps {
	var c storeCaps
	c.shared, _ = store.(SharedStore)
	c.commit, _ = store.(BaseCommitter)
	c.seed, _ = store.(Seeder)
	c.docs, _ = store.(DocStore)
	c.dir, _ = store.(DirStore)
	return c
}

// saveRuntimeOf saves the runtime state of engine eng. With a shared
// store the save is conditioned on the store revision eng reflects, so a
// change another daemon made meanwhile is never overwritten; the state of
// an engine replaced meanwhile is not saved (its successor's is).
func (d *Daemon) saveRuntimeOf(eng *profiles.Engine, rt Runtime) error {
	err := d.saveRuntimeTo(eng, rt)
	if err == nil {
		d.clearAlarm(AlarmRuntimeSaveFailed, "the runtime state was saved")
	}
	return err
}

// runtimeSaveFailed counts and logs a failure state not saved, and raises
// its alarm (cleared by the next save that succeeds).
func (d *Daemon) runtimeSaveFailed(err error) {
	d.runtimeSaveErrors.Add(1)
	d.saveFailing.Store(true) // retried by the state owner (retryTimer)
	d.log.Error("saving runtime state", "err", err)
	where := "the state directory " + d.opts.StateDir
	if d.caps.shared != nil {
		where = "the shared store"
	}
	d.raiseAlarm(Alarm{Name: AlarmRuntimeSaveFailed, Object: "runtime state",
		Message: "the failure states and manual bypass were not saved: " + err.Error() + "; a restart now would start from the last saved ones",
		Remedy:  "make " + where + " writable again (space, permissions, quorum); the save is retried (every second, then less often, up to every 30 s) and the next failover, recovery or bypass saves them too, which clears this"})
}

// saveRuntimeTo is saveRuntimeOf without the alarm.
func (d *Daemon) saveRuntimeTo(eng *profiles.Engine, rt Runtime) error {
	s := d.caps.shared
	if s == nil {
		if err := d.store.SaveRuntime(rt); err != nil {
			return err
		}
		d.noteSaved(rt)
		return nil
	}
	// An early save of a fail-open mark still under way is conditioned on
	// the same store revision: its result first.
	d.awaitEarly()
	cur := d.snapshot()
	if cur.engine != eng {
		return nil
	}
	base := cur.rtBase
	rev, err := s.SaveRuntimeOn(base, rt)
	if err != nil {
		return err
	}
	// The state owner saves, and it alone changes the running state: it is
	// still cur's.
	d.with(func(r *running) { r.rtBase = rev })
	d.noteSaved(rt)
	return nil
}

// commitConfig saves a new running configuration made from revision base
// with the base slot layouts it was compiled with (the state owner).
func (d *Daemon) commitConfig(base uint64, data []byte, note Note, layouts map[string]*tables.Layout) (Revision, error) {
	if s := d.caps.commit; s != nil {
		return s.CommitOn(base, data, note, d.now(), layouts)
	}
	return d.store.Commit(data, note, d.now(), layouts)
}
