package telemetry

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/dpi-balancer/balancer/daemon"
	bgnmi "github.com/dpi-balancer/balancer/gnmi"
)

// Telemetry paths (docs/telemetry.md):
//
//	/balancer/state/{name,site,revision,revision-by,revision-comment,switch-connected,switch-primary,bypass-all}
//	/balancer/state/{switch-stalled,switch-stalled-since,switch-pending,switch-alarm,switch-port-alarms}
//	/balancer/state/pipeline-verdict
//	/balancer/links/link[name=L]/state/{id,lan-up,wan-up,lan-oper,wan-oper}
//	/balancer/links/link[name=L]/counters/{to-filter,rule-bypass,non-ip-bypass,sw-bypass,returned,heartbeat,group-bypass,dropped}-{pkts,bytes}
//	/balancer/filter-groups/filter-group[name=F]/state/{state,reason,since,effective,last-pass,time-of-pass-ns,losses,passes,consecutive-losses,misrouted}
//	/balancer/filter-groups/filter-group[name=F]/state/{verdict,verdict-epoch,verdict-disagreements}
//	/balancer/filter-groups/filter-group[name=F]/state/time-of-pass/{count,sum-ns}
//	/balancer/filter-groups/filter-group[name=F]/state/time-of-pass/bucket[le=NS]/count   (cumulative)
//	/balancer/filter-groups/filter-group[name=F]/counters/{to-filter,returned,keepalive,sw-bypass}-{pkts,bytes}
//	/balancer/balance-groups/balance-group[name=G]/state/{state,alive,digest}
//	/balancer/rules/rule[name=R]/counters/{packets,bytes}
//	/balancer/cores/core[filter-group=F][core=N]/counters/{packets,bytes,slots}
//	/balancer/alarms/alarm[name=N]/state/{raised,object,message,remedy,since,acknowledge}
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
	case float64:
		tv = &gpb.TypedValue{Value: &gpb.TypedValue_DoubleVal{DoubleVal: x}}
	default:
		tv = &gpb.TypedValue{Value: &gpb.TypedValue_StringVal{StringVal: fmt.Sprint(x)}}
	}
	l.ups = append(l.ups, &gpb.Update{Path: &gpb.Path{Elem: p}, Val: tv})
}

// publishState publishes the status tree. Each part of the tree is one
// function below; a new part is one more line here.
func publishState(srv *bgnmi.Server, st *daemon.Status, now time.Time) error {
	l := &leafSet{ts: now.UnixNano()}
	for _, part := range []func(*leafSet, *daemon.Status){stateRoot, stateLinks, stateFilterGroups, stateBalanceGroups, stateAlarms} {
		part(l, st)
	}
	return srv.Update(&gpb.Notification{Timestamp: l.ts, Update: l.ups})
}

func stateRoot(l *leafSet, st *daemon.Status) {
	root := []*gpb.PathElem{elem("balancer"), elem("state")}
	l.add(root, "name", st.Daemon.Name)
	l.add(root, "site", st.Site)
	l.add(root, "revision", st.Revision.Number)
	l.add(root, "revision-by", st.Revision.By)
	l.add(root, "revision-comment", st.Revision.Comment)
	l.add(root, "switch-connected", st.Switch.Connected)
	l.add(root, "switch-primary", st.Switch.Primary)
	l.add(root, "switch-stalled", st.Switch.Stalled)
	l.add(root, "switch-stalled-since", st.Switch.StalledSince)
	l.add(root, "switch-pending", st.Switch.Pending)
	l.add(root, "switch-alarm", st.Switch.Alarm)
	l.add(root, "switch-port-alarms", strings.Join(st.Switch.PortAlarms, "\n"))
	l.add(root, "switch-other-primary", st.Switch.OtherPrimary)
	l.add(root, "pipeline-verdict", st.Switch.PipelineVerdict)
	l.add(root, "bypass-all", st.Bypass.All)
}

func stateLinks(l *leafSet, st *daemon.Status) {
	for _, k := range st.Links {
		p := []*gpb.PathElem{elem("balancer"), elem("links"), elem("link", "name", k.Name), elem("state")}
		l.add(p, "id", k.ID)
		l.add(p, "lan-up", k.LANUp)
		l.add(p, "wan-up", k.WANUp)
		l.add(p, "lan-oper", k.LANState)
		l.add(p, "wan-oper", k.WANState)
	}
}

