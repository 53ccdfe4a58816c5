package bmv2

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/sim/dataplane"
	"github.com/dpi-balancer/balancer/tables"
)

// randomFrame builds a frame from random encapsulations, addresses and
// ports, sometimes with a core header or cut short.
func randomFrame(r *rand.Rand) []byte {
	mac := func() []byte {
		b := make([]byte, 6)
		for i := range b {
			b[i] = byte(r.UintN(256))
		}
		b[0] &^= 1
		return b
	}
	var enc pipelinecases.Encap
	tpids := []uint16{0x8100, 0x88a8, 0x9100}
	for i, n := 0, int(r.UintN(4)); i < n; i++ {
		enc.Tags = append(enc.Tags, pipelinecases.Tag{TPID: tpids[r.UintN(3)], VID: uint16(r.UintN(4095) + 1)})
	}
	switch r.UintN(4) {
	case 0:
		for i, n := 0, int(r.UintN(4)+1); i < n; i++ {
			enc.MPLS = append(enc.MPLS, uint32(r.UintN(1<<20)))
		}
	case 1:
		enc.PPPoE = true
	}
	var l3 pipelinecases.L3
	switch r.UintN(5) {
	case 0: // ARP (non-IP)
	case 1, 2:
		l3.Src = netip.AddrFrom4([4]byte{10, byte(r.UintN(4)), byte(r.UintN(256)), byte(r.UintN(256))})
		l3.Dst = netip.AddrFrom4([4]byte{192, 0, 2, byte(r.UintN(256))})
	default:
		var a, b [16]byte
		a[0], a[1], b[0], b[1] = 0x20, 0x01, 0x20, 0x01
		for i := 8; i < 16; i++ {
			a[i], b[i] = byte(r.UintN(256)), byte(r.UintN(256))
		}
		l3.Src, l3.Dst = netip.AddrFrom16(a), netip.AddrFrom16(b)
	}
	if l3.Src.IsValid() {
		l3.Proto = []layers.IPProtocol{layers.IPProtocolTCP, layers.IPProtocolUDP, layers.IPProtocolICMPv4, 47}[r.UintN(4)]
		l3.SrcPort, l3.DstPort = uint16(r.UintN(65536)), []uint16{179, 53, 80, uint16(r.UintN(65536))}[r.UintN(4)]
		if l3.Src.Is4() && r.UintN(8) == 0 {
			l3.FragOffset = uint16(r.UintN(100) + 1)
		}
	}
	if enc.PPPoE && len(enc.MPLS) > 0 {
		enc.PPPoE = false
	}
	f := pipelinecases.Frame(mac(), mac(), enc, l3)
	if r.UintN(6) == 0 {
		f = pipelinecases.PushCore(f, wire.DefaultCoreTPID, uint32(r.UintN(8)), uint32(r.UintN(1024)))
	}
	// Cut some frames short, but never inside a VLAN tag: the kernel's
	// receive path drops a frame whose tag it cannot strip, so neither
	// target would see it.
	if hdr := 14 + 4*len(enc.Tags) + 2; r.UintN(8) == 0 && len(f) > hdr+1 {
		f = f[:hdr+int(r.UintN(uint(len(f)-hdr)))]
	}
	return f
}

// TestDifferentialBMv2VsSim sends the same random frames, with the same
// entries, through BMv2 and the software switch's data plane and compares
// the output port and bytes.
func TestDifferentialBMv2VsSim(t *testing.T) {
	tg := startBMv2(t)
	schema, err := p4src.Load()
	require.NoError(t, err)
	dp := simWithCases(t, schema)

	n := 400
	if testing.Short() {
		n = 100
	}
	r := rand.New(rand.NewPCG(42, 7))
	ports := pipelinecases.Ports
	buf := make([]byte, 16384)
	agree, differ := 0, 0
	for i := 0; i < n; i++ {
		in := ports[r.UintN(uint(len(ports)))]
		f := randomFrame(r)
		want := dp.Process(in, f, buf)
		wantFrame := append([]byte(nil), want.Frame...)
		for _, p := range ports {
			tg.ports[p].Drain(time.Millisecond)
		}
		require.NoError(t, tg.Send(in, f))
		var got string
		switch want.Kind {
		case dataplane.Forward:
			b, err := tg.Recv(want.Port, time.Second)
			if err == nil && bytes.Equal(b, wantFrame) {
				got = "same"
			} else {
				got = fmt.Sprintf("port %d: got %x (err %v)", want.Port, b, err)
			}
		case dataplane.ToCPU:
			p, err := tg.PacketIn(time.Second)
			if err == nil && bytes.Equal(p.Frame, wantFrame) {
				got = "same"
			} else {
				got = fmt.Sprintf("packet-in: %v", err)
			}
		default:
			got = "same" // checked below: nothing anywhere
		}
		// One quiet period for all ports: the expected frame has arrived,
		// so anything else would be queued by now.
		quiet := time.Now().Add(30 * time.Millisecond)
		for _, p := range ports {
			if b, err := tg.Recv(p, max(time.Until(quiet), time.Millisecond)); err == nil {
				got = fmt.Sprintf("extra frame on port %d: %x", p, b)
			}
		}
		if got == "same" {
			agree++
			continue
		}
		differ++
		t.Errorf("frame %d into port %d: sim says %v port %d; bmv2: %s\n  in: %s", i, in, want.Kind, want.Port, got, hex.EncodeToString(f))
	}
	t.Logf("differential bmv2 vs software switch: %d frames agree, %d differ", agree, differ)
}

// simWithCases is the software switch's data plane for schema holding the
// pipeline cases' site, written as the controller writes it.
func simWithCases(t *testing.T, schema *p4src.Schema) *dataplane.Dataplane {
	t.Helper()
	dp, err := dataplane.New(schema)
	require.NoError(t, err)
	cfg, err := pipelinecases.Config()
	require.NoError(t, err)
	comp, err := tables.New(schema)
	require.NoError(t, err)
	des, err := comp.Compile(cfg, tables.State{})
	require.NoError(t, err)
	var ups []*p4v1.Update
	for _, b := range comp.Diff(des.Entities, nil).Batches {
		ups = append(ups, b.Updates...)
	}
	for i, err := range dp.Write(ups, p4v1.WriteRequest_CONTINUE_ON_ERROR) {
		require.NoError(t, err, "update %d", i)
	}
	return dp
}
