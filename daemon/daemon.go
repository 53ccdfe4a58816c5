package daemon

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/controlplane"
	"github.com/dpi-balancer/balancer/daemon/pipeline"
	"github.com/dpi-balancer/balancer/internal/buildinfo"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/profiles"
	"github.com/dpi-balancer/balancer/tables"
)

// Options configure a Daemon.
type Options struct {
	// PacketInTap, when set, is handed every keep-alive packet-in the
	// daemon takes, before the engine judges it (on the packet-in
	// goroutine: it must not block). Tests check the figures the daemon
	// shows (round trips) against the switch's own stamps with it.
	PacketInTap func(controlplane.PacketIn)
	// Name is the balancer's name: what tells the boxes of one site apart
	// in its status, telemetry and metrics (the daemon command defaults it
	// to the host name).
	Name string
	// StateDir holds the running configuration and its revisions.
	StateDir string
	// Store configures the state directory (history retention).
	Store []StoreOption
	// SharedStore, when set, is used instead of StateDir (a store shared
	// by several daemons, such as etcd; its retention is its own);
	// HAStatus then reports its health and the leader election in Status.
	SharedStore StateStore
	HAStatus    func(context.Context) *HAStatus
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
	// Pipeline is the pipeline pushed to the switch, as given. When it is
	// nil, New resolves PipelineFrom (its Platform set to the site's, the
	// one of the configuration in the store, or of the initial one when
	// the store has none), and with neither it pushes the embedded
	// v1model build. The P4Info sizes every table; New refuses one that
	// is not the build of the site's platform (tables.CheckPlatform).
	Pipeline     *controlplane.Pipeline
	PipelineFrom *pipeline.Source
	// CPUPort overrides the platform's CPU port (0: the platform's, on a
	// Tofino by its pipe count): no site port may take it, and no
	// packet-out is sent to it. It must be the port the pushed program
	// was compiled for.
	CPUPort uint32
	// Tick is the keep-alive engine's resolution (default 5ms).
	Tick time.Duration
	// Telemetry, when set, gets the daemon's status (every StateInterval,
	// default 1s, and after each command's write) and its counters (every
	// CounterInterval, default 5s): package telemetry serves them over
	// gNMI and as Prometheus metrics.
	Telemetry                      Publisher
	StateInterval, CounterInterval time.Duration
	Logger                         *slog.Logger
	// Now is the clock (tests); default time.Now.
	Now func() time.Time
	// CrashPoint, when set (tests), is called on the state owner at the
	// points between which a crash must not lose what the store says: a
	// test running the daemon in a child process blocks there and kills
	// it (kill -9). It must not call back into the daemon.
	CrashPoint func(CrashPoint)
}

// CrashPoint is a point of the state owner's work (Options.CrashPoint).
type CrashPoint struct {
	// Point: CrashStateWritten (the switch holds State now) or
	// CrashRuntimeSaved (the store holds Runtime now).
	Point   string
	State   tables.State
	Runtime Runtime
}

// The crash points.
const (
	CrashStateWritten = "state-written"
	CrashRuntimeSaved = "runtime-saved"
)

// crashPoint calls Options.CrashPoint when set.
func (d *Daemon) crashPoint(p CrashPoint) {
	if d.opts.CrashPoint != nil {
		d.opts.CrashPoint(p)
	}
}

