package tables

import (
	"flag"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func compiler(t testing.TB) *Compiler {
	t.Helper()
	s, err := p4src.Load()
	require.NoError(t, err)
	c, err := New(s)
	require.NoError(t, err)
	return c
}

func load(t testing.TB, path string) *config.Config {
	t.Helper()
	cfg, err := config.Load(path)
	require.NoError(t, err)
	return cfg
}

// golden renders entities as text, one entity per block, with the table and
// action names resolved so a reviewer can read it.
func golden(c *Compiler, d *Desired, withSlots bool) string {
	var b strings.Builder
	for _, l := range d.Layouts {
		fmt.Fprintf(&b, "# balance group %s (id %d): %d slots, base digest %s, active digest %s\n",
			l.Name, l.ID, len(l.Base.Slots), l.Base.Digest(), l.Active.Digest())
	}
	slots := 0
	for _, e := range d.Entities {
		if te := e.GetTableEntry(); te != nil && te.GetTableId() == c.slots.id && !withSlots {
			slots++
			continue
		}
		name := "value_set"
		if te := e.GetTableEntry(); te != nil {
			name = c.schema.TableByID(te.GetTableId()).GetPreamble().GetName()
			if a := te.GetAction().GetAction(); a != nil {
				name += " -> " + c.schema.ActionByID(a.GetActionId()).GetPreamble().GetName()
			}
		}
		fmt.Fprintf(&b, "# %s\n%s\n", name, prototext.MarshalOptions{Multiline: true}.Format(e))
	}
	if slots > 0 {
		fmt.Fprintf(&b, "# %d slot entries omitted (see the digests above)\n", slots)
	}
	return b.String()
}

func TestCompileGolden(t *testing.T) {
	tests := []struct {
		name, config, golden string
		withSlots            bool
	}{
		{"example site", "../examples/site.yaml", "testdata/site.txtpb", false},
		{"small", "testdata/small.yaml", "testdata/small.txtpb", true},
	}
	c := compiler(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := c.Compile(load(t, tt.config), State{})
			require.NoError(t, err)
			got := golden(c, d, tt.withSlots)
			if *update {
				require.NoError(t, os.WriteFile(tt.golden, []byte(got), 0o644))
			}
			want, err := os.ReadFile(tt.golden)
			require.NoError(t, err, "run go test ./tables -update to create %s", tt.golden)
			// prototext's spacing is deliberately unstable across builds:
			// compare with whitespace normalised.
			assert.Equal(t, normSpace(string(want)), normSpace(got), "golden %s differs; if intended, go test ./tables -update", filepath.Base(tt.golden))
		})
	}
}

func normSpace(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, ":", ": ")), " ")
}

func TestCompileDeterministic(t *testing.T) {
	c := compiler(t)
	a, err := c.Compile(load(t, "testdata/small.yaml"), State{})
	require.NoError(t, err)
	b, err := c.Compile(load(t, "testdata/small.yaml"), State{})
	require.NoError(t, err)
	require.Equal(t, len(a.Entities), len(b.Entities))
	for i := range a.Entities {
		assert.True(t, proto.Equal(a.Entities[i], b.Entities[i]), "entity %d differs", i)
	}
	assert.Equal(t, a.Layouts[0].Base.Digest(), b.Layouts[0].Base.Digest())
	assert.True(t, c.Diff(a.Entities, b.Entities).Empty())
}

// countTable returns the entries of one table.
func entriesOf(d *Desired, tableID uint32) []*p4v1.TableEntry {
	var out []*p4v1.TableEntry
	for _, e := range d.Entities {
		if te := e.GetTableEntry(); te != nil && te.GetTableId() == tableID {
			out = append(out, te)
		}
	}
	return out
}

