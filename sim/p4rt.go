package sim

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"sync"
	"sync/atomic"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/genproto/googleapis/rpc/code"
	rpcstatus "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
)

// P4RuntimeVersion is the API version the server speaks.
const P4RuntimeVersion = "1.4.1"

// Entities is the part of the data plane the P4Runtime server writes and
// reads (sim/dataplane.Dataplane).
type Entities interface {
	Write(updates []*p4v1.Update, atomicity p4v1.WriteRequest_Atomicity) []error
	Read(entities []*p4v1.Entity, yield func(*p4v1.Entity) bool) error
	Reset()
}

// P4RTServer serves P4Runtime for one device: pipeline config, writes,
// reads, and the stream with client arbitration (primary and backups per
// role) and packet I/O.
//
// Arbitration follows the P4Runtime spec: per role, the live stream with
// the highest election id is primary, as long as that id is not lower than
// the highest id a primary of the role ever had. When the primary goes
// away the backups are told there is none (NOT_FOUND) and one of them
// becomes primary by sending an arbitration update with a higher election
// id; a stale primary can never come back by reconnecting with its old id.
// A client that arbitrates without an election id is a backup that never
// becomes primary (spec, "Unset Election ID"): it gets the arbitration
// answers and may read, never write.
//
// Reads need no arbitration (spec: any client may read) but are bounded:
// at most MaxConcurrentReads run at once, the others wait their turn, and
// each returns at most the data plane's read limit.
type P4RTServer struct {
	p4v1.UnimplementedP4RuntimeServer

	deviceID uint64
	// schema is the running program's and ents its entities (under mu;
	// ents also in entsNow, read without it); programs are the programs
	// the switch runs (AlsoRuns), build makes the entities of one.
	schema   *p4src.Schema
	ents     Entities
	entsNow  atomic.Pointer[entitiesBox]
	programs []*p4src.Schema
	build    func(*p4src.Schema) (Entities, error)
	// savedSchema is the program of saved.
	savedSchema *p4src.Schema
	packetOut   func(port uint32, flags uint8, frame []byte) error
	codeOf      func(error) codes.Code
	log         *slog.Logger

	mu     sync.Mutex
	config *p4v1.ForwardingPipelineConfig // committed; nil before the first push
	saved  *p4v1.ForwardingPipelineConfig // VERIFY_AND_SAVE, awaiting COMMIT
	roles  map[string]*roleState
	pio    *wire.PacketIO

	reads chan struct{} // a token per running Read

	noSaveCommit bool // VERIFY_AND_SAVE and COMMIT unimplemented (as PI)

	digests     digestState // digests (digest.go)
	streamDrops atomic.Uint64
	clones      map[uint32]*p4v1.CloneSessionEntry // clone sessions (clonesession.go)
}

// MaxConcurrentReads is how many Reads run at once; each may copy up to
// the data plane's read limit, so this bounds the memory reads pin.
const MaxConcurrentReads = 4

type roleState struct {
	streams map[*stream]bool
	primary *stream
	past    *big.Int // highest election id a primary of this role had
}

type stream struct {
	srv        p4v1.P4Runtime_StreamChannelServer
	role       string
	arbitrated bool
	election   *big.Int // nil: unset, a backup for good
	send       chan *p4v1.StreamMessageResponse
	done       chan struct{}
	dropped    *atomic.Uint64 // the server's streamDrops
}

// NewP4RTServer returns a server for the device. packetOut transmits a
// controller frame; codeOf maps a data-plane error to its gRPC code.
func NewP4RTServer(deviceID uint64, schema *p4src.Schema, ents Entities,
	packetOut func(port uint32, flags uint8, frame []byte) error,
	codeOf func(error) codes.Code, log *slog.Logger) *P4RTServer {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &P4RTServer{deviceID: deviceID, schema: schema, ents: ents, packetOut: packetOut, codeOf: codeOf, log: log,
		roles: map[string]*roleState{}, reads: make(chan struct{}, MaxConcurrentReads)}
	s.entsNow.Store(&entitiesBox{ents})
	pio, err := wire.NewPacketIO(schema)
	if err != nil {
		// The data plane refuses such a P4Info first; here packet I/O
		// just finds no metadata.
		log.Error("p4runtime: no packet I/O", "err", err)
		pio = &wire.PacketIO{}
	}
	s.pio = pio
	return s
}

