package controlplane

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dpi-balancer/balancer/internal/stallproxy"
	"github.com/dpi-balancer/balancer/sim"
	"github.com/dpi-balancer/balancer/tables"
)

// A network cut that loses the connection's close: the proxy between the
// session and the software switch severs the connection (nothing crosses
// it any more, not even a close) while new connections go through. The
// session notices (its liveness probe) and reconnects, but the switch
// still holds the old stream and refuses the session's election id. The
// session retries and its Status says why, with the remedy; once the
// switch's keepalive drops the dead stream the session is primary again.
// Without the switch's pings (as before they were served) the refusals
// go on for as long as the switch keeps the dead TCP connection (9 min
// 46 s, 122 refusals, when measured with real processes).
func TestNetworkCutLockoutEndsWithSwitchKeepalive(t *testing.T) {
	const election = 77
	fast := Timing{ProbeInterval: 100 * time.Millisecond, StallTimeout: 300 * time.Millisecond}
	for _, tc := range []struct {
		name string
		sw   sim.Options
		// timing and backoff of the session (zero: the test's fast ones).
		timing          Timing
		minBoff, maxBof time.Duration
		lockedOut       bool
	}{
		{name: "no switch keepalive: locked out", sw: sim.Options{KeepaliveTime: sim.KeepaliveOff}, timing: fast, lockedOut: true},
		{name: "switch keepalive 2s+1s", sw: sim.Options{KeepaliveTime: 2 * time.Second, KeepaliveTimeout: time.Second}, timing: fast},
		{name: "defaults", sw: sim.Options{}, timing: Timing{}, minBoff: 100 * time.Millisecond, maxBof: 5 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "defaults" && testing.Short() {
				t.Skip("takes about 12s with the default timing (-short)")
			}
			sw := startSwitchWith(t, "", tc.sw)
			proxy := stallproxy.New(t, sw.addr)
			comp := compiler(t)
			want := desired(t, comp, "../examples/site.yaml", tables.State{})
			s, _, _ := newSession(t, proxy.Addr(), election, comp, nil, withDesired(want), withOpts(func(o *Options) {
				o.Timing = tc.timing
				if tc.minBoff > 0 {
					o.MinBackoff, o.MaxBackoff = tc.minBoff, tc.maxBof
				}
			}))
			waitPrimary(t, s)
			reconciles := s.Stats().Reconciles

			proxy.Sever()
			cut := time.Now()
			wantID := fmt.Sprintf("election id 0:%d", election)
			checkAlarm := func(st Status) {
				t.Helper()
				assert.False(t, st.Primary)
				assert.False(t, st.Connected)
				assert.Contains(t, st.LastError, "already used", "the switch's words")
				alarm := st.Alarm()
				assert.Contains(t, alarm, "switch refuses "+wantID+": another stream holds it")
				assert.Contains(t, alarm, "network cut")
				assert.Contains(t, alarm, "retrying")
				assert.Contains(t, alarm, "the switch frees the id when its keepalive drops the dead stream, or restart the switch's P4Runtime agent")
			}

			if tc.lockedOut {
				require.Eventually(t, func() bool { return s.Stats().ElectionRefusals >= 3 }, 20*time.Second, 5*time.Millisecond,
					"the switch did not refuse the id: %+v", s.Status())
				st := s.Status()
				require.True(t, st.ElectionRefused, "%+v", st)
				assert.GreaterOrEqual(t, st.ElectionRefusals, 3)
				assert.False(t, st.ElectionRefusedSince.Before(cut))
				checkAlarm(st)
				t.Logf("locked out: %d refusals in %v; alarm: %s", st.ElectionRefusals, time.Since(cut).Round(time.Millisecond), st.Alarm())
				return
			}

			// Polled: the lost connection, then the first one the switch
			// answered after it (it took the id again: the lockout ended),
			// then primary and reconciled.
			var refused *Status
			var lostConn bool
			var accepted time.Duration
			require.Eventually(t, func() bool {
				st := s.Status()
				if st.ElectionRefused && refused == nil {
					refused = &st
				}
				lostConn = lostConn || !st.Connected
				if lostConn && st.Connected && accepted == 0 {
					accepted = time.Since(cut)
				}
				return lostConn && st.Primary && !st.Pending && s.Stats().Reconciles > reconciles
			}, 2*time.Minute, 5*time.Millisecond, "not primary again: %+v", s.Status())
			back := time.Since(cut)
			kaTime, kaTimeout := tc.sw.KeepaliveTime, tc.sw.KeepaliveTimeout
			if kaTime == 0 {
				kaTime, kaTimeout = sim.DefaultKeepaliveTime, sim.DefaultKeepaliveTimeout
			}
			t.Logf("the switch took the id again %v after the cut, primary and reconciled again %v after it (switch keepalive %v + %v, session detection bound %v), %d refusals",
				accepted.Round(time.Millisecond), back.Round(time.Millisecond), kaTime, kaTimeout, s.opts.DetectionBound(), s.Stats().ElectionRefusals)
			// Keepalive + the next bid: the lockout ends with the switch's
			// keepalive (without it, after minutes). Judged at the switch's
			// first answer, not at the end of the reconcile that follows
			// (reading back and diffing the site's 4,130 entries: a second
			// on an idle host, many under -race on a loaded one, which is
			// the host's speed and not the lockout's end).
			require.Positive(t, accepted, "no connection answered after the cut")
			assert.Less(t, accepted, 2*(kaTime+kaTimeout)+5*time.Second, "the switch takes the id again soon after its keepalive")
			require.GreaterOrEqual(t, s.Stats().ElectionRefusals, uint64(1), "the switch never refused the id: the cut was not seen as a lockout")
			if refused != nil { // polled: a host stalled for the whole refusal may miss it
				checkAlarm(*refused)
			}
			st := s.Status()
			assert.False(t, st.ElectionRefused)
			assert.Empty(t, st.Alarm())
			// Read back through the session, asked again if it fails: with
			// the fast timing (a 300 ms stall timeout) a loaded host makes
			// the session drop and reopen connections, and a read under way
			// ends with the dropped one.
			var got []*p4v1.Entity
			tq, vq := comp.ReadQueries()
			require.Eventually(t, func() bool {
				es, err := s.Read(context.Background(), append(tq, vq...)...)
				got = es
				return err == nil
			}, time.Minute, 10*time.Millisecond, "reading the switch back")
			assert.True(t, comp.Diff(want, got).Empty(), "the switch holds the desired state")
		})
	}
}

