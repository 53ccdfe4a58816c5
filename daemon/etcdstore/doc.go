package etcdstore

import (
	"github.com/dpi-balancer/balancer/daemon/statestore"
)

var _ statestore.DocStore = (*Store)(nil)

// The documents the daemon keeps (daemon/confsession.go); Watch reports
// their changes, so that a standby shows them.
const (
	docSession = "session"
	docConfirm = "confirm"
)

func docKey(name string) string { return "doc/" + name }

// LoadDoc implements statestore.DocStore: the key doc/NAME under the
// switch's prefix.
func (s *Store) LoadDoc(name string) ([]byte, error) {
	ctx, cancel := s.ctx()
	defer cancel()
	resp, err := s.cli.Get(ctx, s.key(docKey(name)))
	if err != nil {
		return nil, s.wrap("reading "+name, err)
	}
	if len(resp.Kvs) == 0 {
		return nil, nil
	}
	return resp.Kvs[0].Value, nil
}

// SaveDoc implements statestore.DocStore (nil data deletes the key).
func (s *Store) SaveDoc(name string, data []byte) error {
	if err := s.refuse(); err != nil {
		return err
	}
	ctx, cancel := s.writeCtx()
	defer cancel()
	var err error
	if data == nil {
		_, err = s.cli.Delete(ctx, s.key(docKey(name)))
	} else {
		_, err = s.cli.Put(ctx, s.key(docKey(name)), string(data))
	}
	if err != nil {
		return s.wrapWrite("saving "+name, err)
	}
	return nil
}
