package e2e

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/dpi-balancer/balancer/internal/testbed"
)

// TestMain keeps glog's files (the gNMI cache logs through it) in a
// directory of its own that is removed afterwards, and checks that no
// goroutine of the bed (senders, emulators, switch, daemon) outlives the
// tests: a sender left behind writes into whatever reuses its socket.
// As root it raises the process's priority first (testbed.RaisePriority):
// the scenarios time keep-alives and failovers of a switch, a daemon and
// emulators that all run in this process, and on a loaded machine they
// otherwise time the machine.
func TestMain(m *testing.M) {
	flag.Parse()
	if testbed.Available() == "" {
		if what, err := testbed.RaisePriority(); err != nil {
			fmt.Fprintln(os.Stderr, err)
		} else if testing.Verbose() {
			fmt.Fprintln(os.Stderr, "e2e:", what)
		}
	}
	dir, err := os.MkdirTemp("", "e2e-glog")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if f := flag.Lookup("log_dir"); f != nil {
		_ = f.Value.Set(dir)
	}
	code := m.Run()
	if code == 0 {
		if err := goleak.Find(goleak.IgnoreTopFunction("github.com/golang/glog.(*fileSink).flushDaemon"),
			goleak.IgnoreAnyFunction("github.com/golang/glog.(*fileSink).flushDaemon")); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: %v\n", err)
			code = 1
		}
	}
	os.RemoveAll(dir)
	os.Exit(code)
}
