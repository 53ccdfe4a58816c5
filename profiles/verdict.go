package profiles

import (
	"fmt"
	"slices"
	"time"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
)

// The data-plane verdict (docs/availability.md): the pipeline proves a
// filter group's loss itself and applies its failure action; the engine
// learns each verdict from its digest (OnVerdict), takes the filter group
// down with the reason the pipeline gave, and keeps recovery its own: when
// keep-alives bring the group back up from down (recovery_threshold
// passes, both ports up) it moves the group to a new epoch
// (tables.State.Epochs), which clears whatever verdict stands for it,
// received or not: the recovery is the proof. Nothing else clears a
// verdict (a reconcile, a restart, a takeover keep the switch's epoch).

// DataPlaneVerdict is one verdict the pipeline reported.
type DataPlaneVerdict struct {
	At        time.Time
	Epoch     uint8
	Direction wire.Direction // the side whose sends went unanswered
	Reason    uint8          // p4src.Verdict*
	Age       time.Duration
	// Cleared: when the engine cleared it (zero while it stands).
	Cleared time.Time
	// Disagree: one of the engine's own keep-alives came back within the
	// time the pipeline saw no return (the two views disagree).
	Disagree bool
}

// Text is the verdict as the operator reads it, e.g. "data plane: no
// return on the WAN side for 520 ms".
func (v DataPlaneVerdict) Text() string {
	side := "WAN"
	if v.Direction == wire.WANToLAN {
		side = "LAN"
	}
	switch v.Reason {
	case p4src.VerdictKeepAlive:
		return fmt.Sprintf("data plane: no return on the %s side for %d ms (a keep-alive unanswered)", side, v.Age.Milliseconds())
	case p4src.VerdictData:
		return fmt.Sprintf("data plane: no return on the %s side for %d ms (data of many sessions unanswered)", side, v.Age.Milliseconds())
	}
	return fmt.Sprintf("data plane: verdict standing (no return on the %s side)", side)
}

// VerdictStatus is a filter group's data-plane verdict state.
type VerdictStatus struct {
	// Epoch is the epoch the controller writes (filter_forward.epoch).
	Epoch uint8
	// Standing is the verdict that holds now, nil when none.
	Standing *DataPlaneVerdict
	// History lists the latest verdicts, oldest first (at most
	// verdictHistory).
	History []DataPlaneVerdict
	// Received counts every verdict digest of this group (repeats too).
	Received uint64
	// Disagreements counts verdicts the engine's own keep-alives did not
	// agree with.
	Disagreements uint64
}

const verdictHistory = 16

type verdictMon struct {
	epoch         uint8
	standing      *DataPlaneVerdict
	history       []DataPlaneVerdict
	received      uint64
	disagreements uint64
	// cleared: the epochs this engine moved on from (it received their
	// verdict): the session may write held+1 over them.
	cleared map[uint8]bool
	// own: epoch was chosen by a recovery of this engine (recovered), and
	// no other epoch was taken over since. The pipeline's one verdict
	// register of the group can then stand only at epoch: a digest of an
	// older epoch is a late one, from before the recovery's write.
	own bool
}

// epochJump is how far a recovery moves an epoch whose history this
// engine does not know (it came from the store, the switch or the
// default, and no verdict of it was received): the verdict register may
// hold an epoch a controller before this one wrote after it (a failure
// adopted from the switch, a restart, an HA takeover), most likely one of
// the next few. Half the 8-bit space ahead clears any of the 127 epochs
// after it, and it and every one of them are older (epochOlder) than the
// epoch written.
const epochJump = 128

// epochOlder says whether epoch a comes before b over the 8-bit epoch
// space: b - a is 1..epochJump (serial arithmetic, RFC 1982, with the
// half-way epoch counted as older: the one a jump left).
func epochOlder(a, b uint8) bool {
	d := b - a
	return d != 0 && d <= epochJump
}

func (v verdictMon) clone() verdictMon {
	c := v
	c.history = slices.Clone(v.history)
	if v.standing != nil {
		s := *v.standing
		c.standing = &s
	}
	c.cleared = make(map[uint8]bool, len(v.cleared))
	for k, x := range v.cleared {
		c.cleared[k] = x
	}
	return c
}

func (v *verdictMon) status(*monitor) VerdictStatus {
	st := VerdictStatus{Epoch: v.epoch, History: slices.Clone(v.history), Received: v.received, Disagreements: v.disagreements}
	if v.standing != nil {
		s := *v.standing
		st.Standing = &s
	}
	return st
}

// recovered: the engine's own rules brought the group back up from down.
// The write that puts it back into service carries a new epoch, which
// clears any verdict standing on the switch, whatever its epoch: the next
// epoch when this engine knows the one the verdict register can hold (it
// received the standing verdict, or wrote the current epoch itself), else
// epochJump ahead (a verdict the previous controller's pipeline proved,
// which this engine never received: the failure it adopted from the
// switch, the store's "down before restart"). Without the new epoch a
// healthy filter would go back into its failure action at its next frame
// and stay there until the next recovery.
func (v *verdictMon) recovered(_ *monitor, now time.Time) {
	if v.cleared == nil {
		v.cleared = map[uint8]bool{}
	}
	next := v.epoch + 1
	if v.standing == nil && !v.own {
		next = v.epoch + epochJump
	}
	v.epoch, v.own = next, true
	if v.standing == nil {
		return
	}
	v.cleared[v.standing.Epoch] = true
	v.epoch = v.standing.Epoch + 1
	for i := range v.history {
		if v.history[i].Epoch == v.standing.Epoch && v.history[i].Cleared.IsZero() {
			v.history[i].Cleared = now
		}
	}
	v.standing = nil
}

