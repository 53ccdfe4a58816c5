package profiles

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/dpi-balancer/balancer/p4src/wire"
)

// Filter health beyond liveness: how long a filter takes to pass a
// keep-alive (the round trip by the data plane's clock, the keep-alive's
// egress stamp to its packet-in stamp) and how many rounds it loses over a
// window. A profile's max_rtt takes a filter out after rtt_rounds rounds in
// a row over it; its max_loss after more than that share of the last
// loss_window rounds was lost. Both are off (0) by default.

// RTTSamples is how many round trips of each direction the percentiles
// are taken over (the most recent ones).
const RTTSamples = 128

// rttRing holds the latest round trips of one direction.
type rttRing struct {
	buf  [RTTSamples]time.Duration
	n    int // samples held (at most RTTSamples)
	next int
	last time.Duration
}

func (r *rttRing) add(d time.Duration) {
	r.buf[r.next] = d
	r.next = (r.next + 1) % RTTSamples
	if r.n < RTTSamples {
		r.n++
	}
	r.last = d
}

// RoundTrip is the recent round trips of one direction of a filter group.
type RoundTrip struct {
	Direction wire.Direction
	// P50 and P99 over the latest Samples round trips (at most
	// RTTSamples); Last is the latest.
	P50, P99, Last time.Duration
	Samples        int
}

// DirectionName is a keep-alive direction as status shows it.
func DirectionName(d wire.Direction) string {
	if d == wire.WANToLAN {
		return "wan-to-lan"
	}
	return "lan-to-wan"
}

func (r *rttRing) status(d wire.Direction) RoundTrip {
	s := RoundTrip{Direction: d, Last: r.last, Samples: r.n}
	if r.n == 0 {
		return s
	}
	v := slices.Clone(r.buf[:r.n])
	slices.Sort(v)
	s.P50, s.P99 = quantile(v, 0.50), quantile(v, 0.99)
	return s
}

// quantile of sorted v by the nearest rank.
func quantile(v []time.Duration, q float64) time.Duration {
	i := int(math.Ceil(q*float64(len(v)))) - 1
	return v[max(0, min(i, len(v)-1))]
}

// lossWindow holds whether each of the latest rounds was lost.
type lossWindow struct {
	lost   []bool // ring of size loss_window
	next   int
	n      int // rounds held
	losses int // of them lost
	// lastLost: the latest round was added, as a loss.
	lastLost bool
}

func newLossWindow(size uint32) lossWindow { return lossWindow{lost: make([]bool, size)} }

func (w *lossWindow) add(lost bool) {
	if len(w.lost) == 0 {
		return
	}
	if w.n == len(w.lost) && w.lost[w.next] {
		w.losses--
	}
	w.lost[w.next] = lost
	w.lastLost = lost
	if lost {
		w.losses++
	}
	w.next = (w.next + 1) % len(w.lost)
	if w.n < len(w.lost) {
		w.n++
	}
}

// dropLastLoss removes the latest round if it was added as a loss (a
// loss taken back: the round is then added again as a pass).
func (w *lossWindow) dropLastLoss() {
	if !w.lastLost || w.n == 0 {
		return
	}
	w.lastLost = false
	i := (w.next - 1 + len(w.lost)) % len(w.lost)
	w.lost[i] = false
	w.losses--
	w.next = i
	w.n--
}

func (w *lossWindow) reset() {
	clear(w.lost)
	w.next, w.n, w.losses, w.lastLost = 0, 0, 0, false
}

func (w *lossWindow) full() bool { return len(w.lost) > 0 && w.n == len(w.lost) }

// percent lost of the rounds held.
func (w *lossWindow) percent() float64 {
	if w.n == 0 {
		return 0
	}
	return 100 * float64(w.losses) / float64(w.n)
}

// health applies one judged round to the round-trip and loss limits:
// rtt is the round's slowest round trip (negative: not measured, the
// program or a late answer gave no stamp), lost whether it was lost,
// suspect whether a loss is better explained by the balancer's own
// keep-alive path (not counted against the filter). It reports whether
// the round was too slow to count as a pass for recovery.
func (m *monitor) health(pass bool, rtt time.Duration, suspect bool) (slow bool) {
	if pass && rtt >= 0 {
		m.roundRTT = rtt
		if m.prof.MaxRTT > 0 && rtt > time.Duration(m.prof.MaxRTT) {
			m.rttOver++
			slow = true
		} else {
			m.rttOver = 0
		}
	}
	if m.prof.MaxLoss > 0 {
		if pass || !suspect {
			m.window.add(!pass)
		} else {
			m.window.lastLost = false
		}
	}
	return slow
}

// unhealthy says whether the round-trip or loss limit takes the filter
// out of service, and why; the figures go to healthText.
func (m *monitor) unhealthy() (Reason, bool) {
	if m.prof.MaxRTT > 0 && m.prof.RTTRounds > 0 && m.rttOver >= m.prof.RTTRounds {
		m.healthText = fmt.Sprintf("round trip %s over max_rtt %s for %d rounds",
			FormatRTT(m.roundRTT), m.prof.MaxRTT, m.rttOver)
		return ReasonRoundTrip, true
	}
	if m.prof.MaxLoss > 0 && m.window.full() && m.window.percent() > m.prof.MaxLoss {
		m.healthText = fmt.Sprintf("lost %s %% of keep-alives over the last %d rounds, over max_loss %s %%",
			pct(m.window.percent()), m.window.n, pct(m.prof.MaxLoss))
		return ReasonLossRate, true
	}
	return 0, false
}

// pct writes a percentage plainly: 31, 2.5.
func pct(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

// FormatRTT writes a round trip for people: "12.3 ms", "87 µs".
func FormatRTT(d time.Duration) string {
	switch {
	case d >= time.Millisecond:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	case d >= time.Microsecond:
		return fmt.Sprintf("%.0f µs", float64(d)/float64(time.Microsecond))
	}
	return fmt.Sprintf("%d ns", d.Nanoseconds())
}
