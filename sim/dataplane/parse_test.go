package dataplane

import (
	"bytes"
	"encoding/binary"
	"net/netip"
	"sync"
	"testing"

	"github.com/gopacket/gopacket/layers"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	pc "github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/tables"
)

func l3(src, dst string, proto layers.IPProtocol) pc.L3 {
	return pc.L3{Src: netip.MustParseAddr(src), Dst: netip.MustParseAddr(dst), Proto: proto, SrcPort: 1111, DstPort: 2222}
}

// TestParse checks the parser's results, header by header, against
// parser.p4, including its limits and truncated frames.
func TestParse(t *testing.T) {
	d := siteDP(t)
	v4 := l3("10.0.0.1", "10.0.0.2", layers.IPProtocolTCP)
	v6 := l3("2001:db8::1", "2001:db8::2", layers.IPProtocolUDP)
	plain := pc.Frame(macX, macY, pc.Encap{}, v4)
	tags := func(vids ...uint16) []pc.Tag {
		var ts []pc.Tag
		for _, v := range vids {
			ts = append(ts, pc.Tag{TPID: 0x8100, VID: v})
		}
		return ts
	}
	mplsLabels := func(n int) []uint32 {
		ls := make([]uint32, n)
		for i := range ls {
			ls[i] = uint32(100 + i)
		}
		return ls
	}
	withIHL := func(f []byte, ihl byte) []byte {
		f = bytes.Clone(f)
		f[14] = 0x40 | ihl
		return f
	}
	v6ext := pc.Frame(macX, macY, pc.Encap{}, l3("2001:db8::1", "2001:db8::2", layers.IPProtocol(0)))
	mplsEth := pc.Frame(macX, macY, pc.Encap{MPLS: []uint32{16}}, v4)
	mplsEth[14+4] = 0x00 // first nibble after the label: 0 (pseudowire control word)
	pppoeLCP := pc.Frame(macX, macY, pc.Encap{PPPoE: true}, v4)
	binary.BigEndian.PutUint16(pppoeLCP[14+6:], 0xc021)

	type want struct {
		vlanDepth, outer, inner, ethType, mplsDepth uint32
		ipv4, ipv6, core, ka                        bool
		proto, l4src, l4dst                         uint32
	}
	for _, tc := range []struct {
		name  string
		frame []byte
		want  want
	}{
		{"IPv4 TCP", plain, want{ethType: 0x0800, ipv4: true, proto: 6, l4src: 1111, l4dst: 2222}},
		{"IPv6 UDP", pc.Frame(macX, macY, pc.Encap{}, v6), want{ethType: 0x86dd, ipv6: true, proto: 17, l4src: 1111, l4dst: 2222}},
		{"IPv6 extension header: no L4", v6ext, want{ethType: 0x86dd, ipv6: true, proto: 0}},
		{"one tag", pc.Frame(macX, macY, pc.Encap{Tags: tags(7)}, v4), want{vlanDepth: 1, outer: 7, ethType: 0x0800, ipv4: true, proto: 6, l4src: 1111, l4dst: 2222}},
		{"QinQ 88a8/9100", pc.Frame(macX, macY, pc.Encap{Tags: []pc.Tag{{TPID: 0x88a8, VID: 1}, {TPID: 0x9100, VID: 2}}}, v4), want{vlanDepth: 2, outer: 1, inner: 2, ethType: 0x0800, ipv4: true, proto: 6, l4src: 1111, l4dst: 2222}},
		{"three tags", pc.Frame(macX, macY, pc.Encap{Tags: tags(1, 2, 3)}, v4), want{vlanDepth: 3, outer: 1, inner: 2, ethType: 0x0800, ipv4: true, proto: 6, l4src: 1111, l4dst: 2222}},
		{"four tags: the fourth TPID is the EtherType", pc.Frame(macX, macY, pc.Encap{Tags: tags(1, 2, 3, 4)}, v4), want{vlanDepth: 3, outer: 1, inner: 2, ethType: 0x8100}},
		{"MPLS 3 labels IPv6", pc.Frame(macX, macY, pc.Encap{MPLS: mplsLabels(3)}, v6), want{ethType: 0x8847, mplsDepth: 3, ipv6: true, proto: 17, l4src: 1111, l4dst: 2222}},
		{"MPLS 8 labels IPv4", pc.Frame(macX, macY, pc.Encap{MPLS: mplsLabels(8)}, v4), want{ethType: 0x8847, mplsDepth: 8, ipv4: true, proto: 6, l4src: 1111, l4dst: 2222}},
		{"MPLS 9 labels: depth 8, the rest payload", pc.Frame(macX, macY, pc.Encap{MPLS: mplsLabels(9)}, v4), want{ethType: 0x8847, mplsDepth: 8}},
		{"MPLS non-IP payload", mplsEth, want{ethType: 0x8847, mplsDepth: 1}},
		{"PPPoE IPv4", pc.Frame(macX, macY, pc.Encap{PPPoE: true}, v4), want{ethType: 0x8864, ipv4: true, proto: 6, l4src: 1111, l4dst: 2222}},
		{"PPPoE LCP: no IP", pppoeLCP, want{ethType: 0x8864}},
		{"IPv4 options", pc.Frame(macX, macY, pc.Encap{}, pc.L3{Src: v4.Src, Dst: v4.Dst, Proto: 17, SrcPort: 5, DstPort: 6, Options: true}), want{ethType: 0x0800, ipv4: true, proto: 17, l4src: 5, l4dst: 6}},
		{"IPv4 IHL 4: no L4", withIHL(plain, 4), want{ethType: 0x0800, ipv4: true, proto: 6}},
		{"IPv4 IHL 0: no L4", withIHL(plain, 0), want{ethType: 0x0800, ipv4: true, proto: 6}},
		{"IPv4 IHL 15, options cut: no L4", withIHL(plain, 15)[:14+20+30], want{ethType: 0x0800, ipv4: true, proto: 6}},
		{"non-first fragment: no L4", pc.Frame(macX, macY, pc.Encap{}, pc.L3{Src: v4.Src, Dst: v4.Dst, Proto: 6, FragOffset: 3}), want{ethType: 0x0800, ipv4: true, proto: 6}},
		{"TCP cut", plain[:14+20+19], want{ethType: 0x0800, ipv4: true, proto: 6}},
		{"UDP exactly 8 bytes", pc.Frame(macX, macY, pc.Encap{}, l3("10.0.0.1", "10.0.0.2", layers.IPProtocolUDP))[:14+20+8], want{ethType: 0x0800, ipv4: true, proto: 17, l4src: 1111, l4dst: 2222}},
		{"IPv4 cut", plain[:14+19], want{ethType: 0x0800}},
		{"EtherType cut", plain[:13], want{}},
		{"tag cut", pc.Frame(macX, macY, pc.Encap{Tags: tags(5, 6)}, v4)[:12+4+3], want{vlanDepth: 1, outer: 5}},
		{"core header then a tag", pc.PushCore(pc.Frame(macX, macY, pc.Encap{Tags: tags(9)}, v4), 0x88b5, 1, 2), want{core: true, vlanDepth: 1, outer: 9, ethType: 0x0800, ipv4: true, proto: 6, l4src: 1111, l4dst: 2222}},
		{"core header only at the outermost position", pc.Frame(macX, macY, pc.Encap{Tags: []pc.Tag{{TPID: 0x8100, VID: 3}, {TPID: 0x88b5, VID: 4}}}, v4), want{vlanDepth: 1, outer: 3, ethType: 0x88b5}},
		{"keep-alive", pc.KeepAlive(1, 2, 3), want{ka: true, ethType: 0x88b6}},
		{"keep-alive cut", pc.KeepAlive(1, 2, 3)[:14+19], want{ethType: 0x88b6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m meta
			d.parse(tc.frame, false, &m)
			got := want{m.vlanDepth, m.outerVID, m.innerVID, m.ethType, m.mplsDepth, m.ipv4, m.ipv6, m.core, m.ka, m.proto, m.l4src, m.l4dst}
			assert.Equal(t, tc.want, got)
		})
	}
	t.Run("a prefix is malformed iff it ends inside a header", func(t *testing.T) {
		opt := pc.Frame(macX, macY, pc.Encap{}, pc.L3{Src: v4.Src, Dst: v4.Dst, Proto: 17, SrcPort: 5, DstPort: 6, OptionWords: 10})
		for _, tc := range []struct {
			name  string
			frame []byte
			end   int // where the last header the parser extracts ends
		}{
			{"IPv4 TCP", plain, 14 + 20 + 20},
			{"IPv4 with 40 bytes of options, UDP", opt, 14 + 60 + 8},
			{"non-first fragment", pc.Frame(macX, macY, pc.Encap{}, pc.L3{Src: v4.Src, Dst: v4.Dst, Proto: 6, FragOffset: 3}), 14 + 20},
			{"QinQ, 3 MPLS labels, IPv6 UDP", pc.Frame(macX, macY, pc.Encap{Tags: tags(1, 2), MPLS: mplsLabels(3)}, v6), 12 + 8 + 2 + 12 + 40 + 8},
			{"PPPoE IPv4 TCP", pc.Frame(macX, macY, pc.Encap{PPPoE: true}, v4), 14 + 8 + 20 + 20},
			{"core header, tag, IPv4 TCP", pc.PushCore(pc.Frame(macX, macY, pc.Encap{Tags: tags(9)}, v4), 0x88b5, 1, 2), 12 + 4 + 4 + 2 + 20 + 20},
			{"keep-alive", pc.KeepAlive(1, 2, 3), 14 + wire.KeepAliveLen},
			{"ARP (not parsed past the EtherType)", pc.Frame(macX, macY, pc.Encap{}, pc.L3{}), 14},
		} {
			for n := 0; n <= len(tc.frame); n++ {
				var m meta
				d.parse(tc.frame[:n], false, &m)
				require.Equal(t, n < tc.end, m.malformed(), "%s cut to %d bytes (headers end at %d)", tc.name, n, tc.end)
			}
		}
		var m meta
		d.parse(withIHL(plain, 4), false, &m)
		assert.True(t, m.malformed(), "IPv4 IHL 4")
		assert.False(t, m.parseErr, "IHL 4 is not a parser error")
	})
	t.Run("every truncation parses without panic", func(t *testing.T) {
		for _, f := range [][]byte{plain, pc.Frame(macX, macY, pc.Encap{Tags: tags(1, 2), MPLS: mplsLabels(3)}, v6), pc.KeepAlive(1, 1, 1)} {
			for n := 0; n <= len(f); n++ {
				var m meta
				d.parse(f[:n], false, &m)
				d.parse(f[:n], true, &m)
			}
		}
	})
}

