// Package sim is the software switch: a Go model of the balancer's P4
// pipeline (package sim/dataplane) behind a P4Runtime server and a gNMI
// server, with ports in memory or on Linux interfaces (AF_PACKET). It is
// the built-in target of the demo and of CI, and a test oracle beside BMv2.
//
// On a Linux interface the kernel strips the outermost VLAN tag of every
// received frame into packet metadata; the port puts it back, so the
// pipeline sees the bytes that were on the wire. One limit: a tag whose
// TCI is all zero (PCP 0, DEI 0, VID 0) comes back with TPID 0x8100 even
// if it was 0x88a8, because the ring's TPID is not reported for it.
package sim

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/protobuf/proto"

	bgnmi "github.com/dpi-balancer/balancer/gnmi"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sim/dataplane"
)

// Options configure a Switch.
type Options struct {
	DeviceID uint64
	// Ports by data-plane port number.
	Ports map[uint32]Port
	// Speeds are the ports' speeds in bits per second, published over
	// gNMI as Stratum does (ethernet/state/port-speed "SPEED_100GB"); a
	// port not listed publishes no speed.
	Speeds map[uint32]uint64
	// Disabled ports start administratively down (as a chassis config's
	// ADMIN_STATE_DISABLED): they neither take nor send frames.
	Disabled map[uint32]bool
	// Names are the gNMI interface names; the default for port n is
	// "<n/10>/<n%10>", the front-panel name of the sim platform numbering.
	Names        map[uint32]string
	SlotCapacity int
	// ReadLimit is the most entities one P4Runtime Read returns (default
	// the whole state once; see dataplane.WithReadLimit).
	ReadLimit int
	Logger    *slog.Logger
	// CounterInterval is how often interface counters are published
	// (default 1s).
	CounterInterval time.Duration
	// Schema is the program the switch runs. Default: the embedded
	// v1model build (p4src.Load) or its "sessions" profile
	// (p4src.LoadSessions, with the session memory), whichever a
	// controller pushes; given, only that one.
	Schema *p4src.Schema
	// TLS, when set, serves P4Runtime and gNMI over TLS with it (with
	// ClientAuth tls.RequireAndVerifyClientCert and ClientCAs: mutual
	// TLS, as Stratum's -ca_cert_file does). Nil serves plaintext: any
	// local user can then take the primary role.
	TLS *tls.Config
	// NoSaveCommit answers UNIMPLEMENTED to VERIFY_AND_SAVE and COMMIT,
	// as BMv2's P4Runtime server (PI 0.1.2) does: a controller must then
	// push with VERIFY_AND_COMMIT.
	NoSaveCommit bool
	// CPUPort is the switch's CPU port (0: 255, BMv2's usual --cpu-port).
	// The program recognises it as the controller's when it is the
	// compiled-in one or the controller wrote it into the pipeline.
	CPUPort uint32
	// KeepaliveTime and KeepaliveTimeout are the gRPC servers' HTTP/2
	// keepalive: after KeepaliveTime without a frame from a controller
	// the switch pings it, and closes the connection when the ping is not
	// answered within KeepaliveTimeout. A connection whose controller
	// vanished without closing it (a network cut that lost the close) is
	// so dropped within KeepaliveTime + KeepaliveTimeout of its last
	// frame, and its stream's election id freed. Zero: the defaults;
	// KeepaliveOff as KeepaliveTime: no pings (the dead stream stays
	// until the TCP connection fails, minutes later or never).
	// grpc-go raises a KeepaliveTime below a second to a second.
	KeepaliveTime, KeepaliveTimeout time.Duration
	// Pipes models a Tofino's pipes (0 or 1: one pipe, the default; at
	// most 4): each pipe keeps its own data-plane verdict registers, a
	// frame runs in the pipe of the port it arrives on (a packet-out in
	// the CPU port's), and every return is copied to the other pipes as
	// the TNA program mirrors it (docs/availability.md, "Two pipes on the
	// software switch"). A port's pipe is PipePorts' when listed there,
	// else Tofino's rule, port bits 8:7 modulo Pipes (the CPU port 255 is
	// in pipe 1 of 2).
	Pipes     int
	PipePorts map[uint32]int
	// NoEvidenceCopies turns the copies between pipes off: not what the
	// program does; it shows the false verdicts the copies prevent.
	NoEvidenceCopies bool
	// GRPCOptions are more options for the gRPC servers (tests and
	// benchmarks: an interceptor that times the writes).
	GRPCOptions []grpc.ServerOption

	// keepaliveMinTime, when set, replaces keepalivePolicy's MinTime (tests
	// scale the keep-alive policy down to run in milliseconds).
	keepaliveMinTime time.Duration
}

