package dataplane

import (
	"bytes"
	"fmt"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

// Read answers a P4Runtime read. Each entity is a query, with the spec's
// wildcards:
//   - TableEntry: table_id 0 = every entry of every table; a table_id
//     without match = its entries (filtered by priority, action id,
//     controller_metadata, metadata when set); with match = that entry;
//     is_default_action = the table's default entry. counter_data set
//     returns each entry's direct counter.
//   - ValueSetEntry: value_set_id 0 = every value set.
//   - CounterEntry: counter_id 0 = every cell of every counter; index
//     unset = every cell of the counter.
//   - DirectCounterEntry: no table entry or table_id 0 = every entry of
//     every table with a direct counter; a table without match = its
//     entries; with match (or is_default_action) = that entry (NOT_FOUND
//     when it does not exist).
//
// Every query is checked first: an invalid one makes Read return its
// error (naming its index) and yield nothing. The state is copied under
// the shared lock and the entities are built and yielded after it is
// released, so a slow consumer never holds up writes or packets. Each
// yielded entity is new and belongs to the consumer. Read stops early when
// yield returns false.
//
// A read that would return more than ReadLimit entities fails with
// ErrResourceExhausted, naming the limit, having copied at most one
// query's worth beyond it.
func (d *Dataplane) Read(entities []*p4v1.Entity, yield func(*p4v1.Entity) bool) error {
	if len(entities) > d.readLimit {
		return errf(ErrResourceExhausted, "read of %d queries: one read takes at most %d (the read limit): split the request", len(entities), d.readLimit)
	}
	var snaps []snap
	d.mu.RLock()
	for i, q := range entities {
		var err error
		if snaps, err = d.snapshot(q, snaps); err != nil {
			d.mu.RUnlock()
			return fmt.Errorf("read entity %d: %w", i, err)
		}
		if len(snaps) > d.readLimit {
			d.mu.RUnlock()
			return errf(ErrResourceExhausted, "read entity %d: the first %d queries match more than %d entities, the most one read returns (the read limit, the whole state once): split the request", i, i+1, d.readLimit)
		}
	}
	d.mu.RUnlock()
	for i := range snaps {
		if !yield(snaps[i].entity()) {
			return nil
		}
	}
	return nil
}

type snapKind uint8

const (
	snapTable snapKind = iota
	snapDirect
	snapValueSet
	snapCounter
)

// snap is a copy of one entity's state, taken under the lock. The slices
// it refers to are never modified once built (writes replace them).
type snap struct {
	kind      snapKind
	t         *table
	prio      int32
	match     []matchVal
	act       tableAction
	ctrlMeta  uint64
	meta      []byte
	idleNs    int64
	isDefault bool
	withCtr   bool
	// sinceHit is the entry's time since its last hit, for a read that
	// asks (time_since_last_hit set, a table with idle timeout); -1: not
	// asked.
	sinceHit   int64
	lastHit    int64
	pkts, byts uint64
	vs         *valueSet
	members    []vsMember
	c          *counterArray
	index      int
}

func (d *Dataplane) snapshot(q *p4v1.Entity, out []snap) ([]snap, error) {
	switch x := q.GetEntity().(type) {
	case *p4v1.Entity_TableEntry:
		n := len(out)
		out, err := d.snapTableEntries(x.TableEntry, out)
		if err == nil && x.TableEntry.GetTimeSinceLastHit() != nil {
			// Each entry of a table with idle timeout with its time since
			// its last hit (P4Runtime: time_since_last_hit set in the read).
			now := int64(d.now())
			for i := n; i < len(out); i++ {
				if s := &out[i]; s.t.idle && !s.isDefault {
					s.sinceHit = max(0, now-s.lastHit)
				}
			}
		}
		return out, err
	case *p4v1.Entity_ValueSetEntry:
		return d.snapValueSets(x.ValueSetEntry, out)
	case *p4v1.Entity_CounterEntry:
		return d.snapCounters(x.CounterEntry, out)
	case *p4v1.Entity_DirectCounterEntry:
		return d.snapDirect(x.DirectCounterEntry, out)
	case nil:
		return out, errf(ErrInvalidArgument, "entity not set")
	default:
		return out, errf(ErrUnimplemented, "%s entities", entityKind(x))
	}
}

func entrySnap(kind snapKind, t *table, e *entry, isDefault, withCtr bool) snap {
	s := snap{kind: kind, t: t, prio: e.prio, match: e.match, act: e.act, ctrlMeta: e.ctrlMeta, meta: e.meta,
		idleNs: e.idleNs, isDefault: isDefault, withCtr: withCtr && t.direct != 0, sinceHit: -1, lastHit: e.lastHit.Load()}
	if s.withCtr || kind == snapDirect {
		s.pkts, s.byts = e.ctr.get()
	}
	return s
}

func (d *Dataplane) snapTableEntries(q *p4v1.TableEntry, out []snap) ([]snap, error) {
	if q == nil {
		return out, errf(ErrInvalidArgument, "nil table entry")
	}
	withCtr := q.GetCounterData() != nil
	if q.GetTableId() == 0 {
		for _, t := range d.tables {
			for _, e := range t.list {
				out = append(out, entrySnap(snapTable, t, e, false, withCtr))
			}
		}
		return out, nil
	}
	t, err := d.table(q.GetTableId())
	if err != nil {
		return out, err
	}
	if q.GetIsDefaultAction() {
		if len(q.GetMatch()) > 0 {
			return out, errf(ErrInvalidArgument, "table %q: the default entry has no match", t.name)
		}
		return append(out, entrySnap(snapTable, t, t.def, true, withCtr)), nil
	}
	if len(q.GetMatch()) > 0 {
		match, err := t.parseMatch(q.GetMatch())
		if err != nil {
			return out, err
		}
		if err := t.checkPriority(q.GetPriority()); err != nil {
			return out, err
		}
		var buf [256]byte
		if e := t.entries[string(appendKey(buf[:0], t, q.GetPriority(), match))]; e != nil {
			out = append(out, entrySnap(snapTable, t, e, false, withCtr))
		}
		return out, nil
	}
	var actionID uint32
	if a := q.GetAction(); a != nil {
		actionID = a.GetAction().GetActionId()
	}
	for _, e := range t.list {
		switch {
		case q.GetPriority() != 0 && e.prio != q.GetPriority():
		case actionID != 0 && (e.act.a == nil || e.act.a.id != actionID):
		case q.GetControllerMetadata() != 0 && e.ctrlMeta != q.GetControllerMetadata():
		case len(q.GetMetadata()) > 0 && !bytes.Equal(e.meta, q.GetMetadata()):
		default:
			out = append(out, entrySnap(snapTable, t, e, false, withCtr))
		}
	}
	return out, nil
}

func (d *Dataplane) snapValueSets(q *p4v1.ValueSetEntry, out []snap) ([]snap, error) {
	if q == nil {
		return out, errf(ErrInvalidArgument, "nil value set entry")
	}
	if q.GetValueSetId() == 0 {
		for _, vs := range d.valueSets {
			out = append(out, snap{kind: snapValueSet, vs: vs, members: vs.members})
		}
		return out, nil
	}
	vs := d.vsByID[q.GetValueSetId()]
	if vs == nil {
		return out, errf(ErrInvalidArgument, "unknown value set id %#x", q.GetValueSetId())
	}
	return append(out, snap{kind: snapValueSet, vs: vs, members: vs.members}), nil
}

func (d *Dataplane) snapCounters(q *p4v1.CounterEntry, out []snap) ([]snap, error) {
	if q == nil {
		return out, errf(ErrInvalidArgument, "nil counter entry")
	}
	cells := func(c *counterArray, lo, hi int) {
		for i := lo; i < hi; i++ {
			p, b := c.cells[i].get()
			out = append(out, snap{kind: snapCounter, c: c, index: i, pkts: p, byts: b})
		}
	}
	if q.GetCounterId() == 0 {
		for _, c := range d.counters {
			cells(c, 0, len(c.cells))
		}
		return out, nil
	}
	c := d.counterByID[q.GetCounterId()]
	if c == nil {
		return out, errf(ErrInvalidArgument, "unknown counter id %#x", q.GetCounterId())
	}
	lo, hi, err := c.cellRange(q.GetIndex())
	if err != nil {
		return out, err
	}
	cells(c, lo, hi)
	return out, nil
}

func (d *Dataplane) snapDirect(q *p4v1.DirectCounterEntry, out []snap) ([]snap, error) {
	if q == nil {
		return out, errf(ErrInvalidArgument, "nil direct counter entry")
	}
	te := q.GetTableEntry()
	if te.GetTableId() == 0 {
		for _, t := range d.tables {
			if t.direct == 0 {
				continue
			}
			for _, e := range t.list {
				out = append(out, entrySnap(snapDirect, t, e, false, true))
			}
		}
		return out, nil
	}
	if !te.GetIsDefaultAction() && len(te.GetMatch()) == 0 {
		t, err := d.table(te.GetTableId())
		if err != nil {
			return out, err
		}
		if t.direct == 0 {
			return out, errf(ErrInvalidArgument, "table %q has no direct counter", t.name)
		}
		for _, e := range t.list {
			out = append(out, entrySnap(snapDirect, t, e, false, true))
		}
		return out, nil
	}
	var buf [256]byte
	e, t, err := d.directEntry(te, buf[:0])
	if err != nil {
		return out, err
	}
	return append(out, entrySnap(snapDirect, t, e, te.GetIsDefaultAction(), true)), nil
}

// entity builds the P4Runtime entity of a snapshot.
func (s *snap) entity() *p4v1.Entity {
	switch s.kind {
	case snapTable:
		te := s.tableEntry()
		te.Action = s.act.proto()
		te.ControllerMetadata = s.ctrlMeta
		te.Metadata = bytes.Clone(s.meta)
		te.IdleTimeoutNs = s.idleNs
		if s.sinceHit >= 0 {
			te.TimeSinceLastHit = &p4v1.TableEntry_IdleTimeout{ElapsedNs: s.sinceHit}
		}
		te.IsConst = s.isDefault && s.t.constDefault
		if s.withCtr {
			te.CounterData = s.t.counterData(s.pkts, s.byts)
		}
		return &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: te}}
	case snapDirect:
		return &p4v1.Entity{Entity: &p4v1.Entity_DirectCounterEntry{DirectCounterEntry: &p4v1.DirectCounterEntry{
			TableEntry: s.tableEntry(),
			Data:       s.t.counterData(s.pkts, s.byts),
		}}}
	case snapValueSet:
		ve := &p4v1.ValueSetEntry{ValueSetId: s.vs.id}
		for _, m := range s.members {
			fm := &p4v1.FieldMatch{FieldId: s.vs.fieldID}
			if s.vs.kind == p4configv1.MatchField_TERNARY {
				fm.FieldMatchType = &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{Value: m.v.canonical(), Mask: m.m.canonical()}}
			} else {
				fm.FieldMatchType = &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: m.v.canonical()}}
			}
			ve.Members = append(ve.Members, &p4v1.ValueSetMember{Match: []*p4v1.FieldMatch{fm}})
		}
		return &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: ve}}
	default: // snapCounter
		return &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{
			CounterId: s.c.id,
			Index:     &p4v1.Index{Index: int64(s.index)},
			Data:      counterData(s.c.unit, s.pkts, s.byts),
		}}}
	}
}

