package telemetry

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/internal/buildinfo"
)

// buildInfo is balancer_build_info{version,revision,go_version} 1.
func buildInfo() prometheus.Collector {
	bi := buildinfo.Read()
	revision := bi.Revision
	if revision == "" {
		revision = "unknown"
	}
	g := prometheus.NewGauge(prometheus.GaugeOpts{Name: "balancer_build_info",
		Help:        "The balancer's build: always 1, the version in the labels.",
		ConstLabels: prometheus.Labels{"version": bi.Version, "revision": revision, "go_version": bi.Go}})
	g.Set(1)
	return g
}

// metrics is the Prometheus view: a collector over the last snapshots.
//
// Every label value is snake_case and no label ever changes with a state:
// a state is an enum-style gauge, one series per possible value, 1 for the
// current one (balancer_filter_group_state{state="down"} 1).
type metrics struct {
	mu       sync.Mutex
	status   *daemon.Status
	counters *daemon.Counters
}

func newMetrics() *metrics { return &metrics{} }

// setStatus keeps the newer of s and the status it holds (a periodic
// snapshot taken before a write may arrive after the one taken after it).
func (m *metrics) setStatus(s *daemon.Status) {
	m.mu.Lock()
	if m.status == nil || !s.ObservedAt.Before(m.status.ObservedAt) {
		m.status = s
	}
	m.mu.Unlock()
}

func (m *metrics) setCounters(c *daemon.Counters) {
	m.mu.Lock()
	m.counters = c
	m.mu.Unlock()
}

// The enum values of the state gauges (snake_case of what Status says).
var (
	filterGroupStates     = []string{"init", "up", "down", "admin_bypass", "recovered"}
	filterGroupEffectives = []string{"forward", "sw_bypass", "drop", "rebalanced", "group_bypass", "group_drop", "spared", "spare_active", "spare_standby"}
	spareStates           = []string{"standby", "active", "unavailable"}
	balanceGroupStates    = []string{"active", "bypass", "drop"}
)

func desc(name, help string, labels ...string) *prometheus.Desc {
	d := prometheus.NewDesc(name, help, labels, nil)
	allDescs = append(allDescs, d)
	return d
}

var allDescs []*prometheus.Desc

