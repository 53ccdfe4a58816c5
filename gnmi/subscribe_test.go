package gnmi

import (
	"context"
	"errors"
	"io"
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

const (
	p1Oper = "/interfaces/interface[name=P1]/state/oper-status"
	p2Oper = "/interfaces/interface[name=P2]/state/oper-status"
)

// openSub opens a Subscribe stream bounded by the test timeout and sends req.
func openSub(t *testing.T, c gpb.GNMIClient, req *gpb.SubscribeRequest) gpb.GNMI_SubscribeClient {
	t.Helper()
	return openSubCtx(t, testCtx(t), c, req)
}

// openSubCtx is openSub on a stream of ctx.
func openSubCtx(t *testing.T, ctx context.Context, c gpb.GNMIClient, req *gpb.SubscribeRequest) gpb.GNMI_SubscribeClient {
	t.Helper()
	stream, err := c.Subscribe(ctx)
	require.NoError(t, err)
	// io.EOF: the server ended the stream while the request was still
	// being sent (it refuses a big list as soon as it has it, and the
	// client may not have seen the end of its own Send yet); gRPC gives
	// the server's status to the next Recv.
	if err := stream.Send(req); !errors.Is(err, io.EOF) {
		require.NoError(t, err)
	}
	return stream
}

func sample(path string, interval time.Duration, suppress bool) *gpb.Subscription {
	return &gpb.Subscription{
		Path: p(path), Mode: gpb.SubscriptionMode_SAMPLE,
		SampleInterval: uint64(interval), SuppressRedundant: suppress,
	}
}

func TestSubscribeOnce(t *testing.T) {
	srv, c := startClient(t)
	publishFixture(t, srv)

	tests := []struct {
		name string
		req  *gpb.SubscribeRequest
		want map[string]*gpb.TypedValue
	}{
		{
			name: "wildcard leaf without prefix",
			req:  subscribeReq(gpb.SubscriptionList_ONCE, onChange("/interfaces/interface[name=*]/state/oper-status")),
			want: map[string]*gpb.TypedValue{p1Oper: strVal("UP"), p2Oper: strVal("DOWN")},
		},
		{
			name: "prefix with target and path",
			req: &gpb.SubscribeRequest{Request: &gpb.SubscribeRequest_Subscribe{Subscribe: &gpb.SubscriptionList{
				Prefix:       &gpb.Path{Target: testTarget, Elem: p("/interfaces/interface[name=P2]").Elem},
				Mode:         gpb.SubscriptionList_ONCE,
				Subscription: []*gpb.Subscription{{Path: p("/state/counters/in-octets")}, {Path: p("/config")}},
			}}},
			want: map[string]*gpb.TypedValue{
				"/interfaces/interface[name=P2]/state/counters/in-octets": uintVal(0),
				"/interfaces/interface[name=P2]/config/enabled":           boolVal(true),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stream := openSub(t, c, tt.req)
			ns, synced, err := recvUntilSync(stream)
			require.NoError(t, err)
			require.True(t, synced)
			assert.Empty(t, cmp.Diff(tt.want, leaves(ns...), protocmp.Transform()))
			_, err = stream.Recv()
			assert.ErrorIs(t, err, io.EOF, "ONCE ends after sync")
		})
	}
}

func TestSubscribePoll(t *testing.T) {
	srv, c := startClient(t)
	publishFixture(t, srv)

	stream := openSub(t, c, subscribeReq(gpb.SubscriptionList_POLL, onChange(p1Oper)))
	ns, _, err := recvUntilSync(stream)
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff(map[string]*gpb.TypedValue{p1Oper: strVal("UP")}, leaves(ns...), protocmp.Transform()))

	down := p1
	down.OperUp = false
	require.NoError(t, srv.PublishInterface(down))
	require.NoError(t, stream.Send(&gpb.SubscribeRequest{Request: &gpb.SubscribeRequest_Poll{Poll: &gpb.Poll{}}}))
	ns, _, err = recvUntilSync(stream)
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff(map[string]*gpb.TypedValue{p1Oper: strVal("DOWN")}, leaves(ns...), protocmp.Transform()))
	require.NoError(t, stream.CloseSend())
}

