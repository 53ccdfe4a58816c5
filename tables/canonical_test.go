package tables

import (
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
)

// An entry read back with its don't-care matches spelled out (as BMv2
// returns 12-bit ranges) has the identity of the entry the compiler wrote.
func TestCanonicalDropsSpelledOutDontCares(t *testing.T) {
	c := compiler(t)
	cfg, err := config.Load("../examples/site.yaml")
	require.NoError(t, err)
	d, err := c.Compile(cfg, State{})
	require.NoError(t, err)
	n := 0
	for _, want := range d.Entities {
		te := want.GetTableEntry()
		if te == nil || te.GetTableId() != c.flowRules.id {
			continue
		}
		read := &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{
			TableId: te.GetTableId(), Priority: te.GetPriority(), Action: te.GetAction(),
			Match: append([]*p4v1.FieldMatch{
				{FieldId: c.flowRules.fields["outer_vid"].id, FieldMatchType: &p4v1.FieldMatch_Range_{Range: &p4v1.FieldMatch_Range{Low: []byte{0}, High: []byte{0x0f, 0xff}}}},
				{FieldId: c.flowRules.fields["src_mac"].id, FieldMatchType: &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{Value: []byte{0}, Mask: []byte{0}}}},
			}, te.GetMatch()...)}}}
		require.NotEqual(t, Key(want), Key(read))
		c.Canonical(read)
		assert.Equal(t, Key(want), Key(read))
		n++
	}
	assert.NotZero(t, n)
	// A real range is kept.
	e := &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: c.flowRules.id, Priority: 5,
		Match: []*p4v1.FieldMatch{{FieldId: c.flowRules.fields["outer_vid"].id, FieldMatchType: &p4v1.FieldMatch_Range_{Range: &p4v1.FieldMatch_Range{Low: []byte{0}, High: []byte{0x0f, 0xfe}}}}}}}}
	c.Canonical(e)
	assert.Len(t, e.GetTableEntry().GetMatch(), 1)
}
