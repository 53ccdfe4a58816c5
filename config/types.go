package config

import (
	"encoding/hex"
	"strings"
	"time"
)

// Config is one site's declarative configuration: what the operator writes in
// YAML. Decode it with Parse or Load, which apply defaults and validate.
type Config struct {
	// Site is a free-form name shown by the CLI and telemetry.
	Site string `yaml:"site,omitempty" json:"site,omitempty"`
	// Platform names the built-in front-panel -> data-plane port table
	// ("sim", "bmv2", "wedge100bf-32x"). Default "sim".
	Platform string `yaml:"platform,omitempty" json:"platform,omitempty"`
	// PortMap overrides or extends the platform's table: port name
	// ("P9", "P41", "4/1") -> data-plane port number.
	PortMap map[string]uint32 `yaml:"port_map,omitempty" json:"port_map,omitempty"`

	Defaults      Defaults       `yaml:"defaults,omitempty" json:"defaults"`
	Ports         []Port         `yaml:"ports" json:"ports"`
	Links         []Link         `yaml:"links" json:"links"`
	FilterGroups  []FilterGroup  `yaml:"filter_groups" json:"filter_groups"`
	BalanceGroups []BalanceGroup `yaml:"balance_groups" json:"balance_groups"`
	Profiles      []Profile      `yaml:"profiles,omitempty" json:"profiles,omitempty"`
	Rules         []Rule         `yaml:"rules,omitempty" json:"rules,omitempty"`
	// Sessions is the session memory (docs/sessions.md): off by default.
	Sessions Sessions `yaml:"sessions,omitempty" json:"sessions"`
}

// Sessions is the session memory (docs/sessions.md): a session the
// switch has seen keeps its filter group and core across layout changes
// until it is idle for its protocol's timeout. It needs the "sessions"
// profile of the P4 program, which the daemon pushes when it is enabled.
type Sessions struct {
	Enabled     bool               `yaml:"enabled,omitempty" json:"enabled,omitempty"`
	IdleTimeout SessionIdleTimeout `yaml:"idle_timeout,omitempty" json:"idle_timeout"`
	// BypassID is the filter group id the session memory points the
	// sessions it keeps in software bypass at (profiles with return:
	// new-sessions): an id no filter group has, so the switch's default
	// for it, the software bypass, applies. 0..63; default 63.
	BypassID *uint32 `yaml:"bypass_id,omitempty" json:"bypass_id,omitempty"`
}

// KeepsBypassed says whether a profile of the configuration keeps
// bypassed sessions in bypass (return: new-sessions).
func (c *Config) KeepsBypassed() bool {
	for _, p := range c.Profiles {
		if p.Return == ReturnNewSessions {
			return true
		}
	}
	return false
}

// SessionBypassID is the filter group id kept sessions point at
// (Sessions.BypassID, or its default).
func (c *Config) SessionBypassID() uint32 {
	if c.Sessions.BypassID != nil {
		return *c.Sessions.BypassID
	}
	return DefaultSessionBypassID
}

// SessionIdleTimeout is how long a session stays held without a packet,
// by protocol.
type SessionIdleTimeout struct {
	TCP   Duration `yaml:"tcp,omitempty" json:"tcp,omitempty"`     // default 300s
	UDP   Duration `yaml:"udp,omitempty" json:"udp,omitempty"`     // default 60s
	Other Duration `yaml:"other,omitempty" json:"other,omitempty"` // default 30s
}

// For is the idle timeout of a session of IP protocol proto.
func (t SessionIdleTimeout) For(proto uint8) Duration {
	switch proto {
	case 6:
		return t.TCP
	case 17:
		return t.UDP
	}
	return t.Other
}

// Defaults are site-wide values used where an object does not set its own.
type Defaults struct {
	Cores     uint32           `yaml:"cores,omitempty" json:"cores,omitempty"`         // per filter; default 1
	CoreTPID  uint16           `yaml:"core_tpid,omitempty" json:"core_tpid,omitempty"` // default 0x88B5
	SlotBits  uint32           `yaml:"slot_bits,omitempty" json:"slot_bits,omitempty"` // default 12, 1..16
	KeepAlive KeepAlive        `yaml:"keepalive,omitempty" json:"keepalive"`
	Heartbeat []HeartbeatMatch `yaml:"heartbeat,omitempty" json:"heartbeat,omitempty"`
}

// KeepAlive is the keep-alive frame's addressing.
type KeepAlive struct {
	EtherType uint16 `yaml:"ethertype,omitempty" json:"ethertype,omitempty"` // default 0x88B6
	DstMAC    MAC    `yaml:"dst_mac,omitempty" json:"dst_mac,omitempty"`     // default 02:00:00:00:00:02
	SrcMAC    MAC    `yaml:"src_mac,omitempty" json:"src_mac,omitempty"`     // default 02:00:00:00:00:01
}

