package daemon

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sessionmem"
)

// keepSite is sessionsSite (F1-F3, failure action bypass) with the
// profile's return setting ret.
func keepSite(t *testing.T, ret string) string {
	t.Helper()
	site := strings.Replace(sessionsSite(t, "F1, F2, F3", "tcp: 300s"), "interval: 100ms, loss_threshold: 30, recovery_threshold: 3, min_active: 1, failure_action: bypass",
		"interval: 50ms, loss_threshold: 6, recovery_threshold: 3, min_active: 1, failure_action: bypass, return: "+ret, 1)
	require.Contains(t, site, "return: "+ret)
	return site
}

// A filter group in software bypass, then back, with the session memory:
// under return: new-sessions the sessions it held before it failed and
// those that started while it was bypassed stay in bypass when it returns
// (rewritten to the kept id before its return is written: not one frame
// of theirs reaches it, while frames of theirs are sent throughout), the
// other filters' sessions do not move, and sessions started after its
// return reach it. Under return: all (the control, same bed and frames)
// its sessions go back to it. Every figure is the software switch's: where
// it sends each frame, and its sessions table read back.
func TestSessionMemoryReturnNewSessionsKeepsBypassedSessions(t *testing.T) {
	for _, ret := range []string{"new-sessions", "all"} {
		t.Run(ret, func(t *testing.T) {
			b := newBedFor(t, writeSite(t, keepSite(t, ret)), 0)
			d, _ := b.startDaemon(1)
			b.allUp(d)
			dp := b.sw.Dataplane()
			const peer = 10 // L1's WAN port: where a bypassed frame from its LAN leaves
			send := func(s twoWay) int {
				out, _ := s.frames(layers.IPProtocolTCP)
				r := dp.Process(20, out, nil)
				if r.Port == peer {
					return -1 // bypassed
				}
				fg := lanFG(r.Port)
				require.GreaterOrEqual(t, fg, 0, "balanced or bypassed: %+v", r)
				return fg
			}

			old := manySessions(300, 4)
			placed := map[twoWay]int{}
			var oldF1 []twoWay
			for _, s := range old {
				placed[s] = send(s)
				if placed[s] == 0 {
					oldF1 = append(oldF1, s)
				}
			}
			require.Greater(t, len(oldF1), 30)
			require.Eventually(t, func() bool { return d.SessionMemory().Held == len(old) }, 30*time.Second, 5*time.Millisecond, "%+v", d.SessionMemory())

			b.filters["F1"].alive.Store(false)
			b.waitFG(0, p4src.ActionFilterSWBypass, 10*time.Second)
			// Sessions that start while F1 is bypassed.
			during := manySessions(300, 6)
			var duringF1 []twoWay
			for _, s := range during {
				if send(s) == -1 {
					duringF1 = append(duringF1, s)
				}
			}
			require.Greater(t, len(duringF1), 30, "F1's share of the new sessions is bypassed")
			require.Eventually(t, func() bool { return d.SessionMemory().Held == len(old)+len(during) }, 30*time.Second, 5*time.Millisecond, "%+v", d.SessionMemory())
			for _, s := range oldF1 {
				require.Equal(t, -1, send(s), "F1's held session is bypassed while F1 is")
			}

			// F1 returns while frames of its sessions keep coming.
			var reachedF1, sent atomic.Int64
			stop := make(chan struct{})
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					for _, s := range append(oldF1, duringF1...) {
						select {
						case <-stop:
							return
						default:
						}
						out, _ := s.frames(layers.IPProtocolTCP)
						if lanFG(dp.Process(20, out, nil).Port) == 0 {
							reachedF1.Add(1)
						}
						sent.Add(1)
					}
				}
			}()
			b.filters["F1"].alive.Store(true)
			b.waitFG(0, p4src.ActionFilterForward, 20*time.Second)
			// Frames sent after the return was written, then stop.
			after := sent.Load()
			require.Eventually(t, func() bool { return sent.Load() > after+int64(2*(len(oldF1)+len(duringF1))) }, 30*time.Second, time.Millisecond)
			close(stop)
			wg.Wait()
			require.Eventually(t, func() bool {
				s, err := d.Status(context.Background())
				return err == nil && !s.Switch.Pending && !s.Switch.StatePending && len(s.Filters) > 0 && s.Filters[0].State == "up"
			}, 30*time.Second, 5*time.Millisecond)

			held, by := heldOnSwitch(t, dp)
			st := d.SessionMemory()
			moved := 0
			for _, s := range old {
				if placed[s] != 0 && send(s) != placed[s] {
					moved++
				}
			}
			assert.Zero(t, moved, "the other filters' sessions never move")
			fresh := manySessions(300, 8)
			toF1 := 0
			for _, s := range fresh {
				if send(s) == 0 {
					toF1++
				}
			}
			assert.Greater(t, toF1, 30, "sessions started after the return reach F1")

			if ret == "all" {
				assert.Positive(t, reachedF1.Load(), "return: all: F1's sessions go back to it")
				for _, s := range oldF1 {
					assert.Equal(t, 0, send(s), "return: all: a held session of F1 is back on F1")
				}
				assert.Zero(t, st.Kept)
				assert.Zero(t, by[63])
				t.Logf("return: all: %d of %d frames of F1's %d+%d sessions sent across its return reached it", reachedF1.Load(), sent.Load(), len(oldF1), len(duringF1))
				return
			}
			assert.Zero(t, reachedF1.Load(), "return: new-sessions: no frame of a bypassed session reaches F1 (%d sent across its return)", sent.Load())
			for _, s := range append(oldF1, duringF1...) {
				assert.Equal(t, -1, send(s), "a bypassed session stays bypassed")
				assert.Equal(t, uint8(63), held[sessionmem.AddrKey(0, s.a, s.b, 6)], "held at the kept id")
			}
			assert.Zero(t, by[0], "F1 held no session on its return, before new ones started")
			assert.Equal(t, len(oldF1)+len(duringF1), by[63], "the switch holds F1's bypassed sessions at the kept id")
			assert.Equal(t, uint64(len(oldF1)), st.Kept, "F1's sessions held before it failed were rewritten; those of the bypass were learned at the kept id")
			assert.Zero(t, st.KeepTimedOut)
			status, err := d.Status(context.Background())
			require.NoError(t, err)
			var kept *SessionMemoryGroup
			for i, g := range status.SessionMemory.Groups {
				if g.KeptInBypass {
					kept = &status.SessionMemory.Groups[i]
				}
			}
			require.NotNil(t, kept, "status shows the kept sessions: %+v", status.SessionMemory.Groups)
			assert.Equal(t, uint32(63), kept.ID)
			assert.Equal(t, by[63], kept.Held)

			// Trace and locate say where the switch sends a kept session.
			s := oldF1[0]
			tr, err := d.Trace(context.Background(), TraceRequest{Link: "L1", Side: "lan", Src: s.a, Dst: s.b, Proto: 6, SrcPort: 40000, DstPort: 443})
			require.NoError(t, err)
			assert.Equal(t, "held", tr.Session)
			assert.Equal(t, "kept in bypass (sessions.bypass_id 63)", tr.FilterGroup)
			assert.Equal(t, "sw-bypass", tr.Verdict, "%v", tr.Steps)
			ps, err := d.Locate(context.Background(), s.a, s.b, 6)
			require.NoError(t, err)
			require.Len(t, ps, 1)
			assert.Equal(t, "held", ps[0].Session)
			assert.Equal(t, "kept in bypass (sessions.bypass_id 63)", ps[0].FilterGroup)
			assert.Equal(t, "sw-bypass", ps[0].Effective)

			// A planned change keeps them there: the preview counts them
			// among those that stay, and they do.
			res, err := d.ApplyConfig(context.Background(), []byte(strings.Replace(keepSite(t, ret), "{name: F2, lan: P6, wan: P5, cores: 4}", "{name: F2, lan: P6, wan: P5, cores: 2}", 1)), true, "F2 to 2 cores (dry run)")
			require.NoError(t, err)
			hm := res.HeldSessions["G"]
			assert.Equal(t, len(old)+len(during)+len(fresh), hm.Held)
			assert.Equal(t, hm.Held-hm.Leave, hm.Stay)
			leave := 0
			for _, at := range heldAtOnSwitch(t, dp) {
				if at.fg == 1 && at.core >= 2 {
					leave++
				}
			}
			require.Positive(t, leave)
			assert.Equal(t, leave, hm.Leave, "only F2's sessions on cores 2-3 leave; the kept ones stay")
			t.Logf("return: new-sessions: F1 held %d sessions and %d started while it was bypassed: 0 of %d frames sent across its return reached it; %d of 300 new sessions went to F1",
				len(oldF1), len(duringF1), sent.Load(), toF1)
		})
	}
}

