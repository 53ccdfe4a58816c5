package etcdstore

import (
	"context"
	"encoding/binary"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"

	"github.com/dpi-balancer/balancer/controlplane"
	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/daemon/etcdstore/etcdtest"
	"github.com/dpi-balancer/balancer/daemon/statestore"
	"github.com/dpi-balancer/balancer/daemon/telemetry"
	"github.com/dpi-balancer/balancer/internal/testbed"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/profiles"
	"github.com/dpi-balancer/balancer/sim"
)

// filterEmu is a DPI filter between two switch ports: it passes frames
// LAN<->WAN unchanged while alive. Its DPI blocks the fail-open probes
// (a healthy filter drops them); passAll makes it fail open: it passes
// every frame, probes too.
type filterEmu struct {
	lan, wan *sim.MemPeer
	alive    atomic.Bool
	passAll  atomic.Bool
	// data counts the data frames (not keep-alives) that reached it;
	// probes the fail-open probes that reached it, probesPassed those it
	// passed.
	data, probes, probesPassed atomic.Uint64
}

func (f *filterEmu) run(ctx context.Context) {
	pass := func(from, to *sim.MemPeer) {
		for ctx.Err() == nil {
			fr, err := from.Recv(20 * time.Millisecond)
			if err != nil {
				continue
			}
			keepAlive := len(fr) >= 14 && binary.BigEndian.Uint16(fr[12:14]) == wire.DefaultKeepAliveEtherType
			if !keepAlive {
				f.data.Add(1)
			}
			if !f.alive.Load() {
				continue
			}
			if keepAlive && profiles.IsProbe(fr, wire.DefaultKeepAliveEtherType) {
				f.probes.Add(1)
				if !f.passAll.Load() {
					continue // its DPI blocks the probe's payload
				}
				f.probesPassed.Add(1)
			}
			_ = to.Send(fr)
		}
	}
	go pass(f.lan, f.wan)
	go pass(f.wan, f.lan)
}

// write is one Write request the switch received.
type write struct {
	at       time.Time
	election uint64 // low 64 bits (high are 0 in these tests); 0: none
	updates  int
	ok       bool
}

// haBed is a software switch (recording every write and arbitration),
// filter emulators and an etcd for daemons of one switch.
type haBed struct {
	t       testing.TB
	etcd    string
	prefix  string            // the daemons' keys (Open)
	cluster *etcdtest.Cluster // when set, daemons reach its members directly
	sw      *sim.Switch
	addr    string
	filters map[string]*filterEmu
	peers   map[uint32]*sim.MemPeer // the far ends of the switch's ports
	// endpoints, when set, are the etcd members the daemons reach (real
	// etcd processes); schema, when set, the program switch and daemons
	// run (else the committed build).
	endpoints []string
	schema    *p4src.Schema
	// lease is the daemons' lease TTL (bedLease unless set).
	lease time.Duration
	// config is the configuration the store is seeded with
	// (testdata/ha.yaml unless set).
	config string
	// publish: each daemon publishes its status to a telemetry publisher
	// (haDaemon.pub: the metrics) every 20 ms.
	publish bool
	// crash, when set, is the daemons' daemon.Options.CrashPoint; logOut,
	// when set, gets their logs too (a child process's stderr).
	crash  func(daemon.CrashPoint)
	logOut io.Writer

	mu     sync.Mutex
	writes []write
	bids   map[uint64]time.Time // first arbitration with each election id
}

func newHABed(t testing.TB) *haBed {
	t.Helper()
	return newHABedOn(t, startEtcd(t), nil)
}

// quorumLossLease is the lease of the beds where etcd loses its quorum
// under a holding leader: the members must say "no leader" before the
// leader's step-down deadline (docs/ha.md, "Timing"), and on a loaded
// test host (go test runs packages side by side, under -race) an embedded
// or paused-and-resumed member can take seconds to answer; with 2 s the
// leader then steps down instead of holding, as documented for a lease
// too short for its members. 6 s is the lease docs/ha.md gives for etcd's
// default timing.
const quorumLossLease = 6 * time.Second

// bedLease is the lease of the beds that do not set one (withLease). Their
// tests are not about the lease's timing, and their etcd member is
// embedded in the test process: on a 2-core host loaded by stress-ng
// --cpu 8, under -race, that member answered no renewal for 1.5 s (a 2 s
// lease less its quarter guard) and even 4.5 s (6 s) in one run, and the
// leader stepped down mid-test as it must before its lease could expire
// (the product was right; the bed's lease was too short for its host). A
// test that bounds a takeover's time judges it against the lease
// (haBed.leaseTTL).
const bedLease = 10 * time.Second

