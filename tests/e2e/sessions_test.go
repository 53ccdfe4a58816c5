package e2e

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/internal/rawport"
)

// sessionsEnv sets the sessions of TestSessionMemoryE2E (as it does the
// daemon's TestSessionMemoryAtScale): 2,000 by default.
const sessionsEnv = "BALANCER_SESSIONS_E2E"

func sessionsN(t *testing.T) int {
	n := 2000
	if v := os.Getenv(sessionsEnv); v != "" {
		var err error
		n, err = strconv.Atoi(v)
		require.NoError(t, err, "%s=%q: give a number of sessions", sessionsEnv, v)
		require.True(t, n >= 100 && n <= 20000, "%s=%d: give 100..20000", sessionsEnv, n)
	}
	return n
}

// sessionsLoss is the loss threshold of the session memory's beds: 10 x
// 100ms. The placements are the subject, not the failover time, and a
// filter failed by a starved host (under rebalance) would move sessions
// the test then counts as moved by the balancer.
const sessionsLoss = 10

// sessionsSite rewrites the test site (siteYAML) for the session memory:
// four filter groups of 4 cores, F4 on ports 10 (LAN) and 11 (WAN) and a member of no
// balance group until it joins, and (memory) the session memory on, its
// idle timeouts an hour (nothing ages during the test).
func sessionsSite(t *testing.T, memory bool) func(string) string {
	return func(s string) string {
		out := strings.NewReplacer(
			"  - {port: 9, speed: 100G}\n",
			"  - {port: 9, speed: 100G}\n  - {port: 10, speed: 100G}\n  - {port: 11, speed: 100G}\n",
			"  - {name: F1, lan: P4, wan: P3, cores: 3}\n  - {name: F2, lan: P6, wan: P7, cores: 2}\n  - {name: F3, lan: P8, wan: P9, cores: 1}\n",
			"  - {name: F1, lan: P4, wan: P3, cores: 4}\n  - {name: F2, lan: P6, wan: P7, cores: 4}\n  - {name: F3, lan: P8, wan: P9, cores: 4}\n  - {name: F4, lan: P10, wan: P11, cores: 4}\n",
		).Replace(s)
		if memory {
			out += "sessions: {enabled: true, idle_timeout: {tcp: 3600s, udp: 3600s, other: 3600s}}\n"
		}
		require.Contains(t, out, "port: 11")
		require.Contains(t, out, "{name: F4, lan: P10")
		require.Contains(t, out, "members: [F1, F2, F3]")
		return out
	}
}

// pair is a session's unordered address pair: the session memory's key
// has no ports (and the protocol).
type pair struct{ a, b netip.Addr }

func pairOf(f *flow) pair {
	if f.dst.Less(f.src) {
		return pair{f.dst, f.src}
	}
	return pair{f.src, f.dst}
}

// sessionFlows returns n sessions of distinct address pairs (none of
// taken's, which it extends) spread over the links: IPv4 (most) and IPv6,
// TCP and UDP, some with VLAN, QinQ, MPLS or PPPoE. Pseudo-random
// addresses from seed (addresses in sequence would fill the CRC hash's
// slots evenly and make a share exact).
func sessionFlows(n, links int, firstID uint32, seed uint64, taken map[pair]bool) []*flow {
	r := rand.New(rand.NewPCG(seed, 0x5e55))
	encs := []pipelinecases.Encap{
		{Tags: []pipelinecases.Tag{{TPID: 0x8100, VID: 100}}},
		{Tags: []pipelinecases.Tag{{TPID: 0x88a8, VID: 200}, {TPID: 0x8100, VID: 300}}},
		{MPLS: []uint32{1000, 2000}},
		{PPPoE: true},
	}
	out := make([]*flow, 0, n)
	for len(out) < n {
		f := &flow{id: firstID + uint32(len(out)), link: len(out) % links, proto: layers.IPProtocolTCP,
			sport: uint16(1024 + r.IntN(60000)), dport: uint16(1024 + r.IntN(60000))}
		if r.IntN(3) == 0 {
			f.proto = layers.IPProtocolUDP
		}
		if r.IntN(10) == 0 {
			f.src, f.dst = randV6(r), randV6(r)
		} else {
			f.src, f.dst = randV4(r, 10), randV4(r, 100)
		}
		if r.IntN(4) == 0 {
			f.enc = encs[r.IntN(len(encs))]
		}
		if taken[pairOf(f)] {
			continue
		}
		taken[pairOf(f)] = true
		out = append(out, f)
	}
	return out
}

// at is where a session's frames crossed: filter group and core ("" for
// a frame no filter saw: bypassed).
type at struct {
	fg   string
	core uint32
}

func (a at) String() string {
	if a.fg == "" {
		return "bypass"
	}
	return fmt.Sprintf("%s/%d", a.fg, a.core)
}

// sessBed is a bed with the sessions' record: every frame's filter group
// and core, per session.
type sessBed struct {
	*bed
	t      *testing.T
	frames map[uint32][]at // every frame of each session (flow id), in order of the checks
	bad    int             // frames not out of their paired port once, or seen by more than one filter
}

// crossed says where frame s crossed, recording it; ok is false when it
// did not leave by its link's paired port exactly once, or more than one
// filter saw it, or the core header or the side it entered the filter by
// was wrong.
func (sb *sessBed) crossed(s sent) (where at, ok bool) {
	ft := sb.fate(s)
	if !ft.right || len(ft.via) > 1 {
		return at{}, false
	}
	if len(ft.via) == 1 {
		v := ft.via[0]
		if v.link != sb.links[s.f.link].id || v.side != s.k.dir {
			return at{}, false
		}
		where = at{v.fg, v.core}
	}
	sb.frames[s.f.id] = append(sb.frames[s.f.id], where)
	return where, true
}

