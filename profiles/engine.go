package profiles

import (
	"fmt"
	"log/slog"
	"maps"
	"sort"
	"sync"
	"time"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/tables"
)

// State of a filter group's availability.
type State uint8

const (
	StateInit        State = iota // not yet proven: in software bypass until keep-alives pass
	StateUp                       // keep-alives pass
	StateDown                     // failed: the failure action applies
	StateAdminBypass              // the operator bypassed it by hand
)

func (s State) String() string {
	switch s {
	case StateInit:
		return "init"
	case StateUp:
		return "up"
	case StateDown:
		return "down"
	case StateAdminBypass:
		return "admin-bypass"
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// Reason says why a filter group is in its state.
type Reason uint8

const (
	ReasonStart Reason = iota
	ReasonKeepAlivesPass
	ReasonKeepAliveLoss
	ReasonPortDown
	ReasonAdmin
	ReasonAdminCleared
	ReasonRestart
	ReasonRestartUp
	ReasonPathSuspected
	ReasonDataPlane   // the pipeline proved loss (verdict.go)
	ReasonFoundFailed // failed on the switch when this controller read it (found.go)
)

func (r Reason) String() string {
	switch r {
	case ReasonStart:
		return "start"
	case ReasonKeepAlivesPass:
		return "keep-alives pass"
	case ReasonKeepAliveLoss:
		return "keep-alive loss"
	case ReasonPortDown:
		return "port down"
	case ReasonAdmin:
		return "manual bypass"
	case ReasonAdminCleared:
		return "manual bypass cleared"
	case ReasonRestart:
		return "down before restart"
	case ReasonRestartUp:
		return "up before restart"
	case ReasonPathSuspected:
		return "keep-alive path suspected"
	case ReasonDataPlane:
		return "data-plane verdict"
	case ReasonFoundFailed:
		return "failed on the switch before this controller took over"
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

// Sender transmits a keep-alive frame out of a data-plane port (with the
// packet-out keep-alive flag, so the data plane stamps it).
type Sender func(port uint32, frame []byte) error

// FilterStatus is what the CLI and telemetry show for a filter group.
type FilterStatus struct {
	Name          string
	ID            uint32
	State         State // StateAdminBypass when bypassed by hand
	Reason        Reason
	Since         time.Time
	Effective     string // what the data plane does: forward, sw-bypass, drop, rebalanced
	LastPass      time.Time
	TimeOfPass    time.Duration // last measured
	Histogram     Histogram
	Losses        uint64 // total
	Consecutive   uint32 // current run of losses
	Passes        uint64 // total
	ProbesSent    uint64
	Misrouted     uint64 // keep-alives of this group that came back on a wrong port
	LANUp, WANUp  bool
	BalanceGroup  string
	FailureAction config.FailureAction
	// Held: its keep-alives are lost, but so are those of most of its
	// balance group (or the engine itself stalled), so the balancer's own
	// keep-alive path is suspected and its state is held (since HeldSince,
	// at most the profile's stall_hold).
	Held      bool
	HeldSince time.Time
	// Returning: while held, traffic sent to it was seen coming back
	// (data-plane counters), so it is alive.
	Returning bool
	// Verdicts: the data-plane verdict (verdict.go).
	Verdicts VerdictStatus
}

// StallAlarm is raised while a balance group's keep-alive losses are held
// as a suspected failure of the balancer's own keep-alive path.
type StallAlarm struct {
	BalanceGroup string // "" for a filter group in no balance group
	Since        time.Time
	FilterGroups []string
}

// Options configure an Engine.
type Options struct {
	// TimestampUnit is the data plane's clock unit (ns on the software
	// switch and Tofino, µs on BMv2).
	TimestampUnit time.Duration
	Logger        *slog.Logger
	// Down names filter groups that start down (they were down before a
	// restart): they stay failed until keep-alives prove them up.
	Down []string
	// Up names filter groups that start up: keep-alives proved them before
	// a restart, and the switch forwards to them. Any other starts in init
	// and earns its traffic.
	Up []string
	// AdminBypass and GlobalBypass are the manual bypass to start with.
	AdminBypass  []string
	GlobalBypass bool
	// OnTransition, when set, is told of every filter group state change
	// (from the engine's goroutine, with the engine locked: it must not
	// block or call back into the engine).
	OnTransition func(Transition)
}

// Transition is one filter group state change.
type Transition struct {
	FilterGroup string
	From, To    State
	Reason      Reason
	At          time.Time
}

// Engine runs every filter group's monitor.
type Engine struct {
	mu      sync.Mutex
	cfg     *config.Config
	send    Sender
	log     *slog.Logger
	unit    time.Duration
	mons    map[string]*monitor
	byID    map[uint16]*monitor
	byPort  map[uint32][]*monitor
	global  bool
	changes chan tables.State
	last    tables.State
	started time.Time
	// lastTick and stalledAt detect the engine's own stalls: a Tick
	// arriving more than the shortest interval after the previous one (a
	// whole round could not be judged on time).
	lastTick, stalledAt time.Time
	stallGap            time.Duration
	// heard is when the switch last answered the controller (SwitchHeard);
	// heardSet once told.
	heard    time.Time
	heardSet bool

	onTransition func(Transition)
}

type probe struct {
	seq    uint32
	sentAt time.Time
	back   bool
}

type monitor struct {
	fg       config.FilterGroup
	prof     config.Profile
	action   config.FailureAction
	bg       string
	lanPort  uint32
	wanPort  uint32
	dirs     []wire.Direction
	state    State
	reason   Reason
	since    time.Time
	admin    bool
	adminAt  time.Time
	lanUp    bool
	wanUp    bool
	passes   uint32 // consecutive
	losses   uint32 // consecutive
	seq      uint32
	out      map[wire.Direction]*probe
	next     time.Time
	st       FilterStatus
	frames   map[wire.Direction][]byte
	interval time.Duration
	held     time.Time // non-zero: loss held as a suspected path stall
	clearAt  time.Time // while held: when the suspicion was gone (its losses then reset)
	ev       *traffic  // data-plane counters when the hold began
	evAlive  bool      // traffic came back since
	evDead   bool      // traffic went to it and none came back
	vd       verdictMon
}

// traffic is a filter group's data-plane counters.
type traffic struct{ toFilter, returned uint64 }

// New builds an engine for a validated configuration. It starts nothing.
func New(cfg *config.Config, send Sender, opts Options) (*Engine, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	unit := opts.TimestampUnit
	if unit <= 0 {
		unit = time.Nanosecond
	}
	e := &Engine{cfg: cfg, send: send, log: log, unit: unit, onTransition: opts.OnTransition, mons: map[string]*monitor{},
		byID: map[uint16]*monitor{}, byPort: map[uint32][]*monitor{}, changes: make(chan tables.State, 1)}
	ka := cfg.Defaults.KeepAlive
	for _, fg := range cfg.FilterGroups {
		bg := cfg.BalanceGroupOf(fg.Name)
		// Outside a balance group, the site's "default" profile (the
		// operator may have changed it).
		prof := cfg.DefaultProfile()
		action := config.FailBypass
		bgName := ""
		if bg != nil {
			bgName = bg.Name
			if p := cfg.ProfileByName(bg.Profile); p != nil {
				prof = *p
			}
			action = bg.FailureAction
			if action == "" {
				action = prof.FailureAction
			}
		}
		lan, err := cfg.PortNumber(fg.LAN)
		if err != nil {
			return nil, fmt.Errorf("profiles: filter group %s: %w", fg.Name, err)
		}
		wan, err := cfg.PortNumber(fg.WAN)
		if err != nil {
			return nil, fmt.Errorf("profiles: filter group %s: %w", fg.Name, err)
		}
		m := &monitor{fg: fg, prof: prof, action: action, bg: bgName, lanPort: lan, wanPort: wan,
			dirs: []wire.Direction{wire.LANToWAN}, lanUp: true, wanUp: true, out: map[wire.Direction]*probe{},
			interval: time.Duration(prof.Interval), frames: map[wire.Direction][]byte{}}
		if prof.Probe == config.ProbeBoth {
			m.dirs = append(m.dirs, wire.WANToLAN)
		}
		for _, d := range m.dirs {
			m.frames[d] = wire.EncodeKeepAlive(ka.DstMAC, ka.SrcMAC, ka.EtherType, wire.KeepAlive{FilterGroup: uint16(*fg.ID), Direction: d})
		}
		e.mons[fg.Name] = m
		if e.stallGap == 0 || m.interval < e.stallGap {
			e.stallGap = m.interval
		}
		e.byID[uint16(*fg.ID)] = m
		e.byPort[lan] = append(e.byPort[lan], m)
		e.byPort[wan] = append(e.byPort[wan], m)
	}
	for _, n := range opts.Up {
		if m := e.mons[n]; m != nil {
			m.state, m.reason = StateUp, ReasonRestartUp
		}
	}
	for _, n := range opts.Down {
		if m := e.mons[n]; m != nil {
			m.state, m.reason = StateDown, ReasonRestart
		}
	}
	for _, n := range opts.AdminBypass {
		m := e.mons[n]
		if m == nil {
			return nil, fmt.Errorf("profiles: manual bypass of unknown filter group %q", n)
		}
		m.admin = true
	}
	e.global = opts.GlobalBypass
	return e, nil
}

// Adopt takes over the state of the filter groups an earlier engine
// watched (same name, same ports), so a configuration change does not
// reset them. Call it before Start.
func (e *Engine) Adopt(old *Engine) {
	old.mu.Lock()
	defer old.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	for name, m := range e.mons {
		o := old.mons[name]
		if o == nil || o.lanPort != m.lanPort || o.wanPort != m.wanPort {
			continue
		}
		m.state, m.reason, m.since = o.state, o.reason, o.since
		m.admin, m.adminAt = o.admin, o.adminAt
		m.lanUp, m.wanUp = o.lanUp, o.wanUp
		m.passes, m.losses, m.seq = o.passes, o.losses, o.seq
		m.held, m.clearAt, m.ev, m.evAlive, m.evDead = o.held, o.clearAt, o.ev, o.evAlive, o.evDead
		m.st = o.st
		m.vd = o.vd.clone()
		if !o.next.IsZero() {
			m.next = o.next // keep probing on schedule: no new initial delay
		}
	}
	e.global = old.global
	e.started = old.started
	e.lastTick, e.stalledAt = old.lastTick, old.stalledAt
}

// CarryBypass sets the manual bypass of every filter group that old also
// has, and the global bypass, to old's: Adopt skips filter groups whose
// ports changed, but a manual bypass is the operator's and is never lost.
func (e *Engine) CarryBypass(old *Engine, now time.Time) {
	global, groups := old.Bypass()
	e.mu.Lock()
	defer e.mu.Unlock()
	on := map[string]bool{}
	for _, n := range groups {
		on[n] = true
	}
	for name, m := range e.mons {
		if on[name] != m.admin {
			m.admin, m.adminAt = on[name], now
		}
	}
	e.global = global
	e.publish()
}

// Up lists the filter groups that keep-alives proved up.
func (e *Engine) Up() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, n := range e.names() {
		if e.mons[n].state == StateUp {
			out = append(out, n)
		}
	}
	return out
}

// Down lists the filter groups that are down now.
func (e *Engine) Down() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, n := range e.names() {
		if e.mons[n].state == StateDown {
			out = append(out, n)
		}
	}
	return out
}

// Start begins probing at now (after each profile's initial delay).
func (e *Engine) Start(now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.started = now
	for _, m := range e.mons {
		if !m.next.IsZero() {
			continue // adopted from an earlier engine
		}
		m.since = now
		m.next = now.Add(time.Duration(m.prof.InitialDelay))
	}
	e.publish()
}

// Changes offers each new tables.State (the latest one wins).
func (e *Engine) Changes() <-chan tables.State { return e.changes }

// State returns the current data-plane state.
func (e *Engine) State() tables.State {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.derive()
}

// Tick sends the probes that are due and counts unanswered ones as
// losses. Call it at least every few milliseconds. The sender is called
// without the engine's lock held (it may answer synchronously).
func (e *Engine) Tick(now time.Time) {
	type send struct {
		m     *monitor
		dir   wire.Direction
		port  uint32
		frame []byte
	}
	var sends []send
	e.mu.Lock()
	if !e.lastTick.IsZero() && now.Sub(e.lastTick) > e.stallGap {
		e.stalledAt = now // we did not run for a while: rounds judged now may be unfair
	}
	e.lastTick = now
	changed := false
	for _, name := range e.names() {
		m := e.mons[name]
		if m.next.IsZero() || now.Before(m.next) {
			continue
		}
		// Judge the previous round: every direction must have come back.
		if len(m.out) > 0 {
			pass := true
			for _, p := range m.out {
				pass = pass && p.back
			}
			changed = e.round(m, pass, now) || changed
		}
		m.seq++
		clear(m.out)
		for _, d := range m.dirs {
			port := m.lanPort
			if d == wire.WANToLAN {
				port = m.wanPort
			}
			f := append([]byte(nil), m.frames[d]...)
			wire.PutKeepAliveSeq(f, m.seq)
			m.out[d] = &probe{seq: m.seq, sentAt: now}
			sends = append(sends, send{m, d, port, f})
		}
		m.next = m.next.Add(m.interval)
		if m.next.Before(now) { // we were late: do not burst
			m.next = now.Add(m.interval)
		}
	}
	if changed {
		e.publish()
	}
	e.mu.Unlock()

	for _, s := range sends {
		err := e.send(s.port, s.frame)
		e.mu.Lock()
		if err != nil {
			// Not sent (no primary session): nothing to judge next round.
			if p := s.m.out[s.dir]; p != nil && p.seq == s.m.seq {
				clear(s.m.out)
			}
		} else {
			s.m.st.ProbesSent++
		}
		e.mu.Unlock()
	}
}

// round applies one probe round's result; it reports a state change.
func (e *Engine) round(m *monitor, pass bool, now time.Time) bool {
	if pass {
		m.passes++
		m.losses = 0
		m.st.Passes++
		if !m.held.IsZero() {
			e.log.Info("keep-alives pass again: kept up through the suspected keep-alive path stall",
				"filter_group", m.fg.Name, "held_for", now.Sub(m.held))
			m.release()
		}
	} else {
		m.losses++
		m.passes = 0
		m.st.Losses++
	}
	var next State
	var why Reason
	switch m.state {
	case StateInit:
		next, why = m.stepInit(pass)
	case StateUp:
		next, why = m.stepUp(pass)
		if next == StateDown && e.hold(m, now) {
			return false
		}
	case StateDown:
		next, why = m.stepDown(pass)
	default:
		return false
	}
	return e.transition(m, next, why, now)
}

// stepInit: the first verdict either way.
func (m *monitor) stepInit(bool) (State, Reason) {
	switch {
	case m.losses >= m.prof.LossThreshold:
		return StateDown, ReasonKeepAliveLoss
	case m.passes >= m.prof.RecoveryThreshold && m.lanUp && m.wanUp:
		return StateUp, ReasonKeepAlivesPass
	}
	return StateInit, m.reason
}

// stepUp: a run of losses takes the filter down.
func (m *monitor) stepUp(bool) (State, Reason) {
	if m.losses >= m.prof.LossThreshold {
		return StateDown, ReasonKeepAliveLoss
	}
	return StateUp, m.reason
}

// stepDown: a run of passes, with both ports up, brings it back.
func (m *monitor) stepDown(bool) (State, Reason) {
	if m.passes >= m.prof.RecoveryThreshold && m.lanUp && m.wanUp {
		return StateUp, ReasonKeepAlivesPass
	}
	return StateDown, m.reason
}

func (e *Engine) transition(m *monitor, next State, why Reason, now time.Time) bool {
	if next == m.state {
		return false
	}
	e.log.Info("filter group state", "filter_group", m.fg.Name, "from", m.state.String(), "to", next.String(),
		"reason", why.String(), "failure_action", string(m.action))
	if e.onTransition != nil {
		e.onTransition(Transition{FilterGroup: m.fg.Name, From: m.state, To: next, Reason: why, At: now})
	}
	m.state, m.reason, m.since = next, why, now
	m.release()
	if next == StateUp {
		m.vd.recovered(m, now)
	}
	return true
}

func (m *monitor) release() {
	m.held, m.clearAt, m.ev, m.evAlive, m.evDead = time.Time{}, time.Time{}, nil, false, false
}

// hold decides whether a filter group that lost loss_threshold keep-alives
// in a row is held up as a suspected failure of the balancer's own
// keep-alive path (the stall guard) rather than failed. It holds while the
// suspicion lasts, for at most the profile's stall_hold; data-plane
// evidence that traffic sent to the filter no longer comes back ends the
// hold at once, as does a new run of loss_threshold losses after the
// suspicion was gone.
func (e *Engine) hold(m *monitor, now time.Time) bool {
	if m.prof.StallGuard == config.StallGuardOff || !m.lanUp || !m.wanUp {
		return false
	}
	switch {
	case m.held.IsZero():
		if !e.suspect(m, now) {
			return false
		}
		m.held = now
		e.log.Warn("keep-alive path suspected: most of the balance group lost keep-alives at once, or the balancer stalled; holding state",
			"filter_group", m.fg.Name, "balance_group", m.bg, "stall_hold", time.Duration(m.prof.StallHold))
		return true
	case m.evDead:
		e.log.Warn("held filter group fails: traffic sent to it does not come back", "filter_group", m.fg.Name)
	case e.heardSet && !e.heard.After(m.held):
		// The switch has not answered anything since the hold began: the
		// controller cannot see it, so it forms no verdict (the data
		// plane judges the filters meanwhile).
		m.clearAt = time.Time{}
		return true
	case now.Sub(m.held) >= time.Duration(m.prof.StallHold):
		e.log.Warn("held filter group fails: keep-alive loss persisted past stall_hold", "filter_group", m.fg.Name,
			"stall_hold", time.Duration(m.prof.StallHold))
	case e.suspect(m, now):
		m.clearAt = time.Time{}
		return true
	case m.clearAt.IsZero():
		// The suspicion is gone. The losses during it do not count: the
		// filter fails if it loses loss_threshold more in a row (a round
		// or two probed before the path recovered are not held against it).
		m.clearAt, m.losses = now, 0
		return true
	default:
		e.log.Warn("held filter group fails: the rest of its balance group answers and the balancer did not stall", "filter_group", m.fg.Name)
	}
	return false
}

// suspect says whether m's keep-alive losses are better explained by the
// balancer's keep-alive path than by the filter: the engine itself stalled
// within the last two intervals (the rounds judged across a stall and
// while catching up after it), or most of the switch's filters, or most
// of m's balance group (members not bypassed by hand, ports up), are
// losing keep-alives too or failed for keep-alive loss within the last
// loss_threshold intervals.
func (e *Engine) suspect(m *monitor, now time.Time) bool {
	if !e.stalledAt.IsZero() && now.Sub(e.stalledAt) <= 2*m.interval {
		return true
	}
	window := time.Duration(m.prof.LossThreshold) * m.interval
	// The whole switch first (single-member groups included): most of its
	// filters losing keep-alives together point at the balancer's own
	// path; then m's balance group.
	if e.losingTogether(func(*monitor) bool { return true }, window, now) {
		return true
	}
	if m.bg == "" {
		return false
	}
	return e.losingTogether(func(p *monitor) bool { return p.bg == m.bg }, window, now)
}

// losingTogether says whether most of the monitors in scope (not bypassed
// by hand, ports up; at least two) are losing keep-alives or failed for
// keep-alive loss within window.
func (e *Engine) losingTogether(in func(*monitor) bool, window time.Duration, now time.Time) bool {
	peers, losing := 0, 0
	for _, p := range e.mons {
		if !in(p) || p.admin || !p.lanUp || !p.wanUp {
			continue
		}
		switch {
		case p.state == StateUp:
			peers++
			if p.losses > 0 {
				losing++
			}
		case p.state == StateDown && p.reason == ReasonKeepAliveLoss && now.Sub(p.since) <= window:
			peers++
			losing++
		}
	}
	return peers >= 2 && 2*losing > peers
}

// Held lists the filter groups whose keep-alive loss is held by the stall
// guard: their data-plane counters are worth reading (OnTraffic).
func (e *Engine) Held() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, n := range e.names() {
		if !e.mons[n].held.IsZero() {
			out = append(out, n)
		}
	}
	return out
}

// OnTraffic reports a held filter group's data-plane counters: packets
// sent to the filter and packets that came back from it. Packets coming
// back prove it alive; packets sent (at least a handful) with none coming
// back agree with its keep-alive loss, and it fails at its next lost round.
func (e *Engine) OnTraffic(name string, toFilter, returned uint64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	m := e.mons[name]
	if m == nil || m.held.IsZero() {
		return
	}
	if m.ev == nil {
		m.ev = &traffic{toFilter: toFilter, returned: returned}
		return
	}
	switch {
	case returned > m.ev.returned:
		m.evAlive, m.evDead = true, false
	case toFilter >= m.ev.toFilter+evidencePackets:
		m.evDead = true
	}
}

// evidencePackets is how many packets must be sent to a held filter, with
// none coming back, to take that as evidence it is dead.
const evidencePackets = 8

// Alarms lists the balance groups whose keep-alive losses are held as a
// suspected keep-alive path stall.
func (e *Engine) Alarms() []StallAlarm {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []StallAlarm
	idx := map[string]int{}
	for _, n := range e.names() {
		m := e.mons[n]
		if m.held.IsZero() {
			continue
		}
		i, ok := idx[m.bg]
		if !ok {
			i = len(out)
			idx[m.bg] = i
			out = append(out, StallAlarm{BalanceGroup: m.bg, Since: m.held})
		}
		out[i].FilterGroups = append(out[i].FilterGroups, n)
		if m.held.Before(out[i].Since) {
			out[i].Since = m.held
		}
	}
	return out
}

// OnPacketIn takes a keep-alive that crossed a filter. ingressPort is the
// data-plane port it came back on, rxTimestamp the data plane's receive
// time in its clock unit.
func (e *Engine) OnPacketIn(frame []byte, ingressPort uint32, rxTimestamp uint64, now time.Time) error {
	k, err := wire.DecodeKeepAlive(frame, e.cfg.Defaults.KeepAlive.EtherType)
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	m := e.byID[k.FilterGroup]
	if m == nil {
		return fmt.Errorf("keep-alive for unknown filter group id %d", k.FilterGroup)
	}
	want := m.wanPort
	if k.Direction == wire.WANToLAN {
		want = m.lanPort
	}
	if ingressPort != want {
		m.st.Misrouted++
		return fmt.Errorf("keep-alive of filter group %s came back on port %d, not %d: check the filter's cabling", m.fg.Name, ingressPort, want)
	}
	p := m.out[k.Direction]
	if p == nil || p.seq != k.Seq {
		return nil // late: its round was already judged a loss
	}
	p.back = true
	m.st.LastPass = now
	if k.TxTimestamp != 0 {
		d := time.Duration((rxTimestamp-k.TxTimestamp)&(1<<48-1)) * e.unit
		m.st.TimeOfPass = d
		m.st.Histogram.Observe(d)
	}
	return nil
}

// OnPortStatus reports a data-plane port's oper status. A filter group
// port going down fails the group at once; coming back up restarts its
// recovery count.
func (e *Engine) OnPortStatus(port uint32, up bool, now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	changed := false
	for _, m := range e.byPort[port] {
		if port == m.lanPort {
			m.lanUp = up
		}
		if port == m.wanPort {
			m.wanUp = up
		}
		m.passes = 0
		if !up && m.state != StateDown {
			changed = e.transition(m, StateDown, ReasonPortDown, now) || changed
		}
	}
	if changed {
		e.publish()
	}
}

// Has says whether the engine watches the named filter group.
func (e *Engine) Has(name string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.mons[name] != nil
}

// SetAdminBypass puts one filter group in (or out of) manual bypass.
func (e *Engine) SetAdminBypass(name string, on bool, now time.Time) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	m := e.mons[name]
	if m == nil {
		return fmt.Errorf("unknown filter group %q", name)
	}
	if m.admin == on {
		return nil
	}
	m.admin, m.adminAt = on, now
	why := ReasonAdmin
	if !on {
		why = ReasonAdminCleared
	}
	e.log.Info("manual bypass", "filter_group", name, "on", on, "reason", why.String())
	e.publish()
	return nil
}