// Daemon runs the balancer for one switch. New starts nothing; Run does.
type Daemon struct {
	opts  Options
	log   *slog.Logger
	store StateStore
	// ownStore is the state directory New opened (nil with a shared
	// store); Run releases it when it ends.
	ownStore *Store
	// caps is what store can do besides StateStore's contract, checked
	// once by New.
	caps    storeCaps
	comp    *tables.Compiler
	schema  *p4src.Schema
	session *controlplane.Session
	// sessionsOn: the site enabled the session memory when the daemon
	// started (the pipeline it pushes has it); learner is its learner
	// (sessions.go), nil when off.
	sessionsOn bool
	learner    *learner
	guard      *tables.WriteGuard // the session's (guardOptions)
	now        func() time.Time
	// info is this daemon's build and when New made it (status, version).
	info DaemonInfo
	// events: what happened, for monitor and the show commands.
	events *EventLog

	// cfgMu admits one configuration change at a time. Its compile runs
	// under it, outside the state owner, so failovers go on meanwhile.
	// It stays a mutex: it guards no state (the running state is the
	// owner's) but a plan's premise, that the running state it was
	// planned against is still the one it replaces when the owner
	// installs it, across a compile and a store save the owner must not
	// wait for.
	cfgMu sync.Mutex
	// reqs hands work to the state owner (ownerLoop), the one goroutine
	// that changes runtime state: configuration swaps, manual bypass and
	// the profiles engine's failovers, in order, none lost.
	reqs      chan func(context.Context)
	ownerDone chan struct{}
	// Before Run there is no owner: work runs on the caller's goroutine,
	// one at a time (inlineMu; Run sets started under it). It stays a
	// mutex: it is the owner's role before there is an owner goroutine
	// to hand work to (New starts none: a daemon made and never run
	// leaves nothing running), and Run takes it once to hand the role
	// over with no inline work under way.
	inlineMu sync.Mutex
	started  atomic.Bool
	traces   traceCache // the software model trace and locate run packets through

	// state is the running state (running.go): one immutable value, read
	// through snapshot, published only by the state owner.
	state atomic.Pointer[running]
	// mail queues events for the state owner from the switch session's
	// callbacks, which must not wait for it (a role change).
	mail *mailbox
	// alarms are the daemon's own raised alarms (alarms.go).
	alarms  alarmSet
	cpuPort uint32 // the controller's data-plane port (fixed at New)

	// runtimeSaveErrors counts the failure states not saved after a
	// failover (RuntimeSaveErrors).
	runtimeSaveErrors atomic.Uint64
	// The fail-open marks before their action (markfirst.go), the state
	// owner's: the marks the last runtime save held (by filter group,
	// since when), an early save still under way (and the filter groups
	// whose marks it carries), whether a runtime save failed and is to be
	// retried, and the wait before the next retry.
	savedOpen   map[string]time.Time
	early       *earlySave
	earlyNames  []string
	saveFailing atomic.Bool
	retryWait   time.Duration
	// keepWait: the returning filter groups held in software bypass while
	// their held sessions are kept there (keepbypass.go), the state
	// owner's; keepTimeouts counts those that returned without.
	keepWait     map[string]*keepWaiting
	keepTimeouts atomic.Uint64
	// publishMu makes status snapshots publish in the order taken. It
	// stays a mutex: it orders the telemetry loop's periodic snapshot
	// and a command's own (refreshTelemetry, which must have published
	// when the command returns, before Run too) and guards nothing
	// else; the state owner never takes it.
	publishMu sync.Mutex
	// engReqs hands work to the engine loop (engineDo), which closes
	// engDone when it ends.
	engReqs chan func()
	engDone chan struct{}
	// roundDone, when set (tests, before Run), is told when each
	// keep-alive round the tick loop handled was due.
	roundDone func(due time.Time)
	// stateWritten, when set (tests, before Run), is told of each
	// runtime state writeStateOf wrote: when it started, when the
	// entries were computed, when the switch acknowledged them.
	stateWritten func(start, computed, written time.Time, changed int)

	// pipeline is what the session pushes, resolved for the site's
	// platform.
	pipeline *pipeline.Pipeline

	// The open configuration session (sessMu, held across its commit)
	// and a commit confirmed waiting for its confirmation (an immutable
	// value swapped whole; the confirmation loop is kicked when it
	// changes): confsession.go.
	//
	// sessMu stays a mutex: it admits one session request at a time
	// (start, stage, commit, abort, rebase), each a read-check-save of
	// the store and, for a commit, a configuration change; the state
	// owner must not wait on the store for them, and readers take
	// sessView.
	sessMu   sync.Mutex
	sess     *ConfigSession
	sessView atomic.Pointer[ConfigSession] // sess, for readers that must not wait on a commit
	// sessGen moves with every change made here (refreshDocs keeps what
	// changed during its read).
	sessGen     atomic.Uint64
	confirm     atomic.Pointer[confirmState]
	confirmKick chan struct{}
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
	store := opts.SharedStore
	var own *Store // the state directory this daemon opened (and locked)
	built := false
	if store == nil {
		var err error
		if own, err = OpenStore(opts.StateDir, opts.Store...); err != nil {
			return nil, err
		}
		store = own
		defer func() {
			if !built {
				_ = own.Close() // a daemon that was not made releases its directory
			}
		}()
	}
	d := &Daemon{opts: opts, log: log, store: store, caps: capsOf(store), ownStore: own, now: opts.Now,
		reqs: make(chan func(context.Context)), ownerDone: make(chan struct{}), mail: newMailbox(),
		engReqs: make(chan func()), engDone: make(chan struct{}),
		confirmKick: make(chan struct{}, 1)}
	d.info = DaemonInfo{Build: buildinfo.Read(), StartedAt: d.now(), Name: opts.Name}
	d.events = NewEventLog(d.now)

	// The site comes from the store (or, the first time, the initial
	// configuration) before anything else: its platform picks the
	// pipeline, whose P4Info sizes every table.
	data, rev, cfg, seed, err := loadSite(store, opts)
	if err != nil {
		return nil, err
	}
	d.sessionsOn = cfg.Sessions.Enabled
	if err := d.loadPipeline(cfg.Platform, cfg.Sessions.Enabled); err != nil {
		return nil, err
	}
	comp := d.comp
	if seed {
		if data, rev, cfg, err = d.seedInitial(own, data, cfg); err != nil {
			return nil, err
		}
	}
	if d.cpuPort, err = cpuPortOf(cfg, opts.CPUPort); err != nil {
		return nil, fmt.Errorf("daemon: running configuration (revision %d): %w", rev.Number, err)
	}
	if err := comp.SetCPUPort(d.cpuPort); err != nil {
		return nil, fmt.Errorf("daemon: %w", err)
	}
	// The slot layouts the switch was programmed with: the planned
	// layout of the running revision starts from them.
	if own != nil {
		if ws := own.Warnings(); len(ws) > 0 {
			d.raiseAlarm(stateRepairedAlarm(opts.StateDir, ws))
		}
	}
	layouts, err := store.Layouts()
	if err != nil {
		return nil, fmt.Errorf("daemon: %w", err)
	}
	rt, err := loadRuntime(store, d.caps, cfg)
	if err != nil {
		return nil, err
	}
	eng, err := d.newEngine(cfg, rt)
	if err != nil {
		return nil, err
	}
	st := eng.State()
	des, err := comp.Compile(cfg, st, tables.FromLayouts(layouts))
	if err != nil {
		return nil, err
	}
	site, err := comp.NewSite(cfg, des, st)
	if err != nil {
		return nil, err
	}
	d.setRunning(&running{cfg: cfg, yaml: data, rev: rev, engine: eng, site: site,
		ports: map[uint32]bool{}, swPorts: map[string]SwitchPort{}})

	d.guard = tables.NewWriteGuard(comp, d.guardOptions())
	d.session = controlplane.New(controlplane.Options{
		Addr: opts.SwitchAddr, DeviceID: opts.DeviceID, ElectionHigh: opts.ElectionHigh, ElectionLow: opts.ElectionLow, FixedElection: opts.FixedElection,
		Role: opts.Role, TLS: opts.SwitchTLS, Pipeline: d.pipeline.Pipeline, Program: comp, Guard: d.guard, Logger: log, Timing: opts.SwitchTiming,
		OnPrimary: d.onPrimary, EvidenceCopy: evidenceCopySessions(cfg.Platform, comp.Schema()), OnEvidenceCopy: d.evidenceCopied,
		SessionMemory: controlplane.SessionMemoryOptions{Enabled: d.sessionsOn},
	})
	if d.sessionsOn {
		if d.learner, err = d.newLearner(); err != nil {
			return nil, fmt.Errorf("daemon: %w", err)
		}
	}
	// The first reconciliation already knows what the switch must hold.
	d.guard.SetSpares(tables.SpareIDs(cfg))
	d.session.SetDesired(des.Entities)
	// A configuration session and a commit confirmed outlive the daemon.
	if err := d.loadDocs(); err != nil {
		return nil, fmt.Errorf("daemon: %w", err)
	}
	built = true
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
	var open map[string]profiles.FailOpenMark
	for n, fo := range rt.FailedOpen {
		if open == nil {
			open = map[string]profiles.FailOpenMark{}
		}
		open[n] = profiles.FailOpenMark{Since: fo.Since, Detail: fo.Detail}
	}
	return profiles.New(cfg, d.sendKeepAlive, profiles.Options{TimestampUnit: unit, Logger: d.log,
		Down: rt.Down, Up: rt.Up, Recovered: rt.Recovered, Epochs: rt.Epochs, FailedOpen: open, AdminBypass: known, GlobalBypass: rt.BypassAll, OnTransition: d.filterTransition,
		OnFailOpen: d.filterFailOpen})
}

