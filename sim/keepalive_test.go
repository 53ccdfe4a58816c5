package sim

import (
	"context"
	"net"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/http2"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/dpi-balancer/balancer/internal/stallproxy"
)

// grpcClientMinPing is the shortest keep-alive interval a grpc-go client
// sends (keepalive.ClientParameters.Time: below 10s, 10s is used), and
// Stratum's --grpc_keepalive_min_ping_interval.
const grpcClientMinPing = 10 * time.Second

// The switch's gRPC servers let a controller ping every 10s, also with no
// call open (as Stratum does): a grpc-go server with the default policy
// would answer the third ping with GOAWAY too_many_pings, about 30s in.
// The policy as data: pings without a call are permitted, and a ping
// every 10s is within the policy with room for one arriving early on a
// busy host (half the interval). TestServerPermitsKeepalivePings shows
// the servers apply this policy on a real connection.
func TestKeepalivePolicyPermitsControllerPings(t *testing.T) {
	assert.True(t, keepalivePolicy.PermitWithoutStream, "pings with no call open")
	assert.LessOrEqual(t, keepalivePolicy.MinTime, grpcClientMinPing/2, "a controller's ping every %v, arriving early", grpcClientMinPing)
}

// scaledKeepalive is the tests' MinTime: the policy scaled down so that a
// connection's worth of pings runs in a second.
const scaledKeepalive = 50 * time.Millisecond

// serveScaled runs a switch whose servers apply the keep-alive policy with
// MinTime scaledKeepalive, and returns its address.
func serveScaled(t *testing.T) string {
	t.Helper()
	sw, err := New(Options{Ports: map[uint32]Port{}, keepaliveMinTime: scaledKeepalive})
	require.NoError(t, err)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sw.Serve(ctx, lis, nil) }()
	t.Cleanup(func() { cancel(); <-done })
	return lis.Addr().String()
}

// pinger is a bare HTTP/2 client connection that opens no stream and
// sends pings, as a controller's idle channel does.
type pinger struct {
	fr   *http2.Framer
	conn net.Conn
}

func dialPinger(t *testing.T, addr string) *pinger {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	// A bound on a broken server, not a wait: every read below has an
	// answer coming.
	require.NoError(t, conn.SetDeadline(time.Now().Add(30*time.Second)))
	_, err = conn.Write([]byte(http2.ClientPreface))
	require.NoError(t, err)
	fr := http2.NewFramer(conn, conn)
	require.NoError(t, fr.WriteSettings())
	return &pinger{fr: fr, conn: conn}
}

// ping sends ping n and reads frames until its ack; it returns the server's
// GOAWAY when one came first (nil: none).
func (p *pinger) ping(t *testing.T, n byte) *http2.GoAwayFrame {
	t.Helper()
	require.NoError(t, p.fr.WritePing(false, [8]byte{n}))
	for {
		f, err := p.fr.ReadFrame()
		require.NoError(t, err, "reading the answer to ping %d", n)
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				require.NoError(t, p.fr.WriteSettingsAck())
			}
		case *http2.GoAwayFrame:
			return f
		case *http2.PingFrame:
			if f.IsAck() && f.Data == [8]byte{n} {
				return nil
			}
		}
	}
}

// The servers apply the policy on a real connection (scaled: MinTime
// scaledKeepalive instead of 5s): an idle client pinging at ten times
// MinTime (a controller's 10s is twice the real MinTime; the margin is
// wider here as a starved host delays a ping's handling by more than
// 50 ms, and 5 s of delay would be needed there) keeps its connection
// over six pings, three more than the server's two strikes allow; a
// client pinging back to back, on the same server, is sent away with
// GOAWAY too_many_pings (the pings are judged at all).
func TestServerPermitsKeepalivePings(t *testing.T) {
	t.Parallel()
	addr := serveScaled(t)

	p := dialPinger(t, addr)
	for n := byte(1); n <= 6; n++ {
		if n > 1 {
			// The wall time between pings is what the policy judges.
			time.Sleep(10 * scaledKeepalive)
		}
		ga := p.ping(t, n)
		require.Nil(t, ga, "ping %d: the server refused the pings (GOAWAY %v)", n, ga)
	}

	// Eight pings written at once arrive together: the server reads them
	// one after another, well within MinTime.
	flood := dialPinger(t, addr)
	for n := byte(1); n < 8; n++ {
		require.NoError(t, flood.fr.WritePing(false, [8]byte{n}))
	}
	ga := flood.ping(t, 8)
	require.NotNil(t, ga, "the server answered pings back to back without GOAWAY: is the policy applied?")
	assert.Equal(t, http2.ErrCodeEnhanceYourCalm, ga.ErrCode)
	assert.Equal(t, "too_many_pings", string(ga.DebugData()))
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
