package e2e

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dpi-balancer/balancer/internal/rawport"
	"github.com/dpi-balancer/balancer/internal/testbed"
	"github.com/dpi-balancer/balancer/p4src/wire"
)

// recvBuffer is the receive buffer of every host-end socket: a burst of
// test frames must not overflow it while the reader catches up.
const recvBuffer = 16 << 20

func hostIf(port uint32) string   { return fmt.Sprintf("h%d", port) }
func switchIf(port uint32) string { return fmt.Sprintf("s%d", port) }

func openHost(ns *testbed.NS, port uint32) (*rawport.Port, error) {
	p, err := rawport.Open(ns.Path, hostIf(port))
	if err != nil {
		return nil, err
	}
	if err := p.SetRecvBuffer(recvBuffer); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// readLoop hands every frame received on p to fn until ctx ends.
func readLoop(ctx context.Context, p *rawport.Port, fn func(frame []byte, at time.Time)) {
	for ctx.Err() == nil {
		fr, err := p.Recv(20 * time.Millisecond)
		switch {
		case err == nil:
			fn(fr, time.Now())
		case errors.Is(err, rawport.ErrTimeout):
		default:
			time.Sleep(time.Millisecond) // e.g. the interface is down: do not spin
		}
	}
}

// ---- link endpoints ------------------------------------------------------

// arrival is a test frame that left the switch by a link port.
type arrival struct {
	port  uint32
	at    time.Time
	frame []byte
}

// sink records every frame that leaves the switch by a link port.
type sink struct {
	n      atomic.Int64 // test frames received
	mu     sync.Mutex
	got    map[key][]arrival
	strays map[uint32]int // frames without a tag, by port
	stray  [][]byte       // the first few, for the failure message
}

func newSink() *sink { return &sink{got: map[key][]arrival{}, strays: map[uint32]int{}} }

func (s *sink) add(port uint32, frame []byte, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k, ok := readTag(frame)
	if !ok {
		s.strays[port]++
		if len(s.stray) < 5 {
			s.stray = append(s.stray, frame)
		}
		return
	}
	s.got[k] = append(s.got[k], arrival{port: port, at: at, frame: frame})
	s.n.Add(1)
}

func (s *sink) get(k key) []arrival {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.got[k]
}

func (s *sink) strayCount() (int, [][]byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.strays {
		n += c
	}
	return n, s.stray
}

// ---- filter emulators ----------------------------------------------------

// sighting is a test frame a filter emulator saw: the core header's link
// and core, and the frame as it was (header included).
type sighting struct {
	fg    string
	link  uint32
	core  uint32
	side  dir // lanToWAN: it came in on the filter's LAN port
	at    time.Time
	frame []byte
}

// ledger collects what every filter emulator saw.
type ledger struct {
	mu   sync.Mutex
	seen map[key][]sighting
}

func newLedger() *ledger { return &ledger{seen: map[key][]sighting{}} }

func (l *ledger) add(k key, s sighting) {
	l.mu.Lock()
	l.seen[k] = append(l.seen[k], s)
	l.mu.Unlock()
}

func (l *ledger) get(k key) []sighting {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seen[k]
}

type filterMode int32

const (
	modePass               filterMode = iota // pass everything LAN<->WAN unchanged
	modeFrozen                               // read and drop everything
	modeDropKeepAlives                       // pass traffic, drop keep-alives only
	modeDropHalfKeepAlives                   // pass traffic, drop every other keep-alive (never two in a row)
)

func (m filterMode) String() string {
	switch m {
	case modeFrozen:
		return "frozen"
	case modeDropKeepAlives:
		return "dropping keep-alives"
	case modeDropHalfKeepAlives:
		return "dropping every other keep-alive"
	}
	return "passing"
}

// filterEmu is a DPI filter between the host ends of a filter group's
// LAN and WAN ports: a bump in the wire that passes every frame unchanged
// (core header included; the switch removes it) and records what it saw.
type filterEmu struct {
	name             string
	lanPort, wanPort uint32
	ns               *testbed.NS
	led              *ledger

	mode       atomic.Int32
	kaDelay    atomic.Int64  // a keep-alive is held this long before it passes (a slow filter)
	kaSeen     atomic.Uint64 // keep-alives read, in any mode
	kaHeld     kaHolds       // how long each keep-alive held was held, by the emulator's clock
	dead       atomic.Bool   // stopped: the sockets are being closed
	keepAlives atomic.Uint64 // passed
	got        atomic.Uint64 // data frames (core header) that reached it, whatever its mode
	gotMu      sync.Mutex
	gotKeys    []key         // the test frames among them (up to 1<<20)
	strays     atomic.Uint64 // frames without a core header that are not keep-alives

	kaMu    sync.Mutex
	kaLast  time.Time
	kaGaps  []string // keep-alive gaps over 30ms, for diagnosis
	kaSpans []kaGap  // the last keep-alive gaps over 30ms (silentDuring)

	mu       sync.Mutex
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	lan, wan *rawport.Port
}

// start opens the filter's sockets and passes frames until stop.
func (f *filterEmu) start() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cancel != nil {
		return nil
	}
	lan, err := openHost(f.ns, f.lanPort)
	if err != nil {
		return err
	}
	wan, err := openHost(f.ns, f.wanPort)
	if err != nil {
		lan.Close()
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	f.lan, f.wan, f.cancel = lan, wan, cancel
	f.dead.Store(false)
	f.wg.Add(2)
	go func() { defer f.wg.Done(); f.pass(ctx, lan, wan, lanToWAN) }()
	go func() { defer f.wg.Done(); f.pass(ctx, wan, lan, wanToLAN) }()
	return nil
}

// stop ends the filter like a dead process: its sockets close and the
// kernel drops what reaches its ports.
func (f *filterEmu) stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cancel == nil {
		return
	}
	f.dead.Store(true) // from now on nothing passes, as if killed
	f.cancel()
	f.wg.Wait()
	f.lan.Close()
	f.wan.Close()
	f.cancel = nil
}

