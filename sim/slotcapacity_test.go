package sim

import (
	"testing"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/p4src"
)

// A switch made with a slot capacity runs the program with a slots table
// of that size: it takes that P4Info from a controller and refuses the
// one of another size (a controller would size what it writes by it).
func TestSlotCapacitySizesTheProgram(t *testing.T) {
	base, err := p4src.Load()
	require.NoError(t, err)
	sized := proto.Clone(base.Info).(*p4configv1.P4Info)
	for _, tb := range sized.GetTables() {
		if tb.GetPreamble().GetName() == p4src.TableSlots {
			tb.Size = p4src.SlotsSizeTofino
		}
	}
	big, err := New(Options{Ports: map[uint32]Port{}, SlotCapacity: p4src.SlotsSizeTofino})
	require.NoError(t, err)
	assert.NoError(t, verifyErr(big.p4rt.verify(&p4v1.ForwardingPipelineConfig{P4Info: sized})))
	_, err = big.p4rt.verify(&p4v1.ForwardingPipelineConfig{P4Info: base.Info})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "sizes")
	slots, err := big.p4rt.schema.Table(p4src.TableSlots)
	require.NoError(t, err)
	assert.Equal(t, int64(p4src.SlotsSizeTofino), slots.GetSize())

	def, err := New(Options{Ports: map[uint32]Port{}})
	require.NoError(t, err)
	assert.NoError(t, verifyErr(def.p4rt.verify(&p4v1.ForwardingPipelineConfig{P4Info: base.Info})))
	same, err := New(Options{Ports: map[uint32]Port{}, SlotCapacity: p4src.SlotsSizeBMv2})
	require.NoError(t, err)
	assert.NoError(t, verifyErr(same.p4rt.verify(&p4v1.ForwardingPipelineConfig{P4Info: base.Info})), "the P4Info's own size")
}

func verifyErr(_ *p4src.Schema, err error) error { return err }
