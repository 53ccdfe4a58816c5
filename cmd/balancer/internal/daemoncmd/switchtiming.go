package daemoncmd

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/dpi-balancer/balancer/controlplane"
)

// switchTimingFlags adds the daemon's flags for the switch session's
// deadlines, stall detection, keepalives and periodic reconcile, and
// returns the function that reads and checks them after parsing. Every
// value is used as typed: 0 is refused, except for
// --switch-reconcile-interval where it means off.
func switchTimingFlags(f *pflag.FlagSet) func() (controlplane.Timing, error) {
	var t controlplane.Timing
	type flag struct {
		name  string
		p     *time.Duration
		set   func(*controlplane.Timing, time.Duration)
		def   time.Duration
		usage string
	}
	flags := []flag{
		{"switch-rpc-timeout", &t.RPCTimeout, func(x *controlplane.Timing, v time.Duration) { x.RPCTimeout = v },
			controlplane.DefaultRPCTimeout, "deadline of each P4Runtime Write request and pipeline check"},
		{"switch-read-timeout", &t.ReadTimeout, func(x *controlplane.Timing, v time.Duration) { x.ReadTimeout = v },
			controlplane.DefaultReadTimeout, "deadline of one whole P4Runtime Read (counters, read-back)"},
		{"switch-pipeline-timeout", &t.PipelineTimeout, func(x *controlplane.Timing, v time.Duration) { x.PipelineTimeout = v },
			controlplane.DefaultPipelineTimeout, "deadline of pushing the pipeline (SetForwardingPipelineConfig)"},
		{"switch-stall-timeout", &t.StallTimeout, func(x *controlplane.Timing, v time.Duration) { x.StallTimeout = v },
			controlplane.DefaultStallTimeout, "a switch that answers nothing for this long is hung: reconnect (detection within probe interval + this)"},
		{"switch-probe-interval", &t.ProbeInterval, func(x *controlplane.Timing, v time.Duration) { x.ProbeInterval = v },
			controlplane.DefaultProbeInterval, "how often the session checks that the switch answers (and still runs the pipeline)"},
		{"switch-keepalive-time", &t.KeepaliveTime, func(x *controlplane.Timing, v time.Duration) { x.KeepaliveTime = v },
			controlplane.DefaultKeepaliveTime, "HTTP/2 keepalive ping after this long without a frame from the switch (at least 10s)"},
		{"switch-keepalive-timeout", &t.KeepaliveTimeout, func(x *controlplane.Timing, v time.Duration) { x.KeepaliveTimeout = v },
			controlplane.DefaultKeepaliveTimeout, "drop the connection when a keepalive ping is not answered within this"},
		{"switch-reconcile-interval", &t.ReconcileInterval, func(x *controlplane.Timing, v time.Duration) { x.ReconcileInterval = v },
			controlplane.DefaultReconcileInterval, "read every table back and repair what differs this often; 0 turns it off"},
	}
	for _, x := range flags {
		f.DurationVar(x.p, x.name, x.def, x.usage)
	}
	return func() (controlplane.Timing, error) {
		var errs []error
		for _, x := range flags {
			v := *x.p
			if x.name == "switch-reconcile-interval" && v == 0 {
				continue
			}
			if v <= 0 {
				errs = append(errs, fmt.Errorf("--%s %v: must be positive (default %v)", x.name, v, x.def))
				continue
			}
			var one controlplane.Timing
			x.set(&one, v)
			if err := one.Validate(); err != nil {
				errs = append(errs, fmt.Errorf("--%s: %w", x.name, err))
			}
		}
		out := t
		if out.ReconcileInterval == 0 {
			out.ReconcileInterval = controlplane.ReconcileOff
		}
		return out, errors.Join(errs...)
	}
}
