package dataplane

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sessionmem"
	"github.com/dpi-balancer/balancer/symhash"
)

// The session memory (docs/sessions.md; p4src/shared/control/balancing.p4
// built WITH_SESSIONS): when the P4Info has the sessions table, the
// pipeline looks a balanced frame's session up before balance_groups (its
// key: the balance group, the symmetric hash's ordered pair of folded
// addresses, the protocol). In an active group a hit takes the entry's
// filter group and core in place of the slot's (the slot is not looked
// up); a miss whose slot hits sends a session digest with the slot's
// filter group and core, unless the frame sends a verdict digest (one
// digest per frame, the verdict's first). Digests are queued once until
// acknowledged, as PI's learning does.
//
// The table is exact, at most its P4Info size, indexed by sessIndex (open
// addressing on the session's symmetric hash, which the pipeline computes
// for the slot anyway: a lookup hashes nothing more). Its
// entries age by idle timeout as BMv2's do: every lookup that finds an
// entry refreshes it (whatever the balance group then does with it), and
// IdleEntries reports each entry unhit for its idle_timeout_ns, again
// every IdleRepeat while it stays so.

// sessIndex finds the entry of a session by its key (packed: see
// packKey): open addressing with linear probing on the session's
// symmetric hash (symhash.Folded of the key's addresses and protocol, the
// packet's m.hash()) mixed with its balance group, at most half full,
// backward-shift deletion (no tombstones). A Go map hashed the key again
// on every lookup (BenchmarkProcessSessionMemory).
type sessIndex struct {
	pos   [4]int // positions of balance_group, addr_lo, addr_hi, proto in the table's fields
	slots []sessSlot
	n     int
	bits  uint
}

// sessSlot is a slot of the index: key and entry side by side (one cache
// line read per probe). e nil: an empty slot.
type sessSlot struct {
	k [2]uint64
	e *entry
}

// sessSlot is where a key with session hash h starts its probe run.
func (x *sessIndex) slot(k [2]uint64, h uint32) uint64 {
	return ((uint64(h) | k[1]<<32) * 0x9E3779B97F4A7C15) >> (64 - x.bits)
}

// keyHash is the session hash of a packed key (as the packet's m.hash()).
func keyHash(k [2]uint64) uint32 {
	return symhash.Folded(uint32(k[0]>>32), uint32(k[0]), uint8(k[1]))
}

// get is the entry of key k, whose session hash is h.
func (x *sessIndex) get(k [2]uint64, h uint32) *entry {
	if x.n == 0 {
		return nil
	}
	mask := uint64(len(x.slots) - 1)
	for i := x.slot(k, h); ; i = (i + 1) & mask {
		s := &x.slots[i]
		if s.e == nil || s.k == k {
			return s.e
		}
	}
}

// put sets the entry of k.
func (x *sessIndex) put(k [2]uint64, e *entry) {
	if (x.n+1)*2 > len(x.slots) {
		x.grow()
	}
	mask := uint64(len(x.slots) - 1)
	i := x.slot(k, keyHash(k))
	for x.slots[i].e != nil && x.slots[i].k != k {
		i = (i + 1) & mask
	}
	if x.slots[i].e == nil {
		x.n++
	}
	x.slots[i] = sessSlot{k, e}
}

func (x *sessIndex) grow() {
	old := x.slots
	x.bits = max(x.bits+1, 4)
	x.slots, x.n = make([]sessSlot, 1<<x.bits), 0
	for _, s := range old {
		if s.e != nil {
			x.put(s.k, s.e)
		}
	}
}

// del removes k, shifting back the entries after it in its probe run.
func (x *sessIndex) del(k [2]uint64) {
	if x.n == 0 {
		return
	}
	mask := uint64(len(x.slots) - 1)
	i := x.slot(k, keyHash(k))
	for x.slots[i].k != k || x.slots[i].e == nil {
		if x.slots[i].e == nil {
			return
		}
		i = (i + 1) & mask
	}
	x.n--
	for {
		x.slots[i] = sessSlot{}
		j := i
		for {
			j = (j + 1) & mask
			if x.slots[j].e == nil {
				return
			}
			// The entry at j may move to i when its home is not in (i, j].
			home := x.slot(x.slots[j].k, keyHash(x.slots[j].k))
			if (j > i && (home <= i || home > j)) || (j < i && home <= i && home > j) {
				break
			}
		}
		x.slots[i] = x.slots[j]
		i = j
	}
}

// clear empties the index.
func (x *sessIndex) clear() {
	x.slots, x.n, x.bits = nil, 0, 0
}

func (x *sessIndex) keyOf(e *entry) [2]uint64 {
	return packKey(sessionmem.Key{BalanceGroup: uint8(e.match[x.pos[0]].a.lo), Lo: uint32(e.match[x.pos[1]].a.lo),
		Hi: uint32(e.match[x.pos[2]].a.lo), Proto: uint8(e.match[x.pos[3]].a.lo)})
}

