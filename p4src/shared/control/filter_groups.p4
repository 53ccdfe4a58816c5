// FilterGroups: the state of the filter group a slot chose (or a keep-alive
// packet-out names). In service, the core header is inserted and the frame
// leaves by the group's port on the side it came from; in software bypass
// it goes to the peer port; in drop state it is dropped. filter_forward
// also carries the data-plane liveness parameters (control/verdict.p4;
// profile WITH_VERDICT): the epoch the controller last cleared a verdict
// at, the detection time in ticks and the failure action.
#ifndef BALANCER_CONTROL_FILTER_GROUPS_P4
#define BALANCER_CONTROL_FILTER_GROUPS_P4

control FilterGroups(inout headers_t hdr, inout local_md_t md) {
    @name(".BalancerIngress.filter_forward") @id(ID_ACTION_FILTER_FORWARD)
#ifdef WITH_VERDICT
    action filter_forward(port_t lan_port, port_t wan_port, bit<16> tpid,
                          epoch_t epoch, tick_t detect, bit<1> fail_drop) {
        md.epoch = epoch;
        md.detect = detect;
        md.fail_drop = fail_drop;
        md.fg_forward = true;
        // The sends concerned: this group, out of the side the frame
        // leaves by (a keep-alive packet-out's side is its direction).
        md.ev_index = md.target_fg ++ md.side;
        // The verdict digest's group, direction and epoch (sent only when
        // a verdict stands or is proven: control/verdict.p4).
        md.digest.filter_group = (bit<8>)md.target_fg;
        md.digest.direction = (bit<8>)md.side;
        md.digest.epoch = epoch;
        ARCH_FORWARD_VERDICT(epoch, detect)
#else
    // Without the verdict the action has no liveness parameters (the
    // controller learns that from the P4Info and leaves them out).
    action filter_forward(port_t lan_port, port_t wan_port, bit<16> tpid) {
#endif
        md.fg_lan_port = lan_port;
        md.fg_wan_port = wan_port;
        md.tpid = tpid;
        md.count_fg = true;
        md.fg_index = md.target_fg;
        md.count_link = true;
        md.link_kind = LINK_CNT_TO_FILTER;
        md.fg_kind = FG_CNT_TO_FILTER;
    }

    @name(".BalancerIngress.filter_sw_bypass") @id(ID_ACTION_FILTER_SW_BYPASS)
    action filter_sw_bypass() {
        BYPASS_TO_PEER(LINK_CNT_SW_BYPASS);
        md.count_fg = true;
        md.fg_index = md.target_fg;
        md.fg_kind = FG_CNT_SW_BYPASS;
    }

    @name(".BalancerIngress.filter_drop") @id(ID_ACTION_FILTER_DROP)
    action filter_drop() {
        DROP_PACKET(DROP_FILTER_GROUP);
        md.count_fg = false;
        md.fg_index = md.target_fg;
        md.count_link = true;
        md.link_kind = LINK_CNT_DROPPED;
    }

    @name(".BalancerIngress.filter_groups") @id(ID_TABLE_FILTER_GROUPS)
    table filter_groups {
        key = {
            md.target_fg : exact @name("filter_group");
        }
        actions = {
            filter_forward;
            filter_sw_bypass;
            filter_drop;
        }
        default_action = filter_sw_bypass();   // fail open
        size = FILTER_GROUP_TABLE_SIZE;
    }

    apply {
        // Every action sets the counting fields itself (no table of its
        // own before this one on Tofino). The table is applied once (BMv2
        // and Tofino want a table in one place of the control flow), for
        // data and for keep-alive packet-outs alike (WITH_VERDICT).
#ifdef WITH_VERDICT
        port_t named = md.out_port;
#endif
        // A keep-alive packet-out (WITH_VERDICT) takes only its group's
        // parameters and state: it leaves by the port the controller
        // named, uncounted, whatever the group's action. Undone in each
        // case (the cases exclude each other: on Tofino they share the
        // stage after the table).
        switch (filter_groups.apply().action_run) {
            filter_forward: {
#ifdef WITH_VERDICT
                md.ev_send = true;
                if (md.ka_send) {
                    md.count_fg = false;
                    md.count_link = false;
                } else
#endif
                {
                    hdr.core.setValid();
                    hdr.core.tpid = md.tpid;
                    hdr.core.link_id = md.link_id;
                    hdr.core.core_id = md.core;
                    if (md.side == SIDE_LAN) {
                        md.out_port = md.fg_lan_port;
                    } else {
                        md.out_port = md.fg_wan_port;
                    }
#ifdef WITH_VERDICT
                    md.ev_bucket = md.hash[20:16];
#endif
                }
            }
#ifdef WITH_VERDICT
            default: {
                if (md.ka_send) {
                    md.drop = false;
                    md.drop_reason = DROP_NONE;
                    md.count_fg = false;
                    md.count_link = false;
                    md.out_port = named;
                }
            }
#endif
        }
    }
}

#endif  // BALANCER_CONTROL_FILTER_GROUPS_P4