func TestRuleExpansion(t *testing.T) {
	c := compiler(t)
	cfg := load(t, "testdata/small.yaml")
	d, err := c.Compile(cfg, State{})
	require.NoError(t, err)
	byPrio := func(tableID uint32) map[int32]int {
		m := map[int32]int{}
		for _, te := range entriesOf(d, tableID) {
			m[te.GetPriority()]++
		}
		return m
	}
	v4, v6 := byPrio(c.flowRules.id), byPrio(c.flowRulesV6.id)
	// bgp (100): l4_port -> src and dst entries, in both tables.
	assert.Equal(t, 2, v4[200])
	assert.Equal(t, 2, v6[200])
	// vlans-on-b (50): one link x two VLAN items, both tables.
	assert.Equal(t, 2, v4[100])
	assert.Equal(t, 2, v6[100])
	// v6-net-but-not-dns (40): IPv6 only; its "not" is a bypass entry
	// one step above it.
	assert.Equal(t, 0, v4[80]+v4[81])
	assert.Equal(t, 1, v6[80])
	assert.Equal(t, 1, v6[81])
	// mpls2 (30): IPv4 prefix -> IPv4 table only.
	assert.Equal(t, 1, v4[60])
	assert.Equal(t, 0, v6[60])
	// catch-all (1): one entry without matches in each table.
	assert.Equal(t, 1, v4[2])
	assert.Equal(t, 1, v6[2])

	for _, te := range entriesOf(d, c.flowRulesV6.id) {
		switch te.GetPriority() {
		case 81:
			assert.Equal(t, c.bypassV6.id, te.GetAction().GetAction().GetActionId(), "negation is a bypass")
			assert.Len(t, te.GetMatch(), 3, "dst prefix + proto + l4_dst")
		case 100:
			assert.Len(t, te.GetMatch(), 2, "link + outer_vid")
			for _, m := range te.GetMatch() {
				if m.GetFieldId() == c.flowRulesV6.fields["outer_vid"].id {
					// 10, and 100-103 as one prefix: ternary, not range.
					require.NotNil(t, m.GetTernary(), "VLAN ranges are expanded into ternary prefixes")
					assert.Contains(t, []string{"10/4095", "100/4092"}, fmt.Sprintf("%d/%d",
						new(big.Int).SetBytes(m.GetTernary().GetValue()), new(big.Int).SetBytes(m.GetTernary().GetMask())))
				}
				if m.GetFieldId() == c.flowRulesV6.fields["link_id"].id {
					assert.Equal(t, []byte{7}, m.GetTernary().GetValue(), "bound to link B (id 7)")
				}
			}
		case 2:
			assert.Empty(t, te.GetMatch())
			assert.Equal(t, c.bypassV6.id, te.GetAction().GetAction().GetActionId())
		}
	}
	// The compiled counts are the rules' counts.
	var n4, n6 int
	for _, r := range cfg.Rules {
		a, b, err := c.RuleEntries(cfg, r, 1<<20)
		require.NoError(t, err)
		n4 += a
		n6 += b
	}
	assert.Equal(t, len(entriesOf(d, c.flowRules.id)), n4)
	assert.Equal(t, len(entriesOf(d, c.flowRulesV6.id)), n6)
}

func TestValueSets(t *testing.T) {
	c := compiler(t)
	d, err := c.Compile(load(t, "testdata/small.yaml"), State{})
	require.NoError(t, err)
	var tpids, kas [][]byte
	for _, e := range d.Entities {
		vs := e.GetValueSetEntry()
		if vs == nil {
			continue
		}
		for _, m := range vs.GetMembers() {
			v := m.GetMatch()[0].GetExact().GetValue()
			switch vs.GetValueSetId() {
			case c.coreTPID:
				tpids = append(tpids, v)
			case c.keepAlive:
				kas = append(kas, v)
			}
		}
	}
	assert.Equal(t, [][]byte{{0x88, 0xB5}, {0x88, 0xB8}}, tpids)
	assert.Equal(t, [][]byte{{0x88, 0xB6}}, kas)
}

