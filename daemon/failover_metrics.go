package daemon

import (
	"sync/atomic"

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

// failoverMetrics reports the stall guard's alarms live from the profiles
// engine and counts runtime state save failures.
type failoverMetrics struct {
	d                 *Daemon
	runtimeSaveErrors atomic.Uint64
}

// Describe implements prometheus.Collector.
func (m *failoverMetrics) Describe(ch chan<- *prometheus.Desc) {
	ch <- descStall
	ch <- descStallHeld
	ch <- descRuntimeSaveErrors
}

// Collect implements prometheus.Collector.
func (m *failoverMetrics) Collect(ch chan<- prometheus.Metric) {
	eng := m.d.currentEngine()
	d := m.d
	d.mu.Lock()
	cfg := d.cfg
	d.mu.Unlock()
	stalled := map[string]bool{}
	held := map[string]bool{}
	for _, a := range eng.Alarms() {
		stalled[a.BalanceGroup] = true
		for _, f := range a.FilterGroups {
			held[f] = true
		}
	}
	for _, bg := range cfg.BalanceGroups {
		ch <- prometheus.MustNewConstMetric(descStall, prometheus.GaugeValue, b2f(stalled[bg.Name]), bg.Name)
	}
	for _, fg := range cfg.FilterGroups {
		ch <- prometheus.MustNewConstMetric(descStallHeld, prometheus.GaugeValue, b2f(held[fg.Name]), fg.Name)
	}
	ch <- prometheus.MustNewConstMetric(descRuntimeSaveErrors, prometheus.CounterValue, float64(m.runtimeSaveErrors.Load()))
}

func b2f(v bool) float64 {
	if v {
		return 1
	}
	return 0
}

// collectors is several collectors as one.
type collectors []prometheus.Collector

// Describe implements prometheus.Collector.
func (cs collectors) Describe(ch chan<- *prometheus.Desc) {
	for _, c := range cs {
		c.Describe(ch)
	}
}

// Collect implements prometheus.Collector.
func (cs collectors) Collect(ch chan<- prometheus.Metric) {
	for _, c := range cs {
		c.Collect(ch)
	}
}
