package bmv2

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"slices"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sessionmem"
	"github.com/dpi-balancer/balancer/sim/dataplane"
)

// sessionFrames are frames of n sessions on L1, IPv4 and IPv6, TCP, UDP
// and ICMP, none matching a bypass rule of the site, some sent from the
// WAN side.
func sessionFrames(r *rand.Rand, n int) (frames [][]byte, in []uint32) {
	for range n {
		var l3 pipelinecases.L3
		if r.UintN(3) == 0 {
			var a, b [16]byte
			a[0], a[1], b[0], b[1] = 0x20, 0x01, 0x20, 0x01
			for i := 8; i < 16; i++ {
				a[i], b[i] = byte(r.UintN(256)), byte(r.UintN(256))
			}
			l3.Src, l3.Dst = netip.AddrFrom16(a), netip.AddrFrom16(b)
		} else {
			l3.Src = netip.AddrFrom4([4]byte{10, byte(r.UintN(4)), byte(r.UintN(256)), byte(r.UintN(256))})
			l3.Dst = netip.AddrFrom4([4]byte{172, 16, byte(r.UintN(256)), byte(r.UintN(256))})
		}
		l3.Proto = []layers.IPProtocol{layers.IPProtocolTCP, layers.IPProtocolUDP, layers.IPProtocolICMPv4}[r.UintN(3)]
		l3.SrcPort, l3.DstPort = uint16(1024+r.UintN(2000)), 443
		port := uint32(pipelinecases.L1LAN)
		if r.UintN(2) == 0 {
			port = pipelinecases.L1WAN
		}
		frames = append(frames, pipelinecases.Frame([]byte{0, 1, 2, 3, 4, 5}, []byte{0, 1, 2, 3, 4, 6}, pipelinecases.Encap{}, l3))
		in = append(in, port)
	}
	return frames, in
}

