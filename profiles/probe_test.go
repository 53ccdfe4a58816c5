package profiles

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/tables"
)

// probeBench is a bench on failbackSite (interval 100ms,
// recovery_threshold 2, 10ms ticks, fake clock) whose profile has the
// fail-open settings given, with every filter up; it records the
// fail-open reports.
type probeBench struct {
	*failbackBench
	pmu   sync.Mutex
	opens []FailOpen
}

func newProbeBench(t *testing.T, failback, settings string) *probeBench {
	t.Helper()
	pb := &probeBench{failbackBench: newFailbackBench(t, failback, "0s", Options{})}
	src := strings.Replace(sprintf(failbackSite, failback, "0s"), "min_up_time: 0s}", "min_up_time: 0s, "+settings+"}", 1)
	cfg, err := config.Parse([]byte(src))
	require.NoError(t, err)
	pb.bench.open = map[uint32]bool{}
	pb.e, err = New(cfg, pb.send, Options{TimestampUnit: time.Nanosecond,
		OnTransition: func(tr Transition) {
			pb.mu.Lock()
			pb.trans = append(pb.trans, tr)
			pb.mu.Unlock()
		},
		OnFailOpen: func(f FailOpen) {
			pb.pmu.Lock()
			pb.opens = append(pb.opens, f)
			pb.pmu.Unlock()
		}})
	require.NoError(t, err)
	pb.e.Start(pb.now)
	pb.run(1300 * time.Millisecond)
	for _, n := range []string{"F1", "F2", "F3"} {
		require.Equal(t, StateUp, pb.state(n), n)
	}
	return pb
}

func (pb *probeBench) reports() []FailOpen {
	pb.pmu.Lock()
	defer pb.pmu.Unlock()
	return append([]FailOpen(nil), pb.opens...)
}

// untilOpen runs 10ms ticks until F1 is reported failed open and
// returns how long that took (at most limit).
func (pb *probeBench) untilOpen(limit time.Duration) time.Duration {
	pb.t.Helper()
	start := pb.now
	for !pb.status("F1").FailOpen.FailedOpen {
		require.True(pb.t, pb.now.Sub(start) < limit, "F1 not failed open within %s", limit)
		pb.run(10 * time.Millisecond)
	}
	return pb.now.Sub(start)
}

// TestFailOpenAction: a filter that passes fail-open probes is found
// within probe_every keep-alive intervals, whatever the phase of the
// probes, and gets its profile's fail-open action with the reason
// "failed open" and the probe that came back; the others are untouched.
func TestFailOpenAction(t *testing.T) {
	for _, tt := range []struct {
		action string
		want   func(*testing.T, tables.State)
	}{
		{"bypass", func(t *testing.T, st tables.State) { assert.Equal(t, tables.FGSWBypass, st.FilterGroups["F1"]) }},
		{"drop", func(t *testing.T, st tables.State) { assert.Equal(t, tables.FGDrop, st.FilterGroups["F1"]) }},
		{"rebalance", func(t *testing.T, st tables.State) {
			assert.True(t, st.Rebalanced["F1"])
			assert.Equal(t, tables.FGSWBypass, st.FilterGroups["F1"])
		}},
	} {
		for phase := range 3 {
			t.Run(tt.action+"/phase"+string(rune('0'+phase)), func(t *testing.T) {
				pb := newProbeBench(t, "auto", "probe_payload: dpi-probe-block-me, probe_every: 3, fail_open_action: "+tt.action)
				pb.run(time.Duration(phase) * 100 * time.Millisecond)
				pb.open[40] = true
				took := pb.untilOpen(time.Second)
				assert.LessOrEqual(t, took, 300*time.Millisecond, "found within probe_every (3) intervals")
				st := pb.status("F1")
				assert.Equal(t, StateDown, st.State)
				assert.Equal(t, ReasonFailedOpen, st.Reason)
				assert.Contains(t, st.Detail, "failed open: probe returned lan-to-wan (on its WAN port 30)")
				assert.Equal(t, config.FailOpenAction(tt.action), st.FailOpen.Action)
				assert.Positive(t, st.FailOpen.Returned)
				tr := pb.last()
				assert.Equal(t, StateUp, tr.From)
				assert.Equal(t, ReasonFailedOpen, tr.Reason)
				assert.Equal(t, st.Detail, tr.Detail)
				tt.want(t, latest(pb.e))
				for _, n := range []string{"F2", "F3"} {
					assert.Equal(t, StateUp, pb.state(n), n)
					assert.False(t, pb.status(n).FailOpen.FailedOpen, n)
				}
				r := pb.reports()
				require.Len(t, r, 1)
				assert.True(t, r[0].Open)
				assert.Equal(t, "F1", r[0].FilterGroup)
			})
		}
	}
}