// setupWait bounds the waits for a bed's setup (a leader with its filters
// up, a standby connected, the runtime state saved): events, not timing
// under test; on a starved host a first reconcile took 10 s.
const setupWait = 60 * time.Second

// heldLease is the lease of the beds whose leader holds the switch
// through a lost etcd quorum of real etcd processes, or is cut off from
// etcd while it must still lead, and whose tests are not about the
// lease's timing: a held leader's hold lasts while a member says "no
// leader" within the lease less its quarter guard, and beside stress-ng
// --cpu 8 under -race the etcd processes (restarted, or paused and
// resumed) did not answer within 4.5 s of a 6 s lease (quorumLossLease):
// the leader stepped down mid-test, as it must for its lease.
const heldLease = 15 * time.Second

// relaxedInterval and relaxedLoss are the keep-alives relaxKeepAlives
// gives a site: every 200 ms, a filter group down after 50 lost (10 s),
// as daemon/testdata/relaxed.yaml and TestHATakeoverKeepsRecoveredWait.
// For beds whose tests are not about how fast a filter's loss is found:
// beside stress-ng --cpu 8 under -race the host stalled the test process
// (switch, filter emulators, daemons) 0.5-2.2 s, past testdata/ha.yaml's
// 4 x 50 ms and the stall guard's 1 s hold, and healthy filters failed
// over while the test waited for them to be in service.
const (
	relaxedInterval = 200 * time.Millisecond
	relaxedLoss     = 50
)

// relaxKeepAlives rewrites the site at path (testdata/ha.yaml or one
// made from it) in place with relaxedInterval and relaxedLoss; path ""
// writes a copy of testdata/ha.yaml. It returns the path.
func relaxKeepAlives(t testing.TB, path string) string {
	t.Helper()
	if path == "" {
		data, err := os.ReadFile("testdata/ha.yaml")
		require.NoError(t, err)
		path = filepath.Join(t.TempDir(), "ha.yaml")
		require.NoError(t, os.WriteFile(path, data, 0o644))
	}
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	site := strings.Replace(string(data), "interval: 50ms,", "interval: 200ms,", 1)
	site = regexp.MustCompile(`loss_threshold: [0-9]+,`).ReplaceAllString(site, "loss_threshold: 50,")
	require.Equal(t, 1, strings.Count(site, "interval: 200ms,"), "the site's keep-alive interval: %s", site)
	require.Equal(t, 1, strings.Count(site, "loss_threshold: 50,"), "the site's loss threshold: %s", site)
	require.NoError(t, os.WriteFile(path, []byte(site), 0o644))
	return path
}

// leaseTTL is the daemons' lease.
func (b *haBed) leaseTTL() time.Duration {
	if b.lease == 0 {
		return bedLease
	}
	return b.lease
}

// withLease sets the daemons' lease TTL.
func withLease(d time.Duration) func(*haBed) { return func(b *haBed) { b.lease = d } }

// newHABedOn is newHABed on an etcd at addr, or on cluster (addr ""); opts
// set the bed's other fields before the switch starts.
func newHABedOn(t testing.TB, addr string, cluster *etcdtest.Cluster, opts ...func(*haBed)) *haBed {
	t.Helper()
	b := &haBed{t: t, etcd: addr, cluster: cluster, prefix: keys(t, "/balancer/test/sw1/"), filters: map[string]*filterEmu{}, bids: map[uint64]time.Time{}}
	for _, o := range opts {
		o(b)
	}
	ports := map[uint32]sim.Port{}
	peers := map[uint32]*sim.MemPeer{}
	b.peers = peers
	for _, n := range []uint32{10, 20, 30, 40, 50, 60, 70, 80} {
		p, peer := sim.NewMemPort(1024)
		ports[n], peers[n] = p, peer
	}
	ctx, cancel := context.WithCancel(context.Background())
	for name, pp := range map[string][2]uint32{"F1": {40, 30}, "F2": {60, 50}, "F3": {80, 70}} {
		f := &filterEmu{lan: peers[pp[0]], wan: peers[pp[1]]}
		f.alive.Store(true)
		f.run(ctx)
		b.filters[name] = f
	}
	sw, err := sim.New(sim.Options{Ports: ports, CounterInterval: 50 * time.Millisecond, Schema: b.schema})
	require.NoError(t, err)
	b.sw = sw
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	b.addr = lis.Addr().String()
	g := grpc.NewServer(grpc.ChainUnaryInterceptor(b.unary), grpc.ChainStreamInterceptor(b.stream))
	sw.Register(g)
	var wg sync.WaitGroup
	sw.Start(ctx, &wg)
	wg.Go(func() { _ = g.Serve(lis) })
	t.Cleanup(func() {
		cancel()
		g.Stop()
		wg.Wait()
	})
	return b
}

