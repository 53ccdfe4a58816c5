package config_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
)

// deadSite is a valid site with the given rules: section.
func deadSite(t *testing.T, rules string) *config.Config {
	t.Helper()
	cfg, err := config.Parse([]byte(`ports: [{port: 9, speed: 100G}, {port: 10, speed: 100G}, {port: 11, speed: 100G}, {port: 12, speed: 100G}, {port: 1, speed: 100G}, {port: 2, speed: 100G}]
links: [{name: L1, lan: P10, wan: P9}, {name: L2, lan: P12, wan: P11}]
filter_groups: [{name: F1, lan: P2, wan: P1}]
balance_groups: [{name: g, members: [F1]}]
rules:
` + rules))
	require.NoError(t, err)
	return cfg
}

// TestRuleWarnings: each way a rule can never match is named by the
// rule's own name, with why and what to do; rules that can match are not.
func TestRuleWarnings(t *testing.T) {
	tests := []struct {
		name  string
		rules string
		path  string // "" when no warning is wanted
		want  []string
	}{
		{"not equal to the match", `  - {name: web, priority: 10, action: balance g, match: {proto: tcp}, not: [{proto: tcp}]}`,
			"rules[0].not[0]", []string{`rule "web" can never apply its action "balance g": its not[0] covers the rule's whole match`, "narrow the not entry"}},
		{"not wider than the match", `  - {name: web, priority: 10, action: balance g, match: {proto: tcp, l4_dst: 80, vlan: [5-9]}, not: [{vlan: [1-20]}]}`,
			"rules[0].not[0]", []string{`rule "web" can never apply`}},
		{"not of every VLAN", `  - {name: tagged, priority: 10, action: balance g, match: {proto: udp}, not: [{vlan: [1-2000, 2001-4094]}]}`,
			"rules[0].not[0]", []string{`rule "tagged": its not[0] covers every value of vlan (1..4094: every tagged packet)`, "vlan_depth: 0"}},
		{"not entries together of every VLAN", `  - {name: split, priority: 10, action: balance g, match: {proto: udp}, not: [{vlan: [1-2000]}, {vlan: [2001-4094], proto: udp}, {l4_dst: 53}]}`,
			"rules[0].not", []string{`rule "split": its not entries not[0], not[1] together cover every value of vlan (1..4094: every tagged packet)`, "vlan_depth: 0"}},
		{"not entries together of every inner VLAN", `  - {name: qinq, priority: 10, action: balance g, not: [{inner_vlan: [1-100]}, {inner_vlan: [101-4094]}]}`,
			"rules[0].not", []string{`rule "qinq": its not entries not[0], not[1] together cover every value of inner_vlan (1..4094: every double-tagged packet)`}},
		{"not entries together of the match's VLANs", `  - {name: part, priority: 10, action: balance g, match: {vlan: [10-30]}, not: [{vlan: [10-19]}, {vlan: [20-30]}]}`,
			"rules[0].not", []string{`rule "part" can never apply its action "balance g": its not entries not[0], not[1] together cover every vlan of the rule's match`, "narrow the not entries"}},
		{"not of every port", `  - {name: ports, priority: 10, action: balance g, match: {proto: tcp}, not: [{l4_port: 0-65535}]}`,
			"rules[0].not[0]", []string{`covers every value of l4_port (0..65535`}},
		{"shadowed by the same match", "  - {name: a, priority: 20, action: bypass, match: {proto: tcp}}\n  - {name: b, priority: 10, action: balance g, match: {proto: tcp}}",
			"rules[1]", []string{`rule "b" (priority 10) can never match: rule "a" (priority 20) has the same match on every link and wins every lookup first`, `give "b" a priority above 20`}},
		{"shadowed by a wider match, whatever its nots", "  - {name: a, priority: 20, action: bypass, match: {src: 10.0.0.0/8}, not: [{proto: udp}]}\n  - {name: b, priority: 10, action: balance g, links: [L1], match: {src: 10.1.0.0/16, proto: tcp, l4_port: 80}}",
			"rules[1]", []string{`rule "b" (priority 10) can never match: rule "a" (priority 20) has a wider match on its links (L1)`}},

		{"not of part of the match", `  - {name: ok, priority: 10, action: balance g, match: {proto: tcp}, not: [{l4_dst: 80}]}`, "", nil},
		{"not entries of VLANs with a gap", `  - {name: ok, priority: 10, action: balance g, not: [{vlan: [1-2000]}, {vlan: [2002-4094]}]}`, "", nil},
		{"not entries of every VLAN, one of UDP only", `  - {name: ok, priority: 10, action: balance g, not: [{vlan: [1-2000]}, {vlan: [2001-4094], proto: udp}]}`, "", nil},
		{"not entries of part of the match's VLANs", `  - {name: ok, priority: 10, action: balance g, match: {vlan: [10-30]}, not: [{vlan: [10-19]}, {vlan: [21-30]}]}`, "", nil},
		{"not of every VLAN of UDP only", `  - {name: ok, priority: 10, action: balance g, not: [{vlan: [1-4094], proto: udp}]}`, "", nil},
		{"higher rule narrower", "  - {name: a, priority: 20, action: bypass, match: {proto: tcp, l4_dst: 80}}\n  - {name: b, priority: 10, action: balance g, match: {proto: tcp}}", "", nil},
		{"higher rule on fewer links", "  - {name: a, priority: 20, action: bypass, links: [L1], match: {proto: tcp}}\n  - {name: b, priority: 10, action: balance g, match: {proto: tcp}}", "", nil},
		{"lower rule wider", "  - {name: a, priority: 10, action: bypass, match: {proto: tcp}}\n  - {name: b, priority: 20, action: balance g, match: {proto: tcp, l4_port: 443}}", "", nil},
		{"VLAN list not wide enough", "  - {name: a, priority: 20, action: bypass, match: {vlan: [1-10]}}\n  - {name: b, priority: 10, action: balance g}", "", nil},
		{"l4_port is source or destination", "  - {name: a, priority: 20, action: bypass, match: {proto: tcp, l4_src: 80}}\n  - {name: b, priority: 10, action: balance g, match: {proto: tcp, l4_port: 80}}", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := deadSite(t, tt.rules).RuleWarnings()
			if tt.path == "" {
				assert.Empty(t, ws)
				return
			}
			require.Len(t, ws, 1, "%v", ws)
			assert.Equal(t, tt.path, ws[0].Path)
			for _, w := range tt.want {
				assert.Contains(t, ws[0].Msg, w)
			}
		})
	}
}

// TestRuleWarningsExampleSite: the example site's rules all can match.
func TestRuleWarningsExampleSite(t *testing.T) {
	cfg, err := config.Load("../examples/site.yaml")
	require.NoError(t, err)
	assert.Empty(t, cfg.RuleWarnings())
}

// TestRuleWarningsManyRulesBounded: 5000 rules are analysed without the
// pairwise shadow search (it is bounded), and quickly.
func TestRuleWarningsManyRulesBounded(t *testing.T) {
	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, "  - {name: r%d, priority: %d, action: bypass, match: {proto: tcp}}\n", i, 10+i)
	}
	assert.Empty(t, deadSite(t, b.String()).RuleWarnings(), "past the bound, no shadow search")
	b.Reset()
	for i := range 1000 {
		fmt.Fprintf(&b, "  - {name: r%d, priority: %d, action: bypass, match: {proto: tcp}}\n", i, 10+i)
	}
	assert.Len(t, deadSite(t, b.String()).RuleWarnings(), 999, "under it, each rule below the first is shadowed")
}
