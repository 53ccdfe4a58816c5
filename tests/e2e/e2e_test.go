package e2e

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src/wire"
)

// TestE2E runs every scenario against the software switch and, when
// simple_switch_grpc is installed, against BMv2. Each scenario builds its
// own namespace, switch and daemon.
func TestE2E(t *testing.T) {
	if why := tgAvailable(); why != "" {
		t.Skip(why)
	}
	for _, tg := range targets(t) {
		t.Run(tg.name, func(t *testing.T) {
			if why := tg.available(); why != "" {
				t.Skip(why)
			}
			t.Run("pairing", func(t *testing.T) { testPairing(t, tg) })
			t.Run("symmetry", func(t *testing.T) { testSymmetry(t, tg) })
			t.Run("rules", func(t *testing.T) { testRules(t, tg) })
			t.Run("filter-failure", func(t *testing.T) { testFilterFailure(t, tg) })
			t.Run("port-down", func(t *testing.T) { testPortDown(t, tg) })
			t.Run("daemon-restart", func(t *testing.T) { testDaemonRestart(t, tg) })
			t.Run("daemon-gone", func(t *testing.T) { testDaemonGone(t, tg) })
			t.Run("switch-restart", func(t *testing.T) { testSwitchRestart(t, tg) })
			t.Run("bypass-all", func(t *testing.T) { testBypassAll(t, tg) })
			t.Run("rebalance", func(t *testing.T) { testRebalance(t, tg) })
		})
	}
}

// tgAvailable: the whole suite needs root and namespaces.
func tgAvailable() string { return target{}.available() }

// checkPassed checks a frame that crossed filter fg: out of the paired
// port exactly once with its bytes unchanged, and seen by that filter
// once, with the core header of its link and core right after the source
// MAC in front of the unchanged frame.
func (b *bed) checkPassed(t *testing.T, s sent, fg string, core uint32) {
	t.Helper()
	ft := b.fate(s)
	l := b.links[s.f.link]
	want := s.f.frame(s.k.dir, s.k.seq)
	if !assert.True(t, ft.right, "%v %v: %v", s.f, s.k.dir, ft) {
		return
	}
	assert.True(t, bytes.Equal(want, ft.out[0].frame), "%v %v: bytes changed on the way:\n got %x\nwant %x", s.f, s.k.dir, ft.out[0].frame, want)
	if !assert.Len(t, ft.via, 1, "%v %v: %v", s.f, s.k.dir, ft) {
		return
	}
	v := ft.via[0]
	assert.Equal(t, fg, v.fg, "%v %v: filter", s.f, s.k.dir)
	assert.Equal(t, l.id, v.link, "%v %v: link id in the core header", s.f, s.k.dir)
	assert.Equal(t, core, v.core, "%v %v: core id in the core header", s.f, s.k.dir)
	assert.Equal(t, s.k.dir, v.side, "%v %v: entered the filter on the wrong side", s.f, s.k.dir)
	assert.True(t, bytes.Equal(pipelinecases.PushCore(want, wire.DefaultCoreTPID, l.id, core), v.frame),
		"%v %v: frame at the filter:\n got %x\nwant %x", s.f, s.k.dir, v.frame, pipelinecases.PushCore(want, wire.DefaultCoreTPID, l.id, core))
}

// checkBypassed checks a frame that must go straight to the paired port
// with no filter seeing it.
func (b *bed) checkBypassed(t *testing.T, s sent) {
	t.Helper()
	ft := b.fate(s)
	want := s.f.frame(s.k.dir, s.k.seq)
	if !assert.True(t, ft.right, "%v %v: %v", s.f, s.k.dir, ft) {
		return
	}
	assert.Empty(t, ft.via, "%v %v: must bypass the filters: %v", s.f, s.k.dir, ft)
	assert.True(t, bytes.Equal(want, ft.out[0].frame), "%v %v: bytes changed:\n got %x\nwant %x", s.f, s.k.dir, ft.out[0].frame, want)
}

// 1. Every frame leaves by the paired port of the link it entered, for
// all links and both directions, balanced or bypassed.
func testPairing(t *testing.T, tg target) {
	b := newBed(t, tg)
	flows := genFlows(60, len(b.links), 1, 1)
	id := uint32(1000)
	for i := range b.links {
		// Bypassed by rule and non-IP, on every link.
		flows = append(flows,
			&flow{id: id, link: i, src: addr("10.9.9.1"), dst: addr("10.9.9.2"), proto: layers.IPProtocolTCP, sport: 40000, dport: 179},
			&flow{id: id + 1, link: i})
		id += 2
	}
	for _, l := range b.links {
		for _, d := range []dir{lanToWAN, wanToLAN} {
			t.Run(fmt.Sprintf("%s %s", l.name, d), func(t *testing.T) {
				var mine []*flow
				for _, f := range flows {
					if b.links[f.link].name == l.name {
						mine = append(mine, f)
					}
				}
				ss := b.sendBatch(mine, d)
				balanced := 0
				for _, s := range ss {
					ft := b.fate(s)
					in, out := l.port(d)
					assert.True(t, ft.right, "%v entered port %d: want it out of port %d only: %v", s.f, in, out, ft)
					if ft.delivered() {
						assert.Equal(t, s.f.frame(d, s.k.seq), ft.out[0].frame, "%v: bytes", s.f)
					}
					if len(ft.via) > 0 {
						balanced++
						assert.Equal(t, l.id, ft.via[0].link, "%v: link id", s.f)
					}
				}
				assert.Equal(t, len(mine)-2, balanced, "every session but the BGP and non-IP ones went through a filter")
				t.Logf("%d frames into port %d: all out of the paired port (%d through filters)", len(ss), func() uint32 { in, _ := l.port(d); return in }(), balanced)
			})
		}
	}
	b.checkStrays()
}

