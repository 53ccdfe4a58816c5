// PacketKeys: the lookup keys and the session hash, derived from the
// parsed headers (zero when a header is absent).
#ifndef BALANCER_CONTROL_KEYS_P4
#define BALANCER_CONTROL_KEYS_P4

control PacketKeys(in headers_t hdr, inout local_md_t md) {
    SYM_HASH_DECL
    FOLD128_DECL

    // One hash unit output per table: each fold in a table of its own.
    @hidden action fold_v6_src() {
        FOLD128(md.fold_x, hdr.ipv6.src_addr, fold_src);
    }
    @hidden table fold_src_addr {
        actions = { fold_v6_src; }
        const default_action = fold_v6_src();
        size = 1;
    }
    @hidden action fold_v6_dst() {
        FOLD128(md.fold_y, hdr.ipv6.dst_addr, fold_dst);
    }
    @hidden table fold_dst_addr {
        actions = { fold_v6_dst; }
        const default_action = fold_v6_dst();
        size = 1;
    }

    @hidden action compare() {
        md.x_above_y = md.fold_x |-| md.fold_y;
    }

    @hidden table order {
        actions = { compare; }
        const default_action = compare();
        size = 1;
    }

    apply {
        // Tag and label depths from the headers' validity (a parser
        // counter would be re-assigned state after state, which Tofino's
        // parser cannot do). 8 MPLS labels means 8 or more.
        md.vlan_depth = 0;
        if (hdr.vlan[2].isValid()) { md.vlan_depth = 3; }
        else if (hdr.vlan[1].isValid()) { md.vlan_depth = 2; }
        else if (hdr.vlan[0].isValid()) { md.vlan_depth = 1; }
        md.mpls_depth = 0;
        if (hdr.mpls[7].isValid()) { md.mpls_depth = 8; }
        else if (hdr.mpls[6].isValid()) { md.mpls_depth = 7; }
        else if (hdr.mpls[5].isValid()) { md.mpls_depth = 6; }
        else if (hdr.mpls[4].isValid()) { md.mpls_depth = 5; }
        else if (hdr.mpls[3].isValid()) { md.mpls_depth = 4; }
        else if (hdr.mpls[2].isValid()) { md.mpls_depth = 3; }
        else if (hdr.mpls[1].isValid()) { md.mpls_depth = 2; }
        else if (hdr.mpls[0].isValid()) { md.mpls_depth = 1; }

        md.outer_vid = 0;
        md.inner_vid = 0;
        if (hdr.vlan[0].isValid()) { md.outer_vid = hdr.vlan[0].vid; }
        if (hdr.vlan[1].isValid()) { md.inner_vid = hdr.vlan[1].vid; }
        md.is_ipv4 = 0;
        md.ipv4_src = 0;
        md.ipv4_dst = 0;
        md.ip_proto = 0;
        md.fold_x = 0;
        md.fold_y = 0;
        if (hdr.ipv4.isValid()) {
            md.is_ipv4 = 1;
            md.ipv4_src = hdr.ipv4.src_addr;
            md.ipv4_dst = hdr.ipv4.dst_addr;
            md.ip_proto = hdr.ipv4.protocol;
            md.fold_x = hdr.ipv4.src_addr;
            md.fold_y = hdr.ipv4.dst_addr;
        } else if (hdr.ipv6.isValid()) {
            md.ip_proto = hdr.ipv6.next_hdr;
            // Contract (hash): fold a 128-bit address into 32 bits by XOR.
            fold_src_addr.apply();
            fold_dst_addr.apply();
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
        // min/max by a saturating difference: x |-| y is non-zero iff
        // y < x. Tofino compares a field with a constant, not two fields,
        // so the difference is computed first, by a table of its own.
        order.apply();
        bit<32> lo = md.fold_x;
        bit<32> hi = md.fold_y;
        if (md.x_above_y != 0) {
            lo = md.fold_y;
            hi = md.fold_x;
        }
        SYM_HASH(md.hash, lo, hi, md.ip_proto);
    }
}

#endif  // BALANCER_CONTROL_KEYS_P4
