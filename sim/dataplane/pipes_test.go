package dataplane

import (
	"fmt"
	"net"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/tables"
)

// Pipe layouts of the verdict site (pipelinecases: links L1 10/20 and L2
// 51/52, filters F1 30/40 and F2 53/54) on two pipes. Ports not listed
// are in DefaultPipe's: pipe 0, and the CPU port 255 in pipe 1, as the
// CPU port 192 of a 2-pipe Tofino.
var (
	// mixedPipes: F1 in pipe 1 (its data sends, from the links in pipe 0,
	// return in pipe 1), F2 in pipe 0 (its keep-alives, sent from the
	// CPU port in pipe 1, return in pipe 0).
	mixedPipes = map[uint32]int{pipelinecases.F1WAN: 1, pipelinecases.F1LAN: 1}
	// filtersPipe1: both filters in pipe 1, the links in pipe 0.
	filtersPipe1 = map[uint32]int{pipelinecases.F1WAN: 1, pipelinecases.F1LAN: 1, pipelinecases.F2WAN: 1, pipelinecases.F2LAN: 1}
	// onePipe: everything, the CPU port too, in pipe 0 of 2.
	onePipe = map[uint32]int{p4src.CPUPortBMv2: 0}
)

func newPipesTarget(tb testing.TB, start uint64, ports map[uint32]int, copies bool) *verdictTarget {
	return newPipesTargetDelay(tb, start, ports, copies, -1)
}

// newPipesTargetDelay is newPipesTarget with the copies' delay in ticks
// (-1: EvCopyDelay).
func newPipesTargetDelay(tb testing.TB, start uint64, ports map[uint32]int, copies bool, delay int) *verdictTarget {
	tb.Helper()
	s, err := p4src.Load()
	require.NoError(tb, err)
	clock := &atomic.Uint64{}
	clock.Store(start)
	d, err := New(s, WithClock(clock.Load), WithPipes(2, ports), WithEvidenceCopies(copies, delay))
	require.NoError(tb, err)
	require.Equal(tb, 2, d.Pipes())
	comp, err := tables.New(s)
	require.NoError(tb, err)
	return &verdictTarget{target: newTarget(d), tb: tb, comp: comp, clock: clock}
}

func TestPipeOptions(t *testing.T) {
	s := loadSchema(t)
	_, err := New(s, WithPipes(5, nil))
	require.ErrorContains(t, err, "5 pipes: a switch has 1 to 4")
	_, err = New(s, WithPipes(2, map[uint32]int{40: 2}))
	require.ErrorContains(t, err, "port 40 placed in pipe 2: the switch has pipes 0 to 1")
	_, err = New(s, WithPipes(2, map[uint32]int{600: 1}))
	require.ErrorContains(t, err, "port 600 placed in pipe 1 is not a 9-bit port")
	d, err := New(s, WithPipes(2, map[uint32]int{40: 1}))
	require.NoError(t, err)
	for port, want := range map[uint32]int{10: 0, 40: 1, 127: 0, 128: 1, 192: 1, 255: 1, 256: 0, 324: 0, 511: 1} {
		assert.Equal(t, want, d.PipeOf(port), "port %d", port)
	}
	d, err = New(s)
	require.NoError(t, err)
	assert.Equal(t, 1, d.Pipes())
	assert.Equal(t, 0, d.PipeOf(255))
}

// pipesRig drives the verdict site on a moved clock: sessions of both
// directions through L1, each filter a loop (what leaves by one of its
// ports comes back in on the other) unless dead, keep-alives from the CPU
// port every interval, both sides of both filters.
type pipesRig struct {
	t  *testing.T
	vt *verdictTarget
	d  *Dataplane
	// frames[i]: session i, [0] into L1's LAN port, [1] its reply into
	// L1's WAN port.
	frames    [][2][]byte
	fgOf      []uint32 // session i's filter group
	next      int
	dead      map[uint32]bool // by filter group
	noData    bool
	noKA      bool
	detect    uint32 // ticks
	interval  time.Duration
	lastKA    uint64
	buf       []byte
	dataRets  map[[3]uint32]bool // (pipe, e, copy slot) of every data return
	nDataRets uint64
	nKARets   uint64
	lastRet   map[uint32]uint32 // filter group -> tick of its last return
	firstLost map[uint32]uint32 // filter group -> tick of its first data send not returned
	toFilter  map[uint32]int    // filter group -> data frames sent to it
	bypassed  map[uint32]int    // filter group -> its data frames given the failure action
	proofs    []provenAt
}

