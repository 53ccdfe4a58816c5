package daemon

import (
	"context"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sessionmem"
	"github.com/dpi-balancer/balancer/sim/dataplane"
)

// nullSwitch takes every write: the learner's own cost.
type nullSwitch struct{}

func (nullSwitch) WriteUnowned(_ context.Context, us []*p4v1.Update) ([]error, error) {
	return make([]error, len(us)), nil
}

func (nullSwitch) Read(context.Context, ...*p4v1.Entity) ([]*p4v1.Entity, error) { return nil, nil }

// BenchmarkLearnerPerSession is the controller's cost per new session
// without the switch: a digest queued, its entry built and batched, the
// write's result counted (ns/op is per session).
func BenchmarkLearnerPerSession(b *testing.B) {
	s, err := p4src.LoadSessions()
	require.NoError(b, err)
	tbl, err := sessionmem.Resolve(s)
	require.NoError(b, err)
	l := newLearner(tbl, nullSwitch{}, func(uint8) time.Duration { return 300 * time.Second }, sessionQueueBound)
	dgs := make([]sessionmem.Digest, sessionBatch)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += len(dgs) {
		for j := range dgs {
			dgs[j] = sessionmem.Digest{Key: sessionmem.Key{Lo: uint32(i + j), Hi: 0xffffffff, Proto: 6}, FilterGroup: uint8(j % 3), Core: uint16(j % 4)}
		}
		l.take(dgs)
		del, ins, mod := l.next()
		if err := l.write(ctx, del, ins, mod); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSessionLearnSoftwareSwitch is the learn rate end to end on the
// software switch: the first frames of b.N new sessions through the
// pipeline, until the daemon holds them all (digests over P4Runtime, the
// learner's inserts back). It reports sessions/s.
func BenchmarkSessionLearnSoftwareSwitch(b *testing.B) {
	// sessionsSite's keep-alives are slow enough that a host busy with
	// the frames does not fail the filters over (a bypassed session is
	// not learned).
	path := writeSiteB(b, "F1, F2, F3", "tcp: 300s")
	bd := newBedFor(b, path, 0)
	d, _ := bd.startDaemon(1)
	bd.allUp(d)
	dp := bd.sw.Dataplane()
	n := min(b.N, 60000)
	sessions := manySessionsN(n, 9)
	frames := make([][]byte, n)
	for i, s := range sessions {
		frames[i], _ = s.frames(layers.IPProtocolTCP)
	}
	b.ResetTimer()
	start := time.Now()
	balanced := 0
	for _, f := range frames {
		if r := dp.Process(20, f, nil); r.Kind == dataplane.Forward && lanFG(r.Port) >= 0 {
			balanced++
		}
	}
	if balanced < n {
		b.Logf("%d of %d first frames balanced (the others bypassed: not learned)", balanced, n)
	}
	for d.SessionMemory().Held < balanced {
		if time.Since(start) > 2*time.Minute {
			b.Fatalf("learned %d of %d: %+v; switch: %+v, stream messages lost %d; session: %+v", d.SessionMemory().Held, n, d.SessionMemory(),
				dp.SessionStats(), bd.sw.P4Runtime().StreamDrops(), d.session.SessionMemoryStats())
		}
		time.Sleep(time.Millisecond)
	}
	el := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(balanced)/el.Seconds(), "sessions/s")
	st := d.SessionMemory()
	b.ReportMetric(float64(st.Dropped), "dropped")
}
