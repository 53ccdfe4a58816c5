package dataplane

import (
	"bytes"
	"fmt"
	"slices"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

func errf(sentinel error, format string, a ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, a...), sentinel)
}

// Write applies a batch of updates and returns one error (or nil) per
// update, in order. The whole batch runs under the exclusive lock: no
// packet sees part of it.
//
// CONTINUE_ON_ERROR applies every update that is valid on its own.
// ROLLBACK_ON_ERROR and DATAPLANE_ATOMIC apply all or nothing: every update
// is attempted (so all failing ones are reported); if any fails, the
// applied ones are undone in reverse order, and each update that did not
// fail itself reports ErrAborted.
func (d *Dataplane) Write(updates []*p4v1.Update, atomicity p4v1.WriteRequest_Atomicity) []error {
	errs := make([]error, len(updates))
	if len(updates) == 0 {
		return errs
	}
	atomic := false
	switch atomicity {
	case p4v1.WriteRequest_CONTINUE_ON_ERROR:
	case p4v1.WriteRequest_ROLLBACK_ON_ERROR, p4v1.WriteRequest_DATAPLANE_ATOMIC:
		atomic = true
	default:
		err := errf(ErrUnimplemented, "atomicity %v", atomicity)
		for i := range errs {
			errs[i] = err
		}
		return errs
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var log *undoLog
	if atomic {
		log = &d.undo
		log.ops = log.ops[:0]
	}
	failed := -1
	for i, u := range updates {
		if err := d.update(u, log); err != nil {
			errs[i] = err
			if failed < 0 {
				failed = i
			}
		}
	}
	if atomic {
		if failed >= 0 {
			log.rollback()
			for i := range errs {
				if errs[i] == nil {
					errs[i] = errf(ErrAborted, "not applied: update %d of the batch failed, the batch was rolled back", failed)
				}
			}
		}
		clear(log.ops)
		log.ops = log.ops[:0]
	}
	d.finish()
	return errs
}

// scratchMatch is the writers' match buffer (exclusive lock held).
func (d *Dataplane) scratchMatch(n int) []matchVal {
	if cap(d.matchBuf) < n {
		d.matchBuf = make([]matchVal, n)
	}
	return d.matchBuf[:n]
}

// finish puts the lookup structures in order after a batch.
func (d *Dataplane) finish() {
	for _, t := range d.tables {
		if t.tss != nil {
			t.tss.finish()
		}
	}
}

func (d *Dataplane) update(u *p4v1.Update, log *undoLog) error {
	if u == nil {
		return errf(ErrInvalidArgument, "nil update")
	}
	typ := u.GetType()
	switch typ {
	case p4v1.Update_INSERT, p4v1.Update_MODIFY, p4v1.Update_DELETE:
	default:
		return errf(ErrInvalidArgument, "update type %v", typ)
	}
	switch x := u.GetEntity().GetEntity().(type) {
	case *p4v1.Entity_TableEntry:
		return d.writeTableEntry(typ, x.TableEntry, log)
	case *p4v1.Entity_ValueSetEntry:
		return d.writeValueSet(typ, x.ValueSetEntry, log)
	case *p4v1.Entity_CounterEntry:
		return d.writeCounter(typ, x.CounterEntry, log)
	case *p4v1.Entity_DirectCounterEntry:
		return d.writeDirectCounter(typ, x.DirectCounterEntry, log)
	case *p4v1.Entity_RegisterEntry:
		return d.writeRegister(typ, x.RegisterEntry, log)
	case nil:
		return errf(ErrInvalidArgument, "update without an entity")
	default:
		return errf(ErrUnimplemented, "%s entities", entityKind(x))
	}
}

func entityKind(x any) string {
	switch x.(type) {
	case *p4v1.Entity_ExternEntry:
		return "extern"
	case *p4v1.Entity_ActionProfileMember:
		return "action profile member"
	case *p4v1.Entity_ActionProfileGroup:
		return "action profile group"
	case *p4v1.Entity_MeterEntry:
		return "meter"
	case *p4v1.Entity_DirectMeterEntry:
		return "direct meter"
	case *p4v1.Entity_PacketReplicationEngineEntry:
		return "packet replication engine"
	case *p4v1.Entity_RegisterEntry:
		return "register"
	case *p4v1.Entity_DigestEntry:
		return "digest"
	}
	return fmt.Sprintf("%T", x)
}

func (d *Dataplane) table(id uint32) (*table, error) {
	t := d.tableByID[id]
	if t == nil {
		return nil, errf(ErrInvalidArgument, "unknown table id %#x", id)
	}
	return t, nil
}

func (d *Dataplane) writeTableEntry(typ p4v1.Update_Type, te *p4v1.TableEntry, log *undoLog) error {
	if te == nil {
		return errf(ErrInvalidArgument, "nil table entry")
	}
	t, err := d.table(te.GetTableId())
	if err != nil {
		return err
	}
	if te.GetIsConst() {
		return errf(ErrInvalidArgument, "table %q: is_const must be false in a write", t.name)
	}
	if te.GetIsDefaultAction() {
		return d.writeDefault(typ, t, te, log)
	}
	if t.constTable && !(typ == p4v1.Update_MODIFY && te.GetAction() == nil) {
		return errf(ErrPermissionDenied, "table %q has const entries", t.name)
	}
	if len(t.fields) == 0 && typ == p4v1.Update_INSERT {
		return errf(ErrInvalidArgument, "table %q is keyless: only its default entry can be written", t.name)
	}
	match, err := t.parseMatchInto(te.GetMatch(), d.scratchMatch(len(t.fields)))
	if err != nil {
		return err
	}
	prio := te.GetPriority()
	if err := t.checkPriority(prio); err != nil {
		return err
	}
	key := d.keyOf(t, prio, match)

	if typ == p4v1.Update_DELETE {
		e := t.lookup(key, match)
		if e == nil {
			return errf(ErrNotFound, "table %q: no entry %s", t.name, t.describe(prio, match))
		}
		t.del(e)
		log.deleted(t, e)
		return nil
	}

	var act tableAction
	hasAction := te.GetAction() != nil
	if hasAction {
		if act, err = d.parseAction(t, te.GetAction(), false, d.valsBuf[:0]); err != nil {
			return err
		}
	} else if typ == p4v1.Update_INSERT {
		return errf(ErrInvalidArgument, "table %q: insert without an action", t.name)
	}
	if err := t.checkResources(te); err != nil {
		return err
	}
	if typ == p4v1.Update_INSERT {
		if t.lookup(key, match) != nil {
			return errf(ErrAlreadyExists, "table %q: entry %s exists", t.name, t.describe(prio, match))
		}
		if len(t.list) >= t.size {
			return errf(ErrResourceExhausted, "table %q: full (%d entries)", t.name, t.size)
		}
		e := &entry{
			key: string(key), prio: prio,
			ctrlMeta: te.GetControllerMetadata(), meta: bytes.Clone(te.GetMetadata()), idleNs: te.GetIdleTimeoutNs(),
		}
		e.own(match, act)
		e.lastHit.Store(int64(d.now()))
		if cd := te.GetCounterData(); cd != nil {
			e.ctr.set(uint64(cd.GetPacketCount()), uint64(cd.GetByteCount()))
		}
		e.handle = t.allocHandle()
		t.add(e)
		log.inserted(t, e)
		return nil
	}
	// MODIFY.
	e := t.lookup(key, match)
	if e == nil {
		return errf(ErrNotFound, "table %q: no entry %s", t.name, t.describe(prio, match))
	}
	log.modified(e)
	if hasAction {
		// Full snapshot: the action and the entry's other fields. With the
		// action unset only direct resources change (spec: "Action
		// Specification").
		act.vals = slices.Clone(act.vals) // the old ones may be in a snapshot or the undo log
		e.act = act
		e.ctrlMeta, e.meta, e.idleNs = te.GetControllerMetadata(), bytes.Clone(te.GetMetadata()), te.GetIdleTimeoutNs()
		// A new idle timeout counts from now (BMv2 restarts the entry's
		// ageing when its TTL is set).
		e.touch(int64(d.now()))
	}
	if cd := te.GetCounterData(); cd != nil {
		e.ctr.set(uint64(cd.GetPacketCount()), uint64(cd.GetByteCount()))
	}
	return nil
}

func (d *Dataplane) writeDefault(typ p4v1.Update_Type, t *table, te *p4v1.TableEntry, log *undoLog) error {
	if len(te.GetMatch()) > 0 || te.GetPriority() != 0 {
		return errf(ErrInvalidArgument, "table %q: the default entry has no match and priority 0", t.name)
	}
	if typ != p4v1.Update_MODIFY {
		return errf(ErrInvalidArgument, "table %q: the default entry can only be modified (got %v)", t.name, typ)
	}
	if te.GetIdleTimeoutNs() != 0 || te.GetTimeSinceLastHit() != nil {
		return errf(ErrInvalidArgument, "table %q: the default entry has no idle timeout", t.name)
	}
	if t.constDefault {
		return errf(ErrPermissionDenied, "table %q: the default action is const", t.name)
	}
	if err := t.checkResources(te); err != nil {
		return err
	}
	e := t.def
	if te.GetAction() == nil {
		// Reset to the program's default, with its metadata and direct
		// resources.
		log.modified(e)
		e.act, e.ctrlMeta, e.meta = t.initDefault, 0, nil
		e.ctr.set(0, 0)
		return nil
	}
	act, err := d.parseAction(t, te.GetAction(), true, nil)
	if err != nil {
		return err
	}
	log.modified(e)
	e.act = act
	e.ctrlMeta, e.meta = te.GetControllerMetadata(), bytes.Clone(te.GetMetadata())
	if cd := te.GetCounterData(); cd != nil {
		e.ctr.set(uint64(cd.GetPacketCount()), uint64(cd.GetByteCount()))
	}
	return nil
}

// checkResources validates the direct resource and idle-timeout fields.
func (t *table) checkResources(te *p4v1.TableEntry) error {
	if te.GetMeterConfig() != nil || te.GetMeterCounterData() != nil {
		return errf(ErrInvalidArgument, "table %q has no direct meter", t.name)
	}
	if cd := te.GetCounterData(); cd != nil {
		if t.direct == 0 {
			return errf(ErrInvalidArgument, "table %q has no direct counter", t.name)
		}
		if cd.GetPacketCount() < 0 || cd.GetByteCount() < 0 {
			return errf(ErrInvalidArgument, "table %q: negative counter data", t.name)
		}
	}
	if te.GetTimeSinceLastHit() != nil {
		return errf(ErrInvalidArgument, "table %q: time_since_last_hit must be unset in a write", t.name)
	}
	if te.GetIdleTimeoutNs() != 0 && !t.idle {
		return errf(ErrInvalidArgument, "table %q does not support idle timeout", t.name)
	}
	if te.GetIdleTimeoutNs() < 0 {
		return errf(ErrInvalidArgument, "table %q: negative idle timeout", t.name)
	}
	return nil
}

func (t *table) checkPriority(prio int32) error {
	switch {
	case t.prioritized && prio <= 0:
		return errf(ErrInvalidArgument, "table %q: priority %d, entries of a ternary/range table need a priority > 0", t.name, prio)
	case !t.prioritized && prio != 0:
		return errf(ErrInvalidArgument, "table %q: priority %d, entries of an exact/LPM table have priority 0", t.name, prio)
	}
	return nil
}

// parseAction validates a table action (spec "Action Specification").
// The values go into buf when it has room (writers' scratch), else into a
// new slice.
func (d *Dataplane) parseAction(t *table, ta *p4v1.TableAction, isDefault bool, buf []u128) (tableAction, error) {
	var pa *p4v1.Action
	switch x := ta.GetType().(type) {
	case *p4v1.TableAction_Action:
		pa = x.Action
	case nil:
		return tableAction{}, errf(ErrInvalidArgument, "table %q: action not set", t.name)
	default:
		return tableAction{}, errf(ErrInvalidArgument, "table %q: has no action profile, got %T", t.name, x)
	}
	if pa == nil {
		return tableAction{}, errf(ErrInvalidArgument, "table %q: action not set", t.name)
	}
	a := d.actionByID[pa.GetActionId()]
	scope, ok := t.refs[pa.GetActionId()]
	if a == nil || !ok {
		return tableAction{}, errf(ErrInvalidArgument, "table %q: action id %#x is not an action of the table", t.name, pa.GetActionId())
	}
	switch {
	case !isDefault && scope == p4configv1.ActionRef_DEFAULT_ONLY:
		return tableAction{}, errf(ErrPermissionDenied, "table %q: action %q is @defaultonly", t.name, a.name)
	case isDefault && scope == p4configv1.ActionRef_TABLE_ONLY:
		return tableAction{}, errf(ErrPermissionDenied, "table %q: action %q is @tableonly", t.name, a.name)
	}
	var vals []u128
	if cap(buf) >= len(a.params) {
		vals = buf[:len(a.params)]
		clear(vals)
	} else {
		vals = make([]u128, len(a.params))
	}
	var seen [maxParams]bool
	if len(a.params) > maxParams {
		return tableAction{}, errf(ErrUnimplemented, "action %q: more than %d params", a.name, maxParams)
	}
	for _, p := range pa.GetParams() {
		if p == nil {
			return tableAction{}, errf(ErrInvalidArgument, "table %q: action %q: nil param", t.name, a.name)
		}
		j, ok := a.paramPos(p.GetParamId())
		if !ok {
			return tableAction{}, errf(ErrInvalidArgument, "table %q: action %q: unknown param id %d", t.name, a.name, p.GetParamId())
		}
		if seen[j] {
			return tableAction{}, errf(ErrInvalidArgument, "table %q: action %q: param %d (%s) given twice", t.name, a.name, p.GetParamId(), a.params[j].name)
		}
		seen[j] = true
		v, err := decodeBytes(p.GetValue(), a.params[j].width)
		if err != nil {
			return tableAction{}, errf(valueErr(err), "table %q: action %q: param %d (%s): %v", t.name, a.name, p.GetParamId(), a.params[j].name, err)
		}
		vals[j] = v
	}
	for j, p := range a.params {
		if !seen[j] {
			return tableAction{}, errf(ErrInvalidArgument, "table %q: action %q: missing param %d (%s)", t.name, a.name, p.id, p.name)
		}
	}
	return newTableAction(a, vals), nil
}

const maxParams = 64

func (d *Dataplane) writeValueSet(typ p4v1.Update_Type, ve *p4v1.ValueSetEntry, log *undoLog) error {
	if ve == nil {
		return errf(ErrInvalidArgument, "nil value set entry")
	}
	vs := d.vsByID[ve.GetValueSetId()]
	if vs == nil {
		return errf(ErrInvalidArgument, "unknown value set id %#x", ve.GetValueSetId())
	}
	if typ != p4v1.Update_MODIFY {
		return errf(ErrInvalidArgument, "value set %q: only MODIFY is allowed, got %v", vs.name, typ)
	}
	if len(ve.GetMembers()) > vs.size {
		return errf(ErrResourceExhausted, "value set %q: %d members, it holds %d", vs.name, len(ve.GetMembers()), vs.size)
	}
	f := field{id: vs.fieldID, name: "value", width: vs.width, nbytes: byteWidth(vs.width), kind: vs.kind}
	members := make([]vsMember, 0, len(ve.GetMembers()))
	for i, m := range ve.GetMembers() {
		if len(m.GetMatch()) != 1 {
			return errf(ErrInvalidArgument, "value set %q: member %d: %d match fields, want 1", vs.name, i, len(m.GetMatch()))
		}
		fm := m.GetMatch()[0]
		if fm == nil || fm.GetFieldId() != vs.fieldID {
			return errf(ErrInvalidArgument, "value set %q: member %d: unknown match field id %d", vs.name, i, fm.GetFieldId())
		}
		mv, err := parseField(&f, fm)
		if err != nil {
			return errf(valueErr(err), "value set %q: member %d: %v", vs.name, i, err)
		}
		vm := vsMember{v: mv.a, m: ones(vs.width)}
		if vs.kind == p4configv1.MatchField_TERNARY {
			vm.m = mv.b
		}
		if slices.Contains(members, vm) {
			return errf(ErrAlreadyExists, "value set %q: member %d (%v) given twice", vs.name, i, vm.v)
		}
		members = append(members, vm)
	}
	log.valueSet(vs)
	vs.set(members)
	return nil
}

func (d *Dataplane) writeCounter(typ p4v1.Update_Type, ce *p4v1.CounterEntry, log *undoLog) error {
	if ce == nil {
		return errf(ErrInvalidArgument, "nil counter entry")
	}
	c := d.counterByID[ce.GetCounterId()]
	if c == nil {
		return errf(ErrInvalidArgument, "unknown counter id %#x", ce.GetCounterId())
	}
	if typ != p4v1.Update_MODIFY {
		return errf(ErrInvalidArgument, "counter %q: only MODIFY is allowed, got %v", c.name, typ)
	}
	lo, hi, err := c.cellRange(ce.GetIndex())
	if err != nil {
		return err
	}
	data := ce.GetData()
	if data == nil {
		return nil
	}
	if data.GetPacketCount() < 0 || data.GetByteCount() < 0 {
		return errf(ErrInvalidArgument, "counter %q: negative counter data", c.name)
	}
	log.cells(c, lo, hi)
	for i := lo; i < hi; i++ {
		c.cells[i].set(uint64(data.GetPacketCount()), uint64(data.GetByteCount()))
	}
	return nil
}

// cellRange is the cells an index selects: one, or all when unset.
func (c *counterArray) cellRange(ix *p4v1.Index) (lo, hi int, err error) {
	if ix == nil {
		return 0, len(c.cells), nil
	}
	i := ix.GetIndex()
	switch {
	case i < 0:
		return 0, 0, errf(ErrInvalidArgument, "counter %q: negative index %d", c.name, i)
	case i >= int64(len(c.cells)):
		return 0, 0, errf(ErrOutOfRange, "counter %q: index %d, size %d", c.name, i, len(c.cells))
	}
	return int(i), int(i) + 1, nil
}

func (d *Dataplane) writeDirectCounter(typ p4v1.Update_Type, dc *p4v1.DirectCounterEntry, log *undoLog) error {
	if dc == nil {
		return errf(ErrInvalidArgument, "nil direct counter entry")
	}
	if typ != p4v1.Update_MODIFY {
		return errf(ErrInvalidArgument, "direct counter: only MODIFY is allowed, got %v", typ)
	}
	e, t, err := d.directEntry(dc.GetTableEntry(), d.keyBuf[:0])
	if err != nil {
		return err
	}
	data := dc.GetData()
	if data == nil {
		return nil
	}
	if data.GetPacketCount() < 0 || data.GetByteCount() < 0 {
		return errf(ErrInvalidArgument, "table %q: negative counter data", t.name)
	}
	log.modified(e)
	e.ctr.set(uint64(data.GetPacketCount()), uint64(data.GetByteCount()))
	return nil
}

// directEntry finds the entry a DirectCounterEntry names.
// buf is scratch space for the key.
func (d *Dataplane) directEntry(te *p4v1.TableEntry, buf []byte) (*entry, *table, error) {
	if te == nil {
		return nil, nil, errf(ErrInvalidArgument, "direct counter entry without a table entry")
	}
	t, err := d.table(te.GetTableId())
	if err != nil {
		return nil, nil, err
	}
	if t.direct == 0 {
		return nil, nil, errf(ErrInvalidArgument, "table %q has no direct counter", t.name)
	}
	if te.GetIsDefaultAction() {
		if len(te.GetMatch()) > 0 || te.GetPriority() != 0 {
			return nil, nil, errf(ErrInvalidArgument, "table %q: the default entry has no match and priority 0", t.name)
		}
		return t.def, t, nil
	}
	match, err := t.parseMatch(te.GetMatch())
	if err != nil {
		return nil, nil, err
	}
	if err := t.checkPriority(te.GetPriority()); err != nil {
		return nil, nil, err
	}
	e := t.entries[string(appendKey(buf, t, te.GetPriority(), match))]
	if e == nil {
		return nil, nil, errf(ErrNotFound, "table %q: no entry %s", t.name, t.describe(te.GetPriority(), match))
	}
	return e, t, nil
}
