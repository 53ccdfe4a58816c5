package daemon

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/controlplane"
	"github.com/dpi-balancer/balancer/sessionmem"
	"github.com/dpi-balancer/balancer/tables"
)

// The session memory's learner (docs/sessions.md): the session digests
// the switch sends become entries keep(filter group, core) of the
// sessions table, with the site's idle timeout for the session's
// protocol; the entries the switch notifies idle are deleted. It is a
// task of its own: it takes the digests from the switch session without
// ever making it wait (the session drops what the learner's queue cannot
// hold, and so does the learner past its bound: an unlearned session
// behaves as without the memory), writes outside the desired state
// (controlplane.Session.WriteUnowned) and touches neither the running
// state nor the engine, so neither the state owner nor the keep-alives
// ever wait for it.

// SessionMemoryStatus is the session memory's state, for status and
// telemetry.
type SessionMemoryStatus struct {
	Enabled bool
	// Held is the entries the learner holds on the switch (as last read
	// back, with its writes since), by filter group id; Size the table's.
	Held    int
	ByGroup map[uint8]int
	// Groups are ByGroup with the filter groups' names (the running
	// configuration's; "" for an id it does not have), by id.
	Groups   []SessionMemoryGroup
	Size     int64
	Occupied float64 // Held/Size, 0..1
	// Inserted, Evicted (aged: deleted after an idle notification),
	// Duplicates (the switch held it already), Full (digests refused:
	// RESOURCE_EXHAUSTED, or not written while the learner holds the
	// table's size), Failed (any other error), Dropped (digests
	// past the learner's queue or the session's), Backlog (digests
	// waiting), Bound (the queue's bound).
	Inserted, Evicted, Duplicates, Full, Failed, Dropped uint64
	// Rehomed: held sessions rewritten off a failed filter group whose
	// share its failure action moved (rebalance, spare).
	Rehomed uint64
	// Reassigned: held sessions rewritten to where their slots point
	// because a configuration change removed their filter group (or its
	// membership of their balance group, or the core they were on);
	// Removed: entries deleted because a change removed their balance
	// group.
	Reassigned, Removed uint64
	// Kept: held sessions rewritten to stay in software bypass as their
	// filter group returned (return: new-sessions; docs/sessions.md,
	// "Bypassed sessions kept in bypass").
	Kept uint64
	// KeepTimedOut: returns of a filter group whose held sessions could
	// not all be kept in bypass within the wait (keepReturnWait): they
	// went back to it.
	KeepTimedOut   uint64
	Backlog, Bound int
	LastReadBack   time.Time
}

// SessionMemoryGroup is the sessions held for one filter group.
type SessionMemoryGroup struct {
	Name string
	ID   uint32
	Held int
	// KeptInBypass: the id of the sessions kept in software bypass
	// (sessions.bypass_id), not a filter group.
	KeptInBypass bool
}

// Session memory defaults.
const (
	// sessionQueueBound bounds the digests waiting for the learner.
	sessionQueueBound = 65536
	// sessionBatch is the most updates of one write.
	sessionBatch = 500
	// sessionReadBack is how often the learner reads the table back.
	sessionReadBack = 30 * time.Second
	// sessionSiteCheck is how often the learner looks for a new running
	// site (a failover that moved a filter group's share).
	sessionSiteCheck = 100 * time.Millisecond
	// sessionAlarmShare is the occupancy above which the alarm is raised.
	sessionAlarmShare = 0.9
)

// sessionSwitch is what the learner needs of the switch session.
type sessionSwitch interface {
	WriteUnowned(ctx context.Context, us []*p4v1.Update) ([]error, error)
	Read(ctx context.Context, entities ...*p4v1.Entity) ([]*p4v1.Entity, error)
}

