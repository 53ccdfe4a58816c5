package etcdstore

import (
	"context"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/dpi-balancer/balancer/daemon/etcdstore/etcdtest"
)

// shared is the etcd member of the tests that do not fault their etcd
// (they cut daemons off with proxies): it starts once, and each test keeps
// its keys under its own prefix (keys). A test that stops, kills or pauses
// members starts its own (etcdtest.StartCluster, startEtcdProcs).
var shared etcdtest.Shared

func TestMain(m *testing.M) {
	code := m.Run()
	shared.Stop()
	os.Exit(code)
}

// startEtcd returns the shared member's address.
func startEtcd(t testing.TB) string { return shared.Addr(t) }

// keys is the key prefix p of test t: p under a directory of t's own, so
// that tests on the shared member never see each other's keys, nor a test
// the keys of its earlier runs (-count).
func keys(t testing.TB, p string) string {
	roots.Lock()
	defer roots.Unlock()
	root, ok := roots.m[t]
	if !ok {
		roots.n++
		root = fmt.Sprintf("/%s.%d", strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
				return r
			}
			return '_'
		}, t.Name()), roots.n)
		roots.m[t] = root
	}
	return root + p
}

// roots are the tests' key directories (keys), one per run of a test.
var roots = struct {
	sync.Mutex
	m map[testing.TB]string
	n int
}{m: map[testing.TB]string{}}

func newClient(t testing.TB, addrs ...string) *clientv3.Client {
	t.Helper()
	cli, err := clientv3.New(clientv3.Config{Endpoints: addrs, DialTimeout: 2 * time.Second,
		Logger: zap.NewNop()})
	require.NoError(t, err)
	t.Cleanup(func() { cli.Close() })
	return cli
}

// proxy forwards TCP connections to an address. While partitioned it
// forwards nothing and answers nothing, keeping connections open (packets
// dropped, as in a network partition): clients find out by their timeouts.
type proxy struct {
	lis    net.Listener
	to     string
	mu     sync.Mutex
	cut    bool
	conns  map[net.Conn]bool
	closed chan struct{}
	// dropped counts the bytes dropped while partitioned.
	dropped atomic.Int64
}

func newProxy(t testing.TB, to string) *proxy {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &proxy{lis: lis, to: to, conns: map[net.Conn]bool{}, closed: make(chan struct{})}
	go p.serve()
	t.Cleanup(func() {
		lis.Close()
		<-p.closed
		p.mu.Lock()
		for c := range p.conns {
			c.Close()
		}
		p.mu.Unlock()
	})
	return p
}

func (p *proxy) addr() string { return p.lis.Addr().String() }

func (p *proxy) isCut() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cut
}

func (p *proxy) serve() {
	defer close(p.closed)
	for {
		c, err := p.lis.Accept()
		if err != nil {
			return
		}
		up, err := net.Dial("tcp", p.to)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns[c], p.conns[up] = true, true
		p.mu.Unlock()
		go p.pipe(up, c)
		go p.pipe(c, up)
	}
}

// pipe copies src to dst, dropping what comes while partitioned.
func (p *proxy) pipe(dst, src net.Conn) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && p.isCut() {
			p.dropped.Add(int64(n))
		} else if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// partition drops everything from now on, both ways.
func (p *proxy) partition() {
	p.mu.Lock()
	p.cut = true
	p.mu.Unlock()
}

// heal forwards again; the connections that lost bytes are closed (their
// streams are broken), so clients reconnect.
func (p *proxy) heal() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = false
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

// proxies are the proxies of one client to every etcd member.
type proxies []*proxy

func (ps proxies) partition() {
	for _, p := range ps {
		p.partition()
	}
}

func (ps proxies) heal() {
	for _, p := range ps {
		p.heal()
	}
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return ctx
}