// evidenceCopySessions gives the evidence copy's mirror sessions the
// switch needs: those of the platform's pipes when the pipeline copies
// returns across pipes (the TNA verdict build), else none.
func evidenceCopySessions(platform string, schema *p4src.Schema) []*p4v1.CloneSessionEntry {
	p, err := config.LookupPlatform(platform)
	if err != nil || !schema.HasEvidenceCopy() {
		return nil
	}
	return p4src.EvidenceCopySessions(p.Pipes)
}

// cpuPortOf gives the CPU port: override when set, else the platform's,
// and checks that no port of cfg takes it.
func cpuPortOf(cfg *config.Config, override uint32) (uint32, error) {
	cpu := override
	if cpu == 0 {
		pl, err := config.LookupPlatform(cfg.Platform)
		if err != nil {
			return 0, err
		}
		cpu = pl.CPUPort
	}
	if err := cfg.CheckCPUPort(cpu); err != nil {
		return 0, fmt.Errorf("CPU port %d: %w", cpu, err)
	}
	return cpu, nil
}

// CPUPort is the controller's data-plane port the daemon runs with.
func (d *Daemon) CPUPort() uint32 { return d.cpuPort }

// sendKeepAlive hands a keep-alive to the switch session.
func (d *Daemon) sendKeepAlive(port uint32, frame []byte) error {
	if port == d.cpuPort {
		return fmt.Errorf("daemon: keep-alive to data-plane port %d, the CPU port: not sent", port)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return d.session.PacketOut(ctx, port, wire.PacketOutFlagKeepAlive, frame)
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
				if ctx.Err() == nil {
					d.taskEnded(name, err)
				}
			}
		}()
	}
	d.inlineMu.Lock()
	d.snapshot().engine.Start(d.now())
	d.started.Store(true)
	d.inlineMu.Unlock()
	run("switch session", d.session.Run)
	run("state owner", d.ownerLoop)
	run("keep-alives and verdicts (profiles engine)", d.engineLoop)
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
	if d.opts.Telemetry != nil {
		run("telemetry", func(ctx context.Context) error { return d.telemetryLoop(ctx, si, ci) })
	}
	if d.learner != nil {
		run("session memory", d.sessionsLoop)
	}
	run("stall evidence", d.evidenceLoop)
	run("commit confirmed", d.confirmLoop)
	<-ctx.Done()
	wg.Wait()
	// Done with the state directory: another daemon may take it.
	if d.ownStore != nil {
		_ = d.ownStore.Close()
	}
	return nil
}