// 2. Both directions of every session reach the same filter and core
// (the one locate names), and every core's load is within 1.1x of the
// mean.
//
// Why 1.1x is sound: 6 cores (3+2+1) share 1024 slots, 170 or 171 each
// (0.4% apart). With N sessions hashed uniformly a core's count is
// binomial(N, 1/6): for N = 10,000 the mean is 1667 and sigma 37, so 1.1x
// is 4.5 sigma (p < 1e-4 for any of the 6 cores, either side). The session
// set is fixed (seeded), so the result is also reproducible.
func testSymmetry(t *testing.T, tg target) {
	b := newBed(t, tg)
	flows := genFlows(tg.symFlows, len(b.links), 1, 2)
	start := time.Now()
	ss := b.sendBatch(flows, lanToWAN, wanToLAN)
	t.Logf("%d frames (%d sessions, both directions) sent and collected in %v", len(ss), len(flows), time.Since(start).Round(time.Millisecond))
	type fc struct {
		fg   string
		core uint32
	}
	n := len(flows)
	lan, wan := ss[:n], ss[n:]
	load := map[fc]int{}
	lost, asym, wrong := 0, 0, 0
	for i, f := range flows {
		a, z := b.fate(lan[i]), b.fate(wan[i])
		if !a.right || !z.right || len(a.via) != 1 || len(z.via) != 1 {
			lost++
			if lost <= 5 {
				t.Errorf("%v: LAN->WAN %v; WAN->LAN %v", f, a, z)
			}
			continue
		}
		if a.via[0].fg != z.via[0].fg || a.via[0].core != z.via[0].core {
			asym++
			if asym <= 5 {
				t.Errorf("%v: directions split: LAN->WAN %v, WAN->LAN %v", f, a, z)
			}
		}
		fg, core := b.placement(f)
		if a.via[0].fg != fg || a.via[0].core != core {
			wrong++
			if wrong <= 5 {
				t.Errorf("%v: at %s core %d, locate says %s core %d", f, a.via[0].fg, a.via[0].core, fg, core)
			}
		}
		load[fc{a.via[0].fg, a.via[0].core}]++
	}
	assert.Zero(t, lost, "sessions not delivered through one filter both ways")
	assert.Zero(t, asym, "sessions whose directions reached different filters or cores")
	assert.Zero(t, wrong, "sessions not where locate says")

	cores := 0
	for _, f := range b.cfg.FilterGroups {
		cores += int(f.Cores)
	}
	require.Len(t, load, cores, "every core got sessions")
	mean := float64(n-lost) / float64(cores)
	mx, mn := 0.0, math.Inf(1)
	var keys []fc
	for k := range load {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i].fg < keys[j].fg || keys[i].fg == keys[j].fg && keys[i].core < keys[j].core
	})
	var per []string
	for _, k := range keys {
		v := float64(load[k])
		mx, mn = max(mx, v), min(mn, v)
		per = append(per, fmt.Sprintf("%s/%d=%d", k.fg, k.core, load[k]))
	}
	// 1.1 holds at 4.5 sigma from 10,000 sessions on; fewer (BMv2 with
	// -short) get the same 4.5 sigma, a wider bound.
	bound := 1.1
	if n < 10000 {
		bound = 1 + 4.5*math.Sqrt(float64(cores-1)/float64(n))
	}
	t.Logf("per-core sessions (mean %.1f): %v", mean, per)
	t.Logf("per-core load over %d sessions: max/mean %.3f, min/mean %.3f (bound %.3f)", n, mx/mean, mn/mean, bound)
	assert.LessOrEqual(t, mx/mean, bound, "a core above the bound x the mean")
	assert.GreaterOrEqual(t, mn/mean, 1/bound, "a core below the mean / the bound")

	// The switch's per-core counters (core_counters cells, read through
	// the daemon) saw the same: two frames per session.
	cnt, err := b.d.Counters(context.Background())
	require.NoError(t, err)
	for _, c := range cnt.Cores {
		assert.Equal(t, uint64(2*load[fc{c.FilterGroup, c.Core}]), c.Hits.Packets, "switch counter of %s core %d", c.FilterGroup, c.Core)
	}
	b.checkStrays()
}

