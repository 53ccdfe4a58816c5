package sim

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/p4rttest"
	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/tables"
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
	if p4rttest.Uint(p.Metadata["rx_timestamp"]) == 0 {
		return nil, fmt.Errorf("packet-in without rx timestamp")
	}
	return &pipelinecases.PacketIn{IngressPort: uint32(p4rttest.Uint(p.Metadata["ingress_port"])),
		Reason: uint8(p4rttest.Uint(p.Metadata["reason"])), Frame: p.Payload}, nil
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
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	schema, err := p4src.Load()
	require.NoError(t, err)
	c, err := p4rttest.Dial(ctx, addr, 1, schema)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	require.NoError(t, c.SetPipeline(ctx, schema.Info, nil))
	cfg, err := pipelinecases.Config()
	require.NoError(t, err)
	comp, err := tables.New(schema)
	require.NoError(t, err)
	des, err := comp.Compile(cfg, tables.State{})
	require.NoError(t, err)
	for _, b := range comp.Diff(des.Entities, nil).Batches {
		require.NoError(t, c.Write(ctx, b.Updates, 500), b.Name)
	}
	return c
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
