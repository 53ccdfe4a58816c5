package tables

import (
	"bytes"
	"slices"
	"sort"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/p4entity"

	"github.com/dpi-balancer/balancer/program"
)

// Batch and Plan are the contract's (program): a plan is what a switch
// session writes.
type (
	Batch = program.Batch
	Plan  = program.Plan
)

// Diff compares the desired entities with the entities read back from the
// switch (current; only the compiler's tables and value sets) and returns
// the writes that turn current into desired:
//   - an entry whose identity stays but whose action changed is modified
//     in place (a port never loses its role entry, a slot never its target);
//   - new entries are written before stale ones are removed (make before
//     break), except in a table that would overflow: there the deletes go
//     first to free capacity;
//   - the batches are ordered so that every state the switch passes
//     through treats each packet as the current state or the desired one
//     does: no packet that both send to a filter ever skips it (the
//     batches below; docs/integrity.md).
//
// The batches, in order (empty ones are left out):
//
//  1. delete to free capacity: only for a table that would overflow;
//  2. value sets, the CPU port, filter ports and links: value sets as the union of the
//     current and desired members (a core TPID in use stays parsed), the
//     port roles of filter ports, the links' return paths;
//  3. filter groups into service: new filter groups (in whatever state)
//     and those that go back to forwarding, before any slot points at them;
//  4. slots: new slots (before a wider mask can reach them) and new
//     targets (each slot moves atomically from one filter to another);
//  5. balance groups: masks and states, after the slots they reach; a
//     narrower mask is written here, before the slots it drops go;
//  6. rules at priority p, highest first (heartbeats and both flow rule
//     tables): with the higher levels written, a packet's best match is
//     the current one or the desired one, never a third entry (one batch
//     when no operator port takes traffic yet, as on a cold start);
//  7. operator ports: the port roles that admit traffic, last, so a new
//     or moved link's packets meet its rules, slots and filters;
//  8. filter groups out of service: after no slot points at them (a
//     failed filter group's slots are dealt to the survivors first);
//  9. value sets: the desired members, when the union had more;
//  10. delete operator ports: a removed link stops taking traffic before
//     its rules go;
//  11. delete rules at priority p, lowest first;
//  12. delete stale entries: slots (beyond a narrower mask or of a removed
//     balance group), balance and filter groups, links, filter ports.
//
// Within a batch the updates are independent: a target may apply them in
// any order, and every prefix of every batch is a safe state, so a
// controller that stops in the middle leaves the switch safe, and the
// next Diff from what it left finishes the change.
//
// Default entries (is_default_action) in current are ignored but for
// those the compiler writes (the CPU port's): a default entry is only
// ever modified, in the first batch of writes.
//
// Within a batch, inserts and modifies keep the desired order (by table
// rank, then position in desired) and deletes go by table rank, highest
// first, then identity: a plan does not depend on the order current is
// in, and a diff in proportion to the change builds no key for what it
// inserts or modifies.
func (c *Compiler) Diff(desired, current []*p4v1.Entity) *Plan {
	df := c.NewDiff(desired)
	df.Add(current...)
	return df.Plan()
}

// A StreamDiff is Diff with the current entities given in pieces, as a
// switch's Read answers them: each piece is paired with the desired
// state as it comes and can then be let go, so a read-back is never held
// whole (only the entries that pair with nothing, and value sets, are
// kept until Plan). Plan(desired, current pieces in order) equals
// Diff(desired, all of them).
type StreamDiff struct {
	differ
	desired []*p4v1.Entity
	// desRuns locates each table's (and value set's) entries in desired:
	// the first contiguous run of each. The current entries are paired
	// by their place in their own table's run (a switch answers a table
	// in the order it was written): a table that grew or shrank, or
	// tables read in another order, do not shift the others.
	desRuns map[uint64]run
	// desNext is where the last run found in desired ends; desScanned
	// says every run is in desRuns.
	desNext    int
	desScanned bool
	// The run the last current entry was in, its place in it, and the
	// desired run of the same table.
	curRun uint64
	curOff int
	curDes run
	// paired marks the desired entities paired with a current one;
	// npaired counts them.
	paired  []bool
	npaired int
	// unpaired holds the current entities paired by place with nothing,
	// by key; Plan pairs them by key.
	unpaired map[string]*p4v1.Entity
	// count counts the current entries per table (as each run ends).
	count  map[uint32]int
	kd, kc []byte
}

// run is where a table's entries are in a list: [start, end).
type run struct{ start, end int }

// runKey names the run an entity belongs in: its table, or its value set.
func runKey(e *p4v1.Entity) uint64 {
	switch x := e.GetEntity().(type) {
	case *p4v1.Entity_TableEntry:
		return uint64(x.TableEntry.GetTableId())
	case *p4v1.Entity_ValueSetEntry:
		return 1<<32 | uint64(x.ValueSetEntry.GetValueSetId())
	}
	return 2 << 32
}

// NewDiff starts a diff from desired; Add the current entities, then
// take the Plan.
func (c *Compiler) NewDiff(desired []*p4v1.Entity) *StreamDiff {
	sd := &StreamDiff{differ: differ{c: c, inserts: map[uint32]int{}}, desired: desired,
		desRuns: map[uint64]run{}, curRun: ^uint64(0), paired: make([]bool, len(desired)),
		unpaired: map[string]*p4v1.Entity{}, count: map[uint32]int{},
		kd: make([]byte, 0, 96), kc: make([]byte, 0, 96)}
	sd.takeMods()
	return sd
}

