package daemon

import (
	"slices"
	"time"

	"github.com/dpi-balancer/balancer/profiles"
	"github.com/dpi-balancer/balancer/tables"
)

// The fail-open mark before its action (docs/ha.md, "A fail-open's mark
// before its action"). A filter that failed open still answers every
// keep-alive: the switch holding its fail-open action (software bypass,
// drop, a moved share) cannot tell a daemon that reads it back why, and a
// new leader that found only the action would bring the filter back by
// its keep-alives alone, uninspected. So the state owner saves a new
// fail-open mark before it writes the switch: whatever order a crash cuts,
// the store holds the mark whenever the switch holds the action. A mark
// saved whose write never happened is fail-safe: the next leader takes the
// filter out from the store and it returns only once its probes are
// dropped again.
//
// The save waits at most markSaveWait: a store that does not answer (etcd
// cut off, slow) must not hold the filter in service. After that the switch
// is written first and the save goes on; a save that fails raises
// runtime-save-failed and is retried (saveRetryFirst, doubling to
// saveRetryMax) until one succeeds. A takeover after such a failure finds
// the action on the switch without the mark: the new leader adopts the
// failure and keeps the filter out until a round of its probes is dropped
// (profiles.Engine.AdoptFailures).

// markSaveWait bounds the wait for the save of a fail-open mark before
// the switch is written.
const markSaveWait = 500 * time.Millisecond

// saveRetryFirst and saveRetryMax space the retries of a failed runtime
// save.
const (
	saveRetryFirst = time.Second
	saveRetryMax   = 30 * time.Second
)

// earlySave is a save of the runtime state started before a switch write
// (the state owner's): the engine and store revision it was made from,
// what it saves, and its result once done.
type earlySave struct {
	eng  *profiles.Engine
	base int64
	rt   Runtime
	done chan earlyResult
}

type earlyResult struct {
	rev int64
	err error
}

// marksUnsaved lists the fail-open marks the engine holds that the last
// runtime save did not (the state owner).
func (d *Daemon) marksUnsaved(eng *profiles.Engine) []string {
	var out []string
	for n, m := range eng.FailedOpen() {
		if since, ok := d.savedOpen[n]; !ok || !since.Equal(m.Since) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// noteSaved records what a runtime save that succeeded holds (the state
// owner).
func (d *Daemon) noteSaved(rt Runtime) {
	d.savedOpen = map[string]time.Time{}
	for n, fo := range rt.FailedOpen {
		d.savedOpen[n] = fo.Since
	}
	d.saveFailing.Store(false)
	d.retryWait = 0
	d.crashPoint(CrashPoint{Point: CrashRuntimeSaved, Runtime: rt})
}

// saveMarksFirst saves the runtime state before the switch is written
// when the engine holds a fail-open mark not saved yet (the state owner).
// It waits at most markSaveWait for a shared store; a save still under
// way then goes on (finishEarly takes its result). It returns the state
// to write: the engine's state read before its marks, so every filter
// group that state takes out for a fail-open has its mark among those
// saved (the engine sets a mark before the transition it causes, under
// its lock). A later state waits for the next round of the owner.
func (d *Daemon) saveMarksFirst(eng *profiles.Engine) tables.State {
	st := eng.State()
	names := d.marksUnsaved(eng)
	if len(names) == 0 {
		return st
	}
	rt := runtimeOf(eng)
	s := d.caps.shared
	if s == nil {
		// The state directory: a local fsync.
		if err := d.saveRuntimeOf(eng, rt); err != nil {
			d.markSaveFailed(names, err)
		}
		return st
	}
	if d.early != nil {
		// An earlier mark's save has outlasted markSaveWait: the store
		// does not answer, do not wait again. This mark is saved after
		// it (finishEarly, then the runtime save that follows).
		d.log.Warn("the store has not saved the fail-open mark yet: writing its fail-open action to the switch first; the save goes on",
			"filter_groups", names, "waited", time.Duration(0))
		return st
	}
	cur := d.snapshot()
	if cur.engine != eng {
		return st // replaced: its successor's state is saved
	}
	e := &earlySave{eng: eng, base: cur.rtBase, rt: rt, done: make(chan earlyResult, 1)}
	go func() {
		rev, err := s.SaveRuntimeOn(e.base, e.rt)
		e.done <- earlyResult{rev, err}
	}()
	t := time.NewTimer(markSaveWait)
	defer t.Stop()
	select {
	case r := <-e.done:
		d.finishEarly(e, r, names)
	case <-t.C:
		d.early, d.earlyNames = e, names
		d.log.Warn("the store has not saved the fail-open mark yet: writing its fail-open action to the switch first; the save goes on",
			"filter_groups", names, "waited", markSaveWait)
	}
	return st
}

// earlyDone is the result channel of the early save under way (nil:
// none), for the state owner's loop.
func (d *Daemon) earlyDone() <-chan earlyResult {
	if d.early == nil {
		return nil
	}
	return d.early.done
}

// awaitEarly waits for the early save under way, if any, and takes its
// result (the state owner, before any other save: both are conditioned on
// the same store revision).
func (d *Daemon) awaitEarly() {
	if e := d.early; e != nil {
		d.finishEarly(e, <-e.done, d.earlyNames)
	}
}

// finishEarly takes the result of early save e (the state owner) and
// says whether it saved.
func (d *Daemon) finishEarly(e *earlySave, r earlyResult, names []string) bool {
	if d.early == e {
		d.early, d.earlyNames = nil, nil
	}
	if r.err != nil {
		d.markSaveFailed(names, r.err)
		return false
	}
	// Taken as the base only while the running state is still the one it
	// was made from (a reload installed since read the store itself).
	if cur := d.snapshot(); cur.engine == e.eng && cur.rtBase == e.base {
		d.with(func(r2 *running) { r2.rtBase = r.rev })
	}
	d.clearAlarm(AlarmRuntimeSaveFailed, "the runtime state was saved")
	d.noteSaved(e.rt)
	return true
}

// markSaveFailed reports a fail-open mark that could not be saved: the
// switch is written anyway (the filter must not stay in service
// uninspected) and the save is retried.
func (d *Daemon) markSaveFailed(names []string, err error) {
	d.log.Error("fail-open mark not saved: its fail-open action is written to the switch anyway; the save is retried",
		"filter_groups", names, "err", err)
	d.runtimeSaveFailed(err)
}

// retryTimer arms the retry of a failed runtime save when one is due and
// this daemon is primary (a standby's state is the leader's to save); it
// returns the channel to wait on (nil: none).
func (d *Daemon) retryTimer(t **time.Timer) <-chan time.Time {
	if !d.saveFailing.Load() || !d.snapshot().primary {
		if *t != nil {
			(*t).Stop()
			*t = nil
		}
		return nil
	}
	if *t == nil {
		if d.retryWait == 0 {
			d.retryWait = saveRetryFirst
		}
		*t = time.NewTimer(d.retryWait)
		d.retryWait = min(2*d.retryWait, saveRetryMax)
	}
	return (*t).C
}
