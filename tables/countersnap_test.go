package tables_test

import (
	"net"
	"net/netip"
	"testing"

	"github.com/gopacket/gopacket/layers"
	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/prototext"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sim/dataplane"
	"github.com/dpi-balancer/balancer/tables"
)

const snapshotSite = `
site: counters
platform: sim
ports:
  - {port: 1, speed: 100G}
  - {port: 2, speed: 100G}
  - {port: 3, speed: 100G}
  - {port: 4, speed: 100G}
links:
  - {name: L1, lan: P2, wan: P1}
filter_groups:
  - {name: F1, lan: P4, wan: P3, cores: 3}
balance_groups:
  - {name: G, members: [F1]}
rules:
  - {name: bgp, priority: 100, match: {proto: tcp, l4_port: 179}, action: bypass}
  - {name: all, priority: 10, action: balance G}
`

// A counter snapshot of the software switch's pipeline counts what was
// sent through it: frames in on a link's LAN port, some bypassed by a
// rule, the others balanced to the filter, each cell read once and
// found by what it counts.
func TestCounterSnapshotOnTheSoftwareSwitch(t *testing.T) {
	schema, err := p4src.Load()
	require.NoError(t, err)
	comp, err := tables.New(schema)
	require.NoError(t, err)
	cfg, err := config.Parse([]byte(snapshotSite))
	require.NoError(t, err)
	d, err := comp.Compile(cfg, tables.State{})
	require.NoError(t, err)
	dp, err := dataplane.New(schema, dataplane.WithClock(func() uint64 { return 1 }))
	require.NoError(t, err)
	for _, b := range comp.Diff(d.Entities, nil).Batches {
		for i, err := range dp.Write(b.Updates, p4v1.WriteRequest_CONTINUE_ON_ERROR) {
			require.NoError(t, err, "%s, update %d", b.Name, i)
		}
	}
	port := func(name string) uint32 {
		n, err := cfg.PortNumber(name)
		require.NoError(t, err)
		return n
	}
	lan, wan, filterLAN := port("P2"), port("P1"), port("P4")

	// 40 flows to port 80 (balanced) and 7 to port 179 (bypassed).
	src, dst := net.HardwareAddr{2, 0, 0, 0, 0, 1}, net.HardwareAddr{2, 0, 0, 0, 0, 2}
	var balanced, bypassed, inBytes uint64
	for i := range 47 {
		dport := uint16(80)
		if i%7 == 0 {
			dport = 179
		}
		f := pipelinecases.Frame(src, dst, pipelinecases.Encap{}, pipelinecases.L3{Src: netip.AddrFrom4([4]byte{10, 0, 0, byte(i)}),
			Dst: netip.AddrFrom4([4]byte{192, 168, 0, 1}), Proto: layers.IPProtocolTCP, SrcPort: uint16(1024 + i), DstPort: dport})
		r := dp.Process(lan, f, make([]byte, 0, len(f)+8))
		require.Equal(t, dataplane.Forward, r.Kind, "frame %d", i)
		if dport == 179 {
			require.Equal(t, wan, r.Port, "frame %d bypassed", i)
			bypassed++
		} else {
			require.Equal(t, filterLAN, r.Port, "frame %d to the filter", i)
			balanced++
		}
		inBytes += uint64(len(f))
	}
	require.Equal(t, uint64(40), balanced)

	req, cores, err := comp.CounterReads(cfg)
	require.NoError(t, err)
	require.Len(t, cores, 3)
	var es []*p4v1.Entity
	require.NoError(t, dp.Read(req, func(e *p4v1.Entity) bool { es = append(es, e); return true }))
	snap := comp.DecodeCounters(es)

	assert.Equal(t, tables.Count{Packets: 47, Bytes: inBytes}, snap.PortRx(lan))
	assert.Zero(t, snap.PortRx(wan))
	assert.Equal(t, balanced, snap.PortTx(filterLAN).Packets)
	assert.Equal(t, bypassed, snap.PortTx(wan).Packets)
	l1 := *cfg.Links[0].ID
	assert.Equal(t, balanced, snap.Link(l1, p4src.LinkCntToFilter).Packets)
	assert.Equal(t, bypassed, snap.Link(l1, p4src.LinkCntRuleBypass).Packets)
	assert.Zero(t, snap.Link(l1, p4src.LinkCntDropped))
	f1 := *cfg.FilterGroups[0].ID
	assert.Equal(t, balanced, snap.FilterGroup(f1, p4src.FGCntToFilter).Packets)
	assert.Zero(t, snap.FilterGroup(f1, p4src.FGCntReturned))
	assert.Zero(t, snap.Verdict(f1, p4src.VerdictCntBypass))
	assert.Equal(t, bypassed, snap.Rule(100).Packets, "rule bgp")
	assert.Equal(t, balanced, snap.Rule(10).Packets, "rule all")
	assert.Zero(t, snap.Rule(50), "no such rule")
	var toCores uint64
	for _, c := range cores {
		toCores += snap.Core(c).Packets
	}
	assert.Equal(t, balanced, toCores, "every balanced frame counted by its core")
	for i := int64(1); i < p4src.DropReasons; i++ {
		assert.Zero(t, snap.Drop(i), "drop reason %s", p4src.DropReasonName(i))
	}

	// The stall guard's evidence: the filter group's two cells alone.
	req, err = comp.FilterTrafficReads([]uint32{f1})
	require.NoError(t, err)
	require.Len(t, req, 2)
	es = nil
	require.NoError(t, dp.Read(req, func(e *p4v1.Entity) bool { es = append(es, e); return true }))
	require.Len(t, es, 2)
	part := comp.DecodeCounters(es)
	assert.Equal(t, snap.FilterGroup(f1, p4src.FGCntToFilter), part.FilterGroup(f1, p4src.FGCntToFilter))
	assert.Zero(t, part.FilterGroup(f1, p4src.FGCntReturned))
	assert.Zero(t, part.PortRx(lan), "not read")
}

