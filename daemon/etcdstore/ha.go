package etcdstore

import (
	"context"
	"log/slog"
	"sync"

	"github.com/dpi-balancer/balancer/daemon"
)

// RunDaemon runs d (made with daemon.Options{Store: st, FixedElection:
// true} and no election id) as one of several daemons of a switch until
// ctx ends: it follows the store (changes saved by the other daemons are
// compiled at once, so a takeover writes only what the switch lacks) and
// the leader election (the leader arbitrates with the election's id, a
// standby stays connected as a backup with no id).
func RunDaemon(ctx context.Context, d *daemon.Daemon, st *Store, el *Elector, log *slog.Logger) error {
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
	wg.Go(func() {
		_ = el.Run(ctx, func(l Leadership) {
			if l.Leader {
				// Lead with what the store holds now (a change the old
				// leader acknowledged may not have reached the watch).
				if err := d.ReloadAs(ctx, false); err != nil {
					log.Error("reading the store before leading", "err", err)
				}
			}
			sctx, scancel := context.WithTimeout(context.Background(), el.opts.TTL/4)
			defer scancel()
			if err := d.Session().SetElection(sctx, 0, l.Election); err != nil && ctx.Err() == nil {
				log.Error("changing the switch election id", "leader", l.Leader, "election_id", l.Election, "err", err)
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
func StatusFunc(st *Store, el *Elector) func(context.Context) *daemon.HAStatus {
	return func(ctx context.Context) *daemon.HAStatus {
		l := el.Leadership()
		out := &daemon.HAStatus{Store: "etcd " + st.Prefix(), Name: el.opts.Name, Leader: l.Leader, StoreHealthy: true}
		if err := st.Health(ctx); err != nil {
			out.StoreHealthy, out.StoreError = false, err.Error()
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