// 3. Rules: bypass rules, priorities, per-link binding, an exception, the
// catch-all; non-IP bypassed; heartbeats straight through; encapsulations
// unchanged on the way back out.
func testRules(t *testing.T, tg target) {
	b := newBed(t, tg)
	const L1, L2 = 0, 1
	tcp, udp := layers.IPProtocolTCP, layers.IPProtocolUDP
	v4a, v4b := addr("10.1.2.3"), addr("100.64.7.8")
	v6a, v6b := addr("2001:db8::1"), addr("2001:db8:ffff::2")
	tags := func(ts ...pipelinecases.Tag) pipelinecases.Encap { return pipelinecases.Encap{Tags: ts} }
	q := func(tpid, vid uint16) pipelinecases.Tag { return pipelinecases.Tag{TPID: tpid, VID: vid} }
	cases := []struct {
		name   string
		dir    dir
		f      flow
		bypass bool
	}{
		{"bgp: dst port 179 bypassed", lanToWAN, flow{link: L1, src: v4a, dst: v4b, proto: tcp, sport: 40000, dport: 179}, true},
		{"bgp: src port 179 (reply) bypassed", wanToLAN, flow{link: L1, src: v4a, dst: v4b, proto: tcp, sport: 40000, dport: 179}, true},
		{"bgp: on L2 too", lanToWAN, flow{link: L2, src: v4a, dst: v4b, proto: tcp, sport: 179, dport: 179}, true},
		{"bgp: UDP port 179 is not BGP: balanced", lanToWAN, flow{link: L1, src: v4a, dst: v4b, proto: udp, sport: 40000, dport: 179}, false},
		{"service VLAN 666 bypassed, tag unchanged", lanToWAN, flow{link: L1, enc: tags(q(0x8100, 666)), src: v4a, dst: v4b, proto: tcp, sport: 1, dport: 2}, true},
		{"VLAN 666 as inner tag: balanced", lanToWAN, flow{link: L1, enc: tags(q(0x88a8, 10), q(0x8100, 666)), src: v4a, dst: v4b, proto: tcp, sport: 1, dport: 2}, false},
		{"link binding: 192.0.2.0/24 bypassed on L2", lanToWAN, flow{link: L2, src: addr("192.0.2.7"), dst: v4b, proto: udp, sport: 5, dport: 6}, true},
		{"link binding: 192.0.2.0/24 balanced on L1", lanToWAN, flow{link: L1, src: addr("192.0.2.7"), dst: v4b, proto: udp, sport: 5, dport: 6}, false},
		{"link binding: reply to 192.0.2.0/24 on L2 balanced (src only)", wanToLAN, flow{link: L2, src: addr("192.0.2.7"), dst: v4b, proto: udp, sport: 5, dport: 6}, false},
		{"priority: 203.0.113.128/25 UDP balanced over the /24 bypass", lanToWAN, flow{link: L1, src: v4a, dst: addr("203.0.113.200"), proto: udp, sport: 5000, dport: 5001}, false},
		{"priority: 203.0.113.128/25 TCP falls to the /24 bypass", lanToWAN, flow{link: L1, src: v4a, dst: addr("203.0.113.200"), proto: tcp, sport: 5000, dport: 5001}, true},
		{"priority: 203.0.113.0/25 UDP bypassed", lanToWAN, flow{link: L2, src: v4a, dst: addr("203.0.113.5"), proto: udp, sport: 5000, dport: 5001}, true},
		{"exception: 203.0.113.128/25 UDP to port 53 bypassed", lanToWAN, flow{link: L1, src: v4a, dst: addr("203.0.113.200"), proto: udp, sport: 5000, dport: 53}, true},
		{"catch-all: other TCP balanced", lanToWAN, flow{link: L2, src: v4b, dst: v4a, proto: tcp, sport: 443, dport: 50000}, false},
		{"catch-all: ICMP balanced", wanToLAN, flow{link: L1, src: v4a, dst: v4b, proto: layers.IPProtocolICMPv4}, false},
		{"non-IP bypassed LAN->WAN", lanToWAN, flow{link: L1}, true},
		{"non-IP bypassed WAN->LAN", wanToLAN, flow{link: L2}, true},
		{"non-IP with VLAN bypassed", lanToWAN, flow{link: L2, enc: tags(q(0x8100, 100))}, true},
		{"heartbeat LAN->WAN straight through", lanToWAN, flow{link: L1, dstMAC: macHeartbeat, src: v4a, dst: v4b, proto: udp, sport: 1, dport: 2}, true},
		{"heartbeat WAN->LAN straight through", wanToLAN, flow{link: L2, dstMAC: macHeartbeat, src: v4a, dst: v4b, proto: udp, sport: 1, dport: 2}, true},
		{"encap: VLAN", lanToWAN, flow{link: L1, enc: tags(q(0x8100, 100)), src: v4a, dst: v4b, proto: tcp, sport: 1, dport: 2}, false},
		{"encap: priority tag (VID 0, PCP 0)", lanToWAN, flow{link: L1, enc: tags(q(0x8100, 0)), src: v4a, dst: v4b, proto: udp, sport: 1, dport: 2}, false},
		{"encap: QinQ 0x88a8", wanToLAN, flow{link: L1, enc: tags(q(0x88a8, 100), q(0x8100, 200)), src: v4a, dst: v4b, proto: udp, sport: 53, dport: 53}, false},
		{"encap: three tags IPv6", lanToWAN, flow{link: L2, enc: tags(q(0x9100, 1), q(0x88a8, 2), q(0x8100, 3)), src: v6a, dst: v6b, proto: tcp, sport: 1, dport: 2}, false},
		{"encap: MPLS 1 label", lanToWAN, flow{link: L1, enc: pipelinecases.Encap{MPLS: []uint32{16}}, src: v4a, dst: v4b, proto: tcp, sport: 7, dport: 8}, false},
		{"encap: MPLS 2 labels IPv6", wanToLAN, flow{link: L2, enc: pipelinecases.Encap{MPLS: []uint32{16, 17}}, src: v6a, dst: v6b, proto: udp, sport: 7, dport: 8}, false},
		{"encap: QinQ + MPLS 3 labels", lanToWAN, flow{link: L1, enc: pipelinecases.Encap{Tags: []pipelinecases.Tag{q(0x88a8, 10), q(0x8100, 20)}, MPLS: []uint32{100, 200, 300}}, src: v4a, dst: v4b, proto: udp, sport: 7, dport: 8}, false},
		{"encap: PPPoE IPv4", lanToWAN, flow{link: L2, enc: pipelinecases.Encap{PPPoE: true}, src: v4a, dst: v4b, proto: tcp, sport: 7, dport: 8}, false},
		{"encap: VLAN + PPPoE IPv6", wanToLAN, flow{link: L1, enc: pipelinecases.Encap{Tags: []pipelinecases.Tag{q(0x8100, 5)}, PPPoE: true}, src: v6b, dst: v6a, proto: udp, sport: 7, dport: 8}, false},
		{"encap: IPv6", lanToWAN, flow{link: L2, src: v6a, dst: v6b, proto: tcp, sport: 443, dport: 5555}, false},
		{"fragment: non-first IPv4 fragment follows its session", lanToWAN, flow{link: L1, src: v4a, dst: v4b, proto: tcp, fragOffset: 100}, false},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if why := knownBugs[tg.name+"/"+c.name]; why != "" {
				t.Skip(why)
			}
			f := c.f
			f.id = uint32(100 + i)
			s := b.sendBatch([]*flow{&f}, c.dir)[0]
			if c.bypass {
				b.checkBypassed(t, s)
				return
			}
			fg, core := b.placement(&f)
			b.checkPassed(t, s, fg, core)
		})
	}
	b.checkStrays()
}

