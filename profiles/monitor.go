package profiles

import (
	"fmt"
	"slices"
	"time"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src/wire"
)

// State of a filter group's availability.
type State uint8

const (
	StateInit        State = iota // not yet proven: in software bypass until keep-alives pass
	StateUp                       // keep-alives pass
	StateDown                     // failed: the failure action applies
	StateAdminBypass              // the operator bypassed it by hand
	// StateRecovered: failed, its keep-alives pass again, but its profile
	// has manual failback: it stays out of service (the failure action
	// applies) until an operator returns it (Engine.Return).
	StateRecovered
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
	case StateRecovered:
		return "recovered"
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
	ReasonWaitingReturn
	ReasonReturned
	ReasonRoundTrip  // max_rtt: rtt_rounds rounds in a row over it (health.go)
	ReasonLossRate   // max_loss: more lost over loss_window rounds (health.go)
	ReasonFailedOpen // a fail-open probe came back (probe.go)
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
	case ReasonWaitingReturn:
		return "recovered, waiting for return"
	case ReasonReturned:
		return "returned by the operator"
	case ReasonRoundTrip:
		return "round trip over max_rtt"
	case ReasonLossRate:
		return "keep-alive loss over max_loss"
	case ReasonFailedOpen:
		return "failed open"
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
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
		probe bool // a fail-open probe
		// evidence: a keep-alive out of the side the profile does not
		// probe, sent only to clear the pipeline's evidence of that
		// side (evidenceKeepAlive); not judged.
		evidence bool
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
			var sent time.Time
			var rtt time.Duration // the slowest direction's; negative: not stamped
			for _, p := range m.out {
				pass = pass && p.back
				sent = p.sentAt
				if p.rtt < 0 || rtt < 0 {
					rtt = -1
				} else {
					rtt = max(rtt, p.rtt)
				}
			}
			m.lost = lostRound{}
			if !pass {
				// Remembered so that answers reaching the engine late but
				// proven in time by the data plane's clock can take it back.
				m.lost = lostRound{seq: m.seq, passes: m.passes, losses: m.losses, state: m.state, since: m.since, sent: sent, missing: map[wire.Direction]bool{}}
				for d, p := range m.out {
					if !p.back {
						m.lost.missing[d] = true
					}
				}
			}
			e.judgeProbes(m, m.seq, pass, now)
			changed = e.round(m, pass, rtt, sent, now) || changed
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
			m.out[d] = &probe{seq: m.seq, sentAt: now, rtt: -1}
			sends = append(sends, send{m, d, port, f, false, false})
		}
		if m.evidenceKeepAlive() {
			f := append([]byte(nil), m.frames[wire.WANToLAN]...)
			wire.PutKeepAliveSeq(f, m.seq)
			sends = append(sends, send{m, wire.WANToLAN, m.wanPort, f, false, true})
		}
		if m.probeDue(m.seq) {
			// Fail-open probes, out of both sides, after the keep-alives.
			clear(m.pr.back)
			m.pr.seq = m.seq
			for _, d := range []wire.Direction{wire.LANToWAN, wire.WANToLAN} {
				port := m.lanPort
				if d == wire.WANToLAN {
					port = m.wanPort
				}
				f := append([]byte(nil), m.pr.frames[d]...)
				wire.PutKeepAliveSeq(f, m.seq)
				sends = append(sends, send{m, d, port, f, true, false})
			}
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
		if s.evidence {
			continue
		}
		e.mu.Lock()
		if s.probe {
			if err == nil {
				s.m.st.FailOpen.Sent++
			} else if s.m.pr.seq == s.m.seq {
				s.m.pr.seq = 0 // not sent: nothing to judge
			}
			e.mu.Unlock()
			continue
		}
		if err != nil {
			// Not sent (no primary session): nothing to judge next round.
			if p := s.m.out[s.dir]; p != nil && p.seq == s.m.seq {
				clear(s.m.out)
			}
			if !s.m.held.IsZero() {
				// A held loss is not judged while nothing can be sent:
				// stall_hold counts again from the first round that is.
				s.m.holdFrom, s.m.clearAt = now, time.Time{}
			}
		} else {
			s.m.st.ProbesSent++
		}
		e.mu.Unlock()
	}
}

