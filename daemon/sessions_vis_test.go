package daemon

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/sessionmem"
	"github.com/dpi-balancer/balancer/sim/dataplane"
	"github.com/dpi-balancer/balancer/tables"
)

// placedAt is where a frame went: the filter group (lanFG) and the core
// of its core header (-1, 0 when it went to no filter).
type placedAt struct {
	fg   int
	core uint32
}

func placeOf(t testing.TB, r dataplane.Result) placedAt {
	t.Helper()
	fg := lanFG(r.Port)
	if fg < 0 || len(r.Frame) < wire.CoreHeaderOffset+wire.CoreHeaderLen {
		return placedAt{fg: -1}
	}
	h, ok := wire.ParseCoreHeader(r.Frame[wire.CoreHeaderOffset:])
	require.True(t, ok)
	return placedAt{fg: fg, core: h.Core}
}

// slotTargetsOf reads the slots table back: every slot's filter group and
// core, of balance group 0.
func slotTargetsOf(t testing.TB, dp *dataplane.Dataplane) map[uint32]tables.Target {
	t.Helper()
	s := dp.Schema()
	tb, err := s.Table(p4src.TableSlots)
	require.NoError(t, err)
	slotField, err := tb.Field("slot")
	require.NoError(t, err)
	act, err := s.Action(p4src.ActionToFilter)
	require.NoError(t, err)
	fgParam, err := act.Param("filter_group")
	require.NoError(t, err)
	coreParam, err := act.Param("core")
	require.NoError(t, err)
	out := map[uint32]tables.Target{}
	require.NoError(t, dp.Read([]*p4v1.Entity{{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: tb.GetPreamble().GetId()}}}}, func(e *p4v1.Entity) bool {
		te := e.GetTableEntry()
		var slot uint64
		var tg tables.Target
		for _, m := range te.GetMatch() {
			if m.GetFieldId() == slotField.GetId() {
				slot = wire.Uint(m.GetExact().GetValue())
			}
		}
		for _, p := range te.GetAction().GetAction().GetParams() {
			switch p.GetParamId() {
			case fgParam.GetId():
				tg.FilterGroup = uint32(wire.Uint(p.GetValue()))
			case coreParam.GetId():
				tg.Core = uint32(wire.Uint(p.GetValue()))
			}
		}
		out[uint32(slot)] = tg
		return true
	}))
	return out
}

