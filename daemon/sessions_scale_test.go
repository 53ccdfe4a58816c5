package daemon

import (
	"context"
	"math/rand"
	"net/netip"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/testbed"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sessionmem"
	"github.com/dpi-balancer/balancer/sim/dataplane"
)

// scaleSessionsEnv sets the sessions of TestSessionMemoryAtScale; 10,000
// is the figure of docs/sessions.md, run once; make test runs the default.
const scaleSessionsEnv = "BALANCER_SESSIONS_E2E"

const scaleSessionsDefault = 2000

// fourFilters are the bed's filter emulators with a fourth pair (F4 on
// P10/P9).
var fourFilters = map[string][2]uint32{"F1": {40, 30}, "F2": {60, 50}, "F3": {80, 70}, "F4": {100, 90}}

// scaleSite is sessionsSite with ports 9 and 10, failure action
// rebalance, the members given and F4 defined when it is one of them. The
// detection stays 3 s (100 ms x 30): the test's frames are processed, not
// sent, so no filter returns them, and the data plane's verdict fails a
// filter whose sent frames see no return (keep-alive or data) within the
// detection: a keep-alive delayed past 300 ms on a loaded host would.
func scaleSite(t testing.TB, members string) string {
	s := sessionsSite(t, members, "tcp: 300s")
	s = strings.Replace(s, "interval: 100ms, loss_threshold: 30, recovery_threshold: 3, min_active: 1, failure_action: bypass",
		"interval: 100ms, loss_threshold: 30, recovery_threshold: 3, min_active: 1, failure_action: rebalance", 1)
	s = strings.Replace(s, "  - {port: 8, speed: 100G}\n", "  - {port: 8, speed: 100G}\n  - {port: 9, speed: 100G}\n  - {port: 10, speed: 100G}\n", 1)
	if strings.Contains(members, "F4") {
		s = strings.Replace(s, "  - {name: F3, lan: P8, wan: P7, cores: 4}\n", "  - {name: F3, lan: P8, wan: P7, cores: 4}\n  - {name: F4, lan: P10, wan: P9, cores: 4}\n", 1)
	}
	require.Contains(t, s, "failure_action: rebalance")
	require.Contains(t, s, "port: 10")
	return s
}

// fgOfPort is the filter group (fourFilters' ids: F1 0 .. F4 3) whose LAN
// or WAN port a frame left by, and which side.
func fgOfPort(port uint32) (fg int, wan bool) {
	switch port {
	case 40, 60, 80, 100:
		return int(port/20) - 2, false
	case 30, 50, 70, 90:
		return int(port-30) / 20, true
	}
	return -1, false
}

// twoWayAt is where both directions of a session went.
type twoWayAt struct{ out, back placedAt }

// sessionPlaces sends both directions of every session through the
// software switch, and back from the filter it reached, and records each
// frame's filter group and core; a
// frame that reached no filter, or a direction on another filter or core
// than the other, fails the test (the hash is symmetric, held or not).
func sessionPlaces(t *testing.T, dp *dataplane.Dataplane, ss []twoWay) map[twoWay]twoWayAt {
	t.Helper()
	out := make(map[twoWay]twoWayAt, len(ss))
	for _, s := range ss {
		o, bk := s.frames(layers.IPProtocolTCP)
		ro, rb := dp.Process(20, o, nil), dp.Process(10, bk, nil)
		fo, wo := fgOfPort(ro.Port)
		fb, wb := fgOfPort(rb.Port)
		if !(fo >= 0 && !wo && fb >= 0 && wb) {
			_, ho := dp.Explain(20, o)
			_, hb := dp.Explain(10, bk)
			require.Fail(t, "both directions reach a filter", "%+v / %+v\nout: %+v\nback: %+v", ro, rb, ho, hb)
		}
		at := twoWayAt{out: coreOf(t, ro, fo), back: coreOf(t, rb, fb)}
		require.Equal(t, at.out, at.back, "both directions of a session on one filter and core")
		out[s] = at
		// The filter passes both back, as the bed's emulators do: the
		// switch sees its sent frames return (the data plane's verdict
		// fails a filter whose frames do not).
		pp := fourFilters["F"+strconv.Itoa(fo+1)]
		require.Equal(t, uint32(10), dp.Process(pp[1], ro.Frame, nil).Port, "returned by the filter: out by the link's WAN port")
		require.Equal(t, uint32(20), dp.Process(pp[0], rb.Frame, nil).Port, "returned by the filter: out by the link's LAN port")
	}
	return out
}

