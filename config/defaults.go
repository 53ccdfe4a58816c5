package config

import (
	"time"

	"github.com/dpi-balancer/balancer/p4src/wire"
)

// Site defaults ApplyDefaults fills in.
const (
	DefaultCores     = 1
	DefaultCoreTPID  = wire.DefaultCoreTPID
	DefaultSlotBits  = 12
	DefaultEtherType = wire.DefaultKeepAliveEtherType // keep-alive ethertype
	DefaultPlatform  = PlatformSim
	DefaultProfile   = "default" // name of the built-in availability profile

	DefaultInitialDelay = Duration(time.Second)
	DefaultInterval     = Duration(100 * time.Millisecond)
	// The session memory's idle timeouts (docs/sessions.md).
	DefaultSessionIdleTCP    = Duration(300 * time.Second)
	DefaultSessionIdleUDP    = Duration(60 * time.Second)
	DefaultSessionIdleOther  = Duration(30 * time.Second)
	DefaultLossThreshold     = 5
	DefaultRecoveryThreshold = 5
	DefaultMinActive         = 1
	DefaultFailureAction     = FailBypass
	DefaultProbe             = ProbeLANToWAN
	DefaultStallGuard        = StallGuardHold
	DefaultStallHold         = Duration(time.Second)
	MinStallHold             = Duration(10 * time.Millisecond)
	MaxStallHold             = Duration(time.Minute)
	DefaultFailback          = FailbackAuto
	// DefaultSessionBypassID is the filter group id of the sessions kept in
	// software bypass: the last one, the least likely to be given to a
	// filter group.
	DefaultSessionBypassID = MaxFilterGroups - 1
	MaxMinUpTime           = Duration(time.Hour)        // min_up_time: 0..1h
	MinMaxRTT              = Duration(time.Microsecond) // max_rtt: 1µs..under interval (0: off)
	DefaultRTTRounds       = 3                          // rtt_rounds when max_rtt is set
	MaxRTTRounds           = MaxThreshold               // rtt_rounds: 1..1000
	DefaultLossWindow      = 100                        // loss_window when max_loss is set
	MinLossWindow          = 10                         // loss_window: 10..10000 rounds
	MaxLossWindow          = 10000
	DefaultProbeEvery      = 10 // probe_every with a probe payload: a probe every 10 rounds
	MaxProbeEvery          = MaxThreshold
	MaxProbePayload        = 1024 // bytes of a fail-open probe's payload
	DefaultFailOpenAction  = FailOpenAlarm
)

// Default keep-alive addresses.
var (
	DefaultKeepAliveDstMAC = MAC{0x02, 0, 0, 0, 0, 0x02}
	DefaultKeepAliveSrcMAC = MAC{0x02, 0, 0, 0, 0, 0x01}
)

// BuiltinProfile is the built-in "default" availability profile: a
// profile named DefaultProfile with every default.
func BuiltinProfile() Profile {
	return Profile{Name: DefaultProfile, InitialDelay: DefaultInitialDelay, Interval: DefaultInterval,
		LossThreshold: DefaultLossThreshold, RecoveryThreshold: DefaultRecoveryThreshold, MinActive: DefaultMinActive,
		FailureAction: DefaultFailureAction, Probe: DefaultProbe, StallGuard: DefaultStallGuard, StallHold: DefaultStallHold,
		Failback: DefaultFailback}
}

// DefaultProfile returns the site's "default" profile, the one a filter
// group outside any balance group runs: the file's, with its defaults
// (ApplyDefaults), or the built-in one when it has none.
func (c *Config) DefaultProfile() Profile {
	if p := c.ProfileByName(DefaultProfile); p != nil {
		return *p
	}
	return BuiltinProfile()
}

