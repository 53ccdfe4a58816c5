package sim

import (
	"context"
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
)

var errFake = errors.New("fake: rejected")

// fakeEntities records writes; updates whose entity is a value set fail.
type fakeEntities struct {
	mu     sync.Mutex
	writes int
	resets int
}

func (f *fakeEntities) Write(us []*p4v1.Update, _ p4v1.WriteRequest_Atomicity) []error {
	f.mu.Lock()
	defer f.mu.Unlock()
	errs := make([]error, len(us))
	for i, u := range us {
		if u.GetEntity().GetValueSetEntry() != nil {
			errs[i] = errFake
			continue
		}
		f.writes++
	}
	return errs
}

func (f *fakeEntities) Read(_ []*p4v1.Entity, yield func(*p4v1.Entity) bool) error {
	for i := 0; i < 2500; i++ {
		if !yield(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: 1}}}) {
			return nil
		}
	}
	return nil
}

func (f *fakeEntities) Reset() {
	f.mu.Lock()
	f.resets++
	f.mu.Unlock()
}

type pktOut struct {
	port  uint32
	flags uint8
	frame []byte
}

type rig struct {
	srv  *P4RTServer
	ents *fakeEntities
	rt   p4v1.P4RuntimeClient
	outs chan pktOut
}

func newRig(t *testing.T) *rig {
	t.Helper()
	schema, err := p4src.Load()
	require.NoError(t, err)
	r := &rig{ents: &fakeEntities{}, outs: make(chan pktOut, 10)}
	r.srv = NewP4RTServer(1, schema, r.ents, func(p uint32, f uint8, b []byte) error {
		r.outs <- pktOut{p, f, b}
		return nil
	}, func(error) codes.Code { return codes.InvalidArgument }, nil)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	g := grpc.NewServer()
	p4v1.RegisterP4RuntimeServer(g, r.srv)
	go g.Serve(lis)
	t.Cleanup(g.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	r.rt = p4v1.NewP4RuntimeClient(conn)
	return r
}

type ctl struct {
	s      p4v1.P4Runtime_StreamChannelClient
	cancel context.CancelFunc
	arb    chan *p4v1.MasterArbitrationUpdate
	pkts   chan *p4v1.PacketIn
	errs   chan *p4v1.StreamError
	closed chan error
}

func (r *rig) connect(t *testing.T, election uint64) *ctl {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s, err := r.rt.StreamChannel(ctx)
	require.NoError(t, err)
	c := &ctl{s: s, cancel: cancel, arb: make(chan *p4v1.MasterArbitrationUpdate, 10),
		pkts: make(chan *p4v1.PacketIn, 10), errs: make(chan *p4v1.StreamError, 10), closed: make(chan error, 1)}
	t.Cleanup(cancel)
	go func() {
		for {
			m, err := s.Recv()
			if err != nil {
				c.closed <- err
				return
			}
			switch u := m.GetUpdate().(type) {
			case *p4v1.StreamMessageResponse_Arbitration:
				c.arb <- u.Arbitration
			case *p4v1.StreamMessageResponse_Packet:
				c.pkts <- u.Packet
			case *p4v1.StreamMessageResponse_Error:
				c.errs <- u.Error
			}
		}
	}()
	c.bid(t, election)
	return c
}

func (c *ctl) bid(t *testing.T, election uint64) {
	t.Helper()
	require.NoError(t, c.s.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Arbitration{
		Arbitration: &p4v1.MasterArbitrationUpdate{DeviceId: 1, ElectionId: &p4v1.Uint128{Low: election}}}}))
}

