package sim

import (
	"context"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/internal/p4rttest"
	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/tables"
)

// pipesDetect is the detection time of the two-pipe tests on the whole
// switch: the pipeline's clock is the host's, and a detection time well
// above its scheduling delays keeps a slow return from looking lost.
const pipesDetect = 200 * time.Millisecond

// twoPipeSwitch serves a switch of the verdict site on two pipes: the
// links in pipe 0, F1 in pipe 1, F2 in pipe 0, the CPU port (255) in pipe
// 1 by Tofino's rule; programmed, the verdict digest configured.
func twoPipeSwitch(t *testing.T, copies bool) (*Switch, *p4rttest.Client, map[uint32]*MemPeer, *config.Config) {
	t.Helper()
	peers := map[uint32]*MemPeer{}
	ps := map[uint32]Port{}
	for _, n := range pipelinecases.Ports {
		p, peer := NewMemPort(64)
		ps[n], peers[n] = p, peer
	}
	sw, err := New(Options{Ports: ps, Pipes: 2, NoEvidenceCopies: !copies,
		PipePorts: map[uint32]int{pipelinecases.F1LAN: 1, pipelinecases.F1WAN: 1}})
	require.NoError(t, err)
	require.Equal(t, 2, sw.Dataplane().Pipes())
	require.Equal(t, 1, sw.Dataplane().PipeOf(sw.Dataplane().CPUPort()))
	addr := serveOn(t, sw)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	schema, err := p4src.Load()
	require.NoError(t, err)
	c, err := p4rttest.Dial(ctx, addr, 1, schema)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	require.NoError(t, c.SetPipeline(ctx, schema.Info, nil))
	cfg, err := pipelinecases.VerdictConfigDetect(false, pipesDetect)
	require.NoError(t, err)
	comp, err := tables.New(schema)
	require.NoError(t, err)
	des, err := comp.Compile(cfg, tables.State{})
	require.NoError(t, err)
	for _, b := range comp.Diff(des.Entities, nil).Batches {
		require.NoError(t, c.Write(ctx, b.Updates, 500), b.Name)
	}
	d := schema.Digest(p4src.DigestVerdict)
	require.NotNil(t, d)
	require.NoError(t, c.Write(ctx, []*p4v1.Update{{Type: p4v1.Update_INSERT, Entity: &p4v1.Entity{Entity: &p4v1.Entity_DigestEntry{
		DigestEntry: &p4v1.DigestEntry{DigestId: d.GetPreamble().GetId(), Config: &p4v1.DigestEntry_Config{MaxListSize: 1, AckTimeoutNs: int64(500 * time.Millisecond)}}}}}}, 1))
	return sw, c, peers, cfg
}

// simTraffic is the test playing the links' far ends and the filters, in
// lock step: a frame into a link port, taken off the filter port it left
// by and put back in on the filter's other port (unless that filter is
// dead), taken off the link's other port.
type simTraffic struct {
	t      *testing.T
	c      *p4rttest.Client
	peers  map[uint32]*MemPeer
	frames [][2][]byte
	fgOf   []uint32
	next   int
	dead   map[uint32]bool
	// What happened: data frames that reached each filter group, that
	// it returned, that took the failure action; keep-alives returned.
	toFilter, returned, bypassed map[uint32]int
	kaReturned                   int
	firstLost                    time.Time
	lastKA                       time.Time
}

var (
	simFilterPorts = map[uint32][2]uint32{pipelinecases.F1ID: {pipelinecases.F1LAN, pipelinecases.F1WAN}, pipelinecases.F2ID: {pipelinecases.F2LAN, pipelinecases.F2WAN}}
	simLinkIn      = [2]uint32{pipelinecases.L1LAN, pipelinecases.L1WAN}
)

func newSimTraffic(t *testing.T, c *p4rttest.Client, peers map[uint32]*MemPeer, cfg *config.Config, sessions int) *simTraffic {
	st := &simTraffic{t: t, c: c, peers: peers, dead: map[uint32]bool{},
		toFilter: map[uint32]int{}, returned: map[uint32]int{}, bypassed: map[uint32]int{}}
	mac1, mac2 := net.HardwareAddr{0x02, 0, 0, 0, 0, 1}, net.HardwareAddr{0x02, 0, 0, 0, 0, 2}
	server := netip.MustParseAddr("198.51.100.7")
	for i := 0; i < sessions; i++ {
		client := netip.AddrFrom4([4]byte{10, 20, byte(i >> 8), byte(i)})
		sport := uint16(40000 + i)
		out := pipelinecases.Frame(mac1, mac2, pipelinecases.Encap{}, pipelinecases.L3{Src: client, Dst: server, Proto: layers.IPProtocolTCP, SrcPort: sport, DstPort: 443})
		back := pipelinecases.Frame(mac2, mac1, pipelinecases.Encap{}, pipelinecases.L3{Src: server, Dst: client, Proto: layers.IPProtocolTCP, SrcPort: 443, DstPort: sport})
		st.frames = append(st.frames, [2][]byte{out, back})
		fg, _ := pipelinecases.Placement(cfg, client, server, 6)
		st.fgOf = append(st.fgOf, fg)
	}
	return st
}

