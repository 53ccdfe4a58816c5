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
	// OnQuorumLoss says what the leader does when etcd loses its quorum
	// (default QuorumLossHold).
	OnQuorumLoss QuorumLoss
	// Logger (default: discard).
	Logger *slog.Logger
}

// QuorumLoss is what a leader does when it cannot renew its lease because
// etcd lost its quorum.
type QuorumLoss int

const (
	// QuorumLossHold: the leader stays primary on the switch while every
	// etcd member it reaches reports that the cluster has no leader: it
	// keeps failing over from its own state and refuses changes (the
	// store cannot save them). Cut off from every member, or told by one
	// that etcd has a leader, it steps down as with QuorumLossStepDown.
	QuorumLossHold QuorumLoss = iota
	// QuorumLossStepDown: the leader steps down whenever it cannot renew
	// its lease; while etcd has no quorum no daemon writes to the switch.
	QuorumLossStepDown
)

func (q QuorumLoss) String() string {
	switch q {
	case QuorumLossHold:
		return "hold"
	case QuorumLossStepDown:
		return "step-down"
	}
	return fmt.Sprintf("QuorumLoss(%d)", int(q))
}

// ParseQuorumLoss reads "hold" or "step-down".
func ParseQuorumLoss(s string) (QuorumLoss, error) {
	switch s {
	case "hold":
		return QuorumLossHold, nil
	case "step-down":
		return QuorumLossStepDown, nil
	}
	return 0, fmt.Errorf("%q: want hold or step-down", s)
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
	// Held: etcd lost its quorum while this daemon led (QuorumLossHold):
	// it stays primary with the same election id, but the store cannot
	// save anything.
	Held bool
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
//
// With QuorumLossHold a leader whose renewal is overdue first asks the
// etcd members whether the cluster has a leader: when those that answer
// have none, etcd has lost its quorum and no new leader can be elected,
// so it holds its term (Leadership.Held) instead of leaving the switch
// without a writer, and steps down as soon as no member has said so for
// TTL less the guard (see term).
type Elector struct {
	cli    *clientv3.Client
	st     *Store
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
	if opts.OnQuorumLoss != QuorumLossHold && opts.OnQuorumLoss != QuorumLossStepDown {
		return nil, fmt.Errorf("elector: on quorum loss %v: want hold or step-down", opts.OnQuorumLoss)
	}
	return &Elector{cli: cli, st: st, prefix: st.key("election/"), opts: opts, log: log.With("etcd_prefix", st.prefix)}, nil
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
			switch {
			case l.Held:
				e.log.Warn("etcd lost its quorum: leading the switch from this daemon's state, changes refused", "election_id", l.Election)
			case l.Leader:
				e.log.Info("leader of the switch", "election_id", l.Election)
			default:
				e.log.Info("standby")
			}
			onChange(l)
		}
	}
	onChange(Leadership{})
	failed := false
	for ctx.Err() == nil {
		err := e.term(ctx, set, failed)
		failed = true
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
// afterFailure: an earlier term of this elector ended (etcd may just be
// back from an outage).
func (e *Elector) term(ctx context.Context, set func(Leadership), afterFailure bool) error {
	ttl := e.opts.TTL
	t := &leaseTerm{e: e, set: set, ttl: ttl, guard: ttl / 4, sent: time.Now()}
	// A lease granted later than TTL less the guard after it was asked
	// for could not lead (campaign refuses it); one granted sooner can,
	// however long the grant took.
	gctx, gcancel := context.WithTimeout(ctx, ttl-t.guard)
	lease, err := e.cli.Grant(gctx, int64(ttl/time.Second))
	gcancel()
	if err != nil {
		return fmt.Errorf("lease: %w", err)
	}
	if afterFailure {
		t.notBefore = time.Now().Add(ttl / 4)
	}
	t.lease = lease.ID
	t.validUntil.Store(int64(time.Duration(lease.TTL) * time.Second))

	tctx, tcancel := context.WithCancelCause(ctx)
	t.ctx, t.cancel = tctx, tcancel
	defer tcancel(nil)
	defer func() {
		// Give the lease up (a standby takes over at once); on a lost
		// etcd this fails and the lease expires on its own.
		rctx, cancel := context.WithTimeout(context.Background(), t.guard)
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
	go e.renew(tctx, tcancel, lease.ID, ttl, t.sent, &t.validUntil)
	// leading: the term's own loop decides from now on (QuorumLossHold).
	leading := make(chan struct{})
	go t.watchdog(leading)

	t.el = concurrency.NewElection(sess, e.prefix)
	if err := t.campaign(); err != nil {
		return err
	}
	// Stepping down comes first when the term ends, before the lease is
	// given up (which may wait on a lost etcd).
	defer set(Leadership{})
	defer e.st.setHeld(false)
	set(Leadership{Leader: true, Election: uint64(t.rev)})
	t.hold = e.opts.OnQuorumLoss == QuorumLossHold
	if t.hold {
		close(leading)
	}
	return t.lead(sess.Done())
}

// leaseTerm is one term of an Elector: its lease, its election and, with
// QuorumLossHold, whether it holds the switch through a lost quorum.
type leaseTerm struct {
	e          *Elector
	set        func(Leadership)
	ttl, guard time.Duration
	// validUntil: until when (nanoseconds after sent, on the monotonic
	// clock: a wall clock step changes nothing) the lease is known to
	// live: a renewal's send time + TTL.
	sent       time.Time
	validUntil atomic.Int64
	lease      clientv3.LeaseID
	ctx        context.Context // ends with the term; its cause says why
	cancel     context.CancelCauseFunc

	el   *concurrency.Election
	rev  int64 // the election key's create revision: the election id
	hold bool  // QuorumLossHold
	obs  <-chan *clientv3.GetResponse
	// notBefore: a term that follows a failed one does not lead before
	// a quarter lease after its lease was granted (campaign). Its grant
	// may be the first answer of an etcd back from a lost quorum, whose
	// resumed leader can revoke a holding leader's lease at once (its
	// clock ran on while it was paused): the holder finds its lease gone
	// at its next check, an eighth of a lease later at most
	// (checkHeld), and must have stopped before this term leads. Without
	// the wait the two believed they lead for 14 ms in 1 of 4 such
	// takeovers (TestHAQuorumBackDeposesHolder).
	notBefore time.Time
	// held: etcd lost its quorum (QuorumLossHold); holdUntil: the last
	// time a member said it has no leader, plus TTL less the guard. A
	// quorum formed after that time cannot expire the lease sooner than
	// TTL after it formed, so stepping down by holdUntil is in time.
	held      bool
	holdUntil time.Time
}

// until is how long the lease is known to live.
func (t *leaseTerm) until() time.Duration {
	return time.Until(t.sent.Add(time.Duration(t.validUntil.Load())))
}

// watchdog ends the term a guard before the lease could expire, until
// leading is closed.
func (t *leaseTerm) watchdog(leading <-chan struct{}) {
	for {
		select {
		case <-leading:
			return
		default:
		}
		left := t.until() - t.guard
		if left <= 0 {
			t.cancel(fmt.Errorf("lease %x not renewed for %v: stepping down before it can expire", t.lease, t.ttl-t.guard))
			return
		}
		select {
		case <-t.ctx.Done():
			return
		case <-time.After(min(left, t.ttl/8)):
		}
	}
}

// campaign waits to be elected and checks that the term may lead.
func (t *leaseTerm) campaign() error {
	won := make(chan error, 1)
	go func() { won <- t.el.Campaign(t.ctx, t.e.opts.Name) }()
	select {
	case err := <-won:
		if err != nil {
			return fmt.Errorf("campaign: %w", err)
		}
	case <-t.ctx.Done():
		return context.Cause(t.ctx)
	}
	if wait := time.Until(t.notBefore); wait > 0 {
		t.e.log.Info("elected right after etcd answered again: waiting for a leader that held through a lost quorum to step down", "wait", wait.Round(time.Millisecond))
		select {
		case <-time.After(wait):
		case <-t.ctx.Done():
			return context.Cause(t.ctx)
		}
	}
	// Campaign can return after the key was lost (lease expired while
	// waiting): check the key is still ours before leading.
	t.rev = t.el.Rev()
	kctx, kcancel := context.WithTimeout(t.ctx, t.guard)
	resp, err := t.e.cli.Get(kctx, t.el.Key())
	kcancel()
	if err != nil {
		return fmt.Errorf("checking the election key: %w", err)
	}
	if !t.ownsKey(resp) {
		return fmt.Errorf("election key %s lost before leading", t.el.Key())
	}
	if t.until() <= t.guard || t.ctx.Err() != nil {
		return fmt.Errorf("lease %x about to expire when elected", t.lease)
	}
	return nil
}

// ownsKey says whether the election key read in resp is this term's.
func (t *leaseTerm) ownsKey(resp *clientv3.GetResponse) bool {
	return len(resp.Kvs) > 0 && resp.Kvs[0].CreateRevision == t.rev && resp.Kvs[0].Lease == int64(t.lease)
}

// lead leads until the lease is in doubt, the key goes or the term's
// context ends. sessDone is the session's end (the client gave the lease
// up).
func (t *leaseTerm) lead(sessDone <-chan struct{}) error {
	t.obs = t.el.Observe(t.ctx)
	for {
		select {
		case <-t.ctx.Done():
			return context.Cause(t.ctx)
		case <-sessDone:
			if !t.hold {
				return fmt.Errorf("lease %x ended", t.lease)
			}
			// The client gave the lease up after TTL without a renewal;
			// renew (which still tries) and the checks below decide.
			sessDone = nil
		case r, ok := <-t.obs:
			if !ok {
				if t.held {
					t.obs = nil // observed again once etcd is back
					continue
				}
				return fmt.Errorf("observing the election ended: %w", context.Cause(t.ctx))
			}
			if len(r.Kvs) == 0 || r.Kvs[0].CreateRevision != t.rev {
				return errors.New("another daemon leads: stepping down")
			}
		case <-time.After(t.wait()):
		}
		if !t.hold {
			continue // the watchdog times the lease
		}
		var err error
		if t.held {
			err = t.checkHeld()
		} else {
			err = t.checkRenewal()
		}
		if err != nil {
			return err
		}
	}
}

// wait is how long lead waits for an event before it checks the lease.
func (t *leaseTerm) wait() time.Duration {
	wait := t.ttl / 8
	switch {
	case t.hold && !t.held:
		wait = max(0, min(wait, t.until()-t.guard))
	case t.held:
		wait = max(0, min(wait, time.Until(t.holdUntil)))
	}
	return wait
}

// checkRenewal (QuorumLossHold, not held): when a renewal is overdue, the
// term holds if etcd lost its quorum, else it ends (an error) before the
// lease can expire.
func (t *leaseTerm) checkRenewal() error {
	if t.until() > t.ttl/2 {
		return nil // renewed within the last quarter TTL
	}
	// A renewal is overdue: is etcd without a quorum, or is this
	// daemon cut off from it? Asked within the time left, so the
	// step-down below is never late, and given all of it: on a starved
	// host (or a busy member) an answer that takes longer than an eighth
	// of a lease still holds the switch rather than leaving it with no
	// writer.
	rem := t.until() - t.guard
	if rem <= 0 {
		return fmt.Errorf("lease %x not renewed for %v and etcd is not known to have lost its quorum: stepping down before the lease can expire", t.lease, t.ttl-t.guard)
	}
	asked := time.Now()
	lost, why := t.e.st.quorumLost(t.ctx, rem)
	if lost {
		t.held, t.holdUntil = true, asked.Add(t.ttl-t.guard)
		t.e.st.setHeld(true)
		t.e.log.Warn("lease not renewed and etcd has no quorum: holding the switch", "detail", why)
		t.set(Leadership{Leader: true, Election: uint64(t.rev), Held: true})
		return nil
	}
	if t.until()-t.guard <= 0 {
		return fmt.Errorf("lease %x not renewed for %v and etcd is not known to have lost its quorum (%s): stepping down before the lease can expire", t.lease, t.ttl-t.guard, why)
	}
	t.e.log.Info("lease renewal overdue and etcd not known to have lost its quorum: asking again", "detail", why, "left", t.until()-t.guard)
	return nil
}

// checkHeld (held): a renewed lease ends the hold (quorumBack); else the
// hold goes on while a member says etcd has no leader, and the term ends
// (an error) at holdUntil.
func (t *leaseTerm) checkHeld() error {
	if t.until() > t.ttl/2 {
		return t.quorumBack()
	}
	rem := time.Until(t.holdUntil)
	if rem > 0 {
		asked := time.Now()
		if lost, _ := t.e.st.quorumLost(t.ctx, min(t.ttl/8, rem)); lost {
			t.holdUntil = asked.Add(t.ttl - t.guard)
			return nil
		}
		// A member has a leader: etcd may be back, and a resumed etcd
		// leader whose clock ran on while it was paused revokes the
		// lease at once; the next renewal could come a quarter lease
		// later, after a standby was elected. Renew now: a lease etcd no
		// longer has ends the term here.
		if rem := time.Until(t.holdUntil); rem > 0 {
			if err := t.renewNow(min(t.ttl/8, rem)); err != nil {
				return err
			}
		}
	}
	if time.Now().After(t.holdUntil) {
		return fmt.Errorf("etcd quorum no longer known to be lost and lease %x not renewed for %v: stepping down", t.lease, t.ttl-t.guard)
	}
	return nil
}

// renewNow renews the lease once, within d: it returns an error (the term
// ends) when etcd answers that the lease is gone; a renewal counts as
// renew's do.
func (t *leaseTerm) renewNow(d time.Duration) error {
	sent := time.Now()
	kctx, cancel := context.WithTimeout(t.ctx, d)
	resp, err := t.e.cli.KeepAliveOnce(kctx, t.lease)
	cancel()
	switch {
	case errors.Is(err, rpctypes.ErrLeaseNotFound), err == nil && resp.TTL <= 0:
		return fmt.Errorf("etcd back: lease %x expired while etcd had no quorum, this daemon's election key is gone: stepping down", t.lease)
	case err != nil:
		return nil // not answered: the hold goes on until holdUntil
	}
	v := int64(sent.Sub(t.sent) + time.Duration(resp.TTL)*time.Second)
	for {
		old := t.validUntil.Load()
		if v <= old || t.validUntil.CompareAndSwap(old, v) {
			return nil
		}
	}
}

// quorumBack: renewed, so etcd is back and the lease lived. The term
// leads on (no longer held) if the election key is still its own.
func (t *leaseTerm) quorumBack() error {
	kctx, kcancel := context.WithTimeout(t.ctx, t.guard)
	resp, err := t.e.cli.Get(kctx, t.el.Key())
	kcancel()
	if err != nil {
		if time.Now().After(t.holdUntil) {
			return fmt.Errorf("etcd back but the election key unreadable: %w", err)
		}
		return nil
	}
	if !t.ownsKey(resp) {
		return errors.New("etcd back: this daemon's election key is gone, stepping down")
	}
	t.held = false
	t.e.st.setHeld(false)
	t.e.log.Info("etcd has its quorum again: still the leader", "election_id", t.rev)
	if t.obs == nil {
		t.obs = t.el.Observe(t.ctx)
	}
	t.set(Leadership{Leader: true, Election: uint64(t.rev)})
	return nil
}

// renew keeps the lease alive, timing each renewal from when it was sent.
// validUntil is in nanoseconds after base.
//
// A renewal is sent every quarter TTL and waits for its answer until the
// lease, as known when it was sent, could expire less a quarter TTL (the
// watchdog's guard), not only until the next one is due: an answer that
// comes late still renews the lease from when the renewal was sent (the
// server received it after that). Cancelled at a quarter TTL, a renewal
// that etcd answered late (an embedded member under -race on a 2-core
// host loaded by stress-ng --cpu 8) was given up though the lease may
// well have been renewed, and after three of them the leader stepped
// down.
func (e *Elector) renew(ctx context.Context, stop context.CancelCauseFunc, id clientv3.LeaseID, ttl time.Duration,
	base time.Time, validUntil *atomic.Int64) {
	t := time.NewTicker(ttl / 4)
	defer t.Stop()
	var wg sync.WaitGroup
	defer wg.Wait()
	var failing atomic.Bool // logged once per run of failures (etcd may be out for long)
	once := func(sent time.Time, wait time.Duration) {
		kctx, cancel := context.WithTimeout(ctx, wait)
		defer cancel()
		var resp *clientv3.LeaseKeepAliveResponse
		var err error
		for {
			resp, err = e.cli.KeepAliveOnce(kctx, id)
			if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || kctx.Err() != nil {
				return // the watchdog decides
			}
			if err == nil || errors.Is(err, rpctypes.ErrLeaseNotFound) {
				break
			}
			// Failed at once (a broken connection: the client dials
			// again): sent again within this renewal's time, not a
			// quarter TTL later, when the watchdog may already have
			// ended the term. Timed, as the first, from when it is sent.
			if ctx.Err() == nil && !failing.Swap(true) {
				e.log.Warn("lease renewal failed; retrying", "lease", fmt.Sprintf("%x", id), "err", err)
			}
			select {
			case <-kctx.Done():
			case <-time.After(renewRetry(ttl)):
				sent = time.Now()
			}
		}
		if err != nil { // ErrLeaseNotFound
			if ctx.Err() == nil && !failing.Swap(true) {
				e.log.Warn("lease renewal failed", "lease", fmt.Sprintf("%x", id), "err", err)
			}
			stop(fmt.Errorf("lease %x expired", id))
			return
		}
		if resp.TTL <= 0 {
			stop(fmt.Errorf("lease %x expired", id))
			return
		}
		failing.Store(false)
		v := int64(sent.Sub(base) + time.Duration(resp.TTL)*time.Second)
		for {
			old := validUntil.Load()
			if v <= old || validUntil.CompareAndSwap(old, v) {
				return
			}
		}
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		sent := time.Now()
		wait := max(ttl/4, time.Duration(validUntil.Load())-sent.Sub(base)-ttl/4)
		wg.Go(func() { once(sent, wait) })
	}
}

// renewRetry is how soon a renewal that failed at once (not timed out)
// is sent again: a sixteenth of the TTL, at most 250 ms.
func renewRetry(ttl time.Duration) time.Duration { return min(ttl/16, 250*time.Millisecond) }

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