type provenAt struct {
	dg   p4src.VerdictDigest
	tick uint32
}

var (
	filterOf   = map[uint32]uint32{pipelinecases.F1LAN: pipelinecases.F1ID, pipelinecases.F1WAN: pipelinecases.F1ID, pipelinecases.F2LAN: pipelinecases.F2ID, pipelinecases.F2WAN: pipelinecases.F2ID}
	loopOf     = map[uint32]uint32{pipelinecases.F1LAN: pipelinecases.F1WAN, pipelinecases.F1WAN: pipelinecases.F1LAN, pipelinecases.F2LAN: pipelinecases.F2WAN, pipelinecases.F2WAN: pipelinecases.F2LAN}
	lanWAN     = map[uint32][2]uint32{pipelinecases.F1ID: {pipelinecases.F1LAN, pipelinecases.F1WAN}, pipelinecases.F2ID: {pipelinecases.F2LAN, pipelinecases.F2WAN}}
	linkPeerOf = map[uint32]uint32{pipelinecases.L1LAN: pipelinecases.L1WAN, pipelinecases.L1WAN: pipelinecases.L1LAN}
)

func newPipesRig(t *testing.T, vt *verdictTarget, cfg *config.Config, sessions int) *pipesRig {
	require.NoError(t, vt.Fresh(cfg))
	p := cfg.ProfileByName("default")
	rg := &pipesRig{t: t, vt: vt, d: vt.d, dead: map[uint32]bool{}, buf: make([]byte, 0, 2048),
		detect:   uint32(time.Duration(p.LossThreshold) * time.Duration(p.Interval) / time.Microsecond),
		interval: time.Duration(p.Interval), dataRets: map[[3]uint32]bool{}, lastRet: map[uint32]uint32{},
		toFilter: map[uint32]int{}, bypassed: map[uint32]int{}, firstLost: map[uint32]uint32{}}
	mac1, mac2 := net.HardwareAddr{0x02, 0, 0, 0, 0, 1}, net.HardwareAddr{0x02, 0, 0, 0, 0, 2}
	server := netip.MustParseAddr("198.51.100.7")
	for i := 0; i < sessions; i++ {
		client := netip.AddrFrom4([4]byte{10, 20, byte(i >> 8), byte(i)})
		sport := uint16(40000 + i)
		out := pipelinecases.Frame(mac1, mac2, pipelinecases.Encap{}, pipelinecases.L3{Src: client, Dst: server, Proto: layers.IPProtocolTCP, SrcPort: sport, DstPort: 443})
		back := pipelinecases.Frame(mac2, mac1, pipelinecases.Encap{}, pipelinecases.L3{Src: server, Dst: client, Proto: layers.IPProtocolTCP, SrcPort: 443, DstPort: sport})
		rg.frames = append(rg.frames, [2][]byte{out, back})
		fg, _ := pipelinecases.Placement(cfg, client, server, 6)
		rg.fgOf = append(rg.fgOf, fg)
	}
	rg.lastKA = vt.clock.Load()
	return rg
}

func (rg *pipesRig) tick() uint32 { return uint32(rg.vt.clock.Load() / 1000) }

// step lets d pass on the pipeline's clock.
func (rg *pipesRig) step(d time.Duration) {
	rg.vt.clock.Add(uint64(d))
}

func (rg *pipesRig) collect() {
	dgs, _ := rg.d.VerdictDigests()
	rg.d.AckVerdictDigests(dgs)
	for _, dg := range dgs {
		if dg.Reason != p4src.VerdictStanding {
			rg.proofs = append(rg.proofs, provenAt{dg, rg.tick()})
		}
	}
}

