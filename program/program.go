// Package program is the contract between a switch session
// (controlplane), which knows P4Runtime, and what it writes (tables, the
// balancer's entries), in the manner of a pipeconf: the session holds a
// Program and a WriteGuard and knows nothing else of what the entities
// mean.
//
// A Program says what to read back from a switch, readies each entity
// read (Decode), and plans the writes that turn what a switch holds into
// the desired entities (Plan). A WriteGuard is what a read-back may hold
// back: it records what the switch holds (ReadBack, Written) and takes
// out of a plan the writes that must not happen on the strength of the
// desired state alone (Guard).
package program

import (
	"log/slog"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

// Batch is a group of updates that may be written in one Write request, in
// any order; batches must be written in sequence.
type Batch struct {
	Name    string
	Updates []*p4v1.Update
}

// Plan is the difference between desired and current state: batches
// written in order.
type Plan struct {
	Batches                    []Batch
	Inserts, Modifies, Deletes int
}

// Len is the number of updates in the plan.
func (p *Plan) Len() int { return p.Inserts + p.Modifies + p.Deletes }

// Empty says there is nothing to write.
func (p *Plan) Empty() bool { return p.Len() == 0 }

// Program is what a session writes to a switch.
type Program interface {
	// ReadQueries are the Read requests that read back everything the
	// program writes: tables (entries and the default entries it
	// writes), and valueSets, read by themselves (a target may answer
	// those UNIMPLEMENTED).
	ReadQueries() (tables, valueSets []*p4v1.Entity)
	// Decode readies an entity a switch answered for Plan, in place (it
	// takes out what the target spelled out but the program leaves out),
	// and says whether it is the program's: false for a default entry it
	// does not write.
	Decode(e *p4v1.Entity) bool
	// Plan returns the writes that turn current into desired. current
	// hands the entities the switch holds (decoded) to add, in pieces as
	// the switch answers them (a piece is not kept once added); an error
	// from it is returned, with no plan.
	Plan(desired []*p4v1.Entity, current func(add func(...*p4v1.Entity)) error) (*Plan, error)
	// ValueSetDefault is the value the program parses for value set id
	// even when the value set is empty, and the value set's name; ok is
	// false for a value set the program does not write. A target that
	// cannot write value sets is tolerated while each holds its default.
	ValueSetDefault(id uint32) (v uint64, name string, ok bool)
}

// WriteGuard is what a read-back may hold back: what a switch holds that
// a write must not undo on the strength of the desired state alone. A
// session calls it from one goroutine, but for ReadBack's note.
type WriteGuard interface {
	// ReadBack starts the record of a read-back of the switch: note is
	// handed every entity read (decoded; from the goroutine that reads,
	// not necessarily the session's), and adopt makes the record what
	// the switch holds, before the plan computed from the same read-back
	// is guarded. A read-back found stale is never adopted.
	ReadBack() (note func(*p4v1.Entity), adopt func())
	// Guard rewrites plan before it is written, leaving out (or
	// rewriting) what it must not write, and says on log what it held
	// back. A plan guarded twice is guarded once.
	Guard(plan *Plan, log *slog.Logger)
	// Written records a plan the switch took.
	Written(plan *Plan)
	// Reset forgets what the switch holds: a new connection, or the
	// loss of the primary role (another controller may write meanwhile).
	Reset()
}

// NoGuard holds nothing back.
type NoGuard struct{}

func (NoGuard) ReadBack() (func(*p4v1.Entity), func()) {
	return func(*p4v1.Entity) {}, func() {}
}
func (NoGuard) Guard(*Plan, *slog.Logger) {}
func (NoGuard) Written(*Plan)             {}
func (NoGuard) Reset()                    {}
