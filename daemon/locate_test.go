package daemon

import (
	"fmt"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/symhash"
	"github.com/dpi-balancer/balancer/tables"
)

// locateSite is testdata/locate.yaml (two balance groups; the rules send
// nothing to H) and the program's schema.
func locateSite(t *testing.T) (*config.Config, *p4src.Schema) {
	t.Helper()
	cfg, err := config.Load("testdata/locate.yaml")
	require.NoError(t, err)
	s, err := p4src.Load()
	require.NoError(t, err)
	return cfg, s
}

// TestLocate: the placements read from the software model are the slot
// layouts' targets, with the effect of each availability state.
func TestLocate(t *testing.T) {
	// The rules send nothing to H: locate places a flow in every group
	// all the same.
	cfg, s := locateSite(t)
	comp, err := tables.New(s)
	require.NoError(t, err)
	names := fgNames(cfg)

	// A flow whose base target in G is on F1.
	var src netip.Addr
	dst := netip.MustParseAddr("192.0.2.9")
	des, err := comp.Compile(cfg, tables.State{})
	require.NoError(t, err)
	for i := 1; i < 255 && !src.IsValid(); i++ {
		a := netip.AddrFrom4([4]byte{10, 0, 0, byte(i)})
		if l := des.Layouts[0]; names[l.Base.Slots[symhash.Slot(symhash.Sum(a, dst, 6), l.Base.SlotBits)].FilterGroup] == "F1" {
			src = a
		}
	}
	require.True(t, src.IsValid())

	for _, tt := range []struct {
		name string
		st   tables.State
		want map[string]string // effective by balance group; absent: forward
	}{
		{"all forwarding", tables.State{}, nil},
		{"G in group bypass", tables.State{BalanceGroups: map[string]tables.BalanceGroupState{"G": tables.BGBypass}}, map[string]string{"G": "group bypass"}},
		{"H dropped", tables.State{BalanceGroups: map[string]tables.BalanceGroupState{"H": tables.BGDrop}}, map[string]string{"H": "group drop"}},
		{"F1 in sw-bypass", tables.State{FilterGroups: map[string]tables.FilterGroupState{"F1": tables.FGSWBypass}}, map[string]string{"G": "sw-bypass"}},
		{"F1 dropped", tables.State{FilterGroups: map[string]tables.FilterGroupState{"F1": tables.FGDrop}}, map[string]string{"G": "drop"}},
		{"F1 rebalanced", tables.State{Rebalanced: map[string]bool{"F1": true}}, map[string]string{"G": "rebalanced"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			des, err := comp.Compile(cfg, tt.st)
			require.NoError(t, err)
			got, err := locate(s, cfg, tt.st, src, dst, 6)
			require.NoError(t, err)
			require.Len(t, got, 2)
			for i, l := range des.Layouts {
				p := got[i]
				h := symhash.Sum(src, dst, 6)
				slot := symhash.Slot(h, l.Base.SlotBits)
				base, act := l.Base.Slots[slot], l.Active.Slots[slot]
				assert.Equal(t, l.Name, p.BalanceGroup)
				assert.Equal(t, h, p.Hash)
				assert.Equal(t, slot, p.Slot)
				assert.Equal(t, names[base.FilterGroup], p.FilterGroup, l.Name)
				assert.Equal(t, base.Core, p.Core, l.Name)
				fg := cfg.FilterGroupByName(p.FilterGroup)
				assert.Equal(t, fg.LAN, p.LANPort)
				assert.Equal(t, fg.WAN, p.WANPort)
				want := tt.want[l.Name]
				switch want {
				case "":
					want = "forward"
				case "rebalanced":
					require.NotEqual(t, base, act)
					want = fmt.Sprintf("rebalanced to %s core %d", names[act.FilterGroup], act.Core)
				}
				assert.Equal(t, want, p.Effective, l.Name)
			}
		})
	}

	// IPv6 flows go through the IPv6 table's probe rules.
	got, err := locate(s, cfg, tables.State{}, netip.MustParseAddr("2001:db8::1"), netip.MustParseAddr("2001:db8::2"), 17)
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, "forward", got[1].Effective)
}

// TestLocateNeedsALink: without a link there is no port for the probe.
func TestLocateNeedsALink(t *testing.T) {
	cfg, err := config.Parse([]byte("filter_groups: [{name: F1, lan: P4, wan: P3, cores: 1}]\nbalance_groups: [{name: G, members: [F1]}]\nports: [{port: 3, speed: 100G}, {port: 4, speed: 100G}]\n"))
	require.NoError(t, err)
	s, err := p4src.Load()
	require.NoError(t, err)
	_, err = locate(s, cfg, tables.State{}, netip.MustParseAddr("10.0.0.1"), netip.MustParseAddr("10.0.0.2"), 6)
	assert.ErrorIs(t, err, ErrInvalid)
}

// TestLocateBesideTrace: locates and traces share the model; a traced
// packet that carries a probe VLAN meets the configuration's rules only,
// whatever locates run meanwhile.
func TestLocateBesideTrace(t *testing.T) {
	cfg, s := locateSite(t)
	m, err := compiledModel(s, cfg, tables.State{})
	require.NoError(t, err)
	src, dst := netip.MustParseAddr("10.0.0.1"), netip.MustParseAddr("192.0.2.9")
	// VLAN 2 is H's probe VLAN: the configuration sends this web packet to
	// bypass (rule "web"), a probe would balance it onto H.
	req := TraceRequest{Link: "L1", Side: "lan", VLANs: []uint16{probeVID(1)}, Src: src, Dst: dst, Proto: 6, SrcPort: 1, DstPort: 80}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 50 {
			ps, err := locateRun(m, cfg, src, dst, 6, nil)
			assert.NoError(t, err)
			assert.Len(t, ps, 2)
		}
	}()
	for range 50 {
		r, err := traceModelRun(m, cfg, req, nil)
		require.NoError(t, err)
		require.Equal(t, "web", r.Rule)
		require.Equal(t, "bypass", r.Action)
	}
	<-done
	r, err := traceModelRun(m, cfg, req, nil)
	require.NoError(t, err)
	assert.Equal(t, "web", r.Rule, "the probe rules are out again")
}

// TestLocateFullTables: the probe rules fit beside rules that fill the
// flow tables.
func TestLocateFullTables(t *testing.T) {
	cfg, s := locateSite(t)
	c, err := tables.New(s)
	require.NoError(t, err)
	// 1 + 2 + 1021 IPv6 entries: flow_rules_v6 (1024) is full.
	for i := range 1021 {
		p := config.PrefixFrom(netip.PrefixFrom(netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, byte(i >> 8), byte(i)}), 48))
		cfg.Rules = append(cfg.Rules, config.Rule{Name: fmt.Sprint("v6-", i), Priority: uint32(100 + i), Action: "bypass", Match: config.Match{Dst: &p}})
	}
	des, err := c.Compile(cfg, tables.State{})
	require.NoError(t, err)
	t6, err := s.Table(p4src.TableFlowRulesV6)
	require.NoError(t, err)
	var v6 int
	for _, e := range des.Entities {
		if e.GetTableEntry().GetTableId() == t6.GetPreamble().GetId() {
			v6++
		}
	}
	require.Equal(t, p4src.FlowRulesV6Size, v6)
	got, err := locate(s, cfg, tables.State{}, netip.MustParseAddr("2001:db8:ffff::1"), netip.MustParseAddr("2001:db8:ffff::2"), 6)
	require.NoError(t, err)
	assert.Len(t, got, 2)
}