// filterReturn runs what a filter port sent through the filter: back in
// on its other port when the filter lives. It reports whether it came back.
func (rg *pipesRig) filterReturn(out uint32, frame []byte) (Result, bool) {
	fg := filterOf[out]
	if rg.dead[fg] {
		return Result{}, false
	}
	rg.step(time.Microsecond)
	in := loopOf[out]
	r := rg.d.Process(in, frame, rg.buf)
	rg.lastRet[fg] = rg.tick()
	rg.collect()
	return r, true
}

// round sends n data frames 1 µs apart (the two directions alternating,
// sessions in turn), each returned by its filter 1 µs later, and
// the keep-alives when an interval has passed since the last.
func (rg *pipesRig) round(n int) {
	t := rg.t
	for k := 0; k < n && !rg.noData; k++ {
		i := rg.next
		rg.next++
		dir, j := i&1, i/2%len(rg.frames)
		s, want := rg.frames[j], rg.fgOf[j]
		in := uint32(pipelinecases.L1LAN)
		if dir == 1 {
			in = pipelinecases.L1WAN
		}
		rg.step(time.Microsecond)
		sent := append([]byte(nil), s[dir]...)
		r := rg.d.Process(in, sent, rg.buf)
		rg.collect()
		require.Equal(t, Forward, r.Kind)
		fg, toFilter := filterOf[r.Port]
		if !toFilter {
			// The failure action (software bypass): out of L1's other port.
			require.Equal(t, linkPeerOf[in], r.Port)
			rg.bypassed[want]++
			continue
		}
		require.Equal(t, want, fg, "the session's filter group")
		rg.toFilter[fg]++
		side := uint32(0)
		if r.Port == lanWAN[fg][1] {
			side = 1
		}
		ret, ok := rg.filterReturn(r.Port, append([]byte(nil), r.Frame...))
		if !ok {
			if rg.firstLost[fg] == 0 {
				rg.firstLost[fg] = rg.tick()
			}
			continue
		}
		require.Equal(t, Forward, ret.Kind)
		require.Equal(t, linkPeerOf[in], ret.Port, "the return continues out of the link's other port")
		retPipe := uint32(rg.d.PipeOf(loopOf[r.Port]))
		rg.dataRets[[3]uint32{retPipe, fg<<1 | side, rg.tick() >> EvCopyShift}] = true
		rg.nDataRets++
	}
	if !rg.noKA && rg.vt.clock.Load()-rg.lastKA >= uint64(rg.interval) {
		rg.lastKA = rg.vt.clock.Load()
		for _, fg := range []uint32{pipelinecases.F1ID, pipelinecases.F2ID} {
			for dir := wire.LANToWAN; dir <= wire.WANToLAN; dir++ {
				rg.step(time.Microsecond)
				ka := wire.EncodeKeepAlive([6]byte{2, 0, 0, 0, 0, 2}, [6]byte{2, 0, 0, 0, 0, 1}, wire.DefaultKeepAliveEtherType,
					wire.KeepAlive{FilterGroup: uint16(fg), Direction: dir, Seq: uint32(rg.lastKA / 1000)})
				port := lanWAN[fg][dir]
				r := rg.d.PacketOut(port, wire.PacketOutFlagKeepAlive, ka, rg.buf)
				rg.collect()
				require.Equal(t, Forward, r.Kind)
				require.Equal(t, port, r.Port)
				ret, ok := rg.filterReturn(port, append([]byte(nil), r.Frame...))
				if ok {
					require.Equal(t, ToCPU, ret.Kind)
					rg.nKARets++
				}
			}
		}
	}
}

// run runs rounds of n frames gap apart for d of the clock.
func (rg *pipesRig) run(d, gap time.Duration, n int) {
	end := rg.vt.clock.Load() + uint64(d)
	for rg.vt.clock.Load() < end {
		rg.round(n)
		rg.step(gap)
	}
}

