package daemon

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/controlplane"
	"github.com/dpi-balancer/balancer/profiles"
	"github.com/dpi-balancer/balancer/tables"
)

// Reload takes the running configuration and the runtime state (manual
// bypasses; failed filter groups too while this daemon is not primary)
// from the store, for a store shared by several daemons after another
// one changed them. The new desired state is compiled at once and
// written when this daemon is (or becomes) primary. It does nothing when
// the store holds what this daemon runs.
func (d *Daemon) Reload(ctx context.Context) error {
	return d.ReloadAs(ctx, d.session.Status().Primary)
}

// ReloadAs is Reload for a daemon that knows whether it leads (a leader
// election): a leader keeps the failed filter groups its keep-alives
// found, a standby takes them from the store.
func (d *Daemon) ReloadAs(ctx context.Context, leader bool) error {
	// The store is read before taking cfgMu: a store that does not
	// answer must never hold up a configuration change, and failovers
	// never wait for it (the state owner does not read the store).
	data, rev, layouts, err := d.readRunning()
	if err != nil {
		return err
	}
	var rt Runtime
	var rtRev int64
	if s, ok := d.store.(SharedStore); ok {
		rt, rtRev, err = s.LoadRuntimeRev()
	} else {
		rt, err = d.store.LoadRuntime()
	}
	if err != nil {
		return fmt.Errorf("reloading the runtime state: %w", err)
	}
	// One configuration change at a time (with ApplyConfig); the compile
	// below runs off the state owner, which keeps applying failovers.
	d.cfgMu.Lock()
	defer d.cfgMu.Unlock()
	d.mu.Lock()
	if rev.Number < d.rev.Number {
		// This daemon saved a newer revision since the read: keep it.
		data, rev, layouts = d.yaml, d.rev, nil
	}
	cfg, old, oldSite, oldRev := d.cfg, d.engine, d.site, d.rev
	sameCfg := rev.Number == d.rev.Number && rev.Digest == d.rev.Digest
	d.mu.Unlock()
	if !sameCfg {
		if cfg, err = config.Parse(data); err == nil {
			err = cfg.CheckCPUPort(d.cpuPort)
		}
		if err != nil {
			return fmt.Errorf("revision %d in the store is invalid, kept revision %d: %w", rev.Number, oldRev.Number, err)
		}
	}
	// The primary knows best which groups are down (its keep-alives); a
	// standby takes them from the store, as written by the primary.
	primary := leader
	want := known(cfg, rt.BypassGroups)
	holds := func(eng *profiles.Engine) bool {
		all, groups := eng.Bypass()
		return all == rt.BypassAll && slices.Equal(groups, want) && (primary || slices.Equal(eng.Down(), known(cfg, rt.Down)))
	}
	if sameCfg && holds(old) {
		// The engine holds what the store holds: only the store revision
		// it reflects moves. That is the state owner's to record: it saves
		// the runtime state (moving the revision) and may have saved a
		// newer one since the read above, which this older read must
		// not replace (the next save would be refused as a conflict).
		return d.own(ctx, func(context.Context) error {
			cur := d.currentEngine()
			still := cur == old && holds(cur)
			d.mu.Lock()
			if still && d.engine == cur && rtRev > d.rtBase {
				d.rtBase = rtRev
			}
			d.mu.Unlock()
			if primary && cur == old && !sameFailures(cfg, cur, rt) {
				// A leader's keep-alives found failures the store does not
				// hold (found while the store could not be written, as
				// when etcd lost its quorum): save them now, conditioned
				// on the store revision just read.
				d.saveRuntime()
			}
			return nil
		})
	}
	eng, err := d.newEngine(cfg, rt)
	if err != nil {
		return fmt.Errorf("revision %d in the store: %w", rev.Number, err)
	}
	// takeOver gives eng what the engine cur decided (a leader's
	// failovers), with the store's manual bypasses.
	takeOver := func(cur *profiles.Engine) {
		eng.Adopt(cur)
		// Adopt kept this daemon's manual bypasses: the store's win.
		eng.SetGlobalBypass(rt.BypassAll)
		for _, fg := range cfg.FilterGroups {
			_ = eng.SetAdminBypass(fg.Name, slices.Contains(want, fg.Name), d.now())
		}
	}
	if primary {
		takeOver(old)
	}
	st := eng.State()
	var site *tables.Site
	if !sameCfg {
		// A new revision: compile it here, off the state owner, from the
		// slot layouts the daemon that saved it compiled it with (so
		// every daemon places the balance slots alike).
		if layouts == nil {
			layouts = oldSite.BaseLayouts()
		}
		des, err := d.comp.Compile(cfg, st, tables.FromLayouts(layouts))
		if err != nil {
			return fmt.Errorf("revision %d in the store does not compile: %w", rev.Number, err)
		}
		if site, err = d.comp.NewSite(cfg, des, st); err != nil {
			return fmt.Errorf("revision %d in the store compiled but not indexed: %w", rev.Number, err)
		}
	}
	return d.own(ctx, func(octx context.Context) error {
		d.mu.Lock()
		cur := d.engine
		d.mu.Unlock()
		if primary && cur != old {
			takeOver(cur)
		}
		eng.Start(d.now())
		if sameCfg {
			// The runtime state only: the owner's incremental path
			// writes the entries that change.
			d.mu.Lock()
			d.engine, d.rtBase = eng, rtRev
			d.mu.Unlock()
			d.log.Info("reloaded from the store", "revision", rev.Number, "configuration_changed", false)
			return d.writeState(octx)
		}
		if now := eng.State(); !equalState(now, st) {
			var err error
			if site, _, err = d.comp.WithState(site, now); err != nil {
				return fmt.Errorf("revision %d in the store: its runtime state failed: %w", rev.Number, err)
			}
		}
		d.mu.Lock()
		d.cfg, d.yaml, d.rev, d.engine, d.site, d.rtBase = cfg, data, rev, eng, site, rtRev
		d.cfgGen++
		d.mu.Unlock()
		d.log.Info("reloaded from the store", "revision", rev.Number, "configuration_changed", true)
		if !d.ownerRunning() {
			// Before Run: the session's first reconciliation writes it.
			d.session.SetDesired(site.Desired().Entities)
			return nil
		}
		p, err := d.session.ApplyUpdates(octx, controlplane.FullChange(site.Desired().Entities))
		switch {
		case err == nil:
			d.markWritten(site.State())
			if p != nil && !p.Empty() {
				d.log.Info("switch programmed", "inserts", p.Inserts, "modifies", p.Modifies, "deletes", p.Deletes)
			}
		case errors.Is(err, controlplane.ErrNotPrimary):
			// Kept; written when the session becomes primary.
		case octx.Err() != nil:
			return octx.Err()
		default:
			d.log.Error("programming the switch failed; it is retried", "err", err)
		}
		d.refreshTelemetry(octx)
		return nil
	})
}