// The preview of a planned change (a dry run) counts the held sessions on
// the software switch: with F3 joining, every held session stays (0
// move) and the count that would have moved without the memory is exactly
// the held sessions whose slot the applied change then points elsewhere;
// removing F3, or halving its cores, moves exactly the sessions held on
// what it takes out. Applied, the change moves none of them.
func TestSessionMemoryDryRunCountsHeldSessions(t *testing.T) {
	path := writeSite(t, sessionsSite(t, "F1, F2", "tcp: 300s"))
	b := newBedFor(t, path, 0)
	d, _ := b.startDaemon(1)
	b.allUp(d)
	dp := b.sw.Dataplane()
	const n = 400
	old := manySessions(n, 6)
	placed := map[twoWay]placedAt{}
	for _, s := range old {
		out, back := s.frames(layers.IPProtocolTCP)
		placed[s] = placeOf(t, dp.Process(20, out, nil))
		require.GreaterOrEqual(t, placed[s].fg, 0)
		dp.Process(10, back, nil)
	}
	require.Eventually(t, func() bool { return d.SessionMemory().Held == n }, 30*time.Second, 5*time.Millisecond, "%+v", d.SessionMemory())

	ctx := context.Background()
	three := sessionsSite(t, "F1, F2, F3", "tcp: 300s")
	res, err := d.ApplyConfig(ctx, []byte(three), true, "F3 joins (dry run)")
	require.NoError(t, err)
	require.True(t, res.SessionMemory)
	require.Len(t, res.Slots, 1)
	require.Positive(t, res.Slots[0].Slots, "the change rewrites slots for new sessions")
	hm := res.HeldSessions["G"]
	assert.Equal(t, HeldMove{Held: n, Stay: n, Leave: 0, WouldMove: hm.WouldMove}, hm, "every held session stays")
	require.Positive(t, hm.WouldMove)

	_, err = d.ApplyConfig(ctx, []byte(three), false, "F3 joins")
	require.NoError(t, err)
	waitSettled(t, d)
	b.allUp(d)
	slots := slotTargetsOf(t, dp)
	wouldMove, moved := 0, 0
	for _, s := range old {
		k := sessionmem.AddrKey(0, s.a, s.b, 6)
		tg := slots[k.Hash()&0xff]
		if int(tg.FilterGroup) != placed[s].fg || tg.Core != placed[s].core {
			wouldMove++
		}
		out, _ := s.frames(layers.IPProtocolTCP)
		if placeOf(t, dp.Process(20, out, nil)) != placed[s] {
			moved++
		}
	}
	assert.Equal(t, wouldMove, hm.WouldMove, "the preview's count of held sessions the slots move is the switch's")
	assert.Zero(t, moved, "the applied change moved no held session (the preview said 0)")
	t.Logf("dry run of F3 joining with %d held sessions: %d slots rewritten, %+v; applied: %d moved, %d would have", n, res.Slots[0].Slots, hm, moved, wouldMove)

	// Held sessions on F3 now (new ones): learn some.
	fresh := manySessions(300, 7)
	onF3 := map[uint32]int{} // core -> held sessions
	for _, s := range fresh {
		out, _ := s.frames(layers.IPProtocolTCP)
		if p := placeOf(t, dp.Process(20, out, nil)); p.fg == 2 {
			onF3[p.core]++
		}
	}
	require.Eventually(t, func() bool { return d.SessionMemory().Held == n+len(fresh) }, 30*time.Second, 5*time.Millisecond, "%+v", d.SessionMemory())
	f3, f3high := 0, 0
	for c, k := range onF3 {
		f3 += k
		if c >= 2 {
			f3high += k
		}
	}
	require.Positive(t, f3high)

	// F3 removed: its held sessions leave; the others stay.
	gone := strings.Replace(three, "members: [F1, F2, F3]", "members: [F1, F2]", 1)
	gone = strings.Replace(gone, "  - {name: F3, lan: P8, wan: P7, cores: 4}\n", "", 1)
	require.NotContains(t, gone, "F3")
	res, err = d.ApplyConfig(ctx, []byte(gone), true, "F3 leaves (dry run)")
	require.NoError(t, err)
	total := n + len(fresh)
	assert.Equal(t, total, res.HeldSessions["G"].Held)
	assert.Equal(t, f3, res.HeldSessions["G"].Leave, "F3's held sessions leave it")
	assert.Equal(t, total-f3, res.HeldSessions["G"].Stay)
	removed := res.HeldSessions["G"]

	// F3 down to 2 cores: its held sessions on cores 2 and 3 leave them.
	halved := strings.Replace(three, "{name: F3, lan: P8, wan: P7, cores: 4}", "{name: F3, lan: P8, wan: P7, cores: 2}", 1)
	require.NotEqual(t, three, halved)
	res, err = d.ApplyConfig(ctx, []byte(halved), true, "F3 on 2 cores (dry run)")
	require.NoError(t, err)
	assert.Equal(t, f3high, res.HeldSessions["G"].Leave, "the held sessions on F3's cores 2 and 3")
	assert.Equal(t, total-f3high, res.HeldSessions["G"].Stay)
	t.Logf("F3 held %d sessions (%d on cores 2-3): removing F3 previews %+v; halving its cores %+v", f3, f3high, removed, res.HeldSessions["G"])
}