func (rg *pipesRig) proofsOf(fg uint32) []provenAt {
	var out []provenAt
	for _, p := range rg.proofs {
		if uint32(p.dg.FilterGroup) == fg {
			out = append(out, p)
		}
	}
	return out
}

const (
	pipesSessions = 64
	pipesGap      = 200 * time.Microsecond
	pipesBurst    = 8 // frames a round, 1 µs apart: several returns share a copy slot
)

// Without the evidence copies a 2-pipe switch proves healthy filters
// dead: F1 (pipe 1) by its data, sent from the links in pipe 0 and
// returned in pipe 1; F2 (pipe 0) by its keep-alives, sent from the CPU
// port in pipe 1 and returned in pipe 0. Every frame and keep-alive comes
// back; the verdicts are false. With the copies, the same traffic proves
// nothing.
func TestPipesWithoutCopiesProveHealthyFiltersDead(t *testing.T) {
	cfg, err := pipelinecases.VerdictConfig(false)
	require.NoError(t, err)
	detect := pipelinecases.VerdictDetect
	for _, tc := range []struct {
		name          string
		noData, noKA  bool
		falseFG, okFG uint32
		reason        uint8
	}{
		{"data", false, true, pipelinecases.F1ID, pipelinecases.F2ID, p4src.VerdictData},
		{"keep-alives", true, false, pipelinecases.F2ID, pipelinecases.F1ID, p4src.VerdictKeepAlive},
	} {
		for _, copies := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/copies %v", tc.name, copies), func(t *testing.T) {
				vt := newPipesTarget(t, uint64(time.Second), mixedPipes, copies)
				rg := newPipesRig(t, vt, cfg, pipesSessions)
				rg.noData, rg.noKA = tc.noData, tc.noKA
				start := rg.tick()
				rg.run(4*detect, pipesGap, pipesBurst)
				st := rg.d.EvidenceCopies()
				assert.Empty(t, rg.proofsOf(tc.okFG), "the filter whose sends and returns share a pipe")
				proofs := rg.proofsOf(tc.falseFG)
				if copies {
					assert.Empty(t, proofs, "a healthy filter proven dead with the copies on")
					assert.Zero(t, st.Off)
					t.Logf("%s, copies on: 0 false verdicts in %v (%d data and %d keep-alive returns, %d and %d copied)",
						tc.name, 4*detect, st.DataReturns, st.KeepAliveReturns, st.DataCopies, st.KeepAliveCopies)
					return
				}
				require.NotEmpty(t, proofs, "copies off: the healthy filter is proven dead")
				assert.Equal(t, tc.reason, proofs[0].dg.Reason)
				assert.Zero(t, st.DataCopies+st.KeepAliveCopies+st.Taken)
				assert.Positive(t, st.Off)
				after := time.Duration(proofs[0].tick-start) * time.Microsecond
				// Proven after detect: data once the window is detect
				// old, keep-alives at the first one sent past the oldest
				// unanswered one's deadline.
				assert.GreaterOrEqual(t, after, detect)
				assert.Less(t, after, detect+2*rg.interval)
				t.Logf("%s, copies off: filter group %d (healthy: every send returned) proven dead (%d proofs) %v after the traffic started",
					tc.name, tc.falseFG, len(proofs), after)
			})
		}
	}
}