// digestConfigOnly: a write of the verdict digest's configuration alone,
// which every controller that becomes primary sends (a switch that has it
// answers ALREADY_EXISTS, and a MODIFY follows): not a write of the
// forwarding state, so the beds count only the others.
func digestConfigOnly(w *p4v1.WriteRequest) bool {
	for _, u := range w.GetUpdates() {
		if u.GetEntity().GetDigestEntry() == nil {
			return false
		}
	}
	return len(w.GetUpdates()) > 0
}

func (b *haBed) unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
	resp, err := h(ctx, req)
	if w, ok := req.(*p4v1.WriteRequest); ok && !digestConfigOnly(w) {
		b.mu.Lock()
		b.writes = append(b.writes, write{at: time.Now(), election: w.GetElectionId().GetLow(), updates: len(w.GetUpdates()), ok: err == nil})
		b.mu.Unlock()
	}
	return resp, err
}

func (b *haBed) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) error {
	return h(srv, recordBids{ss, b})
}

type recordBids struct {
	grpc.ServerStream
	b *haBed
}

func (r recordBids) RecvMsg(m any) error {
	err := r.ServerStream.RecvMsg(m)
	if req, ok := m.(*p4v1.StreamMessageRequest); ok && err == nil {
		if a := req.GetArbitration(); a != nil && a.GetElectionId() != nil {
			r.b.mu.Lock()
			if _, seen := r.b.bids[a.GetElectionId().GetLow()]; !seen {
				r.b.bids[a.GetElectionId().GetLow()] = time.Now()
			}
			r.b.mu.Unlock()
		}
	}
	return err
}

func (b *haBed) writesBy(id uint64) (n int, last time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, w := range b.writes {
		if w.election == id {
			n++
			last = w.at
		}
	}
	return n, last
}

func (b *haBed) firstBid(id uint64) time.Time {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.bids[id]
}

// fgAction reads a filter group's entry from the switch.
func (b *haBed) fgAction(id uint32) string {
	s := b.sw.Dataplane().Schema()
	t, _ := s.Table(p4src.TableFilterGroups)
	var out string
	_ = b.sw.Dataplane().Read([]*p4v1.Entity{{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: t.GetPreamble().GetId()}}}},
		func(e *p4v1.Entity) bool {
			te := e.GetTableEntry()
			if len(te.GetMatch()) == 1 && beUint(te.GetMatch()[0].GetExact().GetValue()) == uint64(id) {
				out = s.ActionByID(te.GetAction().GetAction().GetActionId()).GetPreamble().GetName()
			}
			return true
		})
	return out
}

func beUint(b []byte) uint64 {
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v
}

// haDaemon is one daemon of the switch, reaching etcd through a proxy
// (to cut it off).
type haDaemon struct {
	name   string
	d      *daemon.Daemon
	pub    *telemetry.Publisher // with haBed.publish
	el     *Elector
	etcd   proxies // one per etcd member
	cancel context.CancelFunc
	done   chan struct{}
}

func (b *haBed) start(name string) *haDaemon {
	b.t.Helper()
	var p proxies
	var eps []string
	targets := []string{b.etcd}
	if b.cluster != nil {
		targets = b.cluster.Endpoints()
	}
	if b.endpoints != nil {
		targets = b.endpoints
	}
	for _, to := range targets {
		x := newProxy(b.t, to)
		p = append(p, x)
		eps = append(eps, x.addr())
	}
	cli := newClient(b.t, eps...)
	st, err := Open(cli, b.prefix, 0)
	require.NoError(b.t, err)
	cfgPath := b.config
	if cfgPath == "" {
		cfgPath = "testdata/ha.yaml"
	}
	initial, err := os.ReadFile(cfgPath)
	require.NoError(b.t, err)
	_, err = st.Seed(initial, "initial configuration", time.Now())
	require.NoError(b.t, err)
	lease := b.leaseTTL()
	// The daemon's log and its elector's (INFO) are kept and shown when
	// the test fails: which controller decided what, and why (a term's
	// end says why it stepped down), is the story of a failed takeover.
	logs := &testbed.SyncBuffer{}
	var out io.Writer = logs
	if b.logOut != nil {
		out = io.MultiWriter(logs, b.logOut)
	}
	logger := slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: slog.LevelInfo}))
	b.t.Cleanup(func() {
		if b.t.Failed() {
			b.t.Logf("daemon %s's log:\n%s", name, logs.String())
		}
	})
	el, err := NewElector(cli, st, ElectorOptions{Name: name, TTL: lease, Logger: logger})
	require.NoError(b.t, err)
	var pipe *controlplane.Pipeline
	if b.schema != nil {
		pipe = &controlplane.Pipeline{P4Info: b.schema.Info, DeviceConfig: p4src.BMv2JSON}
	}
	opts := daemon.Options{SharedStore: st, FixedElection: true, HAStatus: StatusFunc(st, el), SwitchAddr: b.addr,
		DeviceID: 1, Tick: time.Millisecond, CounterInterval: time.Hour, Pipeline: pipe, Logger: logger, CrashPoint: b.crash}
	var pub *telemetry.Publisher
	if b.publish {
		pub = telemetry.New(nil)
		opts.Telemetry, opts.StateInterval = pub, 20*time.Millisecond
	}
	d, err := daemon.New(opts)
	require.NoError(b.t, err)
	ctx, cancel := context.WithCancel(context.Background())
	h := &haDaemon{name: name, d: d, pub: pub, el: el, etcd: p, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(h.done)
		_ = RunDaemon(ctx, d, st, el, nil)
	}()
	b.t.Cleanup(h.stop)
	return h
}