// round sends one frame of every session each way, waits until they are
// out, and returns where each session's frames crossed. A session whose
// two frames did not both come out right, or crossed at different places,
// is left out and counted (bad).
func (sb *sessBed) round(flows []*flow) (places map[uint32]at, bad int) {
	sb.t.Helper()
	ss := sb.sendPaced(flows, lanToWAN, wanToLAN)
	n := len(flows)
	places = make(map[uint32]at, n)
	for i, f := range flows {
		a, okA := sb.crossed(ss[i])
		z, okZ := sb.crossed(ss[n+i])
		if !okA || !okZ || a != z {
			bad++
			if bad <= 5 {
				sb.t.Errorf("%v: LAN->WAN %v; WAN->LAN %v", f, sb.fate(ss[i]), sb.fate(ss[n+i]))
			}
			continue
		}
		places[f.id] = a
	}
	sb.bad += bad
	return places, bad
}

// sessionWindow is how many frames the session memory's senders keep in
// flight (sent, not yet out of the switch) at most, and lossWait how long
// they wait for one before taking it as lost. BMv2's egress queues hold
// 64 frames a port (simple_switch's default): a sender that bursts past
// them, because this process stalled (the race detector pauses it for
// tens of milliseconds) and then caught up, or because it took a frame
// that was only late as lost (sendBatch's 50 ms), overflows them and
// measures its own burst, not the balancer. These senders never have more
// than the window in flight, take a frame as lost only after a second, and keep half
// of BMv2's queue in flight (the keep-alives and the frames coming back
// from the filters share it); the software switch has no such queue and
// gets the bed's batch window.
func sessionWindow(tg target) int64 {
	if tg.name == "bmv2" {
		return 32
	}
	return batchWindow
}

const lossWait = time.Second

// pacer sends frames at most rate a second with at most window in
// flight; after a stall of more than 10 ms it goes on at the rate from
// then on, without sending what it fell behind by. It counts frames out of the switch by
// the sink's count: one pacer at a time.
type pacer struct {
	b      *bed
	gap    time.Duration
	window int64
	next   time.Time
	sent   int64
	base   int64 // the sink's count when it started, less the frames taken as lost
}

func (b *bed) newPacer(rate int) *pacer {
	return &pacer{b: b, gap: time.Second / time.Duration(rate), window: sessionWindow(b.tg), next: time.Now(), base: b.sink.n.Load()}
}

// wait returns when the next frame may be sent, or false when stop closed.
func (p *pacer) wait(stop <-chan struct{}) bool {
	if d := time.Until(p.next); d > 0 {
		select {
		case <-stop:
			return false
		case <-time.After(d):
		}
	}
	// A timer that woke late is made up for within 10 ms (the window
	// bounds that burst); a longer stall is not.
	p.next = maxTime(p.next, time.Now().Add(-10*time.Millisecond)).Add(p.gap)
	for since := time.Now(); p.sent-(p.b.sink.n.Load()-p.base) >= p.window; {
		if time.Since(since) > lossWait {
			p.base -= p.sent - (p.b.sink.n.Load() - p.base) // lost: they never come out
			break
		}
		select {
		case <-stop:
			return false
		case <-time.After(50 * time.Microsecond):
		}
	}
	p.sent++
	return true
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// sendPaced sends one frame per flow and direction (the directions in
// turn) through a pacer at the target's batch rate, and waits until they
// are all out (or taken as lost).
func (sb *sessBed) sendPaced(flows []*flow, dirs ...dir) []sent {
	sb.t.Helper()
	p := sb.newPacer(sb.tg.batchRate)
	out := make([]sent, 0, len(flows)*len(dirs))
	for _, d := range dirs {
		for _, f := range flows {
			p.wait(nil)
			out = append(out, sb.send(f, d))
		}
	}
	sb.waitOut(out, 5*time.Second+time.Duration(len(out))*time.Second/time.Duration(sb.tg.batchRate))
	return out
}

// startPaced is startStream through a pacer: the flows round-robin,
// alternating directions, at rate until ended.
func (sb *sessBed) startPaced(t *testing.T, flows []*flow, rate int) *stream {
	s := &stream{b: sb.bed, stop: make(chan struct{}), done: make(chan struct{})}
	t.Cleanup(s.halt)
	type tmpl struct {
		f     *flow
		d     dir
		frame []byte
		in    *rawport.Port
	}
	var ts []tmpl
	for _, d := range []dir{lanToWAN, wanToLAN} {
		for _, f := range flows {
			in, _ := sb.links[f.link].port(d)
			ts = append(ts, tmpl{f: f, d: d, frame: f.frame(d, 0), in: sb.hosts[in]})
		}
	}
	p := sb.newPacer(rate)
	go func() {
		defer close(s.done)
		for n := 0; p.wait(s.stop); n++ {
			tp := ts[n%len(ts)]
			seq := sb.seq.Add(1)
			fr := append([]byte(nil), tp.frame...)
			setSeq(fr, seq)
			at := time.Now()
			if tp.in.Send(fr) != nil {
				p.sent-- // not in flight
				continue
			}
			s.mu.Lock()
			s.sent = append(s.sent, sent{f: tp.f, k: key{flow: tp.f.id, seq: seq, dir: tp.d}, at: at})
			s.mu.Unlock()
		}
	}()
	return s
}

// changed counts the sessions of now placed elsewhere than in before.
func changed(before, now map[uint32]at) int {
	n := 0
	for id, a := range now {
		if b, ok := before[id]; ok && b != a {
			n++
		}
	}
	return n
}

// streamed checks a stream's frames: every one out of its paired port
// through the filter group and core its session was at (want); it
// returns the frames, those lost and those that crossed elsewhere.
func (sb *sessBed) streamed(ss []sent, want map[uint32]at) (frames, lost, elsewhere int) {
	sb.t.Helper()
	for _, s := range ss {
		frames++
		where, ok := sb.crossed(s)
		switch {
		case !ok:
			lost++
			if lost <= 5 {
				sb.t.Errorf("stream: %v %v sent at %s: %v", s.f, s.k.dir, s.at.Format("15:04:05.000"), sb.fate(s))
			}
		case where != want[s.f.id]:
			elsewhere++
			if elsewhere <= 5 {
				sb.t.Errorf("stream: %v %v crossed at %v, its session was at %v", s.f, s.k.dir, where, want[s.f.id])
			}
		}
	}
	if lost > 0 && len(ss) > 0 {
		// For the diagnosis: a process that does not run cannot read
		// what reaches its sockets (the software switch's ports are in
		// this process).
		from, to := ss[0].at, ss[len(ss)-1].at
		sb.t.Logf("stream from %s to %s: this process stalled %v in all (timers over 5 ms late): %v",
			from.Format("15:04:05.000"), to.Format("15:04:05.000"), sb.stalls.during(from, to).Round(time.Millisecond), sb.stalls.between(from, to))
	}
	return frames, lost, elsewhere
}

// between lists the stalls that began between from and to.
func (w *stallWatch) between(from, to time.Time) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for _, s := range w.stalls {
		if !s.at.Before(from) && s.at.Before(to) && len(out) < 40 {
			out = append(out, fmt.Sprintf("%s +%v", s.at.Format("15:04:05.000"), s.late.Round(time.Millisecond)))
		}
	}
	return "[" + strings.Join(out, " ") + "]"
}

