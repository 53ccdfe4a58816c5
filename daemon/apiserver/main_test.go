package apiserver

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a test leaves a goroutine running: Serve
// stops its servers and the daemon it runs.
func TestMain(m *testing.M) {
	// glog's flush goroutine lives for the process (gNMI's cache logs).
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/golang/glog.(*fileSink).flushDaemon"))
}
