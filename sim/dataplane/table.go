package dataplane

import (
	"fmt"
	"math/bits"
	"slices"
	"sync/atomic"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
)

type field struct {
	id     uint32
	name   string
	width  int
	nbytes int
	kind   p4configv1.MatchField_MatchType
}

type param struct {
	id    uint32
	name  string
	width int
}

type action struct {
	id     uint32
	name   string
	params []param        // sorted by id
	pos    map[uint32]int // param id -> index in params
	kind   actKind        // meaning to the pipeline
	args   []int          // params read by the pipeline, in its order
}

// tableAction is an action with its argument values.
type tableAction struct {
	a    *action // nil: no action
	vals []u128  // by a.params; never modified once built
	dp   dpAction
}

// dpAction is what the pipeline reads from an entry: the action's meaning
// and its arguments in the pipeline's order.
type dpAction struct {
	kind actKind
	p    [6]uint32
}

func newTableAction(a *action, vals []u128) tableAction {
	ta := tableAction{a: a, vals: vals}
	if a != nil {
		ta.dp.kind = a.kind
		for i, j := range a.args {
			ta.dp.p[i] = uint32(vals[j].lo)
		}
	}
	return ta
}

// matchVal is one field of an entry's key, canonical. Exact and optional:
// a = value; ternary: a = value, b = mask; LPM: a = value, b.lo = prefix
// length; range: a = low, b = high. Absent (don't care): present false.
type matchVal struct {
	present bool
	a, b    u128
}

// counterCell is a packets-and-bytes counter.
type counterCell struct{ pkts, bytes atomic.Uint64 }

func (c *counterCell) add(n uint64) {
	c.pkts.Add(1)
	c.bytes.Add(n)
}

func (c *counterCell) set(pkts, bytes uint64) {
	c.pkts.Store(pkts)
	c.bytes.Store(bytes)
}

func (c *counterCell) get() (pkts, bytes uint64) { return c.pkts.Load(), c.bytes.Load() }

// entry is a table entry (or a table's default entry: no match).
type entry struct {
	key      string // identity within the table (see table.keyOf)
	prio     int32
	handle   int32 // BMv2-style handle: ties between equal priorities
	match    []matchVal
	act      tableAction
	ctrlMeta uint64
	meta     []byte
	idleNs   int64
	ctr      counterCell
	pos      int     // index in table.list
	rules    []*rule // tuple space placements
	// Idle timeout (tables with one): the data-plane clock's time of the
	// last hit (or of the insert or MODIFY), and of IdleEntries' last
	// report of the entry since (0: none).
	lastHit      atomic.Int64
	idleReported atomic.Int64
	// Inline storage for small keys and actions (slots: 2 fields, 2
	// params), saving two allocations per entry.
	inlMatch [2]matchVal
	inlVals  [3]u128
}

// own stores an entry's match and action values in the entry, copying
// them out of the writers' scratch buffers.
func (e *entry) own(match []matchVal, act tableAction) {
	if len(match) <= len(e.inlMatch) {
		e.match = append(e.inlMatch[:0:len(e.inlMatch)], match...)
	} else {
		e.match = slices.Clone(match)
	}
	if len(act.vals) <= len(e.inlVals) {
		act.vals = append(e.inlVals[:0:len(e.inlVals)], act.vals...)
	} else {
		act.vals = slices.Clone(act.vals)
	}
	e.act = act
}

type table struct {
	id           uint32
	name         string
	fields       []field // sorted by id
	fpos         map[uint32]int
	refs         map[uint32]p4configv1.ActionRef_Scope
	constDefault bool
	initDefault  tableAction
	size         int
	prioritized  bool
	direct       uint32 // direct counter id, 0: none
	directUnit   p4configv1.CounterSpec_Unit
	idle         bool
	constTable   bool

	entries map[string]*entry
	list    []*entry
	def     *entry
	handles handleSet
	dindex  *directIndex
	tss     *tss
	sidx    *sessIndex
}

