package config

import (
	"fmt"
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
	// CPUPort is the data-plane port of the controller (packet-in/out):
	// on a Tofino, TofinoCPUPort of its pipe count.
	CPUPort uint32
	// Pipes is the number of hardware pipes (0: not a Tofino).
	Pipes int
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
	// MaxMTU is the largest port MTU the target carries.
	MaxMTU uint32
	// FECModes lists, per speed, the FEC modes the target can set;
	// FECNote says why, for messages.
	FECModes map[string][]FEC
	FECNote  string
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

// SimMaxMTU is the largest frame the software switch carries (its
// frame buffers; sim.MaxFrame, checked by a test there).
const SimMaxMTU = 9216

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
		MaxMTU:         SimMaxMTU,
		FECModes:       ieeeFEC,
		FECNote:        "IEEE 802.3 defines fc at 10G to 50G and rs at 25G to 100G",
		Ports:          simPorts(),
	},
	PlatformBMv2: {
		Name:           PlatformBMv2,
		SlotCapacity:   SlotCapacitySim,
		CPUPort:        p4src.CPUPortBMv2,
		Arch:           p4src.ArchV1Model,
		PipelineFormat: "bmv2",
		TimestampUnit:  time.Microsecond,
		MaxMTU:         MaxMTU,
		FECModes:       ieeeFEC,
		FECNote:        "IEEE 802.3 defines fc at 10G to 50G and rs at 25G to 100G",
		Ports:          simPorts(),
	},
	PlatformWedge100B: {
		Name:           PlatformWedge100B,
		SlotCapacity:   SlotCapacityTofino,
		CPUPort:        TofinoCPUPort(2),
		Pipes:          2, // BFN-T10-032D: 32 x 100G in two pipes
		Arch:           p4src.ArchTNA,
		PipelineFormat: "tofino-stratum",
		TimestampUnit:  time.Nanosecond,
		MaxMTU:         MaxMTU,
		FECModes:       stratumTofinoFEC,
		FECNote:        "Stratum sets FEC on or off: on is fc at 10G and 40G, rs at 25G, 50G and 100G",
		Ports:          wedge100bf32xPorts(),
	},
}

// TofinoCPUPort gives the data-plane port of a Tofino's PCIe CPU port:
// port 64 of pipe 1 on a part with two pipes (192), of pipe 2 on one with
// four (320: the 64-port parts and the Tofino model's default chip). 0 for
// another pipe count.
func TofinoCPUPort(pipes int) uint32 {
	switch pipes {
	case 2:
		return 1<<7 | 64
	case 4:
		return 2<<7 | 64
	}
	return 0
}

// CheckCPUPort checks that no port or lane of the site (by the platform's
// table or port_map) takes data-plane port cpu (a CPU port given other than the
// platform's, as the daemon's --cpu-port does). Each problem names the
// port as the site does. c must have been validated.
func (c *Config) CheckCPUPort(cpu uint32) error {
	var p problems
	for i, d := range c.Ports {
		for _, n := range d.LaneNames() {
			if num, err := c.portNumberOf(n); err == nil && num == cpu {
				p.addf(fmt.Sprintf("ports[%d]", i), ErrConflict, "%s has data-plane port %d, the CPU port: give it another in port_map, or check the CPU port", c.PortLabel(n), cpu)
			}
		}
	}
	return p.err()
}

// LookupPlatform returns a copy of the built-in platform called name.
func LookupPlatform(name string) (*Platform, error) {
	p, ok := platforms[name]
	if !ok {
		return nil, errorf(ErrUnknownPlatform, "unknown platform %q; known: %s", name, strings.Join(Platforms(), ", "))
	}
	p.Ports = maps.Clone(p.Ports)
	p.FECModes = maps.Clone(p.FECModes)
	return &p, nil
}

// Platforms lists the built-in platform names, sorted.
func Platforms() []string {
	return slices.Sorted(maps.Keys(platforms))
}

// RecircPort says whether a data-plane port is one of the platform's
// recirculation ports that the program itself uses: on a Tofino of two or
// more pipes, each pipe's port 68 (device port pipe*128 + 68), where the
// data-plane verdict's evidence copies arrive (docs/tofino.md, "Two
// pipes"). No port of a site may be mapped there.
func (p *Platform) RecircPort(dp uint32) bool {
	return p != nil && p.Pipes >= 2 &&
		dp%p4src.TofinoPipePorts == p4src.EvidenceCopyRecircPort &&
		dp < uint32(p.Pipes*p4src.TofinoPipePorts)
}
