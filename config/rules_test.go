package config_test

import (
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

func TestMatchIsZero(t *testing.T) {
	assert.True(t, config.Match{}.IsZero())
	assert.False(t, config.Match{VLANDepth: ptr(uint32(0))}.IsZero(), "vlan_depth 0 (untagged) sets something")
	assert.False(t, config.Match{Proto: ptr(config.ProtoUDP)}.IsZero())
	assert.True(t, config.HeartbeatMatch{}.IsZero())
	assert.False(t, config.HeartbeatMatch{EtherType: ptr(uint16(0x88B7))}.IsZero())
}
