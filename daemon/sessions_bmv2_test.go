package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/controlplane"
	"github.com/dpi-balancer/balancer/p4src"
)

// smallSessionsBMv2JSON is the committed v1model sessions build's BMv2
// JSON with the sessions table's max_size set to size (the program is the
// committed one; only the size BMv2 allocates differs), for a test that
// fills the table.
func smallSessionsBMv2JSON(t *testing.T, size int64) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(p4src.SessionsBMv2JSON))
	dec.UseNumber()
	var prog map[string]any
	require.NoError(t, dec.Decode(&prog))
	found := 0
	for _, p := range prog["pipelines"].([]any) {
		for _, tb := range p.(map[string]any)["tables"].([]any) {
			if m := tb.(map[string]any); m["name"] == p4src.TableSessions {
				m["max_size"] = size
				found++
			}
		}
	}
	require.Equal(t, 1, found, "the sessions table in the BMv2 JSON")
	out, err := json.Marshal(prog)
	require.NoError(t, err)
	return out
}

const sessionsBMv2Site = `
site: smfull
platform: bmv2
ports:
%s
links:
  - {name: L1, lan: P2, wan: P1}
filter_groups:
  - {name: F1, lan: P4, wan: P3, cores: 4}
  - {name: F2, lan: P6, wan: P5, cores: 4}
profiles:
  - {name: slow, initial_delay: 10ms, interval: 50ms, loss_threshold: 40, recovery_threshold: 1, min_active: 1, failure_action: bypass}
balance_groups:
  - {name: G, members: [F1, F2], profile: slow, slot_bits: 8}
rules:
  - {name: all, priority: 10, action: balance G}
sessions: {enabled: true, idle_timeout: {tcp: 300s}}
`

