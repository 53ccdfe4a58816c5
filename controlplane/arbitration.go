package controlplane

import (
	"context"
	"fmt"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/genproto/googleapis/rpc/code"
)

// ArbitrationCheckInterval is the pace at which a connected session
// repeats its arbitration update: the switch answers with the primary it
// has now, so another controller taking the primary role is noticed even
// from a switch that does not tell its backups (the switch tells them at
// once otherwise).
const ArbitrationCheckInterval = 500 * time.Millisecond

// SetElection changes the session's election id and re-arbitrates with
// it on the open connection (later connections use it too). A lower id
// than the current one stops the session's writes at once, before the
// switch answers; a higher one bids for primary, and the session
// reconciles when the switch makes it primary. It waits for the
// session's goroutine (a write under way finishes first) or ctx.
//
// When lowering the id and ctx ends before the session's goroutine took
// the change (a long write under way), the connection is dropped: the
// write is cancelled and the next connection arbitrates with the new id.
func (s *Session) SetElection(ctx context.Context, high, low uint64) error {
	s.mu.Lock()
	lower := high < s.elHigh || (high == s.elHigh && low < s.elLow)
	s.elHigh, s.elLow = high, low
	s.status.ElectionHigh, s.status.ElectionLow = high, low
	s.mu.Unlock()
	if !s.started.Load() {
		return nil
	}
	_, err := do(ctx, s, func(c *conn) (struct{}, error) {
		if c == nil {
			return struct{}{}, nil // the next connection bids with it
		}
		lower := high < c.elHigh || (high == c.elHigh && low < c.elLow)
		c.elHigh, c.elLow = high, low
		if lower && c.primary {
			c.s.log.Info("stepping down", "election_id", fmt.Sprintf("%d:%d", high, low))
			c.demote()
		}
		return struct{}{}, c.bid()
	})
	if err != nil && lower {
		if c := s.readConn.Load(); c != nil {
			c.cancel(fmt.Errorf("stepping down to election id %d:%d while the session was busy", high, low))
		}
	}
	return err
}

func (c *conn) bid() error {
	var role *p4v1.Role
	if c.s.opts.Role != "" {
		role = &p4v1.Role{Name: c.s.opts.Role}
	}
	el := &p4v1.Uint128{High: c.elHigh, Low: c.elLow}
	if c.s.opts.FixedElection && c.elHigh == 0 && c.elLow == 0 {
		el = nil // unset: a backup that never becomes primary (P4Runtime, Unset Election ID)
	}
	m := &p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Arbitration{
		Arbitration: &p4v1.MasterArbitrationUpdate{DeviceId: c.s.opts.DeviceID, Role: role, ElectionId: el}}}
	if c.sendq == nil { // before the sender runs
		return c.stream.Send(m)
	}
	c.sendq <- m
	return nil
}

