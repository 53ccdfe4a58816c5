// Package etcdstore keeps a switch's running configuration, its revisions
// and its runtime state in etcd, shared by every daemon that drives the
// switch, and elects the one daemon that writes to the switch.
//
// Keys under the switch's prefix P (one prefix per switch):
//
//	P running          the running revision's number (decimal)
//	P rev/NNNN         a revision's time, comment, digest and author (JSON)
//	P cfg/NNNN         a revision's configuration (YAML, as applied)
//	P layouts          the base slot layouts of the running revision (as
//	                   tables.EncodeLayouts; written with the revision)
//	P runtime          manual bypasses and failed filter groups (JSON)
//	P election/        the leader election (one key per daemon, on its lease)
//
// Every change is an etcd transaction conditioned on what this daemon
// read: a configuration is saved only while the running revision is still
// the one it read, the runtime state only while it is unchanged since it
// was read. A daemon that lost such a race gets statestore.ErrConflict naming
// what to re-read; nothing is overwritten.
package etcdstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	pb "go.etcd.io/etcd/api/v3/etcdserverpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/dpi-balancer/balancer/daemon/statestore"
	"github.com/dpi-balancer/balancer/tables"
)

// DefaultTimeout bounds each store operation when Options.Timeout is 0.
const DefaultTimeout = 3 * time.Second

// Store is a statestore.StateStore in etcd.
type Store struct {
	cli     *clientv3.Client
	prefix  string
	timeout time.Duration

	mu         sync.Mutex
	keep       uint64 // revisions kept (0: all)
	base       uint64 // the running revision this daemon last read or saved
	runtimeRev int64  // etcd mod revision of the runtime key last read or written (0: absent)
	runtime    []byte // its value then

	// held: etcd lost its quorum while this daemon leads (the elector
	// sets it): saves are refused at once, and those under way when it
	// was set are cancelled (hold's context), so the state owner waiting
	// on one goes back to failing over.
	held atomic.Bool
	hold atomic.Pointer[holdCtx]
}

var _ statestore.SharedStore = (*Store)(nil)

// Open returns the store of one switch under prefix (for instance
// "/balancer/site-a/sw1/"; a missing trailing "/" is added). timeout
// bounds each operation (0: DefaultTimeout).
func Open(cli *clientv3.Client, prefix string, timeout time.Duration) (*Store, error) {
	if prefix == "" || !strings.HasPrefix(prefix, "/") {
		return nil, fmt.Errorf("etcd prefix %q: give an absolute key prefix per switch, such as /balancer/<site>/<switch>/", prefix)
	}
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	if timeout < 0 {
		return nil, fmt.Errorf("etcd store timeout %v: must not be negative", timeout)
	}
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	s := &Store{cli: cli, prefix: prefix, timeout: timeout}
	s.hold.Store(newHoldCtx())
	return s, nil
}

// KeepRevisions bounds the history to the newest n revisions (0: keep
// all): each save deletes the revision n older than itself.
func (s *Store) KeepRevisions(n uint64) {
	s.mu.Lock()
	s.keep = n
	s.mu.Unlock()
}

// Prefix is the switch's key prefix (ends in "/").
func (s *Store) Prefix() string { return s.prefix }

func (s *Store) key(k string) string { return s.prefix + k }

func revKey(n uint64) string { return fmt.Sprintf("rev/%020d", n) }

func cfgKey(n uint64) string { return fmt.Sprintf("cfg/%020d", n) }

type revMeta struct {
	Time    time.Time `json:"time"`
	Comment string    `json:"comment,omitempty"`
	Digest  string    `json:"digest"`
	By      string    `json:"by,omitempty"`
}

func (s *Store) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(s.hold.Load().ctx, s.timeout)
}

// writeCtx bounds a save: the timeout, or until the store is held.
func (s *Store) writeCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(s.hold.Load().ctx, s.timeout)
}

func (s *Store) wrap(what string, err error) error {
	return fmt.Errorf("etcd store %s: %s: %w", s.prefix, what, err)
}