var (
	descSwitchConnected = desc("balancer_switch_connected", "1 when the daemon's P4Runtime session with the switch is up.")
	descSwitch          = desc("balancer_switch_primary", "1 when this daemon is the switch's primary controller.")
	descSwAlarm         = desc("balancer_switch_alarm", "1 while the switch session needs attention (the status ALARM line, gNMI switch-alarm).")
	descSwOther         = desc("balancer_switch_other_primary", "1 while another controller, of this election id, is the switch's primary and this daemon is a backup (0 with an empty id otherwise).", "election_id")
	descRevision        = desc("balancer_running_revision", "Number of the running configuration revision.")
	descSwStalled       = desc("balancer_switch_stalled", "1 when the switch kept its connection open but stopped answering (the session reconnects).")
	descSwPending       = desc("balancer_switch_pending", "1 while the desired state is not on the switch (not connected, or a failed write being retried).")
	descPipeVerdict     = desc("balancer_pipeline_verdict", "1 when the pushed program judges the filters itself (the data-plane verdict); 0: a build without it (the Tofino 1 profile), where the daemon alone judges them.")
	descBypassAll       = desc("balancer_bypass_all", "1 when every filter group is bypassed by hand.")
	descLinkUp          = desc("balancer_link_port_up", "1 when the link's port on that side is up.", "link", "side")

	descFGState     = desc("balancer_filter_group_state", "Filter group state: 1 for the current state, 0 for the others.", "filter_group", "state")
	descFGEffective = desc("balancer_filter_group_effective", "What the switch does with the filter group's traffic: 1 for the current action, 0 for the others.", "filter_group", "effective")
	descFGUp        = desc("balancer_filter_group_up", "1 when the filter group is up: its keep-alives pass and it has earned its traffic (a new filter group in init carries none).", "filter_group")
	descFGLosses    = desc("balancer_filter_group_keepalive_losses_total", "Keep-alives lost.", "filter_group")
	descFGPasses    = desc("balancer_filter_group_keepalive_passes_total", "Keep-alives that crossed the filter.", "filter_group")
	descFGConsec    = desc("balancer_filter_group_keepalive_consecutive_losses", "Keep-alives lost in a row.", "filter_group")
	descFGMisrouted = desc("balancer_filter_group_keepalive_misrouted_total", "Keep-alives that came back on a port of another filter group.", "filter_group")
	descFGLastTOP   = desc("balancer_filter_group_last_time_of_pass_seconds", "Time of pass of the last keep-alive; absent while the group is not up.", "filter_group")
	descFGTOP       = desc("balancer_filter_group_time_of_pass_seconds", "Keep-alive times of pass.", "filter_group")
	descFGVerdict   = desc("balancer_filter_group_verdict", "1 while a data-plane verdict stands for the filter group (the pipeline proved its loss and applies its failure action).", "filter_group")
	descFGVEpoch    = desc("balancer_filter_group_verdict_epoch", "The verdict epoch the controller writes for the filter group.", "filter_group")
	descFGVDisagree = desc("balancer_filter_group_verdict_disagreements_total", "Data-plane verdicts the controller's own keep-alives disagreed with.", "filter_group")
	descFGVerdicts  = desc("balancer_filter_group_verdict_history", "Data-plane verdicts in the status history (at most the latest 16).", "filter_group")
	descFGRTT50     = desc("balancer_filter_group_round_trip_p50_seconds", "Keep-alive round trip by the switch's clock, 50th percentile of the latest keep-alives (at most 128) of one direction; absent before one came back.", "filter_group", "direction")
	descFGRTT99     = desc("balancer_filter_group_round_trip_p99_seconds", "Keep-alive round trip by the switch's clock, 99th percentile of the latest keep-alives (at most 128) of one direction; absent before one came back.", "filter_group", "direction")
	descFGLossPct   = desc("balancer_filter_group_keepalive_loss_percent", "Keep-alive rounds lost, in percent, over the latest rounds of the profile's loss_window; absent without max_loss.", "filter_group")
	descFGOpen      = desc("balancer_filter_group_failed_open", "1 while the filter group's fail-open probes come back: it passes traffic uninspected (its fail_open_action applies); absent without probes.", "filter_group")
	descFGProbes    = desc("balancer_filter_group_fail_open_probes_total", "Fail-open probes by what became of them: sent (one a direction), returned (came back through the filter: proof it failed open), dropped (probe rounds the filter dropped while its keep-alives passed); absent without probes.", "filter_group", "kind")
	descFGSpare     = desc("balancer_filter_group_spare_state", "A spare filter group's state: standby (up, carrying nothing), active (carrying a failed member's share), unavailable (not up or bypassed: it cannot take a share); 1 for the current, 0 for the others; only for spares.", "filter_group", "state")
	descFGCarries   = desc("balancer_filter_group_spare_carries", "1 while the spare filter_group carries the share of member, 0 otherwise; one series per spare and member of a balance group with spares.", "filter_group", "member")
	descFGSpared    = desc("balancer_filter_group_spared", "1 while a spare carries this member's share; only for members of balance groups with spares.", "filter_group")
	descFGReturn    = desc("balancer_filter_group_return_ratio", "Packets that came back from the filter over packets sent to it (counters since the pipeline was pushed); absent before any was sent.", "filter_group")

	descBGState = desc("balancer_balance_group_state", "Balance group state: 1 for the current state, 0 for the others.", "balance_group", "state")
	descBGAlive = desc("balancer_balance_group_alive_filter_groups", "Filter groups of the balance group whose keep-alives pass.", "balance_group")

	descLinkPkts       = desc("balancer_link_packets_total", "Packets of a link by what happened to them.", "link", "kind")
	descLinkBytes      = desc("balancer_link_bytes_total", "Bytes of a link by what happened to them.", "link", "kind")
	descFGPkts         = desc("balancer_filter_group_packets_total", "Packets of a filter group by kind.", "filter_group", "kind")
	descFGBytes        = desc("balancer_filter_group_bytes_total", "Bytes of a filter group by kind.", "filter_group", "kind")
	descRulePkts       = desc("balancer_rule_packets_total", "Packets that hit a flow rule.", "rule")
	descRuleBytes      = desc("balancer_rule_bytes_total", "Bytes that hit a flow rule.", "rule")
	descCorePkts       = desc("balancer_core_packets_total", "Packets sent to a filter core.", "filter_group", "core")
	descCoreBytes      = desc("balancer_core_bytes_total", "Bytes sent to a filter core.", "filter_group", "core")
	descCoreSlots      = desc("balancer_core_slots", "Slots of the balance group's layout dealt to a filter core.", "filter_group", "core")
	descDropPkts       = desc("balancer_dropped_packets_total", "Packets dropped by the data plane, by reason.", "reason")
	descDropBytes      = desc("balancer_dropped_bytes_total", "Bytes dropped by the data plane, by reason.", "reason")
	descPortRxPkt      = desc("balancer_port_rx_packets_total", "Packets received on a port.", "port")
	descPortRxB        = desc("balancer_port_rx_bytes_total", "Bytes received on a port.", "port")
	descPortTxPkt      = desc("balancer_port_tx_packets_total", "Packets sent out of a port.", "port")
	descPortTxB        = desc("balancer_port_tx_bytes_total", "Bytes sent out of a port.", "port")
	descPortOper       = desc("balancer_port_oper_state", "Oper state of a link or filter-group port: 1 for the current state (up, down or unknown: not reported, or the switch is not connected), 0 for the others.", "port", "state")
	descAlarm          = desc("balancer_alarm", "1 while the daemon's alarm of that name (snake_case) is raised: the status ALARM line, gNMI /balancer/alarms; 0 otherwise, every name always present.", "name")
	descSMHeld         = desc("balancer_session_memory_held", "Sessions the session memory holds on the switch, by filter group (absent when the site does not enable it).", "filter_group")
	descSMSize         = desc("balancer_session_memory_size", "Entries the switch's session table holds at most.")
	descSMOcc          = desc("balancer_session_memory_occupancy", "Sessions held over the table's size (0..1; the session-memory alarm is raised above 0.9).")
	descSMLearned      = desc("balancer_session_memory_learned_total", "Sessions learned: entries inserted from session digests.")
	descSMAged         = desc("balancer_session_memory_aged_total", "Sessions aged out: entries deleted after the switch notified them idle for their protocol's idle timeout.")
	descSMKept         = desc("balancer_session_memory_kept_total", "Held sessions rewritten to stay in software bypass as their filter group returned (return: new-sessions).")
	descSMKeepTimedOut = desc("balancer_session_memory_keep_timed_out_total", "Returns of a filter group whose held sessions could not all be kept in bypass in time: they went back to it.")
	descSMRehomed      = desc("balancer_session_memory_rehomed_total", "Held sessions rewritten off a failed filter group whose share its failure action moved (rebalance, spare) to where their slots point.")
	descSMReassigned   = desc("balancer_session_memory_reassigned_total", "Held sessions rewritten to where their slots point because a configuration change removed their filter group (or its membership of their balance group, or their core).")
	descSMRemoved      = desc("balancer_session_memory_removed_total", "Held sessions' entries deleted because a configuration change removed their balance group.")
	descSMRefused      = desc("balancer_session_memory_refused_total", "Sessions not learned, by why: full (the table refused the insert), failed (another error), dropped (the learner's queue was full), duplicate (held already).", "reason")
	descSMBacklog      = desc("balancer_session_memory_backlog", "Session digests waiting for the learner (the alarm is raised when it reaches its bound).")
	descStale          = desc("balancer_status_stale", "1 while the filter states are not live: the switch is not connected (port states are unknown too), or this daemon is an HA standby (they are the leader's as last saved in the store).")
)

