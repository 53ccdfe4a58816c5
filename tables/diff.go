package tables

import (
	"bytes"
	"cmp"
	"encoding/hex"
	"fmt"
	"slices"
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
				b = hex.AppendEncode(b, trimView(andBytes(mt.Ternary.GetValue(), mt.Ternary.GetMask())))
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

func byFieldID(a, b *p4v1.FieldMatch) int { return cmp.Compare(a.GetFieldId(), b.GetFieldId()) }

// trimView is trim without copying.
func trimView(b []byte) []byte {
	i := 0
	for i < len(b)-1 && b[i] == 0 {
		i++
	}
	return b[i:]
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
//   - inserts and modifies go in dependency order (value sets, port roles,
//     links, filter groups, balance groups, slots, rules), deletes in the
//     reverse order.
//
// Default entries (is_default_action) in current are ignored.
func (c *Compiler) Diff(desired, current []*p4v1.Entity) *Plan {
	cur := make(map[string]*p4v1.Entity, len(current))
	count := map[uint32]int{}
	for _, e := range current {
		if e.GetTableEntry().GetIsDefaultAction() {
			continue
		}
		cur[Key(e)] = e
		if t := e.GetTableEntry(); t != nil {
			count[t.GetTableId()]++
		}
	}
	type upd struct {
		rank int
		key  string
		u    *p4v1.Update
	}
	var ins, mods, dels []upd
	inserts := map[uint32]int{}
	rank := func(e *p4v1.Entity) int {
		if t := e.GetTableEntry(); t != nil {
			return c.rank[t.GetTableId()]
		}
		return 0 // value sets first
	}
	for _, d := range desired {
		k := Key(d)
		old, ok := cur[k]
		delete(cur, k)
		switch {
		case d.GetValueSetEntry() != nil:
			// Value sets are only ever modified (P4Runtime spec).
			if !ok || !sameMembers(old.GetValueSetEntry(), d.GetValueSetEntry()) {
				mods = append(mods, upd{rank(d), k, &p4v1.Update{Type: p4v1.Update_MODIFY, Entity: d}})
			}
		case !ok:
			ins = append(ins, upd{rank(d), k, &p4v1.Update{Type: p4v1.Update_INSERT, Entity: d}})
			inserts[d.GetTableEntry().GetTableId()]++
		case !sameAction(old.GetTableEntry().GetAction(), d.GetTableEntry().GetAction()):
			mods = append(mods, upd{rank(d), k, &p4v1.Update{Type: p4v1.Update_MODIFY, Entity: d}})
		}
	}
	deletesPerTable := map[uint32]int{}
	for k, e := range cur {
		if e.GetValueSetEntry() != nil {
			continue // never deleted; modified to the desired members above
		}
		dels = append(dels, upd{rank(e), k, &p4v1.Update{Type: p4v1.Update_DELETE, Entity: stripForDelete(e)}})
		deletesPerTable[e.GetTableEntry().GetTableId()]++
	}
	// Deterministic order: by rank, then identity.
	sortUpd := func(us []upd, reverse bool) {
		slices.SortStableFunc(us, func(a, b upd) int {
			if a.rank != b.rank {
				if reverse {
					return cmp.Compare(b.rank, a.rank)
				}
				return cmp.Compare(a.rank, b.rank)
			}
			return cmp.Compare(a.key, b.key)
		})
	}
	sortUpd(ins, false)
	sortUpd(mods, false)
	sortUpd(dels, true)

	// Tables that would overflow with make-before-break delete first.
	full := map[uint32]bool{}
	for id, n := range inserts {
		if size := c.tableSize(id); size > 0 && count[id]+n > size && deletesPerTable[id] > 0 {
			full[id] = true
		}
	}
	plan := &Plan{Inserts: len(ins), Modifies: len(mods), Deletes: len(dels)}
	var first, last []*p4v1.Update
	for _, d := range dels {
		if full[d.u.GetEntity().GetTableEntry().GetTableId()] {
			first = append(first, d.u)
		} else {
			last = append(last, d.u)
		}
	}
	var infra, slots, rules []*p4v1.Update
	for _, u := range append(mods, ins...) {
		switch r := u.rank; {
		case r <= c.rank[c.balanceGroups.id]:
			infra = append(infra, u.u)
		case r == c.rank[c.slots.id]:
			slots = append(slots, u.u)
		default:
			rules = append(rules, u.u)
		}
	}
	for _, b := range []Batch{
		{"delete to free capacity", first},
		{"ports, links, filter and balance groups", infra},
		{"slots", slots},
		{"heartbeats and flow rules", rules},
		{"delete stale entries", last},
	} {
		if len(b.Updates) > 0 {
			plan.Batches = append(plan.Batches, b)
		}
	}
	return plan
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
			out = append(out, s.String())
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	return slices.Equal(set(a), set(b))
}
