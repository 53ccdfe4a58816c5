package dataplane

import (
	"sync/atomic"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/tables"
)

// verdictTarget runs the verdict scenarios on the in-memory data plane
// with a clock the test moves.
type verdictTarget struct {
	*target
	tb    testing.TB
	comp  *tables.Compiler
	clock *atomic.Uint64
}

func newVerdictTarget(tb testing.TB, start uint64) *verdictTarget {
	tb.Helper()
	s, err := p4src.Load()
	require.NoError(tb, err)
	clock := &atomic.Uint64{}
	clock.Store(start)
	d, err := New(s, WithClock(clock.Load))
	require.NoError(tb, err)
	require.True(tb, d.VerdictOn())
	comp, err := tables.New(s)
	require.NoError(tb, err)
	return &verdictTarget{target: newTarget(d), tb: tb, comp: comp, clock: clock}
}

func (vt *verdictTarget) write(cfg *config.Config, st tables.State) error {
	desired, err := vt.comp.Compile(cfg, st)
	if err != nil {
		return err
	}
	plan := vt.comp.Diff(desired.Entities, readAll(vt.tb, vt.d, vt.comp))
	for _, b := range plan.Batches {
		for _, err := range vt.d.Write(b.Updates, p4v1.WriteRequest_CONTINUE_ON_ERROR) {
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func (vt *verdictTarget) Fresh(cfg *config.Config) error {
	vt.d.Reset()
	return vt.write(cfg, tables.State{})
}

func (vt *verdictTarget) SetEpochs(cfg *config.Config, epochs map[string]uint8) error {
	return vt.write(cfg, tables.State{Epochs: epochs})
}

func (vt *verdictTarget) Wait(d time.Duration) { vt.clock.Add(uint64(d)) }

func (vt *verdictTarget) Digests(time.Duration) []p4src.VerdictDigest {
	dgs, _ := vt.d.VerdictDigests()
	return dgs
}

func (vt *verdictTarget) Tick() time.Duration { return p4src.TickBMv2 }

// TestVerdictScenarios runs every data-plane verdict scenario (the ones
// bmv2/verdict_test.go runs on BMv2) on the software switch's model, from
// a clock near 0 and from one that wraps its 32-bit ticks in the middle.
func TestVerdictScenarios(t *testing.T) {
	cfg, err := pipelinecases.VerdictConfig(false)
	require.NoError(t, err)
	for _, start := range []struct {
		name string
		ns   uint64
	}{{"clock 1s", uint64(time.Second)}, {"ticks wrap", (1<<32 - 30_000) * 1000}} {
		passed := 0
		scs := pipelinecases.VerdictScenarios(cfg)
		for _, sc := range scs {
			t.Run(start.name+"/"+sc.Name, func(t *testing.T) {
				vt := newVerdictTarget(t, start.ns)
				require.NoError(t, pipelinecases.RunVerdict(vt, sc, pipelinecases.Timing{}))
				passed++
			})
		}
		t.Logf("%s: %d of %d verdict scenarios passed", start.name, passed, len(scs))
	}
}

// The verdict's counters: each frame a standing verdict bypasses or drops
// is counted in verdict_counters (and the link and drop counters say
// where it went), and a repeated digest is sent again only once the
// controller acknowledged it.
func TestVerdictCountersAndDigestAck(t *testing.T) {
	for _, drop := range []bool{false, true} {
		cfg, err := pipelinecases.VerdictConfig(drop)
		require.NoError(t, err)
		vt := newVerdictTarget(t, uint64(time.Second))
		require.NoError(t, vt.Fresh(cfg))
		// The first scenario's steps up to the verdict.
		sc := pipelinecases.VerdictScenarios(cfg)[0]
		for _, st := range sc.Steps[:len(sc.Steps)-1] {
			vt.Wait(st.Wait)
			vt.d.Process(st.In, st.Frame, nil)
		}
		dgs, _ := vt.d.VerdictDigests()
		require.Len(t, dgs, 1)
		assert.Equal(t, uint8(p4src.VerdictData), dgs[0].Reason)
		assert.Greater(t, time.Duration(dgs[0].Age)*time.Microsecond, pipelinecases.VerdictDetect)
		epoch, set := vt.d.Verdict(pipelinecases.F1ID)
		assert.True(t, set)
		assert.Zero(t, epoch)

		frame := sc.Steps[0].Frame
		for i := 0; i < 5; i++ {
			r := vt.d.Process(pipelinecases.L1LAN, frame, nil)
			if drop {
				assert.Equal(t, Drop, r.Kind)
				assert.Equal(t, uint8(p4src.DropVerdict), r.DropReason)
			} else {
				assert.Equal(t, Forward, r.Kind)
				assert.Equal(t, uint32(pipelinecases.L1WAN), r.Port)
			}
		}
		repeats, _ := vt.d.VerdictDigests()
		require.Len(t, repeats, 1, "repeats are one digest until acknowledged")
		assert.Equal(t, uint8(p4src.VerdictStanding), repeats[0].Reason)
		vt.d.Process(pipelinecases.L1LAN, frame, nil)
		again, _ := vt.d.VerdictDigests()
		assert.Empty(t, again, "not acknowledged: no repeat")
		vt.d.AckVerdictDigests(repeats)
		vt.d.Process(pipelinecases.L1LAN, frame, nil)
		again, _ = vt.d.VerdictDigests()
		assert.Len(t, again, 1, "acknowledged: the next repeat is sent")

		kind := uint32(p4src.VerdictCntBypass)
		if drop {
			kind = p4src.VerdictCntDrop
		}
		// the proving frame, 5, and 2 more
		assert.Equal(t, uint64(8), vt.d.verdictCtr.cells[p4src.VerdictCounterIndex(pipelinecases.F1ID, kind)].pkts.Load())
	}
}

// The shared stateless cases pass on the program with the verdict too
// (their frames record evidence; none waits long enough to prove loss).
func TestPipelineCasesWithVerdict(t *testing.T) {
	vt := newVerdictTarget(t, uint64(time.Second))
	cfg := siteConfig(t)
	require.NoError(t, vt.Fresh(cfg))
	passed, failed := pipelinecases.RunT(t, vt.target, pipelinecases.Cases(cfg), pipelinecases.Timing{})
	t.Logf("sim pipeline cases on the verdict program: %d passed, %d failed", passed, failed)
	require.Zero(t, failed)
	dgs, _ := vt.d.VerdictDigests()
	assert.Empty(t, dgs)
}
