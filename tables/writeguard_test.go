package tables_test

import (
	"errors"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
	. "github.com/dpi-balancer/balancer/tables"
)

// guardRig is a compiler for the example site and its compile.
func guardRig(t *testing.T) (*Compiler, func(State) []*p4v1.Entity, uint32) {
	t.Helper()
	s, err := p4src.Load()
	require.NoError(t, err)
	c, err := New(s)
	require.NoError(t, err)
	cfg, err := config.Load("../examples/site.yaml")
	require.NoError(t, err)
	compile := func(st State) []*p4v1.Entity {
		d, err := c.Compile(cfg, st)
		require.NoError(t, err)
		return d.Entities
	}
	return c, compile, *cfg.FilterGroupByName("F2").ID
}

// readBack is what a session does with a read-back of cur: every entity
// noted, the plan to desired computed from it, the record adopted.
func readBack(t *testing.T, c *Compiler, g *WriteGuard, desired, cur []*p4v1.Entity) *Plan {
	t.Helper()
	note, adopt := g.ReadBack()
	p, err := c.Plan(desired, func(add func(...*p4v1.Entity)) error {
		for _, e := range cur {
			note(e)
			add(e)
		}
		return nil
	})
	require.NoError(t, err)
	adopt()
	return p
}

// A compiler's Plan is its Diff with the current entities in pieces; an
// error while reading ends it with no plan.
func TestPlanIsDiffInPieces(t *testing.T) {
	c, compile, _ := guardRig(t)
	desired := compile(State{})
	cur := compile(State{FilterGroups: map[string]FilterGroupState{"F2": FGSWBypass}})
	want := c.Diff(desired, cur)
	p, err := c.Plan(desired, func(add func(...*p4v1.Entity)) error {
		for i := 0; i < len(cur); i += 7 {
			add(cur[i:min(i+7, len(cur))]...)
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, want, p)
	assert.Equal(t, 1, p.Modifies, "F2's entry")

	boom := errors.New("read cut")
	p, err = c.Plan(desired, func(add func(...*p4v1.Entity)) error { add(cur[:3]...); return boom })
	assert.ErrorIs(t, err, boom)
	assert.Nil(t, p)
}

// Decode leaves out the default entries the compiler does not write and
// takes out the don't-care matches a target spelled out.
func TestDecode(t *testing.T) {
	c, compile, _ := guardRig(t)
	ids := c.TableIDs()
	def := &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: ids[0], IsDefaultAction: true}}}
	assert.False(t, c.Decode(def), "a default entry the compiler does not write")
	for _, e := range compile(State{}) {
		k := Key(e)
		require.True(t, c.Decode(e), "%s", k)
		assert.Equal(t, k, Key(e), "a compiled entry is canonical already")
	}
}

// The guard keeps a failure a read-back found (once: a plan guarded twice
// is guarded once) until a failure state of the controller's own is
// written; Reset forgets what the switch holds, and the next read-back
// finds the failure again.
func TestWriteGuardKeepsFoundFailure(t *testing.T) {
	c, compile, f2 := guardRig(t)
	var found [][]uint32
	g := NewWriteGuard(c, GuardOptions{OnFailedFound: func(fgs []uint32) { found = append(found, fgs) }})
	forward := compile(State{})
	bypass := compile(State{FilterGroups: map[string]FilterGroupState{"F2": FGSWBypass}})
	drop := compile(State{FilterGroups: map[string]FilterGroupState{"F2": FGDrop}})

	p := readBack(t, c, g, forward, bypass)
	require.Equal(t, 1, p.Modifies)
	g.Guard(p, nil)
	fwd, _ := into(c, p, f2)
	assert.False(t, fwd, "F2's failure is kept")
	assert.Zero(t, p.Len())
	assert.Equal(t, [][]uint32{{f2}}, found)
	g.Guard(p, nil)
	assert.Len(t, found, 1, "guarded twice, told once")
	g.Written(p)

	// Not from a read-back: still kept.
	p = c.Diff(forward, bypass)
	g.Guard(p, nil)
	fwd, _ = into(c, p, f2)
	assert.False(t, fwd)

	// The controller writes a failure of its own: from then on its
	// forward is written.
	p = c.Diff(drop, bypass)
	g.Guard(p, nil)
	require.Equal(t, 1, p.Modifies, "a failure state is never held back")
	g.Written(p)
	p = c.Diff(forward, drop)
	g.Guard(p, nil)
	fwd, _ = into(c, p, f2)
	assert.True(t, fwd, "the controller adopted the failure")

	g.Reset()
	p = readBack(t, c, g, forward, bypass)
	g.Guard(p, nil)
	fwd, _ = into(c, p, f2)
	assert.False(t, fwd, "found again after Reset")
	assert.Len(t, found, 2)
}

// The guard keeps the verdict epoch the switch holds unless the
// controller may move it, and tells which epochs it kept; an entry then
// equal to the switch's is not written. Reset forgets the epochs read.
func TestWriteGuardKeepsEpochs(t *testing.T) {
	c, compile, f2 := guardRig(t)
	on, _ := c.Verdict()
	require.True(t, on)
	allow := false
	var adopted []map[uint32]uint8
	g := NewWriteGuard(c, GuardOptions{
		EpochAllowed: func(fg uint32, held, wanted uint8) bool { return allow },
		OnAdopt:      func(a map[uint32]uint8) { adopted = append(adopted, a) },
	})
	held := compile(State{Epochs: map[string]uint8{"F2": 3}})
	want := compile(State{})

	p := readBack(t, c, g, want, held)
	require.Equal(t, 1, p.Modifies)
	g.Guard(p, nil)
	assert.Zero(t, p.Len(), "the switch's epoch is kept: nothing to write")
	assert.Equal(t, []map[uint32]uint8{{f2: 3}}, adopted)
	g.Guard(p, nil)
	assert.Len(t, adopted, 1, "guarded twice, told once")

	allow = true
	p = c.Diff(want, held)
	g.Guard(p, nil)
	assert.Equal(t, 1, p.Modifies, "allowed: the new epoch is written")
	g.Written(p)
	allow = false
	p = c.Diff(held, want)
	g.Guard(p, nil)
	assert.Zero(t, p.Len(), "the epoch written is the switch's now")
	assert.Len(t, adopted, 2)

	g.Reset()
	p = c.Diff(want, held)
	g.Guard(p, nil)
	assert.Equal(t, 1, p.Modifies, "nothing read since Reset: nothing to keep")
}