type learner struct {
	tbl   *sessionmem.Table
	sess  sessionSwitch
	idle  func(proto uint8) time.Duration
	bound int

	// mu is a leaf lock on the learner's queues alone (digests come from
	// the engine loop, the learner's loop drains them).
	mu      sync.Mutex
	queue   []sessionmem.Digest
	deletes []sessionmem.Key
	// rehomes are entries to rewrite (MODIFY) off a failed filter group
	// whose slots moved (rehome); reassigns off a filter group or core a
	// configuration change removed, removes the entries of a removed
	// balance group (withdraw).
	rehomes   []sessionmem.Digest
	reassigns []sessionmem.Digest
	removes   []sessionmem.Key
	held      map[sessionmem.Key]heldAt
	byGroup   [256]int // held, counted by filter group
	lastRB    time.Time
	wake      chan struct{}
	// recheck: an answer the learner's view cannot explain (BMv2's
	// refusal while it holds less than the size): read the table back;
	// unsure counts those answers until then (readBack counts them).
	recheck bool
	unsure  uint64

	inserted, evicted, dups, full, failed, dropped, rehomed atomic.Uint64
	reassigned, removed, kept                               atomic.Uint64

	// keepNow says, from the running state, the kept sessions' id and the
	// filter groups whose new sessions are learned there (in software
	// bypass with return: new-sessions); nil: none.
	keepNow func() (uint8, map[uint8]bool)
	// keepReq: filter groups whose held entries are to be rewritten to
	// the kept id (requestKeep), taken from held by next; keeps: those
	// rewrites; keepDone: called once they are written.
	keepReq  map[uint8]bool
	keepID   uint8
	keeps    []sessionmem.Digest
	keepDone []func()
	// keeping: the filter groups whose rewrites are under way (taken from
	// keepReq, until done or cancelled).
	keeping map[uint8]bool
	// keepGate, when set (tests), is received from before each batch of
	// rewrites to the kept id is written.
	keepGate atomic.Pointer[chan struct{}]
	// viewed: the table was read back once (the view holds what the
	// switch holds, not only this learner's writes).
	viewed bool
	// keepInFlight: a batch of rewrites to the kept id was taken and is
	// not written yet (its waiters wait for it).
	keepInFlight bool
	// reassignDone: called once no rewrite off a removed filter group or
	// core is queued or being written (afterReassigns); reassignInFlight:
	// a batch of them was taken and is not written yet.
	reassignDone     []func()
	reassignInFlight bool
	// rechecks: read-backs an answer the view could not explain asked for.
	rechecks atomic.Uint64
}

// batchKind is what a batch of the learner's writes does.
type batchKind int

const (
	batchLearn    batchKind = iota // INSERT digests
	batchAge                       // DELETE entries notified idle
	batchRemove                    // DELETE entries of a removed balance group
	batchRehome                    // MODIFY off a failed filter group
	batchReassign                  // MODIFY off a removed filter group or core
	batchKeep                      // MODIFY to the kept id (return: new-sessions)
)

func (k batchKind) updateType() p4v1.Update_Type {
	switch k {
	case batchAge, batchRemove:
		return p4v1.Update_DELETE
	case batchRehome, batchReassign, batchKeep:
		return p4v1.Update_MODIFY
	}
	return p4v1.Update_INSERT
}

func newLearner(tbl *sessionmem.Table, sess sessionSwitch, idle func(uint8) time.Duration, bound int) *learner {
	return &learner{tbl: tbl, sess: sess, idle: idle, bound: bound, held: map[sessionmem.Key]heldAt{}, wake: make(chan struct{}, 1)}
}

// heldAt is where a held session's entry keeps it.
type heldAt struct {
	fg   uint8
	core uint16
}

func (l *learner) poke() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// take queues digests (the receiving goroutine); past the bound they are
// dropped and counted.
func (l *learner) take(dgs []sessionmem.Digest) {
	l.mu.Lock()
	if l.tbl.Size > 0 && int64(len(l.held)) >= l.tbl.Size {
		// Full: refused without a write (a full table's unlearned
		// sessions digest again with every frame the switch lets through).
		l.mu.Unlock()
		l.full.Add(uint64(len(dgs)))
		return
	}
	n := min(len(dgs), l.bound-len(l.queue))
	if n < 0 {
		n = 0
	}
	l.queue = append(l.queue, dgs[:n]...)
	l.mu.Unlock()
	if n < len(dgs) {
		l.dropped.Add(uint64(len(dgs) - n))
	}
	l.poke()
}

// takeIdle queues the deletes of entries notified idle.
func (l *learner) takeIdle(tes []*p4v1.TableEntry) {
	l.mu.Lock()
	for _, te := range tes {
		h, err := l.tbl.Decode(te)
		if err != nil {
			continue
		}
		l.deletes = append(l.deletes, h.Key)
	}
	l.mu.Unlock()
	l.poke()
}