// readRunning reads the running configuration and the slot layouts saved
// with it. A revision saved and its layouts change together (one
// transaction), so the layouts belong to the revision when the running
// revision is the same before and after reading them; else it reads
// again.
func (d *Daemon) readRunning() ([]byte, Revision, map[string]*tables.Layout, error) {
	for range 3 {
		data, rev, err := d.store.Running()
		if err != nil {
			return nil, Revision{}, nil, fmt.Errorf("reloading the running configuration: %w", err)
		}
		layouts, err := d.store.Layouts()
		if err != nil {
			return nil, Revision{}, nil, fmt.Errorf("reloading the slot layouts of revision %d: %w", rev.Number, err)
		}
		_, again, err := d.store.Running()
		if err != nil {
			return nil, Revision{}, nil, fmt.Errorf("reloading the running configuration: %w", err)
		}
		if again.Number == rev.Number {
			return data, rev, layouts, nil
		}
	}
	return nil, Revision{}, nil, fmt.Errorf("reloading the running configuration: it changed at every read (3 times); the next change notice reads it again")
}

// sameFailures reports whether the engine's failure states (down, proven
// up) are the stored runtime state's.
func sameFailures(cfg *config.Config, eng *profiles.Engine, rt Runtime) bool {
	return slices.Equal(eng.Down(), known(cfg, rt.Down)) && slices.Equal(eng.Up(), known(cfg, rt.Up))
}

// known keeps the filter groups cfg has, sorted.
func known(cfg *config.Config, groups []string) []string {
	var out []string
	for _, g := range groups {
		if cfg.FilterGroupByName(g) != nil {
			out = append(out, g)
		}
	}
	slices.Sort(out)
	return out
}