type entitiesBox struct{ Entities }

// entities are the running program's entities.
func (s *P4RTServer) entities() Entities { return s.entsNow.Load().Entities }

// AlsoRuns lets the switch run any of programs (the one it was made with
// among them), whichever a controller pushes: a push of another one
// makes its entities with build (empty, as a push leaves the switch).
func (s *P4RTServer) AlsoRuns(programs []*p4src.Schema, build func(*p4src.Schema) (Entities, error)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.programs, s.build = programs, build
}

// run makes program the running one, empty. Called with s.mu held.
func (s *P4RTServer) run(program *p4src.Schema) error {
	if program == s.schema || s.build == nil {
		s.ents.Reset()
		return nil
	}
	ents, err := s.build(program)
	if err != nil {
		return status.Errorf(codes.Internal, "the software switch cannot run the program: %v", err)
	}
	s.schema, s.ents = program, ents
	s.entsNow.Store(&entitiesBox{ents})
	return nil
}

// Capabilities reports the API version.
func (s *P4RTServer) Capabilities(context.Context, *p4v1.CapabilitiesRequest) (*p4v1.CapabilitiesResponse, error) {
	return &p4v1.CapabilitiesResponse{P4RuntimeApiVersion: P4RuntimeVersion}, nil
}

func (s *P4RTServer) checkDevice(id uint64) error {
	if id != s.deviceID {
		return status.Errorf(codes.NotFound, "unknown device id %d (this switch is device %d)", id, s.deviceID)
	}
	return nil
}

func roleName(r *p4v1.Role) string { return r.GetName() }

// checkPrimary verifies that the election id is the role's primary's.
// Called with s.mu held.
func (s *P4RTServer) checkPrimary(role string, e *p4v1.Uint128) error {
	if e == nil {
		return status.Errorf(codes.PermissionDenied, "no election id: a client without one is a backup for role %q and may only read (P4Runtime, Unset Election ID)", role)
	}
	rs := s.roles[role]
	if rs == nil || rs.primary == nil {
		return status.Errorf(codes.PermissionDenied, "no primary controller for role %q: open a stream and arbitrate first", role)
	}
	if rs.primary.election.Cmp(u128(e)) != 0 {
		return status.Errorf(codes.PermissionDenied, "election id %s is not the primary's (%s) for role %q", u128(e), rs.primary.election, role)
	}
	return nil
}

// SetForwardingPipelineConfig accepts only the balancer program.
func (s *P4RTServer) SetForwardingPipelineConfig(ctx context.Context, req *p4v1.SetForwardingPipelineConfigRequest) (*p4v1.SetForwardingPipelineConfigResponse, error) {
	if err := s.checkDevice(req.GetDeviceId()); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkPrimary(req.GetRole(), req.GetElectionId()); err != nil {
		return nil, err
	}
	act := req.GetAction()
	if s.noSaveCommit && (act == p4v1.SetForwardingPipelineConfigRequest_COMMIT || act == p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_SAVE) {
		return nil, status.Errorf(codes.Unimplemented, "pipeline config action %v is not implemented on this switch", act)
	}
	if act == p4v1.SetForwardingPipelineConfigRequest_COMMIT {
		if s.saved == nil {
			return nil, status.Error(codes.FailedPrecondition, "commit: no saved config (send VERIFY_AND_SAVE first)")
		}
		if err := s.run(s.savedSchema); err != nil {
			return nil, err
		}
		s.config, s.saved = s.saved, nil
		s.log.Info("pipeline committed", "cookie", s.config.GetCookie().GetCookie())
		return &p4v1.SetForwardingPipelineConfigResponse{}, nil
	}
	cfg := req.GetConfig()
	program, err := s.verify(cfg)
	if err != nil {
		return nil, err
	}
	switch act {
	case p4v1.SetForwardingPipelineConfigRequest_VERIFY:
	case p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_SAVE:
		s.saved, s.savedSchema = proto.Clone(cfg).(*p4v1.ForwardingPipelineConfig), program
	case p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT:
		if err := s.run(program); err != nil {
			return nil, err
		}
		s.config = proto.Clone(cfg).(*p4v1.ForwardingPipelineConfig)
		s.log.Info("pipeline pushed", "cookie", cfg.GetCookie().GetCookie())
	case p4v1.SetForwardingPipelineConfigRequest_RECONCILE_AND_COMMIT:
		if program != s.schema {
			return nil, status.Error(codes.FailedPrecondition, "reconcile: the switch runs another program (with or without the session memory); push it with VERIFY_AND_COMMIT")
		}
		// Same program (verified): keep every entry and counter.
		s.config = proto.Clone(cfg).(*p4v1.ForwardingPipelineConfig)
		s.log.Info("pipeline reconciled", "cookie", cfg.GetCookie().GetCookie())
	default:
		return nil, status.Errorf(codes.InvalidArgument, "pipeline config action %v is not supported", act)
	}
	return &p4v1.SetForwardingPipelineConfigResponse{}, nil
}

