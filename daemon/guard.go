package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/dpi-balancer/balancer/config"
)

// ErrDestructive: a change removes links, filter groups or balance groups,
// or deletes a large share of the switch's entries, and was not forced.
var ErrDestructive = errors.New("destructive change")

// GuardDeleteShare is the share of the running switch entries an apply may
// delete without force (and GuardMinDeletes the count below which any share
// passes, so that small sites can be edited freely).
const (
	GuardDeleteShare = 0.5
	GuardMinDeletes  = 64
)

// Removal is what a change would remove, for the guard.
type Removal struct {
	Links, FilterGroups, BalanceGroups []string
	// Deletes of Entries running switch entries.
	Deletes, Entries int
}

// Destructive reports whether r needs force.
func (r Removal) Destructive() bool {
	return len(r.Links) > 0 || len(r.FilterGroups) > 0 || len(r.BalanceGroups) > 0 ||
		(r.Deletes >= GuardMinDeletes && float64(r.Deletes) > GuardDeleteShare*float64(r.Entries))
}

// String says what would be removed: "links L1, L2; filter groups F1;
// 4129 of 4140 switch entries (99%)".
func (r Removal) String() string {
	var parts []string
	list := func(one, many string, names []string) {
		switch len(names) {
		case 0:
		case 1:
			parts = append(parts, one+" "+names[0])
		default:
			parts = append(parts, many+" "+strings.Join(names, ", "))
		}
	}
	list("link", "links", r.Links)
	list("filter group", "filter groups", r.FilterGroups)
	list("balance group", "balance groups", r.BalanceGroups)
	if r.Deletes > 0 && r.Entries > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d switch entries (%d%%)", r.Deletes, r.Entries, r.Deletes*100/r.Entries))
	}
	return strings.Join(parts, "; ")
}

// Removals computes what going from running configuration old to cfg
// removes; deletes and entries are the plan's deletes and the running
// entry count. It is pure.
func Removals(old, cfg *config.Config, deletes, entries int) Removal {
	r := Removal{Deletes: deletes, Entries: entries}
	if old == nil {
		return r
	}
	if cfg == nil {
		cfg = new(config.Config)
	}
	for _, l := range old.Links {
		if cfg.LinkByName(l.Name) == nil {
			r.Links = append(r.Links, l.Name)
		}
	}
	for _, f := range old.FilterGroups {
		if cfg.FilterGroupByName(f.Name) == nil {
			r.FilterGroups = append(r.FilterGroups, f.Name)
		}
	}
	for _, b := range old.BalanceGroups {
		if cfg.BalanceGroupByName(b.Name) == nil {
			r.BalanceGroups = append(r.BalanceGroups, b.Name)
		}
	}
	return r
}

// Guard refuses a destructive change unless forced: it returns an error
// wrapping ErrDestructive that says what the change would remove and how
// to go ahead. what names the change ("change", "rollback to revision 4").
func Guard(r Removal, force bool, what string) error {
	if force || !r.Destructive() {
		return nil
	}
	return kindf(ErrDestructive, "%s refused without --force, the running configuration is unchanged: it would remove %s; "+
		"if that is meant, repeat with --force (a configuration file removes every object it leaves out)", what, r)
}

type forceKey struct{}

// WithForce marks ctx as carrying an operator's --force for the guard.
func WithForce(ctx context.Context, force bool) context.Context {
	return context.WithValue(ctx, forceKey{}, force)
}

type baseKey struct{}

// WithBaseRevision makes ApplyConfig refuse (ErrConflict) unless the
// running revision is still base (0: any), checked when the change is
// saved: a read-modify-write never overwrites a change it did not see.
func WithBaseRevision(ctx context.Context, base uint64) context.Context {
	return context.WithValue(ctx, baseKey{}, base)
}

// BaseRevision returns the revision WithBaseRevision set (0: none).
func BaseRevision(ctx context.Context) uint64 {
	b, _ := ctx.Value(baseKey{}).(uint64)
	return b
}

// Forced reports whether ctx carries --force (see WithForce).
func Forced(ctx context.Context) bool {
	f, _ := ctx.Value(forceKey{}).(bool)
	return f
}

// guardApply is the guard's hook in ApplyConfig: it refuses a destructive
// change not forced through ctx (WithForce) and, on a dry run, only warns in
// res.
func guardApply(ctx context.Context, old, cfg *config.Config, deletes, entries int, res *ApplyResult) error {
	r := Removals(old, cfg, deletes, entries)
	err := Guard(r, Forced(ctx), "change")
	if err == nil {
		return nil
	}
	if res.DryRun {
		res.Warning = strings.TrimSpace(res.Warning + " this change would remove " + r.String() + "; applying it needs --force")
		return nil
	}
	return err
}

type strictKey struct{}

// WithStrict makes ApplyConfig refuse (ErrInvalid) a configuration with a
// flow rule that can never match (config.RuleWarnings) instead of
// accepting it with a warning.
func WithStrict(ctx context.Context, strict bool) context.Context {
	return context.WithValue(ctx, strictKey{}, strict)
}

// Strict reports whether ctx carries an operator's --strict.
func Strict(ctx context.Context) bool {
	s, _ := ctx.Value(strictKey{}).(bool)
	return s
}
