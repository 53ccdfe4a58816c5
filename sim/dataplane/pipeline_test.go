package dataplane

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/tables"
)

// TestPipelineCases runs the shared packet cases (the ones BMv2 runs in
// bmv2/packet_test.go) through the in-memory data plane.
func TestPipelineCases(t *testing.T) {
	d := newDP(t)
	plan := program(t, d, siteConfig(t), tables.State{})
	comp, _ := compileSite(t, siteConfig(t), tables.State{})
	back := readAll(t, d, comp)
	// Read back: exactly what was written (value sets are read back too).
	assert.Equal(t, plan.Inserts+len(comp.ValueSetIDs()), len(back), "entities read back")

	cfg := siteConfig(t)
	passed, failed := pipelinecases.RunT(t, newTarget(d), pipelinecases.Cases(cfg), pipelinecases.Timing{})
	t.Logf("sim pipeline cases: %d passed, %d failed", passed, failed)
	require.Zero(t, failed)
}
