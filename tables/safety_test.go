package tables_test

import (
	"fmt"
	"math/rand/v2"
	"net"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/gopacket/gopacket/layers"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sim/dataplane"
	"github.com/dpi-balancer/balancer/tables"
)

// These tests run traffic through the software switch's data plane while a
// Plan's batches are written, to prove that every state the switch passes
// through is safe: each packet is treated as before the change or as after
// it, and no packet that both send to a filter ever skips it.

// safeSite is a configuration the tests mutate: one balance group G over
// some of eight filter groups, two links, and a list of rules.
type safeSite struct {
	slotBits uint32
	cores    [8]uint32 // per filter group F0..F7
	members  []int     // filter group indexes in G
	action   string    // G's failure action
	rules    []safeRule
	noL2     bool // link L2 (and its rules) removed
}

type safeRule struct {
	name  string
	prio  int
	links string // "", "[L1]", "[L2]"
	match string // a YAML flow mapping
	bal   bool
}

func (s safeSite) yaml() []byte {
	// Priorities are unique (validation refuses ties): bump later ones.
	used := map[int]bool{}
	for i := range s.rules {
		for used[s.rules[i].prio] {
			s.rules[i].prio++
		}
		used[s.rules[i].prio] = true
	}
	var b strings.Builder
	b.WriteString("site: safety\nplatform: sim\ndefaults: {cores: 2, slot_bits: 4}\nports:\n")
	for _, p := range []int{1, 2, 3, 4} {
		fmt.Fprintf(&b, "  - {port: %d, speed: 100G}\n", p)
	}
	for _, p := range []int{5, 6, 7, 8} {
		fmt.Fprintf(&b, "  - {port: %d, speed: 10G, breakout: 4}\n", p)
	}
	b.WriteString("links:\n  - {name: L1, lan: P2, wan: P1}\n")
	if !s.noL2 {
		b.WriteString("  - {name: L2, lan: P4, wan: P3}\n")
	}
	b.WriteString("filter_groups:\n")
	for i, c := range s.cores {
		if i != 7 && !slices.Contains(s.members, i) {
			continue // only members and F7 exist: adding a member adds its entries
		}
		p := 5 + i/2
		l := 2 * (i % 2)
		fmt.Fprintf(&b, "  - {name: F%d, id: %d, lan: P%d%d, wan: P%d%d, cores: %d}\n", i, i, p, l+2, p, l+1, c)
	}
	names := make([]string, len(s.members))
	for i, m := range s.members {
		names[i] = fmt.Sprintf("F%d", m)
	}
	fmt.Fprintf(&b, "balance_groups:\n  - {name: G, members: [%s], slot_bits: %d, failure_action: %s}\nrules:\n",
		strings.Join(names, ", "), s.slotBits, s.action)
	for _, r := range s.rules {
		if s.noL2 && r.links == "[L2]" {
			continue
		}
		act := "bypass"
		if r.bal {
			act = "balance G"
		}
		links := ""
		if r.links != "" {
			links = ", links: " + r.links
		}
		fmt.Fprintf(&b, "  - {name: %s, priority: %d%s, match: %s, action: %s}\n", r.name, r.prio, links, r.match, act)
	}
	return []byte(b.String())
}

func (s safeSite) clone() safeSite {
	s.members = slices.Clone(s.members)
	s.rules = slices.Clone(s.rules)
	return s
}

// filterPorts are the data-plane ports of F0..F7 (platform sim: port p
// lane l is p*10+l).
func filterPorts() map[uint32]bool {
	m := map[uint32]bool{}
	for i := 0; i < 8; i++ {
		p := uint32(5 + i/2)
		l := uint32(2 * (i % 2))
		m[p*10+l+1], m[p*10+l+2] = true, true
	}
	return m
}

type class uint8

const (
	clsDrop class = iota
	clsBypass
	clsFilter
	clsOther
)

func (c class) String() string { return [...]string{"drop", "bypass", "filter", "other"}[c] }