// Describe implements prometheus.Collector.
func (m *metrics) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range allDescs {
		ch <- d
	}
}

// Collect implements prometheus.Collector. Each part is one function; a new
// part is one more line here.
func (m *metrics) Collect(ch chan<- prometheus.Metric) {
	m.mu.Lock()
	s, c := m.status, m.counters
	m.mu.Unlock()
	if s != nil {
		for _, part := range []func(chan<- prometheus.Metric, *daemon.Status){collectSwitch, collectPorts, collectFilterGroups, collectBalanceGroups, collectAlarms, collectSessionMemory} {
			part(ch, s)
		}
	}
	if c != nil {
		collectCounters(ch, c)
	}
}

func gauge(ch chan<- prometheus.Metric, d *prometheus.Desc, v float64, labels ...string) {
	ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
}

func counter(ch chan<- prometheus.Metric, d *prometheus.Desc, v uint64, labels ...string) {
	ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), labels...)
}

func b2f(v bool) float64 {
	if v {
		return 1
	}
	return 0
}

// enum sends one series per value of values, 1 for current. A current
// value outside the list gets its own series, so it is never lost.
func enum(ch chan<- prometheus.Metric, d *prometheus.Desc, name string, values []string, current string) {
	cur := snake(current)
	for _, v := range values {
		gauge(ch, d, b2f(v == cur), name, v)
	}
	if !slices.Contains(values, cur) {
		gauge(ch, d, 1, name, cur)
	}
}