// packKey is a session's key as two words: a map keyed by a struct with
// padding (sessionmem.Key) hashes it field by field, one of plain words
// in one pass (a tenth of the lookup's cost, BenchmarkProcessSessionMemory).
func packKey(k sessionmem.Key) [2]uint64 {
	return [2]uint64{uint64(k.Lo)<<32 | uint64(k.Hi), uint64(k.BalanceGroup)<<8 | uint64(k.Proto)}
}

// packDigest is a digest as two words (as packKey), with its filter
// group and core.
func packDigest(d sessionmem.Digest) [2]uint64 {
	k := packKey(d.Key)
	return [2]uint64{k[0], k[1] | uint64(d.FilterGroup)<<16 | uint64(d.Core)<<24}
}

// sessionFields are the sessions table's key fields, in sessIndex.pos
// order, with the widths the key holds.
var sessionFields = [4]struct {
	name  string
	width int
}{{sessionmem.FieldGroup, 8}, {sessionmem.FieldLo, 32}, {sessionmem.FieldHi, 32}, {sessionmem.FieldProto, 8}}

// resolveSessions binds the sessions table and its digest.
func (d *Dataplane) resolveSessions() []error {
	st, err := d.schema.Table(p4src.TableSessions)
	if err != nil {
		return []error{err}
	}
	t := d.tableByID[st.GetPreamble().GetId()]
	if t == nil {
		return nil // newTable failed: already reported
	}
	var errs []error
	x := &sessIndex{}
	if len(t.fields) != len(sessionFields) {
		errs = append(errs, fmt.Errorf("table %q: %d match fields, the pipeline expects %d", t.name, len(t.fields), len(sessionFields)))
	}
	for i, sf := range sessionFields {
		x.pos[i] = -1
		for j, f := range t.fields {
			if f.name == sf.name {
				x.pos[i] = j
			}
		}
		switch {
		case x.pos[i] < 0:
			errs = append(errs, fmt.Errorf("table %q: no match field %q", t.name, sf.name))
		case t.fields[x.pos[i]].kind != p4configv1.MatchField_EXACT:
			errs = append(errs, fmt.Errorf("table %q: match field %q is %v, the pipeline expects exact", t.name, sf.name, t.fields[x.pos[i]].kind))
		case t.fields[x.pos[i]].width > sf.width:
			errs = append(errs, fmt.Errorf("table %q: match field %q has %d bits, the pipeline keeps %d", t.name, sf.name, t.fields[x.pos[i]].width, sf.width))
		}
	}
	if dg := d.schema.Digest(sessionmem.DigestName); dg != nil {
		d.sessDigest = dg.GetPreamble().GetId()
	} else {
		errs = append(errs, fmt.Errorf("p4info: digest %q: %w", sessionmem.DigestName, p4src.ErrUnknownName))
	}
	if len(errs) > 0 {
		return errs
	}
	t.sidx = x
	d.sessions = t
	return nil
}

// sessionDigests is the queue of session digests: each digest is queued
// once until acknowledged, at most maxPendingSessionDigests of them
// queued or sent and not acknowledged (past it they are dropped and
// counted: the session is digested again by a later frame).
type sessionDigests struct {
	mu      sync.Mutex
	queue   []sessionmem.Digest
	pending map[[2]uint64]bool // packDigest
	dropped uint64
	sent    uint64
	notify  chan struct{}
	// seen caches digests known pending, by session hash, so a frame of
	// a session whose digest is pending takes no lock (the not-held
	// path's cost, BenchmarkProcessSessionMemory). An entry holds in the
	// generation it was stored in: every ack and reset (what takes a
	// digest out of pending) starts a new one, under mu.
	gen  atomic.Uint64
	seen [seenSize]atomic.Pointer[seenDigest]
}

// seenSize is the digests the pending cache holds (direct-mapped).
const seenSize = 16384

type seenDigest struct {
	p   [2]uint64 // packDigest
	gen uint64
}

// maxPendingSessionDigests bounds the session digests queued or sent and
// not acknowledged.
const maxPendingSessionDigests = 65536

func (q *sessionDigests) reset() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.queue, q.pending = nil, nil
	q.gen.Add(1)
	if q.notify == nil {
		q.notify = make(chan struct{}, 1)
	}
}

