package sim

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gopacket/gopacket/afpacket"
	"github.com/vishvananda/netlink"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// MaxFrame is the largest frame a port carries (jumbo, without FCS).
const MaxFrame = 9216

// ErrPortDown is returned by Send on a port whose link or admin state is down.
var ErrPortDown = errors.New("port down")

// Port is one data-plane port of the software switch.
type Port interface {
	// Run delivers every received frame to rx (the slice is only valid
	// during the call) until ctx is done or the port fails.
	Run(ctx context.Context, rx func(frame []byte)) error
	// Send transmits one frame.
	Send(frame []byte) error
	// Carrier reports the physical link state; changes are signalled on
	// the channel of CarrierChanges.
	Carrier() bool
	CarrierChanges() <-chan struct{}
	Close() error
}

// ---- in-memory ports -------------------------------------------------------

// MemPort is an in-memory port: frames sent by the switch come out of the
// peer end, and frames sent into the peer end reach the switch. For tests
// and the in-process demo.
type MemPort struct {
	in      chan []byte // towards the switch
	out     chan []byte // from the switch
	carrier atomic.Bool
	changes chan struct{}
	closed  chan struct{}
	once    sync.Once
}

// MemPeer is the far end of a MemPort (the cable's other end).
type MemPeer struct{ p *MemPort }

// NewMemPort returns a connected port and its peer, carrier up.
func NewMemPort(queue int) (*MemPort, *MemPeer) {
	p := &MemPort{in: make(chan []byte, queue), out: make(chan []byte, queue),
		changes: make(chan struct{}, 1), closed: make(chan struct{})}
	p.carrier.Store(true)
	return p, &MemPeer{p: p}
}

// Run implements Port.
func (p *MemPort) Run(ctx context.Context, rx func([]byte)) error {
	for {
		select {
		case f := <-p.in:
			rx(f)
		case <-ctx.Done():
			return ctx.Err()
		case <-p.closed:
			return nil
		}
	}
}

// Send implements Port: the frame is copied to the peer (dropped when the
// peer does not read, like a wire would).
func (p *MemPort) Send(frame []byte) error {
	if !p.carrier.Load() {
		return ErrPortDown
	}
	select {
	case p.out <- append([]byte(nil), frame...):
	default:
	}
	return nil
}

// Carrier implements Port.
func (p *MemPort) Carrier() bool { return p.carrier.Load() }

// CarrierChanges implements Port.
func (p *MemPort) CarrierChanges() <-chan struct{} { return p.changes }

// Close implements Port.
func (p *MemPort) Close() error {
	p.once.Do(func() { close(p.closed) })
	return nil
}

// Send puts a frame on the wire towards the switch.
func (m *MemPeer) Send(frame []byte) error {
	if !m.p.carrier.Load() {
		return ErrPortDown
	}
	select {
	case m.p.in <- append([]byte(nil), frame...):
		return nil
	case <-m.p.closed:
		return errors.New("port closed")
	}
}

// Recv returns the next frame the switch sent, or an error after timeout.
func (m *MemPeer) Recv(timeout time.Duration) ([]byte, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case f := <-m.p.out:
		return f, nil
	case <-t.C:
		return nil, errors.New("no frame")
	}
}

// SetCarrier pulls or plugs the cable.
func (m *MemPeer) SetCarrier(up bool) {
	if m.p.carrier.Swap(up) != up {
		select {
		case m.p.changes <- struct{}{}:
		default:
		}
	}
}

// ---- AF_PACKET ports ---------------------------------------------------------

// AFPacketPort is a port on a Linux interface through a TPACKET_V3 ring.
// VLAN tags the kernel strips on receive are put back, so the pipeline sees
// the frame as it was on the wire; the switch's own transmissions are
// filtered out of the ring.
type AFPacketPort struct {
	ifname  string
	tp      *afpacket.TPacket
	carrier atomic.Bool
	changes chan struct{}
	stop    chan struct{}
	once    sync.Once
	// The ring is unmapped only when no reader is in it: Run closes the
	// socket on its way out; Close does it only when Run is not running.
	mu      sync.Mutex
	running bool
	closed  bool
	exited  chan struct{}
	// sendMu keeps Send (other ports' goroutines, packet-outs) off the
	// socket while it is being closed: a write racing the close could
	// reach a reused descriptor.
	sendMu   sync.RWMutex
	sendDone bool
}

// OpenAFPacket opens the interface ifname (in the caller's namespace).
func OpenAFPacket(ifname string) (*AFPacketPort, error) {
	tp, err := afpacket.NewTPacket(
		afpacket.OptInterface(ifname),
		afpacket.OptTPacketVersion(afpacket.TPacketVersion3),
		afpacket.OptFrameSize(16384), // a 9216-byte frame plus headers
		afpacket.OptBlockSize(16384*64),
		afpacket.OptNumBlocks(32),
		afpacket.OptBlockTimeout(time.Millisecond),
		afpacket.OptPollTimeout(100*time.Millisecond),
		afpacket.OptAddVLANHeader(true),
	)
	if err != nil {
		return nil, fmt.Errorf("sim: port %s: %w", ifname, err)
	}
	// Drop what we send ourselves (pkttype PACKET_OUTGOING).
	prog, err := bpf.Assemble([]bpf.Instruction{
		bpf.LoadExtension{Num: bpf.ExtType},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.PACKET_OUTGOING, SkipTrue: 1},
		bpf.RetConstant{Val: 0x40000},
		bpf.RetConstant{Val: 0},
	})
	if err == nil {
		err = tp.SetBPF(prog)
	}
	if err != nil {
		tp.Close()
		return nil, fmt.Errorf("sim: port %s: filter: %w", ifname, err)
	}
	if err := tp.SetPromiscuous(true); err != nil {
		tp.Close()
		return nil, fmt.Errorf("sim: port %s: promiscuous: %w", ifname, err)
	}
	p := &AFPacketPort{ifname: ifname, tp: tp, changes: make(chan struct{}, 1), stop: make(chan struct{})}
	// Follow the carrier from here: the netlink socket is created in the
	// caller's namespace, the interface's, even when Run later runs on a
	// thread of another namespace.
	updates := make(chan netlink.LinkUpdate, 16)
	if err := netlink.LinkSubscribe(updates, p.stop); err == nil {
		go p.followCarrier(updates)
	}
	if l, err := netlink.LinkByName(ifname); err == nil {
		p.carrier.Store(linkUp(l))
	}
	return p, nil
}

