package dataplane

import (
	"net/netip"
	"sync/atomic"
	"testing"
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sessionmem"
	"github.com/dpi-balancer/balancer/tables"
)

// sessionsSchema is the sessions profile's P4Info, its sessions table of
// size n (0: as built).
func sessionsSchema(tb testing.TB, n int64) *p4src.Schema {
	tb.Helper()
	s, err := p4src.LoadSessions()
	require.NoError(tb, err)
	if n == 0 {
		return s
	}
	info := proto.Clone(s.Info).(*p4configv1.P4Info)
	for _, t := range info.GetTables() {
		if t.GetPreamble().GetName() == p4src.TableSessions {
			t.Size = n
		}
	}
	s, err = p4src.NewSchema(info)
	require.NoError(tb, err)
	return s
}

// sessionsDP is a data plane of the sessions profile programmed with the
// pipeline cases' site, on a clock the test moves.
func sessionsDP(tb testing.TB, size int64) (*Dataplane, *sessionmem.Table, *atomic.Uint64) {
	tb.Helper()
	s := sessionsSchema(tb, size)
	clock := &atomic.Uint64{}
	clock.Store(1_000_000_000)
	d, err := New(s, WithClock(clock.Load))
	require.NoError(tb, err)
	comp, err := tables.New(s)
	require.NoError(tb, err)
	desired, err := comp.Compile(siteConfig(tb), tables.State{})
	require.NoError(tb, err)
	for _, b := range comp.Diff(desired.Entities, nil).Batches {
		for i, err := range d.Write(b.Updates, p4v1.WriteRequest_CONTINUE_ON_ERROR) {
			require.NoError(tb, err, "batch %q update %d", b.Name, i)
		}
	}
	st, err := sessionmem.Resolve(s)
	require.NoError(tb, err)
	require.Equal(tb, st.DigestID, d.SessionDigestID())
	return d, st, clock
}

func tcpFrame(src, dst netip.Addr) []byte {
	return pipelinecases.Frame([]byte{0, 1, 2, 3, 4, 5}, []byte{0, 1, 2, 3, 4, 6}, pipelinecases.Encap{},
		pipelinecases.L3{Src: src, Dst: dst, Proto: 6, SrcPort: 40000, DstPort: 443})
}

func writeOne(tb testing.TB, d *Dataplane, typ p4v1.Update_Type, te *p4v1.TableEntry) error {
	tb.Helper()
	return d.Write([]*p4v1.Update{{Type: typ, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: te}}}},
		p4v1.WriteRequest_CONTINUE_ON_ERROR)[0]
}

// The session memory on the software switch, as the P4 program has it: a
// miss whose slot hits sends one digest (with the slot's filter group and
// core) until acknowledged, both directions of the session alike; a held
// session goes where its entry says whatever its slot says, and sends no
// digest.
func TestSessionLearnAndKeep(t *testing.T) {
	d, st, _ := sessionsDP(t, 0)
	cfg := siteConfig(t)
	a, b := netip.MustParseAddr("10.1.0.1"), netip.MustParseAddr("10.2.0.9")
	fg, core := pipelinecases.Placement(cfg, a, b, 6)
	key := sessionmem.AddrKey(uint8(*cfg.BalanceGroups[0].ID), a, b, 6)

	fwd := d.Process(pipelinecases.L1LAN, tcpFrame(a, b), nil)
	require.Equal(t, Forward, fwd.Kind)
	dgs, _ := d.SessionDigests()
	want := sessionmem.Digest{Key: key, FilterGroup: uint8(fg), Core: uint16(core)}
	require.Equal(t, []sessionmem.Digest{want}, dgs, "the first frame of a session the table lacks: one digest")

	// The reverse direction is the same session: no second digest until
	// the first is acknowledged.
	d.Process(pipelinecases.L1WAN, tcpFrame(b, a), nil)
	dgs, _ = d.SessionDigests()
	assert.Empty(t, dgs, "a digest not acknowledged is not sent again")
	d.AckSessionDigests([]sessionmem.Digest{want})
	d.Process(pipelinecases.L1WAN, tcpFrame(b, a), nil)
	dgs, _ = d.SessionDigests()
	assert.Equal(t, []sessionmem.Digest{want}, dgs, "acknowledged and still unlearned: sent again")
	d.AckSessionDigests(dgs)

	// Held on the other filter group, core 1: the entry wins over the slot.
	other := uint8(pipelinecases.F1ID)
	if fg == pipelinecases.F1ID {
		other = pipelinecases.F2ID
	}
	require.NoError(t, writeOne(t, d, p4v1.Update_INSERT, st.Entry(key, other, 1, time.Minute)))
	r, hits := d.Explain(pipelinecases.L1LAN, tcpFrame(a, b))
	require.Equal(t, Forward, r.Kind)
	wantPort := uint32(pipelinecases.F1LAN)
	if other == pipelinecases.F2ID {
		wantPort = pipelinecases.F2LAN
	}
	assert.Equal(t, wantPort, r.Port, "the held session goes to its entry's filter group")
	var tablesHit []string
	for _, h := range hits {
		tablesHit = append(tablesHit, h.Table)
		if h.Table == p4src.TableSessions {
			assert.True(t, h.Matched)
			assert.Equal(t, sessionmem.ActionKeep, h.Action)
		}
	}
	assert.Contains(t, tablesHit, p4src.TableSessions)
	assert.NotContains(t, tablesHit, p4src.TableSlots, "a held session skips the slot")
	dgs, _ = d.SessionDigests()
	assert.Empty(t, dgs, "a held session sends no digest")
	ss := d.SessionStats()
	assert.Equal(t, 1, ss.Held)
	assert.Equal(t, 65536, ss.Size)
}