// Failure actions bypass and drop change exactly one entry: the filter
// group's state. Rebalance changes only the failed group's slots.
func TestFailureActionsWriteMinimalDiff(t *testing.T) {
	c := compiler(t)
	cfg := load(t, "../examples/site.yaml")
	base, err := c.Compile(cfg, State{})
	require.NoError(t, err)
	for _, tt := range []struct {
		name string
		st   State
	}{
		{"bypass", State{FilterGroups: map[string]FilterGroupState{"F2": FGSWBypass}}},
		{"drop", State{FilterGroups: map[string]FilterGroupState{"F2": FGDrop}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := c.Compile(cfg, tt.st)
			require.NoError(t, err)
			plan := c.Diff(d.Entities, base.Entities)
			require.Equal(t, 1, plan.Len())
			u := plan.Batches[0].Updates[0]
			assert.Equal(t, p4v1.Update_MODIFY, u.GetType())
			assert.Equal(t, c.filterGroups.id, u.GetEntity().GetTableEntry().GetTableId())
			// And back.
			assert.Equal(t, 1, c.Diff(base.Entities, d.Entities).Len())
		})
	}
	t.Run("rebalance", func(t *testing.T) {
		d, err := c.Compile(cfg, State{Rebalanced: map[string]bool{"F2": true}})
		require.NoError(t, err)
		f2 := *cfg.FilterGroupByName("F2").ID
		want := 0
		for _, tg := range base.Layouts[0].Base.Slots {
			if tg.FilterGroup == f2 {
				want++
			}
		}
		plan := c.Diff(d.Entities, base.Entities)
		assert.Equal(t, want, plan.Len())
		assert.Equal(t, want, plan.Modifies)
		for _, b := range plan.Batches {
			for _, u := range b.Updates {
				assert.Equal(t, c.slots.id, u.GetEntity().GetTableEntry().GetTableId())
			}
		}
		assert.Equal(t, want, c.Diff(base.Entities, d.Entities).Len(), "recovery restores the layout")
	})
	t.Run("balance group bypass", func(t *testing.T) {
		d, err := c.Compile(cfg, State{BalanceGroups: map[string]BalanceGroupState{"group_filter": BGBypass}})
		require.NoError(t, err)
		plan := c.Diff(d.Entities, base.Entities)
		require.Equal(t, 1, plan.Len())
		assert.Equal(t, c.balanceGroups.id, plan.Batches[0].Updates[0].GetEntity().GetTableEntry().GetTableId())
	})
}

func TestDiffOrdering(t *testing.T) {
	c := compiler(t)
	cfg := load(t, "testdata/small.yaml")
	old, err := c.Compile(cfg, State{})
	require.NoError(t, err)

	// Cold start: everything inserted, value sets modified, in dependency order.
	plan := c.Diff(old.Entities, nil)
	assert.Equal(t, 0, plan.Deletes)
	onlyModified := len(c.ValueSetIDs()) + len(c.DefaultEntryTableIDs())
	assert.Equal(t, 4, onlyModified, "3 value sets, the switch_info default entry")
	assert.Equal(t, onlyModified, plan.Modifies, "value sets and default entries are only ever modified")
	assert.Equal(t, len(old.Entities)-onlyModified, plan.Inserts)
	var names []string
	for _, b := range plan.Batches {
		names = append(names, b.Name)
	}
	assert.Equal(t, []string{"value sets, filter ports and links", "filter groups into service", "slots",
		"balance groups", "heartbeats and flow rules", "operator ports"}, names)

	// Move link A to other ports and drop a rule: port role entries of the
	// ports that stay are modified in place; the new ones inserted before
	// the stale ones are deleted.
	cfg2 := load(t, "testdata/small.yaml")
	cfg2.Links[0].LAN, cfg2.Links[0].WAN = "P54", "P53" // swap with F2
	cfg2.FilterGroups[1].LAN, cfg2.FilterGroups[1].WAN = "P2", "P1"
	cfg2.Rules = cfg2.Rules[1:]
	d2, err := c.Compile(cfg2, State{})
	require.NoError(t, err)
	plan = c.Diff(d2.Entities, old.Entities)
	assert.Equal(t, 0, plan.Inserts)
	assert.Equal(t, 4, plan.Deletes, "bgp: 2 entries in each table")
	last := plan.Batches[len(plan.Batches)-1]
	assert.Equal(t, "delete rules at priority 200", last.Name, "bgp's entries, after every insert and modify")
	for _, b := range plan.Batches[:len(plan.Batches)-1] {
		for _, u := range b.Updates {
			assert.NotEqual(t, p4v1.Update_DELETE, u.GetType())
		}
	}
	roles := 0
	for _, b := range plan.Batches {
		for _, u := range b.Updates {
			if u.GetEntity().GetTableEntry().GetTableId() == c.portRole.id {
				assert.Equal(t, p4v1.Update_MODIFY, u.GetType(), "a port never loses its role entry")
				roles++
			}
		}
	}
	assert.Equal(t, 4, roles)
}