// The snapshot's read: one wildcard read per indirect counter (the
// verdict's only on a program that has it), the flow rule tables' direct
// counters, and one cell per configured core.
func TestCounterReads(t *testing.T) {
	for _, load := range []func() (*p4src.Schema, error){p4src.Load, func() (*p4src.Schema, error) { return p4src.LoadArch(p4src.ArchTNA) }} {
		schema, err := load()
		require.NoError(t, err)
		comp, err := tables.New(schema)
		require.NoError(t, err)
		cfg, err := config.Parse([]byte(snapshotSite))
		require.NoError(t, err)
		req, cores, err := comp.CounterReads(cfg)
		require.NoError(t, err)
		names := map[uint32]string{}
		for _, c := range schema.Info.GetCounters() {
			names[c.GetPreamble().GetId()] = c.GetPreamble().GetName()
		}
		var wild []string
		direct := 0
		cells := 0
		for _, e := range req {
			switch {
			case e.GetCounterEntry() != nil && e.GetCounterEntry().GetIndex() == nil:
				wild = append(wild, names[e.GetCounterEntry().GetCounterId()])
			case e.GetCounterEntry() != nil:
				cells++
			case e.GetDirectCounterEntry() != nil:
				direct++
			}
		}
		want := []string{p4src.CounterPortRx, p4src.CounterPortTx, p4src.CounterLink, p4src.CounterFilterGroup, p4src.CounterDrop}
		if schema.HasVerdict() {
			want = append(want, p4src.CounterVerdict)
		}
		assert.Equal(t, want, wild)
		assert.Equal(t, 2, direct)
		assert.Equal(t, 3, cells)
		assert.Len(t, cores, 3)
	}
}

// A P4Info without one of the snapshot's counters still compiles; its
// snapshot read is an error naming the counter.
func TestCounterReadsMissingCounter(t *testing.T) {
	info := &p4configv1.P4Info{}
	require.NoError(t, prototext.Unmarshal(p4src.P4InfoText, info))
	var kept []*p4configv1.Counter
	for _, c := range info.GetCounters() {
		if c.GetPreamble().GetName() != p4src.CounterLink {
			kept = append(kept, c)
		}
	}
	info.Counters = kept
	s, err := p4src.NewSchema(info)
	require.NoError(t, err)
	comp, err := tables.New(s)
	require.NoError(t, err)
	cfg, err := config.Parse([]byte(snapshotSite))
	require.NoError(t, err)
	_, err = comp.Compile(cfg, tables.State{})
	require.NoError(t, err)
	_, _, err = comp.CounterReads(cfg)
	require.Error(t, err)
	assert.Contains(t, err.Error(), p4src.CounterLink)
	_, err = comp.FilterTrafficReads([]uint32{1})
	require.NoError(t, err, "the filter group counter is there")
}

// Cells of counters the snapshot does not know, and entities that are
// no counters, are left out; a cell not answered counts zero.
func TestDecodeCountersLeavesOutOthers(t *testing.T) {
	comp, err := tables.Load()
	require.NoError(t, err)
	snap := comp.DecodeCounters([]*p4v1.Entity{
		{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: 12345, Index: &p4v1.Index{Index: 1},
			Data: &p4v1.CounterData{PacketCount: 9, ByteCount: 900}}}},
		{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: 1}}},
	})
	assert.Zero(t, snap.PortRx(1))
	assert.Zero(t, snap.Drop(1))
	assert.Zero(t, snap.Rule(1))
	assert.Zero(t, snap.Core(tables.Target{}))
}