// knownBugs are rule cases a target fails today, by "target/case", with
// why. They run everywhere else.
var knownBugs = map[string]string{}

// streamFlows returns sessions of every filter group for a steady stream,
// with where locate places each.
func (b *bed) streamFlows(n int, seed uint64) ([]*flow, map[uint32]string) {
	flows := genFlows(n, len(b.links), 1, seed)
	fgOf := map[uint32]string{}
	per := map[string]int{}
	for _, f := range flows {
		fg, _ := b.placement(f)
		fgOf[f.id] = fg
		per[fg]++
	}
	for _, name := range b.fgNames {
		require.NotZero(b.t, per[name], "no session of the stream lands on %s", name)
	}
	return flows, fgOf
}

// failover measures, from a stream's frames, what happened to the
// sessions of filter group fg failed at tFail and healed at tHeal.
type failover struct {
	toBypass        time.Duration // first bypassed frame of fg's sessions after tFail
	back            time.Duration // first frame through fg again after tHeal
	lost            int           // fg's frames lost
	sentDuring      int           // fg's frames sent between tFail and the bypass (+ grace)
	lostAfter       int           // fg's frames lost once bypass was in place (before tHeal)
	othersLost      int           // other groups' frames lost
	othersMisrouted int           // other groups' frames not through their own filter
	afterBack       int           // fg's frames sent after it was back not through fg
	examples        []string      // of the frames counted above
}

func (m *failover) example(s sent, ft fate, tFail time.Time, what string) {
	if len(m.examples) < 8 {
		m.examples = append(m.examples, fmt.Sprintf("%s: %v %v sent at tFail%+v: %v", what, s.f, s.k.dir, s.at.Sub(tFail).Round(100*time.Microsecond), ft))
	}
}

func (b *bed) measureFailover(ss []sent, fgOf map[uint32]string, fg string, tFail, tHeal time.Time) failover {
	var m failover
	var bypassAt, backAt time.Time
	for _, s := range ss {
		ft := b.fate(s)
		if fgOf[s.f.id] != fg {
			if !ft.delivered() {
				m.othersLost++
				m.example(s, ft, tFail, "other group's frame lost")
			} else if !ft.right || ft.filter() != fgOf[s.f.id] {
				m.othersMisrouted++
				m.example(s, ft, tFail, "other group's frame not through its filter")
			}
			continue
		}
		if !ft.delivered() {
			m.lost++
		}
		if s.at.After(tFail) && s.at.Before(tHeal) && ft.delivered() && ft.filter() == "" && bypassAt.IsZero() {
			bypassAt = s.at
		}
		if s.at.After(tHeal) && ft.filter() == fg && backAt.IsZero() {
			backAt = s.at
		}
	}
	if !bypassAt.IsZero() {
		m.toBypass = bypassAt.Sub(tFail)
	}
	if !backAt.IsZero() {
		m.back = backAt.Sub(tHeal)
	}
	// The switch serves each port on its own goroutine: a frame sent a
	// little after the first bypassed one, on another port, may still have
	// met the old state.
	const grace = 10 * time.Millisecond
	for _, s := range ss {
		if fgOf[s.f.id] != fg {
			continue
		}
		ft := b.fate(s)
		switch {
		case s.at.After(tFail) && (bypassAt.IsZero() || s.at.Before(bypassAt.Add(grace))):
			m.sentDuring++
		case !bypassAt.IsZero() && s.at.After(bypassAt) && s.at.Before(tHeal) && !ft.delivered():
			m.lostAfter++
			m.example(s, ft, tFail, fmt.Sprintf("lost after the bypass (tFail%+v)", bypassAt.Sub(tFail).Round(100*time.Microsecond)))
		case !backAt.IsZero() && s.at.After(backAt.Add(50*time.Millisecond)) && (!ft.right || ft.filter() != fg):
			m.afterBack++
			m.example(s, ft, tFail, "not through the filter after recovery")
		}
	}
	return m
}

