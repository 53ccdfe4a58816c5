package tables

import (
	"bytes"
	"cmp"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/protobuf/proto"
)

// Key is an entity's identity: for a table entry, the table id, the
// priority and the matches sorted by field id in canonical bytes with masked
// bits zeroed; for a value set, its id. Two entities with the same Key
// address the same switch state.
func Key(e *p4v1.Entity) string {
	return string(AppendKey(make([]byte, 0, 96), e))
}

// AppendKey appends Key(e) to b, for callers that keep their own buffer.
func AppendKey(b []byte, e *p4v1.Entity) []byte {
	switch x := e.GetEntity().(type) {
	case *p4v1.Entity_TableEntry:
		t := x.TableEntry
		b = append(b, 't')
		b = strconv.AppendUint(b, uint64(t.GetTableId()), 16)
		if t.GetIsDefaultAction() {
			return append(b, "/default"...)
		}
		b = append(b, "/p"...)
		b = strconv.AppendInt(b, int64(t.GetPriority()), 10)
		ms := t.GetMatch()
		if !slices.IsSortedFunc(ms, byFieldID) {
			ms = slices.SortedFunc(slices.Values(ms), byFieldID)
		}
		for _, m := range ms {
			b = append(b, "/f"...)
			b = strconv.AppendUint(b, uint64(m.GetFieldId()), 10)
			switch mt := m.GetFieldMatchType().(type) {
			case *p4v1.FieldMatch_Exact_:
				b = append(b, '=')
				b = hex.AppendEncode(b, trimView(mt.Exact.GetValue()))
			case *p4v1.FieldMatch_Ternary_:
				b = append(b, '=')
				b = appendMaskedHex(b, mt.Ternary.GetValue(), mt.Ternary.GetMask())
				b = append(b, '&')
				b = hex.AppendEncode(b, trimView(mt.Ternary.GetMask()))
			case *p4v1.FieldMatch_Lpm:
				b = append(b, '=')
				b = hex.AppendEncode(b, trimView(mt.Lpm.GetValue()))
				b = append(b, '/')
				b = strconv.AppendInt(b, int64(mt.Lpm.GetPrefixLen()), 10)
			case *p4v1.FieldMatch_Range_:
				b = append(b, '=')
				b = hex.AppendEncode(b, trimView(mt.Range.GetLow()))
				b = append(b, '-')
				b = hex.AppendEncode(b, trimView(mt.Range.GetHigh()))
			case *p4v1.FieldMatch_Optional_:
				b = append(b, '?')
				b = hex.AppendEncode(b, trimView(mt.Optional.GetValue()))
			}
		}
		return b
	case *p4v1.Entity_ValueSetEntry:
		b = append(b, 'v')
		return strconv.AppendUint(b, uint64(x.ValueSetEntry.GetValueSetId()), 16)
	default:
		return fmt.Appendf(b, "?%T", x)
	}
}

// sameKey compares the Keys of two table entries whose matches are all
// exact, in the same field order, without building them; sure is false
// when it cannot tell (another match kind, another order, not table
// entries): then compare the Keys.
func sameKey(a, b *p4v1.Entity) (same, sure bool) {
	ta, tb := a.GetTableEntry(), b.GetTableEntry()
	if ta == nil || tb == nil || ta.GetIsDefaultAction() || tb.GetIsDefaultAction() {
		return false, false
	}
	if ta.GetTableId() != tb.GetTableId() || ta.GetPriority() != tb.GetPriority() || len(ta.GetMatch()) != len(tb.GetMatch()) {
		return false, true
	}
	for i, ma := range ta.GetMatch() {
		mb := tb.GetMatch()[i]
		xa, xb := ma.GetExact(), mb.GetExact()
		if ma.GetFieldId() != mb.GetFieldId() || xa == nil || xb == nil {
			return false, false
		}
		if !bytes.Equal(trimView(xa.GetValue()), trimView(xb.GetValue())) {
			// The same field in both: unless the order is not the
			// sorted one (then Key sorts it), they differ.
			return false, slices.IsSortedFunc(ta.GetMatch(), byFieldID) && slices.IsSortedFunc(tb.GetMatch(), byFieldID)
		}
	}
	return true, true
}

