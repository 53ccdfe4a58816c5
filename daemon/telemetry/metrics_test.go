package telemetry

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/daemon"
)

// fixtureStatus is a status with every kind of object: F1 up, F2 down and
// bypassed, a balance group, two links.
func fixtureStatus() *daemon.Status {
	t0 := time.Unix(1_700_000_000, 0)
	return &daemon.Status{
		Site:     "lab",
		Revision: daemon.Revision{Number: 7},
		Switch:   daemon.SwitchStatus{Connected: true, Primary: true},
		SessionMemory: &daemon.SessionMemoryStatus{Enabled: true, Held: 3, Size: 65536, Occupied: 3.0 / 65536, Inserted: 5, Evicted: 2,
			Groups: []daemon.SessionMemoryGroup{{Name: "F1", ID: 0, Held: 2}, {Name: "F2", ID: 1, Held: 1}}},
		Links: []daemon.LinkStatus{{Name: "L1", ID: 0, LAN: "P10", WAN: "P9", LANUp: true, WANUp: true, LANState: daemon.PortUp, WANState: daemon.PortUp},
			{Name: "L2", ID: 1, LAN: "P12", WAN: "P11", LANUp: true, WANUp: false, LANState: daemon.PortUp, WANState: daemon.PortDown}},
		Filters: []daemon.FilterStatus{
			{Name: "F1", State: "up", Reason: "keep-alives pass", Since: t0, Effective: "forward", LastPass: t0, TimeOfPass: 40 * time.Microsecond,
				Passes: 10, TimeOfPassSum: 700 * time.Microsecond,
				TimeOfPassBuckets: []daemon.Bucket{{UpTo: 10 * time.Microsecond, Count: 1}, {UpTo: 50 * time.Microsecond, Count: 6}, {UpTo: 100 * time.Microsecond, Count: 3}, {UpTo: 0, Count: 0}},
				RoundTrips:        []daemon.RoundTrip{{Direction: "lan-to-wan", P50: 40 * time.Microsecond, P99: 90 * time.Microsecond, Last: 40 * time.Microsecond, Samples: 10}},
				LossPercent:       2.5, LossRounds: 40,
				FailOpen: &daemon.FailOpenStatus{ProbeEvery: 10, Action: "bypass", Sent: 8, Returned: 2, Dropped: 3, FailedOpen: true,
					Since: t0, Detail: "failed open: probe returned lan-to-wan (on its WAN port 30): the filter passed its payload uninspected"}},
			{Name: "F2", State: "down", Reason: "keep-alive loss", Since: t0, Effective: "sw-bypass", TimeOfPass: 30 * time.Microsecond,
				Losses: 5, Consecutive: 5, TimeOfPassBuckets: []daemon.Bucket{{UpTo: 10 * time.Microsecond, Count: 0}, {UpTo: 0, Count: 2}}, TimeOfPassSum: 2 * time.Second},
			{Name: "F3", State: "up", Reason: "keep-alives pass", Since: t0, Effective: "spare (standby)", Spare: true},
		},
		Balance: []daemon.BalanceGroupStatus{{Name: "G", State: "active", Alive: 1, Digest: "abc", Members: []string{"F1", "F2"}, Spares: []string{"F3"}}},
	}
}

func fixtureCounters() *daemon.Counters {
	pb := func(n uint64) daemon.PacketBytes { return daemon.PacketBytes{Packets: n, Bytes: n * 100} }
	return &daemon.Counters{
		At:      time.Unix(1_700_000_100, 0),
		Ports:   []daemon.PortCounters{{Name: "P1", Number: 10, Rx: pb(5), Tx: pb(6)}},
		Links:   []daemon.LinkCounters{{Name: "L1", ToFilter: pb(1), RuleBypass: pb(2), NonIPBypass: pb(3), SWBypass: pb(4), Returned: pb(5), Heartbeat: pb(6), GroupBypass: pb(7), Dropped: pb(8)}},
		Filters: []daemon.FilterCounters{{Name: "F1", ToFilter: pb(1), Returned: pb(2), KeepAlive: pb(3), SWBypass: pb(4)}},
		Rules:   []daemon.RuleCounters{{Name: "bgp", Hits: pb(9)}},
		Cores:   []daemon.CoreCounters{{FilterGroup: "F1", Core: 2, Slots: 4, Hits: pb(11)}},
		Drops:   []daemon.DropCounter{{Reason: "no core header from a filter", Count: pb(1)}, {Reason: "unknown port", Count: pb(2)}},
	}
}

