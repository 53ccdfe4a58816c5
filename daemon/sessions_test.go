package daemon

import (
	"context"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/controlplane"
	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/sessionmem"
	"github.com/dpi-balancer/balancer/sim/dataplane"
)

// sessionsSite is testdata/fast.yaml with the session memory on and the
// balance group's members and idle timeouts as given.
func sessionsSite(t testing.TB, members, idle string) string {
	t.Helper()
	data, err := os.ReadFile("testdata/fast.yaml")
	require.NoError(t, err)
	s := strings.Replace(string(data), "members: [F1, F2, F3]", "members: ["+members+"]", 1)
	// Keep-alives slow enough that a busy host (-race) does not fail the
	// filters over: a bypassed session is not learned.
	s = strings.Replace(s, "interval: 10ms, loss_threshold: 3", "interval: 100ms, loss_threshold: 30", 1)
	s += "sessions: {enabled: true, idle_timeout: {" + idle + "}}\n"
	return s
}

// writeSiteB writes sessionsSite for a benchmark.
func writeSiteB(b *testing.B, members, idle string) string {
	b.Helper()
	p := filepath.Join(b.TempDir(), "site.yaml")
	require.NoError(b, os.WriteFile(p, []byte(sessionsSite(b, members, idle)), 0o600))
	return p
}

func writeSite(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "site.yaml")
	require.NoError(t, os.WriteFile(p, []byte(text), 0o600))
	return p
}

// lanFG is the filter group (by id, fast.yaml's order) whose LAN port a
// frame left by.
func lanFG(port uint32) int {
	switch port {
	case 40:
		return 0
	case 60:
		return 1
	case 80:
		return 2
	}
	return -1
}

// passed sends frame into port in of the software switch (a link port),
// and when it leaves by a filter port of testdata/fast.yaml, passes it
// back into the filter's other port, as a filter does: the switch sees
// its sends to a filter answered (the data plane's verdict fails a filter
// whose sends go unanswered for its detection time, which a test slowed
// by a loaded host can outlast).
func passed(dp *dataplane.Dataplane, in uint32, frame []byte) dataplane.Result {
	r := dp.Process(in, frame, nil)
	if r.Kind != dataplane.Forward {
		return r
	}
	switch r.Port {
	case 40, 60, 80: // a filter's LAN port: it returns on its WAN port
		dp.Process(r.Port-10, r.Frame, nil)
	case 30, 50, 70:
		dp.Process(r.Port+10, r.Frame, nil)
	}
	return r
}

type twoWay struct{ a, b netip.Addr }

func (s twoWay) frames(proto layers.IPProtocol) (out, back []byte) {
	l3 := pipelinecases.L3{Src: s.a, Dst: s.b, Proto: proto, SrcPort: 40000, DstPort: 443}
	out = pipelinecases.Frame([]byte{0, 1, 2, 3, 4, 5}, []byte{0, 1, 2, 3, 4, 6}, pipelinecases.Encap{}, l3)
	l3.Src, l3.Dst, l3.SrcPort, l3.DstPort = s.b, s.a, 443, 40000
	back = pipelinecases.Frame([]byte{0, 1, 2, 3, 4, 6}, []byte{0, 1, 2, 3, 4, 5}, pipelinecases.Encap{}, l3)
	return out, back
}

func manySessions(n int, seed byte) []twoWay {
	var out []twoWay
	for i := range n {
		out = append(out, twoWay{netip.AddrFrom4([4]byte{10, seed, byte(i >> 8), byte(i)}), netip.AddrFrom4([4]byte{172, 16, seed, byte(i % 7)})})
	}
	return out
}

// manySessionsN is manySessions for up to 2^24 sessions.
func manySessionsN(n int, seed byte) []twoWay {
	var out []twoWay
	for i := range n {
		out = append(out, twoWay{netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)}), netip.AddrFrom4([4]byte{172, 16, seed, 1})})
	}
	return out
}

