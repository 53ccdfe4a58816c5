package controlplane

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/tables"
)

// A controller whose desired state says forward takes over a switch on
// which the last controller failed F2 over (software bypass): its
// reconcile keeps F2 bypassed and names it, its periodic read-backs do not
// repair it either (and name it again while the controller has not
// adopted it), and it goes back to forward only after this controller
// wrote a failure state of its own for it (it adopted the failure) and
// then asks for forward.
func TestFailureFoundOnSwitchIsKept(t *testing.T) {
	sw := startSwitch(t, "")
	comp := compiler(t)
	cfg, err := config.Load("../examples/site.yaml")
	require.NoError(t, err)
	f2 := *cfg.FilterGroupByName("F2").ID
	failed := fgBypass(t, comp, "F2")
	forward := desired(t, comp, "../examples/site.yaml", tables.State{})
	f2State := func(s *Session) tables.FilterGroupState {
		for _, e := range readAll(t, s, comp) {
			if fg, st, ok := comp.FilterGroupOf(e); ok && fg == f2 {
				return st
			}
		}
		t.Fatal("F2 has no entry")
		return 0
	}

	s1, stop1, wg1 := newSession(t, sw.addr, 10, comp, nil, withDesired(failed))
	waitPrimary(t, s1)
	require.Equal(t, tables.FGSWBypass, f2State(s1))
	stop1()
	wg1.Wait()

	var mu sync.Mutex
	var found [][]uint32
	s2, _, _ := newSession(t, sw.addr, 20, comp, nil, withDesired(forward), withOpts(func(o *Options) {
		o.ReconcileInterval = 50 * time.Millisecond
	}), withGuard(tables.GuardOptions{OnFailedFound: func(fgs []uint32) { mu.Lock(); found = append(found, fgs); mu.Unlock() }}))
	waitPrimary(t, s2)
	assert.Equal(t, tables.FGSWBypass, f2State(s2), "the reconcile keeps F2's failure")
	mu.Lock()
	require.NotEmpty(t, found)
	assert.Equal(t, []uint32{f2}, found[0], "and names F2")
	mu.Unlock()
	reads := s2.Stats().ReadBacks
	require.Eventually(t, func() bool { return s2.Stats().ReadBacks >= reads+2 }, time.Minute, 5*time.Millisecond) // each read-back reads every table: seconds apiece under -race on a busy host
	assert.Equal(t, tables.FGSWBypass, f2State(s2), "the periodic read-backs keep it too")
	assert.Zero(t, s2.Stats().Repairs, "nothing to repair: the rest is as desired")
	mu.Lock()
	assert.GreaterOrEqual(t, len(found), 3, "named again by every read-back while the controller has not adopted it")
	for _, f := range found {
		assert.Equal(t, []uint32{f2}, f)
	}
	named := len(found)
	mu.Unlock()

	// The controller adopts the failure, then its own rules bring F2 back.
	_, err = s2.ApplyUpdates(context.Background(), FullChange(failed))
	require.NoError(t, err)
	_, err = s2.ApplyUpdates(context.Background(), FullChange(forward))
	require.NoError(t, err)
	assert.Equal(t, tables.FGForward, f2State(s2), "forward once this controller wrote F2's failure itself")
	reads = s2.Stats().ReadBacks
	require.Eventually(t, func() bool { return s2.Stats().ReadBacks >= reads+2 }, time.Minute, 5*time.Millisecond)
	mu.Lock()
	assert.LessOrEqual(t, len(found), named+1, "not named again once adopted (a read-back under way may have)")
	mu.Unlock()
	assert.Equal(t, tables.FGForward, f2State(s2))
}
