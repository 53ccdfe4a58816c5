package controlplane

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"

	"github.com/dpi-balancer/balancer/p4entity"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/program"
)

// Change is a new desired state for ApplyUpdates.
type Change struct {
	// Desired returns the new complete desired state (required). Unless
	// Full is set it is built only when needed (a reconciliation, a
	// retry, a read-back), so it must return the same entities every
	// time it is called.
	Desired func() []*p4v1.Entity
	// Changed holds the entities of the desired state that differ from
	// the previous one (each replaces the entry of the same key), in
	// write order. Ignored when Full is set.
	Changed []*p4v1.Entity
	// Full: the change is not listed entity by entity (a new
	// configuration): the difference between Desired and what the switch
	// holds is written.
	Full bool
	// Plan, with Full, is the difference already computed between
	// Desired() and From (Program.Plan(Desired(), From)), as a planned
	// change has it: when the session's record of the switch is From
	// (the very list) the plan is written as it is, without diffing the
	// site again. Otherwise it is ignored.
	Plan *program.Plan
	From []*p4v1.Entity
}

// FullChange is the Change to a whole new desired state.
func FullChange(desired []*p4v1.Entity) Change {
	return Change{Desired: func() []*p4v1.Entity { return desired }, Full: true}
}

// ApplyUpdates sets the desired state and, when primary, writes it: the
// only write entry point. A Full change writes the difference between
// the desired state and the switch. Otherwise, when the session's record
// of the switch is current, only the changed entities are written, in one
// batch, without a diff of the whole site; when it is not (after a failed
// write, before the first read-back, after a change that was not
// written) it falls back to the full difference.
//
// Without a primary connection it returns ErrNotPrimary; the state is
// kept and reconciled on the next connection. When a write fails the
// error is returned and the session keeps retrying on a timer (with
// backoff) until the desired state is on the switch.
func (s *Session) ApplyUpdates(ctx context.Context, ch Change) (*program.Plan, error) {
	var (
		gen  uint64
		full []*p4v1.Entity
	)
	if ch.Full {
		full = ch.Desired()
		gen = s.setDesired(full)
	} else {
		gen = s.setDesiredFn(ch.Desired)
	}
	var handed atomic.Bool
	plan, err := do(ctx, s, func(c *conn) (*program.Plan, error) {
		handed.Store(true)
		if c == nil || !c.primary {
			return nil, ErrNotPrimary
		}
		var plan *program.Plan
		var err error
		switch {
		case ch.Full && ch.Plan != nil && c.recordIs(ch.From):
			plan, err = ch.Plan, c.writeRecorded(ctx, ch.Plan, full)
		case ch.Full:
			plan, err = c.applyDelta(ctx, full)
		case !c.known() || c.writtenGen != gen-1:
			plan, err = c.applyDelta(ctx, ch.Desired())
		default:
			plan, err = c.applyChanged(ctx, ch.Desired, ch.Changed)
		}
		c.applied(gen, err)
		return plan, err
	})
	if err != nil && !handed.Load() {
		// The caller gave up before Run's goroutine took the state:
		// it writes it on its own.
		s.nudge()
	}
	return plan, err
}

// SetDesired sets the desired state without waiting for it: before Run
// it is what the first reconciliation writes; while connected as primary
// the session writes it on its own within MinBackoff (unless an
// ApplyUpdates comes first), and retries until it is on the switch.
func (s *Session) SetDesired(desired []*p4v1.Entity) {
	s.setDesired(desired)
	s.nudge()
}

// nudge tells Run's goroutine that a desired state waits to be written.
func (s *Session) nudge() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

func (s *Session) setDesired(desired []*p4v1.Entity) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.desired, s.desiredFn = desired, nil
	s.desiredGen++
	s.status.Pending = true
	return s.desiredGen
}

func (s *Session) setDesiredFn(desired func() []*p4v1.Entity) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.desired, s.desiredFn = nil, desired
	s.desiredGen++
	s.status.Pending = true
	return s.desiredGen
}

