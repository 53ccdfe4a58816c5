package tables

import (
	"log/slog"
	"sync/atomic"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/program"
)

// WriteGuard is the switch session's guard of a Compiler's entries
// (program.WriteGuard): the failure guard (failguard.go; docs/availability.md,
// "Failure states found on the switch") and the epoch guard (verdict.go),
// with what they know of the switch.
//
// The failure guard: a read-back (the reconcile of every new primary
// connection, a retry after a failed write, the periodic read-back) that
// finds a filter group in a failure state on the switch (software bypass,
// drop, its share moved to the other members) while the desired state
// says forward keeps that state: the writes that would put it back into
// service are left out of the plan, the controller is told
// (GuardOptions.OnFailedFound), and so on until the controller writes a
// failure state for it itself (it adopted the failure). From then on the
// controller's own rules bring the filter back. A failure state written
// (or tried) since the session became primary is the controller's own
// decision and is not second-guessed: a read-back after a failed write
// finds it and writes what the controller wants now.
//
// The epoch guard: a filter group entry that would change the verdict
// epoch the switch holds, without the controller having received that
// verdict (GuardOptions.EpochAllowed), keeps the switch's epoch.
//
// Both start afresh with Reset (every connection and every loss of the
// primary role: another controller may write meanwhile).
type WriteGuard struct {
	c      *Compiler
	o      GuardOptions
	spares atomic.Pointer[map[uint32]bool] // SetSpares (any goroutine)
	// held holds, by key, the filter_forward entries of filter_groups as
	// the switch holds them (last read back, then as written); nil:
	// nothing read yet.
	held map[string]*p4v1.Entity
	// fail is the failure guard's record.
	fail FailureGuard
}

// GuardOptions connect a WriteGuard to the controller (the profiles
// engine's verdicts and failures).
type GuardOptions struct {
	// EpochAllowed says whether the controller may move a filter group's
	// verdict epoch from the one the switch holds to another (it may once
	// it received the verdict of the held epoch and decided the filter
	// recovered). Nil allows nothing: every write keeps the switch's
	// epochs.
	EpochAllowed func(fg uint32, held, wanted uint8) bool
	// OnAdopt is told the epochs the guard kept from the switch (called
	// from the session's goroutine; it must not block).
	OnAdopt func(adopted map[uint32]uint8)
	// OnFailedFound is told the filter groups a read-back found in a
	// failure state on the switch (software bypass, drop, their share
	// moved to the other members) while the desired state says forward.
	// The guard keeps them failed until a failure state is written for
	// them (the controller adopted the failure), whatever the program.
	// Called from the session's goroutine before the write; it must not
	// wait for the session.
	OnFailedFound func(filterGroups []uint32)
}

var _ program.WriteGuard = (*WriteGuard)(nil)

// NewWriteGuard returns the guard of c's entries.
func NewWriteGuard(c *Compiler, o GuardOptions) *WriteGuard {
	return &WriteGuard{c: c, o: o}
}

// SetSpares tells the failure guard which filter groups are spares of a
// balance group (SpareIDs of the running configuration): a spare holding
// no slot on the switch is on standby, so a plan giving it slots is not
// taken for a share given back after another controller's failover. Any
// goroutine.
func (g *WriteGuard) SetSpares(ids map[uint32]bool) { g.spares.Store(&ids) }

// Reset forgets what the switch holds.
func (g *WriteGuard) Reset() {
	g.held = nil
	g.fail = FailureGuard{}
}

// ReadBack records a read-back: the filter_forward entries (the switch's
// verdict epochs) and the failure guard's record (every filter group's
// state and the slots each holds); the other entities are let go.
func (g *WriteGuard) ReadBack() (note func(*p4v1.Entity), adopt func()) {
	held := map[string]*p4v1.Entity{}
	var found FailureGuard
	note = func(e *p4v1.Entity) {
		if _, _, ok := g.c.ForwardEpoch(e); ok {
			held[Key(e)] = e
		}
		g.c.NoteRead(&found, e)
	}
	adopt = func() {
		g.held = held
		g.fail.Held, g.fail.Shares, g.fail.Read = found.Held, found.Shares, true
	}
	return note, adopt
}

// Guard runs the failure guard, then the epoch guard, on plan.
func (g *WriteGuard) Guard(plan *Plan, log *slog.Logger) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	g.guardFailures(plan, log)
	g.guardEpochs(plan, log)
}

// guardFailures leaves out of a plan every write that would put a filter
// group found failed on the switch back into service, and tells the
// controller about the filter groups found in this plan.
func (g *WriteGuard) guardFailures(plan *Plan, log *slog.Logger) {
	g.fail.Spares = nil
	if sp := g.spares.Load(); sp != nil {
		g.fail.Spares = *sp
	}
	found := g.c.GuardFailures(plan, &g.fail)
	g.fail.Read, g.fail.Shares = false, nil
	if len(found) == 0 {
		return
	}
	log.Warn("kept filter groups failed on the switch while the desired state says forward: the controller adopts them as failed",
		"filter_groups", found)
	if f := g.o.OnFailedFound; f != nil {
		f(found)
	}
}

// guardEpochs keeps every standing verdict standing.
func (g *WriteGuard) guardEpochs(plan *Plan, log *slog.Logger) {
	for i := range plan.Batches {
		us, adopted, dropped := g.c.GuardEpochs(plan.Batches[i].Updates, g.held, g.o.EpochAllowed)
		plan.Batches[i].Updates = us
		plan.Modifies -= dropped
		if len(adopted) > 0 {
			log.Info("kept the switch's verdict epochs (no verdict received for them)", "filter_groups", len(adopted))
			if g.o.OnAdopt != nil {
				g.o.OnAdopt(adopted)
			}
		}
	}
}

// Written records the filter group entries of a plan the switch took. A
// failure state written, an entry inserted into a switch that had none,
// or a deleted entry ends the keeping of that filter group; the epochs
// written are the switch's (only filter_groups entries are keyed: the
// rest of a Tofino-size plan costs nothing here).
func (g *WriteGuard) Written(plan *Plan) {
	g.writtenFailures(plan)
	if g.held == nil {
		return // nothing read yet: the next read-back fills it
	}
	for _, b := range plan.Batches {
		for _, u := range b.Updates {
			e := u.GetEntity()
			if !g.c.IsFilterGroupEntry(e) {
				continue
			}
			k := Key(e)
			if _, _, ok := g.c.ForwardEpoch(e); ok && u.GetType() != p4v1.Update_DELETE {
				g.held[k] = e
			} else {
				delete(g.held, k)
			}
		}
	}
}

func (g *WriteGuard) writtenFailures(plan *Plan) {
	for _, b := range plan.Batches {
		for _, u := range b.Updates {
			fg, ok := g.c.FilterGroupID(u.GetEntity())
			if !ok {
				continue
			}
			if u.GetType() == p4v1.Update_DELETE {
				delete(g.fail.Held, fg)
				delete(g.fail.Kept, fg)
				continue
			}
			_, st, ok := g.c.FilterGroupOf(u.GetEntity())
			if !ok {
				continue
			}
			if g.fail.Held == nil {
				g.fail.Held = map[uint32]FilterGroupState{}
			}
			g.fail.Held[fg] = st
			if st != FGForward || u.GetType() == p4v1.Update_INSERT {
				delete(g.fail.Kept, fg)
			}
		}
	}
}
