package profiles

import (
	"sort"
	"time"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/tables"
)

// FilterStatus is what the CLI and telemetry show for a filter group.
type FilterStatus struct {
	Name        string
	ID          uint32
	State       State // StateAdminBypass when bypassed by hand
	Reason      Reason
	Since       time.Time
	Effective   string // what the data plane does: forward, sw-bypass, drop, rebalanced
	LastPass    time.Time
	TimeOfPass  time.Duration // last measured
	Histogram   Histogram
	Losses      uint64 // total
	Consecutive uint32 // current run of losses
	Passes      uint64 // total
	ProbesSent  uint64
	Misrouted   uint64 // keep-alives of this group that came back on a wrong port
	// LateReturns: keep-alives that crossed the filter in time by the
	// data plane's clock but reached the engine after their round was
	// judged (evidence of a slow keep-alive path, see the stall guard).
	LateReturns   uint64
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

// Up lists the filter groups that keep-alives proved up.
func (e *Engine) Up() []string { return e.inState(StateUp) }

// Down lists the filter groups that are down now.
func (e *Engine) Down() []string { return e.inState(StateDown) }

// inState lists the filter groups in state s, by name.
func (e *Engine) inState(s State) []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, n := range e.names() {
		if e.mons[n].state == s {
			out = append(out, n)
		}
	}
	return out
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
