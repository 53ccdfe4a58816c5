package daemon

import (
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/tables"
)

// The data-plane verdict (docs/availability.md): the session's digests go
// to the profiles engine, and the session's epoch guard asks the engine
// which verdicts it may clear. The session's failure guard hands the
// engine the failure states a read-back found on the switch.

func (d *Daemon) guardOptions() tables.GuardOptions {
	return tables.GuardOptions{
		EpochAllowed: func(fg uint32, held, wanted uint8) bool {
			return d.currentEngine().EpochAllowed(fg, held, wanted)
		},
		// Both are called by the session before it writes, and handed to
		// the engine loop, which never waits for the session.
		OnAdopt: func(a map[uint32]uint8) { d.engineDo(func() { d.currentEngine().AdoptEpochs(a) }) },
		// At once, before the session writes: the engine's state says
		// down from then on, so no later change (a manual bypass set and
		// cleared meanwhile) can make the filter group forward before its
		// keep-alives prove it.
		OnFailedFound: func(fgs []uint32) { d.engineDo(func() { d.currentEngine().AdoptFailures(fgs, d.now()) }) },
	}
}

// onVerdict hands a data-plane verdict to the engine (the engine loop);
// one it cannot take
// (a filter group id the running configuration does not have) is an
// alarm.
func (d *Daemon) onVerdict(v p4src.VerdictDigest) {
	_, tick := d.comp.Verdict()
	if err := d.currentEngine().OnVerdict(v, tick, d.now()); err != nil {
		d.log.Warn("data-plane verdict ignored", "err", err)
		d.raiseAlarm(Alarm{Name: AlarmVerdictUnknown, Object: "data-plane verdicts", Acknowledge: true,
			Message: "a verdict was ignored: " + err.Error() + " (the switch holds entries of a filter group the running configuration does not have: another configuration's, or another controller's)",
			Remedy: "check that this daemon is the switch's only controller and that its last reconcile succeeded (balancer status); " +
				"it clears with the next configuration applied, or acknowledge with `balancer alarm ack " + AlarmVerdictUnknown + "`"})
	}
}
