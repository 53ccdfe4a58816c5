package apiserver

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/internal/buildinfo"
)

// apiFake is a hand-written Service for the API server's tests: it
// returns what its fields say and records the calls it gets.
type apiFake struct {
	mu    sync.Mutex
	calls []string

	cfg      *config.Config
	rev      daemon.Revision
	status   *daemon.Status
	counters *daemon.Counters
	slots    map[string]*daemon.SlotsView
	trace    *daemon.TraceResult
	places   []daemon.Placement
	history  []daemon.Revision
	apply    *daemon.ApplyResult
	err      error // returned by every method when set

	gotApply  []byte
	gotTrace  daemon.TraceRequest
	gotLocate []any
	gotBypass []any
	gotReturn string
	// gotBy: who (daemon.ByOf) made each change call, in order.
	gotBy []string
}

func (f *apiFake) by(ctx context.Context) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gotBy = append(f.gotBy, daemon.ByOf(ctx))
}

var _ daemon.Service = (*apiFake)(nil)

func (f *apiFake) called(name string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, name)
}

func (f *apiFake) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func (f *apiFake) Status(context.Context) (*daemon.Status, error) {
	f.called("Status")
	return f.status, f.err
}

func (f *apiFake) Config(context.Context) (*config.Config, daemon.Revision, error) {
	f.called("Config")
	return f.cfg, f.rev, f.err
}

func (f *apiFake) ApplyConfig(ctx context.Context, yaml []byte, dryRun bool, comment string) (*daemon.ApplyResult, error) {
	f.by(ctx)
	f.called(fmt.Sprintf("ApplyConfig(dry=%v, %q)", dryRun, comment))
	f.gotApply = yaml
	if f.err != nil {
		return nil, f.err
	}
	if _, err := config.Parse(yaml); err != nil {
		return nil, fmt.Errorf("%w: configuration rejected, the running one is unchanged:\n  %w", daemon.ErrInvalid, err)
	}
	return f.apply, nil
}

func (f *apiFake) Rollback(ctx context.Context, n uint64, dryRun bool, comment string) (*daemon.ApplyResult, error) {
	f.by(ctx)
	f.called(fmt.Sprintf("Rollback(%d)", n))
	return f.apply, f.err
}

func (f *apiFake) RevisionYAML(_ context.Context, n uint64) ([]byte, daemon.Revision, error) {
	f.called(fmt.Sprintf("RevisionYAML(%d)", n))
	return nil, daemon.Revision{Number: n}, f.err
}

func (f *apiFake) History(context.Context) ([]daemon.Revision, error) {
	f.called("History")
	return f.history, f.err
}

func (f *apiFake) SetBypass(ctx context.Context, group string, on bool) error {
	f.by(ctx)
	f.called("SetBypass")
	f.gotBypass = []any{group, on}
	return f.err
}

func (f *apiFake) ReturnFilterGroup(ctx context.Context, name string) error {
	f.by(ctx)
	f.called("ReturnFilterGroup")
	f.gotReturn = name
	return f.err
}

func (f *apiFake) Counters(context.Context) (*daemon.Counters, error) {
	f.called("Counters")
	return f.counters, f.err
}

func (f *apiFake) Slots(_ context.Context, group string) (*daemon.SlotsView, error) {
	f.called("Slots(" + group + ")")
	if f.err != nil {
		return nil, f.err
	}
	v, ok := f.slots[group]
	if !ok {
		return nil, fmt.Errorf("%w: balance group %q", daemon.ErrNotFound, group)
	}
	return v, nil
}

func (f *apiFake) Trace(_ context.Context, req daemon.TraceRequest) (*daemon.TraceResult, error) {
	f.called("Trace")
	f.gotTrace = req
	return f.trace, f.err
}

func (f *apiFake) Locate(_ context.Context, src, dst netip.Addr, proto uint8) ([]daemon.Placement, error) {
	f.called("Locate")
	f.gotLocate = []any{src, dst, proto}
	return f.places, f.err
}

// apiFakeYAML adds the optional ConfigYAML method.
type apiFakeYAML struct {
	*apiFake
	yaml []byte
}

func (f apiFakeYAML) ConfigYAML() ([]byte, daemon.Revision) { return f.yaml, f.rev }

