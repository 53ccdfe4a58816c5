package gnmi

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
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

func TestCapabilities(t *testing.T) {
	custom := &gpb.ModelData{Name: "dpi-balancer-telemetry", Organization: "dpi-balancer", Version: "0.1.0"}
	tests := []struct {
		name       string
		opts       []ServerOption
		wantModels []*gpb.ModelData
	}{
		{name: "default models", wantModels: DefaultModels()},
		{name: "custom models", opts: []ServerOption{WithModels(custom)}, wantModels: []*gpb.ModelData{custom}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, c := startClient(t, tt.opts...)
			resp, err := c.Capabilities(testCtx(t), &gpb.CapabilityRequest{})
			require.NoError(t, err)
			assert.Equal(t, "0.10.0", resp.GetGNMIVersion())
			assert.Subset(t, resp.GetSupportedEncodings(), []gpb.Encoding{gpb.Encoding_JSON_IETF, gpb.Encoding_PROTO})
			assert.Empty(t, cmp.Diff(tt.wantModels, resp.GetSupportedModels(), protocmp.Transform()))
		})
	}
}

func TestGet(t *testing.T) {
	srv, c := startClient(t)
	publishFixture(t, srv)

	p1State := map[string]*gpb.TypedValue{
		"/interfaces/interface[name=P1]/state/oper-status":               strVal("UP"),
		"/interfaces/interface[name=P1]/state/admin-status":              strVal("UP"),
		"/interfaces/interface[name=P1]/state/last-change":               uintVal(1700000000000000005),
		"/interfaces/interface[name=P1]/state/counters/in-octets":        uintVal(1000),
		"/interfaces/interface[name=P1]/state/counters/in-unicast-pkts":  uintVal(10),
		"/interfaces/interface[name=P1]/state/counters/out-octets":       uintVal(2000),
		"/interfaces/interface[name=P1]/state/counters/out-unicast-pkts": uintVal(20),
		"/interfaces/interface[name=P1]/state/counters/in-discards":      uintVal(1),
		"/interfaces/interface[name=P1]/state/counters/out-discards":     uintVal(2),
	}
	p1All := map[string]*gpb.TypedValue{"/interfaces/interface[name=P1]/config/enabled": boolVal(true)}
	for k, v := range p1State {
		p1All[k] = v
	}
	operBoth := map[string]*gpb.TypedValue{
		"/interfaces/interface[name=P1]/state/oper-status": strVal("UP"),
		"/interfaces/interface[name=P2]/state/oper-status": strVal("DOWN"),
	}

	tests := []struct {
		name     string
		req      *gpb.GetRequest
		want     map[string]*gpb.TypedValue
		wantCode codes.Code
		wantMsg  string
	}{
		{
			name: "leaf",
			req:  &gpb.GetRequest{Path: []*gpb.Path{p("/interfaces/interface[name=P1]/state/oper-status")}, Encoding: gpb.Encoding_PROTO},
			want: map[string]*gpb.TypedValue{"/interfaces/interface[name=P1]/state/oper-status": strVal("UP")},
		},
		{
			name: "two leaves with target",
			req: &gpb.GetRequest{
				Prefix:   &gpb.Path{Target: testTarget},
				Path:     []*gpb.Path{p("/interfaces/interface[name=P1]/state/oper-status"), p("/interfaces/interface[name=P2]/config/enabled")},
				Encoding: gpb.Encoding_PROTO,
			},
			want: map[string]*gpb.TypedValue{
				"/interfaces/interface[name=P1]/state/oper-status": strVal("UP"),
				"/interfaces/interface[name=P2]/config/enabled":    boolVal(true),
			},
		},
		{
			name: "key wildcard",
			req:  &gpb.GetRequest{Path: []*gpb.Path{p("/interfaces/interface[name=*]/state/oper-status")}, Encoding: gpb.Encoding_PROTO},
			want: operBoth,
		},
		{
			name: "list without keys means all entries",
			req:  &gpb.GetRequest{Path: []*gpb.Path{p("/interfaces/interface/state/oper-status")}, Encoding: gpb.Encoding_PROTO},
			want: operBoth,
		},
		{
			name: "element wildcard",
			req:  &gpb.GetRequest{Path: []*gpb.Path{p("/interfaces/interface[name=P1]/*/oper-status")}, Encoding: gpb.Encoding_PROTO},
			want: map[string]*gpb.TypedValue{"/interfaces/interface[name=P1]/state/oper-status": strVal("UP")},
		},
		{
			name: "prefix and subtree",
			req: &gpb.GetRequest{
				Prefix:   p("/interfaces/interface[name=P1]"),
				Path:     []*gpb.Path{p("/state")},
				Encoding: gpb.Encoding_PROTO,
			},
			want: p1State,
		},
		{
			name: "trailing multi-level wildcard and openconfig origin",
			req: &gpb.GetRequest{
				Path:     []*gpb.Path{{Origin: "openconfig", Elem: p("/interfaces/interface[name=P1]/...").Elem}},
				Encoding: gpb.Encoding_PROTO,
			},
			want: p1All,
		},
		{
			name: "config only",
			req:  &gpb.GetRequest{Path: []*gpb.Path{p("/interfaces/interface[name=P1]")}, Type: gpb.GetRequest_CONFIG, Encoding: gpb.Encoding_PROTO},
			want: map[string]*gpb.TypedValue{"/interfaces/interface[name=P1]/config/enabled": boolVal(true)},
		},
		{
			name: "state only",
			req:  &gpb.GetRequest{Path: []*gpb.Path{p("/interfaces/interface[name=P1]")}, Type: gpb.GetRequest_STATE, Encoding: gpb.Encoding_PROTO},
			want: p1State,
		},
		{
			name: "json_ietf",
			req: &gpb.GetRequest{
				Path:     []*gpb.Path{p("/interfaces/interface[name=P1]/state/counters/in-octets"), p("/interfaces/interface[name=P1]/state/oper-status"), p("/interfaces/interface[name=P1]/config/enabled")},
				Encoding: gpb.Encoding_JSON_IETF,
			},
			want: map[string]*gpb.TypedValue{
				"/interfaces/interface[name=P1]/state/counters/in-octets": {Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: []byte(`"1000"`)}},
				"/interfaces/interface[name=P1]/state/oper-status":        {Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: []byte(`"UP"`)}},
				"/interfaces/interface[name=P1]/config/enabled":           {Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: []byte(`true`)}},
			},
		},
		{
			name: "json",
			req:  &gpb.GetRequest{Path: []*gpb.Path{p("/interfaces/interface[name=P1]/state/counters/in-octets")}, Encoding: gpb.Encoding_JSON},
			want: map[string]*gpb.TypedValue{
				"/interfaces/interface[name=P1]/state/counters/in-octets": {Value: &gpb.TypedValue_JsonVal{JsonVal: []byte(`1000`)}},
			},
		},
		{
			name:     "missing interface",
			req:      &gpb.GetRequest{Path: []*gpb.Path{p("/interfaces/interface[name=P9]/state/oper-status")}, Encoding: gpb.Encoding_PROTO},
			wantCode: codes.NotFound,
			wantMsg:  "/interfaces/interface[name=P9]/state/oper-status",
		},
		{
			name:     "unknown target",
			req:      &gpb.GetRequest{Prefix: &gpb.Path{Target: "other"}, Path: []*gpb.Path{p("/interfaces")}, Encoding: gpb.Encoding_PROTO},
			wantCode: codes.NotFound,
			wantMsg:  `unknown target "other"`,
		},
		{
			name:     "unsupported encoding",
			req:      &gpb.GetRequest{Path: []*gpb.Path{p("/interfaces")}, Encoding: gpb.Encoding_ASCII},
			wantCode: codes.InvalidArgument,
			wantMsg:  "encoding ASCII",
		},
		{
			name:     "inner multi-level wildcard",
			req:      &gpb.GetRequest{Path: []*gpb.Path{p("/interfaces/.../oper-status")}, Encoding: gpb.Encoding_PROTO},
			wantCode: codes.InvalidArgument,
			wantMsg:  `"..."`,
		},
		{
			name:     "unknown origin",
			req:      &gpb.GetRequest{Path: []*gpb.Path{{Origin: "cli", Elem: p("/interfaces").Elem}}, Encoding: gpb.Encoding_PROTO},
			wantCode: codes.InvalidArgument,
			wantMsg:  `origin "cli"`,
		},
		{
			name:     "wrong list key",
			req:      &gpb.GetRequest{Path: []*gpb.Path{p("/interfaces/interface[id=1]/state")}, Encoding: gpb.Encoding_PROTO},
			wantCode: codes.InvalidArgument,
			wantMsg:  `not "id"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := c.Get(testCtx(t), tt.req)
			if tt.wantCode != codes.OK {
				require.Error(t, err)
				assert.Equal(t, tt.wantCode, status.Code(err), "%v", err)
				assert.Contains(t, status.Convert(err).Message(), tt.wantMsg)
				return
			}
			require.NoError(t, err)
			assert.Empty(t, cmp.Diff(tt.want, leaves(resp.GetNotification()...), protocmp.Transform()))
			for _, n := range resp.GetNotification() {
				assert.NotZero(t, n.GetTimestamp(), "timestamp")
			}
		})
	}
}

func TestUpdate(t *testing.T) {
	srv := newTestServer(t)
	leaf := func(target string, path *gpb.Path, v *gpb.TypedValue) *gpb.Notification {
		return &gpb.Notification{Prefix: &gpb.Path{Target: target}, Update: []*gpb.Update{{Path: path, Val: v}}}
	}
	tests := []struct {
		name    string
		n       *gpb.Notification
		wantErr error
	}{
		{name: "ok without target", n: leaf("", p("/balancer/state/mode"), strVal("active"))},
		{name: "ok with target", n: leaf(testTarget, p("/balancer/state/mode"), strVal("bypass"))},
		{name: "nil", n: nil, wantErr: ErrInvalidArgument},
		{name: "other target", n: leaf("sw2", p("/a"), strVal("x")), wantErr: ErrInvalidArgument},
		{name: "no value", n: leaf("", p("/a"), nil), wantErr: ErrInvalidArgument},
		{name: "no path", n: leaf("", nil, strVal("x")), wantErr: ErrInvalidArgument},
		{
			name:    "unsupported origin",
			n:       &gpb.Notification{Prefix: &gpb.Path{Origin: "cli"}, Update: []*gpb.Update{{Path: p("/a"), Val: strVal("x")}}},
			wantErr: ErrInvalidArgument,
		},
		{name: "delete everything", n: &gpb.Notification{Delete: []*gpb.Path{{}}}, wantErr: ErrInvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := srv.Update(tt.n)
			if tt.wantErr != nil {
				assert.ErrorIs(t, err, tt.wantErr)
				return
			}
			assert.NoError(t, err)
		})
	}

	t.Run("caller notification untouched", func(t *testing.T) {
		n := leaf("", p("/balancer/state/mode"), strVal("active"))
		orig := leaf("", p("/balancer/state/mode"), strVal("active"))
		require.NoError(t, srv.Update(n))
		assert.Empty(t, cmp.Diff(orig, n, protocmp.Transform()))
	})

	t.Run("delete", func(t *testing.T) {
		require.NoError(t, srv.Update(leaf("", p("/balancer/groups/group[name=g1]/state/active"), boolVal(true))))
		require.NotEmpty(t, srv.query(p("/balancer/groups/group[name=g1]")))
		require.NoError(t, srv.Update(&gpb.Notification{Delete: []*gpb.Path{p("/balancer/groups/group[name=g1]")}}))
		assert.Empty(t, srv.query(p("/balancer/groups/group[name=g1]")))
	})
}

func TestSet(t *testing.T) {
	type call struct {
		name    string
		enabled bool
	}
	enabled := func(name string) *gpb.Path { return p("/interfaces/interface[name=" + name + "]/config/enabled") }

	tests := []struct {
		name      string
		req       *gpb.SetRequest
		applyErr  error
		wantCalls []call
		wantOps   []gpb.UpdateResult_Operation
		wantCode  codes.Code
		wantMsg   string
	}{
		{
			name:      "update disables",
			req:       &gpb.SetRequest{Update: []*gpb.Update{{Path: enabled("P1"), Val: boolVal(false)}}},
			wantCalls: []call{{"P1", false}},
			wantOps:   []gpb.UpdateResult_Operation{gpb.UpdateResult_UPDATE},
		},
		{
			name: "replace with prefix and json_ietf, then update",
			req: &gpb.SetRequest{
				Prefix:  &gpb.Path{Target: testTarget, Origin: "openconfig", Elem: p("/interfaces/interface[name=P2]").Elem},
				Update:  []*gpb.Update{{Path: p("/config/enabled"), Val: boolVal(false)}},
				Replace: []*gpb.Update{{Path: p("/config/enabled"), Val: &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: []byte("true")}}}},
			},
			wantCalls: []call{{"P2", true}, {"P2", false}},
			wantOps:   []gpb.UpdateResult_Operation{gpb.UpdateResult_REPLACE, gpb.UpdateResult_UPDATE},
		},
		{
			name: "bad path is rejected before anything is applied",
			req: &gpb.SetRequest{Update: []*gpb.Update{
				{Path: enabled("P1"), Val: boolVal(false)},
				{Path: p("/interfaces/interface[name=P1]/state/oper-status"), Val: strVal("DOWN")},
			}},
			wantCode: codes.InvalidArgument,
			wantMsg:  "/interfaces/interface[name=P1]/state/oper-status",
		},
		{
			name:     "not a bool",
			req:      &gpb.SetRequest{Update: []*gpb.Update{{Path: enabled("P1"), Val: strVal("false")}}},
			wantCode: codes.InvalidArgument,
			wantMsg:  "boolean",
		},
		{
			name:     "wildcard name",
			req:      &gpb.SetRequest{Update: []*gpb.Update{{Path: enabled("*"), Val: boolVal(false)}}},
			wantCode: codes.InvalidArgument,
			wantMsg:  "one interface",
		},
		{
			name:     "delete",
			req:      &gpb.SetRequest{Delete: []*gpb.Path{enabled("P1")}},
			wantCode: codes.InvalidArgument,
			wantMsg:  "delete of /interfaces/interface[name=P1]/config/enabled",
		},
		{
			name:     "unknown target",
			req:      &gpb.SetRequest{Prefix: &gpb.Path{Target: "sw9"}, Update: []*gpb.Update{{Path: enabled("P1"), Val: boolVal(false)}}},
			wantCode: codes.NotFound,
			wantMsg:  "sw9",
		},
		{
			name:      "unknown port",
			req:       &gpb.SetRequest{Update: []*gpb.Update{{Path: enabled("P9"), Val: boolVal(false)}}},
			applyErr:  fmt.Errorf("port P9: %w", ErrNotFound),
			wantCalls: []call{{"P9", false}},
			wantCode:  codes.NotFound,
			wantMsg:   "port P9",
		},
		{
			name:      "switch failure",
			req:       &gpb.SetRequest{Update: []*gpb.Update{{Path: enabled("P1"), Val: boolVal(false)}}},
			applyErr:  errors.New("p4runtime write failed"),
			wantCalls: []call{{"P1", false}},
			wantCode:  codes.Aborted,
			wantMsg:   "p4runtime write failed",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var (
				mu    sync.Mutex
				calls []call
				srv   *Server
			)
			apply := func(name string, en bool) error {
				mu.Lock()
				calls = append(calls, call{name, en})
				mu.Unlock()
				if tt.applyErr != nil {
					return tt.applyErr
				}
				// The switch publishes the new admin state once it holds.
				st := p1
				if name == "P2" {
					st = p2
				}
				st.AdminUp = en
				return srv.PublishInterface(st)
			}
			srv, c := startClient(t, WithSetHandler(InterfaceEnabledSetHandler(apply)))
			publishFixture(t, srv)

			resp, err := c.Set(testCtx(t), tt.req)
			mu.Lock()
			assert.Equal(t, tt.wantCalls, calls)
			mu.Unlock()
			if tt.wantCode != codes.OK {
				require.Error(t, err)
				assert.Equal(t, tt.wantCode, status.Code(err), "%v", err)
				assert.Contains(t, status.Convert(err).Message(), tt.wantMsg)
				return
			}
			require.NoError(t, err)
			var ops []gpb.UpdateResult_Operation
			for _, r := range resp.GetResponse() {
				ops = append(ops, r.GetOp())
			}
			assert.Equal(t, tt.wantOps, ops)
			assert.NotZero(t, resp.GetTimestamp())

			// The served tree follows what the switch published.
			last := tt.wantCalls[len(tt.wantCalls)-1]
			got, err := c.Get(testCtx(t), &gpb.GetRequest{Path: []*gpb.Path{enabled(last.name)}, Encoding: gpb.Encoding_PROTO})
			require.NoError(t, err)
			assert.Empty(t, cmp.Diff(map[string]*gpb.TypedValue{pathString(nil, enabled(last.name)): boolVal(last.enabled)},
				leaves(got.GetNotification()...), protocmp.Transform()))
		})
	}

	t.Run("without handler", func(t *testing.T) {
		_, c := startClient(t)
		_, err := c.Set(testCtx(t), &gpb.SetRequest{Update: []*gpb.Update{{Path: enabled("P1"), Val: boolVal(false)}}})
		assert.Equal(t, codes.Unimplemented, status.Code(err), "%v", err)
	})
}

func TestClose(t *testing.T) {
	tests := []struct {
		name string
		req  *gpb.SubscribeRequest // nil: the client opens the stream and sends nothing
	}{
		{name: "on change stream", req: subscribeReq(gpb.SubscriptionList_STREAM, onChange(p1Oper))},
		{name: "sample stream", req: subscribeReq(gpb.SubscriptionList_STREAM, sample(p1Oper, 100*time.Millisecond, false))},
		{name: "mixed stream", req: subscribeReq(gpb.SubscriptionList_STREAM, onChange(p1Oper), sample(p2Oper, 100*time.Millisecond, false))},
		{name: "poll", req: subscribeReq(gpb.SubscriptionList_POLL, onChange(p1Oper))},
		{name: "silent client"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, c := startClient(t, WithLogger(slog.New(slog.DiscardHandler)))
			publishFixture(t, srv)

			ctx := testCtx(t)
			stream, err := c.Subscribe(ctx)
			require.NoError(t, err)
			if tt.req != nil {
				require.NoError(t, stream.Send(tt.req))
				_, _, err = recvUntilSync(stream)
				require.NoError(t, err)
			}

			closed := make(chan error, 1)
			go func() { closed <- srv.Close() }()
			require.NoError(t, next(t, closed, "Close to return"))
			for {
				if _, err = stream.Recv(); err != nil {
					break // SAMPLE may still deliver samples sent before Close
				}
			}
			assert.Equal(t, codes.Unavailable, status.Code(err), "%v", err)

			assert.ErrorIs(t, srv.Update(&gpb.Notification{}), ErrClosed)
			assert.ErrorIs(t, srv.PublishInterface(p1), ErrClosed)
			_, err = c.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{p("/interfaces")}})
			assert.Equal(t, codes.Unavailable, status.Code(err), "%v", err)
			assert.NoError(t, srv.Close(), "second Close")
		})
	}
}

// recvUntilSync reads updates until sync_response.
func recvUntilSync(stream gpb.GNMI_SubscribeClient) ([]*gpb.Notification, bool, error) {
	var ns []*gpb.Notification
	for {
		resp, err := stream.Recv()
		if err != nil {
			return ns, false, err
		}
		if resp.GetSyncResponse() {
			return ns, true, nil
		}
		ns = append(ns, resp.GetUpdate())
	}
}

// recvNext reads the next update notification, failing on sync_response.
func recvNext(t *testing.T, stream gpb.GNMI_SubscribeClient) *gpb.Notification {
	t.Helper()
	resp, err := stream.Recv()
	require.NoError(t, err)
	require.NotNil(t, resp.GetUpdate(), "want an update, got %v", resp)
	return resp.GetUpdate()
}

func subscribeReq(mode gpb.SubscriptionList_Mode, subs ...*gpb.Subscription) *gpb.SubscribeRequest {
	return &gpb.SubscribeRequest{Request: &gpb.SubscribeRequest_Subscribe{Subscribe: &gpb.SubscriptionList{
		Mode: mode, Encoding: gpb.Encoding_PROTO, Subscription: subs,
	}}}
}

func onChange(path string) *gpb.Subscription {
	return &gpb.Subscription{Path: p(path), Mode: gpb.SubscriptionMode_ON_CHANGE}
}
