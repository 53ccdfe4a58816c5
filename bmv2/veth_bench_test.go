package bmv2

import (
	"context"
	"fmt"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/p4rttest"
	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/internal/rawport"
	"github.com/dpi-balancer/balancer/internal/testbed"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sim"
	"github.com/dpi-balancer/balancer/tables"
)

// vethForward measures frames per second forwarded from the host end of
// L1's LAN port to the host end of its WAN port (64-byte non-IP frames:
// balance -> non-IP bypass through the whole pipeline), sending for d.
func vethForward(b *testing.B, ns *testbed.NS, d time.Duration) float64 {
	// The traffic generator and counter use AF_PACKET rings too, so the
	// harness costs as little as the switch under test.
	var tx, rx *sim.AFPacketPort
	require.NoError(b, rawport.InNetns(ns.Path, func() (err error) {
		if tx, err = sim.OpenAFPacket(fmt.Sprintf("h%d", pipelinecases.L1LAN)); err != nil {
			return err
		}
		rx, err = sim.OpenAFPacket(fmt.Sprintf("h%d", pipelinecases.L1WAN))
		return err
	}))
	defer tx.Close()
	frame := pipelinecases.Frame([]byte{2, 0, 0, 0, 0, 1}, []byte{2, 0, 0, 0, 0, 2}, pipelinecases.Encap{}, pipelinecases.L3{})
	var got atomic.Int64
	ctx, stopRx := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		rx.Run(ctx, func([]byte) { got.Add(1) })
	}()
	defer func() { stopRx(); <-done; rx.Close() }()
	// Warm up, then count one window.
	for i := 0; i < 1000; i++ {
		_ = tx.Send(frame)
	}
	time.Sleep(200 * time.Millisecond) // the warm-up frames through BMv2 (another process) before counting
	start, base := time.Now(), got.Load()
	for time.Since(start) < d {
		for i := 0; i < 64; i++ {
			_ = tx.Send(frame)
		}
	}
	time.Sleep(300 * time.Millisecond) // let the queues drain into the count
	n := got.Load() - base
	return float64(n) / d.Seconds()
}

func vethNS(b *testing.B) (*testbed.NS, map[uint32]string) {
	ns := testbed.NewNS(b)
	bind := map[uint32]string{}
	for _, p := range pipelinecases.Ports {
		ns.Veth(b, fmt.Sprintf("s%d", p), fmt.Sprintf("h%d", p))
		bind[p] = fmt.Sprintf("s%d", p)
	}
	return ns, bind
}

func programVia(b *testing.B, addr string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	schema, err := p4src.Load()
	require.NoError(b, err)
	c, err := p4rttest.Dial(ctx, addr, 1, schema)
	require.NoError(b, err)
	b.Cleanup(func() { c.Close() })
	require.NoError(b, c.SetPipeline(ctx, schema.Info, p4src.BMv2JSON))
	cfg, err := pipelinecases.Config()
	require.NoError(b, err)
	comp, err := tables.New(schema)
	require.NoError(b, err)
	des, err := comp.Compile(cfg, tables.State{})
	require.NoError(b, err)
	for _, bt := range comp.Diff(des.Entities, nil).Batches {
		for _, u := range bt.Updates {
			_ = c.Write(ctx, append(bt.Updates[:0:0], u), 1) // value sets may be refused (PI 0.1.2)
		}
	}
}

// BenchmarkVethForward compares the software switch and BMv2 forwarding
// over veth pairs in a namespace (reported as frames/s; run with
// -benchtime=1x, each run sends for 3 s).
func BenchmarkVethForward(b *testing.B) {
	b.Run("sim", func(b *testing.B) {
		if why := testbed.Available(); why != "" {
			b.Skip(why)
		}
		ns, bind := vethNS(b)
		ports := map[uint32]sim.Port{}
		for n, ifc := range bind {
			require.NoError(b, rawport.InNetns(ns.Path, func() error {
				p, err := sim.OpenAFPacket(ifc)
				ports[n] = p
				return err
			}))
		}
		sw, err := sim.New(sim.Options{Ports: ports})
		require.NoError(b, err)
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(b, err)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- sw.Serve(ctx, lis, nil) }()
		defer func() { cancel(); <-done }()
		programVia(b, lis.Addr().String())
		var pps float64
		for i := 0; i < b.N; i++ {
			pps = vethForward(b, ns, 3*time.Second)
		}
		b.ReportMetric(pps, "frames/s")
	})
	b.Run("bmv2", func(b *testing.B) {
		if why := Available(); why != "" {
			b.Skip(why)
		}
		ns, bind := vethNS(b)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		sw, err := Start(ctx, ns, bind, b.TempDir())
		require.NoError(b, err)
		defer sw.Stop()
		programVia(b, sw.Addr)
		var pps float64
		for i := 0; i < b.N; i++ {
			pps = vethForward(b, ns, 3*time.Second)
		}
		b.ReportMetric(pps, "frames/s")
	})
}
