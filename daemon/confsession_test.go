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
	for _, n := range names {
		v, err := d.ShowSession(context.Background())
		require.NoError(t, err)
		data := v.Session.YAML + ruleLine(n, 100+strings.Count(v.Session.YAML, "priority:"))
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
//
// The counts are the switch writes the edits make, so the premise is that
// nothing else writes the switch while they are counted: no filter group
// changes state (each change is a write of its own). testdata/relaxed.yaml
// keeps the filters up on a starved host (a filter group goes down only
// after 10 s of lost keep-alives; at fast.yaml's 10 ms a host busy beside
// -race failed them over, and back, between the edits), and the daemon's
// events say whether one changed state anyway (published at the
// transition, before the write it makes): a run in which one did is said
// and runs again on a new bed.
func TestSessionThreeEditsOneRevisionOneWrite(t *testing.T) {
	var d *Daemon
	var counted uint64 // the last event before the writes are counted
	premised(t, "three edits", time.Now().Add(2*time.Minute), func(time.Time, time.Time) string {
		return filterChangesSince(d, counted)
	}, func(c *checks) {
		b := newBedFor(t, "testdata/relaxed.yaml", 0)
		var stop func()
		d, stop = b.startDaemon(10)
		defer stop()
		b.allUp(d)
		counted = lastEvent(d)
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
		assert.Equal(c, uint64(3), directRevs)
		assert.Equal(c, uint64(3), directPlans)

		// After: the same in a session.
		_, err = d.StartSession(ctx)
		require.NoError(t, err)
		rev1 := d.snapshot().rev.Number
		p1, r1 = writes(d)
		stageRules(t, d, "s1", "s2", "s3")
		assert.Equal(c, rev1, d.snapshot().rev.Number, "staging makes no revision")
		p2, r2 := writes(d)
		assert.Equal(c, [2]uint64{p1, r1}, [2]uint64{p2, r2}, "staging writes nothing to the switch")
		v, err := d.ShowSession(ctx)
		require.NoError(t, err)
		assert.Equal(c, []string{"+ rule s1", "+ rule s2", "+ rule s3"}, firstWords(v.Changes))
		assert.Len(c, v.Session.Edits, 3)
		assert.Empty(c, v.Moved)

		res, err := d.CommitSession(ctx, "", 0, false)
		require.NoError(t, err)
		require.True(t, res.Written)
		p3, r3 := writes(d)
		sessRevs, sessPlans, sessReqs := d.snapshot().rev.Number-rev1, p3-p2, r3-r2
		t.Logf("3 rule edits: direct %d revisions, %d switch writes (%d write requests); session %d revision, %d switch write (%d write requests)",
			directRevs, directPlans, directReqs, sessRevs, sessPlans, sessReqs)
		assert.Equal(c, uint64(1), sessRevs)
		assert.Equal(c, uint64(1), sessPlans)
		assert.LessOrEqual(c, sessReqs, directReqs)
		assert.Equal(c, directInserts, res.Inserts, "the one write carries the three edits' entries")
		assert.Contains(c, res.Revision.Comment, "balancer rule add s1; balancer rule add s2; balancer rule add s3")
		assert.Equal(c, []string{"all", "a1", "a2", "a3", "s1", "s2", "s3"}, ruleNames(d), "the staged rules run")
		assert.Nil(c, d.OpenSession(), "the commit closed the session")
		_, err = os.Stat(filepath.Join(b.dir, "session.json"))
		assert.ErrorIs(c, err, os.ErrNotExist)
	})
}

// lastEvent is the sequence number of d's latest event (0: none yet).
func lastEvent(d *Daemon) uint64 {
	if es := d.events.Recent(1, ""); len(es) > 0 {
		return es[0].Seq
	}
	return 0
}

// filterChangesSince says which filter groups of d changed state after
// its event seq ("": none).
func filterChangesSince(d *Daemon, seq uint64) string {
	var changed []string
	for _, e := range d.events.Recent(eventLogSize, "") {
		if e.Seq > seq && e.Kind == EventFilterGroup {
			changed = append(changed, e.String())
		}
	}
	if len(changed) == 0 {
		return ""
	}
	return "filter groups changed state (a switch write each): " + strings.Join(changed, "; ")
}

func ruleNames(d *Daemon) []string {
	var out []string
	for _, r := range d.snapshot().cfg.Rules {
		out = append(out, r.Name)
	}
	return out
}

// A commit is refused when the running revision moved since the session
// started: it names what moved and how to go on; the session stays.
func TestSessionCommitRefusedWhenRunningMoved(t *testing.T) {
	b := newBed(t)
	d, _ := b.startDaemon(10)
	b.allUp(d)
	ctx := context.Background()
	data, err := os.ReadFile(b.config)
	require.NoError(t, err)
	_, err = d.StartSession(ctx)
	require.NoError(t, err)
	base := d.snapshot().rev.Number
	stageRules(t, d, "s1")
	// Another operator changes the running configuration directly.
	_, err = d.ApplyConfig(ctx, append(data, ruleLine("other", 300)...), false, "balancer rule add other")
	require.NoError(t, err)
	moved := d.snapshot().rev.Number
	require.Equal(t, base+1, moved)

	p0, _ := writes(d)
	_, err = d.CommitSession(ctx, "", 0, false)
	require.ErrorIs(t, err, ErrConflict)
	assert.Contains(t, err.Error(), fmt.Sprintf("started on revision %d, but the running revision is now %d (balancer rule add other)", base, moved))
	assert.Contains(t, err.Error(), "+ rule other")
	assert.Contains(t, err.Error(), "balancer config session abort")
	assert.Equal(t, moved, d.snapshot().rev.Number, "nothing committed")
	p1, _ := writes(d)
	assert.Equal(t, p0, p1, "nothing written")
	v, err := d.ShowSession(ctx)
	require.NoError(t, err)
	require.NotNil(t, v.Session, "the session stays open")
	assert.Equal(t, []string{"+ rule other"}, firstWords(v.Moved))
	assert.Equal(t, []string{"+ rule s1"}, firstWords(v.Changes))

	_, err = d.StartSession(ctx)
	assert.ErrorIs(t, err, ErrSessionState, "one session at a time")
	_, err = d.AbortSession(ctx)
	require.NoError(t, err)
	assert.Nil(t, d.OpenSession())
	_, err = d.CommitSession(ctx, "", 0, false)
	assert.ErrorIs(t, err, ErrSessionState)
	_, err = d.StageSession(ctx, data, 1, "balancer rule add x", false)
	assert.ErrorIs(t, err, ErrSessionState)
}

// commitConfirmed stages rule name in a new session and commits it with
// a confirmation due within confirm.
func commitConfirmed(t *testing.T, d *Daemon, name string, confirm time.Duration) (*ApplyResult, *CommitConfirm) {
	t.Helper()
	_, err := d.StartSession(context.Background())
	require.NoError(t, err)
	stageRules(t, d, name)
	res, err := d.CommitSession(context.Background(), "", confirm, false)
	require.NoError(t, err)
	p := d.PendingConfirm()
	require.NotNil(t, p)
	require.Equal(t, res.Revision.Number, p.Revision)
	return res, p
}

// Without confirmation the daemon rolls the revision back by itself at the
// deadline; other changes are refused meanwhile; monitor and history say
// why.
func TestCommitConfirmedRollsBackAtDeadline(t *testing.T) {
	b := newBed(t)
	d, _ := b.startDaemon(10)
	b.allUp(d)
	ctx := context.Background()
	w := followEvents(t, d)
	base := d.snapshot().rev
	res, p := commitConfirmed(t, d, "s1", 2*time.Second)
	assert.Equal(t, base.Number, p.Previous)
	assert.Contains(t, res.Warning, fmt.Sprintf("revision %d rolls back to revision %d", res.Revision.Number, base.Number))
	_, err := os.Stat(filepath.Join(b.dir, "confirm.json"))
	require.NoError(t, err, "saved before the deadline")
	st, err := d.Status(ctx)
	require.NoError(t, err)
	require.NotNil(t, st.Confirm)
	assert.Equal(t, p.Deadline, st.Confirm.Deadline)

	data, err := os.ReadFile(b.config)
	require.NoError(t, err)
	_, err = d.ApplyConfig(ctx, append(data, ruleLine("other", 300)...), false, "other")
	require.ErrorIs(t, err, ErrSessionState, "a change while the commit confirmed is pending")
	assert.Contains(t, err.Error(), "balancer config confirm")

	e := w.wait(t, "rolled-back", 10*time.Second)
	late := e.At.Sub(p.Deadline)
	t.Logf("rolled back %v after the deadline", late)
	assert.Less(t, late.Abs(), time.Second)
	assert.Contains(t, e.Reason, "not confirmed by")
	run := d.snapshot().rev
	assert.Equal(t, res.Revision.Number+1, run.Number)
	assert.Equal(t, base.Digest, run.Digest, "the previous configuration runs again")
	assert.Contains(t, run.Comment, fmt.Sprintf("commit confirmed of revision %d not confirmed by", res.Revision.Number))
	assert.Equal(t, []string{"all"}, ruleNames(d))
	assert.Nil(t, d.PendingConfirm())
	_, err = os.Stat(filepath.Join(b.dir, "confirm.json"))
	assert.ErrorIs(t, err, os.ErrNotExist)
	hist, err := d.History(ctx)
	require.NoError(t, err)
	assert.Equal(t, run.Comment, hist[len(hist)-1].Comment)
	_, err = d.ConfirmCommit(ctx)
	assert.ErrorIs(t, err, ErrSessionState, "nothing to confirm any more")
}

// A confirmation in time keeps the revision: a second commit confirmed,
// left to roll back after the first's deadline, rolls back to the first.
func TestCommitConfirmedKeptWhenConfirmed(t *testing.T) {
	b := newBed(t)
	d, _ := b.startDaemon(10)
	b.allUp(d)
	ctx := context.Background()
	w := followEvents(t, d)
	first, p1 := commitConfirmed(t, d, "s1", 1*time.Second)
	_, err := d.ConfirmCommit(ctx)
	require.NoError(t, err)
	w.wait(t, "confirmed", time.Second)
	assert.Nil(t, d.PendingConfirm())
	_, err = os.Stat(filepath.Join(b.dir, "confirm.json"))
	assert.ErrorIs(t, err, os.ErrNotExist)

	second, p2 := commitConfirmed(t, d, "s2", 2*time.Second)
	require.True(t, p2.Deadline.After(p1.Deadline))
	assert.Equal(t, first.Revision.Number, p2.Previous)
	w.wait(t, "rolled-back", 10*time.Second)
	run := d.snapshot().rev
	assert.Equal(t, second.Revision.Number+1, run.Number)
	assert.Equal(t, first.Revision.Digest, run.Digest, "the confirmed revision outlived its deadline")
	assert.Equal(t, []string{"all", "s1"}, ruleNames(d))
}

// A daemon restarted on the same state directory finds the pending commit
// confirmed and rolls back at its deadline.
func TestCommitConfirmedRollsBackAfterRestart(t *testing.T) {
	b := newBed(t)
	d, stop := b.startDaemon(10)
	b.allUp(d)
	base := d.snapshot().rev
	res, p := commitConfirmed(t, d, "s1", 3*time.Second)
	stop()

	d2, _ := b.startDaemon(10)
	w := followEvents(t, d2)
	got := d2.PendingConfirm()
	require.NotNil(t, got, "the new daemon finds the commit confirmed")
	assert.True(t, p.Deadline.Equal(got.Deadline))
	assert.Equal(t, res.Revision.Number, got.Revision)
	e := w.wait(t, "rolled-back", 10*time.Second)
	late := e.At.Sub(p.Deadline)
	t.Logf("after a restart: rolled back %v after the deadline", late)
	assert.Less(t, late.Abs(), time.Second)
	assert.Equal(t, base.Digest, d2.snapshot().rev.Digest)
	b.allUp(d2)
}

// A commit confirmed saved but whose revision was never saved (the daemon
// died in between) rolls nothing back.
func TestCommitConfirmedNeverCommitted(t *testing.T) {
	b := newBed(t)
	d, stop := b.startDaemon(10)
	b.allUp(d)
	base := d.snapshot().rev
	stop()
	doc := fmt.Sprintf(`{"revision": 0, "previous": %d, "deadline": %q}`, base.Number, time.Now().Add(200*time.Millisecond).Format(time.RFC3339Nano))
	require.NoError(t, os.WriteFile(filepath.Join(b.dir, "confirm.json"), []byte(doc), 0o640))
	d2, _ := b.startDaemon(10)
	require.NotNil(t, d2.PendingConfirm())
	require.Eventually(t, func() bool { return d2.PendingConfirm() == nil }, 10*time.Second, 10*time.Millisecond)
	assert.Equal(t, base.Number, d2.snapshot().rev.Number, "nothing rolled back")
	_, err := os.Stat(filepath.Join(b.dir, "confirm.json"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// A session rebased onto the moved running revision keeps its changes and
// what moved; an object changed on both sides refuses the rebase.
func TestSessionRebase(t *testing.T) {
	b := newBed(t)
	d, _ := b.startDaemon(10)
	b.allUp(d)
	ctx := context.Background()
	data, err := os.ReadFile(b.config)
	require.NoError(t, err)
	_, err = d.StartSession(ctx)
	require.NoError(t, err)
	v, err := d.RebaseSession(ctx)
	require.NoError(t, err)
	assert.Contains(t, v.Warning, "nothing to rebase")
	stageRules(t, d, "s1")
	_, err = d.ApplyConfig(ctx, append(data, ruleLine("other", 300)...), false, "balancer rule add other")
	require.NoError(t, err)
	moved := d.snapshot().rev
	_, err = d.CommitSession(ctx, "", 0, false)
	require.ErrorIs(t, err, ErrConflict)
	assert.Contains(t, err.Error(), "balancer config session rebase")

	v, err = d.RebaseSession(ctx)
	require.NoError(t, err)
	assert.Equal(t, moved.Number, v.Session.Base.Number)
	assert.Equal(t, []string{"+ rule s1"}, firstWords(v.Changes), "against the running revision: the session's change only")
	assert.Equal(t, []string{"balancer rule add s1"}, v.Session.Edits, "the edits stay")
	assert.Contains(t, v.Session.YAML, "# A site with fast keep-alives for tests.", "the running file's comments stay")
	res, err := d.CommitSession(ctx, "", 0, false)
	require.NoError(t, err)
	assert.Equal(t, moved.Number+1, res.Revision.Number)
	assert.Equal(t, []string{"all", "other", "s1"}, ruleNames(d))

	// Both sides change rule other: refused, naming it.
	_, err = d.StartSession(ctx)
	require.NoError(t, err)
	sv, err := d.ShowSession(ctx)
	require.NoError(t, err)
	edited := strings.Replace(sv.Session.YAML, "l4_port: 1300", "l4_port: 1301", 1)
	require.NotEqual(t, sv.Session.YAML, edited)
	_, err = d.StageSession(ctx, []byte(edited), sv.Session.Version, "balancer rule set other --match 'proto tcp l4-port 1301'", false)
	require.NoError(t, err)
	run, _ := d.ConfigYAML()
	_, err = d.ApplyConfig(ctx, []byte(strings.Replace(string(run), "l4_port: 1300", "l4_port: 1302", 1)), false, "another operator")
	require.NoError(t, err)
	_, err = d.RebaseSession(ctx)
	require.ErrorIs(t, err, ErrConflict)
	assert.Contains(t, err.Error(), "changed both in the session and since it started: rule other")
	assert.Equal(t, sv.Session.Version+1, d.OpenSession().Version, "the session is left as it was")
}