// Running implements statestore.StateStore. The revision read is the one the
// next Save is conditioned on.
func (s *Store) Running() ([]byte, statestore.Revision, error) {
	ctx, cancel := s.ctx()
	defer cancel()
	resp, err := s.cli.Get(ctx, s.key("running"))
	if err != nil {
		return nil, statestore.Revision{}, s.wrap("reading the running revision", err)
	}
	if len(resp.Kvs) == 0 {
		return nil, statestore.Revision{}, fmt.Errorf("etcd store %s: no running configuration: %w", s.prefix, os.ErrNotExist)
	}
	n, err := strconv.ParseUint(string(resp.Kvs[0].Value), 10, 64)
	if err != nil {
		return nil, statestore.Revision{}, fmt.Errorf("etcd store %s: key running holds %q, not a revision number: %w", s.prefix, resp.Kvs[0].Value, err)
	}
	// A revision's keys never change once written: read them at the
	// same store revision anyway, so a pruned history cannot interleave.
	rev := resp.Header.Revision
	r, err := s.cli.Txn(ctx).Then(clientv3.OpGet(s.key(revKey(n)), clientv3.WithRev(rev)),
		clientv3.OpGet(s.key(cfgKey(n)), clientv3.WithRev(rev))).Commit()
	if err != nil {
		return nil, statestore.Revision{}, s.wrap(fmt.Sprintf("reading revision %d", n), err)
	}
	meta, cfg := r.Responses[0].GetResponseRange().GetKvs(), r.Responses[1].GetResponseRange().GetKvs()
	if len(meta) == 0 || len(cfg) == 0 {
		return nil, statestore.Revision{}, fmt.Errorf("etcd store %s: the running revision %d has no stored configuration (keys %s, %s)", s.prefix, n, revKey(n), cfgKey(n))
	}
	out, err := decodeRev(n, meta[0].Value)
	if err != nil {
		return nil, statestore.Revision{}, fmt.Errorf("etcd store %s: %w", s.prefix, err)
	}
	if d := digest(cfg[0].Value); d != out.Digest {
		return nil, statestore.Revision{}, fmt.Errorf("etcd store %s: revision %d's configuration has digest %s, its record says %s: the store is damaged", s.prefix, n, d, out.Digest)
	}
	s.mu.Lock()
	s.base = n
	s.mu.Unlock()
	return cfg[0].Value, out, nil
}

func decodeRev(n uint64, b []byte) (statestore.Revision, error) {
	var m revMeta
	if err := json.Unmarshal(b, &m); err != nil {
		return statestore.Revision{}, fmt.Errorf("revision %d: record unreadable: %w", n, err)
	}
	return statestore.Revision{Number: n, Time: m.Time, Comment: m.Comment, Digest: m.Digest, By: m.By}, nil
}

// Save implements statestore.StateStore: it succeeds only while the running
// revision is the one this daemon last read (Running) or saved. The
// saved slot layouts are left as they are.
func (s *Store) Save(data []byte, comment string, now time.Time) (statestore.Revision, error) {
	return s.Commit(data, statestore.Note{Comment: comment}, now, nil)
}

// Commit implements statestore.StateStore: Save with the base slot layouts
// the configuration was compiled with (nil: leave the saved ones), in the
// same etcd transaction as the revision (all or nothing).
func (s *Store) Commit(data []byte, note statestore.Note, now time.Time, layouts map[string]*tables.Layout) (statestore.Revision, error) {
	s.mu.Lock()
	base := s.base
	s.mu.Unlock()
	return s.CommitOn(base, data, note, now, layouts)
}

// SaveOn is CommitOn leaving the saved slot layouts as they are.
func (s *Store) SaveOn(base uint64, data []byte, comment string, now time.Time) (statestore.Revision, error) {
	return s.CommitOn(base, data, statestore.Note{Comment: comment}, now, nil)
}

