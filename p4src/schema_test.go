package p4src

import (
	"testing"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	exact   = p4configv1.MatchField_EXACT
	ternary = p4configv1.MatchField_TERNARY
	rng     = p4configv1.MatchField_RANGE
)

type field struct {
	name string
	kind p4configv1.MatchField_MatchType
	bits int32
}

type param struct {
	name string
	bits int32
}

// TestSchemaContract pins everything the Go code relies on in the committed
// P4Info: names, ids, match kinds, widths, sizes. A drift in the P4 program
// breaks this test, not a switch.
func TestSchemaContract(t *testing.T) {
	s, err := Load()
	require.NoError(t, err)

	rule := []field{
		{"link_id", ternary, 6}, {"outer_vid", ternary, 12}, {"inner_vid", ternary, 12},
		{"vlan_depth", ternary, 2}, {"mpls_depth", ternary, 4},
		{"src_mac", ternary, 48}, {"dst_mac", ternary, 48}, {"eth_type", ternary, 16},
	}
	l4 := []field{{"ip_proto", ternary, 8}, {"l4_src", ternary, 16}, {"l4_dst", ternary, 16}}
	v4 := append(append(append([]field{}, rule...), field{"is_ipv4", ternary, 1}, field{"ipv4_src", ternary, 32}, field{"ipv4_dst", ternary, 32}), l4...)
	v6 := append(append(append([]field{}, rule...), field{"ipv6_src", ternary, 128}, field{"ipv6_dst", ternary, 128}), l4...)

	tables := []struct {
		name    string
		id      uint32
		size    int64
		fields  []field
		actions []string
		def     string
		constDf bool
		direct  string
	}{
		{TablePortRole, 0x02000001, PortRoleSize, []field{{"port", exact, 9}}, []string{ActionSetOperatorPort, ActionSetFilterPort}, ActionUnknownPort, true, ""},
		{TableHeartbeat, 0x02000002, HeartbeatSize, []field{{"dst_mac", ternary, 48}, {"eth_type", ternary, 16}}, []string{ActionHeartbeatPass}, ActionNoHeartbeat, true, ""},
		{TableFlowRules, 0x02000003, FlowRulesSize, v4, []string{ActionBypass, ActionBalance}, ActionBypass, false, DirectFlowRules},
		{TableFlowRulesV6, 0x02000004, FlowRulesV6Size, v6, []string{ActionBypassV6, ActionBalanceV6}, ActionBypassV6, false, DirectFlowRulesV6},
		{TableBalanceGroups, 0x02000005, BalanceGroupSize, []field{{"balance_group", exact, 4}}, []string{ActionGroupActive, ActionGroupBypass, ActionGroupDrop}, ActionGroupBypass, false, ""},
		{TableSlots, 0x02000006, SlotsSizeBMv2, []field{{"balance_group", exact, 4}, {"slot", exact, 16}}, []string{ActionToFilter}, ActionSlotMiss, true, ""},
		{TableFilterGroups, 0x02000007, FilterGroupSize, []field{{"filter_group", exact, 6}}, []string{ActionFilterForward, ActionFilterSWBypass, ActionFilterDrop}, ActionFilterSWBypass, false, ""},
		{TableLinks, 0x02000008, LinkTableSize, []field{{"link_id", exact, 6}}, []string{ActionSetLink}, ActionUnknownLink, true, ""},
	}
	for _, tt := range tables {
		t.Run(tt.name, func(t *testing.T) {
			tb, err := s.Table(tt.name)
			require.NoError(t, err)
			assert.Equal(t, tt.id, tb.GetPreamble().GetId())
			assert.Equal(t, tt.size, tb.GetSize())
			require.Len(t, tb.GetMatchFields(), len(tt.fields))
			for i, f := range tt.fields {
				mf := tb.GetMatchFields()[i]
				assert.Equal(t, f.name, mf.GetName(), "field %d", i)
				assert.Equal(t, f.kind, mf.GetMatchType(), "field %s", f.name)
				assert.Equal(t, f.bits, mf.GetBitwidth(), "field %s", f.name)
				assert.Equal(t, uint32(i+1), mf.GetId(), "field %s", f.name)
			}
			for _, a := range tt.actions {
				act, err := s.Action(a)
				require.NoError(t, err)
				assert.True(t, tb.Actions[act.GetPreamble().GetId()], "action %s allowed in entries", a)
			}
			def, err := s.Action(tt.def)
			require.NoError(t, err)
			if tt.constDf {
				assert.Equal(t, def.GetPreamble().GetId(), tb.GetConstDefaultActionId(), "const default action")
			} else {
				// The initial default of a non-const default is in the BMv2
				// JSON only; the P4Info must at least list the action.
				assert.Zero(t, tb.GetConstDefaultActionId())
				var refs []uint32
				for _, r := range tb.GetActionRefs() {
					refs = append(refs, r.GetId())
				}
				assert.Contains(t, refs, def.GetPreamble().GetId())
			}
			if tt.direct == "" {
				assert.Empty(t, tb.GetDirectResourceIds(), "no direct counter")
			}
			if tt.direct != "" {
				dc, err := s.DirectCounter(tt.direct)
				require.NoError(t, err)
				assert.Equal(t, tb.GetPreamble().GetId(), dc.GetDirectTableId())
				assert.Contains(t, tb.GetDirectResourceIds(), dc.GetPreamble().GetId())
				assert.Equal(t, p4configv1.CounterSpec_BOTH, dc.GetSpec().GetUnit())
			}
		})
	}

	actions := []struct {
		name   string
		id     uint32
		params []param
	}{
		{ActionSetOperatorPort, 0x01000001, []param{{"link_id", 6}, {"side", 1}, {"peer_port", 9}}},
		{ActionSetFilterPort, 0x01000002, []param{{"filter_group", 6}, {"side", 1}}},
		{ActionUnknownPort, 0x01000003, nil},
		{ActionHeartbeatPass, 0x01000004, nil},
		{ActionBypass, 0x01000005, nil},
		{ActionBalance, 0x01000006, []param{{"group", 4}}},
		{ActionBypassV6, 0x01000007, nil},
		{ActionBalanceV6, 0x01000008, []param{{"group", 4}}},
		{ActionGroupActive, 0x01000009, []param{{"slot_mask", 16}}},
		{ActionGroupBypass, 0x0100000a, nil},
		{ActionGroupDrop, 0x0100000b, nil},
		{ActionToFilter, 0x0100000c, []param{{"filter_group", 6}, {"core", 10}}},
		{ActionFilterForward, 0x0100000d, []param{{"lan_port", 9}, {"wan_port", 9}, {"tpid", 16}, {ParamEpoch, 8}, {ParamDetect, 32}, {ParamFailDrop, 1}}},
		{ActionFilterSWBypass, 0x0100000e, nil},
		{ActionFilterDrop, 0x0100000f, nil},
		{ActionSetLink, 0x01000010, []param{{"lan_port", 9}, {"wan_port", 9}}},
		{ActionUnknownLink, 0x01000011, nil},
		{ActionNoHeartbeat, 0x01000012, nil},
		{ActionSlotMiss, 0x01000013, nil},
	}
	for _, tt := range actions {
		t.Run(tt.name, func(t *testing.T) {
			a, err := s.Action(tt.name)
			require.NoError(t, err)
			assert.Equal(t, tt.id, a.GetPreamble().GetId())
			require.Len(t, a.GetParams(), len(tt.params))
			for i, p := range tt.params {
				assert.Equal(t, p.name, a.GetParams()[i].GetName())
				assert.Equal(t, p.bits, a.GetParams()[i].GetBitwidth(), "param %s", p.name)
				assert.Equal(t, uint32(i+1), a.GetParams()[i].GetId())
			}
		})
	}

	counters := []struct {
		name string
		id   uint32
		size int64
	}{
		{CounterPortRx, 0x12000001, 512},
		{CounterLink, 0x12000002, LinkTableSize * LinkCntKinds},
		{CounterFilterGroup, 0x12000003, FilterGroupSize * FGCntKinds},
		{CounterDrop, 0x12000004, 16},
		{CounterPortTx, 0x12000005, 512},
		{CounterCore, 0x12000006, FilterGroupSize * CoreCounterCores},
		{CounterVerdict, 0x12000007, FilterGroupSize * 2},
	}
	for _, tt := range counters {
		c, err := s.Counter(tt.name)
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.id, c.GetPreamble().GetId(), tt.name)
		assert.Equal(t, tt.size, c.GetSize(), tt.name)
		assert.Equal(t, p4configv1.CounterSpec_BOTH, c.GetSpec().GetUnit(), tt.name)
	}

	for _, vs := range []struct {
		name string
		id   uint32
		size int32
	}{{ValueSetCoreTPID, 0x03000001, 4}, {ValueSetKeepAlive, 0x03000002, 2}} {
		v, err := s.ValueSet(vs.name)
		require.NoError(t, err, vs.name)
		assert.Equal(t, vs.id, v.GetPreamble().GetId(), vs.name)
		assert.Equal(t, vs.size, v.GetSize(), vs.name)
		require.Len(t, v.GetMatch(), 1)
		assert.Equal(t, int32(16), v.GetMatch()[0].GetBitwidth())
		assert.Equal(t, uint32(1), v.GetMatch()[0].GetId())
	}

	headers := map[string][]param{
		HeaderPacketIn:  {{"ingress_port", 9}, {"_pad0", 7}, {"reason", 8}, {"rx_timestamp", 48}},
		HeaderPacketOut: {{"egress_port", 9}, {"_pad0", 7}, {"flags", 8}},
	}
	for name, fields := range headers {
		h, err := s.ControllerHeader(name)
		require.NoError(t, err, name)
		require.Len(t, h.GetMetadata(), len(fields), name)
		for i, f := range fields {
			m := h.GetMetadata()[i]
			assert.Equal(t, f.name, m.GetName(), name)
			assert.Equal(t, f.bits, m.GetBitwidth(), "%s.%s", name, f.name)
			assert.Equal(t, uint32(i+1), m.GetId(), "%s.%s", name, f.name)
		}
	}
}

