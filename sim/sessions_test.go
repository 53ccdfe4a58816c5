package sim

import (
	"context"
	"net/netip"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/p4rttest"
	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sessionmem"
	"github.com/dpi-balancer/balancer/sim/dataplane"
	"github.com/dpi-balancer/balancer/tables"
)

// programWith pushes a program to the switch and writes the pipeline
// cases' site into it.
func programWith(t *testing.T, addr string, schema *p4src.Schema) *p4rttest.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := p4rttest.Dial(ctx, addr, 1, schema)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	require.NoError(t, c.SetPipeline(ctx, schema.Info, nil))
	cfg, err := pipelinecases.Config()
	require.NoError(t, err)
	comp, err := tables.New(schema)
	require.NoError(t, err)
	des, err := comp.Compile(cfg, tables.State{})
	require.NoError(t, err)
	for _, b := range comp.Diff(des.Entities, nil).Batches {
		require.NoError(t, c.Write(ctx, b.Updates, 500), b.Name)
	}
	return c
}

func sessionFrame(src, dst netip.Addr, proto uint8) []byte {
	return pipelinecases.Frame([]byte{0, 1, 2, 3, 4, 5}, []byte{0, 1, 2, 3, 4, 6}, pipelinecases.Encap{},
		pipelinecases.L3{Src: src, Dst: dst, Proto: layers.IPProtocol(proto), SrcPort: 40000, DstPort: 443})
}

// lanPort is the LAN port of a filter group of the site.
func lanPort(fg uint32) uint32 {
	if fg == pipelinecases.F2ID {
		return pipelinecases.F2LAN
	}
	return pipelinecases.F1LAN
}

// The software switch with its default programs takes the sessions
// profile when a controller pushes it: session digests over P4Runtime
// (configured by a DigestEntry, in lists, deduplicated until
// acknowledged), held sessions forwarded by their entries, idle
// notifications on the stream for entries unhit for their timeout (and
// again while they stay idle); and
// the base program again after it, without the table.
func TestSwitchSessionMemory(t *testing.T) {
	sw, addr, peers := startMemSwitch(t, pipelinecases.Ports)
	sess, err := p4src.LoadSessions()
	require.NoError(t, err)
	c := programWith(t, addr, sess)
	require.NotZero(t, sw.Dataplane().SessionDigestID(), "the switch runs the sessions profile")
	tbl, err := sessionmem.Resolve(sess)
	require.NoError(t, err)
	ctx := context.Background()
	require.NoError(t, c.Write(ctx, []*p4v1.Update{{Type: p4v1.Update_INSERT, Entity: &p4v1.Entity{Entity: &p4v1.Entity_DigestEntry{
		DigestEntry: &p4v1.DigestEntry{DigestId: tbl.DigestID, Config: &p4v1.DigestEntry_Config{MaxListSize: 16, AckTimeoutNs: int64(time.Second)}}}}}}, 1))

	cfg, err := pipelinecases.Config()
	require.NoError(t, err)
	bg := uint8(*cfg.BalanceGroups[0].ID)
	const n = 40
	type sess1 struct {
		a, b    netip.Addr
		key     sessionmem.Key
		fg, cor uint32
	}
	var all []sess1
	byKey := map[sessionmem.Key]int{}
	for i := range n {
		a := netip.AddrFrom4([4]byte{10, 9, byte(i), 1})
		b := netip.AddrFrom4([4]byte{10, 8, 0, byte(i + 1)})
		fg, core := pipelinecases.Placement(cfg, a, b, 6)
		s := sess1{a: a, b: b, key: sessionmem.AddrKey(bg, a, b, 6), fg: fg, cor: core}
		byKey[s.key] = len(all)
		all = append(all, s)
	}
	send := func(s sess1) uint32 {
		t.Helper()
		require.NoError(t, peers[pipelinecases.L1LAN].Send(sessionFrame(s.a, s.b, 6)))
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
			for _, p := range []uint32{pipelinecases.F1LAN, pipelinecases.F2LAN} {
				if _, err := peers[p].Recv(time.Millisecond); err == nil {
					return p
				}
			}
		}
		t.Fatalf("session %v: no frame at a filter", s.key)
		return 0
	}
	for _, s := range all {
		assert.Equal(t, lanPort(s.fg), send(s), "unlearned: by its slot")
	}
	got := map[sessionmem.Key]sessionmem.Digest{}
	lists := 0
	for len(got) < n {
		l, err := c.DigestList(10 * time.Second)
		require.NoError(t, err, "digests of %d of %d sessions", len(got), n)
		if l.GetDigestId() != tbl.DigestID {
			continue
		}
		lists++
		assert.LessOrEqual(t, len(l.GetData()), 16, "max_list_size")
		for _, item := range l.GetData() {
			d, err := sessionmem.DecodeDigest(item)
			require.NoError(t, err)
			i, ok := byKey[d.Key]
			require.True(t, ok, "a digest of a session sent: %v", d.Key)
			assert.NotContains(t, got, d.Key, "a session digested twice before its ack was taken")
			assert.Equal(t, all[i].fg, uint32(d.FilterGroup))
			assert.Equal(t, all[i].cor, uint32(d.Core))
			got[d.Key] = d
		}
	}
	t.Logf("%d session digests in %d lists", n, lists)

	// Learned on the other filter group, with a short idle timeout.
	var ups []*p4v1.Update
	for _, s := range all {
		other := uint8(pipelinecases.F1ID)
		if s.fg == pipelinecases.F1ID {
			other = pipelinecases.F2ID
		}
		ups = append(ups, &p4v1.Update{Type: p4v1.Update_INSERT, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{
			TableEntry: tbl.Entry(s.key, other, 1, 400*time.Millisecond)}}})
	}
	require.NoError(t, c.Write(ctx, ups, 500))
	for _, s := range all {
		assert.NotEqual(t, lanPort(s.fg), send(s), "held: by its entry")
	}
	back, err := c.Read(ctx, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: tbl.ID}}})
	require.NoError(t, err)
	assert.Len(t, back, n, "read back")
	for _, e := range back {
		h, err := tbl.Decode(e.GetTableEntry())
		require.NoError(t, err)
		assert.Equal(t, 400*time.Millisecond, h.Idle)
	}

	idle := map[sessionmem.Key]bool{}
	for len(idle) < n {
		note, err := c.IdleNotification(10 * time.Second)
		require.NoError(t, err, "idle notifications for %d of %d entries", len(idle), n)
		for _, te := range note.GetTableEntry() {
			h, err := tbl.Decode(te)
			require.NoError(t, err)
			idle[h.Key] = true
		}
	}
	// Still idle: notified again (as BMv2 does, every IdleRepeat).
	note, err := c.IdleNotification(dataplane.IdleRepeat + 5*time.Second)
	require.NoError(t, err, "an idle entry is notified again")
	assert.NotEmpty(t, note.GetTableEntry())

	// The base program: the session memory is gone with it.
	base, err := p4src.Load()
	require.NoError(t, err)
	require.NoError(t, c.SetPipeline(ctx, base.Info, nil))
	assert.Zero(t, sw.Dataplane().SessionDigestID())
	err = c.Write(ctx, ups[:1], 1)
	require.Error(t, err, "no sessions table in the base program")
}
