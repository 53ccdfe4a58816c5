package daemon

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
)

// Manual bypass raced against configuration applies: every acknowledged
// bypass is in memory, in runtime.json and on the switch, none lost.
func TestBypassRacesConfigApply(t *testing.T) {
	b := newBed(t)
	d, _ := b.startDaemon(10)
	b.allUp(d)
	ctx := context.Background()
	base, err := os.ReadFile("testdata/fast.yaml")
	require.NoError(t, err)
	variants := [][]byte{base, append(slices.Clone(base), []byte("  - {name: bgp, priority: 100, match: {proto: tcp, l4_port: 179}, action: bypass}\n")...)}
	groups := []string{"F1", "F2", "F3"}
	want := map[string]bool{}
	wantAll := false
	rounds := 300
	if testing.Short() {
		rounds = 50
	}
	for i := 0; i < rounds; i++ {
		g := groups[i%len(groups)]
		on := (i/len(groups))%2 == 0
		all := i%7 == 3
		var wg sync.WaitGroup
		var applyErr, bypassErr error
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, applyErr = d.ApplyConfig(ctx, variants[i%2], false, fmt.Sprintf("round %d", i))
		}()
		go func() {
			defer wg.Done()
			if all {
				bypassErr = d.SetBypass(ctx, "", !wantAll)
			} else {
				bypassErr = d.SetBypass(ctx, g, on)
			}
		}()
		wg.Wait()
		require.NoError(t, applyErr, "round %d", i)
		require.NoError(t, bypassErr, "round %d", i)
		if all {
			wantAll = !wantAll
		} else {
			want[g] = on
		}
		var wantGroups []string
		for _, n := range groups {
			if want[n] {
				wantGroups = append(wantGroups, n)
			}
		}

		st, err := d.Status(ctx)
		require.NoError(t, err)
		require.Equal(t, wantAll, st.Bypass.All, "round %d: global bypass in memory", i)
		require.Equal(t, wantGroups, st.Bypass.Groups, "round %d: manual bypass in memory", i)
		rt, err := d.store.LoadRuntime()
		require.NoError(t, err)
		require.Equal(t, wantAll, rt.BypassAll, "round %d: global bypass in runtime.json", i)
		require.Equal(t, wantGroups, rt.BypassGroups, "round %d: manual bypass in runtime.json", i)
	}
	// And on the switch.
	for i, n := range groups {
		want := p4src.ActionFilterForward
		if slices.Contains(d.mustStatus(t).Bypass.Groups, n) {
			want = p4src.ActionFilterSWBypass
		}
		b.waitFG(uint32(i), want, 5*time.Second)
	}
}

func (d *Daemon) mustStatus(t *testing.T) *Status {
	st, err := d.Status(context.Background())
	require.NoError(t, err)
	return st
}

// A manual bypass that cannot be saved fails and changes nothing.
func TestSetBypassFailsWhenNotDurable(t *testing.T) {
	b := newBed(t)
	d, _ := b.startDaemon(10)
	b.allUp(d)
	ctx := context.Background()
	path := filepath.Join(b.dir, "runtime.json")
	// The save that follows the last failover write is done.
	require.Eventually(t, func() bool {
		rt, err := d.store.LoadRuntime()
		return err == nil && len(rt.Up) == 3
	}, 5*time.Second, time.Millisecond)
	// runtime.json replaced by a non-empty directory: no file can be
	// renamed over it.
	require.NoError(t, os.RemoveAll(path))
	require.NoError(t, os.MkdirAll(filepath.Join(path, "x"), 0o755))

	err := d.SetBypass(ctx, "F2", true)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "manual bypass not changed")
	st := d.mustStatus(t)
	assert.Empty(t, st.Bypass.Groups, "in-memory state unchanged")
	assert.Equal(t, "up", st.Filters[1].State)
	assert.Equal(t, p4src.ActionFilterForward, b.fgAction(1), "switch unchanged")
	require.Error(t, d.SetBypass(ctx, "", true))
	assert.False(t, d.mustStatus(t).Bypass.All)

	require.NoError(t, os.RemoveAll(path))
	require.NoError(t, d.SetBypass(ctx, "F2", true))
	assert.Equal(t, []string{"F2"}, d.mustStatus(t).Bypass.Groups)
	assert.Equal(t, p4src.ActionFilterSWBypass, b.fgAction(1), "written on the switch before SetBypass returned")
	rt, err := d.store.LoadRuntime()
	require.NoError(t, err)
	assert.Equal(t, []string{"F2"}, rt.BypassGroups)

	assert.ErrorIs(t, d.SetBypass(ctx, "nope", true), ErrNotFound)
}

