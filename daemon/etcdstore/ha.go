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
	var wg sync.WaitGroup
	wg.Go(func() {
		for range st.Watch(ctx) {
			if err := d.ReloadAs(ctx, el.Leadership().Leader); err != nil && ctx.Err() == nil {
				log.Error("following the store", "err", err)
			}
		}
	})
	// Taking the lead (read the store, bid on the switch) runs on a
	// goroutine of its own and is retried, so the election's goroutine is
	// never held up by a slow store or a busy switch session: it must stay
	// free to step down. Stepping down is done in the callback itself.
	// setMu serialises the session's election changes; gen tells a bid
	// whether it is still wanted.
	var (
		setMu   sync.Mutex
		pmu     sync.Mutex
		gen     uint64 // bumped by every change of role
		bidGen  uint64 // the role change a pending bid belongs to
		bidID   uint64
		bidKick = make(chan struct{}, 1)
	)
	current := func(g uint64) bool {
		pmu.Lock()
		defer pmu.Unlock()
		return gen == g
	}
	wg.Go(func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-bidKick:
			}
			pmu.Lock()
			g, id := bidGen, bidID
			pmu.Unlock()
			for current(g) && ctx.Err() == nil {
				// Lead with what the store holds now (a change the old
				// leader acknowledged may not have reached the watch).
				if err := d.ReloadAs(ctx, false); err != nil && ctx.Err() == nil {
					log.Error("reading the store before leading", "err", err)
				}
				setMu.Lock()
				var err error
				if current(g) {
					sctx, scancel := context.WithTimeout(ctx, el.opts.TTL/8)
					err = d.Session().SetElection(sctx, 0, id)
					scancel()
				}
				setMu.Unlock()
				if err == nil || ctx.Err() != nil {
					break
				}
				log.Warn("bidding on the switch; retrying", "election_id", id, "err", err)
				select {
				case <-ctx.Done():
				case <-time.After(el.opts.TTL / 8):
				}
			}
		}
	})
	// After etcd lost its quorum and came back with this daemon still
	// leading, catch up: read the store (nobody could change it meanwhile)
	// and save the failure states the keep-alives found during the outage
	// (ReloadAs does for a leader).
	catchUp := make(chan struct{}, 1)
	wg.Go(func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-catchUp:
			}
			if err := d.ReloadAs(ctx, el.Leadership().Leader); err != nil && ctx.Err() == nil {
				log.Error("catching up with the store after etcd's quorum came back", "err", err)
			}
		}
	})
	var prev Leadership // the election goroutine's only
	wg.Go(func() {
		_ = el.Run(ctx, func(l Leadership) {
			same := l.Leader && prev.Leader && l.Election == prev.Election
			was := prev
			prev = l
			if same {
				// Holding through a lost etcd quorum, or holding no more:
				// the same term, the same election id on the switch.
				if was.Held && !l.Held {
					select {
					case catchUp <- struct{}{}:
					default:
					}
				}
				return
			}
			pmu.Lock()
			gen++
			if l.Leader {
				bidGen, bidID = gen, l.Election
				pmu.Unlock()
				select {
				case bidKick <- struct{}{}:
				default:
				}
				return
			}
			pmu.Unlock()
			// Step down now: a bid under way ends within TTL/8 and is
			// then no longer current.
			setMu.Lock()
			defer setMu.Unlock()
			sctx, scancel := context.WithTimeout(context.Background(), el.opts.TTL/8)
			defer scancel()
			if err := d.Session().SetElection(sctx, 0, 0); err != nil && ctx.Err() == nil {
				log.Error("stepping down on the switch", "err", err)
			}
		})
	})
	err := d.Run(ctx)
	cancel()
	wg.Wait()
	return err
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