// harness holds the data plane, the compiler and the probe traffic.
type harness struct {
	t      *testing.T
	rng    *rand.Rand
	dp     *dataplane.Dataplane
	comp   *tables.Compiler
	pkts   []dataplane.Packet
	fports map[uint32]bool
	// prev is the base layout of G the switch was last programmed with
	// (the planned layout's input).
	prev map[string]*tables.Layout

	probes, filtered int // probe points and packets sent to a filter, in all
}

func newHarness(t *testing.T, seed uint64) *harness {
	schema, err := p4src.Load()
	require.NoError(t, err)
	comp, err := tables.New(schema)
	require.NoError(t, err)
	dp, err := dataplane.New(schema, dataplane.WithClock(func() uint64 { return 1 }))
	require.NoError(t, err)
	h := &harness{t: t, rng: rand.New(rand.NewPCG(seed, 7)), dp: dp, comp: comp, fports: filterPorts()}
	// Probe traffic: TCP and UDP flows on both sides of both links.
	src, dst := net.HardwareAddr{2, 0, 0, 0, 0, 1}, net.HardwareAddr{2, 0, 0, 0, 0, 2}
	ports := []uint16{53, 80, 179, 443, 8080}
	for i := 0; i < 64; i++ {
		a := netip.AddrFrom4([4]byte{10, byte(i % 4), byte(h.rng.IntN(256)), byte(h.rng.IntN(256))})
		z := netip.AddrFrom4([4]byte{192, 168, byte(h.rng.IntN(4)), byte(h.rng.IntN(256))})
		proto := layers.IPProtocolTCP
		if i%3 == 0 {
			proto = layers.IPProtocolUDP
		}
		f := pipelinecases.Frame(src, dst, pipelinecases.Encap{}, pipelinecases.L3{Src: a, Dst: z, Proto: proto,
			SrcPort: uint16(1024 + h.rng.IntN(60000)), DstPort: ports[i%len(ports)]})
		for _, in := range []uint32{10, 20, 30, 40} {
			h.pkts = append(h.pkts, dataplane.Packet{InPort: in, Frame: f, Buf: make([]byte, 0, len(f)+8)})
		}
	}
	return h
}

// probe sends the probe traffic and classifies each packet's outcome.
func (h *harness) probe() []class {
	h.dp.ProcessBatch(h.pkts)
	out := make([]class, len(h.pkts))
	for i, p := range h.pkts {
		switch r := p.Result; {
		case r.Kind == dataplane.Drop:
			out[i] = clsDrop
		case r.Kind == dataplane.Forward && h.fports[r.Port]:
			out[i] = clsFilter
		case r.Kind == dataplane.Forward:
			out[i] = clsBypass
		default:
			out[i] = clsOther
		}
	}
	return out
}

func (h *harness) current() []*p4v1.Entity {
	tq, vq := h.comp.ReadQueries()
	q := append(tq, vq...)
	var out []*p4v1.Entity
	require.NoError(h.t, h.dp.Read(q, func(e *p4v1.Entity) bool { out = append(out, e); return true }))
	return out
}

// desired compiles a site in a runtime state, with the planned layout
// starting from the last programmed one.
func (h *harness) desired(s safeSite, st tables.State) *tables.Desired {
	cfg, err := config.Parse(s.yaml())
	require.NoError(h.t, err, "%s", s.yaml())
	d, err := h.comp.Compile(cfg, st, tables.FromLayouts(h.prev))
	require.NoError(h.t, err)
	return d
}

func (h *harness) commit(d *tables.Desired) {
	h.prev = d.BaseLayouts()
}

func (h *harness) write(us []*p4v1.Update) {
	for i, err := range h.dp.Write(us, p4v1.WriteRequest_CONTINUE_ON_ERROR) {
		require.NoError(h.t, err, "update %d: %v", i, us[i])
	}
}

// violations counts, over the probe traffic, the packets treated neither
// as before nor as after the change, and among them those that skipped a
// filter both send them to.
type violations struct{ neither, skipped int }