// serveAPI serves svc's API on a unix socket in a temporary directory and
// returns a client.
func serveAPI(t *testing.T, svc daemon.Service) apiv1.BalancerClient {
	t.Helper()
	lis, err := ListenUnix(filepath.Join(t.TempDir(), "api.sock"))
	require.NoError(t, err)
	srv := grpc.NewServer()
	apiv1.RegisterBalancerServer(srv, New(svc))
	go srv.Serve(lis)
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient("unix://"+lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	return apiv1.NewBalancerClient(conn)
}

const apiTestYAML = `
site: lab
ports:
  - {port: 1, speed: 100G}
  - {port: 2, speed: 100G}
  - {port: 9, speed: 100G}
  - {port: 10, speed: 100G}
links:
  - {name: L1, lan: P10, wan: P9}
filter_groups:
  - {name: F1, lan: P2, wan: P1, cores: 2}
balance_groups:
  - {name: bg, members: [F1], slot_bits: 2}
`

func apiTestConfig(t *testing.T) *config.Config {
	t.Helper()
	c, err := config.Parse([]byte(apiTestYAML))
	require.NoError(t, err)
	return c
}

func TestAPIErrorCodes(t *testing.T) {
	_, invalidCfg := config.Parse([]byte("links:\n  - {name: L1, lan: P3, wan: P5}\nrules:\n  - {name: r, priority: 0, action: bypass}\n"))
	require.Error(t, invalidCfg)
	tests := []struct {
		name     string
		err      error
		wantCode codes.Code
		wantMsg  []string
	}{
		{name: "validation problems", err: fmt.Errorf("%w: configuration rejected:\n  %w", daemon.ErrInvalid, invalidCfg),
			wantCode: codes.InvalidArgument, wantMsg: []string{"links[0].lan:", "links[0].wan:", "rules[0].priority:"}},
		{name: "bare field errors", err: invalidCfg, wantCode: codes.InvalidArgument, wantMsg: []string{"links[0].lan:", "rules[0].priority:"}},
		{name: "decode error", err: fmt.Errorf("wrapped: %w", config.ErrDecode), wantCode: codes.InvalidArgument},
		{name: "not found", err: fmt.Errorf("%w: balance group %q", daemon.ErrNotFound, "nope"), wantCode: codes.NotFound, wantMsg: []string{`balance group "nope"`}},
		{name: "not waiting for return", err: fmt.Errorf("filter group F1 is %w: it is down (keep-alive loss)", daemon.ErrNotWaiting),
			wantCode: codes.FailedPrecondition, wantMsg: []string{"filter group F1 is not waiting for return"}},
		{name: "switch unavailable", err: fmt.Errorf("%w: reading counters: connection refused", daemon.ErrUnavailable), wantCode: codes.Unavailable, wantMsg: []string{"reading counters"}},
		{name: "deadline", err: fmt.Errorf("reading: %w", context.DeadlineExceeded), wantCode: codes.DeadlineExceeded},
		{name: "canceled", err: context.Canceled, wantCode: codes.Canceled},
		{name: "anything else", err: errors.New("disk on fire"), wantCode: codes.Internal, wantMsg: []string{"disk on fire"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cl := serveAPI(t, &apiFake{err: tt.err})
			_, err := cl.GetCounters(context.Background(), &apiv1.GetCountersRequest{})
			st := status.Convert(err)
			assert.Equal(t, tt.wantCode, st.Code(), st.Message())
			assert.Equal(t, tt.err.Error(), st.Message(), "the message is passed whole")
			for _, m := range tt.wantMsg {
				assert.Contains(t, st.Message(), m)
			}
		})
	}
}

// Errors carry the origin trailer, so that a client tells them from its
// own transport errors.
func TestAPIErrorsCarryOrigin(t *testing.T) {
	f := &apiFake{history: []daemon.Revision{{Number: 1}}}
	cl := serveAPI(t, f)
	var md metadata.MD
	_, err := cl.History(context.Background(), &apiv1.HistoryRequest{}, grpc.Trailer(&md))
	require.NoError(t, err)
	assert.Empty(t, md.Get(apiv1.OriginTrailer), "only errors are marked")

	f.err = fmt.Errorf("%w: switch gone", daemon.ErrUnavailable)
	_, err = cl.History(context.Background(), &apiv1.HistoryRequest{}, grpc.Trailer(&md))
	assert.Equal(t, codes.Unavailable, status.Code(err))
	assert.Equal(t, []string{apiv1.OriginDaemon}, md.Get(apiv1.OriginTrailer))

	_, err = cl.Rollback(context.Background(), &apiv1.RollbackRequest{}, grpc.Trailer(&md))
	assert.Equal(t, codes.InvalidArgument, status.Code(err))
	assert.Equal(t, []string{apiv1.OriginDaemon}, md.Get(apiv1.OriginTrailer), "request checks are marked too")
}

func TestAPIApplyRejectsInvalidConfigWithEveryPath(t *testing.T) {
	f := &apiFake{}
	cl := serveAPI(t, f)
	bad := strings.Replace(apiTestYAML, "lan: P10, wan: P9", "lan: P9, wan: P10", 1) + "rules:\n  - {name: r, priority: 70000, action: balance nope}\n"
	_, err := cl.ApplyConfig(context.Background(), &apiv1.ApplyConfigRequest{Yaml: bad})
	st := status.Convert(err)
	require.Equal(t, codes.InvalidArgument, st.Code(), st.Message())
	for _, want := range []string{"links[0].lan:", "links[0].wan:", "rules[0].priority:", "rules[0].action:"} {
		assert.Contains(t, st.Message(), want)
	}
}

func TestAPIBadRequests(t *testing.T) {
	bg := context.Background()
	tests := []struct {
		name string
		call func(cl apiv1.BalancerClient) error
		want string
	}{
		{"empty apply", func(cl apiv1.BalancerClient) error {
			_, err := cl.ApplyConfig(bg, &apiv1.ApplyConfigRequest{Yaml: " \n"})
			return err
		}, "the configuration is empty"},
		{"rollback to 0", func(cl apiv1.BalancerClient) error {
			_, err := cl.Rollback(bg, &apiv1.RollbackRequest{})
			return err
		}, "revision: missing"},
		{"bypass group with spaces", func(cl apiv1.BalancerClient) error {
			_, err := cl.SetBypass(bg, &apiv1.SetBypassRequest{Group: " F1"})
			return err
		}, `group " F1"`},
		{"trace without link", func(cl apiv1.BalancerClient) error {
			_, err := cl.Trace(bg, &apiv1.TraceRequest{Side: "lan"})
			return err
		}, "link: missing"},
		{"trace without side", func(cl apiv1.BalancerClient) error {
			_, err := cl.Trace(bg, &apiv1.TraceRequest{Link: "L1"})
			return err
		}, "side: missing"},
		{"trace bad side", func(cl apiv1.BalancerClient) error {
			_, err := cl.Trace(bg, &apiv1.TraceRequest{Link: "L1", Side: "up"})
			return err
		}, `side: "up" is not lan or wan`},
		{"trace too many tags", func(cl apiv1.BalancerClient) error {
			_, err := cl.Trace(bg, &apiv1.TraceRequest{Link: "L1", Side: "lan", Vlans: []uint32{1, 2, 3, 4}})
			return err
		}, "vlans: 4 tags; the data plane parses at most 3"},
		{"trace vid too big", func(cl apiv1.BalancerClient) error {
			_, err := cl.Trace(bg, &apiv1.TraceRequest{Link: "L1", Side: "lan", Vlans: []uint32{100, 4096}})
			return err
		}, "vlans[1]: 4096 is out of range 0..4095"},
		{"trace too many labels", func(cl apiv1.BalancerClient) error {
			_, err := cl.Trace(bg, &apiv1.TraceRequest{Link: "L1", Side: "lan", Mpls: make([]uint32, 9)})
			return err
		}, "mpls: 9 labels"},
		{"trace label too big", func(cl apiv1.BalancerClient) error {
			_, err := cl.Trace(bg, &apiv1.TraceRequest{Link: "L1", Side: "lan", Mpls: []uint32{1 << 20}})
			return err
		}, "mpls[0]: 1048576 is out of range 0..1048575"},
		{"trace src without dst", func(cl apiv1.BalancerClient) error {
			_, err := cl.Trace(bg, &apiv1.TraceRequest{Link: "L1", Side: "lan", Src: "10.0.0.1"})
			return err
		}, "give both addresses"},
		{"trace bad address", func(cl apiv1.BalancerClient) error {
			_, err := cl.Trace(bg, &apiv1.TraceRequest{Link: "L1", Side: "lan", Src: "10.0.0.300", Dst: "10.0.0.1"})
			return err
		}, `src: "10.0.0.300" is not an IPv4 or IPv6 address`},
		{"trace mixed families", func(cl apiv1.BalancerClient) error {
			_, err := cl.Trace(bg, &apiv1.TraceRequest{Link: "L1", Side: "lan", Src: "10.0.0.1", Dst: "2001:db8::1"})
			return err
		}, "different families"},
		{"trace proto too big", func(cl apiv1.BalancerClient) error {
			_, err := cl.Trace(bg, &apiv1.TraceRequest{Link: "L1", Side: "lan", Src: "10.0.0.1", Dst: "10.0.0.2", Proto: 256})
			return err
		}, "proto: 256 is out of range 0..255"},
		{"trace port too big", func(cl apiv1.BalancerClient) error {
			_, err := cl.Trace(bg, &apiv1.TraceRequest{Link: "L1", Side: "lan", Src: "10.0.0.1", Dst: "10.0.0.2", Proto: 6, DstPort: 70000})
			return err
		}, "dst_port: 70000 is out of range 0..65535"},
		{"trace ethertype too big", func(cl apiv1.BalancerClient) error {
			_, err := cl.Trace(bg, &apiv1.TraceRequest{Link: "L1", Side: "lan", Ethertype: 0x10000})
			return err
		}, "ethertype: 65536 is out of range"},
		{"trace bad mac", func(cl apiv1.BalancerClient) error {
			_, err := cl.Trace(bg, &apiv1.TraceRequest{Link: "L1", Side: "lan", SrcMac: "aa:bb"})
			return err
		}, `src_mac: bad MAC "aa:bb"`},
		{"locate without src", func(cl apiv1.BalancerClient) error {
			_, err := cl.Locate(bg, &apiv1.LocateRequest{Dst: "10.0.0.1", Proto: 6})
			return err
		}, "src: missing"},
		{"locate bad dst", func(cl apiv1.BalancerClient) error {
			_, err := cl.Locate(bg, &apiv1.LocateRequest{Src: "10.0.0.1", Dst: "x", Proto: 6})
			return err
		}, `dst: "x" is not an IPv4 or IPv6 address`},
		{"locate mixed families", func(cl apiv1.BalancerClient) error {
			_, err := cl.Locate(bg, &apiv1.LocateRequest{Src: "10.0.0.1", Dst: "::1", Proto: 6})
			return err
		}, "different families"},
		{"locate proto too big", func(cl apiv1.BalancerClient) error {
			_, err := cl.Locate(bg, &apiv1.LocateRequest{Src: "10.0.0.1", Dst: "10.0.0.2", Proto: 300})
			return err
		}, "proto: 300 is out of range 0..255"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &apiFake{}
			err := tt.call(serveAPI(t, f))
			st := status.Convert(err)
			assert.Equal(t, codes.InvalidArgument, st.Code(), st.Message())
			assert.Contains(t, st.Message(), tt.want)
			assert.Empty(t, f.Calls(), "a bad request never reaches the service")
		})
	}
}

