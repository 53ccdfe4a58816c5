package daemon

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/dpi-balancer/balancer/config"
)

// RebaseSession moves the open session onto the running revision when that
// moved since the session started: the objects the session changes (its
// base against its staged configuration) are applied to the running
// configuration, object by object (a port by number; a link, filter
// group, balance group, profile or rule by name; the site, platform, port
// map and defaults each as one). It is refused, naming them, when an object
// changed both in the session and in what moved. Objects that run keep
// their ids. The session keeps its edits; its version moves.
func (d *Daemon) RebaseSession(ctx context.Context) (*SessionView, error) {
	d.sessMu.Lock()
	defer d.sessMu.Unlock()
	s := d.sess
	if s == nil {
		return nil, noSession()
	}
	r := d.snapshot()
	if r.rev.Number == s.Base.Number {
		c := *s
		return &SessionView{Session: &c, Running: r.rev, Warning: fmt.Sprintf("the session is on revision %d, the running one: nothing to rebase", r.rev.Number)}, nil
	}
	baseData, err := d.store.Revision(s.Base.Number)
	if err != nil {
		return nil, kindf(ErrSessionState, "cannot rebase: revision %d, the session's base, is no longer kept (%v); abort the session and stage its edits again", s.Base.Number, err)
	}
	base, err := config.Decode(baseData)
	if err != nil {
		return nil, fmt.Errorf("revision %d does not read back: %w", s.Base.Number, err)
	}
	staged, err := config.Decode([]byte(s.YAML))
	if err != nil {
		return nil, fmt.Errorf("the staged configuration does not read back: %w", err)
	}
	merged, err := config.Decode(r.yaml)
	if err != nil {
		return nil, fmt.Errorf("revision %d does not read back: %w", r.rev.Number, err)
	}
	conflicts := mergeSession(base, staged, merged)
	if len(conflicts) > 0 {
		return nil, kindf(ErrConflict, "cannot rebase onto revision %d: changed both in the session and since it started: %s; abort the session (balancer config session abort) and stage its edits again on revision %d",
			r.rev.Number, strings.Join(conflicts, ", "), r.rev.Number)
	}
	keepIDs(merged, r.cfg)
	data, err := config.Edit(r.yaml, merged)
	if err != nil {
		return nil, err
	}
	if _, err := d.ApplyConfig(ctx, data, true, ""); err != nil {
		return nil, fmt.Errorf("cannot rebase onto revision %d: the result is refused: %w", r.rev.Number, err)
	}
	next, err := config.Parse(data)
	if err != nil {
		return nil, kindf(ErrInvalid, "%v", err)
	}
	ns := *s
	ns.Base, ns.YAML, ns.Version = r.rev, string(data), s.Version+1
	if err := d.saveDoc(docSession, &ns); err != nil {
		return nil, fmt.Errorf("the session was not rebased: %w", err)
	}
	d.setSession(&ns)
	c := ns
	return &SessionView{Session: &c, Running: r.rev, Changes: ConfigChanges(r.cfg, next)}, nil
}

// mergeSession applies to running (the written form of the running
// configuration) what the session changed from base to staged; it returns
// the objects changed on both sides.
func mergeSession(base, staged, running *config.Config) []string {
	var out []string
	one := func(what string, b, s any, r any, set func()) {
		if reflect.DeepEqual(b, s) || reflect.DeepEqual(s, r) {
			return // not the session's, or what moved did the same
		}
		if !reflect.DeepEqual(b, r) {
			out = append(out, what)
			return
		}
		set()
	}
	one("site", base.Site, staged.Site, running.Site, func() { running.Site = staged.Site })
	one("platform", base.Platform, staged.Platform, running.Platform, func() { running.Platform = staged.Platform })
	one("port_map", base.PortMap, staged.PortMap, running.PortMap, func() { running.PortMap = staged.PortMap })
	one("defaults", base.Defaults, staged.Defaults, running.Defaults, func() { running.Defaults = staged.Defaults })
	out = append(out, mergeList("port", base.Ports, staged.Ports, &running.Ports, func(p config.Port) string { return fmt.Sprint(p.Port) })...)
	out = append(out, mergeList("link", base.Links, staged.Links, &running.Links, func(l config.Link) string { return l.Name })...)
	out = append(out, mergeList("filter-group", base.FilterGroups, staged.FilterGroups, &running.FilterGroups, func(f config.FilterGroup) string { return f.Name })...)
	out = append(out, mergeList("balance-group", base.BalanceGroups, staged.BalanceGroups, &running.BalanceGroups, func(g config.BalanceGroup) string { return g.Name })...)
	out = append(out, mergeList("profile", base.Profiles, staged.Profiles, &running.Profiles, func(p config.Profile) string { return p.Name })...)
	out = append(out, mergeList("rule", base.Rules, staged.Rules, &running.Rules, func(r config.Rule) string { return r.Name })...)
	return out
}

// mergeList is mergeSession for one list of objects, by key.
func mergeList[T any](kind string, base, staged []T, running *[]T, key func(T) string) []string {
	find := func(list []T, k string) (int, bool) {
		i := slices.IndexFunc(list, func(x T) bool { return key(x) == k })
		return i, i >= 0
	}
	var keys []string
	for _, list := range [][]T{staged, base} {
		for _, x := range list {
			if !slices.Contains(keys, key(x)) {
				keys = append(keys, key(x))
			}
		}
	}
	var conflicts []string
	for _, k := range keys {
		bi, inB := find(base, k)
		si, inS := find(staged, k)
		ri, inR := find(*running, k)
		var b, s, r any
		if inB {
			b = base[bi]
		}
		if inS {
			s = staged[si]
		}
		if inR {
			r = (*running)[ri]
		}
		if inB == inS && reflect.DeepEqual(b, s) {
			continue // not changed by the session
		}
		if inS == inR && reflect.DeepEqual(s, r) {
			continue // what moved made the same change
		}
		if inB != inR || !reflect.DeepEqual(b, r) {
			conflicts = append(conflicts, kind+" "+k)
			continue
		}
		switch {
		case inS && inR:
			(*running)[ri] = staged[si]
		case inS:
			*running = append(*running, staged[si])
		default:
			*running = slices.Delete(*running, ri, ri+1)
		}
	}
	return conflicts
}

// keepIDs pins the id of every link, filter group and balance group of
// merged that runs (in run, the running configuration) where it would
// otherwise get another: a rebase never renumbers what runs.
func keepIDs(merged, run *config.Config) {
	data, err := merged.Marshal()
	if err != nil {
		return
	}
	eff, err := config.Parse(data)
	if err != nil {
		return // refused by the dry run, with its reason
	}
	pin := func(got, want *uint32, field **uint32) {
		if got != nil && want != nil && *got != *want {
			v := *want
			*field = &v
		}
	}
	for i, l := range merged.Links {
		if r, e := run.LinkByName(l.Name), eff.LinkByName(l.Name); r != nil && e != nil {
			pin(e.ID, r.ID, &merged.Links[i].ID)
		}
	}
	for i, f := range merged.FilterGroups {
		if r, e := run.FilterGroupByName(f.Name), eff.FilterGroupByName(f.Name); r != nil && e != nil {
			pin(e.ID, r.ID, &merged.FilterGroups[i].ID)
		}
	}
	for i, g := range merged.BalanceGroups {
		if r, e := run.BalanceGroupByName(g.Name), eff.BalanceGroupByName(g.Name); r != nil && e != nil {
			pin(e.ID, r.ID, &merged.BalanceGroups[i].ID)
		}
	}
}
