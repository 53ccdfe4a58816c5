package tables

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
)

func vlanList(n int) []config.Range {
	out := make([]config.Range, n)
	for i := range out {
		out[i] = config.Range{Lo: uint32(i + 1), Hi: uint32(i + 1)}
	}
	return out
}

func tcpRule(name string, prio uint32, not ...config.Match) config.Rule {
	tcp := config.ProtoTCP
	return config.Rule{Name: name, Priority: prio, Action: "bypass", Match: config.Match{Proto: &tcp}, Not: not}
}

// TestRuleEntriesAreTheCompilers: the count is what Compile writes, not an
// estimate: match {proto: tcp} with not [{vlan: [1..8], l4_port: 80}] is
// 1 + 8 x 2 entries in each flow table.
func TestRuleEntriesAreTheCompilers(t *testing.T) {
	c := compiler(t)
	cfg := load(t, "../examples/site.yaml")
	r := tcpRule("web-exceptions", 60000, config.Match{VLAN: vlanList(8), L4Port: &config.Range{Lo: 80, Hi: 80}})
	v4, v6, err := c.RuleEntries(cfg, r, 1<<20)
	require.NoError(t, err)
	assert.Equal(t, 17, v4)
	assert.Equal(t, 17, v6)

	base, err := c.Compile(cfg, State{})
	require.NoError(t, err)
	cfg.Rules = append(cfg.Rules, r)
	with, err := c.Compile(cfg, State{})
	require.NoError(t, err)
	assert.Equal(t, v4, len(entriesOf(with, c.flowRules.id))-len(entriesOf(base, c.flowRules.id)))
	assert.Equal(t, v6, len(entriesOf(with, c.flowRulesV6.id))-len(entriesOf(base, c.flowRulesV6.id)))

	// Repeated list values make no extra entries; counting stops past the
	// limit.
	dup := tcpRule("dup", 60001, config.Match{VLAN: append(vlanList(8), vlanList(8)...)})
	v4, _, err = c.RuleEntries(cfg, dup, 1<<20)
	require.NoError(t, err)
	assert.Equal(t, 9, v4)
	v4, _, err = c.RuleEntries(cfg, dup, 3)
	require.NoError(t, err)
	assert.Equal(t, 4, v4, "stops at limit+1")
}

func hugeNotSite(t testing.TB) *config.Config {
	cfg := load(t, "../examples/site.yaml")
	cfg.Rules = append(cfg.Rules, tcpRule("huge", 60000, config.Match{VLAN: vlanList(4094), InnerVLAN: vlanList(4094)}))
	return cfg
}

// TestHugeNotRefusedWithoutAllocating: a "not" with two 4094-long VLAN
// lists (16.7 million entries) is refused with an error naming the rule,
// and costs a few megabytes, not gigabytes.
func TestHugeNotRefusedWithoutAllocating(t *testing.T) {
	c := compiler(t)
	cfg := hugeNotSite(t)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := c.Compile(cfg, State{})
	runtime.ReadMemStats(&after)
	require.ErrorIs(t, err, ErrCapacity)
	assert.Contains(t, err.Error(), `BalancerIngress.flow_rules_v6: at least 5121 entries exceed its 1024 capacity (rules[5] "huge" alone expands to at least 5115;`)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<20), "bytes allocated")
}

// BenchmarkCompileHugeNot measures refusing the rule above.
func BenchmarkCompileHugeNot(b *testing.B) {
	c := compiler(b)
	cfg := hugeNotSite(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Compile(cfg, State{}); err == nil {
			b.Fatal("compiled")
		}
	}
}
