package daemon

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
)

// The daemon writes the evidence copy's mirror sessions exactly when the
// switch has several pipes and runs the build that copies returns across
// them (the TNA verdict build).
func TestEvidenceCopySessionsByPlatformAndBuild(t *testing.T) {
	text, err := os.ReadFile("../p4src/build/tofino-verdict/balancer.p4info.txtpb")
	require.NoError(t, err)
	verdict, err := p4src.ParseSchema(text)
	require.NoError(t, err)
	base, err := p4src.LoadArch(p4src.ArchTNA)
	require.NoError(t, err)
	v1, err := p4src.Load()
	require.NoError(t, err)

	got := evidenceCopySessions(config.PlatformWedge100B, verdict)
	require.Len(t, got, 2, "a 2-pipe box running the verdict build")
	assert.Equal(t, uint32(196), got[0].GetReplicas()[0].GetEgressPort())
	assert.Equal(t, uint32(68), got[1].GetReplicas()[0].GetEgressPort())
	assert.Empty(t, evidenceCopySessions(config.PlatformWedge100B, base), "the base build copies nothing")
	assert.Empty(t, evidenceCopySessions(config.PlatformBMv2, v1), "BMv2: one pipe")
	assert.Empty(t, evidenceCopySessions(config.PlatformSim, v1), "the software switch: one pipe")
}
