package daemon

import (
	"context"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/controlplane"
	"github.com/dpi-balancer/balancer/profiles"
	"github.com/dpi-balancer/balancer/tables"
)

// running is the configuration the daemon runs, in its runtime state: what
// the API shows and the state owner keeps on the switch. install replaces
// it whole (apply, rollback, and reload from a shared store); between
// installs the state owner only moves its site to its engine's state
// (writeState) and saveRuntimeOf the store revision rtBase. Daemon.mu
// guards it.
type running struct {
	cfg    *config.Config
	yaml   []byte // cfg as saved
	rev    Revision
	engine *profiles.Engine
	// site is cfg compiled, in the runtime state last brought to it.
	site *tables.Site
	// rtBase: with a shared store, the store revision of the runtime
	// state the engine reflects.
	rtBase int64
}

// snapshot is the running state.
func (d *Daemon) snapshot() running {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.running
}

// install makes next the running state: the one place it is replaced
// whole. It runs on the state owner (before Run, in work handed to own).
// next's engine is started; a new configuration moves cfgGen, so portLoop
// follows its ports.
func (d *Daemon) install(next running) {
	next.engine.Start(d.now())
	d.mu.Lock()
	changed := next.cfg != d.cfg
	if changed {
		d.cfgGen++
		if d.guard != nil {
			d.guard.SetSpares(tables.SpareIDs(next.cfg))
		}
	}
	d.running = next
	d.mu.Unlock()
	if changed {
		d.clearAlarm(AlarmVerdictUnknown, "another configuration was applied")
	}
}

// atState brings a site compiled for an earlier runtime state to the one
// eng holds now: what it decided since (failovers, manual bypass).
func (d *Daemon) atState(site *tables.Site, eng *profiles.Engine) (*tables.Site, error) {
	now := eng.State()
	if equalState(now, site.State()) {
		return site, nil
	}
	next, _, err := d.comp.WithState(site, now)
	return next, err
}

// program writes a newly installed site to the switch whole, the session
// diffing it with what the switch holds (the state owner). Before Run the
// session's first reconciliation writes it (an ApplyUpdates would wait for a
// session that is not running): started is then false. pre, when not
// nil, is the plan already made from the running site to the new one: the
// session writes it as it is while it holds that running site (it is
// used only while site's entities are the very ones it was made for).
func (d *Daemon) program(ctx context.Context, site *tables.Site, pre *applyPlan) (plan *tables.Plan, started bool, err error) {
	if !d.ownerRunning() {
		d.session.SetDesired(site.Desired().Entities)
		return nil, false, nil
	}
	ch := controlplane.FullChange(site.Desired().Entities)
	if pre != nil && site.Desired() == pre.des {
		// No runtime state change since the plan: it is the difference
		// from the site the plan was made against.
		ch.Plan, ch.From = pre.plan, pre.from
	}
	plan, err = d.session.ApplyUpdates(ctx, ch)
	if err == nil {
		d.markWritten(site.State())
	}
	return plan, true, err
}