func (h *harness) check(before, after []class, where string, v *violations) {
	got := h.probe()
	h.probes++
	for i, c := range got {
		if c == clsFilter {
			h.filtered++
		}
		if c == before[i] || c == after[i] {
			continue
		}
		v.neither++
		if c == clsBypass && before[i] == clsFilter && after[i] == clsFilter {
			v.skipped++
		}
		if v.neither <= 3 {
			h.t.Logf("%s: packet %d (port %d) %s, before %s, after %s", where, i, h.pkts[i].InPort, c, before[i], after[i])
		}
	}
}

// apply writes plan the way a target may: each batch's updates in a random
// order, in up to four writes, probing after every write. With stopAfter
// >= 0 it stops after that many writes (a controller killed mid-change)
// and returns false.
func (h *harness) apply(plan *tables.Plan, before, after []class, v *violations, stopAfter int) bool {
	writes := 0
	for _, b := range plan.Batches {
		us := slices.Clone(b.Updates)
		h.rng.Shuffle(len(us), func(i, j int) { us[i], us[j] = us[j], us[i] })
		n := min(len(us), 1+h.rng.IntN(4))
		for k := 0; k < n; k++ {
			if stopAfter >= 0 && writes == stopAfter {
				return false
			}
			h.write(us[k*len(us)/n : (k+1)*len(us)/n])
			writes++
			h.check(before, after, b.Name, v)
		}
	}
	return true
}

// change programs s in state st from whatever the switch holds, probing
// every intermediate state against the states before and after. With
// kill, the first attempt stops at a random write and a fresh reconcile
// (read back, Diff, write) finishes the change.
func (h *harness) change(s safeSite, st tables.State, kill bool, v *violations) {
	before := h.probe()
	des := h.desired(s, st)
	// The state after, measured on a scratch data plane.
	after := h.steady(des)
	plan := h.comp.Diff(des.Entities, h.current())
	if kill && plan.Len() > 0 {
		h.apply(plan, before, after, v, h.rng.IntN(plan.Len()+1))
		plan = h.comp.Diff(des.Entities, h.current())
	}
	require.True(h.t, h.apply(plan, before, after, v, -1))
	require.True(h.t, h.comp.Diff(des.Entities, h.current()).Empty(), "the change is complete")
	require.Equal(h.t, after, h.probe())
	h.commit(des)
}

// steady is the outcome of the probe traffic on a switch holding exactly
// des (written in one go on a scratch data plane).
func (h *harness) steady(des *tables.Desired) []class {
	dp, err := dataplane.New(h.comp.Schema(), dataplane.WithClock(func() uint64 { return 1 }))
	require.NoError(h.t, err)
	saved := h.dp
	h.dp = dp
	defer func() { h.dp = saved }()
	var all []*p4v1.Update
	for _, b := range h.comp.Diff(des.Entities, nil).Batches {
		all = append(all, b.Updates...)
	}
	h.write(all)
	return h.probe()
}

func baseSafeSite() safeSite {
	s := safeSite{slotBits: 6, cores: [8]uint32{4, 4, 4, 2, 3, 8, 1, 4}, members: []int{0, 1, 2}, action: "rebalance"}
	s.rules = []safeRule{
		{"bgp", 100, "", "{proto: tcp, l4_port: 179}", false},
		{"dns-l2", 50, "[L2]", "{proto: udp, l4_dst: 53}", true},
		{"net1", 40, "", "{src: 10.1.0.0/16}", false},
		{"all", 10, "", "{}", true},
	}
	return s
}

// randomRule makes a rule with a random match and action.
func randomRule(rng *rand.Rand, name string) safeRule {
	matches := []string{
		"{proto: tcp}", "{proto: udp}", "{proto: tcp, l4_dst: 80}", "{l4_port: 443}", "{l4_dst: 8000-8100}",
		fmt.Sprintf("{src: 10.%d.0.0/16}", rng.IntN(4)), fmt.Sprintf("{dst: 192.168.%d.0/24}", rng.IntN(4)),
		fmt.Sprintf("{src: 10.%d.128.0/17, proto: udp}", rng.IntN(4)), "{}",
	}
	links := []string{"", "", "[L1]", "[L2]"}
	return safeRule{name: name, prio: 2 + rng.IntN(200), links: links[rng.IntN(len(links))],
		match: matches[rng.IntN(len(matches))], bal: rng.IntN(2) == 0}
}

