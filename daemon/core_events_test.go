package daemon

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/p4src"
)

// TestEveryEventAtOnce drives every kind of event the daemon's core
// takes, all at once (run it with -race): configuration applies,
// reloads, role changes of the switch session, data-plane verdict
// digests, keep-alive rounds with a filter dying and coming back, port
// events, the operator's bypass, and status, configuration, slots and
// counter reads. Every read sees one consistent running state (a
// configuration with its own revision), and once the events stop the
// state settles where every part agrees: the engine, the compiled site,
// what the daemon noted as written, the switch, the saved runtime state
// and the store.
func TestEveryEventAtOnce(t *testing.T) {
	b := newBed(t)
	d, _ := b.startDaemon(10)
	b.allUp(d)
	ctx := context.Background()
	base, err := os.ReadFile("testdata/fast.yaml")
	require.NoError(t, err)
	variants := [][]byte{base, append(slices.Clone(base), []byte("  - {name: bgp, priority: 100, match: {proto: tcp, l4_port: 179}, action: bypass}\n")...)}

	rounds := 30
	if testing.Short() {
		rounds = 10
	}
	var (
		stop    atomic.Bool
		wg      sync.WaitGroup
		drivers sync.WaitGroup
		counts  [9]atomic.Uint64 // events of each kind made
	)
	// loop runs f until the applies are done (at least once).
	loop := func(kind int, f func(i int)) {
		drivers.Add(1)
		go func() {
			defer drivers.Done()
			for i := 0; i == 0 || !stop.Load(); i++ {
				f(i)
				counts[kind].Add(1)
			}
		}()
	}
	// 0: configuration applies, alternately the two variants.
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer stop.Store(true)
		for i := range rounds {
			res, err := d.ApplyConfig(ctx, variants[(i+1)%2], false, fmt.Sprintf("round %d", i))
			if !assert.NoError(t, err, "apply %d", i) {
				return
			}
			assert.False(t, res.Unchanged, "apply %d", i)
			counts[0].Add(1)
		}
	}()
	// 1: reloads from the store.
	loop(1, func(int) { assert.NoError(t, d.Reload(ctx)) })
	// 2: role changes of the switch session, as its callback reports them.
	loop(2, func(i int) {
		d.onPrimary(i%2 == 1)
		time.Sleep(time.Millisecond) // a role holds a moment (pacing, nothing is waited for)
	})
	// 3: data-plane verdicts, through the engine loop as the session's
	// digests: a filter group the configuration does not have (an alarm),
	// and F2 at its current epoch (down, then proven by its keep-alives).
	f2, _, err := d.Config(ctx)
	require.NoError(t, err)
	f2ID := uint8(*f2.FilterGroupByName("F2").ID)
	loop(3, func(i int) {
		v := p4src.VerdictDigest{FilterGroup: 200, Reason: 1}
		if i%20 == 0 {
			v = p4src.VerdictDigest{FilterGroup: f2ID, Epoch: d.currentEngine().Epochs()["F2"], Reason: 1}
		}
		d.engineDo(func() { d.onVerdict(v) })
		time.Sleep(time.Millisecond) // pacing: verdicts arrive among the other events, nothing is waited for
	})
	// 4: keep-alive rounds run on their own (every millisecond); F1's
	// filter dies and comes back.
	loop(4, func(i int) {
		b.filters["F1"].alive.Store(i%2 == 1)
		time.Sleep(20 * time.Millisecond) // pacing: F1 dead or alive for a few keep-alive rounds, nothing is waited for
	})
	// 5: port events: F3's WAN port goes down and up.
	loop(5, func(i int) {
		b.peers[70].SetCarrier(i%2 == 1)
		time.Sleep(10 * time.Millisecond) // pacing: the carrier holds a moment, nothing is waited for
	})
	// 6: the operator's bypass of F3.
	loop(6, func(i int) { assert.NoError(t, d.SetBypass(ctx, "F3", i%2 == 0)) })
	// 7: reads: every one sees a configuration with its own revision.
	loop(7, func(int) {
		data, rev := d.ConfigYAML()
		assert.Equal(t, digest(data), rev.Digest, "the configuration read is not its revision's")
		cfg, rev2, err := d.Config(ctx)
		assert.NoError(t, err)
		assert.Len(t, cfg.Rules, 1+int((rev2.Number+1)%2), "revision %d has the rules of the other variant", rev2.Number)
		st, err := d.Status(ctx)
		if assert.NoError(t, err) {
			assert.Len(t, st.Filters, 3)
			assert.Len(t, st.Balance, 1)
		}
		_, err = d.Slots(ctx, "")
		assert.NoError(t, err)
	})
	// 8: counters read from the switch.
	loop(8, func(int) {
		_, err := d.Counters(ctx)
		assert.NoError(t, err)
	})
	wg.Wait()
	drivers.Wait()
	for k := range counts {
		require.Positive(t, counts[k].Load(), "no event of kind %d was made", k)
	}
	t.Logf("events: applies %d, reloads %d, role changes %d, verdicts %d, filter deaths %d, port events %d, bypasses %d, reads %d, counter reads %d",
		counts[0].Load(), counts[1].Load(), counts[2].Load(), counts[3].Load(), counts[4].Load(), counts[5].Load(), counts[6].Load(), counts[7].Load(), counts[8].Load())

	// Settle: the session's role as it is, every filter alive, every port
	// up, no bypass.
	d.onPrimary(d.Session().Status().Primary)
	b.filters["F1"].alive.Store(true)
	b.peers[70].SetCarrier(true)
	require.NoError(t, d.SetBypass(ctx, "F3", false))
	b.allUp(d)

	// Every part comes to agree: the engine, the compiled site, what was
	// written, the role, the ports and the switch.
	var why string
	settled := func() bool {
		r := d.snapshot()
		st := r.engine.State()
		switch {
		case !equalState(st, r.site.State()):
			why = "the compiled site is not at the engine's state"
		case !equalState(st, r.written):
			why = "what was written is not the engine's state"
		case !r.primary:
			why = "the daemon does not know it is primary"
		case !r.watching || len(r.ports) == 0:
			why = "no port subscription or no port event recorded"
		default:
			for n, up := range r.ports {
				if !up {
					why = fmt.Sprintf("port %d is down", n)
					return false
				}
			}
			for _, fg := range r.cfg.FilterGroups {
				if a := b.fgAction(*fg.ID); a != p4src.ActionFilterForward {
					why = fmt.Sprintf("filter group %s is %q on the switch", fg.Name, a)
					return false
				}
			}
			return true
		}
		return false
	}
	if !assert.Eventually(t, settled, 30*time.Second, 2*time.Millisecond) {
		t.Fatalf("the state never settled: %s", why)
	}
	r := d.snapshot()
	data, rev, err := d.store.Running()
	require.NoError(t, err)
	assert.Equal(t, rev, r.rev, "the running revision is not the store's")
	assert.Equal(t, data, r.yaml)
	assert.Equal(t, variants[rounds%2], r.yaml, "the last configuration applied does not run")
	rt, err := d.store.LoadRuntime()
	require.NoError(t, err)
	assert.Equal(t, runtimeOf(r.engine).BypassGroups, rt.BypassGroups, "the saved manual bypasses are not the engine's")
	assert.Empty(t, rt.BypassGroups)
	st, err := d.Status(ctx)
	require.NoError(t, err)
	for _, f := range st.Filters {
		if f.Name == "F2" {
			assert.NotEmpty(t, f.Verdicts, "no data-plane verdict took F2 down")
		}
	}
	for _, a := range d.alarms.list() {
		assert.NotEqual(t, AlarmTaskEnded, a.Name, "a task of the daemon ended: %s", a.Message)
	}
}
