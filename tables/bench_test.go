package tables

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
)

// bigSite is the benchmark site of the issue: 1,000 rules and two balance
// groups of 65,536 slots each, on a Tofino platform (131,072 slots).
func bigSite(tb testing.TB) *config.Config {
	var b strings.Builder
	b.WriteString("platform: wedge100bf-32x\nports:\n")
	for p := 1; p <= 8; p++ {
		fmt.Fprintf(&b, "  - {port: %d, speed: 100G}\n", p)
	}
	b.WriteString("links:\n  - {name: L1, lan: P2, wan: P1}\n  - {name: L2, lan: P4, wan: P3}\n")
	b.WriteString("filter_groups:\n  - {name: F1, lan: P6, wan: P5, cores: 31}\n  - {name: F2, lan: P8, wan: P7, cores: 63}\n")
	b.WriteString("balance_groups:\n  - {name: G1, members: [F1], slot_bits: 16}\n  - {name: G2, members: [F2], slot_bits: 16}\nrules:\n")
	for i := 0; i < 1000; i++ {
		action := "bypass"
		if i%2 == 0 {
			action = fmt.Sprintf("balance G%d", 1+i%4/2)
		}
		fmt.Fprintf(&b, "  - {name: r%d, priority: %d, match: {src: 10.%d.%d.0/24, proto: tcp, l4_dst: %d}, action: %s}\n",
			i, 1000-i, i/256, i%256, 1000+i, action)
	}
	cfg, err := config.Parse([]byte(b.String()))
	require.NoError(tb, err)
	return cfg
}

func BenchmarkCompileBigSite(b *testing.B) {
	c := compiler(b)
	cfg := bigSite(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d, err := c.Compile(cfg, State{})
		if err != nil {
			b.Fatal(err)
		}
		if len(d.Entities) < 131072+1000 {
			b.Fatalf("only %d entities", len(d.Entities))
		}
	}
}

func BenchmarkDiffBigSite(b *testing.B) {
	c := compiler(b)
	cfg := bigSite(b)
	d1, err := c.Compile(cfg, State{})
	require.NoError(b, err)
	d2, err := c.Compile(cfg, State{Rebalanced: map[string]bool{"F1": true}, FilterGroups: map[string]FilterGroupState{"F2": FGSWBypass}})
	require.NoError(b, err)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := c.Diff(d2.Entities, d1.Entities)
		if p.Empty() {
			b.Fatal("empty plan")
		}
	}
}