func coreOf(t *testing.T, r dataplane.Result, fg int) placedAt {
	t.Helper()
	require.GreaterOrEqual(t, len(r.Frame), 16)
	p := placeOf(t, dataplane.Result{Port: 40, Frame: r.Frame}) // the core header, whatever the port
	return placedAt{fg: fg, core: p.core}
}

// changedFrom counts the sessions of now placed elsewhere than in before.
func changedFrom(before, now map[twoWay]twoWayAt) int {
	n := 0
	for s, at := range now {
		if before[s] != at {
			n++
		}
	}
	return n
}

func scaleSessions(t *testing.T) int {
	n := scaleSessionsDefault
	if v := os.Getenv(scaleSessionsEnv); v != "" {
		var err error
		n, err = strconv.Atoi(v)
		require.NoError(t, err, "%s=%q: give a number of sessions", scaleSessionsEnv, v)
		require.True(t, n >= 100 && n <= 20000, "%s=%d: give 100..20000 (the table holds 65,536; two sets are learned)", scaleSessionsEnv, n)
	}
	return n
}

// waitSettled waits until the daemon has written what it runs.
func waitSettled(t *testing.T, d *Daemon) {
	t.Helper()
	require.Eventually(t, func() bool {
		s, err := d.Status(context.Background())
		return err == nil && !s.Switch.Pending && !s.Switch.StatePending
	}, 60*time.Second, 5*time.Millisecond)
}