// A bound on a broken switch, not a wait: every frame below is answered.
const simFrameTimeout = 10 * time.Second

// data sends the next data frame (the directions alternating) and follows
// it through.
func (st *simTraffic) data() {
	t := st.t
	i := st.next
	st.next++
	dir, j := i&1, i/2%len(st.frames)
	fg := st.fgOf[j]
	in := simLinkIn[dir]
	out := simLinkIn[1-dir]
	require.NoError(t, st.peers[in].Send(st.frames[j][dir]))
	// The frame leaves by its filter's port (forwarded) or by the link's
	// other port (the failure action).
	var f []byte
	select {
	case f = <-st.peers[simFilterPorts[fg][dir]].p.out:
	case f = <-st.peers[out].p.out:
		require.Equal(t, st.frames[j][dir], f)
		st.bypassed[fg]++
		return
	case <-time.After(simFrameTimeout):
		t.Fatalf("session %d: the frame left by neither filter group %d's port nor the link's", j, fg)
	}
	st.toFilter[fg]++
	if st.dead[fg] {
		// Dead: whatever reaches it is lost.
		if st.firstLost.IsZero() {
			st.firstLost = time.Now()
		}
		return
	}
	require.NoError(t, st.peers[simFilterPorts[fg][1-dir]].Send(f))
	back, err := st.peers[out].Recv(simFrameTimeout)
	require.NoError(t, err, "session %d: back from filter group %d", j, fg)
	require.Equal(t, st.frames[j][dir], back)
	st.returned[fg]++
}

// keepAlives sends a keep-alive out of both sides of both filter groups
// and follows each through its filter, back to the controller.
func (st *simTraffic) keepAlives() {
	t := st.t
	st.lastKA = time.Now()
	for _, fg := range []uint32{pipelinecases.F1ID, pipelinecases.F2ID} {
		for dir := wire.LANToWAN; dir <= wire.WANToLAN; dir++ {
			ka := wire.EncodeKeepAlive([6]byte{2, 0, 0, 0, 0, 2}, [6]byte{2, 0, 0, 0, 0, 1}, wire.DefaultKeepAliveEtherType,
				wire.KeepAlive{FilterGroup: uint16(fg), Direction: dir, Seq: uint32(st.next)})
			port := simFilterPorts[fg][dir]
			require.NoError(t, st.c.PacketOut(port, wire.PacketOutFlagKeepAlive, ka))
			f, err := st.peers[port].Recv(simFrameTimeout)
			require.NoError(t, err)
			if st.dead[fg] {
				continue
			}
			require.NoError(t, st.peers[simFilterPorts[fg][1-dir]].Send(f))
			_, err = st.c.PacketIn(simFrameTimeout)
			require.NoError(t, err)
			st.kaReturned++
		}
	}
}

// digests returns the verdict digests (proofs and repeats) that arrived
// within wait.
func digests(t *testing.T, c *p4rttest.Client, wait time.Duration) []p4src.VerdictDigest {
	var out []p4src.VerdictDigest
	for {
		l, err := c.DigestList(wait)
		if err != nil {
			return out
		}
		for _, d := range l.GetData() {
			dg, err := p4src.DecodeVerdictDigest(d)
			require.NoError(t, err)
			out = append(out, dg)
		}
		wait = 0
	}
}

