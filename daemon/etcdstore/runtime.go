package etcdstore

import (
	"bytes"
	"encoding/json"
	"fmt"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/dpi-balancer/balancer/daemon/statestore"
)

// LoadRuntime implements statestore.StateStore. The state read is the one
// the next SaveRuntime is conditioned on.
func (s *Store) LoadRuntime() (statestore.Runtime, error) {
	ctx, cancel := s.ctx()
	defer cancel()
	resp, err := s.cli.Get(ctx, s.key("runtime"))
	if err != nil {
		return statestore.Runtime{}, s.wrap("reading the runtime state", err)
	}
	var rt statestore.Runtime
	var mod int64
	if len(resp.Kvs) > 0 {
		if err := json.Unmarshal(resp.Kvs[0].Value, &rt); err != nil {
			return statestore.Runtime{}, fmt.Errorf("etcd store %s: key runtime unreadable: %w", s.prefix, err)
		}
		mod = resp.Kvs[0].ModRevision
	}
	s.mu.Lock()
	s.runtimeRev, s.runtime = mod, nil
	if len(resp.Kvs) > 0 {
		s.runtime = resp.Kvs[0].Value
	}
	s.mu.Unlock()
	return rt, nil
}

// LoadRuntimeRev implements statestore.SharedStore: the runtime state and
// the store revision it was written at (0: none yet).
func (s *Store) LoadRuntimeRev() (statestore.Runtime, int64, error) {
	rt, err := s.LoadRuntime()
	if err != nil {
		return rt, 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return rt, s.runtimeRev, nil
}

// SaveRuntimeOn implements statestore.SharedStore: it succeeds only while the
// runtime state is still at store revision base, and writes nothing when
// the store holds rt already. It returns the revision the state is at.
func (s *Store) SaveRuntimeOn(base int64, rt statestore.Runtime) (int64, error) {
	b, err := json.Marshal(rt)
	if err != nil {
		return 0, err
	}
	if err := s.refuse(); err != nil {
		return 0, err
	}
	ctx, cancel := s.writeCtx()
	defer cancel()
	k := s.key("runtime")
	got, err := s.cli.Get(ctx, k)
	if err != nil {
		return 0, s.wrapWrite("reading the runtime state", err)
	}
	if len(got.Kvs) > 0 && bytes.Equal(got.Kvs[0].Value, b) {
		return got.Kvs[0].ModRevision, nil // the store holds it already: nothing is lost, nothing written
	}
	resp, err := s.cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision(k), "=", base)).
		Then(clientv3.OpPut(k, string(b))).Else(clientv3.OpGet(k)).Commit()
	if err != nil {
		return 0, s.wrapWrite("saving the runtime state", err)
	}
	if !resp.Succeeded {
		var cur int64
		if kvs := resp.Responses[0].GetResponseRange().GetKvs(); len(kvs) > 0 {
			cur = kvs[0].ModRevision
			if bytes.Equal(kvs[0].Value, b) {
				return cur, nil
			}
		}
		return 0, fmt.Errorf("%w: another daemon changed the runtime state (manual bypass, failed groups) at store revision %d since this daemon took it at %d; nothing was saved: check status and make the change again",
			statestore.ErrConflict, cur, base)
	}
	return resp.Header.Revision, nil
}

// SaveRuntime implements statestore.StateStore: it succeeds only while the
// runtime state is the one this daemon last read or wrote. Saving what
// the store holds already writes nothing (a standby repeating the
// leader's state does not disturb the leader's next save).
func (s *Store) SaveRuntime(rt statestore.Runtime) error {
	b, err := json.Marshal(rt)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.runtimeRev != 0 && bytes.Equal(b, s.runtime) {
		return nil
	}
	if err := s.refuse(); err != nil {
		return err
	}
	ctx, cancel := s.writeCtx()
	defer cancel()
	k := s.key("runtime")
	resp, err := s.cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision(k), "=", s.runtimeRev)).
		Then(clientv3.OpPut(k, string(b))).Else(clientv3.OpGet(k)).Commit()
	if err != nil {
		return s.wrapWrite("saving the runtime state", err)
	}
	if !resp.Succeeded {
		var cur int64
		if kvs := resp.Responses[0].GetResponseRange().GetKvs(); len(kvs) > 0 {
			cur = kvs[0].ModRevision
			if bytes.Equal(kvs[0].Value, b) {
				// Another daemon saved the same state: nothing is lost.
				s.runtimeRev, s.runtime = cur, b
				return nil
			}
		}
		return fmt.Errorf("%w: another daemon changed the runtime state (manual bypass, failed groups) at store revision %d since this daemon read it at %d; nothing was saved: re-read it (status) and make the change again",
			statestore.ErrConflict, cur, s.runtimeRev)
	}
	s.runtimeRev, s.runtime = resp.Header.Revision, b
	return nil
}
