// The balancer's ingress pipeline, shared by both architectures. Each
// architecture's arch.p4 defines the macros used here:
//   INGRESS_ARCH_PARAMS        the architecture's extra ingress parameters
//   ARCH_INGRESS_PORT          ingress port expression (port_t)
//   ARCH_INGRESS_TS            ingress timestamp expression (timestamp_t)
//   ARCH_INGRESS_FINISH        statements that apply md.drop/to_cpu/out_port
//   DIRECT_COUNTER(name)       a packets-and-bytes direct counter
//   INDEXED_COUNTER(name, n)   a packets-and-bytes indexed counter of n cells
//   SYM_HASH_DECL              declarations for SYM_HASH
//   SYM_HASH(dst, fields...)   CRC-32/ISO-HDLC of the fields into dst (bit<32>)
// Because the same text is compiled for both, every table, action, key and
// counter has the same name and @id in both P4Infos (contract).
#ifndef BALANCER_INGRESS_P4
#define BALANCER_INGRESS_P4

control BalancerIngress(inout headers_t hdr, inout local_md_t md, INGRESS_ARCH_PARAMS) {

    @id(ID_COUNTER_PORT_RX)
    INDEXED_COUNTER(port_rx, PORT_COUNTER_SIZE);
    @id(ID_COUNTER_LINK)
    INDEXED_COUNTER(link_counters, LINK_COUNTER_SIZE);
    @id(ID_COUNTER_FILTER_GROUP)
    INDEXED_COUNTER(filter_group_counters, FILTER_GROUP_COUNTER_SIZE);
    @id(ID_COUNTER_DROP)
    INDEXED_COUNTER(drop_counters, DROP_COUNTER_SIZE);

    @id(ID_DIRECT_COUNTER_FLOW_RULES)
    DIRECT_COUNTER(flow_rules_counter);
    @id(ID_DIRECT_COUNTER_FLOW_RULES_V6)
    DIRECT_COUNTER(flow_rules_v6_counter);
    @id(ID_DIRECT_COUNTER_SLOTS)
    DIRECT_COUNTER(slots_counter);

    SYM_HASH_DECL

    // ---- port_role: what is this port? ---------------------------------

    @id(ID_ACTION_SET_OPERATOR_PORT)
    action set_operator_port(link_id_t link_id, side_t side, port_t peer_port) {
        md.link_id = link_id;
        md.side = side;
        md.peer_port = peer_port;
    }

    @id(ID_ACTION_SET_FILTER_PORT)
    action set_filter_port(fg_id_t filter_group, side_t side) {
        md.filter_group = filter_group;
        md.side = side;
    }

    @id(ID_ACTION_UNKNOWN_PORT)
    action unknown_port() {
        md.drop = true;
        md.drop_reason = DROP_UNKNOWN_PORT;
    }

    @id(ID_TABLE_PORT_ROLE)
    table port_role {
        key = {
            md.ingress_port : exact @name("port");
        }
        actions = {
            set_operator_port;
            set_filter_port;
            @defaultonly unknown_port;
        }
        const default_action = unknown_port();
        size = PORT_ROLE_TABLE_SIZE;
    }

    // ---- heartbeat: bypass-unit heartbeats pass straight through ------

    @id(ID_ACTION_HEARTBEAT_PASS)
    action heartbeat_pass() {
        md.out_port = md.peer_port;
        md.count_link = true;
        md.link_kind = LINK_CNT_HEARTBEAT;
    }

    @id(ID_ACTION_NO_HEARTBEAT)
    action no_heartbeat() { }

    @id(ID_TABLE_HEARTBEAT)
    table heartbeat {
        key = {
            hdr.ethernet.dst_addr : ternary @name("dst_mac");
            md.eth_type           : ternary @name("eth_type");
        }
        actions = {
            heartbeat_pass;
            @defaultonly no_heartbeat;
        }
        const default_action = no_heartbeat();
        size = HEARTBEAT_TABLE_SIZE;
    }

    // ---- flow rules -----------------------------------------------------

    @id(ID_ACTION_BYPASS)
    action bypass() {
        md.balance = false;
        flow_rules_counter.count();
    }

    @id(ID_ACTION_BALANCE)
    action balance(bg_id_t group) {
        md.balance = true;
        md.balance_group = group;
        flow_rules_counter.count();
    }

    // IPv4 and non-IP packets.
    @id(ID_TABLE_FLOW_RULES)
    table flow_rules {
        key = {
            md.link_id              : ternary @name("link_id");
            md.outer_vid            : ternary @name("outer_vid");
            md.inner_vid            : ternary @name("inner_vid");
            md.vlan_depth           : ternary @name("vlan_depth");
            md.mpls_depth           : ternary @name("mpls_depth");
            hdr.ethernet.src_addr   : ternary @name("src_mac");
            hdr.ethernet.dst_addr   : ternary @name("dst_mac");
            md.eth_type             : ternary @name("eth_type");
            md.is_ipv4              : ternary @name("is_ipv4");
            md.ipv4_src             : ternary @name("ipv4_src");
            md.ipv4_dst             : ternary @name("ipv4_dst");
            md.ip_proto             : ternary @name("ip_proto");
            md.l4_src               : ternary @name("l4_src");
            md.l4_dst               : ternary @name("l4_dst");
        }
        actions = {
            bypass;
            balance;
        }
        default_action = bypass();   // fail open
        counters = flow_rules_counter;
        size = FLOW_RULES_TABLE_SIZE;
    }

    @id(ID_ACTION_BYPASS_V6)
    action bypass_v6() {
        md.balance = false;
        flow_rules_v6_counter.count();
    }

    @id(ID_ACTION_BALANCE_V6)
    action balance_v6(bg_id_t group) {
        md.balance = true;
        md.balance_group = group;
        flow_rules_v6_counter.count();
    }

    // IPv6 packets. A separate table keeps the IPv4 table's TCAM key narrow.
    @id(ID_TABLE_FLOW_RULES_V6)
    table flow_rules_v6 {
        key = {
            md.link_id              : ternary @name("link_id");
            md.outer_vid            : ternary @name("outer_vid");
            md.inner_vid            : ternary @name("inner_vid");
            md.vlan_depth           : ternary @name("vlan_depth");
            md.mpls_depth           : ternary @name("mpls_depth");
            hdr.ethernet.src_addr   : ternary @name("src_mac");
            hdr.ethernet.dst_addr   : ternary @name("dst_mac");
            md.eth_type             : ternary @name("eth_type");
            hdr.ipv6.src_addr       : ternary @name("ipv6_src");
            hdr.ipv6.dst_addr       : ternary @name("ipv6_dst");
            md.ip_proto             : ternary @name("ip_proto");
            md.l4_src               : ternary @name("l4_src");
            md.l4_dst               : ternary @name("l4_dst");
        }
        actions = {
            bypass_v6;
            balance_v6;
        }
        default_action = bypass_v6();   // fail open
        counters = flow_rules_v6_counter;
        size = FLOW_RULES_V6_TABLE_SIZE;
    }

    // ---- balance group state -------------------------------------------

    @id(ID_ACTION_GROUP_ACTIVE)
    action group_active(slot_t slot_mask) {
        md.slot_mask = slot_mask;
    }

    @id(ID_ACTION_GROUP_BYPASS)
    action group_bypass() { }

    @id(ID_ACTION_GROUP_DROP)
    action group_drop() { }

    @id(ID_TABLE_BALANCE_GROUPS)
    table balance_groups {
        key = {
            md.balance_group : exact @name("balance_group");
        }
        actions = {
            group_active;
            group_bypass;
            group_drop;
        }
        default_action = group_bypass();
        size = BALANCE_GROUP_TABLE_SIZE;
    }

    // ---- slots: hash slot -> filter group and core ----------------------

    @id(ID_ACTION_TO_FILTER)
    action to_filter(fg_id_t filter_group, core_id_t core) {
        md.target_fg = filter_group;
        md.core = core;
        slots_counter.count();
    }

    @id(ID_ACTION_SLOT_MISS)
    action slot_miss() {
        slots_counter.count();
    }

    @id(ID_TABLE_SLOTS)
    table slots {
        key = {
            md.balance_group : exact @name("balance_group");
            md.slot          : exact @name("slot");
        }
        actions = {
            to_filter;
            @defaultonly slot_miss;
        }
        const default_action = slot_miss();
        counters = slots_counter;
        size = SLOTS_TABLE_SIZE;
    }

    // ---- filter group state ---------------------------------------------

    @id(ID_ACTION_FILTER_FORWARD)
    action filter_forward(port_t lan_port, port_t wan_port, bit<16> tpid) {
        md.fg_lan_port = lan_port;
        md.fg_wan_port = wan_port;
        md.tpid = tpid;
    }

    @id(ID_ACTION_FILTER_SW_BYPASS)
    action filter_sw_bypass() { }

    @id(ID_ACTION_FILTER_DROP)
    action filter_drop() { }

    @id(ID_TABLE_FILTER_GROUPS)
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

    // ---- links: return path ---------------------------------------------

    @id(ID_ACTION_SET_LINK)
    action set_link(port_t lan_port, port_t wan_port) {
        md.link_lan_port = lan_port;
        md.link_wan_port = wan_port;
    }

    @id(ID_ACTION_UNKNOWN_LINK)
    action unknown_link() { }

    @id(ID_TABLE_LINKS)
    table links {
        key = {
            hdr.core.link_id : exact @name("link_id");
        }
        actions = {
            set_link;
            @defaultonly unknown_link;
        }
        const default_action = unknown_link();
        size = LINK_TABLE_SIZE;
    }

    // ---- helpers -----------------------------------------------------------

    @hidden action bypass_to_peer(link_cnt_kind_t kind) {
        md.out_port = md.peer_port;
        md.count_link = true;
        md.link_kind = kind;
    }

    @hidden action drop_packet(drop_reason_t reason) {
        md.drop = true;
        md.drop_reason = reason;
    }

    apply {
        md.ingress_port = ARCH_INGRESS_PORT;
        md.ingress_ts = ARCH_INGRESS_TS;
        md.drop = false;
        md.to_cpu = false;
        md.ka_stamp = false;
        md.drop_reason = DROP_NONE;
        md.count_link = false;
        md.count_fg = false;

        // Lookup keys, zero when the header is absent.
        md.outer_vid = 0;
        md.inner_vid = 0;
        if (hdr.vlan[0].isValid()) { md.outer_vid = hdr.vlan[0].vid; }
        if (hdr.vlan[1].isValid()) { md.inner_vid = hdr.vlan[1].vid; }
        md.is_ipv4 = 0;
        md.ipv4_src = 0;
        md.ipv4_dst = 0;
        md.ip_proto = 0;
        bit<32> x = 0;
        bit<32> y = 0;
        if (hdr.ipv4.isValid()) {
            md.is_ipv4 = 1;
            md.ipv4_src = hdr.ipv4.src_addr;
            md.ipv4_dst = hdr.ipv4.dst_addr;
            md.ip_proto = hdr.ipv4.protocol;
            x = hdr.ipv4.src_addr;
            y = hdr.ipv4.dst_addr;
        } else if (hdr.ipv6.isValid()) {
            md.ip_proto = hdr.ipv6.next_hdr;
            // Contract (hash): fold a 128-bit address into 32 bits by XOR.
            x = hdr.ipv6.src_addr[127:96] ^ hdr.ipv6.src_addr[95:64] ^
                hdr.ipv6.src_addr[63:32] ^ hdr.ipv6.src_addr[31:0];
            y = hdr.ipv6.dst_addr[127:96] ^ hdr.ipv6.dst_addr[95:64] ^
                hdr.ipv6.dst_addr[63:32] ^ hdr.ipv6.dst_addr[31:0];
        }
        md.l4_src = 0;
        md.l4_dst = 0;
        if (hdr.tcp.isValid()) {
            md.l4_src = hdr.tcp.src_port;
            md.l4_dst = hdr.tcp.dst_port;
        } else if (hdr.udp.isValid()) {
            md.l4_src = hdr.udp.src_port;
            md.l4_dst = hdr.udp.dst_port;
        }

        // Contract (hash): CRC-32/ISO-HDLC over lo(4) | hi(4) | proto(1).
        bit<32> lo = x;
        bit<32> hi = y;
        if (y < x) {
            lo = y;
            hi = x;
        }
        SYM_HASH(md.hash, lo, hi, md.ip_proto);

        if (hdr.packet_out.isValid()) {
            // From the controller: out of the port it names.
            md.out_port = hdr.packet_out.egress_port;
            if ((hdr.packet_out.flags & PACKET_OUT_FLAG_KEEPALIVE) != 0) {
                md.ka_stamp = true;
            }
            hdr.packet_out.setInvalid();
        } else {
            port_rx.count((bit<32>)md.ingress_port);
            switch (port_role.apply().action_run) {
                set_operator_port: {
                    if (!heartbeat.apply().hit) {
                        if (hdr.ipv6.isValid()) {
                            flow_rules_v6.apply();
                        } else {
                            flow_rules.apply();
                        }
                        if (!md.balance) {
                            bypass_to_peer(LINK_CNT_RULE_BYPASS);
                        } else if ((!hdr.ipv4.isValid() && !hdr.ipv6.isValid()) ||
                                   hdr.core.isValid()) {
                            // Nothing to hash on (or a frame that already
                            // carries a core TPID): pass it unfiltered.
                            bypass_to_peer(LINK_CNT_NONIP_BYPASS);
                        } else {
                            switch (balance_groups.apply().action_run) {
                                group_active: {
                                    md.slot = md.hash[15:0] & md.slot_mask;
                                    if (slots.apply().hit) {
                                        md.count_fg = true;
                                        md.fg_index = md.target_fg;
                                        switch (filter_groups.apply().action_run) {
                                            filter_forward: {
                                                hdr.core.setValid();
                                                hdr.core.tpid = md.tpid;
                                                hdr.core.link_id = md.link_id;
                                                hdr.core.core_id = md.core;
                                                if (md.side == SIDE_LAN) {
                                                    md.out_port = md.fg_lan_port;
                                                } else {
                                                    md.out_port = md.fg_wan_port;
                                                }
                                                md.count_link = true;
                                                md.link_kind = LINK_CNT_TO_FILTER;
                                                md.fg_kind = FG_CNT_TO_FILTER;
                                            }
                                            filter_sw_bypass: {
                                                bypass_to_peer(LINK_CNT_SW_BYPASS);
                                                md.fg_kind = FG_CNT_SW_BYPASS;
                                            }
                                            filter_drop: {
                                                drop_packet(DROP_FILTER_GROUP);
                                                md.count_fg = false;
                                                md.count_link = true;
                                                md.link_kind = LINK_CNT_DROPPED;
                                            }
                                        }
                                    } else {
                                        bypass_to_peer(LINK_CNT_GROUP_BYPASS);
                                    }
                                }
                                group_bypass: {
                                    bypass_to_peer(LINK_CNT_GROUP_BYPASS);
                                }
                                group_drop: {
                                    drop_packet(DROP_BALANCE_GROUP);
                                    md.count_link = true;
                                    md.link_kind = LINK_CNT_DROPPED;
                                }
                            }
                        }
                    }
                }
                set_filter_port: {
                    md.count_fg = true;
                    md.fg_index = md.filter_group;
                    if (hdr.keepalive.isValid()) {
                        // A keep-alive crossed the filter: to the controller.
                        hdr.packet_in.setValid();
                        hdr.packet_in.ingress_port = md.ingress_port;
                        hdr.packet_in._pad0 = 0;
                        hdr.packet_in.reason = PACKET_IN_REASON_KEEPALIVE;
                        hdr.packet_in.rx_timestamp = md.ingress_ts;
                        md.to_cpu = true;
                        md.fg_kind = FG_CNT_KEEPALIVE;
                    } else if (hdr.core.isValid()) {
                        if (links.apply().hit) {
                            // Continue in the same direction, out of the
                            // link the packet entered on.
                            if (md.side == SIDE_LAN) {
                                md.out_port = md.link_lan_port;
                            } else {
                                md.out_port = md.link_wan_port;
                            }
                            md.count_link = true;
                            md.link_id = hdr.core.link_id;
                            md.link_kind = LINK_CNT_RETURNED;
                            md.fg_kind = FG_CNT_RETURNED;
                            hdr.core.setInvalid();
                        } else {
                            drop_packet(DROP_UNKNOWN_LINK_ID);
                            md.count_fg = false;
                        }
                    } else {
                        drop_packet(DROP_NO_CORE_HEADER);
                        md.count_fg = false;
                    }
                }
                default: {
                    // unknown_port already marked the drop.
                }
            }
        }

        if (md.count_link) {
            link_counters.count((bit<32>)(md.link_id ++ md.link_kind));
        }
        if (md.count_fg) {
            filter_group_counters.count((bit<32>)(md.fg_index ++ md.fg_kind));
        }
        if (md.drop) {
            drop_counters.count((bit<32>)md.drop_reason);
        }

        ARCH_INGRESS_FINISH
    }
}

#endif  // BALANCER_INGRESS_P4
