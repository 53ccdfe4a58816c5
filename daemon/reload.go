package daemon

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

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
	err := d.reloadAs(ctx, leader)
	if err == nil {
		d.clearAlarm(AlarmStoreCatchUp, "the store was read again")
		// A takeover finds the former leader's session and commit
		// confirmed in the store.
		d.refreshDocs()
	}
	return err
}

func (d *Daemon) reloadAs(ctx context.Context, leader bool) error {
	// The store is read before taking cfgMu: a store that does not
	// answer must never hold up a configuration change, and failovers
	// never wait for it (the state owner does not read the store).
	r, err := d.readStore(leader)
	if err != nil {
		return err
	}
	// One configuration change at a time (with ApplyConfig); the compile
	// below runs off the state owner, which keeps applying failovers.
	d.cfgMu.Lock()
	defer d.cfgMu.Unlock()
	if err := d.against(r); err != nil {
		return err
	}
	if r.sameCfg && r.holds(r.old.engine) {
		// The engine holds what the store holds: only the store revision
		// it reflects moves. That is the state owner's to record: it saves
		// the runtime state (moving the revision) and may have saved a
		// newer one since the read above, which this older read must
		// not replace (the next save would be refused as a conflict).
		return d.own(ctx, func(context.Context) error { d.followStore(r); return nil })
	}
	eng, err := d.newEngine(r.cfg, r.rt)
	if err != nil {
		return fmt.Errorf("revision %d in the store: %w", r.rev.Number, err)
	}
	if r.leader {
		r.takeOver(eng, r.old.engine, d.now())
	}
	var site *tables.Site
	if !r.sameCfg {
		if site, err = d.compileReload(r, eng.State()); err != nil {
			return err
		}
	}
	return d.own(ctx, func(octx context.Context) error { return d.installReload(octx, r, eng, site) })
}

// reload is a reload from the store: what ReloadAs read, and the running
// state it read it against.
type reload struct {
	data    []byte
	rev     Revision
	layouts map[string]*tables.Layout // saved with rev (nil: none)
	rt      Runtime
	rtRev   int64 // rt's store revision (a shared store)
	// leader: the primary knows best which groups are down (its
	// keep-alives); a standby takes them from the store, as written by
	// the primary.
	leader bool

	old     *running       // the running state, under cfgMu
	cfg     *config.Config // rev's configuration (old.cfg when sameCfg)
	sameCfg bool
	want    []string // the store's manual bypasses of filter groups cfg has
}

// readStore reads the running configuration, its slot layouts and the
// runtime state from the store.
func (d *Daemon) readStore(leader bool) (*reload, error) {
	data, rev, layouts, err := d.readRunning()
	if err != nil {
		return nil, err
	}
	r := &reload{data: data, rev: rev, layouts: layouts, leader: leader}
	if s := d.caps.shared; s != nil {
		r.rt, r.rtRev, err = s.LoadRuntimeRev()
	} else {
		r.rt, err = d.store.LoadRuntime()
	}
	if err != nil {
		return nil, fmt.Errorf("reloading the runtime state: %w", err)
	}
	return r, nil
}

// against sets what r is read against: the running state (cfgMu held)
// and the configuration to run.
func (d *Daemon) against(r *reload) error {
	r.old = d.snapshot()
	if r.rev.Number < r.old.rev.Number {
		// This daemon saved a newer revision since the read: keep it.
		r.data, r.rev, r.layouts = r.old.yaml, r.old.rev, nil
	}
	r.cfg = r.old.cfg
	r.sameCfg = r.rev.Number == r.old.rev.Number && r.rev.Digest == r.old.rev.Digest
	if !r.sameCfg {
		cfg, err := config.Parse(r.data)
		if err == nil {
			err = cfg.CheckCPUPort(d.cpuPort)
		}
		if err != nil {
			return fmt.Errorf("revision %d in the store is invalid, kept revision %d: %w", r.rev.Number, r.old.rev.Number, err)
		}
		r.cfg = cfg
	}
	r.want = known(r.cfg, r.rt.BypassGroups)
	return nil
}

// holds reports whether eng holds what the store holds: its manual
// bypasses and, for a standby, its failed filter groups.
func (r *reload) holds(eng *profiles.Engine) bool {
	all, groups := eng.Bypass()
	return all == r.rt.BypassAll && slices.Equal(groups, r.want) && (r.leader || (slices.Equal(eng.Down(), known(r.cfg, r.rt.Down)) && slices.Equal(eng.Recovered(), known(r.cfg, r.rt.Recovered)) &&
		slices.Equal(failedOpenOf(r.cfg, eng.FailedOpen()), failedOpenOf(r.cfg, r.rt.FailedOpen))))
}