// SetGlobalBypass bypasses every balance group (or stops doing so).
func (e *Engine) SetGlobalBypass(on bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.global == on {
		return
	}
	e.global = on
	e.log.Info("manual bypass of everything", "on", on)
	e.publish()
}

// Bypass reports the manual bypass settings.
func (e *Engine) Bypass() (global bool, groups []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, n := range e.names() {
		if e.mons[n].admin {
			groups = append(groups, n)
		}
	}
	return e.global, groups
}

// derive computes the data-plane state. Called with e.mu held.
func (e *Engine) derive() tables.State {
	st := tables.State{FilterGroups: map[string]tables.FilterGroupState{}, BalanceGroups: map[string]tables.BalanceGroupState{},
		Rebalanced: map[string]bool{}, Epochs: map[string]uint8{}}
	for name, m := range e.mons {
		if m.vd.epoch != 0 {
			st.Epochs[name] = m.vd.epoch
		}
		switch {
		case m.admin:
			st.FilterGroups[name] = tables.FGSWBypass
		case m.state == StateInit:
			// Not yet proven: it earns its traffic. Under rebalance its
			// slots stay with the proven members.
			if m.action == config.FailRebalance {
				st.Rebalanced[name] = true
			}
			st.FilterGroups[name] = tables.FGSWBypass
		case m.state == StateDown:
			switch m.action {
			case config.FailDrop:
				st.FilterGroups[name] = tables.FGDrop
			case config.FailRebalance:
				// Its slots go to the survivors; anything still pointing
				// at it (no survivor) bypasses.
				st.Rebalanced[name] = true
				st.FilterGroups[name] = tables.FGSWBypass
			default:
				st.FilterGroups[name] = tables.FGSWBypass
			}
		}
	}
	for _, bg := range e.cfg.BalanceGroups {
		if e.global {
			st.BalanceGroups[bg.Name] = tables.BGBypass
			continue
		}
		alive := 0
		for _, n := range bg.Members {
			if m := e.mons[n]; m != nil && !m.admin && m.state != StateDown {
				alive++
			}
		}
		min := 1
		if p := e.cfg.ProfileByName(bg.Profile); p != nil && p.MinActive > 0 {
			min = int(p.MinActive)
		}
		if alive < min {
			if bg.FailureAction == config.FailDrop {
				st.BalanceGroups[bg.Name] = tables.BGDrop
			} else {
				st.BalanceGroups[bg.Name] = tables.BGBypass
			}
		}
	}
	return st
}