func (c *ctl) nextArb(t *testing.T) *p4v1.MasterArbitrationUpdate {
	t.Helper()
	select {
	case a := <-c.arb:
		return a
	case err := <-c.closed:
		t.Fatalf("stream closed: %v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("no arbitration update")
	}
	return nil
}

func (r *rig) push(t *testing.T, election uint64, action p4v1.SetForwardingPipelineConfigRequest_Action) error {
	schema, _ := p4src.Load()
	_, err := r.rt.SetForwardingPipelineConfig(context.Background(), &p4v1.SetForwardingPipelineConfigRequest{
		DeviceId: 1, ElectionId: &p4v1.Uint128{Low: election}, Action: action,
		Config: &p4v1.ForwardingPipelineConfig{P4Info: schema.Info, Cookie: &p4v1.ForwardingPipelineConfig_Cookie{Cookie: 42}}})
	return err
}

func TestArbitrationPrimaryBackupTakeover(t *testing.T) {
	r := newRig(t)
	a := r.connect(t, 10)
	assert.Equal(t, int32(code.Code_OK), a.nextArb(t).GetStatus().GetCode(), "first controller is primary")
	b := r.connect(t, 5)
	assert.Equal(t, int32(code.Code_ALREADY_EXISTS), b.nextArb(t).GetStatus().GetCode(), "lower id is backup")

	// Duplicate election id is refused.
	d := r.connect(t, 5)
	select {
	case err := <-d.closed:
		assert.Equal(t, codes.InvalidArgument, status.Code(err))
	case <-time.After(5 * time.Second):
		t.Fatal("duplicate election id accepted")
	}

	// Only the primary writes.
	require.NoError(t, r.push(t, 10, p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT))
	_, err := r.rt.Write(context.Background(), &p4v1.WriteRequest{DeviceId: 1, ElectionId: &p4v1.Uint128{Low: 5},
		Updates: []*p4v1.Update{{Type: p4v1.Update_INSERT, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{}}}}}})
	assert.Equal(t, codes.PermissionDenied, status.Code(err))

	// The primary goes away: the backup hears there is none, and becomes
	// primary by bidding above the old primary.
	a.cancel()
	assert.Equal(t, int32(code.Code_NOT_FOUND), b.nextArb(t).GetStatus().GetCode())
	b.bid(t, 11)
	got := b.nextArb(t)
	assert.Equal(t, int32(code.Code_OK), got.GetStatus().GetCode())
	assert.Equal(t, uint64(11), got.GetElectionId().GetLow())
	_, err = r.rt.Write(context.Background(), &p4v1.WriteRequest{DeviceId: 1, ElectionId: &p4v1.Uint128{Low: 11},
		Updates: []*p4v1.Update{{Type: p4v1.Update_INSERT, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{}}}}}})
	assert.NoError(t, err)

	// The old primary cannot come back with its stale id.
	a2 := r.connect(t, 10)
	assert.Equal(t, int32(code.Code_ALREADY_EXISTS), a2.nextArb(t).GetStatus().GetCode())
}

func TestPipelineConfig(t *testing.T) {
	r := newRig(t)
	r.connect(t, 1).nextArb(t)
	ctx := context.Background()

	_, err := r.rt.Write(ctx, &p4v1.WriteRequest{DeviceId: 1, ElectionId: &p4v1.Uint128{Low: 1},
		Updates: []*p4v1.Update{{Type: p4v1.Update_INSERT, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{}}}}}})
	assert.Equal(t, codes.FailedPrecondition, status.Code(err), "no pipeline yet")

	resp, err := r.rt.GetForwardingPipelineConfig(ctx, &p4v1.GetForwardingPipelineConfigRequest{DeviceId: 1})
	require.NoError(t, err)
	assert.Nil(t, resp.GetConfig().GetP4Info(), "empty before the first push")

	// A foreign program is refused with the reason.
	foreign := proto.Clone(r.srv.schema.Info).(*p4configv1.P4Info)
	foreign.Tables = foreign.Tables[1:]
	_, err = r.rt.SetForwardingPipelineConfig(ctx, &p4v1.SetForwardingPipelineConfigRequest{DeviceId: 1, ElectionId: &p4v1.Uint128{Low: 1},
		Action: p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT, Config: &p4v1.ForwardingPipelineConfig{P4Info: foreign}})
	assert.Equal(t, codes.InvalidArgument, status.Code(err))
	assert.Contains(t, status.Convert(err).Message(), `lacks table BalancerIngress.port_role`)

	require.NoError(t, r.push(t, 1, p4v1.SetForwardingPipelineConfigRequest_VERIFY))
	_, ok := r.srv.Pipeline()
	assert.False(t, ok, "VERIFY commits nothing")
	require.NoError(t, r.push(t, 1, p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT))
	cookie, ok := r.srv.Pipeline()
	assert.True(t, ok)
	assert.Equal(t, uint64(42), cookie)
	resets := r.ents.resets
	require.NoError(t, r.push(t, 1, p4v1.SetForwardingPipelineConfigRequest_RECONCILE_AND_COMMIT))
	assert.Equal(t, resets, r.ents.resets, "reconcile keeps the entries")

	resp, err = r.rt.GetForwardingPipelineConfig(ctx, &p4v1.GetForwardingPipelineConfigRequest{DeviceId: 1,
		ResponseType: p4v1.GetForwardingPipelineConfigRequest_COOKIE_ONLY})
	require.NoError(t, err)
	assert.Equal(t, uint64(42), resp.GetConfig().GetCookie().GetCookie())
	assert.Nil(t, resp.GetConfig().GetP4Info())

	_, err = r.rt.GetForwardingPipelineConfig(ctx, &p4v1.GetForwardingPipelineConfigRequest{DeviceId: 9})
	assert.Equal(t, codes.NotFound, status.Code(err))
}