// A filter group added to a running site takes no traffic until it has
// proved itself with recovery_threshold keep-alives.
func TestAddedFilterEarnsItsTraffic(t *testing.T) {
	b := newBed(t)
	d, _ := b.startDaemon(10)
	b.allUp(d)
	ctx := context.Background()
	data, err := os.ReadFile("testdata/fast.yaml")
	require.NoError(t, err)
	// Without F3, then F3 added back while it does not answer.
	without := []byte(string(data))
	without = []byte(replaceOnce(t, string(without), "  - {name: F3, lan: P8, wan: P7, cores: 4}\n", ""))
	without = []byte(replaceOnce(t, string(without), "members: [F1, F2, F3]", "members: [F1, F2]"))
	_, err = d.ApplyConfig(WithForce(ctx, true), without, false, "remove F3")
	require.NoError(t, err)
	b.filters["F3"].alive.Store(false)
	res, err := d.ApplyConfig(ctx, data, false, "add F3")
	require.NoError(t, err)
	require.True(t, res.Written)
	assert.Equal(t, p4src.ActionFilterSWBypass, b.fgAction(2), "an unproven filter is written in software bypass")
	st := d.mustStatus(t)
	assert.Contains(t, []string{"init", "down"}, st.Filters[2].State, "never up")
	assert.Zero(t, st.Filters[2].Passes)
	assert.Equal(t, "sw-bypass", st.Filters[2].Effective)
	// It never answers: it goes down without ever having forwarded.
	require.Eventually(t, func() bool { return d.mustStatus(t).Filters[2].State == "down" }, 5*time.Second, time.Millisecond)
	assert.Equal(t, p4src.ActionFilterSWBypass, b.fgAction(2))
	// It answers: forwarding after recovery_threshold keep-alives.
	b.filters["F3"].alive.Store(true)
	b.waitFG(2, p4src.ActionFilterForward, 5*time.Second)
}

func replaceOnce(t *testing.T, s, old, new string) string {
	t.Helper()
	require.Equal(t, 1, strings.Count(s, old), "%q", old)
	return strings.Replace(s, old, new, 1)
}

// preVerdictSchema is the committed program as a build made before the
// data-plane verdict holds it: the controller alone judges the filters.
func preVerdictSchema(t testing.TB) *p4src.Schema {
	t.Helper()
	s, err := p4src.Load()
	require.NoError(t, err)
	pre, err := p4src.NewSchema(p4src.WithoutVerdict(s.Info))
	require.NoError(t, err)
	return pre
}

// Every filter's keep-alives stop at once for a while (the keep-alive path
// stalls): the stall guard raises its alarm and holds; no filter is failed
// over and the switch is not written. This is the controller's guard, on
// a program without the data-plane verdict: with the verdict, a pipeline
// that sees keep-alives leave and nothing return has proven loss, and
// TestControlChannelHangBypassesNothing covers a stalled control path.
func TestKeepAlivePathStallHoldsFilters(t *testing.T) {
	b := newBedWith(t, "testdata/fast.yaml", 0, preVerdictSchema(t))
	d, _ := b.startDaemon(10)
	b.allUp(d)
	writes := d.Session().Stats().Updates
	for _, f := range b.filters {
		f.alive.Store(false)
	}
	// Loss threshold x interval is 30ms; the guard holds for stall_hold (1s).
	require.Eventually(t, func() bool {
		st := d.mustStatus(t)
		return len(st.Balance) == 1 && st.Balance[0].KeepAliveStall
	}, 5*time.Second, time.Millisecond, "stall alarm raised")
	st := d.mustStatus(t)
	for _, f := range st.Filters {
		assert.Equal(t, "up", f.State, f.Name)
	}
	assert.True(t, slices.ContainsFunc(st.Filters, func(f FilterStatus) bool { return f.Held }), "held filters shown")
	for _, f := range b.filters {
		f.alive.Store(true)
	}
	require.Eventually(t, func() bool { return !d.mustStatus(t).Balance[0].KeepAliveStall }, 5*time.Second, time.Millisecond,
		"alarm cleared when keep-alives pass again")
	for _, f := range d.mustStatus(t).Filters {
		assert.Equal(t, "up", f.State, f.Name)
		assert.False(t, f.Held, f.Name)
	}
	assert.Equal(t, writes, d.Session().Stats().Updates, "no failover written")
}

