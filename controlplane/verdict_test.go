package controlplane

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sim"
	"github.com/dpi-balancer/balancer/sim/dataplane"
	"github.com/dpi-balancer/balancer/tables"
)

// proveDataLoss sends F1 data of many sessions that never comes back,
// until the software switch's pipeline bypasses it (its own verdict), and
// returns how many frames that took.
func proveDataLoss(t *testing.T, dp *dataplane.Dataplane) {
	t.Helper()
	cfg, err := pipelinecases.VerdictConfig(false)
	require.NoError(t, err)
	sc := pipelinecases.VerdictScenarios(cfg)[0]
	var frames [][]byte
	for _, st := range sc.Steps {
		if st.In == pipelinecases.L1LAN {
			frames = append(frames, st.Frame)
		}
	}
	// The pipeline's clock is the host's: keep sending (well within the
	// detection time between frames) until loss is proven.
	deadline := time.Now().Add(5 * time.Second)
	for i := 0; time.Now().Before(deadline); i++ {
		r := dp.Process(pipelinecases.L1LAN, frames[i%len(frames)], nil)
		if r.Kind == dataplane.Forward && r.Port == pipelinecases.L1WAN {
			return
		}
		time.Sleep(pipelinecases.VerdictDetect / 10)
	}
	t.Fatal("the pipeline never proved F1's loss")
}

func verdictRig(t *testing.T) (*sim.Switch, string, *tables.Compiler, *p4src.Schema) {
	t.Helper()
	schema, err := p4src.Load()
	require.NoError(t, err)
	sw, err := sim.New(sim.Options{Ports: map[uint32]sim.Port{}, Schema: schema})
	require.NoError(t, err)
	addr := serveSwitch(t, sw)
	comp, err := tables.New(schema)
	require.NoError(t, err)
	return sw, addr, comp, schema
}

func verdictSession(t *testing.T, addr string, election uint64, comp *tables.Compiler, schema *p4src.Schema, vo VerdictOptions, g tables.GuardOptions, st tables.State) *Session {
	t.Helper()
	cfg, err := pipelinecases.VerdictConfig(false)
	require.NoError(t, err)
	d, err := comp.Compile(cfg, st)
	require.NoError(t, err)
	s, _, _ := newSession(t, addr, election, comp, nil, withDesired(d.Entities), withOpts(func(o *Options) {
		o.Pipeline = Pipeline{P4Info: schema.Info, DeviceConfig: p4src.BMv2JSON}
		o.Verdict = vo
	}), withGuard(g))
	waitPrimary(t, s)
	return s
}

func epochOnSwitch(t *testing.T, s *Session, comp *tables.Compiler) (uint8, bool) {
	t.Helper()
	for _, e := range readAll(t, s, comp) {
		if fg, ep, ok := comp.ForwardEpoch(e); ok && fg == pipelinecases.F1ID {
			return ep, true
		}
	}
	return 0, false
}

// The controller learns the pipeline's verdict from its digest within
// milliseconds, may clear it (next epoch) once it received it, and a
// controller that did not receive it (a restart, a new HA leader) leaves
// it standing: its write keeps the switch's epoch, and it is told so.
func TestVerdictDigestAndEpochGuard(t *testing.T) {
	sw, addr, comp, schema := verdictRig(t)
	var mu sync.Mutex
	received := map[[2]uint8]bool{} // fg, epoch
	allowed := func(fg uint32, held, wanted uint8) bool {
		mu.Lock()
		defer mu.Unlock()
		return received[[2]uint8{uint8(fg), held}] && wanted == held+1
	}
	s1 := verdictSession(t, addr, 10, comp, schema, VerdictOptions{AckTimeout: 200 * time.Millisecond}, tables.GuardOptions{EpochAllowed: allowed}, tables.State{})
	require.Eventually(t, func() bool { ok, _ := sw.P4Runtime().DigestConfigured(); return ok }, 5*time.Second, 5*time.Millisecond)

	proveDataLoss(t, sw.Dataplane())
	proven := time.Now()
	var v Verdict
	select {
	case v = <-s1.Verdicts():
	case <-time.After(5 * time.Second):
		t.Fatal("no verdict digest")
	}
	t.Logf("verdict digest %+v, %v after the pipeline applied it", v.VerdictDigest, v.Received.Sub(proven))
	assert.Equal(t, uint8(pipelinecases.F1ID), v.FilterGroup)
	assert.Equal(t, uint8(0), v.Epoch)
	assert.Equal(t, uint8(p4src.VerdictData), v.Reason)
	assert.GreaterOrEqual(t, time.Duration(v.Age)*p4src.TickBMv2, pipelinecases.VerdictDetect)
	mu.Lock()
	received[[2]uint8{v.FilterGroup, v.Epoch}] = true
	mu.Unlock()

	// Cleared by the controller that received it: epoch 1.
	cfg, err := pipelinecases.VerdictConfig(false)
	require.NoError(t, err)
	d, err := comp.Compile(cfg, tables.State{Epochs: map[string]uint8{"F1": 1}})
	require.NoError(t, err)
	_, err = s1.ApplyUpdates(context.Background(), FullChange(d.Entities))
	require.NoError(t, err)
	ep, ok := epochOnSwitch(t, s1, comp)
	require.True(t, ok)
	assert.Equal(t, uint8(1), ep)

	// Proven again at epoch 1 (F1 is still dead).
	proveDataLoss(t, sw.Dataplane())
	e, set := sw.Dataplane().Verdict(pipelinecases.F1ID)
	require.True(t, set)
	require.Equal(t, uint8(1), e)

	// A new controller (higher election id: it takes over) starts from a
	// store that says epoch 0 and has received nothing.
	adopted := make(chan map[uint32]uint8, 4)
	s2 := verdictSession(t, addr, 20, comp, schema, VerdictOptions{}, tables.GuardOptions{OnAdopt: func(a map[uint32]uint8) { adopted <- a }}, tables.State{})
	select {
	case a := <-adopted:
		assert.Equal(t, map[uint32]uint8{pipelinecases.F1ID: 1}, a)
	case <-time.After(5 * time.Second):
		t.Fatal("the new controller was not told the epoch it kept")
	}
	ep, ok = epochOnSwitch(t, s2, comp)
	require.True(t, ok)
	assert.Equal(t, uint8(1), ep, "the standing verdict's epoch is kept")
	e, set = sw.Dataplane().Verdict(pipelinecases.F1ID)
	assert.True(t, set)
	assert.Equal(t, uint8(1), e)
	// Still failed over, and the new controller learns the standing
	// verdict from the repeats.
	proveDataLoss(t, sw.Dataplane())
	select {
	case v = <-s2.Verdicts():
		assert.Equal(t, uint8(1), v.Epoch)
	case <-time.After(5 * time.Second):
		t.Fatal("the new controller got no digest of the standing verdict")
	}
}
