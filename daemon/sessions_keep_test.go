package daemon

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sessionmem"
	"github.com/dpi-balancer/balancer/sim/dataplane"
)

// keepSite is sessionsSite (F1-F3, failure action bypass) with the
// profile's return setting ret. Keep-alives every 100 ms, 20 lost to
// fail (2 s): the test process stalls for up to ~2 s under -race on a
// loaded host, and a filter failed by a stall would move sessions these
// tests count as unmoved.
func keepSite(t *testing.T, ret string) string {
	t.Helper()
	site := strings.Replace(sessionsSite(t, "F1, F2, F3", "tcp: 300s"), "interval: 100ms, loss_threshold: 30, recovery_threshold: 3, min_active: 1, failure_action: bypass",
		"interval: 100ms, loss_threshold: 20, recovery_threshold: 3, min_active: 1, failure_action: bypass, return: "+ret, 1)
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
				r := passed(dp, 20, out)
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
			heldEventually(t, d, len(old))

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
			heldEventually(t, d, len(old)+len(during))
			for _, s := range oldF1 {
				require.Equal(t, -1, send(s), "F1's held session is bypassed while F1 is")
			}

			// F1 returns while frames of its sessions keep coming.
			str := streamSessions(dp, append(oldF1, duringF1...), func(r dataplane.Result) bool { return lanFG(r.Port) == 0 })
			b.filters["F1"].alive.Store(true)
			b.waitFG(0, p4src.ActionFilterForward, 20*time.Second)
			// Frames sent after the return was written, then stop.
			str.end(t, 2)
			reachedF1, sent := &str.hits, &str.sent
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
			require.Eventually(t, func() bool { return d.SessionMemory().Held == len(old)+len(during)+len(fresh) }, 30*time.Second, 5*time.Millisecond,
				"the new sessions learned: %+v", d.SessionMemory())
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
		if lanFG(passed(dp, 20, out).Port) == 0 {
			onF1 = append(onF1, s)
		}
	}
	require.Greater(t, len(onF1), 30)
	heldEventually(t, d, 300)

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
		assert.Equal(t, 0, lanFG(passed(dp, 20, out).Port), "back on F1")
	}
	t.Logf("F1 returned %v after its keep-alives passed again (the wait: %v, its recovery: 3 rounds of 100ms); %d held sessions went back with it",
		held.Round(time.Millisecond), keepReturnWait, len(onF1))
}

// A daemon killed (SIGKILL, a child process) while a filter group is in
// software bypass under return: new-sessions: the switch keeps it bypassed,
// and the daemon started after it, whose learner knows nothing of the
// table until it reads it back, still keeps the bypassed sessions in
// bypass when the filter returns. Frames of them are sent without a pause
// from before the new daemon starts until after the return.
func TestSessionMemoryKeepSurvivesKill9(t *testing.T) {
	b := newBedFor(t, writeSite(t, keepSite(t, "new-sessions")), 0)
	d, stop := b.startDaemon(1)
	b.allUp(d)
	dp := b.sw.Dataplane()
	send := func(s twoWay) int {
		out, _ := s.frames(layers.IPProtocolTCP)
		r := passed(dp, 20, out)
		if r.Port == 10 {
			return -1
		}
		return lanFG(r.Port)
	}
	var oldF1 []twoWay
	for _, s := range manySessions(300, 4) {
		if send(s) == 0 {
			oldF1 = append(oldF1, s)
		}
	}
	require.Greater(t, len(oldF1), 30)
	heldEventually(t, d, 300)
	stop()

	child := startChildDaemon(t, b, 2)
	b.filters["F1"].alive.Store(false)
	b.waitFG(0, p4src.ActionFilterSWBypass, 60*time.Second)
	var duringF1 []twoWay
	for _, s := range manySessions(300, 6) {
		if send(s) == -1 {
			duringF1 = append(duringF1, s)
		}
	}
	require.Greater(t, len(duringF1), 30)
	require.Eventually(t, func() bool {
		_, by := heldOnSwitch(t, dp)
		return by[63] == len(duringF1)
	}, 60*time.Second, 5*time.Millisecond, "the child daemon learns the bypass's sessions at the kept id (stderr: %s)", child.stderr.String())
	require.NoError(t, child.cmd.Process.Signal(syscall.SIGKILL))
	<-child.done
	b.filters["F1"].alive.Store(true)

	str := streamSessions(dp, append(oldF1, duringF1...), func(r dataplane.Result) bool { return lanFG(r.Port) == 0 })
	d3, _ := b.startDaemon(3)
	b.waitFG(0, p4src.ActionFilterForward, 60*time.Second)
	str.end(t, 2)
	reachedF1, sent := &str.hits, &str.sent
	assert.Zero(t, reachedF1.Load(), "no frame of a bypassed session reaches F1 (%d sent across the restart and its return)", sent.Load())
	_, by := heldOnSwitch(t, dp)
	assert.Equal(t, len(oldF1)+len(duringF1), by[63])
	assert.Zero(t, by[0])
	assert.Equal(t, uint64(len(oldF1)), d3.SessionMemory().Kept, "the new daemon rewrote F1's sessions held before its failure")
	t.Logf("daemon killed -9 with F1 bypassed (%d held + %d of the bypass at the kept id); the next daemon returned F1 with 0 of %d frames reaching it, %d rewritten",
		len(oldF1), len(duringF1), sent.Load(), d3.SessionMemory().Kept)
}

