package daemon

import (
	"context"
	"testing"
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

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
