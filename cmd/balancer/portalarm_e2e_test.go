package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPortAlarmOnSoftwareSwitch: `balancer sim --from-config` reports
// every port and lane of the example site at its speed, so a daemon
// running the same site shows no port alarm; one whose site says 40G for
// P9 shows the alarm, naming P9 and the fix, within 2 s of its start.
func TestPortAlarmOnSoftwareSwitch(t *testing.T) {
	dir := t.TempDir()
	example, err := os.ReadFile("../../examples/site.yaml")
	require.NoError(t, err)
	const p9 = "{port: 9, speed: 100G}"
	require.Contains(t, string(example), p9)
	other := filepath.Join(dir, "site40.yaml")
	require.NoError(t, os.WriteFile(other, []byte(strings.Replace(string(example), p9, "{port: 9, speed: 40G}", 1)), 0o600))

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
	p4rt, gnmi := freeAddr(t), freeAddr(t)
	start("sim", "--from-config", "../../examples/site.yaml", "--p4rt", p4rt, "--gnmi", gnmi, "--log-level", "warn")

	daemon := func(name, site string) func(args ...string) result {
		socket := filepath.Join(dir, name+".sock")
		start("daemon", "--config", site, "--state-dir", filepath.Join(dir, name), "--socket", socket,
			"--switch", p4rt, "--switch-gnmi", gnmi, "--telemetry", "", "--metrics", "", "--log-level", "error")
		return func(args ...string) result { return runCLI(t, "", append([]string{"--socket", socket}, args...)...) }
	}

	same := daemon("same", "../../examples/site.yaml")
	require.Eventually(t, func() bool {
		r := same("status")
		return r.code == exitOK && strings.Contains(r.stdout, "port status watched")
	}, 30*time.Second, 20*time.Millisecond, "the daemon watches the switch's ports")
	r := same("status")
	assert.NotContains(t, r.stdout, "ALARM port", "the switch runs every port of the site as the site says")

	began := time.Now()
	mismatch := daemon("other", other)
	want := "ALARM port P9: the switch runs it at 100G, the site at 40G: the software switch runs the ports of the site it was started with: restart it from the running site (balancer config export -f run/site.yaml; the demo: Ctrl-C, then CONFIG=run/site.yaml make run; otherwise balancer sim --from-config run/site.yaml), or set the site's speed (balancer port set 9 --speed 100G)"
	// The daemon's start (state directory, compile) is not the check: the
	// 2 s run from when its API first answers; 30 s bound the start.
	var out string
	var answered time.Time
	for deadline := began.Add(30 * time.Second); ; {
		r := mismatch("status")
		out = r.stdout + r.stderr
		if r.code == exitOK && answered.IsZero() {
			answered = time.Now()
			deadline = answered.Add(2 * time.Second)
		}
		if r.code == exitOK && strings.Contains(r.stdout, want) {
			break
		}
		require.False(t, time.Now().After(deadline), "no alarm within 2 s of the daemon's API answering; last status:\n%s", out)
		time.Sleep(20 * time.Millisecond) // polling, with a deadline
	}
	t.Logf("alarm shown %v after the daemon started, %v after its API first answered", time.Since(began), time.Since(answered))
	assert.Equal(t, 1, strings.Count(out, "ALARM port"), "only P9:\n%s", out)

	r = mismatch("status", "-o", "json")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, `"port_alarms"`)
}
