package daemon

import (
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/sim"
	"github.com/dpi-balancer/balancer/sim/frames"
)

// countersSite has a path for every counter `balancer counters` prints:
// two links, a forwarding filter (F1, F3), a filter in manual bypass (F2),
// a failed filter whose failure action is drop (F4), a balance group in
// bypass (G3: its only filter failed) and one dropping (G4), a bypass
// rule, a balance rule with a "not" exception, an IPv6 rule, a catch-all
// that non-IP frames hit, and heartbeats. Keep-alives run every %s: the
// test brings the filters up at 20ms, then applies one minute, so that no
// keep-alive crosses the switch while it counts.
const countersSite = `
site: counters
platform: sim
defaults:
  heartbeat:
    - ethertype: 0x88B7
ports:
%[1]s
links:
  - {name: L1, lan: P2, wan: P1}
  - {name: L2, lan: P10, wan: P9}
filter_groups:
  - {name: F1, lan: P4, wan: P3, cores: 2}
  - {name: F2, lan: P6, wan: P5, cores: 2}
  - {name: F3, lan: P8, wan: P7, cores: 2}
  - {name: F4, lan: P12, wan: P11, cores: 1}
  - {name: F5, lan: P14, wan: P13, cores: 1}
  - {name: F6, lan: P16, wan: P15, cores: 1}
profiles:
  - {name: slow, initial_delay: 10ms, interval: %[2]s, loss_threshold: 3, recovery_threshold: 1, min_active: 1, failure_action: bypass}
  - {name: slowdrop, initial_delay: 10ms, interval: %[2]s, loss_threshold: 3, recovery_threshold: 1, min_active: 1, failure_action: drop}
balance_groups:
  - {name: G1, members: [F1, F2], profile: slow, slot_bits: 4}
  - {name: G2, members: [F3, F4], profile: slowdrop, slot_bits: 4}
  - {name: G3, members: [F5], profile: slow, slot_bits: 4}
  - {name: G4, members: [F6], profile: slowdrop, slot_bits: 4}
rules:
  - {name: dns, priority: 100, match: {proto: udp, l4_dst: 53}, action: bypass}
  - name: web
    priority: 50
    match: {proto: tcp, l4_dst: 80}
    not: [{src: 10.9.0.0/16}]
    action: balance G1
  - {name: web6, priority: 49, match: {dst: "2001:db8::/32"}, action: balance G1}
  - {name: g2, priority: 40, match: {src: 10.2.0.0/16}, action: balance G2}
  - {name: g3, priority: 30, match: {src: 10.3.0.0/16}, action: balance G3}
  - {name: g4, priority: 20, match: {src: 10.4.0.0/16}, action: balance G4}
  - {name: rest, priority: 1, action: balance G1}
`

// framePort is the far end of a switch port: an in-memory peer of the
// software switch, or a raw socket on the host end of a veth.
type framePort interface {
	Send(frame []byte) error
	Recv(timeout time.Duration) ([]byte, error)
}

// portPeer is the far end of one switch port: it counts every frame it
// sends into the switch and every frame the switch sends out of the port.
type portPeer struct {
	name               string
	peer               framePort
	mu                 sync.Mutex
	rxPkts, rxBytes    uint64 // into the switch (the port's Rx)
	txPkts             uint64 // out of the switch (the port's Tx)
	keepAlives         uint64 // keep-alives among txPkts
	passedKeepAlives   uint64 // keep-alives among txPkts passed back (a filter)
	cores              map[uint32]uint64
	pass               *portPeer // a filter: passes what it gets to pass
	alive              atomic.Bool
	keepAliveEtherType uint16
}

func (p *portPeer) send(t testing.TB, f []byte) {
	t.Helper()
	require.NoError(t, p.peer.Send(f), "sending into %s", p.name)
	p.mu.Lock()
	p.rxPkts++
	p.rxBytes += uint64(len(f))
	p.mu.Unlock()
}

