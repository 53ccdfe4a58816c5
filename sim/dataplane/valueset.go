package dataplane

import (
	"fmt"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
)

// valueSet is a parser value set of one match field.
type valueSet struct {
	id      uint32
	name    string
	size    int
	fieldID uint32
	width   int
	kind    p4configv1.MatchField_MatchType
	members []vsMember
	// fast: the members as 16-bit (value, mask) pairs, for the parser.
	fast []vsFast
}

// vsMember is a member, canonical: exact members have mask = all ones.
type vsMember struct{ v, m u128 }

type vsFast struct{ v, m uint16 }

func newValueSet(pv *p4configv1.ValueSet) (*valueSet, error) {
	vs := &valueSet{id: pv.GetPreamble().GetId(), name: pv.GetPreamble().GetName(), size: int(pv.GetSize())}
	if len(pv.GetMatch()) != 1 {
		return nil, fmt.Errorf("value set %q: %d match fields, the model supports 1", vs.name, len(pv.GetMatch()))
	}
	mf := pv.GetMatch()[0]
	vs.fieldID, vs.width, vs.kind = mf.GetId(), int(mf.GetBitwidth()), mf.GetMatchType()
	if vs.width <= 0 || vs.width > maxBits {
		return nil, fmt.Errorf("value set %q: width %d not supported", vs.name, vs.width)
	}
	switch vs.kind {
	case p4configv1.MatchField_EXACT, p4configv1.MatchField_TERNARY:
	default:
		return nil, fmt.Errorf("value set %q: match type %v not supported", vs.name, vs.kind)
	}
	if vs.size < 0 {
		vs.size = 0
	}
	return vs, nil
}

// set replaces the members (the slice is kept; callers pass a new one).
func (vs *valueSet) set(ms []vsMember) {
	vs.members = ms
	vs.fast = vs.fast[:0]
	if vs.width <= 16 {
		for _, m := range ms {
			vs.fast = append(vs.fast, vsFast{uint16(m.v.lo), uint16(m.m.lo)})
		}
	}
}

// has reports whether a 16-bit value matches a member (parser select).
func (vs *valueSet) has(x uint16) bool {
	for _, m := range vs.fast {
		if x&m.m == m.v {
			return true
		}
	}
	return false
}
