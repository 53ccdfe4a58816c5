package dataplane

// undoLog records what a ROLLBACK_ON_ERROR / DATAPLANE_ATOMIC batch
// changed; a nil log records nothing.
type undoLog struct{ ops []undoOp }

type undoKind uint8

const (
	undoInsert undoKind = iota
	undoDelete
	undoModify
	undoValueSet
	undoCells
	undoRegister
)

type undoOp struct {
	kind     undoKind
	t        *table
	e        *entry
	act      tableAction
	ctrlMeta uint64
	meta     []byte
	idleNs   int64
	pkts     uint64
	bytes    uint64
	vs       *valueSet
	members  []vsMember
	c        *counterArray
	lo       int
	cells    [][2]uint64
	reg      regAccess
	ev       *evidence
}

func (l *undoLog) inserted(t *table, e *entry) {
	if l != nil {
		l.ops = append(l.ops, undoOp{kind: undoInsert, t: t, e: e})
	}
}

func (l *undoLog) deleted(t *table, e *entry) {
	if l != nil {
		l.ops = append(l.ops, undoOp{kind: undoDelete, t: t, e: e})
	}
}

func (l *undoLog) modified(e *entry) {
	if l != nil {
		p, b := e.ctr.get()
		l.ops = append(l.ops, undoOp{kind: undoModify, e: e, act: e.act, ctrlMeta: e.ctrlMeta, meta: e.meta, idleNs: e.idleNs, pkts: p, bytes: b})
	}
}

func (l *undoLog) valueSet(vs *valueSet) {
	if l != nil {
		l.ops = append(l.ops, undoOp{kind: undoValueSet, vs: vs, members: vs.members})
	}
}

func (l *undoLog) cells(c *counterArray, lo, hi int) {
	if l != nil {
		old := make([][2]uint64, hi-lo)
		for i := range old {
			old[i][0], old[i][1] = c.cells[lo+i].get()
		}
		l.ops = append(l.ops, undoOp{kind: undoCells, c: c, lo: lo, cells: old})
	}
}

// rollback undoes every recorded change, last first.
func (l *undoLog) rollback() {
	for i := len(l.ops) - 1; i >= 0; i-- {
		op := &l.ops[i]
		switch op.kind {
		case undoInsert:
			op.t.del(op.e)
		case undoDelete:
			op.t.add(op.e)
		case undoModify:
			e := op.e
			e.act, e.ctrlMeta, e.meta, e.idleNs = op.act, op.ctrlMeta, op.meta, op.idleNs
			e.ctr.set(op.pkts, op.bytes)
		case undoValueSet:
			op.vs.set(op.members)
		case undoCells:
			for j, v := range op.cells {
				op.c.cells[op.lo+j].set(v[0], v[1])
			}
		case undoRegister:
			undoRegisterCells(op)
		}
	}
}