// With the copies, steady traffic of many sessions in both directions
// and keep-alives of both filters on both sides, over 20 detection times:
// no verdict, and every data return's copy accounted for: copied when it
// was the first of its filter group and direction in its 16-tick copy
// slot in its pipe, else suppressed (at most one copy per slot per e).
func TestPipesCopiesKeepHealthyFiltersAndRateLimit(t *testing.T) {
	cfg, err := pipelinecases.VerdictConfig(false)
	require.NoError(t, err)
	detect := pipelinecases.VerdictDetect
	for name, layout := range map[string]map[uint32]int{"F1 in pipe 1, F2 in pipe 0": mixedPipes, "filters in pipe 1": filtersPipe1} {
		t.Run(name, func(t *testing.T) {
			vt := newPipesTarget(t, uint64(time.Second), layout, true)
			rg := newPipesRig(t, vt, cfg, pipesSessions)
			rg.run(20*detect, pipesGap, pipesBurst)
			st := rg.d.EvidenceCopies()
			assert.Empty(t, rg.proofs, "false verdicts")
			for p := 0; p < 2; p++ {
				for _, fg := range []uint32{pipelinecases.F1ID, pipelinecases.F2ID} {
					_, set := rg.d.PipeVerdict(p, fg)
					assert.False(t, set, "pipe %d filter group %d", p, fg)
				}
			}
			assert.Positive(t, rg.toFilter[pipelinecases.F1ID])
			assert.Positive(t, rg.toFilter[pipelinecases.F2ID])
			assert.Zero(t, rg.bypassed[pipelinecases.F1ID]+rg.bypassed[pipelinecases.F2ID])
			assert.Equal(t, rg.nDataRets, st.DataReturns)
			assert.Equal(t, rg.nKARets, st.KeepAliveReturns)
			assert.Equal(t, uint64(len(rg.dataRets)), st.DataCopies, "one copy per (pipe, e, copy slot) with returns")
			assert.Equal(t, st.DataReturns, st.DataCopies+st.DataSuppressed)
			assert.Positive(t, st.DataSuppressed, "returns 1 µs apart share a slot")
			assert.Equal(t, st.KeepAliveReturns, st.KeepAliveCopies, "every keep-alive return is copied")
			assert.Equal(t, st.DataCopies+st.KeepAliveCopies, st.Taken+st.InFlight, "one other pipe: each copy taken once")
			assert.LessOrEqual(t, st.InFlight, uint64(2), "the last copies, not yet due or followed by no frame")
			assert.Zero(t, st.Early)
			t.Logf("%s, %v of traffic: 0 false verdicts; data returns %d, copied %d (%.1f %%), suppressed %d; keep-alive returns %d, copied %d; taken %d (%d in flight)",
				name, 20*detect, st.DataReturns, st.DataCopies, 100*float64(st.DataCopies)/float64(st.DataReturns), st.DataSuppressed,
				st.KeepAliveReturns, st.KeepAliveCopies, st.Taken, st.InFlight)
		})
	}
}

