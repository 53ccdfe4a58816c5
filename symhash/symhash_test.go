package symhash

import (
	"encoding/hex"
	"math/rand/v2"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Known answers computed independently (Python zlib.crc32 over the packed
// bytes); docs/dataplane.md shows the first one worked by hand. The BMv2
// packet tests check the same vectors against the compiled P4 program.
var vectors = []struct {
	name     string
	src, dst string
	proto    uint8
	input    string
	crc      uint32
	slot12   uint32
	slot16   uint32
}{
	{"ipv4 tcp", "10.0.0.1", "10.0.0.2", 6, "0a0000010a00000206", 0x299e9283, 643, 37507},
	{"ipv4 udp reversed order", "192.168.1.1", "8.8.8.8", 17, "08080808c0a8010111", 0x422bc3bc, 956, 50108},
	{"all zero", "0.0.0.0", "0.0.0.0", 0, "000000000000000000", 0xe60914ae, 1198, 5294},
	{"ipv6 tcp", "2001:db8::1", "2001:db8::2", 6, "20010db920010dba06", 0x72ac8ddb, 3547, 36315},
	{"ipv6 icmpv6", "2001:db8:1:2:3:4:5:6", "fe80::1", 58, "20060db8fe8000013a", 0xf093dfa6, 4006, 57254},
}

func TestKnownAnswers(t *testing.T) {
	for _, v := range vectors {
		t.Run(v.name, func(t *testing.T) {
			src, dst := netip.MustParseAddr(v.src), netip.MustParseAddr(v.dst)
			in := Input(src, dst, v.proto)
			assert.Equal(t, v.input, hex.EncodeToString(in[:]))
			h := Sum(src, dst, v.proto)
			assert.Equal(t, v.crc, h)
			assert.Equal(t, v.slot12, Slot(h, 12))
			assert.Equal(t, v.slot16, Slot(h, 16))
			assert.Equal(t, h, Sum(dst, src, v.proto), "symmetry")
		})
	}
}

func TestCRCIsISOHDLC(t *testing.T) {
	// The CRC catalogue's check value for CRC-32/ISO-HDLC.
	assert.Equal(t, uint32(0xCBF43926), crcOf([]byte("123456789")))
}

func TestFold(t *testing.T) {
	tests := []struct {
		name string
		addr string
		want uint32
	}{
		{"ipv4", "1.2.3.4", 0x01020304},
		{"ipv6", "0001:0002:0003:0004:0005:0006:0007:0008", 0x00010002 ^ 0x00030004 ^ 0x00050006 ^ 0x00070008},
		{"ipv4-mapped is ipv6", "::ffff:1.2.3.4", 0x0000ffff ^ 0x01020304},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Fold(netip.MustParseAddr(tt.addr)))
		})
	}
	assert.Equal(t, uint32(0), Fold(netip.Addr{}))
}

func TestSymmetryRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 10000; i++ {
		x, y, p := r.Uint32(), r.Uint32(), uint8(r.UintN(256))
		require.Equal(t, Folded(x, y, p), Folded(y, x, p))
	}
}

// The protocol takes part: the same pair with TCP and UDP hash apart.
func TestProtoMatters(t *testing.T) {
	a, b := netip.MustParseAddr("10.1.1.1"), netip.MustParseAddr("10.2.2.2")
	assert.NotEqual(t, Sum(a, b, 6), Sum(a, b, 17))
}

func BenchmarkFolded(b *testing.B) {
	b.ReportAllocs()
	var s uint32
	for i := 0; i < b.N; i++ {
		s += Folded(uint32(i), 0x0a000001, 6)
	}
	_ = s
}

func BenchmarkSumIPv6(b *testing.B) {
	src, dst := netip.MustParseAddr("2001:db8::1"), netip.MustParseAddr("2001:db8::2")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = Sum(src, dst, 6)
	}
}

// Folded's hand-rolled CRC equals the standard library's on the same bytes.
func TestFoldedMatchesStdlib(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 10000; i++ {
		x, y, p := r.Uint32(), r.Uint32(), uint8(r.UintN(256))
		lo, hi := min(x, y), max(x, y)
		b := []byte{byte(lo >> 24), byte(lo >> 16), byte(lo >> 8), byte(lo), byte(hi >> 24), byte(hi >> 16), byte(hi >> 8), byte(hi), p}
		require.Equal(t, crcOf(b), Folded(x, y, p))
	}
}