// Defaults of Options.KeepaliveTime and KeepaliveTimeout: a controller
// cut off without a close holds its election id for at most 6 s, so a
// daemon cut off that way programs the switch again within 10 s of the
// cut (it notices the cut itself within its probe's 4.1 s, and retries a
// refused id every second). With 5 s + 5 s it took 10.1-10.9 s.
const (
	DefaultKeepaliveTime    = 3 * time.Second
	DefaultKeepaliveTimeout = 3 * time.Second
)

// KeepaliveOff as Options.KeepaliveTime turns the switch's pings off.
const KeepaliveOff time.Duration = -1

// Switch is a running software switch.
type Switch struct {
	opts Options
	log  *slog.Logger
	// dp is the data plane of the program the controller pushed last
	// (runProgram); swapped is signalled when it changes.
	dp      atomic.Pointer[dataplane.Dataplane]
	dpOpts  []dataplane.Option
	swapped chan struct{}
	p4rt    *P4RTServer
	gnmi    *bgnmi.Server
	ports   map[uint32]*portState
	bufs    sync.Pool
}

type portState struct {
	num     uint32
	name    string
	port    Port
	admin   atomic.Bool
	speed   atomic.Uint64 // bits per second; 0: not published
	inPkts  atomic.Uint64
	inOct   atomic.Uint64
	outPkts atomic.Uint64
	outOct  atomic.Uint64
	inDisc  atomic.Uint64
	outDisc atomic.Uint64
	changed atomic.Int64 // last change, unix ns
}

// New builds a switch; it starts nothing.
func New(opts Options) (*Switch, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.DeviceID == 0 {
		opts.DeviceID = 1
	}
	if opts.CounterInterval <= 0 {
		opts.CounterInterval = time.Second
	}
	if opts.KeepaliveTime == 0 {
		opts.KeepaliveTime = DefaultKeepaliveTime
	}
	if opts.KeepaliveTimeout <= 0 {
		opts.KeepaliveTimeout = DefaultKeepaliveTimeout
	}
	schema := opts.Schema
	var err error
	if schema == nil {
		if schema, err = p4src.Load(); err != nil {
			return nil, err
		}
	}
	var dpOpts []dataplane.Option
	if opts.SlotCapacity > 0 {
		// The program it runs, and takes from a controller, has a slots
		// table of that size: the P4Info says what the switch holds.
		if schema, err = withSlotsSize(schema, opts.SlotCapacity); err != nil {
			return nil, err
		}
		dpOpts = append(dpOpts, dataplane.WithSlotCapacity(opts.SlotCapacity))
	}
	if opts.ReadLimit != 0 {
		dpOpts = append(dpOpts, dataplane.WithReadLimit(opts.ReadLimit))
	}
	if opts.CPUPort != 0 {
		dpOpts = append(dpOpts, dataplane.WithCPUPort(opts.CPUPort))
	}
	if opts.Pipes > 1 || len(opts.PipePorts) > 0 {
		dpOpts = append(dpOpts, dataplane.WithPipes(opts.Pipes, opts.PipePorts), dataplane.WithEvidenceCopies(!opts.NoEvidenceCopies, -1))
	}
	// The programs the switch runs: the one given, or by default the
	// embedded v1model build and its "sessions" profile (the same program
	// with the session memory, docs/sessions.md), whichever the
	// controller pushes.
	programs := []*p4src.Schema{schema}
	if opts.Schema == nil {
		sess, err := p4src.LoadSessions()
		if err != nil {
			return nil, err
		}
		if opts.SlotCapacity > 0 {
			if sess, err = withSlotsSize(sess, opts.SlotCapacity); err != nil {
				return nil, err
			}
		}
		programs = append(programs, sess)
	}
	dp, err := dataplane.New(schema, dpOpts...)
	if err != nil {
		return nil, err
	}
	s := &Switch{opts: opts, log: log, dpOpts: dpOpts, ports: map[uint32]*portState{}, swapped: make(chan struct{}, 1)}
	s.dp.Store(dp)
	s.bufs.New = func() any { b := make([]byte, MaxFrame+64); return &b }
	for n, p := range opts.Ports {
		if n >= 1<<9 || n == dp.CPUPort() {
			return nil, fmt.Errorf("sim: port number %d is not a data-plane port (0..511, not the CPU port %d)", n, dp.CPUPort())
		}
		name := opts.Names[n]
		if name == "" {
			name = fmt.Sprintf("%d/%d", n/10, n%10)
		}
		ps := &portState{num: n, name: name, port: p}
		ps.admin.Store(!opts.Disabled[n])
		ps.speed.Store(opts.Speeds[n])
		ps.changed.Store(time.Now().UnixNano())
		s.ports[n] = ps
	}
	s.p4rt = NewP4RTServer(opts.DeviceID, schema, dp, s.packetOut, codeOf, log)
	s.p4rt.noSaveCommit = opts.NoSaveCommit
	if len(programs) > 1 {
		s.p4rt.AlsoRuns(programs, s.runProgram)
	}
	s.gnmi = bgnmi.NewServer("balancer-sim", bgnmi.WithLogger(log),
		bgnmi.WithSetHandler(bgnmi.InterfaceEnabledSetHandler(s.setAdmin)))
	return s, nil
}

