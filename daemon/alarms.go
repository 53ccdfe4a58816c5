package daemon

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	apiv1 "github.com/dpi-balancer/balancer/api"
)

// Alarm names: the API's (apiv1.AlarmNames, where docs/telemetry.md's
// "Alarms" says what each means).
const (
	AlarmStateRepaired     = apiv1.AlarmStateRepaired
	AlarmRuntimeSaveFailed = apiv1.AlarmRuntimeSaveFailed
	AlarmVerdictUnknown    = apiv1.AlarmVerdictUnknown
	AlarmStoreCatchUp      = apiv1.AlarmStoreCatchUp
	AlarmStoreUnreachable  = apiv1.AlarmStoreUnreachable
	AlarmTaskEnded         = apiv1.AlarmTaskEnded
	AlarmEvidenceCopy      = apiv1.AlarmEvidenceCopy
	AlarmSessionMemory     = apiv1.AlarmSessionMemory
)

// AlarmNames are every alarm the daemon raises, in a fixed order (the
// metrics give each a series, 0 while it is not raised).
var AlarmNames = apiv1.AlarmNames

// Alarm is a condition of the daemon that needs the operator, with what
// to do about it. The switch session's alarms (SwitchStatus.Alarm and
// PortAlarms) and the filters' stay where they are.
type Alarm struct {
	// Name is stable (AlarmNames); Object names what it concerns, as the
	// operator knows it (a state directory, the runtime state, a store).
	Name, Object string
	// Message says what happened; Remedy what to do.
	Message, Remedy string
	// Since: when it was raised.
	Since time.Time
	// Acknowledge: it stays until an operator acknowledges it (balancer
	// alarm ack NAME); else it clears when its condition ends (also
	// acknowledged: it is then raised again if the condition stands).
	Acknowledge bool
}

// alarmSet holds the raised alarms, by name (one of each). mu is a leaf
// lock on this set alone (raised by the owner, the engine's callbacks and
// the API's acknowledgements; held for no call out of it).
type alarmSet struct {
	mu     sync.Mutex
	raised map[string]Alarm
	// ended: the tasks of Run that ended with an error while it ran (the
	// task-ended alarm).
	ended []string
}

// taskEnded records a task that ended and returns every one so far.
func (s *alarmSet) taskEnded(what string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended = append(s.ended, what)
	return slices.Clone(s.ended)
}

// raise raises a (or updates its message; Since stays that of the first
// raise). It reports whether it was new.
func (s *alarmSet) raise(a Alarm) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.raised == nil {
		s.raised = map[string]Alarm{}
	}
	old, had := s.raised[a.Name]
	if had {
		a.Since = old.Since
	}
	s.raised[a.Name] = a
	return !had
}

// clear clears the alarm name; it reports whether it was raised.
func (s *alarmSet) clear(name string) (Alarm, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, had := s.raised[name]
	delete(s.raised, name)
	return a, had
}

// list gives the raised alarms by name.
func (s *alarmSet) list() []Alarm {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Alarm, 0, len(s.raised))
	for _, a := range s.raised {
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b Alarm) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// raiseAlarm raises a, logging it and publishing an alarm event when it
// is new.
func (d *Daemon) raiseAlarm(a Alarm) {
	if a.Since.IsZero() {
		a.Since = d.now()
	}
	if d.alarms.raise(a) {
		d.log.Warn("ALARM "+a.Name, "object", a.Object, "alarm", a.Message, "remedy", a.Remedy)
		d.events.Publish(Event{Kind: EventAlarm, Object: a.Object, To: "raised", Reason: a.Name + ": " + a.Message})
	}
}

// clearAlarm clears the alarm name, logging and publishing it when it was
// raised; how says why ("acknowledged", or what ended it).
func (d *Daemon) clearAlarm(name, how string) {
	if a, had := d.alarms.clear(name); had {
		d.log.Info("alarm cleared", "alarm", name, "object", a.Object, "how", how)
		d.events.Publish(Event{Kind: EventAlarm, Object: a.Object, To: "cleared", Reason: name + ": " + how})
	}
}

