package gnmi

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/testing/protocmp"
)

// An ON_CHANGE subscription with a heartbeat_interval gets the current value
// of its leaves again at every heartbeat although nothing changed (gNMI
// specification, 3.5.1.5.2).
func TestSubscribeOnChangeHeartbeat(t *testing.T) {
	srv, c := startClient(t, WithMinSampleInterval(10*time.Millisecond))
	publishFixture(t, srv)
	sub := onChange(p1Oper)
	sub.HeartbeatInterval = uint64(20 * time.Millisecond)
	stream := openSub(t, c, subscribeReq(gpb.SubscriptionList_STREAM, sub))
	ns, synced, err := recvUntilSync(stream)
	require.NoError(t, err)
	require.True(t, synced)
	want := map[string]*gpb.TypedValue{p1Oper: strVal("UP")}
	assert.Empty(t, cmp.Diff(want, leaves(ns...), protocmp.Transform()), "initial value once")
	for i := 0; i < 3; i++ {
		assert.Empty(t, cmp.Diff(want, leaves(recvNext(t, stream)), protocmp.Transform()), "heartbeat %d: the unchanged value again", i+1)
	}
	// A change is still sent on change.
	down := p1
	down.OperUp = false
	require.NoError(t, srv.PublishInterface(down))
	// Heartbeats of the old value may come first; the change comes
	// (recvNext fails the test when the stream ends).
	for i := 0; ; i++ {
		if cmp.Diff(map[string]*gpb.TypedValue{p1Oper: strVal("DOWN")}, leaves(recvNext(t, stream)), protocmp.Transform()) == "" {
			break
		}
		require.Less(t, i, 1000, "the change never came")
	}
}

func TestSubscribeHeartbeatBelowMinimum(t *testing.T) {
	_, c := startClient(t)
	sub := onChange(p1Oper)
	sub.HeartbeatInterval = uint64(time.Millisecond)
	stream := openSub(t, c, subscribeReq(gpb.SubscriptionList_STREAM, sub))
	_, err := stream.Recv()
	assert.Equal(t, codes.InvalidArgument, status.Code(err))
	assert.Contains(t, status.Convert(err).Message(), "heartbeat_interval 1ms is below the minimum 100ms")
}

// A Poll on a STREAM subscription is refused, not silently ignored; so is
// a second subscription list.
func TestSubscribeStreamRefusesPoll(t *testing.T) {
	for name, later := range map[string]*gpb.SubscribeRequest{
		"poll":        {Request: &gpb.SubscribeRequest_Poll{Poll: &gpb.Poll{}}},
		"second list": subscribeReq(gpb.SubscriptionList_STREAM, onChange(p1Oper)),
	} {
		for _, mode := range []*gpb.Subscription{onChange(p1Oper), sample(p1Oper, time.Second, false)} {
			t.Run(name+"/"+mode.GetMode().String(), func(t *testing.T) {
				srv, c := startClient(t)
				publishFixture(t, srv)
				stream := openSub(t, c, subscribeReq(gpb.SubscriptionList_STREAM, mode))
				_, synced, err := recvUntilSync(stream)
				require.NoError(t, err)
				require.True(t, synced)
				require.NoError(t, stream.Send(later))
				for {
					_, err = stream.Recv()
					if err != nil {
						break
					}
				}
				assert.Equal(t, codes.InvalidArgument, status.Code(err))
				assert.Contains(t, status.Convert(err).Message(), "STREAM")
			})
		}
	}
}

// Subscriptions are bounded per client and in total, with the limit named.
func TestSubscribeLimits(t *testing.T) {
	open := func(t *testing.T, c gpb.GNMIClient) (context.CancelFunc, error) {
		ctx, cancel := context.WithCancel(testCtx(t))
		stream, err := c.Subscribe(ctx)
		require.NoError(t, err)
		if err := stream.Send(subscribeReq(gpb.SubscriptionList_STREAM, onChange(p1Oper))); err != nil {
			// The server ended the RPC before the request went out (a
			// refusal): its status comes with Recv.
			_, err = stream.Recv()
			return cancel, err
		}
		_, _, err = recvUntilSync(stream)
		return cancel, err
	}
	t.Run("per client", func(t *testing.T) {
		srv, c := startClient(t, WithMaxSubscriptions(10, 2))
		publishFixture(t, srv)
		s1, err := open(t, c)
		require.NoError(t, err)
		_, err = open(t, c)
		require.NoError(t, err)
		_, err = open(t, c)
		assert.Equal(t, codes.ResourceExhausted, status.Code(err))
		assert.Contains(t, status.Convert(err).Message(), "client 127.0.0.1 has 2 subscriptions open")
		assert.Contains(t, status.Convert(err).Message(), "limit 2 per client")
		// Ending one makes room.
		s1()
		require.Eventually(t, func() bool { return srv.Subscriptions() == 1 }, testTimeout, time.Millisecond)
		_, err = open(t, c)
		require.NoError(t, err)
	})
	t.Run("total", func(t *testing.T) {
		srv, c := startClient(t, WithMaxSubscriptions(1, 5))
		publishFixture(t, srv)
		_, err := open(t, c)
		require.NoError(t, err)
		_, err = open(t, c)
		assert.Equal(t, codes.ResourceExhausted, status.Code(err))
		assert.Contains(t, status.Convert(err).Message(), "the most this server serves at once (limit 1)")
		assert.Equal(t, 1, srv.Subscriptions())
	})
}
