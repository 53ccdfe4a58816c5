package daemon

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/testbed"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/tables"
)

// slotsOf counts the slot entries on the switch that send to each filter
// group (by id).
func (b *bed) slotsOf(t *testing.T) map[uint32]int {
	t.Helper()
	c, err := tables.New(b.schema)
	require.NoError(t, err)
	tab, err := b.sw.Dataplane().Schema().Table(p4src.TableSlots)
	require.NoError(t, err)
	out := map[uint32]int{}
	require.NoError(t, b.sw.Dataplane().Read([]*p4v1.Entity{{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: tab.GetPreamble().GetId()}}}},
		func(e *p4v1.Entity) bool {
			if sl, ok := c.DecodeSlot(e.GetTableEntry()); ok {
				out[sl.Target.FilterGroup]++
			}
			return true
		}))
	return out
}

// N+1 on the software switch with the data-plane verdict
// (testdata/spare.yaml: members F1 and F2, spare F3, failure action
// spare): the spare carries nothing while the members are healthy; F1
// dies: the pipeline bypasses its share at once, then the controller
// gives the whole share to F3 (frames arrive at F3, by the switch's
// counters and the emulator), and F1 gets no frame from then on; F1
// returns: its share comes back and F3 is on standby again. Logged: the
// time from the data plane's action to F3 carrying the share.
//
// The premise of every step that counts frames (hostStallBound, as in
// TestControlChannelHangBypassesNothing): the host does not stall this
// process (switch, filter emulators and daemon) for a keep-alive interval
// (40 ms) or more. A starved host makes the healthy filters late by the
// switch's own clock, and the switch's rules and the controller rightly
// fail them: the spare then takes a member's share while both members are
// healthy, or fails itself while it carries F1's, and the balance group
// goes to bypass. A step whose checks failed while the host stalled the
// process that long (from spareStallLookback before the step on) is said
// and runs again once the bed is back where the step starts.
func TestSpareTakesFailedShareOnSwitch(t *testing.T) {
	stalls := testbed.WatchStalls(t)
	healthy := stalledFor(stalls, hostStallBound, spareStallLookback)
	giveUp := time.Now().Add(3 * time.Minute)
	schema, err := p4src.Load()
	require.NoError(t, err)
	b := newBedWith(t, "testdata/spare.yaml", 0, schema)
	election := uint64(10)
	d, stop := b.startDaemon(election)
	b.allUp(d)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sent := b.trafficGen(ctx, 5000)
	f1, f3 := b.filters["F1"], b.filters["F3"]
	count := func(fg, kind uint32) uint64 {
		return b.counterPackets(p4src.CounterFilterGroup, int64(p4src.FilterGroupCounterIndex(fg, kind)))
	}
	const idF1, idF3 = 0, 2
	// waitSent waits for n more frames sent and returns how many.
	waitSent := func(n uint64) uint64 {
		s0 := sent.Load()
		require.Eventually(t, func() bool { return sent.Load()-s0 >= n }, 60*time.Second, time.Millisecond)
		return sent.Load() - s0
	}
	effective := func(name string) string { return filterNamed(t, d, name).Effective }
	// standby waits for every filter group up and forwarding, the switch
	// as the daemon wants it, and no slot to the spare.
	standby := func() {
		b.allUp(d)
		var mu sync.Mutex
		var last map[uint32]int
		if !assert.Eventually(t, func() bool {
			n := b.slotsOf(t)
			mu.Lock()
			last = n
			mu.Unlock()
			return n[idF3] == 0 && n[idF1] > 0
		}, 30*time.Second, time.Millisecond) {
			mu.Lock()
			defer mu.Unlock()
			var fs []string
			for _, f := range d.mustStatus(t).Filters {
				fs = append(fs, fmt.Sprintf("%s %s (%s) %s", f.Name, f.State, f.Reason, f.Effective))
			}
			t.Fatalf("no standby layout after all up: slots by filter group id %v; now %s", last, strings.Join(fs, "; "))
		}
	}
	// spared waits for F2 and F3 up, the switch as the daemon wants it,
	// and no slot to F1 (F3 has its share).
	spared := func() {
		require.Eventually(t, func() bool {
			st, err := d.Status(ctx)
			if err != nil || !st.Switch.Primary || st.Switch.StatePending {
				return false
			}
			for _, f := range st.Filters {
				if f.Name != "F1" && f.State != "up" {
					return false
				}
			}
			n := b.slotsOf(t)
			return n[idF1] == 0 && n[idF3] > 0
		}, 30*time.Second, time.Millisecond)
	}

	// Healthy: F3 is on standby and gets no data frame.
	var share float64
	premised(t, "healthy", giveUp, healthy, func(c *checks) {
		standby()
		assert.Equal(c, "spare (standby)", effective("F3"))
		waitSent(1000)
		d3, c3 := f3.data.Load(), count(idF3, p4src.FGCntToFilter)
		of := waitSent(5000)
		assert.Zero(c, f3.data.Load()-d3, "a spare on standby gets no data")
		assert.Zero(c, count(idF3, p4src.FGCntToFilter)-c3, "nor by the switch's counter")
		g1 := f1.data.Load()
		of = waitSent(5000)
		share = float64(f1.data.Load()-g1) / float64(of)
		require.Greater(c, share, 0.3, "F1 carries its share")
	})

	// F1 dies.
	before3 := count(idF3, p4src.FGCntToFilter)
	f1.alive.Store(false)
	died := time.Now()
	var acted time.Duration
	require.Eventually(t, func() bool {
		_, set := b.sw.Dataplane().Verdict(idF1)
		if set || b.fgAction(idF1) != p4src.ActionFilterForward {
			acted = time.Since(died)
			return true
		}
		return false
	}, 30*time.Second, 200*time.Microsecond, "the data plane takes F1 out")
	var carried time.Duration
	require.Eventually(t, func() bool {
		if count(idF3, p4src.FGCntToFilter) > before3 {
			carried = time.Since(died)
			return true
		}
		return false
	}, 30*time.Second, 200*time.Microsecond, "F3 carries F1's share on the switch")
	t.Logf("F1 died: out of service by the data plane after %v (detection 200ms); F3 carries its share %v after that (%v after the death)",
		acted.Round(100*time.Microsecond), (carried - acted).Round(100*time.Microsecond), carried.Round(100*time.Microsecond))

	premised(t, "F1 dead", giveUp, healthy, func(c *checks) {
		// On the switch: no slot sends to F1 any more.
		spared()
		assert.Equal(c, "spared to F3", effective("F1"))
		assert.Equal(c, "spare for F1", effective("F3"))

		// From the move on: every frame of F1's share reaches F3, none F1.
		t1, b1 := count(idF1, p4src.FGCntToFilter), count(idF1, p4src.FGCntSWBypass)
		d3 := f3.data.Load()
		of := waitSent(5000)
		assert.Zero(c, count(idF1, p4src.FGCntToFilter)-t1, "no frame sent to the dead F1")
		assert.Zero(c, count(idF1, p4src.FGCntSWBypass)-b1, "its share is not bypassed: F3 inspects it")
		got3 := f3.data.Load() - d3
		assert.Greater(c, float64(got3)/float64(of), share*0.8, "F3 carries F1's whole share (%d of %d frames; F1 had %.1f%%)", got3, of, 100*share)
		st := d.mustStatus(t)
		for _, bg := range st.Balance {
			assert.Equal(c, "active", bg.State, "F2 and the spare carrying F1 meet min_active")
		}

		// locate and trace show a session of F1's share carried by the spare.
		found := false
		for i := 0; i < 256 && !found; i++ {
			src, dst := netip.AddrFrom4([4]byte{10, 9, 0, byte(i)}), netip.AddrFrom4([4]byte{198, 51, 100, 1})
			ps, err := d.Locate(ctx, src, dst, 6)
			require.NoError(t, err)
			require.Len(t, ps, 1)
			if ps[0].FilterGroup != "F1" {
				continue
			}
			found = true
			assert.Equal(c, fmt.Sprintf("spare F3 core %d for F1", ps[0].Core), ps[0].Effective)
			tr, err := d.Trace(ctx, TraceRequest{Link: "L1", Side: "lan", Src: src, Dst: dst, Proto: 6, SrcPort: 1, DstPort: 2})
			require.NoError(t, err)
			assert.Equal(c, "F3", tr.FilterGroup)
			assert.Contains(c, strings.Join(tr.Steps, "\n"), fmt.Sprintf("belongs to F1 core %d, carried by its spare F3 core %d", ps[0].Core, ps[0].Core))
		}
		require.True(c, found, "a session of F1's share")
	})

	// The daemon restarts while the spare carries the share: the new one
	// takes the same decision and the switch keeps the share on F3.
	premised(t, "restart", giveUp, healthy, func(c *checks) {
		spared()
		t1 := count(idF1, p4src.FGCntToFilter)
		stop()
		election++
		d, stop = b.startDaemon(election)
		require.Eventually(t, func() bool {
			st, err := d.Status(ctx)
			return err == nil && st.Switch.Primary && !st.Switch.StatePending && len(st.Filters) == 3
		}, 30*time.Second, time.Millisecond)
		assert.Equal(c, "spared to F3", effective("F1"))
		assert.Equal(c, "spare for F1", effective("F3"))
		n := b.slotsOf(t)
		assert.Zero(c, n[idF1], "the restarted daemon gives F1 nothing back")
		assert.Positive(c, n[idF3])
		waitSent(2000)
		assert.Zero(c, count(idF1, p4src.FGCntToFilter)-t1, "no frame sent to the dead F1 across the restart")
	})

	// F1 returns: its share comes back, F3 goes back to standby.
	f1.alive.Store(true)
	premised(t, "F1 back", giveUp, healthy, func(c *checks) {
		// On the switch: no slot sends to F3 any more.
		standby()
		assert.Equal(c, "forward", effective("F1"))
		assert.Equal(c, "spare (standby)", effective("F3"))
		c3, e1 := count(idF3, p4src.FGCntToFilter), f1.data.Load()
		of := waitSent(5000)
		assert.Zero(c, count(idF3, p4src.FGCntToFilter)-c3, "the spare is on standby again: no frame sent to it")
		assert.Greater(c, float64(f1.data.Load()-e1)/float64(of), share*0.8, "F1 carries its share again")
	})
}

// spareStallLookback is how long before a step of
// TestSpareTakesFailedShareOnSwitch a stall of the host still fails its
// checks: the engine's stall guard holds a filter group that lost its
// keep-alives in a stall for stall_hold (1 s, the default) and fails it
// if the losses went on past that, and the pipeline's verdict takes its
// detection time (5 x 40 ms) to be formed.
const spareStallLookback = time.Second + 200*time.Millisecond
