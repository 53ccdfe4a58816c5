// Package testbed builds throw-away network namespaces with veth pairs for
// tests that send real frames. Everything it creates is removed by the
// test's cleanup; it never touches interfaces or processes it did not make.
package testbed

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

var seq atomic.Int64

// NS is a network namespace created for one test.
type NS struct {
	Name string
	Path string
}

// Available returns why namespace tests cannot run here, or "".
func Available() string {
	if os.Geteuid() != 0 {
		return "needs root to create network namespaces"
	}
	if _, err := exec.LookPath("ip"); err != nil {
		return "needs the ip command (iproute2)"
	}
	return ""
}

// NewNS creates a namespace (skipping the test when that is impossible)
// and deletes it when the test ends.
func NewNS(t testing.TB) *NS {
	t.Helper()
	if why := Available(); why != "" {
		t.Skip("testbed: " + why)
	}
	reapStale()
	name := fmt.Sprintf("balt%d-%d", os.Getpid(), seq.Add(1))
	if out, err := exec.Command("ip", "netns", "add", name).CombinedOutput(); err != nil {
		t.Skipf("testbed: cannot create a network namespace: %v: %s", err, out)
	}
	ns := &NS{Name: name, Path: "/var/run/netns/" + name}
	t.Cleanup(func() {
		if out, err := exec.Command("ip", "netns", "del", name).CombinedOutput(); err != nil {
			t.Logf("testbed: delete namespace %s: %v: %s", name, err, out)
		}
	})
	ns.MustRun(t, "ip", "link", "set", "lo", "up")
	return ns
}

// Run runs a command inside the namespace.
func (n *NS) Run(args ...string) (string, error) {
	cmd := exec.Command("ip", append([]string{"netns", "exec", n.Name}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("%s: %w: %s", strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

// MustRun is Run that fails the test on error.
func (n *NS) MustRun(t testing.TB, args ...string) string {
	t.Helper()
	out, err := n.Run(args...)
	if err != nil {
		t.Fatalf("testbed: %v", err)
	}
	return out
}

// Veth creates a veth pair a<->b inside the namespace, both up, with a
// jumbo MTU and the offloads off (offload.go) so frames cross unchanged
// and a capture on either end (BMv2's libpcap) holds a burst; it fails
// the test when they cannot be turned off.
func (n *NS) Veth(t testing.TB, a, b string) {
	t.Helper()
	n.MustRun(t, "ip", "link", "add", a, "type", "veth", "peer", "name", b)
	for _, ifc := range []string{a, b} {
		// IPv6 would send frames of its own (router solicitations, DAD):
		// off before the link comes up.
		n.Run("sysctl", "-qw", "net.ipv6.conf."+ifc+".disable_ipv6=1")
		if err := setOffloadsOff(n.Path, ifc); err != nil {
			t.Fatalf("testbed: %v", err)
		}
		n.MustRun(t, "ip", "link", "set", ifc, "mtu", "9500", "up")
	}
}

// Command returns a command that runs inside the namespace.
func (n *NS) Command(name string, args ...string) *exec.Cmd {
	return exec.Command("ip", append([]string{"netns", "exec", n.Name, name}, args...)...)
}

// reapStale deletes namespaces this package made in test processes that
// no longer run (a crashed test cannot clean up): "balt<pid>-<n>" whose
// pid is gone.
func reapStale() {
	out, err := exec.Command("ip", "netns", "list").Output()
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.HasPrefix(f[0], "balt") {
			continue
		}
		pidStr, _, ok := strings.Cut(strings.TrimPrefix(f[0], "balt"), "-")
		pid, err := strconv.Atoi(pidStr)
		if !ok || err != nil || pid == os.Getpid() {
			continue
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			_ = exec.Command("ip", "netns", "del", f[0]).Run()
		}
	}
}

// Run runs fn in a goroutine until the test ends; then its context is
// cancelled and Run's cleanup waits for fn to return.
func Run(t testing.TB, fn func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); fn(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
}