// Runtime state saved before proven filters were recorded: the filters not
// down keep forwarding across the upgrade; with it, only the proven ones
// do, and a site started afresh proves every filter first.
func TestRuntimeUpAcrossRestarts(t *testing.T) {
	for _, tt := range []struct {
		name    string
		runtime string // "" = no runtime.json
		want    map[string]string
	}{
		{"first start", "", map[string]string{"F1": "init", "F2": "init", "F3": "init"}},
		{"legacy runtime state", `{"bypass_all": false, "down": ["F2"]}`, map[string]string{"F1": "up", "F2": "down", "F3": "up"}},
		{"proven filters recorded", `{"bypass_all": false, "down": ["F2"], "up": ["F3"]}`, map[string]string{"F1": "init", "F2": "down", "F3": "up"}},
		{"none proven", `{"bypass_all": false, "up": []}`, map[string]string{"F1": "init", "F2": "init", "F3": "init"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.runtime != "" {
				require.NoError(t, os.WriteFile(filepath.Join(dir, "runtime.json"), []byte(tt.runtime), 0o640))
			}
			d, err := New(Options{StateDir: dir, InitialConfig: "testdata/fast.yaml", SwitchAddr: "127.0.0.1:1"})
			require.NoError(t, err)
			got := map[string]string{}
			for _, f := range d.mustStatus(t).Filters {
				got[f.Name] = f.State
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// The stall guard's passive evidence, end to end: every filter stops
// answering while traffic keeps being sent to them and none comes back;
// the daemon reads their counters and fails them over long before
// stall_hold (30s here). On a program without the data-plane verdict
// (with it, the pipeline proves the loss itself: the tests of
// verdict_test.go).
func TestStallGuardFailsOnDataPlaneEvidence(t *testing.T) {
	data, err := os.ReadFile("testdata/fast.yaml")
	require.NoError(t, err)
	yaml := replaceOnce(t, string(data), "failure_action: bypass}", "failure_action: bypass, stall_hold: 30s}")
	path := filepath.Join(t.TempDir(), "site.yaml")
	require.NoError(t, os.WriteFile(path, []byte(yaml), 0o644))
	b := newBedWith(t, path, 0, preVerdictSchema(t))
	d, _ := b.startDaemon(10)
	b.allUp(d)
	for _, f := range b.filters {
		f.alive.Store(false)
	}
	require.Eventually(t, func() bool { return d.mustStatus(t).Balance[0].KeepAliveStall }, 5*time.Second, time.Millisecond)

	// Sessions from many sources on L1's LAN port (P2 = 20): balanced over
	// every filter, sent to them, never returned.
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		mac := net.HardwareAddr{2, 0, 0, 0, 0, 1}
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			src := netip.AddrFrom4([4]byte{10, 1, byte(i >> 8), byte(i)})
			fr := pipelinecases.Frame(mac, mac, pipelinecases.Encap{}, pipelinecases.L3{Src: src, Dst: netip.MustParseAddr("10.2.0.1"),
				Proto: layers.IPProtocolUDP, SrcPort: uint16(1000 + i), DstPort: 53})
			_ = b.peers[20].Send(fr)
			time.Sleep(time.Millisecond) // pacing: about a frame a millisecond
		}
	}()
	defer func() { close(stop); <-done }()
	require.Eventually(t, func() bool {
		for _, f := range d.mustStatus(t).Filters {
			if f.State != "down" {
				return false
			}
		}
		return true
	}, 10*time.Second, 5*time.Millisecond, "failed over on data-plane evidence, well before stall_hold")
	assert.False(t, d.mustStatus(t).Balance[0].KeepAliveStall, "alarm cleared")
}

// The switch after incremental state changes holds exactly what a full
// compile of the site in that state gives: filter failure and recovery
// under rebalance, manual bypass of one group and of everything.
func TestIncrementalStateEqualsFullCompile(t *testing.T) {
	data, err := os.ReadFile("testdata/fast.yaml")
	require.NoError(t, err)
	yaml := replaceOnce(t, string(data), "failure_action: bypass}", "failure_action: rebalance}")
	path := filepath.Join(t.TempDir(), "site.yaml")
	require.NoError(t, os.WriteFile(path, []byte(yaml), 0o644))
	b := newBedFor(t, path, 0)
	d, _ := b.startDaemon(10)
	b.allUp(d)
	ctx := context.Background()
	check := func(what string) {
		t.Helper()
		require.Eventually(t, func() bool { return !d.mustStatus(t).Switch.StatePending }, 5*time.Second, time.Millisecond)
		r := d.snapshot()
		cfg, eng := r.cfg, r.engine
		want, err := d.comp.Compile(cfg, eng.State())
		require.NoError(t, err)
		var wild []*p4v1.Entity
		for _, id := range d.comp.TableIDs() {
			wild = append(wild, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: id}}})
		}
		got, err := d.Session().Read(ctx, wild...)
		require.NoError(t, err)
		for _, e := range got {
			d.comp.Canonical(e)
		}
		var wantTables []*p4v1.Entity
		for _, e := range want.Entities {
			if e.GetTableEntry() != nil && !e.GetTableEntry().GetIsDefaultAction() {
				wantTables = append(wantTables, e)
			}
		}
		plan := d.comp.Diff(wantTables, got)
		assert.True(t, plan.Empty(), "%s: the switch differs from a full compile: %d inserts, %d modifies, %d deletes",
			what, plan.Inserts, plan.Modifies, plan.Deletes)
	}
	check("all up")
	b.filters["F2"].alive.Store(false)
	b.waitFG(1, p4src.ActionFilterSWBypass, 5*time.Second)
	require.Equal(t, "rebalanced", d.mustStatus(t).Filters[1].Effective)
	check("F2 rebalanced")
	require.NoError(t, d.SetBypass(ctx, "F1", true))
	check("F2 rebalanced, F1 bypassed by hand")
	require.NoError(t, d.SetBypass(ctx, "", true))
	check("everything bypassed")
	require.NoError(t, d.SetBypass(ctx, "", false))
	require.NoError(t, d.SetBypass(ctx, "F1", false))
	b.filters["F2"].alive.Store(true)
	b.waitFG(1, p4src.ActionFilterForward, 5*time.Second)
	check("all back")
}
