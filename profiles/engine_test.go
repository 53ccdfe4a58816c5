package profiles

import (
	"encoding/binary"
	"errors"
	"math/rand"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/tables"
)

const site = `
platform: sim
ports:
  - {port: 1, speed: 100G}
  - {port: 2, speed: 100G}
  - {port: 3, speed: 100G}
  - {port: 4, speed: 100G}
  - {port: 5, speed: 100G}
  - {port: 6, speed: 100G}
  - {port: 7, speed: 100G}
  - {port: 8, speed: 100G}
links:
  - {name: L1, lan: P2, wan: P1}
filter_groups:
  - {name: F1, lan: P4, wan: P3, cores: 2}
  - {name: F2, lan: P6, wan: P5, cores: 2}
  - {name: F3, lan: P8, wan: P7, cores: 2}
profiles:
  - {name: p, initial_delay: 1s, interval: 100ms, loss_threshold: 3, recovery_threshold: 2, min_active: 2, failure_action: %s, probe: %s}
balance_groups:
  - {name: G, members: [F1, F2, F3], profile: p}
`

// bench is a fake set of filters: frames sent out of a filter's LAN port
// come back on its WAN port unless the filter is dead.
type bench struct {
	t    *testing.T
	e    *Engine
	now  time.Time
	dead map[uint32]bool // by LAN port
	sent int
	fail bool
	// stalled: keep-alives cross the filters but their packet-ins are
	// not processed in time (a host stall).
	stalled bool
	// slow: by LAN port, the answers of that filter reach the engine this
	// long after they crossed it (a backed-up keep-alive path); cross:
	// by LAN port, how long the filter itself takes (default 20µs).
	slow, cross map[uint32]time.Duration
	queue       []lateAnswer
	// lose: by LAN port, the share of keep-alives that filter loses at
	// random (drawn from rng).
	lose map[uint32]float64
	rng  *rand.Rand
	// onSend, when set, is told of every keep-alive sent (before it
	// crosses its filter).
	onSend func(port uint32)
	// open: by LAN port, the filter failed open: it passes fail-open
	// probes too (a healthy filter drops them).
	open map[uint32]bool
	// probes counts the fail-open probes sent.
	probes int
}

// lateAnswer is a keep-alive answer on its way to the engine.
type lateAnswer struct {
	frame []byte
	port  uint32
	rx    uint64
	at    time.Time
}

func newBench(t *testing.T, action, probe string) *bench {
	cfg, err := config.Parse([]byte(sprintf(site, action, probe)))
	require.NoError(t, err)
	b := &bench{t: t, now: time.Unix(1000, 0), dead: map[uint32]bool{}}
	b.e, err = New(cfg, b.send, Options{TimestampUnit: time.Nanosecond})
	require.NoError(t, err)
	b.e.Start(b.now)
	return b
}

func (b *bench) send(port uint32, frame []byte) error {
	if b.onSend != nil {
		b.onSend(port)
	}
	if b.fail {
		return errors.New("not primary")
	}
	if b.stalled {
		// The answer comes back, but the host does not process it until
		// the stall ends (after the round is judged).
		b.sent++
		return nil
	}
	b.sent++
	peer := map[uint32]uint32{40: 30, 30: 40, 60: 50, 50: 60, 80: 70, 70: 80}[port]
	lan := port
	if port%20 != 0 {
		lan = peer
	}
	if b.dead[lan] {
		return nil
	}
	if IsProbe(frame, config.DefaultEtherType) {
		b.probes++
		if !b.open[lan] {
			return nil // a healthy filter drops it
		}
	}
	if f := b.lose[lan]; f > 0 && b.rng.Float64() < f {
		return nil
	}
	// The data plane stamps tx; the filter takes 20µs.
	ts := uint64(b.now.UnixNano())
	binary.BigEndian.PutUint64(frame[26:34], ts)
	cross := 20 * time.Microsecond
	if c, ok := b.cross[lan]; ok {
		cross = c
	}
	rx := ts + uint64(cross)
	if delay := b.slow[lan] + cross; delay > 20*time.Microsecond {
		b.queue = append(b.queue, lateAnswer{append([]byte(nil), frame...), peer, rx, b.now.Add(delay)})
		return nil
	}
	require.NoError(b.t, b.e.OnPacketIn(frame, peer, rx, b.now))
	return nil
}