// OnVerdict takes a verdict digest. tick is the pipeline clock's unit
// (p4src.TickBMv2, p4src.TickTNA). A verdict of the group's current epoch
// (or of an epoch the engine has not seen: the switch's, adopted) takes
// the group down with the data-plane reason; a late repeat of a verdict
// the engine already cleared, and a digest of an epoch older than the one
// its last recovery wrote, are ignored.
func (e *Engine) OnVerdict(d p4src.VerdictDigest, tick time.Duration, now time.Time) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	m := e.byID[uint16(d.FilterGroup)]
	if m == nil {
		return fmt.Errorf("data-plane verdict for unknown filter group id %d", d.FilterGroup)
	}
	v := &m.vd
	v.received++
	if v.cleared[d.Epoch] && d.Epoch != v.epoch {
		return nil // cleared already; a repeat sent before the new epoch was written
	}
	if v.own && epochOlder(d.Epoch, v.epoch) {
		// Sent before the recovery's epoch was on the switch, or in the
		// moment of its write: that write cleared it.
		return nil
	}
	if d.Epoch != v.epoch {
		v.own = false // another controller's epoch: this engine takes it over
	}
	v.epoch = d.Epoch
	if v.standing != nil && v.standing.Epoch == d.Epoch {
		if v.standing.Reason == p4src.VerdictStanding && d.Reason != p4src.VerdictStanding {
			// The first digest was lost or came later: keep the reason.
			v.standing.Reason, v.standing.Age = d.Reason, time.Duration(d.Age)*tick
			v.history[len(v.history)-1] = *v.standing
		}
		return nil
	}
	dv := DataPlaneVerdict{At: now, Epoch: d.Epoch, Direction: wire.Direction(d.Direction & 1), Reason: d.Reason, Age: time.Duration(d.Age) * tick}
	// A keep-alive of the controller's came back inside the window in
	// which the pipeline saw no return: the views disagree.
	if dv.Age > 0 && !m.st.LastPass.IsZero() && m.st.LastPass.After(now.Add(-dv.Age)) {
		dv.Disagree = true
		v.disagreements++
		e.log.Warn("the data plane failed a filter group whose keep-alives pass: controller and data plane disagree",
			"filter_group", m.fg.Name, "verdict", dv.Text(), "last_pass", now.Sub(m.st.LastPass))
	}
	v.standing = &dv
	v.history = append(v.history, dv)
	if len(v.history) > verdictHistory {
		v.history = slices.Delete(v.history, 0, len(v.history)-verdictHistory)
	}
	e.log.Warn("data-plane verdict", "filter_group", m.fg.Name, "epoch", d.Epoch, "verdict", dv.Text(), "failure_action", string(m.action))
	m.passes = 0 // recovery starts now
	if m.state != StateDown {
		m.release()
		e.transition(m, StateDown, ReasonDataPlane, now)
	}
	e.publish()
	return nil
}

// Epochs returns the verdict epoch of every filter group whose epoch is
// not 0, by name: what a restarted daemon or a new HA leader starts from
// (Options.Epochs).
func (e *Engine) Epochs() map[string]uint8 {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out map[string]uint8
	for name, m := range e.mons {
		if m.vd.epoch != 0 {
			if out == nil {
				out = map[string]uint8{}
			}
			out[name] = m.vd.epoch
		}
	}
	return out
}

// ForgetOwnEpochs is told that the controller lost the primary role on the
// switch: another controller may write it meanwhile, so no epoch is this
// engine's own any more (verdictMon.own): the epoch guard keeps the
// switch's epochs again, and the next recovery of each filter group jumps.
func (e *Engine) ForgetOwnEpochs() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, m := range e.mons {
		m.vd.own = false
	}
}

// EpochAllowed says whether the session may write wanted over the epoch
// held on the switch for a filter group: the next epoch after a verdict
// this engine received and cleared, or the epoch its last recovery chose
// (keep-alives proved the filter: whatever stands on the switch goes).
func (e *Engine) EpochAllowed(fg uint32, held, wanted uint8) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	m := e.byID[uint16(fg)]
	if m == nil {
		return false
	}
	return (m.vd.cleared[held] && wanted == held+1) || (m.vd.own && wanted == m.vd.epoch)
}

// AdoptEpochs takes over the epochs the switch holds (filter group id ->
// epoch) for groups whose verdict this engine has not cleared: what a
// restarted or newly elected controller finds stays in force.
func (e *Engine) AdoptEpochs(epochs map[uint32]uint8) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for id, ep := range epochs {
		if m := e.byID[uint16(id)]; m != nil && m.vd.epoch != ep {
			e.log.Info("kept the switch's verdict epoch", "filter_group", m.fg.Name, "epoch", ep, "was", m.vd.epoch)
			m.vd.epoch, m.vd.own = ep, false
		}
	}
	e.publish()
}

// SwitchHeard tells the engine when the switch last answered the
// controller (any RPC or stream message). While the switch has not
// answered since a hold began, the stall guard keeps holding past
// stall_hold: a controller that cannot see the switch forms no verdict of
// its own, so none is written when it reconnects.
func (e *Engine) SwitchHeard(at time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.heard, e.heardSet = at, true
}
