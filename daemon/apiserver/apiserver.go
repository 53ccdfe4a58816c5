package apiserver

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"sort"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/tables"
)

// New returns the management API (balancer.v1.Balancer) backed by svc.
// Register it on a grpc.Server:
//
//	apiv1.RegisterBalancerServer(srv, apiserver.New(svc))
//
// Serving both a unix socket and mutual TLS takes two grpc.Servers (the
// TLS one with ListenTLS's option); register one New value on both, so
// that applies through either are serialised together.
//
// It checks requests, converts to and from the protos, and maps errors to
// gRPC status codes (this is the only place that does): daemon.ErrInvalid
// and configuration problems (config.FieldError, config.ErrDecode) become
// InvalidArgument with the whole message, one problem per line;
// ErrNotFound NotFound; ErrUnavailable Unavailable; ErrConflict (a shared
// store changed by another daemon) Aborted; a cancelled or expired
// context Canceled or DeadlineExceeded; anything else Internal.
//
// GetConfig returns the configuration as it was saved (comments kept)
// when svc has a ConfigYAML() ([]byte, daemon.Revision) method, as
// daemon.Daemon has; otherwise config.Marshal of Service.Config.
func New(svc daemon.Service) apiv1.BalancerServer {
	return &apiServer{svc: svc}
}

type apiServer struct {
	apiv1.UnimplementedBalancerServer
	svc daemon.Service
	// stopping, when closed, ends the streams that would otherwise run
	// until their clients end them (Monitor's follow): Serve closes it
	// when the daemon has stopped, before it stops the server gracefully,
	// which waits for every call. nil: never (New).
	stopping <-chan struct{}
}

// errStopping is the cause of a stream ended because the daemon stops.
var errStopping = errors.New("the daemon is stopping")

// configYAMLer is what a Service may also offer: the running
// configuration as saved, with its revision, read together.
type configYAMLer interface {
	ConfigYAML() ([]byte, daemon.Revision)
}

// grpcError maps a Service error to a gRPC status.
func grpcError(err error) error {
	if err == nil {
		return nil
	}
	code := codes.Internal
	switch {
	case errors.Is(err, context.Canceled):
		code = codes.Canceled
	case errors.Is(err, context.DeadlineExceeded):
		code = codes.DeadlineExceeded
	case errors.Is(err, daemon.ErrInvalid), errors.Is(err, config.ErrDecode), len(config.FieldErrors(err)) > 0:
		code = codes.InvalidArgument
	case errors.Is(err, daemon.ErrDestructive), errors.Is(err, daemon.ErrNotWaiting), errors.Is(err, daemon.ErrSessionState):
		code = codes.FailedPrecondition
	case errors.Is(err, daemon.ErrNotFound):
		code = codes.NotFound
	case errors.Is(err, daemon.ErrUnavailable):
		code = codes.Unavailable
	case errors.Is(err, daemon.ErrConflict):
		code = codes.Aborted
	}
	return status.Error(code, err.Error())
}

// originTrailer marks an error as the daemon's (see apiv1.OriginTrailer).
var originTrailer = metadata.Pairs(apiv1.OriginTrailer, apiv1.OriginDaemon)

// markOrigin sets the origin trailer when a handler fails.
func markOrigin(ctx context.Context, err *error) {
	if *err != nil {
		_ = grpc.SetTrailer(ctx, originTrailer)
	}
}

func invalid(format string, args ...any) error {
	return status.Errorf(codes.InvalidArgument, format, args...)
}

func (s *apiServer) GetStatus(ctx context.Context, _ *apiv1.GetStatusRequest) (_ *apiv1.Status, err error) {
	defer markOrigin(ctx, &err)
	st, err := s.svc.Status(ctx)
	if err != nil {
		return nil, grpcError(err)
	}
	return statusToProto(st), nil
}