// Idle timeout as BMv2's: an entry unhit for its idle_timeout_ns is
// reported, and again every IdleRepeat while it stays idle; a hit
// restarts it; an entry without a timeout never ages; a MODIFY restarts
// it.
func TestSessionIdleTimeout(t *testing.T) {
	d, st, clock := sessionsDP(t, 0)
	cfg := siteConfig(t)
	bg := uint8(*cfg.BalanceGroups[0].ID)
	a, b, c := netip.MustParseAddr("10.1.0.1"), netip.MustParseAddr("10.2.0.9"), netip.MustParseAddr("10.3.0.3")
	k1, k2 := sessionmem.AddrKey(bg, a, b, 6), sessionmem.AddrKey(bg, a, c, 6)
	require.NoError(t, writeOne(t, d, p4v1.Update_INSERT, st.Entry(k1, 0, 0, time.Second)))
	require.NoError(t, writeOne(t, d, p4v1.Update_INSERT, st.Entry(k2, 0, 0, 0)))
	step := func(dt time.Duration) { clock.Add(uint64(dt)) }
	timeout := time.Second
	idleKeys := func() []sessionmem.Key {
		var out []sessionmem.Key
		for _, te := range d.IdleEntries() {
			h, err := st.Decode(te)
			require.NoError(t, err)
			assert.Equal(t, timeout, h.Idle, "the notification carries the entry's idle timeout")
			out = append(out, h.Key)
		}
		return out
	}
	step(999 * time.Millisecond)
	assert.Empty(t, idleKeys(), "not idle yet")
	step(time.Millisecond)
	assert.Equal(t, []sessionmem.Key{k1}, idleKeys(), "idle for its timeout: reported")
	step(IdleRepeat - time.Millisecond)
	assert.Empty(t, idleKeys(), "not again before IdleRepeat")
	step(time.Millisecond)
	assert.Equal(t, []sessionmem.Key{k1}, idleKeys(), "again after IdleRepeat while idle")
	d.Process(pipelinecases.L1LAN, tcpFrame(b, a), nil)
	step(999 * time.Millisecond)
	assert.Empty(t, idleKeys(), "a hit restarts it")
	step(time.Millisecond)
	assert.Equal(t, []sessionmem.Key{k1}, idleKeys(), "idle again")
	timeout = 2 * time.Second
	require.NoError(t, writeOne(t, d, p4v1.Update_MODIFY, st.Entry(k1, 0, 0, timeout)))
	step(1999 * time.Millisecond)
	assert.Empty(t, idleKeys(), "a MODIFY restarts it with its new timeout")
	step(time.Millisecond)
	assert.Equal(t, []sessionmem.Key{k1}, idleKeys())

	// time_since_last_hit on read.
	var got *p4v1.TableEntry
	q := st.KeyEntry(k1)
	q.TimeSinceLastHit = &p4v1.TableEntry_IdleTimeout{}
	require.NoError(t, d.Read([]*p4v1.Entity{{Entity: &p4v1.Entity_TableEntry{TableEntry: q}}}, func(e *p4v1.Entity) bool {
		got = e.GetTableEntry()
		return true
	}))
	require.NotNil(t, got)
	assert.Equal(t, int64(2*time.Second), got.GetTimeSinceLastHit().GetElapsedNs())
	assert.Equal(t, int64(2*time.Second), got.GetIdleTimeoutNs())
}