// withSlotsSize is s with its slots table of size n.
func withSlotsSize(s *p4src.Schema, n int) (*p4src.Schema, error) {
	if t, err := s.Table(p4src.TableSlots); err == nil && t.GetSize() == int64(n) {
		return s, nil
	}
	info := proto.Clone(s.Info).(*p4configv1.P4Info)
	for _, t := range info.GetTables() {
		if t.GetPreamble().GetName() == p4src.TableSlots {
			t.Size = int64(n)
		}
	}
	return p4src.NewSchema(info)
}

// codeOf maps data-plane errors to gRPC codes.
func codeOf(err error) codes.Code {
	switch {
	case errors.Is(err, dataplane.ErrInvalidArgument):
		return codes.InvalidArgument
	case errors.Is(err, dataplane.ErrAlreadyExists):
		return codes.AlreadyExists
	case errors.Is(err, dataplane.ErrNotFound):
		return codes.NotFound
	case errors.Is(err, dataplane.ErrResourceExhausted):
		return codes.ResourceExhausted
	case errors.Is(err, dataplane.ErrUnimplemented):
		return codes.Unimplemented
	case errors.Is(err, dataplane.ErrPermissionDenied):
		return codes.PermissionDenied
	case errors.Is(err, dataplane.ErrOutOfRange):
		return codes.OutOfRange
	case errors.Is(err, dataplane.ErrAborted):
		return codes.Aborted
	}
	return codes.Unknown
}

// Dataplane exposes the pipeline (tests).
func (s *Switch) Dataplane() *dataplane.Dataplane { return s.dp.Load() }

func (s *Switch) dataplane() *dataplane.Dataplane { return s.dp.Load() }

// runProgram makes the switch run another of its programs: a new, empty
// data plane for it (as a push resets the switch anyway).
func (s *Switch) runProgram(schema *p4src.Schema) (Entities, error) {
	dp, err := dataplane.New(schema, s.dpOpts...)
	if err != nil {
		return nil, err
	}
	s.dp.Store(dp)
	select {
	case s.swapped <- struct{}{}:
	default:
	}
	s.log.Info("software switch runs another program", "session_memory", dp.SessionDigestID() != 0)
	return dp, nil
}

// P4Runtime exposes the P4Runtime server (tests, restarts).
func (s *Switch) P4Runtime() *P4RTServer { return s.p4rt }

// Register adds the P4Runtime and gNMI services to a gRPC server.
func (s *Switch) Register(g *grpc.Server) {
	p4v1.RegisterP4RuntimeServer(g, s.p4rt)
	s.gnmi.Register(g)
}

// keepalivePolicy lets controllers ping without an open call, as Stratum
// does (--grpc_keepalive_min_ping_interval=10000, --grpc_keepalive_permit=1),
// but accepts pings from 5s on: a client pinging every 10s (the lowest
// grpc-go allows) sees a ping arrive a little early now and then on a busy
// host, and two such strikes would end the connection with GOAWAY
// too_many_pings. grpc-go's default (5 minutes) refuses keepalives outright.
var keepalivePolicy = keepalive.EnforcementPolicy{MinTime: 5 * time.Second, PermitWithoutStream: true}

