package tables

import (
	"slices"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/config"
)

// entitySet indexes entities by key; a duplicate key fails the test.
func entitySet(t *testing.T, es []*p4v1.Entity) map[string]*p4v1.Entity {
	t.Helper()
	m := make(map[string]*p4v1.Entity, len(es))
	for _, e := range es {
		k := Key(e)
		require.NotContains(t, m, k, "duplicate entity")
		m[k] = e
	}
	return m
}

// requireSameSwitchState asserts that two desired states program the
// switch identically: the same entity set and the same slot layouts.
func requireSameSwitchState(t *testing.T, want, got *Desired) {
	t.Helper()
	w, g := entitySet(t, want.Entities), entitySet(t, got.Entities)
	require.Equal(t, len(w), len(g), "entity count")
	for k, e := range w {
		require.Contains(t, g, k)
		require.True(t, proto.Equal(e, g[k]), "entity %s differs:\nwant %v\ngot  %v", k, e, g[k])
	}
	require.Len(t, got.Layouts, len(want.Layouts))
	for i := range want.Layouts {
		assert.Equal(t, want.Layouts[i].Name, got.Layouts[i].Name)
		assert.Equal(t, want.Layouts[i].Base.Digest(), got.Layouts[i].Base.Digest())
		assert.Equal(t, want.Layouts[i].Active.Digest(), got.Layouts[i].Active.Digest(), "active layout of %s", want.Layouts[i].Name)
	}
}

const rebalanceSite = `
site: rebalance
platform: sim
defaults: {slot_bits: 6}
ports:
  - {port: 1, speed: 100G}
  - {port: 2, speed: 100G}
  - {port: 3, speed: 100G}
  - {port: 4, speed: 100G}
  - {port: 5, speed: 100G}
  - {port: 6, speed: 100G}
  - {port: 7, speed: 100G}
  - {port: 8, speed: 100G}
  - {port: 9, speed: 100G}
  - {port: 10, speed: 100G}
links:
  - {name: L1, lan: P2, wan: P1}
filter_groups:
  - {name: F1, lan: P4, wan: P3, cores: 3}
  - {name: F2, lan: P6, wan: P5, cores: 2}
  - {name: F3, lan: P8, wan: P7, cores: 4}
  - {name: F4, lan: P10, wan: P9, cores: 1}
profiles:
  - {name: rb, failure_action: rebalance, min_active: 1}
balance_groups:
  - {name: G, members: [F1, F2, F3], profile: rb}
  - {name: H, members: [F4], failure_action: drop}
rules:
  - {name: g, priority: 10, links: [L1], match: {proto: tcp}, action: balance G}
  - {name: h, priority: 5, action: balance H}
`

