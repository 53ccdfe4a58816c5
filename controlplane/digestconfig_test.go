package controlplane

import (
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/internal/testbed"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/tables"
)

// A controller that becomes primary on a switch whose verdict digest is
// configured already (by the controller before it: a takeover, a restart)
// gets ALREADY_EXISTS for its INSERT and writes its configuration with
// MODIFY: the switch then holds its ack timeout, and nothing is warned.
// (The software switch answered UNKNOWN, and every takeover and restart
// logged "the switch did not take the verdict digest's configuration".)
func TestDigestConfigTakenOver(t *testing.T) {
	sw, addr, comp, schema := verdictRig(t)
	cfg, err := pipelinecases.VerdictConfig(false)
	require.NoError(t, err)
	d, err := comp.Compile(cfg, tables.State{})
	require.NoError(t, err)
	start := func(election uint64, ack time.Duration) (*Session, *testbed.SyncBuffer) {
		logs := &testbed.SyncBuffer{}
		s, _, _ := newSession(t, addr, election, comp, nil, withDesired(d.Entities), withOpts(func(o *Options) {
			o.Pipeline = Pipeline{P4Info: schema.Info, DeviceConfig: p4src.BMv2JSON}
			o.Verdict = VerdictOptions{AckTimeout: ack}
			o.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
		}))
		waitPrimary(t, s)
		return s, logs
	}
	configured := func(want time.Duration) {
		t.Helper()
		require.Eventually(t, func() bool { ok, ack := sw.P4Runtime().DigestConfigured(); return ok && ack == want },
			5*time.Second, time.Millisecond, "the switch holds the primary's digest configuration (ack timeout %v)", want)
	}
	s1, logs1 := start(10, 200*time.Millisecond)
	configured(200 * time.Millisecond)
	s2, logs2 := start(20, 300*time.Millisecond)
	configured(300 * time.Millisecond)
	for i, s := range []*Session{s1, s2} {
		assert.False(t, s.verdict.warned.Load(), "session %d warned", i+1)
	}
	assert.NotContains(t, logs1.String()+logs2.String(), "verdict digest")
}