func byFieldID(a, b *p4v1.FieldMatch) int { return cmp.Compare(a.GetFieldId(), b.GetFieldId()) }

// trimView is trim without copying.
func trimView(b []byte) []byte {
	i := 0
	for i < len(b)-1 && b[i] == 0 {
		i++
	}
	return b[i:]
}

// appendMaskedHex appends hex(trimView(andBytes(v, mask))) to b without
// building the masked value.
func appendMaskedHex(b, v, mask []byte) []byte {
	const digits = "0123456789abcdef"
	n := max(len(v), len(mask))
	lead := true
	for i := 0; i < n; i++ {
		var a, m byte
		if j := len(v) - n + i; j >= 0 {
			a = v[j]
		}
		if j := len(mask) - n + i; j >= 0 {
			m = mask[j]
		}
		x := a & m
		if lead && x == 0 && i < n-1 {
			continue // trimView keeps the last byte
		}
		lead = false
		b = append(b, digits[x>>4], digits[x&0xf])
	}
	return b
}

// andBytes returns v & mask, right-aligned.
func andBytes(v, mask []byte) []byte {
	n := max(len(v), len(mask))
	out := make([]byte, n)
	for i := 0; i < n; i++ {
		var a, m byte
		if j := len(v) - n + i; j >= 0 {
			a = v[j]
		}
		if j := len(mask) - n + i; j >= 0 {
			m = mask[j]
		}
		out[i] = a & m
	}
	return out
}

// Batch is a group of updates that may be written in one Write request, in
// any order; batches must be written in sequence.
type Batch struct {
	Name    string
	Updates []*p4v1.Update
}

// Plan is the difference between desired and current state.
type Plan struct {
	Batches                    []Batch
	Inserts, Modifies, Deletes int
}

// Len is the number of updates in the plan.
func (p *Plan) Len() int { return p.Inserts + p.Modifies + p.Deletes }

// Empty says there is nothing to write.
func (p *Plan) Empty() bool { return p.Len() == 0 }

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
	return &StreamDiff{differ: differ{c: c, inserts: map[uint32]int{}}, desired: desired,
		desRuns: map[uint64]run{}, curRun: ^uint64(0), paired: make([]bool, len(desired)),
		unpaired: map[string]*p4v1.Entity{}, count: map[uint32]int{},
		kd: make([]byte, 0, 96), kc: make([]byte, 0, 96)}
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
		same, sure := sameKey(d, e)
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
	return plan
}

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
		if !ok || !sameAction(old.GetTableEntry().GetAction(), d.GetTableEntry().GetAction()) {
			df.mods = append(df.mods, df.update(d, pos, "", p4v1.Update_MODIFY))
		}
	case !ok:
		df.ins = append(df.ins, df.update(d, pos, "", p4v1.Update_INSERT))
		df.inserts[d.GetTableEntry().GetTableId()]++
	case !sameAction(old.GetTableEntry().GetAction(), d.GetTableEntry().GetAction()):
		df.mods = append(df.mods, df.update(d, pos, "", p4v1.Update_MODIFY))
	}
}

