package profiles

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/tables"
)

// FilterStatus is what the CLI and telemetry show for a filter group.
type FilterStatus struct {
	Name      string
	ID        uint32
	State     State // StateAdminBypass when bypassed by hand
	Reason    Reason
	Since     time.Time
	Effective string // what the data plane does: forward, sw-bypass, drop, rebalanced
	// Spare: listed among its balance group's spares. SpareFor: a spare
	// that carries the share of that member now; SparedTo: a member whose
	// share that spare carries now ("" otherwise, and while the whole
	// balance group is bypassed or dropped).
	Spare              bool
	SpareFor, SparedTo string
	LastPass           time.Time
	TimeOfPass         time.Duration // last measured
	Histogram          Histogram
	Losses             uint64 // total
	Consecutive        uint32 // current run of losses
	Passes             uint64 // total
	ProbesSent         uint64
	Misrouted          uint64 // keep-alives of this group that came back on a wrong port
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
	// Detail is the reason with its figures, for the reasons that have
	// some (max_rtt, max_loss); "" for the others.
	Detail string
	// RoundTrips: the recent round trips of each direction probed, by the
	// data plane's clock.
	RoundTrips []RoundTrip
	// RTTOver: keep-alive rounds in a row over the profile's max_rtt.
	RTTOver uint32
	// LossPercent of the LossRounds rounds in the loss window (max_loss;
	// LossRounds 0 without it).
	LossPercent float64
	LossRounds  int
	// FailOpen: the fail-open probes (probe.go); Every 0 without.
	FailOpen ProbeStatus
}

// Up lists the filter groups that keep-alives proved up.
func (e *Engine) Up() []string { return e.inState(StateUp) }

// Down lists the filter groups that are failed now: down, or recovered
// and waiting for return (Recovered lists those).
func (e *Engine) Down() []string { return e.inState(StateDown, StateRecovered) }

// Recovered lists the filter groups that are recovered and wait for an
// operator to return them (manual failback).
func (e *Engine) Recovered() []string { return e.inState(StateRecovered) }

// inState lists the filter groups in one of the states, by name.
func (e *Engine) inState(states ...State) []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, n := range e.names() {
		if slices.Contains(states, e.mons[n].state) {
			out = append(out, n)
		}
	}
	return out
}

// ErrNotWaiting: a filter group given to Return is not recovered and
// waiting for return.
var ErrNotWaiting = errors.New("not waiting for return")

// ErrUnknownFilterGroup: a filter group given by name is not in the
// configuration.
var ErrUnknownFilterGroup = errors.New("unknown filter group")

// CanReturn says whether the named filter group waits for return (nil),
// or why it cannot be returned.
func (e *Engine) CanReturn(name string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.canReturn(name)
}

func (e *Engine) canReturn(name string) error {
	m := e.mons[name]
	if m == nil {
		return fmt.Errorf("%w %q", ErrUnknownFilterGroup, name)
	}
	if m.state == StateRecovered {
		return nil
	}
	why := fmt.Sprintf("it is %s (%s)", m.state, m.reason)
	switch m.state {
	case StateUp:
		why = "it is up, in service already"
	case StateDown:
		why += fmt.Sprintf("; it waits for return once its keep-alives pass %d in a row", m.prof.RecoveryThreshold)
		if m.prof.MinUpTime > 0 {
			why += fmt.Sprintf(" for %s", time.Duration(m.prof.MinUpTime))
		}
		if m.prof.Failback != config.FailbackManual {
			why += fmt.Sprintf("; its profile %s has automatic failback: it returns by itself then", m.prof.Name)
		}
	case StateInit:
		why += "; it has not been proven by keep-alives yet and comes into service by itself"
	}
	return fmt.Errorf("filter group %s is %w: %s; see balancer status", name, ErrNotWaiting, why)
}

// Return puts a filter group that is recovered and waiting for return
// (manual failback) back into service: an operator's command. It fails,
// naming the filter group, when it is not waiting (still down, up, or
// unknown).
func (e *Engine) Return(name string, now time.Time) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.canReturn(name); err != nil {
		return err
	}
	m := e.mons[name]
	e.log.Info("filter group returned by the operator", "filter_group", name, "waited", now.Sub(m.since))
	e.transition(m, StateUp, ReasonReturned, now)
	e.publish()
	return nil
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
		if s.Reason == m.reason && m.detail != "" {
			s.Detail = m.detail
		}
		for _, d := range m.dirs {
			s.RoundTrips = append(s.RoundTrips, m.rtts[d&1].status(d))
		}
		s.RTTOver = m.rttOver
		s.LossPercent, s.LossRounds = m.window.percent(), m.window.n
		s.FailOpen = m.probeStatus()
		s.Effective = "forward"
		spareFor := ""
		for member, spare := range st.Spared {
			if spare == fg.Name {
				spareFor = member
			}
		}
		switch {
		case st.Spared[fg.Name] != "":
			s.Effective = "spared to " + st.Spared[fg.Name]
		case spareFor != "" && st.FilterGroups[fg.Name] == tables.FGForward:
			s.Effective = "spare for " + spareFor
		case st.Rebalanced[fg.Name]:
			s.Effective = "rebalanced"
		case st.FilterGroups[fg.Name] == tables.FGSWBypass:
			s.Effective = "sw-bypass"
		case st.FilterGroups[fg.Name] == tables.FGDrop:
			s.Effective = "drop"
		}
		if bg := e.cfg.BalanceGroupByName(m.bg); bg != nil && slices.Contains(bg.Spares, fg.Name) && spareFor == "" && s.Effective == "forward" {
			s.Effective = "spare (standby)"
		}
		if bg := e.cfg.BalanceGroupByName(m.bg); bg != nil {
			s.Spare = slices.Contains(bg.Spares, fg.Name)
		}
		switch {
		case st.Spared[fg.Name] != "":
			s.SparedTo = st.Spared[fg.Name]
		case spareFor != "" && st.FilterGroups[fg.Name] == tables.FGForward:
			s.SpareFor = spareFor
		}
		if st.BalanceGroups[m.bg] == tables.BGBypass {
			s.Effective = "group-bypass"
		} else if st.BalanceGroups[m.bg] == tables.BGDrop {
			s.Effective = "group-drop"
		}
		if st.BalanceGroups[m.bg] == tables.BGBypass || st.BalanceGroups[m.bg] == tables.BGDrop {
			s.SpareFor, s.SparedTo = "", ""
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
