package controlplane

import (
	"errors"
	"net"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// stallProxy forwards TCP connections to a target. Pause makes it go
// silent: every connection (open or new) stays open but nothing is
// forwarded, as with a hung switch; Resume lets the held bytes through
// again. Cut closes every open connection.
type stallProxy struct {
	lis    net.Listener
	target string

	mu      sync.Mutex
	resumed chan struct{} // closed while forwarding
	conns   map[net.Conn]bool
	closed  chan struct{}
	wg      sync.WaitGroup
}

func newStallProxy(t *testing.T, target string) *stallProxy {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &stallProxy{lis: lis, target: target, resumed: make(chan struct{}), conns: map[net.Conn]bool{}, closed: make(chan struct{})}
	close(p.resumed)
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(p.close)
	return p
}

func (p *stallProxy) addr() string { return p.lis.Addr().String() }

func (p *stallProxy) accept() {
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
func (p *stallProxy) pump(dst, src net.Conn) {
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

func (p *stallProxy) pause() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.resumed:
		p.resumed = make(chan struct{})
	default:
	}
}

func (p *stallProxy) resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.resumed:
	default:
		close(p.resumed)
	}
}

// cut closes every open connection; new ones are accepted.
func (p *stallProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.Close()
	}
}

func (p *stallProxy) close() {
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
	p.cut()
	p.wg.Wait()
}
