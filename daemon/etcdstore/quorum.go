package etcdstore

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/dpi-balancer/balancer/daemon/statestore"
)

type holdCtx struct {
	ctx    context.Context
	cancel context.CancelFunc
}

func newHoldCtx() *holdCtx {
	ctx, cancel := context.WithCancel(context.Background())
	return &holdCtx{ctx, cancel}
}

// ErrQuorumLost: etcd has lost its quorum (the members this daemon reaches
// report no leader), so nothing can be saved; the change was not made.
// It is a statestore.ErrUnavailable.
var ErrQuorumLost = errors.New("etcd has lost its quorum")

// quorumError is ErrQuorumLost for the store at prefix, telling the
// operator what to do.
type quorumError struct {
	prefix, detail string
	cause          error
}

func (e *quorumError) Error() string {
	msg := fmt.Sprintf("etcd store %s: %v (%s): nothing was saved; changes are refused until a majority of the etcd members is back (check them with etcdctl endpoint status --cluster); the switch keeps its configuration and its primary daemon goes on failing over from its own state", e.prefix, ErrQuorumLost, e.detail)
	if e.cause != nil {
		msg += ": " + e.cause.Error()
	}
	return msg
}

// Is: ErrQuorumLost and statestore.ErrUnavailable (the API's UNAVAILABLE);
// the etcd error it came with is told, not wrapped (a timeout it holds is
// not the caller's deadline).
func (e *quorumError) Is(target error) bool {
	return target == ErrQuorumLost || target == statestore.ErrUnavailable
}

// setHeld makes every save fail at once with ErrQuorumLost, cancelling
// those under way (held), or go to etcd again.
func (s *Store) setHeld(held bool) {
	if held {
		s.held.Store(true)
		s.hold.Load().cancel()
		return
	}
	if s.held.Load() {
		s.hold.Store(newHoldCtx())
		s.held.Store(false)
	}
}

// refuse returns ErrQuorumLost while held.
func (s *Store) refuse() error {
	if s.held.Load() {
		return &quorumError{prefix: s.prefix, detail: "no etcd member this daemon reaches has a leader"}
	}
	return nil
}

// wrapWrite is wrap for a save that failed: when etcd has lost its
// quorum it says so (ErrQuorumLost) instead of a bare timeout.
func (s *Store) wrapWrite(what string, err error) error {
	if s.held.Load() {
		return &quorumError{prefix: s.prefix, detail: "no etcd member this daemon reaches has a leader", cause: err}
	}
	if lost, why := s.quorumLost(context.Background(), min(s.timeout, time.Second)); lost {
		return &quorumError{prefix: s.prefix, detail: why, cause: err}
	}
	return s.wrap(what, err)
}

// quorumLost asks every etcd endpoint, each within timeout, whether its
// cluster has a leader. Quorum is taken as lost only when at least one
// member answers and none knows a leader: no answer at all (this daemon
// cut off) or one member with a leader is not a lost quorum. why says
// what the members answered.
func (s *Store) quorumLost(ctx context.Context, timeout time.Duration) (lost bool, why string) {
	eps := s.cli.Endpoints()
	type answer struct {
		ep     string
		leader uint64
		err    error
	}
	ch := make(chan answer, len(eps))
	for _, ep := range eps {
		go func() {
			sctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			r, err := s.cli.Status(sctx, ep)
			if err != nil {
				ch <- answer{ep: ep, err: err}
				return
			}
			ch <- answer{ep: ep, leader: r.Leader}
		}()
	}
	var answered, leaders int
	var parts []string
	for range eps {
		a := <-ch
		switch {
		case a.err != nil:
			parts = append(parts, a.ep+" unreachable")
		case a.leader == 0:
			answered++
			parts = append(parts, a.ep+" has no leader")
		default:
			answered++
			leaders++
			parts = append(parts, fmt.Sprintf("%s follows leader %x", a.ep, a.leader))
		}
	}
	sort.Strings(parts)
	return answered > 0 && leaders == 0, strings.Join(parts, ", ")
}

// quorumProbeAfter is how long a read waits for etcd before it checks
// whether etcd has lost its quorum and asks every member.
const quorumProbeAfter = 500 * time.Millisecond
