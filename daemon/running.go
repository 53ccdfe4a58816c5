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
	if next.cfg != d.cfg {
		d.cfgGen++
	}
	d.running = next
	d.mu.Unlock()
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
// session that is not running): started is then false.
func (d *Daemon) program(ctx context.Context, site *tables.Site) (plan *tables.Plan, started bool, err error) {
	if !d.ownerRunning() {
		d.session.SetDesired(site.Desired().Entities)
		return nil, false, nil
	}
	plan, err = d.session.ApplyUpdates(ctx, controlplane.FullChange(site.Desired().Entities))
	if err == nil {
		d.markWritten(site.State())
	}
	return plan, true, err
}