func (s *apiServer) GetConfig(ctx context.Context, req *apiv1.GetConfigRequest) (_ *apiv1.GetConfigResponse, err error) {
	defer markOrigin(ctx, &err)
	if n := req.GetRevision(); n != 0 {
		data, rev, err := s.svc.RevisionYAML(ctx, n)
		if err != nil {
			return nil, grpcError(err)
		}
		return &apiv1.GetConfigResponse{Yaml: string(data), Revision: revisionToProto(rev)}, nil
	}
	data, rev, err := s.running(ctx)
	if err != nil {
		return nil, grpcError(err)
	}
	return &apiv1.GetConfigResponse{Yaml: string(data), Revision: revisionToProto(rev)}, nil
}

// running returns the running configuration's YAML and revision.
func (s *apiServer) running(ctx context.Context) ([]byte, daemon.Revision, error) {
	if y, ok := s.svc.(configYAMLer); ok {
		data, rev := y.ConfigYAML()
		return data, rev, nil
	}
	cfg, rev, err := s.svc.Config(ctx)
	if err != nil {
		return nil, daemon.Revision{}, err
	}
	if cfg == nil {
		return nil, rev, nil
	}
	data, err := cfg.Marshal()
	if err != nil {
		return nil, daemon.Revision{}, err
	}
	return data, rev, nil
}

func (s *apiServer) ApplyConfig(ctx context.Context, req *apiv1.ApplyConfigRequest) (_ *apiv1.ApplyResult, err error) {
	defer markOrigin(ctx, &err)
	if strings.TrimSpace(req.GetYaml()) == "" {
		return nil, invalid("the configuration is empty; an apply replaces the whole configuration, so send all of it (a file that only says `site: NAME` removes every object)")
	}
	if err := config.CheckText("comment", req.GetComment(), config.MaxCommentBytes); err != nil {
		return nil, invalid("%v", err)
	}
	if n := len(req.GetYaml()); n > config.MaxConfigBytes {
		return nil, invalid("the configuration is %d bytes; the limit is %d bytes (1 MiB): remove objects or rules", n, config.MaxConfigBytes)
	}
	// A first check fails fast; the Service checks again when it saves
	// (WithBaseRevision), so that no lock here holds one change behind
	// another's compile.
	if base := req.GetBaseRevision(); base != 0 {
		_, rev, err := s.running(ctx)
		if err != nil {
			return nil, grpcError(err)
		}
		if rev.Number != base {
			return nil, status.Errorf(codes.Aborted,
				"the running configuration is revision %d, not %d: it changed since it was read; read it again and retry", rev.Number, base)
		}
	}
	ctx = daemon.WithBy(ctx, Who(ctx))
	res, err := s.svc.ApplyConfig(daemon.WithStrict(daemon.WithBaseRevision(daemon.WithForce(ctx, req.GetForce()), req.GetBaseRevision()), req.GetStrict()), []byte(req.GetYaml()), req.GetDryRun(), req.GetComment())
	if err != nil {
		return nil, grpcError(err)
	}
	return applyResultToProto(res), nil
}

func (s *apiServer) Rollback(ctx context.Context, req *apiv1.RollbackRequest) (_ *apiv1.ApplyResult, err error) {
	defer markOrigin(ctx, &err)
	if req.GetRevision() == 0 {
		return nil, invalid("revision: missing; give the number of a saved revision (see History)")
	}
	if err := config.CheckText("comment", req.GetComment(), config.MaxCommentBytes); err != nil {
		return nil, invalid("%v", err)
	}
	res, err := s.svc.Rollback(daemon.WithForce(daemon.WithBy(ctx, Who(ctx)), req.GetForce()), req.GetRevision(), req.GetDryRun(), req.GetComment())
	if err != nil {
		return nil, grpcError(err)
	}
	return applyResultToProto(res), nil
}

func (s *apiServer) History(ctx context.Context, _ *apiv1.HistoryRequest) (_ *apiv1.HistoryResponse, err error) {
	defer markOrigin(ctx, &err)
	revs, err := s.svc.History(ctx)
	if err != nil {
		return nil, grpcError(err)
	}
	out := &apiv1.HistoryResponse{Revisions: make([]*apiv1.Revision, len(revs))}
	for i, r := range revs {
		out.Revisions[i] = revisionToProto(r)
	}
	return out, nil
}

