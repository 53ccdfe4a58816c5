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
		Rebalanced: map[string]bool{}, Epochs: map[string]uint8{}}
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
			if m := e.mons[n]; m != nil && !m.admin && !m.failed() {
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
		maps.Equal(a.Rebalanced, b.Rebalanced) && maps.Equal(a.Epochs, b.Epochs)
}
