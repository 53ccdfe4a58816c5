package tables

import (
	"testing"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/p4src"
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

// Slot entries are checked too, though only their shared parts are: a
// core number wider than the to_filter action's core parameter is refused
// with its table and parameter.
func TestCompileRefusesWideSlotValues(t *testing.T) {
	s, err := p4src.Load()
	require.NoError(t, err)
	info := proto.Clone(s.Info).(*p4configv1.P4Info)
	for _, a := range info.GetActions() {
		if a.GetPreamble().GetName() != p4src.ActionToFilter {
			continue
		}
		for _, p := range a.GetParams() {
			if p.GetName() == "core" {
				p.Bitwidth = 3 // cores 0..7
			}
		}
	}
	narrow, err := p4src.NewSchema(info)
	require.NoError(t, err)
	c, err := New(narrow)
	require.NoError(t, err)
	cfg := load(t, "../examples/site.yaml")
	_, err = c.Compile(cfg, State{})
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrWidth)
	assert.Contains(t, err.Error(), "parameter core: value 8 needs 4 bits; the parameter has 3")
}