// desRun finds the run of key k in desired. Runs are looked for where the
// last one found ended (the tables of a read-back or a record come in the
// desired order), and their ends by galloping: a handful of entities
// looked at per table, not the whole list. Otherwise desired is scanned
// once for every run. A run taken too short or too long only leaves
// entries to be paired by key.
func (sd *StreamDiff) desRun(k uint64) run {
	if r, ok := sd.desRuns[k]; ok || sd.desScanned {
		return r
	}
	d := sd.desired
	if p := sd.desNext; p < len(d) && runKey(d[p]) == k {
		// Gallop to a position past the run, then bisect its end.
		lo, step := p, 1
		for lo+step < len(d) && runKey(d[lo+step]) == k {
			lo += step
			step *= 2
		}
		hi := min(lo+step, len(d)) // d[hi] is past the run, or the end
		end := lo + 1 + sort.Search(hi-lo-1, func(i int) bool { return runKey(d[lo+1+i]) != k })
		r := run{start: p, end: end}
		sd.desRuns[k], sd.desNext = r, end
		return r
	}
	// Not where expected: every run, once.
	sd.desScanned = true
	last := ^uint64(0)
	for i, e := range d {
		if k := runKey(e); k != last {
			if r, ok := sd.desRuns[last]; ok && r.end == 0 {
				r.end = i
				sd.desRuns[last] = r
			}
			last = k
			if _, ok := sd.desRuns[k]; !ok {
				sd.desRuns[k] = run{start: i}
			}
		}
	}
	if r, ok := sd.desRuns[last]; ok && r.end == 0 {
		r.end = len(d)
		sd.desRuns[last] = r
	}
	return sd.desRuns[k]
}

// Add pairs current entities (the next ones the switch answered; default
// entries are ignored) with the desired ones. Entities that pair with
// their desired one are not kept.
func (sd *StreamDiff) Add(current ...*p4v1.Entity) {
	for _, e := range current {
		if j := sd.curDes.start + sd.curOff; j < sd.curDes.end && sd.desired[j] == e && !sd.paired[j] {
			// The very entity expected next in its table (a record kept
			// in the desired order): paired without looking into it,
			// but for operator ports until one is seen.
			if !sd.admitted {
				sd.admitted = sd.c.isOperatorPort(e)
			}
			sd.curOff++
			sd.paired[j] = true
			sd.npaired++
			continue
		}
		t := e.GetTableEntry()
		if t.GetIsDefaultAction() && !sd.c.ManagesDefault(t.GetTableId()) {
			continue
		}
		if !sd.admitted && t != nil {
			sd.admitted = sd.c.isOperatorPort(e)
		}
		if k := runKey(e); k != sd.curRun {
			sd.endRun()
			sd.curRun, sd.curOff = k, 0
			sd.curDes = sd.desRun(k) // {0, 0}: no such run in desired
		}
		i := -1
		if sd.curDes.start+sd.curOff < sd.curDes.end {
			i = sd.curDes.start + sd.curOff
		}
		sd.curOff++
		if i >= 0 && !sd.paired[i] && sd.pairAt(i, e) {
			continue
		}
		sd.unpaired[Key(e)] = e
	}
}

// endRun counts the entries of the current run (a table's) it ends.
func (sd *StreamDiff) endRun() {
	if sd.curRun < 1<<32 {
		sd.count[uint32(sd.curRun)] += sd.curOff
	}
}

// pairAt pairs the current entity e with desired[i] when they have the
// same identity: the very entity is written as it is, another one is
// visited.
func (sd *StreamDiff) pairAt(i int, e *p4v1.Entity) bool {
	d := sd.desired[i]
	if d != e {
		same, sure := p4entity.SameKey(d, e)
		if !sure {
			sd.kd, sd.kc = AppendKey(sd.kd[:0], d), AppendKey(sd.kc[:0], e)
			same = bytes.Equal(sd.kd, sd.kc)
		}
		if !same {
			return false
		}
		sd.visit(i, d, e, true)
	}
	sd.paired[i] = true
	sd.npaired++
	return true
}

// Plan pairs the desired entities left with the current ones left by key
// and returns the plan. Against an empty switch (a cold start) no key is
// made at all.
func (sd *StreamDiff) Plan() *Plan {
	sd.endRun()
	sd.curRun = ^uint64(0)
	df := &sd.differ
	// Every desired entity not yet paired is an insert unless a current
	// entity of its key is left.
	df.ins = slices.Grow(df.ins, len(sd.desired)-sd.npaired)
	for i, d := range sd.desired {
		if sd.paired[i] {
			continue
		}
		if len(sd.unpaired) == 0 {
			df.visit(i, d, nil, false) // nothing left to pair with
			continue
		}
		sd.kd = AppendKey(sd.kd[:0], d)
		old, ok := sd.unpaired[string(sd.kd)]
		delete(sd.unpaired, string(sd.kd))
		df.visit(i, d, old, ok)
	}
	df.deleteUnpaired(sd.unpaired)
	orderByPosition(df.ins)
	orderByPosition(df.mods)
	orderByPosition(df.vsFinal)
	orderDeletes(df.dels, true)
	orderDeletes(df.operatorDels, false)
	plan := &Plan{Inserts: len(df.ins), Modifies: len(df.mods) + len(df.vsFinal), Deletes: len(df.dels) + len(df.operatorDels)}
	df.addBatches(plan, df.freeCapacity(sd.count))
	df.releaseMods()
	return plan
}
