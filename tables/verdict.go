package tables

import (
	"slices"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
)

// Liveness is what the data plane is told about a filter group's
// liveness (docs/availability.md, "How the profile maps onto the
// pipeline"): its detection time and failure action.
type Liveness struct {
	// Detect is loss_threshold x interval of the balance group's profile.
	Detect time.Duration
	// Drop: the verdict's failure action is drop (failure action drop);
	// otherwise bypass (bypass, and rebalance: the failed share is
	// bypassed at once and the controller then moves its slots).
	Drop bool
}

// LivenessOf returns a filter group's liveness parameters from its
// balance group's profile and failure action (the profile defaults when
// it is in none: interval 100ms, loss_threshold 5, bypass).
func LivenessOf(cfg *config.Config, fg string) Liveness {
	interval, loss := 100*time.Millisecond, uint32(5)
	action := config.FailBypass
	if bg := cfg.BalanceGroupWith(fg); bg != nil {
		if p := cfg.ProfileByName(bg.Profile); p != nil {
			if p.Interval > 0 {
				interval = time.Duration(p.Interval)
			}
			if p.LossThreshold > 0 {
				loss = p.LossThreshold
			}
			if p.FailureAction != "" {
				action = p.FailureAction
			}
		}
		if bg.FailureAction != "" {
			action = bg.FailureAction
		}
	}
	return Liveness{Detect: time.Duration(loss) * interval, Drop: action == config.FailDrop}
}

// maxDetectTicks keeps detect within half the 32-bit tick space, where the
// pipeline's wrap-safe differences are exact.
const maxDetectTicks = 1<<31 - 1

// DetectTicks converts a detection time into the target's ticks (rounded
// up, at least 1, at most 2^31-1).
func DetectTicks(d, tick time.Duration) uint64 {
	if tick <= 0 {
		tick = p4src.TickBMv2
	}
	n := (d + tick - 1) / tick
	if n < 1 {
		n = 1
	}
	if n > maxDetectTicks {
		n = maxDetectTicks
	}
	return uint64(n)
}

// Verdict says whether the compiler's program keeps the data-plane
// verdict, and the unit of its clock.
func (c *Compiler) Verdict() (on bool, tick time.Duration) { return c.verdict, c.tick }

// forwardAction is a filter group's filter_forward action: its ports,
// TPID and, on a program with the data-plane verdict, its epoch, detection
// time in ticks and failure action.
func (c *Compiler) forwardAction(cfg *config.Config, fg config.FilterGroup, st State, lan, wan uint64) *p4v1.TableAction {
	if !c.verdict {
		return c.action(c.filterForward, lan, wan, uint64(fg.TPID))
	}
	lv := LivenessOf(cfg, fg.Name)
	var drop uint64
	if lv.Drop {
		drop = 1
	}
	return c.action(c.filterForward, lan, wan, uint64(fg.TPID), uint64(st.Epochs[fg.Name]), DetectTicks(lv.Detect, c.tick), drop)
}

// ForwardEpoch returns the epoch of a filter_groups entry that forwards,
// from its filter_forward action (false for another action, or a program
// without the verdict). A controller adopts the epochs it reads back, so
// that a reconcile, a restart or an HA takeover never clears a verdict it
// has not received.
func (c *Compiler) ForwardEpoch(e *p4v1.Entity) (fg uint32, epoch uint8, ok bool) {
	te := e.GetTableEntry()
	if !c.verdict || te.GetTableId() != c.filterGroups.id {
		return 0, 0, false
	}
	a := te.GetAction().GetAction()
	if a.GetActionId() != c.filterForward.id {
		return 0, 0, false
	}
	var found bool
	for _, m := range te.GetMatch() {
		if m.GetFieldId() == c.filterGroups.fields["filter_group"].id && m.GetExact() != nil {
			fg, found = uint32(beUint(m.GetExact().GetValue())), true
		}
	}
	if !found {
		return 0, 0, false
	}
	pid := c.filterForward.params[p4src.ParamEpoch].id
	for _, p := range a.GetParams() {
		if p.GetParamId() == pid {
			return fg, uint8(beUint(p.GetValue())), true
		}
	}
	return fg, 0, true
}

// FilterGroupsTableID is the id of BalancerIngress.filter_groups.
func (c *Compiler) FilterGroupsTableID() uint32 { return c.filterGroups.id }

// GuardEpochs keeps a controller from clearing a data-plane verdict it has
// not received. For every update that writes a forwarding filter_groups
// entry over a forwarding entry the switch holds (current, by Key) with
// another epoch, it asks allowed(fg, held, wanted); when that says no, the
// update is rewritten (a copy: the entity may be shared) to keep the
// switch's epoch, or dropped when the switch then already holds exactly
// that entry, and the filter group's held epoch is returned in adopted so
// the caller can take it over. A controller that restarts, reconnects,
// takes over as HA leader or reconciles thus leaves every standing verdict
// standing. Other updates are returned unchanged, in order; dropped counts
// the updates left out.
func (c *Compiler) GuardEpochs(us []*p4v1.Update, current map[string]*p4v1.Entity, allowed func(fg uint32, held, wanted uint8) bool) (out []*p4v1.Update, adopted map[uint32]uint8, dropped int) {
	if !c.verdict {
		return us, nil, 0
	}
	pid := c.filterForward.params[p4src.ParamEpoch].id
	changed := false
	for i, u := range us {
		keep := u
		if u.GetType() != p4v1.Update_DELETE {
			if fg, wanted, ok := c.ForwardEpoch(u.GetEntity()); ok {
				if cur, ok := current[Key(u.GetEntity())]; ok {
					if _, held, ok := c.ForwardEpoch(cur); ok && held != wanted && (allowed == nil || !allowed(fg, held, wanted)) {
						nu := proto.Clone(u).(*p4v1.Update)
						for _, p := range nu.GetEntity().GetTableEntry().GetAction().GetAction().GetParams() {
							if p.GetParamId() == pid {
								p.Value = canon(uint64(held))
							}
						}
						if adopted == nil {
							adopted = map[uint32]uint8{}
						}
						adopted[fg] = held
						if !changed {
							// The first one changed: the updates before
							// it are kept as they are.
							out = slices.Clone(us[:i])
						}
						changed = true
						keep = nu
						if proto.Equal(nu.GetEntity(), cur) {
							keep = nil
							dropped++
						}
					}
				}
			}
		}
		if changed && keep != nil {
			out = append(out, keep)
		}
	}
	if !changed {
		return us, nil, 0 // no copy of a plan that keeps every epoch
	}
	return out, adopted, dropped
}

// IsFilterGroupEntry says whether e is an entry of filter_groups in a
// program with the data-plane verdict.
func (c *Compiler) IsFilterGroupEntry(e *p4v1.Entity) bool {
	return c.verdict && e.GetTableEntry().GetTableId() == c.filterGroups.id
}
