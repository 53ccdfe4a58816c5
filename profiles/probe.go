package profiles

import (
	"fmt"
	"time"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src/wire"
)

// Fail-open probes: a frame a healthy filter must drop. A DPI filter whose
// inspection engine died behind its own bypass (or was left in a
// maintenance pass-through) still answers every keep-alive, so it stays
// up while its whole share goes uninspected. A profile with a probe
// payload sends, every probe_every rounds and out of both sides of each
// filter, a keep-alive-format frame that carries the operator's payload (a
// pattern the filter blocks) after its header. The pipeline hands every
// keep-alive-format frame that comes back through a filter to the
// controller, so a probe that crossed is seen; one that did not was
// dropped, as it should be.
//
// The frame is a keep-alive (same EtherType, magic and version: the
// pipeline's parser takes it as one) whose filter_group field has
// ProbeMarker set. The pipeline counts a keep-alive packet-out as a send
// of a filter group (data-plane verdict evidence) only when the field's
// bits 15..6 are 0, so a probe is no send for the verdict: a healthy
// filter dropping it is no evidence of loss. It still leaves by the port
// the controller names and is stamped like a keep-alive.

// ProbeMarker is set in a fail-open probe's filter_group field (the
// filter group's id is in the bits below it).
const ProbeMarker = 0x8000

// probeHeader is the bytes of a probe before its payload: Ethernet and
// keepalive_t.
const probeHeader = 14 + wire.KeepAliveLen

// EncodeProbe builds a fail-open probe of filter group id fg for the
// direction d: a keep-alive frame marked as a probe, payload after its
// header, padded to the minimum frame.
func EncodeProbe(dst, src [6]byte, etherType uint16, fg uint16, d wire.Direction, seq uint32, payload []byte) []byte {
	ka := wire.EncodeKeepAlive(dst, src, etherType, wire.KeepAlive{FilterGroup: fg | ProbeMarker, Direction: d, Seq: seq})
	f := make([]byte, max(wire.KeepAliveFrameLen, probeHeader+len(payload)))
	copy(f, ka[:probeHeader])
	copy(f[probeHeader:], payload)
	return f
}

// IsProbe says whether frame is a fail-open probe (a keep-alive with the
// given EtherType whose filter group field carries ProbeMarker). The
// software switch's filter emulators use it to drop probes as a healthy
// filter does.
func IsProbe(frame []byte, etherType uint16) bool {
	k, err := wire.DecodeKeepAlive(frame, etherType)
	return err == nil && k.FilterGroup&ProbeMarker != 0
}

// ProbePayload returns the payload a probe carries (after its header).
func ProbePayload(frame []byte) []byte {
	if len(frame) <= probeHeader {
		return nil
	}
	return frame[probeHeader:]
}

// probeMon is a monitor's fail-open probing.
type probeMon struct {
	every   uint32
	action  config.FailOpenAction
	payload []byte
	frames  map[wire.Direction][]byte
	// seq is the round whose probes are out (0: none); back the
	// directions whose probe came back.
	seq  uint32
	back map[wire.Direction]bool
	// open: a probe came back since the last round whose probes were
	// all dropped; since, text: when and what.
	open  bool
	since time.Time
	text  string
	// unproven: a failure found on the switch (AdoptFailures) that may
	// be a fail-open whose mark was lost: no return before a round of
	// its probes is dropped.
	unproven bool
}

// FailOpenMark is a filter group judged failed open, as saved to survive a
// restart: since when, and what found it.
type FailOpenMark struct {
	Since  time.Time `json:"since"`
	Detail string    `json:"detail,omitempty"`
}

// FailedOpen lists the filter groups judged failed open (a probe came
// back, and no round of probes was dropped since), by name (nil: none).
func (e *Engine) FailedOpen() map[string]FailOpenMark {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out map[string]FailOpenMark
	for name, m := range e.mons {
		if m.pr.open {
			if out == nil {
				out = map[string]FailOpenMark{}
			}
			out[name] = FailOpenMark{Since: m.pr.since, Detail: m.pr.text}
		}
	}
	return out
}

// ProbeStatus is a filter group's fail-open probing.
type ProbeStatus struct {
	// Every: a probe every Every keep-alive rounds (0: no probes).
	Every  uint32
	Action config.FailOpenAction
	// Sent counts probes sent (one a direction), Returned those that came
	// back through the filter (each one proof it failed open), Dropped
	// the rounds whose probes were all dropped while its keep-alives
	// passed (the filter inspects).
	Sent, Returned, Dropped uint64
	// FailedOpen: a probe came back since the last round whose probes were
	// dropped; Since when, Detail what ("failed open: probe returned ...").
	FailedOpen bool
	Since      time.Time
	Detail     string
}