// located asks the daemon where each session is (locate reads the
// switch's sessions table): notHeld counts sessions it does not say
// held, disagree those it places elsewhere than their frames crossed,
// offSlot those whose slot points elsewhere than where they are (what
// would have moved so far without the session memory); slots is where
// each session's slot points.
func (sb *sessBed) located(flows []*flow, places map[uint32]at) (notHeld, disagree, offSlot int, slots map[uint32]at) {
	sb.t.Helper()
	slots = make(map[uint32]at, len(flows))
	for _, f := range flows {
		src, dst, proto := f.triple(lanToWAN)
		ps, err := sb.d.Locate(context.Background(), src, dst, proto)
		require.NoError(sb.t, err)
		require.Len(sb.t, ps, 1)
		p, want, ok := ps[0], at{}, false
		if want, ok = places[f.id]; !ok {
			continue // its frames did not come out: counted already
		}
		if p.Session != "held" {
			notHeld++
		}
		if (at{p.FilterGroup, p.Core}) != want {
			disagree++
			if disagree <= 5 {
				sb.t.Errorf("%v: locate says %s/%d (%s), its frames crossed at %v", f, p.FilterGroup, p.Core, p.Session, want)
			}
		}
		slots[f.id] = at{p.SlotFilterGroup, p.SlotCore}
		if slots[f.id] != want {
			offSlot++
		}
	}
	return notHeld, disagree, offSlot, slots
}

// slotOn counts the sessions whose slot points at filter group fg.
func slotOn(slots map[uint32]at, fg string) int {
	n := 0
	for _, a := range slots {
		if a.fg == fg {
			n++
		}
	}
	return n
}

// merge returns the union of the maps.
func merge(ms ...map[uint32]at) map[uint32]at {
	out := map[uint32]at{}
	for _, m := range ms {
		for id, a := range m {
			out[id] = a
		}
	}
	return out
}

// waitHeld waits until the learner holds n sessions.
func (sb *sessBed) waitHeld(n int, within time.Duration) {
	sb.t.Helper()
	sb.eventually(within, func() bool { return sb.d.SessionMemory().Held == n },
		"the learner never held %d sessions: %+v", n, sb.d.SessionMemory())
}

// waitSettled waits until the daemon has written what it runs (the
// configuration and the availability state) and every filter group of a
// balance group is up.
func (sb *sessBed) waitSettled(within time.Duration) {
	sb.t.Helper()
	sb.eventually(within, func() bool {
		st := sb.status()
		if !st.Switch.Primary || st.Switch.Pending || st.Switch.StatePending {
			return false
		}
		for _, f := range st.Filters {
			if f.BalanceGroup != "" && (f.State != "up" || f.Effective != "forward") {
				return false
			}
		}
		return true
	}, "the daemon never settled with every filter up and forwarding")
}

// heldOn is the learner's count of sessions held on filter group fg.
func (sb *sessBed) heldOn(fg string) int {
	for _, g := range sb.d.SessionMemory().Groups {
		if g.Name == fg {
			return g.Held
		}
	}
	return 0
}

func newSessBed(t *testing.T, tg target, memory bool, opts ...bedOption) *sessBed {
	b := newBed(t, tg, append([]bedOption{withSiteEdit(sessionsSite(t, memory)), withLossThreshold(sessionsLoss)}, opts...)...)
	return &sessBed{bed: b, t: t, frames: map[uint32][]at{}}
}

// phaseRow is one line of the report: the sessions, those that moved
// (changed filter group or core), those that would have moved without the
// session memory (their slot's target changed; -1: nothing changed), the
// dry run's would-move (held sessions whose slot in the new layout points
// elsewhere than where they are held, so far; -1: no dry run) and the
// held sessions off their slot after it. settle is the time from the
// change (or the first frames) to the state the phase waits on; took the
// whole phase, its rounds of frames and checks included.
type phaseRow struct {
	name                                  string
	sessions, moved, would, dry, offSlots int
	settle, took                          time.Duration // the change to the state checked; the whole phase
	note                                  string
}