func (d *Daemon) currentEngine() *profiles.Engine { return d.snapshot().engine }

// engineLoop is the engine's owner: the one goroutine that changes the
// running profiles engine once Run started it. It runs the keep-alive
// rounds (every Tick: the keep-alives that came back counted, the rounds
// judged, the next keep-alives sent), hands the engine the packet-ins and
// the data-plane verdicts, and runs the changes others hand it
// (engineDo): port events, role changes, epochs and failures the switch
// session found, the stall guard's evidence, the operator's bypass and
// return. It waits for nothing else (no lock, no store, no switch write:
// packet-outs are queued), so keep-alive rounds never queue behind a
// configuration change the state owner writes.
func (d *Daemon) engineLoop(ctx context.Context) error {
	defer close(d.engDone)
	t := time.NewTicker(d.opts.Tick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case due := <-t.C:
			d.keepAliveRound(due)
		case p := <-d.session.PacketIns():
			d.onPacketIn(p)
		case v := <-d.session.Verdicts():
			d.onVerdict(v.VerdictDigest)
		case f := <-d.engReqs:
			f()
		}
	}
}

// keepAliveRound runs a keep-alive round that was due at due (the engine
// loop).
func (d *Daemon) keepAliveRound(due time.Time) {
	// Keep-alives that came back are counted before their rounds are
	// judged, even when this goroutine ran late (a host stall).
	d.drainPacketIns()
	eng := d.currentEngine()
	if at, ok := d.session.Heard(); ok {
		eng.SwitchHeard(at)
	}
	eng.Tick(d.now())
	if d.roundDone != nil {
		d.roundDone(due)
	}
}