// next takes the next batch: deletes first (they free room: the aged,
// then those of removed balance groups), then the rewrites off removed
// and failed filter groups, then the sessions to learn. A delete batch
// has its keys in del, any other its entries in ins.
func (l *learner) next() (del []sessionmem.Key, ins []sessionmem.Digest, kind batchKind) {
	l.mu.Lock()
	defer l.mu.Unlock()
	takeKeys := func(q *[]sessionmem.Key) []sessionmem.Key {
		n := min(len(*q), sessionBatch)
		out := slices.Clone((*q)[:n])
		*q = (*q)[n:]
		return out
	}
	takeDigests := func(q *[]sessionmem.Digest) []sessionmem.Digest {
		n := min(len(*q), sessionBatch)
		out := slices.Clone((*q)[:n])
		*q = (*q)[n:]
		if len(*q) == 0 {
			*q = nil
		}
		return out
	}
	if l.keepReq != nil && l.viewed {
		// Taken here, by the loop that writes every batch: the view then
		// holds every insert written so far. Not before the table was
		// read back once (a daemon just started knows nothing of it yet):
		// the return waits.
		for k, at := range l.held {
			if l.keepReq[at.fg] {
				l.keeps = append(l.keeps, sessionmem.Digest{Key: k, FilterGroup: l.keepID, Core: at.core})
			}
		}
		if l.keeping == nil {
			l.keeping = map[uint8]bool{}
		}
		for fg := range l.keepReq {
			l.keeping[fg] = true
		}
		l.keepReq = nil
	}
	switch {
	case len(l.keeps) > 0:
		// First: a filter group's return waits for them.
		l.keepInFlight = true
		return nil, takeDigests(&l.keeps), batchKeep
	case len(l.deletes) > 0:
		return takeKeys(&l.deletes), nil, batchAge
	case len(l.removes) > 0:
		return takeKeys(&l.removes), nil, batchRemove
	case len(l.reassigns) > 0:
		l.reassignInFlight = true
		return nil, takeDigests(&l.reassigns), batchReassign
	case len(l.rehomes) > 0:
		return nil, takeDigests(&l.rehomes), batchRehome
	}
	ins = takeDigests(&l.queue)
	if len(ins) > 0 && l.keepNow != nil {
		// A new session of a filter group in software bypass whose
		// profile keeps bypassed sessions there: held at the kept id, so
		// it stays bypassed when the filter group returns.
		if id, fgs := l.keepNow(); len(fgs) > 0 {
			for i := range ins {
				if fgs[ins[i].FilterGroup] {
					ins[i].FilterGroup = id
				}
			}
		}
	}
	return nil, ins, batchLearn
}

// requestKeep asks for the rewrite of every held entry of filter groups
// fgs to the kept id (MODIFY keep(id, its core)); done is called once they
// are written (from the learner's loop).
func (l *learner) requestKeep(fgs map[uint8]bool, id uint8, done func()) {
	l.mu.Lock()
	if l.keepReq == nil {
		l.keepReq = map[uint8]bool{}
	}
	for fg := range fgs {
		l.keepReq[fg] = true
	}
	l.keepID = id
	l.keepDone = append(l.keepDone, done)
	l.mu.Unlock()
	l.poke()
}

// stillKeeping is the rewrites of batch ins whose filter group's return
// still waits for them.
func (l *learner) stillKeeping(ins []sessionmem.Digest) []sessionmem.Digest {
	l.mu.Lock()
	defer l.mu.Unlock()
	ins = slices.DeleteFunc(ins, func(d sessionmem.Digest) bool {
		at, ok := l.held[d.Key]
		return !ok || !l.keeping[at.fg]
	})
	if len(ins) == 0 {
		l.keepInFlight = false
	}
	return ins
}

// cancelKeep drops the rewrites to the kept id not made yet of the held
// entries of filter group fg (its return did not wait for them); the
// waiters are still called.
func (l *learner) cancelKeep(fg uint8) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.keepReq, fg)
	if len(l.keepReq) == 0 {
		l.keepReq = nil
	}
	delete(l.keeping, fg)
	l.keeps = slices.DeleteFunc(l.keeps, func(d sessionmem.Digest) bool {
		at, ok := l.held[d.Key]
		return ok && at.fg == fg
	})
	l.poke()
}

