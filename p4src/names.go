package p4src

// Names of the P4 objects the Go code uses (contract: identical in the
// v1model and TNA builds). TestSchemaContract checks each against the
// committed P4Info: kinds, widths and ids.
const (
	TablePortRole      = "BalancerIngress.port_role"
	TableHeartbeat     = "BalancerIngress.heartbeat"
	TableFlowRules     = "BalancerIngress.flow_rules"
	TableFlowRulesV6   = "BalancerIngress.flow_rules_v6"
	TableBalanceGroups = "BalancerIngress.balance_groups"
	TableSlots         = "BalancerIngress.slots"
	TableFilterGroups  = "BalancerIngress.filter_groups"
	TableLinks         = "BalancerIngress.links"

	ActionSetOperatorPort = "BalancerIngress.set_operator_port"
	ActionSetFilterPort   = "BalancerIngress.set_filter_port"
	ActionUnknownPort     = "BalancerIngress.unknown_port"
	ActionHeartbeatPass   = "BalancerIngress.heartbeat_pass"
	ActionNoHeartbeat     = "BalancerIngress.no_heartbeat"
	ActionBypass          = "BalancerIngress.bypass"
	ActionBalance         = "BalancerIngress.balance"
	ActionBypassV6        = "BalancerIngress.bypass_v6"
	ActionBalanceV6       = "BalancerIngress.balance_v6"
	ActionGroupActive     = "BalancerIngress.group_active"
	ActionGroupBypass     = "BalancerIngress.group_bypass"
	ActionGroupDrop       = "BalancerIngress.group_drop"
	ActionToFilter        = "BalancerIngress.to_filter"
	ActionSlotMiss        = "BalancerIngress.slot_miss"
	ActionFilterForward   = "BalancerIngress.filter_forward"
	ActionFilterSWBypass  = "BalancerIngress.filter_sw_bypass"
	ActionFilterDrop      = "BalancerIngress.filter_drop"
	ActionSetLink         = "BalancerIngress.set_link"
	ActionUnknownLink     = "BalancerIngress.unknown_link"

	CounterPortRx      = "BalancerIngress.port_rx"
	CounterPortTx      = "BalancerEgress.port_tx"
	CounterLink        = "BalancerIngress.link_counters"
	CounterFilterGroup = "BalancerIngress.filter_group_counters"
	CounterDrop        = "BalancerIngress.drop_counters"
	DirectFlowRules    = "BalancerIngress.flow_rules_counter"
	DirectFlowRulesV6  = "BalancerIngress.flow_rules_v6_counter"
	CounterCore        = "BalancerIngress.core_counters"
	ValueSetCoreTPID   = "IngressParser.core_tpid"
	ValueSetKeepAlive  = "IngressParser.keepalive_ethertype"
	ValueSetCPUPort    = "IngressParser.cpu_port"
	TableSwitchInfo    = "BalancerIngress.switch_info"
	ActionSwitchInfo   = "BalancerIngress.set_switch_info"
	ParamCPUPort       = "cpu_port"
	HeaderPacketIn     = "packet_in"
	HeaderPacketOut    = "packet_out"
)

// Link counter kinds: BalancerIngress.link_counters index = link_id<<3 | kind.
const (
	LinkCntToFilter = iota
	LinkCntRuleBypass
	LinkCntNonIPBypass
	LinkCntSWBypass
	LinkCntReturned
	LinkCntHeartbeat
	LinkCntGroupBypass
	LinkCntDropped
	LinkCntKinds
)

// Filter group counter kinds: index = filter_group<<2 | kind.
const (
	FGCntToFilter = iota
	FGCntReturned
	FGCntKeepAlive
	FGCntSWBypass
	FGCntKinds
)

// LinkCounterIndex is the link_counters index of a link's counter of one
// kind (LinkCnt*): link_id<<3 | kind, as the P4 program computes it.
func LinkCounterIndex(link, kind uint32) uint32 { return link<<3 | kind }

// FilterGroupCounterIndex is the filter_group_counters index of a filter
// group's counter of one kind (FGCnt*): filter_group<<2 | kind.
func FilterGroupCounterIndex(fg, kind uint32) uint32 { return fg<<2 | kind }

// CoreCounterCores is how many cores each filter group has cells for in
// core_counters: every 10-bit core id of the core header.
const CoreCounterCores = 1 << 10

// CoreCounterSize is the size of core_counters: every filter group x every
// core id.
const CoreCounterSize = FilterGroupSize * CoreCounterCores

// CoreCounterIndex is the core_counters index of a filter core:
// filter_group<<10 | core, as the P4 program computes it
// (filter_group ++ core). CoreCounterTarget is its inverse.
func CoreCounterIndex(fg, core uint32) uint32 { return fg<<10 | core&(CoreCounterCores-1) }

// CoreCounterTarget is the filter group and core of a core_counters index
// (the inverse of CoreCounterIndex); ok is false for an index outside the
// counter.
func CoreCounterTarget(index int64) (fg, core uint32, ok bool) {
	if index < 0 || index >= CoreCounterSize {
		return 0, 0, false
	}
	return uint32(index >> 10), uint32(index & (CoreCounterCores - 1)), true
}

// Drop reasons: BalancerIngress.drop_counters index (DROP_* in p4src/shared/defines.p4).
const (
	DropNone = iota
	DropUnknownPort
	DropUnknownLinkID
	DropNoCoreHeader
	DropFilterGroup
	DropBalanceGroup
	// DropMalformed: a frame the parser could not read to the end of its
	// headers (parser error), or an IPv4 header with IHL < 5.
	DropMalformed
	// DropVerdict: a standing data-plane verdict whose failure action is
	// drop (verdict.go).
	DropVerdict
	// DropReasons is one past the last drop reason.
	DropReasons
)

// dropReasonNames are the drop reasons as the operator reads them.
var dropReasonNames = [DropReasons]string{
	DropNone:          "none",
	DropUnknownPort:   "unknown port",
	DropUnknownLinkID: "unknown link id",
	DropNoCoreHeader:  "no core header from a filter",
	DropFilterGroup:   "filter group drop",
	DropBalanceGroup:  "balance group drop",
	DropMalformed:     "malformed frame",
	DropVerdict:       "data-plane verdict drop",
}

// DropReasonName names a drop reason (an index of drop_counters); "" for
// an index that is none.
func DropReasonName(reason int64) string {
	if reason < 0 || reason >= DropReasons {
		return ""
	}
	return dropReasonNames[reason]
}

// Sizes (p4src/shared/sizes.p4, v1model build). The wire formats are in
// package wire.
const (
	PortRoleSize     = 512
	HeartbeatSize    = 16
	FlowRulesSize    = 4096
	FlowRulesV6Size  = 1024
	LinkTableSize    = 64
	FilterGroupSize  = 64
	BalanceGroupSize = 16
	SlotsSizeBMv2    = 16384
	SlotsSizeTofino  = 131072
)

// The compiled-in CPU port (CPU_PORT in v1model/include/arch.p4 and
// tna/include/arch.p4): BMv2's usual --cpu-port, and the PCIe CPU port of a
// two-pipe Tofino (Wedge100BF-32X). A program with the run-time setting
// (Schema.HasCPUPortSetting) takes the switch's own from the controller
// and still recognises this one.
const (
	CPUPortBMv2   = 255
	CPUPortTofino = 192
)
