package tables

import (
	"math/big"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

// Canonical removes, in place, the "don't care" matches a target spelled
// out in an entry it read back: a range over the field's whole width, a
// ternary with an all-zero mask, an LPM of prefix length 0. P4Runtime
// says they are omitted, and the compiler omits them, so without this an
// entry read back with them has another identity (Key) than the same entry
// desired. BMv2 1.15.5 with PI returns every don't-care range of a 12-bit
// field (the VLAN ids of the flow rules) as [0, 0xfff].
func (c *Compiler) Canonical(e *p4v1.Entity) {
	te := e.GetTableEntry()
	if te == nil {
		return
	}
	t := c.schema.TableByID(te.GetTableId())
	if t == nil {
		return
	}
	kept := te.GetMatch()[:0]
	for _, m := range te.GetMatch() {
		if f := t.FieldsByID[m.GetFieldId()]; f == nil || !dontCare(m, int(f.GetBitwidth())) {
			kept = append(kept, m)
		}
	}
	te.Match = kept
}

func dontCare(m *p4v1.FieldMatch, bits int) bool {
	switch mt := m.GetFieldMatchType().(type) {
	case *p4v1.FieldMatch_Range_:
		full := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits)), big.NewInt(1))
		return new(big.Int).SetBytes(mt.Range.GetLow()).Sign() == 0 &&
			new(big.Int).SetBytes(mt.Range.GetHigh()).Cmp(full) == 0
	case *p4v1.FieldMatch_Ternary_:
		return new(big.Int).SetBytes(mt.Ternary.GetMask()).Sign() == 0
	case *p4v1.FieldMatch_Lpm:
		return mt.Lpm.GetPrefixLen() == 0
	}
	return false
}