// finishKeeps calls the waiters of requestKeep once every rewrite asked
// for is written, and those of afterReassigns once no rewrite off a
// removed filter group or core is left (the learner's loop).
func (l *learner) finishKeeps() {
	l.mu.Lock()
	var fns []func()
	if l.keepReq == nil && len(l.keeps) == 0 && !l.keepInFlight && len(l.keepDone) > 0 {
		fns = l.keepDone
		l.keepDone, l.keeping = nil, nil
	}
	if len(l.reassigns) == 0 && !l.reassignInFlight && len(l.reassignDone) > 0 {
		fns = append(fns, l.reassignDone...)
		l.reassignDone = nil
	}
	l.mu.Unlock()
	for _, f := range fns {
		f()
	}
}

// afterReassigns calls done (from the learner's loop) once the rewrites
// off removed filter groups and cores queued so far are written.
func (l *learner) afterReassigns(done func()) {
	l.mu.Lock()
	l.reassignDone = append(l.reassignDone, done)
	l.mu.Unlock()
	l.poke()
}

// rehome queues the rewrite of every held session of a filter group
// whose share its failure action moved (rebalance to the survivors, or
// spare) to where its slot now points (docs/sessions.md, "Failures"): a
// held session leaves a failed filter as a slot's would, and stays where
// it went when the filter returns. Sessions of a filter group in bypass
// or drop are left alone (the failure action applies to them, and they go
// back when it returns).
func (l *learner) rehome(site *tables.Site) {
	st, cfg := site.State(), site.Config()
	moved := map[uint8]bool{}
	for _, names := range []map[string]bool{st.Rebalanced, mapKeys(st.Spared)} {
		for name := range names {
			if f := cfg.FilterGroupByName(name); f != nil && f.ID != nil {
				moved[uint8(*f.ID)] = true
			}
		}
	}
	if len(moved) == 0 {
		return
	}
	active := map[uint8]*tables.Layout{}
	for _, gl := range site.Layouts() {
		active[uint8(gl.ID)] = gl.Active
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for k, at := range l.held {
		fg := at.fg
		lay := active[k.BalanceGroup]
		if !moved[fg] || lay == nil || len(lay.Slots) == 0 {
			continue
		}
		t := lay.Slots[k.Hash()&uint32(len(lay.Slots)-1)]
		if uint8(t.FilterGroup) == fg {
			continue
		}
		l.rehomes = append(l.rehomes, sessionmem.Digest{Key: k, FilterGroup: uint8(t.FilterGroup), Core: uint16(t.Core)})
	}
}

// heldPlaces are, per balance group id of cfg, the filter groups a held
// session of it may stay on (its members and spares) with their cores,
// and the kept sessions' id where a profile keeps bypassed sessions in
// bypass (every core): an entry held elsewhere points where the
// configuration has nothing (docs/sessions.md, "Changes that remove a
// filter group").
func heldPlaces(cfg *config.Config) map[uint8]map[uint8]uint32 {
	eff := cfg.Clone()
	eff.ApplyDefaults()
	out := map[uint8]map[uint8]uint32{}
	for _, bg := range eff.BalanceGroups {
		if bg.ID == nil {
			continue
		}
		cores := map[uint8]uint32{}
		for _, n := range append(slices.Clone(bg.Members), bg.Spares...) {
			if f := eff.FilterGroupByName(n); f != nil && f.ID != nil {
				cores[uint8(*f.ID)] = f.Cores
			}
		}
		if eff.Sessions.Enabled && eff.KeepsBypassed() {
			cores[uint8(eff.SessionBypassID())] = 1 << 16
		}
		out[uint8(*bg.ID)] = cores
	}
	return out
}

// placeKept says whether a session held at at in a balance group whose
// places are cores (nil: the balance group is gone) keeps its place.
func placeKept(cores map[uint8]uint32, at heldAt) bool {
	n, ok := cores[at.fg]
	return ok && uint32(at.core) < n
}

// withdraw queues, for the running site, the rewrite of every held
// session whose filter group or core the configuration no longer has in
// its balance group to where its slot now points (MODIFY), and the delete
// of every entry of a balance group it no longer has (docs/sessions.md,
// "Changes that remove a filter group"). A filter group removed is gone:
// the session cannot stay on it; rewritten, it is held where it goes, as
// rehome does for a failed filter group.
func (l *learner) withdraw(site *tables.Site) { l.withdrawOf(site, true) }

// reassigning says whether rewrites off removed filter groups or cores
// are queued or being written.
func (l *learner) reassigning() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.reassigns) > 0 || l.reassignInFlight
}

