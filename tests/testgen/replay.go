package testgen

import (
	"errors"
	"fmt"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/sim/dataplane"
)

// Replay runs case c on a fresh data plane d (of the case's program):
// writes its entries, sends its packet and compares what comes out with
// what P4Testgen expects. nil: they agree.
func Replay(d *dataplane.Dataplane, c *Case) error {
	us, err := c.Updates(d.Schema())
	if err != nil {
		return err
	}
	for i, err := range d.Write(us, p4v1.WriteRequest_CONTINUE_ON_ERROR) {
		if err == nil {
			continue
		}
		if i < len(c.Entries) {
			return fmt.Errorf("%s: writing entry %d (%s): %w", c.Name, i+1, c.Entries[i].Table, err)
		}
		return fmt.Errorf("%s: writing a register: %w", c.Name, err)
	}
	r := d.Process(c.InPort, c.Packet, make([]byte, 0, len(c.Packet)+64))
	return c.check(r)
}

// check compares a data-plane result with the case's expectation.
func (c *Case) check(r dataplane.Result) error {
	if c.Expect == nil {
		if r.Kind == dataplane.Drop {
			return nil
		}
		return fmt.Errorf("%s: expected a drop, got %s out of port %d", c.Name, r.Kind, r.Port)
	}
	if r.Kind == dataplane.Drop {
		return fmt.Errorf("%s: expected a packet out of port %d, the switch dropped it (reason %d)", c.Name, c.Expect.Port, r.DropReason)
	}
	if r.Port != c.Expect.Port {
		return fmt.Errorf("%s: out of port %d, expected %d", c.Name, r.Port, c.Expect.Port)
	}
	if r.Kind == dataplane.ToCPU && r.PacketIn.Reason != 0 {
		// A packet-in leaves the CPU port with its header in front.
		return c.Expect.match(cpuPortBytes(uint64(r.PacketIn.IngressPort), r.PacketIn.Reason, r.PacketIn.RxTimestamp, r.Frame))
	}
	return c.Expect.match(r.Frame)
}

// cpuPortBytes is a packet-in as the CPU port carries it: the packet_in
// header (ingress_port 9 bits, 7 bits of padding, reason 8, rx_timestamp
// 48), then the payload.
func cpuPortBytes(port uint64, reason uint8, rxTimestamp uint64, payload []byte) []byte {
	hdr := make([]byte, 9, 9+len(payload))
	hdr[0], hdr[1] = byte(port>>1), byte(port<<7)
	hdr[2] = reason
	for i := 0; i < 6; i++ {
		hdr[3+i] = byte(rxTimestamp >> (8 * (5 - i)))
	}
	return append(hdr, payload...)
}

var errMismatch = errors.New("packet differs")

// match compares a packet with the expected one under its mask.
func (x *Expect) match(got []byte) error {
	if len(got) != len(x.Data) {
		return fmt.Errorf("%w: %d bytes, expected %d", errMismatch, len(got), len(x.Data))
	}
	for i := range got {
		if got[i]&x.Mask[i] != x.Data[i]&x.Mask[i] {
			return fmt.Errorf("%w at byte %d: %#02x, expected %#02x (mask %#02x)\n got  %x\n want %x",
				errMismatch, i, got[i], x.Data[i], x.Mask[i], got, x.Data)
		}
	}
	return nil
}
