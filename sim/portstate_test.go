package sim

import (
	"context"
	"net"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// The switch reports the speeds and admin states it was given, as Stratum
// reports a chassis config's: ethernet/state/port-speed "SPEED_10GB",
// state/admin-status, and no frames through a disabled port.
func TestPortSpeedAndAdminOverGNMI(t *testing.T) {
	ps := map[uint32]Port{}
	for _, n := range []uint32{10, 41, 42} {
		p, _ := NewMemPort(8)
		ps[n] = p
	}
	sw, err := New(Options{Ports: ps, Speeds: map[uint32]uint64{10: 100e9, 41: 10e9, 42: 10e9}, Disabled: map[uint32]bool{42: true}})
	require.NoError(t, err)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sw.Serve(ctx, lis, nil) }()
	defer func() {
		cancel()
		require.NoError(t, <-done)
	}()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer conn.Close()
	c := gpb.NewGNMIClient(conn)
	get := func(name string, elems ...string) string {
		p := &gpb.Path{Elem: []*gpb.PathElem{{Name: "interfaces"}, {Name: "interface", Key: map[string]string{"name": name}}}}
		for _, e := range elems {
			p.Elem = append(p.Elem, &gpb.PathElem{Name: e})
		}
		var val string
		require.Eventually(t, func() bool {
			r, err := c.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{p}, Encoding: gpb.Encoding_PROTO})
			if err != nil || len(r.GetNotification()) != 1 || len(r.GetNotification()[0].GetUpdate()) != 1 {
				return false
			}
			val = r.GetNotification()[0].GetUpdate()[0].GetVal().GetStringVal()
			return true
		}, 10*time.Second, 5*time.Millisecond, "%s %v", name, elems)
		return val
	}
	assert.Equal(t, "SPEED_100GB", get("1/0", "ethernet", "state", "port-speed"))
	assert.Equal(t, "SPEED_10GB", get("4/1", "ethernet", "state", "port-speed"))
	assert.Equal(t, "UP", get("4/1", "state", "admin-status"))
	assert.Equal(t, "DOWN", get("4/2", "state", "admin-status"))
	assert.Equal(t, "DOWN", get("4/2", "state", "oper-status"), "a disabled port is down")

	require.NoError(t, sw.SetSpeed(41, 25e9))
	assert.Eventually(t, func() bool { return get("4/1", "ethernet", "state", "port-speed") == "SPEED_25GB" }, 10*time.Second, 5*time.Millisecond)
	assert.Error(t, sw.SetSpeed(99, 10e9))
}
