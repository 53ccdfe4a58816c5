package daemon

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/prometheus/client_golang/prometheus"

	bgnmi "github.com/dpi-balancer/balancer/gnmi"
)

// Telemetry paths (docs/telemetry.md):
//
//	/balancer/state/{site,revision,switch-connected,switch-primary,bypass-all}
//	/balancer/state/{switch-stalled,switch-stalled-since,switch-pending,switch-alarm}
//	/balancer/links/link[name=L]/state/{id,lan-up,wan-up}
//	/balancer/links/link[name=L]/counters/{to-filter,rule-bypass,non-ip-bypass,sw-bypass,returned,heartbeat,group-bypass,dropped}-pkts
//	/balancer/filter-groups/filter-group[name=F]/state/{state,reason,since,effective,last-pass,time-of-pass-ns,losses,passes,consecutive-losses,misrouted}
//	/balancer/filter-groups/filter-group[name=F]/state/time-of-pass/bucket[le=NS]/count
//	/balancer/filter-groups/filter-group[name=F]/counters/{to-filter,returned,keepalive,sw-bypass}-pkts
//	/balancer/balance-groups/balance-group[name=G]/state/{state,alive,digest}
//	/balancer/rules/rule[name=R]/counters/{packets,bytes}
//	/balancer/cores/core[filter-group=F][core=N]/counters/{packets,bytes,slots}
//
// State leaves are published every telemetry tick and the cache sends only
// the changed ones to ON_CHANGE subscribers; counters are read from the
// switch every counter interval (SAMPLE subscribers get them at their rate).

func elem(name string, keys ...string) *gpb.PathElem {
	e := &gpb.PathElem{Name: name}
	if len(keys) > 0 {
		e.Key = map[string]string{}
		for i := 0; i+1 < len(keys); i += 2 {
			e.Key[keys[i]] = keys[i+1]
		}
	}
	return e
}

type leafSet struct {
	ts  int64
	ups []*gpb.Update
}

func (l *leafSet) add(prefix []*gpb.PathElem, leaf string, v any) {
	p := append(append([]*gpb.PathElem{}, prefix...), elem(leaf))
	var tv *gpb.TypedValue
	switch x := v.(type) {
	case string:
		tv = &gpb.TypedValue{Value: &gpb.TypedValue_StringVal{StringVal: x}}
	case bool:
		tv = &gpb.TypedValue{Value: &gpb.TypedValue_BoolVal{BoolVal: x}}
	case uint64:
		tv = &gpb.TypedValue{Value: &gpb.TypedValue_UintVal{UintVal: x}}
	case int:
		tv = &gpb.TypedValue{Value: &gpb.TypedValue_UintVal{UintVal: uint64(x)}}
	case uint32:
		tv = &gpb.TypedValue{Value: &gpb.TypedValue_UintVal{UintVal: uint64(x)}}
	case time.Time:
		if x.IsZero() {
			tv = &gpb.TypedValue{Value: &gpb.TypedValue_UintVal{UintVal: 0}}
		} else {
			tv = &gpb.TypedValue{Value: &gpb.TypedValue_UintVal{UintVal: uint64(x.UnixNano())}}
		}
	case time.Duration:
		tv = &gpb.TypedValue{Value: &gpb.TypedValue_UintVal{UintVal: uint64(x.Nanoseconds())}}
	default:
		tv = &gpb.TypedValue{Value: &gpb.TypedValue_StringVal{StringVal: fmt.Sprint(x)}}
	}
	l.ups = append(l.ups, &gpb.Update{Path: &gpb.Path{Elem: p}, Val: tv})
}

