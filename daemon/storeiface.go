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
	d.log.Error("saving runtime state", "err", err)
	where := "the state directory " + d.opts.StateDir
	if _, shared := d.store.(SharedStore); shared {
		where = "the shared store"
	}
	d.raiseAlarm(Alarm{Name: AlarmRuntimeSaveFailed, Object: "runtime state",
		Message: "the failure states and manual bypass were not saved: " + err.Error() + "; a restart now would start from the last saved ones",
		Remedy:  "make " + where + " writable again (space, permissions, quorum); the next failover, recovery or bypass saves them and clears this"})
}

// saveRuntimeTo is saveRuntimeOf without the alarm.
func (d *Daemon) saveRuntimeTo(eng *profiles.Engine, rt Runtime) error {
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
func (d *Daemon) commitConfig(base uint64, data []byte, note Note, layouts map[string]*tables.Layout) (Revision, error) {
	if s, ok := d.store.(interface {
		CommitOn(base uint64, data []byte, note Note, now time.Time, layouts map[string]*tables.Layout) (Revision, error)
	}); ok {
		return s.CommitOn(base, data, note, d.now(), layouts)
	}
	return d.store.Commit(data, note, d.now(), layouts)
}