// run advances time in 10ms ticks; answers due reach the engine before
// each tick.
func (b *bench) run(d time.Duration) {
	for end := b.now.Add(d); b.now.Before(end); {
		b.now = b.now.Add(10 * time.Millisecond)
		var keep []lateAnswer
		for _, a := range b.queue {
			if a.at.After(b.now) {
				keep = append(keep, a)
				continue
			}
			require.NoError(b.t, b.e.OnPacketIn(a.frame, a.port, a.rx, b.now))
		}
		b.queue = keep
		b.e.Tick(b.now)
	}
}

func (b *bench) state(name string) State {
	for _, s := range b.e.Status() {
		if s.Name == name {
			return s.State
		}
	}
	b.t.Fatalf("no filter group %s", name)
	return 0
}

func latest(e *Engine) tables.State {
	select {
	case s := <-e.Changes():
		return s
	default:
		return e.State()
	}
}

func TestLifecycleBypass(t *testing.T) {
	b := newBench(t, "bypass", "lan-to-wan")
	assert.Equal(t, StateInit, b.state("F1"))
	b.run(900 * time.Millisecond)
	assert.Equal(t, 0, b.sent, "nothing before the initial delay")
	b.run(400 * time.Millisecond)
	assert.Equal(t, StateUp, b.state("F1"), "recovery threshold of passes")
	st := b.e.Status()[0]
	assert.Equal(t, 20*time.Microsecond, st.TimeOfPass)
	assert.GreaterOrEqual(t, st.Histogram.N, uint64(2))
	assert.Equal(t, st.Histogram.N, st.Histogram.Counts[1], "20µs lands in the 50µs bucket")
	assert.Empty(t, latest(b.e).FilterGroups)

	// F2 dies right after a probe passed. The next probe goes out 100ms
	// later; from it, loss threshold (3) x interval (100ms) takes the
	// filter down: 400ms after it died.
	b.dead[60] = true
	b.run(350 * time.Millisecond)
	assert.Equal(t, StateUp, b.state("F2"), "two losses are not enough")
	b.run(100 * time.Millisecond)
	assert.Equal(t, StateDown, b.state("F2"))
	s := latest(b.e)
	assert.Equal(t, map[string]tables.FilterGroupState{"F2": tables.FGSWBypass}, s.FilterGroups)
	assert.Empty(t, s.BalanceGroups, "2 of 3 alive meets min_active 2")

	// F3 dies too: the group is below its minimum.
	b.dead[80] = true
	b.run(400 * time.Millisecond)
	assert.Equal(t, tables.BGBypass, latest(b.e).BalanceGroups["G"])

	// Both recover after the recovery threshold.
	delete(b.dead, 60)
	delete(b.dead, 80)
	b.run(300 * time.Millisecond)
	assert.Equal(t, StateUp, b.state("F2"))
	assert.Equal(t, StateUp, b.state("F3"))
	s = latest(b.e)
	assert.Empty(t, s.FilterGroups)
	assert.Empty(t, s.BalanceGroups)
}

func TestFailureActions(t *testing.T) {
	for _, tt := range []struct {
		action string
		want   tables.State
	}{
		{"drop", tables.State{FilterGroups: map[string]tables.FilterGroupState{"F1": tables.FGDrop}}},
		{"rebalance", tables.State{FilterGroups: map[string]tables.FilterGroupState{"F1": tables.FGSWBypass}, Rebalanced: map[string]bool{"F1": true}}},
	} {
		t.Run(tt.action, func(t *testing.T) {
			b := newBench(t, tt.action, "lan-to-wan")
			b.run(1300 * time.Millisecond)
			b.dead[40] = true
			b.run(400 * time.Millisecond)
			s := latest(b.e)
			assert.Equal(t, tt.want.FilterGroups, s.FilterGroups)
			assert.Equal(t, len(tt.want.Rebalanced), len(s.Rebalanced))
		})
	}
}

