package p4entity

import (
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/assert"
)

// appendMaskedHex writes what Key wrote before it: the hex of the masked
// value without its leading zero bytes, one byte kept.
func TestAppendMaskedHex(t *testing.T) {
	for _, tt := range []struct{ v, mask []byte }{
		{nil, nil}, {[]byte{0}, []byte{0}}, {[]byte{0, 0}, []byte{0xff}}, {[]byte{0x12, 0x34}, []byte{0xff, 0xf0}},
		{[]byte{0x12}, []byte{0, 0xff}}, {[]byte{1, 2, 3}, []byte{0xff}}, {[]byte{0xab, 0}, []byte{0xff, 0xff}},
	} {
		want := hex.AppendEncode([]byte("x"), trimView(andBytes(tt.v, tt.mask)))
		assert.Equal(t, string(want), string(appendMaskedHex([]byte("x"), tt.v, tt.mask)), "v %x mask %x", tt.v, tt.mask)
	}
}