// heldOnSwitch reads the sessions table back from the software switch:
// the entries by filter group.
func heldOnSwitch(t *testing.T, dp *dataplane.Dataplane) (map[sessionmem.Key]uint8, map[uint8]int) {
	t.Helper()
	tbl, err := sessionmem.Resolve(dp.Schema())
	require.NoError(t, err)
	held, by := map[sessionmem.Key]uint8{}, map[uint8]int{}
	require.NoError(t, dp.Read([]*p4v1.Entity{{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: tbl.ID}}}}, func(e *p4v1.Entity) bool {
		h, err := tbl.Decode(e.GetTableEntry())
		require.NoError(t, err)
		held[h.Key] = h.FilterGroup
		by[h.FilterGroup]++
		return true
	}))
	return held, by
}

// The session memory end to end on the software switch: the daemon
// pushes the sessions profile, learns 1,000 two-way sessions from their
// digests (keep with the protocol's idle timeout), and its counts agree
// with the table read back from the switch. Then a third filter group
// joins the balance group (a planned layout change): every learned
// session stays on its filter group (0 moved, where about a third would
// have moved with their slots), and new sessions follow the new layout.
func TestSessionMemoryLearnsAndKeepsAcrossALayoutChange(t *testing.T) {
	path := writeSite(t, sessionsSite(t, "F1, F2", "tcp: 300s"))
	b := newBedFor(t, path, 0)
	d, _ := b.startDaemon(1)
	b.allUp(d)
	dp := b.sw.Dataplane()
	require.NotZero(t, dp.SessionDigestID(), "the daemon pushed the sessions profile")

	const n = 1000
	old := manySessions(n, 1)
	placed := map[twoWay]int{}
	start := time.Now()
	for _, s := range old {
		out, back := s.frames(layers.IPProtocolTCP)
		r := passed(dp, 20, out)
		require.Equal(t, dataplane.Forward, r.Kind)
		require.GreaterOrEqual(t, lanFG(r.Port), 0, "balanced to a filter: %+v", r)
		placed[s] = lanFG(r.Port)
		r = passed(dp, 10, back)
		require.Equal(t, dataplane.Forward, r.Kind)
	}
	require.Eventually(t, func() bool { return d.SessionMemory().Held == n }, 30*time.Second, 5*time.Millisecond,
		"learned: %+v", d.SessionMemory())
	learnTook := time.Since(start)
	st := d.SessionMemory()
	held, by := heldOnSwitch(t, dp)
	assert.Len(t, held, n, "the switch holds every session")
	assert.Equal(t, uint64(n), st.Inserted)
	assert.Zero(t, st.Dropped)
	assert.Zero(t, st.Full)
	assert.Equal(t, int64(65536), st.Size)
	assert.InDelta(t, float64(n)/65536, st.Occupied, 1e-9)
	for fg, c := range by {
		assert.Equal(t, c, st.ByGroup[fg], "filter group %d: the daemon's count is the switch's", fg)
	}
	assert.Len(t, st.ByGroup, 2)
	status, err := d.Status(context.Background())
	require.NoError(t, err)
	require.NotNil(t, status.SessionMemory, "status shows the session memory")
	require.Len(t, status.SessionMemory.Groups, 2)
	for i, g := range status.SessionMemory.Groups {
		assert.Equal(t, []string{"F1", "F2"}[i], g.Name)
		assert.Equal(t, by[uint8(g.ID)], g.Held, "status's count of %s is what the switch holds", g.Name)
	}
	t.Logf("learned %d two-way sessions in %v (%.0f sessions/s); by filter group %v", n, learnTook.Round(time.Millisecond), n/learnTook.Seconds(), st.ByGroup)

	// F3 joins: a planned layout change.
	res, err := d.ApplyConfig(context.Background(), []byte(sessionsSite(t, "F1, F2, F3", "tcp: 300s")), false, "F3 joins")
	require.NoError(t, err)
	require.False(t, res.Unchanged)
	require.Eventually(t, func() bool {
		s, err := d.Status(context.Background())
		return err == nil && !s.Switch.Pending && !s.Switch.StatePending
	}, 30*time.Second, 5*time.Millisecond)
	b.allUp(d)

	// Where each old session's slot now points (what it would do
	// without the memory).
	slotFG := slotTargets(t, dp)
	wouldMove, moved := 0, 0
	for _, s := range old {
		k := sessionmem.AddrKey(0, s.a, s.b, 6)
		if fg, ok := slotFG[k.Hash()&0xff]; ok && int(fg) != placed[s] {
			wouldMove++
		}
		out, back := s.frames(layers.IPProtocolTCP)
		r := passed(dp, 20, out)
		if lanFG(r.Port) != placed[s] {
			moved++
		}
		passed(dp, 10, back)
	}
	assert.Zero(t, moved, "learned sessions keep their filter group")
	assert.Greater(t, wouldMove, n/5, "the change moved slots: without the memory about a third of the sessions would have moved")
	t.Logf("after F3 joined: %d of %d learned sessions moved (%d would have without the memory)", moved, n, wouldMove)

	fresh := manySessions(600, 2)
	toF3 := 0
	for _, s := range fresh {
		out, _ := s.frames(layers.IPProtocolTCP)
		r, hits := dp.Explain(20, out)
		require.Equal(t, dataplane.Forward, r.Kind)
		k := sessionmem.AddrKey(0, s.a, s.b, 6)
		assert.Equal(t, int(slotFG[k.Hash()&0xff]), lanFG(r.Port), "a new session follows the new layout")
		for _, h := range hits {
			if h.Table == p4src.TableSessions {
				assert.False(t, h.Matched, "a new session is not held")
			}
		}
		if lanFG(r.Port) == 2 {
			toF3++
		}
	}
	assert.Greater(t, toF3, len(fresh)/5, "new sessions reach the filter group that joined")
	require.Eventually(t, func() bool { return d.SessionMemory().Held == n+len(fresh) }, 30*time.Second, 5*time.Millisecond,
		"learned: %+v", d.SessionMemory())
	st = d.SessionMemory()
	_, by = heldOnSwitch(t, dp)
	for fg, c := range by {
		assert.Equal(t, c, st.ByGroup[fg], "filter group %d", fg)
	}
	assert.Equal(t, toF3, st.ByGroup[2])
}

