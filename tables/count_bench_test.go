package tables

import (
	"fmt"
	"testing"

	"github.com/dpi-balancer/balancer/config"
)

// notListsSite is examples/site.yaml with a rule match {proto: tcp} whose
// one "not" entry lists n outer and n inner VLANs: n x n exceptions.
func notListsSite(tb testing.TB, n int) (*config.Config, config.Rule) {
	cfg := load(tb, "../examples/site.yaml")
	r := tcpRule("lists", 60000, config.Match{VLAN: vlanList(n), InnerVLAN: vlanList(n)})
	cfg.Rules = append(cfg.Rules, r)
	return cfg, r
}

// BenchmarkRuleEntries counts a rule's entries as validation does (up to
// the larger flow table's size) and exactly (no limit).
func BenchmarkRuleEntries(b *testing.B) {
	c := compiler(b)
	for _, n := range []int{300, 4094} {
		cfg, r := notListsSite(b, n)
		for _, lim := range []struct {
			name string
			n    int
		}{{"capacity", max(c.flowRules.size, c.flowRulesV6.size)}, {"exact", 1 << 30}} {
			if n == 4094 && lim.name == "exact" {
				continue // 16.7 million entries: the cap is what keeps this cheap
			}
			b.Run(fmt.Sprintf("%dx%d/%s", n, n, lim.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, _, err := c.RuleEntries(cfg, r, lim.n); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkCompileRefused: Compile refusing the n x n rule (counting stops
// past the tables' capacity; nothing is built).
func BenchmarkCompileRefused(b *testing.B) {
	c := compiler(b)
	for _, n := range []int{300, 4094} {
		cfg, _ := notListsSite(b, n)
		b.Run(fmt.Sprintf("%dx%d", n, n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Compile(cfg, State{}); err == nil {
					b.Fatal("compiled")
				}
			}
		})
	}
}
