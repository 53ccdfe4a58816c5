package daemon

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Event kinds.
const (
	EventFilterGroup = "filter-group" // a filter group's state changed
	EventBypass      = "bypass"       // manual bypass put on or taken off
	EventReturn      = "return"       // a recovered filter group returned to service by the operator
	EventConfig      = "config"       // a revision was applied
	EventSwitch      = "switch"       // this daemon became or stopped being the switch's primary
	EventAlarm       = "alarm"        // an alarm was raised or cleared
)

// Event is one thing that happened on the site: what `balancer monitor`
// streams and the per-object show commands list.
type Event struct {
	Seq    uint64
	At     time.Time
	Kind   string
	Object string // the object, by the name the operator gave it
	// From and To: the states of a transition (empty for other events).
	From, To string
	Reason   string
	// By: who asked for it, for an operator's action (bypass, return,
	// config); see WithBy. "" for what the daemon decided itself.
	By string
}

func (e Event) String() string {
	s := fmt.Sprintf("%s %s %s", e.At.Format(time.RFC3339Nano), e.Kind, e.Object)
	if e.From != "" || e.To != "" {
		s += fmt.Sprintf(": %s -> %s", e.From, e.To)
	}
	if e.Reason != "" {
		s += " (" + e.Reason + ")"
	}
	if e.By != "" {
		s += " by " + e.By
	}
	return s
}

// eventLogSize is how many events the daemon keeps for replay.
const eventLogSize = 4096

// subscriberQueue is how many events a monitor client may fall behind
// before it is dropped (it is told, and can resume from the log).
const subscriberQueue = 1024

// ErrLagged ends a monitor stream whose client fell too far behind.
var ErrLagged = fmt.Errorf("%w: the monitor client fell more than %d events behind; run it again (the daemon keeps the last %d)",
	ErrUnavailable, subscriberQueue, eventLogSize)

// EventLog keeps the latest events and hands new ones to subscribers.
// Publishing never blocks: a subscriber that does not keep up is ended
// with ErrLagged. mu is a leaf lock on the log alone (publishers are
// every goroutine of the daemon; none waits on another under it).
type EventLog struct {
	mu   sync.Mutex
	seq  uint64
	ring []Event // the last eventLogSize events, oldest first once full
	head int     // where the next event goes once the ring is full
	subs map[*subscriber]struct{}
	now  func() time.Time
}

type subscriber struct{ ch chan Event }

// NewEventLog returns an empty log; now is its clock (nil: time.Now).
func NewEventLog(now func() time.Time) *EventLog {
	if now == nil {
		now = time.Now
	}
	return &EventLog{subs: map[*subscriber]struct{}{}, now: now}
}

// Publish records an event (Seq and, when zero, At are set here).
func (l *EventLog) Publish(e Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	e.Seq = l.seq
	if e.At.IsZero() {
		e.At = l.now()
	}
	if len(l.ring) < eventLogSize {
		l.ring = append(l.ring, e)
	} else {
		l.ring[l.head] = e
		l.head = (l.head + 1) % eventLogSize
	}
	for s := range l.subs {
		select {
		case s.ch <- e:
		default:
			close(s.ch) // Follow returns ErrLagged
			delete(l.subs, s)
		}
	}
}

// recent returns the last n events of object (all objects when ""),
// oldest first.
func (l *EventLog) recent(n int, object string) []Event {
	var out []Event
	for i := len(l.ring) - 1; i >= 0 && len(out) < n; i-- {
		e := l.ring[(l.head+i)%len(l.ring)]
		if object == "" || e.Object == object {
			out = append(out, e)
		}
	}
	slices.Reverse(out)
	return out
}

// Recent returns the last n events of object ("" for every object),
// oldest first.
func (l *EventLog) Recent(n int, object string) []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.recent(n, object)
}

// Follow calls fn with the last replay events of object ("" for all),
// then, when follow is set, with every new one until ctx ends or fn fails.
// A client that falls subscriberQueue events behind ends with ErrLagged.
func (l *EventLog) Follow(ctx context.Context, replay int, object string, follow bool, fn func(Event) error) error {
	l.mu.Lock()
	past := l.recent(replay, object)
	var s *subscriber
	if follow {
		s = &subscriber{ch: make(chan Event, subscriberQueue)}
		l.subs[s] = struct{}{}
	}
	l.mu.Unlock()
	if s != nil {
		defer func() {
			l.mu.Lock()
			delete(l.subs, s)
			l.mu.Unlock()
		}()
	}
	for _, e := range past {
		if err := fn(e); err != nil {
			return err
		}
	}
	if s == nil {
		return nil
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case e, ok := <-s.ch:
			if !ok {
				return ErrLagged
			}
			if object != "" && e.Object != object {
				continue
			}
			if err := fn(e); err != nil {
				return err
			}
		}
	}
}

// Monitor implements Service.
func (d *Daemon) Monitor(ctx context.Context, replay int, object string, follow bool, fn func(Event) error) error {
	if replay < 0 || replay > eventLogSize {
		return kindf(ErrInvalid, "replay %d: give 0 to %d events", replay, eventLogSize)
	}
	return d.events.Follow(ctx, replay, object, follow, fn)
}
