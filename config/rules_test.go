package config_test

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
)

func TestParseAction(t *testing.T) {
	tests := []struct {
		name    string
		action  string
		act     config.RuleAction
		group   string
		wantErr string
	}{
		{name: "bypass", action: "bypass", act: config.ActionBypass},
		{name: "balance", action: "balance group_filter", act: config.ActionBalance, group: "group_filter"},
		{name: "extra spaces", action: "  balance   g1 ", act: config.ActionBalance, group: "g1"},
		{name: "empty", action: "", wantErr: `missing; write "bypass" or "balance <group>"`},
		{name: "balance without group", action: "balance", wantErr: `"balance" names no balance group; write "balance <group>"`},
		{name: "drop", action: "drop", wantErr: `"drop" is not "bypass" or "balance <group>"`},
		{name: "bypass with argument", action: "bypass g1", wantErr: `"bypass g1" is not "bypass" or "balance <group>"`},
		{name: "two groups", action: "balance g1 g2", wantErr: `"balance g1 g2" is not "bypass" or "balance <group>"`},
		{name: "case matters", action: "Bypass", wantErr: `"Bypass" is not "bypass" or "balance <group>"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			act, group, err := config.Rule{Action: tt.action}.ParseAction()
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.ErrorIs(t, err, config.ErrBadAction)
				assert.Equal(t, tt.wantErr, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.act, act)
			assert.Equal(t, tt.group, group)
		})
	}
	assert.Equal(t, "bypass", config.ActionBypass.String())
	assert.Equal(t, "balance", config.ActionBalance.String())
	assert.Equal(t, "RuleAction(9)", config.RuleAction(9).String())
}

func TestEntryCount(t *testing.T) {
	v4 := config.PrefixFrom(netip.MustParsePrefix("10.0.0.0/8"))
	v6 := config.PrefixFrom(netip.MustParsePrefix("2001:db8::/32"))
	vlans := func(n int) []config.Range { return make([]config.Range, n) }
	tests := []struct {
		name   string
		rule   config.Rule
		v4, v6 int
	}{
		{name: "catch-all", rule: config.Rule{}, v4: 1, v6: 1},
		{name: "all links", rule: config.Rule{Links: []string{"all"}}, v4: 1, v6: 1},
		{name: "listed links", rule: config.Rule{Links: []string{"L1", "L2", "L3"}}, v4: 3, v6: 3},
		{name: "vlans", rule: config.Rule{Match: config.Match{VLAN: vlans(5)}}, v4: 5, v6: 5},
		{name: "vlans x inner vlans", rule: config.Rule{Match: config.Match{VLAN: vlans(3), InnerVLAN: vlans(4)}}, v4: 12, v6: 12},
		{name: "l4_port doubles", rule: config.Rule{Match: config.Match{L4Port: &config.Range{Lo: 179, Hi: 179}}}, v4: 2, v6: 2},
		{name: "not entries", rule: config.Rule{Not: []config.Match{{Src: &v4}, {Src: &v6}}}, v4: 3, v6: 3},
		{name: "ipv4 only", rule: config.Rule{Match: config.Match{Dst: &v4}}, v4: 1, v6: 0},
		{name: "ipv6 only", rule: config.Rule{Match: config.Match{Src: &v6}}, v4: 0, v6: 1},
		{
			name: "everything",
			rule: config.Rule{
				Links: []string{"L1", "L2"},
				Match: config.Match{Src: &v4, VLAN: vlans(2), InnerVLAN: vlans(3), L4Port: &config.Range{Lo: 80, Hi: 80}},
				Not:   []config.Match{{Dst: &v4}},
			},
			v4: 2 * 2 * 3 * 2 * 2, v6: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := tt.rule.EntryCount(4)
			assert.Equal(t, tt.v4, a, "v4")
			assert.Equal(t, tt.v6, b, "v6")
		})
	}
}

func TestMatchIsZero(t *testing.T) {
	assert.True(t, config.Match{}.IsZero())
	assert.False(t, config.Match{VLANDepth: ptr(uint32(0))}.IsZero(), "vlan_depth 0 (untagged) sets something")
	assert.False(t, config.Match{Proto: ptr(config.ProtoUDP)}.IsZero())
	assert.True(t, config.HeartbeatMatch{}.IsZero())
	assert.False(t, config.HeartbeatMatch{EtherType: ptr(uint16(0x88B7))}.IsZero())
}
