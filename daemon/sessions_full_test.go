package daemon

import (
	"context"
	"testing"
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/controlplane"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sessionmem"
)

// smallSessionsSchema is the sessions profile's P4Info with a sessions
// table of size entries.
func smallSessionsSchema(t testing.TB, size int64) *p4src.Schema {
	t.Helper()
	s, err := p4src.LoadSessions()
	require.NoError(t, err)
	info := proto.Clone(s.Info).(*p4configv1.P4Info)
	found := false
	for _, tb := range info.GetTables() {
		if tb.GetPreamble().GetName() == p4src.TableSessions {
			tb.Size, found = size, true
		}
	}
	require.True(t, found)
	out, err := p4src.NewSchema(info)
	require.NoError(t, err)
	return out
}

// A full session table degrades to the stateless behaviour, never worse
// (docs/sessions.md, requirement 3): on a software switch whose table
// holds 1,000 entries, 1,500 two-way sessions: 1,000 are held, the rest
// refused (counted), and the session-memory alarm is raised within 2 s of
// the last frame. A third filter group joining then moves exactly the
// sessions not held whose slots it moves: no more than the change's
// stateless share, and none that is held.
func TestSessionMemoryFullTableMovesNoMoreThanItsShare(t *testing.T) {
	const size, n = 1000, 1500
	path := writeSite(t, sessionsSite(t, "F1, F2", "tcp: 300s"))
	b := newBedWith(t, path, 0, smallSessionsSchema(t, size))
	d, _ := b.startDaemon(1)
	b.allUp(d)
	dp := b.sw.Dataplane()
	ctx := context.Background()
	ss := randomSessions(n, 21, nil)
	placed := sessionPlaces(t, dp, ss)
	sent := time.Now()
	var alarmAfter time.Duration
	require.Eventually(t, func() bool {
		st, err := d.Status(ctx)
		if err != nil {
			return false
		}
		for _, a := range st.Alarms {
			if a.Name == AlarmSessionMemory {
				alarmAfter = time.Since(sent)
				return true
			}
		}
		return false
	}, 30*time.Second, 2*time.Millisecond, "the session-memory alarm: %+v", d.SessionMemory())
	assert.LessOrEqual(t, alarmAfter, 2*time.Second, "the alarm within 2 s of the last frame")
	require.Eventually(t, func() bool { return d.SessionMemory().Held == size }, 30*time.Second, 5*time.Millisecond, "%+v", d.SessionMemory())
	held, _ := heldOnSwitch(t, dp)
	require.Len(t, held, size, "the switch's table is full")
	st := d.SessionMemory()
	assert.Positive(t, st.Full, "the sessions past the size are refused, and counted")
	assert.InDelta(t, 1.0, st.Occupied, 1e-9)

	res, err := d.ApplyConfig(ctx, []byte(sessionsSite(t, "F1, F2, F3", "tcp: 300s")), false, "F3 joins")
	require.NoError(t, err)
	waitSettled(t, d)
	b.allUp(d)
	slots := slotTargetsOf(t, dp)
	after := sessionPlaces(t, dp, ss)
	wouldMove, unheldWould, moved, heldMoved := 0, 0, 0, 0
	for _, s := range ss {
		k := sessionmem.AddrKey(0, s.a, s.b, 6)
		tg := slots[k.Hash()&0xff]
		_, isHeld := held[k]
		slotMoved := int(tg.FilterGroup) != placed[s].out.fg || tg.Core != placed[s].out.core
		if slotMoved {
			wouldMove++
			if !isHeld {
				unheldWould++
			}
		}
		if after[s] != placed[s] {
			moved++
			if isHeld {
				heldMoved++
			}
		}
	}
	assert.Zero(t, heldMoved, "no held session moved")
	assert.Equal(t, unheldWould, moved, "the sessions not held move with their slots, as without the memory")
	assert.LessOrEqual(t, moved, wouldMove, "never more than the stateless share")
	t.Logf("table of %d, %d sessions: alarm %v after the last frame; %d held, %d digests refused; F3 joins: %d of %d moved (%.1f %%; all %d not held whose slot moved), %d would without the memory (%.1f %%; the change's share %.1f %%)",
		size, n, alarmAfter.Round(time.Millisecond), len(held), st.Full, moved, n, 100*float64(moved)/n, unheldWould, wouldMove, 100*float64(wouldMove)/n, 100*res.Slots[0].Moved)
}

// answeringSwitch answers every insert with err and reads back entries.
type answeringSwitch struct {
	err     func(u *p4v1.Update) error
	entries []*p4v1.Entity
}