// onArbitration follows the switch's view of who is primary. A failed
// reconciliation keeps the connection and is retried on a timer.
func (c *conn) onArbitration(ctx context.Context, a *p4v1.MasterArbitrationUpdate) {
	st := a.GetStatus().GetCode()
	switch st {
	case int32(code.Code_OK):
		if id := a.GetElectionId(); id.GetHigh() != c.elHigh || id.GetLow() != c.elLow {
			// The switch names its primary by id: an OK for another id
			// answers an earlier bid (the periodic one, sent before
			// SetElection changed the id). Taking it would make a
			// session that just stepped down primary again, and call
			// OnPrimary(true), until the answer to its new bid came in;
			// that answer follows.
			c.s.log.Debug("stale arbitration answer ignored", "answer_election_id", fmt.Sprintf("%d:%d", id.GetHigh(), id.GetLow()),
				"election_id", fmt.Sprintf("%d:%d", c.elHigh, c.elLow))
			return
		}
		c.otherPrimary(nil)
		if c.primary {
			return
		}
		c.primary = true
		c.s.log.Info("primary controller", "election_id", fmt.Sprintf("%d:%d", c.elHigh, c.elLow))
		c.s.setStatus(func(s *Status) { s.Primary = true; s.ElectionHigh, s.ElectionLow = c.elHigh, c.elLow })
		_, gen := c.s.desiredState()
		err := c.reconcile(ctx)
		c.applied(gen, err)
		if err != nil {
			return
		}
		c.s.stats.reconciles.Add(1)
		c.becomeReady()
	case int32(code.Code_NOT_FOUND):
		// No primary: take over by bidding above the highest id seen
		// (unless the caller manages the id: then wait for it).
		c.otherPrimary(nil)
		c.demote()
		if c.s.opts.FixedElection {
			c.s.log.Info("no primary controller; waiting for this controller's turn", "election_id", fmt.Sprintf("%d:%d", c.elHigh, c.elLow))
			return
		}
		hi, lo := a.GetElectionId().GetHigh(), a.GetElectionId().GetLow()
		if hi > c.elHigh || (hi == c.elHigh && lo >= c.elLow) {
			lo++
			if lo == 0 {
				hi++
			}
			c.elHigh, c.elLow = hi, lo
		}
		c.s.log.Info("no primary controller; bidding", "election_id", fmt.Sprintf("%d:%d", c.elHigh, c.elLow))
		if err := c.bid(); err != nil {
			c.cancel(fmt.Errorf("bid: %w", err))
		}
	default:
		// Another controller is primary: the update carries its id.
		if c.primary {
			c.s.log.Warn("lost primary role to another controller", "primary_election_id", fmt.Sprintf("%d:%d", a.GetElectionId().GetHigh(), a.GetElectionId().GetLow()))
		}
		c.otherPrimary(a.GetElectionId())
		c.demote()
	}
}

// otherPrimary records the primary the switch named while this session
// is a backup (nil: none), and logs each new one once. The policy is to
// stay backup: bidding above it would start a fight in which both rewrite
// the tables; the alarm asks the operator to decide.
func (c *conn) otherPrimary(id *p4v1.Uint128) {
	other := ""
	if id != nil {
		other = fmt.Sprintf("%d:%d", id.GetHigh(), id.GetLow())
	}
	standby := c.s.opts.FixedElection && c.elHigh == 0 && c.elLow == 0
	var was string
	c.s.setStatus(func(s *Status) {
		was = s.OtherPrimary
		if other != s.OtherPrimary {
			s.OtherPrimarySince = time.Now()
		}
		if other == "" {
			s.OtherPrimarySince = time.Time{}
		}
		s.OtherPrimary, s.Standby = other, standby
	})
	switch {
	case other == "" || other == was:
	case standby:
		c.s.log.Info("standby: another controller is primary", "primary_election_id", other)
	default:
		c.s.log.Error("ALARM another controller is primary on the switch: staying backup, writing nothing",
			"primary_election_id", other, "election_id", fmt.Sprintf("%d:%d", c.elHigh, c.elLow))
	}
}

// demote: no longer primary (backup, or no primary at all).
func (c *conn) demote() {
	was := c.primary
	c.primary, c.ready = false, false
	c.s.guard.Reset() // another controller may write now
	c.s.primaryConn.CompareAndSwap(c, nil)
	c.retryC, c.reconcileC = nil, nil
	if c.reconcileTick != nil {
		c.reconcileTick.Stop()
		c.reconcileTick = nil
	}
	c.s.setStatus(func(s *Status) { s.Primary, s.NextRetry = false, time.Time{} })
	if was && c.s.opts.OnPrimary != nil {
		c.s.opts.OnPrimary(false)
	}
}

func (c *conn) election() *p4v1.Uint128 { return &p4v1.Uint128{High: c.elHigh, Low: c.elLow} }

func (c *conn) roleName() string { return c.s.opts.Role }
