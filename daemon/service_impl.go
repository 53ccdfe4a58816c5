package daemon

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/controlplane"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/profiles"
	"github.com/dpi-balancer/balancer/tables"
)

var _ Service = (*Daemon)(nil)

// Config implements Service.
func (d *Daemon) Config(context.Context) (*config.Config, Revision, error) {
	r := d.snapshot()
	return r.cfg, r.rev, nil
}

// ConfigYAML returns the running configuration as saved.
func (d *Daemon) ConfigYAML() ([]byte, Revision) {
	r := d.snapshot()
	return r.yaml, r.rev
}

// History implements Service.
func (d *Daemon) History(context.Context) ([]Revision, error) { return d.store.History() }

// ApplyConfig implements Service.
//
// The new configuration is compiled and diffed first, from a snapshot of
// the running one, under no lock: a file that takes long to refuse (or to
// compile) holds up no other change, dry run or not. Only a change that is
// to be saved takes cfgMu, and is planned again under it when another
// change landed meanwhile. The swap itself runs on the state owner: it
// saves the revision, brings the new site to the runtime state of that
// moment (failovers and manual bypass that happened during the compile
// are carried, never lost) and programs the switch.
//
// A configuration that changes nothing (the same text as the running
// one) makes no revision: the result says Unchanged with the running
// revision.
func (d *Daemon) ApplyConfig(ctx context.Context, data []byte, dryRun bool, comment string) (*ApplyResult, error) {
	cfg, err := config.Parse(data)
	if err == nil {
		err = cfg.CheckCPUPort(d.cpuPort)
	}
	if err != nil {
		return nil, kindf(ErrInvalid, "configuration rejected, the running one is unchanged:\n  %s", errorList(err))
	}
	if err := d.comp.CheckPlatform(cfg.Platform); err != nil {
		// The pipeline is the one pushed at start, for the site's platform
		// then: another platform needs the daemon restarted with its build.
		return nil, kindf(ErrInvalid, "configuration rejected, the running one is unchanged:\n  %s (the daemon pushes the pipeline it resolved at start: restart it for a new platform)", errorList(err))
	}
	p, err := d.planApply(ctx, cfg, dryRun)
	if err != nil {
		return nil, err
	}
	// Rules that can never match: analysed once the file compiled (so its
	// size is bounded), refused under --strict, named in the warning
	// otherwise.
	if cfg.Sessions.Enabled != d.sessionsOn {
		// The session memory needs its own build of the program, which the
		// daemon pushes when it starts.
		p.res.addWarning(fmt.Sprintf("sessions.enabled: %v takes effect when the daemon restarts (it pushes the pipeline %s the session memory at start); until then the session memory stays %s",
			cfg.Sessions.Enabled, map[bool]string{true: "with", false: "without"}[cfg.Sessions.Enabled], map[bool]string{true: "on", false: "off"}[d.sessionsOn]))
	}
	var ruleWarn string
	if ws := cfg.RuleWarnings(); len(ws) > 0 {
		ruleWarn = config.WarningList(ws)
		if Strict(ctx) {
			return nil, kindf(ErrInvalid, "configuration rejected (--strict), the running one is unchanged: a flow rule can never match:\n  %s",
				strings.ReplaceAll(ruleWarn, "\n", "\n  "))
		}
		p.res.addWarning(ruleWarn)
	}
	if err := checkBase(ctx, p.oldRev); err != nil {
		return nil, err
	}
	if dryRun || p.unchanged(data) {
		return p.finish(), nil
	}
	if err := d.refusePending(ctx); err != nil {
		return nil, err
	}
	d.cfgMu.Lock()
	landed := d.snapshot().rev.Number != p.oldRev.Number
	if landed {
		// Another change was saved since the snapshot: plan again, from
		// it, under cfgMu.
		if p, err = d.planApply(ctx, cfg, false); err != nil {
			d.cfgMu.Unlock()
			return nil, err
		}
		if ruleWarn != "" {
			p.res.addWarning(ruleWarn)
		}
		if err := checkBase(ctx, p.oldRev); err != nil {
			d.cfgMu.Unlock()
			return nil, err
		}
		if p.unchanged(data) {
			d.cfgMu.Unlock()
			return p.finish(), nil
		}
	}
	res, err := d.commitApply(ctx, p, data, comment)
	d.cfgMu.Unlock()
	if err != nil && errors.Is(err, ErrConflict) {
		d.catchUpAfterConflict(ctx)
	}
	return res, err
}