func TestDiffFreesCapacityFirst(t *testing.T) {
	c := compiler(t)
	// A full heartbeat table (16) replaced by 16 different entries.
	mk := func(base byte) []*p4v1.Entity {
		var es []*p4v1.Entity
		for i := 0; i < p4src.HeartbeatSize; i++ {
			es = append(es, c.entry(c.heartbeat, int32(i+1), c.action(c.heartbeatPass),
				ternary(c.heartbeat, "eth_type", uint64(base)<<8|uint64(i), 0xffff)))
		}
		return es
	}
	plan := c.Diff(mk(0x11), mk(0x22))
	require.Len(t, plan.Batches, 2)
	assert.Equal(t, "delete to free capacity", plan.Batches[0].Name)
	assert.Len(t, plan.Batches[0].Updates, p4src.HeartbeatSize)
}

func TestDiffIgnoresNonCanonicalReadBack(t *testing.T) {
	c := compiler(t)
	d, err := c.Compile(load(t, "testdata/small.yaml"), State{})
	require.NoError(t, err)
	// A target that answers with zero-padded bytes holds the same state.
	var back []*p4v1.Entity
	for _, e := range d.Entities {
		e = proto.Clone(e).(*p4v1.Entity)
		if te := e.GetTableEntry(); te != nil {
			for _, m := range te.GetMatch() {
				if ex := m.GetExact(); ex != nil {
					ex.Value = append([]byte{0, 0}, ex.Value...)
				}
			}
			for _, p := range te.GetAction().GetAction().GetParams() {
				p.Value = append([]byte{0}, p.Value...)
			}
		}
		back = append(back, e)
	}
	assert.True(t, c.Diff(d.Entities, back).Empty())
}

func TestCompileErrors(t *testing.T) {
	c := compiler(t)
	cfg := load(t, "testdata/small.yaml")
	cfg.Rules = append(cfg.Rules, config.Rule{Name: "x", Priority: 7, Action: "balance nope"})
	cfg.Links[0].LAN = "P99"
	_, err := c.Compile(cfg, State{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `rules[5].action: unknown balance group "nope"`)
	assert.Contains(t, err.Error(), "links[0].lan:")
}

func TestNewRejectsForeignP4Info(t *testing.T) {
	s, err := p4src.ParseSchema([]byte(`tables { preamble { id: 33554433 name: "Other.t" alias: "t" } }`))
	require.NoError(t, err)
	_, err = New(s)
	require.Error(t, err)
	assert.ErrorIs(t, err, p4src.ErrUnknownName)
	assert.Contains(t, err.Error(), `table "BalancerIngress.port_role"`)
}

// A value set changes through the union of its old and new members, so a
// core TPID still in use stays parsed; a union the value set cannot hold
// is skipped.
func TestDiffValueSetThroughUnion(t *testing.T) {
	c := compiler(t)
	vs := func(vals ...uint64) []*p4v1.Entity { return []*p4v1.Entity{valueSet(c.coreTPID, vals)} }
	members := func(u *p4v1.Update) []uint64 {
		var out []uint64
		for _, m := range u.GetEntity().GetValueSetEntry().GetMembers() {
			out = append(out, beU64(m.GetMatch()[0].GetExact().GetValue()))
		}
		slices.Sort(out)
		return out
	}
	plan := c.Diff(vs(0x88b5, 0x9000), vs(0x88b5, 0x8100))
	require.Len(t, plan.Batches, 2)
	assert.Equal(t, []uint64{0x8100, 0x88b5, 0x9000}, members(plan.Batches[0].Updates[0]), "the union first")
	assert.Equal(t, "value sets", plan.Batches[1].Name)
	assert.Equal(t, []uint64{0x88b5, 0x9000}, members(plan.Batches[1].Updates[0]), "then the desired members")
	assert.Equal(t, 2, plan.Modifies)

	plan = c.Diff(vs(0x88b5, 0x9000), vs(0x88b5))
	require.Len(t, plan.Batches, 1, "a superset needs no second step")

	size := c.vsSize[c.coreTPID]
	var a, b []uint64
	for i := 0; i < size; i++ {
		a, b = append(a, uint64(0x9000+i)), append(b, uint64(0xa000+i))
	}
	plan = c.Diff(vs(a...), vs(b...))
	require.Len(t, plan.Batches, 1, "a union larger than the value set's %d members is skipped", size)
	assert.Equal(t, a, members(plan.Batches[0].Updates[0]))
}

func beU64(b []byte) uint64 {
	var v uint64
	for _, x := range b {
		v = v<<8 | uint64(x)
	}
	return v
}