func TestAPIConversions(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	ts := timestamppb.New
	f := &apiFake{
		status: &daemon.Status{
			Site: "lab", Revision: daemon.Revision{Number: 3, Time: t0, Comment: "c", Digest: "abc"},
			Switch: daemon.SwitchStatus{Address: "127.0.0.1:9559", Connected: true, Primary: true, ElectionID: "0:1",
				LastReconcile: t0, LastPlan: "0 writes", AtomicWrites: true, PortsWatched: true},
			Bypass: daemon.BypassStatus{Groups: []string{"F2"}},
			Links:  []daemon.LinkStatus{{Name: "L1", ID: 1, LAN: "P10", WAN: "P9", LANUp: true}},
			Filters: []daemon.FilterStatus{{Name: "F1", ID: 0, BalanceGroup: "bg", LAN: "P2", WAN: "P1", Cores: 2, State: "up",
				Reason: "keep-alives", Since: t0, Effective: "forward", LastPass: t0.Add(time.Second), TimeOfPass: 120 * time.Microsecond,
				Losses: 4, Consecutive: 1, Passes: 100, Misrouted: 2, FailureAction: "bypass",
				TimeOfPassBuckets: []daemon.Bucket{{UpTo: time.Millisecond, Count: 99}, {Count: 1}}}},
			Balance:    []daemon.BalanceGroupStatus{{Name: "bg", ID: 0, State: "active", Members: []string{"F1"}, Alive: 1, MinActive: 1, SlotBits: 2, Digest: "d1", BaseDigest: "d1"}},
			ObservedAt: t0.Add(time.Minute),
			Daemon:     daemon.DaemonInfo{Build: buildinfo.Info{Version: "v1.0.0", Go: "go1.26.8", Platform: "linux/amd64"}, StartedAt: t0},
		},
		counters: &daemon.Counters{
			Ports:   []daemon.PortCounters{{Name: "P9", Number: 90, Rx: daemon.PacketBytes{Packets: 1, Bytes: 64}, Tx: daemon.PacketBytes{Packets: 2, Bytes: 128}}},
			Links:   []daemon.LinkCounters{{Name: "L1", ToFilter: daemon.PacketBytes{Packets: 3, Bytes: 300}, Dropped: daemon.PacketBytes{Packets: 1, Bytes: 1}}},
			Filters: []daemon.FilterCounters{{Name: "F1", KeepAlive: daemon.PacketBytes{Packets: 10, Bytes: 640}, VerdictBypass: daemon.PacketBytes{Packets: 4, Bytes: 400}, VerdictDrop: daemon.PacketBytes{Packets: 2, Bytes: 128}}},
			Rules:   []daemon.RuleCounters{{Name: "r", Priority: 10, Entries: 2, Hits: daemon.PacketBytes{Packets: 5, Bytes: 500}}},
			Cores:   []daemon.CoreCounters{{FilterGroup: "F1", Core: 1, Slots: 2, Hits: daemon.PacketBytes{Packets: 7, Bytes: 700}}},
			Drops:   []daemon.DropCounter{{Reason: "unknown port", Count: daemon.PacketBytes{Packets: 1, Bytes: 60}}},
			At:      t0,
		},
		trace: &daemon.TraceResult{Steps: []string{"a", "b"}, Rule: "r", Action: "balance", BalanceGroup: "bg", Hash: 0xdeadbeef,
			Slot: 3, FilterGroup: "F1", Core: 1, OutPort: "P2", OutPortNum: 20, Verdict: "to-filter", HeaderHex: "88b50401",
			Frame: []byte{1, 2}, OutFrame: []byte{3}},
		places:  []daemon.Placement{{BalanceGroup: "bg", Hash: 7, Slot: 3, FilterGroup: "F1", Core: 1, Effective: "forward", LANPort: "P2", WANPort: "P1"}},
		history: []daemon.Revision{{Number: 1, Time: t0, Digest: "x"}, {Number: 2, Time: t0, Comment: "y", Digest: "z"}},
	}
	cl := serveAPI(t, f)
	bg := context.Background()

	st, err := cl.GetStatus(bg, &apiv1.GetStatusRequest{})
	require.NoError(t, err)
	wantStatus := &apiv1.Status{
		Site: "lab", Revision: &apiv1.Revision{Number: 3, Time: ts(t0), Comment: "c", Digest: "abc"},
		SwitchStatus: &apiv1.SwitchStatus{Address: "127.0.0.1:9559", Connected: true, Primary: true, ElectionId: "0:1",
			LastReconcile: ts(t0), LastPlan: "0 writes", AtomicWrites: true, PortsWatched: true},
		Bypass: &apiv1.BypassStatus{Groups: []string{"F2"}},
		Links:  []*apiv1.LinkStatus{{Name: "L1", Id: 1, Lan: "P10", Wan: "P9", LanUp: true}},
		Filters: []*apiv1.FilterStatus{{Name: "F1", BalanceGroup: "bg", Lan: "P2", Wan: "P1", Cores: 2, State: "up",
			Reason: "keep-alives", Since: ts(t0), Effective: "forward", LastPass: ts(t0.Add(time.Second)),
			TimeOfPass: durationpb.New(120 * time.Microsecond), Losses: 4, Consecutive: 1, Passes: 100, Misrouted: 2,
			FailureAction: "bypass", TimeOfPassBuckets: []*apiv1.Bucket{{UpTo: durationpb.New(time.Millisecond), Count: 99}, {Count: 1}}}},
		BalanceGroups: []*apiv1.BalanceGroupStatus{{Name: "bg", State: "active", Members: []string{"F1"}, Alive: 1, MinActive: 1, SlotBits: 2, Digest: "d1", BaseDigest: "d1"}},
		ObservedAt:    ts(t0.Add(time.Minute)),
		Daemon:        &apiv1.DaemonInfo{Version: "v1.0.0", Go: "go1.26.8", Platform: "linux/amd64", StartedAt: ts(t0)},
	}
	assert.Empty(t, cmp.Diff(wantStatus, st, protocmp.Transform()))

	c, err := cl.GetCounters(bg, &apiv1.GetCountersRequest{})
	require.NoError(t, err)
	pb := func(p, b uint64) *apiv1.PacketBytes { return &apiv1.PacketBytes{Packets: p, Bytes: b} }
	z := pb(0, 0)
	wantCounters := &apiv1.Counters{
		Ports: []*apiv1.PortCounters{{Name: "P9", Number: 90, Rx: pb(1, 64), Tx: pb(2, 128)}},
		Links: []*apiv1.LinkCounters{{Name: "L1", ToFilter: pb(3, 300), RuleBypass: z, NonIpBypass: z, SwBypass: z,
			Returned: z, Heartbeat: z, GroupBypass: z, Dropped: pb(1, 1)}},
		Filters: []*apiv1.FilterCounters{{Name: "F1", ToFilter: z, Returned: z, KeepAlive: pb(10, 640), SwBypass: z, VerdictBypass: pb(4, 400), VerdictDrop: pb(2, 128)}},
		Rules:   []*apiv1.RuleCounters{{Name: "r", Priority: 10, Entries: 2, Hits: pb(5, 500)}},
		Cores:   []*apiv1.CoreCounters{{FilterGroup: "F1", Core: 1, Slots: 2, Hits: pb(7, 700)}},
		Drops:   []*apiv1.DropCounter{{Reason: "unknown port", Count: pb(1, 60)}},
		At:      ts(t0),
	}
	assert.Empty(t, cmp.Diff(wantCounters, c, protocmp.Transform()))

	tr, err := cl.Trace(bg, &apiv1.TraceRequest{Link: "L1", Side: "LAN", Vlans: []uint32{100, 5}, Mpls: []uint32{16},
		Pppoe: true, Src: "10.0.0.1", Dst: "::ffff:10.0.0.2", Proto: 6, SrcPort: 1000, DstPort: 80, SrcMac: "AA:BB:CC:DD:EE:FF"})
	require.NoError(t, err)
	assert.Equal(t, daemon.TraceRequest{Link: "L1", Side: "lan", VLANs: []uint16{100, 5}, MPLS: []uint32{16}, PPPoE: true,
		Src: netip.MustParseAddr("10.0.0.1"), Dst: netip.MustParseAddr("10.0.0.2"), Proto: 6, SrcPort: 1000, DstPort: 80,
		SrcMAC: "aa:bb:cc:dd:ee:ff"}, f.gotTrace, "an IPv4-mapped address is taken as IPv4")
	wantTrace := &apiv1.TraceResult{Steps: []string{"a", "b"}, Rule: "r", Action: "balance", BalanceGroup: "bg", Hash: 0xdeadbeef,
		Slot: 3, FilterGroup: "F1", Core: 1, OutPort: "P2", OutPortNumber: 20, Verdict: "to-filter", HeaderHex: "88b50401",
		Frame: []byte{1, 2}, OutFrame: []byte{3}}
	assert.Empty(t, cmp.Diff(wantTrace, tr, protocmp.Transform()))

	loc, err := cl.Locate(bg, &apiv1.LocateRequest{Src: "2001:db8::1", Dst: "2001:db8::2", Proto: 17})
	require.NoError(t, err)
	assert.Equal(t, []any{netip.MustParseAddr("2001:db8::1"), netip.MustParseAddr("2001:db8::2"), uint8(17)}, f.gotLocate)
	assert.Empty(t, cmp.Diff(&apiv1.LocateResponse{Placements: []*apiv1.Placement{{BalanceGroup: "bg", Hash: 7, Slot: 3,
		FilterGroup: "F1", Core: 1, Effective: "forward", LanPort: "P2", WanPort: "P1"}}}, loc, protocmp.Transform()))

	h, err := cl.History(bg, &apiv1.HistoryRequest{})
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff(&apiv1.HistoryResponse{Revisions: []*apiv1.Revision{{Number: 1, Time: ts(t0), Digest: "x"},
		{Number: 2, Time: ts(t0), Comment: "y", Digest: "z"}}}, h, protocmp.Transform()))

	_, err = cl.SetBypass(bg, &apiv1.SetBypassRequest{Group: "F1", On: true})
	require.NoError(t, err)
	assert.Equal(t, []any{"F1", true}, f.gotBypass)

	_, err = cl.ReturnFilterGroup(bg, &apiv1.ReturnFilterGroupRequest{FilterGroup: "F1"})
	require.NoError(t, err)
	assert.Equal(t, "F1", f.gotReturn)
}

