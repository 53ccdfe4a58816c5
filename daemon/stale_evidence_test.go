package daemon

import (
	"context"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/testbed"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sim/frames"
)

// wanTrafficGen is trafficGen the other way: frames of many sessions into
// L1's WAN port (10), drained from its LAN port (20).
func (b *bed) wanTrafficGen(ctx context.Context, rate int) *atomic.Uint64 {
	var sent atomic.Uint64
	var fs [][]byte
	for i := 0; i < 512; i++ {
		src := netip.AddrFrom4([4]byte{198, 51, 100, byte(i)})
		dst := netip.AddrFrom4([4]byte{10, 8, byte(i >> 8), byte(i)})
		fs = append(fs, frames.Frame([]byte{0, 0x66, 0x77, 0x88, 0x99, 0xaa}, []byte{0, 0x11, 0x22, 0x33, 0x44, 0x55},
			frames.Encap{}, frames.L3{Src: src, Dst: dst, Proto: layers.IPProtocolTCP, SrcPort: 443, DstPort: 40000}))
	}
	gap := time.Second / time.Duration(rate)
	go func() {
		next := time.Now()
		for i := 0; ctx.Err() == nil; i++ {
			if d := time.Until(next); d > 0 {
				time.Sleep(d) // pacing: rate frames a second
			}
			next = next.Add(gap)
			if b.peers[10].Send(fs[i%len(fs)]) == nil {
				sent.Add(1)
			}
		}
	}()
	go func() {
		for ctx.Err() == nil {
			b.peers[20].Recv(20 * time.Millisecond)
		}
	}()
	return &sent
}

// A filter group that dies while data reaches it from the WAN side, is
// taken out, answers again and is brought back within the detection time
// (loss_threshold x interval) of the last frame sent it stays in service.
// The pipeline's evidence of the sends out of its WAN side (register index
// fg<<1|WAN, sim/dataplane/verdict.go as p4src's verdict.p4) is cleared
// only by a return on its LAN port or a quiet spell of the detection time,
// and the keep-alives probe LAN to WAN only (the default): without the
// WAN-side keep-alive a failed filter group is sent (evidenceKeepAlive),
// its recovery (and the new epoch it writes) left the window of its death
// open, and the first data frames sent out of its WAN side after the
// return proved loss again (reason data, "data of many sessions
// unanswered") while its keep-alives passed: F2 failed again every
// recovery (every 3 rounds, ~120 ms, for as long as the traffic ran).
// Here: testdata/verdict.yaml with loss_threshold 10 (400 ms detection,
// recovery 3 x 40 ms), traffic from the WAN side only; F2 dies until the
// switch takes it out, then answers again. The premise of the 2 s after
// its return: the host does not stall this process (switch, emulators,
// daemon) for the detection time, 400 ms, or more (testbed.Stalls): only
// that long a stall fails a healthy filter at 10 lost keep-alives, where
// the defect failed F2 every 120 ms beside stalls of 50 to 300 ms.
func TestRecoveredFilterNotFailedByEvidenceOfItsDeath(t *testing.T) {
	schema, err := p4src.Load()
	require.NoError(t, err)
	data, err := os.ReadFile("testdata/verdict.yaml")
	require.NoError(t, err)
	site := filepath.Join(t.TempDir(), "site.yaml")
	require.NoError(t, os.WriteFile(site, []byte(replaceOnce(t, string(data), "loss_threshold: 5,", "loss_threshold: 10,")), 0o644))
	b := newBedWith(t, site, 0, schema)
	d, _ := b.startDaemon(10)
	b.allUp(d)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sent := b.wanTrafficGen(ctx, 5000)
	require.Eventually(t, func() bool { return sent.Load() >= 2000 }, 60*time.Second, time.Millisecond)
	const idF2 = 1
	f2 := b.filters["F2"]
	require.Positive(t, f2.data.Load(), "F2 carries WAN-side data")

	const detect = 10 * 40 * time.Millisecond // loss_threshold x interval
	stalls := testbed.WatchStalls(t)
	premised(t, "F2 back", time.Now().Add(2*time.Minute), stalledFor(stalls, detect, time.Second+detect), func(c *checks) {
		// F2 dies; once the switch has taken it out it answers again,
		// and is back within the detection time (the scenario: a return
		// after that finds the evidence gone stale on its own).
		var seq uint64
		for attempt := 1; ; attempt++ {
			b.allUp(d)
			f2.alive.Store(false)
			b.waitFG(idF2, p4src.ActionFilterSWBypass, 30*time.Second)
			out := time.Now()
			f2.alive.Store(true)
			b.waitFG(idF2, p4src.ActionFilterForward, 30*time.Second)
			back := time.Now()
			seq = lastEvent(d)
			t.Logf("F2 out of service for %v", back.Sub(out).Round(time.Millisecond))
			if back.Sub(out) < detect {
				break
			}
			if attempt == 5 {
				t.Skipf("F2 was never back within the detection time (%v) of its take-out", detect)
			}
		}

		// Two seconds of traffic after its return: F2 stays up.
		s0 := sent.Load()
		require.Eventually(t, func() bool { return sent.Load()-s0 >= 10000 }, 60*time.Second, time.Millisecond)
		var after []string
		for _, e := range d.events.Recent(eventLogSize, "F2") {
			if e.Seq > seq && e.Kind == EventFilterGroup {
				after = append(after, e.String())
			}
		}
		assert.Empty(c, after, "F2 changed state after its recovery: %s", strings.Join(after, "; "))
		assert.Equal(c, p4src.ActionFilterForward, b.fgAction(idF2))
	})
}
