package daemon

import (
	"context"
	"fmt"
	"maps"
	"time"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/tables"
)

// Bypassed sessions kept in bypass (docs/sessions.md, "Bypassed sessions
// kept in bypass"). With the session memory, a profile's return:
// new-sessions says that the sessions a filter group carried while it was
// in software bypass (a failure, a fail-open, the operator) stay in
// bypass when it returns: the filter never saw their start. The learner
// points them at the kept id (sessions.bypass_id), which no filter group
// has, so the switch's default for it, the software bypass, applies until
// they idle out:
//
//   - while the filter group is in software bypass, its new sessions are
//     learned at the kept id (learner.keepNow);
//   - before its return is written, the state owner holds it in software
//     bypass and has the learner rewrite its held entries to the kept id
//     (holdReturns, learner.requestKeep); the return is written once they
//     are, so no frame of theirs reaches the filter.
//
// The hold is bounded (keepReturnWait): a learner that cannot write (the
// switch unreachable, not primary) must not keep a healthy filter out of
// service. Past it the filter returns, and the held sessions not
// rewritten yet with it, as under return: all (their rewrites are dropped;
// those already rewritten stay in bypass); logged, and counted:
// SessionMemoryStatus.KeepTimedOut.

// keepReturnWait bounds how long a returning filter group is held in
// software bypass while its held sessions are rewritten to the kept id
// (a variable for tests).
var keepReturnWait = 10 * time.Second

// keepWaiting is a returning filter group held in software bypass (the
// state owner's).
type keepWaiting struct {
	since time.Time
	done  bool // the learner wrote its held sessions to the kept id
}

// keepsBypassed says whether filter group name of cfg keeps its bypassed
// sessions in bypass (the session memory on, its balance group's profile
// return: new-sessions).
func keepsBypassed(cfg *config.Config, name string) bool {
	if !cfg.Sessions.Enabled {
		return false
	}
	bg := cfg.BalanceGroupWith(name)
	if bg == nil {
		return false
	}
	prof := bg.Profile
	if prof == "" {
		prof = config.DefaultProfile
	}
	p := cfg.ProfileByName(prof)
	return p != nil && p.Return == config.ReturnNewSessions
}

// withdrawWait bounds how long a configuration's write waits for the
// learner's rewrites of the held sessions it takes off their filter group
// or core.
const withdrawWait = 2 * time.Second

// withdrawFirst has the learner rewrite, before site is written, the held
// sessions site takes off their filter group or core to where its slots
// point (docs/sessions.md, "Changes that remove a filter group"), and
// waits for it, at most withdrawWait (the state owner). Written after,
// they would point at a filter group the write removed, whose switch
// default is the software bypass, until the rewrite. A removed balance
// group's entries are deleted after the write, as before.
func (d *Daemon) withdrawFirst(ctx context.Context, site *tables.Site) {
	if d.learner == nil {
		return
	}
	done := make(chan struct{})
	d.learner.withdrawOf(site, false)
	if !d.learner.reassigning() {
		return // nothing to wait for (the common case)
	}
	d.learner.afterReassigns(func() { close(done) })
	t := time.NewTimer(withdrawWait)
	defer t.Stop()
	select {
	case <-done:
	case <-ctx.Done():
	case <-t.C:
		d.log.Warn("session memory: the held sessions a change takes off their filter group are not all rewritten yet; the change is written, they follow within the learner's check",
			"waited", withdrawWait)
	}
}

// heldName is how trace and locate name the filter group id a held
// session's entry points at: the filter group's name, the kept sessions'
// id, or an id the running configuration does not have.
func heldName(cfg *config.Config, names map[uint32]string, id uint32) string {
	if n := names[id]; n != "" {
		return n
	}
	if cfg.Sessions.Enabled && cfg.KeepsBypassed() && id == cfg.SessionBypassID() {
		return fmt.Sprintf("kept in bypass (sessions.bypass_id %d)", id)
	}
	return fmt.Sprintf("filter group id %d (not in the running configuration)", id)
}

// keepNow is, from the running state, the kept sessions' id and the
// filter groups in software bypass whose new sessions are learned there
// (the learner's, any goroutine).
func (d *Daemon) keepNow() (uint8, map[uint8]bool) {
	r := d.snapshot()
	if r.site == nil || r.cfg == nil || !r.cfg.KeepsBypassed() {
		return 0, nil
	}
	var out map[uint8]bool
	for name, s := range r.site.State().FilterGroups {
		if s != tables.FGSWBypass || !keepsBypassed(r.cfg, name) {
			continue
		}
		if f := r.cfg.FilterGroupByName(name); f != nil && f.ID != nil {
			if out == nil {
				out = map[uint8]bool{}
			}
			out[uint8(*f.ID)] = true
		}
	}
	return uint8(r.cfg.SessionBypassID()), out
}

// holdReturns is st with every filter group that returns from software
// bypass (in the running site's state, forward in st) and keeps its
// bypassed sessions held in software bypass until the learner has
// rewritten its held sessions to the kept id (the state owner). cfg is
// the configuration st is for. The first time it holds a filter group it
// asks the learner for the rewrite; the owner writes the state again once
// it is done, or once keepReturnWait has passed.
func (d *Daemon) holdReturns(cfg *config.Config, st tables.State) tables.State {
	cur := d.snapshot()
	if d.learner == nil || cur.site == nil || !cfg.Sessions.Enabled || !cfg.KeepsBypassed() || d.standby() {
		// A standby writes nothing: the leader keeps the sessions (and
		// this daemon, once it leads, finds them on the switch).
		d.keepWait = nil
		return st
	}
	var held map[string]tables.FilterGroupState
	returning := map[string]bool{}
	for name, s := range cur.site.State().FilterGroups {
		if s != tables.FGSWBypass || st.FilterGroups[name] != tables.FGForward || !keepsBypassed(cfg, name) {
			continue
		}
		f := cfg.FilterGroupByName(name)
		if f == nil || f.ID == nil {
			continue
		}
		returning[name] = true
		w := d.keepWait[name]
		switch {
		case w == nil:
			if d.keepWait == nil {
				d.keepWait = map[string]*keepWaiting{}
			}
			w = &keepWaiting{since: time.Now()}
			d.keepWait[name] = w
			d.learner.requestKeep(map[uint8]bool{uint8(*f.ID): true}, uint8(cfg.SessionBypassID()), func() {
				d.mail.post(func(ctx context.Context) {
					w.done = true
					_ = d.writeState(ctx)
				})
			})
			time.AfterFunc(keepReturnWait, func() {
				d.mail.post(func(ctx context.Context) { _ = d.writeState(ctx) })
			})
		case w.done:
			continue
		case time.Since(w.since) >= keepReturnWait:
			// The rewrites not made yet are dropped: a session must not
			// go back to the filter now and into bypass a moment later.
			d.learner.cancelKeep(uint8(*f.ID))
			d.keepTimeouts.Add(1)
			d.log.Warn("session memory: the held sessions of a returning filter group were not all kept in bypass in time; it returns with them (as under return: all)",
				"filter_group", name, "waited", time.Since(w.since).Round(time.Millisecond))
			w.done = true
			continue
		}
		if held == nil {
			held = maps.Clone(st.FilterGroups)
		}
		held[name] = tables.FGSWBypass
	}
	for name := range d.keepWait {
		if !returning[name] {
			delete(d.keepWait, name) // returned, or out of service again
		}
	}
	if held != nil {
		st.FilterGroups = held
	}
	return st
}
