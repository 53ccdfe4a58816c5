package etcdstore

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dpi-balancer/balancer/daemon"
)

// roles records every elector's role changes and checks that no two are
// ever leaders at once.
type roles struct {
	mu      sync.Mutex
	current map[string]Leadership
	events  []roleEvent
	both    int // times a second leader appeared while one led
}

type roleEvent struct {
	name string
	l    Leadership
	at   time.Time
}

func newRoles() *roles { return &roles{current: map[string]Leadership{}} }

func (r *roles) on(name string) func(Leadership) {
	return func(l Leadership) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if l.Leader {
			for n, o := range r.current {
				if n != name && o.Leader {
					r.both++
				}
			}
		}
		r.current[name] = l
		r.events = append(r.events, roleEvent{name, l, time.Now()})
	}
}

func (r *roles) leader() (string, Leadership) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for n, l := range r.current {
		if l.Leader {
			return n, l
		}
	}
	return "", Leadership{}
}

// last returns when name last took role leader (or standby).
func (r *roles) last(name string, leader bool) time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.events) - 1; i >= 0; i-- {
		if e := r.events[i]; e.name == name && e.l.Leader == leader {
			return e.at
		}
	}
	return time.Time{}
}

type runner struct {
	el     *Elector
	cancel context.CancelFunc
	done   chan struct{}
}

func startElector(t *testing.T, addr, name string, r *roles) *runner {
	t.Helper()
	st, err := Open(newClient(t, addr), keys(t, "/b/sw/"), 0)
	require.NoError(t, err)
	el, err := NewElector(st.cli, st, ElectorOptions{Name: name, TTL: 2 * time.Second})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	run := &runner{el: el, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(run.done)
		_ = el.Run(ctx, r.on(name))
	}()
	t.Cleanup(func() { cancel(); <-run.done })
	return run
}

func waitLeader(t *testing.T, r *roles, not string) (string, Leadership) {
	t.Helper()
	var n string
	var l Leadership
	require.Eventually(t, func() bool {
		n, l = r.leader()
		return n != "" && n != not
	}, 20*time.Second, 5*time.Millisecond, "no leader (other than %q)", not)
	return n, l
}

func TestElectorTakeoverRaisesElectionID(t *testing.T) {
	t.Parallel()
	addr := startEtcd(t)
	r := newRoles()
	pa := newProxy(t, addr)
	a := startElector(t, pa.addr(), "a", r)
	name, first := waitLeader(t, r, "")
	require.Equal(t, "a", name)
	assert.NotZero(t, first.Election)
	b := startElector(t, addr, "b", r)
	require.Eventually(t, func() bool {
		m, err := b.el.Members(context.Background())
		return err == nil && len(m) == 2
	}, 10*time.Second, 5*time.Millisecond)
	m, err := b.el.Members(context.Background())
	require.NoError(t, err)
	assert.Equal(t, []Member{{Name: "a", Election: first.Election, Leader: true}, {Name: "b", Election: m[1].Election}}, m)
	assert.False(t, b.el.Leadership().Leader)

	// a dies without giving up its lease (cut off, then stopped): b leads
	// once the lease expires, with a higher election id.
	killed := time.Now()
	pa.partition()
	a.cancel()
	<-a.done
	name, second := waitLeader(t, r, "a")
	took := time.Since(killed)
	t.Logf("leader killed -> standby elected in %v (lease 2s)", took)
	assert.Equal(t, "b", name)
	assert.Greater(t, second.Election, first.Election, "a new leader outranks every earlier one on the switch")
	assert.Zero(t, r.both, "never two leaders")
}

