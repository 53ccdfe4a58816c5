package gnmi

import (
	"context"
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
	srv, c := startClient(t, WithMinSampleInterval(10*time.Millisecond), WithMaxPaths(100, 30))
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
	assert.Contains(t, msg, "asks for 400000 path units")
	assert.Contains(t, msg, "over the limit of 100 this server serves at once")

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
	assert.Contains(t, msg, "asks for 10 path units")
	assert.Contains(t, msg, "holds 25: over the limit of 30 per client")
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
