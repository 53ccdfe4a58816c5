package etcdstore

import (
	"context"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
func TestHAQuorumBackDeposesHolder(t *testing.T) {
	// Its own etcd processes (it faults them): beside the other tests
	// that do, as TestHAChurnKeepsFailover.
	t.Parallel()
	procs, cli := startEtcdUp(t, 3)
	b := newHABedOn(t, "", nil, func(b *haBed) { b.endpoints = procs.clients }, withLease(quorumLossLease))
	a := b.start("a")
	b.allUp(a)
	s := b.start("s")
	b.waitStandby(s)
	heldID := a.el.Leadership().Election

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
			time.Sleep(100 * time.Microsecond)
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
		return
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
}