func (p *portPeer) run(ctx context.Context, tpid uint16) {
	for ctx.Err() == nil {
		f, err := p.peer.Recv(20 * time.Millisecond)
		if err != nil {
			continue
		}
		p.mu.Lock()
		p.txPkts++
		if len(f) >= 14 && binary.BigEndian.Uint16(f[12:]) == p.keepAliveEtherType {
			p.keepAlives++
		}
		if len(f) >= 18 && binary.BigEndian.Uint16(f[12:]) == tpid {
			h, _ := wire.ParseCoreHeader(f[12:])
			p.cores[h.Core]++
		}
		p.mu.Unlock()
		if p.pass != nil && p.alive.Load() {
			if p.pass.peer.Send(f) == nil {
				p.pass.mu.Lock()
				p.pass.rxPkts++
				p.pass.rxBytes += uint64(len(f))
				p.pass.mu.Unlock()
				if len(f) >= 14 && binary.BigEndian.Uint16(f[12:]) == p.keepAliveEtherType {
					p.mu.Lock()
					p.passedKeepAlives++
					p.mu.Unlock()
				}
			}
		}
	}
}

type peerCounts struct{ rxPkts, rxBytes, txPkts, keepAlives, passedKeepAlives uint64 }

func (p *portPeer) counts() peerCounts {
	p.mu.Lock()
	defer p.mu.Unlock()
	return peerCounts{p.rxPkts, p.rxBytes, p.txPkts, p.keepAlives, p.passedKeepAlives}
}

// countersTarget is a switch the counters test runs on.
type countersTarget struct {
	platform string        // the site's platform
	fast     time.Duration // the keep-alive interval while the filters come up
	// start serves the switch on ports P1..P17 (P17: a port the site does
	// not use; nums gives every port's number) and returns the far end of
	// each port by name and the switch's P4Runtime and gNMI addresses
	// (gNMI "" when the switch serves none). It stops with ctx.
	start func(t *testing.T, ctx context.Context, nums map[string]uint32) (ends map[string]framePort, p4rt, gnmi string)
	// portDown takes a port down where the switch reports it at once
	// (gNMI); nil where it reports no port state (BMv2): there the test
	// fails F4, F5 and F6 by their keep-alives instead (their filters stop
	// passing frames while keep-alives are fast).
	portDown func(t *testing.T, name string)
}

// simCountersTarget is the software switch on in-memory ports.
func simCountersTarget() countersTarget {
	carriers := map[string]*sim.MemPeer{}
	return countersTarget{
		platform: "sim",
		fast:     20 * time.Millisecond,
		start: func(t *testing.T, ctx context.Context, nums map[string]uint32) (map[string]framePort, string, string) {
			swPorts := map[uint32]sim.Port{}
			ends := map[string]framePort{}
			for name, n := range nums {
				port, peer := sim.NewMemPort(4096)
				swPorts[n] = port
				ends[name] = peer
				carriers[name] = peer
			}
			sw, err := sim.New(sim.Options{Ports: swPorts, CounterInterval: 50 * time.Millisecond})
			require.NoError(t, err)
			lis, err := net.Listen("tcp", "127.0.0.1:0")
			require.NoError(t, err)
			glis, err := net.Listen("tcp", "127.0.0.1:0")
			require.NoError(t, err)
			served := make(chan error, 1)
			go func() { served <- sw.Serve(ctx, lis, glis) }()
			t.Cleanup(func() { <-served })
			return ends, lis.Addr().String(), glis.Addr().String()
		},
		portDown: func(t *testing.T, name string) { carriers[name].SetCarrier(false) },
	}
}

// TestCountersEndToEnd sends frames through every kind of rule, link,
// filter, core and drop reason of the software switch, over P4Runtime,
// and checks that every counter the daemon reports (what `balancer
// counters` prints) moved by exactly the frames sent that way, and that
// the ports' counters are what the far ends sent and received.
func TestCountersEndToEnd(t *testing.T) { runCountersEndToEnd(t, simCountersTarget()) }