// TestBuffers: output into the caller's buffer, in place, or (when the
// buffer is too small) a new one.
func TestBuffers(t *testing.T) {
	d := siteDP(t)
	f := pc.Frame(macX, macY, pc.Encap{}, pc.L3{Src: ipA, Dst: ipB, Proto: layers.IPProtocolTCP, SrcPort: 1234, DstPort: 80})
	want := pc.PushCore(f, wire.DefaultCoreTPID, pc.L1ID, pc.KnownAnswer.Core)
	for _, tc := range []struct {
		name string
		buf  func(frame []byte) []byte
	}{
		{"separate buffer", func(frame []byte) []byte { return make([]byte, 0, len(frame)+4) }},
		{"in place", func(frame []byte) []byte { return frame[:0] }},
		{"too small", func(frame []byte) []byte { return nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			frame := make([]byte, len(f), len(f)+4)
			copy(frame, f)
			r := d.Process(pc.L1LAN, frame, tc.buf(frame))
			require.Equal(t, Forward, r.Kind)
			assert.Equal(t, want, r.Frame)
			// And back: the return path pops in place too.
			in := bytes.Clone(r.Frame)
			r = d.Process(pc.F2LAN, in, tc.buf(in))
			require.Equal(t, Forward, r.Kind)
			assert.Equal(t, uint32(pc.L1LAN), r.Port)
			assert.Equal(t, f, r.Frame)
		})
	}
	t.Run("unchanged frames alias the input", func(t *testing.T) {
		arp := pc.Frame(macX, macY, pc.Encap{}, pc.L3{})
		r := d.Process(pc.L1LAN, arp, make([]byte, 0, 100))
		require.Equal(t, Forward, r.Kind)
		assert.Same(t, &arp[0], &r.Frame[0])
	})
}