// publish offers the derived state when it changed. Called with e.mu held.
func (e *Engine) publish() {
	st := e.derive()
	if equalState(st, e.last) {
		return
	}
	e.last = st
	select {
	case <-e.changes: // drop the stale one
	default:
	}
	e.changes <- st
}

func equalState(a, b tables.State) bool {
	return maps.Equal(a.FilterGroups, b.FilterGroups) && maps.Equal(a.BalanceGroups, b.BalanceGroups) &&
		maps.Equal(a.Rebalanced, b.Rebalanced) && maps.Equal(a.Epochs, b.Epochs)
}

// Status reports every filter group, in configuration order.
func (e *Engine) Status() []FilterStatus {
	e.mu.Lock()
	defer e.mu.Unlock()
	st := e.derive()
	var out []FilterStatus
	for _, fg := range e.cfg.FilterGroups {
		m := e.mons[fg.Name]
		s := m.st
		s.Name, s.ID, s.State, s.Reason, s.Since = fg.Name, *fg.ID, m.state, m.reason, m.since
		if m.admin {
			s.State, s.Reason, s.Since = StateAdminBypass, ReasonAdmin, m.adminAt
		}
		s.Consecutive = m.losses
		if !m.held.IsZero() {
			s.Held, s.HeldSince, s.Returning = true, m.held, m.evAlive
			s.Reason = ReasonPathSuspected
		}
		s.LANUp, s.WANUp = m.lanUp, m.wanUp
		s.BalanceGroup, s.FailureAction = m.bg, m.action
		s.Verdicts = m.vd.status(m)
		s.Effective = "forward"
		switch {
		case st.Rebalanced[fg.Name]:
			s.Effective = "rebalanced"
		case st.FilterGroups[fg.Name] == tables.FGSWBypass:
			s.Effective = "sw-bypass"
		case st.FilterGroups[fg.Name] == tables.FGDrop:
			s.Effective = "drop"
		}
		if st.BalanceGroups[m.bg] == tables.BGBypass {
			s.Effective = "group-bypass"
		} else if st.BalanceGroups[m.bg] == tables.BGDrop {
			s.Effective = "group-drop"
		}
		out = append(out, s)
	}
	return out
}

func (e *Engine) names() []string {
	ns := make([]string, 0, len(e.mons))
	for n := range e.mons {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// Histogram counts times of pass in fixed buckets.
type Histogram struct {
	Counts [len(Buckets) + 1]uint64 // the last is "above the largest bucket"
	Sum    time.Duration
	N      uint64
}

// Buckets are the histogram's upper bounds.
var Buckets = [...]time.Duration{10 * time.Microsecond, 50 * time.Microsecond, 100 * time.Microsecond,
	500 * time.Microsecond, time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond}

// Observe adds one measurement.
func (h *Histogram) Observe(d time.Duration) {
	i := sort.Search(len(Buckets), func(i int) bool { return d <= Buckets[i] })
	h.Counts[i]++
	h.Sum += d
	h.N++
}