// The learner takes a keep request's entries from its view only once it
// has read the table back: a daemon just started has written nothing and
// read nothing, and an empty view would let the return through with every
// held session of the filter group. Until then the request waits (its
// waiter is not called); after the read-back it rewrites exactly the
// filter group's entries, with their cores, and only then calls it.
func TestLearnerKeepWaitsForTheTable(t *testing.T) {
	s, err := p4src.LoadSessions()
	require.NoError(t, err)
	tbl, err := sessionmem.Resolve(s)
	require.NoError(t, err)
	onF1 := []sessionmem.Digest{
		{Key: sessionmem.AddrKey(0, manySessions(1, 1)[0].a, manySessions(1, 1)[0].b, 6), FilterGroup: 0, Core: 3},
		{Key: sessionmem.AddrKey(0, manySessions(2, 1)[1].a, manySessions(2, 1)[1].b, 17), FilterGroup: 0, Core: 1},
	}
	onF2 := sessionmem.Digest{Key: sessionmem.AddrKey(0, manySessions(3, 2)[2].a, manySessions(3, 2)[2].b, 6), FilterGroup: 1, Core: 0}
	var entries []*p4v1.Entity
	for _, d := range append(slices.Clone(onF1), onF2) {
		entries = append(entries, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: tbl.Entry(d.Key, d.FilterGroup, d.Core, time.Minute)}})
	}
	sw := &answeringSwitch{err: func(*p4v1.Update) error { return nil }, entries: entries}
	l := newLearner(tbl, sw, func(uint8) time.Duration { return time.Minute }, 100)
	called := 0
	l.requestKeep(map[uint8]bool{0: true}, 63, func() { called++ })
	del, ins, _ := l.next()
	assert.Empty(t, del)
	assert.Empty(t, ins, "nothing to rewrite before the table is read back")
	l.finishKeeps()
	assert.Zero(t, called, "the return waits for the read-back")

	require.NoError(t, l.readBack(context.Background()))
	del, ins, kind := l.next()
	assert.Empty(t, del)
	require.Equal(t, batchKeep, kind)
	want := []sessionmem.Digest{{Key: onF1[0].Key, FilterGroup: 63, Core: 3}, {Key: onF1[1].Key, FilterGroup: 63, Core: 1}}
	assert.ElementsMatch(t, want, ins, "F1's entries, to the kept id, on their cores")
	l.finishKeeps()
	assert.Zero(t, called, "not before they are written")
	require.NoError(t, l.write(context.Background(), del, ins, kind))
	l.finishKeeps()
	assert.Equal(t, 1, called)
	st := l.status()
	assert.Equal(t, uint64(2), st.Kept)
	assert.Equal(t, map[uint8]int{63: 2, 1: 1}, st.ByGroup)
}

// heldEventually waits until the learner holds n sessions, and on a
// timeout reports the session memory as it was at the last try.
func heldEventually(t *testing.T, d *Daemon, n int) {
	t.Helper()
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		st := d.SessionMemory()
		assert.Equal(c, n, st.Held, "%+v", st)
	}, 30*time.Second, 5*time.Millisecond)
}

// sessionStream sends the first frame of each of its sessions into the
// software switch round and round, from a goroutine of its own, counting
// the frames sent and those hit says of (where the switch sent them).
type sessionStream struct {
	ss         []twoWay
	sent, hits atomic.Int64
	stop       chan struct{}
	wg         sync.WaitGroup
}

func streamSessions(dp *dataplane.Dataplane, ss []twoWay, hit func(dataplane.Result) bool) *sessionStream {
	st := &sessionStream{ss: ss, stop: make(chan struct{})}
	st.wg.Add(1)
	go func() {
		defer st.wg.Done()
		for {
			for _, s := range ss {
				select {
				case <-st.stop:
					return
				default:
				}
				out, _ := s.frames(layers.IPProtocolTCP)
				if hit(passed(dp, 20, out)) {
					st.hits.Add(1)
				}
				st.sent.Add(1)
			}
		}
	}()
	return st
}

// end waits until rounds more rounds of the sessions' frames were sent,
// then stops the stream.
func (st *sessionStream) end(t *testing.T, rounds int) {
	t.Helper()
	after := st.sent.Load()
	require.Eventually(t, func() bool { return st.sent.Load() > after+int64(rounds*len(st.ss)) }, 30*time.Second, time.Millisecond)
	close(st.stop)
	st.wg.Wait()
}
