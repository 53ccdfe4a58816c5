package etcdstore

import (
	"context"
	"errors"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// commitWatched commits the transaction txn builds. A save needs etcd's
// quorum, so one that has no answer after quorumProbeAfter checks the
// quorum, and again every quorumProbeAfter until it has an answer: when
// the quorum is lost the save is given up at once with ErrQuorumLost (no
// transaction commits without a leader) instead of waiting out the
// store's timeout. An answer that arrives while the quorum is checked
// wins; the store's timeout still ends the save.
func (s *Store) commitWatched(ctx context.Context, txn func(context.Context) clientv3.Txn) (*clientv3.TxnResponse, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		resp *clientv3.TxnResponse
		err  error
	}
	ch := make(chan result, 1)
	t := txn(ctx)
	go func() {
		r, err := t.Commit()
		ch <- result{r, err}
	}()
	probe := time.NewTicker(min(s.timeout/3, quorumProbeAfter))
	defer probe.Stop()
	for {
		select {
		case r := <-ch:
			return r.resp, r.err
		case <-probe.C:
		}
		// Checked again at every tick: a member that still follows a
		// leader that has just hung passes the first checks.
		lost, why := s.quorumLost(ctx, min(s.timeout, time.Second))
		select {
		case r := <-ch:
			return r.resp, r.err
		default:
		}
		if lost {
			return nil, &quorumError{prefix: s.prefix, detail: why}
		}
	}
}

// isQuorumError says whether err already says the quorum is lost.
func isQuorumError(err error) bool {
	var qe *quorumError
	return errors.As(err, &qe)
}
