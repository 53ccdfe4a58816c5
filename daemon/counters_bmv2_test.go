package daemon

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/bmv2"
	"github.com/dpi-balancer/balancer/internal/rawport"
	"github.com/dpi-balancer/balancer/internal/testbed"
)

// bmv2CountersTarget is BMv2 (simple_switch_grpc) on veth pairs in a
// network namespace of the test's own: the switch on one end of each
// pair, a raw socket of the test on the other. BMv2 serves no gNMI, so
// the test fails F4, F5 and F6 by their keep-alives, and there are no
// port counters to check.
func bmv2CountersTarget() countersTarget {
	return countersTarget{
		platform: "bmv2",
		fast:     50 * time.Millisecond,
		start: func(t *testing.T, ctx context.Context, nums map[string]uint32) (map[string]framePort, string, string) {
			if why := bmv2.Available(); why != "" {
				t.Skip(why)
			}
			ns := testbed.NewNS(t)
			swIfs := map[uint32]string{}
			ends := map[string]framePort{}
			for name, n := range nums {
				sw, host := fmt.Sprintf("s%d", n), fmt.Sprintf("h%d", n)
				ns.Veth(t, sw, host)
				swIfs[n] = sw
				p, err := rawport.Open(ns.Path, host)
				require.NoError(t, err)
				require.NoError(t, p.SetRecvBuffer(4<<20))
				t.Cleanup(func() { p.Close() })
				ends[name] = p
			}
			sctx, cancel := context.WithTimeout(ctx, 60*time.Second)
			defer cancel()
			sw, err := bmv2.Start(sctx, ns, swIfs, t.TempDir())
			require.NoError(t, err)
			t.Cleanup(func() {
				if err := sw.Stop(); err != nil {
					t.Logf("bmv2: %v (log %s)", err, sw.LogPath)
				}
			})
			return ends, sw.Addr, ""
		},
	}
}

// TestCountersEndToEndBMv2 is TestCountersEndToEnd on BMv2: every counter
// `balancer counters` prints, read from BMv2 over P4Runtime, moves by
// exactly the frames sent its way.
func TestCountersEndToEndBMv2(t *testing.T) { runCountersEndToEnd(t, bmv2CountersTarget()) }