// HeartbeatMatch describes the operator's bypass-unit heartbeats, which pass
// straight through from one operator port to its peer. Unset fields are
// wildcards; at least one must be set.
type HeartbeatMatch struct {
	DstMAC    *MACMask `yaml:"dst_mac,omitempty" json:"dst_mac,omitempty"`
	EtherType *uint16  `yaml:"ethertype,omitempty" json:"ethertype,omitempty"`
}

// Port is one front-panel port (QSFP28 cage) of the switch. Its settings
// (FEC, autoneg, MTU, admin state) hold for the whole port, or for every
// lane of a broken-out port.
type Port struct {
	Port     uint32 `yaml:"port" json:"port"`                             // 1..32
	Speed    string `yaml:"speed" json:"speed"`                           // 10G, 25G, 40G, 50G, 100G (per lane when broken out)
	Breakout uint32 `yaml:"breakout,omitempty" json:"breakout,omitempty"` // 0/1 (none) or 4
	// FEC is the forward error correction: none, fc (Firecode, BASE-R)
	// or rs (Reed-Solomon). Default by speed (DefaultFEC): rs at 25G,
	// 50G and 100G, none at 10G and 40G.
	FEC FEC `yaml:"fec,omitempty" json:"fec,omitempty"`
	// Autoneg turns auto-negotiation on (default off).
	Autoneg *bool `yaml:"autoneg,omitempty" json:"autoneg,omitempty"`
	// MTU is the largest frame the port takes and sends, in bytes
	// (MinMTU..the platform's MaxMTU; default DefaultMTU).
	MTU uint32 `yaml:"mtu,omitempty" json:"mtu,omitempty"`
	// Enabled is the admin state (default true): false keeps the port
	// (every lane) administratively down.
	Enabled *bool `yaml:"enabled,omitempty" json:"enabled,omitempty"`
}

// Link is an operator link: a LAN port and a WAN port; what enters on one
// leaves on the other.
type Link struct {
	Name string `yaml:"name" json:"name"`
	// ID is the link id carried in the core header (0..63). When nil it is
	// the lowest id not used by another link, in list order.
	ID  *uint32 `yaml:"id,omitempty" json:"id,omitempty"`
	LAN string  `yaml:"lan" json:"lan"`
	WAN string  `yaml:"wan" json:"wan"`
	// IgnoreParity allows a LAN port with an odd number / WAN port with even.
	IgnoreParity bool `yaml:"ignore_parity,omitempty" json:"ignore_parity,omitempty"`
}

// FilterGroup is one DPI filter wired between a LAN port and a WAN port.
type FilterGroup struct {
	Name         string  `yaml:"name" json:"name"`
	ID           *uint32 `yaml:"id,omitempty" json:"id,omitempty"` // 0..63, as Link.ID
	LAN          string  `yaml:"lan" json:"lan"`
	WAN          string  `yaml:"wan" json:"wan"`
	Cores        uint32  `yaml:"cores,omitempty" json:"cores,omitempty"` // 1..1024; default Defaults.Cores
	IgnoreParity bool    `yaml:"ignore_parity,omitempty" json:"ignore_parity,omitempty"`
	// TPID overrides Defaults.CoreTPID for this filter's core header.
	TPID uint16 `yaml:"tpid,omitempty" json:"tpid,omitempty"`
}

// BalanceGroup is a set of filter groups sharing traffic by hash.
type BalanceGroup struct {
	Name    string   `yaml:"name" json:"name"`
	ID      *uint32  `yaml:"id,omitempty" json:"id,omitempty"` // 0..15, as Link.ID
	Members []string `yaml:"members" json:"members"`           // filter group names
	// Spares are filter groups on standby (N+1): they carry nothing while
	// the members are healthy; under failure action spare a healthy spare
	// takes a failed member's whole share (its slots, core for core) until
	// the member returns. A spare needs at least as many cores as every
	// member.
	Spares  []string `yaml:"spares,omitempty" json:"spares,omitempty"`
	Profile string   `yaml:"profile,omitempty" json:"profile,omitempty"` // default "default"
	// FailureAction overrides the profile's.
	FailureAction FailureAction `yaml:"failure_action,omitempty" json:"failure_action,omitempty"`
	SlotBits      uint32        `yaml:"slot_bits,omitempty" json:"slot_bits,omitempty"` // default Defaults.SlotBits
}

// FailureAction says what happens to a failed filter group's share.
type FailureAction string

const (
	FailBypass    FailureAction = "bypass"    // software bypass on the switch (default)
	FailDrop      FailureAction = "drop"      // drop: never pass uninspected traffic
	FailRebalance FailureAction = "rebalance" // deal the failed group's slots to survivors
	FailSpare     FailureAction = "spare"     // give the failed group's whole share to a healthy spare
)