func TestSubscribeStreamOnChange(t *testing.T) {
	for _, mode := range []gpb.SubscriptionMode{gpb.SubscriptionMode_ON_CHANGE, gpb.SubscriptionMode_TARGET_DEFINED} {
		t.Run(mode.String(), func(t *testing.T) {
			srv, c := startClient(t)
			publishFixture(t, srv)

			sub := &gpb.Subscription{Path: p("/interfaces/interface[name=P1]"), Mode: mode}
			stream := openSub(t, c, subscribeReq(gpb.SubscriptionList_STREAM, sub))
			ns, _, err := recvUntilSync(stream)
			require.NoError(t, err)
			assert.Len(t, leaves(ns...), 10, "initial state of every P1 leaf")

			// Only the changed leaf is sent: the next update after each
			// publication is exactly the leaf that changed.
			st := p1
			st.OperUp = false
			require.NoError(t, srv.PublishInterface(st))
			assert.Empty(t, cmp.Diff(map[string]*gpb.TypedValue{p1Oper: strVal("DOWN")},
				leaves(recvNext(t, stream)), protocmp.Transform()))

			require.NoError(t, srv.PublishInterface(st)) // no change at all
			st.InOctets++
			require.NoError(t, srv.PublishInterface(st))
			assert.Empty(t, cmp.Diff(map[string]*gpb.TypedValue{"/interfaces/interface[name=P1]/state/counters/in-octets": uintVal(1001)},
				leaves(recvNext(t, stream)), protocmp.Transform()))

			// Other interfaces are not sent to this subscriber.
			st2 := p2
			st2.OperUp = true
			require.NoError(t, srv.PublishInterface(st2))
			st.OutOctets++
			require.NoError(t, srv.PublishInterface(st))
			assert.Empty(t, cmp.Diff(map[string]*gpb.TypedValue{"/interfaces/interface[name=P1]/state/counters/out-octets": uintVal(2001)},
				leaves(recvNext(t, stream)), protocmp.Transform()))
		})
	}
}

func TestSubscribeStreamUpdatesOnly(t *testing.T) {
	srv, c := startClient(t)
	publishFixture(t, srv)

	req := subscribeReq(gpb.SubscriptionList_STREAM, onChange(p1Oper))
	req.GetSubscribe().UpdatesOnly = true
	stream := openSub(t, c, req)
	ns, _, err := recvUntilSync(stream)
	require.NoError(t, err)
	assert.Empty(t, ns, "updates_only sends no initial state")

	st := p1
	st.OperUp = false
	require.NoError(t, srv.PublishInterface(st))
	assert.Empty(t, cmp.Diff(map[string]*gpb.TypedValue{p1Oper: strVal("DOWN")}, leaves(recvNext(t, stream)), protocmp.Transform()))
}

func TestSubscribeStreamDelete(t *testing.T) {
	srv, c := startClient(t)
	publishFixture(t, srv)

	stream := openSub(t, c, subscribeReq(gpb.SubscriptionList_STREAM, onChange("/interfaces/interface[name=*]/state/oper-status")))
	_, _, err := recvUntilSync(stream)
	require.NoError(t, err)

	require.NoError(t, srv.DeleteInterface("P2"))
	assert.Equal(t, []string{p2Oper}, deletes(recvNext(t, stream)))
}

func TestSubscribeSample(t *testing.T) {
	const interval = 50 * time.Millisecond
	srv, c := startClient(t, WithMinSampleInterval(interval))
	publishFixture(t, srv)

	stream := openSub(t, c, subscribeReq(gpb.SubscriptionList_STREAM, sample(p1Oper, interval, false)))
	ns, _, err := recvUntilSync(stream)
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff(map[string]*gpb.TypedValue{p1Oper: strVal("UP")}, leaves(ns...), protocmp.Transform()))

	synced := time.Now()
	for range 2 {
		assert.Empty(t, cmp.Diff(map[string]*gpb.TypedValue{p1Oper: strVal("UP")}, leaves(recvNext(t, stream)), protocmp.Transform()))
	}
	// Samples come at the interval, not as fast as possible: the second one
	// after sync is due two intervals after the initial sample.
	assert.GreaterOrEqual(t, time.Since(synced), interval+interval/2)

	// A change shows up in a later sample.
	st := p1
	st.OperUp = false
	require.NoError(t, srv.PublishInterface(st))
	for {
		if v := leaves(recvNext(t, stream))[p1Oper]; v.GetStringVal() == "DOWN" {
			break
		}
	}
}

