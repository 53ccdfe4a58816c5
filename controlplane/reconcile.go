package controlplane

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dpi-balancer/balancer/program"
)

// Read returns entities from the switch (any connected session may read).
//
// Reads do not pass through Run's goroutine: they use a connection of
// their own to the switch, so a large read (a counter poll of every slot)
// never delays a write, and a write never waits for a read. Each read is
// bounded by Timing.ReadTimeout.
func (s *Session) Read(ctx context.Context, entities ...*p4v1.Entity) ([]*p4v1.Entity, error) {
	c := s.readConn.Load()
	if c == nil {
		return nil, ErrNotConnected
	}
	return c.read(ctx, c.readRT, entities...)
}

// readBack is the result of a periodic read-back, computed off Run's
// goroutine.
type readBack struct {
	desired []*p4v1.Entity // what plan writes
	readResult
	writeGen   uint64
	desiredGen uint64
	err        error
}

// startReadBack reads every owned table on the read connection and diffs
// it with the desired state, off Run's goroutine; onReadBack writes the
// repair.
func (c *conn) startReadBack() {
	if c.readBackBusy || !c.primary {
		return // one read-back at a time: the one under way serves
	}
	c.readBackBusy = true
	desired, dgen := c.s.desiredState()
	wgen := c.writeGen
	c.wg.Go(func() {
		rb := readBack{desired: desired, writeGen: wgen, desiredGen: dgen}
		rb.readResult, rb.err = c.readDiff(c.ctx, c.readRT, desired)
		select {
		case c.readBacks <- rb:
		case <-c.ctx.Done():
		}
	})
}

func (c *conn) onReadBack(rb readBack) {
	c.readBackBusy = false
	retry := c.retryRead
	c.retryRead = false
	s := c.s
	if rb.err != nil {
		if retry {
			c.applied(rb.desiredGen, fmt.Errorf("read back: %w", rb.err))
		} else {
			s.log.Warn("periodic read-back failed", "err", rb.err)
		}
		return
	}
	if _, gen := s.desiredState(); rb.writeGen != c.writeGen || rb.desiredGen != gen || !c.primary {
		// Written meanwhile: this snapshot is stale. A write still owed
		// is retried; else the next periodic read-back counts.
		if c.primary && c.retryC == nil && s.Status().Pending {
			c.arm(s.opts.MinBackoff)
		}
		return
	}
	c.synced, c.dirty = nil, false // the plan is from the read-back
	c.noteRead(rb.readResult)
	c.s.guard.Guard(rb.plan, c.s.log) // what the guard holds back is no drift to repair
	if !retry {
		s.stats.readBacks.Add(1)
		s.setStatus(func(st *Status) { st.LastReadBack = time.Now() })
		if !rb.plan.Empty() {
			s.log.Warn("the switch differs from the desired state; repairing",
				"inserts", rb.plan.Inserts, "modifies", rb.plan.Modifies, "deletes", rb.plan.Deletes)
			s.stats.repairs.Add(uint64(rb.plan.Len()))
		}
	}
	err := c.writePlan(c.ctx, rb.plan)
	if err == nil {
		c.syncedTo(rb.desired)
	}
	c.finishRetry(rb.desiredGen, err)
}

// reconcile makes sure the pipeline is ours, then reads the switch back
// and writes the difference between the desired state and what it holds.
func (c *conn) reconcile(ctx context.Context) error {
	c.dirty = true // re-read unless the pipeline push empties the switch
	if err := c.ensurePipeline(ctx); err != nil {
		return err
	}
	c.configureDigest(ctx)
	c.configureSessionDigest(ctx)
	c.configureEvidenceCopy(ctx)
	desired, _ := c.s.desiredState()
	plan, err := c.applyDelta(ctx, desired)
	if err != nil {
		return err
	}
	c.s.log.Info("reconciled", "inserts", plan.Inserts, "modifies", plan.Modifies, "deletes", plan.Deletes)
	return nil
}

// ensurePipeline pushes the pipeline when the switch runs none or another
// one (judged by the cookie); the switch then holds no entries.
func (c *conn) ensurePipeline(ctx context.Context) error {
	p := c.s.opts.Pipeline
	want := p.Cookie()
	t := c.s.opts.Timing
	rctx, cancel := c.rpcCtx(ctx, t.RPCTimeout)
	resp, err := c.rt.GetForwardingPipelineConfig(rctx, &p4v1.GetForwardingPipelineConfigRequest{
		DeviceId: c.s.opts.DeviceID, ResponseType: p4v1.GetForwardingPipelineConfigRequest_COOKIE_ONLY})
	err = c.rpcErr(ctx, rctx, "GetForwardingPipelineConfig", t.RPCTimeout, err)
	cancel()
	have, hasCookie := uint64(0), false
	switch {
	case err == nil && resp.GetConfig().GetCookie() != nil:
		have, hasCookie = resp.GetConfig().GetCookie().GetCookie(), true
	case err != nil && status.Code(err) != codes.FailedPrecondition && status.Code(err) != codes.NotFound:
		return fmt.Errorf("get pipeline: %w", err)
	}
	if !hasCookie || have != want {
		c.s.log.Info("pushing pipeline", "had_cookie", have, "cookie", want)
		twoStep, err := c.pushPipeline(ctx, p, want)
		if err != nil {
			return fmt.Errorf("push pipeline: %w", err)
		}
		c.s.stats.pushes.Add(1)
		if twoStep {
			c.s.stats.savedPushes.Add(1)
		}
		c.pushedAt = time.Now()
		c.syncedTo(nil) // an empty switch
		c.dirty = false

	}
	return nil
}

