// The balancer's ingress pipeline, shared by both architectures. Each
// architecture's arch.p4 defines the macros used here:
//   INGRESS_ARCH_PARAMS        the architecture's extra ingress parameters
//   ARCH_INGRESS_PORT          ingress port expression (port_t)
//   ARCH_INGRESS_TS            ingress timestamp expression (timestamp_t)
//   ARCH_INGRESS_TICK          a 32-bit slice of the ingress clock (tick_t),
//                              the unit of filter_forward.detect
//   ARCH_PARSER_ERROR          true when the parser stopped on an error
//   ARCH_INGRESS_BRANCH        an `else if` branch of the architecture's own
//                              frames, tested right after a packet-out
//                              (empty but on TNA with the verdict: the
//                              evidence copy from the other pipe)
//   ARCH_INGRESS_FINISH        statements that apply md.drop/to_cpu/out_port
//                              (to_cpu: out of md.cpu_port)
//   DIRECT_COUNTER(name)       a packets-and-bytes direct counter
//   INDEXED_COUNTER(name, n)   a packets-and-bytes indexed counter of n cells
//   LARGE_INDEXED_COUNTER(name, n)  the same, for counters of many cells
//   SYM_HASH_DECL              declarations for SYM_HASH
//   SYM_HASH(dst, fields...)   CRC-32/ISO-HDLC of the fields into dst (bit<32>)
//   FOLD128_DECL(unit), FOLD128(unit, dst, addr)  XOR-fold of a 128-bit address
//
// The ingress is split into controls by concern (control/*.p4), applied in
// this order: PortRole (every frame but a packet-out), PacketKeys (lookup
// keys, address folds); then a malformed frame is dropped, and on an
// operator port Heartbeat, FlowRules, SessionHash, Balancing and
// FilterGroups run, on a filter port FilterReturn (a keep-alive packet-out
// runs FilterGroups too, for its group's liveness parameters); then the
// architecture's Verdict (include/control/verdict.p4: the liveness
// evidence and the data-plane verdict, whose failure action is applied
// here; profile WITH_VERDICT only, see below); last Statistics. The
// order is the Tofino stage plan (docs/tofino.md): a table runs no earlier
// than the one before it. They talk through local_md_t only.
// Every table, action and counter keeps its P4Runtime name
// (BalancerIngress.<name>, by an absolute @name) and its @id, so both
// P4Infos stay as the control plane knows them (contract).
#ifndef BALANCER_INGRESS_P4
#define BALANCER_INGRESS_P4

// Profiles (compile-time, as -D flags): WITH_VERDICT builds the data-plane
// verdict (the pipeline proves a filter dead and applies its failure
// action itself; docs/availability.md). The v1model build always has it;
// the TNA build has a profile without it (the one that fits Tofino 1) and
// one with it (docs/tofino.md, "Profiles"). Without it the liveness
// parameters of filter_forward are taken and ignored, keep-alive
// packet-outs do not look up their group, and the P4Info has no verdict
// digest, registers or verdict counter: the controller judges alone.

// Decisions several controls take, as statements on md (not actions with a
// struct parameter: p4c's BMv2 back end copies such a parameter into
// temporaries that BMv2 cannot resolve).
#define BYPASS_TO_PEER(kind) {        \
    md.out_port = md.peer_port;       \
    md.count_link = true;             \
    md.link_kind = (kind);            \
}
#define DROP_PACKET(reason) {         \
    md.drop = true;                   \
    md.drop_reason = (reason);        \
}

#include "control/keys.p4"
#include "control/port_role.p4"
#include "control/heartbeat.p4"
#include "control/flow_rules.p4"
#include "control/balancing.p4"
#include "control/filter_groups.p4"
#include "control/filter_return.p4"
#include "control/statistics.p4"