// TestSessionMemoryE2E proves the session memory with real frames over
// the bed's veths: N long-lived two-way sessions (BALANCER_SESSIONS_E2E,
// default 2,000) of distinct address pairs send frames both ways again
// and again through the switch, and the filter emulators record every
// frame's filter group and core per session. On one bed (F1-F3 in the
// balance group, F4's ports ready, failure action rebalance): all learned;
// F4 joins (0 sessions change filter or core; the dry run said 0 move and
// how many would without the memory; F4 gets about a quarter of the
// sessions started after); F2 fails and returns (its held sessions move
// to the survivors, 0 move back); F1's cores 4 -> 6 (0 change core); the
// daemon restarted on its state directory, the switch kept (0 moved).
// Frames streamed across each planned change and the restart all cross at
// their session's place. On a second bed, failure action bypass with
// return: new-sessions: F1 fails and returns, and not one frame of its
// sessions reaches it after (they leave uninspected), while sessions
// started after its return do. The control, a third bed without the
// session memory, shows that the bed sees what the memory prevents: there
// the same planned changes move exactly the sessions whose slot moved.
func TestSessionMemoryE2E(t *testing.T) {
	if why := tgAvailable(); why != "" {
		t.Skip(why)
	}
	n := sessionsN(t)
	for _, tg := range targets(t) {
		t.Run(tg.name, func(t *testing.T) {
			if why := tg.available(); why != "" {
				t.Skip(why)
			}
			t.Run("layout-changes", func(t *testing.T) { testSessionsLayout(t, tg, n) })
			t.Run("return-new-sessions", func(t *testing.T) { testSessionsReturnNew(t, tg, n) })
			t.Run("control-without-memory", func(t *testing.T) { testSessionsControl(t, tg, n) })
		})
	}
}

