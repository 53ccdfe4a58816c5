package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/internal/testbed"
)

// childEnv makes the test binary run as the balancer command (TestMain),
// so tests can start real daemon processes.
const childEnv = "BALANCER_TEST_CHILD"

func childMain() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// daemonProc is a `balancer daemon` child process.
type daemonProc struct {
	cmd      *exec.Cmd
	socket   string
	stderr   testbed.SyncBuffer
	done     chan struct{}
	exitedAt time.Time
	err      error
}

func startDaemonProc(t *testing.T, stateDir, cfgPath, socket string, extra ...string) *daemonProc {
	t.Helper()
	p := &daemonProc{socket: socket, done: make(chan struct{})}
	args := []string{"daemon", "--config", cfgPath, "--state-dir", stateDir, "--socket", socket,
		"--switch", "127.0.0.1:1", "--switch-gnmi", "", "--telemetry", "", "--metrics", "", "--log-level", "warn"}
	p.cmd = exec.Command(os.Args[0], append(args, extra...)...)
	p.cmd.Env = append(os.Environ(), childEnv+"=1")
	p.cmd.Stderr = &p.stderr
	require.NoError(t, p.cmd.Start())
	go func() {
		p.err = p.cmd.Wait()
		p.exitedAt = time.Now()
		close(p.done)
	}()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.done
	})
	return p
}

func (p *daemonProc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// TestTwoDaemonsOneStateDir races pairs of daemon processes onto one
// state directory: one runs, the other is refused at once naming the
// holder's PID; CLI changes go to whichever runs, the winner is killed
// (kill -9) and the next pair races. Every acknowledged change is in the
// final running configuration.
func TestTwoDaemonsOneStateDir(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "site.yaml")
	require.NoError(t, os.WriteFile(cfgPath, []byte(testSite), 0o600))
	stateDir := filepath.Join(dir, "state")
	const rounds = 5
	var acked []string
	var worst, worstCPU time.Duration
	for round := range rounds {
		a := startDaemonProc(t, stateDir, cfgPath, filepath.Join(dir, fmt.Sprintf("a%d.sock", round)))
		b := startDaemonProc(t, stateDir, cfgPath, filepath.Join(dir, fmt.Sprintf("b%d.sock", round)))
		started := time.Now()
		// Exactly one is refused, quickly, naming the other's PID.
		deadline := time.Now().Add(10 * time.Second)
		for !a.exited() && !b.exited() {
			require.True(t, time.Now().Before(deadline), "round %d: neither daemon was refused", round)
			time.Sleep(5 * time.Millisecond) // polling the processes
		}
		loser, winner := a, b
		if b.exited() {
			loser, winner = b, a
		}
		// The refusal costs the refused process little: its wall time on
		// this shared machine is mostly waiting for a CPU to start on, so
		// the bound is on what it ran (user + system); OpenStore's own
		// refusal is timed in TestStoreLock.
		took := loser.exitedAt.Sub(started)
		cpu := loser.cmd.ProcessState.UserTime() + loser.cmd.ProcessState.SystemTime()
		worst = max(worst, took)
		worstCPU = max(worstCPU, cpu)
		assert.Less(t, cpu, time.Second, "round %d: the refused daemon ran %s (wall %s)", round, cpu, took)
		assert.Contains(t, loser.stderr.String(), "state directory in use")
		assert.Contains(t, loser.stderr.String(), fmt.Sprintf("pid %d", winner.cmd.Process.Pid), "the refusal names the daemon holding the directory")
		require.False(t, winner.exited(), "round %d: the winner ended too: %s", round, winner.stderr.String())

		// Changes from two clients at once, while a third daemon tries.
		require.Eventually(t, func() bool { return runCLI(t, "", "--socket", winner.socket, "status").code == exitOK },
			20*time.Second, 20*time.Millisecond, "round %d: the winner never answered: %s", round, winner.stderr.String())
		third := startDaemonProc(t, stateDir, cfgPath, filepath.Join(dir, fmt.Sprintf("c%d.sock", round)))
		var mu sync.Mutex
		var wg sync.WaitGroup
		for c := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 3 {
					name := fmt.Sprintf("r%d-%d-%d", round, c, i)
					prio := fmt.Sprint(2 + round*10 + c*4 + i)
					r := runCLI(t, "", "--socket", winner.socket, "rule", "add", name, "--prio", prio, "--match", "proto udp l4-port "+prio, "--action", "bypass")
					mu.Lock()
					if r.code == exitOK {
						acked = append(acked, name)
					} else {
						t.Logf("round %d: rule add %s not acknowledged (exit %d): %s", round, name, r.code, strings.TrimSpace(r.stderr))
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		<-third.done
		assert.Contains(t, third.stderr.String(), fmt.Sprintf("pid %d", winner.cmd.Process.Pid))
		require.NoError(t, winner.cmd.Process.Signal(syscall.SIGKILL))
		<-winner.done
	}
	require.NotEmpty(t, acked)
	s, err := daemon.OpenStore(stateDir)
	require.NoError(t, err)
	defer s.Close()
	data, rev, err := s.Running()
	require.NoError(t, err)
	cfg, err := config.Parse(data)
	require.NoError(t, err)
	have := map[string]bool{}
	for _, r := range cfg.Rules {
		have[r.Name] = true
	}
	lost := 0
	for _, n := range acked {
		if !have[n] {
			lost++
			t.Errorf("acknowledged rule %s is not in the running revision %d", n, rev.Number)
		}
	}
	t.Logf("%d rounds: %d changes acknowledged, %d lost; the second daemon was refused within %s at worst from its start (%s of CPU)", rounds, len(acked), lost, worst, worstCPU)
}