// withdrawOf is withdraw; without removes it queues the rewrites alone
// (before a change is written: a removed balance group's entries are
// deleted once it is gone from the switch, else their sessions' next
// frames would be learned in it again).
func (l *learner) withdrawOf(site *tables.Site, removes bool) {
	places := heldPlaces(site.Config())
	active := map[uint8]*tables.Layout{}
	for _, gl := range site.Layouts() {
		active[uint8(gl.ID)] = gl.Active
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	queued := map[sessionmem.Key]bool{}
	for _, d := range l.reassigns {
		queued[d.Key] = true
	}
	for _, k := range l.removes {
		queued[k] = true
	}
	for k, at := range l.held {
		cores, ok := places[k.BalanceGroup]
		if (ok && placeKept(cores, at)) || queued[k] {
			continue
		}
		lay := active[k.BalanceGroup]
		if !ok || lay == nil || len(lay.Slots) == 0 {
			if removes {
				l.removes = append(l.removes, k)
			}
			continue
		}
		t := lay.Slots[k.Hash()&uint32(len(lay.Slots)-1)]
		l.reassigns = append(l.reassigns, sessionmem.Digest{Key: k, FilterGroup: uint8(t.FilterGroup), Core: uint16(t.Core)})
	}
}

func mapKeys[V any](m map[string]V) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// write runs one batch on the switch and counts its results.
func (l *learner) write(ctx context.Context, del []sessionmem.Key, ins []sessionmem.Digest, kind batchKind) error {
	us := make([]*p4v1.Update, 0, len(del)+len(ins))
	for _, k := range del {
		us = append(us, &p4v1.Update{Type: p4v1.Update_DELETE, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: l.tbl.KeyEntry(k)}}})
	}
	typ := kind.updateType()
	for _, d := range ins {
		us = append(us, &p4v1.Update{Type: typ, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{
			TableEntry: l.tbl.Entry(d.Key, d.FilterGroup, d.Core, l.idle(d.Key.Proto))}}})
	}
	errs, err := l.sess.WriteUnowned(ctx, us)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch kind {
	case batchKeep:
		l.keepInFlight = false
	case batchReassign:
		l.reassignInFlight = false
	}
	forget := func(k sessionmem.Key) {
		if at, ok := l.held[k]; ok {
			l.byGroup[at.fg]--
			delete(l.held, k)
		}
	}
	hold := func(d sessionmem.Digest) {
		if old, ok := l.held[d.Key]; ok {
			l.byGroup[old.fg]--
		}
		l.held[d.Key] = heldAt{d.FilterGroup, d.Core}
		l.byGroup[d.FilterGroup]++
	}
	for i, k := range del {
		if errs[i] == nil || controlplane.UpdateCode(errs[i]) == codes.NotFound {
			if errs[i] == nil {
				if kind == batchRemove {
					l.removed.Add(1)
				} else {
					l.evicted.Add(1)
				}
			}
			forget(k)
		}
	}
	mod := typ == p4v1.Update_MODIFY
	for j, d := range ins {
		e := errs[len(del)+j]
		switch code := controlplane.UpdateCode(e); {
		case mod && code == codes.NotFound:
			forget(d.Key) // aged meanwhile
		case mod && e == nil:
			switch kind {
			case batchReassign:
				l.reassigned.Add(1)
			case batchKeep:
				l.kept.Add(1)
			default:
				l.rehomed.Add(1)
			}
			hold(d)
		case e == nil:
			l.inserted.Add(1)
			hold(d)
		case code == codes.AlreadyExists:
			l.dups.Add(1)
		default:
			full, ambiguous := insertRefused(e, len(l.held), l.tbl.Size)
			if full {
				l.full.Add(1)
				continue
			}
			if ambiguous {
				// BMv2's answer while the learner holds less than the
				// size: its view may be short of the switch's. Counted once
				// the table is read back: full if it holds its size.
				l.unsure++
				l.recheck = true
				continue
			}
			l.failed.Add(1)
		}
	}
	return nil
}