// TestTimestamps: packet-in rx and keep-alive tx timestamps come from the
// clock, 48 bits.
func TestTimestamps(t *testing.T) {
	now := uint64(0xABCD_1234_5678_9ABC)
	d := newDP(t, WithClock(func() uint64 { return now }))
	program(t, d, siteConfig(t), tables.State{})
	ka := pc.KeepAlive(pc.F1ID, 5, 0)
	r := d.PacketOut(pc.F1LAN, wire.PacketOutFlagKeepAlive, ka, make([]byte, 0, 64))
	require.Equal(t, Forward, r.Kind)
	assert.Equal(t, now&(1<<48-1), binary.BigEndian.Uint64(r.Frame[pc.KeepAliveTxOffset:]))
	assert.Equal(t, ka[:pc.KeepAliveTxOffset], r.Frame[:pc.KeepAliveTxOffset])
	// Without the flag, nothing is written.
	r = d.PacketOut(pc.F1LAN, 0, ka, nil)
	assert.Equal(t, ka, r.Frame)
	// Raw from the CPU port: the same, with the packet_out header in front.
	raw := append([]byte{pc.F1LAN >> 1, pc.F1LAN & 1 << 7, wire.PacketOutFlagKeepAlive}, ka...)
	r = d.Process(p4src.CPUPortBMv2, raw, nil)
	require.Equal(t, Forward, r.Kind)
	assert.Equal(t, uint32(pc.F1LAN), r.Port)
	assert.Equal(t, now&(1<<48-1), binary.BigEndian.Uint64(r.Frame[pc.KeepAliveTxOffset:]))
	// The keep-alive comes back: rx timestamp.
	now = 0xFFFF_0000_0000_0001
	r = d.Process(pc.F1WAN, ka, nil)
	require.Equal(t, ToCPU, r.Kind)
	assert.Equal(t, PacketInMeta{IngressPort: pc.F1WAN, Reason: wire.PacketInReasonKeepAlive, RxTimestamp: 1}, r.PacketIn)
	// A packet-out to the CPU port, or to the drop port.
	r = d.PacketOut(p4src.CPUPortBMv2, 0, ka, nil)
	assert.Equal(t, ToCPU, r.Kind)
	assert.Zero(t, r.PacketIn.Reason)
	assert.Equal(t, Drop, d.PacketOut(511, 0, ka, nil).Kind)
	assert.Equal(t, Drop, d.PacketOut(512, 0, ka, nil).Kind)
}