// TestSessionsDifferentialBMv2VsSim runs the sessions profile's BMv2
// build and the software switch's data plane side by side: the same
// frames of unlearned sessions, then with half of them held on the
// other filter group and another core, must leave by the same port with
// the same bytes, and give the same session digests (the slot's filter
// group and core, none for a held session). An entry with an idle
// timeout is notified idle, and again while it stays idle: what the
// software switch models (dataplane.IdleRepeat).
func TestSessionsDifferentialBMv2VsSim(t *testing.T) {
	schema, err := p4src.LoadSessions()
	require.NoError(t, err)
	tg := startBMv2With(t, schema, p4src.SessionsBMv2JSON)
	dp := simWithCases(t, schema)
	tbl, err := sessionmem.Resolve(schema)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	require.NoError(t, tg.client.Write(ctx, []*p4v1.Update{{Type: p4v1.Update_INSERT, Entity: &p4v1.Entity{Entity: &p4v1.Entity_DigestEntry{
		DigestEntry: &p4v1.DigestEntry{DigestId: tbl.DigestID, Config: &p4v1.DigestEntry_Config{MaxListSize: 1, AckTimeoutNs: int64(time.Second)}}}}}}, 1))

	n := 120
	if testing.Short() {
		n = 40
	}
	frames, in := sessionFrames(rand.New(rand.NewPCG(5, 9)), n)
	ports := pipelinecases.Ports
	buf := make([]byte, 16384)
	// round sends every frame to both and compares what leaves, then the
	// digests each sent (acknowledged, as a controller does).
	simOut := make([]uint32, len(frames)) // the port the software switch sent each frame to in the last round
	round := func(name string) (bmv2Dgs, simDgs []sessionmem.Digest) {
		agree := 0
		for i, f := range frames {
			want := dp.Process(in[i], f, buf)
			simOut[i] = want.Port
			wantFrame := bytes.Clone(want.Frame)
			require.NoError(t, tg.Send(in[i], f))
			got := "same"
			if want.Kind == dataplane.Forward {
				b, err := tg.Recv(want.Port, time.Second)
				if err != nil || !bytes.Equal(b, wantFrame) {
					got = fmt.Sprintf("port %d: got %x (err %v)", want.Port, b, err)
				}
			}
			quiet := time.Now().Add(20 * time.Millisecond)
			for _, p := range ports {
				if b, err := tg.Recv(p, max(time.Until(quiet), time.Millisecond)); err == nil {
					got = fmt.Sprintf("extra frame on port %d: %x", p, b)
				}
			}
			if got != "same" {
				t.Errorf("%s: frame %d into port %d: sim says %v port %d; bmv2: %s", name, i, in[i], want.Kind, want.Port, got)
				continue
			}
			agree++
		}
		simDgs, _ = dp.SessionDigests()
		dp.AckSessionDigests(simDgs)
		for deadline := time.Now().Add(3 * time.Second); len(bmv2Dgs) < len(simDgs) && time.Now().Before(deadline); {
			l, err := tg.client.DigestList(time.Until(deadline))
			if err != nil {
				break
			}
			for _, item := range l.GetData() {
				d, err := sessionmem.DecodeDigest(item)
				require.NoError(t, err)
				bmv2Dgs = append(bmv2Dgs, d)
			}
		}
		// Nothing more from BMv2.
		if l, err := tg.client.DigestList(300 * time.Millisecond); err == nil {
			t.Errorf("%s: BMv2 sent more digests than the software switch: %v", name, l)
		}
		t.Logf("%s: %d of %d frames agree; digests: bmv2 %d, software switch %d", name, agree, len(frames), len(bmv2Dgs), len(simDgs))
		return bmv2Dgs, simDgs
	}
	sortD := func(ds []sessionmem.Digest) []sessionmem.Digest {
		slices.SortFunc(ds, func(a, b sessionmem.Digest) int { return cmpKey(a.Key, b.Key) })
		return slices.Compact(ds)
	}
	b1, s1 := round("unlearned")
	require.NotEmpty(t, s1)
	assert.Equal(t, sortD(s1), sortD(b1), "the same session digests")

	// Half the sessions held: on the other filter group, core 1.
	var hold []*p4v1.Update
	held := map[sessionmem.Key]bool{}
	for i, d := range sortD(s1) {
		if i%2 == 1 {
			continue
		}
		other := uint8(pipelinecases.F1ID)
		if d.FilterGroup == pipelinecases.F1ID {
			other = pipelinecases.F2ID
		}
		held[d.Key] = true
		hold = append(hold, &p4v1.Update{Type: p4v1.Update_INSERT, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{
			TableEntry: tbl.Entry(d.Key, other, 1, 0)}}})
	}
	for i, err := range dp.Write(hold, p4v1.WriteRequest_CONTINUE_ON_ERROR) {
		require.NoError(t, err, "update %d", i)
	}
	require.NoError(t, tg.client.Write(ctx, hold, 500))
	b2, s2 := round("half held")
	assert.Equal(t, sortD(s2), sortD(b2), "the same session digests")
	for _, d := range s2 {
		assert.False(t, held[d.Key], "a held session sends no digest: %v", d.Key)
	}
	assert.Len(t, sortD(s2), len(sortD(s1))-len(held))

	// The held sessions kept in software bypass (return: new-sessions):
	// their entries point at an id no filter group has (the daemon's
	// sessions.bypass_id, 63), whose filter_groups lookup misses and takes
	// the table's default, the software bypass, on BMv2 as on the
	// software switch: to the link's peer port, uninspected.
	halfHeld := slices.Clone(simOut)
	var keep []*p4v1.Update
	for _, u := range hold {
		h, err := tbl.Decode(u.GetEntity().GetTableEntry())
		require.NoError(t, err)
		keep = append(keep, &p4v1.Update{Type: p4v1.Update_MODIFY, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{
			TableEntry: tbl.Entry(h.Key, 63, h.Core, 0)}}})
	}
	for i, err := range dp.Write(keep, p4v1.WriteRequest_CONTINUE_ON_ERROR) {
		require.NoError(t, err, "update %d", i)
	}
	require.NoError(t, tg.client.Write(ctx, keep, 500))
	b3, s3 := round("kept in bypass")
	assert.Equal(t, sortD(s3), sortD(b3), "the same session digests")
	assert.Len(t, sortD(s3), len(sortD(s1))-len(held), "a kept session sends no digest")
	bypassed := 0
	for i := range frames {
		if simOut[i] == halfHeld[i] {
			continue
		}
		peer := uint32(pipelinecases.L1WAN)
		if in[i] == pipelinecases.L1WAN {
			peer = pipelinecases.L1LAN
		}
		assert.Equal(t, peer, simOut[i], "frame %d: a kept session's frame goes to the peer port, not to a filter", i)
		bypassed++
	}
	assert.Greater(t, bypassed, len(frames)/4, "the held half's frames are bypassed")
	t.Logf("kept in bypass: %d of %d frames (the held sessions') bypassed to the peer port, on both targets alike", bypassed, len(frames))

	// Idle timeout: BMv2 notifies an entry unhit for its timeout.
	k := sessionmem.Key{Lo: 0x01020304, Hi: 0x05060708, Proto: 6}
	require.NoError(t, tg.client.Write(ctx, []*p4v1.Update{{Type: p4v1.Update_INSERT, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{
		TableEntry: tbl.Entry(k, 0, 0, 500*time.Millisecond)}}}}, 1))
	start := time.Now()
	note, err := tg.client.IdleNotification(10 * time.Second)
	require.NoError(t, err, "BMv2 notifies the idle entry")
	require.NotEmpty(t, note.GetTableEntry())
	h, err := tbl.Decode(note.GetTableEntry()[0])
	require.NoError(t, err)
	assert.Equal(t, k, h.Key)
	t.Logf("BMv2: idle notification %v after the insert (timeout 500ms); entry %+v", time.Since(start).Round(time.Millisecond), note.GetTableEntry()[0])
	var again []time.Duration
	for end := time.Now().Add(4 * time.Second); time.Now().Before(end); {
		if _, err := tg.client.IdleNotification(time.Until(end)); err == nil {
			again = append(again, time.Since(start).Round(10*time.Millisecond))
		}
	}
	t.Logf("BMv2: notified again at %v", again)
	assert.NotEmpty(t, again, "BMv2 notifies an entry again while it stays idle (the software switch every dataplane.IdleRepeat)")
}

func cmpKey(a, b sessionmem.Key) int {
	switch {
	case a.BalanceGroup != b.BalanceGroup:
		return int(a.BalanceGroup) - int(b.BalanceGroup)
	case a.Lo != b.Lo:
		if a.Lo < b.Lo {
			return -1
		}
		return 1
	case a.Hi != b.Hi:
		if a.Hi < b.Hi {
			return -1
		}
		return 1
	}
	return int(a.Proto) - int(b.Proto)
}
