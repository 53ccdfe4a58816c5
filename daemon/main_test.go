package daemon

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"strconv"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sim"
)

// childEnv makes the test binary run a daemon instead of the tests
// (childDaemon), so a test can kill one with SIGKILL.
const childEnv = "BALANCER_DAEMON_TEST_CHILD"

// TestMain fails the package if a test leaves a goroutine running: the
// daemon's servers, loops and switch sessions must all end with Run.
//
// With switchProcessEnv set, the test binary is instead a software switch
// of Tofino's slots for a benchmark that runs it in its own process
// (switchProcess).
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(childDaemon())
	}
	if os.Getenv(switchProcessEnv) != "" {
		os.Exit(serveSwitchProcess())
	}
	if os.Getenv(rebalanceSwitchEnv) != "" {
		os.Exit(serveRebalanceSwitch())
	}
	// glog's flush goroutine lives for the process (gNMI's cache logs).
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/golang/glog.(*fileSink).flushDaemon"))
}

// childDaemon runs a daemon as the bed's startDaemon does, on the
// arguments of the environment (BALANCER_DAEMON_TEST_{STATE,CONFIG,
// SWITCH,GNMI,ELECTION}), until it is killed.
func childDaemon() int {
	env := func(k string) string { return os.Getenv("BALANCER_DAEMON_TEST_" + k) }
	election, err := strconv.ParseUint(env("ELECTION"), 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child daemon: election:", err)
		return 2
	}
	d, err := New(Options{StateDir: env("STATE"), InitialConfig: env("CONFIG"), SwitchAddr: env("SWITCH"), SwitchGNMI: env("GNMI"),
		DeviceID: 1, ElectionLow: election, Tick: time.Millisecond, CounterInterval: time.Hour})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child daemon:", err)
		return 1
	}
	d.Run(context.Background())
	return 0
}

// switchProcessEnv makes the test binary a software switch (TestMain).
const switchProcessEnv = "BALANCER_TEST_SWITCH_PROCESS"

// serveSwitchProcess serves a software switch of Tofino's slots on
// 127.0.0.1: it prints its address, then answers each line "held" on
// stdin with the number of entries it holds, and ends when stdin closes.
func serveSwitchProcess() int {
	sw, err := sim.New(sim.Options{Ports: map[uint32]sim.Port{}, SlotCapacity: p4src.SlotsSizeTofino})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sw.Serve(ctx, lis, nil) }()
	fmt.Println(lis.Addr().String())
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		if in.Text() == "held" {
			fmt.Println(sw.Dataplane().StateSize())
		}
	}
	cancel()
	<-done
	return 0
}
