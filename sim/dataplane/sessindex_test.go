package dataplane

import (
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/sessionmem"
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