func (d *Dataplane) newTable(pt *p4configv1.Table, directUnit map[uint32]p4configv1.CounterSpec_Unit) (*table, error) {
	t := &table{
		id:           pt.GetPreamble().GetId(),
		name:         pt.GetPreamble().GetName(),
		fpos:         map[uint32]int{},
		refs:         map[uint32]p4configv1.ActionRef_Scope{},
		constDefault: pt.GetConstDefaultActionId() != 0,
		size:         int(pt.GetSize()),
		idle:         pt.GetIdleTimeoutBehavior() != p4configv1.Table_NO_TIMEOUT,
		constTable:   pt.GetIsConstTable(),
	}
	for _, mf := range pt.GetMatchFields() {
		f := field{id: mf.GetId(), name: mf.GetName(), width: int(mf.GetBitwidth()), kind: mf.GetMatchType()}
		if f.width <= 0 || f.width > maxBits {
			return nil, fmt.Errorf("table %q: match field %q: width %d not supported (1..%d)", t.name, f.name, f.width, maxBits)
		}
		switch f.kind {
		case p4configv1.MatchField_EXACT, p4configv1.MatchField_LPM:
		case p4configv1.MatchField_TERNARY, p4configv1.MatchField_RANGE, p4configv1.MatchField_OPTIONAL:
			t.prioritized = true
		default:
			return nil, fmt.Errorf("table %q: match field %q: match type %v not supported", t.name, f.name, f.kind)
		}
		f.nbytes = byteWidth(f.width)
		t.fields = append(t.fields, f)
	}
	slices.SortFunc(t.fields, func(x, y field) int { return cmpU32(x.id, y.id) })
	for i, f := range t.fields {
		if _, dup := t.fpos[f.id]; dup {
			return nil, fmt.Errorf("table %q: duplicate match field id %d", t.name, f.id)
		}
		t.fpos[f.id] = i
	}
	for _, ar := range pt.GetActionRefs() {
		if d.actionByID[ar.GetId()] == nil {
			return nil, fmt.Errorf("table %q: unknown action id %#x", t.name, ar.GetId())
		}
		t.refs[ar.GetId()] = ar.GetScope()
	}
	for _, id := range pt.GetDirectResourceIds() {
		if u, ok := directUnit[id]; ok {
			t.direct, t.directUnit = id, u
		}
	}
	if t.size < 0 {
		t.size = 0
	}
	// The default action: the P4Info's initial default, else its const
	// default, else the program's (initialDefaults), else none.
	switch ida := pt.GetInitialDefaultAction(); {
	case ida != nil:
		a := d.actionByID[ida.GetActionId()]
		if a == nil {
			return nil, fmt.Errorf("table %q: initial default action %#x unknown", t.name, ida.GetActionId())
		}
		vals := make([]u128, len(a.params))
		seen := 0
		for _, arg := range ida.GetArguments() {
			i, ok := a.pos[arg.GetParamId()]
			if !ok {
				return nil, fmt.Errorf("table %q: initial default action %q: unknown param %d", t.name, a.name, arg.GetParamId())
			}
			v, err := decodeBytes(arg.GetValue(), a.params[i].width)
			if err != nil {
				return nil, fmt.Errorf("table %q: initial default action %q param %q: %w", t.name, a.name, a.params[i].name, err)
			}
			vals[i] = v
			seen++
		}
		if seen != len(a.params) {
			return nil, fmt.Errorf("table %q: initial default action %q: %d of %d params", t.name, a.name, seen, len(a.params))
		}
		t.initDefault = newTableAction(a, vals)
	case t.constDefault:
		a := d.actionByID[pt.GetConstDefaultActionId()]
		if a == nil {
			return nil, fmt.Errorf("table %q: const default action %#x unknown", t.name, pt.GetConstDefaultActionId())
		}
		if len(a.params) > 0 {
			return nil, fmt.Errorf("table %q: const default action %q has parameters the P4Info does not give", t.name, a.name)
		}
		t.initDefault = newTableAction(a, nil)
	default:
		if name, ok := initialDefaults[t.name]; ok {
			sa, err := d.schema.Action(name)
			if err != nil {
				return nil, fmt.Errorf("table %q: default action: %w", t.name, err)
			}
			a := d.actionByID[sa.GetPreamble().GetId()]
			if len(a.params) > 0 {
				return nil, fmt.Errorf("table %q: default action %q has parameters", t.name, a.name)
			}
			t.initDefault = newTableAction(a, nil)
		}
	}
	return t, nil
}

// reset empties the table and restores its default entry.
func (t *table) reset() {
	t.entries = make(map[string]*entry)
	t.list = nil
	t.def = &entry{key: "default", act: t.initDefault}
	t.handles = handleSet{}
	if t.dindex != nil {
		t.dindex.clear()
	}
	if t.tss != nil {
		t.tss.clear()
	}
	if t.sidx != nil {
		t.sidx.clear()
	}
}

// add puts a new entry in the store and the lookup index. e.handle must be
// set by the caller (allocHandle, or the entry's old handle on rollback).
func (t *table) add(e *entry) {
	t.entries[e.key] = e
	e.pos = len(t.list)
	t.list = append(t.list, e)
	if t.prioritized {
		t.handles.take(int(e.handle))
	}
	switch {
	case t.dindex != nil:
		t.dindex.set(t.dindex.index(e), e)
	case t.tss != nil:
		t.tss.add(e)
	case t.sidx != nil:
		t.sidx.put(t.sidx.keyOf(e), e)
	}
}

// del removes an entry from the store and the lookup index.
func (t *table) del(e *entry) {
	delete(t.entries, e.key)
	last := t.list[len(t.list)-1]
	t.list[e.pos] = last
	last.pos = e.pos
	t.list[len(t.list)-1] = nil
	t.list = t.list[:len(t.list)-1]
	if t.prioritized {
		t.handles.free(int(e.handle))
	}
	switch {
	case t.dindex != nil:
		t.dindex.set(t.dindex.index(e), nil)
	case t.tss != nil:
		t.tss.remove(e)
	case t.sidx != nil:
		t.sidx.del(t.sidx.keyOf(e))
	}
}

