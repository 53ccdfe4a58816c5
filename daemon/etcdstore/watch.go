package etcdstore

import (
	"context"
	"strings"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Change says what changed in the store: the running configuration, the
// runtime state, or a document (the configuration session, a commit
// confirmed: statestore.DocStore).
type Change struct {
	Config, Runtime, Docs bool
}

// Watch reports changes of the running configuration, of the runtime
// state and of the documents (by this daemon or another) until ctx ends. Changes that come
// faster than they are taken are merged. After a lost watch (etcd
// unreachable, history compacted) it reports both as changed: the reader
// re-reads the store.
func (s *Store) Watch(ctx context.Context) <-chan Change {
	out := make(chan Change, 1)
	send := func(c Change) {
		for {
			select {
			case out <- c:
				return
			case old := <-out:
				c.Config, c.Runtime, c.Docs = c.Config || old.Config, c.Runtime || old.Runtime, c.Docs || old.Docs
			case <-ctx.Done():
				return
			}
		}
	}
	go func() {
		defer close(out)
		for ctx.Err() == nil {
			wctx := clientv3.WithRequireLeader(ctx)
			for wr := range s.cli.Watch(wctx, s.prefix, clientv3.WithPrefix(), clientv3.WithCreatedNotify()) {
				if err := wr.Err(); err != nil || wr.Created {
					// Created: anything may have changed before the watch
					// started (a re-established watch); an error ends it.
					send(Change{Config: true, Runtime: true}) // a reload reads the documents too
					if err != nil {
						break
					}
					continue
				}
				var c Change
				for _, ev := range wr.Events {
					switch strings.TrimPrefix(string(ev.Kv.Key), s.prefix) {
					case "running":
						c.Config = true
					case "runtime":
						c.Runtime = true
					case docKey(docSession), docKey(docConfirm):
						c.Docs = true
					}
				}
				if c.Config || c.Runtime || c.Docs {
					send(c)
				}
			}
			select {
			case <-ctx.Done():
			case <-time.After(s.timeout / 4):
			}
		}
	}()
	return out
}
