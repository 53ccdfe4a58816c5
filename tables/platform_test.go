package tables

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/testsites"
	"github.com/dpi-balancer/balancer/p4src"
)

// The P4Info a compiler was made from sizes the slots table, whatever the
// site's platform says: a Tofino site of 2 x 65,536 slots fits the TNA
// build and is refused by the v1model one (16,384 entries).
func TestSlotCapacityFromP4Info(t *testing.T) {
	cfg, err := testsites.Big(16)
	require.NoError(t, err)
	require.Equal(t, "wedge100bf-32x", cfg.Platform)

	_, err = compiler(t).Compile(cfg, State{})
	require.ErrorIs(t, err, ErrCapacity)
	assert.Contains(t, err.Error(), "balance_groups: 131072 slots exceed the slot table's 16384 entries")

	tna, err := LoadPlatform(cfg.Platform)
	require.NoError(t, err)
	d, err := tna.Compile(cfg, State{})
	require.NoError(t, err)
	slots := 0
	for _, e := range d.Entities {
		if e.GetTableEntry().GetTableId() == tna.slots.id {
			slots++
		}
	}
	assert.Equal(t, 2<<16, slots)
}

func TestCheckPlatform(t *testing.T) {
	v1 := compiler(t)
	for _, p := range []string{"", "sim", "bmv2"} {
		assert.NoError(t, v1.CheckPlatform(p), p)
	}
	err := v1.CheckPlatform("wedge100bf-32x")
	require.ErrorIs(t, err, ErrPlatform)
	assert.Contains(t, err.Error(), "platform wedge100bf-32x runs the tna build, whose BalancerIngress.slots has 131072 entries; the P4Info has 16384")

	tna, err := LoadPlatform("wedge100bf-32x")
	require.NoError(t, err)
	assert.Equal(t, p4src.SlotsSizeTofino, tna.slots.size)
	require.ErrorIs(t, tna.CheckPlatform("sim"), ErrPlatform)

	// A v1model P4Info resized to Tofino's slots (the software switch's
	// stand-in for a Tofino site) fits the Tofino platform.
	info, err := testsites.TofinoSizedP4Info()
	require.NoError(t, err)
	s, err := p4src.NewSchema(info)
	require.NoError(t, err)
	big, err := New(s)
	require.NoError(t, err)
	assert.NoError(t, big.CheckPlatform("wedge100bf-32x"))

	_, err = LoadPlatform("tofino9")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown platform "tofino9"`)
}

// The committed Tofino 1 build (profile base) has no data-plane verdict:
// the compiler for wedge100bf-32x says so, and writes filter_forward with
// its ports and TPID only; the v1model build's writes the liveness
// parameters too.
func TestTofinoBaseProfileHasNoVerdict(t *testing.T) {
	tna, err := LoadPlatform("wedge100bf-32x")
	require.NoError(t, err)
	on, _ := tna.Verdict()
	assert.False(t, on, "the committed TNA build is the profile without the verdict")
	assert.False(t, p4src.HasVerdict(tna.Schema().Info))
	assert.Nil(t, tna.Schema().Digest(p4src.DigestVerdict), "no verdict digest in the P4Info")

	v1 := compiler(t)
	on, tick := v1.Verdict()
	assert.True(t, on)
	assert.Equal(t, p4src.TickBMv2, tick)

	cfg, err := testsites.Big(12)
	require.NoError(t, err)
	for c, want := range map[*Compiler]int{tna: 3, v1: 6} {
		cfg := *cfg
		cfg.Platform = map[*Compiler]string{tna: "wedge100bf-32x", v1: "sim"}[c]
		d, err := c.Compile(&cfg, State{})
		require.NoError(t, err)
		n := 0
		for _, e := range d.Entities {
			te := e.GetTableEntry()
			if te.GetTableId() != c.filterGroups.id {
				continue
			}
			if a := te.GetAction().GetAction(); a.GetActionId() == c.filterForward.id {
				assert.Len(t, a.GetParams(), want, "filter_forward on %s", cfg.Platform)
				n++
			}
		}
		assert.Positive(t, n, "%s: filter groups forwarding", cfg.Platform)
	}
}
