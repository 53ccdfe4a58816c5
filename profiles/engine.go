package profiles

import (
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/tables"
)

// Sender transmits a keep-alive frame out of a data-plane port (with the
// packet-out keep-alive flag, so the data plane stamps it).
type Sender func(port uint32, frame []byte) error

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
	// Recovered names filter groups that start recovered, waiting for
	// return (manual failback: they were waiting before a restart or a
	// takeover); they stay out of service until an operator returns them.
	Recovered []string
	// Epochs are the verdict epochs the filter groups start with (by
	// name; absent: 0), as saved before a restart or by the HA leader
	// before a takeover: a recovery moves on from them (verdict.go).
	Epochs map[string]uint8
	// FailedOpen names filter groups that start failed open (their
	// fail-open probes came back before a restart or a takeover), with
	// when and what found it: they stay so, and out of service under a
	// fail-open action other than alarm, until a round of their probes is
	// dropped again. A filter group whose profile sends no probes now
	// ignores it.
	FailedOpen map[string]FailOpenMark
	// AdminBypass and GlobalBypass are the manual bypass to start with.
	AdminBypass  []string
	GlobalBypass bool
	// OnTransition, when set, is told of every filter group state change
	// (from the engine's goroutine, with the engine locked: it must not
	// block or call back into the engine).
	OnTransition func(Transition)
	// OnFailOpen, when set, is told when a filter group fails open (a
	// fail-open probe came back) and when that ends (its probes are
	// dropped again); same rules as OnTransition.
	OnFailOpen func(FailOpen)
}

// Transition is one filter group state change.
type Transition struct {
	FilterGroup string
	From, To    State
	Reason      Reason
	// Detail is the reason with its figures, for the reasons that have
	// some ("round trip 12.3 ms over max_rtt 10ms for 3 rounds"); "" for
	// the others.
	Detail string
	At     time.Time
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
	saves   chan struct{}
	last    tables.State
	// spareOf: the spare carrying each spared member's share (derive.go).
	spareOf map[string]string
	started time.Time
	// lastTick and stalledAt detect stalls of the engine or its
	// keep-alive path: a Tick arriving more than the shortest interval
	// after the previous one (a whole round could not be judged on time),
	// or a keep-alive that crossed its filter in time by the data plane's
	// clock reaching the engine after its round was judged.
	lastTick, stalledAt time.Time
	stallGap            time.Duration
	// heard is when the switch last answered the controller (SwitchHeard);
	// heardSet once told.
	heard    time.Time
	heardSet bool

	onTransition func(Transition)
	onFailOpen   func(FailOpen)
}

type probe struct {
	seq    uint32
	sentAt time.Time
	back   bool
	rtt    time.Duration // by the data plane's clock; negative: not stamped
}

type monitor struct {
	fg        config.FilterGroup
	prof      config.Profile
	action    config.FailureAction
	bg        string
	lanPort   uint32
	wanPort   uint32
	dirs      []wire.Direction
	state     State
	reason    Reason
	since     time.Time
	admin     bool
	adminAt   time.Time
	lanUp     bool
	wanUp     bool
	passes    uint32    // consecutive
	upFrom    time.Time // when the first keep-alive of the run of passes was sent
	losses    uint32    // consecutive
	seq       uint32
	out       map[wire.Direction]*probe
	lost      lostRound // the last round, if judged a loss (retake)
	retakenAt time.Time // when a loss was last taken back
	next      time.Time
	st        FilterStatus
	frames    map[wire.Direction][]byte
	interval  time.Duration
	held      time.Time // non-zero: loss held as a suspected path stall
	// holdFrom is where stall_hold counts from: when the hold began, or
	// the last round judged while the controller could not see the
	// switch (the time it was blind does not count).
	holdFrom time.Time
	clearAt  time.Time // while held: when the suspicion was gone (its losses then reset)
	ev       *traffic  // data-plane counters when the hold began
	evAlive  bool      // traffic came back since
	evDead   bool      // traffic went to it and none came back
	vd       verdictMon
	// Health (health.go): the latest round trips of each direction, the
	// round-trip of the last round judged, the rounds over max_rtt in a
	// row, the loss window, and the figures of a health reason.
	rtts     [2]rttRing
	roundRTT time.Duration
	rttOver  uint32
	window   lossWindow
	detail   string // the figures of the reason (a health reason's)
	// healthText: the figures of the health limit unhealthy found.
	healthText string
	pr         probeMon // fail-open probes (probe.go)
}