// A full session table on BMv2, through the daemon with real frames: a
// table of 64 entries and 100 sessions' first frames sent into the
// switch. BMv2 refuses the inserts past its size with UNKNOWN "Error when
// adding match entry to target" (not RESOURCE_EXHAUSTED); the learner
// counts them as refused by a full table, none as failed, and the
// session-memory alarm is raised within 2 s of the table becoming full.
// Then the learner's view is made short of the switch's (8 entries
// forgotten, as a lost read would): 8 new sessions' inserts reach BMv2,
// which refuses them with the same answer; the learner reads the table
// back, finds it at its size and counts those 8 as full too.
func TestSessionMemoryFullTableBMv2(t *testing.T) {
	const size, n = 64, 100
	var ports strings.Builder
	for p := 1; p <= 6; p++ {
		fmt.Fprintf(&ports, "  - {port: %d, speed: 100G}\n", p)
	}
	yml := fmt.Sprintf(sessionsBMv2Site, ports.String())
	cfg, err := config.Parse([]byte(yml))
	require.NoError(t, err)
	dir, err := os.MkdirTemp("", "smbmv2") // short: unix socket paths are limited
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	cfgPath := filepath.Join(dir, "site.yaml")
	require.NoError(t, os.WriteFile(cfgPath, []byte(yml), 0o600))
	nums := map[string]uint32{}
	for p := 1; p <= 6; p++ {
		name := fmt.Sprintf("P%d", p)
		nums[name], err = cfg.PortNumber(name)
		require.NoError(t, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	ends, p4rt, _ := bmv2CountersTarget().start(t, ctx, nums)
	t.Cleanup(func() { cancel(); wg.Wait() })
	kaType := uint16(cfg.Defaults.KeepAlive.EtherType)
	peers := map[string]*portPeer{}
	for name := range nums {
		peers[name] = &portPeer{name: name, peer: ends[name], cores: map[uint32]uint64{}, keepAliveEtherType: kaType}
	}
	for _, f := range cfg.FilterGroups {
		lan, wan := peers[f.LAN], peers[f.WAN]
		lan.pass, wan.pass = wan, lan
		lan.alive.Store(true)
		wan.alive.Store(true)
	}
	for _, p := range peers {
		wg.Add(1)
		go func() { defer wg.Done(); p.run(ctx, uint16(cfg.Defaults.CoreTPID)) }()
	}

	schema := smallSessionsSchema(t, size)
	d, err := New(Options{StateDir: filepath.Join(dir, "state"), InitialConfig: cfgPath, SwitchAddr: p4rt, DeviceID: 1, ElectionLow: 1,
		Tick: time.Millisecond, CounterInterval: time.Hour, Logger: testLogger,
		Pipeline: &controlplane.Pipeline{P4Info: schema.Info, DeviceConfig: smallSessionsBMv2JSON(t, size)}})
	require.NoError(t, err)
	require.NotNil(t, d.learner)
	require.Equal(t, int64(size), d.learner.tbl.Size)
	dctx, dcancel := context.WithCancel(ctx)
	var dwg sync.WaitGroup
	dwg.Add(1)
	go func() { defer dwg.Done(); d.Run(dctx) }()
	t.Cleanup(func() { dcancel(); dwg.Wait() })
	require.Eventually(t, func() bool {
		st, err := d.Status(ctx)
		if err != nil || !st.Switch.Primary || st.Switch.StatePending {
			return false
		}
		for _, f := range st.Filters {
			if f.State != "up" {
				return false
			}
		}
		return true
	}, 60*time.Second, 5*time.Millisecond, "the filters up on BMv2")

	alarmed := func() bool {
		st, err := d.Status(ctx)
		if err != nil {
			return false
		}
		for _, a := range st.Alarms {
			if a.Name == AlarmSessionMemory {
				return true
			}
		}
		return false
	}
	require.False(t, alarmed())
	ss := randomSessions(n, 31, nil)
	for _, s := range ss {
		out, _ := s.frames(layers.IPProtocolTCP)
		peers["P2"].send(t, out)
	}
	sent := time.Now()
	var full, alarm time.Time
	// (The state is reported as it was at the last try: a message argument
	// would be evaluated once, before the wait, and show nothing learned.)
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		st := d.SessionMemory()
		if full.IsZero() && st.Held >= size {
			full = time.Now()
		}
		if alarm.IsZero() && alarmed() {
			alarm = time.Now()
		}
		assert.False(c, full.IsZero(), "the table full: %+v", st)
		assert.False(c, alarm.IsZero(), "the session-memory alarm raised: %+v", st)
	}, 60*time.Second, 2*time.Millisecond)
	assert.LessOrEqual(t, alarm.Sub(full), 2*time.Second, "the alarm within 2 s of the table becoming full")
	// Every digest answered: learned or refused, none failed.
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		st := d.SessionMemory()
		assert.True(c, st.Inserted+st.Full >= n && st.Backlog == 0, "every digest answered: %+v", st)
	}, 60*time.Second, 5*time.Millisecond)
	st := d.SessionMemory()
	es, err := d.session.Read(ctx, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: d.learner.tbl.ID}}})
	require.NoError(t, err)
	assert.Len(t, es, size, "BMv2's table is full")
	assert.Equal(t, size, st.Held)
	assert.Equal(t, uint64(size), st.Inserted)
	assert.Equal(t, uint64(n-size), st.Full, "the sessions past the size: refused by a full table")
	assert.Zero(t, st.Failed, "BMv2's full-table answer is not a failure")
	t.Logf("BMv2, a table of %d, %d sessions: full %v after the last frame sent, the alarm %v after that; %+v",
		size, n, full.Sub(sent).Round(time.Millisecond), alarm.Sub(full).Round(time.Millisecond), st)

	// The learner's view short of the switch's: its inserts reach BMv2.
	// (A read-back the learner makes meanwhile, after the pipeline push,
	// may restore its view first: then the digests are refused without a
	// write, and the test forgets again, with new sessions.)
	const forget = 8
	l := d.learner
	reached := false
	for attempt := int64(0); attempt < 5 && !reached; attempt++ {
		l.mu.Lock()
		i := 0
		for k, at := range l.held {
			if i == forget {
				break
			}
			l.byGroup[at.fg]--
			delete(l.held, k)
			i++
		}
		l.mu.Unlock()
		before, rechecks := d.SessionMemory(), l.rechecks.Load()
		for _, s := range randomSessions(forget, 32+attempt, ss) {
			out, _ := s.frames(layers.IPProtocolTCP)
			peers["P2"].send(t, out)
		}
		require.EventuallyWithT(t, func(c *assert.CollectT) {
			st := d.SessionMemory()
			assert.Equal(c, before.Full+forget, st.Full, "refused as full: %+v", st)
		}, 60*time.Second, 5*time.Millisecond)
		after := d.SessionMemory()
		assert.Equal(t, before.Failed, after.Failed, "BMv2's answer, with the table read back at its size: full, not failed")
		assert.Equal(t, size, after.Held, "the read-back restored the view")
		reached = l.rechecks.Load() > rechecks
		t.Logf("view short by %d: %d refused as full; the inserts reached BMv2: %v", forget, after.Full-before.Full, reached)
	}
	assert.True(t, reached, "the inserts reached BMv2 and its answer made the learner read the table back")
	assert.Zero(t, d.SessionMemory().Failed)
}
