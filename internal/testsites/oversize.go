package testsites

import (
	"fmt"
	"strings"
)

// Shape is one configuration file too big for the switch's tables.
type Shape struct {
	Name string
	YAML string
}

// smallSite is a valid site on the software switch whose rules: section
// comes last, so a shape appends its rules.
const smallSite = `site: oversize
platform: sim
ports:
  - {port: 1, speed: 100G}
  - {port: 2, speed: 100G}
  - {port: 3, speed: 100G}
  - {port: 4, speed: 100G}
  - {port: 5, speed: 100G}
  - {port: 6, speed: 100G}
links:
  - {name: L1, lan: P2, wan: P1}
  - {name: L2, lan: P4, wan: P3}
filter_groups:
  - {name: F1, lan: P6, wan: P5, cores: 4}
balance_groups:
  - {name: G1, members: [F1]}
rules:
  - {name: default, priority: 1, action: bypass}
`

// Oversize returns 22 files of different shapes, each of which cannot fit
// the flow-rule tables of the software switch: long "not" lists of VLANs,
// MACs, IPv4 and IPv6 prefixes and port ranges, VLAN lists and their cross
// products, port ranges that expand into many prefixes, many rules, and a
// file near the 1 MiB limit. Validation must refuse each quickly, whatever
// the shape.
func Oversize() []Shape {
	var out []Shape
	add := func(name string, write func(b *strings.Builder)) {
		var b strings.Builder
		b.WriteString(smallSite)
		write(&b)
		out = append(out, Shape{Name: name, YAML: b.String()})
	}
	// A rule with one "not" entry per item.
	notRule := func(b *strings.Builder, match string, n int, entry func(i int) string) {
		fmt.Fprintf(b, "  - name: big\n    priority: 60000\n    action: balance G1\n    match: {%s}\n    not:\n", match)
		for i := range n {
			fmt.Fprintf(b, "      - {%s}\n", entry(i))
		}
	}
	vlans := func(n, step int) string {
		var parts []string
		for i := range n {
			parts = append(parts, fmt.Sprint(1+(i*step)%4094))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	add("not: 4094 single VLANs", func(b *strings.Builder) {
		notRule(b, "proto: tcp", 4094, func(i int) string { return fmt.Sprintf("vlan: [%d]", 1+i) })
	})
	// Each "not" meets one of the match's values only: counting the
	// entries finds few, but pairing 4094 values with 4094 exceptions is
	// 16.7 million intersections.
	add("not: 4094 single VLANs x match of 4094 VLANs", func(b *strings.Builder) {
		notRule(b, "proto: tcp, vlan: "+vlans(4094, 1), 4094, func(i int) string { return fmt.Sprintf("vlan: [%d]", 1+i) })
	})
	add("not: 4094 single inner VLANs", func(b *strings.Builder) {
		notRule(b, "proto: udp", 4094, func(i int) string { return fmt.Sprintf("inner_vlan: [%d]", 1+i) })
	})
	add("not: one entry of 4094 x 4094 VLANs", func(b *strings.Builder) {
		notRule(b, "proto: tcp", 1, func(int) string { return "vlan: " + vlans(2047, 2) + ", inner_vlan: " + vlans(2047, 2) })
	})
	add("match: 2047 odd VLANs", func(b *strings.Builder) {
		fmt.Fprintf(b, "  - {name: big, priority: 60000, action: bypass, match: {vlan: %s}}\n", vlans(2047, 2))
	})
	add("match: 300 VLANs x 300 inner VLANs", func(b *strings.Builder) {
		fmt.Fprintf(b, "  - {name: big, priority: 60000, action: bypass, match: {vlan: %s, inner_vlan: %s}}\n", vlans(300, 7), vlans(300, 11))
	})
	add("match: worst port ranges x 100 VLANs", func(b *strings.Builder) {
		fmt.Fprintf(b, "  - {name: big, priority: 60000, action: bypass, match: {proto: tcp, l4_src: 1-65534, l4_dst: 1-65534, vlan: %s}}\n", vlans(100, 3))
	})
	add("match: l4_port 1-65534 x 200 VLANs", func(b *strings.Builder) {
		fmt.Fprintf(b, "  - {name: big, priority: 60000, action: bypass, match: {proto: udp, l4_port: 1-65534, vlan: %s}}\n", vlans(200, 5))
	})
	add("not: 3000 port ranges", func(b *strings.Builder) {
		notRule(b, "proto: tcp", 3000, func(i int) string { return fmt.Sprintf("l4_dst: %d-%d", 1+i*21, 1+i*21+13) })
	})
	add("not: 1000 x l4_src 1-65534", func(b *strings.Builder) {
		notRule(b, "proto: tcp", 1000, func(i int) string { return fmt.Sprintf("l4_src: 1-65534, vlan: [%d]", 1+i) })
	})
	add("not: 5000 IPv4 prefixes", func(b *strings.Builder) {
		notRule(b, "proto: tcp", 5000, func(i int) string { return fmt.Sprintf("src: 10.%d.%d.0/24", i/256, i%256) })
	})
	add("not: 3000 IPv6 prefixes", func(b *strings.Builder) {
		notRule(b, "dst: 2001:db8::/32", 3000, func(i int) string { return fmt.Sprintf("src: 2001:db8:%x::/48", i) })
	})
	add("not: 4000 IPv4 and IPv6 prefixes", func(b *strings.Builder) {
		notRule(b, "proto: udp", 4000, func(i int) string {
			if i%2 == 0 {
				return fmt.Sprintf("dst: 192.%d.%d.0/24", i/256, i%256)
			}
			return fmt.Sprintf("dst: 2001:db8:%x::/48", i)
		})
	})
	add("not: 5000 source MACs", func(b *strings.Builder) {
		notRule(b, "proto: tcp", 5000, func(i int) string { return fmt.Sprintf("src_mac: 02:00:00:00:%02x:%02x", i/256, i%256) })
	})
	add("not: 5000 masked destination MACs", func(b *strings.Builder) {
		notRule(b, "proto: tcp", 5000, func(i int) string {
			return fmt.Sprintf("dst_mac: 02:%02x:%02x:00:00:00/ff:ff:ff:00:00:00", i/256, i%256)
		})
	})
	add("not: 100 entries of 100 VLANs", func(b *strings.Builder) {
		notRule(b, "proto: tcp", 100, func(i int) string { return "vlan: " + vlans(100, 1+i) })
	})
	add("5000 rules", func(b *strings.Builder) {
		for i := range 5000 {
			fmt.Fprintf(b, "  - {name: r%d, priority: %d, action: bypass, match: {src: 10.%d.%d.0/24, proto: tcp}}\n", i, 10+i, i/256, i%256)
		}
	})
	add("1500 IPv6 rules", func(b *strings.Builder) {
		for i := range 1500 {
			fmt.Fprintf(b, "  - {name: r%d, priority: %d, action: bypass, match: {dst: 2001:db8:%x::/48}}\n", i, 10+i, i)
		}
	})
	add("500 rules of 20 VLANs", func(b *strings.Builder) {
		for i := range 500 {
			fmt.Fprintf(b, "  - {name: r%d, priority: %d, action: bypass, match: {vlan: %s}}\n", i, 10+i, vlans(20, 1+i))
		}
	})
	add("2000 rules each with 2 not entries", func(b *strings.Builder) {
		for i := range 2000 {
			fmt.Fprintf(b, "  - {name: r%d, priority: %d, action: bypass, match: {proto: tcp}, not: [{l4_dst: %d}, {l4_src: %d}]}\n", i, 10+i, i, i)
		}
	})
	add("rule on two links x 3000 VLANs", func(b *strings.Builder) {
		fmt.Fprintf(b, "  - {name: big, priority: 60000, action: bypass, links: [L1, L2], match: {vlan: %s}}\n", vlans(3000, 1))
	})
	add("near 1 MiB of not entries", func(b *strings.Builder) {
		n := 0
		for b.Len() < 1<<20-20000 {
			if n == 0 {
				b.WriteString("  - name: big\n    priority: 60000\n    action: balance G1\n    match: {proto: tcp}\n    not:\n")
			}
			fmt.Fprintf(b, "      - {src: 10.%d.%d.%d/32}\n", n>>16&255, n>>8&255, n&255)
			n++
		}
	})
	return out
}
