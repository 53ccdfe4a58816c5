package telemetry

import (
	"github.com/prometheus/client_golang/prometheus"
)

var (
	descStall = prometheus.NewDesc("balancer_keepalive_stall_suspected",
		"1 while the stall guard holds keep-alive losses of the balance group as a suspected failure of the balancer's own keep-alive path.",
		[]string{"balance_group"}, nil)
	descStallHeld = prometheus.NewDesc("balancer_filter_group_keepalive_held",
		"1 while the filter group's keep-alive loss is held by the stall guard (not failed over).", []string{"filter_group"}, nil)
	descRuntimeSaveErrors = prometheus.NewDesc("balancer_runtime_save_errors_total",
		"Failure states that could not be saved to runtime.json after a failover was written to the switch.", nil, nil)
)

// failoverMetrics reports the stall guard's alarms from the daemon's
// status snapshot and its count of runtime state save failures.
type failoverMetrics struct {
	m *metrics
	d Source
}

// Describe implements prometheus.Collector.
func (m *failoverMetrics) Describe(ch chan<- *prometheus.Desc) {
	ch <- descStall
	ch <- descStallHeld
	ch <- descRuntimeSaveErrors
}

// Collect implements prometheus.Collector.
func (m *failoverMetrics) Collect(ch chan<- prometheus.Metric) {
	m.m.mu.Lock()
	s := m.m.status
	m.m.mu.Unlock()
	if s != nil {
		for _, g := range s.Balance {
			ch <- prometheus.MustNewConstMetric(descStall, prometheus.GaugeValue, b2f(g.KeepAliveStall), g.Name)
		}
		for _, f := range s.Filters {
			ch <- prometheus.MustNewConstMetric(descStallHeld, prometheus.GaugeValue, b2f(f.Held), f.Name)
		}
	}
	ch <- prometheus.MustNewConstMetric(descRuntimeSaveErrors, prometheus.CounterValue, float64(m.d.RuntimeSaveErrors()))
}

// multiCollector is several collectors as one.
type multiCollector []prometheus.Collector

// Describe implements prometheus.Collector.
func (cs multiCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, c := range cs {
		c.Describe(ch)
	}
}

// Collect implements prometheus.Collector.
func (cs multiCollector) Collect(ch chan<- prometheus.Metric) {
	for _, c := range cs {
		c.Collect(ch)
	}
}