// TestFailOpenRecovery: a filter failed open stays out of service while
// its probes come back, though every keep-alive passes; once a round's
// probes are dropped (its keep-alives passing), it returns by the
// recovery rules counted from that round.
func TestFailOpenRecovery(t *testing.T) {
	pb := newProbeBench(t, "auto", "probe_payload_hex: '58 35 4f 21', probe_every: 5, fail_open_action: bypass")
	pb.open[40] = true
	pb.untilOpen(time.Second)
	passes := pb.status("F1").Passes
	pb.run(3 * time.Second)
	st := pb.status("F1")
	assert.Equal(t, StateDown, st.State, "keep-alives pass, probes come back: stays out")
	assert.Equal(t, passes+30, st.Passes, "every keep-alive passed meanwhile")
	assert.Equal(t, uint64(0), st.Losses)
	assert.Equal(t, tables.FGSWBypass, latest(pb.e).FilterGroups["F1"])

	pb.open[40] = false
	fixed := pb.now
	dropped := st.FailOpen.Dropped
	pb.runUntil(StateUp, 2*time.Second)
	took := pb.now.Sub(fixed)
	st = pb.status("F1")
	assert.Equal(t, dropped+1, st.FailOpen.Dropped, "one round of dropped probes ended it")
	assert.False(t, st.FailOpen.FailedOpen)
	// The next probe round (at most 5 rounds away) is judged a round
	// later, and starts the run of recovery_threshold (2) passes.
	assert.GreaterOrEqual(t, took, 200*time.Millisecond)
	assert.LessOrEqual(t, took, 700*time.Millisecond)
	assert.Equal(t, ReasonKeepAlivesPass, pb.last().Reason)
	assert.Empty(t, latest(pb.e).FilterGroups, "in service")
	r := pb.reports()
	require.Len(t, r, 2)
	assert.False(t, r[1].Open)
}

// TestFailOpenAlarmOnly: under the default action (alarm) a filter that
// failed open stays in service, shown as failed open; the report ends when
// its probes are dropped again.
func TestFailOpenAlarmOnly(t *testing.T) {
	pb := newProbeBench(t, "auto", "probe_payload: BLOCKME")
	st := pb.status("F1")
	assert.Equal(t, uint32(config.DefaultProbeEvery), st.FailOpen.Every)
	assert.Equal(t, config.FailOpenAlarm, st.FailOpen.Action)
	pb.open[40] = true
	took := pb.untilOpen(2 * time.Second)
	assert.LessOrEqual(t, took, time.Second, "within probe_every (10) intervals")
	st = pb.status("F1")
	assert.Equal(t, StateUp, st.State)
	assert.Equal(t, "forward", st.Effective)
	assert.True(t, st.FailOpen.FailedOpen)
	assert.Contains(t, st.FailOpen.Detail, "failed open: probe returned")
	assert.Empty(t, latest(pb.e).FilterGroups)
	pb.open[40] = false
	for end := pb.now.Add(2 * time.Second); pb.status("F1").FailOpen.FailedOpen; {
		require.True(t, pb.now.Before(end), "still failed open 2s after its probes are dropped")
		pb.run(10 * time.Millisecond)
	}
	r := pb.reports()
	require.Len(t, r, 2)
	assert.True(t, r[0].Open)
	assert.False(t, r[1].Open)
	assert.Equal(t, StateUp, pb.state("F1"))
}

// TestFailOpenHealthy: healthy filters drop every probe: probes go out of
// both sides every probe_every rounds, each round is counted dropped, and
// nothing fails open; a dead filter's lost probes prove nothing.
func TestFailOpenHealthy(t *testing.T) {
	pb := newProbeBench(t, "auto", "probe_payload: BLOCKME, probe_every: 2, fail_open_action: drop")
	s0 := pb.status("F1").FailOpen
	pb.probes = 0
	pb.run(2 * time.Second) // 20 rounds: 10 probe rounds
	s := pb.status("F1").FailOpen
	assert.Equal(t, uint64(20), s.Sent-s0.Sent, "2 a probe round")
	assert.Equal(t, uint64(10), s.Dropped-s0.Dropped)
	assert.Zero(t, s.Returned)
	assert.False(t, s.FailedOpen)
	assert.Equal(t, 60, pb.probes, "3 filters")
	assert.Empty(t, pb.reports())

	pb.dead[40] = true
	pb.run(200 * time.Millisecond) // the probe round in flight is judged
	dropped := pb.status("F1").FailOpen.Dropped
	pb.run(time.Second)
	s2 := pb.status("F1").FailOpen
	assert.Equal(t, StateDown, pb.state("F1"))
	assert.Equal(t, ReasonKeepAliveLoss, pb.status("F1").Reason)
	assert.Equal(t, dropped, s2.Dropped, "probes lost with the keep-alives prove nothing")
	assert.Greater(t, s2.Sent, s.Sent, "still sent")
}