func TestWithStateEqualsFullCompile(t *testing.T) {
	c := compiler(t)
	rb, err := config.Parse([]byte(rebalanceSite))
	require.NoError(t, err)
	small := load(t, "testdata/small.yaml")
	fg := func(kv ...any) map[string]FilterGroupState {
		m := map[string]FilterGroupState{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1].(FilterGroupState)
		}
		return m
	}
	rbState := func(names ...string) State {
		st := State{FilterGroups: map[string]FilterGroupState{}, Rebalanced: map[string]bool{}}
		for _, n := range names {
			st.FilterGroups[n], st.Rebalanced[n] = FGSWBypass, true
		}
		return st
	}
	tests := []struct {
		name     string
		cfg      *config.Config
		from, to State
	}{
		{"filter group fails to software bypass", small, State{}, State{FilterGroups: fg("F2", FGSWBypass)}},
		{"filter group recovers", small, State{FilterGroups: fg("F2", FGSWBypass)}, State{}},
		{"filter group fails to drop", small, State{}, State{FilterGroups: fg("F1", FGDrop)}},
		{"drop to software bypass", small, State{FilterGroups: fg("F1", FGDrop)}, State{FilterGroups: fg("F1", FGSWBypass)}},
		{"balance group bypass", small, State{}, State{BalanceGroups: map[string]BalanceGroupState{"G": BGBypass}}},
		{"balance group drop to active", small, State{BalanceGroups: map[string]BalanceGroupState{"G": BGDrop}}, State{}},
		{"manual bypass of everything", small, State{FilterGroups: fg("F1", FGSWBypass)},
			State{FilterGroups: fg("F1", FGSWBypass), BalanceGroups: map[string]BalanceGroupState{"G": BGBypass}}},
		{"rebalance one", rb, State{}, rbState("F2")},
		{"rebalance a second", rb, rbState("F2"), rbState("F2", "F3")},
		{"rebalanced recovers", rb, rbState("F2", "F3"), rbState("F3")},
		{"all recover", rb, rbState("F1", "F3"), State{}},
		{"no survivor", rb, rbState("F1", "F2"), func() State {
			st := rbState("F1", "F2", "F3")
			st.BalanceGroups = map[string]BalanceGroupState{"G": BGBypass}
			return st
		}()},
		{"drop group and rebalance together", rb, State{}, func() State {
			st := rbState("F1")
			st.FilterGroups["F4"] = FGDrop
			st.BalanceGroups = map[string]BalanceGroupState{"H": BGDrop}
			return st
		}()},
		{"no change", rb, rbState("F1"), rbState("F1")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, err := c.Compile(tt.cfg, tt.from)
			require.NoError(t, err)
			site, err := c.NewSite(tt.cfg, before, tt.from)
			require.NoError(t, err)
			next, changed, err := c.WithState(site, tt.to)
			require.NoError(t, err)
			want, err := c.Compile(tt.cfg, tt.to)
			require.NoError(t, err)
			requireSameSwitchState(t, want, next.Desired())

			// The changed entities are exactly the difference.
			plan := c.Diff(want.Entities, before.Entities)
			assert.Equal(t, plan.Modifies, len(changed), "one modify per changed entity")
			assert.Zero(t, plan.Inserts+plan.Deletes)
			if tt.name == "no change" {
				assert.Empty(t, changed)
			}
			// The site it came from is unchanged (readers hold it).
			requireSameSwitchState(t, before, site.Desired())

			// And back again.
			back, changedBack, err := c.WithState(next, tt.from)
			require.NoError(t, err)
			requireSameSwitchState(t, before, back.Desired())
			assert.Len(t, changedBack, len(changed))
		})
	}
}

// A recovering filter forwards before slots point at it; a failing one
// loses its slots before it is bypassed; a balance group is activated last.
func TestWithStateWriteOrder(t *testing.T) {
	c := compiler(t)
	cfg, err := config.Parse([]byte(rebalanceSite))
	require.NoError(t, err)
	failed := State{FilterGroups: map[string]FilterGroupState{"F2": FGSWBypass}, Rebalanced: map[string]bool{"F2": true}}
	d, err := c.Compile(cfg, State{})
	require.NoError(t, err)
	s, err := c.NewSite(cfg, d, State{})
	require.NoError(t, err)
	kinds := func(es []*p4v1.Entity) []uint32 {
		var out []uint32
		for _, e := range es {
			id := e.GetTableEntry().GetTableId()
			if len(out) == 0 || out[len(out)-1] != id {
				out = append(out, id)
			}
		}
		return out
	}
	s2, down, err := c.WithState(s, failed)
	require.NoError(t, err)
	assert.Equal(t, []uint32{c.slots.id, c.filterGroups.id}, kinds(down), "slots move away before the filter is bypassed")
	_, up, err := c.WithState(s2, State{})
	require.NoError(t, err)
	assert.Equal(t, []uint32{c.filterGroups.id, c.slots.id}, kinds(up), "the filter forwards before slots come back")

	bypassed := State{BalanceGroups: map[string]BalanceGroupState{"G": BGBypass}, FilterGroups: map[string]FilterGroupState{"F1": FGSWBypass}}
	d, err = c.Compile(cfg, bypassed)
	require.NoError(t, err)
	s, err = c.NewSite(cfg, d, bypassed)
	require.NoError(t, err)
	_, act, err := c.WithState(s, State{})
	require.NoError(t, err)
	assert.Equal(t, []uint32{c.filterGroups.id, c.balanceGroups.id}, kinds(act), "the group is activated last")
}