// The refusal is recognised in the words of every switch the daemon
// drives, and only with INVALID_ARGUMENT.
func TestElectionInUseRecognised(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"software switch", status.Error(codes.InvalidArgument, `election id 77 is already used by another controller of role ""`), true},
		{"Stratum", status.Error(codes.InvalidArgument, "Election ID { low: 77 } is already used by another connection with the same role."), true},
		{"PI (BMv2)", status.Error(codes.InvalidArgument, "Election id already exists"), true},
		{"PI (BMv2), a new id", status.Error(codes.InvalidArgument, "New election id already exists"), true},
		{"another invalid argument", status.Error(codes.InvalidArgument, "the first stream message must be an arbitration update"), false},
		{"another code", status.Error(codes.PermissionDenied, "election id 77 is already used"), false},
		{"no status", fmt.Errorf("election id 77 is already used"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, electionInUse(tc.err))
		})
	}
}

// A network cut that loses the close of the session's connection while
// new connections go through, and the read connection opens only after
// the cut (its first read comes then): the reads go on and are answered,
// over the new path. They say nothing about the main connection, whose
// stream and probe are dead: the session still notices the cut within
// its detection bound. Before, the answers on the new read connection
// counted as the switch's signs of life and the cut went unnoticed for as
// long as the reads went on (with a daemon's counter reads, 7 s instead
// of 4.1 s: past the software switch's keepalive, so its 10 s goal was
// missed).
func TestNetworkCutWithNewReadConnection(t *testing.T) {
	sw := startSwitchWith(t, "", sim.Options{KeepaliveTime: sim.KeepaliveOff})
	proxy := stallproxy.New(t, sw.addr)
	comp := compiler(t)
	want := desired(t, comp, "../examples/site.yaml", tables.State{})
	timing := Timing{ProbeInterval: 100 * time.Millisecond, StallTimeout: 300 * time.Millisecond, ReconcileInterval: ReconcileOff}
	s, _, _ := newSession(t, proxy.Addr(), 78, comp, nil, withDesired(want), withOpts(func(o *Options) { o.Timing = timing }))
	waitPrimary(t, s)

	proxy.Sever()
	cut := time.Now()
	tq, _ := comp.ReadQueries()
	var answered atomic.Int64
	var lastErr atomic.Value
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil && s.Status().Connected {
			rctx, rcancel := context.WithTimeout(ctx, time.Second)
			if _, err := s.Read(rctx, tq[0]); err == nil {
				answered.Add(1)
			} else {
				lastErr.Store(err.Error())
			}
			rcancel()
			time.Sleep(20 * time.Millisecond) // a reader's pace (a counter poll)
		}
	}()
	defer func() { cancel(); <-done }()
	bound := timing.DetectionBound()
	if !waitFor(10*bound+5*time.Second, func() bool { return !s.Status().Connected }) {
		t.Fatalf("the cut never noticed while reads on a new read connection were answered (%d answered; last error %v)", answered.Load(), lastErr.Load())
	}
	noticed := time.Since(cut)
	cancel()
	<-done
	t.Logf("cut noticed %v after it (bound %v); %d reads answered after the cut, on the new read connection", noticed.Round(time.Millisecond), bound, answered.Load())
	require.Positive(t, answered.Load(), "the scenario: reads answered after the cut (last error %v)", lastErr.Load())
	assert.Less(t, noticed, bound+time.Second, "noticed within the detection bound")
	assert.Contains(t, s.Status().LastError, "stalled")
}

// waitFor polls cond every millisecond until it holds (true) or within
// passes (false).
func waitFor(within time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
	return true
}