// addWarning adds a line to the result's warning.
func (r *ApplyResult) addWarning(w string) {
	r.Warning = strings.TrimSpace(r.Warning + "\n" + w)
}

// catchUpAfterConflict: a shared store refused a save because it holds a
// newer running revision than this daemon runs: another daemon's whose
// change this one has not followed yet, or this daemon's own save whose
// answer was lost while etcd was unreachable (it landed, the daemon was
// told it failed). The daemon reads the store again and installs that
// revision, so the operator's next change is made from it instead of
// being refused the same way until a restart.
func (d *Daemon) catchUpAfterConflict(ctx context.Context) {
	if d.caps.shared == nil {
		return
	}
	// Not bound by the caller's deadline (the refusal is already its
	// answer), but by the store's own timeouts and this.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := d.Reload(ctx); err != nil {
		d.log.Warn("catching up with the store after a refused save", "err", err)
		d.raiseAlarm(Alarm{Name: AlarmStoreCatchUp, Object: "shared store",
			Message: "a save was refused because the store changed, and reading it again failed: " + err.Error() + "; this daemon may run an older revision than the store's",
			Remedy:  "check the store (balancer status: store); the next time this daemon reads the store whole (the next refused save, a takeover) clears this"})
		return
	}
	rev := d.snapshot().rev
	d.log.Info("caught up with the store after a refused save", "revision", rev.Number)
}

// applyPlan is a configuration compiled against a snapshot of the
// running one.
type applyPlan struct {
	cfg     *config.Config
	oldYAML []byte
	oldRev  Revision
	eng     *profiles.Engine
	st      tables.State
	des     *tables.Desired
	res     *ApplyResult
	// plan is the difference between des and from, the running site's
	// entities it was compiled against: what the session writes when it
	// holds that site (the site is not diffed twice).
	plan *tables.Plan
	from []*p4v1.Entity
}

// unchanged says whether applying would change nothing: the same text
// as the running revision. A file that differs only in its comments or
// layout is still saved as a revision (they are the operator's, and a
// revision is what keeps them), though it writes nothing to the switch.
func (p *applyPlan) unchanged(data []byte) bool {
	return bytes.Equal(data, p.oldYAML)
}

// finish returns the result of a plan that is not saved: a dry run, or a
// change that changes nothing (then it names the running revision).
func (p *applyPlan) finish() *ApplyResult {
	if !p.res.DryRun {
		p.res.Unchanged = true
		p.res.Revision = p.oldRev
	}
	return p.res
}

// checkBase refuses a change whose caller read another revision than the
// running one (WithBaseRevision).
func checkBase(ctx context.Context, running Revision) error {
	if base := BaseRevision(ctx); base != 0 && base != running.Number {
		return kindf(ErrConflict, "the running configuration is revision %d, not %d: it changed since it was read; read it again and retry", running.Number, base)
	}
	return nil
}