// followCarrier tracks the interface's oper state until the subscription
// ends (Close).
func (p *AFPacketPort) followCarrier(updates <-chan netlink.LinkUpdate) {
	for u := range updates {
		if u.Attrs().Name != p.ifname {
			continue
		}
		up := linkUp(u.Link)
		if p.carrier.Swap(up) != up {
			select {
			case p.changes <- struct{}{}:
			default:
			}
		}
	}
}

func linkUp(l netlink.Link) bool {
	a := l.Attrs()
	return a.OperState == netlink.OperUp || (a.OperState == netlink.OperUnknown && a.RawFlags&unix.IFF_RUNNING != 0)
}

// Run implements Port.
func (p *AFPacketPort) Run(ctx context.Context, rx func([]byte)) error {
	p.mu.Lock()
	if p.closed || p.running {
		p.mu.Unlock()
		return errors.New("sim: port closed or already running")
	}
	p.running = true
	p.exited = make(chan struct{})
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.running = false
		if p.closed {
			p.closeSocket() // Close left the unmapping to us
		}
		close(p.exited)
		p.mu.Unlock()
	}()
	var tagBuf []byte
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-p.stop:
			return nil
		default:
		}
		data, ci, err := p.tp.ZeroCopyReadPacketData()
		switch {
		case err == nil:
			data, tagBuf = restoreZeroTCITag(data, ci.AncillaryData, tagBuf)
			rx(data)
		case errors.Is(err, afpacket.ErrTimeout):
		case errors.Is(err, unix.EINTR):
		default:
			select {
			case <-p.stop:
				return nil
			default:
			}
			return fmt.Errorf("sim: port %s: receive: %w", p.ifname, err)
		}
	}
}

// restoreZeroTCITag puts back a VLAN tag whose TCI is 0 (a priority tag
// with PCP 0 and VID 0). The kernel strips the outermost tag of every
// received frame into packet metadata; gopacket's afpacket
// (OptAddVLANHeader) writes it back into the frame only when the TCI is
// not 0, although the ring marks the tag present (TP_STATUS_VLAN_VALID,
// which it reports as AncillaryVLAN{VLAN: 0}). Without this the switch
// would forward such a frame without its tag.
//
// A tag that afpacket already put back has a non-zero TCI with VID 0
// (priority bits set): that frame is returned as it is. The tag restored
// here has TPID 0x8100: afpacket does not report the TPID, and an all-zero
// 802.1ad tag is a limit stated in the package documentation. The result
// lives in buf (grown as needed), valid until the next call.
func restoreZeroTCITag(data []byte, anc []interface{}, buf []byte) (frame, nextBuf []byte) {
	tagged := false
	for _, a := range anc {
		if v, ok := a.(afpacket.AncillaryVLAN); ok && v.VLAN == 0 {
			tagged = true
		}
	}
	if !tagged || len(data) < 12 {
		return data, buf
	}
	if len(data) >= 16 {
		tpid := uint16(data[12])<<8 | uint16(data[13])
		tci := uint16(data[14])<<8 | uint16(data[15])
		if (tpid == 0x8100 || tpid == 0x88a8) && tci != 0 && tci&0x0fff == 0 {
			return data, buf // afpacket put the priority tag back
		}
	}
	n := len(data) + 4
	if cap(buf) < n {
		buf = make([]byte, n, max(n, MaxFrame+4))
	}
	buf = buf[:n]
	copy(buf, data[:12])
	buf[12], buf[13], buf[14], buf[15] = 0x81, 0x00, 0, 0
	copy(buf[16:], data[12:])
	return buf, buf
}

// closeSocket closes the socket once no Send is in it. Called with p.mu
// held.
func (p *AFPacketPort) closeSocket() {
	p.sendMu.Lock()
	defer p.sendMu.Unlock()
	p.sendDone = true
	p.tp.Close()
}

// Send implements Port.
func (p *AFPacketPort) Send(frame []byte) error {
	p.sendMu.RLock()
	defer p.sendMu.RUnlock()
	if p.sendDone {
		return ErrPortDown
	}
	if err := p.tp.WritePacketData(frame); err != nil {
		if errors.Is(err, unix.ENETDOWN) || errors.Is(err, unix.ENXIO) {
			return ErrPortDown
		}
		return fmt.Errorf("sim: port %s: send: %w", p.ifname, err)
	}
	return nil
}

// Carrier implements Port.
func (p *AFPacketPort) Carrier() bool { return p.carrier.Load() }

// CarrierChanges implements Port.
func (p *AFPacketPort) CarrierChanges() <-chan struct{} { return p.changes }

// Close implements Port. It waits for Run to leave the ring.
func (p *AFPacketPort) Close() error {
	p.once.Do(func() {
		close(p.stop)
		p.mu.Lock()
		p.closed = true
		running, exited := p.running, p.exited
		if !running {
			p.closeSocket()
		}
		p.mu.Unlock()
		if running {
			<-exited
		}
	})
	return nil
}