func TestAPIApplyAndRollback(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	f := &apiFake{rev: daemon.Revision{Number: 4}, apply: &daemon.ApplyResult{Revision: daemon.Revision{Number: 5, Time: t0, Digest: "d"},
		Changes: []string{"+ link L2"}, Inserts: 3, Modifies: 1, Deletes: 2, Written: true, Warning: "w"}}
	cl := serveAPI(t, f)
	bg := context.Background()
	want := &apiv1.ApplyResult{Revision: &apiv1.Revision{Number: 5, Time: timestamppb.New(t0), Digest: "d"},
		Changes: []string{"+ link L2"}, Inserts: 3, Modifies: 1, Deletes: 2, Written: true, Warning: "w"}

	res, err := cl.ApplyConfig(bg, &apiv1.ApplyConfigRequest{Yaml: apiTestYAML, Comment: "hi", BaseRevision: 4})
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff(want, res, protocmp.Transform()))
	assert.Equal(t, apiTestYAML, string(f.gotApply))

	_, err = cl.ApplyConfig(bg, &apiv1.ApplyConfigRequest{Yaml: apiTestYAML, BaseRevision: 3})
	st := status.Convert(err)
	assert.Equal(t, codes.Aborted, st.Code())
	assert.Equal(t, "the running configuration is revision 4, not 3: it changed since it was read; read it again and retry", st.Message())

	res, err = cl.Rollback(bg, &apiv1.RollbackRequest{Revision: 2})
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff(want, res, protocmp.Transform()))
	assert.Equal(t, []string{"Config", `ApplyConfig(dry=false, "hi")`, "Config", "Rollback(2)"}, f.Calls(), "base_revision is checked before the apply")

	// A dry run has no revision.
	f.apply = &daemon.ApplyResult{DryRun: true}
	res, err = cl.ApplyConfig(bg, &apiv1.ApplyConfigRequest{Yaml: apiTestYAML, DryRun: true})
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff(&apiv1.ApplyResult{DryRun: true}, res, protocmp.Transform()))
}

