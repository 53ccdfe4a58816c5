package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"net/netip"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/dpi-balancer/balancer/cmd/balancer/internal/cli"
	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/internal/buildinfo"
	"github.com/dpi-balancer/balancer/tables"
)

// fakeDaemon is an in-memory daemon.Service: it keeps a configuration
// and its revisions, validates with config.Parse as the daemon does, and
// derives status, counters, slots, traces and placements from the
// configuration with fixed numbers, so that the CLI's output is
// predictable.
type fakeDaemon struct {
	mu        sync.Mutex
	cfg       *config.Config
	revs      []fakeRevision
	bypassAll bool
	bypass    []string
	down      map[string]string // filter group -> reason
	now       time.Time

	// switchDown: applies are saved but not written; counters fail.
	switchDown bool
	// noVerdict: the pushed build has no data-plane verdict (Tofino 1 profile).
	noVerdict bool
	// onConfig runs once, after the next Config call returns its
	// value (to interleave another change).
	onConfig func()
	// events: the daemon's own event log, fed by the fake's changes.
	events *daemon.EventLog
	// counterReads: how many times Counters was read.
	counterReads int
}

func (f *fakeDaemon) Monitor(ctx context.Context, replay int, object string, follow bool, fn func(daemon.Event) error) error {
	return f.events.Follow(ctx, replay, object, follow, fn)
}

// AckAlarm: the fake raises no alarm.
func (f *fakeDaemon) AckAlarm(_ context.Context, name string) (daemon.Alarm, error) {
	return daemon.Alarm{}, fmt.Errorf("%w: alarm %s is not raised", daemon.ErrNotFound, name)
}

type fakeRevision struct {
	daemon.Revision
	yaml []byte
}

var _ daemon.Service = (*fakeDaemon)(nil)

var fakeNow = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// fakeDaemonInfo is the fake daemon's build, started at fakeNow (its
// status is observed an hour later).
var fakeDaemonInfo = daemon.DaemonInfo{Build: buildinfo.Info{Version: "v9.8.7", Revision: "0123456789abcdef0123",
	Time: "2025-02-28T10:00:00Z", Modified: true, Go: "go1.99", Platform: "plan9/mips"}, StartedAt: fakeNow}

func newFakeDaemon(yaml string) (*fakeDaemon, error) {
	f := &fakeDaemon{now: fakeNow, down: map[string]string{}, events: daemon.NewEventLog(func() time.Time { return fakeNow })}
	if _, err := f.apply(context.Background(), []byte(yaml), false, "initial configuration"); err != nil {
		return nil, err
	}
	return f, nil
}

func digestOf(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:6])
}

func (f *fakeDaemon) running() daemon.Revision {
	if len(f.revs) == 0 {
		return daemon.Revision{}
	}
	return f.revs[len(f.revs)-1].Revision
}

func (f *fakeDaemon) Config(context.Context) (*config.Config, daemon.Revision, error) {
	f.mu.Lock()
	cfg, rev := f.cfg, f.running()
	hook := f.onConfig
	f.onConfig = nil
	f.mu.Unlock()
	if hook != nil {
		defer hook()
	}
	return cfg, rev, nil
}

func (f *fakeDaemon) ApplyConfig(ctx context.Context, yaml []byte, dryRun bool, comment string) (*daemon.ApplyResult, error) {
	return f.applyGuarded(ctx, yaml, dryRun, comment)
}

// applyGuarded is apply behind the daemon's guard on destructive changes.
func (f *fakeDaemon) applyGuarded(ctx context.Context, yaml []byte, dryRun bool, comment string) (*daemon.ApplyResult, error) {
	if c, err := config.Parse(yaml); err == nil && !dryRun {
		f.mu.Lock()
		old := f.cfg
		f.mu.Unlock()
		if err := daemon.Guard(daemon.Removals(old, c, 0, 0), daemon.Forced(ctx), "change"); err != nil {
			return nil, err
		}
	}
	return f.apply(ctx, yaml, dryRun, comment)
}

