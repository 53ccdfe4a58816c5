// PortRole: what the ingress port is (operator port of a link, filter
// port of a filter group, or unknown).
#ifndef BALANCER_CONTROL_PORT_ROLE_P4
#define BALANCER_CONTROL_PORT_ROLE_P4

control PortRole(inout local_md_t md) {
    @name(".BalancerIngress.set_operator_port") @id(ID_ACTION_SET_OPERATOR_PORT)
    action set_operator_port(link_id_t link_id, side_t side, port_t peer_port) {
        md.port_type = PORT_TYPE_OPERATOR;
        md.link_id = link_id;
        md.side = side;
        md.peer_port = peer_port;
    }

    @name(".BalancerIngress.set_filter_port") @id(ID_ACTION_SET_FILTER_PORT)
    action set_filter_port(fg_id_t filter_group, side_t side) {
        md.port_type = PORT_TYPE_FILTER;
        md.filter_group = filter_group;
        md.side = side;
    }

    @name(".BalancerIngress.unknown_port") @id(ID_ACTION_UNKNOWN_PORT)
    action unknown_port() {
        md.port_type = PORT_TYPE_UNKNOWN;
        DROP_PACKET(DROP_UNKNOWN_PORT);
    }

    @name(".BalancerIngress.port_role") @id(ID_TABLE_PORT_ROLE)
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

    apply {
        port_role.apply();
    }
}

#endif  // BALANCER_CONTROL_PORT_ROLE_P4
