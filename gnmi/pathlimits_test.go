package gnmi

import (
	"context"
	"fmt"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestSubscriptionCost(t *testing.T) {
	list := func(mode gpb.SubscriptionList_Mode, subs ...*gpb.Subscription) *gpb.SubscriptionList {
		return subscribeReq(mode, subs...).GetSubscribe()
	}
	hb := onChange(p1Oper)
	hb.HeartbeatInterval = uint64(250 * time.Millisecond)
	for _, tt := range []struct {
		name string
		list *gpb.SubscriptionList
		want int
	}{
		{"one on-change path", list(gpb.SubscriptionList_STREAM, onChange(p1Oper)), 1},
		{"a sample a second", list(gpb.SubscriptionList_STREAM, sample(p1Oper, time.Second, false)), 1},
		{"ten samples a second", list(gpb.SubscriptionList_STREAM, sample(p1Oper, 100*time.Millisecond, false)), 10},
		{"default sample interval", list(gpb.SubscriptionList_STREAM, sample(p1Oper, 0, false)), 1},
		{"heartbeat 4 a second", list(gpb.SubscriptionList_STREAM, hb), 4},
		{"once, three paths", list(gpb.SubscriptionList_ONCE, onChange(p1Oper), onChange(p1Oper), onChange(p1Oper)), 3},
	} {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, SubscriptionCost(tt.list, time.Second)) })
	}
}

// A subscription list is counted by its paths and sample rates, per
// client and in total: one stream with 40,000 paths at 100ms is refused
// at once with the limit named; lists within the limits are served, and
// their units are given back when they end.
func TestSubscribePathLimits(t *testing.T) {
	srv, c := startClient(t, WithMinSampleInterval(10*time.Millisecond), WithMaxLeafRate(100, 30))
	publishFixture(t, srv)
	refused := func(ctx context.Context, req *gpb.SubscribeRequest) string {
		t.Helper()
		stream := openSubCtx(t, ctx, c, req)
		for {
			_, err := stream.Recv()
			if err != nil {
				require.Equal(t, codes.ResourceExhausted, status.Code(err), "%v", err)
				return status.Convert(err).Message()
			}
		}
	}
	many := make([]*gpb.Subscription, 40_000) // under gRPC's 4 MB message limit
	for i := range many {
		many[i] = sample(p1Oper, 100*time.Millisecond, false)
	}
	// The list is refused as soon as the server has it; sending and
	// decoding its 2 MB is what takes time (2 s with -race on a quiet
	// host, more than testTimeout on a starved one): a minute's bound.
	bigCtx, bigCancel := context.WithTimeout(context.Background(), time.Minute)
	defer bigCancel()
	start := time.Now()
	msg := refused(bigCtx, subscribeReq(gpb.SubscriptionList_STREAM, many...))
	t.Logf("40,000 paths at 100ms refused in %s: %s", time.Since(start), msg)
	assert.Contains(t, msg, "asks for 400000 leaves a second")
	assert.Contains(t, msg, "over the limit of 100 leaves a second this server sends in all")

	// 25 units (25 paths) are served; 10 more from the same client are not.
	paths := make([]*gpb.Subscription, 25)
	for i := range paths {
		paths[i] = onChange(p1Oper)
	}
	firstCtx, endFirst := context.WithTimeout(context.Background(), testTimeout)
	defer endFirst()
	first := openSubCtx(t, firstCtx, c, subscribeReq(gpb.SubscriptionList_STREAM, paths...))
	_, synced, err := recvUntilSync(first)
	require.NoError(t, err)
	require.True(t, synced)
	msg = refused(testCtx(t), subscribeReq(gpb.SubscriptionList_STREAM, sample(p1Oper, 100*time.Millisecond, false)))
	assert.Contains(t, msg, "asks for 10 leaves a second")
	assert.Contains(t, msg, "holds 25: over the limit of 30 leaves a second per client")
	// A sample every second (1 unit) fits.
	ok := openSub(t, c, subscribeReq(gpb.SubscriptionList_STREAM, sample(p1Oper, time.Second, false)))
	_, synced, err = recvUntilSync(ok)
	require.NoError(t, err)
	require.True(t, synced)
	// The first one ends (the client cancels it: a STREAM subscription
	// outlives CloseSend): its units are given back.
	endFirst()
	for {
		if _, err := first.Recv(); err != nil {
			break
		}
	}
	require.Eventually(t, func() bool {
		srv.mu.Lock()
		defer srv.mu.Unlock()
		return srv.paths == 1
	}, 20*time.Second, time.Millisecond, "units given back (a loaded machine took over 5 s to end the stream's handler)")
	again := openSub(t, c, subscribeReq(gpb.SubscriptionList_STREAM, sample(p1Oper, 100*time.Millisecond, false)))
	_, synced, err = recvUntilSync(again)
	require.NoError(t, err)
	require.True(t, synced, "served once the units are back")
}

