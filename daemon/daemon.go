package daemon

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/controlplane"
	bgnmi "github.com/dpi-balancer/balancer/gnmi"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/profiles"
	"github.com/dpi-balancer/balancer/tables"
)

// Options configure a Daemon.
type Options struct {
	// StateDir holds the running configuration and its revisions.
	StateDir string
	// Store, when set, is used instead of StateDir (a store shared by
	// several daemons, such as etcd); HAStatus then reports its health
	// and the leader election in Status.
	Store    StateStore
	HAStatus func(context.Context) *HAStatus
	// InitialConfig is loaded when StateDir has no running configuration.
	InitialConfig string
	// Switch is the P4Runtime target.
	SwitchAddr                string
	DeviceID                  uint64
	ElectionHigh, ElectionLow uint64
	// FixedElection: the election id is set from outside (a leader
	// election, through Session().SetElection); the session never bids
	// above another controller's id on its own.
	FixedElection bool
	Role          string
	SwitchTLS     *tls.Config
	// SwitchGNMI is the switch's gNMI address for port status ("" = none:
	// ports are assumed up).
	SwitchGNMI string
	// SwitchTiming bounds the waits on the switch: RPC deadlines,
	// stall detection, keepalives, periodic reconcile (zero fields:
	// controlplane defaults).
	SwitchTiming controlplane.Timing
	// Pipeline defaults to the embedded v1model build.
	Pipeline *controlplane.Pipeline
	// Tick is the keep-alive engine's resolution (default 5ms).
	Tick time.Duration
	// Telemetry, when set, gets the balancer tree (state every
	// StateInterval, default 1s; counters every CounterInterval, default 5s).
	Telemetry                      *bgnmi.Server
	StateInterval, CounterInterval time.Duration
	Logger                         *slog.Logger
	// Now is the clock (tests); default time.Now.
	Now func() time.Time
}

// Daemon runs the balancer for one switch. New starts nothing; Run does.
type Daemon struct {
	opts    Options
	log     *slog.Logger
	store   StateStore
	comp    *tables.Compiler
	schema  *p4src.Schema
	session *controlplane.Session
	now     func() time.Time

	applyMu sync.Mutex // serialises compile + write

	mu       sync.Mutex
	cfg      *config.Config
	yaml     []byte
	rev      Revision
	engine   *profiles.Engine
	ports    map[uint32]bool // oper status by data-plane port (absent = unknown, taken as up)
	watching bool
	desired  *tables.Desired
	cfgGen   uint64
	rtBase   int64 // shared store: the runtime state's store revision the engine reflects

	kick    chan struct{} // something changed: recompile and apply
	metrics *metrics
}

// New loads the running configuration (or the initial one) and prepares
// the controller.
func New(opts Options) (*Daemon, error) {
	if opts.Tick <= 0 {
		opts.Tick = 5 * time.Millisecond
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	schema, err := p4src.Load()
	if err == nil && opts.Pipeline != nil && opts.Pipeline.P4Info != schema.Info {
		// Table sizes are the pushed build's (names and ids are the contract's).
		schema, err = p4src.NewSchema(opts.Pipeline.P4Info)
	}
	if err != nil {
		return nil, err
	}
	comp, err := tables.New(schema)
	if err != nil {
		return nil, err
	}
	store := opts.Store
	if store == nil {
		if store, err = OpenStore(opts.StateDir); err != nil {
			return nil, err
		}
	}
	d := &Daemon{opts: opts, log: log, store: store, comp: comp, schema: schema, now: opts.Now,
		ports: map[uint32]bool{}, kick: make(chan struct{}, 1), metrics: newMetrics()}

	data, rev, err := store.Running()
	switch {
	case errors.Is(err, os.ErrNotExist):
		if opts.InitialConfig == "" {
			return nil, fmt.Errorf("daemon: no running configuration in %s and no initial configuration given", opts.StateDir)
		}
		data, err = os.ReadFile(opts.InitialConfig)
		if err != nil {
			return nil, fmt.Errorf("daemon: %w", err)
		}
		if _, err := config.Parse(data); err != nil {
			return nil, fmt.Errorf("daemon: %s: %w", opts.InitialConfig, err)
		}
		rev, err = store.Save(data, "initial configuration from "+opts.InitialConfig, d.now())
		if err != nil {
			return nil, err
		}
	case err != nil:
		return nil, fmt.Errorf("daemon: %w", err)
	}
	cfg, err := config.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("daemon: running configuration (revision %d) is invalid: %w", rev.Number, err)
	}
	rt, err := store.LoadRuntime()
	if err != nil {
		return nil, err
	}
	eng, err := d.newEngine(cfg, rt)
	if err != nil {
		return nil, err
	}
	d.cfg, d.yaml, d.rev, d.engine = cfg, data, rev, eng
	if _, err := d.compile(); err != nil {
		return nil, err
	}

	pipe := opts.Pipeline
	if pipe == nil {
		pipe = &controlplane.Pipeline{P4Info: schema.Info, DeviceConfig: p4src.BMv2JSON}
	}
	d.session = controlplane.New(controlplane.Options{
		Addr: opts.SwitchAddr, DeviceID: opts.DeviceID, ElectionHigh: opts.ElectionHigh, ElectionLow: opts.ElectionLow, FixedElection: opts.FixedElection,
		Role: opts.Role, TLS: opts.SwitchTLS, Pipeline: *pipe, Compiler: comp, Logger: log, Timing: opts.SwitchTiming,
	})
	// The first reconciliation already knows what the switch must hold.
	d.session.SetDesired(d.desired.Entities)
	return d, nil
}