func TestSubscribeSampleSuppressRedundant(t *testing.T) {
	srv, c := startClient(t)
	publishFixture(t, srv)

	const interval = 100 * time.Millisecond
	stream := openSub(t, c, subscribeReq(gpb.SubscriptionList_STREAM,
		sample(p1Oper, interval, true),   // suppressed while unchanged
		sample(p2Oper, interval, false))) // a clock: sent every interval
	ns, _, err := recvUntilSync(stream)
	require.NoError(t, err)
	assert.Len(t, leaves(ns...), 2, "initial sample includes suppressed leaves")

	p2Samples := 0
	for p2Samples < 3 {
		got := leaves(recvNext(t, stream))
		require.NotContains(t, got, p1Oper, "unchanged leaf sent with suppress_redundant")
		if _, ok := got[p2Oper]; ok {
			p2Samples++
		}
	}

	st := p1
	st.OperUp = false
	require.NoError(t, srv.PublishInterface(st))
	for {
		if v, ok := leaves(recvNext(t, stream))[p1Oper]; ok {
			assert.Equal(t, "DOWN", v.GetStringVal())
			break
		}
	}
}

func TestSubscribeSampleDelete(t *testing.T) {
	srv, c := startClient(t)
	publishFixture(t, srv)

	stream := openSub(t, c, subscribeReq(gpb.SubscriptionList_STREAM, sample("/interfaces/interface/state/oper-status", 100*time.Millisecond, false)))
	ns, _, err := recvUntilSync(stream)
	require.NoError(t, err)
	assert.Len(t, leaves(ns...), 2)

	require.NoError(t, srv.DeleteInterface("P2"))
	for {
		if d := deletes(recvNext(t, stream)); len(d) > 0 {
			assert.Equal(t, []string{p2Oper}, d)
			break
		}
	}
}

func TestSubscribeMixedOnChangeAndSample(t *testing.T) {
	srv, c := startClient(t)
	publishFixture(t, srv)

	stream := openSub(t, c, subscribeReq(gpb.SubscriptionList_STREAM,
		onChange(p1Oper),
		sample(p2Oper, 100*time.Millisecond, false)))
	ns, _, err := recvUntilSync(stream)
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff(map[string]*gpb.TypedValue{p1Oper: strVal("UP"), p2Oper: strVal("DOWN")}, leaves(ns...), protocmp.Transform()))

	// recvNext fails on a second sync_response.
	st := p1
	st.OperUp = false
	require.NoError(t, srv.PublishInterface(st))
	p1Seen, p2Samples := false, 0
	for !p1Seen || p2Samples < 2 {
		got := leaves(recvNext(t, stream))
		if v, ok := got[p1Oper]; ok {
			assert.Equal(t, "DOWN", v.GetStringVal())
			p1Seen = true
		}
		if _, ok := got[p2Oper]; ok {
			p2Samples++
		}
	}
}

func TestSubscribeErrors(t *testing.T) {
	srv, c := startClient(t)
	publishFixture(t, srv)

	withList := func(f func(*gpb.SubscriptionList)) *gpb.SubscribeRequest {
		req := subscribeReq(gpb.SubscriptionList_STREAM, onChange(p1Oper))
		f(req.GetSubscribe())
		return req
	}
	tests := []struct {
		name     string
		req      *gpb.SubscribeRequest
		wantCode codes.Code
		wantMsg  string
	}{
		{
			name:     "poll before subscribe",
			req:      &gpb.SubscribeRequest{Request: &gpb.SubscribeRequest_Poll{Poll: &gpb.Poll{}}},
			wantCode: codes.InvalidArgument,
			wantMsg:  "subscription list",
		},
		{
			name:     "unknown target",
			req:      withList(func(l *gpb.SubscriptionList) { l.Prefix = &gpb.Path{Target: "sw9"} }),
			wantCode: codes.NotFound,
			wantMsg:  `unknown target "sw9"`,
		},
		{
			name:     "no subscriptions",
			req:      withList(func(l *gpb.SubscriptionList) { l.Subscription = nil }),
			wantCode: codes.InvalidArgument,
			wantMsg:  "no subscriptions",
		},
		{
			name:     "sample too fast",
			req:      subscribeReq(gpb.SubscriptionList_STREAM, sample(p1Oper, time.Millisecond, false)),
			wantCode: codes.InvalidArgument,
			wantMsg:  "sample_interval 1ms is below the minimum 100ms",
		},
		{
			name:     "unknown subscription mode",
			req:      withList(func(l *gpb.SubscriptionList) { l.Subscription[0].Mode = 42 }),
			wantCode: codes.InvalidArgument,
			wantMsg:  p1Oper + ": unknown mode 42",
		},
		{
			name:     "unknown list mode",
			req:      withList(func(l *gpb.SubscriptionList) { l.Mode = 42 }),
			wantCode: codes.InvalidArgument,
			wantMsg:  "unknown subscription list mode 42",
		},
		{
			name:     "unsupported encoding",
			req:      withList(func(l *gpb.SubscriptionList) { l.Encoding = gpb.Encoding_ASCII }),
			wantCode: codes.InvalidArgument,
			wantMsg:  "encoding ASCII",
		},
		{
			name:     "bad path",
			req:      subscribeReq(gpb.SubscriptionList_STREAM, onChange("/interfaces/.../oper-status")),
			wantCode: codes.InvalidArgument,
			wantMsg:  "/interfaces/.../oper-status",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stream := openSub(t, c, tt.req)
			_, err := stream.Recv()
			require.Error(t, err)
			assert.Equal(t, tt.wantCode, status.Code(err), "%v", err)
			assert.Contains(t, status.Convert(err).Message(), tt.wantMsg)
		})
	}
}