func collectSwitch(ch chan<- prometheus.Metric, s *daemon.Status) {
	gauge(ch, descSwitchConnected, b2f(s.Switch.Connected))
	gauge(ch, descSwitch, b2f(s.Switch.Primary))
	gauge(ch, descSwStalled, b2f(s.Switch.Stalled))
	gauge(ch, descSwPending, b2f(s.Switch.Pending))
	gauge(ch, descSwAlarm, b2f(s.Switch.Alarm != ""))
	// One series: 1 with the other primary's id, or 0 with an empty id.
	gauge(ch, descSwOther, b2f(s.Switch.OtherPrimary != ""), s.Switch.OtherPrimary)
	gauge(ch, descRevision, float64(s.Revision.Number))
	gauge(ch, descBypassAll, b2f(s.Bypass.All))
	gauge(ch, descPipeVerdict, b2f(s.Switch.PipelineVerdict))
	for _, l := range s.Links {
		gauge(ch, descLinkUp, b2f(l.LANUp), l.Name, "lan")
		gauge(ch, descLinkUp, b2f(l.WANUp), l.Name, "wan")
	}
}

// collectAlarms exports every alarm the daemon raises, 1 while raised
// (one series per name, so they never change).
func collectAlarms(ch chan<- prometheus.Metric, s *daemon.Status) {
	raised := map[string]bool{}
	for _, a := range s.Alarms {
		raised[a.Name] = true
	}
	for _, n := range daemon.AlarmNames {
		gauge(ch, descAlarm, b2f(raised[n]), snake(n))
	}
}

var portStates = []string{"up", "down", "unknown"}

// collectPorts exports the oper state of every port a link or a filter
// group uses (one series per state value, so labels never change).
func collectPorts(ch chan<- prometheus.Metric, s *daemon.Status) {
	gauge(ch, descStale, b2f(s.Stale))
	seen := map[string]bool{}
	oper := func(port, state string) {
		if port == "" || seen[port] {
			return
		}
		if state == "" {
			state = string(daemon.PortUnknown)
		}
		seen[port] = true
		enum(ch, descPortOper, port, portStates, state)
	}
	for _, l := range s.Links {
		oper(l.LAN, l.LANState)
		oper(l.WAN, l.WANState)
	}
	for _, f := range s.Filters {
		oper(f.LAN, f.LANState)
		oper(f.WAN, f.WANState)
	}
}

