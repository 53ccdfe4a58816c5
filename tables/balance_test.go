package tables

import (
	"math/rand/v2"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/symhash"
)

// maxOverMean is the most loaded bin's load over the mean load.
func maxOverMean(counts map[Target]int, n int) float64 {
	m := 0
	for _, c := range counts {
		m = max(m, c)
	}
	return float64(m) / (float64(n) / float64(len(counts)))
}

// balanceRatios sends 1M random IPv4 sessions through the hash and a
// layout, and through ideal random placement on the same cores.
func balanceRatios(t testing.TB, bits uint, cores ...uint32) (ours, ideal float64) {
	l, err := BaseLayout(0, bits, members(cores...))
	require.NoError(t, err)
	var seq []Target
	for tg := range l.Share() {
		seq = append(seq, tg)
	}
	r := rand.New(rand.NewPCG(1, 1))
	const flows = 1_000_000
	got, rnd := map[Target]int{}, map[Target]int{}
	for i := 0; i < flows; i++ {
		src := netip.AddrFrom4([4]byte{byte(r.UintN(256)), byte(r.UintN(256)), byte(r.UintN(256)), byte(r.UintN(256))})
		dst := netip.AddrFrom4([4]byte{byte(r.UintN(256)), byte(r.UintN(256)), byte(r.UintN(256)), byte(r.UintN(256))})
		proto := []uint8{6, 17}[r.UintN(2)]
		got[l.Slots[symhash.Slot(symhash.Sum(src, dst, proto), bits)]]++
		rnd[seq[r.UintN(uint(len(seq)))]]++
	}
	return maxOverMean(got, flows), maxOverMean(rnd, flows)
}

// The symmetric hash and the slot layout spread 1M sessions over 3 filters
// x 31 cores within 1.05x of ideal random placement (max/mean load), with
// 4096 slots (the example site) and with 65536.
func TestBalanceVersusIdealRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("1M flows")
	}
	for _, bits := range []uint{12, 16} {
		ours, ideal := balanceRatios(t, bits, 31, 31, 31)
		t.Logf("slot bits %d: max/mean load %.4f (ideal random %.4f, ratio %.4f)", bits, ours, ideal, ours/ideal)
		assert.LessOrEqual(t, ours/ideal, 1.05)
	}
}