func runCountersEndToEnd(t *testing.T, tg countersTarget) {
	var ports strings.Builder
	for p := 1; p <= 16; p++ {
		fmt.Fprintf(&ports, "  - {port: %d, speed: 100G}\n", p)
	}
	siteYAML := func(interval string) string {
		return strings.Replace(fmt.Sprintf(countersSite, ports.String(), interval), "platform: sim", "platform: "+tg.platform, 1)
	}
	yml := siteYAML(tg.fast.String())
	cfg, err := config.Parse([]byte(yml))
	require.NoError(t, err)
	dir, err := os.MkdirTemp("", "counters") // short: unix socket paths are limited to 108 bytes
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	cfgPath := filepath.Join(dir, "site.yaml")
	require.NoError(t, os.WriteFile(cfgPath, []byte(yml), 0o600))

	kaType := uint16(cfg.Defaults.KeepAlive.EtherType)
	tpid := uint16(cfg.Defaults.CoreTPID)
	// Ports P1..P16, and P17, which the configuration does not use.
	nums := map[string]uint32{}
	for p := 1; p <= 17; p++ {
		name := fmt.Sprintf("P%d", p)
		n := uint32(p * 10) // the sim and bmv2 platforms' numbering
		if p <= 16 {
			n, err = cfg.PortNumber(name)
			require.NoError(t, err)
		}
		nums[name] = n
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // also when start fails
	var wg sync.WaitGroup
	ends, p4rt, gnmiAddr := tg.start(t, ctx, nums)
	t.Cleanup(func() { cancel(); wg.Wait() }) // before start's own cleanups
	peers := map[string]*portPeer{}
	for name := range nums {
		peers[name] = &portPeer{name: name, peer: ends[name], cores: map[uint32]uint64{}, keepAliveEtherType: kaType}
	}
	for _, f := range cfg.FilterGroups {
		lan, wan := peers[f.LAN], peers[f.WAN]
		lan.pass, wan.pass = wan, lan
		lan.alive.Store(true)
		wan.alive.Store(true)
	}
	for _, p := range peers {
		wg.Add(1)
		go func() { defer wg.Done(); p.run(ctx, tpid) }()
	}

	d, err := New(Options{StateDir: filepath.Join(dir, "state"), InitialConfig: cfgPath, SwitchAddr: p4rt,
		SwitchGNMI: gnmiAddr, DeviceID: 1, ElectionLow: 1, Tick: time.Millisecond, CounterInterval: time.Hour, Logger: testLogger})
	require.NoError(t, err)
	dctx, dcancel := context.WithCancel(ctx)
	dwg := sync.WaitGroup{}
	dwg.Add(1)
	go func() { defer dwg.Done(); d.Run(dctx) }()
	t.Cleanup(func() { dcancel(); dwg.Wait() })

	// F4, F5, F6 fail (their ports go down, or their filters stop passing
	// frames); F2 goes into manual bypass once every filter has answered.
	st := func() *Status {
		s, err := d.Status(ctx)
		require.NoError(t, err)
		return s
	}
	states := func() string {
		var out []string
		for _, f := range st().Filters {
			out = append(out, fmt.Sprintf("%s=%s/%s (%s) passes %d", f.Name, f.State, f.Effective, f.Reason, f.Passes))
		}
		return strings.Join(out, ", ")
	}
	waitFor := func(within time.Duration, cond func() bool, what string) {
		t.Helper()
		require.EventuallyWithT(t, func(c *assert.CollectT) {
			if !cond() {
				c.Errorf("%s: %s", what, states())
			}
		}, within, 5*time.Millisecond)
	}
	waitFor(60*time.Second, func() bool {
		for _, f := range st().Filters {
			if f.State != "up" {
				return false
			}
		}
		return true
	}, "the filters never came up")
	failed := []string{"F4", "F5", "F6"}
	failedPorts := []string{"P11", "P12", "P13", "P14", "P15", "P16"}
	if tg.portDown == nil {
		for _, n := range failedPorts {
			peers[n].alive.Store(false)
		}
		waitFor(30*time.Second, func() bool {
			down := 0
			for _, f := range st().Filters {
				if slices.Contains(failed, f.Name) && f.State == "down" {
					down++
				}
			}
			return down == len(failed)
		}, "F4, F5 and F6 never failed by their keep-alives")
	}
	// Then keep-alives once a minute: wait for the last fast round to
	// come back (nothing more in flight).
	res, err := d.ApplyConfig(ctx, []byte(siteYAML("60s")), false, "slow keep-alives")
	require.NoError(t, err)
	require.True(t, res.Written, "the slow profile is on the switch")
	kas := func() (n uint64) {
		for _, p := range peers {
			n += p.counts().keepAlives
		}
		return n
	}
	quiet, last := 0, kas()
	waitFor(10*time.Second, func() bool {
		if n := kas(); n != last {
			quiet, last = 0, n
		} else {
			quiet++
		}
		return quiet >= 40 // 200ms without a keep-alive
	}, "keep-alives never slowed down")
	if tg.portDown != nil {
		for _, n := range failedPorts {
			tg.portDown(t, n)
		}
	}
	require.NoError(t, d.SetBypass(ctx, "F2", true))
	wantEff := map[string]string{"F1": "forward", "F2": "sw-bypass", "F3": "forward", "F4": "drop", "F5": "group-bypass", "F6": "group-drop"}
	waitFor(30*time.Second, func() bool {
		s := st()
		if s.Switch.StatePending || s.Switch.Pending {
			return false
		}
		for _, f := range s.Filters {
			if f.Effective != wantEff[f.Name] {
				return false
			}
		}
		return true
	}, "the filters never reached their states")

	before, err := d.Counters(ctx)
	require.NoError(t, err)
	peersBefore := map[string]peerCounts{}
	for n, p := range peers {
		peersBefore[n] = p.counts()
	}

	// The expected movement of every counter, in packets and bytes.
	type pb = PacketBytes
	add := func(m map[string]pb, k string, n int) {
		x := m[k]
		m[k] = pb{x.Packets + 1, x.Bytes + uint64(n)}
	}
	links := map[string]pb{}   // "L1 to-filter"
	filters := map[string]pb{} // "F1 returned"
	rules := map[string]pb{}
	drops := map[string]pb{}
	cores := map[string]pb{} // "F1/0"
	portTx := map[string]uint64{}
	mac1, mac2 := net.HardwareAddr{2, 0, 0, 0, 0, 1}, net.HardwareAddr{2, 0, 0, 0, 0, 2}
	type side struct{ in, out string }
	linkSides := map[string][2]side{"L1": {{"P2", "P1"}, {"P1", "P2"}}, "L2": {{"P10", "P9"}, {"P9", "P10"}}}
	fgPorts := map[string][2]string{} // LAN, WAN
	for _, f := range cfg.FilterGroups {
		fgPorts[f.Name] = [2]string{f.LAN, f.WAN}
	}
	// balanced sends a session's frame from link l's side s (0 LAN) and
	// books where it goes.
	balanced := func(l string, s int, group, rule string, f []byte, src, dst netip.Addr) {
		ps, err := d.Locate(ctx, src, dst, 6)
		require.NoError(t, err)
		var pl *Placement
		for i := range ps {
			if ps[i].BalanceGroup == group {
				pl = &ps[i]
			}
		}
		require.NotNil(t, pl, "%s is not placed in %s", src, group)
		sd := linkSides[l][s]
		peers[sd.in].send(t, f)
		add(rules, rule, len(f))
		switch group {
		case "G3":
			add(links, l+" group-bypass", len(f))
			portTx[sd.out]++
			return
		case "G4":
			add(links, l+" dropped", len(f))
			add(drops, "balance group drop", len(f))
			return
		}
		add(cores, fmt.Sprintf("%s/%d", pl.FilterGroup, pl.Core), len(f))
		switch wantEff[pl.FilterGroup] {
		case "forward":
			add(links, l+" to-filter", len(f))
			add(filters, pl.FilterGroup+" to-filter", len(f))
			add(links, l+" returned", len(f)+wire.CoreHeaderLen)
			add(filters, pl.FilterGroup+" returned", len(f)+wire.CoreHeaderLen)
			portTx[fgPorts[pl.FilterGroup][s]]++
			portTx[sd.out]++
		case "sw-bypass":
			add(links, l+" sw-bypass", len(f))
			add(filters, pl.FilterGroup+" sw-bypass", len(f))
			portTx[sd.out]++
		case "drop":
			add(links, l+" dropped", len(f))
			add(drops, "filter group drop", len(f))
		default:
			t.Fatalf("%s: unexpected state %s", pl.FilterGroup, wantEff[pl.FilterGroup])
		}
	}
	tcp := func(src, dst netip.Addr, dport uint16) []byte {
		return frames.Frame(mac1, mac2, frames.Encap{}, frames.L3{Src: src, Dst: dst, Proto: layers.IPProtocolTCP, SrcPort: 40000, DstPort: dport})
	}
	web := netip.MustParseAddr("192.0.2.80")
	for i := range 60 {
		src := netip.AddrFrom4([4]byte{10, 1, byte(i >> 8), byte(i)})
		l, s := "L1", 0
		if i%3 == 1 {
			l = "L2" // and from the WAN side of both links
		}
		if i%2 == 1 {
			s = 1
		}
		balanced(l, s, "G1", "web", tcp(src, web, 80), src, web)
	}
	for i := range 12 {
		src := netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb9, 15: byte(i)})
		dst := netip.MustParseAddr("2001:db8::1")
		f := frames.Frame(mac1, mac2, frames.Encap{}, frames.L3{Src: src, Dst: dst, Proto: layers.IPProtocolTCP, SrcPort: 40000, DstPort: 443})
		balanced("L1", i%2, "G1", "web6", f, src, dst)
	}
	for i := range 40 {
		src := netip.AddrFrom4([4]byte{10, 2, 0, byte(i)})
		balanced("L2", i%2, "G2", "g2", tcp(src, web, 443), src, web)
	}
	for i := range 5 {
		src := netip.AddrFrom4([4]byte{10, 3, 0, byte(i)})
		balanced("L1", 0, "G3", "g3", tcp(src, web, 443), src, web)
	}
	for i := range 4 {
		src := netip.AddrFrom4([4]byte{10, 4, 0, byte(i)})
		balanced("L1", 1, "G4", "g4", tcp(src, web, 443), src, web)
	}
	// Bypassed by a rule, by a rule's "not" exception, and non-IP.
	bypass := func(l string, s int, rule, kind string, f []byte) {
		sd := linkSides[l][s]
		peers[sd.in].send(t, f)
		if rule != "" {
			add(rules, rule, len(f))
		}
		add(links, l+" "+kind, len(f))
		portTx[sd.out]++
	}
	for i := range 7 {
		f := frames.Frame(mac1, mac2, frames.Encap{}, frames.L3{Src: netip.AddrFrom4([4]byte{10, 1, 1, byte(i)}), Dst: web, Proto: layers.IPProtocolUDP, SrcPort: 5353, DstPort: 53})
		bypass("L1", i%2, "dns", "rule-bypass", f)
	}
	for i := range 3 {
		bypass("L2", 0, "web", "rule-bypass", tcp(netip.AddrFrom4([4]byte{10, 9, 0, byte(i)}), web, 80))
	}
	for i := range 6 {
		bypass("L1", i%2, "rest", "non-ip-bypass", frames.Frame(mac1, mac2, frames.Encap{}, frames.L3{EtherType: 0x9000}))
	}
	for range 2 {
		bypass("L2", 1, "rest", "non-ip-bypass", frames.Frame(mac1, mac2, frames.Encap{}, frames.L3{EtherType: 0x0806}))
	}
	for i := range 3 {
		bypass("L1", i%2, "", "heartbeat", frames.Frame(mac1, mac2, frames.Encap{}, frames.L3{EtherType: 0x88B7}))
	}
	// Dropped: on a port no link or filter uses, malformed, from a filter
	// without a core header, and with a link id no link has.
	drop := func(port, reason string, f []byte) {
		peers[port].send(t, f)
		add(drops, reason, len(f))
	}
	for range 2 {
		drop("P17", "unknown port", tcp(netip.MustParseAddr("10.1.2.3"), web, 80))
	}
	for range 3 {
		full := tcp(netip.MustParseAddr("10.1.2.3"), web, 80)
		drop("P2", "malformed frame", full[:14+10]) // an IPv4 header cut short
	}
	for range 2 {
		drop("P4", "no core header from a filter", tcp(netip.MustParseAddr("10.1.2.3"), web, 80))
	}
	for range 4 {
		f := tcp(netip.MustParseAddr("10.1.2.3"), web, 80)
		drop("P3", "unknown link id", wire.InsertCoreHeader(f, wire.CoreHeader{TPID: tpid, Link: 63, Core: 1})) // link 63: none
	}
	for _, l := range cfg.Links {
		require.NotEqual(t, uint32(63), *l.ID, "link id 63 must be unused")
	}

	// Every frame out of the switch reached its port, then the counters.
	require.Eventually(t, func() bool {
		for n, want := range portTx {
			if peers[n].counts().txPkts-peersBefore[n].txPkts < want {
				return false
			}
		}
		return true
	}, 20*time.Second, 5*time.Millisecond, "frames still missing at the far ends")

	type check struct {
		what      string
		got, want PacketBytes
		bytes     bool // bytes checked too
	}
	var checks []check
	var after *Counters
	collect := func() []check {
		var cs []check
		delta := func(a, b PacketBytes) PacketBytes { return PacketBytes{a.Packets - b.Packets, a.Bytes - b.Bytes} }
		for i, l := range after.Links {
			b := before.Links[i]
			for _, k := range []struct {
				n    string
				a, b PacketBytes
			}{{"to-filter", l.ToFilter, b.ToFilter}, {"returned", l.Returned, b.Returned}, {"rule-bypass", l.RuleBypass, b.RuleBypass},
				{"non-ip-bypass", l.NonIPBypass, b.NonIPBypass}, {"sw-bypass", l.SWBypass, b.SWBypass}, {"group-bypass", l.GroupBypass, b.GroupBypass},
				{"heartbeat", l.Heartbeat, b.Heartbeat}, {"dropped", l.Dropped, b.Dropped}} {
				cs = append(cs, check{"link " + l.Name + " " + k.n, delta(k.a, k.b), links[l.Name+" "+k.n], true})
			}
		}
		for i, f := range after.Filters {
			b := before.Filters[i]
			for _, k := range []struct {
				n    string
				a, b PacketBytes
			}{{"to-filter", f.ToFilter, b.ToFilter}, {"returned", f.Returned, b.Returned}, {"sw-bypass", f.SWBypass, b.SWBypass},
				{"verdict-bypass", f.VerdictBypass, b.VerdictBypass}, {"verdict-drop", f.VerdictDrop, b.VerdictDrop}} {
				cs = append(cs, check{"filter " + f.Name + " " + k.n, delta(k.a, k.b), filters[f.Name+" "+k.n], true})
			}
			// Keep-alives: every one the filter passed back, since the start.
			lan, wan := peers[fgPorts[f.Name][0]].counts(), peers[fgPorts[f.Name][1]].counts()
			cs = append(cs, check{"filter " + f.Name + " keep-alive", PacketBytes{Packets: f.KeepAlive.Packets}, PacketBytes{Packets: lan.passedKeepAlives + wan.passedKeepAlives}, false})
		}
		for i, r := range after.Rules {
			cs = append(cs, check{"rule " + r.Name, delta(r.Hits, before.Rules[i].Hits), rules[r.Name], true})
		}
		for i, dr := range after.Drops {
			cs = append(cs, check{"drop " + dr.Reason, delta(dr.Count, before.Drops[i].Count), drops[dr.Reason], true})
		}
		for i, c := range after.Cores {
			k := fmt.Sprintf("%s/%d", c.FilterGroup, c.Core)
			cs = append(cs, check{"core " + k, delta(c.Hits, before.Cores[i].Hits), cores[k], true})
		}
		for i, p := range after.Ports {
			b := before.Ports[i]
			now, was := peers[p.Name].counts(), peersBefore[p.Name]
			cs = append(cs, check{"port " + p.Name + " rx", delta(p.Rx, b.Rx), PacketBytes{now.rxPkts - was.rxPkts, now.rxBytes - was.rxBytes}, true})
			cs = append(cs, check{"port " + p.Name + " tx", PacketBytes{Packets: p.Tx.Packets - b.Tx.Packets}, PacketBytes{Packets: now.txPkts - was.txPkts}, false})
			if w, ok := portTx[p.Name]; ok {
				cs = append(cs, check{"port " + p.Name + " tx (sent that way)", PacketBytes{Packets: p.Tx.Packets - b.Tx.Packets}, PacketBytes{Packets: w}, false})
			}
		}
		return cs
	}
	ok := func() bool {
		for _, c := range checks {
			if c.got.Packets != c.want.Packets || (c.bytes && c.got.Bytes != c.want.Bytes) {
				return false
			}
		}
		return true
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		after, err = d.Counters(ctx)
		require.NoError(t, err)
		checks = collect()
		if ok() || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond) // polling the switch's counters
	}
	moved := 0
	for _, c := range checks {
		if c.bytes {
			assert.Equal(t, c.want, c.got, c.what)
		} else {
			assert.Equal(t, c.want.Packets, c.got.Packets, c.what)
		}
		if c.want.Packets > 0 {
			moved++
		}
		t.Logf("%-40s %6d packets %8d bytes", c.what, c.got.Packets, c.got.Bytes)
	}
	// No keep-alive crossed the switch while the test counted (so the
	// ports' deltas are the frames above alone).
	for n, p := range peers {
		assert.Equal(t, peersBefore[n].keepAlives, p.counts().keepAlives, "a keep-alive reached %s while counting", n)
	}
	for _, kind := range []string{"to-filter", "returned", "rule-bypass", "non-ip-bypass", "sw-bypass", "group-bypass", "heartbeat", "dropped"} {
		assert.Positive(t, links["L1 "+kind].Packets+links["L2 "+kind].Packets, "no frame took the link path %s", kind)
	}
	for _, r := range cfg.Rules {
		assert.Positive(t, rules[r.Name].Packets, "no frame hit rule %s", r.Name)
	}
	for i := int64(1); i < int64(len(after.Drops))+1; i++ {
		reason := after.Drops[i-1].Reason
		if reason == p4src.DropReasonName(p4src.DropVerdict) {
			// Every filter here answers its keep-alives, so no verdict
			// stands and this reads 0 (checked above with every counter);
			// TestVerdictDropCounted moves it, with the controller gone.
			continue
		}
		assert.Positive(t, drops[reason].Packets, "no frame was dropped for %s", reason)
	}
	for _, c := range after.Cores {
		if wantEff[c.FilterGroup] != "group-bypass" && wantEff[c.FilterGroup] != "group-drop" {
			assert.Positive(t, cores[fmt.Sprintf("%s/%d", c.FilterGroup, c.Core)].Packets, "no frame went to %s core %d", c.FilterGroup, c.Core)
		}
	}
	t.Logf("%d counters checked, %d of them moved", len(checks), moved)
}