// ServerOptions are the gRPC server options the switch serves with
// (message size, keepalive pings and the policy for the controllers'
// pings, TLS): for callers that serve gRPC themselves.
func (s *Switch) ServerOptions() []grpc.ServerOption {
	kep := keepalivePolicy
	if s.opts.keepaliveMinTime > 0 {
		kep.MinTime = s.opts.keepaliveMinTime
	}
	gopts := []grpc.ServerOption{grpc.MaxRecvMsgSize(64 << 20), grpc.KeepaliveEnforcementPolicy(kep)}
	if s.opts.KeepaliveTime > 0 {
		gopts = append(gopts, grpc.KeepaliveParams(keepalive.ServerParameters{
			Time: s.opts.KeepaliveTime, Timeout: s.opts.KeepaliveTimeout}))
	}
	if s.opts.TLS != nil {
		gopts = append(gopts, grpc.Creds(credentials.NewTLS(s.opts.TLS)))
	}
	return append(gopts, s.opts.GRPCOptions...)
}

// Serve runs the ports and serves P4Runtime on p4rtLis and gNMI on
// gnmiLis (nil: on the P4Runtime listener too) until ctx ends.
func (s *Switch) Serve(ctx context.Context, p4rtLis, gnmiLis net.Listener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errc := make(chan error, 4)
	serve := func(lis net.Listener, reg func(*grpc.Server)) {
		g := grpc.NewServer(s.ServerOptions()...)
		reg(g)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := g.Serve(lis); err != nil {
				errc <- err
			}
		}()
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-ctx.Done()
			g.Stop()
		}()
	}
	if gnmiLis == nil {
		serve(p4rtLis, s.Register)
	} else {
		serve(p4rtLis, func(g *grpc.Server) { p4v1.RegisterP4RuntimeServer(g, s.p4rt) })
		serve(gnmiLis, s.gnmi.Register)
	}
	s.Start(ctx, &wg)
	security := "plaintext"
	switch {
	case s.opts.TLS != nil && s.opts.TLS.ClientAuth == tls.RequireAndVerifyClientCert:
		security = "mutual TLS"
	case s.opts.TLS != nil:
		security = "TLS (clients not authenticated)"
	}
	s.log.Info("software switch serving", "p4runtime", p4rtLis.Addr().String(), "ports", len(s.ports), "security", security)
	select {
	case <-ctx.Done():
	case err := <-errc:
		cancel()
		wg.Wait()
		return err
	}
	wg.Wait()
	s.gnmi.Close()
	return nil
}

// Start runs the ports and the interface publisher on wg until ctx ends
// (for callers that serve gRPC themselves).
func (s *Switch) Start(ctx context.Context, wg *sync.WaitGroup) {
	for _, ps := range s.ports {
		ps := ps
		wg.Add(2)
		go func() {
			defer wg.Done()
			s.rxLoop(ctx, ps)
		}()
		go func() {
			defer wg.Done()
			<-ctx.Done()
			ps.port.Close()
		}()
	}
	wg.Add(2)
	go func() {
		defer wg.Done()
		s.publishLoop(ctx)
	}()
	go func() {
		defer wg.Done()
		s.digestLoop(ctx)
	}()
}

func (s *Switch) rxLoop(ctx context.Context, ps *portState) {
	bp := s.bufs.Get().(*[]byte)
	defer s.bufs.Put(bp)
	buf := *bp
	err := ps.port.Run(ctx, func(frame []byte) {
		if !ps.admin.Load() {
			ps.inDisc.Add(1)
			return
		}
		ps.inPkts.Add(1)
		ps.inOct.Add(uint64(len(frame)))
		s.handle(s.dataplane().Process(ps.num, frame, buf))
	})
	if err != nil && ctx.Err() == nil {
		s.log.Error("port stopped", "port", ps.num, "name", ps.name, "err", err)
	}
}