// engineDo runs f on the engine loop and returns when it ran. Before Run,
// and once the loop ended (the daemon stops), f runs on the caller's
// goroutine: work handed to own before Run is then the only one to change
// the engine. Callers: the state owner and the switch session's
// callbacks, which the engine loop never waits for.
func (d *Daemon) engineDo(f func()) {
	if !d.ownerRunning() {
		f()
		return
	}
	done := make(chan struct{})
	select {
	case d.engReqs <- func() { f(); close(done) }:
		<-done
	case <-d.engDone:
		f()
	}
}

// drainPacketIns hands the engine every packet-in already received.
func (d *Daemon) drainPacketIns() {
	for {
		select {
		case p := <-d.session.PacketIns():
			d.onPacketIn(p)
		default:
			return
		}
	}
}

func (d *Daemon) onPacketIn(p controlplane.PacketIn) {
	if p.Metadata[wire.MetaReason] != wire.PacketInReasonKeepAlive {
		return
	}
	if d.opts.PacketInTap != nil {
		d.opts.PacketInTap(p)
	}
	if err := d.currentEngine().OnPacketIn(p.Payload, uint32(p.Metadata[wire.MetaIngressPort]), p.Metadata[wire.MetaRxTimestamp], d.now()); err != nil {
		d.log.Debug("keep-alive ignored", "err", err)
	}
}

// ownerLoop is the state owner: the one goroutine that changes runtime
// state and writes it to the switch. It applies the profiles engine's
// state changes (failovers) and runs the work others hand it (manual
// bypass, configuration swaps) in order.
func (d *Daemon) ownerLoop(ctx context.Context) error {
	defer close(d.ownerDone)
	// Leave the runtime state as it is on the way out, so a restarted
	// daemon resumes it.
	defer d.saveRuntime()
	var retry *time.Timer
	for {
		eng := d.currentEngine()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-eng.Changes():
			// The switch first: a failover must not wait for a disk. Only
			// a new fail-open mark is saved before, waiting at most
			// markSaveWait (markfirst.go): the switch cannot show it.
			st := d.saveMarksFirst(eng)
			if err := d.writeStateOf(ctx, eng, st); err == nil && d.early == nil {
				d.saveRuntime()
			}
		case <-eng.Saves():
			// A filter group entered or left "recovered, waiting for
			// return", or failed open: the mark must survive a restart
			// or a takeover. A fail-open's mark is saved before its
			// action is written (here at once, not on Changes).
			st := d.saveMarksFirst(eng)
			_ = d.writeStateOf(ctx, eng, st) // its errors are logged; the save goes on
			if d.early == nil {
				d.saveRuntime()
			}
		case r := <-d.earlyDone():
			// A fail-open mark's save that outlasted markSaveWait: the
			// switch was written meanwhile; what changed since it was
			// taken is saved now.
			if d.finishEarly(d.early, r, d.earlyNames) {
				d.saveRuntime()
			}
		case <-d.retryTimer(&retry):
			retry = nil
			d.log.Info("retrying the runtime state's save")
			d.saveRuntime()
		case f := <-d.reqs:
			f(ctx)
		case <-d.mail.kick:
			for _, m := range d.mail.take() {
				m.f(ctx)
			}
		}
	}
}

