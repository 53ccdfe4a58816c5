package daemon

import (
	"context"
	"time"
)

// Publisher takes what the daemon publishes for telemetry: its status
// every state interval and at once after a command's write, and its
// counters every counter interval while the switch is connected. Package
// telemetry implements it (the gNMI tree and the Prometheus metrics). Its
// methods must not block: the state owner calls PublishStatus.
type Publisher interface {
	// PublishStatus takes a status, published at at (the daemon's clock).
	PublishStatus(st *Status, at time.Time)
	// PublishCounters takes the counters just read from the switch.
	PublishCounters(c *Counters)
}

// telemetryLoop publishes the status and the counters to
// Options.Telemetry.
func (d *Daemon) telemetryLoop(ctx context.Context, stateEvery, countersEvery time.Duration) error {
	st := time.NewTicker(stateEvery)
	defer st.Stop()
	ct := time.NewTicker(countersEvery)
	defer ct.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-st.C:
			d.publishStatus(ctx)
		case <-ct.C:
			if !d.session.Status().Connected {
				continue
			}
			rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			c, err := d.Counters(rctx)
			cancel()
			if err != nil {
				d.log.Debug("counters", "err", err)
				continue
			}
			d.opts.Telemetry.PublishCounters(c)
		}
	}
}

// publishStatus takes the status and publishes it to Options.Telemetry
// (none: nothing to do). Snapshots are taken and published one at a
// time, so the last one published is the last one taken: a periodic
// snapshot that read the switch's state before a write was acknowledged
// never lands after the one taken when the write returned (a "pending"
// then outliving the "programmed" the caller was told).
func (d *Daemon) publishStatus(ctx context.Context) {
	if d.opts.Telemetry == nil {
		return
	}
	d.publishMu.Lock()
	defer d.publishMu.Unlock()
	s, err := d.Status(ctx)
	if err != nil {
		return
	}
	d.opts.Telemetry.PublishStatus(s, d.now())
}

// refreshTelemetry publishes the status (metrics and the gNMI state
// tree) at once, after a command's write: what the command prints about
// the switch and what telemetry shows agree from the moment it returns,
// not from the next state interval. (A failover's write does not: the
// state owner never waits for a status; the state interval publishes it.)
func (d *Daemon) refreshTelemetry(ctx context.Context) { d.publishStatus(ctx) }

// RuntimeSaveErrors counts the failure states that could not be saved to
// the store after a failover was written to the switch (the metric
// balancer_runtime_save_errors_total).
func (d *Daemon) RuntimeSaveErrors() uint64 { return d.runtimeSaveErrors.Load() }