// desiredState returns the desired entities and their generation,
// building them (outside the lock) when they were given as a function.
func (s *Session) desiredState() ([]*p4v1.Entity, uint64) {
	s.mu.Lock()
	desired, fn, gen := s.desired, s.desiredFn, s.desiredGen
	s.mu.Unlock()
	if fn != nil {
		desired = fn()
	}
	return desired, gen
}

// applyDelta writes desired - current. The current state is the switch's
// as last read or written; after a failed write it is read again.
func (c *conn) applyDelta(ctx context.Context, desired []*p4v1.Entity) (*program.Plan, error) {
	if c.known() {
		// In the order it was written: the compiler's diff pairs most
		// entries by position.
		rec := c.synced()
		plan, err := c.s.opts.Program.Plan(desired, func(add func(...*p4v1.Entity)) error { add(rec...); return nil })
		if err != nil {
			return nil, err
		}
		return plan, c.writeRecorded(ctx, plan, desired)
	}
	r, err := c.readDiff(ctx, c.rt, desired)
	if err != nil {
		return nil, fmt.Errorf("read back: %w", err)
	}
	c.synced, c.dirty = nil, false
	c.noteRead(r)
	return r.plan, c.writeRecorded(ctx, r.plan, desired)
}

// writeRecorded writes a plan that turns the session's record of the
// switch into desired, and makes desired the record.
func (c *conn) writeRecorded(ctx context.Context, plan *program.Plan, desired []*p4v1.Entity) error {
	err := c.writePlan(ctx, plan)
	if err == nil {
		c.syncedTo(desired)
	}
	return err
}

// recordIs says whether the session knows what the switch holds and its
// record is the list from (the same entities in the same backing array,
// not an equal copy).
func (c *conn) recordIs(from []*p4v1.Entity) bool {
	if !c.known() {
		return false
	}
	rec := c.synced()
	return len(rec) == len(from) && (len(rec) == 0 || &rec[0] == &from[0])
}

// known says whether the session knows what the switch holds without
// reading it back.
func (c *conn) known() bool { return !c.dirty && c.synced != nil }

// syncedTo records that the switch holds exactly desired (as written in
// full): the record is the desired list itself, no copy.
func (c *conn) syncedTo(desired []*p4v1.Entity) {
	c.synced, c.changedSince = func() []*p4v1.Entity { return desired }, nil
}

// writePlan writes a plan's batches in order (the caller records the
// state written); after a failure the switch is re-read before the next
// delta.
func (c *conn) writePlan(ctx context.Context, plan *program.Plan) error {
	c.s.guard.Guard(plan, c.s.log)
	for i := range plan.Batches {
		rest, err := c.writeValueSets(ctx, plan.Batches[i].Updates)
		if err != nil {
			c.dirty = true
			return err
		}
		plan.Batches[i].Updates = rest
	}
	for _, b := range plan.Batches {
		if err := c.writeBatch(ctx, b); err != nil {
			c.dirty = true
			return fmt.Errorf("%s: %w", b.Name, err)
		}
	}
	c.s.guard.Written(plan)
	if len(plan.Batches) > 0 {
		c.s.stats.plans.Add(1)
	}
	summary := fmt.Sprintf("%d inserts, %d modifies, %d deletes", plan.Inserts, plan.Modifies, plan.Deletes)
	c.s.setStatus(func(s *Status) { s.LastReconcile = time.Now(); s.LastPlan = summary })
	return nil
}