// verify accepts a config whose P4Info is the balancer's (one of the
// programs the switch runs) and returns its program.
func (s *P4RTServer) verify(cfg *p4v1.ForwardingPipelineConfig) (*p4src.Schema, error) {
	if cfg.GetP4Info() == nil {
		return nil, status.Error(codes.InvalidArgument, "pipeline config has no p4info")
	}
	first := sameProgram(s.schema.Info, cfg.GetP4Info())
	if first == nil {
		return s.schema, nil
	}
	for _, p := range s.programs {
		if p != s.schema && sameProgram(p.Info, cfg.GetP4Info()) == nil {
			return p, nil
		}
	}
	return nil, status.Errorf(codes.InvalidArgument, "the software switch runs only the balancer program: %v", first)
}

// sameProgram names the first difference between two P4Infos.
func sameProgram(want, got *p4configv1.P4Info) error {
	if proto.Equal(stripPkg(want), stripPkg(got)) {
		return nil
	}
	names := func(info *p4configv1.P4Info) map[string]uint32 {
		m := map[string]uint32{}
		for _, t := range info.GetTables() {
			m["table "+t.GetPreamble().GetName()] = t.GetPreamble().GetId()
		}
		for _, a := range info.GetActions() {
			m["action "+a.GetPreamble().GetName()] = a.GetPreamble().GetId()
		}
		return m
	}
	w, g := names(want), names(got)
	for n, id := range w {
		gid, ok := g[n]
		if !ok {
			return fmt.Errorf("p4info lacks %s", n)
		}
		if gid != id {
			return fmt.Errorf("%s has id %#x, want %#x", n, gid, id)
		}
	}
	for n := range g {
		if _, ok := w[n]; !ok {
			return fmt.Errorf("p4info has unknown %s", n)
		}
	}
	return errors.New("p4info differs in match fields, parameters, sizes or counters")
}

// stripPkg leaves out what describes a build rather than the program: the
// package info, and the tables' initial_default_action (added in P4Runtime
// 1.4.0 and written by p4c 1.2.5; a controller on an older p4runtime
// cannot send it, and the program's default actions are the same).
func stripPkg(info *p4configv1.P4Info) *p4configv1.P4Info {
	c := proto.Clone(info).(*p4configv1.P4Info)
	c.PkgInfo = nil
	for _, t := range c.GetTables() {
		t.InitialDefaultAction = nil
	}
	return c
}

// GetForwardingPipelineConfig returns the committed config (empty before
// the first push).
func (s *P4RTServer) GetForwardingPipelineConfig(ctx context.Context, req *p4v1.GetForwardingPipelineConfigRequest) (*p4v1.GetForwardingPipelineConfigResponse, error) {
	if err := s.checkDevice(req.GetDeviceId()); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := &p4v1.ForwardingPipelineConfig{}
	if s.config != nil {
		out.Cookie = s.config.GetCookie()
		switch req.GetResponseType() {
		case p4v1.GetForwardingPipelineConfigRequest_ALL:
			out.P4Info, out.P4DeviceConfig = s.config.GetP4Info(), s.config.GetP4DeviceConfig()
		case p4v1.GetForwardingPipelineConfigRequest_P4INFO_AND_COOKIE:
			out.P4Info = s.config.GetP4Info()
		case p4v1.GetForwardingPipelineConfigRequest_DEVICE_CONFIG_AND_COOKIE:
			out.P4DeviceConfig = s.config.GetP4DeviceConfig()
		}
	}
	return &p4v1.GetForwardingPipelineConfigResponse{Config: out}, nil
}

