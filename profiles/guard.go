package profiles

import (
	"time"

	"github.com/dpi-balancer/balancer/config"
)

// StallAlarm is raised while a balance group's keep-alive losses are held
// as a suspected failure of the balancer's own keep-alive path.
type StallAlarm struct {
	BalanceGroup string // "" for a filter group in no balance group
	Since        time.Time
	FilterGroups []string
}

// hold decides whether a filter group that lost loss_threshold keep-alives
// in a row is held up as a suspected failure of the balancer's own
// keep-alive path (the stall guard) rather than failed. It holds while the
// suspicion lasts, for at most the profile's stall_hold of the controller
// seeing the switch (while the switch answers nothing, the controller
// forms no verdict, and stall_hold counts again from when it answers);
// data-plane evidence that traffic sent to the filter no longer comes back
// ends the hold at once, as does a new run of loss_threshold losses after
// the suspicion was gone.
func (e *Engine) hold(m *monitor, now time.Time) bool {
	if m.prof.StallGuard == config.StallGuardOff || !m.lanUp || !m.wanUp {
		return false
	}
	switch {
	case m.held.IsZero():
		if !e.suspect(m, now) {
			return false
		}
		m.held, m.holdFrom = now, now
		e.log.Warn("keep-alive path suspected: most of the balance group lost keep-alives at once, or the balancer stalled; holding state",
			"filter_group", m.fg.Name, "balance_group", m.bg, "stall_hold", time.Duration(m.prof.StallHold))
		return true
	case m.evDead:
		e.log.Warn("held filter group fails: traffic sent to it does not come back", "filter_group", m.fg.Name)
	case e.heardSet && !e.heard.After(m.holdFrom):
		// The switch has not answered anything since the hold began (or
		// since the last round judged blind): the controller cannot see
		// it, so it forms no verdict (the data plane judges the filters
		// meanwhile), and stall_hold starts again once it answers: the
		// keep-alives of the rounds after a hung channel resumes are not
		// judged by a clock that ran while nothing could be seen.
		m.clearAt, m.holdFrom = time.Time{}, now
		return true
	case now.Sub(m.holdFrom) >= time.Duration(m.prof.StallHold):
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
			// One loss right after a loss was taken back is most likely
			// the next late answer on its way: slow, not losing.
			slow := p.losses == 1 && !p.retakenAt.IsZero() && now.Sub(p.retakenAt) <= 2*p.interval
			if p.losses > 0 && !slow {
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

// OnTraffic reports a held filter group's data-plane counters, read at
// now: packets sent to the filter and packets that came back from it.
// Packets coming back prove it alive; packets sent (at least a handful)
// with none coming back for the profile's detection time (loss_threshold
// intervals, the data plane's own verdict's) agree with its keep-alive
// loss, and it fails at its next lost round. A shorter silence is not
// evidence: a filter (or a starved host) that answers late is not dead,
// and the data plane would not call it so either.
func (e *Engine) OnTraffic(name string, toFilter, returned uint64, now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	m := e.mons[name]
	if m == nil || m.held.IsZero() {
		return
	}
	if m.ev == nil {
		m.ev = &traffic{toFilter: toFilter, returned: returned, at: now}
		return
	}
	detect := time.Duration(m.prof.LossThreshold) * m.interval
	switch {
	case returned > m.ev.returned:
		m.evAlive, m.evDead = true, false
	case toFilter >= m.ev.toFilter+evidencePackets && now.Sub(m.ev.at) >= detect:
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
