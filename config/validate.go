package config

import (
	"fmt"
	"maps"
	"math"
	"math/bits"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Validate checks the whole configuration and returns every problem it
// finds, each a *FieldError with its path, joined with errors.Join (nil when
// the configuration is valid). Call it after ApplyDefaults: unset values
// (zero cores, nil ids) are problems here.
func (c *Config) Validate() error {
	v := &validator{c: c, portUse: make(map[PortName]string), dpUse: make(map[uint32]string)}
	v.site()
	v.platform()
	v.portMap()
	v.defaults()
	v.ports()
	v.links()
	v.filterGroups()
	v.balanceGroups()
	v.profiles()
	v.rules()
	v.sessions()
	v.nameObjects()
	return v.p.err()
}

// objectPath is a path's first element when it is a named object.
var objectPath = regexp.MustCompile(`^(links|filter_groups|balance_groups|profiles|rules)\[(\d+)\]`)

// nameObjects gives every problem inside a named object that object's
// name, as the operator wrote it (the path alone counts list items).
func (v *validator) nameObjects() {
	kinds := map[string]string{"links": "link", "filter_groups": "filter group", "balance_groups": "balance group",
		"profiles": "profile", "rules": "rule"}
	for _, e := range v.p {
		fe, ok := e.(*FieldError)
		if !ok {
			continue
		}
		m := objectPath.FindStringSubmatch(fe.Path)
		if m == nil {
			continue
		}
		i, _ := strconv.Atoi(m[2])
		var name string
		switch m[1] {
		case "links":
			if i < len(v.c.Links) {
				name = v.c.Links[i].Name
			}
		case "filter_groups":
			if i < len(v.c.FilterGroups) {
				name = v.c.FilterGroups[i].Name
			}
		case "balance_groups":
			if i < len(v.c.BalanceGroups) {
				name = v.c.BalanceGroups[i].Name
			}
		case "profiles":
			if i < len(v.c.Profiles) {
				name = v.c.Profiles[i].Name
			}
		case "rules":
			if i < len(v.c.Rules) {
				name = v.c.Rules[i].Name
			}
		}
		if name != "" && CheckText("name", name, MaxNameLen) == nil {
			fe.Object = kinds[m[1]] + " " + name
		}
	}
}

type validator struct {
	c  *Config
	p  problems
	pl *Platform // nil when the platform is unknown

	portUse map[PortName]string // port -> path of its first use
	dpUse   map[uint32]string   // data-plane port -> path of its first use
}

func (v *validator) site() {
	if err := CheckText("site", v.c.Site, MaxSiteLen); err != nil {
		v.p.add("site", err)
	}
}

func (v *validator) platform() {
	pl, err := LookupPlatform(v.c.platformName())
	if err != nil {
		v.p.add("platform", err)
		return
	}
	v.pl = pl
}

func (v *validator) portMap() {
	seen := make(map[PortName]string)
	for _, k := range slices.Sorted(maps.Keys(v.c.PortMap)) {
		path := fmt.Sprintf("port_map[%q]", k)
		n, err := v.c.ResolvePort(k)
		if err != nil {
			v.p.add(path, err)
			continue
		}
		if prev, ok := seen[n]; ok {
			v.p.addf(path, ErrDuplicate, "%s is already mapped by %s", v.c.PortLabel(n), prev)
			continue
		}
		seen[n] = path
		if dp := v.c.PortMap[k]; dp > MaxDataPlanePort {
			v.p.addf(path, ErrOutOfRange, "data-plane port %d is out of range 0..%d (a data-plane port number is %d bits wide)", dp, MaxDataPlanePort, PortBits)
		} else if v.pl != nil && dp == v.pl.CPUPort {
			v.p.addf(path, ErrConflict, "data-plane port %d is the CPU port of platform %s", v.pl.CPUPort, v.pl.Name)
		} else if v.pl.RecircPort(dp) {
			v.p.addf(path, ErrConflict, "data-plane port %d is pipe %d's recirculation port on platform %s (the data plane's evidence copies arrive there); map the port to a front-panel port", dp, dp/128, v.pl.Name)
		}
	}
}

// reservedEtherTypes are parsed by the data plane, so neither the core
// header TPID nor the keep-alive ethertype may take them.
var reservedEtherTypes = map[uint16]string{
	0x0800: "IPv4",
	0x0806: "ARP",
	0x86DD: "IPv6",
	0x8100: "VLAN",
	0x88A8: "QinQ",
	0x9100: "QinQ",
	0x8847: "MPLS",
	0x8848: "MPLS",
	0x8863: "PPPoE discovery",
	0x8864: "PPPoE",
}

func (v *validator) etherType(path string, et uint16) {
	if name, ok := reservedEtherTypes[et]; ok {
		v.p.addf(path, ErrConflict, "0x%04x (%s) is parsed by the data plane; pick an ethertype of its own", et, name)
	}
}

func (v *validator) defaults() {
	d := v.c.Defaults
	v.count("defaults.cores", d.Cores, coresBound)
	if d.CoreTPID != 0 {
		v.etherType("defaults.core_tpid", d.CoreTPID)
	}
	v.count("defaults.slot_bits", d.SlotBits, slotBitsBound)
	if et := d.KeepAlive.EtherType; et != 0 {
		v.etherType("defaults.keepalive.ethertype", et)
		if et == d.CoreTPID {
			v.p.addf("defaults.keepalive.ethertype", ErrConflict, "0x%04x is also the core header TPID", et)
		}
	}
	for i, h := range d.Heartbeat {
		if h.IsZero() {
			v.p.addf(fmt.Sprintf("defaults.heartbeat[%d]", i), ErrEmpty, "sets nothing; set dst_mac or ethertype")
		}
	}
}

var speeds = Speeds

func (v *validator) ports() {
	seen := make(map[uint32]int)
	for i, d := range v.c.Ports {
		path := fmt.Sprintf("ports[%d]", i)
		if d.Port < MinPort || d.Port > MaxPort {
			v.p.addf(path+".port", ErrOutOfRange, "%d is out of range %d..%d", d.Port, MinPort, MaxPort)
		} else if j, ok := seen[d.Port]; ok {
			v.p.addf(path+".port", ErrDuplicate, "port %d is already defined by ports[%d]", d.Port, j)
		} else {
			seen[d.Port] = i
		}
		switch {
		case d.Speed == "":
			v.p.addf(path+".speed", ErrMissing, "missing; one of %s", strings.Join(speeds, ", "))
		case !slices.Contains(speeds, d.Speed):
			v.p.addf(path+".speed", ErrInvalid, "%q is not one of %s", d.Speed, strings.Join(speeds, ", "))
		case d.Breakout == MaxLanes && d.Speed != "10G" && d.Speed != "25G":
			v.p.addf(path+".speed", ErrConflict, "a port broken out into %d lanes runs 10G or 25G lanes, not %s", MaxLanes, d.Speed)
		case d.Breakout <= 1 && (d.Speed == "10G" || d.Speed == "25G"):
			v.p.addf(path+".speed", ErrConflict, "port %d is whole (not broken out): it runs 40G, 50G or 100G; for %s lanes set breakout: %d", d.Port, d.Speed, MaxLanes)
		}
		if d.Breakout != 0 && d.Breakout != 1 && d.Breakout != MaxLanes {
			v.p.addf(path+".breakout", ErrInvalid, "%d is not supported; use 0 (none) or %d", d.Breakout, MaxLanes)
		}
		v.portSettings(path, d)
	}
}

// name checks an object's name: set, of safe characters, unique in its
// kind. seen maps names to earlier paths (kind[i]).
func (v *validator) name(path, name string, seen map[string]string, item string) {
	switch {
	case name == "":
		v.p.addf(path+".name", ErrMissing, "missing")
		return
	case len(name) > MaxNameLen:
		v.p.addf(path+".name", ErrTooLarge, "%q is %d bytes long; the limit is %d: shorten it", strings.ToValidUTF8(name[:16], "")+"...", len(name), MaxNameLen)
	case strings.IndexFunc(name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
	}) >= 0:
		v.p.addf(path+".name", ErrInvalid, "%q may hold only letters, digits, '-', '_' and '.'", name)
	}
	if prev, ok := seen[name]; ok {
		v.p.addf(path+".name", ErrDuplicate, "%q is already used by %s", name, prev)
		return
	}
	seen[name] = item
}