func TestWritePerUpdateErrors(t *testing.T) {
	r := newRig(t)
	r.connect(t, 1).nextArb(t)
	require.NoError(t, r.push(t, 1, p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT))
	_, err := r.rt.Write(context.Background(), &p4v1.WriteRequest{DeviceId: 1, ElectionId: &p4v1.Uint128{Low: 1},
		Updates: []*p4v1.Update{
			{Type: p4v1.Update_INSERT, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{}}}},
			{Type: p4v1.Update_MODIFY, Entity: &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{}}}},
		}})
	require.Error(t, err)
	st := status.Convert(err)
	assert.Equal(t, codes.Unknown, st.Code())
	require.Len(t, st.Details(), 2)
	assert.Equal(t, int32(code.Code_OK), st.Details()[0].(*p4v1.Error).GetCanonicalCode())
	assert.Equal(t, int32(code.Code_INVALID_ARGUMENT), st.Details()[1].(*p4v1.Error).GetCanonicalCode())
	assert.Equal(t, errFake.Error(), st.Details()[1].(*p4v1.Error).GetMessage())
}

func TestReadStreamsInChunks(t *testing.T) {
	r := newRig(t)
	r.connect(t, 1).nextArb(t)
	require.NoError(t, r.push(t, 1, p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT))
	rc, err := r.rt.Read(context.Background(), &p4v1.ReadRequest{DeviceId: 1, Entities: []*p4v1.Entity{{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{}}}}})
	require.NoError(t, err)
	var sizes []int
	for {
		resp, err := rc.Recv()
		if err != nil {
			break
		}
		sizes = append(sizes, len(resp.GetEntities()))
	}
	assert.Equal(t, []int{1000, 1000, 500}, sizes)
}

func TestPacketIO(t *testing.T) {
	r := newRig(t)
	a := r.connect(t, 2)
	a.nextArb(t)
	b := r.connect(t, 1)
	b.nextArb(t)
	require.NoError(t, r.push(t, 2, p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT))
	out := func(c *ctl) {
		require.NoError(t, c.s.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Packet{Packet: &p4v1.PacketOut{
			Payload: []byte{1, 2, 3}, Metadata: []*p4v1.PacketMetadata{{MetadataId: 1, Value: []byte{40}}, {MetadataId: 2, Value: []byte{0}}, {MetadataId: 3, Value: []byte{1}}}}}}))
	}
	out(a)
	select {
	case p := <-r.outs:
		assert.Equal(t, pktOut{40, 1, []byte{1, 2, 3}}, p)
	case <-time.After(5 * time.Second):
		t.Fatal("no packet-out")
	}
	out(b)
	select {
	case e := <-b.errs:
		assert.Equal(t, int32(codes.PermissionDenied), e.GetCanonicalCode())
	case <-time.After(5 * time.Second):
		t.Fatal("backup's packet-out was not refused")
	}
	r.srv.SendPacketIn([]byte{9}, 30, 1, 12345)
	select {
	case p := <-a.pkts:
		assert.Equal(t, []byte{9}, p.GetPayload())
		assert.Len(t, p.GetMetadata(), 4)
	case <-time.After(5 * time.Second):
		t.Fatal("no packet-in at the primary")
	}
	select {
	case <-b.pkts:
		t.Fatal("packet-in reached the backup")
	case <-time.After(50 * time.Millisecond):
	}
}

