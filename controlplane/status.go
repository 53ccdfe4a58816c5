package controlplane

import (
	"errors"
	"fmt"
	"time"
)

// Stats counts what the session did.
type Stats struct {
	Connects, Reconciles, PipelinePushes uint64
	// SavedPipelinePushes: the pushes made as VERIFY_AND_SAVE + COMMIT.
	SavedPipelinePushes    uint64
	WriteRequests, Updates uint64
	// PlansWritten counts the non-empty plans written whole: one per
	// configuration change, reconcile delta or runtime-state change that
	// wrote anything, however many write requests its batches took (a
	// plan's entries go in dependency and priority order, a request or
	// more per batch).
	PlansWritten                uint64
	PacketsIn, PacketsInDropped uint64
	PacketsOut                  uint64
	// Stalls counts connections dropped because the switch stopped
	// answering; Retries the timed retries of failed writes.
	Stalls, Retries uint64
	// ReadBacks counts periodic read-back reconciles; Repairs the
	// entries they rewrote because the switch had drifted.
	ReadBacks, Repairs uint64
	// ElectionRefusals counts arbitrations the switch refused because
	// another stream held the election id (ErrElectionIDInUse).
	ElectionRefusals uint64
}

// Status is a snapshot of the session.
type Status struct {
	Connected, Primary bool
	ElectionHigh       uint64
	ElectionLow        uint64
	LastError          string
	LastErrorAt        time.Time
	LastReconcile      time.Time
	LastPlan           string // "n inserts, m modifies, k deletes"
	AtomicWrites       bool   // the switch accepts ROLLBACK_ON_ERROR
	// Stalled: the last connection was dropped because the switch kept
	// it open but stopped answering; StalledSince is when it last
	// answered. Both clear when a connection is answered again.
	Stalled      bool
	StalledSince time.Time
	// Pending: the desired state is not known to be on the switch yet
	// (not connected, not primary, or a write failed and is retried at
	// NextRetry).
	Pending   bool
	NextRetry time.Time
	// LastReadBack is the end of the last periodic read-back reconcile.
	LastReadBack time.Time
	// OtherPrimary is the election id ("high:low") of the controller the
	// switch names as its primary while this session is a backup: that
	// controller can rewrite every table. "" when this session is
	// primary, the switch has no primary, or it is not connected.
	// OtherPrimarySince is when the switch first named it.
	OtherPrimary      string
	OtherPrimarySince time.Time
	// Standby: the session is a backup by design (FixedElection with the
	// id unset: a standby of a leader election), so another primary is
	// expected and raises no alarm.
	Standby bool
	// ElectionRefused: the switch refuses this session's election id
	// (ElectionHigh:ElectionLow) because another stream of its role holds
	// it (ErrElectionIDInUse), ElectionRefusals times in a row since
	// ElectionRefusedSince; the session retries. Cleared when the switch
	// answers a connection.
	ElectionRefused      bool
	ElectionRefusedSince time.Time
	ElectionRefusals     int
}

// Alarm is the operator's one-line view of a session that needs
// attention ("" when it is healthy): refused its election id, stalled,
// disconnected, writes failing and retried, or another primary.
func (st Status) Alarm() string {
	switch {
	case st.ElectionRefused && !st.Connected:
		return fmt.Sprintf("switch refuses election id %d:%d: another stream holds it (most likely this daemon's own connection lost in a network cut, "+
			"which the switch has not dropped yet; else another controller runs with the same id); refused %d times since %s, retrying; "+
			"the switch frees the id when its keepalive drops the dead stream, or restart the switch's P4Runtime agent "+
			"(or stop the other controller that has this id)",
			st.ElectionHigh, st.ElectionLow, st.ElectionRefusals, st.ElectionRefusedSince.UTC().Format(time.RFC3339))
	case st.Stalled && !st.Connected:
		return fmt.Sprintf("switch stalled: no answer since %s", st.StalledSince.UTC().Format(time.RFC3339))
	case !st.Connected && st.LastError != "":
		return "switch disconnected: " + st.LastError
	case !st.Connected:
		return "switch not connected"
	case st.Pending && !st.NextRetry.IsZero():
		return "switch writes failing, retrying: " + st.LastError
	case !st.Primary && st.OtherPrimary != "" && !st.Standby:
		return fmt.Sprintf("another controller is primary on the switch (election id %s, this daemon's %d:%d, since %s): it can rewrite every table, and this daemon stays backup and writes nothing while it is there; stop that controller, or restart this daemon with a higher --election-id",
			st.OtherPrimary, st.ElectionHigh, st.ElectionLow, st.OtherPrimarySince.UTC().Format(time.RFC3339Nano))
	}
	return ""
}

// Status returns a snapshot.
func (s *Session) Status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status
}

// Stats returns the counters.
func (s *Session) Stats() Stats {
	return Stats{
		Connects: s.stats.connects.Load(), Reconciles: s.stats.reconciles.Load(), PipelinePushes: s.stats.pushes.Load(), SavedPipelinePushes: s.stats.savedPushes.Load(),
		WriteRequests: s.stats.writeReqs.Load(), Updates: s.stats.updates.Load(), PlansWritten: s.stats.plans.Load(),
		PacketsIn: s.stats.in.Load(), PacketsInDropped: s.stats.inDropped.Load(), PacketsOut: s.stats.out.Load(),
		Stalls: s.stats.stalls.Load(), Retries: s.stats.retries.Load(),
		ReadBacks: s.stats.readBacks.Load(), Repairs: s.stats.repairs.Load(),
		ElectionRefusals: s.stats.refusals.Load(),
	}
}

// lost records the end of a connection in the status.
func (s *Session) lost(err error) {
	var se *stallError
	stalled := errors.As(err, &se)
	if stalled {
		s.stats.stalls.Add(1)
	}
	var re *electionRefusedError
	refused := errors.As(err, &re)
	if refused {
		s.stats.refusals.Add(1)
	}
	first := false
	s.setStatus(func(st *Status) {
		switch {
		case refused:
			first = !st.ElectionRefused
			if first {
				st.ElectionRefused, st.ElectionRefusedSince = true, time.Now()
			}
			st.ElectionRefusals++
			st.ElectionHigh, st.ElectionLow = re.high, re.low
		default:
			st.ElectionRefused, st.ElectionRefusedSince, st.ElectionRefusals = false, time.Time{}, 0
		}
		st.Connected, st.Primary, st.NextRetry = false, false, time.Time{}
		st.OtherPrimary, st.OtherPrimarySince = "", time.Time{}
		if err != nil {
			st.LastError, st.LastErrorAt = err.Error(), time.Now()
		}
		if stalled && st.Stalled {
			// Still stalled: the switch has not answered since the first
			// stall, whatever this attempt waited for.
			again := *se
			again.since = st.StalledSince
			st.LastError = again.Error()
		}
		switch {
		case stalled && !st.Stalled:
			st.Stalled, st.StalledSince = true, se.since
		case !stalled:
			st.Stalled, st.StalledSince = false, time.Time{}
		}
	})
	if first {
		s.log.Error("ALARM the switch refuses this controller's election id: another stream holds it, most likely this controller's own connection lost in a network cut; retrying until the switch drops it",
			"election_id", fmt.Sprintf("%d:%d", re.high, re.low), "err", re.err)
	}
}

func (s *Session) setStatus(f func(*Status)) {
	s.mu.Lock()
	f(&s.status)
	s.mu.Unlock()
}
