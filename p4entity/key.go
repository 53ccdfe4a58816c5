package p4entity

import (
	"bytes"
	"cmp"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
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

// SameKey compares the Keys of two table entries whose matches are all
// exact, in the same field order, without building them; sure is false
// when it cannot tell (another match kind, another order, not table
// entries): then compare the Keys.
func SameKey(a, b *p4v1.Entity) (same, sure bool) {
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