// round applies one probe round's result (its keep-alives sent at sent,
// rtt the slowest round trip of the round, negative when not stamped); it
// reports a state change.
func (e *Engine) round(m *monitor, pass bool, rtt time.Duration, sent, now time.Time) bool {
	suspect := false
	if !pass && m.prof.MaxLoss > 0 {
		// A loss the stall guard would put on the balancer's own path
		// is not counted against the filter's loss rate.
		suspect = !m.held.IsZero() || (m.prof.StallGuard != config.StallGuardOff && e.suspect(m, now))
	}
	slow := m.health(pass, rtt, suspect)
	if pass {
		switch {
		case slow:
			// Crossed, but over max_rtt: not a loss, and no step toward
			// recovery either.
			m.passes = 0
		case m.passes == 0:
			m.upFrom = sent // a run of passes starts: min_up_time counts from here
			m.passes++
		default:
			m.passes++
		}
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
		if next == StateDown && why == ReasonKeepAliveLoss && e.hold(m, now) {
			return false
		}
	case StateDown:
		next, why = m.stepDown(now)
	case StateRecovered:
		next, why = m.stepRecovered(now)
		// The stall guard covers a filter waiting for return as one in
		// service: a stall of the balancer's own keep-alive path must not
		// send the operator's filter back to down.
		if next == StateDown && why == ReasonKeepAliveLoss && e.hold(m, now) {
			return false
		}
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
	case m.passes >= m.prof.RecoveryThreshold && m.lanUp && m.wanUp && !m.openBlocks():
		return StateUp, ReasonKeepAlivesPass
	}
	if why, bad := m.unhealthy(); bad {
		return StateDown, why
	}
	return StateInit, m.reason
}

// stepUp: a run of losses takes the filter down, and so do the round-trip
// and loss limits (health.go).
func (m *monitor) stepUp(bool) (State, Reason) {
	if m.losses >= m.prof.LossThreshold {
		return StateDown, ReasonKeepAliveLoss
	}
	if why, bad := m.unhealthy(); bad {
		return StateDown, why
	}
	return StateUp, m.reason
}

// stepDown: a run of passes, with both ports up, that has lasted the
// profile's min_up_time brings it back; under manual failback it only
// waits for return.
func (m *monitor) stepDown(now time.Time) (State, Reason) {
	if !m.proven(now) {
		return StateDown, m.reason
	}
	if m.prof.Failback == config.FailbackManual {
		return StateRecovered, ReasonWaitingReturn
	}
	return StateUp, ReasonKeepAlivesPass
}

// proven: the recovery rules are met: recovery_threshold passes in a row,
// both ports up, and passing for min_up_time since the first keep-alive
// of the run was sent.
func (m *monitor) proven(now time.Time) bool {
	return m.passes >= m.prof.RecoveryThreshold && m.lanUp && m.wanUp && !m.openBlocks() &&
		now.Sub(m.upFrom) >= time.Duration(m.prof.MinUpTime)
}

// stepRecovered: a recovered filter waiting for return fails again by
// the loss rule of a filter in service; it returns by itself only if its
// profile was changed to automatic failback meanwhile (by the recovery
// rules, counted again after a restart).
func (m *monitor) stepRecovered(now time.Time) (State, Reason) {
	switch {
	case m.losses >= m.prof.LossThreshold:
		return StateDown, ReasonKeepAliveLoss
	}
	if why, bad := m.unhealthy(); bad {
		return StateDown, why
	}
	if m.prof.Failback != config.FailbackManual && m.proven(now) {
		return StateUp, ReasonKeepAlivesPass
	}
	return StateRecovered, m.reason
}

// failed: out of service by its keep-alives (down, or recovered and
// waiting for return): the failure action applies.
func (m *monitor) failed() bool { return m.state == StateDown || m.state == StateRecovered }

func (e *Engine) transition(m *monitor, next State, why Reason, now time.Time) bool {
	if next == m.state {
		return false
	}
	detail := ""
	if why == ReasonRoundTrip || why == ReasonLossRate {
		detail = m.healthText
	}
	if why == ReasonFailedOpen {
		detail = m.pr.text
	}
	e.log.Info("filter group state", "filter_group", m.fg.Name, "from", m.state.String(), "to", next.String(),
		"reason", why.String(), "detail", detail, "failure_action", string(m.action))
	if e.onTransition != nil {
		e.onTransition(Transition{FilterGroup: m.fg.Name, From: m.state, To: next, Reason: why, Detail: detail, At: now})
	}
	from := m.state
	m.state, m.reason, m.since, m.detail = next, why, now, detail
	if next == StateUp || next == StateRecovered {
		// Into service (or waiting for return): the loss rate is judged
		// afresh over the next loss_window rounds.
		m.window.reset()
	}
	m.release()
	if next == StateUp && (from == StateDown || from == StateRecovered) {
		m.vd.recovered(m, now)
	}
	if from == StateRecovered || next == StateRecovered {
		e.persist() // runtime state the tables do not show
	}
	return true
}