// needsReadBack says (once) whether a write's answers call for a
// read-back.
func (l *learner) needsReadBack() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.recheck
	l.recheck = false
	if r {
		l.rechecks.Add(1)
	}
	return r
}

// readBack reads the table and takes it as what the switch holds (a
// pipeline push empties it; notifications can be lost).
func (l *learner) readBack(ctx context.Context) error {
	es, err := l.sess.Read(ctx, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: l.tbl.ID}}})
	if err != nil {
		return err
	}
	held := make(map[sessionmem.Key]heldAt, len(es))
	var by [256]int
	for _, e := range es {
		h, err := l.tbl.Decode(e.GetTableEntry())
		if err != nil {
			continue
		}
		held[h.Key] = heldAt{h.FilterGroup, h.Core}
		by[h.FilterGroup]++
	}
	l.mu.Lock()
	l.held, l.byGroup, l.lastRB, l.viewed = held, by, time.Now(), true
	if l.unsure > 0 {
		// BMv2's refusals the view could not explain: the table read
		// back at its size says they were a full table's.
		if l.tbl.Size > 0 && int64(len(held)) >= l.tbl.Size {
			l.full.Add(l.unsure)
		} else {
			l.failed.Add(l.unsure)
		}
		l.unsure = 0
	}
	l.mu.Unlock()
	return nil
}

func (l *learner) status() SessionMemoryStatus {
	l.mu.Lock()
	defer l.mu.Unlock()
	st := SessionMemoryStatus{Enabled: true, Held: len(l.held), ByGroup: map[uint8]int{}, Size: l.tbl.Size,
		Inserted: l.inserted.Load(), Evicted: l.evicted.Load(), Duplicates: l.dups.Load(), Full: l.full.Load(),
		Failed: l.failed.Load(), Dropped: l.dropped.Load(), Rehomed: l.rehomed.Load(),
		Reassigned: l.reassigned.Load(), Removed: l.removed.Load(), Kept: l.kept.Load(), Backlog: len(l.queue), Bound: l.bound, LastReadBack: l.lastRB}
	for fg, n := range l.byGroup {
		if n > 0 {
			st.ByGroup[uint8(fg)] = n
		}
	}
	if l.tbl.Size > 0 {
		st.Occupied = float64(st.Held) / float64(l.tbl.Size)
	}
	return st
}

// newLearner makes the learner of the pushed program's sessions table.
func (d *Daemon) newLearner() (*learner, error) {
	tbl, err := sessionmem.Resolve(d.schema)
	if err != nil {
		return nil, err
	}
	idle := func(proto uint8) time.Duration {
		return d.snapshot().cfg.Sessions.IdleTimeout.For(proto).Std()
	}
	l := newLearner(tbl, d.session, idle, sessionQueueBound)
	l.keepNow = d.keepNow
	return l, nil
}

// SessionMemory returns the session memory's state (Enabled false when
// the site does not enable it).
func (d *Daemon) SessionMemory() SessionMemoryStatus {
	if d.learner == nil {
		return SessionMemoryStatus{}
	}
	st := d.learner.status()
	cs := d.session.SessionMemoryStats()
	st.Dropped += cs.DigestsDropped
	st.KeepTimedOut = d.keepTimeouts.Load()
	names := map[uint32]string{}
	for _, f := range d.snapshot().cfg.FilterGroups {
		if f.ID != nil {
			names[*f.ID] = f.Name
		}
	}
	cfg := d.snapshot().cfg
	keepID, keeps := cfg.SessionBypassID(), cfg.KeepsBypassed()
	for id, n := range st.ByGroup {
		g := SessionMemoryGroup{Name: names[uint32(id)], ID: uint32(id), Held: n}
		if g.Name == "" && uint32(id) == keepID && keeps {
			g.KeptInBypass = true
		}
		st.Groups = append(st.Groups, g)
	}
	slices.SortFunc(st.Groups, func(a, b SessionMemoryGroup) int { return cmp.Compare(a.ID, b.ID) })
	return st
}