// own runs f on the state owner and returns its error (before Run, on
// the caller's goroutine). It fails when ctx
// ends before the owner takes f (nothing was done), or when the daemon is
// shutting down. When ctx ends while f runs, f goes on and the error says
// the change may have been made.
func (d *Daemon) own(ctx context.Context, f func(context.Context) error) error {
	d.inlineMu.Lock()
	if !d.started.Load() {
		defer d.inlineMu.Unlock()
		return f(ctx)
	}
	d.inlineMu.Unlock()
	res := make(chan error, 1)
	select {
	case d.reqs <- func(octx context.Context) { res <- f(octx) }:
	case <-ctx.Done():
		return ctx.Err()
	case <-d.ownerDone:
		return kindf(ErrUnavailable, "the daemon is shutting down")
	}
	// Taken: f completes even if ctx ends now (a change that was saved is
	// also written); say so when the caller stops waiting.
	select {
	case err := <-res:
		return err
	case <-ctx.Done():
		return kindf(ErrUnavailable, "%v while the change was being applied: it may have been made and is still being written to the switch; check status", ctx.Err())
	}
}

// ownerRunning reports whether Run started the state owner (and the
// switch session): before, work runs inline and nothing can be written to
// the switch yet. From work handed to own (or the owner) the answer
// holds while it runs (inline work holds inlineMu; the owner starts after
// Run set it).
func (d *Daemon) ownerRunning() bool { return d.started.Load() }

// writeState brings the site to the engine's current state and writes the
// entries that change (the state owner only). It computes only those
// entries, from the compiled site: no compile, no diff of the site.
func (d *Daemon) writeState(ctx context.Context) error {
	return d.writeStateOf(ctx, nil, tables.State{})
}

// writeStateOf is writeState of state st that engine eng held (nil: the
// current engine's state now): the state whose fail-open marks
// saveMarksFirst saved, not a later one whose marks it has not seen.
func (d *Daemon) writeStateOf(ctx context.Context, eng *profiles.Engine, st tables.State) error {
	r := d.snapshot()
	site := r.site
	if eng != r.engine {
		st = r.engine.State() // replaced meanwhile (or none given): the current one's
	}
	st = d.holdReturns(site.Config(), st)
	if equalState(site.State(), st) {
		return nil
	}
	start := time.Now()
	next, changed, err := d.comp.WithState(site, st)
	if err != nil {
		d.log.Error("runtime state change", "err", err)
		return err
	}
	d.with(func(r *running) { r.site = next })
	if !d.ownerRunning() {
		// Before Run: the session's first reconciliation writes it.
		d.session.SetDesired(next.Desired().Entities)
		return nil
	}
	computed := time.Now()
	plan, err := d.session.ApplyUpdates(ctx, controlplane.Change{Desired: func() []*p4v1.Entity { return next.Desired().Entities }, Changed: changed})
	if err == nil {
		if d.stateWritten != nil {
			d.stateWritten(start, computed, time.Now(), len(changed))
		}
		d.markWritten(st)
		d.crashPoint(CrashPoint{Point: CrashStateWritten, State: st})
	}
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, controlplane.ErrNotPrimary):
		// Kept; written when the session becomes primary.
	case err != nil:
		d.log.Error("programming the switch failed; it is written again on the next change or reconnection", "err", err)
	case plan != nil && !plan.Empty():
		d.log.Info("switch programmed", "inserts", plan.Inserts, "modifies", plan.Modifies, "deletes", plan.Deletes)
	}
	return nil
}

// markWritten notes the runtime state the switch now holds (the state
// owner).
func (d *Daemon) markWritten(st tables.State) {
	d.with(func(r *running) { r.written, r.writeSeq = st, r.writeSeq+1 })
}

