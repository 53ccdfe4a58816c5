// Package p4rtfloor is the floor of the programming benchmarks: a
// P4Runtime server that takes everything and keeps nothing (a controller
// can arbitrate, push a pipeline, read and write; every Write is
// acknowledged at once), and the minimal client that writes pre-built
// updates to it. What a controller reaches against this server is the
// controller's own rate; what the minimal client reaches is the rate of
// gRPC and protobuf on the host, which no controller can pass.
package p4rtfloor

import (
	"context"
	"io"
	"net"
	"sync"
	"sync/atomic"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/genproto/googleapis/rpc/code"
	rpcstatus "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// BatchSize is the updates per Write request of the minimal client.
const BatchSize = 500

// Server is a P4Runtime server that does nothing: every arbitration
// makes its sender primary, a pushed pipeline's cookie is remembered
// (so a controller does not push it again), reads return nothing and
// writes are acknowledged without being looked at (only counted).
type Server struct {
	p4v1.UnimplementedP4RuntimeServer

	mu     sync.Mutex
	cookie *p4v1.ForwardingPipelineConfig_Cookie

	updates atomic.Uint64
}

var _ p4v1.P4RuntimeServer = (*Server)(nil)

// Updates is the number of updates written so far.
func (s *Server) Updates() uint64 { return s.updates.Load() }

// Serve serves s on a listener of its own on 127.0.0.1 and returns its
// address and a function that stops it.
func (s *Server) Serve() (addr string, stop func(), err error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := grpc.NewServer(grpc.MaxRecvMsgSize(64 << 20))
	p4v1.RegisterP4RuntimeServer(srv, s)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(lis)
	}()
	return lis.Addr().String(), func() { srv.Stop(); <-done }, nil
}

// Write acknowledges the request.
func (s *Server) Write(_ context.Context, req *p4v1.WriteRequest) (*p4v1.WriteResponse, error) {
	s.updates.Add(uint64(len(req.GetUpdates())))
	return &p4v1.WriteResponse{}, nil
}

// Read returns nothing: the switch holds no entries.
func (s *Server) Read(*p4v1.ReadRequest, p4v1.P4Runtime_ReadServer) error { return nil }

// SetForwardingPipelineConfig remembers the cookie.
func (s *Server) SetForwardingPipelineConfig(_ context.Context, req *p4v1.SetForwardingPipelineConfigRequest) (*p4v1.SetForwardingPipelineConfigResponse, error) {
	if c := req.GetConfig().GetCookie(); c != nil {
		s.mu.Lock()
		s.cookie = c
		s.mu.Unlock()
	}
	return &p4v1.SetForwardingPipelineConfigResponse{}, nil
}

// GetForwardingPipelineConfig answers the cookie of the last pipeline
// pushed (FAILED_PRECONDITION before one was).
func (s *Server) GetForwardingPipelineConfig(context.Context, *p4v1.GetForwardingPipelineConfigRequest) (*p4v1.GetForwardingPipelineConfigResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cookie == nil {
		return nil, status.Error(codes.FailedPrecondition, "no pipeline")
	}
	return &p4v1.GetForwardingPipelineConfigResponse{Config: &p4v1.ForwardingPipelineConfig{
		Cookie: &p4v1.ForwardingPipelineConfig_Cookie{Cookie: s.cookie.GetCookie()}}}, nil
}

// StreamChannel answers every arbitration with its own election id and
// OK: the sender is primary. Anything else on the stream is dropped.
func (s *Server) StreamChannel(stream p4v1.P4Runtime_StreamChannelServer) error {
	for {
		m, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		a := m.GetArbitration()
		if a == nil {
			continue
		}
		err = stream.Send(&p4v1.StreamMessageResponse{Update: &p4v1.StreamMessageResponse_Arbitration{
			Arbitration: &p4v1.MasterArbitrationUpdate{DeviceId: a.GetDeviceId(), Role: a.GetRole(), ElectionId: a.GetElectionId(),
				Status: &rpcstatus.Status{Code: int32(code.Code_OK)}}}})
		if err != nil {
			return err
		}
	}
}

// Requests builds the minimal client's requests: every entity as an
// INSERT (a value set or a default entry as the MODIFY P4Runtime allows
// it), BatchSize per
// request, for device 1 with election id 1.
func Requests(ents []*p4v1.Entity) []*p4v1.WriteRequest {
	var reqs []*p4v1.WriteRequest
	for i := 0; i < len(ents); i += BatchSize {
		req := &p4v1.WriteRequest{DeviceId: 1, ElectionId: &p4v1.Uint128{Low: 1}, Atomicity: p4v1.WriteRequest_ROLLBACK_ON_ERROR}
		for _, e := range ents[i:min(i+BatchSize, len(ents))] {
			typ := p4v1.Update_INSERT
			if e.GetValueSetEntry() != nil || e.GetTableEntry().GetIsDefaultAction() {
				typ = p4v1.Update_MODIFY
			}
			req.Updates = append(req.Updates, &p4v1.Update{Type: typ, Entity: e})
		}
		reqs = append(reqs, req)
	}
	return reqs
}

// Client is the minimal client: one connection, one request at a time.
type Client struct {
	cc *grpc.ClientConn
	p4v1.P4RuntimeClient
	cancel context.CancelFunc // ends the stream (Primary)
}

// Dial connects a minimal client to addr.
func Dial(addr string) (*Client, error) {
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	return &Client{cc: cc, P4RuntimeClient: p4v1.NewP4RuntimeClient(cc), cancel: func() {}}, nil
}

// Primary makes the client primary for device 1 with election id 1 (its
// stream stays open until Close) and pushes the pipeline, as a switch
// that keeps what is written needs before the requests.
func (c *Client) Primary(ctx context.Context, info *p4configv1.P4Info, deviceConfig []byte) error {
	sctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	stream, err := c.StreamChannel(sctx)
	if err != nil {
		return err
	}
	el := &p4v1.Uint128{Low: 1}
	if err := stream.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Arbitration{
		Arbitration: &p4v1.MasterArbitrationUpdate{DeviceId: 1, ElectionId: el}}}); err != nil {
		return err
	}
	if _, err := stream.Recv(); err != nil {
		return err
	}
	_, err = c.SetForwardingPipelineConfig(ctx, &p4v1.SetForwardingPipelineConfigRequest{DeviceId: 1, ElectionId: el,
		Action: p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT,
		Config: &p4v1.ForwardingPipelineConfig{P4Info: info, P4DeviceConfig: deviceConfig}})
	return err
}

// Close ends the stream and closes the connection.
func (c *Client) Close() error {
	c.cancel()
	return c.cc.Close()
}

// WriteAll sends the requests one after the other, each after the
// previous one was acknowledged.
func (c *Client) WriteAll(ctx context.Context, reqs []*p4v1.WriteRequest) error {
	for _, req := range reqs {
		if _, err := c.Write(ctx, req); err != nil {
			return err
		}
	}
	return nil
}