// traffic is a filter group's data-plane counters, read at a time.
type traffic struct {
	toFilter, returned uint64
	at                 time.Time
}

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
	e := &Engine{cfg: cfg, send: send, log: log, unit: unit, onTransition: opts.OnTransition, onFailOpen: opts.OnFailOpen, mons: map[string]*monitor{}, spareOf: map[string]string{},
		byID: map[uint16]*monitor{}, byPort: map[uint32][]*monitor{}, changes: make(chan tables.State, 1), saves: make(chan struct{}, 1)}
	ka := cfg.Defaults.KeepAlive
	for _, fg := range cfg.FilterGroups {
		bg := cfg.BalanceGroupWith(fg.Name)
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
		if prof.MaxLoss > 0 {
			m.window = newLossWindow(prof.LossWindow)
		}
		if prof.Probe == config.ProbeBoth {
			m.dirs = append(m.dirs, wire.WANToLAN)
		}
		for _, d := range []wire.Direction{wire.LANToWAN, wire.WANToLAN} {
			// Both, whatever the profile probes: evidenceKeepAlive sends
			// the WAN side's of a failed filter group.
			m.frames[d] = wire.EncodeKeepAlive(ka.DstMAC, ka.SrcMAC, ka.EtherType, wire.KeepAlive{FilterGroup: uint16(*fg.ID), Direction: d})
		}
		if err := m.initProbe(ka, uint16(*fg.ID)); err != nil {
			return nil, err
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
	for _, n := range opts.Recovered {
		if m := e.mons[n]; m != nil {
			m.state, m.reason = StateRecovered, ReasonWaitingReturn
		}
	}
	for n, fo := range opts.FailedOpen {
		if m := e.mons[n]; m != nil && m.pr.every > 0 {
			m.pr.open, m.pr.since, m.pr.text = true, fo.Since, fo.Detail
			if m.pr.text == "" {
				m.pr.text = "failed open before the restart: probe returned"
			}
			if m.state == StateDown && m.pr.action != config.FailOpenAlarm {
				m.reason, m.detail = ReasonFailedOpen, m.pr.text
			}
		}
	}
	for n, ep := range opts.Epochs {
		if m := e.mons[n]; m != nil {
			m.vd.epoch = ep // not this engine's own: see verdictMon.own
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
		m.passes, m.losses, m.seq, m.upFrom = o.passes, o.losses, o.seq, o.upFrom
		m.held, m.holdFrom, m.clearAt, m.ev, m.evAlive, m.evDead = o.held, o.holdFrom, o.clearAt, o.ev, o.evAlive, o.evDead
		m.st = o.st
		m.vd = o.vd.clone()
		m.rtts, m.roundRTT, m.rttOver, m.detail = o.rtts, o.roundRTT, o.rttOver, o.detail
		if m.pr.every > 0 {
			// A filter that failed open stays so until its probes are
			// dropped again.
			m.pr.open, m.pr.since, m.pr.text, m.pr.unproven = o.pr.open, o.pr.since, o.pr.text, o.pr.unproven
		}
		if len(o.window.lost) == len(m.window.lost) {
			m.window = lossWindow{lost: slices.Clone(o.window.lost), next: o.window.next, n: o.window.n, losses: o.window.losses}
		}
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

// Saves is signalled when runtime state that the tables do not show
// changed (a filter group entered or left "recovered, waiting for
// return"), so that it is saved; coalesced.
func (e *Engine) Saves() <-chan struct{} { return e.saves }

// persist signals Saves. Called with e.mu held.
func (e *Engine) persist() {
	select {
	case e.saves <- struct{}{}:
	default:
	}
}

// State returns the current data-plane state.
func (e *Engine) State() tables.State {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.derive()
}

// Has says whether the engine watches the named filter group.
func (e *Engine) Has(name string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.mons[name] != nil
}

func (e *Engine) names() []string {
	ns := make([]string, 0, len(e.mons))
	for n := range e.mons {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}
