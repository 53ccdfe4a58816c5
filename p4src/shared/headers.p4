// Headers and metadata shared by both architectures.
//
// Layer 2 is modelled tag by tag: ethernet_t holds only the two MAC
// addresses; every following 16-bit type field belongs to the header it
// announces (core_t, vlan_t) and the final EtherType is eth_type_t. This is
// what lets the core header be inserted right after the source MAC (the
// outermost tag position, contract) without touching any VLAN/MPLS byte.
#ifndef BALANCER_HEADERS_P4
#define BALANCER_HEADERS_P4

#include "defines.p4"

#define MAX_VLAN_TAGS   3
#define MAX_MPLS_LABELS 8
#define MAX_IPV4_OPTION_WORDS 10   // IHL 15

// Contract: controller header sent with every packet-in.
@controller_header("packet_in")
header packet_in_t {
    port_t      ingress_port;
    @padding bit<7> _pad0;
    bit<8>      reason;        // PACKET_IN_REASON_*
    timestamp_t rx_timestamp;  // ingress timestamp (target clock, see docs)
}

// Contract: controller header expected on every packet-out.
@controller_header("packet_out")
header packet_out_t {
    port_t egress_port;
    @padding bit<7> _pad0;
    bit<8> flags;              // PACKET_OUT_FLAG_*
}

header ethernet_t {
    mac_addr_t dst_addr;
    mac_addr_t src_addr;
}

// Contract: the 4-byte core header, right after the source MAC.
header core_t {
    bit<16>   tpid;      // runtime-configurable, default 0x88B5
    link_id_t link_id;
    core_id_t core_id;
}

header vlan_t {
    bit<16> tpid;        // 0x8100, 0x88A8 or 0x9100
    bit<3>  pcp;
    bit<1>  dei;
    bit<12> vid;
}

header eth_type_t {
    bit<16> value;
}

header mpls_t {
    bit<20> label;
    bit<3>  tc;
    bit<1>  bos;
    bit<8>  ttl;
}

header pppoe_t {
    bit<4>  version;
    bit<4>  type;
    bit<8>  code;
    bit<16> session_id;
    bit<16> length;
    bit<16> protocol;    // PPP protocol
}

header ipv4_t {
    bit<4>      version;
    bit<4>      ihl;
    bit<8>      dscp_ecn;
    bit<16>     total_len;
    bit<16>     identification;
    bit<3>      flags;
    bit<13>     frag_offset;
    bit<8>      ttl;
    bit<8>      protocol;
    bit<16>     hdr_checksum;
    ipv4_addr_t src_addr;
    ipv4_addr_t dst_addr;
}

// One 32-bit word of IPv4 options. The options (IHL 6..15: 1..10 words)
// are extracted as a stack of fixed-size words, not as a varbit, so the
// parser is fixed-size extracts only (Tofino parses varbits poorly).
header ipv4_option_word_t {
    bit<32> data;
}

header ipv6_t {
    bit<4>      version;
    bit<8>      traffic_class;
    bit<20>     flow_label;
    bit<16>     payload_len;
    bit<8>      next_hdr;
    bit<8>      hop_limit;
    ipv6_addr_t src_addr;
    ipv6_addr_t dst_addr;
}

header tcp_t {
    bit<16> src_port;
    bit<16> dst_port;
    bit<32> seq_no;
    bit<32> ack_no;
    bit<4>  data_offset;
    bit<4>  res;
    bit<8>  flags;
    bit<16> window;
    bit<16> checksum;
    bit<16> urgent_ptr;
}

header udp_t {
    bit<16> src_port;
    bit<16> dst_port;
    bit<16> length;
    bit<16> checksum;
}

// Contract: keep-alive payload, after the keep-alive EtherType. The frame is
// padded to 60 bytes (64 with FCS) by the sender.
header keepalive_t {
    bit<32> magic;         // 0x424C4B41 "BLKA"
    bit<8>  version;       // 1
    bit<8>  direction;     // 0 = LAN->WAN, 1 = WAN->LAN
    bit<16> filter_group;
    bit<32> seq;
    bit<64> tx_timestamp;  // written by the egress pipeline
}

// Contract: the digest the pipeline sends for every data-plane verdict
// (P4Runtime DigestList), when loss is proven and again on every frame a
// standing verdict gives the failure action (age 0 then).
struct verdict_digest_t {
    bit<8>  filter_group;
    bit<8>  direction;     // the side the unanswered sends left by: 0 LAN, 1 WAN
    bit<8>  epoch;         // the filter_forward epoch the verdict holds for
    bit<8>  reason;        // VERDICT_REASON_*
    bit<32> age;           // ticks the oldest unanswered send waited; 0 on a repeat
}

// TNA only: ingress -> egress bridged metadata (never leaves the switch).
header bridged_md_t {
    @padding bit<6> _pad0;
    bit<1> to_cpu;
    bit<1> ka_stamp;
}

