package telemetry

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/dpi-balancer/balancer/daemon"
	bgnmi "github.com/dpi-balancer/balancer/gnmi"
)

// Publisher keeps the last status and counters the daemon published to
// it (it is a daemon.Publisher) and serves them: as the /balancer gNMI
// tree on its server, and as Prometheus metrics (Collector, Registry).
type Publisher struct {
	srv     *bgnmi.Server // nil: metrics only
	metrics *metrics
	name    string // the balancer's name: every metric's balancer label
}

// SetName gives every metric of Registry the label balancer=name (the
// daemon's --name), so that the boxes of one site can be told apart. Call
// it before Registry.
func (p *Publisher) SetName(name string) { p.name = name }

// New returns a publisher that updates srv (nil: no gNMI, metrics only);
// give it to daemon.New in daemon.Options.Telemetry.
func New(srv *bgnmi.Server) *Publisher {
	return &Publisher{srv: srv, metrics: newMetrics()}
}

// PublishStatus implements daemon.Publisher: the metrics' status snapshot
// and the gNMI state tree.
func (p *Publisher) PublishStatus(s *daemon.Status, at time.Time) {
	p.metrics.setStatus(s)
	if p.srv != nil {
		_ = publishState(p.srv, s, at)
	}
}

// PublishCounters implements daemon.Publisher: the metrics' counters
// snapshot and the gNMI counter tree.
func (p *Publisher) PublishCounters(c *daemon.Counters) {
	p.metrics.setCounters(c)
	if p.srv != nil {
		_ = publishCounters(p.srv, c)
	}
}

// Source is what the metrics read from the daemon itself at each scrape,
// not from a published snapshot (a *daemon.Daemon is one).
type Source interface {
	// RuntimeSaveErrors counts the failure states not saved after a
	// failover.
	RuntimeSaveErrors() uint64
}

// Collector returns the Prometheus collector of the daemon's metrics: the
// snapshots published to p, and what d counts.
func (p *Publisher) Collector(d Source) prometheus.Collector {
	return multiCollector{p.metrics, &failoverMetrics{m: p.metrics, d: d}}
}

// Registry returns what /metrics serves: Collector(d),
// balancer_build_info, and the Go runtime and process collectors, each
// with the label balancer (SetName) when the publisher has a name.
func (p *Publisher) Registry(d Source) *prometheus.Registry {
	reg := prometheus.NewRegistry()
	var r prometheus.Registerer = reg
	if p.name != "" {
		r = prometheus.WrapRegistererWith(prometheus.Labels{"balancer": p.name}, reg)
	}
	r.MustRegister(p.Collector(d), buildInfo(),
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}
