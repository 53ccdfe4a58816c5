package tables

import (
	"fmt"
	"math/rand/v2"
	"net/netip"
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

// TestTooManyRules: rules past both flow tables are refused with the
// compiler's exact counts (here both equal the product of the lists), as
// problems at "rules" in the shape of the configuration's other problems.
func TestTooManyRules(t *testing.T) {
	c := compiler(t)
	cfg := load(t, "testdata/too_many_rules.yaml")
	want := []string{
		`rules: 5120 entries for the IPv4 table exceed its 4096 capacity (rules[3] "x" alone expands to 2048)`,
		`rules: 2048 entries for the IPv6 table exceed its 1024 capacity (rules[4] "y" alone expands to 2048)`,
	}
	for name, err := range map[string]error{"CheckCapacity": c.CheckCapacity(cfg), "Compile": compileErr(c, cfg)} {
		require.ErrorIs(t, err, ErrCapacity, name)
		require.ErrorIs(t, err, config.ErrCapacity, name)
		fes := config.FieldErrors(err)
		require.Len(t, fes, len(want), name)
		for i, fe := range fes {
			assert.Equal(t, want[i], fe.Error(), name)
			assert.Equal(t, "rules", fe.Path, name)
		}
	}
	assert.NoError(t, c.CheckCapacity(load(t, "../examples/site.yaml")))
}

func compileErr(c *Compiler, cfg *config.Config) error {
	_, err := c.Compile(cfg, State{})
	return err
}

// TestSiteEntries: the example site's rules, counted exactly: bgp's
// l4_port is two entries in each table, multicast one in its own family's
// table, vlan [1, 100-110] five (1, and 100-110 as the prefixes 100-103,
// 104-107, 108-109, 110), the catch-all one.
func TestSiteEntries(t *testing.T) {
	c := compiler(t)
	cfg := load(t, "../examples/site.yaml")
	var v4, v6 []int
	for _, r := range cfg.Rules {
		a, b, err := c.RuleEntries(cfg, r, 1<<20)
		require.NoError(t, err)
		v4, v6 = append(v4, a), append(v6, b)
	}
	assert.Equal(t, []int{2, 1, 0, 5, 1}, v4)
	assert.Equal(t, []int{2, 0, 1, 5, 1}, v6)
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
	assert.Contains(t, err.Error(), `rules: at least 5121 entries for the IPv6 table exceed its 1024 capacity (rules[5] "huge" alone expands to at least 5112)`)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<20), "bytes allocated")

	// Checking alone: the count stops at 4 x 1024 + 1024 entries.
	runtime.GC()
	runtime.ReadMemStats(&before)
	err = c.CheckCapacity(cfg)
	runtime.ReadMemStats(&after)
	require.ErrorIs(t, err, ErrCapacity)
	assert.Contains(t, err.Error(), `rules[5] "huge" alone expands to at least 5112)`)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(16<<20), "bytes allocated")
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

// TestCountEqualsCompiled: on random rules (lists with repeats, full
// ranges, /0 prefixes, "not" entries), the count is the number of entries
// compiled, table by table.
func TestCountEqualsCompiled(t *testing.T) {
	c := compiler(t)
	cfg := load(t, "../examples/site.yaml")
	r := rand.New(rand.NewPCG(3, 4))
	rng := func() config.Range {
		if r.IntN(8) == 0 {
			return config.Range{Lo: 0, Hi: 65535}
		}
		lo := uint32(r.IntN(20))
		return config.Range{Lo: lo, Hi: lo + uint32(r.IntN(4))}
	}
	vlan := func() config.Range {
		if r.IntN(8) == 0 {
			return config.Range{Lo: 0, Hi: 4095}
		}
		lo := uint32(1 + r.IntN(20))
		return config.Range{Lo: lo, Hi: lo + uint32(r.IntN(4))}
	}
	list := func() []config.Range {
		var out []config.Range
		for range r.IntN(4) {
			out = append(out, vlan())
		}
		return out
	}
	pfxs := []string{"0.0.0.0/0", "10.0.0.0/8", "10.1.0.0/16", "192.0.2.0/24", "::/0", "2001:db8::/32", "2001:db8:1::/48"}
	match := func() config.Match {
		var m config.Match
		m.VLAN, m.InnerVLAN = list(), list()
		if r.IntN(3) == 0 {
			p := config.PrefixFrom(netip.MustParsePrefix(pfxs[r.IntN(len(pfxs))]))
			m.Src = &p
		}
		if r.IntN(3) == 0 {
			p := config.PrefixFrom(netip.MustParsePrefix(pfxs[r.IntN(len(pfxs))]))
			m.Dst = &p
		}
		switch r.IntN(3) {
		case 0:
			x := rng()
			m.L4Port = &x
		case 1:
			x, y := rng(), rng()
			m.L4Src, m.L4Dst = &x, &y
		}
		if r.IntN(2) == 0 {
			p := config.ProtoTCP
			m.Proto = &p
		}
		return m
	}
	for i := range 2000 {
		cc := *cfg
		cc.Rules = nil
		for k := range 1 + r.IntN(3) {
			rule := config.Rule{Name: fmt.Sprint("r", k), Priority: uint32(10 + k), Action: "bypass", Match: match()}
			if r.IntN(2) == 0 {
				rule.Links = []string{cfg.Links[0].Name, cfg.Links[0].Name}
			}
			for range r.IntN(3) {
				rule.Not = append(rule.Not, match())
			}
			cc.Rules = append(cc.Rules, rule)
		}
		use := c.countRules(&cc)
		v4, v6, err := c.compileRules(&cc)
		if use[0].n > c.flowRules.size || use[1].n > c.flowRulesV6.size {
			require.ErrorIs(t, err, ErrCapacity, "%d", i)
			continue
		}
		require.NoError(t, err, "%d", i)
		require.Equal(t, len(v4), use[0].n, "%d: %+v", i, cc.Rules)
		require.Equal(t, len(v6), use[1].n, "%d: %+v", i, cc.Rules)
	}
}

