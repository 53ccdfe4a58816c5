// Package stallproxy is a TCP proxy for tests that can go silent: the
// connections stay open but nothing is forwarded, as in front of a hung
// switch. It can also lag: what the switch sends reaches the client a
// fixed time late, in order, as over a backed-up channel. And it can
// sever the open connections as a network cut does: nothing more crosses
// them, not even a close, while new connections go through.
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
// again. Cut closes every open connection. Sever drops everything on the
// open connections for good, closes included.
type Proxy struct {
	lis    net.Listener
	target string

	mu      sync.Mutex
	resumed chan struct{} // closed while forwarding
	// fwd is held (read) while a chunk is forwarded and (write) by Pause:
	// once Pause returns, no chunk is written until Resume.
	fwd    sync.RWMutex
	conns  map[net.Conn]*link
	closed chan struct{}
	wg     sync.WaitGroup
	lag    atomic.Int64 // switch-to-client delay (Lag)
}

// link is one proxied connection (its client and switch sides).
type link struct {
	severed atomic.Bool // Sever: nothing crosses, not even a close
}

// New starts a proxy on 127.0.0.1 to target, closed when the test ends.
func New(t testing.TB, target string) *Proxy {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("stallproxy: %v", err)
	}
	p := &Proxy{lis: lis, target: target, resumed: make(chan struct{}), conns: map[net.Conn]*link{}, closed: make(chan struct{})}
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
		l := &link{}
		p.mu.Lock()
		p.conns[in], p.conns[out] = l, l
		p.mu.Unlock()
		p.wg.Add(2)
		go p.pump(out, in, false, l)
		go p.pump(in, out, true, l)
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
// (and, on the switch-to-client side, until its lag has passed). Once
// the link is severed it drops what it reads and, when src ends, leaves
// both sides open (the proxy closes them when it closes).
func (p *Proxy) pump(dst, src net.Conn, down bool, l *link) {
	defer p.wg.Done()
	if down {
		// A delay line: reads go on at the switch's pace, writes follow
		// each read by the lag.
		line := make(chan chunk, 4096)
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			defer func() {
				if !l.severed.Load() {
					dst.Close()
				}
			}()
			for c := range line {
				if l.severed.Load() {
					continue
				}
				if d := time.Until(c.at.Add(time.Duration(p.lag.Load()))); d > 0 {
					time.Sleep(d)
				}
				if !p.forward(dst, c.b, l) {
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
			if n > 0 && !l.severed.Load() {
				line <- chunk{append([]byte(nil), buf[:n]...), time.Now()}
			}
			if err != nil && l.severed.Load() {
				return
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
		if l.severed.Load() {
			return
		}
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
		if n > 0 && !p.forward(dst, buf[:n], l) {
			return
		}
		if err != nil {
			return
		}
	}
}

// forward writes chunk to dst once the proxy forwards (at once when it
// does); false when the proxy closed or dst failed. A severed link's
// chunk is dropped.
func (p *Proxy) forward(dst net.Conn, chunk []byte, l *link) bool {
	for {
		p.fwd.RLock()
		p.mu.Lock()
		gate := p.resumed
		p.mu.Unlock()
		select {
		case <-gate:
			if l.severed.Load() {
				p.fwd.RUnlock()
				return true
			}
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

// Sever cuts every open connection as a network cut that loses the
// packets does: from now on nothing crosses it either way, a close
// neither (each side keeps its socket open until the proxy closes), so
// each end learns of the cut only by its own timeouts. Connections
// opened afterwards are forwarded as usual (the network is back, the
// old connections are not). A chunk being written when it is called is
// written before it returns, none after.
func (p *Proxy) Sever() {
	p.fwd.Lock()
	defer p.fwd.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range p.conns {
		l.severed.Store(true)
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
