package bmv2_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/testbed"
)

// debianPython is Debian's interpreter, the one Debian's Mininet is
// installed for (another python3 may come first on PATH).
const debianPython = "/usr/bin/python3"

// mininetAvailable returns why the Mininet lab cannot run here, or "".
func mininetAvailable() string {
	if why := testbed.Available(); why != "" {
		return why
	}
	if err := exec.Command(debianPython, "-c", "import mininet.net").Run(); err != nil {
		return "Mininet is not installed for " + debianPython + " (apt-get install --no-install-recommends mininet)"
	}
	if _, err := exec.LookPath("ethtool"); err != nil {
		return "the Mininet lab needs ethtool (apt-get install ethtool)"
	}
	if _, err := exec.LookPath("ping"); err != nil {
		return "the Mininet lab's self-test pings across the balancer: apt-get install iputils-ping"
	}
	return ""
}

// goTool finds the go command that runs this test.
func goTool(t *testing.T) string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("no go command to build the balancer binary (not on PATH, not in %s)", runtime.GOROOT())
	}
	return p
}

// tail returns the last n lines of a file, for failure reports.
func tail(path string, n int) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// TestMininetSoftwareSwitch runs the Mininet lab of topo.py with the
// software switch as its switch ("balancer sim" on the Mininet
// interfaces), the daemon, two links and two filter emulators, inside a
// test namespace, and its self-test with failover: UDP from every link's
// LAN host crosses a filter (which sees the link's id in the core header)
// and comes out of the paired WAN port, and back; keep-alives cross every
// filter; the filter carrying L1 is frozen, the daemon puts it in
// software bypass and L1 still passes; revived, it is back in service and
// carries L1 again. It pings as an operator would in the lab's CLI
// ("l1lan ping l1wan"): every link's echoes are answered and a filter saw
// them both ways.
func TestMininetSoftwareSwitch(t *testing.T) {
	if why := mininetAvailable(); why != "" {
		t.Skip(why)
	}
	if testing.Short() {
		t.Skip("builds the balancer binary and runs a Mininet lab; not with -short")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "balancer")
	build := exec.Command(goTool(t), "build", "-o", bin, "../cmd/balancer")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build ./cmd/balancer: %s", out)

	ns := testbed.NewNS(t)
	run := filepath.Join(dir, "run")
	logs := &testbed.SyncBuffer{}
	// Keep-alives every 250 ms (detection 750 ms): the lab's filters are
	// Python forwarders in Mininet hosts, and beside the other packages'
	// tests on two cores one was seen to answer 315 ms late at the lab's
	// default 100 ms, which the data plane rightly judged dead (the
	// self-test's pings then went round the filter).
	cmd := ns.Command(debianPython, "topo.py", "--switch", "sim", "--daemon", bin, "--run-dir", run,
		"--links", "2", "--filters", "2", "--cores", "4", "--interval", "250", "--selftest", "60", "--failover")
	cmd.Stdout, cmd.Stderr = logs, logs
	require.NoError(t, cmd.Start())
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var runErr error
	select {
	case runErr = <-waited:
	case <-time.After(5 * time.Minute):
		// topo.py tears its topology down on SIGTERM; only its own PID
		// (ip netns exec runs it in place).
		_ = cmd.Process.Signal(syscall.SIGTERM)
		runErr = <-waited
		t.Errorf("topo.py self-test did not end within 5 minutes")
	}
	t.Logf("topo.py --switch sim --selftest --failover:\n%s", logs.String())
	if runErr != nil || t.Failed() {
		t.Logf("daemon log (tail):\n%s", tail(filepath.Join(run, "daemon.log"), 30))
		t.Logf("software switch log (tail):\n%s", tail(filepath.Join(run, "sim.log"), 30))
	}
	require.NoError(t, runErr, "topo.py self-test")
	got := logs.String()
	for _, want := range []string{
		"the software switch serving P4Runtime",
		"L1 UDP LAN->WAN and back through the balancer: ok",
		"L2 UDP LAN->WAN and back through the balancer: ok",
		"l1lan ping l1wan through a filter: ok",
		"l2lan ping l2wan through a filter: ok",
		"*** Starting", // Mininet's own output is shown
		"in software bypass: ok",
		"back in service: ok",
		"crosses F1 again: ok|crosses F2 again: ok",
		"selftest: PASS",
	} {
		found := false
		for _, alt := range strings.Split(want, "|") {
			found = found || strings.Contains(got, alt)
		}
		assert.True(t, found, "topo.py output lacks %q", want)
	}
}