// With the copies, a filter that dies is still proven dead by the pipe
// that sends to it: within detect + one copy slot + one round of traffic
// (a proof needs a send) of its first unanswered send, and not before
// detect - one copy slot after its last return (the other pipe learns of
// life up to a slot late); from the proof on every frame of its share
// takes the failure action, and the filter beside it keeps its traffic.
func TestPipesCopiesDeadFilterProven(t *testing.T) {
	cfg, err := pipelinecases.VerdictConfig(false)
	require.NoError(t, err)
	detect := pipelinecases.VerdictDetect
	slot := time.Duration(1<<EvCopyShift) * time.Microsecond
	var worst, worstRet time.Duration
	best := time.Hour
	for k := 0; k < 5; k++ {
		vt := newPipesTarget(t, uint64(time.Second)+uint64(k)*7_777_000, mixedPipes, true)
		rg := newPipesRig(t, vt, cfg, pipesSessions)
		rg.run(3*detect, pipesGap, pipesBurst)
		// Each death at another phase of the rounds and copy slots.
		rg.round(k + 1)
		rg.step(time.Duration(k*37) * time.Microsecond)
		require.Empty(t, rg.proofs)
		rg.dead[pipelinecases.F1ID] = true
		last := rg.lastRet[pipelinecases.F1ID]
		for i := 0; ; i++ {
			require.Less(t, i, 10_000, "F1 never proven dead in the links' pipe")
			rg.round(pipesBurst)
			rg.step(pipesGap)
			if _, set := rg.d.PipeVerdict(0, pipelinecases.F1ID); set {
				break
			}
		}
		proofs := rg.proofsOf(pipelinecases.F1ID)
		require.NotEmpty(t, proofs)
		// The first proof is the links' pipe's, by data (the keep-alives,
		// sent in pipe 1, prove it there a keep-alive interval later).
		require.Equal(t, uint8(p4src.VerdictData), proofs[0].dg.Reason)
		proven := proofs[0].tick
		took := time.Duration(proven-rg.firstLost[pipelinecases.F1ID]) * time.Microsecond
		sinceRet := time.Duration(proven-last) * time.Microsecond
		assert.GreaterOrEqual(t, sinceRet, detect-slot, "death %d: proven before the last return's sends were detect old", k)
		assert.LessOrEqual(t, took, detect+slot+pipesGap+pipesBurst*2*time.Microsecond, "death %d: proven later than the round after detect", k)
		worst, worstRet, best = max(worst, took), max(worstRet, sinceRet), min(best, sinceRet)
		t.Logf("death %d: F1 proven dead in pipe 0 %v after its first unanswered send, %v after its last return (detect %v); digests %v",
			k, took, sinceRet, detect, proofs)
		// The failure action from then on: every frame of F1's share from
		// the links is bypassed, F2's still go to F2.
		toF1, toF2 := rg.toFilter[pipelinecases.F1ID], rg.toFilter[pipelinecases.F2ID]
		by := rg.bypassed[pipelinecases.F1ID]
		rg.run(detect, pipesGap, pipesBurst)
		assert.Equal(t, toF1, rg.toFilter[pipelinecases.F1ID], "frames reached the dead filter after its proof")
		assert.Greater(t, rg.bypassed[pipelinecases.F1ID], by)
		assert.Greater(t, rg.toFilter[pipelinecases.F2ID], toF2)
		assert.Zero(t, rg.bypassed[pipelinecases.F2ID])
		assert.Empty(t, rg.proofsOf(pipelinecases.F2ID))
	}
	t.Logf("death -> proof with copies, 5 deaths: at most %v after the first unanswered send (bound: detect %v + copy slot %v + one round %v); %v .. %v after the last return",
		worst, detect, slot, pipesGap, best, worstRet)
}

// The verdict scenarios give the same results on two pipes: with every
// port in one pipe, and with the links in pipe 0 and the filters and the
// CPU port in pipe 1 (the copies on: the unanswered keep-alive's proof,
// made in the CPU port's pipe, reaches the links' pipe by its copy;
// TestPipesKeepAliveProofIsCopied). There the copies arrive at once: the
// scenarios send frames at the same instant of their clock as a return,
// which the copy (EvCopyDelay ticks) would not reach.
func TestVerdictScenariosOnTwoPipes(t *testing.T) {
	cfg, err := pipelinecases.VerdictConfig(false)
	require.NoError(t, err)
	for name, layout := range map[string]map[uint32]int{"one pipe of two": onePipe, "filters in pipe 1": filtersPipe1} {
		passed := 0
		for _, sc := range pipelinecases.VerdictScenarios(cfg) {
			t.Run(name+"/"+sc.Name, func(t *testing.T) {
				vt := newPipesTargetDelay(t, uint64(time.Second), layout, true, 0)
				require.NoError(t, pipelinecases.RunVerdict(vt, sc, pipelinecases.Timing{}))
				passed++
			})
		}
		t.Logf("%s: %d verdict scenarios passed", name, passed)
	}
}

