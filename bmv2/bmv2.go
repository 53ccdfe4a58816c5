// Package bmv2 runs the compiled balancer program on BMv2
// (simple_switch_grpc) inside a test network namespace, for the packet
// tests and the end-to-end test bed. BMv2 is not packaged in Debian: where
// simple_switch_grpc is not installed, Available says why and tests skip.
package bmv2

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"syscall"
	"time"

	"github.com/dpi-balancer/balancer/internal/testbed"
)

// Binary is the BMv2 P4Runtime switch.
const Binary = "simple_switch_grpc"

// CPUPort is the CPU port the v1model program is compiled for, and the
// one Start gives simple_switch_grpc.
const CPUPort = 255

// Available returns why BMv2 tests cannot run here, or "".
func Available() string {
	if _, err := exec.LookPath(Binary); err != nil {
		return Binary + " is not installed (build p4lang/behavioral-model 1.15.5 with PI; see bmv2/README.md)"
	}
	return testbed.Available()
}

// Switch is a running simple_switch_grpc.
type Switch struct {
	Addr    string // gRPC address (unix socket, reachable from outside the namespace)
	LogPath string
	cmd     *exec.Cmd
	waited  chan error
}

// Start runs simple_switch_grpc in ns with the given data-plane port ->
// interface bindings. dir holds its socket and log.
func Start(ctx context.Context, ns *testbed.NS, ports map[uint32]string, dir string) (*Switch, error) {
	return StartCPU(ctx, ns, ports, dir, CPUPort)
}

// StartCPU is Start with another CPU port (simple_switch_grpc --cpu-port).
func StartCPU(ctx context.Context, ns *testbed.NS, ports map[uint32]string, dir string, cpuPort uint32) (*Switch, error) {
	sock := filepath.Join(dir, "p4rt.sock")
	logPath := filepath.Join(dir, "bmv2.log")
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	args := []string{"--device-id", "1", "--log-console", "--log-level", "warn"}
	nums := make([]int, 0, len(ports))
	for p := range ports {
		nums = append(nums, int(p))
	}
	sort.Ints(nums)
	for _, p := range nums {
		args = append(args, "-i", strconv.Itoa(p)+"@"+ports[uint32(p)])
	}
	args = append(args, "--no-p4", "--", "--grpc-server-addr", "unix:"+sock, "--cpu-port", strconv.Itoa(int(cpuPort)))
	cmd := ns.Command(Binary, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("bmv2: start: %w", err)
	}
	s := &Switch{Addr: "unix://" + sock, LogPath: logPath, cmd: cmd, waited: make(chan error, 1)}
	go func() { s.waited <- cmd.Wait() }()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if Serving(sock) {
			return s, nil
		}
		select {
		case err := <-s.waited:
			s.waited <- err
			out, _ := os.ReadFile(logPath)
			return nil, fmt.Errorf("bmv2: exited before serving: %v: %s", err, out)
		case <-ctx.Done():
			s.Stop()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, errors.New("bmv2: no gRPC socket after 20s")
		}
	}
}

// Serving reports whether a server accepts connections on the unix socket
// sock. The socket file alone does not tell: gRPC binds it (the file
// appears) before it listens, and a connect in between is refused (a
// loaded host once took the file for the server).
func Serving(sock string) bool {
	c, err := net.DialTimeout("unix", sock, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// Stop ends the switch (its own process group only) and waits for it.
func (s *Switch) Stop() error {
	if s.cmd.Process == nil {
		return nil
	}
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-s.waited:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.waited
	}
	return nil
}