func alarmToProto(a daemon.Alarm) *apiv1.Alarm {
	return &apiv1.Alarm{Name: a.Name, Object: a.Object, Message: a.Message, Remedy: a.Remedy, Since: timestamp(a.Since), Acknowledge: a.Acknowledge}
}

func (s *apiServer) AckAlarm(ctx context.Context, req *apiv1.AckAlarmRequest) (_ *apiv1.AckAlarmResponse, err error) {
	defer markOrigin(ctx, &err)
	if n := req.GetName(); n == "" || n != strings.TrimSpace(n) {
		return nil, invalid("alarm %q: give an alarm's name, without surrounding spaces", n)
	}
	a, err := s.svc.AckAlarm(ctx, req.GetName())
	if err != nil {
		return nil, grpcError(err)
	}
	return &apiv1.AckAlarmResponse{Alarm: alarmToProto(a)}, nil
}

func (s *apiServer) SetBypass(ctx context.Context, req *apiv1.SetBypassRequest) (_ *apiv1.SetBypassResponse, err error) {
	defer markOrigin(ctx, &err)
	if g := req.GetGroup(); g != strings.TrimSpace(g) {
		return nil, invalid("group %q: a filter group name has no surrounding spaces", g)
	}
	if err := s.svc.SetBypass(daemon.WithBy(ctx, Who(ctx)), req.GetGroup(), req.GetOn()); err != nil {
		return nil, grpcError(err)
	}
	return &apiv1.SetBypassResponse{}, nil
}

func (s *apiServer) ReturnFilterGroup(ctx context.Context, req *apiv1.ReturnFilterGroupRequest) (_ *apiv1.ReturnFilterGroupResponse, err error) {
	defer markOrigin(ctx, &err)
	g := req.GetFilterGroup()
	if g == "" {
		return nil, invalid("filter_group: give the name of the filter group to return")
	}
	if g != strings.TrimSpace(g) {
		return nil, invalid("filter_group %q: a filter group name has no surrounding spaces", g)
	}
	if err := s.svc.ReturnFilterGroup(daemon.WithBy(ctx, Who(ctx)), g); err != nil {
		return nil, grpcError(err)
	}
	return &apiv1.ReturnFilterGroupResponse{}, nil
}

func (s *apiServer) GetCounters(ctx context.Context, _ *apiv1.GetCountersRequest) (_ *apiv1.Counters, err error) {
	defer markOrigin(ctx, &err)
	c, err := s.svc.Counters(ctx)
	if err != nil {
		return nil, grpcError(err)
	}
	return countersToProto(c), nil
}

func (s *apiServer) GetSlots(ctx context.Context, req *apiv1.GetSlotsRequest) (_ *apiv1.GetSlotsResponse, err error) {
	defer markOrigin(ctx, &err)
	cfg, _, err := s.svc.Config(ctx)
	if err != nil {
		return nil, grpcError(err)
	}
	var all []string
	if cfg != nil {
		for _, b := range cfg.BalanceGroups {
			all = append(all, b.Name)
		}
	}
	groups := all
	if g := req.GetGroup(); g != "" {
		if !slices.Contains(all, g) {
			known := "none is defined"
			if len(all) > 0 {
				known = "defined: " + strings.Join(all, ", ")
			}
			return nil, status.Errorf(codes.NotFound, "unknown balance group %q (%s)", g, known)
		}
		groups = []string{g}
	}
	out := &apiv1.GetSlotsResponse{}
	for _, g := range groups {
		v, err := s.svc.Slots(ctx, g)
		if err != nil {
			return nil, grpcError(err)
		}
		out.Groups = append(out.Groups, slotsToProto(v, req.GetWithSlots()))
	}
	return out, nil
}

func (s *apiServer) Trace(ctx context.Context, req *apiv1.TraceRequest) (_ *apiv1.TraceResult, err error) {
	defer markOrigin(ctx, &err)
	tr, err := traceRequestFromProto(req)
	if err != nil {
		return nil, err
	}
	res, err := s.svc.Trace(ctx, tr)
	if err != nil {
		return nil, grpcError(err)
	}
	return traceResultToProto(res), nil
}