// Proofs are copied: a keep-alive proof is made in the CPU port's pipe
// (1) and writes that pipe's verdict cell; its proof copy writes pipe 0's
// cell too, so data of the same filter from links in pipe 0 takes the
// failure action from the copy's arrival on, without waiting for pipe 0
// to prove the loss by its own data. Without proof copies (the program
// before them), the same data still reaches the dead filter until pipe
// 0's own evidence proves it.
func TestPipesKeepAliveProofIsCopied(t *testing.T) {
	cfg, err := pipelinecases.VerdictConfig(false)
	require.NoError(t, err)
	for _, copies := range []bool{true, false} {
		t.Run(fmt.Sprintf("proof-copies=%v", copies), func(t *testing.T) {
			vt := newPipesTarget(t, uint64(time.Second), filtersPipe1, true)
			rg := newPipesRig(t, vt, cfg, pipesSessions)
			rg.noData = true
			rg.run(2*pipelinecases.VerdictDetect, pipesGap, 0)
			require.Empty(t, rg.proofs)
			if !copies {
				// The program before proofs were copied: returns
				// are, proofs not.
				rg.d.ev.mu.Lock()
				rg.d.ev.noProofCopies = true
				rg.d.ev.mu.Unlock()
			}
			rg.dead[pipelinecases.F1ID] = true
			last := rg.lastRet[pipelinecases.F1ID]
			for i := 0; ; i++ {
				require.Less(t, i, 10_000, "the keep-alives never proved F1 dead")
				rg.run(pipesGap, pipesGap, 0)
				if _, set := rg.d.PipeVerdict(1, pipelinecases.F1ID); set {
					break
				}
			}
			require.NotEmpty(t, rg.proofsOf(pipelinecases.F1ID))
			assert.Equal(t, uint8(p4src.VerdictKeepAlive), rg.proofsOf(pipelinecases.F1ID)[0].dg.Reason)
			kaProof := rg.tick()
			epoch1, _ := rg.d.PipeVerdict(1, pipelinecases.F1ID)
			st := rg.d.EvidenceCopies()
			// Data of F1 from the links (pipe 0), after the copy's
			// delay (the next round is a gap later).
			rg.noData = false
			before, by := rg.toFilter[pipelinecases.F1ID], rg.bypassed[pipelinecases.F1ID]
			if copies {
				assert.Equal(t, uint64(1), st.ProofCopies, "one proof, one copy")
				rg.run(pipelinecases.VerdictDetect, pipesGap, pipesBurst)
				epoch0, set := rg.d.PipeVerdict(0, pipelinecases.F1ID)
				require.True(t, set, "the proof copy wrote pipe 0's cell")
				assert.Equal(t, epoch1, epoch0, "of the proof's epoch")
				assert.Equal(t, before, rg.toFilter[pipelinecases.F1ID], "data from pipe 0 reached the dead F1 after its keep-alive proof")
				assert.Greater(t, rg.bypassed[pipelinecases.F1ID], by, "F1's share from pipe 0 takes the failure action")
				assert.Equal(t, uint64(1), rg.d.EvidenceCopies().ProofsTaken)
				for _, p := range rg.proofsOf(pipelinecases.F1ID) {
					assert.NotEqual(t, uint8(p4src.VerdictData), p.dg.Reason, "pipe 0 proved again what the copy told it")
				}
				t.Logf("keep-alive proof in pipe 1 %v after F1's last return; 0 frames from pipe 0 reached the dead F1 after it (%d bypassed in %v)",
					time.Duration(kaProof-last)*time.Microsecond, rg.bypassed[pipelinecases.F1ID]-by, pipelinecases.VerdictDetect)
				return
			}
			assert.Zero(t, st.ProofCopies, "proof copies off")
			_, set := rg.d.PipeVerdict(0, pipelinecases.F1ID)
			require.False(t, set, "without the copy the links' pipe has no verdict of its own")
			var dataProof uint32
			for i := 0; dataProof == 0; i++ {
				require.Less(t, i, 10_000, "pipe 0 never proved F1 dead")
				rg.round(pipesBurst)
				if _, set := rg.d.PipeVerdict(0, pipelinecases.F1ID); set {
					dataProof = rg.tick()
				}
				rg.step(pipesGap)
			}
			sent := rg.toFilter[pipelinecases.F1ID] - before
			assert.Positive(t, sent)
			t.Logf("without copies: keep-alive proof in pipe 1 %v after F1's last return; data from pipe 0 still reached the dead F1 for %v more (%d frames) until pipe 0 proved it by data",
				time.Duration(kaProof-last)*time.Microsecond, time.Duration(dataProof-kaProof)*time.Microsecond, sent)
		})
	}
}