func (f *filterEmu) setMode(m filterMode) { f.mode.Store(int32(m)) }

// reached says which test frames reached the filter (in any mode).
func (f *filterEmu) reached() map[key]bool {
	f.gotMu.Lock()
	defer f.gotMu.Unlock()
	out := make(map[key]bool, len(f.gotKeys))
	for _, k := range f.gotKeys {
		out[k] = true
	}
	return out
}

func (f *filterEmu) pass(ctx context.Context, from, to *rawport.Port, side dir) {
	readLoop(ctx, from, func(fr []byte, at time.Time) {
		if len(fr) >= 14 && binary.BigEndian.Uint16(fr[12:14]) == wire.DefaultCoreTPID {
			f.got.Add(1)
			if k, ok := readTag(fr); ok {
				f.gotMu.Lock()
				if len(f.gotKeys) < 1<<20 {
					f.gotKeys = append(f.gotKeys, k)
				}
				f.gotMu.Unlock()
			}
		}
		m := filterMode(f.mode.Load())
		if m == modeFrozen || f.dead.Load() || len(fr) < 14 {
			return
		}
		switch binary.BigEndian.Uint16(fr[12:14]) {
		case wire.DefaultKeepAliveEtherType:
			n := f.kaSeen.Add(1)
			if m == modeDropKeepAlives || (m == modeDropHalfKeepAlives && n%2 == 0) {
				return
			}
			if d := time.Duration(f.kaDelay.Load()); d > 0 {
				// Held in the read loop, as a slow filter's queue holds
				// what comes behind it.
				time.Sleep(d)
				f.kaHeld.add(time.Since(at))
			}
			f.keepAlives.Add(1)
			f.kaMu.Lock()
			if gap := at.Sub(f.kaLast); !f.kaLast.IsZero() && gap > 30*time.Millisecond {
				if len(f.kaGaps) < 20 {
					f.kaGaps = append(f.kaGaps, fmt.Sprintf("%s %v seq %d side %v", at.Format("15:04:05.000"), gap.Round(time.Millisecond), binary.BigEndian.Uint32(fr[22:26]), side))
				}
				if len(f.kaSpans) == 256 {
					f.kaSpans = append(f.kaSpans[:0], f.kaSpans[128:]...)
				}
				f.kaSpans = append(f.kaSpans, kaGap{at, gap})
			}
			f.kaLast = at
			f.kaMu.Unlock()
		case wire.DefaultCoreTPID:
			if k, ok := readTag(fr); ok && len(fr) >= 16 {
				link, core := wire.ParseCoreTag(binary.BigEndian.Uint16(fr[14:16]))
				f.led.add(k, sighting{fg: f.name, link: link, core: core, side: side, at: at, frame: fr})
			}
		default:
			f.strays.Add(1)
		}
		_ = to.Send(fr) // fails while the other port is down: the frame is lost, as on a wire
	})
}

// kaGap is a time no keep-alive crossed a filter: gap up to at.
type kaGap struct {
	at  time.Time
	gap time.Duration
}

// silentDuring gives the longest time of at least d in which no
// keep-alive crossed f that overlaps [from, to] (0: none): a filter the
// balancer was right to find dead, whatever made it silent (a host so
// starved that the emulator or the switch did not run).
func (f *filterEmu) silentDuring(from, to time.Time, d time.Duration) time.Duration {
	f.kaMu.Lock()
	defer f.kaMu.Unlock()
	var longest time.Duration
	spans := f.kaSpans
	if !f.kaLast.IsZero() {
		// A silence still going on at to.
		spans = append(spans[:len(spans):len(spans)], kaGap{to, to.Sub(f.kaLast)})
	}
	for _, g := range spans {
		if g.gap >= d && g.at.After(from) && g.at.Add(-g.gap).Before(to) && g.gap > longest {
			longest = g.gap
		}
	}
	return longest
}

// kaHolds records how long an emulator held keep-alives (read to sent).
type kaHolds struct {
	mu sync.Mutex
	d  []time.Duration
}

func (h *kaHolds) add(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.d) < 1<<16 {
		h.d = append(h.d, d)
	}
}

func (h *kaHolds) all() []time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.d)
}