func (a *answeringSwitch) WriteUnowned(_ context.Context, us []*p4v1.Update) ([]error, error) {
	errs := make([]error, len(us))
	for i, u := range us {
		errs[i] = a.err(u)
	}
	return errs, nil
}

func (a *answeringSwitch) Read(context.Context, ...*p4v1.Entity) ([]*p4v1.Entity, error) {
	return a.entries, nil
}

// What the learner counts as refused by a full table: RESOURCE_EXHAUSTED
// (the software switch, the P4Runtime specification), and BMv2's answer
// (UNKNOWN with the text BMv2 gave in TestSessionsTableFullBMv2VsSim)
// while the learner holds the table's size, or when the table read back
// holds it; never another UNKNOWN, nor BMv2's answer from a table read
// back below its size (PI gives that answer to whatever its target
// refuses).
func TestLearnerCountsBMv2FullTable(t *testing.T) {
	s, err := p4src.LoadSessions()
	require.NoError(t, err)
	tbl, err := sessionmem.Resolve(s)
	require.NoError(t, err)
	tbl.Size = 4
	idle := func(uint8) time.Duration { return time.Minute }
	const bmv2Said = "Error when adding match entry to target" // BMv2's text, as measured
	answer := func(c codes.Code, msg string) func(*p4v1.Update) error {
		return func(u *p4v1.Update) error { return &controlplane.UpdateError{Update: u, Code: c, Message: msg} }
	}
	digests := func(lo, n int) []sessionmem.Digest {
		var out []sessionmem.Digest
		for i := range n {
			out = append(out, sessionmem.Digest{Key: sessionmem.Key{Lo: uint32(lo + i), Hi: 1 << 31, Proto: 6}})
		}
		return out
	}
	entries := func(n int) []*p4v1.Entity {
		var out []*p4v1.Entity
		for i := range n {
			out = append(out, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: tbl.Entry(sessionmem.Key{Lo: uint32(100 + i), Hi: 1 << 31, Proto: 6}, 0, 0, time.Minute)}})
		}
		return out
	}
	run := func(l *learner) {
		t.Helper()
		del, ins, kind := l.next()
		require.NoError(t, l.write(context.Background(), del, ins, kind))
		if l.needsReadBack() {
			require.NoError(t, l.readBack(context.Background()))
		}
	}
	// One batch crossing the size: 4 taken, then BMv2's answer: full.
	n := 0
	sw := &answeringSwitch{err: func(u *p4v1.Update) error {
		if n++; n <= 4 {
			return nil
		}
		return answer(codes.Unknown, bmv2Said)(u)
	}}
	l := newLearner(tbl, sw, idle, 100)
	l.take(digests(0, 6))
	run(l)
	st := l.status()
	assert.Equal(t, uint64(4), st.Inserted)
	assert.Equal(t, uint64(2), st.Full, "BMv2's answer past the size: full")
	assert.Zero(t, st.Failed)

	// The learner's view short of a full table: BMv2's answer, the table
	// read back at its size: full.
	l = newLearner(tbl, &answeringSwitch{err: answer(codes.Unknown, bmv2Said), entries: entries(4)}, idle, 100)
	l.take(digests(0, 3))
	run(l)
	st = l.status()
	assert.Equal(t, uint64(3), st.Full, "read back at its size: full")
	assert.Zero(t, st.Failed)
	assert.Equal(t, 4, st.Held)

	// BMv2's answer from a table read back below its size: failed.
	l = newLearner(tbl, &answeringSwitch{err: answer(codes.Unknown, bmv2Said), entries: entries(1)}, idle, 100)
	l.take(digests(0, 3))
	run(l)
	st = l.status()
	assert.Zero(t, st.Full)
	assert.Equal(t, uint64(3), st.Failed, "not full: another refusal of the target")

	// Another UNKNOWN, even with the table at its size: failed.
	l = newLearner(tbl, &answeringSwitch{err: answer(codes.Unknown, "some other error"), entries: entries(4)}, idle, 100)
	require.NoError(t, l.readBack(context.Background()))
	l.held = map[sessionmem.Key]heldAt{} // a view short of the switch's
	l.take(digests(0, 2))
	run(l)
	st = l.status()
	assert.Zero(t, st.Full)
	assert.Equal(t, uint64(2), st.Failed)

	// RESOURCE_EXHAUSTED: full.
	l = newLearner(tbl, &answeringSwitch{err: answer(codes.ResourceExhausted, "table full")}, idle, 100)
	l.take(digests(0, 2))
	run(l)
	assert.Equal(t, uint64(2), l.status().Full)
}
