package profiles

import (
	"time"

	"github.com/dpi-balancer/balancer/config"
)

// AdoptFailures takes over failure states found on the switch (filter
// group ids): a read-back found them in software bypass, drop or with
// their share moved away while this engine's state had them forward (a
// failover the previous controller wrote to the switch but could not
// record, docs/availability.md). Each goes down with the reason "failed on
// the switch before this controller took over" and comes back only by the
// engine's own rules: recovery_threshold keep-alives in a row from now,
// with both ports up, exactly as a filter that failed here. A filter
// group whose profile sends fail-open probes with a fail-open action
// (not alarm) also needs a round of its probes dropped first: the failure
// may have been a fail-open whose mark the previous controller could not
// save (its store unreachable), and a filter that failed open passes every
// keep-alive.
func (e *Engine) AdoptFailures(ids []uint32, now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	changed := false
	for _, id := range ids {
		m := e.byID[uint16(id)]
		if m == nil {
			continue
		}
		if m.failed() {
			continue // failed here already: its recovery goes on
		}
		m.passes = 0 // recovery counts from now
		m.pr.unproven = m.pr.every > 0 && m.pr.action != config.FailOpenAlarm
		e.log.Warn("filter group failed on the switch before this controller took over: kept failed until keep-alives prove it",
			"filter_group", m.fg.Name, "was", m.state.String(), "recovery_threshold", m.prof.RecoveryThreshold)
		changed = e.transition(m, StateDown, ReasonFoundFailed, now) || changed
	}
	if changed {
		e.publish()
	}
}