// slotTargets reads the slots table back: the filter group of each slot
// of balance group 0.
func slotTargets(t *testing.T, dp *dataplane.Dataplane) map[uint32]uint32 {
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
	out := map[uint32]uint32{}
	require.NoError(t, dp.Read([]*p4v1.Entity{{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: tb.GetPreamble().GetId()}}}}, func(e *p4v1.Entity) bool {
		te := e.GetTableEntry()
		var slot, fg uint64
		for _, m := range te.GetMatch() {
			if m.GetFieldId() == slotField.GetId() {
				slot = wire.Uint(m.GetExact().GetValue())
			}
		}
		for _, p := range te.GetAction().GetAction().GetParams() {
			if p.GetParamId() == fgParam.GetId() {
				fg = wire.Uint(p.GetValue())
			}
		}
		out[uint32(slot)] = uint32(fg)
		return true
	}))
	return out
}

// Entries idle for their protocol's timeout are deleted on the switch's
// notification, and counted as aged.
func TestSessionMemoryAges(t *testing.T) {
	path := writeSite(t, sessionsSite(t, "F1, F2, F3", "udp: 1s"))
	b := newBedFor(t, path, 0)
	d, _ := b.startDaemon(1)
	b.allUp(d)
	dp := b.sw.Dataplane()
	const n = 50
	for _, s := range manySessions(n, 3) {
		out, _ := s.frames(layers.IPProtocolUDP)
		passed(dp, 20, out)
	}
	require.Eventually(t, func() bool { return d.SessionMemory().Inserted == n }, 30*time.Second, 5*time.Millisecond, "%+v", d.SessionMemory())
	held, _ := heldOnSwitch(t, dp)
	require.Len(t, held, n)
	tbl, err := sessionmem.Resolve(dp.Schema())
	require.NoError(t, err)
	var one *p4v1.TableEntry
	require.NoError(t, dp.Read([]*p4v1.Entity{{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: tbl.ID}}}}, func(e *p4v1.Entity) bool {
		one = e.GetTableEntry()
		return false
	}))
	assert.Equal(t, int64(time.Second), one.GetIdleTimeoutNs(), "UDP: sessions.idle_timeout.udp")
	require.Eventually(t, func() bool { return d.SessionMemory().Evicted == n }, 30*time.Second, 10*time.Millisecond, "%+v", d.SessionMemory())
	held, _ = heldOnSwitch(t, dp)
	assert.Empty(t, held, "aged out on the switch")
	assert.Zero(t, d.SessionMemory().Held)
}

