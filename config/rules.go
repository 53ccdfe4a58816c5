package config

import (
	"fmt"
	"strings"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
)

// Flow rule table sizes (the P4Info's, through p4src).
const (
	FlowRulesCapacity   = p4src.FlowRulesSize   // IPv4 (and non-IP) flow_rules entries
	FlowRulesV6Capacity = p4src.FlowRulesV6Size // IPv6 flow_rules entries
)

// Model limits the data plane imposes (TestLimitsMatchP4Info checks them
// against the P4Info).
const (
	MaxLinks         = wire.MaxLink + 1 // link id is 6 bits in the core header
	MaxFilterGroups  = p4src.FilterGroupSize
	MaxBalanceGroups = p4src.BalanceGroupSize
	MaxCores         = wire.MaxCore + 1 // core id is 10 bits in the core header
	MaxSlotBits      = 16
	MaxPriority      = 65535
	MaxVLANDepth     = 3
	MaxMPLSDepth     = 8
)

// AllLinks in a rule's links list means every link (as an empty list does).
const AllLinks = "all"

// RuleAction is what a flow rule does with matching packets.
type RuleAction uint8

const (
	ActionBypass  RuleAction = iota // out of the peer port of the link
	ActionBalance                   // hash onto a balance group's filters
)

func (a RuleAction) String() string {
	switch a {
	case ActionBypass:
		return "bypass"
	case ActionBalance:
		return "balance"
	}
	return fmt.Sprintf("RuleAction(%d)", uint8(a))
}

// ParseAction reads the rule's action: "bypass", or "balance <group>"
// (group is the balance group's name). It does not check that the group
// exists; Validate does.
func (r Rule) ParseAction() (act RuleAction, group string, err error) {
	f := strings.Fields(r.Action)
	switch {
	case len(f) == 0:
		return 0, "", errorf(ErrBadAction, "missing; write \"bypass\" or \"balance <group>\"")
	case len(f) == 1 && f[0] == "bypass":
		return ActionBypass, "", nil
	case len(f) == 2 && f[0] == "balance":
		return ActionBalance, f[1], nil
	case len(f) == 1 && f[0] == "balance":
		return 0, "", errorf(ErrBadAction, "%q names no balance group; write \"balance <group>\"", r.Action)
	}
	return 0, "", errorf(ErrBadAction, "%q is not \"bypass\" or \"balance <group>\"", r.Action)
}

// AllLinks reports whether the rule applies to every link (links empty or
// ["all"]).
func (r Rule) AllLinks() bool {
	return len(r.Links) == 0 || (len(r.Links) == 1 && r.Links[0] == AllLinks)
}

// Tables reports which flow tables the rule is installed in: the IPv4 one
// unless its src/dst are IPv6, the IPv6 one unless they are IPv4. A rule
// without addresses is in both.
func (m Match) Tables() (v4, v6 bool) {
	v4, v6 = true, true
	for _, p := range []*Prefix{m.Src, m.Dst} {
		if p == nil || p.IsZero() {
			continue
		}
		if p.Is4() {
			v6 = false
		} else {
			v4 = false
		}
	}
	return v4, v6
}

// IsZero reports whether the match sets nothing (a catch-all).
func (m Match) IsZero() bool {
	return len(m.VLAN) == 0 && len(m.InnerVLAN) == 0 && m.VLANDepth == nil && m.MPLSDepth == nil &&
		m.SrcMAC == nil && m.DstMAC == nil && m.EtherType == nil && m.Src == nil && m.Dst == nil &&
		m.Proto == nil && m.L4Src == nil && m.L4Dst == nil && m.L4Port == nil
}

// IsZero reports whether the heartbeat entry sets nothing.
func (h HeartbeatMatch) IsZero() bool { return h.DstMAC == nil && h.EtherType == nil }
