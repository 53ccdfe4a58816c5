// Heartbeat: a bypass unit's heartbeat on an operator port goes straight
// to the peer port; nothing else happens to it.
#ifndef BALANCER_CONTROL_HEARTBEAT_P4
#define BALANCER_CONTROL_HEARTBEAT_P4

control Heartbeat(in headers_t hdr, inout local_md_t md) {
    @name(".BalancerIngress.heartbeat_pass") @id(ID_ACTION_HEARTBEAT_PASS)
    action heartbeat_pass() {
        md.heartbeat = true;
        BYPASS_TO_PEER(LINK_CNT_HEARTBEAT);
    }

    @name(".BalancerIngress.no_heartbeat") @id(ID_ACTION_NO_HEARTBEAT)
    action no_heartbeat() { }

    @name(".BalancerIngress.heartbeat") @id(ID_TABLE_HEARTBEAT)
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

    apply {
        heartbeat.apply();
    }
}

#endif  // BALANCER_CONTROL_HEARTBEAT_P4
