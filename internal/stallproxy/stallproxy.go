// Package stallproxy is a TCP proxy for tests that can go silent: the
// connections stay open but nothing is forwarded, as in front of a hung
// switch. It can also lag: what the switch sends reaches the client a
// fixed time late, in order, as over a backed-up channel.
package stallproxy

import (
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"
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
	// fwd is held (read) while a chunk is forwarded and (write) by Pause:
	// once Pause returns, no chunk is written until Resume.
	fwd    sync.RWMutex
	conns  map[net.Conn]bool
	closed chan struct{}
	wg     sync.WaitGroup
	lag    atomic.Int64 // switch-to-client delay (Lag)
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
		go p.pump(out, in, false)
		go p.pump(in, out, true)
	}
}

// Lag delays every byte the switch sends to the client by d from when the
// proxy read it (0: none), keeping their order: the channel lags, but
// nothing is lost and the switch is not slowed.
func (p *Proxy) Lag(d time.Duration) { p.lag.Store(int64(d)) }

// chunk is a read of the switch's bytes, with when it was read.
type chunk struct {
	b  []byte
	at time.Time
}

// pump copies src to dst, holding each chunk while the proxy is paused
// (and, on the switch-to-client side, until its lag has passed).
func (p *Proxy) pump(dst, src net.Conn, down bool) {
	defer p.wg.Done()
	if down {
		// A delay line: reads go on at the switch's pace, writes follow
		// each read by the lag.
		line := make(chan chunk, 4096)
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			defer dst.Close()
			for c := range line {
				if d := time.Until(c.at.Add(time.Duration(p.lag.Load()))); d > 0 {
					time.Sleep(d)
				}
				if !p.forward(dst, c.b) {
					src.Close()
					for range line {
					}
					return
				}
			}
		}()
		defer close(line)
		buf := make([]byte, 64<<10)
		for {
			n, err := src.Read(buf)
			if n > 0 {
				line <- chunk{append([]byte(nil), buf[:n]...), time.Now()}
			}
			if err != nil {
				src.Close()
				p.mu.Lock()
				delete(p.conns, dst)
				delete(p.conns, src)
				p.mu.Unlock()
				return
			}
		}
	}
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
		if n > 0 && !p.forward(dst, buf[:n]) {
			return
		}
		if err != nil {
			return
		}
	}
}

// forward writes chunk to dst once the proxy forwards (at once when it
// does); false when the proxy closed or dst failed.
func (p *Proxy) forward(dst net.Conn, chunk []byte) bool {
	for {
		p.fwd.RLock()
		p.mu.Lock()
		gate := p.resumed
		p.mu.Unlock()
		select {
		case <-gate:
			_, err := dst.Write(chunk)
			p.fwd.RUnlock()
			return err == nil
		default:
		}
		p.fwd.RUnlock()
		select {
		case <-gate:
		case <-p.closed:
			return false
		}
	}
}

// Pause stops forwarding; connections stay open. A chunk being written
// when it is called is written before it returns, none after.
func (p *Proxy) Pause() {
	p.fwd.Lock()
	defer p.fwd.Unlock()
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
