package etcdstore

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/internal/campaign"
	"github.com/dpi-balancer/balancer/internal/testbed"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/profiles"
)

// A takeover after the old leader's pipeline proved a filter dead: the
// verdict register still holds the old leader's epoch when the filter
// comes back, and the entry the new leader writes for its recovery must
// clear it. Before, the new leader wrote the epoch it started from (the
// old leader's, 0 here), the standing verdict applied again at the next
// frame and its digest failed the healthy filter again 1-13 ms after
// "keep-alives pass", for another recovery_threshold x interval (measured
// with 3 etcd processes: 4 of 7 takeovers that adopted the failure).
//
// F2 and F3 die together, so the leader's stall guard holds them (most of
// the switch is losing keep-alives: the path is suspected) and the
// pipeline proves both first, every time: the verdict register is set at
// the leader's epoch and the leader writes the failure state on its
// digest. Then the leader goes and the standby takes over, from a store
// that says F2 is down ("down before restart": the leader saved it) or,
// etcd having lost its quorum meanwhile, up (the failure adopted from the
// switch). The filters answer again: each must come back once and stay,
// its traffic not verdict-bypassed again.
//
// Two steps have timing premises, stated and watched (testbed.Stalls):
// the leader holds through the lost quorum only if the surviving member's
// status reaches it within the quarter lease it waits, and healthy
// filters stay up only if the switch and the filter emulators (in this
// process) run within a keep-alive interval (50 ms). A run in which one of
// these steps failed while the host stalled this process for an interval
// or more is not the scenario: it is said, and the scenario runs again
// on a fresh bed.
//
// The takeovers that adopt the failure are a campaign (BALANCER_CAMPAIGN
// takeovers, default 1; runs that were not the scenario are run again and
// not counted): each logs its false verdicts (events after the recovery
// and verdicts taken) and the frames verdict-bypassed after the filters
// answered, with a summary at the end; the goal is none of either.
func TestHATakeoverRecoveryClearsOldVerdict(t *testing.T) {
	// Its own etcd processes (it faults them): beside the other tests
	// that do, as TestHAChurnKeepsFailover.
	t.Parallel()
	stalls := testbed.WatchStalls(t)
	for _, quorumLoss := range []bool{false, true} {
		name := "store says down"
		takeovers := 1
		if quorumLoss {
			name = "failure adopted from the switch"
			takeovers = campaign.Runs(t, 1)
		}
		t.Run(name, func(t *testing.T) {
			var falseVerdicts, bypassed campaign.Counts
			var took campaign.Durations
			giveUp := time.Now().Add(time.Duration(takeovers) * 4 * time.Minute)
			for run := 1; len(took) < takeovers; run++ {
				var starved string
				var r recoveryRun
				if !t.Run(fmt.Sprintf("run%d", run), func(t *testing.T) {
					r = takeoverRecovery(t, stalls, name, quorumLoss, &starved)
				}) && starved == "" {
					t.FailNow()
				}
				if starved == "" {
					falseVerdicts, bypassed, took = append(falseVerdicts, r.falseVerdicts), append(bypassed, r.bypassed), append(took, r.takeover)
					t.Logf("campaign takeover recovery (%s) takeover %d: new leader ready %v after the old one went; false verdicts %d; frames verdict-bypassed after the filters answered %d",
						name, len(took), r.takeover.Round(time.Millisecond), r.falseVerdicts, r.bypassed)
					continue
				}
				t.Logf("run %d: %s: not the scenario, run again", run, starved)
				if time.Now().After(giveUp) {
					t.Skipf("the host never kept the premises for a whole run (last: %s)", starved)
				}
			}
			t.Logf("campaign takeover recovery (%s): false verdicts: %s; frames verdict-bypassed after the filters answered: %s; takeover: %s; load %s",
				name, falseVerdicts.Summary(), bypassed.Summary(), took.Summary(), campaign.Load())
		})
	}
}

// recoveryRun is one takeover's figures.
type recoveryRun struct {
	takeover      time.Duration // the old leader gone -> the new one ready
	falseVerdicts uint64        // filter group events after the recovery, and verdicts the new leader took
	bypassed      uint64        // frames verdict-bypassed after the filters answered
}

