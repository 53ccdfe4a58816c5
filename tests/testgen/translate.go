package testgen

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
)

// Updates are the P4Runtime writes of the case's entries on schema's
// program: an INSERT per entry, a MODIFY per default action. Every name
// is resolved through the schema; one it lacks is an error naming it.
func (c *Case) Updates(s *p4src.Schema) ([]*p4v1.Update, error) {
	var out []*p4v1.Update
	for i, e := range c.Entries {
		te, err := e.tableEntry(s)
		if err != nil {
			return nil, fmt.Errorf("%s: entry %d (%s): %w", c.Name, i+1, e.Table, err)
		}
		typ := p4v1.Update_INSERT
		if e.Default {
			typ = p4v1.Update_MODIFY
		}
		out = append(out, &p4v1.Update{Type: typ, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: te}}})
	}
	for _, r := range c.Registers {
		re, err := r.registerEntry(s)
		if err != nil {
			return nil, fmt.Errorf("%s: register %s[%d]: %w", c.Name, r.Register, r.Index, err)
		}
		if re != nil {
			out = append(out, &p4v1.Update{Type: p4v1.Update_MODIFY, Entity: &p4v1.Entity{Entity: &p4v1.Entity_RegisterEntry{RegisterEntry: re}}})
		}
	}
	return out, nil
}

// registerEntry is the cell's write on schema's program, whose registers
// are the v1model program's: a pair of the TNA program (first, second) is
// one cell of twice the width there, first ++ second. nil: a register the
// replay leaves out (below).
func (r RegisterCell) registerEntry(s *p4src.Schema) (*p4v1.RegisterEntry, error) {
	reg, err := s.Register(r.Register)
	if errors.Is(err, p4src.ErrUnknownName) && r.Register == p4src.RegisterEvidenceCopy {
		// The TNA program's copy slot decides only whether a data
		// return is mirrored to the other pipes: P4Testgen's build
		// leaves the mirror out and a one-pipe replay has no other
		// pipe, so no case's output depends on it.
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	v := new(big.Int)
	switch {
	case len(r.Fields) == 1 && r.Fields[0].Param == "":
		if _, ok := v.SetString(r.Fields[0].Value, 0); !ok {
			return nil, fmt.Errorf("%q is not a number", r.Fields[0].Value)
		}
	case len(r.Fields) == 2 && r.Fields[0].Param == "first" && r.Fields[1].Param == "second":
		for _, f := range r.Fields {
			half, err := parseNumber(f.Value, 32)
			if err != nil {
				return nil, fmt.Errorf("field %s: %w", f.Param, err)
			}
			v.Lsh(v, 32).Or(v, new(big.Int).SetBytes(half))
		}
	default:
		return nil, fmt.Errorf("fields %v: neither a value nor a pair (first, second)", r.Fields)
	}
	bits := int(reg.GetTypeSpec().GetBitstring().GetBit().GetBitwidth())
	if v.BitLen() > bits {
		return nil, fmt.Errorf("a value of %d bits for a %d-bit register", v.BitLen(), bits)
	}
	return &p4v1.RegisterEntry{
		RegisterId: reg.GetPreamble().GetId(),
		Index:      &p4v1.Index{Index: int64(r.Index)},
		Data:       &p4v1.P4Data{Data: &p4v1.P4Data_Bitstring{Bitstring: canon(v.Bytes())}},
	}, nil
}

func (e Entry) tableEntry(s *p4src.Schema) (*p4v1.TableEntry, error) {
	t, err := s.Table(e.Table)
	if err != nil {
		return nil, err
	}
	te := &p4v1.TableEntry{TableId: t.GetPreamble().GetId(), IsDefaultAction: e.Default}
	ternary := false
	for _, m := range e.Matches {
		f, err := t.Field(m.Field)
		if err != nil {
			return nil, err
		}
		fm, err := fieldMatch(f, m.Value, m.Mask)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", m.Field, err)
		}
		if fm == nil {
			continue // all don't care: left out, as P4Runtime wants
		}
		if f.GetMatchType() == p4configv1.MatchField_TERNARY || f.GetMatchType() == p4configv1.MatchField_RANGE {
			ternary = true
		}
		te.Match = append(te.Match, fm)
	}
	if ternary || e.Priority != 0 {
		// P4Runtime wants a priority on a table with ternary keys, and
		// one of at least 1.
		te.Priority = max(e.Priority, 1)
	}
	a, err := s.Action(e.Action)
	if err != nil {
		return nil, err
	}
	act := &p4v1.Action{ActionId: a.GetPreamble().GetId()}
	for _, arg := range e.Args {
		p, err := a.Param(arg.Param)
		if err != nil {
			return nil, err
		}
		v, err := parseNumber(arg.Value, int(p.GetBitwidth()))
		if err != nil {
			return nil, fmt.Errorf("action %s, parameter %s: %w", e.Action, arg.Param, err)
		}
		act.Params = append(act.Params, &p4v1.Action_Param{ParamId: p.GetId(), Value: v})
	}
	te.Action = &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: act}}
	return te, nil
}

