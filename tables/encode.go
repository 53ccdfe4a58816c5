package tables

import (
	"errors"
	"fmt"
	"math/big"
	"math/bits"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/p4src/wire"
)

// canon returns the P4Runtime canonical binary form of v.
func canon(v uint64) []byte { return wire.Canonical(v) }

// trim drops leading zero bytes, keeping at least one (the canonical form
// of a big-endian byte string, wire.CanonicalBytes).
func trim(b []byte) []byte { return wire.CanonicalBytes(b) }

// canonBytes returns the canonical form of a big-endian byte string.
func canonBytes(b []byte) []byte { return wire.CanonicalBytes(b) }

// maxValue returns 2^bits - 1.
func maxValue(bits int32) uint64 {
	if bits >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(bits) - 1
}

// ErrWidth: a value does not fit the match field or action parameter it is
// written to. Values are never masked to fit: a wider value is an error.
var ErrWidth = errors.New("value wider than its field")

// bitLen is the number of significant bits of a canonical big-endian value.
func bitLen(b []byte) int32 {
	for i, x := range b {
		if x != 0 {
			return int32((len(b)-i-1)*8 + bits.Len8(x))
		}
	}
	return 0
}

// checkWidths reports every exact, ternary and range match value and every
// action parameter of es that is wider than its P4Info bitwidth.
func (c *Compiler) checkWidths(es []*p4v1.Entity) error {
	var errs []error
	for _, e := range es {
		te := e.GetTableEntry()
		if te == nil {
			continue
		}
		t := c.schema.TableByID(te.GetTableId())
		if t == nil {
			continue
		}
		for _, m := range te.GetMatch() {
			f := t.FieldsByID[m.GetFieldId()]
			if f == nil {
				continue
			}
			for _, v := range [][]byte{m.GetExact().GetValue(), m.GetTernary().GetValue(), m.GetTernary().GetMask(), m.GetRange().GetLow(), m.GetRange().GetHigh()} {
				if bitLen(v) > f.GetBitwidth() {
					errs = append(errs, fmt.Errorf("table %s, field %s: value %s needs %d bits; the field has %d: %w",
						t.GetPreamble().GetName(), f.GetName(), new(big.Int).SetBytes(v), bitLen(v), f.GetBitwidth(), ErrWidth))
				}
			}
		}
		a := te.GetAction().GetAction()
		act := c.schema.ActionByID(a.GetActionId())
		if act == nil {
			continue
		}
		for _, p := range a.GetParams() {
			ap := act.ParamsByID[p.GetParamId()]
			if ap != nil && bitLen(p.GetValue()) > ap.GetBitwidth() {
				errs = append(errs, fmt.Errorf("table %s, action %s, parameter %s: value %s needs %d bits; the parameter has %d: %w",
					t.GetPreamble().GetName(), act.GetPreamble().GetName(), ap.GetName(), new(big.Int).SetBytes(p.GetValue()), bitLen(p.GetValue()), ap.GetBitwidth(), ErrWidth))
			}
		}
	}
	return errors.Join(errs...)
}