func TestPortDownIsImmediate(t *testing.T) {
	b := newBench(t, "bypass", "both")
	b.run(1300 * time.Millisecond)
	require.Equal(t, StateUp, b.state("F1"))
	b.e.OnPortStatus(30, false, b.now)
	assert.Equal(t, StateDown, b.state("F1"), "no need to wait for losses")
	assert.Equal(t, ReasonPortDown, b.e.Status()[0].Reason)
	assert.Equal(t, tables.FGSWBypass, latest(b.e).FilterGroups["F1"])
	// Passes while the port is down do not bring it back (and with the port
	// down the WAN->LAN probe fails anyway in reality).
	b.e.OnPortStatus(30, true, b.now)
	b.run(300 * time.Millisecond)
	assert.Equal(t, StateUp, b.state("F1"), "recovery restarts when the port is back")
}

func TestAdminAndGlobalBypass(t *testing.T) {
	b := newBench(t, "bypass", "lan-to-wan")
	b.run(1300 * time.Millisecond)
	require.NoError(t, b.e.SetAdminBypass("F3", true, b.now))
	assert.Equal(t, StateAdminBypass, b.state("F3"))
	assert.Equal(t, map[string]tables.FilterGroupState{"F3": tables.FGSWBypass}, latest(b.e).FilterGroups)
	assert.Error(t, b.e.SetAdminBypass("nope", true, b.now))
	b.e.SetGlobalBypass(true)
	assert.Equal(t, tables.BGBypass, latest(b.e).BalanceGroups["G"])
	b.e.SetGlobalBypass(false)
	require.NoError(t, b.e.SetAdminBypass("F3", false, b.now))
	s := latest(b.e)
	assert.Empty(t, s.FilterGroups)
	assert.Empty(t, s.BalanceGroups)
}

// A controller that cannot send (backup) never fails filters.
func TestNoProbesNoVerdict(t *testing.T) {
	b := newBench(t, "bypass", "lan-to-wan")
	b.fail = true
	b.run(5 * time.Second)
	assert.Equal(t, StateInit, b.state("F1"))
	assert.Equal(t, uint64(0), b.e.Status()[0].Losses)
}

func TestMisroutedKeepAlive(t *testing.T) {
	b := newBench(t, "bypass", "lan-to-wan")
	b.run(1050 * time.Millisecond)
	f := wire.EncodeKeepAlive([6]byte{2}, [6]byte{2}, 0x88B6, wire.KeepAlive{FilterGroup: 0, Seq: 1})
	err := b.e.OnPacketIn(f, 50, 1, b.now)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "came back on port 50, not 30: check the filter's cabling")
	assert.Equal(t, uint64(1), b.e.Status()[0].Misrouted)
	_, err = wire.DecodeKeepAlive([]byte{1, 2, 3}, 0x88B6)
	assert.ErrorIs(t, err, wire.ErrNotKeepAlive)
}

func TestRestartKeepsDownAndAdopt(t *testing.T) {
	cfg, err := config.Parse([]byte(sprintf(site, "bypass", "lan-to-wan")))
	require.NoError(t, err)
	now := time.Unix(0, 0)
	e, err := New(cfg, func(uint32, []byte) error { return nil }, Options{Down: []string{"F2"}, AdminBypass: []string{"F1"}, Up: []string{"F3"}})
	require.NoError(t, err)
	e.Start(now)
	s := e.State()
	assert.Equal(t, map[string]tables.FilterGroupState{"F1": tables.FGSWBypass, "F2": tables.FGSWBypass}, s.FilterGroups,
		"F3 was up before the restart and keeps forwarding")
	assert.Equal(t, []string{"F2"}, e.Down())
	assert.Equal(t, []string{"F3"}, e.Up())
	assert.Equal(t, ReasonRestartUp, e.Status()[2].Reason)
	_, err = New(cfg, nil, Options{AdminBypass: []string{"nope"}})
	assert.Error(t, err)

	e2, err := New(cfg, func(uint32, []byte) error { return nil }, Options{})
	require.NoError(t, err)
	e2.Adopt(e)
	e2.Start(now)
	assert.Equal(t, s, e2.State())
}