func (f *fakeDaemon) apply(ctx context.Context, yaml []byte, dryRun bool, comment string) (*daemon.ApplyResult, error) {
	c, err := config.Parse(yaml)
	if err == nil {
		// As the daemon's compile: rules past the flow tables are refused.
		var comp *tables.Compiler
		if comp, err = tables.Load(); err == nil {
			err = comp.CheckCapacity(c)
		}
	}
	if err != nil {
		var lines []string
		for _, fe := range config.FieldErrors(err) {
			lines = append(lines, fe.Named()) // as the daemon lists them
		}
		if len(lines) == 0 {
			lines = strings.Split(err.Error(), "\n")
		}
		return nil, fmt.Errorf("%w: configuration rejected, the running one is unchanged:\n  %s", daemon.ErrInvalid, strings.Join(lines, "\n  "))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	old := f.cfg
	if old == nil {
		old = &config.Config{}
	}
	ch := daemon.ConfigChanges(old, c)
	res := &daemon.ApplyResult{DryRun: dryRun, Changes: ch, Inserts: 2 * len(ch), Modifies: 1, Deletes: 0}
	if dryRun {
		return res, nil
	}
	if len(f.revs) > 0 && (len(ch) == 0 || string(f.revs[len(f.revs)-1].yaml) == string(yaml)) {
		// As the daemon: a change that changes nothing makes no revision.
		return &daemon.ApplyResult{Unchanged: true, Revision: f.running()}, nil
	}
	rev := daemon.Revision{Number: uint64(len(f.revs) + 1), Time: f.now.Add(time.Duration(len(f.revs)) * time.Minute),
		Comment: comment, Digest: digestOf(yaml), By: daemon.ByOf(ctx)}
	f.revs = append(f.revs, fakeRevision{Revision: rev, yaml: yaml})
	f.cfg = c
	res.Revision = rev
	res.Written = !f.switchDown
	if f.switchDown {
		res.Warning = "saved; the switch is not connected (or this daemon is a backup): it will be programmed on connection"
	}
	return res, nil
}

func (f *fakeDaemon) RevisionYAML(_ context.Context, n uint64) ([]byte, daemon.Revision, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if n == 0 {
		n = f.running().Number
	}
	for _, r := range f.revs {
		if r.Number == n {
			return r.yaml, r.Revision, nil
		}
	}
	return nil, daemon.Revision{}, fmt.Errorf("revision %d: %w", n, daemon.ErrNotFound)
}

func (f *fakeDaemon) Rollback(ctx context.Context, n uint64, dryRun bool, comment string) (*daemon.ApplyResult, error) {
	f.mu.Lock()
	var data []byte
	for _, r := range f.revs {
		if r.Number == n {
			data = r.yaml
		}
	}
	f.mu.Unlock()
	if data == nil {
		return nil, fmt.Errorf("revision %d: %w", n, daemon.ErrNotFound)
	}
	if comment == "" {
		comment = fmt.Sprintf("rollback to revision %d", n)
	}
	return f.applyGuarded(ctx, data, dryRun, comment)
}

// ConfigYAML returns the running configuration as saved, as the daemon does.
func (f *fakeDaemon) ConfigYAML() ([]byte, daemon.Revision) {
	f.mu.Lock()
	data, rev := f.revs[len(f.revs)-1].yaml, f.running()
	hook := f.onConfig
	f.onConfig = nil
	f.mu.Unlock()
	if hook != nil {
		defer hook()
	}
	return data, rev
}

func (f *fakeDaemon) History(context.Context) ([]daemon.Revision, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []daemon.Revision
	for _, r := range f.revs {
		out = append(out, r.Revision)
	}
	return out, nil
}

func (f *fakeDaemon) SetBypass(_ context.Context, group string, on bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	to := map[bool]string{true: "on", false: "off"}[on]
	if group == "" {
		f.bypassAll = on
		f.events.Publish(daemon.Event{Kind: daemon.EventBypass, Object: "all", To: to, Reason: "by the operator"})
		return nil
	}
	if f.cfg.FilterGroupByName(group) == nil {
		var known []string
		for _, fg := range f.cfg.FilterGroups {
			known = append(known, fg.Name)
		}
		// As the daemon says it.
		return fmt.Errorf("%w: unknown filter group %q; the filter groups are %s", daemon.ErrNotFound, group, strings.Join(known, ", "))
	}
	f.bypass = slices.DeleteFunc(f.bypass, func(g string) bool { return g == group })
	if on {
		f.bypass = append(f.bypass, group)
		sort.Strings(f.bypass)
	}
	f.events.Publish(daemon.Event{Kind: daemon.EventBypass, Object: group, To: to, Reason: "by the operator"})
	return nil
}

// ReturnFilterGroup: the fake's filter groups never wait for return.
func (f *fakeDaemon) ReturnFilterGroup(_ context.Context, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cfg.FilterGroupByName(name) == nil {
		return fmt.Errorf("%w: unknown filter group %q", daemon.ErrNotFound, name)
	}
	return fmt.Errorf("filter group %s is %w: it is up, in service already; see balancer status", name, daemon.ErrNotWaiting)
}

func (f *fakeDaemon) Status(context.Context) (*daemon.Status, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.cfg
	st := &daemon.Status{
		Site: c.Site, Revision: f.running(), ObservedAt: f.now.Add(time.Hour),
		Switch: daemon.SwitchStatus{Address: "127.0.0.1:9559", Connected: !f.switchDown, Primary: !f.switchDown,
			ElectionID: "0:1", LastReconcile: f.now.Add(59 * time.Minute), LastPlan: "0 inserts, 0 modifies, 0 deletes",
			AtomicWrites: true, PortsWatched: true, CPUPort: 255, CPUPortWritten: true, PipelineVerdict: !f.noVerdict},
		Bypass: daemon.BypassStatus{All: f.bypassAll, Groups: slices.Clone(f.bypass)},
		Daemon: fakeDaemonInfo,
	}
	if f.switchDown {
		st.Switch.LastError = "connection refused"
		st.Stale = true
	}
	// Ports: L2's WAN port is down, P44 is not reported (unknown), the
	// others are up; all unknown while the switch is down.
	state := func(name string, up bool) string {
		switch {
		case f.switchDown || name == "P44":
			return daemon.PortUnknown
		case up:
			return daemon.PortUp
		}
		return daemon.PortDown
	}
	for _, l := range c.Links {
		ls := daemon.LinkStatus{Name: l.Name, ID: *l.ID, LAN: l.LAN, WAN: l.WAN,
			LANState: state(l.LAN, true), WANState: state(l.WAN, l.Name != "L2")}
		ls.LANUp, ls.WANUp = ls.LANState == daemon.PortUp, ls.WANState == daemon.PortUp
		st.Links = append(st.Links, ls)
	}
	for _, fg := range c.FilterGroups {
		fs := daemon.FilterStatus{Name: fg.Name, ID: *fg.ID, LAN: fg.LAN, WAN: fg.WAN, Cores: fg.Cores,
			State: "up", Reason: "keep-alives answered", Since: f.now, Effective: "forward",
			LastPass: f.now.Add(time.Hour - 100*time.Millisecond), TimeOfPass: 120 * time.Microsecond, Passes: 36000,
			LANState: state(fg.LAN, true), WANState: state(fg.WAN, true)}
		if b := c.BalanceGroupOf(fg.Name); b != nil {
			fs.BalanceGroup = b.Name
			fs.FailureAction = string(b.FailureAction)
		}
		if r, ok := f.down[fg.Name]; ok {
			fs.State, fs.Reason, fs.Effective, fs.Losses, fs.Consecutive = "down", r, "sw-bypass", 12, 7
		}
		if slices.Contains(f.bypass, fg.Name) {
			fs.State, fs.Reason, fs.Effective = "admin-bypass", "manual bypass", "sw-bypass"
		}
		st.Filters = append(st.Filters, fs)
	}
	for _, b := range c.BalanceGroups {
		bs := daemon.BalanceGroupStatus{Name: b.Name, ID: *b.ID, State: "active", Members: b.Members, SlotBits: b.SlotBits,
			Digest: "0123456789ab", BaseDigest: "0123456789ab", MinActive: 1}
		for _, m := range b.Members {
			if _, down := f.down[m]; !down {
				bs.Alive++
			}
		}
		st.Balance = append(st.Balance, bs)
	}
	return st, nil
}

func (f *fakeDaemon) Counters(context.Context) (*daemon.Counters, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.switchDown {
		return nil, fmt.Errorf("%w: reading counters: not connected", daemon.ErrUnavailable)
	}
	c := f.cfg
	// Each reading is 500 ms after the one before, and every filter group
	// was sent 100 more packets (10,000 bytes) meanwhile.
	reads := f.counterReads
	f.counterReads++
	out := &daemon.Counters{At: f.now.Add(time.Duration(reads) * 500 * time.Millisecond)}
	for i, p := range cli.PortViews(c, nil) {
		if p.Number != nil {
			out.Ports = append(out.Ports, daemon.PortCounters{Name: p.Name, Number: *p.Number,
				Rx: daemon.PacketBytes{Packets: uint64(1000 + i), Bytes: uint64(64000 + i)}, Tx: daemon.PacketBytes{Packets: uint64(2000 + i), Bytes: 128000}})
		}
	}
	for _, l := range c.Links {
		out.Links = append(out.Links, daemon.LinkCounters{Name: l.Name, ToFilter: daemon.PacketBytes{Packets: 500, Bytes: 50000},
			Returned: daemon.PacketBytes{Packets: 499, Bytes: 49900}, RuleBypass: daemon.PacketBytes{Packets: 10, Bytes: 1000}})
	}
	for _, fg := range c.FilterGroups {
		out.Filters = append(out.Filters, daemon.FilterCounters{Name: fg.Name, ToFilter: daemon.PacketBytes{Packets: 300 + 100*uint64(reads), Bytes: 30000 + 10000*uint64(reads)},
			KeepAlive: daemon.PacketBytes{Packets: 36000, Bytes: 36000 * 64}, VerdictBypass: daemon.PacketBytes{Packets: 7, Bytes: 700},
			VerdictDrop: daemon.PacketBytes{Packets: 3, Bytes: 300}})
	}
	comp, err := tables.Load()
	if err != nil {
		return nil, err
	}
	for _, r := range c.Rules {
		v4, v6, err := comp.RuleEntries(c, r, 1<<20)
		if err != nil {
			return nil, err
		}
		n := v4 + v6
		out.Rules = append(out.Rules, daemon.RuleCounters{Name: r.Name, Priority: r.Priority, Entries: n,
			Hits: daemon.PacketBytes{Packets: uint64(r.Priority), Bytes: uint64(r.Priority) * 100}})
	}
	for _, b := range c.BalanceGroups {
		v := fakeLayout(c, &b)
		for _, s := range v.Share {
			out.Cores = append(out.Cores, daemon.CoreCounters{FilterGroup: s.FilterGroup, Core: s.Core, Slots: s.Slots,
				Hits: daemon.PacketBytes{Packets: uint64(10 * s.Slots), Bytes: uint64(1000 * s.Slots)}})
		}
	}
	out.Drops = []daemon.DropCounter{{Reason: "unknown port", Count: daemon.PacketBytes{Packets: 3, Bytes: 180}}}
	return out, nil
}

// fakeLayout deals slots round-robin over every core of every member.
func fakeLayout(c *config.Config, b *config.BalanceGroup) *daemon.SlotsView {
	v := &daemon.SlotsView{Group: b.Name, SlotBits: b.SlotBits, Digest: "0123456789ab", BaseDigest: "0123456789ab"}
	type target struct {
		fg   string
		core uint32
	}
	var targets []target
	for _, m := range b.Members {
		if fg := c.FilterGroupByName(m); fg != nil {
			for core := uint32(0); core < fg.Cores; core++ {
				targets = append(targets, target{m, core})
			}
		}
	}
	if len(targets) == 0 {
		return v
	}
	share := map[target]int{}
	for s := uint32(0); s < 1<<b.SlotBits; s++ {
		t := targets[int(s)%len(targets)]
		share[t]++
		v.Slots = append(v.Slots, daemon.SlotTarget{Slot: s, FilterGroup: t.fg, Core: t.core})
	}
	for _, t := range targets {
		v.Share = append(v.Share, daemon.CoreShare{FilterGroup: t.fg, Core: t.core, Slots: share[t]})
	}
	return v
}

func (f *fakeDaemon) Slots(_ context.Context, group string) (*daemon.SlotsView, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b := f.cfg.BalanceGroupByName(group)
	if b == nil {
		return nil, fmt.Errorf("%w: balance group %q", daemon.ErrNotFound, group)
	}
	return fakeLayout(f.cfg, b), nil
}

func fakeHash(src, dst netip.Addr, proto uint8) uint32 {
	a, b := src.AsSlice(), dst.AsSlice()
	if slices.Compare(a, b) > 0 {
		a, b = b, a
	}
	return crc32.ChecksumIEEE(append(append(a, b...), proto))
}

func (f *fakeDaemon) Trace(_ context.Context, req daemon.TraceRequest) (*daemon.TraceResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.cfg
	l := c.LinkByName(req.Link)
	if l == nil {
		return nil, fmt.Errorf("%w: link %q", daemon.ErrNotFound, req.Link)
	}
	res := &daemon.TraceResult{Steps: []string{fmt.Sprintf("enters link %s on its %s port", l.Name, strings.ToUpper(req.Side))}}
	out, peer := l.WAN, l.LAN
	if req.Side == "wan" {
		out, peer = l.LAN, l.WAN
	}
	_ = peer
	rules := slices.Clone(c.Rules)
	sortRules(rules)
	for _, r := range rules {
		if r.Match.L4Port != nil && !(r.Match.L4Port.Contains(uint32(req.SrcPort)) || r.Match.L4Port.Contains(uint32(req.DstPort))) {
			continue
		}
		if len(r.Match.VLAN) > 0 && (len(req.VLANs) == 0 || !slices.ContainsFunc(r.Match.VLAN, func(v config.Range) bool { return v.Contains(uint32(req.VLANs[0])) })) {
			continue
		}
		res.Rule = r.Name
		res.Steps = append(res.Steps, fmt.Sprintf("hits rule %s (priority %d)", r.Name, r.Priority))
		act, group, _ := r.ParseAction()
		res.Action = act.String()
		if act == config.ActionBalance && req.Src.IsValid() {
			b := c.BalanceGroupByName(group)
			res.BalanceGroup = group
			res.Hash = fakeHash(req.Src, req.Dst, req.Proto)
			res.Slot = res.Hash & (1<<b.SlotBits - 1)
			v := fakeLayout(c, b)
			t := v.Slots[res.Slot]
			res.FilterGroup, res.Core = t.FilterGroup, t.Core
			fg := c.FilterGroupByName(t.FilterGroup)
			out = fg.LAN
			if req.Side == "wan" {
				out = fg.WAN
			}
			res.Verdict = "to-filter"
			res.HeaderHex = fmt.Sprintf("%04x%04x", fg.TPID, uint16(*l.ID)<<10|uint16(t.Core))
			res.Steps = append(res.Steps, fmt.Sprintf("hash 0x%08x, slot %d -> %s core %d", res.Hash, res.Slot, t.FilterGroup, t.Core))
		} else {
			res.Verdict = "bypass"
		}
		break
	}
	if res.Rule == "" {
		res.Action, res.Verdict = "bypass", "bypass"
		res.Steps = append(res.Steps, "no rule matches: default bypass")
	}
	res.OutPort = out
	res.OutPortNum, _ = c.PortNumber(out)
	res.Steps = append(res.Steps, "leaves on "+out)
	return res, nil
}

func (f *fakeDaemon) Locate(_ context.Context, src, dst netip.Addr, proto uint8) ([]daemon.Placement, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if src.Is4() != dst.Is4() {
		return nil, errors.New("unreachable: the API checks families")
	}
	h := fakeHash(src, dst, proto)
	var out []daemon.Placement
	for _, b := range f.cfg.BalanceGroups {
		v := fakeLayout(f.cfg, &b)
		slot := h & (1<<b.SlotBits - 1)
		t := v.Slots[slot]
		fg := f.cfg.FilterGroupByName(t.FilterGroup)
		eff := "forward"
		if _, down := f.down[t.FilterGroup]; down {
			eff = "sw-bypass"
		}
		out = append(out, daemon.Placement{BalanceGroup: b.Name, Hash: h, Slot: slot, FilterGroup: t.FilterGroup, Core: t.Core,
			Effective: eff, LANPort: fg.LAN, WANPort: fg.WAN})
	}
	return out, nil
}