func collectFilterGroups(ch chan<- prometheus.Metric, s *daemon.Status) {
	for _, f := range s.Filters {
		enum(ch, descFGState, f.Name, filterGroupStates, f.State)
		enum(ch, descFGEffective, f.Name, filterGroupEffectives, effectiveValue(f))
		gauge(ch, descFGUp, b2f(f.State == "up"), f.Name)
		counter(ch, descFGLosses, f.Losses, f.Name)
		counter(ch, descFGPasses, f.Passes, f.Name)
		counter(ch, descFGMisrouted, f.Misrouted, f.Name)
		gauge(ch, descFGConsec, float64(f.Consecutive), f.Name)
		if f.State == "up" {
			gauge(ch, descFGLastTOP, f.TimeOfPass.Seconds(), f.Name)
		}
		buckets := map[float64]uint64{}
		var cum uint64
		for _, b := range f.TimeOfPassBuckets {
			cum += b.Count
			if b.UpTo > 0 {
				buckets[b.UpTo.Seconds()] = cum
			}
		}
		ch <- prometheus.MustNewConstHistogram(descFGTOP, cum, f.TimeOfPassSum.Seconds(), buckets, f.Name)
		for _, r := range f.RoundTrips {
			if r.Samples == 0 {
				continue
			}
			gauge(ch, descFGRTT50, r.P50.Seconds(), f.Name, r.Direction)
			gauge(ch, descFGRTT99, r.P99.Seconds(), f.Name, r.Direction)
		}
		if f.LossRounds > 0 {
			gauge(ch, descFGLossPct, f.LossPercent, f.Name)
		}
		if fo := f.FailOpen; fo != nil {
			gauge(ch, descFGOpen, b2f(fo.FailedOpen), f.Name)
			counter(ch, descFGProbes, fo.Sent, f.Name, "sent")
			counter(ch, descFGProbes, fo.Returned, f.Name, "returned")
			counter(ch, descFGProbes, fo.Dropped, f.Name, "dropped")
		}
		gauge(ch, descFGVerdict, b2f(f.Verdict != ""), f.Name)
		gauge(ch, descFGVEpoch, float64(f.VerdictEpoch), f.Name)
		counter(ch, descFGVDisagree, f.VerdictDisagreements, f.Name)
		gauge(ch, descFGVerdicts, float64(len(f.Verdicts)), f.Name)
	}
}

// effectiveValue is a filter group's effective action as a label value of
// a fixed set: the spare cases by the status's fields, not its text (which
// names the other filter group).
func effectiveValue(f daemon.FilterStatus) string {
	switch {
	case f.SparedTo != "":
		return "spared"
	case f.SpareFor != "":
		return "spare_active"
	case f.Spare && f.Effective == "spare (standby)":
		return "spare_standby"
	}
	return f.Effective
}

// spareState is a spare's state for balancer_filter_group_spare_state.
func spareState(f daemon.FilterStatus) string {
	switch {
	case f.SpareFor != "":
		return "active"
	case f.State == "up" && f.Effective == "spare (standby)":
		return "standby"
	}
	return "unavailable"
}

func collectBalanceGroups(ch chan<- prometheus.Metric, s *daemon.Status) {
	filters := map[string]daemon.FilterStatus{}
	for _, f := range s.Filters {
		filters[f.Name] = f
	}
	for _, g := range s.Balance {
		enum(ch, descBGState, g.Name, balanceGroupStates, g.State)
		gauge(ch, descBGAlive, float64(g.Alive), g.Name)
		if len(g.Spares) == 0 {
			continue
		}
		for _, sp := range g.Spares {
			f, ok := filters[sp]
			if !ok {
				continue
			}
			enum(ch, descFGSpare, sp, spareStates, spareState(f))
			for _, m := range g.Members {
				gauge(ch, descFGCarries, b2f(f.SpareFor == m), sp, m)
			}
		}
		for _, m := range g.Members {
			if f, ok := filters[m]; ok {
				gauge(ch, descFGSpared, b2f(f.SparedTo != ""), m)
			}
		}
	}
}

