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
		{"sessions: {enable: true}", `unknown key "enable" in sessions (known keys: enabled, idle_timeout, bypass_id)`},
	} {
		_, err := Parse([]byte(sessionsSite + tt.yaml + "\n"))
		require.Error(t, err, tt.yaml)
		assert.Contains(t, err.Error(), tt.want, tt.yaml)
		assert.False(t, strings.Contains(err.Error(), "\n\n"))
	}
}

// return: new-sessions and the id of the sessions kept in bypass: a typed
// value kept, the id's default, a filter group with that id refused by
// name with the fix, and each bad value named.
func TestSessionsKeepBypassSettings(t *testing.T) {
	const keep = "profiles:\n  - {name: default, return: new-sessions}\n"
	c, err := Parse([]byte(sessionsSite + keep + "sessions: {enabled: true}\n"))
	require.NoError(t, err)
	assert.True(t, c.KeepsBypassed())
	assert.Equal(t, uint32(63), c.SessionBypassID(), "the default id")
	assert.Equal(t, ReturnNewSessions, c.ProfileByName("default").Return)

	c, err = Parse([]byte(sessionsSite + "profiles:\n  - {name: default, return: all}\nsessions: {enabled: true, bypass_id: 7}\n"))
	require.NoError(t, err)
	assert.False(t, c.KeepsBypassed())
	assert.Equal(t, uint32(7), c.SessionBypassID(), "a typed id is kept")

	c, err = Parse([]byte(sessionsSite))
	require.NoError(t, err)
	assert.Empty(t, c.ProfileByName("default").Return, "left out: all (not written into the configuration)")
	assert.False(t, c.KeepsBypassed())

	// A filter group on the kept sessions' id: refused only where a
	// profile keeps bypassed sessions (the id is free otherwise).
	onID := strings.Replace(sessionsSite, "{name: F1, lan: P4, wan: P3}", "{name: F1, id: 63, lan: P4, wan: P3}", 1)
	_, err = Parse([]byte(onID + "sessions: {enabled: true}\n"))
	require.NoError(t, err, "no profile keeps bypassed sessions")
	_, err = Parse([]byte(onID + keep + "sessions: {enabled: true, bypass_id: 5}\n"))
	require.NoError(t, err, "the kept sessions have id 5")

	for _, tt := range []struct{ yaml, want string }{
		{onID + keep + "sessions: {enabled: true}",
			`filter_groups[0].id: 63 is the session memory's id for the sessions it keeps in bypass (sessions.bypass_id, default 63; a profile says return: new-sessions): give filter group "F1" another id, or set sessions.bypass_id to an id no filter group has`},
		{sessionsSite + keep, `profiles[0].return: new-sessions keeps held sessions in bypass, which needs the session memory (profile "default"): set sessions.enabled: true, or return: all`},
		{sessionsSite + "profiles:\n  - {name: default, return: some}\nsessions: {enabled: true}", `profiles[0].return: "some" is not one of all, new-sessions (profile "default")`},
		{sessionsSite + "profiles:\n  - {name: default, return: }\n", `return`},
		{sessionsSite + "sessions: {enabled: true, bypass_id: 64}", "sessions.bypass_id: 64 is out of range 0..63"},
	} {
		_, err := Parse([]byte(tt.yaml + "\n"))
		require.Error(t, err, tt.yaml)
		assert.Contains(t, err.Error(), tt.want, tt.yaml)
	}
}
