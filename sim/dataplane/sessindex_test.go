package dataplane

import (
	"math/rand"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"

	pc "github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/sessionmem"
	"github.com/dpi-balancer/balancer/symhash"
)

// The session index against a Go map under churn: inserts, replacements
// and deletes of keys drawn from a small space (long probe runs, wrapped
// ones too), every key looked up by its packet hash after each step.
func TestSessIndexChurn(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	x := &sessIndex{}
	ref := map[[2]uint64]*entry{}
	keys := make([][2]uint64, 300)
	for i := range keys {
		k := sessionmem.KeyOf(uint8(rng.Intn(3)), rng.Uint32()%64, rng.Uint32()%64, uint8(rng.Intn(2)*11+6))
		keys[i] = packKey(k)
	}
	for step := range 20000 {
		k := keys[rng.Intn(len(keys))]
		if rng.Intn(3) == 0 {
			x.del(k)
			delete(ref, k)
		} else {
			e := &entry{}
			x.put(k, e)
			ref[k] = e
		}
		require.Equal(t, len(ref), x.n, "step %d", step)
		if step%97 == 0 || step > 19900 {
			for _, k := range keys {
				require.Same(t, ref[k], x.get(k, keyHash(k)), "step %d: key %x", step, k)
			}
		}
	}
	x.clear()
	for _, k := range keys {
		require.Nil(t, x.get(k, keyHash(k)))
	}
}

// A packet's hash is its key's: the index finds by m.hash() what Write
// filed by the key.
func TestSessIndexPacketHash(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	for range 1000 {
		m := &meta{ipv4: true, v4src: rng.Uint32(), v4dst: rng.Uint32(), proto: 6}
		require.Equal(t, keyHash(packKey(m.sessionKey(3))), m.hash())
		m = &meta{ipv6: true, proto: 17}
		m.v6src.hi, m.v6src.lo, m.v6dst.hi, m.v6dst.lo = rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64()
		require.Equal(t, keyHash(packKey(m.sessionKey(1))), m.hash())
	}
}

// The digests of two sessions of one pending-cache slot: each once until
// acknowledged, again after its own ack only, and again after a reset
// (a pipeline push), whichever of them the cache holds.
func TestSessionDigestPendingCache(t *testing.T) {
	d, _, _ := sessionsDP(t, 0)
	// Two sessions whose hashes share a cache slot.
	a := netip.MustParseAddr("10.9.0.1")
	seen := map[uint32]netip.Addr{}
	var b1, b2 netip.Addr
	for i := 1; b1 == (netip.Addr{}); i++ {
		b := netip.AddrFrom4([4]byte{172, 20, byte(i >> 8), byte(i)})
		slot := symhash.Sum(a, b, 6) % seenSize
		if o, ok := seen[slot]; ok {
			b1, b2 = o, b
		}
		seen[slot] = b
	}
	send := func(b netip.Addr, n int) []sessionmem.Digest {
		for range n {
			d.Process(pc.L1LAN, tcpFrame(a, b), nil)
		}
		dgs, _ := d.SessionDigests()
		return dgs
	}
	got1 := send(b1, 3)
	require.Len(t, got1, 1, "one digest until acknowledged")
	got2 := send(b2, 3)
	require.Len(t, got2, 1, "the other session of the slot: one digest too")
	require.Empty(t, send(b1, 2), "still pending")
	require.Empty(t, send(b2, 2), "still pending")
	d.AckSessionDigests(got1)
	require.Equal(t, got1, send(b1, 2), "acknowledged: sent again, once")
	require.Empty(t, send(b2, 2), "the other one is still pending")
	d.AckSessionDigests(got2)
	require.Equal(t, got2, send(b2, 2), "acknowledged: sent again, once")
	d.sessQ.reset()
	require.Equal(t, got1, send(b1, 2), "after a reset: sent again")
	require.Equal(t, got2, send(b2, 2), "after a reset: sent again")
}