// Write applies updates from the primary controller.
func (s *P4RTServer) Write(ctx context.Context, req *p4v1.WriteRequest) (*p4v1.WriteResponse, error) {
	if err := s.checkDevice(req.GetDeviceId()); err != nil {
		return nil, err
	}
	s.mu.Lock()
	err := s.checkPrimary(req.GetRole(), req.GetElectionId())
	pipeline := s.config != nil
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if !pipeline {
		return nil, status.Error(codes.FailedPrecondition, "no forwarding pipeline: push one with SetForwardingPipelineConfig first")
	}
	if len(req.GetUpdates()) == 0 {
		return &p4v1.WriteResponse{}, nil
	}
	errs := s.writeUpdates(req.GetUpdates(), req.GetAtomicity())
	failed := 0
	for _, e := range errs {
		if e != nil {
			failed++
		}
	}
	if failed == 0 {
		return &p4v1.WriteResponse{}, nil
	}
	// Per-update errors only for a request that failed.
	details := make([]*anypb.Any, len(errs))
	for i, e := range errs {
		pe := &p4v1.Error{CanonicalCode: int32(code.Code_OK)}
		if e != nil {
			c, msg := s.updateError(e)
			pe = &p4v1.Error{CanonicalCode: int32(c), Message: msg}
		}
		details[i], _ = anypb.New(pe)
	}
	st := &rpcstatus.Status{Code: int32(code.Code_UNKNOWN),
		Message: fmt.Sprintf("%d of %d updates failed", failed, len(errs)), Details: details}
	return nil, status.ErrorProto(st)
}

// updateError is a failed update's code and message: those of a gRPC
// status the server made itself (a DigestEntry: ALREADY_EXISTS for a
// repeated INSERT, as PI answers), else the data plane's error mapped by
// codeOf.
func (s *P4RTServer) updateError(err error) (codes.Code, string) {
	if st, ok := status.FromError(err); ok {
		return st.Code(), st.Message()
	}
	return s.codeOf(err), err.Error()
}

// Read streams the matching entities, in responses of at most 1000.
func (s *P4RTServer) Read(req *p4v1.ReadRequest, srv p4v1.P4Runtime_ReadServer) error {
	if err := s.checkDevice(req.GetDeviceId()); err != nil {
		return err
	}
	s.mu.Lock()
	pipeline := s.config != nil
	s.mu.Unlock()
	if !pipeline {
		return status.Error(codes.FailedPrecondition, "no forwarding pipeline")
	}
	select {
	case s.reads <- struct{}{}:
		defer func() { <-s.reads }()
	case <-srv.Context().Done():
		return status.FromContextError(srv.Context().Err()).Err()
	}
	var batch []*p4v1.Entity
	var sendErr error
	err := s.entities().Read(req.GetEntities(), func(e *p4v1.Entity) bool {
		batch = append(batch, e)
		if len(batch) == 1000 {
			sendErr = srv.Send(&p4v1.ReadResponse{Entities: batch})
			batch = nil
		}
		return sendErr == nil
	})
	if sendErr != nil {
		return sendErr
	}
	if err != nil {
		return status.Error(s.codeOf(err), err.Error())
	}
	if len(batch) > 0 {
		return srv.Send(&p4v1.ReadResponse{Entities: batch})
	}
	return nil
}

// StreamChannel runs one controller stream.
func (s *P4RTServer) StreamChannel(srv p4v1.P4Runtime_StreamChannelServer) error {
	st := &stream{srv: srv, send: make(chan *p4v1.StreamMessageResponse, 1024), done: make(chan struct{}), dropped: &s.streamDrops}
	sendErr := make(chan error, 1)
	go func() {
		for {
			select {
			case m := <-st.send:
				if err := srv.Send(m); err != nil {
					sendErr <- err
					return
				}
			case <-st.done:
				return
			}
		}
	}()
	defer func() {
		close(st.done)
		s.leave(st)
	}()
	for {
		msg, err := srv.Recv()
		if err != nil {
			return nil // client went away
		}
		select {
		case err := <-sendErr:
			return err
		default:
		}
		switch m := msg.GetUpdate().(type) {
		case *p4v1.StreamMessageRequest_Arbitration:
			if err := s.arbitrate(st, m.Arbitration); err != nil {
				return err
			}
		case *p4v1.StreamMessageRequest_DigestAck:
			if st.arbitrated {
				s.ackDigests(m.DigestAck)
			}
		case *p4v1.StreamMessageRequest_Packet:
			if err := s.handlePacketOut(st, m.Packet); err != nil {
				st.trySend(&p4v1.StreamMessageResponse{Update: &p4v1.StreamMessageResponse_Error{Error: &p4v1.StreamError{
					CanonicalCode: int32(status.Code(err)), Message: status.Convert(err).Message(),
					Details: &p4v1.StreamError_PacketOut{PacketOut: &p4v1.PacketOutError{PacketOut: m.Packet}}}}})
			}
		default:
			if !st.arbitrated {
				return status.Error(codes.FailedPrecondition, "the first stream message must be an arbitration update")
			}
		}
	}
}

