package wire_test

import (
	"bytes"
	"testing"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
)

func TestCoreHeader(t *testing.T) {
	h := wire.CoreHeader{TPID: 0x88B5, Link: 5, Core: 3}
	assert.Equal(t, []byte{0x88, 0xB5, 0x14, 0x03}, h.Append(nil))
	b := make([]byte, wire.CoreHeaderLen)
	h.Put(b)
	assert.Equal(t, h.Append(nil), b)
	link, core := wire.ParseCoreTag(h.Tag())
	assert.Equal(t, [2]uint32{5, 3}, [2]uint32{link, core})
	// Bits above the widths are dropped.
	assert.Equal(t, wire.CoreHeader{Link: 5, Core: 3}.Tag(), wire.CoreHeader{Link: 5 | 1<<6, Core: 3 | 1<<10}.Tag())
	link, core = wire.ParseCoreTag(0xFFFF)
	assert.Equal(t, [2]uint32{wire.MaxLink, wire.MaxCore}, [2]uint32{link, core})
	// core_counters has a cell for every core id the header can carry.
	assert.Equal(t, uint32(p4src.CoreCounterCores), uint32(wire.MaxCore+1))

	frame := []byte{1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 0x08, 0x00, 0x45}
	got := wire.InsertCoreHeader(frame, h)
	assert.Equal(t, append(append(append([]byte{}, frame[:12]...), 0x88, 0xB5, 0x14, 0x03), frame[12:]...), got)
	assert.Equal(t, byte(0x08), frame[12], "the input is not changed")
}

func TestKeepAliveRoundTrip(t *testing.T) {
	k := wire.KeepAlive{FilterGroup: 7, Direction: wire.WANToLAN, Seq: 99, TxTimestamp: 1234}
	f := wire.EncodeKeepAlive([6]byte{2}, [6]byte{4}, wire.DefaultKeepAliveEtherType, k)
	require.Len(t, f, wire.KeepAliveFrameLen)
	assert.Equal(t, []byte{0x88, 0xB6, 0x42, 0x4C, 0x4B, 0x41, wire.KeepAliveVersion, 1, 0, 7}, f[12:22])
	got, err := wire.DecodeKeepAlive(f, wire.DefaultKeepAliveEtherType)
	require.NoError(t, err)
	assert.Equal(t, k, got)
	_, err = wire.DecodeKeepAlive(f, 0x9000)
	assert.ErrorIs(t, err, wire.ErrNotKeepAlive)
	f[14] = 0
	_, err = wire.DecodeKeepAlive(f, wire.DefaultKeepAliveEtherType)
	assert.ErrorIs(t, err, wire.ErrNotKeepAlive)
	_, err = wire.DecodeKeepAlive(f[:20], wire.DefaultKeepAliveEtherType)
	assert.ErrorIs(t, err, wire.ErrNotKeepAlive)
}

func TestCanonical(t *testing.T) {
	for _, tt := range []struct {
		name string
		v    uint64
		want []byte
	}{
		{"zero", 0, []byte{0}},
		{"one byte", 0xff, []byte{0xff}},
		{"two bytes", 0x100, []byte{1, 0}},
		{"max", ^uint64(0), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, wire.Canonical(tt.v))
			assert.Equal(t, append([]byte{9}, tt.want...), wire.AppendCanonical([]byte{9}, tt.v))
			assert.Equal(t, tt.v, wire.Uint(tt.want))
		})
	}
}

func TestCanonicalBytes(t *testing.T) {
	for _, tt := range []struct {
		name    string
		in, out []byte
	}{
		{"empty", []byte{}, []byte{}},
		{"all zero keeps one byte", []byte{0, 0, 0}, []byte{0}},
		{"leading zeros dropped", []byte{0, 0, 1, 0}, []byte{1, 0}},
		{"none to drop", []byte{0x20, 0x01, 0x0d, 0xb8}, []byte{0x20, 0x01, 0x0d, 0xb8}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := bytes.Clone(tt.in)
			got := wire.CanonicalBytes(in)
			assert.Equal(t, tt.out, got)
			assert.Equal(t, tt.in, in, "the input is left as it was")
		})
	}
	// Within 8 bytes it agrees with Canonical.
	assert.Equal(t, wire.Canonical(0x1234), wire.CanonicalBytes([]byte{0, 0, 0, 0, 0, 0, 0x12, 0x34}))
}

func TestPacketIO(t *testing.T) {
	s, err := p4src.Load()
	require.NoError(t, err)
	p, err := wire.NewPacketIO(s)
	require.NoError(t, err)
	in := p.PacketInMetadata(17, wire.PacketInReasonKeepAlive, 1<<50|42)
	got := p.DecodePacketIn(in)
	assert.Equal(t, map[string]uint64{wire.MetaIngressPort: 17, wire.MetaReason: 1, wire.MetaRxTimestamp: 42, wire.MetaPad: 0}, got)
	out := p.PacketOutMetadata(300, wire.PacketOutFlagKeepAlive)
	names := map[string][]byte{}
	for _, m := range out {
		names[p.OutName(m.GetMetadataId())] = m.GetValue()
	}
	assert.Equal(t, map[string][]byte{wire.MetaEgressPort: {1, 44}, wire.MetaFlags: {1}, wire.MetaPad: {0}}, names)

	// A P4Info without the packet_out header is refused.
	bad, err := p4src.NewSchema(&p4configv1.P4Info{})
	require.NoError(t, err)
	_, err = wire.NewPacketIO(bad)
	assert.ErrorIs(t, err, p4src.ErrUnknownName)
}

func TestParseCoreHeader(t *testing.T) {
	h := wire.CoreHeader{TPID: wire.DefaultCoreTPID, Link: 5, Core: 1000}
	got, ok := wire.ParseCoreHeader(h.Append(nil))
	require.True(t, ok)
	assert.Equal(t, h, got)
	_, ok = wire.ParseCoreHeader([]byte{0x88, 0xb5, 0})
	assert.False(t, ok, "3 bytes")
}