// P4Runtime 1.4 "Unset Election ID": a client that arbitrates without an
// election id is a backup that never becomes primary. It hears who is
// primary, may read, and every write or pipeline push of its is refused.
func TestArbitrationUnsetElectionID(t *testing.T) {
	r := newRig(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	s, err := r.rt.StreamChannel(ctx)
	require.NoError(t, err)
	require.NoError(t, s.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Arbitration{
		Arbitration: &p4v1.MasterArbitrationUpdate{DeviceId: 1}}}))
	next := func() *p4v1.MasterArbitrationUpdate {
		t.Helper()
		m, err := s.Recv()
		require.NoError(t, err, "the stream of a client without election id stays open")
		require.NotNil(t, m.GetArbitration(), "got %v", m)
		return m.GetArbitration()
	}
	assert.Equal(t, int32(code.Code_NOT_FOUND), next().GetStatus().GetCode(), "no primary, and the unset client is not made one")

	// Its writes are refused, with the reason.
	_, err = r.rt.Write(context.Background(), &p4v1.WriteRequest{DeviceId: 1,
		Updates: []*p4v1.Update{{Type: p4v1.Update_INSERT, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{}}}}}})
	assert.Equal(t, codes.PermissionDenied, status.Code(err))
	assert.Contains(t, status.Convert(err).Message(), "no election id")

	// A controller with an id becomes primary; the unset client hears it.
	p := r.connect(t, 7)
	assert.Equal(t, int32(code.Code_OK), p.nextArb(t).GetStatus().GetCode())
	got := next()
	assert.Equal(t, int32(code.Code_ALREADY_EXISTS), got.GetStatus().GetCode())
	assert.Equal(t, uint64(7), got.GetElectionId().GetLow(), "the primary's election id")
	require.NoError(t, r.push(t, 7, p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT))

	// Reads need no arbitration.
	rd, err := r.rt.Read(context.Background(), &p4v1.ReadRequest{DeviceId: 1, Entities: []*p4v1.Entity{{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{}}}}})
	require.NoError(t, err)
	_, err = rd.Recv()
	require.NoError(t, err)

	// The primary leaves: the unset client is told there is none and stays
	// a backup; a second unset client is no duplicate of the first.
	p.cancel()
	assert.Equal(t, int32(code.Code_NOT_FOUND), next().GetStatus().GetCode())
	s2, err := r.rt.StreamChannel(ctx)
	require.NoError(t, err)
	require.NoError(t, s2.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Arbitration{
		Arbitration: &p4v1.MasterArbitrationUpdate{DeviceId: 1}}}))
	m, err := s2.Recv()
	require.NoError(t, err)
	assert.Equal(t, int32(code.Code_NOT_FOUND), m.GetArbitration().GetStatus().GetCode())
	err = r.push(t, 0, p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT)
	assert.Equal(t, codes.PermissionDenied, status.Code(err), "nobody is primary")
}

// Packet-out metadata wider than its field is OUT_OF_RANGE (spec,
// "Bytestrings").
func TestPacketOutTooWide(t *testing.T) {
	r := newRig(t)
	c := r.connect(t, 3)
	require.Equal(t, int32(code.Code_OK), c.nextArb(t).GetStatus().GetCode())
	require.NoError(t, r.push(t, 3, p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT))
	schema, err := p4src.Load()
	require.NoError(t, err)
	h, err := schema.ControllerHeader(p4src.HeaderPacketOut)
	require.NoError(t, err)
	require.NoError(t, c.s.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Packet{Packet: &p4v1.PacketOut{
		Payload: []byte{1, 2, 3}, Metadata: []*p4v1.PacketMetadata{{MetadataId: h.Fields[wire.MetaEgressPort].GetId(), Value: []byte{0x02, 0x00}}}}}}))
	select {
	case e := <-c.errs:
		assert.Equal(t, int32(codes.OutOfRange), e.GetCanonicalCode())
		assert.Contains(t, e.GetMessage(), "wider than 9 bits")
	case <-time.After(5 * time.Second):
		t.Fatal("no stream error for a too wide egress_port")
	}
}

// At most MaxConcurrentReads Reads run at once: one more waits its turn
// (and gives up with its deadline), then runs once a slot frees.
func TestConcurrentReadsBounded(t *testing.T) {
	r := newRig(t)
	c := r.connect(t, 1)
	require.Equal(t, int32(code.Code_OK), c.nextArb(t).GetStatus().GetCode())
	require.NoError(t, r.push(t, 1, p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT))
	for i := 0; i < MaxConcurrentReads; i++ {
		r.srv.reads <- struct{}{} // reads in progress
	}
	readAll := func(ctx context.Context) error {
		s, err := r.rt.Read(ctx, &p4v1.ReadRequest{DeviceId: 1, Entities: []*p4v1.Entity{{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{}}}}})
		if err != nil {
			return err
		}
		for {
			if _, err := s.Recv(); err != nil {
				if errors.Is(err, io.EOF) {
					return nil
				}
				return err
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	assert.Equal(t, codes.DeadlineExceeded, status.Code(readAll(ctx)), "waits while every slot is taken")
	<-r.srv.reads
	assert.NoError(t, readAll(context.Background()), "runs once a slot is free")
}