// CommitOn implements statestore.SharedStore: it succeeds only while the
// running revision is base. The revision, its slot layouts (unless nil)
// and the pruning of the history past KeepRevisions are one transaction.
func (s *Store) CommitOn(base uint64, data []byte, note statestore.Note, now time.Time, layouts map[string]*tables.Layout) (statestore.Revision, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.refuse(); err != nil {
		return statestore.Revision{}, err
	}
	n := base + 1
	r := statestore.Revision{Number: n, Time: now.UTC(), Comment: note.Comment, Digest: digest(data), By: note.By}
	meta, err := json.Marshal(revMeta{Time: r.Time, Comment: note.Comment, Digest: r.Digest, By: note.By})
	if err != nil {
		return statestore.Revision{}, err
	}
	var lay []byte
	if layouts != nil {
		if lay, err = tables.EncodeLayouts(n, layouts); err != nil {
			return statestore.Revision{}, fmt.Errorf("etcd store %s: revision %d: %w", s.prefix, n, err)
		}
	}
	cond := clientv3.Compare(clientv3.Value(s.key("running")), "=", strconv.FormatUint(base, 10))
	if base == 0 {
		cond = clientv3.Compare(clientv3.CreateRevision(s.key("running")), "=", 0)
	}
	ctx, cancel := s.writeCtx()
	defer cancel()
	ops := []clientv3.Op{clientv3.OpPut(s.key(revKey(n)), string(meta)), clientv3.OpPut(s.key(cfgKey(n)), string(data)),
		clientv3.OpPut(s.key("running"), strconv.FormatUint(n, 10))}
	if lay != nil {
		ops = append(ops, clientv3.OpPut(s.key("layouts"), string(lay)))
	}
	if s.keep > 0 && n > s.keep {
		// Everything up to the revision keep older than this one (a
		// range: revisions skipped by an earlier, smaller limit go too).
		old := n - s.keep
		ops = append(ops, clientv3.OpDelete(s.key(revKey(0)), clientv3.WithRange(s.key(revKey(old+1)))),
			clientv3.OpDelete(s.key(cfgKey(0)), clientv3.WithRange(s.key(cfgKey(old+1)))))
	}
	resp, err := s.commitWatched(ctx, func(ctx context.Context) clientv3.Txn {
		return s.cli.Txn(ctx).If(cond).Then(ops...).Else(clientv3.OpGet(s.key("running")))
	})
	if err != nil {
		// Unknown outcome (a timeout may still commit): the watch tells.
		return statestore.Revision{}, s.wrapWrite(fmt.Sprintf("saving revision %d (it may or may not have been saved: check the history)", n), err)
	}
	if !resp.Succeeded {
		cur := "none"
		if kvs := resp.Responses[0].GetResponseRange().GetKvs(); len(kvs) > 0 {
			cur = string(kvs[0].Value)
		}
		return statestore.Revision{}, fmt.Errorf("%w: another daemon changed the running configuration to revision %s since this daemon read revision %d; nothing was saved: re-read revision %s (config show) and make the change again",
			statestore.ErrConflict, cur, base, cur)
	}
	s.base = n
	return r, nil
}

// Layouts implements statestore.StateStore: the base slot layouts saved with
// the running revision (nil when none were saved).
func (s *Store) Layouts() (map[string]*tables.Layout, error) {
	ctx, cancel := s.ctx()
	defer cancel()
	resp, err := s.cli.Get(ctx, s.key("layouts"))
	if err != nil {
		return nil, s.wrap("reading the slot layouts", err)
	}
	if len(resp.Kvs) == 0 {
		return nil, nil
	}
	ls, _, err := tables.DecodeLayouts(resp.Kvs[0].Value)
	if err != nil {
		return nil, fmt.Errorf("etcd store %s: key layouts: %w", s.prefix, err)
	}
	return ls, nil
}

// Seed saves data as the first revision when the store holds no running
// configuration yet, and reports whether it did. Daemons started at once
// may all seed: one wins, the others find its revision.
func (s *Store) Seed(data []byte, comment string, now time.Time) (bool, error) {
	s.mu.Lock()
	s.base = 0
	s.mu.Unlock()
	_, err := s.Save(data, comment, now)
	if errors.Is(err, statestore.ErrConflict) {
		return false, nil
	}
	return err == nil, err
}

// Revision implements statestore.StateStore.
func (s *Store) Revision(n uint64) ([]byte, error) {
	resp, err := s.read(s.key(cfgKey(n)), nil)
	if err != nil {
		return nil, s.wrap(fmt.Sprintf("reading revision %d", n), err)
	}
	if len(resp.Kvs) == 0 {
		return nil, fmt.Errorf("revision %d: %w", n, statestore.ErrNotFound)
	}
	return resp.Kvs[0].Value, nil
}

