package config

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/dpi-balancer/balancer/p4src"
)

// Platform describes a switch model as data: how front-panel ports and
// lanes map to data-plane port numbers, and the sizes that differ between
// targets.
type Platform struct {
	Name string
	// SlotCapacity is the size of the slots table: the sum of
	// 2^slot_bits over all balance groups must not exceed it.
	SlotCapacity int
	// CPUPort is the data-plane port of the controller (packet-in/out).
	CPUPort uint32
	// Arch is the P4 architecture of the build the platform's switch
	// runs (p4src.ArchV1Model, p4src.ArchTNA): its P4Info is the one owner of the
	// table sizes, and SlotCapacity must equal its slots table's size.
	Arch string
	// PipelineFormat is the device config format the platform's switch
	// takes (the daemon's pipeline formats: "bmv2", "tofino-stratum").
	PipelineFormat string
	// TimestampUnit is the unit of the data plane's ingress/egress
	// timestamps carried in keep-alives and packet-ins.
	TimestampUnit time.Duration
	// Ports maps a port's key (PortName.Key: "9/0" for unbroken port 9,
	// "4/1" for port 4 lane 1) to its data-plane port number. Keys are
	// in the <port>/<lane> form because the P-form is not unique
	// ("P11" is both 1/1 and 11/0).
	Ports map[string]uint32
}

// Front-panel port numbers of the 32-port switch.
const (
	MinPort  = 1
	MaxPort  = 32
	MaxLanes = 4
)

// The platform names built in.
const (
	PlatformSim       = "sim"
	PlatformBMv2      = "bmv2"
	PlatformWedge100B = "wedge100bf-32x"
)

// Slot table capacities (p4src/shared/sizes.p4, through p4src).
const (
	SlotCapacitySim    = p4src.SlotsSizeBMv2
	SlotCapacityTofino = p4src.SlotsSizeTofino
)

// simPorts numbers lane l of port p as p*10+l and unbroken port p as p*10,
// the numbering of the software switch and of the BMv2 topology.
func simPorts() map[string]uint32 {
	m := make(map[string]uint32, MaxPort*(MaxLanes+1))
	for p := uint32(MinPort); p <= MaxPort; p++ {
		for l := uint32(0); l <= MaxLanes; l++ {
			m[PortName{Port: p, Lane: l}.Key()] = p*10 + l
		}
	}
	return m
}

// wedge100bf32xBase is the Tofino dev_port of each front-panel port of the
// Edgecore Wedge100BF-32X (BFN-T10-032D, two pipes; dev_port = pipe<<7 |
// local port) when the port runs unbroken; its lanes 1..4 are base+0..base+3.
//
// Where it comes from: the connector -> MAC block table is Stratum's
// stratum/hal/config/x86-64-accton-wedge100bf-32x-r0/port_map.json
// (connectors 1-8 -> MACs 23..16, 9-16 -> 15..8, 17-24 -> 7..0, 25-28 ->
// 31..28, 29 -> 26, 30 -> 27, 31 -> 24, 32 -> 25). The MAC -> dev_port
// values are those bf_shell "pm show" prints on that switch in public lab
// notes (1/0 MAC 23 = 132, 2/0 MAC 22 = 140, 3/0 MAC 21 = 148, 17/0 MAC 7
// = 4, 18/0 MAC 6 = 12; MACs 9, 10, 12, 14, 16, 18, 20 = 8, 16, 32, 48,
// 188, 172, 156 on the same SDE), which follow one rule per pipe: MACs
// 0-7 -> 4+8*(7-m), 8-15 -> 8*(m-8), 16-23 -> 128+4+8*(23-m), 24-31 ->
// 128+8*(m-24). Ports 25-32 (MACs 24-31) are filled in by that rule and were
// not seen in a listing. Some SDE releases number this box differently
// (1/0 = 128): check "pm show" on the target and override with port_map.
var wedge100bf32xBase = [MaxPort + 1]uint32{
	1: 132, 2: 140, 3: 148, 4: 156, 5: 164, 6: 172, 7: 180, 8: 188,
	9: 56, 10: 48, 11: 40, 12: 32, 13: 24, 14: 16, 15: 8, 16: 0,
	17: 4, 18: 12, 19: 20, 20: 28, 21: 36, 22: 44, 23: 52, 24: 60,
	25: 184, 26: 176, 27: 168, 28: 160, 29: 144, 30: 152, 31: 128, 32: 136,
}

func wedge100bf32xPorts() map[string]uint32 {
	m := make(map[string]uint32, MaxPort*(MaxLanes+1))
	for p := uint32(MinPort); p <= MaxPort; p++ {
		base := wedge100bf32xBase[p]
		m[PortName{Port: p}.Key()] = base
		for l := uint32(1); l <= MaxLanes; l++ {
			m[PortName{Port: p, Lane: l}.Key()] = base + l - 1
		}
	}
	return m
}

var platforms = map[string]Platform{
	PlatformSim: {
		Name:           PlatformSim,
		SlotCapacity:   SlotCapacitySim,
		CPUPort:        p4src.CPUPortBMv2,
		Arch:           p4src.ArchV1Model,
		PipelineFormat: "bmv2",
		TimestampUnit:  time.Nanosecond,
		Ports:          simPorts(),
	},
	PlatformBMv2: {
		Name:           PlatformBMv2,
		SlotCapacity:   SlotCapacitySim,
		CPUPort:        p4src.CPUPortBMv2,
		Arch:           p4src.ArchV1Model,
		PipelineFormat: "bmv2",
		TimestampUnit:  time.Microsecond,
		Ports:          simPorts(),
	},
	PlatformWedge100B: {
		Name:           PlatformWedge100B,
		SlotCapacity:   SlotCapacityTofino,
		CPUPort:        p4src.CPUPortTofino,
		Arch:           p4src.ArchTNA,
		PipelineFormat: "tofino-stratum",
		TimestampUnit:  time.Nanosecond,
		Ports:          wedge100bf32xPorts(),
	},
}

// LookupPlatform returns a copy of the built-in platform called name.
func LookupPlatform(name string) (*Platform, error) {
	p, ok := platforms[name]
	if !ok {
		return nil, errorf(ErrUnknownPlatform, "unknown platform %q; known: %s", name, strings.Join(Platforms(), ", "))
	}
	p.Ports = maps.Clone(p.Ports)
	return &p, nil
}

// Platforms lists the built-in platform names, sorted.
func Platforms() []string {
	return slices.Sorted(maps.Keys(platforms))
}