func (h *haDaemon) stop() {
	h.cancel()
	<-h.done
}

// kill ends the daemon as a crash would: etcd hears nothing more (its
// lease is not given up), its switch connection closes. It returns at
// once; the daemon's shutdown (which may wait on the etcd it no longer
// reaches) goes on in the background: wait for h.done.
func (h *haDaemon) kill() {
	h.etcd.partition()
	h.cancel()
}

// ready: primary on the switch, reconciled, the desired state written.
func (h *haDaemon) ready() bool {
	st := h.d.Session().Status()
	return st.Primary && !st.Pending && h.d.Session().Stats().Reconciles > 0
}

func (b *haBed) waitReady(h *haDaemon, within time.Duration) {
	b.t.Helper()
	require.Eventually(b.t, h.ready, within, time.Millisecond, "%s never became primary: %+v", h.name, h.d.Session().Status())
}

// allUp waits until h leads with every filter group up.
func (b *haBed) allUp(h *haDaemon) {
	b.t.Helper()
	require.Eventually(b.t, func() bool {
		st, err := h.d.Status(context.Background())
		if err != nil || !h.ready() {
			return false
		}
		for _, f := range st.Filters {
			if f.State != "up" {
				return false
			}
		}
		return true
	}, setupWait, 2*time.Millisecond, "%s never led with every filter group up", h.name)
}

// waitStandby waits until h is connected to the switch as a backup and
// takes part in the election.
func (b *haBed) waitStandby(h *haDaemon) {
	b.t.Helper()
	require.Eventually(b.t, func() bool {
		m, err := h.el.Members(context.Background())
		if err != nil {
			return false
		}
		in := false
		for _, x := range m {
			in = in || (x.Name == h.name && !x.Leader)
		}
		st := h.d.Session().Status()
		return in && st.Connected && !st.Primary
	}, setupWait, 2*time.Millisecond, "%s never became a connected standby", h.name)
}

// takeover kills the leader and returns how long until the standby is
// primary on the switch with the desired state written (waited for up to
// the lease and setupWait: a test that bounds the takeover asserts on the
// time returned).
func (b *haBed) takeover(leader, standby *haDaemon) time.Duration {
	b.t.Helper()
	killed := time.Now()
	leader.kill()
	b.waitReady(standby, b.leaseTTL()+setupWait)
	took := time.Since(killed)
	<-leader.done
	return took
}

// waitSavedUp waits until the store's runtime state has the filter
// groups up: what the leader saves once it has written them to the switch,
// and what a new leader starts from.
func (b *haBed) waitSavedUp(names ...string) {
	b.t.Helper()
	eps := []string{b.etcd}
	switch {
	case b.endpoints != nil:
		eps = b.endpoints
	case b.cluster != nil:
		eps = b.cluster.Endpoints()
	}
	check, err := Open(newClient(b.t, eps...), b.prefix, 0)
	require.NoError(b.t, err)
	var rt statestore.Runtime
	require.Eventually(b.t, func() bool {
		rt, err = check.LoadRuntime()
		if err != nil {
			return false
		}
		for _, n := range names {
			if !slices.Contains(rt.Up, n) {
				return false
			}
		}
		return true
	}, setupWait, 5*time.Millisecond, "the leader saves %v up (store: %+v, %v)", names, rt, err)
}