// TestHugeNotListsChecked: match {proto: tcp} with a "not" of two
// 4094-long VLAN lists (16.7 million exceptions per table) is refused by
// the capacity check at once, naming the rule, the count and the limit,
// in a few megabytes; counting it exactly would build 33 million keys.
func TestHugeNotListsChecked(t *testing.T) {
	c := compiler(t)
	cfg, _ := notListsSite(t, 4094)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	err := c.CheckCapacity(cfg)
	runtime.ReadMemStats(&after)
	require.ErrorIs(t, err, ErrCapacity)
	assert.Contains(t, err.Error(), `rules: at least 5121 entries for the IPv6 table exceed its 1024 capacity (rules[5] "lists" alone expands to at least`)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(16<<20), "bytes allocated")
}

// notPairsSite is the example site with a rule matching 4094 single VLANs
// whose 4094 "not" entries each name one of them: few entries, but 16.7
// million (value, exception) pairs to intersect.
func notPairsSite(tb testing.TB) *config.Config {
	cfg := load(tb, "../examples/site.yaml")
	var nots []config.Match
	for _, v := range vlanList(4094) {
		nots = append(nots, config.Match{VLAN: []config.Range{v}})
	}
	r := tcpRule("pairs", 60000, nots...)
	r.Match.VLAN = vlanList(4094)
	cfg.Rules = append(cfg.Rules, r)
	return cfg
}

// TestNotIntersectionsBoundedFirst: a rule whose "not" entries would take
// more than MaxNotIntersections intersections with its match values is
// refused before anything is expanded, by Compile, CheckCapacity and
// RuleEntries alike, naming the rule, the factors and the limit; a rule
// just under the limit is still counted.
func TestNotIntersectionsBoundedFirst(t *testing.T) {
	c := compiler(t)
	cfg := notPairsSite(t)
	want := `rules[5]: rule "pairs": each of its 4094 match value combinations (links x vlan x inner_vlan x l4_port sides) meets its 4094 "not" entries and their 4094 list values, 33521672 intersections to expand, past the limit of 1048576 per rule`
	for name, err := range map[string]error{"CheckCapacity": c.CheckCapacity(cfg), "Compile": compileErr(c, cfg)} {
		require.ErrorIs(t, err, ErrCapacity, name)
		require.ErrorIs(t, err, config.ErrCapacity, name)
		assert.Contains(t, err.Error(), want, name)
		assert.Contains(t, err.Error(), "split the rule", name)
	}
	_, _, err := c.RuleEntries(cfg, cfg.Rules[5], 1<<20)
	require.ErrorIs(t, err, ErrCapacity)

	// 512 VLANs x 1023 single-VLAN exceptions (2 values each): 1,047,552
	// intersections, under the limit: counted as before.
	under := load(t, "../examples/site.yaml")
	var nots []config.Match
	for i := range 1023 {
		nots = append(nots, config.Match{VLAN: []config.Range{{Lo: uint32(2000 + i), Hi: uint32(2000 + i)}}})
	}
	r := tcpRule("under", 60000, nots...)
	r.Match.VLAN = vlanList(512)
	v4, _, err := c.RuleEntries(under, r, 1<<20)
	require.NoError(t, err)
	assert.Equal(t, 512, v4, "no exception meets the match: its own entries only")
}

// BenchmarkRefuseNotIntersections: refusing the rule of
// TestNotIntersectionsBoundedFirst (the capacity check, as config check
// and the daemon's apply run it).
func BenchmarkRefuseNotIntersections(b *testing.B) {
	c := compiler(b)
	cfg := notPairsSite(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := c.CheckCapacity(cfg); err == nil {
			b.Fatal("accepted")
		}
	}
}