func (m *monitor) release() {
	m.held, m.holdFrom, m.clearAt, m.ev, m.evAlive, m.evDead = time.Time{}, time.Time{}, time.Time{}, nil, false, false
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
	if k.FilterGroup&ProbeMarker != 0 {
		m := e.byID[k.FilterGroup&^ProbeMarker]
		if m == nil {
			return fmt.Errorf("fail-open probe for unknown filter group id %d", k.FilterGroup&^ProbeMarker)
		}
		if ingressPort != m.lanPort && ingressPort != m.wanPort {
			m.st.Misrouted++
			return fmt.Errorf("fail-open probe of filter group %s came back on port %d, not one of its ports %d, %d: check the filter's cabling", m.fg.Name, ingressPort, m.lanPort, m.wanPort)
		}
		if e.onProbe(m, k, ingressPort, now) {
			e.publish()
		}
		return nil
	}
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
	if !slices.Contains(m.dirs, k.Direction) {
		// One of evidenceKeepAlive's: it cleared the pipeline's evidence
		// on its way; the profile does not judge that side.
		return nil
	}
	p := m.out[k.Direction]
	if p == nil || p.seq != k.Seq {
		// Late: its round was already judged a loss. If the data plane's
		// own clock says it crossed the filter in time, the loss was the
		// keep-alive path's (a backed-up channel, a starved switch or
		// host), not the filter's: the loss of the last round is taken
		// back; an answer later than that makes the stall guard treat
		// it like a stall of the engine itself.
		if e.lateInTime(m, k, rxTimestamp) {
			m.st.LateReturns++
			m.rtts[k.Direction&1].add(time.Duration((rxTimestamp-k.TxTimestamp)&wire.TimestampMask) * e.unit)
			if !e.retake(m, k, now) {
				e.stalledAt = now // later than a round: for the stall guard
			}
		}
		return nil
	}
	p.back = true
	m.st.LastPass = now
	if k.TxTimestamp != 0 {
		d := time.Duration((rxTimestamp-k.TxTimestamp)&(1<<48-1)) * e.unit
		m.st.TimeOfPass = d
		m.st.Histogram.Observe(d)
		p.rtt = d
		m.rtts[k.Direction&1].add(d)
	}
	return nil
}

// lateInTime says whether a keep-alive whose round was already judged
// came back through the filter within one interval by the data plane's
// clock (its egress stamp to its return), and belongs to one of the last
// rounds (not a stray from long ago).
func (e *Engine) lateInTime(m *monitor, k wire.KeepAlive, rxTimestamp uint64) bool {
	if k.TxTimestamp == 0 || m.seq-k.Seq > lateRounds {
		return false
	}
	crossed := time.Duration((rxTimestamp-k.TxTimestamp)&wire.TimestampMask) * e.unit
	return crossed <= m.interval
}

// retake takes back the loss of m's last judged round when k, reaching
// the engine late but in time by the data plane's clock, was the last of
// that round's missing answers, and nothing was decided on that loss: the
// round counts as the pass it was (and may complete a recovery). A loss
// that already changed the filter group's state is left to the stall
// guard. It reports whether k answered that round.
func (e *Engine) retake(m *monitor, k wire.KeepAlive, now time.Time) bool {
	l := &m.lost
	if l.missing == nil || l.seq != k.Seq || !l.missing[k.Direction] {
		return false
	}
	delete(l.missing, k.Direction)
	if len(l.missing) > 0 {
		return true
	}
	taken := *l
	m.lost = lostRound{}
	if m.state != taken.state || !m.since.Equal(taken.since) {
		return false
	}
	m.passes, m.losses = taken.passes, taken.losses
	m.st.Losses--
	m.retakenAt = now
	m.st.LastPass = now
	m.window.dropLastLoss() // round counts it again, as a pass
	if e.round(m, true, -1, taken.sent, now) {
		e.publish()
	}
	return true
}

// lostRound is a monitor's last round judged a loss: the answers still
// missing, and the counts and state from before it.
type lostRound struct {
	seq            uint32
	passes, losses uint32
	state          State
	since          time.Time
	sent           time.Time // when its keep-alives were sent
	missing        map[wire.Direction]bool
}

// lateRounds is how many rounds back a late keep-alive may be from to
// count as evidence of a slow keep-alive path.
const lateRounds = 8

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

// evidenceKeepAlive says whether m's round also sends a keep-alive out of
// its WAN side that the profile does not judge (probe: lan-to-wan): while
// the filter group is out of service after a failure (down, or recovered
// and waiting for return). The pipeline's evidence of the sends out of
// that side (docs/availability.md, "Evidence rule") is cleared only by a
// return on the filter's LAN port or a quiet spell of the detection time,
// and no data is sent it while it is out: without a return of its own,
// the window its death opened (data sent out of its WAN side, unanswered)
// is still open when it comes back within the detection time of the last
// such send, and the first data frames sent out of that side prove loss
// again at once, while its keep-alives pass (a recovered filter failed
// again every recovery_threshold rounds). This keep-alive, once the filter
// answers, is that return: it closes the window before the filter group
// is back in service.
func (m *monitor) evidenceKeepAlive() bool {
	return (m.state == StateDown || m.state == StateRecovered) && !slices.Contains(m.dirs, wire.WANToLAN)
}
