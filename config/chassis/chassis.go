// Package chassis renders a site's ports as Stratum's chassis config
// (ChassisConfig, stratum/hal/lib/common/common.proto) in the protobuf
// text format Stratum reads with --chassis_config_file and takes over
// gNMI (a Set replace at "/" whose bytes_val holds the text).
//
// Every port entry of the site becomes one singleton port, every lane of
// a broken-out port one singleton port with its channel: the platform's
// slot/port/channel numbering, the speed, FEC, autoneg, MTU and admin
// state of the entry. The package is pure: it reads a configuration and
// returns text.
package chassis

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dpi-balancer/balancer/config"
)

// ErrNoChassis: the site's platform is not run by Stratum.
var ErrNoChassis = errors.New("chassis config")

// Layout is how Stratum numbers a platform's ports.
type Layout struct {
	// Platform is Stratum's Platform enum value name.
	Platform string
	// Name describes the chassis (not parsed by Stratum).
	Name string
	// Slot is the linecard of every port (1-based).
	Slot int32
}

// layouts are the platforms Stratum runs, by the site's platform name.
// On the Wedge100BF-32X front-panel port N is Stratum's port N of slot
// 1, lane L of a broken-out port its channel L (Stratum's own
// chassis_config.pb.txt and port_map.json for
// x86-64-accton-wedge100bf-32x-r0).
var layouts = map[string]Layout{
	config.PlatformWedge100B: {Platform: "PLT_GENERIC_BAREFOOT_TOFINO", Name: "Edgecore Wedge100BF-32X", Slot: 1},
}

// LayoutOf gives the Stratum layout of platform.
func LayoutOf(platform string) (Layout, error) {
	l, ok := layouts[platform]
	if !ok {
		var known []string
		for k := range layouts {
			known = append(known, k)
		}
		slices.Sort(known)
		return Layout{}, fmt.Errorf("%w: platform %s is not run by Stratum (the software switch takes its ports from the site, BMv2 from its command line); platforms with a chassis config: %s",
			ErrNoChassis, platform, strings.Join(known, ", "))
	}
	return l, nil
}

// Port is one singleton port of the chassis config.
type Port struct {
	ID       uint32 // SingletonPort.id: 100 x port + channel
	Name     string // "9/0", "4/1": the gNMI interface name
	Port     int32  // front-panel port
	Channel  int32  // lane, 0 for a whole port
	SpeedBPS uint64
	Settings config.PortSettings
}

// PortID gives the singleton port id of a port or lane: 100 x port +
// lane. It is never 0 and never Stratum's reserved CPU port ids (0xFD,
// 0xFFFFFFFD); P4Runtime does not use it (the program's port fields are
// the Tofino's own port numbers).
func PortID(n config.PortName) uint32 { return 100*n.Port + n.Lane }

// Ports lists the singleton ports of the site: every whole port and every
// lane, in front-panel order. c must have been validated.
func Ports(c *config.Config) []Port {
	defs := slices.Clone(c.Ports)
	slices.SortFunc(defs, func(a, b config.Port) int { return cmp.Compare(a.Port, b.Port) })
	var out []Port
	for _, d := range defs {
		s := d.Settings()
		for _, n := range d.LaneNames() {
			out = append(out, Port{ID: PortID(n), Name: n.Key(), Port: int32(n.Port), Channel: int32(n.Lane),
				SpeedBPS: config.SpeedBPS(s.Speed), Settings: s})
		}
	}
	return out
}

// Render gives the chassis config of the site c (valid, defaults applied)
// for the switch whose P4Runtime device id (Stratum's node id) is nodeID.
func Render(c *config.Config, nodeID uint64) ([]byte, error) {
	l, err := LayoutOf(c.Platform)
	if err != nil {
		return nil, err
	}
	if nodeID == 0 {
		return nil, fmt.Errorf("%w: node id 0: give the switch's P4Runtime device id (1 or more)", ErrNoChassis)
	}
	var b strings.Builder
	site := c.Site
	if site == "" {
		site = "(unnamed)"
	}
	fmt.Fprintf(&b, "# Stratum chassis config of site %s, platform %s: made by 'balancer switch chassis-config'.\n", site, c.Platform)
	fmt.Fprintf(&b, "description: %s\n", strconv.Quote("balancer site "+site))
	fmt.Fprintf(&b, "chassis {\n  platform: %s\n  name: %s\n}\n", l.Platform, strconv.Quote(l.Name))
	fmt.Fprintf(&b, "nodes {\n  id: %d\n  slot: %d\n  index: 1\n}\n", nodeID, l.Slot)
	for _, p := range Ports(c) {
		if p.SpeedBPS == 0 {
			return nil, fmt.Errorf("%w: port %s: speed %q has no bit rate", ErrNoChassis, p.Name, p.Settings.Speed)
		}
		fmt.Fprintf(&b, "singleton_ports {\n  id: %d\n  name: %s\n  slot: %d\n  port: %d\n", p.ID, strconv.Quote(p.Name), l.Slot, p.Port)
		if p.Channel != 0 {
			fmt.Fprintf(&b, "  channel: %d\n", p.Channel)
		}
		fmt.Fprintf(&b, "  speed_bps: %d\n  config_params {\n", p.SpeedBPS)
		fmt.Fprintf(&b, "    admin_state: %s\n", adminState(p.Settings.Enabled))
		fmt.Fprintf(&b, "    mtu: %d\n", p.Settings.MTU)
		fmt.Fprintf(&b, "    autoneg: %s\n", triState(p.Settings.Autoneg))
		fmt.Fprintf(&b, "    fec_mode: %s\n", fecMode(p.Settings.FEC))
		fmt.Fprintf(&b, "  }\n  node: %d\n}\n", nodeID)
	}
	return []byte(b.String()), nil
}

func adminState(enabled bool) string {
	if enabled {
		return "ADMIN_STATE_ENABLED"
	}
	return "ADMIN_STATE_DISABLED"
}

func triState(b bool) string {
	if b {
		return "TRI_STATE_TRUE"
	}
	return "TRI_STATE_FALSE"
}

// fecMode maps a FEC to Stratum's FecMode: Stratum has on and off only,
// and turns "on" into Firecode at 10G/40G and RS-FEC at 25G/50G/100G;
// the site's validation allows exactly those pairs on a Stratum platform.
func fecMode(f config.FEC) string {
	if f == config.FECNone || f == "" {
		return "FEC_MODE_OFF"
	}
	return "FEC_MODE_ON"
}
