package config

import (
	"slices"
	"strings"
)

// FEC is a port's forward error correction mode.
type FEC string

const (
	FECNone FEC = "none"
	FECFC   FEC = "fc" // Firecode (IEEE 802.3 clause 74, BASE-R FEC)
	FECRS   FEC = "rs" // Reed-Solomon (clauses 91 and 108, RS(528,514))
)

// FECs lists the FEC modes in the order messages name them.
var FECs = []FEC{FECNone, FECFC, FECRS}

// Valid reports whether f is one of FECs.
func (f FEC) Valid() bool { return slices.Contains(FECs, f) }

// Port MTU bounds and defaults: the MTU is the largest frame in bytes
// (Ethernet header to FCS), as Stratum and the Tofino driver count it.
const (
	MinMTU     = 1200
	MaxMTU     = 10240 // the Tofino MAC's largest frame
	DefaultMTU = 9216
	// DefaultAutoneg: auto-negotiation off, the usual for optics and AOC
	// at fixed speeds; direct-attach copper that needs clause 73
	// negotiation sets autoneg: true.
	DefaultAutoneg = false
	// DefaultEnabled: a port listed in the site is administratively up.
	DefaultEnabled = true
)

// Speeds lists the port speeds, slowest first.
var Speeds = []string{"10G", "25G", "40G", "50G", "100G"}

// SpeedBPS gives a speed's bits per second (0 for an unknown speed).
func SpeedBPS(speed string) uint64 {
	switch speed {
	case "10G":
		return 10_000_000_000
	case "25G":
		return 25_000_000_000
	case "40G":
		return 40_000_000_000
	case "50G":
		return 50_000_000_000
	case "100G":
		return 100_000_000_000
	}
	return 0
}

// DefaultFEC is the FEC a port runs at speed when the site does not say:
// RS-FEC where IEEE 802.3 requires it or operators' optics expect it
// (25G, 50G and 100G: 100GBASE-SR4/CWDM4/LR4 and 25GBASE-SR run RS-FEC),
// none at 10G and 40G (10GBASE-R and 40GBASE-R run without FEC).
func DefaultFEC(speed string) FEC {
	switch speed {
	case "25G", "50G", "100G":
		return FECRS
	}
	return FECNone
}

// ieeeFEC are the FEC modes IEEE 802.3 defines per lane speed: Firecode
// for the 10G-lane and 25G-lane BASE-R PHYs up to 50G, Reed-Solomon for
// 25G lanes (25G, 50G, 100G).
var ieeeFEC = map[string][]FEC{
	"10G":  {FECNone, FECFC},
	"25G":  {FECNone, FECFC, FECRS},
	"40G":  {FECNone, FECFC},
	"50G":  {FECNone, FECFC, FECRS},
	"100G": {FECNone, FECRS},
}

// stratumTofinoFEC are the modes Stratum can set on a Tofino: its chassis
// config has FEC on or off only, and "on" is Firecode at 10G and 40G and
// RS-FEC at 25G, 50G and 100G (bf_sde_wrapper.cc FecModeHalToBf).
var stratumTofinoFEC = map[string][]FEC{
	"10G":  {FECNone, FECFC},
	"25G":  {FECNone, FECRS},
	"40G":  {FECNone, FECFC},
	"50G":  {FECNone, FECRS},
	"100G": {FECNone, FECRS},
}

// PortSettings are one port's effective settings (after ApplyDefaults).
type PortSettings struct {
	Speed   string
	FEC     FEC
	Autoneg bool
	MTU     uint32
	Enabled bool
}

// Settings gives the port's settings with the defaults for what it leaves
// unset.
func (p Port) Settings() PortSettings {
	s := PortSettings{Speed: p.Speed, FEC: p.FEC, Autoneg: DefaultAutoneg, MTU: p.MTU, Enabled: DefaultEnabled}
	if s.FEC == "" {
		s.FEC = DefaultFEC(p.Speed)
	}
	if p.Autoneg != nil {
		s.Autoneg = *p.Autoneg
	}
	if s.MTU == 0 {
		s.MTU = DefaultMTU
	}
	if p.Enabled != nil {
		s.Enabled = *p.Enabled
	}
	return s
}

// portDefaults fills a port entry's unset settings.
func portDefaults(p *Port) {
	s := p.Settings()
	if p.FEC == "" && slices.Contains(Speeds, p.Speed) {
		p.FEC = s.FEC
	}
	if p.Autoneg == nil {
		v := s.Autoneg
		p.Autoneg = &v
	}
	setIfZero(&p.MTU, s.MTU)
	if p.Enabled == nil {
		v := s.Enabled
		p.Enabled = &v
	}
}

// LaneNames names a port entry's ports: the whole port, or each lane.
func (p Port) LaneNames() []PortName {
	if p.Breakout <= 1 {
		return []PortName{{Port: p.Port}}
	}
	out := make([]PortName, 0, p.Breakout)
	for l := uint32(1); l <= p.Breakout; l++ {
		out = append(out, PortName{Port: p.Port, Lane: l})
	}
	return out
}

// portSettings checks one port entry's FEC and MTU against the platform.
// Messages name the port by the number the entry gives.
func (v *validator) portSettings(path string, d Port) {
	if d.FEC != "" && !d.FEC.Valid() {
		v.p.addf(path+".fec", ErrInvalid, "port %d: %q is not a FEC mode; one of %s", d.Port, d.FEC, fecList(FECs))
	} else if d.FEC != "" && v.pl != nil && slices.Contains(Speeds, d.Speed) {
		if allowed := v.pl.FECModes[d.Speed]; !slices.Contains(allowed, d.FEC) {
			v.p.addf(path+".fec", ErrConflict, "port %d: fec %s is not available at %s on platform %s (%s); use %s",
				d.Port, d.FEC, d.Speed, v.pl.Name, v.pl.FECNote, fecList(allowed))
		}
	}
	if d.MTU != 0 {
		hi := uint32(MaxMTU)
		if v.pl != nil && v.pl.MaxMTU > 0 {
			hi = v.pl.MaxMTU
		}
		if d.MTU < MinMTU || d.MTU > hi {
			where := ""
			if v.pl != nil {
				where = " on platform " + v.pl.Name
			}
			v.p.addf(path+".mtu", ErrOutOfRange, "port %d: mtu %d is out of range %d..%d%s", d.Port, d.MTU, MinMTU, hi, where)
		}
	}
}

func fecList(fs []FEC) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = string(f)
	}
	return strings.Join(s, ", ")
}
