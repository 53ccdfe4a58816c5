package etcdstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
)

// DefaultTTL is the leader lease's time to live when ElectorOptions.TTL
// is 0: a killed leader is replaced about this long after it died.
const DefaultTTL = 2 * time.Second

// ElectorOptions configure an Elector.
type ElectorOptions struct {
	// Name identifies this daemon to the others (status shows it), for
	// instance host:port of its API.
	Name string
	// TTL is the lease's time to live, whole seconds (etcd's unit), at
	// least 2 s (etcd refuses shorter leases with default timing).
	TTL time.Duration
	// Logger (default: discard).
	Logger *slog.Logger
}

// Leadership is this daemon's role, handed to the Elector's callback.
type Leadership struct {
	Leader bool
	// Election is the P4Runtime election id (low 64 bits; the high ones
	// are 0) to use on the switch: the etcd create revision of the
	// leader's election key, so every new leader's id is higher than all
	// earlier ones and a deposed leader's writes are refused by the
	// switch. 0 for a standby: it arbitrates with no id (a backup that
	// never becomes primary on its own).
	Election uint64
}

// Elector elects, among the daemons of one switch, the one that writes to
// the switch: an etcd election (concurrency.Election) on a lease of TTL.
//
// A leader that cannot renew its lease (partitioned from etcd) steps down
// a quarter TTL before the lease can expire at the etcd server: its
// keep-alives are timed from when they were sent, and the server cannot
// expire the lease sooner than TTL after receiving the last one. A new
// leader is elected only after the expiry, so the old one has stopped
// (its callback returned) before the new one starts.
type Elector struct {
	cli    *clientv3.Client
	prefix string
	opts   ElectorOptions
	log    *slog.Logger

	mu    sync.Mutex
	state Leadership
}