func (s *apiServer) Locate(ctx context.Context, req *apiv1.LocateRequest) (_ *apiv1.LocateResponse, err error) {
	defer markOrigin(ctx, &err)
	src, dst, err := addrPair(req.GetSrc(), req.GetDst(), true)
	if err != nil {
		return nil, err
	}
	if req.GetProto() > 255 {
		return nil, invalid("proto: %d is out of range 0..255", req.GetProto())
	}
	ps, err := s.svc.Locate(ctx, src, dst, uint8(req.GetProto()))
	if err != nil {
		return nil, grpcError(err)
	}
	out := &apiv1.LocateResponse{Placements: make([]*apiv1.Placement, len(ps))}
	for i, p := range ps {
		out.Placements[i] = &apiv1.Placement{
			BalanceGroup: p.BalanceGroup, Hash: p.Hash, Slot: p.Slot, FilterGroup: p.FilterGroup, Core: p.Core,
			Effective: p.Effective, LanPort: p.LANPort, WanPort: p.WANPort,
			Session: p.Session, SessionFrom: p.SessionFrom, SlotFilterGroup: p.SlotFilterGroup, SlotCore: p.SlotCore,
		}
	}
	return out, nil
}

// addrPair reads a source and a destination address of one family. With
// required, both must be given; otherwise both or neither.
func addrPair(srcText, dstText string, required bool) (src, dst netip.Addr, err error) {
	parse := func(field, s string) (netip.Addr, error) {
		if s == "" {
			if required {
				return netip.Addr{}, invalid("%s: missing; give an IPv4 or IPv6 address", field)
			}
			return netip.Addr{}, nil
		}
		a, err := netip.ParseAddr(s)
		if err != nil || a.Zone() != "" {
			return netip.Addr{}, invalid("%s: %q is not an IPv4 or IPv6 address", field, s)
		}
		return a.Unmap(), nil
	}
	if src, err = parse("src", srcText); err != nil {
		return src, dst, err
	}
	if dst, err = parse("dst", dstText); err != nil {
		return src, dst, err
	}
	switch {
	case src.IsValid() != dst.IsValid():
		return src, dst, invalid("src and dst: give both addresses or, for a non-IP packet, neither")
	case src.IsValid() && src.Is4() != dst.Is4():
		return src, dst, invalid("src and dst: %s and %s are of different families", src, dst)
	}
	return src, dst, nil
}

// Limits of a traced packet's headers (the data plane's parser).
const (
	maxTraceVLANs = 3
	maxTraceMPLS  = 8
	maxVID        = 4095
)

