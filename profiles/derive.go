package profiles

import (
	"fmt"
	"maps"
	"time"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/tables"
)

// SetAdminBypass puts one filter group in (or out of) manual bypass.
func (e *Engine) SetAdminBypass(name string, on bool, now time.Time) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	m := e.mons[name]
	if m == nil {
		return fmt.Errorf("unknown filter group %q", name)
	}
	if m.admin == on {
		return nil
	}
	m.admin, m.adminAt = on, now
	why := ReasonAdmin
	if !on {
		why = ReasonAdminCleared
	}
	e.log.Info("manual bypass", "filter_group", name, "on", on, "reason", why.String())
	e.publish()
	return nil
}

// SetGlobalBypass bypasses every balance group (or stops doing so).
func (e *Engine) SetGlobalBypass(on bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.global == on {
		return
	}
	e.global = on
	e.log.Info("manual bypass of everything", "on", on)
	e.publish()
}

// Bypass reports the manual bypass settings.
func (e *Engine) Bypass() (global bool, groups []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, n := range e.names() {
		if e.mons[n].admin {
			groups = append(groups, n)
		}
	}
	return e.global, groups
}

// derive computes the data-plane state. Called with e.mu held.
func (e *Engine) derive() tables.State {
	st := tables.State{FilterGroups: map[string]tables.FilterGroupState{}, BalanceGroups: map[string]tables.BalanceGroupState{},
		Rebalanced: map[string]bool{}, Spared: map[string]string{}, Epochs: map[string]uint8{}}
	e.assignSpares(st.Spared)
	for name, m := range e.mons {
		if m.vd.epoch != 0 {
			st.Epochs[name] = m.vd.epoch
		}
		switch {
		case m.admin:
			st.FilterGroups[name] = tables.FGSWBypass
		case m.state == StateInit:
			// Not yet proven: it earns its traffic. Under rebalance its
			// slots stay with the proven members.
			if m.action == config.FailRebalance {
				st.Rebalanced[name] = true
			}
			st.FilterGroups[name] = tables.FGSWBypass
		case m.failed():
			action := m.action
			if m.reason == ReasonFailedOpen {
				action = m.failOpenAction()
			}
			switch action {
			case config.FailDrop:
				st.FilterGroups[name] = tables.FGDrop
			case config.FailRebalance:
				// Its slots go to the survivors; anything still pointing
				// at it (no survivor) bypasses.
				st.Rebalanced[name] = true
				st.FilterGroups[name] = tables.FGSWBypass
			default:
				st.FilterGroups[name] = tables.FGSWBypass
			}
		}
	}
	for _, bg := range e.cfg.BalanceGroups {
		if e.global {
			st.BalanceGroups[bg.Name] = tables.BGBypass
			continue
		}
		alive := 0
		for _, n := range bg.Members {
			// A member counts while it is healthy, or while a spare
			// carries its share; a spare on standby carries nothing.
			if m := e.mons[n]; m != nil && !m.admin && !m.failed() || st.Spared[n] != "" {
				alive++
			}
		}
		min := 1
		if p := e.cfg.ProfileByName(bg.Profile); p != nil && p.MinActive > 0 {
			min = int(p.MinActive)
		}
		if alive < min {
			if bg.FailureAction == config.FailDrop {
				st.BalanceGroups[bg.Name] = tables.BGDrop
			} else {
				st.BalanceGroups[bg.Name] = tables.BGBypass
			}
		}
	}
	return st
}

// publish offers the derived state when it changed. Called with e.mu held.
func (e *Engine) publish() {
	st := e.derive()
	if equalState(st, e.last) {
		return
	}
	e.last = st
	select {
	case <-e.changes: // drop the stale one
	default:
	}
	e.changes <- st
}

func equalState(a, b tables.State) bool {
	return maps.Equal(a.FilterGroups, b.FilterGroups) && maps.Equal(a.BalanceGroups, b.BalanceGroups) &&
		maps.Equal(a.Rebalanced, b.Rebalanced) && maps.Equal(a.Spared, b.Spared) && maps.Equal(a.Epochs, b.Epochs)
}

// wantsSpare says whether a member's share goes to a spare now: it
// failed (for keep-alives, health or failing open) and its action is
// spare. A member not yet proven, or bypassed by hand, does not.
func (m *monitor) wantsSpare() bool {
	if m.admin || !m.failed() {
		return false
	}
	if m.reason == ReasonFailedOpen {
		return m.failOpenAction() == config.FailSpare
	}
	return m.action == config.FailSpare
}

// spareReady says whether a spare may carry a share: its keep-alives
// pass and nobody bypassed it by hand.
func (m *monitor) spareReady() bool { return m != nil && !m.admin && m.state == StateUp }

// assignSpares gives each member that wants a spare a healthy spare of
// its balance group, into spared (member -> spare). An assignment stands
// while the member wants a spare and the spare stays healthy (a member
// failing later does not take another's spare); new ones take the first
// free spare in the order the group lists them, members in list order.
// A member with no healthy spare free keeps its slots, software-bypassed
// (the fallback). Called with e.mu held.
func (e *Engine) assignSpares(spared map[string]string) {
	for _, bg := range e.cfg.BalanceGroups {
		if len(bg.Spares) == 0 {
			continue
		}
		busy := map[string]bool{}
		for _, n := range bg.Members {
			s, ok := e.spareOf[n]
			if !ok {
				continue
			}
			if m := e.mons[n]; m == nil || !m.wantsSpare() || !e.mons[s].spareReady() {
				delete(e.spareOf, n)
				continue
			}
			busy[s] = true
		}
		for _, n := range bg.Members {
			m := e.mons[n]
			if m == nil || !m.wantsSpare() {
				continue
			}
			if _, ok := e.spareOf[n]; !ok {
				for _, s := range bg.Spares {
					if !busy[s] && e.mons[s].spareReady() {
						e.spareOf[n], busy[s] = s, true
						break
					}
				}
			}
			if s, ok := e.spareOf[n]; ok {
				spared[n] = s
			}
		}
	}
}