func TestAPIGetConfig(t *testing.T) {
	bg := context.Background()
	t.Run("marshals the running config", func(t *testing.T) {
		cfg := apiTestConfig(t)
		f := &apiFake{cfg: cfg, rev: daemon.Revision{Number: 2, Digest: "d"}}
		r, err := serveAPI(t, f).GetConfig(bg, &apiv1.GetConfigRequest{})
		require.NoError(t, err)
		assert.Equal(t, uint64(2), r.GetRevision().GetNumber())
		back, err := config.Parse([]byte(r.GetYaml()))
		require.NoError(t, err)
		assert.Equal(t, cfg, back)
	})
	t.Run("prefers the saved text", func(t *testing.T) {
		f := apiFakeYAML{apiFake: &apiFake{rev: daemon.Revision{Number: 7}}, yaml: []byte("# a comment\n" + apiTestYAML)}
		r, err := serveAPI(t, f).GetConfig(bg, &apiv1.GetConfigRequest{})
		require.NoError(t, err)
		assert.Equal(t, "# a comment\n"+apiTestYAML, r.GetYaml())
		assert.Equal(t, uint64(7), r.GetRevision().GetNumber())
		assert.Empty(t, f.Calls())
	})
}

func TestAPIGetSlots(t *testing.T) {
	view := func(g string) *daemon.SlotsView {
		return &daemon.SlotsView{Group: g, SlotBits: 1, Digest: "d-" + g, BaseDigest: "b-" + g,
			Share: []daemon.CoreShare{{FilterGroup: "F1", Core: 0, Slots: 2}},
			Slots: []daemon.SlotTarget{{Slot: 0, FilterGroup: "F1"}, {Slot: 1, FilterGroup: "F1"}}}
	}
	cfg := apiTestConfig(t)
	cfg.BalanceGroups = append(cfg.BalanceGroups, config.BalanceGroup{Name: "bg2"})
	f := &apiFake{cfg: cfg, slots: map[string]*daemon.SlotsView{"bg": view("bg"), "bg2": view("bg2")}}
	cl := serveAPI(t, f)
	bg := context.Background()

	all, err := cl.GetSlots(bg, &apiv1.GetSlotsRequest{})
	require.NoError(t, err)
	require.Len(t, all.GetGroups(), 2)
	assert.Equal(t, "bg", all.GetGroups()[0].GetGroup())
	assert.Equal(t, "d-bg2", all.GetGroups()[1].GetDigest())
	assert.Empty(t, all.GetGroups()[0].GetSlots(), "slots only with with_slots")

	one, err := cl.GetSlots(bg, &apiv1.GetSlotsRequest{Group: "bg2", WithSlots: true})
	require.NoError(t, err)
	want := &apiv1.GetSlotsResponse{Groups: []*apiv1.SlotsView{{Group: "bg2", SlotBits: 1, Digest: "d-bg2", BaseDigest: "b-bg2",
		Share: []*apiv1.CoreShare{{FilterGroup: "F1", Slots: 2}},
		Slots: []*apiv1.SlotTarget{{Slot: 0, FilterGroup: "F1"}, {Slot: 1, FilterGroup: "F1"}}}}}
	assert.Empty(t, cmp.Diff(want, one, protocmp.Transform()))

	_, err = cl.GetSlots(bg, &apiv1.GetSlotsRequest{Group: "nope"})
	assert.Equal(t, codes.NotFound, status.Code(err))

	none, err := serveAPI(t, &apiFake{cfg: &config.Config{}}).GetSlots(bg, &apiv1.GetSlotsRequest{})
	require.NoError(t, err)
	assert.Empty(t, none.GetGroups())
}

