package etcdstore

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/dpi-balancer/balancer/controlplane"
	"github.com/dpi-balancer/balancer/daemon/statestore"
)

// Daemon is what RunDaemon runs: a *daemon.Daemon (this package does not
// import the daemon; the daemon's packages sit above the stores).
type Daemon interface {
	// Run runs the daemon until ctx ends.
	Run(ctx context.Context) error
	// ReloadAs reads the store again and installs what changed, as the
	// leader (leader true) or a standby.
	ReloadAs(ctx context.Context, leader bool) error
	// Session is the daemon's switch session (SetElection).
	Session() *controlplane.Session
}

// RunDaemon runs d (made with daemon.Options{SharedStore: st, FixedElection:
// true} and no election id) as one of several daemons of a switch until
// ctx ends: it follows the store (changes saved by the other daemons are
// compiled at once, so a takeover writes only what the switch lacks) and
// the leader election (the leader arbitrates with the election's id, a
// standby stays connected as a backup with no id). A leader holding
// through a lost etcd quorum keeps its id and fails over as before while
// the store refuses every save; when it leads on, it reads the store again
// and saves the failure states found meanwhile.
func RunDaemon(ctx context.Context, d Daemon, st *Store, el *Elector, log *slog.Logger) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Take the runtime state's store revision before the first save.
	if err := d.ReloadAs(ctx, false); err != nil {
		log.Error("reading the store", "err", err)
	}
	r := &haRun{ctx: ctx, d: d, st: st, el: el, log: log,
		bidKick: make(chan struct{}, 1), catchUp: make(chan struct{}, 1)}
	var wg sync.WaitGroup
	wg.Go(r.followStore)
	wg.Go(r.bidder)
	wg.Go(r.catchUpper)
	wg.Go(func() { _ = el.Run(ctx, r.onLeadership) })
	err := d.Run(ctx)
	cancel()
	wg.Wait()
	return err
}

// haRun is one RunDaemon: the goroutines that follow the store and the
// election for the daemon.
//
// Taking the lead (read the store, bid on the switch) runs on a goroutine
// of its own (bidder) and is retried, so the election's goroutine is
// never held up by a slow store or a busy switch session: it must stay
// free to step down. Stepping down is done in the callback itself.
type haRun struct {
	ctx context.Context
	d   Daemon
	st  *Store
	el  *Elector
	log *slog.Logger

	// setMu serialises the session's election changes; gen tells a bid
	// whether it is still wanted.
	setMu   sync.Mutex
	pmu     sync.Mutex
	gen     uint64 // bumped by every change of role
	bidGen  uint64 // the role change a pending bid belongs to
	bidID   uint64
	bidKick chan struct{}
	// catchUp: etcd's quorum came back with this daemon still leading.
	catchUp chan struct{}
	prev    Leadership // the election goroutine's only
}

// followStore compiles every change saved to the store (by the other
// daemons too) as it comes.
func (r *haRun) followStore() {
	for range r.st.Watch(r.ctx) {
		if err := r.d.ReloadAs(r.ctx, r.el.Leadership().Leader); err != nil && r.ctx.Err() == nil {
			r.log.Error("following the store", "err", err)
		}
	}
}

// current says whether role change g is still the latest.
func (r *haRun) current(g uint64) bool {
	r.pmu.Lock()
	defer r.pmu.Unlock()
	return r.gen == g
}

// bidder takes the lead on the switch for each role change that makes
// this daemon leader.
func (r *haRun) bidder() {
	for {
		select {
		case <-r.ctx.Done():
			return
		case <-r.bidKick:
		}
		r.pmu.Lock()
		g, id := r.bidGen, r.bidID
		r.pmu.Unlock()
		r.bid(g, id)
	}
}