// publishState publishes the status tree.
func publishState(srv *bgnmi.Server, st *Status, now time.Time) error {
	l := &leafSet{ts: now.UnixNano()}
	root := []*gpb.PathElem{elem("balancer"), elem("state")}
	l.add(root, "site", st.Site)
	l.add(root, "revision", st.Revision.Number)
	l.add(root, "switch-connected", st.Switch.Connected)
	l.add(root, "switch-primary", st.Switch.Primary)
	l.add(root, "switch-stalled", st.Switch.Stalled)
	l.add(root, "switch-stalled-since", st.Switch.StalledSince)
	l.add(root, "switch-pending", st.Switch.Pending)
	l.add(root, "switch-alarm", st.Switch.Alarm)
	l.add(root, "bypass-all", st.Bypass.All)
	for _, k := range st.Links {
		p := []*gpb.PathElem{elem("balancer"), elem("links"), elem("link", "name", k.Name), elem("state")}
		l.add(p, "id", k.ID)
		l.add(p, "lan-up", k.LANUp)
		l.add(p, "wan-up", k.WANUp)
	}
	for _, f := range st.Filters {
		p := []*gpb.PathElem{elem("balancer"), elem("filter-groups"), elem("filter-group", "name", f.Name), elem("state")}
		l.add(p, "state", f.State)
		l.add(p, "reason", f.Reason)
		l.add(p, "since", f.Since)
		l.add(p, "effective", f.Effective)
		l.add(p, "last-pass", f.LastPass)
		l.add(p, "time-of-pass-ns", f.TimeOfPass)
		l.add(p, "losses", f.Losses)
		l.add(p, "passes", f.Passes)
		l.add(p, "consecutive-losses", f.Consecutive)
		l.add(p, "misrouted", f.Misrouted)
		for _, b := range f.TimeOfPassBuckets {
			le := "+Inf"
			if b.UpTo > 0 {
				le = strconv.FormatInt(b.UpTo.Nanoseconds(), 10)
			}
			bp := append(append([]*gpb.PathElem{}, p...), elem("time-of-pass"), elem("bucket", "le", le))
			l.add(bp, "count", b.Count)
		}
	}
	for _, g := range st.Balance {
		p := []*gpb.PathElem{elem("balancer"), elem("balance-groups"), elem("balance-group", "name", g.Name), elem("state")}
		l.add(p, "state", g.State)
		l.add(p, "alive", g.Alive)
		l.add(p, "digest", g.Digest)
	}
	return srv.Update(&gpb.Notification{Timestamp: l.ts, Update: l.ups})
}

// publishCounters publishes the counter tree.
func publishCounters(srv *bgnmi.Server, c *Counters) error {
	l := &leafSet{ts: c.At.UnixNano()}
	for _, k := range c.Links {
		p := []*gpb.PathElem{elem("balancer"), elem("links"), elem("link", "name", k.Name), elem("counters")}
		for name, v := range map[string]PacketBytes{"to-filter": k.ToFilter, "rule-bypass": k.RuleBypass, "non-ip-bypass": k.NonIPBypass,
			"sw-bypass": k.SWBypass, "returned": k.Returned, "heartbeat": k.Heartbeat, "group-bypass": k.GroupBypass, "dropped": k.Dropped} {
			l.add(p, name+"-pkts", v.Packets)
		}
	}
	for _, f := range c.Filters {
		p := []*gpb.PathElem{elem("balancer"), elem("filter-groups"), elem("filter-group", "name", f.Name), elem("counters")}
		for name, v := range map[string]PacketBytes{"to-filter": f.ToFilter, "returned": f.Returned, "keepalive": f.KeepAlive, "sw-bypass": f.SWBypass} {
			l.add(p, name+"-pkts", v.Packets)
		}
	}
	for _, r := range c.Rules {
		p := []*gpb.PathElem{elem("balancer"), elem("rules"), elem("rule", "name", r.Name), elem("counters")}
		l.add(p, "packets", r.Hits.Packets)
		l.add(p, "bytes", r.Hits.Bytes)
	}
	for _, k := range c.Cores {
		p := []*gpb.PathElem{elem("balancer"), elem("cores"), elem("core", "filter-group", k.FilterGroup, "core", strconv.Itoa(int(k.Core))), elem("counters")}
		l.add(p, "packets", k.Hits.Packets)
		l.add(p, "bytes", k.Hits.Bytes)
		l.add(p, "slots", k.Slots)
	}
	if len(l.ups) == 0 {
		return nil
	}
	return srv.Update(&gpb.Notification{Timestamp: l.ts, Update: l.ups})
}