func traceRequestFromProto(req *apiv1.TraceRequest) (daemon.TraceRequest, error) {
	var tr daemon.TraceRequest
	if req.GetLink() == "" {
		return tr, invalid("link: missing; name the link the packet enters on")
	}
	tr.Link = req.GetLink()
	switch side := strings.ToLower(req.GetSide()); side {
	case "lan", "wan":
		tr.Side = side
	case "":
		return tr, invalid("side: missing; lan or wan (the side of the link port the packet enters on)")
	default:
		return tr, invalid("side: %q is not lan or wan", req.GetSide())
	}
	if n := len(req.GetVlans()); n > maxTraceVLANs {
		return tr, invalid("vlans: %d tags; the data plane parses at most %d", n, maxTraceVLANs)
	}
	for i, v := range req.GetVlans() {
		if v > maxVID {
			return tr, invalid("vlans[%d]: %d is out of range 0..%d", i, v, maxVID)
		}
		tr.VLANs = append(tr.VLANs, uint16(v))
	}
	if n := len(req.GetMpls()); n > maxTraceMPLS {
		return tr, invalid("mpls: %d labels; the data plane parses at most %d", n, maxTraceMPLS)
	}
	for i, l := range req.GetMpls() {
		if l > daemon.MaxMPLSLabel {
			return tr, invalid("mpls[%d]: %d is out of range 0..%d", i, l, daemon.MaxMPLSLabel)
		}
		tr.MPLS = append(tr.MPLS, l)
	}
	tr.PPPoE = req.GetPppoe()
	var err error
	if tr.Src, tr.Dst, err = addrPair(req.GetSrc(), req.GetDst(), false); err != nil {
		return tr, err
	}
	for _, f := range []struct {
		name string
		v    uint32
		max  uint32
		dst  func(uint32)
	}{
		{"proto", req.GetProto(), 255, func(v uint32) { tr.Proto = uint8(v) }},
		{"src_port", req.GetSrcPort(), 65535, func(v uint32) { tr.SrcPort = uint16(v) }},
		{"dst_port", req.GetDstPort(), 65535, func(v uint32) { tr.DstPort = uint16(v) }},
		{"ethertype", req.GetEthertype(), 0xffff, func(v uint32) { tr.EtherType = uint16(v) }},
	} {
		if f.v > f.max {
			return tr, invalid("%s: %d is out of range 0..%d", f.name, f.v, f.max)
		}
		f.dst(f.v)
	}
	for _, m := range []struct {
		name string
		v    string
		dst  *string
	}{{"src_mac", req.GetSrcMac(), &tr.SrcMAC}, {"dst_mac", req.GetDstMac(), &tr.DstMAC}} {
		if m.v == "" {
			continue
		}
		mac, err := config.ParseMAC(m.v)
		if err != nil {
			return tr, invalid("%s: %v", m.name, err)
		}
		*m.dst = mac.String()
	}
	return tr, nil
}

// ------------------------------------------------------------ conversions

func timestamp(t time.Time) *timestamppb.Timestamp {
	if t.IsZero() {
		return nil
	}
	return timestamppb.New(t)
}

// duration gives nil for 0 (unset: no keep-alive passed yet; a +Inf
// bucket).
func duration(d time.Duration) *durationpb.Duration {
	if d == 0 {
		return nil
	}
	return durationpb.New(d)
}

func revisionToProto(r daemon.Revision) *apiv1.Revision {
	return &apiv1.Revision{Number: r.Number, Time: timestamp(r.Time), Comment: r.Comment, Digest: r.Digest, By: r.By}
}

func applyResultToProto(r *daemon.ApplyResult) *apiv1.ApplyResult {
	if r == nil {
		return &apiv1.ApplyResult{}
	}
	out := &apiv1.ApplyResult{
		DryRun: r.DryRun, Changes: r.Changes, Inserts: int64(r.Inserts), Modifies: int64(r.Modifies),
		Deletes: int64(r.Deletes), Written: r.Written, Warning: r.Warning, Unchanged: r.Unchanged,
	}
	if r.Revision != (daemon.Revision{}) {
		out.Revision = revisionToProto(r.Revision)
	}
	out.SlotMoves = slotMovesToProto(r.Slots, r.FilterGroupNames)
	out.SessionMemory = r.SessionMemory
	if r.SessionMemory {
		for _, m := range out.SlotMoves {
			h := r.HeldSessions[m.BalanceGroup]
			m.HeldSessions = &apiv1.HeldSessionMove{Held: int64(h.Held), Stay: int64(h.Stay), Leave: int64(h.Leave), WouldMove: int64(h.WouldMove)}
		}
	}
	return out
}

// slotMovesToProto names the filter groups of the slot moves of an apply.
func slotMovesToProto(moves []tables.GroupMove, names map[uint32]string) []*apiv1.SlotMove {
	name := func(id uint32) string {
		if n, ok := names[id]; ok {
			return n
		}
		return fmt.Sprintf("filter group id %d", id)
	}
	var out []*apiv1.SlotMove
	for _, g := range moves {
		m := &apiv1.SlotMove{BalanceGroup: g.Name, Slots: int64(g.Move.Slots), Moved: g.Move.Moved}
		for _, f := range g.Move.Filters {
			m.FilterGroups = append(m.FilterGroups, &apiv1.FilterSlotMove{FilterGroup: name(f.FilterGroup), Before: f.Before, After: f.After, Moved: f.Moved})
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].BalanceGroup < out[j].BalanceGroup })
	return out
}