control BalancerIngress(inout headers_t hdr, inout local_md_t md, INGRESS_ARCH_PARAMS) {
    PacketKeys()   packet_keys;
    SessionHash()  session_hash;
    PortRole()     port_role_ctl;
    Heartbeat()    heartbeat_ctl;
    FlowRules()    flow_rules_ctl;
    Balancing()    balancing_ctl;
    FilterGroups() filter_groups_ctl;
    FilterReturn() filter_return_ctl;
#ifdef WITH_VERDICT
    Verdict()      verdict_ctl;
    ARCH_EVIDENCE_DECL
#endif
    Statistics()   statistics_ctl;

    // The port packet-ins leave by: the switch's CPU port, a run-time
    // setting (192 or 320 on a Tofino by its pipe count, BMv2's
    // --cpu-port) the controller writes as the default action; the
    // compiled-in CPU_PORT until it does.
    @name(".BalancerIngress.set_switch_info") @id(ID_ACTION_SET_SWITCH_INFO)
    action set_switch_info(port_t cpu_port) {
        md.cpu_port = cpu_port;
    }

    @name(".BalancerIngress.switch_info") @id(ID_TABLE_SWITCH_INFO)
    table switch_info {
        actions = {
            @defaultonly set_switch_info;
        }
        default_action = set_switch_info(CPU_PORT);
        size = 1;
    }

    apply {
        md.ingress_port = ARCH_INGRESS_PORT;
        md.ingress_ts = ARCH_INGRESS_TS;
        md.port_type = PORT_TYPE_UNKNOWN;
        md.drop = false;
        md.to_cpu = false;
        md.ka_stamp = false;
        md.drop_reason = DROP_NONE;
        md.count_link = false;
        md.count_fg = false;
        md.heartbeat = false;
        md.balance = false;
        md.slot_hit = false;
#ifdef WITH_SESSIONS
        md.session_hit = false;
        md.learn = false;
#endif
        md.count_rx = false;

        md.malformed = false;
#ifdef WITH_VERDICT
        md.now = ARCH_INGRESS_TICK;
        md.fg_forward = false;
        md.ka_send = false;
        md.ev_send = false;
        md.ev_return = false;
        md.ev_index = 0;
        md.ev_bucket = 0;
        md.target_fg = 0;
        md.epoch = 0;
        md.detect = 0;
        md.fail_drop = 0;
        md.verdict_now = false;
        md.digest.reason = VERDICT_REASON_STANDING;
        md.digest.age = 0;
        md.verdict_hit = false;
        md.count_verdict = false;
        md.verdict_kind = VERDICT_CNT_BYPASS;
        md.send_digest = false;
#endif
#ifdef TESTGEN_NO_SWITCH_INFO
        // P4Testgen (p4c 1.2.5.16) drops every path at a keyless table
        // whose action is default-only with a parameter: the test
        // generator's build takes the table's default action in place
        // (make p4-testgen; docs/testgen.md).
        md.cpu_port = CPU_PORT;
#else
        switch_info.apply();
#endif

        // Order matters on Tofino, where a table runs in the same stage as
        // the one before it at the earliest: the port role first, the
        // session hash after the flow-rule lookup, beside it.
        if (!hdr.packet_out.isValid()) {
            port_role_ctl.apply(md);
        }
        packet_keys.apply(hdr, md);

        if (hdr.packet_out.isValid()) {
            // From the controller: out of the port it names, as given.
            md.out_port = hdr.packet_out.egress_port;
            if ((hdr.packet_out.flags & PACKET_OUT_FLAG_KEEPALIVE) != 0) {
                md.ka_stamp = true;
#ifdef WITH_VERDICT
                // A keep-alive naming a filter group is a send of that
                // group (out of the side its direction says).
                if (hdr.keepalive.isValid() && hdr.keepalive.filter_group[15:6] == 0) {
                    md.ka_send = true;
                    md.target_fg = hdr.keepalive.filter_group[5:0];
                    md.side = hdr.keepalive.direction[0:0];
                    md.slot_hit = true;
                }
#endif
            }
            hdr.packet_out.setInvalid();
        } ARCH_INGRESS_BRANCH else if (ARCH_PARSER_ERROR || (hdr.ipv4.isValid() && hdr.ipv4.ihl < 5)) {
            // Tested here on the parser's own results, not through a flag:
            // on Tofino the port-role lookup then runs in the first stage.
            md.malformed = true;
            // A frame the parser could not read to the end of its headers
            // (or an IPv4 header shorter than 20 bytes): no rule can be
            // evaluated on it and no filter would be given what it
            // expects, so it is neither balanced nor bypassed uninspected:
            // dropped and counted (docs/dataplane.md, "Malformed frames").
            md.count_rx = true;
            DROP_PACKET(DROP_MALFORMED);
        } else {
            md.count_rx = true;
            if (md.port_type == PORT_TYPE_OPERATOR) {
                heartbeat_ctl.apply(hdr, md);
                if (!md.heartbeat) {
                    flow_rules_ctl.apply(hdr, md);
                    session_hash.apply(md);
                    balancing_ctl.apply(hdr, md);
                }
            } else if (md.port_type == PORT_TYPE_FILTER) {
                filter_return_ctl.apply(hdr, md);
            }
        }

        // md.slot_hit: a slot chose a filter group, or a keep-alive
        // packet-out names one. Tested as the slots' action and the
        // packet-out branch wrote it (not through a copy): on Tofino the
        // filter group is then looked up in the stage after the slots.
        if (md.slot_hit) {
            filter_groups_ctl.apply(hdr, md);
        }
#ifdef WITH_VERDICT
        verdict_ctl.apply(hdr, md ARCH_VERDICT_ARGS);
        if (md.verdict_hit) {
            // A standing data-plane verdict: the group's failure action
            // (a keep-alive still leaves, and keeps the evidence going),
            // and a digest so the controller learns of it.
            // The digest's group, direction and epoch were written by
            // filter_forward; its reason and age by the verdict control
            // when this frame proved the loss (VERDICT_REASON_STANDING
            // and 0 on a standing verdict).
            md.send_digest = true;
            if (!md.ka_send) {
                hdr.core.setInvalid();
                md.count_verdict = true;
                if (md.fail_drop == FAIL_DROP) {
                    DROP_PACKET(DROP_VERDICT);
                    md.count_fg = false;
                    md.count_link = true;
                    md.link_kind = LINK_CNT_DROPPED;
                    md.verdict_kind = VERDICT_CNT_DROP;
                } else {
                    BYPASS_TO_PEER(LINK_CNT_SW_BYPASS);
                    md.fg_kind = FG_CNT_SW_BYPASS;
                    md.verdict_kind = VERDICT_CNT_BYPASS;
                }
            }
        }
        ARCH_EVIDENCE_APPLY
#endif

        statistics_ctl.apply(md);

        ARCH_INGRESS_FINISH
    }
}

#endif  // BALANCER_INGRESS_P4