// applyChanged writes the changed entities in one batch, each replacing
// the entry of its key on the switch (as ApplyUpdates promises): all are
// modifies, so a key the switch lacks fails the write and the retry reads
// the switch back. One the session wrote since the last full write, and
// unchanged (p4entity.SameEntry: the same action in canonical bytes), is
// not written again. The new desired state is then the
// record (synced).
func (c *conn) applyChanged(ctx context.Context, desired func() []*p4v1.Entity, changed []*p4v1.Entity) (*program.Plan, error) {
	plan := &program.Plan{}
	b := program.Batch{Name: "runtime state", Updates: make([]*p4v1.Update, 0, len(changed))}
	keys := make([]string, 0, len(changed))
	us := make([]p4v1.Update, len(changed)) // one allocation, not one per update
	var kb []byte
	for _, e := range changed {
		kb = p4entity.AppendKey(kb[:0], e)
		if cur, ok := c.changedSince[string(kb)]; ok && p4entity.SameEntry(cur, e) {
			continue
		}
		u := &us[len(b.Updates)]
		u.Type, u.Entity = p4v1.Update_MODIFY, e
		b.Updates = append(b.Updates, u)
		keys = append(keys, string(kb))
	}
	plan.Modifies = len(b.Updates)
	if len(b.Updates) == 0 {
		return plan, nil
	}
	plan.Batches = []program.Batch{b}
	err := c.writePlan(ctx, plan)
	if err == nil {
		if c.changedSince == nil {
			c.changedSince = make(map[string]*p4v1.Entity, len(keys))
		}
		for i, k := range keys {
			c.changedSince[k] = b.Updates[i].GetEntity()
		}
		c.synced = desired
	}
	return plan, err
}

// writeValueSets writes the value set updates of a batch on their own and
// returns the rest. A target that cannot program value sets (BMv2 with PI
// 0.1.2) is tolerated while each value set's members are the value the P4
// program parses anyway (Program.ValueSetDefault); any other value
// is an error that names it.
func (c *conn) writeValueSets(ctx context.Context, us []*p4v1.Update) ([]*p4v1.Update, error) {
	isVS := func(u *p4v1.Update) bool { return u.GetEntity().GetValueSetEntry() != nil }
	if !slices.ContainsFunc(us, isVS) {
		return us, nil // a batch of table entries (all but one): no copy
	}
	var vs, rest []*p4v1.Update
	for _, u := range us {
		if u.GetEntity().GetValueSetEntry() != nil {
			vs = append(vs, u)
		} else {
			rest = append(rest, u)
		}
	}
	prog := c.s.opts.Program
	for _, u := range vs {
		err := c.write(ctx, []*p4v1.Update{u})
		if err == nil {
			continue
		}
		if we := (*WriteError)(nil); !errors.As(err, &we) || !we.Unimplemented() {
			return nil, err
		}
		ve := u.GetEntity().GetValueSetEntry()
		def, name, known := prog.ValueSetDefault(ve.GetValueSetId())
		var odd []string
		for _, m := range ve.GetMembers() {
			for _, fm := range m.GetMatch() {
				if v := wire.Uint(fm.GetExact().GetValue()); !known || v != def {
					odd = append(odd, fmt.Sprint(v))
					if name != "CPU port" {
						odd[len(odd)-1] = fmt.Sprintf("%#04x", v)
					}
				}
			}
		}
		if len(odd) > 0 {
			if name == "CPU port" {
				return nil, fmt.Errorf("%w: this switch cannot program parser value sets (UNIMPLEMENTED), so the P4 program takes packet-outs from its compiled-in CPU port %d only; CPU port %s would not be recognised: run the switch with CPU port %d (BMv2: --cpu-port %d) and the daemon with --cpu-port %d, or use a switch that programs value sets",
					ErrWrite, def, strings.Join(odd, ", "), def, def, def)
			}
			return nil, fmt.Errorf("%w: this switch cannot program parser value sets (UNIMPLEMENTED), so only the default %s %#04x is parsed; configured %s would not be recognised",
				ErrWrite, name, def, strings.Join(odd, ", "))
		}
		if !c.s.vsWarned.Swap(true) {
			attrs := []any{"core_tpid", fmt.Sprintf("%#04x", wire.DefaultCoreTPID), "keepalive_ethertype", fmt.Sprintf("%#04x", wire.DefaultKeepAliveEtherType)}
			_, vsets := prog.ReadQueries()
			for _, q := range vsets {
				if def, name, ok := prog.ValueSetDefault(q.GetValueSetEntry().GetValueSetId()); ok && name == "CPU port" {
					attrs = append(attrs, "cpu_port", def)
				}
			}
			c.s.log.Warn("switch cannot program parser value sets; the defaults are parsed by the program itself", attrs...)
		}
	}
	return rest, nil
}