func daemonInfoToProto(d daemon.DaemonInfo) *apiv1.DaemonInfo {
	b := d.Build
	return &apiv1.DaemonInfo{Version: b.Version, Revision: b.Revision, RevisionTime: b.Time, Modified: b.Modified,
		Go: b.Go, Platform: b.Platform, StartedAt: timestamp(d.StartedAt), Name: d.Name}
}

func statusToProto(st *daemon.Status) *apiv1.Status {
	if st == nil {
		return &apiv1.Status{}
	}
	sw := st.Switch
	out := &apiv1.Status{
		Site:     st.Site,
		Revision: revisionToProto(st.Revision),
		SwitchStatus: &apiv1.SwitchStatus{
			Address: sw.Address, Connected: sw.Connected, Primary: sw.Primary, ElectionId: sw.ElectionID,
			LastError: sw.LastError, LastReconcile: timestamp(sw.LastReconcile), LastPlan: sw.LastPlan,
			AtomicWrites: sw.AtomicWrites, PortsWatched: sw.PortsWatched,
			Stalled: sw.Stalled, StalledSince: timestamp(sw.StalledSince), ElectionRefused: sw.ElectionRefused, Pending: sw.Pending, NextRetry: timestamp(sw.NextRetry),
			StatePending: sw.StatePending, Alarm: sw.Alarm, PortAlarms: sw.PortAlarms,
			CpuPort: sw.CPUPort, CpuPortWritten: sw.CPUPortWritten, PipelineVerdict: sw.PipelineVerdict,
		},
		Bypass:     &apiv1.BypassStatus{All: st.Bypass.All, Groups: st.Bypass.Groups},
		ObservedAt: timestamp(st.ObservedAt),
		Stale:      st.Stale,
		Daemon:     daemonInfoToProto(st.Daemon),
	}
	for _, a := range st.Alarms {
		out.Alarms = append(out.Alarms, alarmToProto(a))
	}
	if c := st.Confirm; c != nil {
		out.CommitConfirm = &apiv1.CommitConfirm{Revision: c.Revision, Previous: c.Previous, Deadline: timestamp(c.Deadline)}
	}
	out.ConfigSession = configSessionToProto(st.Session)
	out.SessionMemory = sessionMemoryToProto(st.SessionMemory)
	if h := st.HA; h != nil {
		out.Ha = &apiv1.HAStatus{Store: h.Store, StoreHealthy: h.StoreHealthy, StoreError: h.StoreError,
			Name: h.Name, Leader: h.Leader, LeaderName: h.LeaderName, Standbys: h.Standbys}
	}
	for _, l := range st.Links {
		out.Links = append(out.Links, &apiv1.LinkStatus{
			Name: l.Name, Id: l.ID, Lan: l.LAN, Wan: l.WAN, LanUp: l.LANUp, WanUp: l.WANUp,
			LanState: l.LANState, WanState: l.WANState,
		})
	}
	for _, f := range st.Filters {
		fs := &apiv1.FilterStatus{
			Name: f.Name, Id: f.ID, BalanceGroup: f.BalanceGroup, Lan: f.LAN, Wan: f.WAN, Cores: f.Cores,
			State: f.State, Reason: f.Reason, Since: timestamp(f.Since), Effective: f.Effective,
			LastPass: timestamp(f.LastPass), TimeOfPass: duration(f.TimeOfPass), Losses: f.Losses,
			Consecutive: f.Consecutive, Passes: f.Passes, Misrouted: f.Misrouted, FailureAction: f.FailureAction,
			LanState: f.LANState, WanState: f.WANState, Held: f.Held, Returning: f.Returning,
			Verdict: f.Verdict, VerdictEpoch: uint32(f.VerdictEpoch), VerdictDisagreements: f.VerdictDisagreements,
		}
		for _, v := range f.Verdicts {
			fs.Verdicts = append(fs.Verdicts, &apiv1.DataPlaneVerdict{At: timestamp(v.At), Epoch: uint32(v.Epoch), Text: v.Text,
				Cleared: timestamp(v.Cleared), Disagree: v.Disagree})
		}
		for _, b := range f.TimeOfPassBuckets {
			fs.TimeOfPassBuckets = append(fs.TimeOfPassBuckets, &apiv1.Bucket{UpTo: duration(b.UpTo), Count: b.Count})
		}
		for _, r := range f.RoundTrips {
			fs.RoundTrips = append(fs.RoundTrips, &apiv1.RoundTrip{Direction: r.Direction, P50: duration(r.P50), P99: duration(r.P99),
				Last: duration(r.Last), Samples: uint32(r.Samples)})
		}
		fs.LossPercent, fs.LossRounds = f.LossPercent, uint32(f.LossRounds)
		if p := f.FailOpen; p != nil {
			fs.FailOpen = &apiv1.FailOpen{ProbeEvery: p.ProbeEvery, Action: p.Action, Sent: p.Sent, Returned: p.Returned,
				Dropped: p.Dropped, FailedOpen: p.FailedOpen, Since: timestamp(p.Since), Detail: p.Detail}
		}
		out.Filters = append(out.Filters, fs)
	}
	for _, b := range st.Balance {
		out.BalanceGroups = append(out.BalanceGroups, &apiv1.BalanceGroupStatus{
			Name: b.Name, Id: b.ID, State: b.State, Members: b.Members, Alive: int64(b.Alive),
			MinActive: int64(b.MinActive), SlotBits: b.SlotBits, Digest: b.Digest, BaseDigest: b.BaseDigest,
			KeepaliveStall: b.KeepAliveStall, StallSince: timestamp(b.StallSince),
		})
	}
	return out
}

