package etcdstore

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/campaign"
)

// etcd's quorum returns under a holding leader, the paused members being
// etcd's own leader and one other (SIGSTOP, SIGCONT). The resumed etcd
// leader may revoke every lease that ran out while it was paused (its
// clock ran on) before a new etcd election renews them: the holder's
// election key goes, and the standby can be elected at once. The old
// holder must stop believing it leads before the new leader bids on the
// switch, and the switch is without a primary between the two for a
// bounded time. Measured: which happened (held on, or deposed), when the
// holder stepped down, when the new leader bid, and the gap.
//
// A campaign (BALANCER_CAMPAIGN runs, default 1): each run on new etcd
// processes and daemons, the switch's primary and both daemons' own views
// (the elector's "I lead", the session's "I am primary") sampled
// throughout. Figures: the time the switch had no primary, and samples in
// which two daemons believed they lead or a daemon believed it is primary
// while the switch's primary was the other's id (goal: none).
func TestHAQuorumBackDeposesHolder(t *testing.T) {
	// Its own etcd processes (it faults them): beside the other tests
	// that do, as TestHAChurnKeepsFailover.
	t.Parallel()
	runs := campaign.Runs(t, 1)
	var gaps, stepped, bids campaign.Durations
	var ledOn, overlaps int
	for run := 1; run <= runs; run++ {
		var r quorumBackRun
		if !t.Run(fmt.Sprintf("run%d", run), func(t *testing.T) { r = quorumBack(t) }) {
			t.FailNow()
		}
		gaps = append(gaps, r.noPrimary)
		overlaps += r.overlaps
		if r.deposed {
			stepped, bids = append(stepped, r.steppedDown), append(bids, r.bid)
		} else {
			ledOn++
		}
		t.Logf("campaign quorum back run %d: deposed %v, the switch without a primary %v in all (longest %v), holder stepped down %v and the new leader bid %v after SIGCONT; overlapping beliefs: %d samples of %d",
			run, r.deposed, r.noPrimary.Round(time.Millisecond), r.longest.Round(time.Millisecond), r.steppedDown.Round(time.Millisecond), r.bid.Round(time.Millisecond), r.overlaps, r.samples)
	}
	t.Logf("campaign quorum back: without a primary on the switch: %s (max %v, median %v); deposed %d, led on %d; holder stepped down after SIGCONT: %s; new leader bid after SIGCONT: %s; overlapping beliefs: %d samples; load %s",
		gaps.Summary(), campaign.Max(gaps).Round(time.Millisecond), campaign.Median(gaps).Round(time.Millisecond), runs-ledOn, ledOn,
		stepped.Summary(), bids.Summary(), overlaps, campaign.Load())
	assert.Zero(t, overlaps, "never two controllers that believe they lead")
}

// quorumBackRun is one run's figures.
type quorumBackRun struct {
	deposed           bool
	noPrimary         time.Duration // the switch without a primary, in all
	longest           time.Duration // its longest stretch
	steppedDown, bid  time.Duration // after SIGCONT (deposed runs)
	overlaps, samples int
}

// beliefs samples, until stopped, the switch's primary and what each
// daemon believes: it leads (elector) and it is primary (its session).
type beliefs struct {
	b    *haBed
	hs   []*haDaemon
	stop chan struct{}
	done chan struct{}
	// Results, read after stop.
	noPrimary, longest time.Duration
	overlaps, samples  int
	first              string   // the first overlap, said
	lastID             []uint64 // each daemon's last election id seen (a session may lag its elector)
}

func watchBeliefs(b *haBed, hs ...*haDaemon) *beliefs {
	w := &beliefs{b: b, hs: hs, stop: make(chan struct{}), done: make(chan struct{}), lastID: make([]uint64, len(hs))}
	go w.run()
	return w
}

func (w *beliefs) run() {
	defer close(w.done)
	p4rt := w.b.sw.P4Runtime()
	var since time.Time // the switch without a primary since (zero: it has one)
	end := func(now time.Time) {
		if !since.IsZero() {
			d := now.Sub(since)
			w.noPrimary += d
			w.longest = max(w.longest, d)
			since = time.Time{}
		}
	}
	for {
		select {
		case <-w.stop:
			end(time.Now())
			return
		default:
		}
		before, okBefore := p4rt.Primary("")
		leads, primary := 0, 0
		var sessionPrimary []bool
		for i, h := range w.hs {
			l := h.el.Leadership()
			if l.Leader {
				leads++
			}
			if l.Election != 0 {
				w.lastID[i] = l.Election
			}
			p := h.d.Session().Status().Primary
			sessionPrimary = append(sessionPrimary, p)
			if p {
				primary++
			}
		}
		after, okAfter := p4rt.Primary("")
		now := time.Now()
		w.samples++
		if okAfter {
			end(now)
		} else if since.IsZero() {
			since = now
		}
		bad := ""
		switch {
		case leads > 1:
			bad = "two daemons believe they lead (elector)"
		case primary > 1:
			bad = "two daemons believe they are primary (session)"
		case okBefore && okAfter && before == after:
			// A daemon that believes it is primary while the switch's
			// primary (the same before and after the sample) is another id.
			for i, p := range sessionPrimary {
				if p && w.lastID[i] != after {
					bad = fmt.Sprintf("%s believes it is primary (its id %d), the switch's primary is id %d", w.hs[i].name, w.lastID[i], after)
				}
			}
		}
		if bad != "" {
			w.overlaps++
			if w.first == "" {
				w.first = bad
			}
		}
		time.Sleep(200 * time.Microsecond) // sampling: an overlap of beliefs is looked for at this resolution, nothing is waited for
	}
}