// initProbe sets up m's probing from its profile.
func (m *monitor) initProbe(ka config.KeepAlive, id uint16) error {
	if !m.prof.Probes() {
		return nil
	}
	b, err := m.prof.ProbeBytes()
	if err != nil {
		return fmt.Errorf("profiles: profile %s: probe payload: %w", m.prof.Name, err)
	}
	m.pr = probeMon{every: m.prof.ProbeEvery, action: m.prof.FailOpenAction, payload: b, frames: map[wire.Direction][]byte{}, back: map[wire.Direction]bool{}}
	if m.pr.action == "" {
		m.pr.action = config.FailOpenAlarm
	}
	for _, d := range []wire.Direction{wire.LANToWAN, wire.WANToLAN} {
		m.pr.frames[d] = EncodeProbe(ka.DstMAC, ka.SrcMAC, ka.EtherType, id, d, 0, b)
	}
	return nil
}

// probeDue says whether the round seq sends probes: the first round of
// an engine (seq 1: a restarted daemon probes at once, before a filter
// that failed open can earn its traffic back by keep-alives alone), then
// every probe_every rounds.
func (m *monitor) probeDue(seq uint32) bool { return m.pr.every > 0 && (seq-1)%m.pr.every == 0 }

// openBlocks: the filter failed open and its fail-open action keeps it
// out of service until its probes are dropped again.
func (m *monitor) openBlocks() bool {
	return (m.pr.open || m.pr.unproven) && m.pr.action != config.FailOpenAlarm
}

// judgeProbes judges the probes of the round just judged (pass: its
// keep-alives passed). Probes all dropped by a filter that passes
// keep-alives prove it inspects again: its fail-open ends, and its run of
// passes toward recovery starts with this round. It reports whether the
// fail-open ended.
func (e *Engine) judgeProbes(m *monitor, seq uint32, pass bool, now time.Time) bool {
	if m.pr.seq == 0 || m.pr.seq != seq {
		return false
	}
	m.pr.seq = 0
	if !pass || len(m.pr.back) > 0 {
		clear(m.pr.back)
		return false
	}
	m.st.FailOpen.Dropped++
	m.pr.unproven = false // it inspects
	if !m.pr.open {
		return false
	}
	m.pr.open = false
	m.passes = 0 // the recovery count starts with this round
	e.persist()  // a restart must not bring the fail-open back
	e.log.Info("fail-open probes dropped again: the filter inspects", "filter_group", m.fg.Name, "failed_open_for", now.Sub(m.pr.since))
	if e.onFailOpen != nil {
		e.onFailOpen(FailOpen{FilterGroup: m.fg.Name, Open: false, Detail: "fail-open probes dropped again", At: now})
	}
	return true
}

// FailOpen is a filter group's fail-open starting (a probe came back) or
// ending (its probes are dropped again).
type FailOpen struct {
	FilterGroup string
	Open        bool
	Detail      string
	Action      config.FailOpenAction
	At          time.Time
}

// onProbe takes a fail-open probe of m that came back through the filter
// on port: the filter passed it uninspected. Called with e.mu held; it
// reports a state change.
func (e *Engine) onProbe(m *monitor, k wire.KeepAlive, port uint32, now time.Time) bool {
	if m.pr.every == 0 {
		return false // probes off since it was sent
	}
	m.st.FailOpen.Returned++
	if m.pr.seq == k.Seq {
		m.pr.back[k.Direction] = true
	}
	side := "WAN"
	if port == m.lanPort {
		side = "LAN"
	}
	text := fmt.Sprintf("failed open: probe returned %s (on its %s port %d): the filter passed its payload uninspected", k.Direction, side, port)
	if !m.pr.open {
		// The first probe back says when and how (the reason keeps it).
		m.pr.open, m.pr.since, m.pr.text = true, now, text
		e.persist() // a restart keeps it (and the filter out) until probes are dropped again
		e.log.Warn("filter failed open: a fail-open probe came back", "filter_group", m.fg.Name, "direction", k.Direction.String(),
			"port", port, "fail_open_action", string(m.pr.action))
		if e.onFailOpen != nil {
			e.onFailOpen(FailOpen{FilterGroup: m.fg.Name, Open: true, Detail: text, Action: m.pr.action, At: now})
		}
	}
	if m.pr.action == config.FailOpenAlarm {
		return false
	}
	m.passes = 0
	switch m.state {
	case StateUp, StateInit, StateRecovered:
		return e.transition(m, StateDown, ReasonFailedOpen, now)
	case StateDown:
		if m.reason != ReasonFailedOpen {
			// Down for another reason and now passing probes: the
			// fail-open action applies, and the reason says why.
			m.reason, m.detail = ReasonFailedOpen, text
			return true
		}
	}
	return false
}

// probeStatus is m's probing for Status.
func (m *monitor) probeStatus() ProbeStatus {
	s := m.st.FailOpen
	s.Every, s.Action = m.pr.every, m.pr.action
	s.FailedOpen, s.Detail = m.pr.open, ""
	if m.pr.open {
		s.Since, s.Detail = m.pr.since, m.pr.text
	}
	return s
}

// failOpenState is what derive writes for a filter failed by its
// fail-open probes.
func (m *monitor) failOpenAction() config.FailureAction {
	switch m.pr.action {
	case config.FailOpenDrop:
		return config.FailDrop
	case config.FailOpenRebalance:
		return config.FailRebalance
	case config.FailOpenSpare:
		return config.FailSpare
	}
	return config.FailBypass
}
