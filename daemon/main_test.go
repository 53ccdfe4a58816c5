package daemon

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a test leaves a goroutine running: the
// daemon's servers, loops and switch sessions must all end with Run.
func TestMain(m *testing.M) {
	// glog's flush goroutine lives for the process (gNMI's cache logs).
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/golang/glog.(*fileSink).flushDaemon"))
}