// The session memory at scale on the software switch bed (four filter
// port pairs): N live two-way sessions (BALANCER_SESSIONS_E2E, default
// 2,000; 10,000 run for docs/sessions.md) learned on three filter groups,
// every frame's filter group and core recorded per session. A fourth
// filter group joins: 0 sessions change filter or core (the dry run said
// so beforehand), and N sessions started after it give the fourth 25 % +-
// 2 %. F2 fails (rebalance): its held sessions move to the survivors,
// no other moves; it returns: 0 of those move back. F1's cores go from 4
// to 6: 0 live sessions change core. The daemon is stopped and another
// started as a child process, which is killed (SIGKILL) and a third one
// started: 0 moved across each.
func TestSessionMemoryAtScale(t *testing.T) {
	n := scaleSessions(t)
	three := scaleSite(t, "F1, F2, F3")
	path := writeSite(t, three)
	b := newBedFilters(t, path, 0, nil, 0, fourFilters)
	d, stop := b.startDaemon(1)
	b.allUp(d)
	dp := b.sw.Dataplane()
	ctx := context.Background()

	old := randomSessions(n, 1, nil)
	start := time.Now()
	placedA := sessionPlaces(t, dp, old)
	require.Eventually(t, func() bool { return d.SessionMemory().Held == n }, 120*time.Second, 5*time.Millisecond, "%+v", d.SessionMemory())
	t.Logf("%d two-way sessions sent and learned in %v", n, time.Since(start).Round(time.Millisecond))

	// The fourth filter group joins; the dry run first.
	four := scaleSite(t, "F1, F2, F3, F4")
	res, err := d.ApplyConfig(ctx, []byte(four), true, "F4 joins (dry run)")
	require.NoError(t, err)
	preview := res.HeldSessions["G"]
	assert.Equal(t, HeldMove{Held: n, Stay: n, WouldMove: preview.WouldMove}, preview, "the dry run: every held session stays")
	res, err = d.ApplyConfig(ctx, []byte(four), false, "F4 joins")
	require.NoError(t, err)
	waitSettled(t, d)
	b.allUp(d)
	slots := slotTargetsOf(t, dp)
	wouldMove := 0
	for _, s := range old {
		tg := slots[sessionmem.AddrKey(0, s.a, s.b, 6).Hash()&0xff]
		if int(tg.FilterGroup) != placedA[s].out.fg || tg.Core != placedA[s].out.core {
			wouldMove++
		}
	}
	afterJoin := sessionPlaces(t, dp, old)
	changedJoin := changedFrom(placedA, afterJoin)
	assert.Zero(t, changedJoin, "F4 joined: no live session changed filter or core")
	assert.Equal(t, wouldMove, preview.WouldMove, "the dry run's count of sessions the slots would have moved")
	require.Positive(t, wouldMove)

	fresh := randomSessions(n, 2, old)
	placedNew := sessionPlaces(t, dp, fresh)
	toF4 := 0
	for _, at := range placedNew {
		if at.out.fg == 3 {
			toF4++
		}
	}
	shareF4 := float64(toF4) / float64(n)
	assert.InDelta(t, 0.25, shareF4, 0.02, "sessions started after F4 joined: its share")
	require.Eventually(t, func() bool { return d.SessionMemory().Held == 2*n }, 120*time.Second, 5*time.Millisecond, "%+v", d.SessionMemory())
	all := append(append([]twoWay{}, old...), fresh...)
	placed := map[twoWay]twoWayAt{}
	onF2 := 0
	for _, m := range []map[twoWay]twoWayAt{afterJoin, placedNew} {
		for s, at := range m {
			placed[s] = at
			if at.out.fg == 1 {
				onF2++
			}
		}
	}

	// F2 fails (rebalance): its held sessions go to the survivors.
	rehomed0 := d.SessionMemory().Rehomed
	b.filters["F2"].alive.Store(false)
	b.waitFG(1, p4src.ActionFilterSWBypass, 30*time.Second)
	require.Eventually(t, func() bool { return d.SessionMemory().Rehomed-rehomed0 == uint64(onF2) }, 60*time.Second, 5*time.Millisecond,
		"F2's %d held sessions rewritten: %+v", onF2, d.SessionMemory())
	waitSettled(t, d)
	duringFail := sessionPlaces(t, dp, all)
	leftF2, othersMoved := 0, 0
	for s, at := range duringFail {
		if placed[s].out.fg == 1 {
			require.NotEqual(t, 1, at.out.fg)
			leftF2++
		} else if at != placed[s] {
			othersMoved++
		}
	}
	assert.Equal(t, onF2, leftF2)
	assert.Zero(t, othersMoved, "F2 failed: no session of the survivors moved")
	b.filters["F2"].alive.Store(true)
	b.waitFG(1, p4src.ActionFilterForward, 30*time.Second)
	b.allUp(d)
	waitSettled(t, d)
	afterReturn := sessionPlaces(t, dp, all)
	movedBack := 0
	for s, at := range afterReturn {
		if placed[s].out.fg == 1 && at.out.fg == 1 {
			movedBack++
		}
	}
	changedReturn := changedFrom(duringFail, afterReturn)
	assert.Zero(t, movedBack, "F2 returned: none of its former sessions moved back")
	assert.Zero(t, changedReturn, "F2 returned: no live session moved")

	// F1's cores: 4 -> 6.
	six := strings.Replace(four, "{name: F1, lan: P4, wan: P3, cores: 4}", "{name: F1, lan: P4, wan: P3, cores: 6}", 1)
	require.NotEqual(t, four, six)
	res, err = d.ApplyConfig(ctx, []byte(six), false, "F1 on 6 cores")
	require.NoError(t, err)
	coresPreview := res.HeldSessions["G"]
	waitSettled(t, d)
	b.allUp(d)
	slots = slotTargetsOf(t, dp)
	coreWould := 0
	for _, s := range all {
		tg := slots[sessionmem.AddrKey(0, s.a, s.b, 6).Hash()&0xff]
		if int(tg.FilterGroup) != afterReturn[s].out.fg || tg.Core != afterReturn[s].out.core {
			coreWould++
		}
	}
	afterCores := sessionPlaces(t, dp, all)
	changedCores := changedFrom(afterReturn, afterCores)
	assert.Zero(t, changedCores, "F1's core count changed: no live session changed core")
	require.Positive(t, res.Slots[0].Slots, "the core-count change rewrote slots")

	// Restarts: the daemon stops, a child daemon takes the switch and is
	// killed (SIGKILL), and a third daemon starts on the same state.
	held := d.SessionMemory().Held
	stop()
	child := startChildDaemon(t, b, 2)
	probe := manySessionsN(1, 3)[0]
	probeKey := sessionmem.AddrKey(0, probe.a, probe.b, 6)
	require.Eventually(t, func() bool {
		o, _ := probe.frames(layers.IPProtocolTCP)
		dp.Process(20, o, nil)
		h, _ := heldOnSwitch(t, dp)
		_, ok := h[probeKey]
		return ok
	}, 60*time.Second, 20*time.Millisecond, "the child daemon learns: it holds the switch (stderr: %s)", child.stderr.String())
	afterChild := sessionPlaces(t, dp, all)
	changedChild := changedFrom(afterCores, afterChild)
	assert.Zero(t, changedChild, "a new daemon: no live session moved")
	require.NoError(t, child.cmd.Process.Signal(syscall.SIGKILL))
	<-child.done
	require.ErrorContains(t, child.err, "killed")
	afterKill := sessionPlaces(t, dp, all)
	assert.Zero(t, changedFrom(afterCores, afterKill), "the daemon killed: the switch keeps every session where it was")
	d3, _ := b.startDaemon(3)
	b.allUp(d3)
	waitSettled(t, d3)
	require.Eventually(t, func() bool { return d3.SessionMemory().Held == held+1 }, 60*time.Second, 5*time.Millisecond,
		"the restarted daemon reads the table back: %+v", d3.SessionMemory())
	afterRestart := sessionPlaces(t, dp, all)
	changedRestart := changedFrom(afterCores, afterRestart)
	assert.Zero(t, changedRestart, "after kill -9 and a restart: no live session moved")
	hs, _ := heldOnSwitch(t, dp)
	assert.Len(t, hs, held+1, "the switch's table kept every entry")

	t.Logf("sessions %d two-way (+%d new after F4 joined):\n"+
		"  F4 joins: %d changed filter or core (dry run: %+v; %d would have moved without the memory)\n"+
		"  new sessions to F4: %d of %d = %.2f %%\n"+
		"  F2 fails: %d held sessions moved off it, %d others moved; F2 returns: %d moved back, %d changed\n"+
		"  F1 4 -> 6 cores: %d changed (preview %+v; %d would have moved without the memory)\n"+
		"  daemon replaced: %d changed; killed -9 and restarted: %d changed (%d entries held throughout)",
		n, n, changedJoin, preview, wouldMove, toF4, n, 100*shareF4, leftF2, othersMoved, movedBack, changedReturn,
		changedCores, coresPreview, coreWould, changedChild, changedRestart, len(hs))
}

