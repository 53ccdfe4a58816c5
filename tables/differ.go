package tables

import (
	"cmp"
	"slices"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/p4entity"
)

// differ is the work of one Diff: the updates found so far, before they
// are ordered into batches.
type differ struct {
	c *Compiler
	// admitted says whether any current operator port takes traffic yet.
	admitted bool
	// ins, mods and dels are the inserts, modifies and deletes (of
	// entries other than operator ports); vsFinal the value sets'
	// modifies to their desired members after a union; operatorDels the
	// deletes of operator ports.
	ins, mods, dels, vsFinal, operatorDels []diffUpdate
	inserts                                map[uint32]int // per table
	deletesPerTable                        map[uint32]int
	// slab holds the Update messages not handed out yet: a plan's
	// updates are allocated in chunks, not one by one.
	slab []p4v1.Update
}

// takeMods gives the differ the modifies' list a finished diff let go,
// if any (a diff running beside it grows its own). Every element of it
// is zero, to its capacity.
func (df *differ) takeMods() {
	c := df.c
	c.modsMu.Lock()
	df.mods, c.mods = c.mods, nil
	c.modsMu.Unlock()
}

// releaseMods lets the next diff have the modifies' list once the plan is
// made (its batches hold the updates, not this list).
func (df *differ) releaseMods() {
	clear(df.mods) // the elements past the length were cleared before
	mods := df.mods[:0]
	df.mods = nil
	c := df.c
	c.modsMu.Lock()
	if cap(c.mods) < cap(mods) {
		c.mods = mods
	}
	c.modsMu.Unlock()
}

// updateSlab is how many updates a differ allocates at once.
const updateSlab = 1024

// diffUpdate is one update of a plan with what orders it: the position
// of its entity in desired (inserts and modifies), or its key (deletes).
type diffUpdate struct {
	rank, prio, pos int32
	key             string
	u               *p4v1.Update
}

func (df *differ) rank(e *p4v1.Entity) int32 {
	if t := e.GetTableEntry(); t != nil {
		return int32(df.c.rank[t.GetTableId()])
	}
	return 0 // value sets first
}

// update makes the update of e at position pos of desired (deletes: -1)
// with key k (deletes only: "").
func (df *differ) update(e *p4v1.Entity, pos int, k string, typ p4v1.Update_Type) diffUpdate {
	if len(df.slab) == 0 {
		df.slab = make([]p4v1.Update, updateSlab)
	}
	u := &df.slab[0]
	df.slab = df.slab[1:]
	u.Type, u.Entity = typ, e
	return diffUpdate{df.rank(e), e.GetTableEntry().GetPriority(), int32(pos), k, u}
}

// visit compares the desired entity at position pos with the current one
// of its key (ok false when there is none).
func (df *differ) visit(pos int, d, old *p4v1.Entity, ok bool) {
	switch {
	case d.GetValueSetEntry() != nil:
		df.visitValueSet(pos, d, old, ok)
	case d.GetTableEntry().GetIsDefaultAction():
		// A default entry is never inserted or deleted, only modified
		// (one the switch did not answer is written again).
		if !ok || !p4entity.SameAction(old.GetTableEntry().GetAction(), d.GetTableEntry().GetAction()) {
			df.mods = append(df.mods, df.update(d, pos, "", p4v1.Update_MODIFY))
		}
	case !ok:
		df.ins = append(df.ins, df.update(d, pos, "", p4v1.Update_INSERT))
		df.inserts[d.GetTableEntry().GetTableId()]++
	case !p4entity.SameAction(old.GetTableEntry().GetAction(), d.GetTableEntry().GetAction()):
		df.mods = append(df.mods, df.update(d, pos, "", p4v1.Update_MODIFY))
	}
}