// Alarms are the raised alarms, by name, with the derived ones (the
// shared store unreachable) when ha is given.
func (d *Daemon) alarmsWith(ha *HAStatus) []Alarm {
	out := d.alarms.list()
	derived := false
	if ha != nil && !ha.StoreHealthy {
		out = append(out, Alarm{Name: AlarmStoreUnreachable, Object: ha.Store,
			Message: "the store does not answer: " + ha.StoreError,
			Remedy:  "restore the store's quorum (etcd endpoints, network); configuration changes are refused until it answers (failovers go on from this daemon's state), and this clears when it does"})
		derived = true
	}
	if derived {
		slices.SortFunc(out, func(a, b Alarm) int { return cmp.Compare(a.Name, b.Name) })
	}
	return out
}

// evidenceCopied raises the evidence-copy-refused alarm while the switch
// refuses the evidence copy's mirror sessions (err: why), and clears it
// when a reconciliation writes them (nil); the switch session calls it.
func (d *Daemon) evidenceCopied(err error) {
	if err == nil {
		d.clearAlarm(AlarmEvidenceCopy, "the switch took the mirror sessions")
		return
	}
	d.raiseAlarm(Alarm{Name: AlarmEvidenceCopy, Object: "switch " + d.opts.SwitchAddr,
		Message: "the switch refused the evidence copy's mirror sessions (" + err.Error() + "): a filter whose links or keep-alives are in the other pipe can be judged dead while it answers",
		Remedy:  "check that the switch's P4Runtime server takes clone sessions and that the recirculation ports (68 and 196 on a 2-pipe box) are enabled; or run the base build; this clears when a reconciliation writes them (the periodic one, --switch-reconcile-interval, tries again; so does a reconnect)"})
}

// AckAlarm acknowledges the raised alarm name: it clears. An alarm whose
// condition still stands (one that clears itself) is raised again by
// that condition. Unknown or not raised names are ErrNotFound.
func (d *Daemon) AckAlarm(_ context.Context, name string) (Alarm, error) {
	if !slices.Contains(AlarmNames, name) {
		return Alarm{}, kindf(ErrNotFound, "alarm %q: no such alarm; the daemon raises %s", name, strings.Join(AlarmNames, ", "))
	}
	switch name {
	case AlarmStoreUnreachable:
		return Alarm{}, kindf(ErrInvalid, "alarm %s clears itself when the store answers; it cannot be acknowledged", name)
	case AlarmTaskEnded:
		return Alarm{}, kindf(ErrInvalid, "alarm %s clears when the daemon is restarted; it cannot be acknowledged", name)
	case AlarmEvidenceCopy:
		return Alarm{}, kindf(ErrInvalid, "alarm %s clears itself when the switch takes the mirror sessions; it cannot be acknowledged", name)
	}
	a, had := d.alarms.clear(name)
	if !had {
		raised := []string{}
		for _, r := range d.alarms.list() {
			raised = append(raised, r.Name)
		}
		now := "none is raised"
		if len(raised) > 0 {
			now = "raised: " + strings.Join(raised, ", ")
		}
		return Alarm{}, kindf(ErrNotFound, "alarm %s is not raised (%s)", name, now)
	}
	d.log.Info("alarm acknowledged", "alarm", name, "object", a.Object)
	d.events.Publish(Event{Kind: EventAlarm, Object: a.Object, To: "cleared", Reason: name + ": acknowledged"})
	return a, nil
}

// taskEnded raises the task-ended alarm for the task name of Run, which
// ended with err while the daemon runs.
func (d *Daemon) taskEnded(name string, err error) {
	ended := d.alarms.taskEnded(fmt.Sprintf("%s: %v", name, err))
	a := Alarm{Name: AlarmTaskEnded, Object: "daemon",
		Message: "a task of the daemon ended, what it does is no longer done: " + strings.Join(ended, "; "),
		Remedy:  "restart the daemon (balancer status shows what it affects) and report the error; this clears with the restart"}
	d.raiseAlarm(a) // a second task updates its message (its error is logged)
}

// stateRepairedAlarm is the alarm of what opening dir repaired.
func stateRepairedAlarm(dir string, warnings []string) Alarm {
	return Alarm{Name: AlarmStateRepaired, Object: "state directory " + dir, Acknowledge: true,
		Message: fmt.Sprintf("repaired at start: %s", strings.Join(warnings, "; ")),
		Remedy: "files of the state directory were removed or damaged outside the daemon: check its disk and who writes there; " +
			"then acknowledge with `balancer alarm ack " + AlarmStateRepaired + "`"}
}
