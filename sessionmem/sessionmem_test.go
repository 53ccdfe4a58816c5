package sessionmem

import (
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/symhash"
)

// The key is the symmetric hash's ordered pair: both directions of a
// session, IPv4 or IPv6 (folded), give one key, and its hash is the
// session's.
func TestKeyIsTheHashPair(t *testing.T) {
	for _, tt := range []struct{ a, b string }{
		{"10.0.0.1", "10.0.0.2"}, {"10.0.0.2", "10.0.0.1"}, {"192.0.2.9", "192.0.2.9"},
		{"2001:db8::1", "2001:db8:ffff::2"}, {"2001:db8:ffff::2", "2001:db8::1"},
	} {
		a, b := netip.MustParseAddr(tt.a), netip.MustParseAddr(tt.b)
		k, r := AddrKey(3, a, b, 6), AddrKey(3, b, a, 6)
		assert.Equal(t, k, r, "%s %s: both directions", tt.a, tt.b)
		assert.LessOrEqual(t, k.Lo, k.Hi)
		assert.Equal(t, symhash.Sum(a, b, 6), k.Hash())
		assert.Equal(t, uint8(3), k.BalanceGroup)
	}
}

func TestDigestRoundTrip(t *testing.T) {
	for _, d := range []Digest{
		{},
		{Key: Key{BalanceGroup: 15, Lo: 0xffffffff, Hi: 0xffffffff, Proto: 255}, FilterGroup: 63, Core: 1023},
		{Key: Key{BalanceGroup: 1, Lo: 0x0a000001, Hi: 0x0a000002, Proto: 17}, FilterGroup: 2, Core: 300},
	} {
		got, err := DecodeDigest(d.Data())
		require.NoError(t, err)
		assert.Equal(t, d, got)
	}
	bad := Digest{FilterGroup: 63}.Data()
	bad.GetStruct().GetMembers()[4].Data = nil
	_, err := DecodeDigest(bad)
	assert.Error(t, err)
	wide := Digest{}.Data()
	wide.GetStruct().GetMembers()[3].GetBitstring()[0] = 16 // balance group: 4 bits
	_, err = DecodeDigest(wide)
	assert.ErrorContains(t, err, "does not fit 4 bits")
}

// The digest's members are those of the P4Info's session_digest_t, in
// order and width.
func TestDigestMatchesP4Info(t *testing.T) {
	s, err := p4src.LoadSessions()
	require.NoError(t, err)
	st := s.Info.GetTypeInfo().GetStructs()[DigestName]
	require.NotNil(t, st)
	require.Len(t, st.GetMembers(), len(DigestWidths))
	for i, m := range st.GetMembers() {
		assert.Equal(t, int32(DigestWidths[i]), m.GetTypeSpec().GetBitstring().GetBit().GetBitwidth(), "member %d %s", i, m.GetName())
	}
}

func TestEntryRoundTrip(t *testing.T) {
	s, err := p4src.LoadSessions()
	require.NoError(t, err)
	tbl, err := Resolve(s)
	require.NoError(t, err)
	assert.Equal(t, int64(65536), tbl.Size)
	assert.NotZero(t, tbl.DigestID)
	k := Key{BalanceGroup: 2, Lo: 1, Hi: 0x80000000, Proto: 6}
	h, err := tbl.Decode(tbl.Entry(k, 5, 700, 300*time.Second))
	require.NoError(t, err)
	assert.Equal(t, Held{Key: k, FilterGroup: 5, Core: 700, Idle: 300 * time.Second}, h)
	h, err = tbl.Decode(tbl.KeyEntry(k))
	require.NoError(t, err)
	assert.Equal(t, k, h.Key)

	base, err := p4src.Load()
	require.NoError(t, err)
	_, err = Resolve(base)
	assert.ErrorIs(t, err, ErrNoTable)
}
