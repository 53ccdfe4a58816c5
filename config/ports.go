package config

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// PortName identifies a front-panel port (Lane 0: the port unbroken) or one
// lane (1..4) of a broken-out port.
type PortName struct {
	Port uint32
	Lane uint32 // 0 = unbroken
}

// String gives the canonical name: "P9" for unbroken port 9, "P41" for
// port 4 lane 1. This form can be ambiguous ("P11"); Key is not.
func (n PortName) String() string {
	if n.Lane == 0 {
		return fmt.Sprintf("P%d", n.Port)
	}
	return fmt.Sprintf("P%d%d", n.Port, n.Lane)
}

// Key gives the unambiguous "<port>/<lane>" form: "9/0", "4/1". Platform
// port tables are keyed by it.
func (n PortName) Key() string { return fmt.Sprintf("%d/%d", n.Port, n.Lane) }

// Side is the side of a port: LAN (towards subscribers) or WAN (towards the
// internet).
type Side uint8

const (
	SideLAN Side = 0
	SideWAN Side = 1
)

func (s Side) String() string {
	switch s {
	case SideLAN:
		return "LAN"
	case SideWAN:
		return "WAN"
	}
	return fmt.Sprintf("Side(%d)", uint8(s))
}

// PortSide gives a port's side by the convention even = LAN, odd = WAN: the
// lane number for a lane, the port number for an unbroken port.
func (c *Config) PortSide(n PortName) Side {
	v := n.Port
	if n.Lane != 0 {
		v = n.Lane
	}
	if v%2 == 0 {
		return SideLAN
	}
	return SideWAN
}

// portDef returns the first entry of c.Ports for front-panel port p.
func (c *Config) portDef(p uint32) (Port, bool) {
	for _, d := range c.Ports {
		if d.Port == p {
			return d, true
		}
	}
	return Port{}, false
}

func brokenOut(d Port) bool { return d.Breakout > 1 }

// lanes names a broken-out port's lanes for messages: "P41..P44 (4/1..4/4)".
func lanes(d Port) string {
	first, last := PortName{Port: d.Port, Lane: 1}, PortName{Port: d.Port, Lane: d.Breakout}
	return fmt.Sprintf("%s..%s (%s..%s)", first, last, first.Key(), last.Key())
}

// ResolvePort reads a port name against the ports the configuration lists.
// Accepted forms: "P9" (unbroken port 9), "P41" (port 4 lane 1, when port 4
// is broken out), "4/1", "9/0" and "9". A P-name that reads both as a lane
// and as an unbroken port is ambiguous when both are defined; when only one
// reading is defined, that one is meant.
func (c *Config) ResolvePort(name string) (PortName, error) {
	badName := func() (PortName, error) {
		return PortName{}, errorf(ErrBadPortName, "%q is not a port name; write P<port>, P<port><lane>, <port>/<lane> or <port>", name)
	}
	num := func(s string) (uint32, bool) {
		if s == "" || len(s) > 4 || s[0] < '0' || s[0] > '9' {
			return 0, false
		}
		v, err := strconv.ParseUint(s, 10, 32)
		return uint32(v), err == nil
	}

	if name != "" && (name[0] == 'P' || name[0] == 'p') {
		d, ok := num(name[1:])
		if !ok {
			return badName()
		}
		return c.resolveP(name, d)
	}
	ps, ls, slash := strings.Cut(name, "/")
	p, ok := num(ps)
	if !ok {
		return badName()
	}
	var l uint32
	if slash {
		if l, ok = num(ls); !ok {
			return badName()
		}
	}
	return c.resolveExact(name, PortName{Port: p, Lane: l})
}

// resolveExact checks an explicit port/lane pair against c.Ports.
func (c *Config) resolveExact(name string, n PortName) (PortName, error) {
	if n.Port < MinPort || n.Port > MaxPort {
		return PortName{}, errorf(ErrUnknownPort, "unknown port %s: front-panel ports are numbered %d..%d", name, MinPort, MaxPort)
	}
	d, ok := c.portDef(n.Port)
	if !ok {
		return PortName{}, errorf(ErrUnknownPort, "unknown port %s: port %d is not defined; add it to ports (balancer port add %d --speed 100G)", name, n.Port, n.Port)
	}
	switch {
	case n.Lane == 0 && brokenOut(d):
		return PortName{}, errorf(ErrBrokenOut, "%s: port %d is broken out; name one of its lanes, %s", name, n.Port, lanes(d))
	case n.Lane != 0 && !brokenOut(d):
		return PortName{}, errorf(ErrNoLane, "%s: port %d is not broken out, so it has no lane %d", name, n.Port, n.Lane)
	case n.Lane > d.Breakout:
		return PortName{}, errorf(ErrLaneRange, "%s: port %d has %d lanes, so there is no lane %d", name, n.Port, d.Breakout, n.Lane)
	}
	return n, nil
}