func (st *stream) trySend(m *p4v1.StreamMessageResponse) {
	select {
	case st.send <- m:
	default: // a controller that does not read its stream loses messages, not the switch
		if st.dropped != nil {
			st.dropped.Add(1)
		}
	}
}

// StreamDrops is the number of stream messages (packet-ins, digest
// lists, notifications) lost because a controller did not read its
// stream fast enough.
func (s *P4RTServer) StreamDrops() uint64 { return s.streamDrops.Load() }

func (s *P4RTServer) arbitrate(st *stream, a *p4v1.MasterArbitrationUpdate) error {
	if err := s.checkDevice(a.GetDeviceId()); err != nil {
		return err
	}
	role := roleName(a.GetRole())
	var e *big.Int // unset: a backup that never becomes primary
	if a.GetElectionId() != nil {
		e = u128(a.GetElectionId())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if st.arbitrated && st.role != role {
		return status.Errorf(codes.FailedPrecondition, "a stream cannot change role (%q to %q)", st.role, role)
	}
	rs := s.roles[role]
	if rs == nil {
		rs = &roleState{streams: map[*stream]bool{}, past: new(big.Int)}
		s.roles[role] = rs
	}
	for o := range rs.streams {
		if e != nil && o != st && o.election != nil && o.election.Cmp(e) == 0 {
			return status.Errorf(codes.InvalidArgument, "election id %s is already used by another controller of role %q", e, role)
		}
	}
	st.role, st.election, st.arbitrated = role, e, true
	rs.streams[st] = true
	s.elect(rs, role, st)
	return nil
}

// elect recomputes the primary and tells the streams that need to know.
// Called with s.mu held; asker is the stream that sent an arbitration (it
// always gets an answer), or nil.
func (s *P4RTServer) elect(rs *roleState, role string, asker *stream) {
	var best *stream
	for o := range rs.streams {
		if o.election != nil && (best == nil || o.election.Cmp(best.election) > 0) {
			best = o
		}
	}
	if best != nil && best.election.Cmp(rs.past) < 0 {
		best = nil // below a former primary's id: no primary until someone bids higher
	}
	changed := best != rs.primary
	rs.primary = best
	if best != nil && best.election.Cmp(rs.past) > 0 {
		rs.past = new(big.Int).Set(best.election)
	}
	if changed {
		s.log.Info("p4runtime primary", "role", role, "election_id", fmtElection(best))
	}
	for o := range rs.streams {
		if changed || o == asker {
			o.trySend(s.arbitrationResponse(rs, role, o))
		}
	}
}

func fmtElection(st *stream) string {
	if st == nil {
		return "none"
	}
	return st.election.String()
}

func (s *P4RTServer) arbitrationResponse(rs *roleState, role string, to *stream) *p4v1.StreamMessageResponse {
	st := &rpcstatus.Status{Code: int32(code.Code_OK), Message: "primary"}
	highest := rs.past
	switch {
	case rs.primary == nil:
		st = &rpcstatus.Status{Code: int32(code.Code_NOT_FOUND), Message: "no primary"}
	case rs.primary != to:
		st = &rpcstatus.Status{Code: int32(code.Code_ALREADY_EXISTS), Message: "backup: another controller is primary"}
	}
	var r *p4v1.Role
	if role != "" {
		r = &p4v1.Role{Name: role}
	}
	return &p4v1.StreamMessageResponse{Update: &p4v1.StreamMessageResponse_Arbitration{Arbitration: &p4v1.MasterArbitrationUpdate{
		DeviceId: s.deviceID, Role: r, ElectionId: toU128(highest), Status: st}}}
}

func (s *P4RTServer) leave(st *stream) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !st.arbitrated {
		return
	}
	rs := s.roles[st.role]
	delete(rs.streams, st)
	if rs.primary == st {
		s.elect(rs, st.role, nil)
	}
}

