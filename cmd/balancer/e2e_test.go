package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/buildinfo"
)

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().String()
}

// TestCLIOnDaemonOnSoftwareSwitch runs `balancer sim` and `balancer
// daemon` as the README's make run does (in-process), and drives them with
// the CLI: a live system with keep-alives passing, a rule added, a filter
// bypassed by hand, a session located and traced.
func TestCLIOnDaemonOnSoftwareSwitch(t *testing.T) {
	// The directory first: cleanups run last-registered first, so the
	// daemon ends before its state directory is removed.
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	start := func(args ...string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var out, errb bytes.Buffer
			if code := run(ctx, args, strings.NewReader(""), &out, &errb); code != exitOK && ctx.Err() == nil {
				t.Errorf("balancer %s exited %d: %s", strings.Join(args, " "), code, errb.String())
			}
		}()
	}
	t.Cleanup(func() { cancel(); wg.Wait() })
	beforeStart := time.Now()
	p4rt, gnmi := freeAddr(t), freeAddr(t)
	socket := filepath.Join(dir, "b.sock")
	start("sim", "--from-config", "../../examples/site.yaml", "--p4rt", p4rt, "--gnmi", gnmi, "--demo-traffic", "200", "--log-level", "warn")
	start("daemon", "--config", "../../examples/site.yaml", "--state-dir", filepath.Join(dir, "state"), "--socket", socket,
		"--switch", p4rt, "--switch-gnmi", gnmi, "--telemetry", "", "--metrics", "", "--log-level", "warn")
	cli := func(args ...string) result {
		return runCLI(t, "", append([]string{"--socket", socket}, args...)...)
	}
	require.Eventually(t, func() bool {
		r := cli("status")
		return r.code == exitOK && strings.Count(r.stdout, "keep-alives pass") == 3 && strings.Contains(r.stdout, "primary")
	}, 30*time.Second, 100*time.Millisecond, "the demo comes up with three filters up")

	// version: the daemon's own build (this test binary's, as it runs in
	// process) and its start, between the test's start and now.
	r := cli("version", "-o", "json")
	require.Equal(t, exitOK, r.code, r.stderr)
	var v versionInfo
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &v), r.stdout)
	require.NotNil(t, v.Daemon, r.stdout)
	assert.Equal(t, buildinfo.Read(), v.Daemon.Info)
	assert.False(t, v.Daemon.StartedAt.Before(beforeStart), "daemon started %s, before the test started it at %s", v.Daemon.StartedAt, beforeStart)
	assert.False(t, v.Daemon.StartedAt.After(time.Now()), "daemon started %s, in the future", v.Daemon.StartedAt)

	r = cli("rule", "add", "dns", "--prio", "800", "--match", "proto udp l4-port 53", "--action", "bypass")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "+ rule dns")

	r = cli("trace", "--link", "L1", "--side", "lan", "--vlan", "100", "--src", "10.1.1.1", "--dst", "10.2.2.2", "--proto", "udp", "--sport", "5353", "--dport", "53")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, `rule "dns" (priority 800) matches: bypass`)

	r = cli("bypass", "on", "--group", "F2")
	require.Equal(t, exitOK, r.code, r.stderr)
	r = cli("locate", "-o", "json", "10.1.1.1", "10.2.2.2", "tcp")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "group_filter")

	require.Eventually(t, func() bool {
		r := cli("counters", "--filters")
		return r.code == exitOK && strings.Contains(r.stdout, "F1")
	}, 10*time.Second, 100*time.Millisecond)

	// A bad change is refused with its path; the running configuration stays.
	r = cli("link", "add", "L9", "--lan", "P41", "--wan", "P42")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "link L9: --lan P41: the port is on the WAN side")
	r = cli("config", "history")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Equal(t, 2, strings.Count(r.stdout, "\n")-1, "two revisions: initial and dns\n%s", r.stdout)

	// rule set on the real daemon: a preview, an edit in place that the
	// pipeline model then follows, and a rule past the flow tables refused.
	r = cli("rule", "set", "dns", "--action", "balance:group_filter", "--dry-run")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "~ rule dns: action bypass -> balance group_filter")
	r = cli("rule", "set", "dns", "--action", "balance:group_filter", "--comment", "DNS through the filters")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "revision 3 saved")
	r = cli("trace", "--link", "L1", "--side", "lan", "--vlan", "100", "--src", "10.1.1.1", "--dst", "10.2.2.2", "--proto", "udp", "--sport", "5353", "--dport", "53")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, `rule "dns" (priority 800) matches: balance`)
	r = cli("rule", "set", "dns", "--match", "vlan 1-4094 inner-vlan 1-4094 l4-port 1-65535")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, `entries for the IPv4 table exceed its 4096 capacity (rules[`)
	r = cli("rule", "list")
	require.Equal(t, exitOK, r.code, r.stderr)
	assertRows(t, r.stdout, "800 dns all proto udp l4-port 53 balance:group_filter - 4")
	r = cli("config", "history")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Equal(t, 3, strings.Count(r.stdout, "\n")-1, "one revision more: the rule set\n%s", r.stdout)
	assert.Contains(t, r.stdout, "DNS through the filters")
	// Who made each change: this test's user, from the socket's peer
	// credentials (root, uid 0, when the tests run as root); the initial
	// configuration was the daemon's own.
	if os.Getuid() == 0 {
		require.Equal(t, "root (uid 0)", me())
	}
	assert.Regexp(t, `(?m)^\*\s+3 .* `+regexp.QuoteMeta(me())+`\s+DNS through the filters$`, r.stdout)
	assert.Regexp(t, `(?m)^\s+1 .* -\s+initial configuration from`, r.stdout)
	assert.Regexp(t, `(?m)^\s+2 .* `+regexp.QuoteMeta(me())+`\s+balancer rule add dns`, r.stdout)
	// The bypass set by hand names its author in the filter group's events.
	r = cli("filter-group", "show", "F2")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Regexp(t, `bypass\s+F2: on \(by the operator\) by `+regexp.QuoteMeta(me()), r.stdout)
	// status names the balancer (--name, by default the host name) and
	// who made the running revision.
	host, err := os.Hostname()
	require.NoError(t, err)
	r = cli("status")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Regexp(t, `site example-site, balancer `+regexp.QuoteMeta(host)+`, revision 3 \(.*\) by `+regexp.QuoteMeta(me())+`: DNS through the filters`, r.stdout)
}
