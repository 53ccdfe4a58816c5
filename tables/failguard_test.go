package tables_test

import (
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
	. "github.com/dpi-balancer/balancer/tables"
)

// guardFor is the guard of a controller that read the switch holding cur.
func guardFor(c *Compiler, cur []*p4v1.Entity, read bool, kept ...uint32) *FailureGuard {
	g := &FailureGuard{Held: map[uint32]FilterGroupState{}, Read: read}
	for _, e := range cur {
		c.NoteRead(g, e)
	}
	if !read {
		g.Shares = nil
	}
	for _, fg := range kept {
		if g.Kept == nil {
			g.Kept = map[uint32]bool{}
		}
		g.Kept[fg] = true
	}
	return g
}

// into counts what a plan gives back to filter group fg: its entry made
// forward, and slots pointed at it.
func into(c *Compiler, p *Plan, fg uint32) (forward bool, slots int) {
	for _, b := range p.Batches {
		for _, u := range b.Updates {
			if u.GetType() == p4v1.Update_DELETE {
				continue
			}
			if id, st, ok := c.FilterGroupOf(u.GetEntity()); ok && id == fg && st == FGForward {
				forward = true
			}
			if s, ok := c.DecodeSlot(u.GetEntity().GetTableEntry()); ok && s.Target.FilterGroup == fg {
				slots++
			}
		}
	}
	return forward, slots
}

// A controller whose desired state says forward, in front of a switch that
// holds a filter group in a failure state (software bypass, drop, its
// share moved to the others), keeps that state when the plan comes from a
// read-back, and names the filter group; the rest of the plan is written.
// Its own writes (not from a read-back) are guarded only for the filter
// groups it keeps; a failure state is never held back.
func TestGuardFailures(t *testing.T) {
	s, err := p4src.Load()
	require.NoError(t, err)
	pre, err := p4src.NewSchema(p4src.WithoutVerdict(s.Info))
	require.NoError(t, err)
	for _, schema := range []*p4src.Schema{s, pre} {
		c, err := New(schema)
		require.NoError(t, err)
		on, _ := c.Verdict()
		cfg, err := config.Load("../examples/site.yaml")
		require.NoError(t, err)
		f2 := *cfg.FilterGroupByName("F2").ID
		down := func(st FilterGroupState, rebalanced bool) State {
			return State{FilterGroups: map[string]FilterGroupState{"F2": st}, Rebalanced: map[string]bool{"F2": rebalanced}}
		}
		compile := func(st State) []*p4v1.Entity {
			d, err := c.Compile(cfg, st)
			require.NoError(t, err)
			return d.Entities
		}
		for _, tt := range []struct {
			name        string
			switchState State
			desired     State
			read        bool
			kept        []uint32
			own         bool // the controller wrote F2's failure itself
			adopted     bool // the plan writes F2's failure: the controller's own, kept no more
			found       []uint32
			wantForward bool // the plan makes F2's entry forward
			wantSlots   bool // the plan points slots at F2
			other       bool // the plan carries another change too
		}{
			{name: "read: software bypass kept", switchState: down(FGSWBypass, false), read: true, found: []uint32{f2}},
			{name: "read: drop kept", switchState: down(FGDrop, false), read: true, found: []uint32{f2}},
			{name: "read: rebalanced share and bypass kept", switchState: down(FGSWBypass, true), read: true, found: []uint32{f2}},
			{name: "read: share moved, entry still forward (a failover cut short)", switchState: State{Rebalanced: map[string]bool{"F2": true}},
				read: true, found: []uint32{f2}},
			{name: "read: failure and desired agree", switchState: down(FGSWBypass, true), desired: down(FGSWBypass, true), read: true},
			{name: "read: another change goes through", switchState: State{FilterGroups: map[string]FilterGroupState{"F2": FGSWBypass, "F1": FGSWBypass}},
				desired: State{FilterGroups: map[string]FilterGroupState{"F1": FGDrop}}, read: true, found: []uint32{f2}, other: true},
			{name: "read: failing over is never held back", desired: down(FGDrop, false), read: true, adopted: true, other: true},
			{name: "read: kept before and still not adopted, named again", switchState: down(FGDrop, false), read: true, kept: []uint32{f2}, found: []uint32{f2}},
			{name: "read: its own failure undone after a failed write", switchState: down(FGSWBypass, true), read: true, own: true,
				wantForward: true, wantSlots: true},
			{name: "own recovery", switchState: down(FGSWBypass, true), wantForward: true, wantSlots: true},
			{name: "own recovery of a kept filter group", switchState: down(FGSWBypass, true), kept: []uint32{f2}},
			{name: "kept filter group failing: the failure is the controller's own now", switchState: State{Rebalanced: map[string]bool{"F2": true}},
				desired: down(FGSWBypass, true), kept: []uint32{f2}, adopted: true, other: true},
		} {
			t.Run(map[bool]string{true: "verdict", false: "no verdict"}[on]+"/"+tt.name, func(t *testing.T) {
				cur := compile(tt.switchState)
				plan := c.Diff(compile(tt.desired), cur)
				before := plan.Len()
				_, slots0 := into(c, plan, f2)
				g := guardFor(c, cur, tt.read, tt.kept...)
				if tt.own {
					g.Own = map[uint32]bool{f2: true}
				}
				found := c.GuardFailures(plan, g)
				assert.Equal(t, tt.found, found)
				fwd, slots := into(c, plan, f2)
				assert.Equal(t, tt.wantForward, fwd, "F2's entry made forward")
				assert.Equal(t, tt.wantSlots, slots > 0, "slots pointed at F2")
				n := 0
				for _, b := range plan.Batches {
					require.NotEmpty(t, b.Updates, "batch %s left empty", b.Name)
					n += len(b.Updates)
				}
				assert.Equal(t, n, plan.Len(), "the plan's counts follow what it writes")
				dropped := before - plan.Len()
				if tt.other {
					assert.Positive(t, n, "the rest is written")
				}
				for _, fg := range append(tt.found, tt.kept...) {
					assert.Equal(t, !tt.adopted, g.Kept[fg], "filter group %d kept", fg)
				}
				assert.Equal(t, tt.adopted || tt.own, g.Own[f2], "F2's failure the controller's own")
				if len(tt.found) > 0 || len(tt.kept) > 0 {
					if !tt.other {
						assert.Zero(t, n, "nothing written")
					}
					assert.GreaterOrEqual(t, dropped, slots0, "every slot for F2 left out")
				} else {
					assert.Zero(t, dropped, "nothing left out")
				}
			})
		}
	}
}
