package daemon

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A filter's failover and recovery reach a monitor client as they happen
// (on the software switch, with the daemon's own keep-alives): the event
// is received within 100 ms of the state change it reports; a manual
// bypass and an applied revision are events too, and replay gives them
// back in order.
func TestMonitorStreamsFailover(t *testing.T) {
	b := newBed(t)
	d, _ := b.startDaemon(10)
	b.allUp(d)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type got struct {
		e  Event
		at time.Time
	}
	evs := make(chan got, 64)
	done := make(chan error, 1)
	go func() {
		done <- d.Monitor(ctx, 0, "", true, func(e Event) error {
			select {
			case evs <- got{e, time.Now()}:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	wait := func(what string, match func(Event) bool) got {
		t.Helper()
		deadline := time.After(5 * time.Second)
		for {
			select {
			case g := <-evs:
				if match(g.e) {
					return g
				}
			case <-deadline:
				t.Fatalf("no event: %s", what)
			}
		}
	}
	waitFollowers(t, d.events, 1)
	b.filters["F2"].alive.Store(false)
	down := wait("F2 down", func(e Event) bool { return e.Kind == EventFilterGroup && e.Object == "F2" && e.To == "down" })
	lag := down.at.Sub(down.e.At)
	t.Logf("F2 down (%s) received %v after the state change", down.e.Reason, lag)
	assert.Less(t, lag, 100*time.Millisecond)
	assert.Equal(t, "up", down.e.From)
	assert.Contains(t, []string{"keep-alive loss", "data-plane verdict"}, down.e.Reason)
	b.filters["F2"].alive.Store(true)
	up := wait("F2 up", func(e Event) bool { return e.Kind == EventFilterGroup && e.Object == "F2" && e.To == "up" })
	assert.Less(t, up.at.Sub(up.e.At), 100*time.Millisecond)

	require.NoError(t, d.SetBypass(ctx, "F3", true))
	wait("F3 bypass", func(e Event) bool { return e.Kind == EventBypass && e.Object == "F3" && e.To == "on" })

	var seen []Event
	require.NoError(t, d.Monitor(ctx, 100, "F2", false, func(e Event) error { seen = append(seen, e); return nil }))
	require.GreaterOrEqual(t, len(seen), 2)
	last := seen[len(seen)-2:]
	assert.Equal(t, []string{"down", "up"}, []string{last[0].To, last[1].To})
	assert.Less(t, last[0].Seq, last[1].Seq)
	assert.ErrorIs(t, d.Monitor(ctx, -1, "", false, func(Event) error { return nil }), ErrInvalid)
	cancel()
	assert.ErrorIs(t, <-done, context.Canceled)
}

// A client that does not read is dropped with ErrLagged once it is
// subscriberQueue events behind; publishing never blocks; the log keeps
// the last eventLogSize events.
func TestEventLogSlowClient(t *testing.T) {
	l := NewEventLog(nil)
	block := make(chan struct{})
	res := make(chan error, 1)
	started := make(chan struct{})
	go func() {
		first := true
		res <- l.Follow(context.Background(), 0, "", true, func(Event) error {
			if first {
				first = false
				close(started)
				<-block // a client that stops reading
			}
			return nil
		})
	}()
	require.Eventually(t, func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		return len(l.subs) == 1
	}, 5*time.Second, time.Millisecond, "subscribed")
	l.Publish(Event{Kind: EventConfig, Object: "revision 1"})
	<-started
	t0 := time.Now()
	for i := range eventLogSize + 10 {
		l.Publish(Event{Kind: EventAlarm, Object: fmt.Sprint(i)})
	}
	assert.Less(t, time.Since(t0), time.Second, "publishing did not wait for the client")
	close(block)
	err := <-res
	assert.True(t, errors.Is(err, ErrLagged), "%v", err)
	all := l.Recent(eventLogSize+100, "")
	require.Len(t, all, eventLogSize)
	assert.Equal(t, fmt.Sprint(eventLogSize+9), all[len(all)-1].Object)
	assert.Equal(t, uint64(eventLogSize+11), all[len(all)-1].Seq)
}

// BenchmarkEventLogPublish: what an event costs the publisher (a filter
// transition, under the engine's lock), with 0 and 10 monitor clients
// reading.
func BenchmarkEventLogPublish(b *testing.B) {
	for _, n := range []int{0, 10} {
		b.Run(fmt.Sprintf("clients=%d", n), func(b *testing.B) {
			l := NewEventLog(nil)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{}, n)
			for range n {
				go func() {
					defer func() { done <- struct{}{} }()
					_ = l.Follow(ctx, 0, "", true, func(Event) error { return nil })
				}()
			}
			waitFollowers(b, l, n)
			b.ReportAllocs()
			for b.Loop() {
				l.Publish(Event{Kind: EventFilterGroup, Object: "F2", From: "up", To: "down", Reason: "keep-alive loss"})
			}
			cancel()
			for range n {
				<-done
			}
		})
	}
}

// waitFollowers waits until n clients follow the log (a Monitor call has
// subscribed: the events published from now on reach it).
func waitFollowers(t testing.TB, l *EventLog, n int) {
	t.Helper()
	require.Eventually(t, func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		return len(l.subs) >= n
	}, 10*time.Second, time.Millisecond, "%d monitor clients subscribed", n)
}