// trace says whether a session is held and where, as the switch forwards
// it: after F3 joins, a held session whose slot now points elsewhere is
// traced to its entry's filter group and core (where the software switch
// sends it), a session never seen to its slot; counters shows the
// session table's counts, the switch's per filter group.
func TestSessionMemoryTraceAndCounters(t *testing.T) {
	const n = 300
	b, d, old, placed := heldSessionsBed(t, n, 8)
	dp := b.sw.Dataplane()
	ctx := context.Background()

	trace := func(s twoWay) *TraceResult {
		t.Helper()
		r, err := d.Trace(ctx, TraceRequest{Link: "L1", Side: "lan", Src: s.a, Dst: s.b, Proto: 6, SrcPort: 40000, DstPort: 443})
		require.NoError(t, err)
		return r
	}
	fgName := []string{"F1", "F2", "F3"}
	lanName := []string{"P4", "P6", "P8"}
	r := trace(old[0])
	assert.Equal(t, "held", r.Session)
	assert.Equal(t, fgName[placed[old[0]].fg], r.FilterGroup)
	assert.Equal(t, r.FilterGroup, r.SlotFilterGroup, "before the change the slot points where the session is held")

	_, err := d.ApplyConfig(ctx, []byte(sessionsSite(t, "F1, F2, F3", "tcp: 300s")), false, "F3 joins")
	require.NoError(t, err)
	waitSettled(t, d)
	b.allUp(d)
	slots := slotTargetsOf(t, dp)
	elsewhere := 0
	for _, s := range old {
		k := sessionmem.AddrKey(0, s.a, s.b, 6)
		tg := slots[k.Hash()&0xff]
		if int(tg.FilterGroup) == placed[s].fg && tg.Core == placed[s].core {
			continue
		}
		elsewhere++
		r := trace(s)
		require.Equal(t, "held", r.Session, "%v", r.Steps)
		assert.Equal(t, fgName[placed[s].fg], r.FilterGroup, "held on its filter group")
		assert.Equal(t, placed[s].core, r.Core, "and core")
		assert.Equal(t, fgName[tg.FilterGroup], r.SlotFilterGroup, "its slot points elsewhere")
		assert.Equal(t, tg.Core, r.SlotCore)
		assert.Equal(t, lanName[placed[s].fg], r.OutPort)
		assert.Equal(t, "to filter", r.Verdict)
		out, _ := s.frames(layers.IPProtocolTCP)
		assert.Equal(t, placed[s], placeOf(t, dp.Process(20, out, nil)), "the switch sends it where trace says")
		if elsewhere == 1 {
			t.Logf("trace of a held session whose slot moved:\n  %s", strings.Join(r.Steps, "\n  "))
		}
	}
	require.Positive(t, elsewhere)

	fresh := manySessions(1, 9)[0]
	r = trace(fresh)
	assert.Equal(t, "not held", r.Session, "%v", r.Steps)
	k := sessionmem.AddrKey(0, fresh.a, fresh.b, 6)
	tg := slots[k.Hash()&0xff]
	assert.Equal(t, fgName[tg.FilterGroup], r.FilterGroup, "a session not held goes where its slot points")
	assert.Equal(t, tg.Core, r.Core)
	out, _ := fresh.frames(layers.IPProtocolTCP)
	assert.Equal(t, placedAt{int(tg.FilterGroup), tg.Core}, placeOf(t, dp.Process(20, out, nil)))

	require.Eventually(t, func() bool { return d.SessionMemory().Held == n+1 }, 30*time.Second, 5*time.Millisecond, "%+v", d.SessionMemory())
	c, err := d.Counters(ctx)
	require.NoError(t, err)
	require.NotNil(t, c.SessionMemory, "counters show the session memory")
	sm := c.SessionMemory
	_, by := heldOnSwitch(t, dp)
	assert.Equal(t, n+1, sm.Held)
	assert.Equal(t, uint64(n+1), sm.Inserted)
	assert.Zero(t, sm.Evicted)
	assert.Zero(t, sm.Full)
	assert.InDelta(t, float64(n+1)/float64(sm.Size), sm.Occupied, 1e-12)
	got := map[string]int{}
	for _, g := range sm.Groups {
		got[g.Name] = g.Held
	}
	want := map[string]int{}
	for fg, c := range by {
		want[fgName[fg]] = c
	}
	assert.Equal(t, want, got, "held per filter group: the switch's table")
	t.Logf("%d held sessions' slots moved when F3 joined: trace shows each on its entry's filter group and core; counters: %+v", elsewhere, got)
}

// With the switch unreachable, trace takes the learner's view of the
// table, and says so.
func TestSessionMemoryTraceWithoutTheSwitch(t *testing.T) {
	path := writeSite(t, sessionsSite(t, "F1, F2", "tcp: 300s"))
	d, err := New(Options{StateDir: t.TempDir(), InitialConfig: path, SwitchAddr: "127.0.0.1:1"})
	require.NoError(t, err)
	require.NotNil(t, d.learner)
	s := manySessions(1, 10)[0]
	k := sessionmem.AddrKey(0, s.a, s.b, 6)
	req := TraceRequest{Link: "L1", Side: "wan", Src: s.b, Dst: s.a, Proto: 6, SrcPort: 443, DstPort: 40000}
	r, err := d.Trace(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, "not held", r.Session)
	slotFG := r.FilterGroup
	other := map[string]uint8{"F1": 1, "F2": 0}[slotFG]
	d.learner.mu.Lock()
	d.learner.held[k] = heldAt{fg: other, core: 3}
	d.learner.mu.Unlock()
	r, err = d.Trace(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, "held", r.Session)
	assert.Equal(t, []string{"F1", "F2"}[other], r.FilterGroup, "the learner's entry, not the slot")
	assert.Equal(t, uint32(3), r.Core)
	assert.Equal(t, slotFG, r.SlotFilterGroup)
	assert.Contains(t, strings.Join(r.Steps, "\n"), "session memory (the learner's view: the switch could not be read:")
}

// heldSessionsBed starts a daemon on the software switch with the session
// memory on (F1 and F2 in the balance group), sends the first frame of n
// TCP sessions (manySessions(n, seed)) from a link port, records where
// each went, and waits until the memory holds all n.
func heldSessionsBed(t *testing.T, n int, seed byte) (*bed, *Daemon, []twoWay, map[twoWay]placedAt) {
	t.Helper()
	path := writeSite(t, sessionsSite(t, "F1, F2", "tcp: 300s"))
	b := newBedFor(t, path, 0)
	d, _ := b.startDaemon(1)
	b.allUp(d)
	dp := b.sw.Dataplane()
	old := manySessions(n, seed)
	placed := map[twoWay]placedAt{}
	for _, s := range old {
		out, _ := s.frames(layers.IPProtocolTCP)
		placed[s] = placeOf(t, dp.Process(20, out, nil))
	}
	require.Eventually(t, func() bool { return d.SessionMemory().Held == n }, 30*time.Second, 5*time.Millisecond, "%+v", d.SessionMemory())
	return b, d, old, placed
}