// A Site refuses a Desired that was not compiled from its configuration.
func TestNewSiteRefusesForeignDesired(t *testing.T) {
	c := compiler(t)
	cfg, err := config.Parse([]byte(rebalanceSite))
	require.NoError(t, err)
	d, err := c.Compile(load(t, "testdata/small.yaml"), State{})
	require.NoError(t, err)
	_, err = c.NewSite(cfg, d, State{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "filter group F3")
}

// BenchmarkWithStateBigSite is a failover's compute at Tofino size,
// against a compiled 1,000-rule, 2 x 65,536-slot site: bypass (the filter
// group's entry and its balance group's: two entries) and rebalance (the
// failed group's share of G1's 65,536 slots dealt to the survivor, and its
// entry).
func BenchmarkWithStateBigSite(b *testing.B) {
	cfg := bigSite(b)
	c := platformCompiler(b, cfg.Platform)
	d, err := c.Compile(cfg, State{})
	require.NoError(b, err)
	s, err := c.NewSite(cfg, d, State{})
	require.NoError(b, err)
	run := func(b *testing.B, st State, want func(n int) bool) {
		b.ReportAllocs()
		n := 0
		for i := 0; i < b.N; i++ {
			s2, changed, err := c.WithState(s, st)
			if err != nil || !want(len(changed)) || s2 == nil {
				b.Fatalf("%v, %d changed", err, len(changed))
			}
			n = len(changed)
		}
		b.ReportMetric(float64(n), "entries/op")
	}
	b.Run("bypass", func(b *testing.B) {
		down := State{FilterGroups: map[string]FilterGroupState{"F1": FGSWBypass}, BalanceGroups: map[string]BalanceGroupState{"G1": BGBypass}}
		run(b, down, func(n int) bool { return n == 2 })
	})
	b.Run("rebalance", func(b *testing.B) {
		// The site with F2 beside F1 in G1: F1's share of G1 (31 of 94
		// cores of 65,536 slots) moves to F2.
		two := *cfg
		two.BalanceGroups = slices.Clone(cfg.BalanceGroups)
		two.BalanceGroups[0].Members = []string{"F1", "F2"}
		two.BalanceGroups = two.BalanceGroups[:1]
		two.Rules = slices.DeleteFunc(slices.Clone(cfg.Rules), func(r config.Rule) bool { return r.Action == "balance G2" })
		d, err := c.Compile(&two, State{})
		require.NoError(b, err)
		s, err = c.NewSite(&two, d, State{})
		require.NoError(b, err)
		moved := State{FilterGroups: map[string]FilterGroupState{"F1": FGSWBypass}, Rebalanced: map[string]bool{"F1": true}}
		run(b, moved, func(n int) bool { return n > 20000 })
	})
}

// A long run of state changes (past the patch chain's bound, so the
// patches are folded) still equals a full compile at every step.
func TestWithStateLongRun(t *testing.T) {
	c := compiler(t)
	cfg, err := config.Parse([]byte(rebalanceSite))
	require.NoError(t, err)
	d, err := c.Compile(cfg, State{})
	require.NoError(t, err)
	s, err := c.NewSite(cfg, d, State{})
	require.NoError(t, err)
	names := []string{"F1", "F2", "F3", "F4"}
	st := State{FilterGroups: map[string]FilterGroupState{}, Rebalanced: map[string]bool{}, BalanceGroups: map[string]BalanceGroupState{}}
	for i := 0; i < 3*maxPatches; i++ {
		n := names[i%len(names)]
		next := cloneState(st)
		if next.FilterGroups[n] == FGForward {
			next.FilterGroups[n] = FGSWBypass
			next.Rebalanced[n] = n != "F4"
		} else {
			delete(next.FilterGroups, n)
			delete(next.Rebalanced, n)
		}
		if i%5 == 0 {
			next.BalanceGroups["H"] = BGBypass - next.BalanceGroups["H"]
		}
		s, _, err = c.WithState(s, next)
		require.NoError(t, err)
		st = next
		if i%17 == 0 || i == 3*maxPatches-1 {
			want, err := c.Compile(cfg, st)
			require.NoError(t, err)
			requireSameSwitchState(t, want, s.Desired())
		}
	}
}

// TestSlotEntriesAsSlotEntry: the slab-built slot entries of a compile
// are the entries slotEntry builds one by one.
func TestSlotEntriesAsSlotEntry(t *testing.T) {
	c := compiler(t)
	slots := make([]Target, 70000)
	for i := range slots {
		slots[i] = Target{FilterGroup: uint32(i % 3), Core: uint32(i % 7)}
	}
	got := c.slotEntries(5, slots)
	require.Len(t, got, len(slots))
	for i, e := range got {
		if want := c.slotEntry(5, i, slots[i]); !proto.Equal(want, e) || Key(want) != Key(e) {
			t.Fatalf("slot %d: %v, want %v", i, e, want)
		}
	}
}