// visitValueSet: value sets are only ever modified (P4Runtime spec): to
// the union first, to the desired members at the end.
func (df *differ) visitValueSet(pos int, d, old *p4v1.Entity, ok bool) {
	if ok && sameMembers(old.GetValueSetEntry(), d.GetValueSetEntry()) {
		return
	}
	if ok {
		u := unionMembers(old.GetValueSetEntry(), d.GetValueSetEntry())
		// A union the value set cannot hold is skipped: the desired
		// members are written at once.
		fits := df.c.vsSize[u.GetValueSetId()] == 0 || len(u.GetMembers()) <= df.c.vsSize[u.GetValueSetId()]
		if fits && !sameMembers(u, d.GetValueSetEntry()) {
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

// writeBatches are the inserts and modifies sorted into the batches they
// go in (batches 2 to 8 of Diff).
type writeBatches struct {
	prep, fgIn, slots, groups, admit, fgOut []*p4v1.Update
	ruleLevels                              map[int32][]*p4v1.Update // by priority
}

// writeBatch is one of the batches of inserts and modifies.
type writeBatch int

const (
	wPrep writeBatch = iota
	wFgIn
	wSlots
	wGroups
	wRules
	wAdmit
	wFgOut
	nWriteBatches
)

// batchOf says which batch an insert or modify goes in, and for a rule
// its level (priority; 0 for all before any operator port admits
// traffic: one batch).
func (df *differ) batchOf(u diffUpdate) (writeBatch, int32) {
	c := df.c
	e := u.u.GetEntity()
	switch t := e.GetTableEntry(); {
	case t == nil, t.GetIsDefaultAction(): // value sets, the CPU port
		return wPrep, 0
	case t.GetTableId() == c.portRole.id:
		if c.isOperatorPort(e) {
			return wAdmit, 0
		}
		return wPrep, 0
	case t.GetTableId() == c.links.id:
		return wPrep, 0
	case t.GetTableId() == c.filterGroups.id:
		// New filter groups go in before any slot points at them,
		// whatever their state (a missing entry would fail open).
		if u.u.GetType() == p4v1.Update_INSERT || t.GetAction().GetAction().GetActionId() == c.filterForward.id {
			return wFgIn, 0
		}
		return wFgOut, 0
	case t.GetTableId() == c.slots.id:
		return wSlots, 0
	case t.GetTableId() == c.balanceGroups.id:
		return wGroups, 0
	case !df.admitted:
		return wRules, 0
	default: // heartbeats and flow rules
		return wRules, u.prio
	}
}

// sortWrites sorts the modifies, then the inserts, into their batches
// (counted first: each batch is allocated once, at its size).
func (df *differ) sortWrites() writeBatches {
	var n [nWriteBatches]int
	levels := map[int32]int{}
	for _, us := range [][]diffUpdate{df.mods, df.ins} {
		for _, u := range us {
			b, level := df.batchOf(u)
			n[b]++
			if b == wRules {
				levels[level]++
			}
		}
	}
	var out [nWriteBatches][]*p4v1.Update
	for b := range out {
		if b != int(wRules) && n[b] > 0 {
			out[b] = make([]*p4v1.Update, 0, n[b])
		}
	}
	w := writeBatches{ruleLevels: make(map[int32][]*p4v1.Update, len(levels))}
	for level, k := range levels {
		w.ruleLevels[level] = make([]*p4v1.Update, 0, k)
	}
	for _, us := range [][]diffUpdate{df.mods, df.ins} {
		for _, u := range us {
			b, level := df.batchOf(u)
			if b == wRules {
				w.ruleLevels[level] = append(w.ruleLevels[level], u.u)
				continue
			}
			out[b] = append(out[b], u.u)
		}
	}
	w.prep, w.fgIn, w.slots, w.groups, w.admit, w.fgOut = out[wPrep], out[wFgIn], out[wSlots], out[wGroups], out[wAdmit], out[wFgOut]
	return w
}

// sortDeletes splits the deletes into those of rules, by priority, and
// the stale entries of the other tables.
func (df *differ) sortDeletes() (ruleDels map[int32][]*p4v1.Update, stale []*p4v1.Update) {
	ruleDels = map[int32][]*p4v1.Update{}
	for _, d := range df.dels {
		if d.rank >= int32(df.c.rank[df.c.heartbeat.id]) {
			ruleDels[d.prio] = append(ruleDels[d.prio], d.u)
		} else {
			stale = append(stale, d.u)
		}
	}
	return ruleDels, stale
}

// addBatches appends the plan's batches in Diff's order.
func (df *differ) addBatches(plan *Plan, freeFirst []*p4v1.Update) {
	w := df.sortWrites()
	ruleDels, stale := df.sortDeletes()
	add := func(name string, us []*p4v1.Update) {
		if len(us) > 0 {
			plan.Batches = append(plan.Batches, Batch{name, us})
		}
	}
	add("delete to free capacity", freeFirst)
	add("value sets, filter ports and links", w.prep)
	add("filter groups into service", w.fgIn)
	add("slots", w.slots)
	add("balance groups", w.groups)
	if !df.admitted {
		add("heartbeats and flow rules", w.ruleLevels[0])
	} else {
		levels := slices.Sorted(maps.Keys(w.ruleLevels))
		for i := len(levels) - 1; i >= 0; i-- {
			add(fmt.Sprintf("rules at priority %d", levels[i]), w.ruleLevels[levels[i]])
		}
	}
	add("operator ports", w.admit)
	add("filter groups out of service", w.fgOut)
	add("value sets", updatesOf(df.vsFinal))
	add("delete operator ports", updatesOf(df.operatorDels))
	for _, p := range slices.Sorted(maps.Keys(ruleDels)) {
		add(fmt.Sprintf("delete rules at priority %d", p), ruleDels[p])
	}
	add("delete stale entries", stale)
}

// updatesOf returns the updates of us, in order.
func updatesOf(us []diffUpdate) []*p4v1.Update {
	var out []*p4v1.Update
	for _, u := range us {
		out = append(out, u.u)
	}
	return out
}

// isOperatorPort says whether e is a port role entry of a link's port (an
// entry that admits operator traffic).
func (c *Compiler) isOperatorPort(e *p4v1.Entity) bool {
	t := e.GetTableEntry()
	return t != nil && t.GetTableId() == c.portRole.id && t.GetAction().GetAction().GetActionId() == c.setOperatorPort.id
}

// unionMembers is a value set holding the members of both.
func unionMembers(a, b *p4v1.ValueSetEntry) *p4v1.ValueSetEntry {
	out := &p4v1.ValueSetEntry{ValueSetId: b.GetValueSetId()}
	seen := map[string]bool{}
	for _, v := range []*p4v1.ValueSetEntry{b, a} {
		for _, m := range v.GetMembers() {
			k := memberKey(m)
			if !seen[k] {
				seen[k] = true
				out.Members = append(out.Members, m)
			}
		}
	}
	return out
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

// sameAction compares two direct table actions with canonical parameter
// bytes (targets may answer zero-padded). Anything but a direct action is
// compared as a message.
func sameAction(a, b *p4v1.TableAction) bool {
	x, y := a.GetAction(), b.GetAction()
	if x == nil || y == nil {
		return proto.Equal(a, b)
	}
	if x.GetActionId() != y.GetActionId() || len(x.GetParams()) != len(y.GetParams()) {
		return false
	}
	for _, p := range x.GetParams() {
		found := false
		for _, q := range y.GetParams() {
			if q.GetParamId() == p.GetParamId() {
				found = bytes.Equal(trimView(p.GetValue()), trimView(q.GetValue()))
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// sameMembers compares value sets as sets of canonical member values.
func sameMembers(a, b *p4v1.ValueSetEntry) bool {
	set := func(v *p4v1.ValueSetEntry) []string {
		var out []string
		for _, m := range v.GetMembers() {
			out = append(out, memberKey(m))
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	return slices.Equal(set(a), set(b))
}

// memberKey is a value set member's canonical value.
func memberKey(m *p4v1.ValueSetMember) string {
	var s strings.Builder
	for _, fm := range m.GetMatch() {
		switch x := fm.GetFieldMatchType().(type) {
		case *p4v1.FieldMatch_Exact_:
			s.WriteString(hex.EncodeToString(trim(x.Exact.GetValue())))
		case *p4v1.FieldMatch_Ternary_:
			s.WriteString(hex.EncodeToString(trim(andBytes(x.Ternary.GetValue(), x.Ternary.GetMask()))) + "&" + hex.EncodeToString(trim(x.Ternary.GetMask())))
		}
		s.WriteByte(';')
	}
	return s.String()
}