func stateFilterGroups(l *leafSet, st *daemon.Status) {
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
		l.add(p, "verdict", f.Verdict)
		l.add(p, "verdict-epoch", uint64(f.VerdictEpoch))
		l.add(p, "verdict-disagreements", f.VerdictDisagreements)
		// The histogram is cumulative, as its le key says: bucket[le=X]
		// counts every time of pass up to X, bucket[le=+Inf] all of them.
		tp := append(append([]*gpb.PathElem{}, p...), elem("time-of-pass"))
		var cum uint64
		for _, b := range f.TimeOfPassBuckets {
			cum += b.Count
			l.add(append(append([]*gpb.PathElem{}, tp...), elem("bucket", "le", leLabel(b.UpTo))), "count", cum)
		}
		l.add(tp, "count", cum)
		l.add(tp, "sum-ns", f.TimeOfPassSum)
		// The recent round trips of each direction probed (by the data
		// plane's clock), and the loss over the profile's loss_window.
		for _, r := range f.RoundTrips {
			rp := append(append([]*gpb.PathElem{}, p...), elem("round-trip", "direction", r.Direction))
			l.add(rp, "p50-ns", r.P50)
			l.add(rp, "p99-ns", r.P99)
			l.add(rp, "last-ns", r.Last)
			l.add(rp, "samples", uint64(r.Samples))
		}
		l.add(p, "loss-percent", f.LossPercent)
		l.add(p, "loss-rounds", uint64(f.LossRounds))
		// Fail-open probes (the profile's probe_payload).
		if fo := f.FailOpen; fo != nil {
			fp := append(append([]*gpb.PathElem{}, p...), elem("fail-open"))
			l.add(fp, "failed-open", fo.FailedOpen)
			l.add(fp, "detail", fo.Detail)
			l.add(fp, "since", fo.Since)
			l.add(fp, "action", fo.Action)
			l.add(fp, "probe-every", uint64(fo.ProbeEvery))
			l.add(fp, "probes-sent", fo.Sent)
			l.add(fp, "probes-returned", fo.Returned)
			l.add(fp, "probe-rounds-dropped", fo.Dropped)
		}
	}
}

func stateBalanceGroups(l *leafSet, st *daemon.Status) {
	for _, g := range st.Balance {
		p := []*gpb.PathElem{elem("balancer"), elem("balance-groups"), elem("balance-group", "name", g.Name), elem("state")}
		l.add(p, "state", g.State)
		l.add(p, "alive", g.Alive)
		l.add(p, "digest", g.Digest)
		l.add(p, "keepalive-stall-suspected", g.KeepAliveStall)
	}
}

// stateAlarms publishes every alarm the daemon raises, raised or not (its
// leaves never come and go; an alarm not raised has raised false and
// empty text).
func stateAlarms(l *leafSet, st *daemon.Status) {
	raised := map[string]daemon.Alarm{}
	for _, a := range st.Alarms {
		raised[a.Name] = a
	}
	for _, n := range daemon.AlarmNames {
		a, on := raised[n]
		p := []*gpb.PathElem{elem("balancer"), elem("alarms"), elem("alarm", "name", n), elem("state")}
		l.add(p, "raised", on)
		l.add(p, "object", a.Object)
		l.add(p, "message", a.Message)
		l.add(p, "remedy", a.Remedy)
		l.add(p, "since", a.Since)
		l.add(p, "acknowledge", a.Acknowledge)
	}
}

// leLabel is a bucket's upper bound in nanoseconds ("+Inf" for 0).
func leLabel(upTo time.Duration) string {
	if upTo <= 0 {
		return "+Inf"
	}
	return strconv.FormatInt(upTo.Nanoseconds(), 10)
}

// publishCounters publishes the counter tree.
func publishCounters(srv *bgnmi.Server, c *daemon.Counters) error {
	l := &leafSet{ts: c.At.UnixNano()}
	for _, k := range c.Links {
		p := []*gpb.PathElem{elem("balancer"), elem("links"), elem("link", "name", k.Name), elem("counters")}
		for _, kv := range linkKinds(k) {
			l.add(p, kv.name+"-pkts", kv.v.Packets)
			l.add(p, kv.name+"-bytes", kv.v.Bytes)
		}
	}
	for _, f := range c.Filters {
		p := []*gpb.PathElem{elem("balancer"), elem("filter-groups"), elem("filter-group", "name", f.Name), elem("counters")}
		for _, kv := range filterKinds(f) {
			l.add(p, kv.name+"-pkts", kv.v.Packets)
			l.add(p, kv.name+"-bytes", kv.v.Bytes)
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

// kindCount is one counter of an object by kind; the kind is the gNMI leaf
// prefix (to-filter) and, in snake_case, the Prometheus kind label.
type kindCount struct {
	name string
	v    daemon.PacketBytes
}

func linkKinds(k daemon.LinkCounters) []kindCount {
	return []kindCount{{"to-filter", k.ToFilter}, {"rule-bypass", k.RuleBypass}, {"non-ip-bypass", k.NonIPBypass},
		{"sw-bypass", k.SWBypass}, {"returned", k.Returned}, {"heartbeat", k.Heartbeat}, {"group-bypass", k.GroupBypass}, {"dropped", k.Dropped}}
}

func filterKinds(f daemon.FilterCounters) []kindCount {
	return []kindCount{{"to-filter", f.ToFilter}, {"returned", f.Returned}, {"keepalive", f.KeepAlive}, {"sw-bypass", f.SWBypass},
		{"verdict-bypass", f.VerdictBypass}, {"verdict-drop", f.VerdictDrop}}
}

// Model is the model the daemon's gNMI server serves (the /balancer tree
// of docs/telemetry.md), announced by Capabilities.
func Model() *gpb.ModelData {
	return &gpb.ModelData{Name: "balancer-telemetry", Organization: "dpi-balancer", Version: "1.0.0"}
}

// NewServer returns the daemon's gNMI telemetry server: target
// "balancer", announcing Model, which is all it serves.
func NewServer(opts ...bgnmi.ServerOption) *bgnmi.Server {
	return bgnmi.NewServer("balancer", append([]bgnmi.ServerOption{bgnmi.WithModels(Model())}, opts...)...)
}
