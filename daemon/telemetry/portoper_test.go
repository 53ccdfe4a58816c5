package telemetry

import (
	"fmt"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/daemon"
)

func TestMetricsPortOperAndStale(t *testing.T) {
	m := newMetrics()
	m.setStatus(&daemon.Status{Stale: true,
		Links:   []daemon.LinkStatus{{Name: "L1", LAN: "P10", WAN: "P9", LANState: daemon.PortUnknown, WANState: daemon.PortUnknown}},
		Filters: []daemon.FilterStatus{{Name: "F1", LAN: "P2", WAN: "P1", LANState: daemon.PortUp, WANState: daemon.PortDown}}})
	reg := prometheus.NewRegistry()
	require.NoError(t, reg.Register(m))
	mfs, err := reg.Gather()
	require.NoError(t, err)
	got := map[string][]string{}
	for _, mf := range mfs {
		for _, mt := range mf.GetMetric() {
			var labels []string
			for _, l := range mt.GetLabel() {
				labels = append(labels, l.GetName()+"="+l.GetValue())
			}
			got[mf.GetName()] = append(got[mf.GetName()], fmt.Sprintf("%s %g", strings.Join(labels, ","), mt.GetGauge().GetValue()))
		}
	}
	assert.ElementsMatch(t, []string{
		"port=P10,state=up 0", "port=P10,state=down 0", "port=P10,state=unknown 1",
		"port=P9,state=up 0", "port=P9,state=down 0", "port=P9,state=unknown 1",
		"port=P2,state=up 1", "port=P2,state=down 0", "port=P2,state=unknown 0",
		"port=P1,state=up 0", "port=P1,state=down 1", "port=P1,state=unknown 0",
	}, got["balancer_port_oper_state"], "one series per state value: labels never change with the state")
	assert.Equal(t, []string{" 1"}, got["balancer_status_stale"])
}
