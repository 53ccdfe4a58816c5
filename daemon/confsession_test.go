package daemon

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ruleLine is a bypass rule of priority prio (and tcp port 1000+prio),
// appended to the bed's rules.
func ruleLine(name string, prio int) string {
	return fmt.Sprintf("  - {name: %s, priority: %d, match: {proto: tcp, l4_port: %d}, action: bypass}\n", name, prio, 1000+prio)
}

// writes is the daemon's count of plans written to the switch (switch
// writes: one per programming pass), and of P4Runtime write requests.
func writes(d *Daemon) (plans, requests uint64) {
	st := d.Session().Stats()
	return st.PlansWritten, st.WriteRequests
}

// stageRules stages one edit per rule into d's open session.
func stageRules(t *testing.T, d *Daemon, names ...string) {
	t.Helper()
	for i, n := range names {
		v, err := d.ShowSession(context.Background())
		require.NoError(t, err)
		data := v.Session.YAML + ruleLine(n, 100+i)
		got, err := d.StageSession(context.Background(), []byte(data), v.Session.Version, "balancer rule add "+n, false)
		require.NoError(t, err)
		assert.Equal(t, []string{"+ rule " + n}, firstWords(got.Changes), "the edit's own change")
	}
}

// firstWords keeps "+ rule NAME" of each change line.
func firstWords(lines []string) []string {
	var out []string
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) > 3 {
			f = f[:3]
		}
		out = append(out, strings.Join(f, " "))
	}
	return out
}

// eventWaiter follows d's events from now on.
type eventWaiter struct {
	ch     chan Event
	cancel context.CancelFunc
}

func followEvents(t *testing.T, d *Daemon) *eventWaiter {
	ctx, cancel := context.WithCancel(context.Background())
	w := &eventWaiter{ch: make(chan Event, 256), cancel: cancel}
	go func() {
		_ = d.Monitor(ctx, 0, "", true, func(e Event) error {
			select {
			case w.ch <- e:
			default:
			}
			return nil
		})
	}()
	t.Cleanup(cancel)
	return w
}

// wait returns the first config event to "to", failing after within.
func (w *eventWaiter) wait(t *testing.T, to string, within time.Duration) Event {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case e := <-w.ch:
			if e.Kind == EventConfig && e.To == to {
				return e
			}
		case <-deadline:
			t.Fatalf("no config event to %q within %s", to, within)
		}
	}
}

// Three edits staged in a session make one revision and one switch write;
// the same three edits made directly make three of each.
func TestSessionThreeEditsOneRevisionOneWrite(t *testing.T) {
	b := newBed(t)
	d, _ := b.startDaemon(10)
	b.allUp(d)
	ctx := context.Background()
	data, err := os.ReadFile(b.config)
	require.NoError(t, err)

	// Before: three direct edits.
	rev0 := d.snapshot().rev.Number
	p0, r0 := writes(d)
	directInserts := 0
	for i, n := range []string{"a1", "a2", "a3"} {
		data = append(data, ruleLine(n, 200+i)...)
		res, err := d.ApplyConfig(ctx, data, false, "balancer rule add "+n)
		require.NoError(t, err)
		require.True(t, res.Written)
		directInserts += res.Inserts
	}
	p1, r1 := writes(d)
	directRevs, directPlans, directReqs := d.snapshot().rev.Number-rev0, p1-p0, r1-r0
	assert.Equal(t, uint64(3), directRevs)
	assert.Equal(t, uint64(3), directPlans)

	// After: the same in a session.
	_, err = d.StartSession(ctx)
	require.NoError(t, err)
	rev1 := d.snapshot().rev.Number
	p1, r1 = writes(d)
	stageRules(t, d, "s1", "s2", "s3")
	assert.Equal(t, rev1, d.snapshot().rev.Number, "staging makes no revision")
	p2, r2 := writes(d)
	assert.Equal(t, [2]uint64{p1, r1}, [2]uint64{p2, r2}, "staging writes nothing to the switch")
	v, err := d.ShowSession(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"+ rule s1", "+ rule s2", "+ rule s3"}, firstWords(v.Changes))
	assert.Len(t, v.Session.Edits, 3)
	assert.Empty(t, v.Moved)

	res, err := d.CommitSession(ctx, "", 0, false)
	require.NoError(t, err)
	require.True(t, res.Written)
	p3, r3 := writes(d)
	sessRevs, sessPlans, sessReqs := d.snapshot().rev.Number-rev1, p3-p2, r3-r2
	t.Logf("3 rule edits: direct %d revisions, %d switch writes (%d write requests); session %d revision, %d switch write (%d write requests)",
		directRevs, directPlans, directReqs, sessRevs, sessPlans, sessReqs)
	assert.Equal(t, uint64(1), sessRevs)
	assert.Equal(t, uint64(1), sessPlans)
	assert.LessOrEqual(t, sessReqs, directReqs)
	assert.Equal(t, directInserts, res.Inserts, "the one write carries the three edits' entries")
	assert.Contains(t, res.Revision.Comment, "balancer rule add s1; balancer rule add s2; balancer rule add s3")
	assert.Equal(t, []string{"all", "a1", "a2", "a3", "s1", "s2", "s3"}, ruleNames(d), "the staged rules run")
	assert.Nil(t, d.OpenSession(), "the commit closed the session")
	_, err = os.Stat(filepath.Join(b.dir, "session.json"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func ruleNames(d *Daemon) []string {
	var out []string
	for _, r := range d.snapshot().cfg.Rules {
		out = append(out, r.Name)
	}
	return out
}
