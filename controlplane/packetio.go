package controlplane

import (
	"context"
	"errors"
	"io"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
)

// PacketIn is a frame the switch sent to the controller.
type PacketIn struct {
	Payload  []byte
	Metadata map[string]uint64
	Received time.Time
}

// PacketIns delivers packet-ins (dropped when the reader falls behind).
func (s *Session) PacketIns() <-chan PacketIn { return s.ins }

// PacketOut sends a frame through the switch (primary only).
//
// It does not wait for Run's goroutine (which may be busy writing): the
// frame is queued on the stream's sender, so keep-alives keep their pace
// while the switch is being programmed.
func (s *Session) PacketOut(ctx context.Context, port uint32, flags uint8, frame []byte) error {
	c := s.primaryConn.Load()
	if c == nil {
		return ErrNotPrimary
	}
	return c.packetOut(port, flags, frame)
}

// sendLoop is the stream's only writer.
func (c *conn) sendLoop(done <-chan struct{}) {
	for {
		select {
		case m := <-c.sendq:
			if err := c.stream.Send(m); err != nil {
				select {
				case c.sendErr <- err:
				default:
				}
				return
			}
		case <-done:
			return
		}
	}
}

func (c *conn) recvLoop(events chan<- streamEvent, done <-chan struct{}) {
	emit := func(ev streamEvent) bool {
		select {
		case events <- ev:
			return true
		case <-done:
			return false
		}
	}
	for {
		m, err := c.stream.Recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = errors.New("switch closed the stream")
			}
			emit(streamEvent{err: err})
			return
		}
		switch u := m.GetUpdate().(type) {
		case *p4v1.StreamMessageResponse_Arbitration:
			if !emit(streamEvent{arb: u.Arbitration}) {
				return
			}
		case *p4v1.StreamMessageResponse_Packet:
			c.s.stats.in.Add(1)
			p := PacketIn{Payload: u.Packet.GetPayload(), Metadata: c.pio.DecodePacketIn(u.Packet.GetMetadata()), Received: time.Now()}
			select {
			case c.s.ins <- p:
			default:
				c.s.stats.inDropped.Add(1)
			}
		case *p4v1.StreamMessageResponse_Digest:
			c.onDigest(u.Digest)
		case *p4v1.StreamMessageResponse_IdleTimeoutNotification:
			c.onIdle(u.IdleTimeoutNotification)
		case *p4v1.StreamMessageResponse_Error:
			c.s.log.Warn("switch reported a stream error", "code", codes.Code(u.Error.GetCanonicalCode()), "msg", u.Error.GetMessage())
		}
	}
}

func (c *conn) packetOut(port uint32, flags uint8, frame []byte) error {
	md := c.pio.PacketOutMetadata(port, flags)
	select {
	case c.sendq <- &p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Packet{
		Packet: &p4v1.PacketOut{Payload: frame, Metadata: md}}}:
	default:
		return errors.New("packet-out: stream send queue full")
	}
	c.s.stats.out.Add(1)
	return nil
}
