package tables_test

import (
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	. "github.com/dpi-balancer/balancer/tables"
)

func verdictCompiler(t *testing.T) *Compiler {
	t.Helper()
	s, err := p4src.Load()
	require.NoError(t, err)
	c, err := New(s)
	require.NoError(t, err)
	on, tick := c.Verdict()
	require.True(t, on)
	require.Equal(t, p4src.TickBMv2, tick)
	return c
}

func fgEntries(t *testing.T, c *Compiler, cfg *config.Config, st State) map[uint32]*p4v1.Entity {
	t.Helper()
	d, err := c.Compile(cfg, st)
	require.NoError(t, err)
	out := map[uint32]*p4v1.Entity{}
	for _, e := range d.Entities {
		if fg, _, ok := c.ForwardEpoch(e); ok {
			out[fg] = e
		}
	}
	return out
}

// filter_forward carries the profile's detection time in ticks, the
// failure action and the state's epoch; WithState writes a new epoch as a
// MODIFY of the forwarding entry alone.
func TestForwardLivenessParams(t *testing.T) {
	c := verdictCompiler(t)
	cfg, err := pipelinecases.VerdictConfig(true)
	require.NoError(t, err)
	es := fgEntries(t, c, cfg, State{Epochs: map[string]uint8{"F2": 7}})
	require.Len(t, es, 2)
	fa, err := c.Schema().Action(p4src.ActionFilterForward)
	require.NoError(t, err)
	params := func(e *p4v1.Entity) map[string]uint64 {
		m := map[string]uint64{}
		for _, p := range e.GetTableEntry().GetAction().GetAction().GetParams() {
			for n, f := range fa.Params {
				if f.GetId() == p.GetParamId() {
					var v uint64
					for _, b := range p.GetValue() {
						v = v<<8 | uint64(b)
					}
					m[n] = v
				}
			}
		}
		return m
	}
	p := params(es[1])
	assert.Equal(t, uint64(7), p[p4src.ParamEpoch])
	assert.Equal(t, uint64(50_000), p[p4src.ParamDetect], "5 x 10ms in µs")
	assert.Equal(t, uint64(1), p[p4src.ParamFailDrop])
	assert.Zero(t, params(es[0])[p4src.ParamEpoch])
	assert.Equal(t, uint64(3), DetectTicks(3*time.Microsecond, p4src.TickBMv2))
	assert.Equal(t, uint64(8), DetectTicks(500*time.Microsecond, p4src.TickTNA), "rounded up: 7.6 ticks of 65.536 µs")
	assert.Equal(t, uint64(1<<31-1), DetectTicks(time.Hour*3, p4src.TickBMv2))

	d, err := c.Compile(cfg, State{})
	require.NoError(t, err)
	site, err := c.NewSite(cfg, d, State{})
	require.NoError(t, err)
	_, changed, err := c.WithState(site, State{Epochs: map[string]uint8{"F1": 1}})
	require.NoError(t, err)
	require.Len(t, changed, 1)
	fg, ep, ok := c.ForwardEpoch(changed[0])
	assert.True(t, ok)
	assert.Equal(t, uint32(0), fg)
	assert.Equal(t, uint8(1), ep)
}

// The epoch guard keeps the switch's epoch unless allowed, drops a write
// that then changes nothing, and reports what it kept.
func TestGuardEpochs(t *testing.T) {
	c := verdictCompiler(t)
	cfg, err := pipelinecases.VerdictConfig(false)
	require.NoError(t, err)
	onSwitch := fgEntries(t, c, cfg, State{Epochs: map[string]uint8{"F1": 3, "F2": 5}})
	current := map[string]*p4v1.Entity{}
	for _, e := range onSwitch {
		current[Key(e)] = e
	}
	want := fgEntries(t, c, cfg, State{Epochs: map[string]uint8{"F1": 0, "F2": 6}})
	us := []*p4v1.Update{{Type: p4v1.Update_MODIFY, Entity: want[0]}, {Type: p4v1.Update_MODIFY, Entity: want[1]}}
	allowed := func(fg uint32, held, wanted uint8) bool { return fg == 1 && held == 5 && wanted == 6 }
	out, adopted, dropped := c.GuardEpochs(us, current, allowed)
	assert.Equal(t, map[uint32]uint8{0: 3}, adopted)
	assert.Equal(t, 1, dropped, "F1's write, at the switch's epoch, changes nothing")
	require.Len(t, out, 1)
	_, ep, _ := c.ForwardEpoch(out[0].GetEntity())
	assert.Equal(t, uint8(6), ep, "F2's clear was allowed")
	_, ep, _ = c.ForwardEpoch(want[0])
	assert.Zero(t, ep, "the desired entity itself is not changed")

	// Nothing allowed: F2 keeps 5 too.
	out, adopted, _ = c.GuardEpochs(us, current, nil)
	assert.Empty(t, out)
	assert.Equal(t, map[uint32]uint8{0: 3, 1: 5}, adopted)
}
