package daemon

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"sort"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/controlplane"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/profiles"
	"github.com/dpi-balancer/balancer/symhash"
	"github.com/dpi-balancer/balancer/tables"
)

var _ Service = (*Daemon)(nil)

// Config implements Service.
func (d *Daemon) Config(context.Context) (*config.Config, Revision, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cfg, d.rev, nil
}

// ConfigYAML returns the running configuration as saved.
func (d *Daemon) ConfigYAML() ([]byte, Revision) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.yaml, d.rev
}

// History implements Service.
func (d *Daemon) History(context.Context) ([]Revision, error) { return d.store.History() }

// ApplyConfig implements Service.
func (d *Daemon) ApplyConfig(ctx context.Context, data []byte, dryRun bool, comment string) (*ApplyResult, error) {
	cfg, err := config.Parse(data)
	if err != nil {
		return nil, kindf(ErrInvalid, "configuration rejected, the running one is unchanged:\n  %s", errorList(err))
	}
	d.applyMu.Lock()
	defer d.applyMu.Unlock()

	d.mu.Lock()
	old, oldEngine, oldDesired, oldRev := d.cfg, d.engine, d.desired, d.rev
	d.mu.Unlock()
	rt, _ := d.store.LoadRuntime()
	eng, err := d.newEngine(cfg, rt)
	if err != nil {
		return nil, kindf(ErrInvalid, "%v", err)
	}
	eng.Adopt(oldEngine)
	des, err := d.comp.Compile(cfg, eng.State())
	if err != nil {
		return nil, kindf(ErrInvalid, "configuration rejected, the running one is unchanged:\n  %s", errorList(err))
	}
	plan := d.comp.Diff(des.Entities, oldDesired.Entities)
	res := &ApplyResult{DryRun: dryRun, Changes: ConfigChanges(old, cfg),
		Inserts: plan.Inserts, Modifies: plan.Modifies, Deletes: plan.Deletes}
	if err := guardApply(ctx, old, cfg, plan.Deletes, len(oldDesired.Entities), res); err != nil {
		return nil, err
	}
	if dryRun {
		return res, nil
	}
	rev, err := d.saveConfig(oldRev.Number, data, comment)
	if err != nil {
		return nil, fmt.Errorf("saving the configuration: %w", err)
	}
	res.Revision = rev
	eng.Start(d.now())
	d.mu.Lock()
	d.cfg, d.yaml, d.rev, d.engine, d.desired = cfg, data, rev, eng, des
	d.cfgGen++
	d.mu.Unlock()
	d.log.Info("configuration applied", "revision", rev.Number, "changes", len(res.Changes), "comment", comment)
	p, err := d.session.Apply(ctx, des.Entities)
	switch {
	case err == nil:
		res.Written = true
		if p != nil {
			res.Inserts, res.Modifies, res.Deletes = p.Inserts, p.Modifies, p.Deletes
		}
	case errors.Is(err, controlplane.ErrNotPrimary):
		res.Warning = "saved; the switch is not connected (or this daemon is a backup): it will be programmed on connection"
	default:
		res.Warning = "saved, but programming the switch failed (it is retried): " + err.Error()
	}
	d.signal()
	return res, nil
}

// Rollback implements Service.
func (d *Daemon) Rollback(ctx context.Context, n uint64) (*ApplyResult, error) {
	data, err := d.store.Revision(n)
	if err != nil {
		return nil, err
	}
	return d.ApplyConfig(ctx, data, false, fmt.Sprintf("rollback to revision %d", n))
}

// ConfigChanges lists what changes between two configurations, one line
// per object with the fields that differ (see config.Diff).
func ConfigChanges(a, b *config.Config) []string { return config.Diff(a, b) }

// SetBypass implements Service.
func (d *Daemon) SetBypass(ctx context.Context, group string, on bool) error {
	eng := d.currentEngine()
	if group == "" {
		eng.SetGlobalBypass(on)
	} else if err := eng.SetAdminBypass(group, on, d.now()); err != nil {
		return kindf(ErrNotFound, "%v", err)
	}
	d.saveRuntime()
	return nil
}

