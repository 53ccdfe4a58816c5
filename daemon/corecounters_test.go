package daemon

import (
	"context"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/sim/frames"
)

// TestCountersPerCore: the per-core counters the daemon reports are the
// switch's core_counters cells of every configured core: each session's
// packets are counted at the core Locate names, and the slots per core add
// up to the layout.
//
// The site's keep-alives fail a filter only after 1,000 losses
// (testdata/steady.yaml): with testdata/fast.yaml's 3 x 10ms a starved
// machine failed a filter over in the middle of the count, its sessions
// bypassed (counted at no core), and the cores never added up. The filters
// staying up throughout is asserted, not assumed.
func TestCountersPerCore(t *testing.T) {
	b := newBedFor(t, "testdata/steady.yaml", 0)
	d, _ := b.startDaemon(1)
	b.allUp(d)
	ctx := context.Background()
	before, err := d.Status(ctx)
	require.NoError(t, err)
	type fc struct {
		fg   string
		core uint32
	}
	want := map[fc]uint64{}
	const n = 300
	src, dst := net.HardwareAddr{2, 0, 0, 0, 0, 1}, net.HardwareAddr{2, 0, 0, 0, 0, 2}
	to := netip.MustParseAddr("192.0.2.1")
	for i := range n {
		from := netip.AddrFrom4([4]byte{10, 1, byte(i >> 8), byte(i)})
		f := frames.Frame(src, dst, frames.Encap{}, frames.L3{Src: from, Dst: to, Proto: layers.IPProtocolTCP, SrcPort: 1000, DstPort: 80})
		require.NoError(t, b.peers[20].Send(f)) // L1's LAN port
		ps, err := d.Locate(ctx, from, to, 6)
		require.NoError(t, err)
		require.Len(t, ps, 1)
		want[fc{ps[0].FilterGroup, ps[0].Core}]++
	}
	var c *Counters
	require.Eventually(t, func() bool {
		var err error
		c, err = d.Counters(ctx)
		if err != nil {
			return false
		}
		var total uint64
		for _, k := range c.Cores {
			total += k.Hits.Packets
		}
		return total == n
	}, 30*time.Second, 5*time.Millisecond, "the cores' counters never added up to the %d packets sent", n)

	after, err := d.Status(ctx)
	require.NoError(t, err)
	for i, f := range after.Filters {
		assert.Equal(t, "up", f.State, "filter %s", f.Name)
		assert.Equal(t, before.Filters[i].Since, f.Since, "filter %s changed state while the packets were counted", f.Name)
	}
	require.Len(t, c.Cores, 12, "every configured core (3 filter groups x 4), sessions or not")
	slots := 0
	for _, k := range c.Cores {
		slots += k.Slots
		assert.Equal(t, want[fc{k.FilterGroup, k.Core}], k.Hits.Packets, "%s core %d", k.FilterGroup, k.Core)
		assert.Positive(t, k.Slots, "%s core %d has slots", k.FilterGroup, k.Core)
	}
	assert.Equal(t, 1<<8, slots, "slot_bits 8")
}