// A site that enables the session memory with a pipeline whose P4Info
// lacks the table is refused at start, saying what to give.
func TestSessionMemoryNeedsTheSessionsBuild(t *testing.T) {
	path := writeSite(t, sessionsSite(t, "F1, F2, F3", "tcp: 300s"))
	base, err := p4src.Load()
	require.NoError(t, err)
	b := newBedWith(t, path, 0, base)
	_, err = New(Options{StateDir: b.dir, InitialConfig: b.config, SwitchAddr: b.addr, DeviceID: 1,
		Pipeline: &controlplane.Pipeline{P4Info: base.Info, DeviceConfig: p4src.BMv2JSON}, Tick: time.Millisecond})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "sessions.enabled is true, but the P4Info (given) has no table BalancerIngress.sessions")
	assert.Contains(t, err.Error(), "p4src/build/tofino-sessions")
}

// Under the failure action rebalance, a failed filter group's held
// sessions follow its slots to the survivors (rewritten off it, not left
// on its software bypass), and stay there when it returns; new sessions
// reach it again (docs/sessions.md, "Failures").
func TestSessionMemoryRebalanceMovesHeldSessions(t *testing.T) {
	site := strings.Replace(sessionsSite(t, "F1, F2, F3", "tcp: 300s"), "interval: 100ms, loss_threshold: 30, recovery_threshold: 3, min_active: 1, failure_action: bypass",
		"interval: 50ms, loss_threshold: 6, recovery_threshold: 3, min_active: 1, failure_action: rebalance", 1)
	require.Contains(t, site, "failure_action: rebalance")
	b := newBedFor(t, writeSite(t, site), 0)
	d, _ := b.startDaemon(1)
	b.allUp(d)
	dp := b.sw.Dataplane()
	old := manySessions(300, 4)
	placed := map[twoWay]int{}
	onF1 := 0
	for _, s := range old {
		out, _ := s.frames(layers.IPProtocolTCP)
		r := passed(dp, 20, out)
		require.GreaterOrEqual(t, lanFG(r.Port), 0, "balanced: %+v", r)
		placed[s] = lanFG(r.Port)
		if placed[s] == 0 {
			onF1++
		}
	}
	require.Eventually(t, func() bool { return d.SessionMemory().Held == len(old) }, 30*time.Second, 5*time.Millisecond, "%+v", d.SessionMemory())
	require.Greater(t, onF1, 30)

	b.filters["F1"].alive.Store(false)
	b.waitFG(0, p4src.ActionFilterSWBypass, 10*time.Second)
	require.Eventually(t, func() bool { return d.SessionMemory().Rehomed == uint64(onF1) }, 30*time.Second, 5*time.Millisecond,
		"F1's held sessions rewritten to the survivors: %+v", d.SessionMemory())
	held, by := heldOnSwitch(t, dp)
	assert.Len(t, held, len(old))
	assert.Zero(t, by[0], "no held session left on the failed F1")
	check := func(when string) {
		t.Helper()
		moved := 0
		for _, s := range old {
			out, _ := s.frames(layers.IPProtocolTCP)
			r := passed(dp, 20, out)
			got := lanFG(r.Port)
			require.GreaterOrEqual(t, got, 0, "%s: a held session is inspected, not bypassed: %+v", when, r)
			if placed[s] == 0 {
				assert.NotEqual(t, 0, got, "%s: F1's session on a survivor", when)
			} else if got != placed[s] {
				moved++
			}
		}
		assert.Zero(t, moved, "%s: the survivors' own sessions never move", when)
	}
	check("F1 failed")

	b.filters["F1"].alive.Store(true)
	b.waitFG(0, p4src.ActionFilterForward, 10*time.Second)
	require.Eventually(t, func() bool {
		s, err := d.Status(context.Background())
		return err == nil && !s.Switch.Pending && !s.Switch.StatePending && len(s.Filters) > 0 && s.Filters[0].State == "up"
	}, 30*time.Second, 5*time.Millisecond)
	check("F1 back")
	toF1 := 0
	for _, s := range manySessions(300, 5) {
		out, _ := s.frames(layers.IPProtocolTCP)
		if lanFG(passed(dp, 20, out).Port) == 0 {
			toF1++
		}
	}
	assert.Greater(t, toF1, 30, "new sessions reach F1 again")
	t.Logf("F1 held %d of %d sessions: all rewritten to the survivors on its failure, none back on its return; %d of 300 new sessions went to F1", onF1, len(old), toF1)
}