func TestUnknownNamesAreErrors(t *testing.T) {
	s, err := Load()
	require.NoError(t, err)
	_, err = s.Table("Ingress.nope")
	assert.ErrorIs(t, err, ErrUnknownName)
	tb, err := s.Table(TableSlots)
	require.NoError(t, err)
	_, err = tb.Field("nope")
	assert.ErrorIs(t, err, ErrUnknownName)
	_, err = s.Action("nope")
	assert.ErrorIs(t, err, ErrUnknownName)
	_, err = s.Counter("nope")
	assert.ErrorIs(t, err, ErrUnknownName)
	// Aliases resolve too.
	a, err := s.Table("flow_rules")
	require.NoError(t, err)
	assert.Equal(t, TableFlowRules, a.GetPreamble().GetName())
}

// TestCounterIndexLayout: every (object, kind) has its own index inside
// the counter, and the kinds fit the bits the index gives them.
func TestCounterIndexLayout(t *testing.T) {
	s, err := Load()
	require.NoError(t, err)
	for _, tt := range []struct {
		counter        string
		objects, kinds uint32
		index          func(obj, kind uint32) uint32
	}{
		{CounterLink, LinkTableSize, LinkCntKinds, LinkCounterIndex},
		{CounterFilterGroup, FilterGroupSize, FGCntKinds, FilterGroupCounterIndex},
		{CounterCore, FilterGroupSize, CoreCounterCores, CoreCounterIndex},
	} {
		t.Run(tt.counter, func(t *testing.T) {
			c, err := s.Counter(tt.counter)
			require.NoError(t, err)
			seen := map[uint32]bool{}
			for o := range tt.objects {
				for k := range tt.kinds {
					i := tt.index(o, k)
					require.False(t, seen[i], "index %d twice", i)
					seen[i] = true
					require.Less(t, int64(i), c.GetSize())
				}
			}
		})
	}
}

// TestCoreCounterIndex: CoreCounterTarget inverts CoreCounterIndex over
// the whole counter, and refuses indices outside it.
func TestCoreCounterIndex(t *testing.T) {
	for fg := range uint32(FilterGroupSize) {
		for core := range uint32(CoreCounterCores) {
			i := CoreCounterIndex(fg, core)
			gfg, gcore, ok := CoreCounterTarget(int64(i))
			require.True(t, ok, "index %d", i)
			require.Equal(t, [2]uint32{fg, core}, [2]uint32{gfg, gcore}, "index %d", i)
		}
	}
	assert.Equal(t, uint32(5<<10|3), CoreCounterIndex(5, 3), "filter_group ++ core")
	for _, i := range []int64{-1, CoreCounterSize, 1 << 40} {
		_, _, ok := CoreCounterTarget(i)
		assert.False(t, ok, "index %d", i)
	}
}