func (d *Daemon) newEngine(cfg *config.Config, rt Runtime) (*profiles.Engine, error) {
	unit := time.Nanosecond
	if p, err := config.LookupPlatform(cfg.Platform); err == nil && p.TimestampUnit > 0 {
		unit = p.TimestampUnit
	}
	var known []string
	for _, g := range rt.BypassGroups {
		if cfg.FilterGroupByName(g) != nil {
			known = append(known, g)
		}
	}
	return profiles.New(cfg, d.sendKeepAlive, profiles.Options{TimestampUnit: unit, Logger: d.log,
		Down: rt.Down, AdminBypass: known, GlobalBypass: rt.BypassAll})
}

// sendKeepAlive hands a keep-alive to the switch session.
func (d *Daemon) sendKeepAlive(port uint32, frame []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return d.session.PacketOut(ctx, port, p4src.PacketOutFlagKeepAlive, frame)
}

// compile recomputes the desired entities. Called with d.mu held or
// before Run.
func (d *Daemon) compile() (*tables.Desired, error) {
	des, err := d.comp.Compile(d.cfg, d.engine.State())
	if err != nil {
		return nil, err
	}
	d.desired = des
	return des, nil
}

func (d *Daemon) signal() {
	select {
	case d.kick <- struct{}{}:
	default:
	}
}

// Run runs the daemon until ctx ends.
func (d *Daemon) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	run := func(name string, f func(context.Context) error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f(ctx); err != nil && !errors.Is(err, context.Canceled) {
				d.log.Error("daemon task ended", "task", name, "err", err)
			}
		}()
	}
	d.mu.Lock()
	d.engine.Start(d.now())
	d.mu.Unlock()
	run("switch session", d.session.Run)
	run("apply", d.applyLoop)
	run("keep-alive ticks", d.tickLoop)
	run("packet-in", d.packetInLoop)
	if d.opts.SwitchGNMI != "" {
		run("port status", d.portLoop)
	}
	si, ci := d.opts.StateInterval, d.opts.CounterInterval
	if si <= 0 {
		si = time.Second
	}
	if ci <= 0 {
		ci = 5 * time.Second
	}
	run("telemetry", func(ctx context.Context) error { return d.telemetryLoop(ctx, d.opts.Telemetry, si, ci) })
	d.signal()
	<-ctx.Done()
	wg.Wait()
	return nil
}

func (d *Daemon) currentEngine() *profiles.Engine {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.engine
}

func (d *Daemon) tickLoop(ctx context.Context) error {
	t := time.NewTicker(d.opts.Tick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			d.currentEngine().Tick(d.now())
		}
	}
}