// onPrimary follows the session: once primary it has reconciled the switch
// to the desired state of that moment. Called on the session's goroutine,
// it takes that state now and hands the role change to the state owner,
// without waiting (the owner may be waiting on the session).
func (d *Daemon) onPrimary(primary bool) {
	cur := d.snapshot()
	held, seq := cur.site.State(), cur.writeSeq
	if !primary {
		// Another controller may write the switch meanwhile: the epochs
		// this engine's recoveries chose no longer say what the verdict
		// registers can hold (at once, as the session goes on).
		d.engineDo(cur.engine.ForgetOwnEpochs)
	}
	d.mail.post(func(context.Context) { d.roleChanged(primary, held, seq) })
}

// roleChanged records a role change of the session (the state owner):
// when it became primary the switch holds held, unless a write noted since
// (after seq) says what it holds now.
func (d *Daemon) roleChanged(primary bool, held tables.State, seq uint64) {
	var was bool
	d.with(func(r *running) {
		was = r.primary
		r.primary = primary
		if primary && r.writeSeq == seq {
			r.written = held
		}
	})
	if was != primary {
		// A new leader of an election rolls back a commit confirmed the
		// former one left pending (a standby leaves it).
		d.kickConfirm()
		from, to := "backup", "primary"
		if !primary {
			from, to = to, from
		}
		d.events.Publish(Event{Kind: EventSwitch, Object: d.opts.SwitchAddr, From: from, To: to})
	}
}

// filterTransition records a filter group's state change as an event.
func (d *Daemon) filterTransition(t profiles.Transition) {
	reason := t.Reason.String()
	if t.Detail != "" {
		reason = t.Detail
	}
	d.events.Publish(Event{At: t.At, Kind: EventFilterGroup, Object: t.FilterGroup, From: t.From.String(), To: t.To.String(), Reason: reason})
}

// AlarmFilterFailedOpen names the fail-open alarm of a filter group in the
// event log (the alarm itself is the filter group's: status, gNMI and
// metrics show it with the filter group).
const AlarmFilterFailedOpen = "filter-failed-open"

// filterFailOpen publishes a filter group failing open (raised) or its
// probes being dropped again (cleared).
func (d *Daemon) filterFailOpen(f profiles.FailOpen) {
	to := "cleared"
	if f.Open {
		to = "raised"
		d.log.Warn("ALARM "+AlarmFilterFailedOpen, "filter_group", f.FilterGroup, "alarm", f.Detail, "fail_open_action", string(f.Action))
	}
	d.events.Publish(Event{At: f.At, Kind: EventAlarm, Object: f.FilterGroup, To: to, Reason: AlarmFilterFailedOpen + ": " + f.Detail})
}

func equalState(a, b tables.State) bool {
	return maps.Equal(a.FilterGroups, b.FilterGroups) && maps.Equal(a.BalanceGroups, b.BalanceGroups) &&
		maps.Equal(a.Rebalanced, b.Rebalanced) && maps.Equal(a.Spared, b.Spared)
}

// runtimeOf is the runtime state to save for an engine.
func runtimeOf(eng *profiles.Engine) Runtime {
	all, groups := eng.Bypass()
	up := eng.Up()
	if up == nil {
		up = []string{} // written as [], not null: see Runtime.Up
	}
	var open map[string]FailedOpen
	for n, fo := range eng.FailedOpen() {
		if open == nil {
			open = map[string]FailedOpen{}
		}
		open[n] = FailedOpen{Since: fo.Since, Detail: fo.Detail}
	}
	return Runtime{BypassAll: all, BypassGroups: groups, Down: eng.Down(), Up: up, Recovered: eng.Recovered(), Epochs: eng.Epochs(), FailedOpen: open}
}

// saveRuntime saves the failure states after a failover was written to
// the switch. A failure is logged and counted: the failover stands (the
// switch is already programmed), and the next save catches up. With a
// shared store the save is conditioned on the store revision the engine
// reflects (saveRuntimeOf).
func (d *Daemon) saveRuntime() {
	eng := d.currentEngine()
	if err := d.saveRuntimeOf(eng, runtimeOf(eng)); err != nil {
		d.runtimeSaveFailed(err)
	}
}

// Session exposes the switch session (status, tests).
func (d *Daemon) Session() *controlplane.Session { return d.session }

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// errorList formats a validation error: one problem per line.
func errorList(err error) string {
	return strings.Join(config.Problems(err), "\n  ")
}
