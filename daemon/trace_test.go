package daemon

import (
	"encoding/hex"
	"fmt"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/internal/testsites"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/symhash"
	"github.com/dpi-balancer/balancer/tables"
)

func siteDesired(t *testing.T, st tables.State) (*p4src.Schema, *config.Config, *tables.Desired) {
	t.Helper()
	cfg, err := config.Load("../examples/site.yaml")
	require.NoError(t, err)
	s, err := p4src.Load()
	require.NoError(t, err)
	c, err := tables.New(s)
	require.NoError(t, err)
	d, err := c.Compile(cfg, st)
	require.NoError(t, err)
	return s, cfg, d
}

func TestTrace(t *testing.T) {
	s, cfg, des := siteDesired(t, tables.State{})
	a, b := netip.MustParseAddr("10.1.2.3"), netip.MustParseAddr("192.0.2.9")
	tests := []struct {
		name    string
		req     TraceRequest
		rule    string
		verdict string
		out     string
	}{
		{"bgp bypassed", TraceRequest{Link: "L1", Side: "lan", Src: a, Dst: b, Proto: 6, SrcPort: 30000, DstPort: 179}, "bgp", "bypass by rule", "P41"},
		{"multicast bypassed", TraceRequest{Link: "L2", Side: "wan", Src: a, Dst: netip.MustParseAddr("239.1.1.1"), Proto: 17}, "multicast", "bypass by rule", "P10"},
		{"untagged falls to the catch-all", TraceRequest{Link: "L1", Side: "lan", Src: a, Dst: b, Proto: 6, SrcPort: 1, DstPort: 80}, "default", "bypass by rule", "P41"},
		{"vlan 105 balanced", TraceRequest{Link: "L1", Side: "lan", VLANs: []uint16{105}, Src: a, Dst: b, Proto: 6, SrcPort: 1, DstPort: 80}, "vlan-balanced", "to filter", ""},
		{"non-IP in vlan 1", TraceRequest{Link: "L2", Side: "lan", VLANs: []uint16{1}, EtherType: 0x0806}, "vlan-balanced", "non-IP bypass", "P9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := trace(s, cfg, tables.State{}, tt.req)
			require.NoError(t, err)
			assert.Equal(t, tt.rule, r.Rule, "%v", r.Steps)
			assert.Equal(t, tt.verdict, r.Verdict, "%v", r.Steps)
			if tt.out != "" {
				assert.Equal(t, tt.out, r.OutPort)
			}
		})
	}

	// A balanced session: where the Go model says, on the LAN side, with
	// the header carrying link L1 (id 0) and the core.
	req := TraceRequest{Link: "L1", Side: "lan", VLANs: []uint16{100}, Src: a, Dst: b, Proto: 17, SrcPort: 5, DstPort: 6}
	r, err := trace(s, cfg, tables.State{}, req)
	require.NoError(t, err)
	slot := symhash.Slot(symhash.Sum(a, b, 17), 12)
	assert.Equal(t, slot, r.Slot)
	tg := des.Layouts[0].Base.Slots[slot]
	fg := cfg.FilterGroups[tg.FilterGroup]
	assert.Equal(t, fg.Name, r.FilterGroup)
	assert.Equal(t, tg.Core, r.Core)
	assert.Equal(t, fg.LAN, r.OutPort)
	assert.Equal(t, fmtHeader(0x88b5, 0, tg.Core), r.HeaderHex)

	// The reply from the WAN side lands on the same filter and core.
	rev := TraceRequest{Link: "L1", Side: "wan", VLANs: []uint16{100}, Src: b, Dst: a, Proto: 17, SrcPort: 6, DstPort: 5}
	r2, err := trace(s, cfg, tables.State{}, rev)
	require.NoError(t, err)
	assert.Equal(t, r.FilterGroup, r2.FilterGroup)
	assert.Equal(t, r.Core, r2.Core)
	assert.Equal(t, fg.WAN, r2.OutPort)

	// That filter in software bypass: out of the peer port.
	st := tables.State{FilterGroups: map[string]tables.FilterGroupState{fg.Name: tables.FGSWBypass}}
	r3, err := trace(s, cfg, st, req)
	require.NoError(t, err)
	assert.Equal(t, "sw-bypass", r3.Verdict)
	assert.Equal(t, "P41", r3.OutPort)

	_, err = trace(s, cfg, tables.State{}, TraceRequest{Link: "nope", Side: "lan"})
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = trace(s, cfg, tables.State{}, TraceRequest{Link: "L1", Side: "up"})
	assert.ErrorIs(t, err, ErrInvalid)
}