func testSessionsLayout(t *testing.T, tg target, n int) {
	sb := newSessBed(t, tg, true, withFailureAction("rebalance"))
	ctx := context.Background()
	taken := map[pair]bool{}
	var rows []phaseRow
	rate := sb.tg.streamRate

	// 1. All sessions learned.
	start := time.Now()
	old := sessionFlows(n, len(sb.links), 1, 11, taken)
	base, bad := sb.round(old)
	require.Zero(t, bad, "sessions not through one filter and core both ways before the memory held them")
	sentIn := time.Since(start)
	sb.waitHeld(n, 120*time.Second)
	learned := time.Since(start) // from the first frame sent
	notHeld, disagree, offSlot, slotsBase := sb.located(old, base)
	assert.Zero(t, notHeld, "sessions locate does not say held")
	assert.Zero(t, disagree, "sessions locate places elsewhere than their frames crossed")
	assert.Zero(t, offSlot, "sessions learned elsewhere than their slot")
	again, bad := sb.round(old)
	assert.Zero(t, bad)
	assert.Zero(t, changed(base, again), "held sessions moved with nothing changed")
	perFG := map[string]int{}
	for _, a := range base {
		perFG[a.fg]++
	}
	rows = append(rows, phaseRow{name: "1 learned", sessions: n, would: -1, dry: -1, offSlots: offSlot, settle: learned, took: time.Since(start),
		note: fmt.Sprintf("held %d (by filter group %v); inserted %d; the first round (%d frames) sent and out in %v",
			sb.d.SessionMemory().Held, perFG, sb.d.SessionMemory().Inserted, 2*n, sentIn.Round(time.Millisecond))})

	// 2. F4 joins the balance group: the dry run first.
	start = time.Now()
	four := strings.Replace(sb.yaml, "members: [F1, F2, F3]", "members: [F1, F2, F3, F4]", 1)
	res, err := sb.d.ApplyConfig(ctx, []byte(four), true, "F4 joins (dry run)")
	require.NoError(t, err)
	joinPreview := res.HeldSessions["G"]
	assert.Equal(t, n, joinPreview.Held, "the dry run: held sessions")
	assert.Equal(t, n, joinPreview.Stay, "the dry run: every held session stays")
	assert.Zero(t, joinPreview.Leave, "the dry run: no held session moves")
	st := sb.startPaced(t, old, rate)
	st.flowFor(rate / 5) // traffic flowing before the change
	tApply := time.Now()
	_, err = sb.d.ApplyConfig(ctx, []byte(four), false, "F4 joins")
	require.NoError(t, err)
	sb.waitSettled(60 * time.Second)
	settleJoin := time.Since(tApply)
	require.Equal(t, "G", sb.filterStatus("F4").BalanceGroup)
	st.flowFor(rate / 2) // frames after the change, out of the switch
	fr, lost, elsewhere := sb.streamed(st.end(), base)
	assert.Zero(t, lost, "frames of held sessions lost across F4's join")
	assert.Zero(t, elsewhere, "frames of held sessions elsewhere than their place across F4's join")
	afterJoin, bad := sb.round(old)
	assert.Zero(t, bad)
	movedJoin := changed(base, afterJoin)
	assert.Zero(t, movedJoin, "F4 joined: sessions that changed filter group or core")
	notHeld, disagree, offSlot, slotsJoin := sb.located(old, afterJoin)
	assert.Zero(t, notHeld)
	assert.Zero(t, disagree)
	wouldJoin := changed(slotsBase, slotsJoin)
	assert.Equal(t, offSlot, joinPreview.WouldMove, "the dry run's would-move is the held sessions whose slot now points elsewhere")
	assert.Equal(t, wouldJoin, slotOn(slotsJoin, "F4"), "the slots that moved went to F4")
	fresh := sessionFlows(n, len(sb.links), uint32(n+1), 12, taken)
	placedNew, bad := sb.round(fresh)
	assert.Zero(t, bad)
	toF4 := 0
	for _, a := range placedNew {
		if a.fg == "F4" {
			toF4++
		}
	}
	share := float64(toF4) / float64(len(placedNew))
	// F4 has 4 of 16 cores: 256 of the 1,024 slots. 4.5 sigma of a
	// binomial share of n sessions.
	bound := 4.5 * math.Sqrt(0.25*0.75/float64(n))
	assert.InDelta(t, 0.25, share, bound, "sessions started after F4 joined: its share")
	sb.waitHeld(2*n, 120*time.Second)
	rows = append(rows, phaseRow{name: "2 F4 joins", sessions: n, moved: movedJoin, would: wouldJoin, dry: joinPreview.WouldMove, offSlots: offSlot, settle: settleJoin, took: time.Since(start),
		note: fmt.Sprintf("dry run %+v; %d streamed frames across it, %d lost, %d elsewhere; new sessions to F4: %d of %d = %.2f %% (bound 25 +- %.1f %%)",
			joinPreview, fr, lost, elsewhere, toF4, len(placedNew), 100*share, 100*bound)})

	all := append(append([]*flow{}, old...), fresh...)
	placed := merge(afterJoin, placedNew)

	// 3. F2 fails (its emulator stopped) and returns: rebalance moves its
	// held sessions to the survivors; none moves back.
	// The old sessions' slots are as after the join (nothing changed the
	// layout since): locate the new ones.
	_, _, _, slotsFresh := sb.located(fresh, placedNew)
	slotsPre := merge(slotsJoin, slotsFresh)
	start = time.Now()
	onF2 := 0
	for _, a := range placed {
		if a.fg == "F2" {
			onF2++
		}
	}
	require.Equal(t, onF2, sb.heldOn("F2"), "the learner's count of F2's sessions is its frames'")
	rehomed0 := sb.d.SessionMemory().Rehomed
	sb.filters["F2"].stop()
	sb.waitFilter("F2", "down", 30*time.Second)
	sb.eventually(60*time.Second, func() bool { return sb.d.SessionMemory().Rehomed-rehomed0 == uint64(onF2) },
		"F2's %d held sessions never rewritten: %+v", onF2, sb.d.SessionMemory())
	sb.eventually(30*time.Second, func() bool {
		s := sb.status()
		return !s.Switch.Pending && !s.Switch.StatePending && sb.filterStatus("F2").Effective == "rebalanced"
	}, "F2 never rebalanced")
	failedOver := time.Since(start)
	duringFail, bad := sb.round(all)
	assert.Zero(t, bad)
	movedOff, othersMoved, offToBad := 0, 0, 0
	for id, a := range duringFail {
		switch {
		case placed[id].fg == "F2":
			movedOff++
			if a.fg == "F2" || a.fg == "" {
				offToBad++
			}
		case a != placed[id]:
			othersMoved++
		}
	}
	assert.Equal(t, onF2, movedOff, "F2's sessions moved off it")
	assert.Zero(t, offToBad, "F2's sessions on a survivor")
	assert.Zero(t, othersMoved, "F2 failed: the survivors' sessions moved")
	rows = append(rows, phaseRow{name: "3a F2 fails", sessions: len(all), moved: movedOff + othersMoved, would: slotOn(slotsPre, "F2"), dry: -1, offSlots: -1,
		settle: failedOver, took: time.Since(start), note: fmt.Sprintf("down and its %d held sessions rewritten to the survivors (all of F2's, %d others moved); without the memory: every session of F2's slots", onF2, othersMoved)})
	start = time.Now()
	require.NoError(t, sb.filters["F2"].start())
	sb.waitSettled(60 * time.Second)
	returned := time.Since(start)
	afterReturn, bad := sb.round(all)
	assert.Zero(t, bad)
	movedBack := 0
	for id, a := range afterReturn {
		if placed[id].fg == "F2" && a.fg == "F2" {
			movedBack++
		}
	}
	movedReturn := changed(duringFail, afterReturn)
	assert.Zero(t, movedBack, "F2 returned: its former sessions moved back")
	assert.Zero(t, movedReturn, "F2 returned: sessions that moved")
	// Sessions that start after the return reach F2 again.
	fresh2 := sessionFlows(n/2, len(sb.links), uint32(2*n+1), 13, taken)
	placed2, bad := sb.round(fresh2)
	assert.Zero(t, bad)
	toF2 := 0
	for _, a := range placed2 {
		if a.fg == "F2" {
			toF2++
		}
	}
	assert.Positive(t, toF2, "sessions started after F2's return reach it")
	sb.waitHeld(2*n+n/2, 120*time.Second)
	notHeld, disagree, offSlot, slotsReturn := sb.located(all, afterReturn)
	assert.Zero(t, notHeld)
	assert.Zero(t, disagree)
	// Under rebalance every slot of F2 pointed at a survivor while it was
	// down: without the memory, every session of F2's slots moves back.
	rows = append(rows, phaseRow{name: "3b F2 returns", sessions: len(all), moved: movedReturn, would: slotOn(slotsReturn, "F2"), dry: -1, offSlots: offSlot, settle: returned, took: time.Since(start),
		note: fmt.Sprintf("up and forwarding after its emulator's restart; %d of the %d moved off it moved back; new sessions to F2 after: %d of %d",
			movedBack, movedOff, toF2, len(placed2))})
	all = append(all, fresh2...)
	afterReturn = merge(afterReturn, placed2)
	_, _, _, slots2 := sb.located(fresh2, placed2)
	slotsReturn = merge(slotsReturn, slots2)

	// 4. F1's cores 4 -> 6.
	start = time.Now()
	six := strings.Replace(four, "{name: F1, lan: P4, wan: P3, cores: 4}", "{name: F1, lan: P4, wan: P3, cores: 6}", 1)
	require.NotEqual(t, four, six)
	res, err = sb.d.ApplyConfig(ctx, []byte(six), true, "F1 on 6 cores (dry run)")
	require.NoError(t, err)
	coresPreview := res.HeldSessions["G"]
	assert.Equal(t, len(all), coresPreview.Held)
	assert.Equal(t, len(all), coresPreview.Stay, "the dry run: every held session stays")
	assert.Zero(t, coresPreview.Leave)
	st = sb.startPaced(t, all, rate)
	st.flowFor(rate / 5)
	tApply = time.Now()
	res, err = sb.d.ApplyConfig(ctx, []byte(six), false, "F1 on 6 cores")
	require.NoError(t, err)
	require.NotEmpty(t, res.Slots)
	require.Positive(t, res.Slots[0].Slots, "the core-count change rewrote slots")
	sb.waitSettled(60 * time.Second)
	settleCores := time.Since(tApply)
	require.Equal(t, uint32(6), sb.filterStatus("F1").Cores)
	st.flowFor(rate / 2)
	fr, lost, elsewhere = sb.streamed(st.end(), afterReturn)
	assert.Zero(t, lost, "frames lost across F1's core change")
	assert.Zero(t, elsewhere, "frames elsewhere than their session's place across F1's core change")
	afterCores, bad := sb.round(all)
	assert.Zero(t, bad)
	movedCores := changed(afterReturn, afterCores)
	assert.Zero(t, movedCores, "F1's core count changed: live sessions that changed core")
	notHeld, disagree, offSlot, slotsCores := sb.located(all, afterCores)
	assert.Zero(t, notHeld)
	assert.Zero(t, disagree)
	assert.Equal(t, offSlot, coresPreview.WouldMove, "the dry run's would-move is the held sessions whose slot now points elsewhere")
	onNewCores := 0
	for _, a := range afterCores {
		if a.fg == "F1" && a.core >= 4 {
			onNewCores++
		}
	}
	assert.Zero(t, onNewCores, "held sessions on F1's new cores")
	wouldCores := changed(slotsReturn, slotsCores)
	rows = append(rows, phaseRow{name: "4 F1 cores 4->6", sessions: len(all), moved: movedCores, would: wouldCores, dry: coresPreview.WouldMove, offSlots: offSlot, settle: settleCores, took: time.Since(start),
		note: fmt.Sprintf("dry run %+v; %d slot entries written; %d streamed frames across it, %d lost, %d elsewhere", coresPreview, res.Slots[0].Slots, fr, lost, elsewhere)})

	// 5. The daemon restarted on its state directory; the switch kept.
	start = time.Now()
	held := sb.d.SessionMemory().Held
	require.Equal(t, len(all), held)
	st = sb.startPaced(t, all, rate)
	st.flowFor(rate / 5)
	tStop := time.Now()
	sb.stopDaemon()
	st.flowFor(rate / 10) // the switch runs on its own
	sb.startDaemon()
	sb.waitSettled(sb.tg.ready)
	sb.waitHeld(held, 60*time.Second) // the new daemon read the table back
	settleRestart := time.Since(tStop)
	stats := sb.d.Session().Stats()
	st.flowFor(rate / 2)
	fr, lost, elsewhere = sb.streamed(st.end(), afterCores)
	assert.Zero(t, lost, "frames lost across the daemon's restart")
	assert.Zero(t, elsewhere, "frames elsewhere than their session's place across the daemon's restart")
	afterRestart, bad := sb.round(all)
	assert.Zero(t, bad)
	movedRestart := changed(afterCores, afterRestart)
	assert.Zero(t, movedRestart, "the daemon restarted: sessions that moved")
	assert.Zero(t, stats.PipelinePushes, "the restarted daemon pushed the pipeline")
	notHeld, disagree, offSlot, slotsRestart := sb.located(all, afterRestart)
	assert.Zero(t, notHeld)
	assert.Zero(t, disagree)
	rows = append(rows, phaseRow{name: "5 daemon restart", sessions: len(all), moved: movedRestart, would: changed(slotsCores, slotsRestart), dry: -1, offSlots: offSlot, settle: settleRestart, took: time.Since(start),
		note: fmt.Sprintf("the new daemon read back %d held; wrote %d updates, %d pipeline pushes; %d streamed frames across it, %d lost, %d elsewhere",
			sb.d.SessionMemory().Held, stats.Updates, stats.PipelinePushes, fr, lost, elsewhere)})

	assert.Zero(t, sb.bad, "frames not out of their paired port through one filter")
	// Every frame of every session, in the order sent: F2's sessions
	// changed place once (when it failed), no other session ever did.
	wantChanges := map[uint32]int{}
	for id, a := range placed {
		if a.fg == "F2" {
			wantChanges[id] = 1
		}
	}
	wrong, sessions := sb.changes(wantChanges)
	assert.Zero(t, wrong, "sessions whose frames changed place other than F2's once")
	sb.report(rows, fmt.Sprintf("every frame of the %d sessions, in the order sent: %d sessions changed place, each once (F2's when it failed); %d otherwise",
		sessions, sb.changed(), wrong))
	sb.checkStrays()
}