// visitValueSet: value sets are only ever modified (P4Runtime spec): to
// the union first, to the desired members at the end.
func (df *differ) visitValueSet(pos int, d, old *p4v1.Entity, ok bool) {
	if ok && p4entity.SameMembers(old.GetValueSetEntry(), d.GetValueSetEntry()) {
		return
	}
	if ok {
		u := p4entity.UnionMembers(old.GetValueSetEntry(), d.GetValueSetEntry())
		// A union the value set cannot hold is skipped: the desired
		// members are written at once.
		fits := df.c.vsSize[u.GetValueSetId()] == 0 || len(u.GetMembers()) <= df.c.vsSize[u.GetValueSetId()]
		if fits && !p4entity.SameMembers(u, d.GetValueSetEntry()) {
			ue := &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: u}}
			df.mods = append(df.mods, df.update(ue, pos, "", p4v1.Update_MODIFY))
			df.vsFinal = append(df.vsFinal, df.update(d, pos, "", p4v1.Update_MODIFY))
			return
		}
	}
	df.mods = append(df.mods, df.update(d, pos, "", p4v1.Update_MODIFY))
}

// deleteUnpaired deletes the current entries no desired entity paired
// with (value sets are never deleted: they were modified to the desired
// members).
func (df *differ) deleteUnpaired(cur map[string]*p4v1.Entity) {
	df.deletesPerTable = map[uint32]int{}
	for k, e := range cur {
		if e.GetValueSetEntry() != nil || e.GetTableEntry().GetIsDefaultAction() {
			continue // never deleted; modified to the desired members above
		}
		u := df.update(stripForDelete(e), -1, k, p4v1.Update_DELETE)
		df.deletesPerTable[e.GetTableEntry().GetTableId()]++
		if df.c.isOperatorPort(e) {
			df.operatorDels = append(df.operatorDels, u)
			continue
		}
		df.dels = append(df.dels, u)
	}
}

// orderByPosition orders inserts or modifies by rank, then position in
// desired (each position once). Visited in desired order, as against an
// empty switch, they are already in it.
func orderByPosition(us []diffUpdate) {
	byPos := func(a, b diffUpdate) int {
		if a.rank != b.rank {
			return cmp.Compare(a.rank, b.rank)
		}
		return cmp.Compare(a.pos, b.pos)
	}
	if !slices.IsSortedFunc(us, byPos) {
		slices.SortFunc(us, byPos)
	}
}

// orderDeletes orders deletes by rank (reverse: highest first), then
// identity.
func orderDeletes(us []diffUpdate, reverse bool) {
	slices.SortStableFunc(us, func(a, b diffUpdate) int {
		if a.rank != b.rank {
			if reverse {
				return cmp.Compare(b.rank, a.rank)
			}
			return cmp.Compare(a.rank, b.rank)
		}
		return cmp.Compare(a.key, b.key)
	})
}

// freeCapacity takes out of the deletes those of tables that would
// overflow with make-before-break, and returns them: they go first.
func (df *differ) freeCapacity(count map[uint32]int) []*p4v1.Update {
	full := map[uint32]bool{}
	for id, n := range df.inserts {
		if size := df.c.tableSize(id); size > 0 && count[id]+n > size && df.deletesPerTable[id] > 0 {
			full[id] = true
		}
	}
	var freeFirst []*p4v1.Update
	takeFull := func(us []diffUpdate) []diffUpdate {
		var rest []diffUpdate
		for _, d := range us {
			if full[d.u.GetEntity().GetTableEntry().GetTableId()] {
				freeFirst = append(freeFirst, d.u)
			} else {
				rest = append(rest, d)
			}
		}
		return rest
	}
	df.operatorDels = takeFull(df.operatorDels)
	df.dels = takeFull(df.dels)
	return freeFirst
}

func (c *Compiler) tableSize(id uint32) int {
	if id == c.slots.id {
		return 0 // the target's slot capacity depends on the platform
	}
	if t := c.schema.TableByID(id); t != nil {
		return int(t.GetSize())
	}
	return 0
}

// stripForDelete keeps only what identifies the entry.
func stripForDelete(e *p4v1.Entity) *p4v1.Entity {
	t := e.GetTableEntry()
	return &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{
		TableId:  t.GetTableId(),
		Match:    t.GetMatch(),
		Priority: t.GetPriority(),
	}}}
}