func fmtHeader(tpid uint16, link, core uint32) string {
	return hex.EncodeToString(wire.CoreHeader{TPID: tpid, Link: link, Core: core}.Append(nil))
}

// BenchmarkTraceBigSite measures a trace on the benchmark site (1,000
// rules, two balance groups of 2^16 slots): "load" is the first trace
// after the desired entries changed (the model is loaded), "cached" every
// later one; "locate" a locate on the cached model (probe rules in and
// out, a probe per balance group).
func BenchmarkTraceBigSite(b *testing.B) {
	cfg, err := testsites.Big(16)
	require.NoError(b, err)
	info, err := testsites.TofinoSizedP4Info()
	require.NoError(b, err)
	s, err := p4src.NewSchema(info)
	require.NoError(b, err)
	c, err := tables.New(s)
	require.NoError(b, err)
	des, err := c.Compile(cfg, tables.State{})
	require.NoError(b, err)
	req := TraceRequest{Link: "L1", Side: "lan", Src: netip.MustParseAddr("10.0.0.9"), Dst: netip.MustParseAddr("192.0.2.1"),
		Proto: 6, SrcPort: 1, DstPort: 1000}
	b.Run("load", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := newTraceModel(s, cfg, des); err != nil {
				b.Fatal(err)
			}
		}
	})
	var cache traceCache
	build := func() (*traceModel, error) { return newTraceModel(s, cfg, des) }
	_, err = cache.model(des, build)
	require.NoError(b, err)
	for _, run := range []struct {
		name string
		run  func(m *traceModel) error
	}{
		{"cached", func(m *traceModel) error {
			if r, err := traceModelRun(m, cfg, req, nil); err != nil || r.Verdict != "to filter" {
				return fmt.Errorf("%v %+v", err, r)
			}
			return nil
		}},
		{"locate", func(m *traceModel) error {
			if ps, err := locateRun(m, cfg, req.Src, req.Dst, req.Proto, nil); err != nil || len(ps) != len(cfg.BalanceGroups) {
				return fmt.Errorf("%v %+v", err, ps)
			}
			return nil
		}},
	} {
		b.Run(run.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m, err := cache.model(des, build)
				if err != nil {
					b.Fatal(err)
				}
				if err := run.run(m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestTraceCache: the model is loaded once per desired state.
func TestTraceCache(t *testing.T) {
	s, cfg, des := siteDesired(t, tables.State{})
	var c traceCache
	build := func(des *tables.Desired) func() (*traceModel, error) {
		return func() (*traceModel, error) { return newTraceModel(s, cfg, des) }
	}
	m1, err := c.model(des, build(des))
	require.NoError(t, err)
	m2, err := c.model(des, build(des))
	require.NoError(t, err)
	assert.Same(t, m1, m2)
	_, _, des2 := siteDesired(t, tables.State{})
	m3, err := c.model(des2, build(des2))
	require.NoError(t, err)
	assert.NotSame(t, m1, m3, "new desired entries, new model")
}

// TestTraceRefusesUnbuildablePackets: values the frame cannot carry are an
// invalid request, not a crash.
func TestTraceRefusesUnbuildablePackets(t *testing.T) {
	s, cfg, _ := siteDesired(t, tables.State{})
	a, b := netip.MustParseAddr("10.1.2.3"), netip.MustParseAddr("192.0.2.9")
	for _, req := range []TraceRequest{
		{Link: "L1", Side: "lan", VLANs: []uint16{5000}, Src: a, Dst: b, Proto: 6},
		{Link: "L1", Side: "lan", MPLS: []uint32{1 << 21}, Src: a, Dst: b, Proto: 6},
	} {
		_, err := trace(s, cfg, tables.State{}, req)
		assert.ErrorIs(t, err, ErrInvalid, "%+v", req)
	}
}