// id checks an object's id: set, in 0..max-1, unique in its kind.
func (v *validator) id(path string, id *uint32, limit uint32, seen map[uint32]string, ref string) {
	switch {
	case id == nil:
		v.p.addf(path+".id", ErrMissing, "missing")
	case *id >= limit:
		v.p.addf(path+".id", ErrOutOfRange, "%d is out of range 0..%d", *id, limit-1)
	default:
		if prev, ok := seen[*id]; ok {
			v.p.addf(path+".id", ErrDuplicate, "%d is already used by %s", *id, prev)
			return
		}
		seen[*id] = ref
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func ref(kind string, i int, name string) string { return fmt.Sprintf("%s[%d] %q", kind, i, name) }

// endpoint checks one side of a link or filter group.
func (v *validator) endpoint(path, name string, want Side, ignoreParity bool) {
	if name == "" {
		v.p.addf(path, ErrMissing, "missing")
		return
	}
	n, err := v.c.ResolvePort(name)
	if err != nil {
		v.p.add(path, err)
		return
	}
	label := v.c.PortLabel(n)
	if prev, ok := v.portUse[n]; ok {
		v.p.addf(path, ErrPortInUse, "%s is already used by %s", label, prev)
		return
	}
	v.portUse[n] = path
	if got := v.c.PortSide(n); got != want && !ignoreParity {
		parity, need := "odd", "even"
		if got == SideLAN {
			parity, need = "even", "odd"
		}
		v.p.addf(path, ErrParity, "%s is %s (%s side); a %s port must be %s (set ignore_parity to override)",
			label, parity, got, want, need)
	}
	if v.pl == nil {
		return
	}
	dp, err := v.c.portNumberOf(n)
	if err != nil {
		v.p.add(path, err)
		return
	}
	if dp == v.pl.CPUPort {
		v.p.addf(path, ErrConflict, "%s has data-plane port %d, the CPU port", label, dp)
	} else if v.pl.RecircPort(dp) {
		v.p.addf(path, ErrConflict, "%s has data-plane port %d, pipe %d's recirculation port on platform %s (the data plane's evidence copies arrive there); give it a front-panel port in port_map", label, dp, dp/128, v.pl.Name)
	} else if prev, ok := v.dpUse[dp]; ok {
		v.p.addf(path, ErrConflict, "%s has data-plane port %d, as has %s", label, dp, prev)
	} else {
		v.dpUse[dp] = path
	}
}

func (v *validator) links() {
	if n := len(v.c.Links); n > MaxLinks {
		v.p.addf("links", ErrTooMany, "%d links exceed the maximum of %d", n, MaxLinks)
	}
	names, ids := make(map[string]string), make(map[uint32]string)
	for i, l := range v.c.Links {
		path := fmt.Sprintf("links[%d]", i)
		v.name(path, l.Name, names, path)
		if l.Name == AllLinks {
			v.p.addf(path+".name", ErrInvalid, "%q is reserved: in a rule it means every link", AllLinks)
		}
		v.id(path, l.ID, MaxLinks, ids, ref("links", i, l.Name))
		v.endpoint(path+".lan", l.LAN, SideLAN, l.IgnoreParity)
		v.endpoint(path+".wan", l.WAN, SideWAN, l.IgnoreParity)
	}
}

func (v *validator) filterGroups() {
	if n := len(v.c.FilterGroups); n > MaxFilterGroups {
		v.p.addf("filter_groups", ErrTooMany, "%d filter groups exceed the maximum of %d", n, MaxFilterGroups)
	}
	names, ids := make(map[string]string), make(map[uint32]string)
	for i, f := range v.c.FilterGroups {
		path := fmt.Sprintf("filter_groups[%d]", i)
		v.name(path, f.Name, names, path)
		v.id(path, f.ID, MaxFilterGroups, ids, ref("filter_groups", i, f.Name))
		v.endpoint(path+".lan", f.LAN, SideLAN, f.IgnoreParity)
		v.endpoint(path+".wan", f.WAN, SideWAN, f.IgnoreParity)
		v.count(path+".cores", f.Cores, coresBound)
		if f.TPID != 0 {
			v.etherType(path+".tpid", f.TPID)
			if f.TPID == v.c.Defaults.KeepAlive.EtherType {
				v.p.addf(path+".tpid", ErrConflict, "0x%04x is also the keep-alive ethertype", f.TPID)
			}
		}
	}
}

// Valid reports whether a is one of bypass, drop, rebalance, spare.
func (a FailureAction) Valid() bool {
	return a == FailBypass || a == FailDrop || a == FailRebalance || a == FailSpare
}

func (v *validator) failureAction(path string, a FailureAction) {
	if a != "" && !a.Valid() {
		v.p.addf(path, ErrInvalid, "%q is not one of bypass, drop, rebalance, spare", a)
	}
}

func (v *validator) balanceGroups() {
	if n := len(v.c.BalanceGroups); n > MaxBalanceGroups {
		v.p.addf("balance_groups", ErrTooMany, "%d balance groups exceed the maximum of %d", n, MaxBalanceGroups)
	}
	names, ids := make(map[string]string), make(map[uint32]string)
	memberOf := make(map[string]string) // filter group -> balance group ref
	totalSlots := 0
	for i, b := range v.c.BalanceGroups {
		path := fmt.Sprintf("balance_groups[%d]", i)
		bref := ref("balance_groups", i, b.Name)
		v.name(path, b.Name, names, path)
		v.id(path, b.ID, MaxBalanceGroups, ids, bref)

		if len(b.Members) == 0 {
			v.p.addf(path+".members", ErrEmpty, "empty; list at least one filter group")
		}
		here := make(map[string]bool)
		for j, m := range b.Members {
			mpath := fmt.Sprintf("%s.members[%d]", path, j)
			switch prev, taken := memberOf[m]; {
			case v.c.FilterGroupByName(m) == nil:
				v.p.addf(mpath, ErrUnknownName, "unknown filter group %q", m)
			case here[m]:
				v.p.addf(mpath, ErrDuplicate, "filter group %q is listed twice", m)
			case taken:
				v.p.addf(mpath, ErrDuplicate, "filter group %q is already a member of %s", m, prev)
			default:
				memberOf[m] = bref
			}
			here[m] = true
		}

		profile := b.Profile
		if profile == "" {
			profile = DefaultProfile
		}
		if p := v.c.ProfileByName(profile); p == nil {
			v.p.addf(path+".profile", ErrUnknownName, "unknown profile %q", profile)
		} else if n := len(b.Members); n > 0 && p.MinActive > uint32(n) {
			v.p.addf(path, ErrConflict, "profile %q has min_active %d but the group has %s", profile, p.MinActive, plural(n, "member"))
		}
		v.failureAction(path+".failure_action", b.FailureAction)
		v.spares(path, bref, b, memberOf, here)

		if !v.count(path+".slot_bits", b.SlotBits, slotBitsBound) {
			continue
		}
		slots := 1 << b.SlotBits
		totalSlots += slots
		if cores := v.c.TotalCores(&b); uint64(cores) > uint64(slots) {
			need := bits.Len32(cores - 1)
			v.p.addf(path+".slot_bits", ErrCapacity, "slot_bits %d gives %d slots for %d cores; need at least %d bits", b.SlotBits, slots, cores, need)
		}
	}
	if v.pl != nil && totalSlots > v.pl.SlotCapacity {
		v.p.addf("balance_groups", ErrCapacity, "%d slots in all exceed the %d slots of platform %s", totalSlots, v.pl.SlotCapacity, v.pl.Name)
	}
}

func (v *validator) profiles() {
	names := make(map[string]string)
	for i, p := range v.c.Profiles {
		path := fmt.Sprintf("profiles[%d]", i)
		v.name(path, p.Name, names, path)
		v.duration(path+".initial_delay", p.InitialDelay, initialDelayBound, "the wait before a filter's first keep-alive counts")
		v.duration(path+".interval", p.Interval, intervalBound, "the keep-alive interval")
		v.count(path+".loss_threshold", p.LossThreshold, thresholdBound)
		v.count(path+".recovery_threshold", p.RecoveryThreshold, thresholdBound)
		if p.MinActive < 1 {
			v.p.addf(path+".min_active", ErrOutOfRange, "%d is out of range 1..the number of members of each group using the profile", p.MinActive)
		}
		v.failureAction(path+".failure_action", p.FailureAction)
		if p.Probe != "" && p.Probe != ProbeLANToWAN && p.Probe != ProbeBoth {
			v.p.addf(path+".probe", ErrInvalid, "%q is not one of lan-to-wan, both", p.Probe)
		}
		if p.StallGuard != "" && p.StallGuard != StallGuardHold && p.StallGuard != StallGuardOff {
			v.p.addf(path+".stall_guard", ErrInvalid, "%q is not one of hold, off", p.StallGuard)
		}
		v.duration(path+".stall_hold", p.StallHold, stallHoldBound, "how long the stall guard holds keep-alive losses")
		if p.Failback != "" && p.Failback != FailbackAuto && p.Failback != FailbackManual {
			v.p.addf(path+".failback", ErrInvalid, "%q is not one of auto, manual (profile %q)", p.Failback, p.Name)
		}
		if p.Return != "" && p.Return != ReturnAll && p.Return != ReturnNewSessions {
			v.p.addf(path+".return", ErrInvalid, "%q is not one of all, new-sessions (profile %q)", p.Return, p.Name)
		}
		if p.Return == ReturnNewSessions && !v.c.Sessions.Enabled {
			v.p.addf(path+".return", ErrConflict, "new-sessions keeps held sessions in bypass, which needs the session memory (profile %q): set sessions.enabled: true, or return: all", p.Name)
		}
		if p.MinUpTime < 0 || p.MinUpTime > MaxMinUpTime {
			v.p.addf(path+".min_up_time", ErrOutOfRange, "%s is out of range 0s..%s (profile %q: how long a failed filter must pass keep-alives before it returns; 0 returns it at recovery_threshold)",
				p.MinUpTime, durText(MaxMinUpTime), p.Name)
		}
		v.healthLimits(path, p)
		v.failOpenProbe(path, p)
	}
}

// failOpenProbe checks a profile's fail-open probe settings.
func (v *validator) failOpenProbe(path string, p Profile) {
	if p.ProbePayload != "" && p.ProbePayloadHex != "" {
		v.p.addf(path+".probe_payload_hex", ErrConflict, "probe_payload and probe_payload_hex are both set (profile %q): give the probe's payload one way, as text or as hex", p.Name)
	}
	b, err := p.ProbeBytes()
	switch {
	case err != nil:
		v.p.addf(path+".probe_payload_hex", ErrInvalid, "%q is not hex bytes (profile %q): write the payload as hex digits, two a byte, optionally separated by spaces or colons, e.g. \"58 35 4f 21\": %v",
			clip(p.ProbePayloadHex), p.Name, err)
	case len(b) > MaxProbePayload:
		field := ".probe_payload"
		if p.ProbePayloadHex != "" {
			field = ".probe_payload_hex"
		}
		v.p.addf(path+field, ErrOutOfRange, "%d bytes is over the %d bytes a fail-open probe carries (profile %q): give only the pattern the filter blocks",
			len(b), MaxProbePayload, p.Name)
	}
	if p.Probes() {
		if p.ProbeEvery < 1 || p.ProbeEvery > MaxProbeEvery {
			v.p.addf(path+".probe_every", ErrOutOfRange, "%d is out of range 1..%d keep-alive intervals (profile %q: how often a fail-open probe goes out)",
				p.ProbeEvery, MaxProbeEvery, p.Name)
		}
	} else if p.ProbeEvery != 0 || p.FailOpenAction != "" {
		field, val := ".probe_every", fmt.Sprint(p.ProbeEvery)
		if p.ProbeEvery == 0 {
			field, val = ".fail_open_action", string(p.FailOpenAction)
		}
		v.p.addf(path+field, ErrConflict, "%s is set but the profile %q has no probe payload: set probe_payload (text) or probe_payload_hex, the pattern its filters must block, or remove it",
			val, p.Name)
	}
	switch a := p.FailOpenAction; {
	case a == "" || slices.Contains(FailOpenActions, a):
	default:
		v.p.addf(path+".fail_open_action", ErrInvalid, "%q is not one of alarm, bypass, drop, rebalance, spare (profile %q)", a, p.Name)
	}
}

// spares checks a balance group's spares: known filter groups in no
// other group, needed by its failure action (or its profile's fail-open
// action), each with at least as many cores as every member.
func (v *validator) spares(path, bref string, b BalanceGroup, memberOf map[string]string, here map[string]bool) {
	action := v.c.Action(&b)
	var openAction FailOpenAction
	if p := v.c.ProfileByName(b.Profile); p != nil {
		openAction = p.FailOpenAction
	}
	wants := action == FailSpare || openAction == FailOpenSpare
	switch {
	case len(b.Spares) == 0 && action == FailSpare:
		v.p.addf(path+".spares", ErrEmpty, "balance group %q has failure action spare but no spares: list a standby filter group in spares, or choose bypass, drop or rebalance", b.Name)
	case len(b.Spares) == 0 && openAction == FailOpenSpare:
		v.p.addf(path+".spares", ErrEmpty, "balance group %q uses profile %q whose fail_open_action is spare but has no spares: list a standby filter group in spares", b.Name, b.Profile)
	case len(b.Spares) > 0 && !wants:
		v.p.addf(path+".spares", ErrConflict, "balance group %q has spares but its failure action is %s: set failure_action: spare, or remove the spares", b.Name, action)
	}
	for j, s := range b.Spares {
		spath := fmt.Sprintf("%s.spares[%d]", path, j)
		sf := v.c.FilterGroupByName(s)
		switch prev, taken := memberOf[s]; {
		case sf == nil:
			v.p.addf(spath, ErrUnknownName, "unknown filter group %q", s)
			continue
		case here[s]:
			v.p.addf(spath, ErrDuplicate, "filter group %q is listed twice in balance group %q (a spare is not a member)", s, b.Name)
			continue
		case taken:
			v.p.addf(spath, ErrDuplicate, "filter group %q is already in %s", s, prev)
			continue
		}
		memberOf[s] = bref + " (as a spare)"
		here[s] = true
		for _, m := range b.Members {
			if mf := v.c.FilterGroupByName(m); mf != nil && sf.Cores < mf.Cores {
				v.p.addf(spath, ErrConflict, "spare %q has %s but member %q has %d: a spare takes a member's share core for core; give %q at least %d cores or remove it",
					s, plural(int(sf.Cores), "core"), m, mf.Cores, s, mf.Cores)
				break
			}
		}
	}
}

// clip shortens a value for an error message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// healthLimits checks a profile's round-trip and loss limits.
func (v *validator) healthLimits(path string, p Profile) {
	switch {
	case p.MaxRTT < 0 || (p.MaxRTT > 0 && p.MaxRTT < MinMaxRTT):
		v.p.addf(path+".max_rtt", ErrOutOfRange, "%s is out of range: 0s (no limit) or %s up to under the interval %s (profile %q)",
			p.MaxRTT, MinMaxRTT, p.Interval, p.Name)
	case p.MaxRTT > 0 && p.Interval > 0 && p.MaxRTT >= p.Interval:
		v.p.addf(path+".max_rtt", ErrOutOfRange, "%s is not under the interval %s (profile %q: a keep-alive not back within the interval is lost already; lower max_rtt or raise interval)",
			p.MaxRTT, p.Interval, p.Name)
	}
	// A count without its limit is kept and unused (a limit set back to
	// 0 keeps its count for the next time).
	if (p.RTTRounds != 0 || p.MaxRTT != 0) && (p.RTTRounds < 1 || p.RTTRounds > MaxRTTRounds) {
		v.p.addf(path+".rtt_rounds", ErrOutOfRange, "%d is out of range 1..%d rounds (profile %q: keep-alive rounds in a row over max_rtt that take a filter out)",
			p.RTTRounds, MaxRTTRounds, p.Name)
	}
	if math.IsNaN(p.MaxLoss) || p.MaxLoss < 0 || p.MaxLoss >= 100 {
		v.p.addf(path+".max_loss", ErrOutOfRange, "%g is out of range: 0 (no limit) or more than 0 and under 100 percent (profile %q)", p.MaxLoss, p.Name)
	}
	if (p.LossWindow != 0 || p.MaxLoss != 0) && (p.LossWindow < MinLossWindow || p.LossWindow > MaxLossWindow) {
		v.p.addf(path+".loss_window", ErrOutOfRange, "%d is out of range %d..%d rounds (profile %q: the keep-alive rounds max_loss is judged over)",
			p.LossWindow, MinLossWindow, MaxLossWindow, p.Name)
	}
}

func (v *validator) rules() {
	names := make(map[string]string)
	prios := make(map[uint32]string)
	for i, r := range v.c.Rules {
		path := fmt.Sprintf("rules[%d]", i)
		rref := ref("rules", i, r.Name)
		v.name(path, r.Name, names, path)

		if v.rangeCheck(path+".priority", r.Priority, 1, MaxPriority, "(higher wins)") {
			if prev, ok := prios[r.Priority]; ok {
				v.p.addf(path+".priority", ErrDuplicate, "%d is already used by %s; two rules with one priority are ambiguous in a TCAM", r.Priority, prev)
			} else {
				prios[r.Priority] = rref
			}
		}

		if !r.AllLinks() {
			listed := make(map[string]bool)
			for j, l := range r.Links {
				lpath := fmt.Sprintf("%s.links[%d]", path, j)
				switch {
				case l == AllLinks:
					v.p.addf(lpath, ErrConflict, "%q cannot be combined with link names", AllLinks)
				case listed[l]:
					v.p.addf(lpath, ErrDuplicate, "link %q is listed twice", l)
				case v.c.LinkByName(l) == nil:
					v.p.addf(lpath, ErrUnknownName, "rule %s uses link %q, which is not defined (links: %s); define the link or take it out of the rule", r.Name, l, v.linkNames())
				}
				listed[l] = true
			}
		}

		if act, group, err := r.ParseAction(); err != nil {
			v.p.add(path+".action", err)
		} else if act == ActionBalance && v.c.BalanceGroupByName(group) == nil {
			v.p.addf(path+".action", ErrUnknownName, "unknown balance group %q", group)
		}

		v.match(path+".match", r.Match)
		for j, m := range r.Not {
			npath := fmt.Sprintf("%s.not[%d]", path, j)
			if m.IsZero() {
				v.p.addf(npath, ErrEmpty, "sets nothing; it would turn the whole rule into bypass")
				continue
			}
			v.match(npath, m)
		}

	}
}

// match checks one match (of a rule or of a not entry).
func (v *validator) match(path string, m Match) {
	vlans := func(field string, rs []Range) {
		for i, r := range rs {
			v.valueRange(fmt.Sprintf("%s.%s[%d]", path, field, i), r, 1, 4094)
		}
	}
	vlans("vlan", m.VLAN)
	vlans("inner_vlan", m.InnerVLAN)
	if m.VLANDepth != nil {
		d := *m.VLANDepth
		switch {
		case d > MaxVLANDepth:
			v.p.addf(path+".vlan_depth", ErrOutOfRange, "%d is out of range 0..%d", d, MaxVLANDepth)
		case d == 0 && len(m.VLAN) > 0:
			v.p.addf(path+".vlan_depth", ErrConflict, "0 (untagged) contradicts vlan")
		case d < 2 && len(m.InnerVLAN) > 0:
			v.p.addf(path+".vlan_depth", ErrConflict, "%d contradicts inner_vlan, which needs 2 tags", d)
		}
	}
	if m.MPLSDepth != nil && *m.MPLSDepth > MaxMPLSDepth {
		v.p.addf(path+".mpls_depth", ErrOutOfRange, "%d is out of range 0..%d", *m.MPLSDepth, MaxMPLSDepth)
	}
	if m.Src != nil && m.Dst != nil && !m.Src.IsZero() && !m.Dst.IsZero() && m.Src.Is4() != m.Dst.Is4() {
		v.p.addf(path+".dst", ErrConflict, "%s is %s but src %s is %s", m.Dst, m.Dst.Family(), m.Src, m.Src.Family())
	}
	if m.L4Port != nil && (m.L4Src != nil || m.L4Dst != nil) {
		v.p.addf(path+".l4_port", ErrConflict, "cannot be combined with l4_src or l4_dst")
	}
	for _, f := range []struct {
		name string
		r    *Range
	}{{"l4_src", m.L4Src}, {"l4_dst", m.L4Dst}, {"l4_port", m.L4Port}} {
		if f.r == nil {
			continue
		}
		v.valueRange(path+"."+f.name, *f.r, 0, 65535)
		if m.Proto != nil && !m.Proto.HasPorts() {
			v.p.addf(path+"."+f.name, ErrConflict, "l4 ports need proto tcp or udp, not %s", m.Proto)
		}
	}
}

// durationRange reports a duration outside lo..hi.
func (v *validator) durationRange(path string, d, lo, hi Duration, what string) {
	if d < lo || d > hi {
		v.p.addf(path, ErrOutOfRange, "%s is out of range %s..%s (%s)", d, durText(lo), durText(hi), what)
	}
}

// rangeCheck reports a number outside lo..hi; it returns whether x is in.
func (v *validator) rangeCheck(path string, x, lo, hi uint32, unit string) bool {
	if x < lo || x > hi {
		v.p.addf(path, ErrOutOfRange, "%d is out of range %d..%d %s", x, lo, hi, unit)
		return false
	}
	return true
}

// valueRange checks a Range: lo <= hi, both within min..max.
func (v *validator) valueRange(path string, r Range, lo, hi uint32) {
	switch {
	case r.Lo > r.Hi:
		v.p.addf(path, ErrOutOfRange, "range %d-%d has lo > hi", r.Lo, r.Hi)
	case r.Lo < lo || r.Hi > hi:
		v.p.addf(path, ErrOutOfRange, "%s is out of range %d..%d", r, lo, hi)
	}
}

// durText writes a bound plainly: "10ms", "60s", "10m".
func durText(d Duration) string {
	t := d.Std()
	switch {
	case t >= time.Minute && t%time.Minute == 0 && t > time.Minute:
		return fmt.Sprintf("%dm", t/time.Minute)
	case t >= time.Second && t%time.Second == 0:
		return fmt.Sprintf("%ds", t/time.Second)
	}
	return d.String()
}

// linkNames lists the links defined, for messages.
func (v *validator) linkNames() string {
	var out []string
	for _, l := range v.c.Links {
		out = append(out, l.Name)
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

func (v *validator) sessions() {
	it := v.c.Sessions.IdleTimeout
	v.duration("sessions.idle_timeout.tcp", it.TCP, sessionIdleBound, "how long a TCP session stays held without a packet")
	v.duration("sessions.idle_timeout.udp", it.UDP, sessionIdleBound, "how long a UDP session stays held without a packet")
	v.duration("sessions.idle_timeout.other", it.Other, sessionIdleBound, "how long a session of another protocol stays held without a packet")
	if id := v.c.Sessions.BypassID; id != nil && *id >= MaxFilterGroups {
		v.p.addf("sessions.bypass_id", ErrOutOfRange, "%d is out of range 0..%d", *id, MaxFilterGroups-1)
		return
	}
	if !v.c.Sessions.Enabled || !v.c.KeepsBypassed() {
		return
	}
	// The kept sessions' id must be no filter group's: the switch would
	// send them to it.
	bid := v.c.SessionBypassID()
	for i, f := range v.c.FilterGroups {
		if f.ID != nil && *f.ID == bid {
			v.p.addf(fmt.Sprintf("filter_groups[%d].id", i), ErrConflict,
				"%d is the session memory's id for the sessions it keeps in bypass (sessions.bypass_id, default %d; a profile says return: new-sessions): give filter group %q another id, or set sessions.bypass_id to an id no filter group has",
				bid, DefaultSessionBypassID, f.Name)
		}
	}
}
