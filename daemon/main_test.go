package daemon

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// childEnv makes the test binary run a daemon instead of the tests
// (childDaemon), so a test can kill one with SIGKILL.
const childEnv = "BALANCER_DAEMON_TEST_CHILD"

// TestMain fails the package if a test leaves a goroutine running: the
// daemon's servers, loops and switch sessions must all end with Run.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(childDaemon())
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