func (s *P4RTServer) handlePacketOut(st *stream, p *p4v1.PacketOut) error {
	s.mu.Lock()
	rs := s.roles[st.role]
	isPrimary := st.arbitrated && rs != nil && rs.primary == st
	pipeline := s.config != nil
	s.mu.Unlock()
	if !isPrimary {
		return status.Error(codes.PermissionDenied, "packet-out from a controller that is not primary")
	}
	if !pipeline {
		return status.Error(codes.FailedPrecondition, "packet-out before a pipeline is set")
	}
	var port uint64
	var flags uint64
	seen := map[string]bool{}
	for _, m := range p.GetMetadata() {
		name := s.pio.OutName(m.GetMetadataId())
		if name == "" {
			return status.Errorf(codes.InvalidArgument, "packet-out metadata id %d unknown", m.GetMetadataId())
		}
		if len(m.GetValue()) > 8 {
			return status.Errorf(codes.OutOfRange, "packet-out metadata %s: %d bytes, wider than its field", name, len(m.GetValue()))
		}
		seen[name] = true
		v := wire.Uint(m.GetValue())
		switch name {
		case wire.MetaEgressPort:
			if v >= 1<<9 {
				return status.Errorf(codes.OutOfRange, "packet-out egress_port %d wider than 9 bits", v)
			}
			port = v
		case wire.MetaFlags:
			if v >= 1<<8 {
				return status.Errorf(codes.OutOfRange, "packet-out flags %d wider than 8 bits", v)
			}
			flags = v
		}
	}
	if !seen[wire.MetaEgressPort] {
		return status.Error(codes.InvalidArgument, "packet-out without egress_port metadata")
	}
	if err := s.packetOut(uint32(port), uint8(flags), p.GetPayload()); err != nil {
		return status.Errorf(codes.Unavailable, "packet-out to port %d: %v", port, err)
	}
	return nil
}

// SendPacketIn delivers a packet-in to the primary of the default role (and
// of every other role: roles here have full pipeline access). It never
// blocks the data plane: a full stream drops the packet.
func (s *P4RTServer) SendPacketIn(frame []byte, ingressPort uint32, reason uint8, rxTimestamp uint64) {
	md := s.pio.PacketInMetadata(ingressPort, reason, rxTimestamp)
	msg := &p4v1.StreamMessageResponse{Update: &p4v1.StreamMessageResponse_Packet{Packet: &p4v1.PacketIn{
		Payload: append([]byte(nil), frame...), Metadata: md}}}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, rs := range s.roles {
		if rs.primary != nil {
			rs.primary.trySend(msg)
		}
	}
}

// Primary is the election id of the role's primary controller ("" for
// the default role); ok false while the role has none.
func (s *P4RTServer) Primary(role string) (id uint64, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := s.roles[role]
	if rs == nil || rs.primary == nil {
		return 0, false
	}
	return rs.primary.election.Uint64(), true
}

// Pipeline returns the committed config's cookie and whether there is one.
func (s *P4RTServer) Pipeline() (cookie uint64, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.config == nil {
		return 0, false
	}
	return s.config.GetCookie().GetCookie(), true
}

// ForgetPipeline drops the committed pipeline and every entry, as a
// restarted switch would.
func (s *P4RTServer) ForgetPipeline() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.config, s.saved = nil, nil
	s.ents.Reset()
}

func u128(v *p4v1.Uint128) *big.Int {
	b := new(big.Int).SetUint64(v.GetHigh())
	b.Lsh(b, 64)
	return b.Or(b, new(big.Int).SetUint64(v.GetLow()))
}

func toU128(b *big.Int) *p4v1.Uint128 {
	lo := new(big.Int).And(b, new(big.Int).SetUint64(^uint64(0)))
	hi := new(big.Int).Rsh(b, 64)
	return &p4v1.Uint128{High: hi.Uint64(), Low: lo.Uint64()}
}