func (t *table) allocHandle() int32 {
	if !t.prioritized {
		return 0
	}
	return int32(t.handles.lowestFree())
}

// lookup returns the entry of a key (appendKey of match), or nil: by the
// direct index in a table that has one (an all-exact table: the match is
// the whole identity), saving a string hash and a map probe per write.
func (t *table) lookup(key []byte, match []matchVal) *entry {
	if t.dindex != nil {
		return t.dindex.get(t.dindex.indexOf(match))
	}
	return t.entries[string(key)]
}

// fieldPos is the position of match field id in t.fields: a scan of the
// few fields (sorted by id) is cheaper than the map for a handful.
func (t *table) fieldPos(id uint32) (int, bool) {
	if len(t.fields) > 8 {
		i, ok := t.fpos[id]
		return i, ok
	}
	for i := range t.fields {
		if t.fields[i].id == id {
			return i, true
		}
	}
	return 0, false
}

// paramPos is the position of param id in a.params (as fieldPos; the
// last of equal ids, as a.pos holds).
func (a *action) paramPos(id uint32) (int, bool) {
	if len(a.params) > 8 {
		i, ok := a.pos[id]
		return i, ok
	}
	for i := len(a.params) - 1; i >= 0; i-- {
		if a.params[i].id == id {
			return i, true
		}
	}
	return 0, false
}

// lookupExact returns the entry at a direct index, or nil.
func (t *table) lookupExact(i uint32) *entry { return t.dindex.get(i) }

// handleSet allocates the lowest free handle, like BMv2's HandleMgr; BMv2
// breaks ties between ternary entries of equal priority by lowest handle.
type handleSet struct{ words []uint64 }

func (h *handleSet) lowestFree() int {
	for i, w := range h.words {
		if w != ^uint64(0) {
			return i*64 + bits.TrailingZeros64(^w)
		}
	}
	return len(h.words) * 64
}

func (h *handleSet) take(n int) {
	for n/64 >= len(h.words) {
		h.words = append(h.words, 0)
	}
	h.words[n/64] |= 1 << uint(n%64)
}

func (h *handleSet) free(n int) {
	if n/64 < len(h.words) {
		h.words[n/64] &^= 1 << uint(n%64)
	}
}

// directIndex finds the entry of an all-exact table by the concatenation
// of its key fields (at most 24 bits): pages of up to 2^16 entries,
// allocated on first use.
type directIndex struct {
	order    []int  // field positions, most significant first
	widths   []uint // their widths
	pageBits uint
	pages    [][]*entry
}

func (t *table) useDirectIndex(names []string) error {
	x := &directIndex{}
	total := uint(0)
	for _, n := range names {
		pos := -1
		for i, f := range t.fields {
			if f.name == n {
				pos = i
			}
		}
		if pos < 0 {
			return fmt.Errorf("table %q: no match field %q", t.name, n)
		}
		f := t.fields[pos]
		if f.kind != p4configv1.MatchField_EXACT {
			return fmt.Errorf("table %q: match field %q is %v, the pipeline expects exact", t.name, n, f.kind)
		}
		x.order = append(x.order, pos)
		x.widths = append(x.widths, uint(f.width))
		total += uint(f.width)
	}
	if len(names) != len(t.fields) {
		return fmt.Errorf("table %q: %d match fields, the pipeline expects %d", t.name, len(t.fields), len(names))
	}
	if total > 24 {
		return fmt.Errorf("table %q: %d key bits, the direct index holds at most 24", t.name, total)
	}
	x.pageBits = min(total, 16)
	x.pages = make([][]*entry, 1<<(total-x.pageBits))
	t.dindex = x
	return nil
}

func (x *directIndex) clear() {
	for i := range x.pages {
		x.pages[i] = nil
	}
}

// index is the concatenation of an entry's key fields.
func (x *directIndex) index(e *entry) uint32 { return x.indexOf(e.match) }

// indexOf is the concatenation of a match's key fields (canonical: each
// within its width).
func (x *directIndex) indexOf(match []matchVal) uint32 {
	var i uint32
	for k, pos := range x.order {
		i = i<<x.widths[k] | uint32(match[pos].a.lo)
	}
	return i
}

// index2 is the index of a two-field key.
func (x *directIndex) index2(a, b uint32) uint32 { return a<<x.widths[1] | b }

func (x *directIndex) get(i uint32) *entry {
	p := i >> x.pageBits
	if p >= uint32(len(x.pages)) {
		return nil
	}
	page := x.pages[p]
	if page == nil {
		return nil
	}
	return page[i&(1<<x.pageBits-1)]
}

func (x *directIndex) set(i uint32, e *entry) {
	p := i >> x.pageBits
	if x.pages[p] == nil {
		if e == nil {
			return
		}
		x.pages[p] = make([]*entry, 1<<x.pageBits)
	}
	x.pages[p][i&(1<<x.pageBits-1)] = e
}