// 4. Keep-alive loss puts that filter group in software bypass within
// loss threshold x interval (+ margin); other groups lose nothing; no
// operator port goes down; recovery returns the traffic to the filter.
func testFilterFailure(t *testing.T, tg target) {
	b := newBed(t, tg, withFastKeepAlives())
	flows, fgOf := b.streamFlows(300, 4)
	bound := time.Duration(lossThreshold)*tg.interval + tg.interval + tg.margin
	cases := []struct {
		name       string
		fg         string
		fail, heal func(*filterEmu) error
		lossless   bool // the filter still passes traffic while failing
	}{
		{"frozen", "F2", mode(modeFrozen), mode(modePass), false},
		{"stopped", "F3", func(f *filterEmu) error { f.stop(); return nil }, (*filterEmu).start, false},
		{"keep-alives dropped", "F1", mode(modeDropKeepAlives), mode(modePass), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b.waitAllUp(5 * time.Second)
			st := b.startStream(t, flows, tg.streamRate)
			time.Sleep(200 * time.Millisecond) // traffic flowing before the failure
			updates := b.d.Session().Stats().Updates
			tFail := time.Now()
			require.NoError(t, c.fail(b.filters[c.fg]))
			b.waitFilter(c.fg, "down", 10*bound)
			detect := time.Since(tFail)
			fs := b.filterStatus(c.fg)
			// Who proves the loss first: the pipeline (the committed program
			// judges its filters) or the controller's keep-alive count; both
			// act at loss threshold x interval. The pipeline's verdict needs
			// a send unanswered for longer than that, so a filter that
			// still passes data but drops keep-alives may go either way.
			assert.Contains(t, []string{"keep-alive loss", "data-plane verdict"}, fs.Reason)
			if fs.Reason == "data-plane verdict" {
				assert.NotEmpty(t, fs.Verdict, "the verdict's evidence is shown")
			}
			assert.Equal(t, "sw-bypass", fs.Effective)
			for _, o := range b.fgNames {
				if o != c.fg {
					assert.Equal(t, "up", b.filterStatus(o).State, "other filter %s", o)
				}
			}
			// No operator port went down, on the wire or in the daemon's view.
			var lp []uint32
			for _, l := range b.links {
				lp = append(lp, l.lan, l.wan)
			}
			for n, up := range b.operUp(lp) {
				assert.True(t, up, "operator interface %s went down", n)
			}
			for _, l := range b.status().Links {
				// Up where the switch reports ports (gNMI); unknown, never
				// down, where it does not (BMv2).
				want := daemon.PortUp
				if !b.tg.gnmi {
					want = daemon.PortUnknown
				}
				assert.Equal(t, []string{want, want}, []string{l.LANState, l.WANState}, "link %s port states", l.Name)
			}
			time.Sleep(300 * time.Millisecond) // in bypass for a while
			failWrites := b.d.Session().Stats().Updates - updates
			tHeal := time.Now()
			require.NoError(t, c.heal(b.filters[c.fg]))
			b.waitFilter(c.fg, "up", 10*bound)
			recover := time.Since(tHeal)
			time.Sleep(300 * time.Millisecond) // back through the filter for a while
			healWrites := b.d.Session().Stats().Updates - updates - failWrites
			ss := st.end()
			m := b.measureFailover(ss, fgOf, c.fg, tFail, tHeal)
			stalled := b.stalls.during(tFail, tFail.Add(m.toBypass))
			t.Logf("%s %s: keep-alive loss -> software bypass: daemon %v, data plane %v (bound %v = %d x %v + %v + %v); %d of %s's frames lost (%d sent before the bypass took hold, stream %d fps over %d sessions); other groups lost %d; recovery: daemon %v, data plane %v",
				c.fg, c.name, detect.Round(100*time.Microsecond), m.toBypass.Round(100*time.Microsecond), bound, lossThreshold, tg.interval, tg.interval, tg.margin,
				m.lost, c.fg, m.sentDuring, tg.streamRate, len(flows), m.othersLost, recover.Round(100*time.Microsecond), m.back.Round(100*time.Microsecond))
			if len(m.examples) > 0 {
				t.Logf("examples:\n%s", strings.Join(m.examples, "\n"))
			}
			t.Logf("data-plane writes: %d to fail over, %d to recover", failWrites, healWrites)
			if stalled > 0 {
				t.Logf("the test process stalled %v during the failover (starved machine): allowed on top of the bound", stalled)
			}
			assert.Equal(t, uint64(1), failWrites, "failure action bypass: one write (the filter group's entry)")
			assert.Equal(t, uint64(1), healWrites, "recovery: one write")
			assert.NotZero(t, m.toBypass, "%s's sessions were never bypassed", c.fg)
			assert.LessOrEqual(t, m.toBypass, bound+stalled, "failover slower than loss threshold x interval + margin")
			assert.Zero(t, m.othersLost, "other groups lost frames")
			assert.Zero(t, m.othersMisrouted, "other groups' frames not through their filter")
			assert.Zero(t, m.lostAfter, "%s's frames lost once in bypass", c.fg)
			assert.NotZero(t, m.back, "%s's sessions never came back to it", c.fg)
			assert.Zero(t, m.afterBack, "%s's frames not through it after recovery", c.fg)
			if c.lossless {
				assert.Zero(t, m.lost, "the filter passed traffic all along: nothing may be lost")
			}
			assert.LessOrEqual(t, m.lost, m.sentDuring+int(tg.interval*time.Duration(tg.streamRate)/time.Second)+5,
				"lost more than was sent before the bypass")
		})
	}
	b.checkStrays()
}

// mode returns a failure or healing step that sets an emulator's mode.
func mode(m filterMode) func(*filterEmu) error {
	return func(f *filterEmu) error { f.setMode(m); return nil }
}