// Status implements Service.
func (d *Daemon) Status(ctx context.Context) (*Status, error) {
	d.mu.Lock()
	cfg, rev, eng, des := d.cfg, d.rev, d.engine, d.desired
	ports := make(map[uint32]bool, len(d.ports))
	for k, v := range d.ports {
		ports[k] = v
	}
	watching := d.watching
	d.mu.Unlock()

	ss := d.session.Status()
	st := &Status{Site: cfg.Site, Revision: rev, ObservedAt: d.now(),
		Switch: SwitchStatus{Address: d.opts.SwitchAddr, Connected: ss.Connected, Primary: ss.Primary,
			ElectionID: fmt.Sprintf("%d:%d", ss.ElectionHigh, ss.ElectionLow), LastError: ss.LastError,
			LastReconcile: ss.LastReconcile, LastPlan: ss.LastPlan, AtomicWrites: ss.AtomicWrites, PortsWatched: watching,
			Stalled: ss.Stalled, StalledSince: ss.StalledSince, Pending: ss.Pending, NextRetry: ss.NextRetry, Alarm: ss.Alarm()}}
	st.Bypass.All, st.Bypass.Groups = eng.Bypass()
	st.Stale = !ss.Connected
	port := func(name string) string { return PortState(cfg, ports, ss.Connected, name) }
	for _, l := range cfg.Links {
		ls := LinkStatus{Name: l.Name, ID: *l.ID, LAN: l.LAN, WAN: l.WAN, LANState: port(l.LAN), WANState: port(l.WAN)}
		ls.LANUp, ls.WANUp = ls.LANState == PortUp, ls.WANState == PortUp
		st.Links = append(st.Links, ls)
	}
	for _, f := range eng.Status() {
		fg := cfg.FilterGroupByName(f.Name)
		fs := FilterStatus{Name: f.Name, ID: f.ID, BalanceGroup: f.BalanceGroup, LAN: fg.LAN, WAN: fg.WAN, Cores: fg.Cores,
			State: f.State.String(), Reason: f.Reason.String(), Since: f.Since, Effective: f.Effective, LastPass: f.LastPass,
			TimeOfPass: f.TimeOfPass, Losses: f.Losses, Consecutive: f.Consecutive, Passes: f.Passes, Misrouted: f.Misrouted,
			FailureAction: string(f.FailureAction), TimeOfPassSum: f.Histogram.Sum, LANState: port(fg.LAN), WANState: port(fg.WAN)}
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
	down := map[string]bool{}
	for _, f := range st.Filters {
		if f.State == "down" || f.State == "admin-bypass" {
			down[f.Name] = true
		}
	}
	for _, bg := range cfg.BalanceGroups {
		bs := BalanceGroupStatus{Name: bg.Name, ID: *bg.ID, State: "active", Members: bg.Members, SlotBits: bg.SlotBits, MinActive: 1}
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
			if !down[m] {
				bs.Alive++
			}
		}
		for _, l := range des.Layouts {
			if l.Name == bg.Name {
				bs.Digest, bs.BaseDigest = l.Active.Digest(), l.Base.Digest()
			}
		}
		st.Balance = append(st.Balance, bs)
	}
	if d.opts.HAStatus != nil {
		st.HA = d.opts.HAStatus(ctx)
	}
	return st, nil
}

