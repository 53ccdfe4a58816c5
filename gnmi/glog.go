package gnmi

import (
	"flag"
	"fmt"
	"sync"
)

var glogOnce struct {
	sync.Once
	err error
}

// GlogToStderr sends the glog output of the openconfig gNMI packages to
// standard error instead of log files in os.TempDir(), by setting glog's
// -logtostderr flag (glog registers it on flag.CommandLine). A program that
// chose a glog -log_dir keeps its files. Call it at startup, before
// serving; it is safe to call from several goroutines and acts once.
func GlogToStderr() error {
	glogOnce.Do(func() {
		if f := flag.Lookup("log_dir"); f != nil && f.Value.String() != "" {
			return
		}
		if flag.Lookup("logtostderr") == nil {
			glogOnce.err = fmt.Errorf("gnmi: glog's -logtostderr flag is not registered")
			return
		}
		glogOnce.err = flag.Set("logtostderr", "true")
	})
	return glogOnce.err
}
