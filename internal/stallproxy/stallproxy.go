// Package stallproxy is a TCP proxy for tests that can go silent: the
// connections stay open but nothing is forwarded, as in front of a hung
// switch.
package stallproxy

import (
	"errors"
	"net"
	"sync"
	"testing"
)

// Proxy forwards TCP connections to a target. Pause makes it go
// silent: every connection (open or new) stays open but nothing is
// forwarded, as with a hung switch; Resume lets the held bytes through
// again. Cut closes every open connection.
type Proxy struct {
	lis    net.Listener
	target string

	mu      sync.Mutex
	resumed chan struct{} // closed while forwarding
	conns   map[net.Conn]bool
	closed  chan struct{}
	wg      sync.WaitGroup
}

// New starts a proxy on 127.0.0.1 to target, closed when the test ends.
func New(t testing.TB, target string) *Proxy {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("stallproxy: %v", err)
	}
	p := &Proxy{lis: lis, target: target, resumed: make(chan struct{}), conns: map[net.Conn]bool{}, closed: make(chan struct{})}
	close(p.resumed)
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(p.close)
	return p
}

// Addr is the proxy's address.
func (p *Proxy) Addr() string { return p.lis.Addr().String() }

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		in, err := p.lis.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", p.target)
		if err != nil {
			in.Close()
			continue
		}
		p.mu.Lock()
		p.conns[in], p.conns[out] = true, true
		p.mu.Unlock()
		p.wg.Add(2)
		go p.pump(out, in)
		go p.pump(in, out)
	}
}

// pump copies src to dst, holding each chunk while the proxy is paused.
func (p *Proxy) pump(dst, src net.Conn) {
	defer p.wg.Done()
	defer func() {
		dst.Close()
		src.Close()
		p.mu.Lock()
		delete(p.conns, dst)
		delete(p.conns, src)
		p.mu.Unlock()
	}()
	buf := make([]byte, 64<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.mu.Lock()
			gate := p.resumed
			p.mu.Unlock()
			select {
			case <-gate:
			case <-p.closed:
				return
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// Pause stops forwarding; connections stay open.
func (p *Proxy) Pause() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.resumed:
		p.resumed = make(chan struct{})
	default:
	}
}

// Resume forwards again, the held bytes first.
func (p *Proxy) Resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.resumed:
	default:
		close(p.resumed)
	}
}

// Cut closes every open connection; new ones are accepted.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.Close()
	}
}

func (p *Proxy) close() {
	select {
	case <-p.closed:
		return
	default:
	}
	close(p.closed)
	err := p.lis.Close()
	if err != nil && !errors.Is(err, net.ErrClosed) {
		panic(err)
	}
	p.Cut()
	p.wg.Wait()
}