// 5. A filter port going down bypasses its group at once (gNMI port
// status), without waiting for keep-alive losses.
func testPortDown(t *testing.T, tg target) {
	if !tg.gnmi {
		t.Skip(tg.name + " serves no gNMI (port status): the daemon cannot see a port go down; keep-alive loss covers it")
	}
	// Keep-alives fail a filter only after 1,000 losses (20 s) here: the
	// port status alone must bypass the group, and keep-alive losses of a
	// starved machine (3 x 20ms) cannot take the credit.
	b := newBed(t, tg, withFastKeepAlives(), withLossThreshold(1000))
	flows, fgOf := b.streamFlows(300, 5)
	f3 := b.filters["F3"]
	st := b.startStream(t, flows, tg.streamRate)
	time.Sleep(200 * time.Millisecond)
	tFail := time.Now()
	b.setCarrier(f3.wanPort, false)
	b.waitFilter("F3", "down", time.Second)
	detect := time.Since(tFail)
	fs := b.filterStatus("F3")
	assert.Equal(t, "port down", fs.Reason, "failed by the port status, not by keep-alive loss")
	time.Sleep(300 * time.Millisecond)
	tHeal := time.Now()
	b.setCarrier(f3.wanPort, true)
	b.waitFilter("F3", "up", 5*time.Second)
	recover := time.Since(tHeal)
	time.Sleep(300 * time.Millisecond)
	ss := st.end()
	m := b.measureFailover(ss, fgOf, "F3", tFail, tHeal)
	stalled := b.stalls.during(tFail, tFail.Add(m.toBypass))
	t.Logf("F3 WAN port down -> software bypass: daemon %v, data plane %v (keep-alive detection would take >= %v); %d of F3's frames lost (%d sent before the bypass took hold); other groups lost %d; recovery after the port came up: daemon %v, data plane %v",
		detect.Round(100*time.Microsecond), m.toBypass.Round(100*time.Microsecond), time.Duration(lossThreshold)*tg.interval,
		m.lost, m.sentDuring, m.othersLost, recover.Round(100*time.Microsecond), m.back.Round(100*time.Microsecond))
	if len(m.examples) > 0 {
		t.Logf("examples:\n%s", strings.Join(m.examples, "\n"))
	}
	assert.NotZero(t, m.toBypass, "F3's sessions were never bypassed")
	if stalled > 0 {
		t.Logf("the test process stalled %v during the failover (starved machine): allowed on top of the bound", stalled)
	}
	assert.LessOrEqual(t, m.toBypass, tg.margin+stalled, "port down -> bypass")
	assert.Zero(t, m.othersLost, "other groups lost frames")
	assert.Zero(t, m.othersMisrouted, "other groups' frames not through their filter")
	assert.Zero(t, m.lostAfter, "F3's frames lost once in bypass")
	assert.NotZero(t, m.back, "F3's sessions never came back to it")
	assert.Zero(t, m.afterBack, "F3's frames not through it after recovery")
	b.checkStrays()
}

// 5b. The pipeline judges its filters: with the daemon gone (stopped, as
// frozen or crashed: the switch hears nothing from it) a filter that dies
// stops getting its share once the detection time has passed, by the data
// alone. A daemon that comes back learns the standing verdict, keeps the
// filter out of service, and brings it back once it answers.
func testDaemonGone(t *testing.T, tg target) {
	b := newBed(t, tg, withFastKeepAlives())
	flows, _ := b.streamFlows(300, 9)
	detect := time.Duration(lossThreshold) * tg.interval
	b.waitAllUp(5 * time.Second)
	st := b.startStream(t, flows, tg.streamRate)
	f2 := b.filters["F2"]
	time.Sleep(300 * time.Millisecond)
	g0 := f2.got.Load()
	time.Sleep(time.Second)
	share := f2.got.Load() - g0
	require.Greater(t, share, uint64(tg.streamRate/20), "F2 carries its share")
	st.end()
	time.Sleep(300 * time.Millisecond) // nothing in flight
	c0, err := b.d.Counters(context.Background())
	require.NoError(t, err)

	b.stopDaemon() // the controller is gone
	f2.setMode(modeFrozen)
	got0 := f2.got.Load()
	st = b.startStream(t, flows, tg.streamRate)
	tDead := time.Now()
	time.Sleep(detect + 1200*time.Millisecond)
	// Counted by when the stream sent each frame (not when the test
	// process read it: a starved reader would shift the count).
	ss := st.end()
	time.Sleep(300 * time.Millisecond) // nothing in flight
	reachedF2 := f2.got.Load() - got0
	from, to := tDead.Add(detect+100*time.Millisecond), tDead.Add(detect+1100*time.Millisecond)
	got := f2.reached()
	var after, shareSent, sentF2 uint64
	for _, s := range ss {
		if fg, _ := b.placement(s.f); fg != "F2" {
			continue
		}
		sentF2++
		if s.at.After(from) && s.at.Before(to) {
			shareSent++
			if got[s.k] {
				after++
			}
		}
	}
	t.Logf("%s: daemon stopped, F2 frozen: %d of the %d frames of F2's sessions sent in the 1 s from detection (%v) + 100 ms reached it; %d reached it in 1 s before (%.2f%%)",
		tg.name, after, shareSent, detect, share, 100*float64(after)/float64(share))
	assert.Less(t, float64(after), 0.02*float64(share), "under 2%% of F2's share reached it with the daemon gone")

	// A daemon comes back and keeps F2 out of service: it learns the
	// standing verdict from the pipeline's repeat digests, or its own
	// keep-alives fail F2 first (BMv2 holds digests back until the gone
	// controller's last list times out, 500 ms).
	b.startDaemon()
	// The switch's counters, read through the daemon, account for every
	// frame of F2's sessions sent while no daemon ran: it reached F2 (its
	// to-filter count is what the filter got) or the verdict bypassed it.
	var c1 *daemon.Counters
	b.eventually(10*time.Second, func() bool {
		c1, err = b.d.Counters(context.Background())
		return err == nil
	}, "the returning daemon never read the counters")
	var f0, f1 daemon.FilterCounters
	for i := range c1.Filters {
		if c1.Filters[i].Name == "F2" {
			f0, f1 = c0.Filters[i], c1.Filters[i]
		}
	}
	toFilter, vBypass := f1.ToFilter.Packets-f0.ToFilter.Packets, f1.VerdictBypass.Packets-f0.VerdictBypass.Packets
	t.Logf("%s: F2's counters over the stop: to-filter %d (F2 got %d), verdict-bypass %d; frames of its sessions sent %d",
		tg.name, toFilter, reachedF2, vBypass, sentF2)
	assert.Equal(t, reachedF2, toFilter, "F2's to-filter count is what reached it")
	assert.Equal(t, sentF2, toFilter+vBypass, "every frame of F2's sessions reached it or was bypassed by the verdict")
	assert.Zero(t, f1.VerdictDrop.Packets-f0.VerdictDrop.Packets, "failure action bypass: no verdict drop")
	st = b.startStream(t, flows, tg.streamRate)

	var fs daemon.FilterStatus
	ok := assert.Eventually(t, func() bool {
		fs = b.filterStatus("F2")
		return fs.State == "down" && (fs.Reason == "data-plane verdict" && fs.Verdict != "" || fs.Reason == "keep-alive loss")
	}, 10*time.Second, time.Millisecond, "the returning daemon never held F2 down")
	if !ok {
		t.Fatalf("F2: %s (%s), verdict %q, passes %d, losses %d; switch %+v", fs.State, fs.Reason, fs.Verdict, fs.Passes, fs.Losses, b.status().Switch)
	}
	t.Logf("%s: the returning daemon holds F2 down: %s %s", tg.name, fs.Reason, fs.Verdict)
	g2 := f2.got.Load()
	time.Sleep(300 * time.Millisecond)
	assert.Zero(t, f2.got.Load()-g2, "no data to the dead filter once a daemon is back")

	// F2 answers again: recovery is the daemon's.
	f2.setMode(modePass)
	b.waitFilter("F2", "up", 10*time.Second)
	g3 := f2.got.Load()
	time.Sleep(500 * time.Millisecond)
	assert.Greater(t, f2.got.Load()-g3, share/10, "F2 carries traffic again")
	st.end()
	for _, o := range []string{"F1", "F3"} {
		assert.Equal(t, "up", b.filterStatus(o).State, "filter %s", o)
	}
}