func pb(p daemon.PacketBytes) *apiv1.PacketBytes {
	return &apiv1.PacketBytes{Packets: p.Packets, Bytes: p.Bytes}
}

// sessionMemoryToProto is the session memory's state (nil: not on).
func sessionMemoryToProto(sm *daemon.SessionMemoryStatus) *apiv1.SessionMemory {
	if sm == nil {
		return nil
	}
	out := &apiv1.SessionMemory{Held: int64(sm.Held), Size: sm.Size, Occupancy: sm.Occupied,
		Inserted: sm.Inserted, Aged: sm.Evicted, Duplicates: sm.Duplicates, Full: sm.Full, Failed: sm.Failed, Dropped: sm.Dropped,
		Backlog: int64(sm.Backlog), QueueBound: int64(sm.Bound), LastReadBack: timestamp(sm.LastReadBack), Rehomed: sm.Rehomed,
		Reassigned: sm.Reassigned, Removed: sm.Removed, Kept: sm.Kept, KeepTimedOut: sm.KeepTimedOut}
	for _, g := range sm.Groups {
		out.FilterGroups = append(out.FilterGroups, &apiv1.SessionMemoryGroup{Name: g.Name, Id: g.ID, Held: int64(g.Held), KeptInBypass: g.KeptInBypass})
	}
	return out
}

func countersToProto(c *daemon.Counters) *apiv1.Counters {
	if c == nil {
		return &apiv1.Counters{}
	}
	out := &apiv1.Counters{At: timestamp(c.At)}
	for _, p := range c.Ports {
		out.Ports = append(out.Ports, &apiv1.PortCounters{Name: p.Name, Number: p.Number, Rx: pb(p.Rx), Tx: pb(p.Tx)})
	}
	for _, l := range c.Links {
		out.Links = append(out.Links, &apiv1.LinkCounters{
			Name: l.Name, ToFilter: pb(l.ToFilter), RuleBypass: pb(l.RuleBypass), NonIpBypass: pb(l.NonIPBypass),
			SwBypass: pb(l.SWBypass), Returned: pb(l.Returned), Heartbeat: pb(l.Heartbeat),
			GroupBypass: pb(l.GroupBypass), Dropped: pb(l.Dropped),
		})
	}
	for _, f := range c.Filters {
		out.Filters = append(out.Filters, &apiv1.FilterCounters{
			Name: f.Name, ToFilter: pb(f.ToFilter), Returned: pb(f.Returned), KeepAlive: pb(f.KeepAlive), SwBypass: pb(f.SWBypass),
			VerdictBypass: pb(f.VerdictBypass), VerdictDrop: pb(f.VerdictDrop),
		})
	}
	for _, r := range c.Rules {
		out.Rules = append(out.Rules, &apiv1.RuleCounters{Name: r.Name, Priority: r.Priority, Entries: int64(r.Entries), Hits: pb(r.Hits)})
	}
	for _, k := range c.Cores {
		out.Cores = append(out.Cores, &apiv1.CoreCounters{FilterGroup: k.FilterGroup, Core: k.Core, Slots: int64(k.Slots), Hits: pb(k.Hits)})
	}
	for _, d := range c.Drops {
		out.Drops = append(out.Drops, &apiv1.DropCounter{Reason: d.Reason, Count: pb(d.Count)})
	}
	out.SessionMemory = sessionMemoryToProto(c.SessionMemory)
	return out
}

