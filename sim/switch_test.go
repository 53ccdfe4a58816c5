package sim

import (
	"context"
	"fmt"
	"io"
	"net"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/dpi-balancer/balancer/internal/p4rttest"
	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
)

type memTarget struct {
	peers  map[uint32]*MemPeer
	client *p4rttest.Client
}

var _ pipelinecases.Target = (*memTarget)(nil)

func (m *memTarget) Send(port uint32, frame []byte) error { return m.peers[port].Send(frame) }
func (m *memTarget) PacketOut(port uint32, flags uint8, frame []byte) error {
	return m.client.PacketOut(port, flags, frame)
}
func (m *memTarget) Recv(port uint32, timeout time.Duration) ([]byte, error) {
	return m.peers[port].Recv(timeout)
}
func (m *memTarget) PacketIn(timeout time.Duration) (*pipelinecases.PacketIn, error) {
	p, err := m.client.PacketIn(timeout)
	if err != nil {
		return nil, err
	}
	if p4rttest.Uint(p.Metadata[wire.MetaRxTimestamp]) == 0 {
		return nil, fmt.Errorf("packet-in without rx timestamp")
	}
	return &pipelinecases.PacketIn{IngressPort: uint32(p4rttest.Uint(p.Metadata[wire.MetaIngressPort])),
		Reason: uint8(p4rttest.Uint(p.Metadata[wire.MetaReason])), Frame: p.Payload}, nil
}

// startMemSwitch serves a switch with in-memory ports on 127.0.0.1:0.
func startMemSwitch(t *testing.T, ports []uint32) (*Switch, string, map[uint32]*MemPeer) {
	t.Helper()
	peers := map[uint32]*MemPeer{}
	ps := map[uint32]Port{}
	for _, n := range ports {
		p, peer := NewMemPort(64)
		ps[n], peers[n] = p, peer
	}
	sw, err := New(Options{Ports: ps})
	require.NoError(t, err)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sw.Serve(ctx, lis, nil) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	return sw, lis.Addr().String(), peers
}

func program(t *testing.T, addr string) *p4rttest.Client {
	t.Helper()
	schema, err := p4src.Load()
	require.NoError(t, err)
	return programWith(t, addr, schema)
}

// The shared pipeline cases through the whole software switch: P4Runtime
// over gRPC, ports, packet I/O.
func TestSwitchPipelineCases(t *testing.T) {
	_, addr, peers := startMemSwitch(t, pipelinecases.Ports)
	c := program(t, addr)
	cfg, err := pipelinecases.Config()
	require.NoError(t, err)
	passed, failed := pipelinecases.RunT(t, &memTarget{peers: peers, client: c}, pipelinecases.Cases(cfg),
		pipelinecases.Timing{Expect: 2 * time.Second, Quiet: 20 * time.Millisecond})
	t.Logf("software switch pipeline cases: %d passed, %d failed", passed, failed)
}

// A port whose carrier drops discards what the pipeline sends to it.
func TestCarrierDownDiscards(t *testing.T) {
	sw, addr, peers := startMemSwitch(t, pipelinecases.Ports)
	program(t, addr)
	arp := pipelinecases.Frame([]byte{0, 1, 2, 3, 4, 5}, []byte{0, 1, 2, 3, 4, 6}, pipelinecases.Encap{}, pipelinecases.L3{})
	peers[pipelinecases.L1WAN].SetCarrier(false)
	require.NoError(t, peers[pipelinecases.L1LAN].Send(arp))
	_, err := peers[pipelinecases.L1WAN].Recv(100 * time.Millisecond)
	require.Error(t, err)
	require.Eventually(t, func() bool { return sw.ports[pipelinecases.L1WAN].outDisc.Load() == 1 }, 2*time.Second, 5*time.Millisecond)
	peers[pipelinecases.L1WAN].SetCarrier(true)
	require.NoError(t, peers[pipelinecases.L1LAN].Send(arp))
	_, err = peers[pipelinecases.L1WAN].Recv(2 * time.Second)
	require.NoError(t, err)
	// Admin down drops received frames.
	require.NoError(t, sw.SetAdmin(pipelinecases.L1LAN, false))
	require.NoError(t, peers[pipelinecases.L1LAN].Send(arp))
	_, err = peers[pipelinecases.L1WAN].Recv(100 * time.Millisecond)
	require.Error(t, err)
}

// A Read that would return more than the read limit is refused with
// RESOURCE_EXHAUSTED naming the limit; any client may read (no
// arbitration), within the limit.
func TestReadLimitOverGRPC(t *testing.T) {
	ps := map[uint32]Port{}
	for _, n := range pipelinecases.Ports {
		p, _ := NewMemPort(64)
		ps[n] = p
	}
	sw, err := New(Options{Ports: ps, ReadLimit: 20})
	require.NoError(t, err)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sw.Serve(ctx, lis, nil) }()
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
	program(t, lis.Addr().String())

	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	rt := p4v1.NewP4RuntimeClient(conn)
	read := func(q ...*p4v1.Entity) (int, error) {
		s, err := rt.Read(ctx, &p4v1.ReadRequest{DeviceId: 1, Entities: q})
		if err != nil {
			return 0, err
		}
		n := 0
		for {
			r, err := s.Recv()
			if err == io.EOF {
				return n, nil
			}
			if err != nil {
				return n, err
			}
			n += len(r.GetEntities())
		}
	}
	links, err := p4src.Load()
	require.NoError(t, err)
	lt, err := links.Table(p4src.TableLinks)
	require.NoError(t, err)
	n, err := read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: lt.GetPreamble().GetId()}}})
	require.NoError(t, err, "a small read by a client that never arbitrated")
	assert.Equal(t, 2, n)
	_, err = read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{}}})
	assert.Equal(t, codes.ResourceExhausted, status.Code(err))
	assert.Contains(t, status.Convert(err).Message(), "more than 20 entities")
}
