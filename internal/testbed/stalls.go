package testbed

import (
	"sync"
	"testing"
	"time"
)

// Stalls watches how promptly the host runs the test process. Tests that
// run the software switch, the filter emulators and the daemon in one
// process, and whose premise is timing ("healthy filters answer within
// the keep-alive interval by the switch's clock"), cannot tell a starved
// host from a slow filter: the switch's clock runs on while none of them
// does. Stalls makes that premise an observable event: a goroutine asks to
// wake every Period and records each wake-up that came later than that,
// so a test can say whether a window it watched was run without a stall
// of a given length, and watch another window when it was not.
type Stalls struct {
	// Period is how often the watcher asks to wake.
	Period time.Duration

	mu   sync.Mutex
	woke *sync.Cond // signalled at every wake-up
	last time.Time  // the latest wake-up
	late []stall    // the latest lates, oldest first (at most maxStalls)
	done chan struct{}
}

// stall is one late wake-up: the watcher slept from from to to, late
// longer than asked.
type stall struct {
	from, to time.Time
	late     time.Duration
}

// maxStalls bounds what Stalls keeps (the oldest go first).
const maxStalls = 4096

// minStall is the shortest lateness recorded (shorter is the timer's
// and the scheduler's ordinary slack).
const minStall = 5 * time.Millisecond

// WatchStalls watches the process until the test ends.
func WatchStalls(t testing.TB) *Stalls {
	s := &Stalls{Period: 2 * time.Millisecond, done: make(chan struct{}), last: time.Now()}
	s.woke = sync.NewCond(&s.mu)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			from := time.Now()
			select {
			case <-s.done:
				return
			case <-time.After(s.Period):
			}
			to := time.Now()
			s.mu.Lock()
			if late := to.Sub(from) - s.Period; late >= minStall {
				if len(s.late) == maxStalls {
					s.late = append(s.late[:0], s.late[1:]...)
				}
				s.late = append(s.late, stall{from, to, late})
			}
			s.last = to
			s.woke.Broadcast()
			s.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		close(s.done)
		<-stopped
		s.mu.Lock()
		s.last = time.Now().Add(time.Hour) // Worst waits no more
		s.woke.Broadcast()
		s.mu.Unlock()
	})
	return s
}

// Worst is the longest stall of the process that overlapped the window
// from..to (0: none of minStall or more). It waits for the watcher's
// first wake-up after to: a stall under way at to is counted whole.
func (s *Stalls) Worst(from, to time.Time) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	for !s.last.After(to) {
		s.woke.Wait()
	}
	var worst time.Duration
	for _, l := range s.late {
		if l.to.After(from) && l.from.Before(to) && l.late > worst {
			worst = l.late
		}
	}
	return worst
}