// On the whole software switch (P4Runtime, in-memory ports, the host's
// clock), two pipes with the links in pipe 0 and F1 in pipe 1: without
// the evidence copies, F1's data returns never reach the links' pipe and
// the healthy F1 is proven dead (its digest reaches the controller); with
// them, 10 detection times of data both ways and keep-alives prove
// nothing, F1's death is proven by the links' pipe within detect of its
// first unanswered send (plus the host's scheduling), and F1's share
// takes the failure action from then on while F2 keeps its traffic.
func TestTwoPipesOnTheSwitch(t *testing.T) {
	t.Run("copies off: a healthy filter proven dead", func(t *testing.T) {
		sw, c, peers, cfg := twoPipeSwitch(t, false)
		st := newSimTraffic(t, c, peers, cfg, 64)
		start := time.Now()
		var dgs []p4src.VerdictDigest
		for len(dgs) == 0 {
			require.Less(t, time.Since(start), 20*pipesDetect, "no verdict without the copies")
			st.data()
			dgs = digests(t, c, time.Millisecond)
		}
		took := time.Since(start)
		assert.Equal(t, uint8(pipelinecases.F1ID), dgs[0].FilterGroup)
		assert.Equal(t, uint8(p4src.VerdictData), dgs[0].Reason)
		assert.Zero(t, st.bypassed[pipelinecases.F2ID])
		assert.Equal(t, st.toFilter[pipelinecases.F1ID], st.returned[pipelinecases.F1ID], "every frame to F1 came back")
		cs := sw.Dataplane().EvidenceCopies()
		assert.Zero(t, cs.DataCopies+cs.KeepAliveCopies)
		t.Logf("copies off: F1 (healthy, %d of %d frames returned) proven dead by data %v after the traffic started (detect %v); %d of its frames bypassed before the digest was read",
			st.returned[pipelinecases.F1ID], st.toFilter[pipelinecases.F1ID], took, pipesDetect, st.bypassed[pipelinecases.F1ID])
	})
	t.Run("copies on", func(t *testing.T) {
		sw, c, peers, cfg := twoPipeSwitch(t, true)
		st := newSimTraffic(t, c, peers, cfg, 64)
		interval := pipesDetect / 5
		start := time.Now()
		st.keepAlives()
		var dgs []p4src.VerdictDigest
		for time.Since(start) < 10*pipesDetect {
			st.data()
			if time.Since(st.lastKA) >= interval {
				st.keepAlives()
			}
			dgs = append(dgs, digests(t, c, 0)...)
		}
		// Everything sent was answered: a digest or a verdict cell set is
		// a false verdict.
		assert.Empty(t, dgs, "false verdicts with the copies on")
		for p := 0; p < 2; p++ {
			for _, fg := range []uint32{pipelinecases.F1ID, pipelinecases.F2ID} {
				_, set := sw.Dataplane().PipeVerdict(p, fg)
				assert.False(t, set, "pipe %d, filter group %d", p, fg)
			}
		}
		cs := sw.Dataplane().EvidenceCopies()
		assert.Equal(t, uint64(st.returned[pipelinecases.F1ID]+st.returned[pipelinecases.F2ID]), cs.DataReturns)
		assert.Equal(t, uint64(st.kaReturned), cs.KeepAliveReturns)
		assert.Equal(t, cs.DataReturns, cs.DataCopies+cs.DataSuppressed)
		assert.Equal(t, cs.KeepAliveReturns, cs.KeepAliveCopies)
		t.Logf("copies on, %v: %d data frames both ways, %d keep-alives, all returned; 0 false verdicts; data returns copied %d, suppressed %d (the same 16 µs slot); keep-alive returns copied %d",
			time.Since(start).Round(time.Millisecond), cs.DataReturns, cs.KeepAliveReturns, cs.DataCopies, cs.DataSuppressed, cs.KeepAliveCopies)

		// F1 dies.
		st.dead[pipelinecases.F1ID] = true
		died := time.Now()
		for len(dgs) == 0 {
			require.Less(t, time.Since(died), 20*pipesDetect, "F1's death never proven")
			st.data()
			if time.Since(st.lastKA) >= interval {
				st.keepAlives()
			}
			dgs = digests(t, c, 0)
		}
		took := time.Since(st.firstLost)
		assert.Equal(t, uint8(pipelinecases.F1ID), dgs[0].FilterGroup)
		_, set := sw.Dataplane().PipeVerdict(0, pipelinecases.F1ID)
		assert.True(t, set, "the links' pipe proved it (digest %+v)", dgs[0])
		assert.GreaterOrEqual(t, took, pipesDetect-time.Duration(1<<4)*time.Microsecond)
		assert.Less(t, took, 2*pipesDetect, "proven far later than detect")
		// From then on F1's share takes the failure action; F2 keeps its
		// traffic.
		toF1, byF1, toF2 := st.toFilter[pipelinecases.F1ID], st.bypassed[pipelinecases.F1ID], st.toFilter[pipelinecases.F2ID]
		for k := 0; k < 64; k++ {
			st.data()
		}
		assert.Equal(t, toF1, st.toFilter[pipelinecases.F1ID], "frames reached the dead F1 after the proof")
		assert.Greater(t, st.bypassed[pipelinecases.F1ID], byF1)
		assert.Greater(t, st.toFilter[pipelinecases.F2ID], toF2)
		assert.Zero(t, st.bypassed[pipelinecases.F2ID])
		// The proof was copied: the CPU port's pipe (1) takes the copy
		// with its next frame that touches the evidence (a keep-alive)
		// and holds the verdict of the same epoch.
		st.keepAlives()
		epoch0, _ := sw.Dataplane().PipeVerdict(0, pipelinecases.F1ID)
		epoch1, set1 := sw.Dataplane().PipeVerdict(1, pipelinecases.F1ID)
		assert.True(t, set1, "the proof copy reached pipe 1")
		assert.Equal(t, epoch0, epoch1)
		cs = sw.Dataplane().EvidenceCopies()
		assert.GreaterOrEqual(t, cs.ProofCopies, uint64(1))
		assert.GreaterOrEqual(t, cs.ProofsTaken, uint64(1))
		t.Logf("copies on: F1 dead, proven (reason %d) %v after its first unanswered send (detect %v); then %d of its frames bypassed, 0 to it; proof copies %d, taken %d",
			dgs[0].Reason, took.Round(time.Microsecond), pipesDetect, st.bypassed[pipelinecases.F1ID]-byF1, cs.ProofCopies, cs.ProofsTaken)
	})
}
