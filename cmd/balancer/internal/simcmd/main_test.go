package simcmd

import (
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	time.Local = time.UTC // times in the output are predictable
	// glog (linked in through the daemon package) starts its flusher at init.
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/golang/glog.(*fileSink).flushDaemon"))
}