// telemetryLoop feeds the gNMI server and the Prometheus snapshot.
func (d *Daemon) telemetryLoop(ctx context.Context, srv *bgnmi.Server, stateEvery, countersEvery time.Duration) error {
	st := time.NewTicker(stateEvery)
	defer st.Stop()
	ct := time.NewTicker(countersEvery)
	defer ct.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-st.C:
			s, err := d.Status(ctx)
			if err == nil {
				d.metrics.setStatus(s)
				if srv != nil {
					_ = publishState(srv, s, d.now())
				}
			}
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
			d.metrics.setCounters(c)
			if srv != nil {
				_ = publishCounters(srv, c)
			}
		}
	}
}

// metrics is the Prometheus view: a collector over the last snapshots.
type metrics struct {
	mu       sync.Mutex
	status   *Status
	counters *Counters
}

func newMetrics() *metrics { return &metrics{} }

func (m *metrics) setStatus(s *Status) {
	m.mu.Lock()
	m.status = s
	m.mu.Unlock()
}

func (m *metrics) setCounters(c *Counters) {
	m.mu.Lock()
	m.counters = c
	m.mu.Unlock()
}

var (
	descFGUp       = prometheus.NewDesc("balancer_filter_group_up", "1 when the filter group's keep-alives pass (state up or init).", []string{"filter_group", "state", "effective"}, nil)
	descFGLosses   = prometheus.NewDesc("balancer_filter_group_keepalive_losses_total", "Keep-alives lost.", []string{"filter_group"}, nil)
	descFGPasses   = prometheus.NewDesc("balancer_filter_group_keepalive_passes_total", "Keep-alives that crossed the filter.", []string{"filter_group"}, nil)
	descFGTOP      = prometheus.NewDesc("balancer_filter_group_time_of_pass_seconds", "Last keep-alive time of pass.", []string{"filter_group"}, nil)
	descSwitch     = prometheus.NewDesc("balancer_switch_primary", "1 when this daemon is the switch's primary controller.", nil, nil)
	descSwConn     = prometheus.NewDesc("balancer_switch_connected", "1 while the P4Runtime session is connected and answered.", nil, nil)
	descSwStalled  = prometheus.NewDesc("balancer_switch_stalled", "1 when the switch kept its connection open but stopped answering (the session reconnects).", nil, nil)
	descSwPending  = prometheus.NewDesc("balancer_switch_pending", "1 while the desired state is not on the switch (not connected, or a failed write being retried).", nil, nil)
	descBGActive   = prometheus.NewDesc("balancer_balance_group_active", "1 when the balance group balances (not in bypass or drop).", []string{"balance_group"}, nil)
	descLinkPkts   = prometheus.NewDesc("balancer_link_packets_total", "Packets of a link by what happened to them.", []string{"link", "kind"}, nil)
	descFGPkts     = prometheus.NewDesc("balancer_filter_group_packets_total", "Packets of a filter group by kind.", []string{"filter_group", "kind"}, nil)
	descRulePkts   = prometheus.NewDesc("balancer_rule_packets_total", "Packets that hit a flow rule.", []string{"rule"}, nil)
	descCorePkts   = prometheus.NewDesc("balancer_core_packets_total", "Packets sent to a filter core.", []string{"filter_group", "core"}, nil)
	descDropPkts   = prometheus.NewDesc("balancer_dropped_packets_total", "Packets dropped by the data plane, by reason.", []string{"reason"}, nil)
	descPortRxPkts = prometheus.NewDesc("balancer_port_rx_packets_total", "Packets received on a port.", []string{"port"}, nil)
	descPortTxPkts = prometheus.NewDesc("balancer_port_tx_packets_total", "Packets sent out of a port.", []string{"port"}, nil)
)

