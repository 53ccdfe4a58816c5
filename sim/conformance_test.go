package sim

import (
	"context"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
)

// codeOfErr digs the per-update code out of a Write error.
func codeOfErr(err error) codes.Code {
	st := status.Convert(err)
	for _, d := range st.Details() {
		if pe, ok := d.(*p4v1.Error); ok && pe.GetCanonicalCode() != 0 {
			return codes.Code(pe.GetCanonicalCode())
		}
	}
	return st.Code()
}

func te(table uint32, prio int32, action uint32, params [][]byte, m ...*p4v1.FieldMatch) *p4v1.Entity {
	a := &p4v1.Action{ActionId: action}
	for i, p := range params {
		a.Params = append(a.Params, &p4v1.Action_Param{ParamId: uint32(i + 1), Value: p})
	}
	return &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: table, Priority: prio, Match: m,
		Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: a}}}}}
}

func exactM(id uint32, v ...byte) *p4v1.FieldMatch {
	return &p4v1.FieldMatch{FieldId: id, FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: v}}}
}

// P4Runtime conformance of the software switch over real gRPC, as a
// controller sees it: codes, canonical bytes, priorities, counters.
//
// This test uses the generated client (internal/p4rttest). The unmodified
// github.com/antoninbas/p4runtime-go-client drives the switch in
// tests/interop, a module of its own: the client compiles only against
// github.com/p4lang/p4runtime v1.4.0-rc.5 (from v1.4.0 on,
// Replica.EgressPort is a oneof member), which this module cannot use.
func TestConformance(t *testing.T) {
	_, addr, _ := startMemSwitch(t, pipelinecases.Ports)
	c := program(t, addr)
	ctx := context.Background()
	s, err := p4src.Load()
	require.NoError(t, err)
	id := func(name string) uint32 {
		if tb, err := s.Table(name); err == nil {
			return tb.GetPreamble().GetId()
		}
		a, err := s.Action(name)
		require.NoError(t, err, name)
		return a.GetPreamble().GetId()
	}
	write := func(typ p4v1.Update_Type, e *p4v1.Entity) error {
		return c.Write(ctx, []*p4v1.Update{{Type: typ, Entity: e}}, 1)
	}

	// Exact table: insert, duplicate, modify, read back canonical, delete,
	// delete again.
	e := te(id(p4src.TablePortRole), 0, id(p4src.ActionSetOperatorPort), [][]byte{{0}, {0}, {0, 10}}, exactM(1, 0, 200))
	require.NoError(t, write(p4v1.Update_INSERT, e))
	assert.Equal(t, codes.AlreadyExists, codeOfErr(write(p4v1.Update_INSERT, e)))
	e2 := te(id(p4src.TablePortRole), 0, id(p4src.ActionSetOperatorPort), [][]byte{{5}, {1}, {11}}, exactM(1, 200))
	require.NoError(t, write(p4v1.Update_MODIFY, e2))
	back, err := c.Read(ctx, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: id(p4src.TablePortRole),
		Match: []*p4v1.FieldMatch{exactM(1, 200)}}}})
	require.NoError(t, err)
	require.Len(t, back, 1)
	assert.Equal(t, []byte{200}, back[0].GetTableEntry().GetMatch()[0].GetExact().GetValue(), "canonical bytes on read")
	assert.Equal(t, []byte{5}, back[0].GetTableEntry().GetAction().GetAction().GetParams()[0].GetValue())
	require.NoError(t, write(p4v1.Update_DELETE, e2))
	assert.Equal(t, codes.NotFound, codeOfErr(write(p4v1.Update_DELETE, e2)))

	// Ternary/range tables need a priority; masked-out bits must be zero.
	tern := &p4v1.FieldMatch{FieldId: 12, FieldMatchType: &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{Value: []byte{6}, Mask: []byte{0xff}}}}
	assert.Equal(t, codes.InvalidArgument, codeOfErr(write(p4v1.Update_INSERT, te(id(p4src.TableFlowRules), 0, id(p4src.ActionBypass), nil, tern))))
	dirty := &p4v1.FieldMatch{FieldId: 12, FieldMatchType: &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{Value: []byte{7}, Mask: []byte{0xf0}}}}
	assert.Equal(t, codes.InvalidArgument, codeOfErr(write(p4v1.Update_INSERT, te(id(p4src.TableFlowRules), 5, id(p4src.ActionBypass), nil, dirty))))
	require.NoError(t, write(p4v1.Update_INSERT, te(id(p4src.TableFlowRules), 5000, id(p4src.ActionBypass), nil, tern)))

	// A byte string wider than its field is OUT_OF_RANGE (spec,
	// "Bytestrings"), in a match, an action parameter and a value set;
	// an action the table does not have.
	assert.Equal(t, codes.OutOfRange, codeOfErr(write(p4v1.Update_INSERT,
		te(id(p4src.TableSlots), 0, id(p4src.ActionToFilter), [][]byte{{1}, {1}}, exactM(1, 0x1f), exactM(2, 1)))))
	assert.Equal(t, codes.OutOfRange, codeOfErr(write(p4v1.Update_INSERT,
		te(id(p4src.TableSlots), 0, id(p4src.ActionToFilter), [][]byte{{0x40}, {1}}, exactM(1, 1), exactM(2, 1)))))
	vsTPID, err := s.ValueSet(p4src.ValueSetCoreTPID)
	require.NoError(t, err)
	assert.Equal(t, codes.OutOfRange, codeOfErr(write(p4v1.Update_MODIFY, &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{
		ValueSetId: vsTPID.GetPreamble().GetId(), Members: []*p4v1.ValueSetMember{{Match: []*p4v1.FieldMatch{exactM(1, 1, 0x88, 0xb5)}}}}}})))
	assert.NotEqual(t, codes.OK, codeOfErr(write(p4v1.Update_INSERT,
		te(id(p4src.TableSlots), 0, id(p4src.ActionSetLink), [][]byte{{1}, {1}}, exactM(1, 1), exactM(2, 1)))))

	// ROLLBACK_ON_ERROR: a batch with one bad update changes nothing.
	good := te(id(p4src.TableLinks), 0, id(p4src.ActionSetLink), [][]byte{{1}, {2}}, exactM(1, 33))
	bad := te(id(p4src.TableLinks), 0, id(p4src.ActionSetLink), [][]byte{{1}, {2}}, exactM(1, 0x7f))
	_, err = c.RawWrite(ctx, p4v1.WriteRequest_ROLLBACK_ON_ERROR, []*p4v1.Update{{Type: p4v1.Update_INSERT, Entity: good}, {Type: p4v1.Update_INSERT, Entity: bad}})
	require.Error(t, err)
	links, err := c.Read(ctx, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: id(p4src.TableLinks)}}})
	require.NoError(t, err)
	for _, l := range links {
		assert.NotEqual(t, []byte{33}, l.GetTableEntry().GetMatch()[0].GetExact().GetValue(), "rolled back")
	}

	// Counters: every cell of a counter, and a reset.
	cnt, err := s.Counter(p4src.CounterDrop)
	require.NoError(t, err)
	cells, err := c.Read(ctx, &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: cnt.GetPreamble().GetId()}}})
	require.NoError(t, err)
	assert.Len(t, cells, 16)
	require.NoError(t, write(p4v1.Update_MODIFY, &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{
		CounterId: cnt.GetPreamble().GetId(), Index: &p4v1.Index{Index: 1}, Data: &p4v1.CounterData{}}}}))
}