// NewElector returns the elector of the switch whose store is st.
func NewElector(cli *clientv3.Client, st *Store, opts ElectorOptions) (*Elector, error) {
	if opts.TTL == 0 {
		opts.TTL = DefaultTTL
	}
	if opts.TTL < 2*time.Second || opts.TTL%time.Second != 0 {
		return nil, fmt.Errorf("leader lease TTL %v: give whole seconds, at least 2s (etcd's lease unit and minimum)", opts.TTL)
	}
	if opts.Name == "" {
		return nil, errors.New("elector: a name for this daemon is required (status shows it)")
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Elector{cli: cli, prefix: st.key("election/"), opts: opts, log: log.With("etcd_prefix", st.prefix)}, nil
}

// Leadership returns the current role.
func (e *Elector) Leadership() Leadership {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.state
}

// Run takes part in the election until ctx ends. onChange is called (from
// Run's goroutine) with every change of role, standby first; it must
// make the role effective before it returns (stepping down in
// particular: stop writing to the switch). Run ends as a standby.
func (e *Elector) Run(ctx context.Context, onChange func(Leadership)) error {
	set := func(l Leadership) {
		e.mu.Lock()
		changed := e.state != l
		e.state = l
		e.mu.Unlock()
		if changed {
			if l.Leader {
				e.log.Info("leader of the switch", "election_id", l.Election)
			} else {
				e.log.Info("standby")
			}
			onChange(l)
		}
	}
	onChange(Leadership{})
	for ctx.Err() == nil {
		err := e.term(ctx, set)
		set(Leadership{})
		if ctx.Err() != nil {
			break
		}
		e.log.Warn("leader election: retrying", "err", err)
		select {
		case <-ctx.Done():
		case <-time.After(e.opts.TTL / 4):
		}
	}
	return ctx.Err()
}

// term runs one lease: campaign, lead while the lease lives, step down.
func (e *Elector) term(ctx context.Context, set func(Leadership)) error {
	ttl := e.opts.TTL
	guard := ttl / 4
	sent := time.Now()
	gctx, gcancel := context.WithTimeout(ctx, ttl/2)
	lease, err := e.cli.Grant(gctx, int64(ttl/time.Second))
	gcancel()
	if err != nil {
		return fmt.Errorf("lease: %w", err)
	}
	// validUntil: until when (nanoseconds after sent, on the monotonic
	// clock: a wall clock step changes nothing) the lease is known to
	// live: a renewal's send time + TTL.
	var validUntil atomic.Int64
	validUntil.Store(int64(time.Duration(lease.TTL) * time.Second))
	until := func() time.Duration { return time.Until(sent.Add(time.Duration(validUntil.Load()))) }

	tctx, tcancel := context.WithCancelCause(ctx)
	defer tcancel(nil)
	defer func() {
		// Give the lease up (a standby takes over at once); on a lost
		// etcd this fails and the lease expires on its own.
		rctx, cancel := context.WithTimeout(context.Background(), guard)
		defer cancel()
		_, _ = e.cli.Revoke(rctx, lease.ID)
	}()
	sess, err := concurrency.NewSession(e.cli, concurrency.WithLease(lease.ID), concurrency.WithContext(tctx))
	if err != nil {
		return fmt.Errorf("session: %w", err)
	}
	defer sess.Orphan() // the deferred Revoke ends the lease within a bound

	// Renewals timed from when they were sent; the watchdog ends the
	// term a guard before the lease could expire.
	go e.renew(tctx, tcancel, lease.ID, ttl, sent, &validUntil)
	go func() {
		for {
			left := until() - guard
			if left <= 0 {
				tcancel(fmt.Errorf("lease %x not renewed for %v: stepping down before it can expire", lease.ID, ttl-guard))
				return
			}
			select {
			case <-tctx.Done():
				return
			case <-time.After(min(left, ttl/8)):
			}
		}
	}()

	el := concurrency.NewElection(sess, e.prefix)
	won := make(chan error, 1)
	go func() { won <- el.Campaign(tctx, e.opts.Name) }()
	select {
	case err := <-won:
		if err != nil {
			return fmt.Errorf("campaign: %w", err)
		}
	case <-tctx.Done():
		return context.Cause(tctx)
	}
	// Campaign can return after the key was lost (lease expired while
	// waiting): check the key is still ours before leading.
	rev := el.Rev()
	kctx, kcancel := context.WithTimeout(tctx, guard)
	resp, err := e.cli.Get(kctx, el.Key())
	kcancel()
	if err != nil {
		return fmt.Errorf("checking the election key: %w", err)
	}
	if len(resp.Kvs) == 0 || resp.Kvs[0].CreateRevision != rev || resp.Kvs[0].Lease != int64(lease.ID) {
		return fmt.Errorf("election key %s lost before leading", el.Key())
	}
	if until() <= guard || tctx.Err() != nil {
		return fmt.Errorf("lease %x about to expire when elected", lease.ID)
	}
	// Stepping down comes first when the term ends, before the lease is
	// given up (which may wait on a lost etcd).
	defer set(Leadership{})
	set(Leadership{Leader: true, Election: uint64(rev)})

	// Lead until the lease is in doubt, the key goes or ctx ends.
	obs := el.Observe(tctx)
	for {
		select {
		case <-tctx.Done():
			return context.Cause(tctx)
		case <-sess.Done():
			return fmt.Errorf("lease %x ended", lease.ID)
		case r, ok := <-obs:
			if !ok {
				return fmt.Errorf("observing the election ended: %w", context.Cause(tctx))
			}
			if len(r.Kvs) == 0 || r.Kvs[0].CreateRevision != rev {
				return errors.New("another daemon leads: stepping down")
			}
		}
	}
}

// renew keeps the lease alive, timing each renewal from when it was sent.
// validUntil is in nanoseconds after base.
func (e *Elector) renew(ctx context.Context, stop context.CancelCauseFunc, id clientv3.LeaseID, ttl time.Duration,
	base time.Time, validUntil *atomic.Int64) {
	t := time.NewTicker(ttl / 4)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		sent := time.Now()
		kctx, cancel := context.WithTimeout(ctx, ttl/4)
		resp, err := e.cli.KeepAliveOnce(kctx, id)
		cancel()
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
				continue // the watchdog decides
			}
			if ctx.Err() == nil {
				e.log.Warn("lease renewal failed", "lease", fmt.Sprintf("%x", id), "err", err)
			}
			if errors.Is(err, rpctypes.ErrLeaseNotFound) {
				stop(fmt.Errorf("lease %x expired", id))
				return
			}
			continue
		}
		if resp.TTL <= 0 {
			stop(fmt.Errorf("lease %x expired", id))
			return
		}
		v := int64(sent.Sub(base) + time.Duration(resp.TTL)*time.Second)
		for {
			old := validUntil.Load()
			if v <= old || validUntil.CompareAndSwap(old, v) {
				break
			}
		}
	}
}

// Member is one daemon taking part in the election.
type Member struct {
	Name     string
	Election uint64 // its key's create revision (the leader's is its election id)
	Leader   bool
}

// Members lists the daemons in the election, the leader first.
func (e *Elector) Members(ctx context.Context) ([]Member, error) {
	resp, err := e.cli.Get(ctx, e.prefix, clientv3.WithPrefix())
	if err != nil {
		return nil, fmt.Errorf("reading the election: %w", err)
	}
	var out []Member
	for _, kv := range resp.Kvs {
		out = append(out, Member{Name: string(kv.Value), Election: uint64(kv.CreateRevision)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Election < out[j].Election })
	if len(out) > 0 {
		out[0].Leader = true
	}
	return out, nil
}