// noSaveErrors is a daemon that never failed to save its runtime state.
type noSaveErrors struct{}

func (noSaveErrors) RuntimeSaveErrors() uint64 { return 0 }

func fixtureRegistry(t *testing.T, s *daemon.Status) (*prometheus.Registry, *metrics) {
	t.Helper()
	p := New(nil)
	m := p.metrics
	m.setStatus(s)
	m.setCounters(fixtureCounters())
	return p.Registry(noSaveErrors{}), m
}

func gatherText(t *testing.T, reg prometheus.Gatherer) string {
	t.Helper()
	mfs, err := reg.Gather()
	require.NoError(t, err)
	var b bytes.Buffer
	enc := expfmt.NewEncoder(&b, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, mf := range mfs {
		require.NoError(t, enc.Encode(mf))
	}
	return b.String()
}

// The exposition passes the client library's lint (promlint) and, where it
// is installed (Debian package prometheus), `promtool check metrics`.
func TestMetricsLint(t *testing.T) {
	reg, _ := fixtureRegistry(t, fixtureStatus())
	problems, err := testutil.GatherAndLint(reg)
	require.NoError(t, err)
	assert.Empty(t, problems)

	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool not installed (apt-get install prometheus); promlint passed")
	}
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = strings.NewReader(gatherText(t, reg))
	out, err := cmd.CombinedOutput()
	assert.NoError(t, err, "promtool check metrics:\n%s", out)
	assert.Empty(t, strings.TrimSpace(string(out)), "promtool findings")
}

// series returns the label sets of a metric family, as strings.
func series(t *testing.T, reg prometheus.Gatherer, name string) []string {
	t.Helper()
	mfs, err := reg.Gather()
	require.NoError(t, err)
	var out []string
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			var ls []string
			for _, l := range m.GetLabel() {
				ls = append(ls, l.GetName()+"="+l.GetValue())
			}
			out = append(out, strings.Join(ls, ","))
		}
	}
	slices.Sort(out)
	return out
}

