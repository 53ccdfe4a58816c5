package p4entity

import (
	"bytes"
	"encoding/hex"
	"slices"
	"strings"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/protobuf/proto"
)

// SameEntry says whether two entities put the same state on a switch, as
// a diff sees it (tables.Diff): the same identity (Key) and, for a table
// entry, the same action with its parameters in canonical bytes (zero
// padding aside), for a value set the same members. An entry a diff would
// leave as it is on the switch is the same; an entity that is neither is
// compared as a message. Entries whose matches are all exact (as the
// compiler writes slots, filter groups and balance groups) are compared
// without building keys or allocating.
func SameEntry(a, b *p4v1.Entity) bool {
	if a == b {
		return true
	}
	va, vb := a.GetValueSetEntry(), b.GetValueSetEntry()
	ta, tb := a.GetTableEntry(), b.GetTableEntry()
	switch {
	case va != nil || vb != nil:
		return va != nil && vb != nil && va.GetValueSetId() == vb.GetValueSetId() && SameMembers(va, vb)
	case ta == nil || tb == nil:
		return proto.Equal(a, b)
	}
	same, sure := SameKey(a, b)
	if !sure {
		same = bytes.Equal(AppendKey(nil, a), AppendKey(nil, b))
	}
	return same && SameAction(ta.GetAction(), tb.GetAction())
}

// UnionMembers is a value set holding the members of both.
func UnionMembers(a, b *p4v1.ValueSetEntry) *p4v1.ValueSetEntry {
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

// SameAction compares two direct table actions with canonical parameter
// bytes (targets may answer zero-padded). Anything but a direct action is
// compared as a message.
func SameAction(a, b *p4v1.TableAction) bool {
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

// SameMembers compares value sets as sets of canonical member values.
func SameMembers(a, b *p4v1.ValueSetEntry) bool {
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