// fieldMatch is one key field's match: an exact value (0x... hex), or a
// ternary or LPM one (0b... binary with * for don't-care bits). nil: the
// whole field is don't care.
func fieldMatch(f *p4configv1.MatchField, value, ptfMask string) (*p4v1.FieldMatch, error) {
	bits := int(f.GetBitwidth())
	fm := &p4v1.FieldMatch{FieldId: f.GetId()}
	kind := f.GetMatchType()
	if ptfMask != "" {
		return ternaryMatch(fm, kind, bits, value, ptfMask)
	}
	if !strings.HasPrefix(value, "0b") {
		v, err := parseNumber(value, bits)
		if err != nil {
			return nil, err
		}
		switch kind {
		case p4configv1.MatchField_EXACT:
			fm.FieldMatchType = &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: v}}
		case p4configv1.MatchField_TERNARY:
			fm.FieldMatchType = &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{Value: v, Mask: allOnes(bits)}}
		case p4configv1.MatchField_LPM:
			fm.FieldMatchType = &p4v1.FieldMatch_Lpm{Lpm: &p4v1.FieldMatch_LPM{Value: v, PrefixLen: int32(bits)}}
		default:
			return nil, fmt.Errorf("match kind %s not supported", kind)
		}
		return fm, nil
	}
	digits := value[2:]
	if len(digits) != bits {
		return nil, fmt.Errorf("%d binary digits for a %d-bit field", len(digits), bits)
	}
	val, mask := new(big.Int), new(big.Int)
	for _, c := range digits {
		val.Lsh(val, 1)
		mask.Lsh(mask, 1)
		switch c {
		case '*':
		case '0':
			mask.SetBit(mask, 0, 1)
		case '1':
			mask.SetBit(mask, 0, 1)
			val.SetBit(val, 0, 1)
		default:
			return nil, fmt.Errorf("%q in binary value %s", c, value)
		}
	}
	if mask.Sign() == 0 {
		return nil, nil
	}
	v, m := canon(val.Bytes()), canon(mask.Bytes())
	switch kind {
	case p4configv1.MatchField_TERNARY:
		fm.FieldMatchType = &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{Value: v, Mask: m}}
	case p4configv1.MatchField_LPM:
		// The mask is a run of ones from the top.
		plen := 0
		for plen < bits && mask.Bit(bits-1-plen) == 1 {
			plen++
		}
		if want := new(big.Int).Lsh(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(plen)), big.NewInt(1)), uint(bits-plen)); want.Cmp(mask) != 0 {
			return nil, fmt.Errorf("LPM value %s is not a prefix", value)
		}
		fm.FieldMatchType = &p4v1.FieldMatch_Lpm{Lpm: &p4v1.FieldMatch_LPM{Value: v, PrefixLen: int32(plen)}}
	case p4configv1.MatchField_EXACT:
		if mask.Cmp(new(big.Int).SetBytes(allOnes(bits))) != 0 {
			return nil, fmt.Errorf("exact field with don't-care bits: %s", value)
		}
		fm.FieldMatchType = &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: v}}
	default:
		return nil, fmt.Errorf("match kind %s not supported", kind)
	}
	return fm, nil
}

// ternaryMatch is a ternary key field given as a value and a mask (a PTF
// case's): the value's bits under the mask; nil when the mask is 0.
func ternaryMatch(fm *p4v1.FieldMatch, kind p4configv1.MatchField_MatchType, bits int, value, mask string) (*p4v1.FieldMatch, error) {
	if kind != p4configv1.MatchField_TERNARY {
		return nil, fmt.Errorf("a mask on a %s field", kind)
	}
	v, err := parseNumber(value, bits)
	if err != nil {
		return nil, err
	}
	m, err := parseNumber(mask, bits)
	if err != nil {
		return nil, err
	}
	mv, vv := new(big.Int).SetBytes(m), new(big.Int).SetBytes(v)
	if mv.Sign() == 0 {
		return nil, nil
	}
	fm.FieldMatchType = &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{Value: canon(vv.And(vv, mv).Bytes()), Mask: m}}
	return fm, nil
}

// parseNumber reads 0x-prefixed hex (or decimal) of at most bits bits, in
// P4Runtime's canonical form.
func parseNumber(s string, bits int) ([]byte, error) {
	n, ok := new(big.Int).SetString(s, 0)
	if !ok || n.Sign() < 0 {
		return nil, fmt.Errorf("%q is not a number", s)
	}
	if bits > 0 && n.BitLen() > bits {
		return nil, fmt.Errorf("%s needs %d bits; the field has %d", s, n.BitLen(), bits)
	}
	return canon(n.Bytes()), nil
}

func allOnes(bits int) []byte {
	n := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits)), big.NewInt(1))
	return canon(n.Bytes())
}

// canon is P4Runtime's canonical form of a big-endian number: no leading
// zero bytes, zero as one zero byte.
func canon(b []byte) []byte {
	if len(b) == 0 {
		return []byte{0}
	}
	return wire.CanonicalBytes(b)
}