func TestChangesNeverSkipAFilter(t *testing.T) {
	const n = 100 // changes of each kind
	kinds := []struct {
		name string
		// step mutates the site (and state) for change i.
		step func(rng *rand.Rand, i int, s *safeSite, st *tables.State)
	}{
		{"slot grow and shrink", func(rng *rand.Rand, i int, s *safeSite, _ *tables.State) {
			if i%2 == 0 {
				s.slotBits = uint32(4 + rng.IntN(4)) // 4..7
			} else {
				s.slotBits = uint32(8 + rng.IntN(3)) // 8..10: a grow
			}
		}},
		{"member add and remove", func(rng *rand.Rand, i int, s *safeSite, st *tables.State) {
			*st = tables.State{}
			if i%2 == 0 || len(s.members) == 1 {
				var out []int
				for f := 0; f < 8; f++ {
					if !slices.Contains(s.members, f) {
						out = append(out, f)
					}
				}
				at := rng.IntN(len(s.members) + 1)
				f := out[rng.IntN(len(out))]
				s.members = slices.Insert(s.members, at, f)
				if rng.IntN(4) == 0 { // it joins failed or bypassed
					states := []tables.FilterGroupState{tables.FGDrop, tables.FGSWBypass}
					st.FilterGroups = map[string]tables.FilterGroupState{fmt.Sprintf("F%d", f): states[rng.IntN(2)]}
				}
			} else {
				at := rng.IntN(len(s.members))
				s.members = slices.Delete(s.members, at, at+1)
			}
			if rng.IntN(4) == 0 { // and a resize now and then
				s.cores[rng.IntN(8)] = uint32(1 + rng.IntN(8))
			}
		}},
		{"rule changes", func(rng *rand.Rand, i int, s *safeSite, _ *tables.State) {
			switch k := rng.IntN(4); {
			case k == 0 || len(s.rules) < 3: // add
				s.rules = append(s.rules, randomRule(rng, fmt.Sprintf("r%d", i)))
			case k == 1: // remove
				at := rng.IntN(len(s.rules))
				s.rules = slices.Delete(s.rules, at, at+1)
			case k == 2: // flip the action
				at := rng.IntN(len(s.rules))
				s.rules[at].bal = !s.rules[at].bal
			default: // new match and priority
				at := rng.IntN(len(s.rules))
				s.rules[at] = randomRule(rng, s.rules[at].name)
			}
		}},
		{"link add and remove", func(rng *rand.Rand, i int, s *safeSite, _ *tables.State) {
			s.noL2 = i%2 == 0
			if rng.IntN(2) == 0 {
				s.rules = append(s.rules, safeRule{fmt.Sprintf("l%d", i), 150 + rng.IntN(50), "[L2]", "{proto: udp}", rng.IntN(2) == 0})
			}
		}},
		{"failover and recovery", func(rng *rand.Rand, i int, s *safeSite, st *tables.State) {
			*st = tables.State{}
			if i%2 == 1 {
				return // recovery
			}
			name := fmt.Sprintf("F%d", s.members[rng.IntN(len(s.members))])
			switch rng.IntN(3) {
			case 0:
				st.Rebalanced = map[string]bool{name: true}
				st.FilterGroups = map[string]tables.FilterGroupState{name: tables.FGSWBypass}
			case 1:
				st.FilterGroups = map[string]tables.FilterGroupState{name: tables.FGSWBypass}
			default:
				st.FilterGroups = map[string]tables.FilterGroupState{name: tables.FGDrop}
			}
		}},
	}
	for ki, kind := range kinds {
		t.Run(kind.name, func(t *testing.T) {
			h := newHarness(t, uint64(ki+1))
			s, st := baseSafeSite(), tables.State{}
			var v violations
			h.change(s, st, false, &v)
			for i := 0; i < n; i++ {
				kind.step(h.rng, i, &s, &st)
				h.change(s, st, false, &v)
			}
			assert.Zero(t, v.skipped, "packets that skipped a filter they were meant for")
			assert.Zero(t, v.neither, "packets treated neither as before nor as after a change")
			t.Logf("%d changes, %d probe points, %d packets to filters, %d skipped, %d neither", n, h.probes, h.filtered, v.skipped, v.neither)
			require.Greater(t, h.filtered, 0)
		})
	}
}

