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
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/keepalive"
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