// A leader cut off from etcd (but running) steps down before its lease
// can expire, so before any other daemon is elected. Its premise is
// timing: the old leader's step-down timer (3/4 of the 2 s lease) fires
// before the lease expires in etcd, so it runs alone in its package (not
// in parallel: a loaded run beside the parallel HA tests saw the timer
// late past the new leader's election).
func TestElectorPartitionedLeaderStepsDownFirst(t *testing.T) {
	addr := startEtcd(t)
	r := newRoles()
	pa := newProxy(t, addr)
	startElector(t, pa.addr(), "a", r)
	waitLeader(t, r, "")
	startElector(t, addr, "b", r)
	cut := time.Now()
	pa.partition()
	waitLeader(t, r, "a")
	down, up := r.last("a", false), r.last("b", true)
	t.Logf("partition -> old leader stepped down after %v, new leader elected after %v", down.Sub(cut), up.Sub(cut))
	assert.True(t, down.After(cut))
	assert.True(t, down.Before(up), "the old leader stepped down (%v) before the new one was elected (%v)", down.Sub(cut), up.Sub(cut))
	assert.Less(t, down.Sub(cut), 2*time.Second, "stepped down within the lease")
	assert.Zero(t, r.both, "never two leaders")

	// Back in touch, a campaigns again as a standby behind b.
	pa.heal()
	require.Eventually(t, func() bool {
		m, err := r2members(t, addr)
		return err == nil && len(m) == 2 && m[0].Name == "b"
	}, 20*time.Second, 10*time.Millisecond)
	name, _ := r.leader()
	assert.Equal(t, "b", name)
}

func r2members(t *testing.T, addr string) ([]Member, error) {
	st, err := Open(newClient(t, addr), keys(t, "/b/sw/"), 0)
	require.NoError(t, err)
	el, err := NewElector(st.cli, st, ElectorOptions{Name: "probe"})
	require.NoError(t, err)
	return el.Members(context.Background())
}

func TestElectorsStartedAtOnce(t *testing.T) {
	t.Parallel()
	addr := startEtcd(t)
	r := newRoles()
	var runs []*runner
	for i := range 4 {
		runs = append(runs, startElector(t, addr, fmt.Sprintf("d%d", i), r))
	}
	waitLeader(t, r, "")
	require.Eventually(t, func() bool {
		m, err := runs[0].el.Members(context.Background())
		return err == nil && len(m) == 4
	}, 10*time.Second, 5*time.Millisecond)
	leaders := 0
	for _, run := range runs {
		if run.el.Leadership().Leader {
			leaders++
		}
	}
	assert.Equal(t, 1, leaders)
	assert.Zero(t, r.both, "never two leaders")
}

func TestElectorOptions(t *testing.T) {
	t.Parallel()
	st, err := Open(nil, "/b/sw/", 0)
	require.NoError(t, err)
	_, err = NewElector(nil, st, ElectorOptions{Name: "a", TTL: 1500 * time.Millisecond})
	require.ErrorContains(t, err, "whole seconds, at least 2s")
	_, err = NewElector(nil, st, ElectorOptions{Name: "a", TTL: time.Second})
	require.ErrorContains(t, err, "at least 2s")
	_, err = NewElector(nil, st, ElectorOptions{})
	require.ErrorContains(t, err, "name")
	_, err = NewElector(nil, st, ElectorOptions{Name: "a", OnQuorumLoss: 7})
	require.ErrorContains(t, err, "want hold or step-down")
	q, err := ParseQuorumLoss("step-down")
	require.NoError(t, err)
	assert.Equal(t, QuorumLossStepDown, q)
	_, err = ParseQuorumLoss("stay")
	require.ErrorContains(t, err, `"stay": want hold or step-down`)
	el, err := NewElector(nil, st, ElectorOptions{Name: "a"})
	require.NoError(t, err)
	assert.Equal(t, DefaultTTL, el.opts.TTL)
}