// read gets key like every read (linearizable: what the majority agreed),
// except when etcd does not answer so (it lost its quorum, its leader
// hangs): then it reads a reached member's own copy (serializable), so
// that the history and old revisions can still be shown; a change based
// on them is refused by the write that follows.
//
// Members that hang (a stopped process keeps its sockets open) answer
// nothing, so the read does not wait for its whole timeout on one: after
// quorumProbeAfter without an answer, or after a failed answer, it asks
// every member at once for its own copy (serializable), the first answer
// winning. Both readers read what never changes once written (a
// revision's text) or only grows (the history), so a member's own copy
// can lack the newest revisions but never shows a wrong one.
//
// opts makes the options afresh for each request the read sends at once:
// an etcd OpOption may write to variables its closure captured
// (WithSort does), so one option value applied by two goroutines races.
func (s *Store) read(key string, opts func() []clientv3.OpOption) (*clientv3.GetResponse, error) {
	if opts == nil {
		opts = func() []clientv3.OpOption { return nil }
	}
	// Not s.ctx: that ends while the store is held.
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	type result struct {
		resp *clientv3.GetResponse
		err  error
	}
	eps := s.cli.Endpoints()
	ch := make(chan result, len(eps)+1)
	pending := 0
	each := func(serializable bool) {
		for _, ep := range eps {
			pending++
			o := opts()
			if serializable {
				o = append(o, clientv3.WithSerializable())
			}
			go func() {
				conn, err := s.cli.Dial(ep)
				if err != nil {
					ch <- result{err: fmt.Errorf("%s: %w", ep, err)}
					return
				}
				defer conn.Close()
				r, err := clientv3.NewKVFromKVClient(pb.NewKVClient(conn), s.cli).Get(ctx, key, o...)
				if err != nil {
					err = fmt.Errorf("%s: %w", ep, err)
				}
				ch <- result{r, err}
			}()
		}
	}
	if s.held.Load() {
		each(true)
	} else {
		pending++
		o := opts()
		go func() {
			r, err := s.cli.Get(ctx, key, o...)
			ch <- result{r, err}
		}()
		probe := time.NewTimer(min(s.timeout/3, quorumProbeAfter))
		defer probe.Stop()
		select {
		case r := <-ch:
			pending--
			if r.err == nil {
				return r.resp, nil
			}
			if ctx.Err() != nil {
				return nil, r.err
			}
			each(true)
		case <-probe.C:
			// Not first a quorum check: a member that still follows a
			// leader that has just hung would pass it, and a read
			// through it waits for that leader.
			each(true)
		}
	}
	var errs []error
	for ; pending > 0; pending-- {
		r := <-ch
		if r.err == nil {
			return r.resp, nil
		}
		errs = append(errs, r.err)
	}
	return nil, errors.Join(errs...)
}

// History implements statestore.StateStore.
func (s *Store) History() ([]statestore.Revision, error) {
	resp, err := s.read(s.key("rev/"), func() []clientv3.OpOption {
		return []clientv3.OpOption{clientv3.WithPrefix(), clientv3.WithSort(clientv3.SortByKey, clientv3.SortAscend)}
	})
	if err != nil {
		return nil, s.wrap("reading the history", err)
	}
	out := make([]statestore.Revision, 0, len(resp.Kvs))
	for _, kv := range resp.Kvs {
		n, err := strconv.ParseUint(strings.TrimPrefix(string(kv.Key), s.key("rev/")), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("etcd store %s: key %s is not a revision: %w", s.prefix, kv.Key, err)
		}
		r, err := decodeRev(n, kv.Value)
		if err != nil {
			return nil, fmt.Errorf("etcd store %s: %w", s.prefix, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// Health reports whether the store answers (a linearizable read, so it
// needs the etcd cluster's quorum).
func (s *Store) Health(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	if _, err := s.cli.Get(ctx, s.key("running")); err != nil {
		return s.wrap("health check", err)
	}
	return nil
}

func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:6])
}
