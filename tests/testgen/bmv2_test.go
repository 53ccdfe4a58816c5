package testgen

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/bmv2"
	"github.com/dpi-balancer/balancer/internal/p4rttest"
	"github.com/dpi-balancer/balancer/internal/rawport"
	"github.com/dpi-balancer/balancer/internal/testbed"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
)

// bmv2Target replays cases on BMv2 (simple_switch_grpc): every port the
// cases use is a veth, the pipeline is pushed again before each case (an
// empty switch), and a case's packet goes in on its host end.
type bmv2Target struct {
	client *p4rttest.Client
	schema *p4src.Schema
	ports  map[uint32]*rawport.Port
}

func startBMv2Target(t *testing.T, cases []*Case) *bmv2Target {
	t.Helper()
	if why := bmv2.Available(); why != "" {
		t.Skip("bmv2: " + why)
	}
	var ports []uint32
	for _, c := range cases {
		ports = append(ports, c.InPort)
		if c.Expect != nil {
			ports = append(ports, c.Expect.Port)
		}
	}
	slices.Sort(ports)
	ports = slices.Compact(ports)
	// The CPU port is BMv2's packet I/O over P4Runtime, not an interface.
	ports = slices.DeleteFunc(ports, func(p uint32) bool { return p == bmv2.CPUPort })
	ns := testbed.NewNS(t)
	bind := map[uint32]string{}
	for _, p := range ports {
		ns.Veth(t, fmt.Sprintf("s%d", p), fmt.Sprintf("h%d", p))
		bind[p] = fmt.Sprintf("s%d", p)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sw, err := bmv2.Start(ctx, ns, bind, t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { sw.Stop() })
	schema, err := p4src.Load()
	require.NoError(t, err)
	client, err := p4rttest.Dial(ctx, sw.Addr, 1, schema)
	require.NoError(t, err)
	t.Cleanup(func() { client.Close() })
	tg := &bmv2Target{client: client, schema: schema, ports: map[uint32]*rawport.Port{}}
	for _, p := range ports {
		rp, err := rawport.Open(ns.Path, fmt.Sprintf("h%d", p))
		require.NoError(t, err)
		t.Cleanup(func() { rp.Close() })
		tg.ports[p] = rp
	}
	return tg
}

// replay runs c on BMv2: nil when what leaves agrees with the case.
func (tg *bmv2Target) replay(c *Case) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := tg.client.SetPipeline(ctx, tg.schema.Info, p4src.BMv2JSON); err != nil {
		return err
	}
	us, err := c.Updates(tg.schema)
	if err != nil {
		return err
	}
	if len(us) > 0 {
		if err := tg.client.Write(ctx, us, len(us)); err != nil {
			return fmt.Errorf("%s: writing its entries: %w", c.Name, err)
		}
	}
	// What the last case left behind: one wait for all ports, then each
	// read until it is empty.
	time.Sleep(20 * time.Millisecond)
	for _, p := range tg.ports {
		p.Drain(time.Millisecond)
	}
	for {
		if _, err := tg.client.PacketIn(time.Millisecond); err != nil {
			break
		}
	}
	if c.InPort == bmv2.CPUPort {
		// A packet-out: its first 3 bytes are the packet_out header
		// (egress_port:9, pad:7, flags:8), which P4Runtime carries as
		// metadata.
		if len(c.Packet) < 3 {
			return fmt.Errorf("%s: a packet-out shorter than its header", c.Name)
		}
		port := uint32(c.Packet[0])<<1 | uint32(c.Packet[1]>>7)
		if err := tg.client.PacketOut(port, c.Packet[2], c.Packet[3:]); err != nil {
			return err
		}
	} else if err := tg.ports[c.InPort].Send(c.Packet); err != nil {
		return err
	}
	if c.Expect != nil && c.Expect.Port == bmv2.CPUPort {
		in, err := tg.client.PacketIn(2 * time.Second)
		if err != nil {
			return fmt.Errorf("%s: no packet-in: %w", c.Name, err)
		}
		return c.Expect.match(cpuPortBytes(wire.Uint(in.Metadata["ingress_port"]), uint8(wire.Uint(in.Metadata["reason"])),
			wire.Uint(in.Metadata["rx_timestamp"]), in.Payload))
	}
	if c.Expect != nil {
		got, err := tg.ports[c.Expect.Port].Recv(2 * time.Second)
		if err != nil {
			return fmt.Errorf("%s: nothing out of port %d: %w", c.Name, c.Expect.Port, err)
		}
		return c.Expect.match(got)
	}
	// A drop: nothing out of any port (but the one it came in on, whose
	// host end sees its own send) for a while: one wait for all ports
	// (a case may use a hundred), then each read.
	time.Sleep(150 * time.Millisecond)
	for n, p := range tg.ports {
		if n == c.InPort {
			continue
		}
		if got, err := p.Recv(time.Millisecond); err == nil {
			return fmt.Errorf("%s: expected a drop, got %d bytes out of port %d", c.Name, len(got), n)
		}
	}
	if in, err := tg.client.PacketIn(50 * time.Millisecond); err == nil {
		return fmt.Errorf("%s: expected a drop, got a %d-byte packet-in", c.Name, len(in.Payload))
	}
	return nil
}

// The cases of TestReplaySTF on BMv2: the harness agrees with the
// compiled program as it does with the software switch.
func TestReplaySTFOnBMv2(t *testing.T) {
	pkt := strings.ToUpper(hexFrame())
	stfs := map[string]string{
		"bypass": "add BalancerIngress.port_role port:0x014 BalancerIngress.set_operator_port(link_id:0x00,side:0x0,peer_port:0x00A)\npacket 20 " + pkt + "\nexpect 10 " + pkt + "$\n",
		"drop":   "packet 20 " + pkt + "\n",
		"wrong":  "add BalancerIngress.port_role port:0x014 BalancerIngress.set_operator_port(link_id:0x00,side:0x0,peer_port:0x00A)\npacket 20 " + pkt + "\nexpect 11 " + pkt + "$\n",
	}
	cases := map[string]*Case{}
	var all []*Case
	for name, s := range stfs {
		c, err := ParseSTF(name, strings.NewReader(s))
		require.NoError(t, err)
		cases[name] = c
		all = append(all, c)
	}
	tg := startBMv2Target(t, all)
	assert.NoError(t, tg.replay(cases["bypass"]))
	assert.NoError(t, tg.replay(cases["drop"]))
	err := tg.replay(cases["wrong"])
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nothing out of port 11")
}
