// Package testsites builds site configurations for tests and benchmarks.
package testsites

import (
	"fmt"
	"strings"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
)

// Big is the benchmark site of the issues: 1,000 flow rules (half bypass,
// half balanced) on a Tofino platform, two links, two filter groups of 31
// and 63 cores, each alone in a balance group of 2^slotBits slots.
func Big(slotBits int) (*config.Config, error) {
	var b strings.Builder
	b.WriteString("platform: wedge100bf-32x\nports:\n")
	for p := 1; p <= 8; p++ {
		fmt.Fprintf(&b, "  - {port: %d, speed: 100G}\n", p)
	}
	b.WriteString("links:\n  - {name: L1, lan: P2, wan: P1}\n  - {name: L2, lan: P4, wan: P3}\n")
	b.WriteString("filter_groups:\n  - {name: F1, lan: P6, wan: P5, cores: 31}\n  - {name: F2, lan: P8, wan: P7, cores: 63}\n")
	fmt.Fprintf(&b, "balance_groups:\n  - {name: G1, members: [F1], slot_bits: %d}\n  - {name: G2, members: [F2], slot_bits: %d}\nrules:\n", slotBits, slotBits)
	WriteRules(&b, 1000)
	return config.Parse([]byte(b.String()))
}

// WriteRules writes n flow rules (YAML list items of "rules:"), half
// bypass, half balanced over balance groups G1 and G2, each on its own
// /24 and TCP port: the rule set of the big benchmark sites.
func WriteRules(b *strings.Builder, n int) {
	for i := 0; i < n; i++ {
		action := "bypass"
		if i%2 == 0 {
			action = fmt.Sprintf("balance G%d", 1+i%4/2)
		}
		fmt.Fprintf(b, "  - {name: r%d, priority: %d, match: {src: 10.%d.%d.0/24, proto: tcp, l4_dst: %d}, action: %s}\n",
			i, n-i, i/256, i%256, 1000+i, action)
	}
}

// TofinoSizedP4Info is the embedded v1model P4Info with the slots table of
// the Tofino build (2^17 entries): the program the software switch runs,
// sized to hold a Tofino site's layouts (a software switch made with
// SlotCapacity p4src.SlotsSizeTofino), since the P4Info a controller
// pushes sizes every table it fills.
func TofinoSizedP4Info() (*p4configv1.P4Info, error) {
	s, err := p4src.Load()
	if err != nil {
		return nil, err
	}
	info := proto.Clone(s.Info).(*p4configv1.P4Info)
	for _, t := range info.GetTables() {
		if t.GetPreamble().GetName() == p4src.TableSlots {
			t.Size = p4src.SlotsSizeTofino
		}
	}
	return info, nil
}

// TofinoYAML is the programming benchmarks' site as YAML: Big's links,
// filter groups (F1 of f1Cores cores, F2 of 63), two balance groups of
// 2^slotBits slots (16: the Tofino size) and 1,000 rules on
// wedge100bf-32x, with a port_map that keeps the software switch's port
// numbers (P1..P8 are ports 10..80).
func TofinoYAML(f1Cores, slotBits int) string {
	var b strings.Builder
	b.WriteString("site: tofino\nplatform: wedge100bf-32x\nport_map: {P1: 10, P2: 20, P3: 30, P4: 40, P5: 50, P6: 60, P7: 70, P8: 80}\nports:\n")
	for p := 1; p <= 8; p++ {
		fmt.Fprintf(&b, "  - {port: %d, speed: 100G}\n", p)
	}
	b.WriteString("links:\n  - {name: L1, lan: P2, wan: P1}\n  - {name: L2, lan: P4, wan: P3}\n")
	fmt.Fprintf(&b, "filter_groups:\n  - {name: F1, lan: P6, wan: P5, cores: %d}\n  - {name: F2, lan: P8, wan: P7, cores: 63}\n", f1Cores)
	fmt.Fprintf(&b, "balance_groups:\n  - {name: G1, members: [F1], slot_bits: %d}\n  - {name: G2, members: [F2], slot_bits: %d}\nrules:\n", slotBits, slotBits)
	WriteRules(&b, 1000)
	return b.String()
}
