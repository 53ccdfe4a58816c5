package e2e

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/controlplane"
	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/profiles"
)

// packetTaps records the round trips of the keep-alive packet-ins the
// bed's daemons took, as the switch's own stamps give them: the egress
// stamp the keep-alive carries to the packet-in's rx_timestamp, in the
// platform's clock unit (µs on BMv2).
type packetTaps struct {
	unit time.Duration
	mu   sync.Mutex
	rtts map[tapKey][]time.Duration
}

type tapKey struct {
	fg  uint16
	dir wire.Direction
}

func newPacketTaps(platform string) *packetTaps {
	unit := time.Nanosecond
	if p, err := config.LookupPlatform(platform); err == nil && p.TimestampUnit > 0 {
		unit = p.TimestampUnit
	}
	return &packetTaps{unit: unit, rtts: map[tapKey][]time.Duration{}}
}

func (p *packetTaps) add(pi controlplane.PacketIn) {
	k, err := wire.DecodeKeepAlive(pi.Payload, wire.DefaultKeepAliveEtherType)
	if err != nil || k.FilterGroup&profiles.ProbeMarker != 0 || k.TxTimestamp == 0 {
		return
	}
	rtt := time.Duration((pi.Metadata[wire.MetaRxTimestamp]-k.TxTimestamp)&wire.TimestampMask) * p.unit
	p.mu.Lock()
	defer p.mu.Unlock()
	key := tapKey{k.FilterGroup, k.Direction}
	if len(p.rtts[key]) < 1<<16 {
		p.rtts[key] = append(p.rtts[key], rtt)
	}
}

func (p *packetTaps) of(fg uint16, d wire.Direction) []time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.rtts[tapKey{fg, d}])
}

// p50 of the latest n of v by the nearest rank, as the daemon takes it.
func p50(v []time.Duration, n int) time.Duration {
	v = slices.Clone(v[max(0, len(v)-n):])
	slices.Sort(v)
	i := (len(v)+1)/2 - 1
	return v[max(0, i)]
}

// l2wRTT is the daemon's lan-to-wan round trip of filter group name.
func l2wRTT(f daemon.FilterStatus) (daemon.RoundTrip, bool) {
	for _, r := range f.RoundTrips {
		if r.Direction == profiles.DirectionName(wire.LANToWAN) {
			return r, true
		}
	}
	return daemon.RoundTrip{}, false
}

// TestHealthFigures checks the filter-health figures the daemon shows on
// each target (BMv2 when simple_switch_grpc is installed; BALANCER_TARGET
// picks one) against what the switch itself stamped and what the filters
// did:
//   - the round trip: F2's emulator holds every keep-alive 20 ms (a slow
//     filter). The p50 the daemon shows for F1 and F2 is the p50 of the
//     latest round trips the keep-alive packet-ins' own stamps give (the
//     packet-ins it took, tapped); F2's is at least the hold and within
//     the hold plus F1's p50 and 5 ms, F1's well under it.
//   - the loss limit (max_loss 20 over loss_window 20): F3's emulator
//     drops every other keep-alive, never loss_threshold (3) in a row: it
//     is taken out by the loss limit, with its reason, and the switch
//     bypasses its share; F1 and F2 stay up.
func TestHealthFigures(t *testing.T) {
	if why := tgAvailable(); why != "" {
		t.Skip(why)
	}
	for _, tg := range targets(t) {
		t.Run(tg.name, func(t *testing.T) { testHealthFigures(t, tg) })
	}
}

func testHealthFigures(t *testing.T, tg target) {
	const hold = 20 * time.Millisecond
	b := newBed(t, tg, withProfileKeys("max_loss: 20, loss_window: 20"))
	id := func(name string) uint16 { return uint16(*b.cfg.FilterGroupByName(name).ID) }

	// The round trip.
	f2 := b.filters["F2"]
	f2.kaDelay.Store(int64(hold))
	// Wait until most of the daemon's latest round trips of F2 are held
	// ones (the ring holds profiles.RTTSamples).
	b.eventually(60*time.Second, func() bool { return len(f2.kaHeld.all()) > profiles.RTTSamples/2+10 },
		"F2's emulator never held %d keep-alives", profiles.RTTSamples/2+10)
	for _, name := range []string{"F1", "F2"} {
		// The daemon's ring ends somewhere between the two tap reads.
		// A keep-alive back later than the interval by the switch's own
		// clock is a loss, not a round trip: the daemon keeps none.
		inTime := func(v []time.Duration) []time.Duration {
			return slices.DeleteFunc(v, func(d time.Duration) bool { return d > b.interval })
		}
		all := b.taps.of(id(name), wire.LANToWAN)
		before := inTime(slices.Clone(all))
		rt, ok := l2wRTT(b.filterStatus(name))
		after := inTime(b.taps.of(id(name), wire.LANToWAN))
		if late := len(all) - len(before); late > 0 {
			t.Logf("%s %s: %d keep-alives came back later than the interval %v by the switch's clock (losses)", tg.name, name, late, b.interval)
		}
		require.True(t, ok, "%s shows no lan-to-wan round trip", name)
		require.NotEmpty(t, before)
		lo, hi := time.Duration(1<<62), time.Duration(0)
		for end := max(1, len(before)-1); end <= len(after); end++ {
			v := p50(after[:end], rt.Samples)
			lo, hi = min(lo, v), max(hi, v)
		}
		t.Logf("%s %s: the daemon shows p50 %v p99 %v last %v over %d samples; the packet-ins' stamps give p50 %v..%v (%d tapped)",
			tg.name, name, rt.P50, rt.P99, rt.Last, rt.Samples, lo, hi, len(after))
		assert.True(t, rt.Samples >= min(profiles.RTTSamples, len(before)-1) && rt.Samples <= min(profiles.RTTSamples, len(after)),
			"%s: the daemon holds %d samples; %d..%d came back", name, rt.Samples, len(before), len(after))
		assert.True(t, rt.P50 >= lo && rt.P50 <= hi, "%s: the daemon's p50 %v is not the packet-ins' %v..%v", name, rt.P50, lo, hi)
	}
	held := f2.kaHeld.all()
	slices.Sort(held)
	r1, _ := l2wRTT(b.filterStatus("F1"))
	r2, _ := l2wRTT(b.filterStatus("F2"))
	t.Logf("%s: F2's emulator held keep-alives p50 %v (by its clock); F1's round trip p50 %v, F2's %v",
		tg.name, held[len(held)/2], r1.P50, r2.P50)
	assert.GreaterOrEqual(t, r2.P50, hold, "F2's round trip includes the hold")
	assert.Less(t, r2.P50, held[len(held)/2]+r1.P50+5*time.Millisecond, "F2's round trip is the hold and the way through the switch")
	assert.Less(t, r1.P50, hold/2, "F1 is not held")
	f2.kaDelay.Store(0)

	// The loss limit.
	f3 := b.filters["F3"]
	f3.setMode(modeDropHalfKeepAlives)
	started := time.Now()
	b.waitFilter("F3", "down", 60*time.Second)
	f := b.filterStatus("F3")
	t.Logf("%s: F3 dropping every other keep-alive -> down after %v: %s", tg.name, time.Since(started).Round(time.Millisecond), f.Reason)
	assert.True(t, strings.HasPrefix(f.Reason, "lost ") && strings.Contains(f.Reason, "over the last 20 rounds, over max_loss 20 %"), f.Reason)
	assert.Equal(t, "sw-bypass", f.Effective)
	assert.Equal(t, "up", b.filterStatus("F1").State)
	assert.Equal(t, "up", b.filterStatus("F2").State)
}