// writeBatch writes one batch in requests of BatchSize updates, atomically
// where the switch supports it. The updates of a batch are independent,
// so after the first request (which finds out whether the switch takes
// atomic writes) up to WriteDepth requests are in flight: the switch
// applies one while the next is encoded and sent. The first error ends
// the batch (requests in flight are cancelled; some may have been
// applied, so the caller re-reads the switch).
func (c *conn) writeBatch(ctx context.Context, b program.Batch) error {
	us := b.Updates
	size := c.s.opts.BatchSize
	n := min(len(us), size)
	if err := c.write(ctx, us[:n]); err != nil {
		return err
	}
	us = us[n:]
	if depth := c.s.opts.WriteDepth; depth <= 1 {
		for len(us) > 0 {
			n := min(len(us), size)
			if err := c.write(ctx, us[:n]); err != nil {
				return err
			}
			us = us[n:]
		}
		return nil
	}
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	slots := make(chan struct{}, c.s.opts.WriteDepth)
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	atom := c.atomicity()
	for len(us) > 0 {
		select {
		case slots <- struct{}{}:
		case <-pctx.Done():
		}
		if pctx.Err() != nil {
			break
		}
		n := min(len(us), size)
		chunk := us[:n]
		us = us[n:]
		c.writeGen++
		wg.Go(func() {
			defer func() { <-slots }()
			if err := c.send(ctx, pctx, chunk, atom); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
				cancel()
			}
		})
	}
	wg.Wait()
	if first == nil && ctx.Err() != nil {
		first = ctx.Err()
	}
	return first
}

func (c *conn) atomicity() p4v1.WriteRequest_Atomicity {
	if !c.atomic {
		return p4v1.WriteRequest_CONTINUE_ON_ERROR
	}
	return p4v1.WriteRequest_ROLLBACK_ON_ERROR
}

// write sends one Write request and waits for it; a switch that refuses
// atomic writes as unimplemented is written without them from then on.
func (c *conn) write(ctx context.Context, us []*p4v1.Update) error {
	c.writeGen++
	err := c.send(ctx, ctx, us, c.atomicity())
	if we := (*WriteError)(nil); err != nil && c.atomic && errors.As(err, &we) && we.Code == codes.Unimplemented {
		c.atomic = false
		c.s.setStatus(func(s *Status) { s.AtomicWrites = false })
		c.s.log.Warn("switch does not support atomic writes (ROLLBACK_ON_ERROR); writing with CONTINUE_ON_ERROR: a failed batch may be partly applied and is re-read")
		err = c.send(ctx, ctx, us, c.atomicity())
	}
	return err
}

// send runs one Write RPC (any goroutine). ctx is the caller's (a stall
// is judged against it), wctx the one the RPC runs under (ctx, or a
// pipeline's that ends at its first error).
func (c *conn) send(ctx, wctx context.Context, us []*p4v1.Update, atom p4v1.WriteRequest_Atomicity) error {
	req := &p4v1.WriteRequest{DeviceId: c.s.opts.DeviceID, Role: c.roleName(), ElectionId: c.election(), Updates: us, Atomicity: atom}
	c.s.stats.writeReqs.Add(1)
	d := c.s.opts.RPCTimeout
	rctx, cancel := c.rpcCtx(wctx, d)
	defer cancel()
	_, err := c.rt.Write(rctx, req)
	if err == nil {
		c.s.stats.updates.Add(uint64(len(us)))
		return nil
	}
	if err := c.rpcErr(ctx, rctx, "Write", d, err); !answered(err) || errors.Is(err, ErrStalled) {
		return err
	}
	return describeWriteError(err, us)
}
