package dataplane

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// maxBits is the widest match field or action parameter the model holds.
const maxBits = 128

// u128 is an unsigned value of up to 128 bits (match fields and action
// parameters; IPv6 addresses are the widest).
type u128 struct{ hi, lo uint64 }

func u64(v uint64) u128 { return u128{lo: v} }

func (a u128) and(b u128) u128 { return u128{a.hi & b.hi, a.lo & b.lo} }
func (a u128) andNot(b u128) u128 {
	return u128{a.hi &^ b.hi, a.lo &^ b.lo}
}
func (a u128) isZero() bool { return a.hi == 0 && a.lo == 0 }

func (a u128) less(b u128) bool {
	return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo)
}

// bitLen is the number of bits needed to write a (0 for 0).
func (a u128) bitLen() int {
	if a.hi != 0 {
		return 64 + bits.Len64(a.hi)
	}
	return bits.Len64(a.lo)
}

// ones returns a value with the low n bits set.
func ones(n int) u128 {
	switch {
	case n <= 0:
		return u128{}
	case n < 64:
		return u128{lo: 1<<uint(n) - 1}
	case n == 64:
		return u128{lo: ^uint64(0)}
	case n < 128:
		return u128{hi: 1<<uint(n-64) - 1, lo: ^uint64(0)}
	}
	return u128{^uint64(0), ^uint64(0)}
}

// prefixMask returns the mask of the top plen bits of a width-bit field.
func prefixMask(width, plen int) u128 {
	return ones(width).andNot(ones(width - plen))
}

// canonical returns the P4Runtime canonical byte string of a: big-endian,
// no leading zero bytes, at least one byte.
func (a u128) canonical() []byte {
	var b [16]byte
	putU128(b[:], a)
	i := 0
	for i < 15 && b[i] == 0 {
		i++
	}
	out := make([]byte, 16-i)
	copy(out, b[i:])
	return out
}

func (a u128) String() string {
	if a.hi != 0 {
		return fmt.Sprintf("%#x%016x", a.hi, a.lo)
	}
	return fmt.Sprintf("%#x", a.lo)
}

func putU128(b []byte, a u128) {
	for i := 0; i < 8; i++ {
		b[i] = byte(a.hi >> (56 - 8*uint(i)))
		b[8+i] = byte(a.lo >> (56 - 8*uint(i)))
	}
}

var (
	errEmptyBytes = errors.New("empty value")
)

// decodeBytes reads a P4Runtime byte string for a field of the given
// width. Any length is accepted as long as the value fits (leading zero
// bytes are padding; spec section "Bytestrings").
func decodeBytes(b []byte, width int) (u128, error) {
	if len(b) == 0 {
		return u128{}, errEmptyBytes
	}
	i := 0
	for i < len(b)-1 && b[i] == 0 {
		i++
	}
	s := b[i:]
	if len(s) > 16 {
		return u128{}, tooWide(s, width)
	}
	var v u128
	for _, c := range s {
		v.hi = v.hi<<8 | v.lo>>56
		v.lo = v.lo<<8 | uint64(c)
	}
	if v.bitLen() > width {
		return u128{}, tooWide(s, width)
	}
	return v, nil
}

func tooWide(s []byte, width int) error {
	h := strings.TrimLeft(hex.EncodeToString(s), "0")
	if len(h) > 40 {
		h = h[:40] + "..."
	}
	return &wideError{msg: fmt.Sprintf("value 0x%s wider than %d bits", h, width)}
}

// wideError is a byte string with bits beyond its field's width: the
// P4Runtime spec ("Bytestrings") asks for OUT_OF_RANGE, where every other
// malformed value is INVALID_ARGUMENT.
type wideError struct{ msg string }

func (e *wideError) Error() string { return e.msg }

// valueErr is the sentinel for a value that failed to decode: ErrOutOfRange
// for a byte string wider than its field, ErrInvalidArgument otherwise.
func valueErr(err error) error {
	var w *wideError
	if errors.As(err, &w) {
		return ErrOutOfRange
	}
	return ErrInvalidArgument
}

// byteWidth is the number of bytes of a field of the given width.
func byteWidth(width int) int { return (width + 7) / 8 }
