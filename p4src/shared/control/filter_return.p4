// FilterReturn: a frame on a filter port crossed the filter. A keep-alive
// goes to the controller; a keep-alive of this group sent out of the other
// side, or a frame with the core header of a known link, is evidence of
// life for the sends out of the other side (control/verdict.p4); a frame with the core header continues in the
// same direction out of the link it entered on (links), without the
// header; anything else is dropped: a filter must return what it was
// given.
#ifndef BALANCER_CONTROL_FILTER_RETURN_P4
#define BALANCER_CONTROL_FILTER_RETURN_P4

control FilterReturn(inout headers_t hdr, inout local_md_t md) {
    @name(".BalancerIngress.set_link") @id(ID_ACTION_SET_LINK)
    action set_link(port_t lan_port, port_t wan_port) {
        md.link_lan_port = lan_port;
        md.link_wan_port = wan_port;
    }

    @name(".BalancerIngress.unknown_link") @id(ID_ACTION_UNKNOWN_LINK)
    action unknown_link() { }

    @name(".BalancerIngress.links") @id(ID_TABLE_LINKS)
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

    apply {
        md.count_fg = true;
        md.fg_index = md.filter_group;
#ifdef WITH_VERDICT
        // A return on one side answers the sends out of the other.
        md.ev_index = md.filter_group ++ (~md.side);
#endif
        if (hdr.keepalive.isValid()) {
#ifdef WITH_VERDICT
            // Life only when it is this group's, sent out of the other
            // side: two tests of fields against fields written before (a
            // Tofino gateway compares a field with a constant, or two
            // fields for equality).
            bit<16> group = (bit<16>)md.filter_group;
            bit<8> other = (bit<8>)(~md.side);
            if (hdr.keepalive.filter_group == group) {
                if (hdr.keepalive.direction == other) {
                    md.ev_return = true;
                }
            }
#endif
            // A keep-alive crossed the filter: to the controller.
            hdr.packet_in.setValid();
            hdr.packet_in.ingress_port = md.ingress_port;
            hdr.packet_in.reason = PACKET_IN_REASON_KEEPALIVE;
            ARCH_STAMP_PACKET_IN
            md.to_cpu = true;
            md.fg_kind = FG_CNT_KEEPALIVE;
        } else if (!hdr.core.isValid()) {
            DROP_PACKET(DROP_NO_CORE_HEADER);
            md.count_fg = false;
        } else if (links.apply().hit) {
            if (md.side == SIDE_LAN) {
                md.out_port = md.link_lan_port;
            } else {
                md.out_port = md.link_wan_port;
            }
#ifdef WITH_VERDICT
            md.ev_return = true;
#endif
            md.count_link = true;
            md.link_id = hdr.core.link_id;
            md.link_kind = LINK_CNT_RETURNED;
            md.fg_kind = FG_CNT_RETURNED;
            hdr.core.setInvalid();
        } else {
            DROP_PACKET(DROP_UNKNOWN_LINK_ID);
            md.count_fg = false;
        }
    }
}

#endif  // BALANCER_CONTROL_FILTER_RETURN_P4