// resolveP reads "P<digits>": the whole number as an unbroken port, or the
// last digit as a lane of the port the other digits give.
func (c *Config) resolveP(name string, digits uint32) (PortName, error) {
	whole := PortName{Port: digits}
	lane := PortName{Port: digits / 10, Lane: digits % 10}
	hasWhole := whole.Port >= MinPort && whole.Port <= MaxPort
	hasLane := lane.Lane != 0 && lane.Port >= MinPort && lane.Port <= MaxPort
	if d, ok := c.portDef(lane.Port); hasLane && lane.Lane > MaxLanes && (!ok || !brokenOut(d)) {
		hasLane = false // P99 is no lane of port 9: there are no lanes beyond 4
	}

	wholeOK, laneOK := false, false
	if hasWhole {
		_, err := c.resolveExact(name, whole)
		wholeOK = err == nil
	}
	if hasLane {
		_, err := c.resolveExact(name, lane)
		laneOK = err == nil
	}
	switch {
	case wholeOK && laneOK:
		return PortName{}, errorf(ErrAmbiguousPort, "%s is ambiguous: port %d lane %d or port %d; write %s or %s",
			name, lane.Port, lane.Lane, whole.Port, lane.Key(), whole.Key())
	case wholeOK:
		return whole, nil
	case laneOK:
		return lane, nil
	}

	// Neither reading is defined: explain the most specific one.
	wholeDef, laneDef := false, false
	if hasWhole {
		_, wholeDef = c.portDef(whole.Port)
	}
	if hasLane {
		_, laneDef = c.portDef(lane.Port)
	}
	switch {
	case wholeDef:
		_, err := c.resolveExact(name, whole)
		return PortName{}, err
	case laneDef:
		_, err := c.resolveExact(name, lane)
		return PortName{}, err
	case hasWhole && hasLane:
		return PortName{}, errorf(ErrUnknownPort, "unknown port %s: neither port %d nor port %d (lane %d) is defined; add one to ports (balancer port add %d --speed 100G)", name, whole.Port, lane.Port, lane.Lane, whole.Port)
	case hasWhole:
		return PortName{}, errorf(ErrUnknownPort, "unknown port %s: port %d is not defined; add it to ports (balancer port add %d --speed 100G)", name, whole.Port, whole.Port)
	case hasLane:
		return PortName{}, errorf(ErrUnknownPort, "unknown port %s: port %d is not defined; add it to ports, broken out (balancer port add %d --speed 25G --breakout 4)", name, lane.Port, lane.Port)
	}
	return PortName{}, errorf(ErrUnknownPort, "unknown port %s: front-panel ports are %d..%d and lanes 1..%d (P9 is port 9, P41 is port 4 lane 1)", name, MinPort, MaxPort, MaxLanes)
}

// PortLabel gives the name to show for n: the canonical P-form when it reads
// back as n in this configuration, else the <port>/<lane> form.
func (c *Config) PortLabel(n PortName) string {
	if r, err := c.ResolvePort(n.String()); err == nil && r == n {
		return n.String()
	}
	return n.Key()
}

// PortNumber gives the data-plane port number of the named port: the
// file's port_map override when there is one, else the platform's table.
func (c *Config) PortNumber(name string) (uint32, error) {
	n, err := c.ResolvePort(name)
	if err != nil {
		return 0, err
	}
	return c.portNumberOf(n)
}

func (c *Config) portNumberOf(n PortName) (uint32, error) {
	for _, k := range slices.Sorted(maps.Keys(c.PortMap)) {
		if r, err := c.ResolvePort(k); err == nil && r == n {
			return c.PortMap[k], nil
		}
	}
	pl, ok := platforms[c.platformName()]
	if !ok {
		_, err := LookupPlatform(c.platformName())
		return 0, err
	}
	if v, ok := pl.Ports[n.Key()]; ok {
		return v, nil
	}
	return 0, errorf(ErrUnknownPort, "platform %s has no data-plane port for %s", pl.Name, c.PortLabel(n))
}

func (c *Config) platformName() string {
	if c.Platform == "" {
		return PlatformSim
	}
	return c.Platform
}
