package gnmi

import (
	"flag"
	"fmt"
)

// GlogToStderr sends the glog output of the openconfig gNMI packages to
// standard error instead of log files in os.TempDir(), by setting glog's
// -logtostderr flag (glog registers it on flag.CommandLine). A program that
// chose a glog -log_dir keeps its files. Call it once at startup, before
// serving.
func GlogToStderr() error {
	if f := flag.Lookup("log_dir"); f != nil && f.Value.String() != "" {
		return nil
	}
	if flag.Lookup("logtostderr") == nil {
		return fmt.Errorf("gnmi: glog's -logtostderr flag is not registered")
	}
	return flag.Set("logtostderr", "true")
}