// ProbeDirection says which way keep-alives cross a filter.
type ProbeDirection string

const (
	ProbeLANToWAN ProbeDirection = "lan-to-wan" // default
	ProbeBoth     ProbeDirection = "both"
)

// Profile is an availability profile: keep-alive parameters.
type Profile struct {
	Name              string         `yaml:"name" json:"name"`
	InitialDelay      Duration       `yaml:"initial_delay,omitempty" json:"initial_delay,omitempty"`           // default 1s
	Interval          Duration       `yaml:"interval,omitempty" json:"interval,omitempty"`                     // default 100ms
	LossThreshold     uint32         `yaml:"loss_threshold,omitempty" json:"loss_threshold,omitempty"`         // default 5
	RecoveryThreshold uint32         `yaml:"recovery_threshold,omitempty" json:"recovery_threshold,omitempty"` // default 5
	MinActive         uint32         `yaml:"min_active,omitempty" json:"min_active,omitempty"`                 // default 1
	FailureAction     FailureAction  `yaml:"failure_action,omitempty" json:"failure_action,omitempty"`         // default bypass
	Probe             ProbeDirection `yaml:"probe,omitempty" json:"probe,omitempty"`                           // default lan-to-wan
	// StallGuard: when most filters of a balance group lose keep-alives at
	// once with their ports up (or the balancer itself stalled), "hold"
	// suspects the balancer's keep-alive path and holds their state for up
	// to StallHold; "off" fails them over at loss_threshold regardless.
	StallGuard StallGuard `yaml:"stall_guard,omitempty" json:"stall_guard,omitempty"` // default hold
	StallHold  Duration   `yaml:"stall_hold,omitempty" json:"stall_hold,omitempty"`   // default 1s
	// Failback says how a failed filter returns to service once its
	// keep-alives pass again: "auto" returns it by the recovery rules,
	// "manual" keeps it out of service (recovered, waiting for return)
	// until an operator returns it.
	Failback Failback `yaml:"failback,omitempty" json:"failback,omitempty"` // default auto
	// Return says, with the session memory, which sessions a filter group
	// in software bypass (a failure, a fail-open or the operator put it
	// there) gets back when it returns: "all" (its share's held sessions
	// go back to it) or "new-sessions" (the sessions held while it was
	// bypassed stay in bypass until they idle out; only sessions first
	// seen after its return reach it).
	Return SessionReturn `yaml:"return,omitempty" json:"return,omitempty"` // default all
	// MinUpTime is how long a failed filter must pass keep-alives without
	// a loss, counted from the first keep-alive of the run, before it
	// returns (or, under manual failback, waits for return); 0: the
	// recovery_threshold alone.
	MinUpTime Duration `yaml:"min_up_time,omitempty" json:"min_up_time,omitempty"` // default 0
	// MaxRTT is the longest round trip a filter may take, by the data
	// plane's clock (a keep-alive's egress stamp to its return): RTTRounds
	// keep-alive rounds in a row over it take the filter out of service.
	// 0: no limit.
	MaxRTT    Duration `yaml:"max_rtt,omitempty" json:"max_rtt,omitempty"`       // default 0 (off)
	RTTRounds uint32   `yaml:"rtt_rounds,omitempty" json:"rtt_rounds,omitempty"` // default 3 when max_rtt is set
	// MaxLoss is the share of keep-alive rounds, in percent, a filter may
	// lose over the last LossWindow rounds: above it the filter is taken
	// out of service. 0: no limit.
	MaxLoss    float64 `yaml:"max_loss,omitempty" json:"max_loss,omitempty"`       // default 0 (off)
	LossWindow uint32  `yaml:"loss_window,omitempty" json:"loss_window,omitempty"` // default 100 when max_loss is set
	// ProbePayload (text) or ProbePayloadHex (bytes in hex) is what a
	// fail-open probe carries after its keep-alive header: a pattern the
	// filter must block. A healthy filter drops the probe; one that comes
	// back says the filter passes traffic uninspected (it failed open).
	// At most one of them; neither: no probes.
	ProbePayload    string `yaml:"probe_payload,omitempty" json:"probe_payload,omitempty"`
	ProbePayloadHex string `yaml:"probe_payload_hex,omitempty" json:"probe_payload_hex,omitempty"`
	// ProbeEvery: a probe goes with every ProbeEvery-th keep-alive round,
	// out of both sides of the filter.
	ProbeEvery uint32 `yaml:"probe_every,omitempty" json:"probe_every,omitempty"` // default 10 with a payload
	// FailOpenAction is what a filter that failed open gets: an alarm
	// alone (it stays in service), or it is taken out with bypass, drop
	// or rebalance.
	FailOpenAction FailOpenAction `yaml:"fail_open_action,omitempty" json:"fail_open_action,omitempty"` // default alarm with a payload
}

