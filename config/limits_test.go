package config_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
)

// TestLimitsMatchP4Info checks the configuration's limits against the
// compiled program's P4Info: table sizes and key widths.
func TestLimitsMatchP4Info(t *testing.T) {
	s, err := p4src.Load()
	require.NoError(t, err)
	size := func(table string) int64 {
		tb, err := s.Table(table)
		require.NoError(t, err)
		return tb.GetSize()
	}
	values := func(table, field string) int64 {
		tb, err := s.Table(table)
		require.NoError(t, err)
		f, err := tb.Field(field)
		require.NoError(t, err)
		return 1 << f.GetBitwidth()
	}
	for _, tt := range []struct {
		name      string
		limit     int64
		p4info    int64
		atMostToo bool // the limit may be below the P4Info's (a model limit)
	}{
		{"flow_rules size", config.FlowRulesCapacity, size(p4src.TableFlowRules), false},
		{"flow_rules_v6 size", config.FlowRulesV6Capacity, size(p4src.TableFlowRulesV6), false},
		{"slots size (BMv2 build)", config.SlotCapacitySim, size(p4src.TableSlots), false},
		{"links: link_id values", config.MaxLinks, values(p4src.TableLinks, "link_id"), false},
		{"links size", config.MaxLinks, size(p4src.TableLinks), false},
		{"filter groups: filter_group values", config.MaxFilterGroups, values(p4src.TableFilterGroups, "filter_group"), false},
		{"filter groups size", config.MaxFilterGroups, size(p4src.TableFilterGroups), false},
		{"balance groups: balance_group values", config.MaxBalanceGroups, values(p4src.TableBalanceGroups, "balance_group"), false},
		{"balance groups size", config.MaxBalanceGroups, size(p4src.TableBalanceGroups), false},
		{"slot bits: slot values", 1 << config.MaxSlotBits, values(p4src.TableSlots, "slot"), false},
		{"ports: port values", config.MaxDataPlanePort + 1, values(p4src.TablePortRole, "port"), false},
		{"flow rules: outer VLAN ids", 4096, values(p4src.TableFlowRules, "outer_vid"), false},
		{"flow rules: inner VLAN ids", 4096, values(p4src.TableFlowRulesV6, "inner_vid"), false},
		{"flow rules: L4 ports", 65536, values(p4src.TableFlowRules, "l4_dst"), false},
		{"heartbeat size", p4src.HeartbeatSize, size(p4src.TableHeartbeat), false},
		{"vlan depth", config.MaxVLANDepth + 1, values(p4src.TableFlowRules, "vlan_depth"), true},
		{"mpls depth", config.MaxMPLSDepth + 1, values(p4src.TableFlowRules, "mpls_depth"), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.atMostToo {
				assert.LessOrEqual(t, tt.limit, tt.p4info)
				return
			}
			assert.Equal(t, tt.limit, tt.p4info)
		})
	}
	// Cores: the core id has 10 bits in the core header, carried in the
	// slots table's to_filter action.
	a, err := s.Action(p4src.ActionToFilter)
	require.NoError(t, err)
	core, err := a.Param("core")
	require.NoError(t, err)
	assert.EqualValues(t, config.MaxCores, 1<<core.GetBitwidth())
}
