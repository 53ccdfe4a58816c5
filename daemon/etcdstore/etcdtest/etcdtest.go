// Package etcdtest runs etcd inside a test process, on loopback ports, for
// tests of code that keeps state in etcd: one member (Start, StartTLS) or
// a cluster whose members a test stops and restarts (StartCluster), or
// one member shared by the tests that do not fault it (Shared).
package etcdtest

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"go.etcd.io/etcd/client/pkg/v3/transport"
	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
)

// Start runs an etcd member in the test's temporary directory until the
// test ends and returns its client address (host:port).
func Start(t testing.TB) string {
	t.Helper()
	return StartCluster(t, 1).Endpoints()[0]
}

// StartTLS runs an etcd member that serves its clients over TLS with the
// certificate and key in PEM files certFile, keyFile, and requires a
// client certificate signed by the CAs in caFile. It returns its client
// URL (https://host:port).
func StartTLS(t testing.TB, certFile, keyFile, caFile string) string {
	t.Helper()
	c := &Cluster{t: t, tls: &transport.TLSInfo{CertFile: certFile, KeyFile: keyFile, TrustedCAFile: caFile, ClientCertAuth: true}}
	c.start(1)
	return "https://" + c.members[0].client
}

// Cluster is an etcd cluster of members in one test process. Its members
// elect a leader within a quarter second of losing one (heartbeat 50 ms,
// election timeout 250 ms).
type Cluster struct {
	t       testing.TB
	tls     *transport.TLSInfo
	members []*member
	initial string
}

type member struct {
	name, dir, client, peer string
	e                       *embed.Etcd
	closed                  chan struct{} // closed when the last Stop finished
}

// StartCluster runs a cluster of n members until the test ends.
func StartCluster(t testing.TB, n int) *Cluster {
	t.Helper()
	c := &Cluster{t: t}
	c.start(n)
	return c
}

func (c *Cluster) start(n int) {
	var peers []string
	for i := range n {
		m := &member{name: fmt.Sprintf("m%d", i), dir: c.t.TempDir(), client: freePort(c.t), peer: freePort(c.t)}
		c.members = append(c.members, m)
		peers = append(peers, fmt.Sprintf("%s=http://%s", m.name, m.peer))
	}
	c.initial = strings.Join(peers, ",")
	for i := range c.members {
		c.launch(i)
	}
	for i := range c.members {
		c.ready(i)
	}
	c.t.Cleanup(func() {
		for i, m := range c.members {
			c.wait(i)
			if m.e != nil {
				m.e.Close()
			}
		}
	})
}

func (c *Cluster) launch(i int) {
	m := c.members[i]
	e, err := embed.StartEtcd(config(m, c.initial, c.tls))
	if err != nil {
		c.t.Fatalf("embedded etcd %s: %v", m.name, err)
	}
	m.e = e
}

// config is member m's configuration in a cluster of initial, serving its
// clients over TLS with tls when set.
func config(m *member, initial string, tls *transport.TLSInfo) *embed.Config {
	cfg := embed.NewConfig()
	cfg.Name, cfg.Dir = m.name, m.dir
	cfg.Logger = "zap"
	cfg.LogLevel = "error"
	cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop())
	cfg.UnsafeNoFsync = true
	cfg.TickMs, cfg.ElectionMs = 50, 250
	scheme := "http"
	if tls != nil {
		scheme = "https"
		cfg.ClientTLSInfo = *tls
	}
	cu, pu := url.URL{Scheme: scheme, Host: m.client}, url.URL{Scheme: "http", Host: m.peer}
	cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{cu}, []url.URL{cu}
	cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{pu}, []url.URL{pu}
	cfg.InitialCluster = initial
	return cfg
}

// Shared is one etcd member for many tests of a package, none of which
// stops it or cuts it off (a test that faults its etcd starts its own):
// the tests keep apart by key prefix. It starts with its first Addr and
// runs until Stop (from TestMain, after m.Run).
type Shared struct {
	once sync.Once
	dir  string
	e    *embed.Etcd
	addr string
	err  error
}

// Addr starts the member on its first call and returns its client address
// (host:port); the test fails when it does not start.
func (s *Shared) Addr(t testing.TB) string {
	t.Helper()
	s.once.Do(func() {
		s.dir, s.err = os.MkdirTemp("", "etcdtest-shared-")
		if s.err != nil {
			return
		}
		var client, peer string
		if client, s.err = freeAddr(); s.err != nil {
			return
		}
		if peer, s.err = freeAddr(); s.err != nil {
			return
		}
		m := &member{name: "shared", dir: s.dir, client: client, peer: peer}
		if s.e, s.err = embed.StartEtcd(config(m, "shared=http://"+peer, nil)); s.err != nil {
			return
		}
		select {
		case <-s.e.Server.ReadyNotify():
			s.addr = client
		case <-time.After(30 * time.Second):
			s.err = fmt.Errorf("not ready within 30s")
		}
	})
	if s.err != nil {
		t.Fatalf("shared embedded etcd: %v", s.err)
	}
	return s.addr
}

// Stop stops the member, if it started, and removes its data.
func (s *Shared) Stop() {
	if s.e != nil {
		s.e.Close()
	}
	if s.dir != "" {
		os.RemoveAll(s.dir)
	}
}

func (c *Cluster) ready(i int) {
	select {
	case <-c.members[i].e.Server.ReadyNotify():
	case <-time.After(30 * time.Second):
		c.t.Fatalf("embedded etcd %s not ready within 30s", c.members[i].name)
	}
}

// Endpoints are the members' client addresses (host:port), by member.
func (c *Cluster) Endpoints() []string {
	var out []string
	for _, m := range c.members {
		out = append(out, m.client)
	}
	return out
}

// Stop stops the members is at once, as a crash would (no leadership
// transfer); their data stays for Restart. Their client connections
// close in the background (etcd waits up to its request timeout for
// open streams).
func (c *Cluster) Stop(is ...int) {
	for _, i := range is {
		c.members[i].e.Server.HardStop()
	}
	for _, i := range is {
		m := c.members[i]
		e, closed := m.e, make(chan struct{})
		m.e, m.closed = nil, closed
		go func() {
			defer close(closed)
			e.Close()
		}()
	}
}

// Restart starts the stopped member i again on its addresses and data. It
// does not wait for the cluster to be ready: a member restarted alone in
// a cluster without quorum cannot be (use Ready).
func (c *Cluster) Restart(i int) {
	c.wait(i)
	c.launch(i)
}

// wait waits until member i's last Stop finished closing it.
func (c *Cluster) wait(i int) {
	if ch := c.members[i].closed; ch != nil {
		<-ch
		c.members[i].closed = nil
	}
}

// Ready waits until member i has joined the cluster and serves clients.
func (c *Cluster) Ready(i int) { c.ready(i) }

// freePort returns a loopback address nobody listens on (etcd's
// configuration takes URLs, not listeners).
func freePort(t testing.TB) string {
	a, err := freeAddr()
	if err != nil {
		t.Fatalf("free port: %v", err)
	}
	return a
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}