// Describe implements prometheus.Collector.
func (m *metrics) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descFGUp, descFGLosses, descFGPasses, descFGTOP, descSwitch, descSwConn, descSwStalled, descSwPending, descBGActive,
		descLinkPkts, descFGPkts, descRulePkts, descCorePkts, descDropPkts, descPortRxPkts, descPortTxPkts} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (m *metrics) Collect(ch chan<- prometheus.Metric) {
	m.mu.Lock()
	s, c := m.status, m.counters
	m.mu.Unlock()
	b := func(v bool) float64 {
		if v {
			return 1
		}
		return 0
	}
	if s != nil {
		ch <- prometheus.MustNewConstMetric(descSwitch, prometheus.GaugeValue, b(s.Switch.Primary))
		ch <- prometheus.MustNewConstMetric(descSwConn, prometheus.GaugeValue, b(s.Switch.Connected))
		ch <- prometheus.MustNewConstMetric(descSwStalled, prometheus.GaugeValue, b(s.Switch.Stalled))
		ch <- prometheus.MustNewConstMetric(descSwPending, prometheus.GaugeValue, b(s.Switch.Pending))
		for _, f := range s.Filters {
			ch <- prometheus.MustNewConstMetric(descFGUp, prometheus.GaugeValue, b(f.State == "up" || f.State == "init"), f.Name, f.State, f.Effective)
			ch <- prometheus.MustNewConstMetric(descFGLosses, prometheus.CounterValue, float64(f.Losses), f.Name)
			ch <- prometheus.MustNewConstMetric(descFGPasses, prometheus.CounterValue, float64(f.Passes), f.Name)
			ch <- prometheus.MustNewConstMetric(descFGTOP, prometheus.GaugeValue, f.TimeOfPass.Seconds(), f.Name)
		}
		for _, g := range s.Balance {
			ch <- prometheus.MustNewConstMetric(descBGActive, prometheus.GaugeValue, b(g.State == "active"), g.Name)
		}
	}
	if c != nil {
		for _, k := range c.Links {
			for kind, v := range map[string]PacketBytes{"to_filter": k.ToFilter, "rule_bypass": k.RuleBypass, "non_ip_bypass": k.NonIPBypass,
				"sw_bypass": k.SWBypass, "returned": k.Returned, "heartbeat": k.Heartbeat, "group_bypass": k.GroupBypass, "dropped": k.Dropped} {
				ch <- prometheus.MustNewConstMetric(descLinkPkts, prometheus.CounterValue, float64(v.Packets), k.Name, kind)
			}
		}
		for _, f := range c.Filters {
			for kind, v := range map[string]PacketBytes{"to_filter": f.ToFilter, "returned": f.Returned, "keepalive": f.KeepAlive, "sw_bypass": f.SWBypass} {
				ch <- prometheus.MustNewConstMetric(descFGPkts, prometheus.CounterValue, float64(v.Packets), f.Name, kind)
			}
		}
		for _, r := range c.Rules {
			ch <- prometheus.MustNewConstMetric(descRulePkts, prometheus.CounterValue, float64(r.Hits.Packets), r.Name)
		}
		for _, k := range c.Cores {
			ch <- prometheus.MustNewConstMetric(descCorePkts, prometheus.CounterValue, float64(k.Hits.Packets), k.FilterGroup, strconv.Itoa(int(k.Core)))
		}
		for _, dr := range c.Drops {
			ch <- prometheus.MustNewConstMetric(descDropPkts, prometheus.CounterValue, float64(dr.Count.Packets), dr.Reason)
		}
		for _, p := range c.Ports {
			ch <- prometheus.MustNewConstMetric(descPortRxPkts, prometheus.CounterValue, float64(p.Rx.Packets), p.Name)
			ch <- prometheus.MustNewConstMetric(descPortTxPkts, prometheus.CounterValue, float64(p.Tx.Packets), p.Name)
		}
	}
}
