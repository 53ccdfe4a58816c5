package sim

import (
	"context"
	"net"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/status"

	"github.com/dpi-balancer/balancer/internal/stallproxy"
)

// The switch's gRPC servers let a controller ping every 10s, also with no
// call open (as Stratum does): a grpc-go server with the default policy
// would answer the third ping with GOAWAY too_many_pings, about 30s in.
func TestServerPermitsKeepalivePings(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 40s of idle connection (-short)")
	}
	t.Parallel()
	sw, err := New(Options{Ports: map[uint32]Port{}})
	require.NoError(t, err)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sw.Serve(ctx, lis, nil) }()
	t.Cleanup(func() { cancel(); <-done })

	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithKeepaliveParams(keepalive.ClientParameters{Time: 10 * time.Second, Timeout: 5 * time.Second, PermitWithoutStream: true}))
	require.NoError(t, err)
	defer cc.Close()
	_, err = p4v1.NewP4RuntimeClient(cc).Capabilities(context.Background(), &p4v1.CapabilitiesRequest{})
	require.NoError(t, err)
	// The channel reports READY asynchronously, possibly a moment after
	// the first call returned (seen on a loaded host): wait for it.
	rctx, rcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer rcancel()
	for st := cc.GetState(); st != connectivity.Ready; st = cc.GetState() {
		require.True(t, cc.WaitForStateChange(rctx, st), "the connection did not become READY (%v)", st)
	}
	wctx, wcancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer wcancel()
	changed := cc.WaitForStateChange(wctx, connectivity.Ready)
	assert.False(t, changed, "the connection left READY (%v): the server refused the pings", cc.GetState())
}

// serveOn serves sw on 127.0.0.1:0 until the test ends.
func serveOn(t *testing.T, sw *Switch) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sw.Serve(ctx, lis, nil) }()
	t.Cleanup(func() { cancel(); <-done })
	return lis.Addr().String()
}

// arbitrate opens a stream to addr with election id (0, low) and returns
// the switch's first answer: the arbitration update, or the error that
// ended the stream.
func arbitrate(t *testing.T, addr string, low uint64) (*p4v1.MasterArbitrationUpdate, error) {
	t.Helper()
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { cc.Close() })
	st, err := p4v1.NewP4RuntimeClient(cc).StreamChannel(context.Background())
	require.NoError(t, err)
	require.NoError(t, st.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Arbitration{
		Arbitration: &p4v1.MasterArbitrationUpdate{DeviceId: 1, ElectionId: &p4v1.Uint128{Low: low}}}}))
	m, err := st.Recv()
	if err != nil {
		return nil, err
	}
	return m.GetArbitration(), nil
}

// A network cut that loses the close leaves the switch holding the
// controller's stream: the controller, back, is refused its own election
// id. The switch's keepalive drops the dead stream within KeepaliveTime +
// KeepaliveTimeout of its last frame and frees the id; with the pings
// off the id stays taken.
func TestKeepaliveFreesElectionIDOfSeveredStream(t *testing.T) {
	t.Parallel()
	const kaTime, kaTimeout = time.Second, 500 * time.Millisecond
	for _, tc := range []struct {
		name      string
		keepalive time.Duration
	}{
		{"keepalive frees the id", kaTime},
		{"no keepalive: the id stays taken", KeepaliveOff},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sw, err := New(Options{Ports: map[uint32]Port{}, KeepaliveTime: tc.keepalive, KeepaliveTimeout: kaTimeout})
			require.NoError(t, err)
			addr := serveOn(t, sw)
			proxy := stallproxy.New(t, addr)
			a, err := arbitrate(t, proxy.Addr(), 7)
			require.NoError(t, err)
			require.Equal(t, int32(0), a.GetStatus().GetCode(), "primary")

			proxy.Sever()
			cut := time.Now()
			_, err = arbitrate(t, addr, 7)
			require.Error(t, err, "the switch still holds the severed stream")
			assert.Equal(t, codes.InvalidArgument, status.Code(err))
			assert.Contains(t, status.Convert(err).Message(), "election id 7 is already used")

			if tc.keepalive == KeepaliveOff {
				// A bounded look at a non-event: well past when the
				// keepalive would have freed it, the id is still taken.
				time.Sleep(3 * (kaTime + kaTimeout))
				_, err = arbitrate(t, addr, 7)
				require.Error(t, err, "without pings the switch never drops the severed stream")
				return
			}
			var refusals int
			for {
				a, err = arbitrate(t, addr, 7)
				if err == nil {
					break
				}
				require.Equal(t, codes.InvalidArgument, status.Code(err), "%v", err)
				refusals++
				require.Less(t, time.Since(cut), 10*(kaTime+kaTimeout), "the id was not freed")
				time.Sleep(50 * time.Millisecond)
			}
			freed := time.Since(cut)
			t.Logf("the switch freed the id %v after the cut (keepalive %v + %v), %d refusals", freed, kaTime, kaTimeout, refusals)
			assert.Equal(t, int32(0), a.GetStatus().GetCode(), "primary again")
			assert.Less(t, freed, 2*(kaTime+kaTimeout))
		})
	}
}
