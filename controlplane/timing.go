package controlplane

import (
	"errors"
	"fmt"
	"time"

	"google.golang.org/grpc/keepalive"
)

// Defaults of Timing. docs/controlplane.md explains each choice.
const (
	// DefaultRPCTimeout bounds one Write request and the pipeline cookie
	// check: a batch of 500 entries takes tens of milliseconds on a
	// hardware switch, a second on a loaded BMv2.
	DefaultRPCTimeout = 10 * time.Second
	// DefaultPipelineTimeout bounds SetForwardingPipelineConfig: pushing a
	// Tofino binary takes seconds to tens of seconds.
	DefaultPipelineTimeout = 2 * time.Minute
	// DefaultReadTimeout bounds one whole Read (every entry of a Tofino
	// layout streams in under 2 s on the software switch).
	DefaultReadTimeout = time.Minute
	// DefaultStallTimeout: a switch that answered nothing for this long
	// while a probe waited is hung. The worst-case detection time is
	// DefaultProbeInterval + DefaultStallTimeout (+ 0.1s grace) = 4.1s.
	DefaultStallTimeout = 3 * time.Second
	// DefaultProbeInterval is the pace of the liveness probe (a
	// GetForwardingPipelineConfig for the cookie only: a few bytes).
	DefaultProbeInterval = time.Second
	// DefaultKeepaliveTime and DefaultKeepaliveTimeout are the HTTP/2
	// keepalive pings: sent only after KeepaliveTime without any frame
	// from the switch. Stratum accepts pings every 10s and more
	// (--grpc_keepalive_min_ping_interval=10000, permit without calls);
	// grpc-go clients never ping faster than every 10s. The probe keeps
	// the connection busy while the switch answers, so a healthy
	// connection sends no pings at all; these only back the probe up.
	DefaultKeepaliveTime    = 15 * time.Second
	DefaultKeepaliveTimeout = 5 * time.Second
	// DefaultReconcileInterval is the pace of the read-back reconcile:
	// every table the compiler owns is read back and repaired where it
	// differs. At Tofino size (132,088 entities) the read-back costs 1 to
	// 1.7 s of the software switch's time and 1.1 to 2.6 s in all, off the
	// write path (BenchmarkReconcileReadBack): under 1 % at this pace.
	DefaultReconcileInterval = 5 * time.Minute

	// MinKeepaliveTime is grpc-go's floor for client pings; a lower value
	// would silently be raised, so it is refused.
	MinKeepaliveTime = 10 * time.Second
)

// ReconcileOff as Timing.ReconcileInterval turns the periodic read-back
// reconcile off (a reconcile still runs on every connection).
const ReconcileOff time.Duration = -1

// Timing bounds every wait on the switch. A zero field takes its default;
// every other value is used as given (Validate refuses the ones that
// cannot work).
type Timing struct {
	// RPCTimeout bounds each Write request and GetForwardingPipelineConfig.
	RPCTimeout time.Duration
	// PipelineTimeout bounds SetForwardingPipelineConfig.
	PipelineTimeout time.Duration
	// ReadTimeout bounds one Read, from request to the stream's end.
	ReadTimeout time.Duration
	// StallTimeout: the switch is hung when it sent nothing (no reply to
	// any RPC, no stream message) for this long while a probe or the
	// first arbitration answer waited. The session then drops the
	// connection and reconnects.
	StallTimeout time.Duration
	// ProbeInterval is the pace of the liveness probe.
	ProbeInterval time.Duration
	// KeepaliveTime and KeepaliveTimeout are the HTTP/2 keepalive pings
	// (KeepaliveTime at least MinKeepaliveTime).
	KeepaliveTime, KeepaliveTimeout time.Duration
	// ReconcileInterval is the pace of the periodic read-back reconcile;
	// ReconcileOff (any negative value) turns it off.
	ReconcileInterval time.Duration
}

// withDefaults fills the zero fields.
func (t Timing) withDefaults() Timing {
	def := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	def(&t.RPCTimeout, DefaultRPCTimeout)
	def(&t.PipelineTimeout, DefaultPipelineTimeout)
	def(&t.ReadTimeout, DefaultReadTimeout)
	def(&t.StallTimeout, DefaultStallTimeout)
	def(&t.ProbeInterval, DefaultProbeInterval)
	def(&t.KeepaliveTime, DefaultKeepaliveTime)
	def(&t.KeepaliveTimeout, DefaultKeepaliveTimeout)
	def(&t.ReconcileInterval, DefaultReconcileInterval)
	return t
}

// DetectionBound is the longest a hung switch goes unnoticed: one probe
// interval, the stall timeout and the probe's grace to read answers
// already received.
func (t Timing) DetectionBound() time.Duration {
	t = t.withDefaults()
	return t.ProbeInterval + t.StallTimeout + stallGrace
}

// Validate reports every value that cannot work, naming the field and
// the allowed range. Zero fields are fine (they take the defaults).
func (t Timing) Validate() error {
	var errs []error
	check := func(name string, v, lo, hi time.Duration) {
		if v != 0 && (v < lo || v > hi) {
			errs = append(errs, fmt.Errorf("%s %v: must be between %v and %v", name, v, lo, hi))
		}
	}
	check("rpc timeout", t.RPCTimeout, 100*time.Millisecond, time.Hour)
	check("pipeline timeout", t.PipelineTimeout, time.Second, time.Hour)
	check("read timeout", t.ReadTimeout, 100*time.Millisecond, time.Hour)
	check("stall timeout", t.StallTimeout, 50*time.Millisecond, 10*time.Minute)
	check("probe interval", t.ProbeInterval, 10*time.Millisecond, 10*time.Minute)
	check("keepalive time", t.KeepaliveTime, MinKeepaliveTime, 24*time.Hour)
	check("keepalive timeout", t.KeepaliveTimeout, time.Second, 10*time.Minute)
	if t.ReconcileInterval > 0 {
		check("reconcile interval", t.ReconcileInterval, 10*time.Millisecond, 24*time.Hour)
	}
	return errors.Join(errs...)
}

// KeepaliveParams are the client keepalive parameters of t: pings only
// while a stream or call is open (a P4Runtime session always has its
// stream), as Stratum and grpc servers expect.
func (t Timing) KeepaliveParams() keepalive.ClientParameters {
	t = t.withDefaults()
	return keepalive.ClientParameters{Time: t.KeepaliveTime, Timeout: t.KeepaliveTimeout, PermitWithoutStream: false}
}