// Slots implements Service.
func (d *Daemon) Slots(_ context.Context, group string) (*SlotsView, error) {
	d.mu.Lock()
	cfg, des := d.cfg, d.desired
	d.mu.Unlock()
	names := fgNames(cfg)
	for _, l := range des.Layouts {
		if group != "" && l.Name != group {
			continue
		}
		if group == "" && l != des.Layouts[0] {
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

// Locate implements Service.
func (d *Daemon) Locate(_ context.Context, src, dst netip.Addr, proto uint8) ([]Placement, error) {
	if !src.IsValid() || !dst.IsValid() {
		return nil, kindf(ErrInvalid, "locate needs a source and a destination address")
	}
	if src.Is4() != dst.Is4() {
		return nil, kindf(ErrInvalid, "%s and %s are of different families", src, dst)
	}
	d.mu.Lock()
	cfg, des, eng := d.cfg, d.desired, d.engine
	d.mu.Unlock()
	names := fgNames(cfg)
	state := eng.State()
	h := symhash.Sum(src, dst, proto)
	var out []Placement
	for _, l := range des.Layouts {
		slot := symhash.Slot(h, l.Base.SlotBits)
		base, act := l.Base.Slots[slot], l.Active.Slots[slot]
		fg := cfg.FilterGroupByName(names[base.FilterGroup])
		p := Placement{BalanceGroup: l.Name, Hash: h, Slot: slot, FilterGroup: names[base.FilterGroup], Core: base.Core,
			Effective: "forward", LANPort: fg.LAN, WANPort: fg.WAN}
		switch {
		case state.BalanceGroups[l.Name] == tables.BGBypass:
			p.Effective = "group bypass"
		case state.BalanceGroups[l.Name] == tables.BGDrop:
			p.Effective = "group drop"
		case act != base:
			p.Effective = fmt.Sprintf("rebalanced to %s core %d", names[act.FilterGroup], act.Core)
		case state.FilterGroups[p.FilterGroup] == tables.FGSWBypass:
			p.Effective = "sw-bypass"
		case state.FilterGroups[p.FilterGroup] == tables.FGDrop:
			p.Effective = "drop"
		}
		out = append(out, p)
	}
	return out, nil
}

// Counters implements Service: it reads every counter from the switch.
func (d *Daemon) Counters(ctx context.Context) (*Counters, error) {
	d.mu.Lock()
	cfg, des := d.cfg, d.desired
	d.mu.Unlock()
	s := d.schema
	var wild []*p4v1.Entity
	ids := map[string]uint32{}
	for _, n := range []string{p4src.CounterPortRx, p4src.CounterPortTx, p4src.CounterLink, p4src.CounterFilterGroup, p4src.CounterDrop} {
		c, err := s.Counter(n)
		if err != nil {
			return nil, err
		}
		ids[n] = c.GetPreamble().GetId()
		wild = append(wild, &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: ids[n]}}})
	}
	tids := map[string]uint32{}
	for _, n := range []string{p4src.TableFlowRules, p4src.TableFlowRulesV6, p4src.TableSlots} {
		t, err := s.Table(n)
		if err != nil {
			return nil, err
		}
		tids[n] = t.GetPreamble().GetId()
		wild = append(wild, &p4v1.Entity{Entity: &p4v1.Entity_DirectCounterEntry{DirectCounterEntry: &p4v1.DirectCounterEntry{
			TableEntry: &p4v1.TableEntry{TableId: tids[n]}}}})
	}
	es, err := d.session.Read(ctx, wild...)
	if err != nil {
		return nil, kindf(ErrUnavailable, "reading counters: %v", err)
	}
	idx := map[uint32]map[int64]PacketBytes{}
	direct := map[string]PacketBytes{}
	prios := map[int32]PacketBytes{}
	for _, e := range es {
		if c := e.GetCounterEntry(); c != nil {
			if idx[c.GetCounterId()] == nil {
				idx[c.GetCounterId()] = map[int64]PacketBytes{}
			}
			idx[c.GetCounterId()][c.GetIndex().GetIndex()] = PacketBytes{uint64(c.GetData().GetPacketCount()), uint64(c.GetData().GetByteCount())}
		}
		if dc := e.GetDirectCounterEntry(); dc != nil {
			te := dc.GetTableEntry()
			pb := PacketBytes{uint64(dc.GetData().GetPacketCount()), uint64(dc.GetData().GetByteCount())}
			direct[tables.Key(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: te}})] = pb
			if te.GetTableId() != tids[p4src.TableSlots] {
				x := prios[te.GetPriority()]
				prios[te.GetPriority()] = PacketBytes{x.Packets + pb.Packets, x.Bytes + pb.Bytes}
			}
		}
	}
	out := &Counters{At: d.now()}
	seen := map[uint32]bool{}
	for _, name := range portNames(cfg) {
		n, err := cfg.PortNumber(name)
		if err != nil || seen[n] {
			continue
		}
		seen[n] = true
		out.Ports = append(out.Ports, PortCounters{Name: name, Number: n, Rx: idx[ids[p4src.CounterPortRx]][int64(n)], Tx: idx[ids[p4src.CounterPortTx]][int64(n)]})
	}
	lc := idx[ids[p4src.CounterLink]]
	for _, l := range cfg.Links {
		b := int64(*l.ID) << 3
		out.Links = append(out.Links, LinkCounters{Name: l.Name, ToFilter: lc[b+p4src.LinkCntToFilter], RuleBypass: lc[b+p4src.LinkCntRuleBypass],
			NonIPBypass: lc[b+p4src.LinkCntNonIPBypass], SWBypass: lc[b+p4src.LinkCntSWBypass], Returned: lc[b+p4src.LinkCntReturned],
			Heartbeat: lc[b+p4src.LinkCntHeartbeat], GroupBypass: lc[b+p4src.LinkCntGroupBypass], Dropped: lc[b+p4src.LinkCntDropped]})
	}
	fc := idx[ids[p4src.CounterFilterGroup]]
	for _, f := range cfg.FilterGroups {
		b := int64(*f.ID) << 2
		out.Filters = append(out.Filters, FilterCounters{Name: f.Name, ToFilter: fc[b+p4src.FGCntToFilter], Returned: fc[b+p4src.FGCntReturned],
			KeepAlive: fc[b+p4src.FGCntKeepAlive], SWBypass: fc[b+p4src.FGCntSWBypass]})
	}
	dropNames := map[int64]string{p4src.DropUnknownPort: "unknown port", p4src.DropUnknownLinkID: "unknown link id",
		p4src.DropNoCoreHeader: "no core header from a filter", p4src.DropFilterGroup: "filter group drop", p4src.DropBalanceGroup: "balance group drop"}
	for i := int64(1); i <= p4src.DropBalanceGroup; i++ {
		out.Drops = append(out.Drops, DropCounter{Reason: dropNames[i], Count: idx[ids[p4src.CounterDrop]][i]})
	}
	for _, r := range cfg.Rules {
		a, b := prios[int32(2*r.Priority)], prios[int32(2*r.Priority+1)]
		v4, v6 := r.EntryCount(len(cfg.Links))
		out.Rules = append(out.Rules, RuleCounters{Name: r.Name, Priority: r.Priority, Entries: v4 + v6,
			Hits: PacketBytes{a.Packets + b.Packets, a.Bytes + b.Bytes}})
	}
	names := fgNames(cfg)
	type core struct {
		fg   uint32
		core uint32
	}
	cores := map[core]*CoreCounters{}
	for _, e := range des.Entities {
		te := e.GetTableEntry()
		if te == nil || te.GetTableId() != tids[p4src.TableSlots] {
			continue
		}
		ps := te.GetAction().GetAction().GetParams()
		if len(ps) != 2 {
			continue
		}
		k := core{uint32(beUint(ps[0].GetValue())), uint32(beUint(ps[1].GetValue()))}
		c := cores[k]
		if c == nil {
			c = &CoreCounters{FilterGroup: names[k.fg], Core: k.core}
			cores[k] = c
		}
		c.Slots++
		pb := direct[tables.Key(e)]
		c.Hits.Packets += pb.Packets
		c.Hits.Bytes += pb.Bytes
	}
	for _, c := range cores {
		out.Cores = append(out.Cores, *c)
	}
	sort.Slice(out.Cores, func(i, j int) bool {
		if out.Cores[i].FilterGroup != out.Cores[j].FilterGroup {
			return out.Cores[i].FilterGroup < out.Cores[j].FilterGroup
		}
		return out.Cores[i].Core < out.Cores[j].Core
	})
	return out, nil
}

func beUint(b []byte) uint64 {
	var v uint64
	for _, x := range b {
		v = v<<8 | uint64(x)
	}
	return v
}