// 6. A daemon restart writes nothing to the data plane and loses nothing.
func testDaemonRestart(t *testing.T, tg target) {
	b := newBed(t, tg)
	flows, fgOf := b.streamFlows(200, 6)
	st := b.startStream(t, flows, tg.streamRate)
	time.Sleep(200 * time.Millisecond)
	tStop := time.Now()
	b.stopDaemon()
	time.Sleep(100 * time.Millisecond) // the switch runs on its own
	b.startDaemon()
	b.waitAllUp(tg.ready)
	up := time.Since(tStop)
	time.Sleep(5 * b.interval) // a few keep-alive rounds
	stats := b.d.Session().Stats()
	ss := st.end()
	lost, bypassed := 0, 0
	for _, s := range ss {
		ft := b.fate(s)
		switch {
		case !ft.right:
			lost++
		case ft.filter() != fgOf[s.f.id]:
			bypassed++
		}
	}
	t.Logf("daemon restart: back with every filter up %v after the stop; data-plane writes: %d updates in %d write requests, %d pipeline pushes (%d reconciliations); stream of %d frames: %d lost, %d not through their filter",
		up.Round(time.Millisecond), stats.Updates, stats.WriteRequests, stats.PipelinePushes, stats.Reconciles, len(ss), lost, bypassed)
	assert.Zero(t, stats.Updates, "data-plane writes after a daemon restart")
	assert.Zero(t, stats.PipelinePushes, "pipeline pushes after a daemon restart")
	assert.NotZero(t, stats.Reconciles, "the new daemon reconciled")
	assert.Zero(t, lost, "frames lost across the daemon restart")
	assert.Zero(t, bypassed, "frames that did not cross their filter")
	b.checkStrays()
}

// 7. A switch restart (the switch forgets its pipeline and entries) is
// restored by the daemon; the loss is bounded and reported.
func testSwitchRestart(t *testing.T, tg target) {
	b := newBed(t, tg)
	flows, fgOf := b.streamFlows(200, 7)
	before := b.d.Session().Stats()
	st := b.startStream(t, flows, tg.streamRate)
	time.Sleep(200 * time.Millisecond)
	tStop := time.Now()
	b.stopSwitch()
	b.startSwitch()
	restarted := time.Since(tStop)
	b.eventually(tg.ready, func() bool {
		st := b.d.Session().Stats()
		return st.PipelinePushes > before.PipelinePushes && st.Reconciles > before.Reconciles
	}, "the daemon never restored the restarted switch")
	pushed := time.Since(tStop)
	b.waitAllUp(tg.ready)
	allUp := time.Since(tStop)
	time.Sleep(300 * time.Millisecond)
	after := b.d.Session().Stats()
	ss := st.end()
	lost, first, last := 0, time.Time{}, time.Time{}
	for _, s := range ss {
		if !b.fate(s).right {
			lost++
			if first.IsZero() {
				first = s.at
			}
			last = s.at
		}
	}
	var throughAgain time.Time
	for _, s := range ss {
		if ft := b.fate(s); s.at.After(last) && ft.right && ft.filter() == fgOf[s.f.id] {
			throughAgain = s.at
			break
		}
	}
	t.Logf("%s restart: switch back in %v, pipeline pushed and entries written %v and every filter up %v after the stop; rewrote %d updates; stream of %d frames at %d fps: %d lost, sent from %v to %v after the stop; traffic through the filters again %v after the stop",
		tg.name, restarted.Round(time.Millisecond), pushed.Round(time.Millisecond), allUp.Round(time.Millisecond), after.Updates-before.Updates,
		len(ss), tg.streamRate, lost, first.Sub(tStop).Round(time.Millisecond), last.Sub(tStop).Round(time.Millisecond), throughAgain.Sub(tStop).Round(time.Millisecond))
	assert.False(t, throughAgain.IsZero(), "traffic never came back through the filters")
	// Bounded: nothing is lost after the daemon has restored the switch,
	// so the loss is at most the outage (restart + reconnect + push).
	assert.LessOrEqual(t, lost, int(allUp*time.Duration(tg.streamRate)/time.Second)+tg.streamRate/10, "loss beyond the outage")
	lateLost := 0
	for _, s := range ss {
		if s.at.After(tStop.Add(allUp)) && !b.fate(s).right {
			lateLost++
		}
	}
	assert.Zero(t, lateLost, "frames lost after the daemon restored the switch")
	b.checkStrays()
}