func collectCounters(ch chan<- prometheus.Metric, c *daemon.Counters) {
	for _, k := range c.Links {
		for _, kv := range linkKinds(k) {
			counter(ch, descLinkPkts, kv.v.Packets, k.Name, snake(kv.name))
			counter(ch, descLinkBytes, kv.v.Bytes, k.Name, snake(kv.name))
		}
	}
	for _, f := range c.Filters {
		for _, kv := range filterKinds(f) {
			counter(ch, descFGPkts, kv.v.Packets, f.Name, snake(kv.name))
			counter(ch, descFGBytes, kv.v.Bytes, f.Name, snake(kv.name))
		}
		if f.ToFilter.Packets > 0 {
			gauge(ch, descFGReturn, float64(f.Returned.Packets)/float64(f.ToFilter.Packets), f.Name)
		}
	}
	for _, r := range c.Rules {
		counter(ch, descRulePkts, r.Hits.Packets, r.Name)
		counter(ch, descRuleBytes, r.Hits.Bytes, r.Name)
	}
	for _, k := range c.Cores {
		core := strconv.Itoa(int(k.Core))
		counter(ch, descCorePkts, k.Hits.Packets, k.FilterGroup, core)
		counter(ch, descCoreBytes, k.Hits.Bytes, k.FilterGroup, core)
		gauge(ch, descCoreSlots, float64(k.Slots), k.FilterGroup, core)
	}
	for _, dr := range c.Drops {
		counter(ch, descDropPkts, dr.Count.Packets, snake(dr.Reason))
		counter(ch, descDropBytes, dr.Count.Bytes, snake(dr.Reason))
	}
	for _, p := range c.Ports {
		counter(ch, descPortRxPkt, p.Rx.Packets, p.Name)
		counter(ch, descPortRxB, p.Rx.Bytes, p.Name)
		counter(ch, descPortTxPkt, p.Tx.Packets, p.Name)
		counter(ch, descPortTxB, p.Tx.Bytes, p.Name)
	}
}

// snake returns s as a snake_case label value: lower case, every run of
// other characters one underscore ("no core header from a filter" ->
// no_core_header_from_a_filter, "sw-bypass" -> sw_bypass).
func snake(s string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			under = false
			b.WriteRune(r)
			continue
		}
		under = true
	}
	return b.String()
}

// collectSessionMemory exports the session memory's figures (none when
// the site does not enable it).
func collectSessionMemory(ch chan<- prometheus.Metric, s *daemon.Status) {
	sm := s.SessionMemory
	if sm == nil {
		return
	}
	for _, g := range sm.Groups {
		name := g.Name
		switch {
		case g.KeptInBypass:
			name = "kept-in-bypass"
		case name == "":
			name = "id-" + strconv.FormatUint(uint64(g.ID), 10)
		}
		gauge(ch, descSMHeld, float64(g.Held), name)
	}
	gauge(ch, descSMSize, float64(sm.Size))
	gauge(ch, descSMOcc, sm.Occupied)
	counter(ch, descSMLearned, sm.Inserted)
	counter(ch, descSMAged, sm.Evicted)
	counter(ch, descSMRehomed, sm.Rehomed)
	counter(ch, descSMReassigned, sm.Reassigned)
	counter(ch, descSMRemoved, sm.Removed)
	counter(ch, descSMKept, sm.Kept)
	counter(ch, descSMKeepTimedOut, sm.KeepTimedOut)
	counter(ch, descSMRefused, sm.Full, "full")
	counter(ch, descSMRefused, sm.Failed, "failed")
	counter(ch, descSMRefused, sm.Dropped, "dropped")
	counter(ch, descSMRefused, sm.Duplicates, "duplicate")
	gauge(ch, descSMBacklog, float64(sm.Backlog))
}
