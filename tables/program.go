package tables

import (
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/program"
)

// A Compiler is the program a switch session writes (program.Program):
// the session reads back ReadQueries, readies each entity with Decode and
// writes the Plan.
var _ program.Program = (*Compiler)(nil)

// Decode readies an entity a switch answered for Plan: a default entry
// the compiler does not write is not its own (false), and a table
// entry's don't-care matches are taken out (Canonical).
func (c *Compiler) Decode(e *p4v1.Entity) bool {
	if te := e.GetTableEntry(); te.GetIsDefaultAction() && !c.ManagesDefault(te.GetTableId()) {
		return false
	}
	c.Canonical(e)
	return true
}

// Plan is Diff with the current entities handed to add in pieces (a
// StreamDiff): as a switch's Read answers them, or a record of what it
// holds at once. An error from current is returned, with no plan.
func (c *Compiler) Plan(desired []*p4v1.Entity, current func(add func(...*p4v1.Entity)) error) (*Plan, error) {
	sd := c.NewDiff(desired)
	if err := current(sd.Add); err != nil {
		return nil, err
	}
	return sd.Plan(), nil
}