// The table holds its P4Info size: one more insert is RESOURCE_EXHAUSTED
// (as PI answers BMv2's full table), and a frame of the session that
// could not be learned goes by its slot, digest and all.
func TestSessionTableFull(t *testing.T) {
	d, st, _ := sessionsDP(t, 4)
	for i := range 4 {
		require.NoError(t, writeOne(t, d, p4v1.Update_INSERT, st.Entry(sessionmem.Key{Lo: uint32(i), Hi: 100, Proto: 6}, 0, 0, time.Minute)))
	}
	err := writeOne(t, d, p4v1.Update_INSERT, st.Entry(sessionmem.Key{Lo: 9, Hi: 100, Proto: 6}, 0, 0, time.Minute))
	require.ErrorIs(t, err, ErrResourceExhausted)
	assert.Equal(t, 4, d.SessionStats().Held)
	a, b := netip.MustParseAddr("10.1.0.1"), netip.MustParseAddr("10.2.0.9")
	require.Equal(t, Forward, d.Process(pipelinecases.L1LAN, tcpFrame(a, b), nil).Kind)
	dgs, _ := d.SessionDigests()
	assert.Len(t, dgs, 1)
}

// The base program has no session memory: no digests, and its P4Info
// knows no such table.
func TestNoSessionsInBaseProgram(t *testing.T) {
	d := siteDP(t)
	assert.Zero(t, d.SessionDigestID())
	assert.False(t, d.SessionStats().On)
	d.Process(pipelinecases.L1LAN, tcpFrame(netip.MustParseAddr("10.1.0.1"), netip.MustParseAddr("10.2.0.9")), nil)
	dgs, ch := d.SessionDigests()
	assert.Empty(t, dgs)
	assert.Nil(t, ch)
}

// One digest per frame, the verdict's first: a new session whose frame
// proves (or meets) a data-plane verdict sends the verdict digest, not a
// session digest, as the P4 program's ARCH_INGRESS_FINISH does.
func TestSessionDigestYieldsToVerdict(t *testing.T) {
	s := sessionsSchema(t, 0)
	clock := &atomic.Uint64{}
	clock.Store(1_000_000_000)
	d, err := New(s, WithClock(clock.Load))
	require.NoError(t, err)
	require.True(t, d.VerdictOn())
	cfg, err := pipelinecases.VerdictConfig(false)
	require.NoError(t, err)
	comp, err := tables.New(s)
	require.NoError(t, err)
	desired, err := comp.Compile(cfg, tables.State{})
	require.NoError(t, err)
	for _, b := range comp.Diff(desired.Entities, nil).Batches {
		for i, err := range d.Write(b.Updates, p4v1.WriteRequest_CONTINUE_ON_ERROR) {
			require.NoError(t, err, "batch %q update %d", b.Name, i)
		}
	}
	sends, _ := pipelinecases.F1Traffic(cfg, 32)
	// Unanswered data of many buckets, sent well within the detection
	// time of each other, until the pipeline proves the loss.
	proven := false
	toF1 := map[int]bool{}
	for i := 0; i < 1000 && !proven; i++ {
		r := d.Process(pipelinecases.L1LAN, sends[i%16], nil)
		proven = r.Port == pipelinecases.L1WAN
		if r.Port == pipelinecases.F1LAN {
			toF1[i%16] = true
		}
		clock.Add(uint64(pipelinecases.VerdictDetect / 10))
	}
	require.True(t, proven, "the pipeline proved F1's loss")
	dgs, _ := d.SessionDigests()
	require.Len(t, dgs, len(toF1), "the sessions balanced to F1 before: learned (once each, not acknowledged); the proving frame's session not")
	d.VerdictDigests()
	for i, f := range sends[16:20] {
		r := d.Process(pipelinecases.L1LAN, f, nil)
		assert.Equal(t, uint32(pipelinecases.L1WAN), r.Port, "frame %d: the verdict's failure action (bypass)", i)
	}
	vds, _ := d.VerdictDigests()
	assert.NotEmpty(t, vds, "the verdict digest")
	dgs, _ = d.SessionDigests()
	assert.Empty(t, dgs, "no session digest from a frame that sends the verdict's")
}
