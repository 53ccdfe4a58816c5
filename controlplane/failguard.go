package controlplane

import (
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/tables"
)

// The failure guard (docs/availability.md, "Failure states found on the
// switch"): a read-back (the reconcile of every new primary connection,
// a retry after a failed write, the periodic read-back) that finds a
// filter group in a failure state on the switch (software bypass, drop,
// its share moved to the other members) while the desired state says
// forward keeps that state: the session leaves the writes that would put
// it back into service out of the plan, tells the controller
// (VerdictOptions.OnFailedFound) and keeps doing so until the controller
// writes a failure state for it itself (it adopted the failure). From
// then on the controller's own rules bring the filter back. A failure
// state this connection wrote (or tried to) since it became primary is the
// controller's own decision and is not second-guessed: a read-back after a
// failed write finds it and writes what the controller wants now. The
// record starts afresh with every connection and every loss of the
// primary role (another controller may write meanwhile).

// noteWrittenFailures records the filter group entries of a plan the
// switch took. A failure state the session wrote itself, an entry it
// inserted into a switch that had none, or a deleted entry ends the
// keeping of that filter group.
func (c *conn) noteWrittenFailures(plan *tables.Plan) {
	comp := c.s.opts.Compiler
	for _, b := range plan.Batches {
		for _, u := range b.Updates {
			fg, ok := comp.FilterGroupID(u.GetEntity())
			if !ok {
				continue
			}
			if u.GetType() == p4v1.Update_DELETE {
				delete(c.fail.Held, fg)
				delete(c.fail.Kept, fg)
				continue
			}
			_, st, ok := comp.FilterGroupOf(u.GetEntity())
			if !ok {
				continue
			}
			if c.fail.Held == nil {
				c.fail.Held = map[uint32]tables.FilterGroupState{}
			}
			c.fail.Held[fg] = st
			if st != tables.FGForward || u.GetType() == p4v1.Update_INSERT {
				delete(c.fail.Kept, fg)
			}
		}
	}
}

// SetSpares tells the failure guard which filter groups are spares of a
// balance group (tables.SpareIDs of the running configuration): a spare
// holding no slot on the switch is on standby, so a plan giving it slots
// is not taken for a share given back after another controller's
// failover.
func (s *Session) SetSpares(ids map[uint32]bool) { s.spares.Store(&ids) }

// guardFailures leaves out of a plan every write that would put a filter
// group found failed on the switch back into service, and tells the
// controller about the filter groups found in this plan.
func (c *conn) guardFailures(plan *tables.Plan) {
	c.fail.Spares = nil
	if sp := c.s.spares.Load(); sp != nil {
		c.fail.Spares = *sp
	}
	found := c.s.opts.Compiler.GuardFailures(plan, &c.fail)
	c.fail.Read, c.fail.Shares = false, nil
	if len(found) == 0 {
		return
	}
	c.s.log.Warn("kept filter groups failed on the switch while the desired state says forward: the controller adopts them as failed",
		"filter_groups", found)
	if f := c.s.opts.Verdict.OnFailedFound; f != nil {
		f(found)
	}
}