// A state change moves the 1 between series; the set of series (and so
// every label) stays the same, so alert `for:` timers are not reset.
func TestMetricsStableStateSeries(t *testing.T) {
	st := fixtureStatus()
	reg, m := fixtureRegistry(t, st)
	before := map[string][]string{}
	names := []string{"balancer_filter_group_state", "balancer_filter_group_effective", "balancer_filter_group_up", "balancer_balance_group_state"}
	for _, n := range names {
		before[n] = series(t, reg, n)
		require.NotEmpty(t, before[n], n)
	}
	assert.Contains(t, gatherText(t, reg), `balancer_filter_group_state{filter_group="F2",state="down"} 1`)
	assert.Contains(t, gatherText(t, reg), `balancer_filter_group_state{filter_group="F2",state="up"} 0`)
	assert.Contains(t, gatherText(t, reg), `balancer_filter_group_effective{effective="sw_bypass",filter_group="F2"} 1`)

	changed := fixtureStatus()
	changed.Filters[0].State, changed.Filters[0].Effective = "admin-bypass", "sw-bypass"
	changed.Filters[1].State, changed.Filters[1].Effective = "up", "forward"
	changed.Balance[0].State = "bypass"
	m.setStatus(changed)
	for _, n := range names {
		assert.Equal(t, before[n], series(t, reg, n), "%s: same series after the change", n)
	}
	text := gatherText(t, reg)
	assert.Contains(t, text, `balancer_filter_group_state{filter_group="F1",state="admin_bypass"} 1`)
	assert.Contains(t, text, `balancer_filter_group_state{filter_group="F2",state="down"} 0`)
	assert.Contains(t, text, `balancer_balance_group_state{balance_group="G",state="bypass"} 1`)

	// F2's share carried by its spare F3: fixed label values, not the
	// status's words (which name the other filter group).
	spareNames := []string{"balancer_filter_group_spare_state", "balancer_filter_group_spare_carries", "balancer_filter_group_spared"}
	for _, n := range spareNames {
		before[n] = series(t, reg, n)
		require.NotEmpty(t, before[n], n)
	}
	text = gatherText(t, reg)
	assert.Contains(t, text, `balancer_filter_group_spare_state{filter_group="F3",state="standby"} 1`)
	assert.Contains(t, text, `balancer_filter_group_spare_carries{filter_group="F3",member="F2"} 0`)
	assert.Contains(t, text, `balancer_filter_group_effective{effective="spare_standby",filter_group="F3"} 1`)
	changed.Filters[1].State, changed.Filters[1].Effective, changed.Filters[1].SparedTo = "down", "spared to F3", "F3"
	changed.Filters[2].Effective, changed.Filters[2].SpareFor = "spare for F2", "F2"
	m.setStatus(changed)
	for _, n := range append(names, spareNames...) {
		assert.Equal(t, before[n], series(t, reg, n), "%s: same series while the spare carries a share", n)
	}
	text = gatherText(t, reg)
	assert.Contains(t, text, `balancer_filter_group_spare_state{filter_group="F3",state="active"} 1`)
	assert.Contains(t, text, `balancer_filter_group_spare_state{filter_group="F3",state="standby"} 0`)
	assert.Contains(t, text, `balancer_filter_group_spare_carries{filter_group="F3",member="F2"} 1`)
	assert.Contains(t, text, `balancer_filter_group_spare_carries{filter_group="F3",member="F1"} 0`)
	assert.Contains(t, text, `balancer_filter_group_spared{filter_group="F2"} 1`)
	assert.Contains(t, text, `balancer_filter_group_spared{filter_group="F1"} 0`)
	assert.Contains(t, text, `balancer_filter_group_effective{effective="spared",filter_group="F2"} 1`)
	assert.Contains(t, text, `balancer_filter_group_effective{effective="spare_active",filter_group="F3"} 1`)
	assert.NotContains(t, text, `spared_to`, "no label made of the status's words")
	changed.Filters[1].SparedTo, changed.Filters[2].SpareFor, changed.Filters[2].Effective = "", "", "spare (standby)"

	// Recovered, waiting for return (manual failback): a state of its own.
	changed.Filters[1].State, changed.Filters[1].Effective = "recovered", "sw-bypass"
	m.setStatus(changed)
	for _, n := range names {
		assert.Equal(t, before[n], series(t, reg, n), "%s: same series after the change", n)
	}
	text = gatherText(t, reg)
	assert.Contains(t, text, `balancer_filter_group_state{filter_group="F2",state="recovered"} 1`)
	assert.Contains(t, text, `balancer_filter_group_state{filter_group="F2",state="down"} 0`)
	assert.Contains(t, text, `balancer_filter_group_up{filter_group="F2"} 0`)
}

// Every label value the daemon chooses (kinds, states, reasons, sides) is
// snake_case; object names (F1, P1, bgp) are the operator's.
func TestMetricsSnakeCaseLabels(t *testing.T) {
	reg, _ := fixtureRegistry(t, fixtureStatus())
	mfs, err := reg.Gather()
	require.NoError(t, err)
	snakeRE := regexp.MustCompile(`^[a-z0-9]+(_[a-z0-9]+)*$`)
	ours := map[string]bool{"kind": true, "state": true, "effective": true, "reason": true, "side": true}
	seen := map[string]bool{}
	for _, mf := range mfs {
		if !strings.HasPrefix(mf.GetName(), "balancer_") {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if ours[l.GetName()] {
					seen[l.GetName()] = true
					assert.Regexp(t, snakeRE, l.GetValue(), "%s{%s}", mf.GetName(), l.GetName())
				}
			}
		}
	}
	assert.Len(t, seen, len(ours), "every daemon-chosen label was checked")
	assert.Contains(t, gatherText(t, reg), `balancer_dropped_packets_total{reason="no_core_header_from_a_filter"} 1`)
}