// pushPipeline sends the program to the switch. Where the switch
// implements them it is VERIFY_AND_SAVE, then COMMIT: the transfer and
// the verification of the program (the slow part: megabytes, a compile
// check on the target) happen while the old program still forwards, and
// only COMMIT resets the switch, right before the site is written. A
// switch that answers UNIMPLEMENTED (BMv2 with PI 0.1.2) gets
// VERIFY_AND_COMMIT, and is not asked again on this connection.
func (c *conn) pushPipeline(ctx context.Context, p Pipeline, cookie uint64) (twoStep bool, err error) {
	t := c.s.opts.Timing
	set := func(act p4v1.SetForwardingPipelineConfigRequest_Action, cfg *p4v1.ForwardingPipelineConfig) error {
		c.longOps.Add(1)
		defer c.longOps.Add(-1)
		rctx, cancel := c.rpcCtx(ctx, t.PipelineTimeout)
		defer cancel()
		_, err := c.rt.SetForwardingPipelineConfig(rctx, &p4v1.SetForwardingPipelineConfigRequest{
			DeviceId: c.s.opts.DeviceID, Role: c.roleName(), ElectionId: c.election(), Action: act, Config: cfg})
		return c.rpcErr(ctx, rctx, "SetForwardingPipelineConfig "+act.String(), t.PipelineTimeout, err)
	}
	cfg := &p4v1.ForwardingPipelineConfig{P4Info: p.P4Info, P4DeviceConfig: p.DeviceConfig,
		Cookie: &p4v1.ForwardingPipelineConfig_Cookie{Cookie: cookie}}
	if !c.noSaveCommit {
		err := set(p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_SAVE, cfg)
		if err == nil {
			if err := set(p4v1.SetForwardingPipelineConfigRequest_COMMIT, nil); err != nil {
				return false, err
			}
			return true, nil
		}
		if status.Code(err) != codes.Unimplemented {
			return false, err
		}
		c.noSaveCommit = true
		c.s.log.Info("switch does not implement VERIFY_AND_SAVE + COMMIT; pushing with VERIFY_AND_COMMIT (the switch is reset while the program is transferred)")
	}
	return false, set(p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT, cfg)
}

// readResult is what a read-back found: the plan from it to the desired
// state, and the guard's record of it (adopt: what the write guard keeps
// of what the switch holds).
type readResult struct {
	plan  *program.Plan
	adopt func()
}

// noteRead records what a read-back found as what the switch holds: the
// plan computed from it is guarded (WriteGuard.Guard).
func (c *conn) noteRead(r readResult) { r.adopt() }

// readDiff reads every table and value set the program owns with rt, in
// the switch's order, and diffs them with desired as the answers come
// (Program.Plan): a read-back is never held whole, only what differs is
// kept, with what the write guard needs of each entry (WriteGuard.ReadBack).
// Each entry is decoded (Program.Decode: a target may spell out don't-care
// matches; a default entry the program does not write is left out).
func (c *conn) readDiff(ctx context.Context, rt p4v1.P4RuntimeClient, desired []*p4v1.Entity) (readResult, error) {
	prog := c.s.opts.Program
	tbls, vsets := prog.ReadQueries()
	note, adopt := c.s.guard.ReadBack()
	plan, err := prog.Plan(desired, func(add func(...*p4v1.Entity)) error {
		take := func(es []*p4v1.Entity) {
			n := 0
			for _, e := range es {
				if !prog.Decode(e) {
					continue
				}
				note(e)
				es[n] = e
				n++
			}
			add(es[:n]...)
		}
		if err := c.readEach(ctx, rt, take, tbls...); err != nil {
			return err
		}
		if err := c.readEach(ctx, rt, take, vsets...); err != nil && status.Code(err) != codes.Unimplemented {
			return err
		}
		return nil
	})
	if err != nil {
		return readResult{}, err
	}
	return readResult{plan: plan, adopt: adopt}, nil
}

// read runs one Read with rt (the write or the read connection), bounded
// by ReadTimeout, and returns every entity.
func (c *conn) read(ctx context.Context, rt p4v1.P4RuntimeClient, entities ...*p4v1.Entity) ([]*p4v1.Entity, error) {
	var out []*p4v1.Entity
	err := c.readEach(ctx, rt, func(es []*p4v1.Entity) { out = append(out, es...) }, entities...)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// readEach runs one Read with rt, bounded by ReadTimeout, and hands each
// answer's entities to take as it comes.
func (c *conn) readEach(ctx context.Context, rt p4v1.P4RuntimeClient, take func([]*p4v1.Entity), entities ...*p4v1.Entity) error {
	d := c.s.opts.ReadTimeout
	rctx, cancel := c.rpcCtx(ctx, d)
	defer cancel()
	rc, err := rt.Read(rctx, &p4v1.ReadRequest{DeviceId: c.s.opts.DeviceID, Entities: entities})
	if err != nil {
		return c.rpcErr(ctx, rctx, "Read", d, err)
	}
	for {
		r, err := rc.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return c.rpcErr(ctx, rctx, "Read", d, err)
		}
		take(r.GetEntities())
	}
}
