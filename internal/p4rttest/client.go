// Package p4rttest is a small, strict P4Runtime client for tests: one
// primary session with a stream, pipeline push, batched writes, reads,
// packet-out and packet-in. The product's controller lives in
// controlplane; this is only for checking targets.
package p4rttest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/prototext"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
)

// Client is a primary controller session.
type Client struct {
	DeviceID uint64
	Election *p4v1.Uint128

	conn   *grpc.ClientConn
	rt     p4v1.P4RuntimeClient
	stream p4v1.P4Runtime_StreamChannelClient
	cancel context.CancelFunc
	ins    chan *p4v1.PacketIn
	dgs    chan *p4v1.DigestList
	idle   chan *p4v1.IdleTimeoutNotification
	done   chan struct{}
	schema *p4src.Schema
	pio    *wire.PacketIO
}

// PacketIn is a received packet-in with its metadata by name.
type PacketIn struct {
	Payload  []byte
	Metadata map[string][]byte
}

// Dial connects, opens the stream and becomes primary (election id 1).
func Dial(ctx context.Context, addr string, deviceID uint64, schema *p4src.Schema) (*Client, error) {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(64<<20)))
	if err != nil {
		return nil, fmt.Errorf("p4rttest: dial %s: %w", addr, err)
	}
	sctx, cancel := context.WithCancel(context.Background())
	c := &Client{DeviceID: deviceID, Election: &p4v1.Uint128{Low: 1}, conn: conn, rt: p4v1.NewP4RuntimeClient(conn),
		cancel: cancel, ins: make(chan *p4v1.PacketIn, 1024), dgs: make(chan *p4v1.DigestList, 1024), idle: make(chan *p4v1.IdleTimeoutNotification, 1024), done: make(chan struct{}), schema: schema}
	if c.pio, err = wire.NewPacketIO(schema); err != nil {
		c.Close()
		return nil, fmt.Errorf("p4rttest: %w", err)
	}
	c.stream, err = c.rt.StreamChannel(sctx)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("p4rttest: stream: %w", err)
	}
	if err := c.stream.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Arbitration{
		Arbitration: &p4v1.MasterArbitrationUpdate{DeviceId: deviceID, ElectionId: c.Election}}}); err != nil {
		c.Close()
		return nil, fmt.Errorf("p4rttest: arbitration: %w", err)
	}
	arb := make(chan error, 1)
	go c.recv(arb)
	select {
	case err := <-arb:
		if err != nil {
			c.Close()
			return nil, err
		}
	case <-ctx.Done():
		c.Close()
		return nil, fmt.Errorf("p4rttest: arbitration: %w", ctx.Err())
	}
	return c, nil
}

func (c *Client) recv(arb chan<- error) {
	defer close(c.done)
	first := true
	for {
		m, err := c.stream.Recv()
		if err != nil {
			if first {
				arb <- fmt.Errorf("p4rttest: stream: %w", err)
			}
			return
		}
		switch u := m.GetUpdate().(type) {
		case *p4v1.StreamMessageResponse_Arbitration:
			if first {
				first = false
				if code := u.Arbitration.GetStatus().GetCode(); code != 0 {
					arb <- fmt.Errorf("p4rttest: not primary: %s", u.Arbitration.GetStatus().GetMessage())
				} else {
					arb <- nil
				}
			}
		case *p4v1.StreamMessageResponse_Packet:
			select {
			case c.ins <- u.Packet:
			default: // tests read what they expect; drop the excess
			}
		case *p4v1.StreamMessageResponse_IdleTimeoutNotification:
			select {
			case c.idle <- u.IdleTimeoutNotification:
			default:
			}
		case *p4v1.StreamMessageResponse_Digest:
			select {
			case c.dgs <- u.Digest:
			default:
			}
			// Acknowledged at once, as a controller does.
			c.stream.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_DigestAck{
				DigestAck: &p4v1.DigestListAck{DigestId: u.Digest.GetDigestId(), ListId: u.Digest.GetListId()}}})
		}
	}
}

// SetPipeline pushes the P4Info and device config (VERIFY_AND_COMMIT).
func (c *Client) SetPipeline(ctx context.Context, info *p4configv1.P4Info, deviceConfig []byte) error {
	_, err := c.rt.SetForwardingPipelineConfig(ctx, &p4v1.SetForwardingPipelineConfigRequest{
		DeviceId: c.DeviceID, ElectionId: c.Election,
		Action: p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT,
		Config: &p4v1.ForwardingPipelineConfig{P4Info: info, P4DeviceConfig: deviceConfig,
			Cookie: &p4v1.ForwardingPipelineConfig_Cookie{Cookie: 1}},
	})
	if err != nil {
		return fmt.Errorf("p4rttest: set pipeline: %w", err)
	}
	return nil
}