// An architecture's own headers (arch.p4): none but on TNA with the
// verdict, where a return's evidence copy crosses to the other pipe.
#ifndef ARCH_HEADERS
#define ARCH_HEADERS
#endif

#ifdef WITH_SESSIONS
// The digest of a balanced session the sessions table does not hold yet
// (docs/sessions.md): the controller inserts it, keeping the filter group
// and core the slot gave it.
struct session_digest_t {
    bit<32>   addr_lo;     // the session's addresses (IPv6 folded), ordered
    bit<32>   addr_hi;
    bit<8>    proto;
    bg_id_t   balance_group;
    fg_id_t   filter_group;
    core_id_t core;
}
#endif

struct headers_t {
    ARCH_HEADERS
    bridged_md_t   bridged;
    packet_out_t   packet_out;
    packet_in_t    packet_in;
    ethernet_t     ethernet;
    core_t         core;
    vlan_t[MAX_VLAN_TAGS] vlan;
    eth_type_t     eth_type;
    mpls_t[MAX_MPLS_LABELS] mpls;
    pppoe_t        pppoe;
    ipv4_t         ipv4;
    ipv4_option_word_t[MAX_IPV4_OPTION_WORDS] ipv4_options;
    ipv6_t         ipv6;
    tcp_t          tcp;
    udp_t          udp;
    keepalive_t    keepalive;
}

struct local_md_t {
    // From the architecture.
    port_t      ingress_port;
    timestamp_t ingress_ts;

    // Parser results (the depths and malformed are set in ingress).
    bool    malformed;     // parser error, or IPv4 IHL < 5
    bit<2>  vlan_depth;
    bit<4>  mpls_depth;    // 8 means 8 or more
    bit<16> eth_type;      // EtherType after the VLAN tags

    // Port role.
    port_type_t port_type;
    side_t    side;
    link_id_t link_id;
    port_t    peer_port;
    fg_id_t   filter_group;

    // Lookup keys derived from headers (zero when absent).
    bit<12>     outer_vid;
    bit<12>     inner_vid;
    bit<1>      is_ipv4;
    ipv4_addr_t ipv4_src;
    ipv4_addr_t ipv4_dst;
    bit<8>      ip_proto;
    bit<16>     l4_src;
    bit<16>     l4_dst;

    // Heartbeat, flow rules, balancing.
    bool    heartbeat;
    bool    balance;
    bg_id_t balance_group;
    bit<32> hash;
    bit<32> addr_x;        // hash input: IPv4 source or folded IPv6 source
    bit<32> addr_y;        // hash input: IPv4 or folded IPv6 destination
    slot_t  slot_mask;
    slot_t  slot;
    bool    slot_hit;      // filter_groups runs: a slot hit, or a keep-alive packet-out naming its group
    fg_id_t target_fg;
    core_id_t core;
    port_t  fg_lan_port;
    port_t  fg_wan_port;
    bit<16> tpid;
    port_t  link_lan_port;
    port_t  link_wan_port;

    // Decision.
    bool            count_rx;
    port_t          out_port;
    bool            drop;
    bool            to_cpu;
    port_t          cpu_port;      // the packet-in port (switch_info table)
    bool            ka_stamp;
    drop_reason_t   drop_reason;
    bool            count_link;
    link_cnt_kind_t link_kind;
    bool            count_fg;
    fg_id_t         fg_index;
    fg_cnt_kind_t   fg_kind;

    // Data-plane liveness (control/verdict.p4).
    tick_t  now;           // ARCH_INGRESS_TICK
    epoch_t epoch;         // filter_forward's parameters
    tick_t  detect;
    bit<1>  fail_drop;
    bool    fg_forward;    // filter_groups ran filter_forward
    bool    ka_send;       // a keep-alive packet-out (names its group and direction)
    bool    ev_send;       // a send to record: data to a filter, or a keep-alive
    bool    ev_return;     // evidence of life: a return on the opposite side
    bit<7>  ev_index;      // filter_group ++ direction of the sends concerned
    bit<5>  ev_bucket;     // session bucket of a data send: hash[20:16]
    bool    verdict_now;   // loss proven by this packet
    bool    verdict_hit;   // a standing verdict: the failure action
    bool    count_verdict;
    verdict_cnt_kind_t verdict_kind;
    bool    send_digest;
    verdict_digest_t digest;
    ARCH_VERDICT_MD        // the architecture's own verdict fields (arch.p4)
#ifdef WITH_SESSIONS
    // The session memory (control/balancing.p4).
    bit<32>   sess_lo;     // the ordered addresses the hash was made of
    bit<32>   sess_hi;
    bool      session_hit; // the sessions table holds the session
    fg_id_t   sess_fg;     // its filter group and core
    core_id_t sess_core;
    bool      learn;       // a balanced session the table lacks: digest it
#endif
}

#endif  // BALANCER_HEADERS_P4