// haStallBound is the premise of the HA scenarios with healthy filters on
// testdata/ha.yaml: the host never stalls the test process for its
// keep-alive interval (50 ms) or more.
const haStallBound = 50 * time.Millisecond

// takeoverRecovery is one run of TestHATakeoverRecoveryClearsOldVerdict.
// When a step with a timing premise fails while the host stalled this
// process for haStallBound or more, it says so in starved and skips.
func takeoverRecovery(t *testing.T, stalls *testbed.Stalls, name string, quorumLoss bool, starved *string) (r recoveryRun) {
	premise := func(from time.Time, step string) {
		if worst := stalls.Worst(from, time.Now()); worst >= haStallBound {
			*starved = fmt.Sprintf("%s while the host stalled this process %v (premise: under %v)", step, worst.Round(time.Millisecond), haStallBound)
			t.Skip(*starved)
		}
	}
	procs, cli := startEtcdUp(t, 3)
	b := newHABedOn(t, "", nil, func(b *haBed) { b.endpoints = procs.clients }, withLease(quorumLossLease))
	a := b.start("a")
	b.allUp(a)
	healthy := time.Now() // the filters are healthy from here until F2 and F3 die
	s := b.start("s")
	b.waitStandby(s)
	b.waitSavedUp("F1", "F2", "F3")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.traffic(ctx, 2000)
	share := b.toFilter(1)
	require.Eventually(t, func() bool { return b.toFilter(1) > share+100 }, 10*time.Second, time.Millisecond, "F2 carries its share")

	if quorumLoss {
		killed := time.Now()
		procs.kill(t, 1, 2)
		if !waitUntil(20*time.Second, func() bool { return a.el.Leadership().Held }) {
			premise(killed, "the leader did not hold")
			require.Fail(t, "the leader holds")
		}
	}
	oldEpoch := epoch(a, "F2")
	for _, f := range []string{"F2", "F3"} {
		b.filters[f].alive.Store(false)
	}
	dp := b.sw.Dataplane()
	if !waitUntil(20*time.Second, func() bool {
		e2, set2 := dp.Verdict(1)
		e3, set3 := dp.Verdict(2)
		return set2 && set3 && e2 == oldEpoch && e3 == epoch(a, "F3") &&
			b.fgAction(1) == p4src.ActionFilterSWBypass && b.fgAction(2) == p4src.ActionFilterSWBypass
	}) {
		// The leader failed them (or F1) by keep-alive loss first: healthy
		// filters on a host that stalled the switch and their emulators.
		premise(healthy, "F2 and F3 not failed by the pipeline's verdict")
		require.Fail(t, "the pipeline proves F2 and F3 dead and the leader writes their failure state")
	}
	_, reason, _ := filterState(a, "F2")
	t.Logf("%s: F2 failed by the old leader (%s) at epoch %d", name, reason, oldEpoch)
	if !quorumLoss {
		check, err := Open(newClient(t, procs.clients...), b.prefix, 0)
		require.NoError(t, err)
		require.Eventually(t, func() bool {
			rt, err := check.LoadRuntime()
			return err == nil && slices.Contains(rt.Down, "F2") && slices.Contains(rt.Down, "F3")
		}, 20*time.Second, 5*time.Millisecond, "the leader saves F2 and F3 down")
	}

	gone := time.Now()
	a.kill()
	if quorumLoss {
		procs.restart(t, 1)
		procs.restart(t, 2)
		require.True(t, procs.up(cli, 60*time.Second), "etcd members started again")
	}
	b.waitReady(s, 60*time.Second)
	r.takeover = time.Since(gone)
	<-a.done
	wantReason := profiles.ReasonRestart.String()
	if quorumLoss {
		wantReason = profiles.ReasonFoundFailed.String()
	}
	for _, f := range []string{"F2", "F3"} {
		st, reason, _ := filterState(s, f)
		require.Equal(t, "down", st, f)
		require.Equal(t, wantReason, reason, f)
	}
	e2, set2 := dp.Verdict(1)
	require.True(t, set2 && e2 == oldEpoch, "the old leader's verdict on F2 is still in the register")

	// They answer again: the new leader brings each back once.
	// Its filter group events, from now on: the first "up" of
	// each is the recovery; any later event a failure again.
	events := make(chan daemon.Event, 64)
	mctx, mcancel := context.WithCancel(ctx)
	defer mcancel()
	go func() {
		_ = s.d.Monitor(mctx, 0, "", true, func(e daemon.Event) error {
			if e.Kind == daemon.EventFilterGroup && (e.Object == "F2" || e.Object == "F3") {
				events <- e
			}
			return nil
		})
	}()
	before, toF2 := b.verdictBypassed(1)+b.verdictBypassed(2), b.toFilter(1)
	answered := time.Now()
	for _, f := range []string{"F2", "F3"} {
		b.filters[f].alive.Store(true)
	}
	up := map[string]time.Time{}
	var again []daemon.Event
	deadline := time.After(20 * time.Second)
	for len(up) < 2 {
		select {
		case e := <-events:
			if _, ok := up[e.Object]; ok || e.To != "up" {
				again = append(again, e)
				continue
			}
			up[e.Object] = e.At
		case <-deadline:
			premise(answered, "F2 and F3 not back")
			t.Fatalf("the new leader did not bring F2 and F3 back: %v", up)
		}
	}
	// Twice the detection time and the recovery (4 x 50 ms, 3 x
	// 50 ms) after the later one: a verdict standing again fails
	// the filter within a frame (it took 1-13 ms).
	window := time.After(time.Second)
watch:
	for {
		select {
		case e := <-events:
			again = append(again, e)
		case <-window:
			break watch
		}
	}
	newEpoch := epoch(s, "F2")
	bypassedAfter, carried, taken := b.verdictBypassed(1)+b.verdictBypassed(2)-before, b.toFilter(1)-toF2, verdicts(s, "F2")+verdicts(s, "F3")
	act2, act3 := b.fgAction(1), b.fgAction(2)
	if len(again) > 0 || bypassedAfter > 0 || carried <= 100 || taken > 0 || act2 != p4src.ActionFilterForward || act3 != p4src.ActionFilterForward {
		premise(answered, fmt.Sprintf("events after the recovery %v, %d frames verdict-bypassed, %d to F2, %d verdicts, F2 %s, F3 %s",
			again, bypassedAfter, carried, taken, act2, act3))
	}
	t.Logf("%s: F2 back at epoch %d (the old leader's verdict: epoch %d); verdict-bypassed frames from the filters' return to 1 s after their recovery: %d; to F2: %d; events after the recovery: %v",
		name, newEpoch, oldEpoch, bypassedAfter, carried, again)
	assert.Empty(t, again, "F2 and F3 come back once and stay in service")
	assert.Equal(t, p4src.ActionFilterForward, act2)
	assert.Equal(t, p4src.ActionFilterForward, act3)
	assert.NotEqual(t, oldEpoch, newEpoch, "the recovery wrote a new epoch")
	assert.Zero(t, bypassedAfter, "no frame verdict-bypassed after the filters answered")
	assert.Greater(t, carried, uint64(100), "F2 carries its share")
	assert.Zero(t, taken, "the new leader took no data-plane verdict")
	r.falseVerdicts, r.bypassed = uint64(len(again))+uint64(taken), bypassedAfter
	return r
}

// verdictBypassed reads the switch's count of the frames a standing
// data-plane verdict software-bypassed for a filter group
// (verdict_counters).
func (b *haBed) verdictBypassed(fg uint32) uint64 {
	b.t.Helper()
	dp := b.sw.Dataplane()
	c, err := dp.Schema().Counter(p4src.CounterVerdict)
	require.NoError(b.t, err)
	var n uint64
	require.NoError(b.t, dp.Read([]*p4v1.Entity{{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{
		CounterId: c.GetPreamble().GetId(), Index: &p4v1.Index{Index: int64(p4src.VerdictCounterIndex(fg, p4src.VerdictCntBypass))}}}}},
		func(e *p4v1.Entity) bool { n = uint64(e.GetCounterEntry().GetData().GetPacketCount()); return true }))
	return n
}

// waitUntil polls cond every millisecond until it holds (true) or within
// passes (false).
func waitUntil(within time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
	return true
}
