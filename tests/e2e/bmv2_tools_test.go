package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/bmv2"
	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/internal/testbed"
)

// The user-facing ways to run the balancer on BMv2 (bmv2/README.md).

// TestRunBMv2Script runs BMv2 the way bmv2/README.md tells users to, with
// bmv2/run-bmv2.sh, and checks the daemon programs it and frames flow
// (pairing) and fail over (a frozen filter).
func TestRunBMv2Script(t *testing.T) {
	var tg target
	for _, x := range targets(t) {
		if x.name == "bmv2" {
			tg = x
		}
	}
	if tg.name == "" {
		t.Skip("BALANCER_TARGET excludes bmv2")
	}
	if why := tg.available(); why != "" {
		t.Skip(why)
	}
	b := newBed(t, tg, withRunScript())
	flows, fgOf := b.streamFlows(60, 10)
	for _, s := range b.sendBatch(flows, lanToWAN, wanToLAN) {
		fg, core := b.placement(s.f)
		b.checkPassed(t, s, fg, core)
	}
	b.filters["F2"].setMode(modeFrozen)
	b.waitFilter("F2", "down", 10*lossThreshold*b.interval)
	var onF2 *flow
	for _, f := range flows {
		if fgOf[f.id] == "F2" {
			onF2 = f
			break
		}
	}
	require.NotNil(t, onF2)
	b.probeUntil(onF2, lanToWAN, 5*time.Second, func(ft fate) bool { return ft.right && ft.filter() == "" })
	b.checkStrays()
}

// TestMininetTopology runs bmv2/topo.py (Debian's Mininet, BMv2 in a
// namespace of its own) inside a test namespace, with the daemon
// in-process, and its self-test: UDP across every link through the
// filters, keep-alives through every filter.
func TestMininetTopology(t *testing.T) {
	if why := (target{name: "bmv2"}).available(); why != "" {
		t.Skip(why)
	}
	if err := exec.Command("/usr/bin/python3", "-c", "import mininet.net").Run(); err != nil {
		t.Skip("Mininet is not installed for /usr/bin/python3 (apt-get install --no-install-recommends mininet)")
	}
	ns := testbed.NewNS(t)
	dir, err := os.MkdirTemp("", "e2emn")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	out := &logBuffer{}
	cmd := ns.Command("/usr/bin/python3", repoFile(t, "bmv2/topo.py"), "--run-dir", dir, "--selftest", "40")
	cmd.Stdout, cmd.Stderr = out, out
	require.NoError(t, cmd.Start())
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	t.Cleanup(func() {
		select {
		case <-waited:
		default:
			// topo.py tears Mininet down on SIGTERM; only its own PID.
			_ = cmd.Process.Signal(syscall.SIGTERM)
			<-waited
		}
	})
	sock := filepath.Join(dir, "p4rt.sock")
	deadline := time.Now().Add(60 * time.Second)
	for {
		if bmv2.Serving(sock) {
			break
		}
		select {
		case err := <-waited:
			waited <- err
			t.Fatalf("topo.py ended before starting BMv2 (%v):\n%s", err, out.tail(30))
		case <-time.After(50 * time.Millisecond):
		}
		require.True(t, time.Now().Before(deadline), "topo.py never started BMv2:\n%s", out.tail(30))
	}
	logs := &logBuffer{}
	d, err := daemon.New(daemon.Options{StateDir: filepath.Join(dir, "state"), InitialConfig: filepath.Join(dir, "site.yaml"),
		SwitchAddr: "unix://" + sock, DeviceID: 1, Logger: logs.logger("daemon")})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case err = <-waited:
		waited <- err
	case <-time.After(90 * time.Second):
		t.Fatalf("topo.py self-test did not end:\n%s", out.tail(30))
	}
	t.Logf("topo.py:\n%s", out.tail(20))
	if err != nil {
		t.Logf("daemon log:\n%s", logs.tail(30))
	}
	require.NoError(t, err, "topo.py self-test")
}
