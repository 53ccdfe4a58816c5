// Types and constants shared by the v1model and TNA builds of the balancer.
// Numbers marked "contract" appear on the wire or in P4Runtime and must not
// change without a note in docs/dataplane.md.
#ifndef BALANCER_DEFINES_P4
#define BALANCER_DEFINES_P4

typedef bit<48>  mac_addr_t;
typedef bit<32>  ipv4_addr_t;
typedef bit<128> ipv6_addr_t;
typedef bit<9>   port_t;        // data-plane port number (v1model and TNA)
typedef bit<6>   link_id_t;     // contract: core header link_id
typedef bit<10>  core_id_t;     // contract: core header core_id
typedef bit<6>   fg_id_t;       // filter group id
typedef bit<4>   bg_id_t;       // balance group id
typedef bit<16>  slot_t;        // hash slot (up to 16 slot bits)
typedef bit<48>  timestamp_t;
typedef bit<1>   side_t;
typedef bit<8>   epoch_t;       // contract: filter_forward.epoch, verdict digest
typedef bit<32>  tick_t;        // a 32-bit slice of the target clock (docs/dataplane.md)

typedef bit<2> port_type_t;
const port_type_t PORT_TYPE_UNKNOWN  = 0;  // no port_role entry
const port_type_t PORT_TYPE_OPERATOR = 1;  // set_operator_port
const port_type_t PORT_TYPE_FILTER   = 2;  // set_filter_port

const side_t SIDE_LAN = 0;
@noWarn("unused")
const side_t SIDE_WAN = 1;

const bit<16> ETHERTYPE_IPV4       = 0x0800;
const bit<16> ETHERTYPE_IPV6       = 0x86DD;
const bit<16> ETHERTYPE_VLAN       = 0x8100;
const bit<16> ETHERTYPE_QINQ       = 0x88A8;
const bit<16> ETHERTYPE_QINQ_OLD   = 0x9100;
const bit<16> ETHERTYPE_MPLS       = 0x8847;
const bit<16> ETHERTYPE_MPLS_MC    = 0x8848;
const bit<16> ETHERTYPE_PPPOE_SESS = 0x8864;

const bit<16> PPP_IPV4 = 0x0021;
const bit<16> PPP_IPV6 = 0x0057;

// Contract: default core header TPID and keep-alive EtherType, parsed
// even when the value sets are empty.
const bit<16> DEFAULT_CORE_TPID           = 0x88B5;
const bit<16> DEFAULT_KEEPALIVE_ETHERTYPE = 0x88B6;

const bit<8> IP_PROTO_TCP = 6;
const bit<8> IP_PROTO_UDP = 17;

// Contract: packet-in reasons (packet_in.reason).
const bit<8> PACKET_IN_REASON_KEEPALIVE = 1;
// Contract: packet-out flags (packet_out.flags).
const bit<8> PACKET_OUT_FLAG_KEEPALIVE = 0x01;  // egress writes the tx timestamp

// Contract: BalancerIngress.link_counters index = link_id ++ kind (3 bits).
typedef bit<3> link_cnt_kind_t;
const link_cnt_kind_t LINK_CNT_TO_FILTER    = 0;  // balanced towards a filter
const link_cnt_kind_t LINK_CNT_RULE_BYPASS  = 1;  // a flow rule (or the default) said bypass
const link_cnt_kind_t LINK_CNT_NONIP_BYPASS = 2;  // balance asked, but not IP (or already tagged)
const link_cnt_kind_t LINK_CNT_SW_BYPASS    = 3;  // filter group in software bypass
const link_cnt_kind_t LINK_CNT_RETURNED     = 4;  // came back from a filter, left by the link
const link_cnt_kind_t LINK_CNT_HEARTBEAT    = 5;  // bypass-unit heartbeat passed through
const link_cnt_kind_t LINK_CNT_GROUP_BYPASS = 6;  // balance group in bypass, or slot not programmed
const link_cnt_kind_t LINK_CNT_DROPPED      = 7;  // dropped by a drop failure action

// Contract: BalancerIngress.filter_group_counters index = filter_group ++ kind (2 bits).
typedef bit<2> fg_cnt_kind_t;
const fg_cnt_kind_t FG_CNT_TO_FILTER = 0;
const fg_cnt_kind_t FG_CNT_RETURNED  = 1;
const fg_cnt_kind_t FG_CNT_KEEPALIVE = 2;
const fg_cnt_kind_t FG_CNT_SW_BYPASS = 3;

// Contract: BalancerIngress.core_counters index = filter_group ++ core (16 bits):
// every packet a slot sends towards a filter core, whatever the filter
// group's state then does with it.

// Contract: BalancerIngress.drop_counters index.
typedef bit<4> drop_reason_t;
const drop_reason_t DROP_NONE             = 0;
const drop_reason_t DROP_UNKNOWN_PORT     = 1;  // no port_role entry
const drop_reason_t DROP_UNKNOWN_LINK_ID  = 2;  // core header names a link with no links entry
const drop_reason_t DROP_NO_CORE_HEADER   = 3;  // a filter returned a frame without our header
const drop_reason_t DROP_FILTER_GROUP     = 4;  // filter group state is drop
const drop_reason_t DROP_BALANCE_GROUP    = 5;  // balance group state is drop
const drop_reason_t DROP_MALFORMED        = 6;  // parser error (frame ends inside a header) or IPv4 IHL < 5
const drop_reason_t DROP_VERDICT          = 7;  // data-plane verdict standing, failure action drop

// Contract: BalancerIngress.verdict_counters index = filter_group ++ action (1 bit):
// frames given the failure action of a standing data-plane verdict.
typedef bit<1> verdict_cnt_kind_t;
const verdict_cnt_kind_t VERDICT_CNT_BYPASS = 0;
const verdict_cnt_kind_t VERDICT_CNT_DROP   = 1;

// Contract: filter_forward.fail_drop: the failure action of a verdict.
const bit<1> FAIL_BYPASS = 0;
const bit<1> FAIL_DROP   = 1;

// Contract: verdict_digest_t.reason.
const bit<8> VERDICT_REASON_STANDING  = 0;  // a repeat: the verdict stands (age 0)
const bit<8> VERDICT_REASON_KEEPALIVE = 1;  // a keep-alive unanswered for longer than detect
const bit<8> VERDICT_REASON_DATA      = 2;  // data of many sessions unanswered for longer than detect
// A verdict register cell is VERDICT_SET | epoch; 0 (the reset value) is
// no verdict. The verdict stands while the cell equals VERDICT_SET | the
// entry's epoch.
const bit<16> VERDICT_SET = 0x8000;

// Loss proven by data alone needs unanswered sends from at least this many
// of the 32 session buckets (hash bits 20:16) since the oldest unanswered
// send (docs/availability.md, "Evidence rule").
const bit<8> VERDICT_MIN_BUCKETS = 8;

#endif  // BALANCER_DEFINES_P4
