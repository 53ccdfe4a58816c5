package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/stallproxy"
)

// TestBypassSaysWhenNotOnTheSwitch: a manual bypass set while the switch
// cannot be reached, or while it hangs, is saved and says it is not on the
// switch yet; on a healthy switch it says nothing more.
func TestBypassSaysWhenNotOnTheSwitch(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "site.yaml")
	require.NoError(t, os.WriteFile(cfgPath, []byte(testSite), 0o600))

	// Unreachable.
	p := startDaemonProc(t, filepath.Join(dir, "s1"), cfgPath, filepath.Join(dir, "a.sock"))
	require.Eventually(t, func() bool { return runCLI(t, "", "--socket", p.socket, "status").code == exitOK }, 20*time.Second, 20*time.Millisecond)
	r := runCLI(t, "", "--socket", p.socket, "bypass", "on", "--group", "F1")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "warning: saved, but not on the switch yet: the switch is not connected; it is written on reconnection")

	// Healthy, then hung.
	h := startSimWithDaemon(t, dir)
	r = runCLI(t, "", "--socket", h.socket, "bypass", "on", "--group", "F1")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.NotContains(t, r.stdout, "warning")
	h.proxy.Pause()
	r = runCLI(t, "", "--socket", h.socket, "bypass", "off", "--group", "F1")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "warning: saved, but not on the switch")
	t.Logf("bypass off during a switch hang: %s", strings.TrimSpace(r.stdout))
}

type simDaemon struct {
	proxy  *stallproxy.Proxy
	socket string
	d      *daemonProc
	state  string
}

// startSimWithDaemon serves a software switch in the test process, behind
// a proxy that can hang, and a daemon process on it.
func startSimWithDaemon(t *testing.T, dir string) *simDaemon {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	cfgPath := filepath.Join(dir, "sim-site.yaml")
	require.NoError(t, os.WriteFile(cfgPath, []byte(testSite), 0o600))
	p4rt := freeAddr(t)
	wg.Add(1)
	go func() {
		defer wg.Done()
		var out, errb bytes.Buffer
		run(ctx, []string{"sim", "--from-config", cfgPath, "--p4rt", p4rt, "--gnmi", "", "--log-level", "error"}, strings.NewReader(""), &out, &errb)
	}()
	px := stallproxy.New(t, p4rt)
	h := &simDaemon{proxy: px, socket: filepath.Join(dir, "h.sock"), state: filepath.Join(dir, "s2")}
	h.d = startDaemonProc(t, h.state, cfgPath, h.socket, "--switch", px.Addr(), "--switch-stall-timeout", "3s")
	require.Eventually(t, func() bool {
		r := runCLI(t, "", "--socket", h.socket, "status")
		return r.code == exitOK && strings.Contains(r.stdout, "connected, primary") && !strings.Contains(r.stdout, "not on the switch yet") &&
			strings.Count(r.stdout, "keep-alives pass") == 3
	}, 30*time.Second, 50*time.Millisecond, "the daemon never programmed the software switch")
	return h
}

// TestInterruptedChangeSaysOutcomeUnknown: the daemon dies (kill -9)
// while a change waits on a hung switch; the CLI says the outcome is
// unknown, names the revision before the change and the command to check;
// the restarted daemon shows the change was saved.
func TestInterruptedChangeSaysOutcomeUnknown(t *testing.T) {
	dir := t.TempDir()
	h := startSimWithDaemon(t, dir)
	before := runCLI(t, "", "--socket", h.socket, "config", "history")
	require.Equal(t, exitOK, before.code, before.stderr)
	h.proxy.Pause()
	done := make(chan result, 1)
	go func() {
		done <- runCLI(t, "", "--socket", h.socket, "rule", "add", "dns", "--prio", "800", "--match", "proto udp l4-port 53", "--action", "bypass")
	}()
	// Saved (revision 2 on disk), then the daemon dies before it answers.
	require.Eventually(t, func() bool {
		_, err := os.Stat(filepath.Join(h.state, "revisions", "00000002.json"))
		return err == nil
	}, 20*time.Second, 2*time.Millisecond, "the change was never saved")
	require.NoError(t, h.d.cmd.Process.Signal(syscall.SIGKILL))
	r := <-done
	require.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "ended during the call")
	assert.Contains(t, r.stderr, "the outcome is unknown")
	assert.Contains(t, r.stderr, "the running revision was 1")
	assert.Contains(t, r.stderr, "`balancer config history`")
	t.Logf("answer: %s", strings.TrimSpace(r.stderr))

	// It was saved: the restarted daemon runs it.
	h.proxy.Resume()
	<-h.d.done
	cfgPath := filepath.Join(dir, "sim-site.yaml")
	d2 := startDaemonProc(t, h.state, cfgPath, filepath.Join(dir, "h2.sock"), "--switch", h.proxy.Addr())
	require.Eventually(t, func() bool {
		r := runCLI(t, "", "--socket", d2.socket, "config", "history")
		return r.code == exitOK && strings.Contains(r.stdout, "rule add dns")
	}, 20*time.Second, 20*time.Millisecond, "the restarted daemon's history has no revision 2: %s", func() string {
		return runCLI(t, "", "--socket", d2.socket, "config", "history").stdout
	})
}
