package telemetry

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a test leaves a goroutine running (the
// gNMI servers the tests start).
func TestMain(m *testing.M) {
	// glog's flush goroutine lives for the process (gNMI's cache logs).
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/golang/glog.(*fileSink).flushDaemon"))
}