// etcd loses its quorum (two of three members stop): with QuorumLossHold
// the leader holds its term (same election id), with QuorumLossStepDown
// it steps down; either way nobody else leads meanwhile and the holder
// leads on when the members are back.
func TestElectorOnQuorumLoss(t *testing.T) {
	// Its etcd members are real processes (not embedded in this one, where
	// under -race beside the other tests they starved past the lease's
	// timing, docs/ha.md "Timing"): in parallel, as the churn tests.
	t.Parallel()
	for _, mode := range []QuorumLoss{QuorumLossHold, QuorumLossStepDown} {
		t.Run(mode.String(), func(t *testing.T) {
			t.Parallel()
			procs, cli := startEtcdUp(t, 3)
			st, err := Open(newClient(t, procs.clients...), "/b/sw/", 0)
			require.NoError(t, err)
			// The lease of the other quorum-loss tests (quorumLossLease):
			// the surviving member must answer before the step-down deadline.
			el, err := NewElector(st.cli, st, ElectorOptions{Name: "a", TTL: quorumLossLease, OnQuorumLoss: mode})
			require.NoError(t, err)
			r := newRoles()
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() {
				defer close(done)
				_ = el.Run(ctx, r.on("a"))
			}()
			defer func() { cancel(); <-done }()
			_, l := waitLeader(t, r, "")
			procs.kill(t, 1, 2)
			if mode == QuorumLossHold {
				require.Eventually(t, func() bool { return el.Leadership().Held }, 20*time.Second, time.Millisecond)
				assert.Equal(t, Leadership{Leader: true, Election: l.Election, Held: true}, el.Leadership())
				_, err := st.SaveRuntimeOn(0, daemon.Runtime{BypassAll: true})
				require.ErrorIs(t, err, ErrQuorumLost, "the held store refuses saves at once")
			} else {
				require.Eventually(t, func() bool { return !el.Leadership().Leader }, 20*time.Second, time.Millisecond)
			}
			procs.restart(t, 1)
			procs.restart(t, 2)
			require.True(t, procs.up(cli, 60*time.Second), "etcd members started again")
			require.Eventually(t, func() bool { l := el.Leadership(); return l.Leader && !l.Held }, 30*time.Second, time.Millisecond)
			if mode == QuorumLossHold {
				assert.Equal(t, l.Election, el.Leadership().Election, "the same term")
			} else {
				assert.Greater(t, el.Leadership().Election, l.Election, "a new term")
			}
			assert.Zero(t, r.both)
		})
	}
}

// flakyLease fails the next KeepAliveOnce calls at once (fails of them),
// as a client whose connection broke does until it has dialled again;
// renewed counts the renewals etcd answered after the failures.
type flakyLease struct {
	clientv3.Lease
	fails, failed, renewed atomic.Int32
}

func (f *flakyLease) KeepAliveOnce(ctx context.Context, id clientv3.LeaseID) (*clientv3.LeaseKeepAliveResponse, error) {
	if f.fails.Add(-1) >= 0 {
		f.failed.Add(1)
		return nil, status.Error(codes.Unavailable, "connection reset by the test")
	}
	resp, err := f.Lease.KeepAliveOnce(ctx, id)
	if err == nil && f.failed.Load() > 0 {
		f.renewed.Add(1)
	}
	return resp, err
}

// A renewal that fails at once (a broken connection) is sent again within
// its own time, not a quarter lease later: four failures in a row, which
// at a renewal each quarter lease would leave the lease unrenewed past
// its guard (the term ends before the fifth), do not end the term.
func TestElectorRetriesFailedRenewal(t *testing.T) {
	t.Parallel()
	addr := startEtcd(t)
	cli := newClient(t, addr)
	flaky := &flakyLease{Lease: cli.Lease}
	cli.Lease = flaky
	st, err := Open(cli, keys(t, "/b/sw/"), 0)
	require.NoError(t, err)
	// 4 s: renewals every second, the term ends 3 s after the last one
	// sent that etcd answered; the retries (every 250 ms) renew a second
	// after the first failure.
	const ttl = 4 * time.Second
	el, err := NewElector(cli, st, ElectorOptions{Name: "a", TTL: ttl})
	require.NoError(t, err)
	r := newRoles()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = el.Run(ctx, r.on("a"))
	}()
	t.Cleanup(func() { cancel(); <-done })
	_, first := waitLeader(t, r, "")

	armed := time.Now()
	flaky.fails.Store(4)
	require.Eventually(t, func() bool { return flaky.failed.Load() == 4 && flaky.renewed.Load() > 0 }, 20*time.Second, time.Millisecond,
		"the renewals fail, then etcd renews")
	name, now := r.leader()
	assert.Equal(t, "a", name, "still the leader after %d renewals failed at once", flaky.failed.Load())
	assert.Equal(t, first.Election, now.Election, "the same term")
	assert.True(t, r.last("a", false).Before(armed), "stepped down at %v, %v after the renewals began to fail",
		r.last("a", false), r.last("a", false).Sub(armed))
}