// randomSessions are n distinct IPv4 sessions of pseudo-random addresses
// (10/8 to 172.16/12), from seed, none of them one of not's: addresses
// in sequence fill the slots evenly (the hash is a CRC), which would make
// a share exact where real traffic's is not.
func randomSessions(n int, seed int64, not []twoWay) []twoWay {
	rng := rand.New(rand.NewSource(seed))
	seen := map[twoWay]bool{}
	for _, s := range not {
		seen[s] = true
	}
	var out []twoWay
	for len(out) < n {
		a, b := rng.Uint32(), rng.Uint32()
		s := twoWay{netip.AddrFrom4([4]byte{10, byte(a >> 16), byte(a >> 8), byte(a)}), netip.AddrFrom4([4]byte{172, 16 | byte(b>>16)&15, byte(b >> 8), byte(b)})}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// childProc is a daemon run as a child process of the test binary.
type childProc struct {
	cmd    *exec.Cmd
	stderr testbed.SyncBuffer
	done   chan struct{}
	err    error
}

// startChildDaemon runs the bed's daemon as a child process (the test
// binary, TestMain's childDaemon) with the election id given.
func startChildDaemon(t *testing.T, b *bed, election uint64) *childProc {
	t.Helper()
	p := &childProc{done: make(chan struct{})}
	p.cmd = exec.Command(os.Args[0], "-test.run=^$")
	p.cmd.Env = append(os.Environ(), childEnv+"=1", "BALANCER_DAEMON_TEST_STATE="+b.dir, "BALANCER_DAEMON_TEST_CONFIG="+b.config,
		"BALANCER_DAEMON_TEST_SWITCH="+b.addr, "BALANCER_DAEMON_TEST_GNMI="+b.gaddr, "BALANCER_DAEMON_TEST_ELECTION="+strconv.FormatUint(election, 10))
	p.cmd.Stderr = &p.stderr
	require.NoError(t, p.cmd.Start())
	go func() {
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.done
	})
	return p
}