// TestNoHalfBatch: a batch that moves two ports between links at once is
// never seen half done by a burst of packets.
func TestNoHalfBatch(t *testing.T) {
	id := testIDs(t)
	d := siteDP(t)
	roles := func(peer byte) []*p4v1.Update {
		return []*p4v1.Update{
			mod(te(id.portRole, 0, act(id.setOperatorPort, b(1), b(0), b(peer)), exactM(1, 61))),
			mod(te(id.portRole, 0, act(id.setOperatorPort, b(1), b(0), b(peer)), exactM(1, 62))),
		}
	}
	for _, err := range d.Write([]*p4v1.Update{ins(id.role(61)), ins(id.role(62))}, 0) {
		require.NoError(t, err)
	}
	arp := pc.Frame(macX, macY, pc.Encap{}, pc.L3{})
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			for _, err := range d.Write(roles(byte(i%2*10+70)), p4v1.WriteRequest_DATAPLANE_ATOMIC) {
				if err != nil {
					t.Error(err)
					return
				}
			}
		}
	}()
	pkts := []Packet{{InPort: 61, Frame: arp}, {InPort: 62, Frame: arp}}
	for i := 0; i < 20000; i++ {
		d.ProcessBatch(pkts)
		if pkts[0].Result.Port != pkts[1].Result.Port {
			t.Fatalf("burst %d saw half a batch: ports %d and %d", i, pkts[0].Result.Port, pkts[1].Result.Port)
		}
	}
	close(stop)
	wg.Wait()
}

func TestReset(t *testing.T) {
	d := siteDP(t)
	d.Process(pc.L1LAN, pc.Frame(macX, macY, pc.Encap{}, pc.L3{}), nil)
	d.Reset()
	assert.Empty(t, readQ(t, d, te(0, 0, nil)))
	assert.Empty(t, readCounts(t, d))
	for _, vs := range readQ(t, d, &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{}}}) {
		assert.Empty(t, vs.GetValueSetEntry().GetMembers())
	}
	checkInvariants(t, d)
	// And it can be programmed again.
	program(t, d, siteConfig(t), tables.State{})
	_, failed := pc.RunT(t, newTarget(d), pc.Cases(siteConfig(t)), pc.Timing{})
	assert.Zero(t, failed)
}
