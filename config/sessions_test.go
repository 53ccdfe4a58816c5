package config

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sessionsSite = `
platform: sim
ports:
  - {port: 1, speed: 100G}
  - {port: 2, speed: 100G}
  - {port: 3, speed: 100G}
  - {port: 4, speed: 100G}
links:
  - {name: L1, lan: P2, wan: P1}
filter_groups:
  - {name: F1, lan: P4, wan: P3}
balance_groups:
  - {name: G, members: [F1]}
`

// The session memory's settings: off by default, the idle timeouts'
// defaults where a key is left out, a typed value kept, and each bound
// checked with the key named.
func TestSessionsSettings(t *testing.T) {
	c, err := Parse([]byte(sessionsSite))
	require.NoError(t, err)
	assert.False(t, c.Sessions.Enabled, "off by default")
	assert.Equal(t, SessionIdleTimeout{TCP: DefaultSessionIdleTCP, UDP: DefaultSessionIdleUDP, Other: DefaultSessionIdleOther}, c.Sessions.IdleTimeout)

	c, err = Parse([]byte(sessionsSite + "sessions: {enabled: true, idle_timeout: {udp: 90s}}\n"))
	require.NoError(t, err)
	assert.True(t, c.Sessions.Enabled)
	assert.Equal(t, Duration(90*time.Second), c.Sessions.IdleTimeout.UDP, "a typed value is kept")
	assert.Equal(t, DefaultSessionIdleTCP, c.Sessions.IdleTimeout.TCP)
	assert.Equal(t, Duration(90*time.Second), c.Sessions.IdleTimeout.For(17))
	assert.Equal(t, DefaultSessionIdleTCP, c.Sessions.IdleTimeout.For(6))
	assert.Equal(t, DefaultSessionIdleOther, c.Sessions.IdleTimeout.For(1))

	for _, tt := range []struct{ yaml, want string }{
		{"sessions: {idle_timeout: {tcp: 500ms}}", "sessions.idle_timeout.tcp: 500ms is out of range 1s.."},
		{"sessions: {idle_timeout: {other: 25h}}", "sessions.idle_timeout.other: 25h0m0s is out of range"},
		{"sessions: {idle_timeout: {udp: 0s}}", "sessions.idle_timeout.udp: 0 is out of range"},
		{"sessions: {enable: true}", `unknown key "enable" in sessions (known keys: enabled, idle_timeout)`},
	} {
		_, err := Parse([]byte(sessionsSite + tt.yaml + "\n"))
		require.Error(t, err, tt.yaml)
		assert.Contains(t, err.Error(), tt.want, tt.yaml)
		assert.False(t, strings.Contains(err.Error(), "\n\n"))
	}
}