// A learner that cannot rewrite a returning filter group's held sessions
// in time (held here at a gate) does not keep the filter out of service:
// past the wait it returns, with the held sessions not rewritten (counted
// as a return not kept in time), and the rewrites it stopped waiting for
// are dropped: once the learner goes on, no session of the filter flips
// to bypass after it returned.
func TestSessionMemoryKeepWaitIsBounded(t *testing.T) {
	defer func(w time.Duration) { keepReturnWait = w }(keepReturnWait)
	keepReturnWait = 300 * time.Millisecond
	b := newBedFor(t, writeSite(t, keepSite(t, "new-sessions")), 0)
	d, _ := b.startDaemon(1)
	b.allUp(d)
	dp := b.sw.Dataplane()
	var onF1 []twoWay
	for _, s := range manySessions(300, 4) {
		out, _ := s.frames(layers.IPProtocolTCP)
		if lanFG(dp.Process(20, out, nil).Port) == 0 {
			onF1 = append(onF1, s)
		}
	}
	require.Greater(t, len(onF1), 30)
	require.Eventually(t, func() bool { return d.SessionMemory().Held == 300 }, 30*time.Second, 5*time.Millisecond, "%+v", d.SessionMemory())

	gate := make(chan struct{})
	d.learner.keepGate.Store(&gate)
	b.filters["F1"].alive.Store(false)
	b.waitFG(0, p4src.ActionFilterSWBypass, 10*time.Second)
	start := time.Now()
	b.filters["F1"].alive.Store(true)
	b.waitFG(0, p4src.ActionFilterForward, 30*time.Second)
	held := time.Since(start)
	require.Eventually(t, func() bool { return d.SessionMemory().KeepTimedOut == 1 }, 10*time.Second, time.Millisecond)
	close(gate)
	// The learner goes on: its dropped rewrites reach nothing.
	require.Eventually(t, func() bool {
		d.learner.mu.Lock()
		defer d.learner.mu.Unlock()
		return len(d.learner.keeps) == 0 && d.learner.keepReq == nil && len(d.learner.keepDone) == 0
	}, 10*time.Second, time.Millisecond)
	_, by := heldOnSwitch(t, dp)
	assert.Equal(t, len(onF1), by[0], "F1's held sessions went back with it")
	assert.Zero(t, by[63])
	assert.Zero(t, d.SessionMemory().Kept)
	for _, s := range onF1 {
		out, _ := s.frames(layers.IPProtocolTCP)
		assert.Equal(t, 0, lanFG(dp.Process(20, out, nil).Port), "back on F1")
	}
	t.Logf("F1 returned %v after its keep-alives passed again (the wait: %v, its recovery: 3 rounds of 50ms); %d held sessions went back with it",
		held.Round(time.Millisecond), keepReturnWait, len(onF1))
}
