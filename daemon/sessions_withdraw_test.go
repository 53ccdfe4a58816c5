package daemon

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/sessionmem"
	"github.com/dpi-balancer/balancer/sim/dataplane"
)

// heldAtOnSwitch reads the sessions table back from the software switch:
// each entry's filter group and core.
func heldAtOnSwitch(t *testing.T, dp *dataplane.Dataplane) map[sessionmem.Key]placedAt {
	t.Helper()
	tbl, err := sessionmem.Resolve(dp.Schema())
	require.NoError(t, err)
	out := map[sessionmem.Key]placedAt{}
	require.NoError(t, dp.Read([]*p4v1.Entity{{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: tbl.ID}}}}, func(e *p4v1.Entity) bool {
		h, err := tbl.Decode(e.GetTableEntry())
		require.NoError(t, err)
		out[h.Key] = placedAt{fg: int(h.FilterGroup), core: uint32(h.Core)}
		return true
	}))
	return out
}

// A change that takes out what held sessions are on, on the software
// switch through the daemon with real frames: F3's cores 4 -> 2, then F3
// removed, then the balance group removed. Each dry run counts as moving
// exactly the held sessions the applied change then rewrites (to where
// their slots point: the switch forwards each there, and its table holds
// it there) or, with the balance group, deletes; every other held session
// stays where it was, frame for frame.
func TestSessionMemoryChangeRemovingAFilterGroupRewritesItsSessions(t *testing.T) {
	three := sessionsSite(t, "F1, F2, F3", "tcp: 300s")
	b := newBedFor(t, writeSite(t, three), 0)
	d, _ := b.startDaemon(1)
	b.allUp(d)
	dp := b.sw.Dataplane()
	// Removing F3 and G is meant: forced, as --force does.
	ctx := WithForce(context.Background(), true)
	const n = 600
	ss := manySessions(n, 11)
	keyOf := func(s twoWay) sessionmem.Key { return sessionmem.AddrKey(0, s.a, s.b, 6) }
	where := func(s twoWay) placedAt {
		out, _ := s.frames(layers.IPProtocolTCP)
		return placeOf(t, passed(dp, 20, out))
	}
	for _, s := range ss {
		require.GreaterOrEqual(t, where(s).fg, 0)
		_, back := s.frames(layers.IPProtocolTCP)
		passed(dp, 10, back)
	}
	require.Eventually(t, func() bool { return d.SessionMemory().Held == n }, 30*time.Second, 5*time.Millisecond, "%+v", d.SessionMemory())

	// step applies text after its dry run: the dry run's count of held
	// sessions that move is exactly those the learner then rewrites to
	// their slots; the others stay, frame for frame and entry for entry.
	step := func(name, text string, gone func(placedAt) bool) {
		t.Helper()
		before := heldAtOnSwitch(t, dp)
		require.Len(t, before, n)
		leaving := 0
		for _, at := range before {
			if gone(at) {
				leaving++
			}
		}
		require.Positive(t, leaving, "%s: some held sessions are on what it takes out", name)
		res, err := d.ApplyConfig(ctx, []byte(text), true, name+" (dry run)")
		require.NoError(t, err)
		hm := res.HeldSessions["G"]
		assert.Equal(t, n, hm.Held, name)
		assert.Equal(t, leaving, hm.Leave, "%s: the dry run counts the held sessions on what it takes out as moving", name)
		assert.Equal(t, n-leaving, hm.Stay, name)
		sm0 := d.SessionMemory()
		// Frames of the leaving sessions throughout the change: none is
		// bypassed (their entries are rewritten before the change
		// removes what they pointed at, to filter groups the switch has).
		var leavingSS []twoWay
		for _, s := range ss {
			if gone(before[keyOf(s)]) {
				leavingSS = append(leavingSS, s)
			}
		}
		var bypassed, sent atomic.Int64
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				for _, s := range leavingSS {
					select {
					case <-stop:
						return
					default:
					}
					out, _ := s.frames(layers.IPProtocolTCP)
					if passed(dp, 20, out).Port == 10 {
						bypassed.Add(1)
					}
					sent.Add(1)
				}
			}
		}()
		start := time.Now()
		_, err = d.ApplyConfig(ctx, []byte(text), false, name)
		require.NoError(t, err)
		took := time.Since(start)
		assert.Equal(t, uint64(leaving), d.SessionMemory().Reassigned-sm0.Reassigned, "%s: rewritten before the change returned", name)
		after0 := sent.Load()
		require.Eventually(t, func() bool { return sent.Load() > after0+int64(2*len(leavingSS)) }, 30*time.Second, time.Millisecond)
		close(stop)
		wg.Wait()
		assert.Zero(t, bypassed.Load(), "%s: no frame of a leaving session bypassed (%d sent across the change)", name, sent.Load())
		waitSettled(t, d)
		b.allUp(d)
		slots := slotTargetsOf(t, dp)
		after := heldAtOnSwitch(t, dp)
		require.Len(t, after, n, "%s: every session still held", name)
		moved := 0
		for _, s := range ss {
			k := keyOf(s)
			was, now := before[k], after[k]
			got := where(s)
			assert.Equal(t, now, got, "%s: the switch forwards a held session where its entry says", name)
			if gone(was) {
				moved++
				tg := slots[k.Hash()&0xff]
				assert.Equal(t, placedAt{int(tg.FilterGroup), tg.Core}, now, "%s: rewritten to where its slot points", name)
				assert.False(t, gone(now), name)
			} else {
				assert.Equal(t, was, now, "%s: a held session not on what it takes out stays", name)
			}
		}
		assert.Equal(t, hm.Leave, moved, "%s: as many moved as the dry run said", name)
		st := d.SessionMemory()
		assert.Equal(t, n, st.Held, "%s: the learner's view", name)
		assert.Zero(t, st.Failed, name)
		t.Logf("%s: dry run %+v; applied in %v, its %d leaving held sessions rewritten to their slots before it returned, %d of %d of their frames sent across it bypassed; none of the others moved",
			name, hm, took.Round(time.Millisecond), moved, bypassed.Load(), sent.Load())
	}

	halved := strings.Replace(three, "{name: F3, lan: P8, wan: P7, cores: 4}", "{name: F3, lan: P8, wan: P7, cores: 2}", 1)
	require.NotEqual(t, three, halved)
	step("F3 on 2 cores", halved, func(at placedAt) bool { return at.fg == 2 && at.core >= 2 })

	gone := strings.Replace(halved, "members: [F1, F2, F3]", "members: [F1, F2]", 1)
	gone = strings.Replace(gone, "  - {name: F3, lan: P8, wan: P7, cores: 2}\n", "", 1)
	require.NotContains(t, gone, "F3")
	step("F3 removed", gone, func(at placedAt) bool { return at.fg == 2 })

	// The balance group removed: its entries are deleted.
	noGroup := strings.Replace(gone, "  - {name: G, members: [F1, F2], profile: fast, slot_bits: 8}\n", "", 1)
	noGroup = strings.Replace(noGroup, "  - {name: all, priority: 10, action: balance G}\n", "", 1)
	require.NotContains(t, noGroup, "balance G")
	res, err := d.ApplyConfig(ctx, []byte(noGroup), true, "G removed (dry run)")
	require.NoError(t, err)
	t.Logf("G removed, dry run: %+v", res.HeldSessions)
	_, err = d.ApplyConfig(ctx, []byte(noGroup), false, "G removed")
	require.NoError(t, err)
	require.Eventually(t, func() bool { return d.SessionMemory().Removed == n }, 30*time.Second, time.Millisecond, "%+v", d.SessionMemory())
	assert.Empty(t, heldAtOnSwitch(t, dp), "the removed balance group's entries are deleted")
	assert.Zero(t, d.SessionMemory().Held)
}