// TestKilledMidChangeIsSafe stops the writes at a random point of 50
// applies of every kind (a controller killed with -9) and lets a fresh
// reconcile from what the switch holds finish the change, checking every
// state on the way.
func TestKilledMidChangeIsSafe(t *testing.T) {
	h := newHarness(t, 99)
	s, st := baseSafeSite(), tables.State{}
	var v violations
	h.change(s, st, false, &v)
	for i := 0; i < 50; i++ {
		switch i % 4 {
		case 0:
			s.slotBits = uint32(4 + h.rng.IntN(7))
		case 1:
			if f := 3 + h.rng.IntN(5); len(s.members) < 5 && !slices.Contains(s.members, f) {
				s.members = append(s.members, f)
			} else {
				s.members = s.members[:2]
			}
		case 2:
			s.rules = append(s.rules[:min(len(s.rules), 6)], randomRule(h.rng, fmt.Sprintf("k%d", i)))
		case 3:
			if st.Rebalanced == nil {
				st = tables.State{Rebalanced: map[string]bool{"F1": true}, FilterGroups: map[string]tables.FilterGroupState{"F1": tables.FGSWBypass}}
			} else {
				st = tables.State{}
			}
		}
		h.change(s.clone(), st, true, &v)
	}
	assert.Zero(t, v.skipped, "packets that skipped a filter they were meant for")
	assert.Zero(t, v.neither, "packets treated neither as before nor as after a change")
	t.Logf("50 killed applies, %d probe points, %d packets to filters", h.probes, h.filtered)
}

// TestSafetyHarnessCatchesUnsafeOrder shows the harness fails when the
// order is wrong: moving one batch to the front of the plan (a slot grow
// with the wider mask before the new slots, the order this package used to
// produce; a failed filter group taken out of service before its slots are
// dealt to the survivors; a lower-priority rule written before a higher
// one) sends packets past the filters.
func TestSafetyHarnessCatchesUnsafeOrder(t *testing.T) {
	grow := func(s *safeSite) { s.slotBits = 10 }
	for _, tt := range []struct {
		name   string
		st     tables.State
		mutate func(*safeSite)
		first  string
	}{
		{"mask before slots", tables.State{}, grow, "balance groups"},
		{"filter out of service before its slots move", tables.State{
			Rebalanced:   map[string]bool{"F1": true},
			FilterGroups: map[string]tables.FilterGroupState{"F1": tables.FGSWBypass}}, nil, "filter groups out of service"},
		// TCP bypasses, except port 80, which is inspected: written
		// lowest priority first, port 80 bypasses in between.
		{"a lower rule before a higher one", tables.State{}, func(s *safeSite) {
			s.rules = append(s.rules,
				safeRule{"tcp", 60, "", "{proto: tcp}", false},
				safeRule{"web", 70, "", "{proto: tcp, l4_dst: 80}", true})
		}, "rules at priority 120"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, 3)
			s := baseSafeSite()
			h.change(s, tables.State{}, false, &violations{})
			before := h.probe()
			if tt.mutate != nil {
				tt.mutate(&s)
			}
			des := h.desired(s, tt.st)
			after := h.steady(des)
			plan := h.comp.Diff(des.Entities, h.current())
			slices.SortStableFunc(plan.Batches, func(a, b tables.Batch) int {
				return cmpBool(b.Name == tt.first, a.Name == tt.first)
			})
			require.Equal(t, tt.first, plan.Batches[0].Name)
			var v violations
			h.apply(plan, before, after, &v, -1)
			assert.Greater(t, v.skipped, 0, "the harness must catch packets skipping a filter")
		})
	}
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