// planApply compiles cfg against a snapshot of the running configuration
// and engine, and diffs it with what runs.
func (d *Daemon) planApply(ctx context.Context, cfg *config.Config, dryRun bool) (*applyPlan, error) {
	r := d.snapshot()
	old, oldYAML, oldEngine, oldSite, oldRev := r.cfg, r.yaml, r.engine, r.site, r.rev
	oldDesired := oldSite.Desired()
	eng, err := d.newEngine(cfg, runtimeOf(oldEngine))
	if err != nil {
		return nil, kindf(ErrInvalid, "%v", err)
	}
	eng.Adopt(oldEngine)
	eng.CarryBypass(oldEngine, d.now())
	st := eng.State()
	des, err := d.comp.Compile(cfg, st, tables.FromLayouts(oldSite.BaseLayouts()))
	if err != nil {
		return nil, kindf(ErrInvalid, "configuration rejected, the running one is unchanged:\n  %s", errorList(err))
	}
	plan := d.comp.Diff(des.Entities, oldDesired.Entities)
	res := &ApplyResult{DryRun: dryRun, Changes: ConfigChanges(old, cfg),
		Inserts: plan.Inserts, Modifies: plan.Modifies, Deletes: plan.Deletes,
		Slots: tables.LayoutMoves(oldDesired.Layouts, des.Layouts), FilterGroupNames: fgNames(old)}
	maps.Copy(res.FilterGroupNames, fgNames(cfg))
	if d.learner != nil {
		res.SessionMemory = true
		res.HeldSessions = d.learner.preview(old, cfg, des.Layouts)
	}
	if err := guardApply(ctx, old, cfg, plan.Deletes, len(oldDesired.Entities), res); err != nil {
		return nil, err
	}
	return &applyPlan{cfg: cfg, oldYAML: oldYAML, oldRev: oldRev, eng: eng, st: st, des: des, res: res, plan: plan, from: oldDesired.Entities}, nil
}

