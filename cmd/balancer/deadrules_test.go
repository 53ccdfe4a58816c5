package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/daemon/apiserver"
)

// realDaemonEnv is the CLI against a real daemon (not connected to a
// switch) on a unix socket: what the daemon's apply says, not a fake's.
func realDaemonEnv(t *testing.T) *env {
	t.Helper()
	d, err := daemon.New(daemon.Options{StateDir: t.TempDir(), InitialConfig: "../../daemon/testdata/fast.yaml", SwitchAddr: "127.0.0.1:1", DeviceID: 1})
	require.NoError(t, err)
	t.Cleanup(func() { d.Close() })
	socket := filepath.Join(t.TempDir(), "balancer.sock")
	lis, err := apiserver.ListenUnix(socket)
	require.NoError(t, err)
	srv := grpc.NewServer()
	apiv1.RegisterBalancerServer(srv, apiserver.New(d))
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(lis)
	}()
	t.Cleanup(func() {
		srv.Stop()
		<-done
	})
	return &env{t: t, socket: socket}
}

// TestRuleThatCannotMatchOnline: rule add and rule set of a rule that can
// never match are accepted with a warning naming the rule, why and the
// fix, and refused with --strict (the daemon's analysis, through the API).
func TestRuleThatCannotMatchOnline(t *testing.T) {
	e := realDaemonEnv(t)
	// "all" (priority 10, no match) takes everything below it.
	out := e.ok("rule", "add", "web", "--prio", "5", "--match", "proto tcp", "--action", "bypass", "--dry-run")
	assert.Contains(t, out, `warning: rules[1]: rule "web" (priority 5) can never match: rule "all" (priority 10) has a wider match on every link`)
	assert.Contains(t, out, `give "web" a priority above 10`)

	r := e.run("rule", "add", "web", "--prio", "5", "--match", "proto tcp", "--action", "bypass", "--dry-run", "--strict")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, `--strict`)
	assert.Contains(t, r.stderr, `rule "web" (priority 5) can never match`)

	// An exception equal to the match.
	out = e.ok("rule", "add", "web", "--prio", "50", "--match", "proto tcp", "--not", "proto tcp", "--action", "balance:G", "--dry-run")
	assert.Contains(t, out, `rule "web" can never apply its action "balance G": its not[0] covers the rule's whole match`)
	r = e.run("rule", "set", "all", "--not", "vlan 1-4094", "--strict", "--dry-run")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, `rule "all": its not[0] covers every value of vlan (1..4094: every tagged packet)`)
	// Without --strict the same change is accepted (dry run), warned.
	out = e.ok("rule", "set", "all", "--not", "vlan 1-4094", "--dry-run")
	assert.Contains(t, out, "warning: rules[0].not[0]")
}

// TestConfigCheckRuleWarnings: config check (offline) gives the same
// warnings, and fails with --strict.
func TestConfigCheckRuleWarnings(t *testing.T) {
	site, err := os.ReadFile("../../daemon/testdata/fast.yaml")
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "site.yaml")
	require.NoError(t, os.WriteFile(path, append(site, "  - {name: web, priority: 5, action: bypass, match: {proto: tcp}}\n"...), 0o644))
	r := runCLI(t, "", "config", "check", path)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, `warning: rules[1]: rule "web" (priority 5) can never match: rule "all" (priority 10)`)
	r = runCLI(t, "", "config", "check", "--strict", path)
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, `is refused (--strict): a flow rule can never match`)
	assert.Contains(t, r.stderr, `rule "web"`)
	r = runCLI(t, "", "config", "check", "--strict", "../../examples/site.yaml")
	assert.Equal(t, exitOK, r.code, r.stderr)
	assert.NotContains(t, r.stdout, "warning")
}