// takeOver gives eng what the engine cur decided (a leader's failovers),
// with the store's manual bypasses.
func (r *reload) takeOver(eng, cur *profiles.Engine, now time.Time) {
	eng.Adopt(cur)
	// Adopt kept this daemon's manual bypasses: the store's win.
	eng.SetGlobalBypass(r.rt.BypassAll)
	for _, fg := range r.cfg.FilterGroups {
		_ = eng.SetAdminBypass(fg.Name, slices.Contains(r.want, fg.Name), now)
	}
}

// followStore records, on the state owner, that the engine reflects the
// store's runtime state of revision r.rtRev (unless it changed since).
func (d *Daemon) followStore(r *reload) {
	old := r.old.engine
	cur := d.currentEngine()
	still := cur == old && r.holds(cur)
	if still && r.rtRev > d.snapshot().rtBase {
		d.with(func(run *running) { run.rtBase = r.rtRev })
	}
	if r.leader && cur == old && !sameFailures(r.cfg, cur, r.rt) {
		// A leader's keep-alives found failures the store does not
		// hold (found while the store could not be written, as
		// when etcd lost its quorum): save them now, conditioned
		// on the store revision just read.
		d.saveRuntime()
	}
}

// compileReload compiles a new revision off the state owner, from the
// slot layouts the daemon that saved it compiled it with (so every daemon
// places the balance slots alike).
func (d *Daemon) compileReload(r *reload, st tables.State) (*tables.Site, error) {
	layouts := r.layouts
	if layouts == nil {
		layouts = r.old.site.BaseLayouts()
	}
	des, err := d.comp.Compile(r.cfg, st, tables.FromLayouts(layouts))
	if err != nil {
		return nil, fmt.Errorf("revision %d in the store does not compile: %w", r.rev.Number, err)
	}
	site, err := d.comp.NewSite(r.cfg, des, st)
	if err != nil {
		return nil, fmt.Errorf("revision %d in the store compiled but not indexed: %w", r.rev.Number, err)
	}
	return site, nil
}

// installReload installs what r read, with eng and (a new revision) its
// compiled site, and writes the switch (the state owner).
func (d *Daemon) installReload(ctx context.Context, r *reload, eng *profiles.Engine, site *tables.Site) error {
	cur := d.snapshot()
	// Whether this daemon leads is judged again here, on the state owner:
	// a standby that became primary after the store was read (a takeover)
	// has decided as the leader since (failures found on the switch
	// adopted, keep-alive failovers), and so has a leader's engine, in
	// place or replaced: the current engine's decisions are taken over,
	// never the older read's (installing a standby's view of the store
	// put a failure the new leader had adopted back in service).
	if r.leader || d.session.Status().Primary {
		r.takeOver(eng, cur.engine, d.now())
	}
	if r.sameCfg {
		// The runtime state only: the owner's incremental path writes
		// the entries that change.
		next := *cur
		next.engine, next.rtBase = eng, r.rtRev
		d.install(next)
		d.log.Info("reloaded from the store", "revision", r.rev.Number, "configuration_changed", false)
		return d.writeState(ctx)
	}
	site, err := d.atState(site, eng)
	if err != nil {
		return fmt.Errorf("revision %d in the store: its runtime state failed: %w", r.rev.Number, err)
	}
	d.install(running{cfg: r.cfg, yaml: r.data, rev: r.rev, engine: eng, site: site, rtBase: r.rtRev})
	d.log.Info("reloaded from the store", "revision", r.rev.Number, "configuration_changed", true)
	p, started, err := d.program(ctx, site, nil)
	switch {
	case !started:
		return nil
	case err == nil:
		if p != nil && !p.Empty() {
			d.log.Info("switch programmed", "inserts", p.Inserts, "modifies", p.Modifies, "deletes", p.Deletes)
		}
	case errors.Is(err, controlplane.ErrNotPrimary):
		// Kept; written when the session becomes primary.
	case ctx.Err() != nil:
		return ctx.Err()
	default:
		d.log.Error("programming the switch failed; it is retried", "err", err)
	}
	d.refreshTelemetry(ctx)
	return nil
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
	return slices.Equal(eng.Down(), known(cfg, rt.Down)) && slices.Equal(eng.Up(), known(cfg, rt.Up)) &&
		slices.Equal(eng.Recovered(), known(cfg, rt.Recovered)) &&
		slices.Equal(failedOpenOf(cfg, eng.FailedOpen()), failedOpenOf(cfg, rt.FailedOpen))
}

// failedOpenOf lists the filter groups of m that cfg has and whose profile
// sends fail-open probes (the only ones an engine keeps failed open),
// sorted.
func failedOpenOf[T any](cfg *config.Config, m map[string]T) []string {
	var out []string
	for n := range m {
		if cfg.FilterGroupByName(n) == nil {
			continue
		}
		p := cfg.DefaultProfile()
		if bg := cfg.BalanceGroupWith(n); bg != nil {
			if bp := cfg.ProfileByName(bg.Profile); bp != nil {
				p = *bp
			}
		}
		if p.Probes() {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
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
