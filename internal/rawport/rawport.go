// Package rawport sends and receives whole Ethernet frames on a Linux
// interface through an AF_PACKET socket, optionally inside a network
// namespace. Received frames get back the VLAN tag that the kernel strips
// into packet metadata (PACKET_AUXDATA), so callers see the bytes that were
// on the wire.
package rawport

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// ErrTimeout is returned by Recv when no frame arrived in time.
var ErrTimeout = errors.New("rawport: receive timeout")

// Port is an AF_PACKET socket bound to one interface.
type Port struct {
	fd    int
	name  string
	buf   []byte
	oob   []byte
	close bool
}

// Open binds a socket to the interface ifname in the network namespace at
// nsPath ("" = the caller's namespace, e.g. /var/run/netns/x otherwise).
func Open(nsPath, ifname string) (*Port, error) {
	var fd, ifindex int
	err := inNetns(nsPath, func() error {
		ifi, err := net.InterfaceByName(ifname)
		if err != nil {
			return err
		}
		ifindex = ifi.Index
		// Protocol 0: the socket receives nothing until it is bound to
		// the interface below. Created with ETH_P_ALL it would queue
		// frames of every interface in the namespace meanwhile.
		fd, err = unix.Socket(unix.AF_PACKET, unix.SOCK_RAW|unix.SOCK_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("rawport: open %s: %w", ifname, err)
	}
	p := &Port{fd: fd, name: ifname, buf: make([]byte, 16384), oob: make([]byte, 256)}
	if err := unix.SetsockoptInt(fd, unix.SOL_PACKET, unix.PACKET_AUXDATA, 1); err != nil {
		p.Close()
		return nil, fmt.Errorf("rawport: %s: auxdata: %w", ifname, err)
	}
	// Only frames received from the wire, not our own transmissions.
	if err := unix.SetsockoptInt(fd, unix.SOL_PACKET, unix.PACKET_IGNORE_OUTGOING, 1); err != nil {
		p.Close()
		return nil, fmt.Errorf("rawport: %s: ignore outgoing: %w", ifname, err)
	}
	sa := &unix.SockaddrLinklayer{Protocol: htons(unix.ETH_P_ALL), Ifindex: ifindex}
	if err := unix.Bind(fd, sa); err != nil {
		p.Close()
		return nil, fmt.Errorf("rawport: bind %s: %w", ifname, err)
	}
	return p, nil
}

// Name is the interface name.
func (p *Port) Name() string { return p.name }

// SetRecvBuffer sets the socket's receive buffer to bytes, beyond the
// system's rmem_max when the caller may (SO_RCVBUFFORCE needs
// CAP_NET_ADMIN), so a burst is not dropped before the reader catches up.
func (p *Port) SetRecvBuffer(bytes int) error {
	if err := unix.SetsockoptInt(p.fd, unix.SOL_SOCKET, unix.SO_RCVBUFFORCE, bytes); err == nil {
		return nil
	}
	if err := unix.SetsockoptInt(p.fd, unix.SOL_SOCKET, unix.SO_RCVBUF, bytes); err != nil {
		return fmt.Errorf("rawport: %s: receive buffer: %w", p.name, err)
	}
	return nil
}

// Send transmits one frame (without FCS).
func (p *Port) Send(frame []byte) error {
	if _, err := unix.Write(p.fd, frame); err != nil {
		return fmt.Errorf("rawport: send on %s: %w", p.name, err)
	}
	return nil
}

// Recv returns the next frame, with its VLAN tag restored, or ErrTimeout.
func (p *Port) Recv(timeout time.Duration) ([]byte, error) {
	deadline := time.Now().Add(timeout)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return nil, ErrTimeout
		}
		tv := unix.NsecToTimeval(left.Nanoseconds())
		if err := unix.SetsockoptTimeval(p.fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv); err != nil {
			return nil, err
		}
		n, oobn, _, _, err := unix.Recvmsg(p.fd, p.buf, p.oob, 0)
		if err != nil {
			if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR) {
				continue
			}
			return nil, fmt.Errorf("rawport: recv on %s: %w", p.name, err)
		}
		return restoreVLAN(p.buf[:n], p.oob[:oobn]), nil
	}
}

// Drain discards frames until none arrives for quiet.
func (p *Port) Drain(quiet time.Duration) {
	for {
		if _, err := p.Recv(quiet); err != nil {
			return
		}
	}
}

// Close closes the socket. It is safe to call twice.
func (p *Port) Close() error {
	if p.close {
		return nil
	}
	p.close = true
	return unix.Close(p.fd)
}

// restoreVLAN re-inserts the tag the kernel moved into auxdata.
func restoreVLAN(frame, oob []byte) []byte {
	out := append([]byte(nil), frame...)
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return out
	}
	for _, m := range msgs {
		if m.Header.Level != unix.SOL_PACKET || m.Header.Type != unix.PACKET_AUXDATA {
			continue
		}
		if len(m.Data) < int(unsafe.Sizeof(unix.TpacketAuxdata{})) {
			continue
		}
		aux := (*unix.TpacketAuxdata)(unsafe.Pointer(&m.Data[0]))
		if aux.Status&unix.TP_STATUS_VLAN_VALID == 0 || len(out) < 12 {
			continue
		}
		tpid := uint16(unix.ETH_P_8021Q)
		if aux.Status&unix.TP_STATUS_VLAN_TPID_VALID != 0 {
			tpid = aux.Vlan_tpid
		}
		tag := make([]byte, 4)
		binary.BigEndian.PutUint16(tag[0:2], tpid)
		binary.BigEndian.PutUint16(tag[2:4], aux.Vlan_tci)
		out = append(out[:12], append(tag, out[12:]...)...)
	}
	return out
}

// inNetns runs fn on a thread switched into the namespace at nsPath.
func inNetns(nsPath string, fn func() error) error {
	if nsPath == "" {
		return fn()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	orig, err := os.Open("/proc/thread-self/ns/net")
	if err != nil {
		return err
	}
	defer orig.Close()
	target, err := os.Open(nsPath)
	if err != nil {
		return err
	}
	defer target.Close()
	if err := unix.Setns(int(target.Fd()), unix.CLONE_NEWNET); err != nil {
		return fmt.Errorf("setns %s: %w", nsPath, err)
	}
	ferr := fn()
	if err := unix.Setns(int(orig.Fd()), unix.CLONE_NEWNET); err != nil {
		// The thread is unusable: keep it locked so it dies with the goroutine.
		runtime.LockOSThread()
		return fmt.Errorf("setns back: %w", err)
	}
	return ferr
}

// InNetns runs fn with the calling goroutine's thread in the network
// namespace at nsPath (for setup that must happen there).
func InNetns(nsPath string, fn func() error) error { return inNetns(nsPath, fn) }

func htons(v uint16) uint16 { return v<<8 | v>>8 }