// bid reads the store and bids on the switch with election id id,
// retried while role change g is current.
func (r *haRun) bid(g, id uint64) {
	ctx, ttl := r.ctx, r.el.opts.TTL
	for r.current(g) && ctx.Err() == nil {
		// Lead with what the store holds now (a change the old
		// leader acknowledged may not have reached the watch).
		if err := r.d.ReloadAs(ctx, false); err != nil && ctx.Err() == nil {
			r.log.Error("reading the store before leading", "err", err)
		}
		r.setMu.Lock()
		var err error
		if r.current(g) {
			sctx, scancel := context.WithTimeout(ctx, ttl/8)
			err = r.d.Session().SetElection(sctx, 0, id)
			scancel()
		}
		r.setMu.Unlock()
		if err == nil || ctx.Err() != nil {
			break
		}
		r.log.Warn("bidding on the switch; retrying", "election_id", id, "err", err)
		select {
		case <-ctx.Done():
		case <-time.After(ttl / 8):
		}
	}
}

// catchUpper: after etcd lost its quorum and came back with this daemon
// still leading, catch up: read the store (nobody could change it
// meanwhile) and save the failure states the keep-alives found during the
// outage (ReloadAs does for a leader).
func (r *haRun) catchUpper() {
	for {
		select {
		case <-r.ctx.Done():
			return
		case <-r.catchUp:
		}
		if err := r.d.ReloadAs(r.ctx, r.el.Leadership().Leader); err != nil && r.ctx.Err() == nil {
			r.log.Error("catching up with the store after etcd's quorum came back", "err", err)
		}
	}
}

// onLeadership is the election's callback (on its goroutine): a new
// leader's bid is handed to the bidder, a step-down is made at once.
func (r *haRun) onLeadership(l Leadership) {
	same := l.Leader && r.prev.Leader && l.Election == r.prev.Election
	was := r.prev
	r.prev = l
	if same {
		// Holding through a lost etcd quorum, or holding no more:
		// the same term, the same election id on the switch.
		if was.Held && !l.Held {
			select {
			case r.catchUp <- struct{}{}:
			default:
			}
		}
		return
	}
	r.pmu.Lock()
	r.gen++
	if l.Leader {
		r.bidGen, r.bidID = r.gen, l.Election
		r.pmu.Unlock()
		select {
		case r.bidKick <- struct{}{}:
		default:
		}
		return
	}
	r.pmu.Unlock()
	r.stepDown()
}

// stepDown withdraws the election id from the switch now: a bid under way
// ends within TTL/8 and is then no longer current.
func (r *haRun) stepDown() {
	r.setMu.Lock()
	defer r.setMu.Unlock()
	sctx, scancel := context.WithTimeout(context.Background(), r.el.opts.TTL/8)
	defer scancel()
	if err := r.d.Session().SetElection(sctx, 0, 0); err != nil && r.ctx.Err() == nil {
		r.log.Error("stepping down on the switch", "err", err)
	}
}

// StatusFunc returns the daemon's view of the store and of the election
// (daemon.Options.HAStatus), each read bounded by the store's timeout.
func StatusFunc(st *Store, el *Elector) func(context.Context) *statestore.HAStatus {
	return func(ctx context.Context) *statestore.HAStatus {
		l := el.Leadership()
		out := &statestore.HAStatus{Store: "etcd " + st.Prefix(), Name: el.opts.Name, Leader: l.Leader, StoreHealthy: true}
		if l.Held {
			if err := st.refuse(); err != nil {
				out.StoreHealthy, out.StoreError = false, err.Error()
				return out
			}
		}
		if err := st.Health(ctx); err != nil {
			out.StoreHealthy, out.StoreError = false, err.Error()
			if lost, why := st.quorumLost(ctx, min(st.timeout, time.Second)); lost {
				out.StoreError = (&quorumError{prefix: st.prefix, detail: why}).Error()
			}
			return out
		}
		ctx, cancel := context.WithTimeout(ctx, st.timeout)
		defer cancel()
		ms, err := el.Members(ctx)
		if err != nil {
			out.StoreHealthy, out.StoreError = false, err.Error()
			return out
		}
		for _, m := range ms {
			if m.Leader {
				out.LeaderName = m.Name
			} else {
				out.Standbys = append(out.Standbys, m.Name)
			}
		}
		return out
	}
}