// emit queues the digest of the session key (packed: pk) with filter
// group fg and core, whose hash is h, unless it is pending (queued or
// sent, not acknowledged).
func (q *sessionDigests) emit(key sessionmem.Key, pk [2]uint64, fg uint8, core uint16, h uint32) {
	p := [2]uint64{pk[0], pk[1] | uint64(fg)<<16 | uint64(core)<<24} // packDigest
	c := &q.seen[h%seenSize]
	s := c.Load()
	if s != nil && s.p == p && s.gen == q.gen.Load() {
		return // pending: no ack or reset since it was seen so
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	// The cache keeps what it holds while that is valid: two sessions
	// of one cache slot take the lock, not an allocation per frame.
	gen := q.gen.Load()
	mine := s == nil || s.gen != gen || s.p == p
	if q.pending[p] {
		if mine {
			c.Store(&seenDigest{p: p, gen: gen})
		}
		return
	}
	if len(q.pending) >= maxPendingSessionDigests {
		q.dropped++
		return
	}
	if q.pending == nil {
		q.pending = map[[2]uint64]bool{}
	}
	q.pending[p] = true
	if mine {
		c.Store(&seenDigest{p: p, gen: gen})
	}
	q.queue = append(q.queue, sessionmem.Digest{Key: key, FilterGroup: fg, Core: core})
	q.sent++
	select {
	case q.notify <- struct{}{}:
	default:
	}
}

// sessionKey is the packet's session key in balance group g (md.sess_lo,
// md.sess_hi of SessionHash; md.ip_proto).
func (m *meta) sessionKey(g uint32) sessionmem.Key {
	x, y := m.folded()
	return sessionmem.KeyOf(uint8(g), x, y, uint8(m.proto))
}

// hitGranularity is how far apart touch records an entry's hits: the
// idle timeouts are seconds (the site's, 1 s at least), and a store per
// frame costs the held path a fifth of its rate
// (BenchmarkProcessSessionMemory).
const hitGranularity = int64(time.Millisecond)

// touch records a hit: the entry's idle time restarts (to within
// hitGranularity).
func (e *entry) touch(now int64) {
	if now-e.lastHit.Load() >= hitGranularity {
		e.lastHit.Store(now)
	}
	if e.idleReported.Load() != 0 {
		e.idleReported.Store(0)
	}
}

// IdleRepeat is how often an entry that stays idle is reported again:
// BMv2 (1.15.5 with PI) notifies an idle entry every 2 s until it is hit
// or deleted (measured: TestSessionsDifferentialBMv2VsSim), so a lost
// notification is made good.
const IdleRepeat = 2 * time.Second

// IdleEntries reports the entries of the tables with an idle timeout
// that have gone unhit for at least their idle_timeout_ns by the data
// plane's clock (as BMv2 notifies through PI): the table entries of a
// P4Runtime IdleTimeoutNotification (table, match, priority,
// idle_timeout_ns, controller metadata). An entry is reported when it
// becomes idle and again every IdleRepeat while it stays idle; a hit or a
// MODIFY restarts its idle time. Entries with idle_timeout_ns 0 never
// age.
func (d *Dataplane) IdleEntries() []*p4v1.TableEntry {
	now := int64(d.now())
	var out []*p4v1.TableEntry
	d.mu.RLock()
	defer d.mu.RUnlock()
	for _, t := range d.tables {
		if !t.idle {
			continue
		}
		for _, e := range t.list {
			if e.idleNs <= 0 || now-e.lastHit.Load() < e.idleNs {
				continue
			}
			if r := e.idleReported.Load(); (r != 0 && now-r < int64(IdleRepeat)) || !e.idleReported.CompareAndSwap(r, max(now, 1)) {
				continue
			}
			s := entrySnap(snapTable, t, e, false, false)
			te := s.tableEntry()
			te.IdleTimeoutNs = e.idleNs
			te.ControllerMetadata = e.ctrlMeta
			out = append(out, te)
		}
	}
	return out
}

// SessionDigests returns the session digests the pipeline has sent since
// the last call (each once until AckSessionDigests) and a channel
// signalled when more arrive; nil and nil without the session memory.
func (d *Dataplane) SessionDigests() ([]sessionmem.Digest, <-chan struct{}) {
	if d.sessions == nil {
		return nil, nil
	}
	q := &d.sessQ
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.queue
	q.queue = nil
	return out, q.notify
}

// AckSessionDigests acknowledges session digests the controller received
// (or that could not be sent): a repeat of one of them is sent again.
func (d *Dataplane) AckSessionDigests(dgs []sessionmem.Digest) {
	if len(dgs) == 0 {
		return
	}
	q := &d.sessQ
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, dg := range dgs {
		delete(q.pending, packDigest(dg))
	}
	q.gen.Add(1) // what was seen pending may not be any more
}

// SessionDigestID is the P4Info id of the session digest, 0 when the
// program has no session memory.
func (d *Dataplane) SessionDigestID() uint32 { return d.sessDigest }

// SessionStats are the session memory's figures.
type SessionStats struct {
	On bool // the program has the sessions table
	// Held is the number of entries; Size the table's (the P4Info's).
	Held, Size int
	// Digests the pipeline queued (a session once until acknowledged),
	// and those dropped because maxPendingSessionDigests were waiting.
	Digests, Dropped uint64
}

// SessionStats returns the session memory's figures.
func (d *Dataplane) SessionStats() SessionStats {
	t := d.sessions
	if t == nil {
		return SessionStats{}
	}
	d.mu.RLock()
	held := len(t.list)
	d.mu.RUnlock()
	q := &d.sessQ
	q.mu.Lock()
	defer q.mu.Unlock()
	return SessionStats{On: true, Held: held, Size: t.size, Digests: q.sent, Dropped: q.dropped}
}