// ApplyDefaults fills every unset value: site defaults first, then each
// object's from them, the built-in "default" profile when the file defines
// none of that name, and the ids of links, filter groups and balance groups
// that have none (the lowest id not used by an explicit id nor by an
// earlier object, in list order). After it, every ID is non-nil. It is
// idempotent.
func (c *Config) ApplyDefaults() {
	if c.Platform == "" {
		c.Platform = DefaultPlatform
	}
	d := &c.Defaults
	setIfZero(&d.Cores, DefaultCores)
	setIfZero(&d.CoreTPID, DefaultCoreTPID)
	setIfZero(&d.SlotBits, DefaultSlotBits)
	setIfZero(&d.KeepAlive.EtherType, DefaultEtherType)
	if d.KeepAlive.DstMAC.IsZero() {
		d.KeepAlive.DstMAC = DefaultKeepAliveDstMAC
	}
	if d.KeepAlive.SrcMAC.IsZero() {
		d.KeepAlive.SrcMAC = DefaultKeepAliveSrcMAC
	}

	for i := range c.Ports {
		portDefaults(&c.Ports[i])
	}

	if c.ProfileByName(DefaultProfile) == nil {
		c.Profiles = append(c.Profiles, Profile{Name: DefaultProfile})
	}
	for i := range c.Profiles {
		p := &c.Profiles[i]
		setIfZero(&p.InitialDelay, DefaultInitialDelay)
		setIfZero(&p.Interval, DefaultInterval)
		setIfZero(&p.LossThreshold, DefaultLossThreshold)
		setIfZero(&p.RecoveryThreshold, DefaultRecoveryThreshold)
		setIfZero(&p.MinActive, DefaultMinActive)
		setIfZero(&p.FailureAction, DefaultFailureAction)
		setIfZero(&p.Probe, DefaultProbe)
		setIfZero(&p.StallGuard, DefaultStallGuard)
		setIfZero(&p.StallHold, DefaultStallHold)
		setIfZero(&p.Failback, DefaultFailback)
		// The counts of the round-trip and loss limits only mean
		// something with their limit: an unset limit leaves them unset.
		if p.MaxRTT != 0 {
			setIfZero(&p.RTTRounds, DefaultRTTRounds)
		}
		if p.MaxLoss != 0 {
			setIfZero(&p.LossWindow, DefaultLossWindow)
		}
		if p.Probes() {
			setIfZero(&p.ProbeEvery, DefaultProbeEvery)
			setIfZero(&p.FailOpenAction, DefaultFailOpenAction)
		}
	}

	it := &c.Sessions.IdleTimeout
	setIfZero(&it.TCP, DefaultSessionIdleTCP)
	setIfZero(&it.UDP, DefaultSessionIdleUDP)
	setIfZero(&it.Other, DefaultSessionIdleOther)

	for i := range c.FilterGroups {
		f := &c.FilterGroups[i]
		setIfZero(&f.Cores, d.Cores)
		setIfZero(&f.TPID, d.CoreTPID)
	}
	for i := range c.BalanceGroups {
		b := &c.BalanceGroups[i]
		setIfZero(&b.SlotBits, d.SlotBits)
		setIfZero(&b.Profile, DefaultProfile)
		if p := c.ProfileByName(b.Profile); p != nil && p.FailureAction.Valid() {
			setIfZero(&b.FailureAction, p.FailureAction)
		}
	}

	assignIDs(len(c.Links), func(i int) **uint32 { return &c.Links[i].ID })
	assignIDs(len(c.FilterGroups), func(i int) **uint32 { return &c.FilterGroups[i].ID })
	assignIDs(len(c.BalanceGroups), func(i int) **uint32 { return &c.BalanceGroups[i].ID })
}

func setIfZero[T comparable](v *T, def T) {
	var zero T
	if *v == zero {
		*v = def
	}
}

// assignIDs gives each of n objects without an id the lowest id not used by
// any explicit id nor by an earlier object.
func assignIDs(n int, id func(i int) **uint32) {
	used := make(map[uint32]bool, n)
	for i := 0; i < n; i++ {
		if p := *id(i); p != nil {
			used[*p] = true
		}
	}
	next := uint32(0)
	for i := 0; i < n; i++ {
		p := id(i)
		if *p != nil {
			continue
		}
		for used[next] {
			next++
		}
		v := next
		*p = &v
		used[v] = true
	}
}
