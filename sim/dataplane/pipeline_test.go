package dataplane

import (
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
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
	// Read back: exactly what was written (value sets and the default
	// entries the compiler writes are read back too).
	assert.Equal(t, plan.Inserts+len(comp.ValueSetIDs())+len(comp.DefaultEntryTableIDs()), len(back), "entities read back")

	cfg := siteConfig(t)
	passed, failed := pipelinecases.RunT(t, newTarget(d), pipelinecases.Cases(cfg), pipelinecases.Timing{})
	t.Logf("sim pipeline cases: %d passed, %d failed", passed, failed)
	require.Zero(t, failed)
}

// The P4 program parses the default core TPID and keep-alive EtherType as
// constants besides the value sets: with both value sets empty every case
// still passes (a keep-alive still reaches the controller, a returning
// frame still has its core header popped).
func TestPipelineCasesEmptyValueSets(t *testing.T) {
	d := newDP(t)
	program(t, d, siteConfig(t), tables.State{})
	comp, _ := compileSite(t, siteConfig(t), tables.State{})
	for i, err := range d.Write(pipelinecases.EmptyValueSets(comp), p4v1.WriteRequest_CONTINUE_ON_ERROR) {
		require.NoError(t, err, "emptying value set %d", i)
	}
	var members int
	for _, e := range readAll(t, d, comp) {
		members += len(e.GetValueSetEntry().GetMembers())
	}
	require.Zero(t, members, "value sets emptied")
	passed, failed := pipelinecases.RunT(t, newTarget(d), pipelinecases.Cases(siteConfig(t)), pipelinecases.Timing{})
	t.Logf("sim pipeline cases with empty value sets: %d passed, %d failed", passed, failed)
	require.Zero(t, failed)
}
