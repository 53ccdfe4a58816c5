package controlplane

import (
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/internal/testbed"
	"github.com/dpi-balancer/balancer/p4src"
)

// The evidence copy's mirror sessions of a 2-pipe Tofino are written on
// reconciliation, and taken over by the next primary (MODIFY after
// ALREADY_EXISTS) without a warning; the software switch's P4Runtime
// server holds what was written.
func TestEvidenceCopySessionsWritten(t *testing.T) {
	sw, addr, comp, _ := verdictRig(t)
	want := p4src.EvidenceCopySessions(2)
	start := func(election uint64, sessions []*p4v1.CloneSessionEntry) (*Session, *testbed.SyncBuffer) {
		logs := &testbed.SyncBuffer{}
		s, _, _ := newSession(t, addr, election, comp, nil, withOpts(func(o *Options) {
			o.EvidenceCopy = sessions
			o.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
		}))
		waitPrimary(t, s)
		return s, logs
	}
	held := func(sessions []*p4v1.CloneSessionEntry) func() bool {
		return func() bool {
			got := sw.P4Runtime().CloneSessions()
			if len(got) != len(sessions) {
				return false
			}
			for _, cs := range sessions {
				if !proto.Equal(got[cs.GetSessionId()], cs) {
					return false
				}
			}
			return true
		}
	}
	s1, logs1 := start(10, want)
	require.Eventually(t, held(want), 5*time.Second, time.Millisecond, "the switch holds the two sessions")
	assert.NoError(t, s1.EvidenceCopyErr())

	// The next primary writes its own (here: a longer copy) over them.
	longer := p4src.EvidenceCopySessions(2)
	for _, cs := range longer {
		cs.PacketLengthBytes = 128
	}
	s2, logs2 := start(20, longer)
	require.Eventually(t, held(longer), 5*time.Second, time.Millisecond, "the new primary's sessions replace the old")
	assert.NoError(t, s2.EvidenceCopyErr())
	assert.NotContains(t, logs1.String()+logs2.String(), "evidence copy")
}

// A switch that refuses a session: the session says why (naming the
// session), warns once, and the rest of the reconciliation goes on.
func TestEvidenceCopyRefusedIsReported(t *testing.T) {
	sw, addr, comp, _ := verdictRig(t)
	bad := p4src.EvidenceCopySessions(2)
	bad[1].SessionId = 0                                        // not a session id
	bad = append(bad, &p4v1.CloneSessionEntry{SessionId: 2000}) // nor this
	logs := &testbed.SyncBuffer{}
	var told atomic.Pointer[error]
	s, _, _ := newSession(t, addr, 30, comp, nil, withOpts(func(o *Options) {
		o.EvidenceCopy = bad
		o.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
		o.OnEvidenceCopy = func(err error) { told.Store(&err) }
	}))
	waitPrimary(t, s)
	err := s.EvidenceCopyErr()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "mirror session 0")
	assert.Contains(t, err.Error(), "mirror session 2000")
	assert.NotContains(t, err.Error(), "\n", "one line, for an alarm's message")
	require.NotNil(t, told.Load(), "OnEvidenceCopy is told")
	assert.Equal(t, err, *told.Load())
	assert.Contains(t, logs.String(), "did not take the evidence copy's mirror sessions")
	got := sw.P4Runtime().CloneSessions()
	assert.Len(t, got, 1, "the valid session is held")
	assert.Contains(t, got, uint32(p4src.EvidenceCopySessionBase))
}