// sessionsLoop is the learner's task: one goroutine takes what the
// switch session hands over, this one writes; a read-back now and then
// makes what the learner holds what the switch holds, and the alarm
// follows the occupancy and the backlog.
func (d *Daemon) sessionsLoop(ctx context.Context) error {
	l := d.learner
	recvDone := make(chan struct{})
	go func() {
		defer close(recvDone)
		for {
			select {
			case <-ctx.Done():
				return
			case dgs := <-d.session.SessionDigests():
				l.take(dgs)
			case tes := <-d.session.IdleEntries():
				l.takeIdle(tes)
			}
		}
	}()
	defer func() { <-recvDone }()
	rb := time.NewTicker(sessionReadBack)
	defer rb.Stop()
	alarm := time.NewTicker(time.Second)
	defer alarm.Stop()
	siteTick := time.NewTicker(sessionSiteCheck)
	defer siteTick.Stop()
	needRead := true
	pushes := d.session.Stats().PipelinePushes
	var lastSite *tables.Site
	backoff := 50 * time.Millisecond
	for {
		if needRead {
			if err := l.readBack(ctx); err == nil {
				needRead = false
				// What was read may hold entries a change removed
				// meanwhile (the daemon restarted on a new configuration).
				if site := d.snapshot().site; site != nil {
					l.withdraw(site)
				}
			}
		}
		del, ins, kind := l.next()
		if kind == batchKeep {
			if g := l.keepGate.Load(); g != nil {
				<-*g
			}
			// A return that stopped waiting for them drops them.
			if ins = l.stillKeeping(ins); len(ins) == 0 {
				l.finishKeeps()
				continue
			}
		}
		if len(del)+len(ins) == 0 {
			l.finishKeeps()
		}
		if len(del)+len(ins) > 0 {
			if err := l.write(ctx, del, ins, kind); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				// Not primary, or the switch unreachable: the batch waits.
				l.requeue(del, ins, kind)
				if !errors.Is(err, controlplane.ErrNotPrimary) {
					d.log.Warn("session memory: write failed; retrying", "err", err, "in", backoff)
				}
				needRead = true
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-time.After(backoff):
				}
				backoff = min(2*backoff, 2*time.Second)
			} else {
				backoff = 50 * time.Millisecond
				if l.needsReadBack() {
					needRead = true
				}
				l.finishKeeps()
			}
			continue
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-l.wake:
		case <-rb.C:
			needRead = true
		case <-siteTick.C:
			// A failover that moved a filter group's share: its held
			// sessions follow. A change that removed a filter group
			// (or a core, or a balance group): its held sessions are
			// rewritten to their slots (or deleted).
			if site := d.snapshot().site; site != lastSite {
				lastSite = site
				l.withdraw(site)
				l.rehome(site)
			}
		case <-alarm.C:
			d.sessionAlarm()
			// A pipeline push empties the switch's table: read it again.
			if p := d.session.Stats().PipelinePushes; p != pushes {
				pushes, needRead = p, true
			}
		}
	}
}

// requeue puts a batch that could not be written back at the head.
func (l *learner) requeue(del []sessionmem.Key, ins []sessionmem.Digest, kind batchKind) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch kind {
	case batchAge:
		l.deletes = append(del, l.deletes...)
		return
	case batchRemove:
		l.removes = append(del, l.removes...)
		return
	case batchReassign:
		l.reassigns = append(ins, l.reassigns...)
		l.reassignInFlight = false
		return
	case batchRehome:
		l.rehomes = append(ins, l.rehomes...)
		return
	case batchKeep:
		l.keeps = append(ins, l.keeps...)
		l.keepInFlight = false
		return
	}
	if room := l.bound - len(l.queue); len(ins) > room {
		l.dropped.Add(uint64(len(ins) - max(room, 0)))
		ins = ins[:max(room, 0)]
	}
	l.queue = append(ins, l.queue...)
}