// blockingSwitch holds every write until released.
type blockingSwitch struct {
	release chan struct{}
	calls   atomic.Int64
}

func (b *blockingSwitch) WriteUnowned(ctx context.Context, us []*p4v1.Update) ([]error, error) {
	b.calls.Add(1)
	select {
	case <-b.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return make([]error, len(us)), nil
}

func (b *blockingSwitch) Read(context.Context, ...*p4v1.Entity) ([]*p4v1.Entity, error) {
	return nil, nil
}

// The learner's queue is bounded: while the switch does not take its
// writes, handing it digests never waits, and past the bound they are
// dropped and counted (those sessions stay unlearned: they move with
// their slots, as without the memory); the backlog at its bound is what
// raises the alarm.
func TestLearnerQueueIsBounded(t *testing.T) {
	s, err := p4src.LoadSessions()
	require.NoError(t, err)
	tbl, err := sessionmem.Resolve(s)
	require.NoError(t, err)
	sw := &blockingSwitch{release: make(chan struct{})}
	l := newLearner(tbl, sw, func(uint8) time.Duration { return time.Minute }, 100)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			del, ins, mod := l.next()
			if len(del)+len(ins) == 0 {
				select {
				case <-l.wake:
				case <-ctx.Done():
				}
				continue
			}
			_ = l.write(ctx, del, ins, mod)
		}
	}()
	list := func(base int) []sessionmem.Digest {
		out := make([]sessionmem.Digest, 100)
		for i := range out {
			out[i] = sessionmem.Digest{Key: sessionmem.Key{Lo: uint32(base + i), Hi: 1 << 31, Proto: 17}}
		}
		return out
	}
	l.take(list(0))
	require.Eventually(t, func() bool { return sw.calls.Load() == 1 }, 10*time.Second, time.Millisecond, "the writer is in its first write")
	start := time.Now()
	for i := 1; i < 10; i++ {
		l.take(list(100 * i))
	}
	assert.Less(t, time.Since(start), 5*time.Second, "handing digests over never waits for the switch")
	st := l.status()
	assert.Equal(t, 100, st.Backlog, "the queue holds its bound")
	assert.Equal(t, st.Bound, st.Backlog, "at its bound: the alarm's condition")
	assert.Equal(t, uint64(800), st.Dropped, "past the bound: dropped and counted")
	close(sw.release)
	require.Eventually(t, func() bool { return l.status().Inserted == 200 }, 10*time.Second, time.Millisecond, "%+v", l.status())
	assert.Zero(t, l.status().Backlog)
	cancel()
	<-done
}

// A learner that holds the table's size writes no insert: the digests
// are counted as refused.
func TestLearnerFullWritesNothing(t *testing.T) {
	s, err := p4src.LoadSessions()
	require.NoError(t, err)
	tbl, err := sessionmem.Resolve(s)
	require.NoError(t, err)
	tbl.Size = 2
	sw := &blockingSwitch{release: make(chan struct{})}
	close(sw.release)
	l := newLearner(tbl, sw, func(uint8) time.Duration { return time.Minute }, 100)
	l.take([]sessionmem.Digest{{Key: sessionmem.Key{Lo: 1}}, {Key: sessionmem.Key{Lo: 2}}})
	del, ins, mod := l.next()
	require.NoError(t, l.write(context.Background(), del, ins, mod))
	require.Equal(t, 2, l.status().Held)
	l.take([]sessionmem.Digest{{Key: sessionmem.Key{Lo: 3}}})
	del, ins, _ = l.next()
	assert.Empty(t, del)
	assert.Empty(t, ins, "nothing to write while full")
	assert.Equal(t, uint64(1), l.status().Full)
	assert.Equal(t, int64(1), sw.calls.Load(), "one write: the first two")
}
