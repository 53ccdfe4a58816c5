package tables

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A value wider than its field is an error naming the table and field,
// never masked into another port.
func TestCompileRefusesWideValues(t *testing.T) {
	c := compiler(t)
	cfg := load(t, "../examples/site.yaml")
	_, err := c.Compile(cfg, State{})
	require.NoError(t, err)

	cfg.PortMap = map[string]uint32{"P1": 600} // bypasses config validation, which refuses it
	_, err = c.Compile(cfg, State{})
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrWidth)
	assert.Contains(t, err.Error(), "value 600 needs 10 bits")
}

func TestBitLen(t *testing.T) {
	for _, tt := range []struct {
		in   []byte
		want int32
	}{{nil, 0}, {[]byte{0}, 0}, {[]byte{1}, 1}, {[]byte{0x02, 0x58}, 10}, {[]byte{0, 0xff}, 8}, {[]byte{0x80, 0, 0}, 24}} {
		assert.Equal(t, tt.want, bitLen(tt.in), "%x", tt.in)
	}
}