func slotsToProto(v *daemon.SlotsView, withSlots bool) *apiv1.SlotsView {
	if v == nil {
		return &apiv1.SlotsView{}
	}
	out := &apiv1.SlotsView{Group: v.Group, SlotBits: v.SlotBits, Digest: v.Digest, BaseDigest: v.BaseDigest}
	for _, s := range v.Share {
		out.Share = append(out.Share, &apiv1.CoreShare{FilterGroup: s.FilterGroup, Core: s.Core, Slots: int64(s.Slots)})
	}
	if withSlots {
		out.Slots = make([]*apiv1.SlotTarget, len(v.Slots))
		for i, s := range v.Slots {
			out.Slots[i] = &apiv1.SlotTarget{Slot: s.Slot, FilterGroup: s.FilterGroup, Core: s.Core}
		}
	}
	return out
}

func traceResultToProto(r *daemon.TraceResult) *apiv1.TraceResult {
	if r == nil {
		return &apiv1.TraceResult{}
	}
	return &apiv1.TraceResult{
		Steps: r.Steps, Rule: r.Rule, Action: r.Action, BalanceGroup: r.BalanceGroup, Hash: r.Hash, Slot: r.Slot,
		FilterGroup: r.FilterGroup, Core: r.Core, OutPort: r.OutPort, OutPortNumber: r.OutPortNum,
		Verdict: r.Verdict, HeaderHex: r.HeaderHex, Frame: r.Frame, OutFrame: r.OutFrame,
		Session: r.Session, SlotFilterGroup: r.SlotFilterGroup, SlotCore: r.SlotCore,
	}
}

func (s *apiServer) Monitor(req *apiv1.MonitorRequest, stream apiv1.Balancer_MonitorServer) (err error) {
	ctx := stream.Context()
	defer markOrigin(ctx, &err)
	if o := req.GetObject(); o != strings.TrimSpace(o) {
		return invalid("object %q: a name has no surrounding spaces", o)
	}
	if s.stopping != nil {
		var cancel context.CancelCauseFunc
		ctx, cancel = context.WithCancelCause(ctx)
		defer cancel(nil)
		go func() {
			select {
			case <-s.stopping:
				cancel(errStopping)
			case <-ctx.Done():
			}
		}()
	}
	err = s.svc.Monitor(ctx, int(req.GetReplay()), req.GetObject(), req.GetFollow(), func(e daemon.Event) error {
		return stream.Send(eventToProto(e))
	})
	if err != nil && ctx.Err() != nil {
		if errors.Is(context.Cause(ctx), errStopping) {
			// What a client sees when the daemon goes away.
			return status.Error(codes.Unavailable, errStopping.Error())
		}
		return status.FromContextError(ctx.Err()).Err()
	}
	return grpcError(err)
}

func eventToProto(e daemon.Event) *apiv1.Event {
	return &apiv1.Event{Seq: e.Seq, At: timestamp(e.At), Kind: e.Kind, Object: e.Object, From: e.From, To: e.To, Reason: e.Reason, By: e.By}
}
