// FlowRules: the operator's rules, bypass or balance(group). IPv6 packets
// are looked up in flow_rules_v6 only, every other packet in flow_rules
// only (a separate table keeps the IPv4 table's TCAM key narrow).
#ifndef BALANCER_CONTROL_FLOW_RULES_P4
#define BALANCER_CONTROL_FLOW_RULES_P4

control FlowRules(in headers_t hdr, inout local_md_t md) {
    @name(".BalancerIngress.flow_rules_counter") @id(ID_DIRECT_COUNTER_FLOW_RULES)
    DIRECT_COUNTER(flow_rules_counter);
    @name(".BalancerIngress.flow_rules_v6_counter") @id(ID_DIRECT_COUNTER_FLOW_RULES_V6)
    DIRECT_COUNTER(flow_rules_v6_counter);

    @name(".BalancerIngress.bypass") @id(ID_ACTION_BYPASS)
    action bypass() {
        md.balance = false;
        flow_rules_counter.count();
    }

    @name(".BalancerIngress.balance") @id(ID_ACTION_BALANCE)
    action balance(bg_id_t group) {
        md.balance = true;
        md.balance_group = group;
        flow_rules_counter.count();
    }

    // IPv4 and non-IP packets.
    @name(".BalancerIngress.flow_rules") @id(ID_TABLE_FLOW_RULES)
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

    @name(".BalancerIngress.bypass_v6") @id(ID_ACTION_BYPASS_V6)
    action bypass_v6() {
        md.balance = false;
        flow_rules_v6_counter.count();
    }

    @name(".BalancerIngress.balance_v6") @id(ID_ACTION_BALANCE_V6)
    action balance_v6(bg_id_t group) {
        md.balance = true;
        md.balance_group = group;
        flow_rules_v6_counter.count();
    }

    // IPv6 packets.
    @name(".BalancerIngress.flow_rules_v6") @id(ID_TABLE_FLOW_RULES_V6)
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

    apply {
        if (hdr.ipv6.isValid()) {
            flow_rules_v6.apply();
        } else {
            flow_rules.apply();
        }
    }
}

#endif  // BALANCER_CONTROL_FLOW_RULES_P4