// Write sends updates in requests of at most batch updates.
func (c *Client) Write(ctx context.Context, updates []*p4v1.Update, batch int) error {
	for len(updates) > 0 {
		n := min(batch, len(updates))
		_, err := c.rt.Write(ctx, &p4v1.WriteRequest{DeviceId: c.DeviceID, ElectionId: c.Election,
			Atomicity: p4v1.WriteRequest_CONTINUE_ON_ERROR, Updates: updates[:n]})
		if err != nil {
			return fmt.Errorf("p4rttest: write: %w%s", err, details(err, updates[:n]))
		}
		updates = updates[n:]
	}
	return nil
}

// RawWrite sends one Write request with the given atomicity.
func (c *Client) RawWrite(ctx context.Context, atomicity p4v1.WriteRequest_Atomicity, updates []*p4v1.Update) (*p4v1.WriteResponse, error) {
	return c.rt.Write(ctx, &p4v1.WriteRequest{DeviceId: c.DeviceID, ElectionId: c.Election, Atomicity: atomicity, Updates: updates})
}

// details lists the failed updates of a Write error.
func details(err error, us []*p4v1.Update) string {
	var b strings.Builder
	for i, d := range status.Convert(err).Details() {
		pe, ok := d.(*p4v1.Error)
		if !ok || pe.GetCanonicalCode() == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n  update %d (%s %s): code %d: %s", i, us[i].GetType(), prototext.MarshalOptions{}.Format(us[i].GetEntity()), pe.GetCanonicalCode(), pe.GetMessage())
	}
	return b.String()
}

// Read returns every entity matching the given (wildcard) entities.
func (c *Client) Read(ctx context.Context, entities ...*p4v1.Entity) ([]*p4v1.Entity, error) {
	rc, err := c.rt.Read(ctx, &p4v1.ReadRequest{DeviceId: c.DeviceID, Entities: entities})
	if err != nil {
		return nil, fmt.Errorf("p4rttest: read: %w", err)
	}
	var out []*p4v1.Entity
	for {
		r, err := rc.Recv()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("p4rttest: read: %w", err)
		}
		out = append(out, r.GetEntities()...)
	}
}

// PacketOut sends a frame with the packet_out controller header.
func (c *Client) PacketOut(port uint32, flags uint8, frame []byte) error {
	md := c.pio.PacketOutMetadata(port, flags)
	return c.stream.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Packet{
		Packet: &p4v1.PacketOut{Payload: frame, Metadata: md}}})
}

// PacketIn waits for the next packet-in.
func (c *Client) PacketIn(timeout time.Duration) (*PacketIn, error) {
	select {
	case p := <-c.ins:
		out := &PacketIn{Payload: p.GetPayload(), Metadata: map[string][]byte{}}
		for _, m := range p.GetMetadata() {
			out.Metadata[c.pio.InName(m.GetMetadataId())] = m.GetValue()
		}
		return out, nil
	case <-time.After(timeout):
		return nil, errors.New("p4rttest: no packet-in")
	case <-c.done:
		return nil, errors.New("p4rttest: stream closed")
	}
}

// DigestList waits for the next digest list (acknowledged already).
func (c *Client) DigestList(timeout time.Duration) (*p4v1.DigestList, error) {
	select {
	case d := <-c.dgs:
		return d, nil
	case <-time.After(timeout):
		return nil, errors.New("p4rttest: no digest")
	case <-c.done:
		return nil, errors.New("p4rttest: stream closed")
	}
}

// IdleNotification waits for the next idle timeout notification.
func (c *Client) IdleNotification(timeout time.Duration) (*p4v1.IdleTimeoutNotification, error) {
	select {
	case n := <-c.idle:
		return n, nil
	case <-time.After(timeout):
		return nil, errors.New("p4rttest: no idle timeout notification")
	case <-c.done:
		return nil, errors.New("p4rttest: stream closed")
	}
}

// Close ends the session.
func (c *Client) Close() error {
	c.cancel()
	return c.conn.Close()
}

// Uint decodes a big-endian byte string.
func Uint(b []byte) uint64 { return wire.Uint(b) }
