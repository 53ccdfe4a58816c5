package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConfigSessionOnDaemon drives a configuration session and commit
// confirmed with the CLI against `balancer daemon` on `balancer sim`:
// edits stage (no revision) and commit as one revision; a commit is
// refused when the running revision moved; a confirmed commit stays; an
// unconfirmed one rolls back by itself, with status, history and monitor
// saying so.
func TestConfigSessionOnDaemon(t *testing.T) {
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
	p4rt, gnmi := freeAddr(t), freeAddr(t)
	socket := filepath.Join(dir, "b.sock")
	start("sim", "--from-config", "../../examples/site.yaml", "--p4rt", p4rt, "--gnmi", gnmi, "--log-level", "warn")
	start("daemon", "--config", "../../examples/site.yaml", "--state-dir", filepath.Join(dir, "state"), "--socket", socket,
		"--switch", p4rt, "--switch-gnmi", gnmi, "--telemetry", "", "--metrics", "", "--log-level", "warn")
	cli := func(args ...string) result { return runCLI(t, "", append([]string{"--socket", socket}, args...)...) }
	ok := func(args ...string) string {
		t.Helper()
		r := cli(args...)
		require.Equal(t, exitOK, r.code, "balancer %s\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.stdout, r.stderr)
		return r.stdout
	}
	require.Eventually(t, func() bool {
		r := cli("status")
		return r.code == exitOK && strings.Contains(r.stdout, "primary")
	}, 30*time.Second, 50*time.Millisecond)
	running := func() int {
		t.Helper()
		m := regexp.MustCompile(`revision (\d+) `).FindStringSubmatch(ok("status"))
		require.NotNil(t, m)
		n, err := strconv.Atoi(m[1])
		require.NoError(t, err)
		return n
	}
	base := running()

	// Three edits stage; nothing is applied.
	assert.Contains(t, ok("config", "session", "start"), "configuration session started on revision "+strconv.Itoa(base))
	out := ok("rule", "add", "s1", "--prio", "801", "--match", "proto tcp l4-port 1801", "--action", "bypass")
	assert.Contains(t, out, "staged in the configuration session (on revision "+strconv.Itoa(base)+"), edit 1:")
	assert.Contains(t, out, "+ rule s1")
	ok("rule", "add", "s2", "--prio", "802", "--match", "proto tcp l4-port 1802", "--action", "bypass")
	out = ok("rule", "set", "bgp", "--prio", "1001")
	assert.Contains(t, out, "edit 3:")
	assert.Contains(t, out, "~ rule bgp")
	assert.Equal(t, base, running(), "staging makes no revision")
	assert.NotContains(t, ok("rule", "list"), "s1", "staged rules do not run")
	diff := ok("config", "session", "diff")
	assert.Contains(t, diff, "3 edits staged:")
	assert.Contains(t, diff, "1. balancer rule add s1")
	assert.Contains(t, diff, "+ rule s2")
	assert.Contains(t, ok("status"), "configuration session open: 3 edits staged on revision "+strconv.Itoa(base))
	r := cli("config", "session", "start")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "a configuration session is already open")

	// One revision.
	out = ok("config", "session", "commit", "--confirm", "30s")
	assert.Contains(t, out, "revision "+strconv.Itoa(base+1)+" saved")
	assert.Contains(t, out, "switch: programmed")
	assert.Equal(t, base+1, running())
	assert.Contains(t, ok("rule", "list"), "s2")
	st := ok("status")
	assert.Contains(t, st, "commit confirmed: revision "+strconv.Itoa(base+1)+" rolls back to revision "+strconv.Itoa(base)+" at ")
	assert.NotContains(t, st, "configuration session open")
	r = cli("rule", "del", "s1")
	assert.Equal(t, exitError, r.code, "no change while a commit confirmed is pending")
	assert.Contains(t, r.stderr, "balancer config confirm")
	assert.Contains(t, ok("config", "confirm"), "confirmed: revision "+strconv.Itoa(base+1)+" stays")
	assert.NotContains(t, ok("status"), "commit confirmed")

	// A commit refused because the running revision moved.
	ok("config", "session", "start")
	ok("rule", "add", "s3", "--prio", "803", "--match", "proto tcp l4-port 1803", "--action", "bypass")
	file := filepath.Join(dir, "other.yaml")
	ok("config", "export", "-f", file)
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(file, append(data, "# another operator\n"...), 0o600))
	ok("config", "apply", "-f", file, "--comment", "another operator")
	r = cli("config", "session", "commit")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "the configuration session started on revision "+strconv.Itoa(base+1)+", but the running revision is now "+strconv.Itoa(base+2)+" (another operator)")
	assert.Contains(t, r.stderr, "balancer config session abort")
	assert.Contains(t, ok("config", "session", "diff"), "the running revision moved since the session started")
	out = ok("config", "session", "rebase")
	assert.Contains(t, out, "configuration session rebased onto revision "+strconv.Itoa(base+2))
	assert.Contains(t, out, "+ rule s3")
	assert.Contains(t, ok("config", "session", "commit"), "revision "+strconv.Itoa(base+3)+" saved")
	assert.Contains(t, ok("config", "show"), "# another operator", "what moved stays")
	ok("config", "session", "start")
	assert.Contains(t, ok("config", "session", "abort"), "0 staged edits dropped")
	out = ok("rule", "add", "s4", "--prio", "804", "--match", "proto tcp l4-port 1804", "--action", "bypass")
	assert.Contains(t, out, "revision "+strconv.Itoa(base+4)+" saved", "without a session an edit applies")

	// Not confirmed: rolled back by the daemon.
	ok("config", "session", "start")
	ok("rule", "del", "s4")
	ok("config", "session", "commit", "--confirm", "2s")
	require.Eventually(t, func() bool { return running() == base+6 }, 15*time.Second, 50*time.Millisecond, "rolled back")
	assert.Contains(t, ok("rule", "list"), "s4", "the rule deleted by the unconfirmed commit is back")
	hist := ok("config", "history")
	assert.Contains(t, hist, "commit confirmed of revision "+strconv.Itoa(base+5)+" not confirmed by")
	// monitor follows: it ends once the rollback's event came.
	mctx, mcancel := context.WithTimeout(ctx, 10*time.Second)
	defer mcancel()
	mon := &untilWriter{want: "confirm-pending -> rolled-back", done: mcancel}
	run(mctx, []string{"--socket", socket, "monitor", "--replay", "20"}, strings.NewReader(""), mon, &bytes.Buffer{})
	assert.Contains(t, mon.String(), "confirm-pending -> rolled-back")
	assert.Contains(t, mon.String(), "not confirmed by")
	r = cli("config", "confirm")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "no commit confirmed is pending")
	r = cli("config", "session", "commit", "--confirm", "0s")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "--confirm 0s is out of range 1s..24h0m0s")
}

// untilWriter keeps what is written and calls done once it holds want.
type untilWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	done func()
}

func (w *untilWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.done()
	}
	return n, err
}

func (w *untilWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}