// commitApply saves and programs a plan; cfgMu is held.
func (d *Daemon) commitApply(ctx context.Context, p *applyPlan, data []byte, comment string) (*ApplyResult, error) {
	cfg, eng, st, des, res, oldRev := p.cfg, p.eng, p.st, p.des, p.res, p.oldRev
	site, err := d.comp.NewSite(cfg, des, st)
	if err != nil {
		return nil, fmt.Errorf("configuration compiled but not indexed: %w", err)
	}
	err = d.own(ctx, func(octx context.Context) error {
		// cfgMu is held: the running revision is still oldRev (a shared
		// store refuses the save when another daemon saved since).
		rev, err := d.commitConfig(oldRev.Number, data, Note{Comment: comment, By: ByOf(ctx)}, des.BaseLayouts())
		if err != nil {
			return fmt.Errorf("configuration refused, the running one is unchanged: %w", err)
		}
		res.Revision = rev
		// Whatever the old engine decided since the snapshot (it kept
		// running), and any manual bypass set meanwhile, carries over.
		cur := d.snapshot()
		eng.Adopt(cur.engine)
		eng.CarryBypass(cur.engine, d.now())
		if site, err = d.atState(site, eng); err != nil {
			return fmt.Errorf("configuration saved as revision %d, but its runtime state failed: %w", rev.Number, err)
		}
		d.install(running{cfg: cfg, yaml: data, rev: rev, engine: eng, site: site, rtBase: cur.rtBase})
		d.log.Info("configuration applied", "revision", rev.Number, "changes", len(res.Changes), "comment", comment, "by", rev.By)
		d.events.Publish(Event{Kind: EventConfig, Object: fmt.Sprintf("revision %d", rev.Number), To: "running",
			Reason: fmt.Sprintf("%d changes; %s", len(res.Changes), comment), By: rev.By})
		if err := d.saveRuntimeOf(eng, runtimeOf(eng)); err != nil {
			d.runtimeSaveFailed(err)
		}
		if d.standby() {
			// The leader programs the switch; this daemon keeps the state
			// for when it leads.
			d.session.SetDesired(site.Desired().Entities)
			res.addWarning(d.notPrimaryWarning())
			return nil
		}
		wp, started, err := d.program(octx, site, p)
		switch {
		case !started:
			res.addWarning("saved; the daemon is starting: the switch will be programmed on connection")
			return nil
		case err == nil:
			res.Written = true
			if wp != nil {
				res.Inserts, res.Modifies, res.Deletes = wp.Inserts, wp.Modifies, wp.Deletes
			}
		case errors.Is(err, controlplane.ErrNotPrimary):
			res.addWarning(d.notPrimaryWarning())
		default:
			res.addWarning("saved, but programming the switch failed (it is retried): " + err.Error())
		}
		d.refreshTelemetry(octx)
		return nil
	})
	if err != nil && ctx.Err() != nil && errors.Is(err, ErrUnavailable) {
		// The caller stopped waiting after the owner took the change: it
		// goes on. Say how to find out whether it was saved.
		return nil, fmt.Errorf("%w; the running revision was %d: if `balancer config history` shows a newer one with this comment, the change was made", err, oldRev.Number)
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// Rollback implements Service: revision n's configuration is applied
// again (a dry run shows what that would do). Rolling back to what runs
// makes no revision.
func (d *Daemon) Rollback(ctx context.Context, n uint64, dryRun bool, comment string) (*ApplyResult, error) {
	data, err := d.store.Revision(n)
	if err != nil {
		return nil, err
	}
	if comment == "" {
		comment = fmt.Sprintf("rollback to revision %d", n)
	}
	return d.ApplyConfig(ctx, data, dryRun, comment)
}

// RevisionYAML implements Service: revision n's configuration as saved
// (0: the running one).
func (d *Daemon) RevisionYAML(_ context.Context, n uint64) ([]byte, Revision, error) {
	r := d.snapshot()
	running, rev := r.yaml, r.rev
	if n == 0 || n == rev.Number {
		return running, rev, nil
	}
	data, err := d.store.Revision(n)
	if err != nil {
		return nil, Revision{}, err
	}
	revs, err := d.store.History()
	if err != nil {
		return nil, Revision{}, err
	}
	for _, r := range revs {
		if r.Number == n {
			return data, r, nil
		}
	}
	return data, Revision{Number: n}, nil
}

// fgList names a configuration's filter groups for a message.
func fgList(c *config.Config) string {
	if c == nil || len(c.FilterGroups) == 0 {
		return "none (none is configured)"
	}
	var names []string
	for _, f := range c.FilterGroups {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}

// ConfigChanges lists what changes between two configurations, one line
// per object with the fields that differ (see config.Diff).
func ConfigChanges(a, b *config.Config) []string { return config.Diff(a, b) }

// standby: this daemon is a standby of a leader election (its election id
// is managed by the election and unset): the leader programs the switch.
func (d *Daemon) standby() bool {
	ss := d.session.Status()
	return d.opts.FixedElection && ss.ElectionHigh == 0 && ss.ElectionLow == 0
}

// notPrimaryWarning says why a saved change is not on the switch when the
// session is not primary, and when it will be.
func (d *Daemon) notPrimaryWarning() string {
	ss := d.session.Status()
	switch {
	case d.standby():
		return "saved; standby: the leader programs the switch"
	case !ss.Connected:
		why := "the switch is not connected"
		if ss.LastError != "" {
			why += " (" + ss.LastError + ")"
		}
		return "saved, but not on the switch yet: " + why + "; it is programmed when the switch answers again"
	case ss.OtherPrimary != "":
		return fmt.Sprintf("saved, but not on the switch: another controller (election id %s) is primary on the switch, and this daemon writes nothing while it is; see balancer status", ss.OtherPrimary)
	default:
		return "saved, but not on the switch yet: this daemon is not the switch's primary controller yet; it is programmed when it is"
	}
}

// SetBypass implements Service. It runs on the state owner, so it is
// ordered with configuration changes and failovers. The new bypass is
// saved (fsync'd) before anything changes: if it cannot be saved the
// command fails and nothing changed. Then the engine takes it and the
// switch is written before the call returns.
func (d *Daemon) SetBypass(ctx context.Context, group string, on bool) error {
	return d.own(ctx, func(octx context.Context) error {
		eng := d.currentEngine()
		rt := runtimeOf(eng)
		if group == "" {
			rt.BypassAll = on
		} else {
			if !eng.Has(group) {
				known := fgList(d.snapshot().cfg)
				return kindf(ErrNotFound, "unknown filter group %q; the filter groups are %s", group, known)
			}
			rt.BypassGroups = slices.DeleteFunc(rt.BypassGroups, func(g string) bool { return g == group })
			if on {
				rt.BypassGroups = append(rt.BypassGroups, group)
				slices.Sort(rt.BypassGroups)
			}
		}
		if err := d.saveRuntimeOf(eng, rt); err != nil {
			return fmt.Errorf("manual bypass not changed: saving the runtime state failed: %w", err)
		}
		var err error
		d.engineDo(func() {
			if group == "" {
				eng.SetGlobalBypass(on)
			} else {
				err = eng.SetAdminBypass(group, on, d.now())
			}
		})
		if err != nil {
			return kindf(ErrNotFound, "%v", err)
		}
		obj, to := group, "off"
		if obj == "" {
			obj = "all"
		}
		if on {
			to = "on"
		}
		d.log.Info("manual bypass", "object", obj, "to", to, "by", ByOf(ctx))
		d.events.Publish(Event{Kind: EventBypass, Object: obj, To: to, Reason: "by the operator", By: ByOf(ctx)})
		err = d.writeState(octx)
		d.refreshTelemetry(octx)
		return err
	})
}

// ReturnFilterGroup implements Service. Like SetBypass it runs on the
// state owner and is an operator's command: the filter group is saved as
// up (fsync'd, or the shared store's transaction) before anything changes;
// if that fails the command fails and it still waits. Then the engine
// returns it and the switch is written before the call returns.
func (d *Daemon) ReturnFilterGroup(ctx context.Context, name string) error {
	return d.own(ctx, func(octx context.Context) error {
		eng := d.currentEngine()
		if !eng.Has(name) {
			known := fgList(d.snapshot().cfg)
			return kindf(ErrNotFound, "unknown filter group %q; the filter groups are %s", name, known)
		}
		if err := eng.CanReturn(name); err != nil {
			return err
		}
		rt := runtimeOf(eng)
		drop := func(g string) bool { return g == name }
		rt.Down = slices.DeleteFunc(rt.Down, drop)
		rt.Recovered = slices.DeleteFunc(rt.Recovered, drop)
		if !slices.Contains(rt.Up, name) {
			rt.Up = append(rt.Up, name)
			slices.Sort(rt.Up)
		}
		if err := d.saveRuntimeOf(eng, rt); err != nil {
			return fmt.Errorf("filter group %s not returned, it still waits: saving the runtime state failed: %w", name, err)
		}
		var err error
		d.engineDo(func() { err = eng.Return(name, d.now()) })
		if err != nil {
			// It failed again between the check and now: the saved state
			// is caught up by the save that follows that failure.
			d.saveRuntime()
			return err
		}
		d.log.Info("filter group returned", "filter_group", name, "by", ByOf(ctx))
		d.events.Publish(Event{Kind: EventReturn, Object: name, From: profiles.StateRecovered.String(), To: profiles.StateUp.String(), Reason: "by the operator", By: ByOf(ctx)})
		err = d.writeState(octx)
		if err == nil {
			d.saveRuntime() // the epoch its recovery moved to
		}
		d.refreshTelemetry(octx)
		return err
	})
}

// Status implements Service.
func (d *Daemon) Status(ctx context.Context) (*Status, error) {
	r := d.snapshot()
	cfg, rev, eng, site, ports := r.cfg, r.rev, r.engine, r.site, r.ports
	watching, written, primary := r.watching, r.written, r.primary
	// The filters' states before the engine's table state: a transition in
	// between then shows as the old state, or as pending, never as a new
	// state that is not pending although the switch does not hold it yet.
	filters := eng.Status()

	ss := d.session.Status()
	pipelineVerdict, _ := d.comp.Verdict()
	st := &Status{Site: cfg.Site, Revision: rev, ObservedAt: d.now(), Daemon: d.info,
		Switch: SwitchStatus{Address: d.opts.SwitchAddr, Connected: ss.Connected, Primary: ss.Primary,
			ElectionID: fmt.Sprintf("%d:%d", ss.ElectionHigh, ss.ElectionLow), LastError: ss.LastError,
			LastReconcile: ss.LastReconcile, LastPlan: ss.LastPlan, AtomicWrites: ss.AtomicWrites, PortsWatched: watching,
			Stalled: ss.Stalled, StalledSince: ss.StalledSince, ElectionRefused: ss.ElectionRefused, Pending: ss.Pending, NextRetry: ss.NextRetry, Alarm: ss.Alarm(),
			OtherPrimary: ss.OtherPrimary, OtherPrimarySince: ss.OtherPrimarySince,
			StatePending: !primary || !equalState(eng.State(), written),
			CPUPort:      d.cpuPort, CPUPortWritten: d.comp.HasCPUPortSetting(), PipelineVerdict: pipelineVerdict}}
	st.Switch.PortAlarms = r.portAlarms()
	st.Confirm, st.Session = d.PendingConfirm(), d.OpenSession()
	if d.learner != nil {
		sm := d.SessionMemory()
		st.SessionMemory = &sm
	}
	if d.standby() {
		// A standby of a leader election: the leader programs the switch,
		// nothing waits on this daemon.
		st.Switch.Standby, st.Switch.Pending, st.Switch.StatePending, st.Switch.NextRetry = true, false, false, time.Time{}
	}
	st.Bypass.All, st.Bypass.Groups = eng.Bypass()
	st.Stale = !ss.Connected || st.Switch.Standby
	port := func(name string) string { return PortState(cfg, ports, ss.Connected, name) }
	for _, l := range cfg.Links {
		ls := LinkStatus{Name: l.Name, ID: *l.ID, LAN: l.LAN, WAN: l.WAN, LANState: port(l.LAN), WANState: port(l.WAN)}
		ls.LANUp, ls.WANUp = ls.LANState == PortUp, ls.WANState == PortUp
		st.Links = append(st.Links, ls)
	}
	for _, f := range filters {
		fg := cfg.FilterGroupByName(f.Name)
		fs := FilterStatus{Name: f.Name, ID: f.ID, BalanceGroup: f.BalanceGroup, LAN: fg.LAN, WAN: fg.WAN, Cores: fg.Cores,
			State: f.State.String(), Reason: f.Reason.String(), Since: f.Since, Effective: f.Effective, LastPass: f.LastPass,
			TimeOfPass: f.TimeOfPass, Losses: f.Losses, Consecutive: f.Consecutive, Passes: f.Passes, Misrouted: f.Misrouted,
			FailureAction: string(f.FailureAction), TimeOfPassSum: f.Histogram.Sum, LANState: port(fg.LAN), WANState: port(fg.WAN),
			Held: f.Held, Returning: f.Returning, VerdictEpoch: f.Verdicts.Epoch, VerdictDisagreements: f.Verdicts.Disagreements,
			Spare: f.Spare, SpareFor: f.SpareFor, SparedTo: f.SparedTo}
		if f.Detail != "" {
			fs.Reason = f.Detail
		}
		for _, r := range f.RoundTrips {
			fs.RoundTrips = append(fs.RoundTrips, RoundTrip{Direction: profiles.DirectionName(r.Direction), P50: r.P50, P99: r.P99, Last: r.Last, Samples: r.Samples})
		}
		fs.LossPercent, fs.LossRounds = f.LossPercent, f.LossRounds
		if p := f.FailOpen; p.Every > 0 {
			fs.FailOpen = &FailOpenStatus{ProbeEvery: p.Every, Action: string(p.Action), Sent: p.Sent, Returned: p.Returned,
				Dropped: p.Dropped, FailedOpen: p.FailedOpen, Since: p.Since, Detail: p.Detail}
		}
		if st.Switch.Standby {
			fs.Reason = ReasonStandby
		}
		if v := f.Verdicts.Standing; v != nil {
			fs.Verdict = v.Text()
		}
		for _, v := range f.Verdicts.History {
			fs.Verdicts = append(fs.Verdicts, VerdictEvent{At: v.At, Epoch: v.Epoch, Text: v.Text(), Cleared: v.Cleared, Disagree: v.Disagree})
		}
		for i, c := range f.Histogram.Counts {
			var upTo time.Duration
			if i < len(profiles.Buckets) {
				upTo = profiles.Buckets[i]
			}
			fs.TimeOfPassBuckets = append(fs.TimeOfPassBuckets, Bucket{UpTo: upTo, Count: c})
		}
		st.Filters = append(st.Filters, fs)
	}
	state := eng.State()
	stalls := map[string]profiles.StallAlarm{}
	for _, a := range eng.Alarms() {
		stalls[a.BalanceGroup] = a
	}
	down := map[string]bool{}
	for _, f := range st.Filters {
		if f.State == "down" || f.State == "admin-bypass" || f.State == "recovered" {
			down[f.Name] = true
		}
	}
	for _, bg := range cfg.BalanceGroups {
		bs := BalanceGroupStatus{Name: bg.Name, ID: *bg.ID, State: "active", Members: bg.Members, Spares: bg.Spares, SlotBits: bg.SlotBits, MinActive: 1}
		if p := cfg.ProfileByName(bg.Profile); p != nil {
			bs.MinActive = int(p.MinActive)
		}
		switch state.BalanceGroups[bg.Name] {
		case tables.BGBypass:
			bs.State = "bypass"
		case tables.BGDrop:
			bs.State = "drop"
		}
		for _, m := range bg.Members {
			// A failed member whose share a spare carries counts as
			// alive, as min_active counts it.
			if !down[m] || state.Spared[m] != "" {
				bs.Alive++
			}
		}
		if a, ok := stalls[bg.Name]; ok {
			bs.KeepAliveStall, bs.StallSince = true, a.Since
		}
		for _, l := range site.Layouts() {
			if l.Name == bg.Name {
				bs.Digest, bs.BaseDigest = l.Active.Digest(), l.Base.Digest()
			}
		}
		st.Balance = append(st.Balance, bs)
	}
	if d.opts.HAStatus != nil {
		st.HA = d.opts.HAStatus(ctx)
	}
	st.Alarms = d.alarmsWith(st.HA)
	return st, nil
}

// Slots implements Service.
func (d *Daemon) Slots(_ context.Context, group string) (*SlotsView, error) {
	r := d.snapshot()
	cfg, site := r.cfg, r.site
	layouts := site.Layouts()
	names := fgNames(cfg)
	for _, l := range layouts {
		if group != "" && l.Name != group {
			continue
		}
		if group == "" && l != layouts[0] {
			continue
		}
		v := &SlotsView{Group: l.Name, SlotBits: uint32(l.Active.SlotBits), Digest: l.Active.Digest(), BaseDigest: l.Base.Digest()}
		share := l.Active.Share()
		var keys []tables.Target
		for t := range share {
			keys = append(keys, t)
		}
		sort.Slice(keys, func(i, j int) bool {
			if keys[i].FilterGroup != keys[j].FilterGroup {
				return keys[i].FilterGroup < keys[j].FilterGroup
			}
			return keys[i].Core < keys[j].Core
		})
		for _, t := range keys {
			v.Share = append(v.Share, CoreShare{FilterGroup: names[t.FilterGroup], Core: t.Core, Slots: share[t]})
		}
		for i, t := range l.Active.Slots {
			v.Slots = append(v.Slots, SlotTarget{Slot: uint32(i), FilterGroup: names[t.FilterGroup], Core: t.Core})
		}
		return v, nil
	}
	if group == "" {
		return nil, kindf(ErrNotFound, "no balance groups configured")
	}
	return nil, kindf(ErrNotFound, "balance group %q", group)
}

func fgNames(cfg *config.Config) map[uint32]string {
	m := map[uint32]string{}
	for _, f := range cfg.FilterGroups {
		m[*f.ID] = f.Name
	}
	return m
}

// ruleEntriesLimit bounds the count of a rule's entries (a compiled
// configuration has far fewer).
const ruleEntriesLimit = 1 << 20

// packetBytes is a counter cell as the Service reports it.
func packetBytes(c tables.Count) PacketBytes { return PacketBytes{c.Packets, c.Bytes} }

// Counters implements Service: it reads every counter from the switch.
func (d *Daemon) Counters(ctx context.Context) (*Counters, error) {
	r := d.snapshot()
	cfg, site := r.cfg, r.site
	des := site.Desired()
	req, coreTargets, err := d.comp.CounterReads(cfg)
	if err != nil {
		return nil, err
	}
	es, err := d.session.Read(ctx, req...)
	if err != nil {
		return nil, kindf(ErrUnavailable, "reading counters: %v", err)
	}
	snap := d.comp.DecodeCounters(es)
	out := &Counters{At: d.now()}
	seen := map[uint32]bool{}
	for _, name := range portNames(cfg) {
		n, err := cfg.PortNumber(name)
		if err != nil || seen[n] {
			continue
		}
		seen[n] = true
		out.Ports = append(out.Ports, PortCounters{Name: name, Number: n, Rx: packetBytes(snap.PortRx(n)), Tx: packetBytes(snap.PortTx(n))})
	}
	for _, l := range cfg.Links {
		k := func(kind uint32) PacketBytes { return packetBytes(snap.Link(*l.ID, kind)) }
		out.Links = append(out.Links, LinkCounters{Name: l.Name, ToFilter: k(p4src.LinkCntToFilter), RuleBypass: k(p4src.LinkCntRuleBypass),
			NonIPBypass: k(p4src.LinkCntNonIPBypass), SWBypass: k(p4src.LinkCntSWBypass), Returned: k(p4src.LinkCntReturned),
			Heartbeat: k(p4src.LinkCntHeartbeat), GroupBypass: k(p4src.LinkCntGroupBypass), Dropped: k(p4src.LinkCntDropped)})
	}
	for _, f := range cfg.FilterGroups {
		k := func(kind uint32) PacketBytes { return packetBytes(snap.FilterGroup(*f.ID, kind)) }
		v := func(kind uint32) PacketBytes { return packetBytes(snap.Verdict(*f.ID, kind)) } // zero without the verdict
		out.Filters = append(out.Filters, FilterCounters{Name: f.Name, ToFilter: k(p4src.FGCntToFilter), Returned: k(p4src.FGCntReturned),
			KeepAlive: k(p4src.FGCntKeepAlive), SWBypass: k(p4src.FGCntSWBypass),
			VerdictBypass: v(p4src.VerdictCntBypass), VerdictDrop: v(p4src.VerdictCntDrop)})
	}
	for i := int64(1); i < p4src.DropReasons; i++ {
		out.Drops = append(out.Drops, DropCounter{Reason: p4src.DropReasonName(i), Count: packetBytes(snap.Drop(i))})
	}
	for _, r := range cfg.Rules {
		v4, v6, _ := d.comp.RuleEntries(cfg, r, ruleEntriesLimit) // cfg compiled: its counts are bounded
		out.Rules = append(out.Rules, RuleCounters{Name: r.Name, Priority: r.Priority, Entries: v4 + v6, Hits: packetBytes(snap.Rule(r.Priority))})
	}
	// Every configured core, with the slots the desired layouts deal it
	// and what its core_counters cell counted.
	names := fgNames(cfg)
	slots := map[tables.Target]int{}
	for _, e := range des.Entities {
		if se, ok := d.comp.DecodeSlot(e.GetTableEntry()); ok {
			slots[se.Target]++
		}
	}
	for _, t := range coreTargets {
		out.Cores = append(out.Cores, CoreCounters{FilterGroup: names[t.FilterGroup], Core: t.Core, Slots: slots[t], Hits: packetBytes(snap.Core(t))})
	}
	if d.learner != nil {
		sm := d.SessionMemory()
		out.SessionMemory = &sm
	}
	sort.Slice(out.Cores, func(i, j int) bool {
		if out.Cores[i].FilterGroup != out.Cores[j].FilterGroup {
			return out.Cores[i].FilterGroup < out.Cores[j].FilterGroup
		}
		return out.Cores[i].Core < out.Cores[j].Core
	})
	return out, nil
}