// TestFailOpenWhileDown: a filter down for lost keep-alives that comes
// back passing probes is kept out by its fail-open action, with the
// reason "failed open".
func TestFailOpenWhileDown(t *testing.T) {
	pb := newProbeBench(t, "auto", "probe_payload: BLOCKME, probe_every: 2, fail_open_action: drop")
	pb.dead[40] = true
	pb.runUntil(StateDown, time.Second)
	assert.Equal(t, tables.FGSWBypass, latest(pb.e).FilterGroups["F1"], "the failure action: bypass")
	pb.open[40] = true
	delete(pb.dead, 40)
	pb.untilOpen(time.Second)
	st := pb.status("F1")
	assert.Equal(t, StateDown, st.State)
	assert.Equal(t, ReasonFailedOpen, st.Reason)
	assert.Equal(t, tables.FGDrop, latest(pb.e).FilterGroups["F1"], "the fail-open action: drop")
	pb.run(2 * time.Second)
	assert.Equal(t, StateDown, pb.state("F1"))
}

// TestFailOpenManualFailback: under manual failback a filter that failed
// open waits for return once its probes are dropped and the recovery
// rules are met.
func TestFailOpenManualFailback(t *testing.T) {
	pb := newProbeBench(t, "manual", "probe_payload: BLOCKME, probe_every: 2, fail_open_action: bypass")
	pb.open[40] = true
	pb.untilOpen(time.Second)
	pb.run(time.Second)
	assert.Equal(t, StateDown, pb.state("F1"))
	pb.open[40] = false
	pb.runUntil(StateRecovered, 2*time.Second)
	require.NoError(t, pb.e.Return("F1", pb.now))
	assert.Equal(t, StateUp, pb.state("F1"))
}

// TestProbeFrame: a probe is a keep-alive frame (the pipeline's parser
// takes it as one) marked as a probe, its payload after the header; a
// keep-alive is no probe.
func TestProbeFrame(t *testing.T) {
	dst, src := [6]byte{2, 0, 0, 0, 0, 2}, [6]byte{2, 0, 0, 0, 0, 1}
	f := EncodeProbe(dst, src, config.DefaultEtherType, 7, wire.WANToLAN, 42, []byte("X5O!P"))
	assert.Len(t, f, wire.KeepAliveFrameLen, "padded")
	k, err := wire.DecodeKeepAlive(f, config.DefaultEtherType)
	require.NoError(t, err)
	assert.Equal(t, uint16(7|ProbeMarker), k.FilterGroup)
	assert.NotZero(t, k.FilterGroup>>6, "bits 15..6 set: no send of a filter group for the pipeline's verdict")
	assert.Equal(t, wire.WANToLAN, k.Direction)
	assert.Equal(t, uint32(42), k.Seq)
	assert.True(t, IsProbe(f, config.DefaultEtherType))
	assert.Equal(t, "X5O!P", string(ProbePayload(f)[:5]))
	big := EncodeProbe(dst, src, config.DefaultEtherType, 7, wire.LANToWAN, 1, make([]byte, config.MaxProbePayload))
	assert.Len(t, big, 14+wire.KeepAliveLen+config.MaxProbePayload)
	ka := wire.EncodeKeepAlive(dst, src, config.DefaultEtherType, wire.KeepAlive{FilterGroup: 7})
	assert.False(t, IsProbe(ka, config.DefaultEtherType))
}

// TestNoProbesByDefault: a profile without a probe payload sends none.
func TestNoProbesByDefault(t *testing.T) {
	fb := healthBench(t, "")
	fb.run(2 * time.Second)
	assert.Zero(t, fb.probes)
	assert.Zero(t, fb.status("F1").FailOpen.Every)
}

// TestFailOpenFirstRound: an engine probes in its first round, so a
// restarted daemon finds a filter that failed open before its
// keep-alives alone could bring it back.
func TestFailOpenFirstRound(t *testing.T) {
	cfg, err := config.Parse([]byte(strings.Replace(sprintf(failbackSite, "auto", "0s"), "min_up_time: 0s}",
		"min_up_time: 0s, probe_payload: BLOCKME, probe_every: 10, fail_open_action: bypass}", 1)))
	require.NoError(t, err)
	b := &bench{t: t, now: time.Unix(1000, 0), dead: map[uint32]bool{}, open: map[uint32]bool{40: true}}
	b.e, err = New(cfg, b.send, Options{TimestampUnit: time.Nanosecond, Down: []string{"F1"}})
	require.NoError(t, err)
	b.e.Start(b.now)
	b.run(1010 * time.Millisecond) // the initial delay, then the first round
	assert.Equal(t, 6, b.probes, "the first round probes (2 a filter)")
	st := b.e.Status()[0]
	assert.Equal(t, ReasonFailedOpen, st.Reason)
	b.run(2 * time.Second)
	assert.Equal(t, StateDown, b.state("F1"), "kept out, though its keep-alives pass")
	assert.Equal(t, StateUp, b.state("F2"))
}