// 8. Manual bypass of everything: all traffic passes without the filters;
// turning it off brings it back through them.
func testBypassAll(t *testing.T, tg target) {
	b := newBed(t, tg)
	flows, fgOf := b.streamFlows(200, 8)
	probe := flows[0]
	ctx := context.Background()

	tOn := time.Now()
	require.NoError(t, b.d.SetBypass(ctx, "", true))
	took := b.probeUntil(probe, lanToWAN, 5*time.Second, func(ft fate) bool { return ft.right && ft.filter() == "" }).Sub(tOn)
	st := b.status()
	assert.True(t, st.Bypass.All)
	for _, g := range st.Balance {
		assert.Equal(t, "bypass", g.State, "balance group %s", g.Name)
	}
	ss := b.sendBatch(flows, lanToWAN, wanToLAN)
	for _, s := range ss {
		b.checkBypassed(t, s)
	}
	t.Logf("bypass of everything in effect %v after the request (first bypassed probe); %d frames passed without the filters",
		took.Round(100*time.Microsecond), len(ss))

	tOff := time.Now()
	require.NoError(t, b.d.SetBypass(ctx, "", false))
	took = b.probeUntil(probe, lanToWAN, 5*time.Second, func(ft fate) bool { return ft.right && ft.filter() == fgOf[probe.id] }).Sub(tOff)
	ss = b.sendBatch(flows, lanToWAN, wanToLAN)
	for _, s := range ss {
		fg, core := b.placement(s.f)
		b.checkPassed(t, s, fg, core)
	}
	t.Logf("bypass off: traffic through the filters again %v after the request", took.Round(100*time.Microsecond))
	b.checkStrays()
}

// probeUntil sends frames of f until one's fate satisfies ok, and returns
// when that frame was sent.
func (b *bed) probeUntil(f *flow, d dir, within time.Duration, ok func(fate) bool) time.Time {
	b.t.Helper()
	start := time.Now()
	for time.Since(start) < within {
		s := b.send(f, d)
		b.waitOut([]sent{s}, 20*time.Millisecond)
		if ok(b.fate(s)) {
			return s.at
		}
	}
	b.t.Fatalf("%v: the data plane never changed (waited %v)", f, within)
	return time.Time{}
}

// 9. The rebalance profile: a failed filter's sessions move to the
// survivors; sessions on surviving filters keep their filter and core;
// recovery restores the original placement.
func testRebalance(t *testing.T, tg target) {
	// Relaxed keep-alives: placements are the subject here, not timing, and
	// its 3000-frame batches load BMv2 enough that 3 x 20ms keep-alives
	// can queue behind them when other tests share the CPUs.
	b := newBed(t, tg, withFailureAction("rebalance"))
	n := 3000
	if testing.Short() {
		n = 1000
	}
	flows := genFlows(n, len(b.links), 1, 9)
	type fc struct {
		fg   string
		core uint32
	}
	place := func(ss []sent) (map[uint32]fc, int) {
		out, bad := map[uint32]fc{}, 0
		for _, s := range ss {
			ft := b.fate(s)
			if !ft.right || len(ft.via) != 1 {
				bad++
				continue
			}
			out[s.f.id] = fc{ft.via[0].fg, ft.via[0].core}
		}
		return out, bad
	}
	base, bad := place(b.sendBatch(flows, lanToWAN))
	require.Zero(t, bad, "frames not delivered through one filter before the failure")
	var onF2 *flow
	for _, f := range flows {
		if base[f.id].fg == "F2" {
			onF2 = f
			break
		}
	}
	require.NotNil(t, onF2)

	updates := b.d.Session().Stats().Updates
	tFail := time.Now()
	b.filters["F2"].setMode(modeFrozen)
	b.waitFilter("F2", "down", 10*time.Duration(lossThreshold)*b.interval+tg.margin)
	took := b.probeUntil(onF2, lanToWAN, 5*time.Second, func(ft fate) bool { return ft.right && ft.filter() != "" && ft.filter() != "F2" }).Sub(tFail)
	wrote := b.d.Session().Stats().Updates - updates
	assert.Equal(t, "rebalanced", b.filterStatus("F2").Effective)

	failed, bad := place(b.sendBatch(flows, lanToWAN))
	assert.Zero(t, bad, "frames not delivered through one filter after the failure")
	moved, kept, wrongMoves := 0, 0, 0
	perSurvivor := map[string]int{}
	for _, f := range flows {
		a, z := base[f.id], failed[f.id]
		if a.fg == "F2" {
			moved++
			perSurvivor[z.fg]++
			if z.fg == "F2" || z.fg == "" {
				wrongMoves++
			}
			continue
		}
		if assert.Equal(t, a, z, "%v: a survivor's session moved", f) {
			kept++
		}
	}
	assert.Zero(t, wrongMoves, "F2's sessions must go to a surviving filter")
	t.Logf("rebalance: F2 failed -> its sessions on the survivors %v after the failure (%d slot updates written); %d of %d sessions moved (all of F2's, to %v), %d kept their filter and core, 0%% of the survivors' sessions disturbed",
		took.Round(time.Millisecond), wrote, moved, len(flows), perSurvivor, kept)

	b.filters["F2"].setMode(modePass)
	b.waitFilter("F2", "up", 5*time.Second)
	b.probeUntil(onF2, lanToWAN, 5*time.Second, func(ft fate) bool { return ft.right && ft.filter() == "F2" })
	back, bad := place(b.sendBatch(flows, lanToWAN))
	assert.Zero(t, bad)
	diff := 0
	for _, f := range flows {
		if back[f.id] != base[f.id] {
			diff++
		}
	}
	assert.Zero(t, diff, "sessions not back at their original filter and core after recovery")
	b.checkStrays()
}
