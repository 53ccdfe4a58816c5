// Package scripts tests the repository's scripts: scripts/run-demo.sh
// (make run) as an operator runs it.
package scripts

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// demoEnv is the environment of a demo on free loopback ports with its run
// directory in dir; p4rt is the switch's P4Runtime port.
func demoEnv(t *testing.T, dir string, p4rt int) []string {
	t.Helper()
	env := append(os.Environ(), "RUN_DIR="+dir, "SHELL=/bin/bash", "FRESH=1")
	for _, name := range []string{"SWITCH_GNMI_PORT", "CONTROL_PORT", "TELEMETRY_PORT", "METRICS_PORT"} {
		env = append(env, fmt.Sprintf("%s=%d", name, freePort(t)))
	}
	return append(env, fmt.Sprintf("P4RT_PORT=%d", p4rt))
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func needDemo(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds bin/balancer and runs the demo")
	}
	for _, tool := range []string{"go", "script"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
}

// waitFile polls path until it contains want, up to d.
func waitFile(t *testing.T, path, want string, d time.Duration) bool {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), want) {
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false
}

// killSim ends a software switch the demo left running (the failure this
// test looks for), by the pid it saved.
func killSim(t *testing.T, pid int) {
	if pid > 0 && syscall.Kill(pid, 0) == nil {
		t.Errorf("the software switch (pid %d) was left running", pid)
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// TestRunDemoCtrlCWithOutputPiped: 'make run 2>&1 | tee run.log' on a
// terminal, then Ctrl-C: the demo ends (the switch and the daemon) and the
// script exits 0, as without the pipe; before, Ctrl-C reached the pipe's
// reader and make, and the demo ran on with no terminal.
func TestRunDemoCtrlCWithOutputPiped(t *testing.T) {
	needDemo(t)
	dir := t.TempDir()
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	out, exit := filepath.Join(dir, "out.log"), filepath.Join(dir, "exit")
	// script gives the demo a terminal (a pty) whose input is this test's
	// pipe: writing ^C there is the operator's Ctrl-C.
	line := fmt.Sprintf(`%s/scripts/run-demo.sh 2>&1 | cat > %s; echo "EXIT=${PIPESTATUS[0]}" > %s`, repo, out, exit)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "script", "-qefc", line, "/dev/null")
	cmd.Dir = repo
	cmd.Env = demoEnv(t, dir, freePort(t))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer func() { _ = stdin.Close(); _ = cmd.Wait() }()

	require.True(t, waitFile(t, out, "msg=reconciled", 5*time.Minute), "the demo's daemon did not program the switch")
	b, err := os.ReadFile(filepath.Join(dir, "sim.pid"))
	require.NoError(t, err)
	simPID, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	defer killSim(t, simPID)

	_, err = stdin.Write([]byte{3}) // Ctrl-C
	require.NoError(t, err)
	require.True(t, waitFile(t, exit, "EXIT=", time.Minute), "the demo did not end on Ctrl-C")
	b, _ = os.ReadFile(exit)
	assert.Equal(t, "EXIT=0", strings.TrimSpace(string(b)))
	assert.True(t, waitFile(t, out, "balancer daemon stopped", 30*time.Second), "the daemon stopped")
	deadline := time.Now().Add(30 * time.Second)
	for syscall.Kill(simPID, 0) == nil && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
}

// TestRunDemoSwitchPortTaken: when the switch's P4Runtime port is taken,
// the demo stops at once, saying why and how to move the port, instead of
// starting its daemon against whatever listens there.
func TestRunDemoSwitchPortTaken(t *testing.T) {
	needDemo(t)
	dir := t.TempDir()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "../scripts/run-demo.sh")
	cmd.Env = demoEnv(t, dir, taken.Addr().(*net.TCPAddr).Port)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// A daemon started against the taken port runs on: end the demo then.
	go func() {
		for ctx.Err() == nil {
			if _, err := os.Stat(filepath.Join(dir, "state", "lock")); err == nil {
				cancel()
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	b, err := cmd.CombinedOutput()
	require.NoError(t, ctx.Err(), "the demo started its daemon: %s", b)
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, "%s", b)
	assert.Equal(t, 1, ee.ExitCode())
	assert.Contains(t, string(b), "the software switch did not start ("+dir+"/sim.log):")
	assert.Contains(t, string(b), "address already in use")
	assert.Contains(t, string(b), "when a port is taken, move it: P4RT_PORT=")
	assert.NoFileExists(t, filepath.Join(dir, "sim.pid"))
}