// Bytes beside packets; the histogram is a real, cumulative histogram; the
// last time of pass is absent while a group is not up; build info, Go and
// process collectors, switch connection and revision are there.
func TestMetricsContent(t *testing.T) {
	reg, _ := fixtureRegistry(t, fixtureStatus())
	mfs, err := reg.Gather()
	require.NoError(t, err)
	fams := map[string]*dto.MetricFamily{}
	for _, mf := range mfs {
		fams[mf.GetName()] = mf
	}
	for name := range fams {
		if strings.HasPrefix(name, "balancer_") && strings.HasSuffix(name, "_packets_total") {
			bytesName := strings.TrimSuffix(name, "_packets_total") + "_bytes_total"
			assert.Contains(t, fams, bytesName, "bytes beside %s", name)
		}
	}
	for _, name := range []string{"balancer_build_info", "go_goroutines", "process_cpu_seconds_total",
		"balancer_switch_connected", "balancer_running_revision"} {
		assert.Contains(t, fams, name)
	}
	text := gatherText(t, reg)
	assert.Contains(t, text, "balancer_switch_connected 1")
	assert.Contains(t, text, "balancer_running_revision 7")

	h := fams["balancer_filter_group_time_of_pass_seconds"]
	require.NotNil(t, h)
	assert.Equal(t, dto.MetricType_HISTOGRAM, h.GetType())
	for _, m := range h.GetMetric() {
		if m.GetLabel()[0].GetValue() != "F1" {
			continue
		}
		hist := m.GetHistogram()
		assert.Equal(t, uint64(10), hist.GetSampleCount())
		assert.InDelta(t, 0.0007, hist.GetSampleSum(), 1e-12)
		var cum []uint64
		for _, b := range hist.GetBucket() {
			cum = append(cum, b.GetCumulativeCount())
		}
		assert.Equal(t, []uint64{1, 7, 10}, cum, "cumulative buckets 10us, 50us, 100us")
	}
	assert.Contains(t, text, `balancer_filter_group_last_time_of_pass_seconds{filter_group="F1"} 4e-05`)
	assert.NotContains(t, text, `balancer_filter_group_last_time_of_pass_seconds{filter_group="F2"}`, "no stale value while down")
	assert.Contains(t, text, `balancer_filter_group_round_trip_p50_seconds{direction="lan-to-wan",filter_group="F1"} 4e-05`)
	assert.Contains(t, text, `balancer_filter_group_round_trip_p99_seconds{direction="lan-to-wan",filter_group="F1"} 9e-05`)
	assert.NotContains(t, text, `balancer_filter_group_round_trip_p50_seconds{direction="lan-to-wan",filter_group="F2"}`, "none measured")
	assert.Contains(t, text, `balancer_filter_group_keepalive_loss_percent{filter_group="F1"} 2.5`)
	assert.NotContains(t, text, `balancer_filter_group_keepalive_loss_percent{filter_group="F2"}`, "no max_loss")
	assert.Contains(t, text, `balancer_filter_group_failed_open{filter_group="F1"} 1`)
	assert.Contains(t, text, `balancer_filter_group_fail_open_probes_total{filter_group="F1",kind="sent"} 8`)
	assert.Contains(t, text, `balancer_filter_group_fail_open_probes_total{filter_group="F1",kind="returned"} 2`)
	assert.Contains(t, text, `balancer_filter_group_fail_open_probes_total{filter_group="F1",kind="dropped"} 3`)
	assert.NotContains(t, text, `balancer_filter_group_failed_open{filter_group="F2"}`, "no probes")
}

// Every query of the shipped Grafana dashboard names a metric the daemon
// exports.
func TestGrafanaDashboard(t *testing.T) {
	raw, err := os.ReadFile("../../deploy/grafana/balancer.json")
	require.NoError(t, err)
	var dash any
	require.NoError(t, json.Unmarshal(raw, &dash))
	var exprs []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				if s, ok := c.(string); ok && (k == "expr" || (k == "query" && strings.Contains(s, "balancer_"))) {
					exprs = append(exprs, s)
				}
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(dash)
	require.NotEmpty(t, exprs)

	reg, _ := fixtureRegistry(t, fixtureStatus())
	mfs, err := reg.Gather()
	require.NoError(t, err)
	exported := map[string]bool{}
	for _, mf := range mfs {
		exported[mf.GetName()] = true
		if mf.GetType() == dto.MetricType_HISTOGRAM {
			for _, s := range []string{"_bucket", "_sum", "_count"} {
				exported[mf.GetName()+s] = true
			}
		}
	}
	nameRE := regexp.MustCompile(`\b((?:balancer|go|process)_[a-z0-9_]+)`)
	for _, e := range exprs {
		names := nameRE.FindAllString(e, -1)
		assert.NotEmpty(t, names, "query %q names no metric", e)
		for _, n := range names {
			assert.True(t, exported[n], "query %q: %s is not exported", e, n)
		}
	}
}
