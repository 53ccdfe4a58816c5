package dataplane

import (
	"encoding/binary"
	"fmt"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

// parseMatch validates a match against the table's fields (spec "Match
// Format") and returns it in canonical form, by field position.
func (t *table) parseMatch(ms []*p4v1.FieldMatch) ([]matchVal, error) {
	return t.parseMatchInto(ms, make([]matchVal, len(t.fields)))
}

// parseMatchInto is parseMatch into out (len(t.fields)), which it clears.
func (t *table) parseMatchInto(ms []*p4v1.FieldMatch, out []matchVal) ([]matchVal, error) {
	clear(out)
	for _, m := range ms {
		if m == nil {
			return nil, errf(ErrInvalidArgument, "table %q: nil match field", t.name)
		}
		i, ok := t.fieldPos(m.GetFieldId())
		if !ok {
			return nil, errf(ErrInvalidArgument, "table %q: unknown match field id %d", t.name, m.GetFieldId())
		}
		f := &t.fields[i]
		if out[i].present {
			return nil, errf(ErrInvalidArgument, "table %q: match field %d (%s) given twice", t.name, f.id, f.name)
		}
		mv, err := parseField(f, m)
		if err != nil {
			return nil, errf(valueErr(err), "table %q: match field %d (%s): %v", t.name, f.id, f.name, err)
		}
		out[i] = mv
	}
	for i := range t.fields {
		if f := &t.fields[i]; f.kind == p4configv1.MatchField_EXACT && !out[i].present {
			return nil, errf(ErrInvalidArgument, "table %q: missing exact match field %d (%s)", t.name, f.id, f.name)
		}
	}
	return out, nil
}

// parseField checks one field match of the field's kind.
func parseField(f *field, m *p4v1.FieldMatch) (matchVal, error) {
	var mv matchVal
	var err error
	want := func(got string) error {
		return fmt.Errorf("is %s, got a %s match", kindName(f.kind), got)
	}
	switch x := m.GetFieldMatchType().(type) {
	case *p4v1.FieldMatch_Exact_:
		if f.kind != p4configv1.MatchField_EXACT {
			return mv, want("exact")
		}
		if mv.a, err = decodeBytes(x.Exact.GetValue(), f.width); err != nil {
			return mv, err
		}
	case *p4v1.FieldMatch_Ternary_:
		if f.kind != p4configv1.MatchField_TERNARY {
			return mv, want("ternary")
		}
		if mv, err = parseTernary(f, x.Ternary); err != nil {
			return mv, err
		}
	case *p4v1.FieldMatch_Lpm:
		if f.kind != p4configv1.MatchField_LPM {
			return mv, want("lpm")
		}
		if mv, err = parseLPM(f, x.Lpm); err != nil {
			return mv, err
		}
	case *p4v1.FieldMatch_Range_:
		if f.kind != p4configv1.MatchField_RANGE {
			return mv, want("range")
		}
		if mv, err = parseRange(f, x.Range); err != nil {
			return mv, err
		}
	case *p4v1.FieldMatch_Optional_:
		if f.kind != p4configv1.MatchField_OPTIONAL {
			return mv, want("optional")
		}
		if mv.a, err = decodeBytes(x.Optional.GetValue(), f.width); err != nil {
			return mv, err
		}
	case nil:
		return mv, fmt.Errorf("no match value")
	default:
		return mv, fmt.Errorf("match type %T not supported", x)
	}
	mv.present = true
	return mv, nil
}

// parseTernary checks a ternary match: value and mask of the field's
// width, a mask that is not 0, no value bits outside the mask.
func parseTernary(f *field, t *p4v1.FieldMatch_Ternary) (matchVal, error) {
	var mv matchVal
	var err error
	if mv.a, err = decodeBytes(t.GetValue(), f.width); err != nil {
		return mv, fmt.Errorf("value: %w", err)
	}
	if mv.b, err = decodeBytes(t.GetMask(), f.width); err != nil {
		return mv, fmt.Errorf("mask: %w", err)
	}
	if mv.b.isZero() {
		return mv, fmt.Errorf("mask 0: a don't-care match must be omitted")
	}
	if !mv.a.andNot(mv.b).isZero() {
		return mv, fmt.Errorf("value %v has bits outside the mask %v", mv.a, mv.b)
	}
	return mv, nil
}

// parseLPM checks an LPM match: a prefix length in 1..width, no value
// bits beyond it. The prefix length is kept in b.
func parseLPM(f *field, l *p4v1.FieldMatch_LPM) (matchVal, error) {
	var mv matchVal
	var err error
	pl := l.GetPrefixLen()
	if pl <= 0 || int(pl) > f.width {
		return mv, fmt.Errorf("prefix length %d not in 1..%d (a don't-care match must be omitted)", pl, f.width)
	}
	if mv.a, err = decodeBytes(l.GetValue(), f.width); err != nil {
		return mv, err
	}
	if !mv.a.andNot(prefixMask(f.width, int(pl))).isZero() {
		return mv, fmt.Errorf("value %v has bits beyond prefix length %d", mv.a, pl)
	}
	mv.b = u64(uint64(pl))
	return mv, nil
}

// parseRange checks a range match: low <= high, not the full range.
func parseRange(f *field, r *p4v1.FieldMatch_Range) (matchVal, error) {
	var mv matchVal
	var err error
	if mv.a, err = decodeBytes(r.GetLow(), f.width); err != nil {
		return mv, fmt.Errorf("low: %w", err)
	}
	if mv.b, err = decodeBytes(r.GetHigh(), f.width); err != nil {
		return mv, fmt.Errorf("high: %w", err)
	}
	if mv.b.less(mv.a) {
		return mv, fmt.Errorf("low %v > high %v", mv.a, mv.b)
	}
	if mv.a.isZero() && mv.b == ones(f.width) {
		return mv, fmt.Errorf("full range: a don't-care match must be omitted")
	}
	return mv, nil
}

func kindName(k p4configv1.MatchField_MatchType) string {
	switch k {
	case p4configv1.MatchField_EXACT:
		return "exact"
	case p4configv1.MatchField_LPM:
		return "lpm"
	case p4configv1.MatchField_TERNARY:
		return "ternary"
	case p4configv1.MatchField_RANGE:
		return "range"
	case p4configv1.MatchField_OPTIONAL:
		return "optional"
	}
	return k.String()
}

// keyOf writes an entry's identity into d.keyBuf (writers only: they hold
// the exclusive lock).
func (d *Dataplane) keyOf(t *table, prio int32, match []matchVal) []byte {
	d.keyBuf = appendKey(d.keyBuf[:0], t, prio, match)
	return d.keyBuf
}

// appendKey appends an entry's identity: the priority and, by field id,
// each field's canonical value(s) at fixed width. Two entries have the
// same key exactly when tables.Key gives them the same identity (same
// table, priority and canonical matches with masked bits zero).
func appendKey(b []byte, t *table, prio int32, match []matchVal) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(prio))
	var tmp [16]byte
	for i := range t.fields {
		m := &match[i]
		if !m.present {
			b = append(b, 0)
			continue
		}
		n := t.fields[i].nbytes
		b = append(b, 1)
		putU128(tmp[:], m.a)
		b = append(b, tmp[16-n:]...)
		switch t.fields[i].kind {
		case p4configv1.MatchField_TERNARY, p4configv1.MatchField_RANGE, p4configv1.MatchField_LPM:
			putU128(tmp[:], m.b)
			b = append(b, tmp[16-n:]...)
		}
	}
	return b
}

// describe formats an entry's key for messages.
func (t *table) describe(prio int32, match []matchVal) string {
	var b []byte
	b = append(b, '{')
	first := true
	for i, m := range match {
		if !m.present {
			continue
		}
		if !first {
			b = append(b, ' ')
		}
		first = false
		f := &t.fields[i]
		switch f.kind {
		case p4configv1.MatchField_TERNARY:
			b = fmt.Appendf(b, "%s=%v&%v", f.name, m.a, m.b)
		case p4configv1.MatchField_RANGE:
			b = fmt.Appendf(b, "%s=%v..%v", f.name, m.a, m.b)
		case p4configv1.MatchField_LPM:
			b = fmt.Appendf(b, "%s=%v/%d", f.name, m.a, m.b.lo)
		default:
			b = fmt.Appendf(b, "%s=%v", f.name, m.a)
		}
	}
	if t.prioritized {
		b = fmt.Appendf(b, " priority=%d", prio)
	}
	b = append(b, '}')
	return string(b)
}
