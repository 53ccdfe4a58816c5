package daemon

import (
	"context"
	"maps"
	"slices"
	"sync"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/controlplane"
	"github.com/dpi-balancer/balancer/profiles"
	"github.com/dpi-balancer/balancer/tables"
)

// running is the daemon's running state: the configuration it runs, in
// its runtime state, and what it knows of the switch. It is one immutable
// value, published whole (Daemon.state) and read only through snapshot;
// the state owner is the only writer (setRunning), and every change is an
// event to it (docs/layers.md, "The daemon's core"). A value read is never
// changed: a change copies it (with) and publishes the copy, maps
// included.
type running struct {
	cfg    *config.Config
	yaml   []byte // cfg as saved
	rev    Revision
	engine *profiles.Engine
	// site is cfg compiled, in the runtime state last brought to it.
	site *tables.Site
	// rtBase: with a shared store, the store revision of the runtime
	// state the engine reflects.
	rtBase int64
	// cfgGen moves with every install of a new configuration (portLoop
	// follows its ports).
	cfgGen uint64

	// written is the runtime state last written to the switch; writeSeq
	// moves with every write noted, so a role change reported by the
	// session before a later write does not take it back.
	written  tables.State
	writeSeq uint64
	primary  bool // the session is primary and has reconciled

	// The switch's ports: oper status by data-plane port (absent =
	// unknown, taken as up), what its gNMI reports of every site port by
	// interface name (cleared when the subscription ends), and whether
	// the subscription is up.
	ports    map[uint32]bool
	swPorts  map[string]SwitchPort
	watching bool
}

// snapshot is the running state: an immutable value, consistent in
// itself, that its reader must not change.
func (d *Daemon) snapshot() *running { return d.state.Load() }

// setRunning publishes next as the running state. Only the state owner
// calls it (before Run, work handed to own, which runs one at a time).
func (d *Daemon) setRunning(next *running) { d.state.Store(next) }

// with publishes a copy of the running state changed by f (the state
// owner only). f may replace the copy's maps, never change them in place.
func (d *Daemon) with(f func(*running)) *running {
	next := *d.snapshot()
	f(&next)
	d.setRunning(&next)
	return &next
}

// install makes next's configuration and engine the running ones: the one
// place they are replaced (apply, rollback, and reload from a shared
// store). It runs on the state owner (before Run, in work handed to own).
// next's engine is started; a new configuration moves cfgGen, so portLoop
// follows its ports. What the daemon knows of the switch is kept.
func (d *Daemon) install(next running) {
	next.engine.Start(d.now())
	cur := d.snapshot()
	changed := next.cfg != cur.cfg
	next.cfgGen, next.written, next.writeSeq, next.primary = cur.cfgGen, cur.written, cur.writeSeq, cur.primary
	next.ports, next.swPorts, next.watching = cur.ports, cur.swPorts, cur.watching
	if changed {
		next.cfgGen++
		if d.guard != nil {
			d.guard.SetSpares(tables.SpareIDs(next.cfg))
		}
	}
	d.setRunning(&next)
	if changed {
		d.clearAlarm(AlarmVerdictUnknown, "another configuration was applied")
	}
}

// atState brings a site compiled for an earlier runtime state to the one
// eng holds now: what it decided since (failovers, manual bypass).
func (d *Daemon) atState(site *tables.Site, eng *profiles.Engine) (*tables.Site, error) {
	now := d.holdReturns(site.Config(), eng.State())
	if equalState(now, site.State()) {
		return site, nil
	}
	next, _, err := d.comp.WithState(site, now)
	return next, err
}

// program writes a newly installed site to the switch whole, the session
// diffing it with what the switch holds (the state owner). Before Run the
// session's first reconciliation writes it (an ApplyUpdates would wait for a
// session that is not running): started is then false. pre, when not
// nil, is the plan already made from the running site to the new one: the
// session writes it as it is while it holds that running site (it is
// used only while site's entities are the very ones it was made for).
func (d *Daemon) program(ctx context.Context, site *tables.Site, pre *applyPlan) (plan *tables.Plan, started bool, err error) {
	if !d.ownerRunning() {
		d.session.SetDesired(site.Desired().Entities)
		return nil, false, nil
	}
	d.withdrawFirst(ctx, site)
	ch := controlplane.FullChange(site.Desired().Entities)
	if pre != nil && site.Desired() == pre.des {
		// No runtime state change since the plan: it is the difference
		// from the site the plan was made against.
		ch.Plan, ch.From = pre.plan, pre.from
	}
	plan, err = d.session.ApplyUpdates(ctx, ch)
	if err == nil {
		d.markWritten(site.State())
	}
	return plan, true, err
}

// mailbox queues work for the state owner from goroutines that must never
// wait for it (the switch session's callbacks: the owner may be waiting
// on the session; the port watch, which must go on handing port events to
// the engine while the owner writes a configuration). Posting never
// blocks; the owner runs what was posted, in order. mu is a leaf lock on
// the queue alone: a channel would make a poster wait when full.
type mailbox struct {
	mu   sync.Mutex
	work []mail
	kick chan struct{}
}

// mail is work posted; a keyed one replaces the one of its key still
// waiting (the newer value of the same thing: the queue holds at most one
// per key).
type mail struct {
	key string
	f   func(context.Context)
}

func newMailbox() *mailbox { return &mailbox{kick: make(chan struct{}, 1)} }

// post queues f.
func (m *mailbox) post(f func(context.Context)) { m.postKey("", f) }

// postKey queues f, dropping the work of the same key (not "") still
// waiting: f supersedes it.
func (m *mailbox) postKey(key string, f func(context.Context)) {
	m.mu.Lock()
	if key != "" {
		m.work = slices.DeleteFunc(m.work, func(w mail) bool { return w.key == key })
	}
	m.work = append(m.work, mail{key, f})
	m.mu.Unlock()
	select {
	case m.kick <- struct{}{}:
	default:
	}
}

// take returns what was posted since the last take.
func (m *mailbox) take() []mail {
	m.mu.Lock()
	defer m.mu.Unlock()
	w := m.work
	m.work = nil
	return w
}

// copyPorts returns a copy of a port map to change (the published one is
// never changed).
func copyPorts[K comparable, V any](m map[K]V) map[K]V {
	out := make(map[K]V, len(m)+1)
	maps.Copy(out, m)
	return out
}
