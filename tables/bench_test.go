package tables

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"unsafe"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/protobuf/proto"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/internal/testsites"
	"github.com/dpi-balancer/balancer/p4src/wire"
)

func bigSite(tb testing.TB) *config.Config {
	cfg, err := testsites.Big(16)
	require.NoError(tb, err)
	return cfg
}

// platformCompiler is the compiler of the build the platform runs (the
// big site's is Tofino's: its slots table holds 2^17 entries).
func platformCompiler(tb testing.TB, platform string) *Compiler {
	c, err := LoadPlatform(platform)
	require.NoError(tb, err)
	return c
}

func BenchmarkCompileBigSite(b *testing.B) {
	cfg := bigSite(b)
	c := platformCompiler(b, cfg.Platform)
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
	cfg := bigSite(b)
	c := platformCompiler(b, cfg.Platform)
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

// BenchmarkCompileBigSitePlanned is BenchmarkCompileBigSite as a planned
// change: every balance group's layout from the previous one (2^16 slots
// per group), every filter group's core count halved (31 -> 15, 63 -> 31).
func BenchmarkCompileBigSitePlanned(b *testing.B) {
	cfg := bigSite(b)
	c := platformCompiler(b, cfg.Platform)
	d0, err := c.Compile(cfg, State{})
	require.NoError(b, err)
	prev := d0.BaseLayouts()
	for i := range cfg.FilterGroups {
		cfg.FilterGroups[i].Cores /= 2
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.Compile(cfg, State{}, FromLayouts(prev)); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDiffByPositionOrByKey: pairing entries by position (lists that line
// up) and by key (a list in another order) give the same plan.
func TestDiffByPositionOrByKey(t *testing.T) {
	c := compiler(t)
	cfg, err := testsites.Big(10)
	require.NoError(t, err)
	d1, err := c.Compile(cfg, State{})
	require.NoError(t, err)
	cfg2, err := testsites.Big(10)
	require.NoError(t, err)
	cfg2.FilterGroups[0].Cores = 12
	cfg2.Rules = cfg2.Rules[:len(cfg2.Rules)-3]
	d2, err := c.Compile(cfg2, State{FilterGroups: map[string]FilterGroupState{"F2": FGSWBypass}}, FromLayouts(d1.BaseLayouts()))
	require.NoError(t, err)
	shuffled := slices.Clone(d1.Entities)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	flat := func(p *Plan) []string {
		var out []string
		for _, b := range p.Batches {
			for _, u := range b.Updates {
				out = append(out, b.Name+" "+u.GetType().String()+" "+Key(u.GetEntity()))
			}
		}
		return out
	}
	byPos, byKey := c.Diff(d2.Entities, d1.Entities), c.Diff(d2.Entities, shuffled)
	require.False(t, byPos.Empty())
	require.Equal(t, flat(byKey), flat(byPos))
	require.Equal(t, [3]int{byKey.Inserts, byKey.Modifies, byKey.Deletes}, [3]int{byPos.Inserts, byPos.Modifies, byPos.Deletes})
	require.True(t, c.Diff(d1.Entities, shuffled).Empty())
}

// TestDiffAllocatesInChunks: a diff allocates in proportion to what it
// writes, in chunks, not per entry: no key is made for an insert or a
// modify (against an empty switch, or for a planned change's rewrites),
// and the updates come from slabs.
func TestDiffAllocatesInChunks(t *testing.T) {
	c := compiler(t)
	cfg, err := testsites.Big(12)
	require.NoError(t, err)
	d, err := c.Compile(cfg, State{})
	require.NoError(t, err)
	n := len(d.Entities)
	cold := testing.AllocsPerRun(3, func() {
		if p := c.Diff(d.Entities, nil); p.Inserts+p.Modifies != n {
			t.Fatalf("cold diff: %d inserts, %d modifies, want %d entries", p.Inserts, p.Modifies, n)
		}
	})
	assert.Less(t, cold, float64(n)/50, "allocations of a diff against an empty switch (%d entries)", n)

	cfg2, err := testsites.Big(12)
	require.NoError(t, err)
	cfg2.FilterGroups[0].Cores = 12
	d2, err := c.Compile(cfg2, State{}, FromLayouts(d.BaseLayouts()))
	require.NoError(t, err)
	var moved int
	planned := testing.AllocsPerRun(3, func() { moved = c.Diff(d2.Entities, d.Entities).Modifies })
	require.Positive(t, moved)
	assert.Less(t, planned, float64(moved)/20, "allocations of a planned change's diff (%d slots move)", moved)
}

// A StreamDiff given the current entities in pieces makes Diff's plan.
func TestStreamDiffInPiecesIsDiff(t *testing.T) {
	c := compiler(t)
	cfg, err := testsites.Big(10)
	require.NoError(t, err)
	d1, err := c.Compile(cfg, State{})
	require.NoError(t, err)
	cfg2, err := testsites.Big(10)
	require.NoError(t, err)
	cfg2.FilterGroups[0].Cores = 12
	cfg2.Rules = cfg2.Rules[:len(cfg2.Rules)-3]
	d2, err := c.Compile(cfg2, State{FilterGroups: map[string]FilterGroupState{"F2": FGSWBypass}}, FromLayouts(d1.BaseLayouts()))
	require.NoError(t, err)
	flat := func(p *Plan) []string {
		var out []string
		for _, b := range p.Batches {
			for _, u := range b.Updates {
				out = append(out, b.Name+" "+u.GetType().String()+" "+Key(u.GetEntity()))
			}
		}
		return out
	}
	want := c.Diff(d2.Entities, d1.Entities)
	require.False(t, want.Empty())
	sd := c.NewDiff(d2.Entities)
	for piece := range slices.Chunk(d1.Entities, 7) {
		sd.Add(piece...)
	}
	got := sd.Plan()
	assert.Equal(t, flat(want), flat(got))
	assert.Equal(t, [3]int{want.Inserts, want.Modifies, want.Deletes}, [3]int{got.Inserts, got.Modifies, got.Deletes})
}

// A read-back comes table by table with the value sets last (they are
// read apart) and in entities of its own: each table's entries are still
// paired by their place in it, not by keys made for the whole site.
func TestDiffPairsAReadBackByPlace(t *testing.T) {
	c := compiler(t)
	cfg, err := testsites.Big(12)
	require.NoError(t, err)
	d, err := c.Compile(cfg, State{})
	require.NoError(t, err)
	var tablesFirst, valueSets []*p4v1.Entity
	for _, e := range d.Entities {
		e = proto.Clone(e).(*p4v1.Entity)
		if e.GetValueSetEntry() != nil {
			valueSets = append(valueSets, e)
		} else {
			tablesFirst = append(tablesFirst, e)
		}
	}
	readBack := append(tablesFirst, valueSets...)
	require.True(t, c.Diff(d.Entities, readBack).Empty())
	allocs := testing.AllocsPerRun(3, func() { c.Diff(d.Entities, readBack) })
	assert.Less(t, allocs, float64(len(readBack))/100, "allocations of the diff of a %d-entry read-back", len(readBack))
}

// A compile keeps the slot entries whose target stays (a small change
// shares them with the last site) until half a group was built again
// since its last full build; then the group is built again whole, in one
// array: a long run of planned changes leaves each group's slots in one
// array, not in a trail of arrays pinned by a few kept entries each.
func TestSlotEntriesStayInOneArray(t *testing.T) {
	c := compiler(t)
	var prev map[string]*Layout
	site := func(cores uint32) *Desired {
		// A planned change from the last layout, as the daemon makes it.
		cfg, err := testsites.Big(12)
		require.NoError(t, err)
		cfg.FilterGroups[0].Cores = cores
		d, err := c.Compile(cfg, State{}, FromLayouts(prev))
		require.NoError(t, err)
		prev = d.BaseLayouts()
		return d
	}
	slotsOf := func(d *Desired, group uint32) []*p4v1.Entity {
		bg := c.slots.fields["balance_group"].id
		var out []*p4v1.Entity
		for _, e := range d.Entities {
			te := e.GetTableEntry()
			if te.GetTableId() != c.slots.id {
				continue
			}
			for _, m := range te.GetMatch() {
				if m.GetFieldId() == bg && wire.Uint(m.GetExact().GetValue()) == uint64(group) {
					out = append(out, e)
				}
			}
		}
		return out
	}
	// span is how many entries apart the first and last slot entry of the
	// group are in memory: less than the group's size only when one array
	// holds them all.
	span := func(es []*p4v1.Entity) uintptr {
		lo, hi := ^uintptr(0), uintptr(0)
		for _, e := range es {
			p := uintptr(unsafe.Pointer(e))
			lo, hi = min(lo, p), max(hi, p)
		}
		return (hi - lo) / unsafe.Sizeof(p4v1.Entity{})
	}
	first := site(31)
	group := first.Layouts[0].ID // F1's
	g1 := slotsOf(first, group)
	require.Len(t, g1, 4096)
	require.Less(t, span(g1), uintptr(len(g1)))

	// A small change shares the slots that stay.
	small := site(30)
	same := 0
	for i, e := range slotsOf(small, group) {
		if e == g1[i] {
			same++
		}
	}
	assert.Greater(t, same, len(g1)/2, "a small change shares the slots that stay")

	// Changes back and forth that each move more than half the group.
	var last *Desired
	for i := range 6 {
		last = site([]uint32{12, 31}[i%2])
	}
	assert.Less(t, span(slotsOf(last, group)), uintptr(len(g1)), "the group's slots are in one array")
}

// BenchmarkPlannedChangeCompileDiffBigSite is what the daemon computes for
// a planned change at Tofino size (2 x 65,536 slots, wedge100bf-32x), as
// BenchmarkKeepAliveDuringBigApply drives it: F1's cores 31 -> 12 and
// back, alternately, each compiled from the last layouts and diffed
// against the last entities. Its allocations are what the garbage
// collector works on while keep-alive rounds run beside the change.
func BenchmarkPlannedChangeCompileDiffBigSite(b *testing.B) {
	parse := func(cores int) *config.Config {
		cfg, err := config.Parse([]byte(testsites.TofinoYAML(cores, 16)))
		require.NoError(b, err)
		return cfg
	}
	sites := [2]*config.Config{parse(12), parse(31)}
	c := platformCompiler(b, sites[1].Platform)
	last, err := c.Compile(sites[1], State{})
	require.NoError(b, err)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		d, err := c.Compile(sites[i%2], State{}, FromLayouts(last.BaseLayouts()))
		if err != nil {
			b.Fatal(err)
		}
		if p := c.Diff(d.Entities, last.Entities); p.Modifies == 0 {
			b.Fatal("no slot moved")
		}
		last = d
	}
}

// TestPlannedChangeAllocation: a planned change at Tofino size (F1's
// cores 12 -> 31, after 31 -> 12: most of G1's 65,536 slots move, G2's
// stay) compiles and diffs in about 200 bytes per slot of the site: the
// moved group's entries built once, in one array, the group that stays
// shared whole (not copied), the entities grown once, the last diff's
// lists reused. (It was 314 bytes per slot.) The garbage collector's work
// during a change, which keep-alive rounds feel, is in proportion.
func TestPlannedChangeAllocation(t *testing.T) {
	parse := func(cores int) *config.Config {
		cfg, err := config.Parse([]byte(testsites.TofinoYAML(cores, 16)))
		require.NoError(t, err)
		return cfg
	}
	c := platformCompiler(t, "wedge100bf-32x")
	last, err := c.Compile(parse(31), State{})
	require.NoError(t, err)
	c.Diff(last.Entities, nil) // the cold start's diff
	var before, after runtime.MemStats
	for i, cores := range []int{12, 31} {
		cfg := parse(cores)
		runtime.ReadMemStats(&before)
		d, err := c.Compile(cfg, State{}, FromLayouts(last.BaseLayouts()))
		require.NoError(t, err)
		p := c.Diff(d.Entities, last.Entities)
		runtime.ReadMemStats(&after)
		require.Greater(t, p.Modifies, 65536/2, "most of G1's slots move")
		last = d
		if i == 0 {
			continue // the first change after a cold start grows the diff's lists
		}
		perSlot := float64(after.TotalAlloc-before.TotalAlloc) / float64(2*65536)
		assert.Less(t, perSlot, 250.0, "bytes allocated per slot by a planned change's compile and diff")
	}
}