func (d *Daemon) packetInLoop(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case p := <-d.session.PacketIns():
			if p.Metadata["reason"] != p4src.PacketInReasonKeepAlive {
				continue
			}
			if err := d.currentEngine().OnPacketIn(p.Payload, uint32(p.Metadata["ingress_port"]), p.Metadata["rx_timestamp"], d.now()); err != nil {
				d.log.Debug("keep-alive ignored", "err", err)
			}
		}
	}
}

// applyLoop writes the desired state whenever the engine or the
// configuration changes. One goroutine: changes are applied in order and
// coalesced when they come faster than the switch takes them.
func (d *Daemon) applyLoop(ctx context.Context) error {
	for {
		eng := d.currentEngine()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-eng.Changes():
		case <-d.kick:
		}
		d.applyMu.Lock()
		d.mu.Lock()
		des, err := d.compile()
		d.mu.Unlock()
		if err != nil {
			d.applyMu.Unlock()
			d.log.Error("compile", "err", err)
			continue
		}
		// The switch first: a failover must not wait for a disk.
		plan, err := d.session.Apply(ctx, des.Entities)
		d.applyMu.Unlock()
		d.saveRuntime()
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(err, controlplane.ErrNotPrimary):
			// Kept; written when the session becomes primary.
		case err != nil:
			d.log.Error("programming the switch failed; will retry on the next change or reconnect", "err", err)
		case plan != nil && !plan.Empty():
			d.log.Info("switch programmed", "inserts", plan.Inserts, "modifies", plan.Modifies, "deletes", plan.Deletes)
		}
	}
}

func (d *Daemon) saveRuntime() {
	eng := d.currentEngine()
	all, groups := eng.Bypass()
	if err := d.saveRuntimeOf(eng, Runtime{BypassAll: all, BypassGroups: groups, Down: eng.Down()}); err != nil {
		d.log.Error("saving runtime state", "err", err)
	}
}

// Collector returns the Prometheus collector of the daemon's metrics.
func (d *Daemon) Collector() prometheus.Collector { return d.metrics }

// Session exposes the switch session (status, tests).
func (d *Daemon) Session() *controlplane.Session { return d.session }

// portLoop follows the switch's port oper-status over gNMI.
func (d *Daemon) portLoop(ctx context.Context) error {
	for {
		d.mu.Lock()
		cfg, gen := d.cfg, d.cfgGen
		d.mu.Unlock()
		names := map[string]uint32{}
		for _, p := range portNames(cfg) {
			n, err := cfg.ResolvePort(p)
			if err != nil {
				continue
			}
			num, err := cfg.PortNumber(p)
			if err != nil {
				continue
			}
			names[n.Key()] = num
		}
		var list []string
		for n := range names {
			list = append(list, n)
		}
		sort.Strings(list)
		wctx, cancel := context.WithCancel(ctx)
		events := make(chan bgnmi.OperEvent, 64)
		creds := insecure.NewCredentials()
		if d.opts.SwitchTLS != nil {
			creds = credentials.NewTLS(d.opts.SwitchTLS)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = bgnmi.WatchOperStatus(wctx, d.opts.SwitchGNMI, list, []grpc.DialOption{grpc.WithTransportCredentials(creds)}, events,
				bgnmi.WithConnState(func(up bool) {
					d.mu.Lock()
					d.watching = up
					d.mu.Unlock()
				}))
		}()
		for restart := false; !restart; {
			select {
			case <-ctx.Done():
				cancel()
				<-done
				return ctx.Err()
			case ev := <-events:
				num, ok := names[ev.Name]
				if !ok {
					continue
				}
				d.mu.Lock()
				d.ports[num] = ev.Up
				eng := d.engine
				d.mu.Unlock()
				eng.OnPortStatus(num, ev.Up, d.now())
			case <-time.After(time.Second):
				d.mu.Lock()
				restart = d.cfgGen != gen
				d.mu.Unlock()
			}
		}
		cancel()
		<-done
	}
}

// portNames lists every port name the configuration uses.
func portNames(cfg *config.Config) []string {
	var out []string
	for _, l := range cfg.Links {
		out = append(out, l.LAN, l.WAN)
	}
	for _, f := range cfg.FilterGroups {
		out = append(out, f.LAN, f.WAN)
	}
	return out
}

// errorList formats a validation error: one problem per line.
func errorList(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", "\n  ")
}