// FailOpenAction says what happens to a filter whose fail-open probes
// come back.
type FailOpenAction string

const (
	FailOpenAlarm     FailOpenAction = "alarm"     // raise the alarm, keep it in service (default)
	FailOpenBypass    FailOpenAction = "bypass"    // out of service, its share software-bypassed
	FailOpenDrop      FailOpenAction = "drop"      // out of service, its share dropped
	FailOpenRebalance FailOpenAction = "rebalance" // out of service, its share dealt to the others
	FailOpenSpare     FailOpenAction = "spare"     // out of service, its share given to a healthy spare
)

// FailOpenActions are the fail-open actions a profile takes, in order.
var FailOpenActions = []FailOpenAction{FailOpenAlarm, FailOpenBypass, FailOpenDrop, FailOpenRebalance, FailOpenSpare}

// Probes says whether the profile sends fail-open probes.
func (p Profile) Probes() bool { return p.ProbePayload != "" || p.ProbePayloadHex != "" }

// ProbeBytes is the payload of the profile's fail-open probes (nil:
// none). The hex form may separate bytes with spaces or colons.
func (p Profile) ProbeBytes() ([]byte, error) {
	if p.ProbePayloadHex != "" {
		h := strings.NewReplacer(" ", "", ":", "", "\n", "", "\t", "").Replace(p.ProbePayloadHex)
		return hex.DecodeString(h)
	}
	if p.ProbePayload != "" {
		return []byte(p.ProbePayload), nil
	}
	return nil, nil
}

// SessionReturn is which held sessions a filter group in software bypass
// gets back when it returns (Profile.Return).
type SessionReturn string

const (
	ReturnAll         SessionReturn = "all"          // default: every held session goes back
	ReturnNewSessions SessionReturn = "new-sessions" // the bypassed sessions stay in bypass
)

// Failback is how a recovered filter returns to service.
type Failback string

const (
	FailbackAuto   Failback = "auto"   // default: by the recovery rules
	FailbackManual Failback = "manual" // only when an operator returns it
)

// StallGuard is the policy for keep-alive losses that hit most of a
// balance group at once.
type StallGuard string

const (
	StallGuardHold StallGuard = "hold" // default
	StallGuardOff  StallGuard = "off"
)

// Duration is a time.Duration written as "100ms", "1s" in YAML.
type Duration time.Duration

// Rule is a prioritised flow rule bound to links.
type Rule struct {
	Name     string   `yaml:"name" json:"name"`
	Priority uint32   `yaml:"priority" json:"priority"`               // 1..65535, higher wins; unique
	Links    []string `yaml:"links,omitempty" json:"links,omitempty"` // empty or ["all"] = every link
	Match    Match    `yaml:"match,omitempty" json:"match"`
	// Action is "bypass" or "balance <balance group>".
	Action string `yaml:"action" json:"action"`
	// Not lists conditions whose match turns the packet into a bypass: the rule
	// reads "Match and not Not -> Action". Each Not entry becomes a
	// higher-priority bypass entry (Match and Not[i] -> bypass).
	Not []Match `yaml:"not,omitempty" json:"not,omitempty"`
}

// Match is the set of conditions of a rule; unset fields are wildcards.
type Match struct {
	VLAN      []Range  `yaml:"vlan,omitempty" json:"vlan,omitempty"`             // outer VID values/ranges, 1..4094
	InnerVLAN []Range  `yaml:"inner_vlan,omitempty" json:"inner_vlan,omitempty"` // second tag VID
	VLANDepth *uint32  `yaml:"vlan_depth,omitempty" json:"vlan_depth,omitempty"` // 0..3
	MPLSDepth *uint32  `yaml:"mpls_depth,omitempty" json:"mpls_depth,omitempty"` // 0..8
	SrcMAC    *MACMask `yaml:"src_mac,omitempty" json:"src_mac,omitempty"`
	DstMAC    *MACMask `yaml:"dst_mac,omitempty" json:"dst_mac,omitempty"`
	EtherType *uint16  `yaml:"ethertype,omitempty" json:"ethertype,omitempty"` // after VLAN tags
	Src       *Prefix  `yaml:"src,omitempty" json:"src,omitempty"`             // IPv4 or IPv6 prefix
	Dst       *Prefix  `yaml:"dst,omitempty" json:"dst,omitempty"`
	Proto     *IPProto `yaml:"proto,omitempty" json:"proto,omitempty"`   // IP protocol number; YAML may say tcp/udp/icmp/...
	L4Src     *Range   `yaml:"l4_src,omitempty" json:"l4_src,omitempty"` // port or range
	L4Dst     *Range   `yaml:"l4_dst,omitempty" json:"l4_dst,omitempty"`
	L4Port    *Range   `yaml:"l4_port,omitempty" json:"l4_port,omitempty"` // src OR dst: two entries
}