func (f *apiFake) Monitor(_ context.Context, replay int, object string, follow bool, fn func(daemon.Event) error) error {
	f.called(fmt.Sprintf("Monitor %d %q %v", replay, object, follow))
	return fn(daemon.Event{Seq: 1, Kind: daemon.EventBypass, Object: "F1", To: "on"})
}

func (f *apiFake) AckAlarm(_ context.Context, name string) (daemon.Alarm, error) {
	f.called("AckAlarm " + name)
	if f.err != nil {
		return daemon.Alarm{}, f.err
	}
	return daemon.Alarm{Name: name, Object: "state directory /x", Acknowledge: true}, nil
}

// AckAlarm: the name reaches the service and the alarm comes back; an
// empty or padded name is refused before it; the service's NOT_FOUND is
// the client's.
func TestAckAlarm(t *testing.T) {
	f := &apiFake{}
	c := serveAPI(t, f)
	ctx := context.Background()
	r, err := c.AckAlarm(ctx, &apiv1.AckAlarmRequest{Name: "state-repaired"})
	require.NoError(t, err)
	assert.Equal(t, "state-repaired", r.GetAlarm().GetName())
	assert.Equal(t, "state directory /x", r.GetAlarm().GetObject())
	assert.True(t, r.GetAlarm().GetAcknowledge())
	for _, name := range []string{"", " state-repaired"} {
		_, err = c.AckAlarm(ctx, &apiv1.AckAlarmRequest{Name: name})
		assert.Equal(t, codes.InvalidArgument, status.Code(err), "%q: %v", name, err)
	}
	assert.Equal(t, []string{"AckAlarm state-repaired"}, f.calls)
	f.err = fmt.Errorf("%w: alarm state-repaired is not raised (none is raised)", daemon.ErrNotFound)
	_, err = c.AckAlarm(ctx, &apiv1.AckAlarmRequest{Name: "state-repaired"})
	assert.Equal(t, codes.NotFound, status.Code(err))
	assert.Contains(t, status.Convert(err).Message(), "alarm state-repaired is not raised")
}