func (w *beliefs) end() {
	close(w.stop)
	<-w.done
}

// quorumBack is one run of TestHAQuorumBackDeposesHolder.
func quorumBack(t *testing.T) (r quorumBackRun) {
	procs, cli := startEtcdUp(t, 3)
	b := newHABedOn(t, "", nil, func(b *haBed) { b.endpoints = procs.clients }, withLease(quorumLossLease))
	a := b.start("a")
	b.allUp(a)
	s := b.start("s")
	b.waitStandby(s)
	heldID := a.el.Leadership().Election
	w := watchBeliefs(b, a, s)
	stopWatch := sync.OnceFunc(func() {
		w.end()
		r.noPrimary, r.longest, r.overlaps, r.samples = w.noPrimary, w.longest, w.overlaps, w.samples
		if w.first != "" {
			t.Errorf("overlapping beliefs in %d samples, the first: %s", w.overlaps, w.first)
		}
	})
	defer stopWatch()

	var paused []int
	for i, ep := range procs.clients {
		st, err := cli.Status(context.Background(), ep)
		require.NoError(t, err)
		if st.Leader == st.Header.GetMemberId() {
			paused = append(paused, i)
		}
	}
	require.Len(t, paused, 1, "one etcd leader")
	paused = append(paused, (paused[0]+1)%3)
	procs.signal(t, syscall.SIGSTOP, paused...)
	require.Eventually(t, func() bool { return a.el.Leadership().Held }, 30*time.Second, time.Millisecond, "the leader holds")
	// Held for a while: the leases run out at etcd's paused leader. Wall
	// time is the scenario: a paused process gives no event, and what
	// it finds when resumed is the time its clock ran on meanwhile.
	time.Sleep(quorumLossLease + time.Second)

	// The holder's belief, watched from the moment etcd is back.
	var steppedDown atomic.Int64 // unix ns, 0 while it leads
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resumed := time.Now()
	go func() {
		for ctx.Err() == nil {
			if !a.el.Leadership().Leader {
				steppedDown.Store(time.Now().UnixNano())
				return
			}
			time.Sleep(100 * time.Microsecond) // sampling: the resolution of the measured step-down time
		}
	}()
	procs.signal(t, syscall.SIGCONT, paused...)

	// Either the standby leads (the holder was deposed) or the holder
	// leads on, no longer held (etcd elected a new leader, which renewed
	// every lease).
	var newID uint64
	deposed := false
	require.Eventually(t, func() bool {
		l := s.el.Leadership()
		if l.Leader && s.ready() {
			newID, deposed = l.Election, true
			return true
		}
		h := a.el.Leadership()
		return h.Leader && !h.Held && time.Since(resumed) > quorumLossLease
	}, 30*time.Second, time.Millisecond, "the standby leads, or the holder leads on")
	if !deposed {
		require.True(t, a.el.Leadership().Leader && !a.el.Leadership().Held, "the holder leads on")
		t.Logf("the holder led on with election id %d: not deposed", heldID)
		stopWatch()
		return r
	}
	bid := b.firstBid(newID)
	require.False(t, bid.IsZero())
	down := time.Unix(0, steppedDown.Load())
	require.NotZero(t, steppedDown.Load(), "the old holder stepped down")
	t.Logf("etcd back: the old holder (id %d) stepped down %v after SIGCONT; the new leader (id %d) bid %v after SIGCONT: %v without a primary",
		heldID, down.Sub(resumed).Round(time.Millisecond), newID, bid.Sub(resumed).Round(time.Millisecond), bid.Sub(down).Round(time.Millisecond))
	assert.True(t, down.Before(bid), "the old holder stopped believing it leads before the new leader bid (%v)", bid.Sub(down))
	_, last := b.writesBy(heldID)
	assert.True(t, last.Before(bid) || last.IsZero(), "no write of the old holder after the new leader's bid")
	r.deposed, r.steppedDown, r.bid = true, down.Sub(resumed), bid.Sub(resumed)
	stopWatch()
	return r
}