// sessionAlarm raises the session memory's alarm while the table is
// more than 90 % full or the learner's queue is at its bound, and clears
// it when neither holds.
func (d *Daemon) sessionAlarm() {
	st := d.SessionMemory()
	full := st.Occupied > sessionAlarmShare
	behind := st.Backlog >= st.Bound
	if !full && !behind {
		d.clearAlarm(AlarmSessionMemory, "the session table is below 90 % and the learner keeps up")
		return
	}
	msg := fmt.Sprintf("the session table holds %d of %d entries (%.1f %%)", st.Held, st.Size, 100*st.Occupied)
	if behind {
		msg += fmt.Sprintf("; the learner's queue is full (%d digests): new sessions are not learned (they move with their slot, as without the memory)", st.Backlog)
	}
	d.raiseAlarm(Alarm{Name: AlarmSessionMemory, Object: "session memory", Message: msg,
		Remedy: "shorten sessions.idle_timeout (held sessions age out sooner), or use a target with a larger session table; " +
			"a full table only leaves new sessions unlearned"})
}

// HeldMove is what a planned change does to one balance group's held
// sessions.
type HeldMove struct {
	// Held: the sessions of the balance group the table holds. Stay: those
	// that keep their filter group and core (their entries are left as
	// they are). Leave: those held on a filter group or core the change
	// takes out of the balance group (or the balance group itself): once
	// the change runs, the learner rewrites their entries to where their
	// slots then point (withdraw; a removed balance group's are deleted). WouldMove: those
	// whose slot the new configuration's layout (every filter up: a filter
	// group that joins while its keep-alives are not yet proven takes its
	// slots when they are) points elsewhere: what moves without the
	// session memory.
	Held, Stay, Leave, WouldMove int
}

// preview says, per balance group of the running configuration old (by
// name), what the change to cfg, compiled into layouts, does to the held
// sessions.
func (l *learner) preview(old, cfg *config.Config, layouts []*tables.GroupLayout) map[string]HeldMove {
	places := heldPlaces(cfg)
	lays := map[uint8]*tables.Layout{}
	for _, gl := range layouts {
		lays[uint8(gl.ID)] = gl.Base
	}
	oldNames := map[uint8]string{}
	for _, bg := range old.BalanceGroups {
		if bg.ID != nil {
			oldNames[uint8(*bg.ID)] = bg.Name
		}
	}
	out := map[string]HeldMove{}
	l.mu.Lock()
	defer l.mu.Unlock()
	for k, at := range l.held {
		name, ok := oldNames[k.BalanceGroup]
		if !ok {
			continue // no balance group of the running configuration
		}
		m := out[name]
		m.Held++
		cores, ok := places[k.BalanceGroup]
		if !ok {
			m.Leave++
			m.WouldMove++
			out[name] = m
			continue
		}
		// The same test as withdraw's, which rewrites these entries once
		// the change is applied.
		if placeKept(cores, at) {
			m.Stay++
		} else {
			m.Leave++
		}
		if lay := lays[k.BalanceGroup]; lay == nil || len(lay.Slots) == 0 {
			m.WouldMove++
		} else if t := lay.Slots[k.Hash()&uint32(len(lay.Slots)-1)]; t.FilterGroup != uint32(at.fg) || t.Core != uint32(at.core) {
			m.WouldMove++
		}
		out[name] = m
	}
	return out
}

// bmv2TableFull is what BMv2 (PI's bmv2 target) answers an insert into a
// full table (measured: bmv2, TestSessionsTableFullBMv2VsSim): UNKNOWN with
// this message, not RESOURCE_EXHAUSTED. PI gives the same answer to any
// insert its target refuses, so it is taken as "full" only while the
// learner holds the table's size; otherwise the learner reads the table
// back (its view may be short of the switch's) and counts it as full if
// the table then holds its size, as failed if not.
const bmv2TableFull = "Error when adding match entry to target"

// insertRefused says how the switch's answer e to an INSERT counts:
// full (RESOURCE_EXHAUSTED, or BMv2's answer while the learner holds the
// table's size: held is the learner's count at the update), or
// ambiguous (BMv2's answer while the learner holds less).
func insertRefused(e error, held int, size int64) (full, ambiguous bool) {
	var ue *controlplane.UpdateError
	if !errors.As(e, &ue) {
		return false, false
	}
	switch {
	case ue.Code == codes.ResourceExhausted:
		return true, false
	case ue.Code == codes.Unknown && ue.Message == bmv2TableFull:
		if size > 0 && int64(held) >= size {
			return true, false
		}
		return false, true
	}
	return false, false
}
