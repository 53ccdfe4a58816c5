package daemon

import (
	"context"
	"fmt"
	"slices"

	"github.com/dpi-balancer/balancer/config"
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
	// The store is read before taking applyMu: a store that does not
	// answer must never hold up the switch's writes (failover).
	data, rev, err := d.store.Running()
	if err != nil {
		return fmt.Errorf("reloading the running configuration: %w", err)
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
	d.applyMu.Lock()
	defer d.applyMu.Unlock()
	d.mu.Lock()
	if rev.Number < d.rev.Number {
		// This daemon saved a newer revision since the read: keep it.
		data, rev = d.yaml, d.rev
	}
	cfg, old := d.cfg, d.engine
	sameCfg := rev.Number == d.rev.Number && rev.Digest == d.rev.Digest
	d.mu.Unlock()
	if !sameCfg {
		if cfg, err = config.Parse(data); err != nil {
			return fmt.Errorf("revision %d in the store is invalid, kept revision %d: %w", rev.Number, d.rev.Number, err)
		}
	}
	// The primary knows best which groups are down (its keep-alives); a
	// standby takes them from the store, as written by the primary.
	primary := leader
	all, groups := old.Bypass()
	want := known(cfg, rt.BypassGroups)
	if sameCfg && all == rt.BypassAll && slices.Equal(groups, want) && (primary || slices.Equal(old.Down(), known(cfg, rt.Down))) {
		d.mu.Lock()
		if d.engine == old {
			d.rtBase = rtRev // the engine holds what the store holds
		}
		d.mu.Unlock()
		return nil
	}
	eng, err := d.newEngine(cfg, rt)
	if err != nil {
		return fmt.Errorf("revision %d in the store: %w", rev.Number, err)
	}
	if primary {
		eng.Adopt(old)
		// Adopt kept this daemon's manual bypasses: the store's win.
		eng.SetGlobalBypass(rt.BypassAll)
		for _, fg := range cfg.FilterGroups {
			_ = eng.SetAdminBypass(fg.Name, slices.Contains(want, fg.Name), d.now())
		}
	}
	eng.Start(d.now())
	des, err := d.comp.Compile(cfg, eng.State())
	if err != nil {
		return fmt.Errorf("revision %d in the store does not compile: %w", rev.Number, err)
	}
	d.mu.Lock()
	d.cfg, d.yaml, d.rev, d.engine, d.desired, d.rtBase = cfg, data, rev, eng, des, rtRev
	if !sameCfg {
		d.cfgGen++
	}
	d.mu.Unlock()
	d.log.Info("reloaded from the store", "revision", rev.Number, "configuration_changed", !sameCfg)
	d.session.SetDesired(des.Entities)
	d.signal()
	return nil
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