// changes checks every session's recorded frames: a session changes
// place want[id] times (0 if absent). It returns the sessions that did
// not, and the sessions recorded.
func (sb *sessBed) changes(want map[uint32]int) (wrong, sessions int) {
	for id, fs := range sb.frames {
		n := 0
		for i := 1; i < len(fs); i++ {
			if fs[i] != fs[i-1] {
				n++
			}
		}
		if n != want[id] {
			wrong++
			if wrong <= 5 {
				sb.t.Errorf("session %d: its frames crossed at %v: %d changes of place, want %d", id, fs, n, want[id])
			}
		}
	}
	return wrong, len(sb.frames)
}

// changed counts the sessions whose recorded frames changed place.
func (sb *sessBed) changed() int {
	n := 0
	for _, fs := range sb.frames {
		for i := 1; i < len(fs); i++ {
			if fs[i] != fs[i-1] {
				n++
				break
			}
		}
	}
	return n
}

// report logs the phases' table and how many frames were recorded.
func (sb *sessBed) report(rows []phaseRow, footer string) {
	frames, lo, hi := 0, math.MaxInt, 0
	for _, fs := range sb.frames {
		frames += len(fs)
		lo, hi = min(lo, len(fs)), max(hi, len(fs))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d sessions, %d frames recorded at the filters and endpoints (%d..%d per session)\n", sb.tg.name, len(sb.frames), frames, lo, hi)
	fmt.Fprintf(&b, "%-18s %8s %6s %17s %8s %9s %9s %9s  %s\n", "phase", "sessions", "moved", "would-have-moved", "dry-run", "off-slot", "settle", "took", "")
	num := func(v int) string {
		if v < 0 {
			return "-"
		}
		return strconv.Itoa(v)
	}
	for _, r := range rows {
		fmt.Fprintf(&b, "%-18s %8d %6d %17s %8s %9s %9v %9v  %s\n", r.name, r.sessions, r.moved, num(r.would), num(r.dry), num(r.offSlots),
			r.settle.Round(time.Millisecond), r.took.Round(time.Millisecond), r.note)
	}
	b.WriteString(footer)
	sb.t.Log(b.String())
}

// testSessionsReturnNew: failure action bypass with return: new-sessions.
// F1 fails (its emulator stopped): its sessions are bypassed; sessions
// that start meanwhile on its share are too. F1 returns while frames of
// those sessions keep coming: not one reaches it, every one leaves by its
// paired port uninspected; sessions started after the return reach it;
// the other filters' sessions never move.
func testSessionsReturnNew(t *testing.T, tg target, n int) {
	sb := newSessBed(t, tg, true, withFailureAction("bypass"), withProfileKeys("return: new-sessions"))
	require.Contains(t, sb.yaml, "return: new-sessions")
	taken := map[pair]bool{}
	rate := sb.tg.streamRate
	f1 := sb.filters["F1"]

	old := sessionFlows(n, len(sb.links), 1, 21, taken)
	base, bad := sb.round(old)
	require.Zero(t, bad)
	sb.waitHeld(n, 120*time.Second)
	var oldF1 []*flow
	for _, f := range old {
		if base[f.id].fg == "F1" {
			oldF1 = append(oldF1, f)
		}
	}
	require.NotEmpty(t, oldF1)
	require.Equal(t, len(oldF1), sb.heldOn("F1"))

	// F1 fails.
	start := time.Now()
	f1.stop()
	sb.waitFilter("F1", "down", 30*time.Second)
	sb.eventually(30*time.Second, func() bool {
		s := sb.status()
		return !s.Switch.Pending && !s.Switch.StatePending && sb.filterStatus("F1").Effective == "sw-bypass"
	}, "F1 never in software bypass")
	failedOver := time.Since(start)
	during, bad := sb.round(old)
	assert.Zero(t, bad)
	for _, f := range old {
		want := base[f.id]
		if want.fg == "F1" {
			want = at{}
		}
		assert.Equal(t, want, during[f.id], "%v while F1 is bypassed", f)
	}
	// Sessions that start while F1 is bypassed: its share is bypassed
	// and learned there.
	mid := sessionFlows(n/2, len(sb.links), uint32(n+1), 22, taken)
	placedMid, bad := sb.round(mid)
	assert.Zero(t, bad)
	var midF1 []*flow
	for _, f := range mid {
		// A session whose frames did not come out (counted in bad) is
		// nobody's: only one seen bypassed is F1's.
		if a, ok := placedMid[f.id]; ok && a.fg == "" {
			midF1 = append(midF1, f)
		}
		assert.NotEqual(t, "F1", placedMid[f.id].fg)
	}
	require.NotEmpty(t, midF1, "F1's share of the sessions started while it was bypassed")
	sb.waitHeld(n+len(mid), 120*time.Second)

	// F1 returns while frames of its sessions keep coming.
	kept0 := sb.d.SessionMemory().Kept
	f1Sessions := append(append([]*flow{}, oldF1...), midF1...)
	st := sb.startPaced(t, f1Sessions, rate)
	st.flowFor(rate / 5)
	tRet := time.Now()
	reached0 := len(f1.reached())
	require.NoError(t, f1.start())
	sb.waitSettled(60 * time.Second)
	returned := time.Since(tRet)
	sb.eventually(30*time.Second, func() bool { return sb.d.SessionMemory().Kept-kept0 == uint64(len(oldF1)) },
		"F1's %d held sessions never kept in bypass: %+v", len(oldF1), sb.d.SessionMemory())
	st.flowFor(rate) // frames after the return, out of the switch
	ss := st.end()
	bypassed := map[uint32]at{}
	for _, f := range f1Sessions {
		bypassed[f.id] = at{}
	}
	fr, lost, elsewhere := sb.streamed(ss, bypassed)
	got := f1.reached()
	reachedF1 := 0
	for _, s := range ss {
		if got[s.k] {
			reachedF1++
		}
	}
	afterRet, bad := sb.round(f1Sessions)
	assert.Zero(t, bad)
	for _, f := range f1Sessions {
		assert.Equal(t, at{}, afterRet[f.id], "%v: F1's session after its return", f)
	}
	others, bad := sb.round(old)
	assert.Zero(t, bad)
	othersMoved := 0
	for _, f := range old {
		if o, ok := others[f.id]; ok && base[f.id].fg != "F1" && o != base[f.id] {
			othersMoved++
		}
	}
	fresh := sessionFlows(n/2, len(sb.links), uint32(2*n+1), 23, taken)
	placedFresh, bad := sb.round(fresh)
	assert.Zero(t, bad)
	toF1, freshBypassed := 0, 0
	for _, a := range placedFresh {
		switch a.fg {
		case "F1":
			toF1++
		case "":
			freshBypassed++
		}
	}
	assert.Zero(t, reachedF1, "return: new-sessions: frames of F1's bypassed sessions reached it after its return")
	assert.Zero(t, len(f1.reached())-reached0-toF1*2, "frames of F1's former sessions reached it (only the new sessions' may)")
	assert.Zero(t, lost, "frames of F1's sessions lost across its return")
	assert.Zero(t, elsewhere, "frames of F1's sessions inspected across its return")
	assert.Zero(t, othersMoved, "the other filters' sessions moved")
	assert.Positive(t, toF1, "sessions started after F1's return reach it")
	assert.Zero(t, freshBypassed, "sessions started after the return bypassed")
	assert.Equal(t, len(f1Sessions), keptHeld(sb.d.SessionMemory()), "the sessions held in bypass are F1's")
	sb.t.Logf("%s return: new-sessions: %d sessions; F1 held %d, in software bypass %v after its emulator stopped; %d started on its share while bypassed; "+
		"F1 back up and forwarding %v after its restart (%d held sessions kept in bypass); %d frames of F1's %d sessions streamed across the return: %d reached F1, %d lost, %d inspected; "+
		"after it: all %d of F1's sessions bypassed, %d other sessions moved; new sessions to F1: %d of %d",
		sb.tg.name, n, len(oldF1), failedOver.Round(time.Millisecond), len(midF1), returned.Round(time.Millisecond), sb.d.SessionMemory().Kept-kept0,
		fr, len(f1Sessions), reachedF1, lost, elsewhere, len(f1Sessions), othersMoved, toF1, len(fresh))
	assert.Zero(t, sb.bad)
	// Every frame of every session, in the order sent: the sessions F1
	// held before it failed changed place once (to the bypass), no other
	// session ever did.
	wantChanges := map[uint32]int{}
	for _, f := range oldF1 {
		wantChanges[f.id] = 1
	}
	wrong, sessions := sb.changes(wantChanges)
	assert.Zero(t, wrong, "sessions whose frames changed place other than F1's once")
	sb.t.Logf("%s return: new-sessions: %d sessions, every frame recorded: %d changed place (F1's %d, once, to the bypass), %d otherwise",
		sb.tg.name, sessions, sb.changed(), len(oldF1), wrong)
	sb.checkStrays()
}

// keptHeld is the sessions held in bypass (the kept id).
func keptHeld(st daemon.SessionMemoryStatus) int {
	for _, g := range st.Groups {
		if g.KeptInBypass {
			return g.Held
		}
	}
	return 0
}

// testSessionsControl: the same site and sessions without the session
// memory. F4 joins, then F1 goes from 4 to 6 cores: the sessions whose
// slot moved (locate, before and after) move, frame for frame, and no
// other; the bed sees the moves the memory prevents.
func testSessionsControl(t *testing.T, tg target, n int) {
	sb := newSessBed(t, tg, false, withFailureAction("rebalance"))
	require.NotContains(t, sb.yaml, "sessions:")
	ctx := context.Background()
	slots := func(flows []*flow) map[uint32]at {
		out := make(map[uint32]at, len(flows))
		for _, f := range flows {
			src, dst, proto := f.triple(lanToWAN)
			ps, err := sb.d.Locate(ctx, src, dst, proto)
			require.NoError(t, err)
			require.Len(t, ps, 1)
			out[f.id] = at{ps[0].FilterGroup, ps[0].Core}
		}
		return out
	}
	flows := sessionFlows(n, len(sb.links), 1, 11, map[pair]bool{}) // the layout test's first sessions
	base, bad := sb.round(flows)
	require.Zero(t, bad)
	assert.Zero(t, changed(slots(flows), base), "sessions not on their slot's filter group and core")
	steps := []struct{ name, from, to string }{
		{"F4 joins", "members: [F1, F2, F3]", "members: [F1, F2, F3, F4]"},
		{"F1 cores 4->6", "{name: F1, lan: P4, wan: P3, cores: 4}", "{name: F1, lan: P4, wan: P3, cores: 6}"},
	}
	yaml := sb.yaml
	var lines []string
	for _, s := range steps {
		before := slots(flows)
		next := strings.Replace(yaml, s.from, s.to, 1)
		require.NotEqual(t, yaml, next)
		yaml = next
		_, err := sb.d.ApplyConfig(ctx, []byte(yaml), false, s.name)
		require.NoError(t, err)
		sb.waitSettled(60 * time.Second)
		after := slots(flows)
		placed, bad := sb.round(flows)
		assert.Zero(t, bad)
		moved, slotMoved := changed(base, placed), changed(before, after)
		assert.Zero(t, changed(after, placed), "%s: sessions not where their slot points", s.name)
		assert.Equal(t, slotMoved, moved, "%s: the sessions that moved are those whose slot moved", s.name)
		assert.Positive(t, moved, "%s: sessions moved without the memory", s.name)
		lines = append(lines, fmt.Sprintf("%s: %d of %d moved (their slot moved: %d)", s.name, moved, n, slotMoved))
		base = placed
	}
	t.Logf("%s without the session memory: %s", sb.tg.name, strings.Join(lines, "; "))
	assert.Zero(t, sb.bad)
	sb.checkStrays()
}