// tableEntry builds the identity part of a table entry: table, canonical
// matches by field id, priority, default flag.
func (s *snap) tableEntry() *p4v1.TableEntry {
	te := &p4v1.TableEntry{TableId: s.t.id, Priority: s.prio, IsDefaultAction: s.isDefault}
	for i, m := range s.match {
		if !m.present {
			continue
		}
		f := &s.t.fields[i]
		fm := &p4v1.FieldMatch{FieldId: f.id}
		switch f.kind {
		case p4configv1.MatchField_EXACT:
			fm.FieldMatchType = &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: m.a.canonical()}}
		case p4configv1.MatchField_TERNARY:
			fm.FieldMatchType = &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{Value: m.a.canonical(), Mask: m.b.canonical()}}
		case p4configv1.MatchField_LPM:
			fm.FieldMatchType = &p4v1.FieldMatch_Lpm{Lpm: &p4v1.FieldMatch_LPM{Value: m.a.canonical(), PrefixLen: int32(m.b.lo)}}
		case p4configv1.MatchField_RANGE:
			fm.FieldMatchType = &p4v1.FieldMatch_Range_{Range: &p4v1.FieldMatch_Range{Low: m.a.canonical(), High: m.b.canonical()}}
		case p4configv1.MatchField_OPTIONAL:
			fm.FieldMatchType = &p4v1.FieldMatch_Optional_{Optional: &p4v1.FieldMatch_Optional{Value: m.a.canonical()}}
		}
		te.Match = append(te.Match, fm)
	}
	return te
}

func (ta tableAction) proto() *p4v1.TableAction {
	if ta.a == nil {
		return nil
	}
	pa := &p4v1.Action{ActionId: ta.a.id}
	for i, p := range ta.a.params {
		pa.Params = append(pa.Params, &p4v1.Action_Param{ParamId: p.id, Value: ta.vals[i].canonical()})
	}
	return &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: pa}}
}

func (t *table) counterData(pkts, byts uint64) *p4v1.CounterData {
	return counterData(t.directUnit, pkts, byts)
}

func counterData(unit p4configv1.CounterSpec_Unit, pkts, byts uint64) *p4v1.CounterData {
	cd := &p4v1.CounterData{}
	if unit != p4configv1.CounterSpec_PACKETS {
		cd.ByteCount = int64(byts)
	}
	if unit != p4configv1.CounterSpec_BYTES {
		cd.PacketCount = int64(pkts)
	}
	return cd
}