// handle sends a pipeline result where it goes.
func (s *Switch) handle(r dataplane.Result) {
	switch r.Kind {
	case dataplane.Forward:
		out := s.ports[r.Port]
		if out == nil {
			return // a port the switch does not have: the frame is lost, as on hardware
		}
		if !out.admin.Load() || !out.port.Carrier() {
			out.outDisc.Add(1)
			return
		}
		if err := out.port.Send(r.Frame); err != nil {
			out.outDisc.Add(1)
			return
		}
		out.outPkts.Add(1)
		out.outOct.Add(uint64(len(r.Frame)))
	case dataplane.ToCPU:
		s.p4rt.SendPacketIn(r.Frame, r.PacketIn.IngressPort, r.PacketIn.Reason, r.PacketIn.RxTimestamp)
	}
}

// packetOut runs a controller frame through the pipeline.
func (s *Switch) packetOut(port uint32, flags uint8, frame []byte) error {
	if len(frame) > MaxFrame {
		return fmt.Errorf("frame of %d bytes exceeds %d", len(frame), MaxFrame)
	}
	bp := s.bufs.Get().(*[]byte)
	defer s.bufs.Put(bp)
	s.handle(s.dataplane().PacketOut(port, flags, frame, *bp))
	return nil
}

func (s *Switch) setAdmin(name string, enabled bool) error {
	for _, ps := range s.ports {
		if ps.name == name {
			if ps.admin.Swap(enabled) != enabled {
				ps.changed.Store(time.Now().UnixNano())
				s.log.Info("port admin state", "port", ps.num, "name", name, "enabled", enabled)
			}
			return s.publish(ps)
		}
	}
	return fmt.Errorf("%w: no interface %q", bgnmi.ErrNotFound, name)
}

// SetAdmin sets a port's admin state by data-plane number.
func (s *Switch) SetAdmin(num uint32, enabled bool) error {
	ps := s.ports[num]
	if ps == nil {
		return fmt.Errorf("sim: no port %d", num)
	}
	return s.setAdmin(ps.name, enabled)
}

// SetSpeed changes the speed a port reports over gNMI (bits per second),
// as a switch whose port was brought up at another speed would.
func (s *Switch) SetSpeed(num uint32, bps uint64) error {
	ps := s.ports[num]
	if ps == nil {
		return fmt.Errorf("sim: no port %d", num)
	}
	if ps.speed.Swap(bps) != bps {
		s.log.Info("port speed", "port", ps.num, "name", ps.name, "bps", bps)
	}
	return s.publish(ps)
}

func (s *Switch) publish(ps *portState) error {
	return s.gnmi.PublishInterface(bgnmi.InterfaceState{
		Name: ps.name, AdminUp: ps.admin.Load(), OperUp: ps.admin.Load() && ps.port.Carrier(),
		InOctets: ps.inOct.Load(), InPkts: ps.inPkts.Load(), OutOctets: ps.outOct.Load(), OutPkts: ps.outPkts.Load(),
		InDiscards: ps.inDisc.Load(), OutDiscards: ps.outDisc.Load(), LastChange: time.Unix(0, ps.changed.Load()),
		SpeedBPS: ps.speed.Load(),
	})
}

// publishLoop publishes every port at start, on every carrier change, and
// its counters periodically.
func (s *Switch) publishLoop(ctx context.Context) {
	nums := make([]uint32, 0, len(s.ports))
	for n := range s.ports {
		nums = append(nums, n)
	}
	sort.Slice(nums, func(i, j int) bool { return nums[i] < nums[j] })
	changes := make(chan *portState, len(nums))
	for _, n := range nums {
		ps := s.ports[n]
		_ = s.publish(ps)
		go func() {
			for {
				select {
				case <-ctx.Done():
					return
				case <-ps.port.CarrierChanges():
					ps.changed.Store(time.Now().UnixNano())
					select {
					case changes <- ps:
					case <-ctx.Done():
						return
					}
				}
			}
		}()
	}
	t := time.NewTicker(s.opts.CounterInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case ps := <-changes:
			s.log.Info("port carrier", "port", ps.num, "name", ps.name, "up", ps.port.Carrier())
			_ = s.publish(ps)
		case <-t.C:
			for _, n := range nums {
				_ = s.publish(s.ports[n])
			}
		}
	}
}

// Restart forgets the pipeline and every entry, as a rebooted switch
// would (Stratum keeps nothing across a restart).
func (s *Switch) Restart() {
	s.log.Info("switch restart: pipeline and entries forgotten")
	s.p4rt.ForgetPipeline()
}