func TestListSchemaNormalize(t *testing.T) {
	ls := newListSchema()
	ls.learn(p("/balancer/groups/group[name=g1][site=a]/state/active"))
	tests := []struct {
		name    string
		in      string
		want    string
		wantErr bool
	}{
		{name: "plain", in: "/interfaces", want: "/interfaces"},
		{name: "keys filled", in: "/interfaces/interface/state", want: "/interfaces/interface[name=*]/state"},
		{name: "keys kept", in: "/interfaces/interface[name=P1]", want: "/interfaces/interface[name=P1]"},
		{name: "learned multi-key list", in: "/balancer/groups/group[site=a]/state", want: "/balancer/groups/group[name=*][site=a]/state"},
		{name: "trailing ...", in: "/interfaces/...", want: "/interfaces"},
		{name: "inner ...", in: "/.../state", wantErr: true},
		{name: "unknown key", in: "/interfaces/interface[ifindex=3]", wantErr: true},
		{name: "empty key value", in: "/interfaces/interface[name=]", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ls.normalize(p(tt.in))
			if tt.wantErr {
				assert.True(t, errors.Is(err, ErrInvalidArgument), "%v", err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, pathString(nil, got))
		})
	}
}

func TestJSONValue(t *testing.T) {
	tests := []struct {
		name     string
		v        *gpb.TypedValue
		ietf     string
		json     string
		wantFail bool
	}{
		{name: "string", v: strVal("UP"), ietf: `"UP"`, json: `"UP"`},
		{name: "uint", v: uintVal(18446744073709551615), ietf: `"18446744073709551615"`, json: `18446744073709551615`},
		{name: "int", v: &gpb.TypedValue{Value: &gpb.TypedValue_IntVal{IntVal: -5}}, ietf: `"-5"`, json: `-5`},
		{name: "bool", v: boolVal(true), ietf: `true`, json: `true`},
		{name: "double", v: &gpb.TypedValue{Value: &gpb.TypedValue_DoubleVal{DoubleVal: 1.5}}, ietf: `1.5`, json: `1.5`},
		{name: "decimal", v: &gpb.TypedValue{Value: &gpb.TypedValue_DecimalVal{DecimalVal: &gpb.Decimal64{Digits: -1234, Precision: 3}}}, ietf: `"-1.234"`, json: `-1.234`},
		{name: "small decimal", v: &gpb.TypedValue{Value: &gpb.TypedValue_DecimalVal{DecimalVal: &gpb.Decimal64{Digits: 5, Precision: 2}}}, ietf: `"0.05"`, json: `0.05`},
		{name: "bytes", v: &gpb.TypedValue{Value: &gpb.TypedValue_BytesVal{BytesVal: []byte{1, 2}}}, ietf: `"AQI="`, json: `"AQI="`},
		{
			name: "leaf-list",
			v:    &gpb.TypedValue{Value: &gpb.TypedValue_LeaflistVal{LeaflistVal: &gpb.ScalarArray{Element: []*gpb.TypedValue{uintVal(1), strVal("a")}}}},
			ietf: `["1","a"]`, json: `[1,"a"]`,
		},
		{name: "no value", v: &gpb.TypedValue{}, wantFail: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ietf, err := jsonValue(tt.v, true)
			if tt.wantFail {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.ietf, string(ietf))
			plain, err := jsonValue(tt.v, false)
			require.NoError(t, err)
			assert.Equal(t, tt.json, string(plain))
		})
	}
}
