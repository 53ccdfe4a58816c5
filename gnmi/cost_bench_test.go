package gnmi

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"
)

// benchTree publishes a /balancer tree of filterGroups x 64 leaves (the
// size of a filter group's state, histogram and counters in the daemon's
// tree): filterGroups 8 gives 512 leaves, a site of 8 filter groups.
func benchTree(tb testing.TB, srv *Server, filterGroups int) int {
	tb.Helper()
	n := &gpb.Notification{}
	for f := range filterGroups {
		for l := range 64 {
			n.Update = append(n.Update, &gpb.Update{
				Path: p(fmt.Sprintf("/balancer/filter-groups/filter-group[name=F%d]/state/leaf-%d", f, l)),
				Val:  uintVal(uint64(f*1000 + l)),
			})
		}
	}
	require.NoError(tb, srv.Update(n))
	return filterGroups * 64
}

// dialFrom returns a connection to addr coming from the local address
// from (127.0.0.N: another client for the per-client limits).
func dialFrom(tb testing.TB, addr, from string) *grpc.ClientConn {
	tb.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	conn, err := grpc.NewClient("passthrough:///"+addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithContextDialer(func(ctx context.Context, a string) (net.Conn, error) { return d.DialContext(ctx, "tcp", a) }))
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = conn.Close() })
	return conn
}

// rawCodec sends protobuf messages and receives raw bytes: a benchmark
// client that counts the server's messages without decoding them, so the
// process's CPU time is (nearly all) the server's.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) { return proto.Marshal(v.(proto.Message)) }
func (rawCodec) Unmarshal(data []byte, v any) error {
	*(v.(*[]byte)) = append((*(v.(*[]byte)))[:0], data...)
	return nil
}
func (rawCodec) Name() string { return "proto" }

// syncResponse is a SubscribeResponse{sync_response: true} on the wire.
var syncResponse = []byte{0x18, 0x01}

// rawSubscribe opens a Subscribe stream on conn sending req; each message
// received is a raw SubscribeResponse.
func rawSubscribe(ctx context.Context, conn *grpc.ClientConn, req *gpb.SubscribeRequest) (grpc.ClientStream, error) {
	stream, err := conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true, ClientStreams: true}, "/gnmi.gNMI/Subscribe", grpc.ForceCodec(rawCodec{}))
	if err != nil {
		return nil, err
	}
	return stream, stream.SendMsg(req)
}

// cpuTime is the process's user and system CPU time.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	require.NoError(tb, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// subscriptionSet is subs SAMPLE subscriptions of path at interval, spread
// over clients of their own addresses, perClient each.
type subscriptionSet struct {
	path      string
	interval  time.Duration
	subs      int
	perClient int
}

// runSubscriptionSet serves set from a server of opts holding a tree of
// filterGroups filter groups, waits for every subscription's initial
// data, then counts b.N sampling rounds (every subscription sending every
// leaf once) and reports the process's CPU time per leaf sent and per
// second. The clients run in the same process but decode nothing: the
// CPU time is the server's and the clients' gRPC framing, a slight upper
// bound of the server's.
func runSubscriptionSet(b *testing.B, set subscriptionSet, filterGroups int, opts ...ServerOption) {
	srv := newTestServer(b, append([]ServerOption{WithMinSampleInterval(10 * time.Millisecond)}, opts...)...)
	benchTree(b, srv, filterGroups)
	leavesN := srv.countLeaves(p(set.path))
	_, addr := serve(b, srv, "127.0.0.1:0")
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	var got atomic.Int64
	synced := make(chan error, set.subs)
	var clients []*grpc.ClientConn
	for i := range set.subs {
		if i%set.perClient == 0 {
			clients = append(clients, dialFrom(b, addr, fmt.Sprintf("127.0.0.%d", 2+len(clients))))
		}
		stream, err := rawSubscribe(ctx, clients[len(clients)-1], subscribeReq(gpb.SubscriptionList_STREAM, sample(set.path, set.interval, false)))
		require.NoError(b, err)
		wg.Add(1)
		go func() {
			defer wg.Done()
			sync := false
			var msg []byte
			for {
				if err := stream.RecvMsg(&msg); err != nil {
					if !sync {
						synced <- err
					}
					return
				}
				switch {
				case bytes.Equal(msg, syncResponse):
					sync = true
					synced <- nil
				case sync:
					got.Add(1) // one leaf per notification in this tree
				}
			}
		}()
	}
	for range set.subs {
		if err := <-synced; err != nil {
			b.Fatalf("%d x %s at %v (%d leaves each), %d per client: %v", set.subs, set.path, set.interval, leavesN, set.perClient, err)
		}
	}
	perRound := int64(set.subs) * int64(leavesN)
	got.Store(0)
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuTime(b)
	for got.Load() < int64(b.N)*perRound {
		time.Sleep(set.interval / 4)
	}
	wall, cpu := time.Since(start), cpuTime(b)-cpu0
	b.StopTimer()
	leafSamples := got.Load()
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(leafSamples), "cpu-ns/leaf")
	b.ReportMetric(cpu.Seconds()/wall.Seconds(), "cores")
	b.ReportMetric(float64(leafSamples)/wall.Seconds(), "leaves/s")
}

// BenchmarkSubscriptionCost measures what the heaviest subscription sets
// the default limits accept cost the server (DefaultMaxLeafRate leaves a
// second in all, DefaultMaxLeafRatePerClient per client), and what a set
// over them would cost. Run it with
//
//	go test -run XXX -bench SubscriptionCost -benchtime 20x ./gnmi/
func BenchmarkSubscriptionCost(b *testing.B) {
	b.Run("limit_4x_balancer_125ms", func(b *testing.B) {
		// The whole tree (512 leaves) 8 times a second: 4,096 leaves a
		// second, one client's limit, from 4 clients.
		runSubscriptionSet(b, subscriptionSet{path: "/balancer", interval: 125 * time.Millisecond, subs: 4, perClient: 1}, 8)
	})
	b.Run("limit_128x_filter_group_500ms", func(b *testing.B) {
		// The most subscriptions the server keeps open (128, 16 per
		// client), each of one filter group (64 leaves) twice a second.
		runSubscriptionSet(b, subscriptionSet{path: "/balancer/filter-groups/filter-group[name=F0]", interval: 500 * time.Millisecond, subs: 128, perClient: 16}, 8)
	})
	b.Run("over_100x_balancer_100ms_limits_raised", func(b *testing.B) {
		// 100 subscriptions of the whole tree every 100 ms (from 7
		// clients): 512,000 leaves a second, refused under the default
		// limits; here under limits raised for it, what it costs.
		runSubscriptionSet(b, subscriptionSet{path: "/balancer", interval: 100 * time.Millisecond, subs: 100, perClient: 16}, 8,
			WithMaxLeafRate(1<<30, 1<<30))
	})
}