// ONCE and POLL on a path with no data answer NOT_FOUND, as Get does,
// naming the path as the client wrote it (the prefix included); a STREAM
// may wait for a path published later.
func TestSubscribeOnceAndPollUnknownPathNotFound(t *testing.T) {
	srv, c := startClient(t)
	publishFixture(t, srv)
	const unknown = "/interfaces/interface[name=P9]/state/oper-status"
	_, getErr := c.Get(testCtx(t), &gpb.GetRequest{Path: []*gpb.Path{p(unknown)}, Encoding: gpb.Encoding_PROTO})
	require.Equal(t, codes.NotFound, status.Code(getErr), "%v", getErr)
	assert.Contains(t, status.Convert(getErr).Message(), "no data at path "+unknown)
	for _, mode := range []gpb.SubscriptionList_Mode{gpb.SubscriptionList_ONCE, gpb.SubscriptionList_POLL} {
		t.Run(mode.String(), func(t *testing.T) {
			// A known path first: only the unknown one is named.
			stream := openSub(t, c, subscribeReq(mode, onChange(p1Oper), onChange(unknown)))
			_, err := stream.Recv()
			require.Equal(t, codes.NotFound, status.Code(err), "%v", err)
			assert.Equal(t, "subscribe: no data at path "+unknown, status.Convert(err).Message())

			req := subscribeReq(mode, onChange("/state/oper-status"))
			req.GetSubscribe().Prefix = p("/interfaces/interface[name=P9]")
			stream = openSub(t, c, req)
			_, err = stream.Recv()
			require.Equal(t, codes.NotFound, status.Code(err), "%v", err)
			assert.Equal(t, "subscribe: no data at path "+unknown, status.Convert(err).Message())

			// The path in both forms, as the openconfig gnmi_cli sends
			// it: named once.
			both := p(unknown)
			both.Element = []string{"interfaces", "interface[name=P9]", "state", "oper-status"}
			req = subscribeReq(mode)
			req.GetSubscribe().Subscription = []*gpb.Subscription{{Path: both, Mode: gpb.SubscriptionMode_ON_CHANGE}}
			stream = openSub(t, c, req)
			_, err = stream.Recv()
			require.Equal(t, codes.NotFound, status.Code(err), "%v", err)
			assert.Equal(t, "subscribe: no data at path "+unknown, status.Convert(err).Message())
		})
	}
	// STREAM on the same path is served (and gets the leaf once it is
	// published).
	stream := openSub(t, c, subscribeReq(gpb.SubscriptionList_STREAM, onChange(unknown)))
	_, synced, err := recvUntilSync(stream)
	require.NoError(t, err)
	require.True(t, synced)
	require.NoError(t, srv.PublishInterface(InterfaceState{Name: "P9", OperUp: true, AdminUp: true}))
	for {
		n := recvNext(t, stream)
		if v, ok := leaves(n)[unknown]; ok {
			assert.Equal(t, "UP", v.GetStringVal())
			break
		}
	}
}

// The limits count the leaves under each path: a parent path costs what
// it covers. /balancer of 512 leaves sampled every 100 ms asks for 5,120
// leaves a second and is refused under the default limits (4,096 per
// client), naming the path, its leaves and the limit; the same path
// sampled every second fits, and the leaves a client holds add up to
// the limit.
func TestSubscribeLeafRateLimits(t *testing.T) {
	srv, c := startClient(t, WithMinSampleInterval(10*time.Millisecond))
	require.Equal(t, 512, benchTree(t, srv, 8))
	refused := func(req *gpb.SubscribeRequest) string {
		t.Helper()
		stream := openSub(t, c, req)
		for {
			_, err := stream.Recv()
			if err != nil {
				require.Equal(t, codes.ResourceExhausted, status.Code(err), "%v", err)
				return status.Convert(err).Message()
			}
		}
	}
	served := func(req *gpb.SubscribeRequest) {
		t.Helper()
		_, synced, err := recvUntilSync(openSub(t, c, req))
		require.NoError(t, err)
		require.True(t, synced)
	}
	msg := refused(subscribeReq(gpb.SubscriptionList_STREAM, sample("/balancer", 100*time.Millisecond, false)))
	t.Log(msg)
	assert.Contains(t, msg, "asks for 5120 leaves a second")
	assert.Contains(t, msg, "its costliest is path /balancer: 512 leaves 10 times a second, 5120")
	assert.Contains(t, msg, fmt.Sprintf("over the limit of %d leaves a second per client", DefaultMaxLeafRatePerClient))
	assert.Contains(t, msg, "sample them less often")

	// Every second: 512. Seven of them and the whole tree on change
	// (512 more) reach the limit exactly; one filter group's 64 leaves
	// more do not fit.
	for range 7 {
		served(subscribeReq(gpb.SubscriptionList_STREAM, sample("/balancer", time.Second, false)))
	}
	served(subscribeReq(gpb.SubscriptionList_STREAM, onChange("/balancer/filter-groups")))
	msg = refused(subscribeReq(gpb.SubscriptionList_STREAM, onChange("/balancer/filter-groups/filter-group[name=F0]")))
	assert.Contains(t, msg, "asks for 64 leaves a second")
	assert.Contains(t, msg, "its costliest is path /balancer/filter-groups/filter-group[name=F0]: 64 leaves 1 times a second, 64")
	assert.Contains(t, msg, "holds 4096: over the limit of 4096 leaves a second per client")
	srv.mu.Lock()
	defer srv.mu.Unlock()
	assert.Equal(t, 8*512, srv.paths)
}
