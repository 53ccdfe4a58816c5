// PacketKeys: the lookup keys and the session hash, derived from the
// parsed headers (zero when a header is absent).
#ifndef BALANCER_CONTROL_KEYS_P4
#define BALANCER_CONTROL_KEYS_P4

control PacketKeys(in headers_t hdr, inout local_md_t md) {
    FOLD128_DECL(fold_src)
    FOLD128_DECL(fold_dst)

    apply {
        // Stack depths from the headers' validity, not counted by the
        // parser: a Tofino parser cannot overwrite a field it already set
        // in an earlier state (a second write would OR into the first).
        md.vlan_depth = 0;
        if (hdr.vlan[2].isValid()) {
            md.vlan_depth = 3;
        } else if (hdr.vlan[1].isValid()) {
            md.vlan_depth = 2;
        } else if (hdr.vlan[0].isValid()) {
            md.vlan_depth = 1;
        }
        md.mpls_depth = 0;
        if (hdr.mpls[7].isValid()) {
            md.mpls_depth = 8;
        } else if (hdr.mpls[6].isValid()) {
            md.mpls_depth = 7;
        } else if (hdr.mpls[5].isValid()) {
            md.mpls_depth = 6;
        } else if (hdr.mpls[4].isValid()) {
            md.mpls_depth = 5;
        } else if (hdr.mpls[3].isValid()) {
            md.mpls_depth = 4;
        } else if (hdr.mpls[2].isValid()) {
            md.mpls_depth = 3;
        } else if (hdr.mpls[1].isValid()) {
            md.mpls_depth = 2;
        } else if (hdr.mpls[0].isValid()) {
            md.mpls_depth = 1;
        }
        md.outer_vid = 0;
        md.inner_vid = 0;
        if (hdr.vlan[0].isValid()) { md.outer_vid = hdr.vlan[0].vid; }
        if (hdr.vlan[1].isValid()) { md.inner_vid = hdr.vlan[1].vid; }
        md.is_ipv4 = 0;
        md.ipv4_src = 0;
        md.ipv4_dst = 0;
        md.ip_proto = 0;
        md.addr_x = 0;
        md.addr_y = 0;
        if (hdr.ipv4.isValid()) {
            md.is_ipv4 = 1;
            md.ipv4_src = hdr.ipv4.src_addr;
            md.ipv4_dst = hdr.ipv4.dst_addr;
            md.ip_proto = hdr.ipv4.protocol;
            md.addr_x = hdr.ipv4.src_addr;
            md.addr_y = hdr.ipv4.dst_addr;
        }
        // Contract (hash): fold a 128-bit address into 32 bits by XOR. The
        // parser never makes both IPv4 and IPv6 valid. The two folds are
        // two statements blocks so that Tofino runs them as two actions
        // (one 32-bit hash result each).
        if (hdr.ipv6.isValid()) {
            md.ip_proto = hdr.ipv6.next_hdr;
            FOLD128(fold_src, md.addr_x, hdr.ipv6.src_addr);
        }
        if (hdr.ipv6.isValid()) {
            FOLD128(fold_dst, md.addr_y, hdr.ipv6.dst_addr);
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
    }
}

// SessionHash: the symmetric session hash of the addresses PacketKeys
// folded. A control of its own so that, on Tofino, its two dependent steps
// run beside the port-role and heartbeat lookups instead of before them.
control SessionHash(inout local_md_t md) {
    SYM_HASH_DECL

    apply {
        // Contract (hash): CRC-32/ISO-HDLC over lo(4) | hi(4) | proto(1).
        // min and max as conditional expressions: one ALU instruction
        // each on Tofino (minu, maxu), where a gateway cannot compare two
        // 32-bit fields.
        bit<32> lo = (md.addr_x < md.addr_y) ? md.addr_x : md.addr_y;
        bit<32> hi = (md.addr_x < md.addr_y) ? md.addr_y : md.addr_x;
        SYM_HASH(md.hash, lo, hi, md.ip_proto);
#ifdef WITH_SESSIONS
        // The session's key (control/balancing.p4): the same ordered pair.
        md.sess_lo = lo;
        md.sess_hi = hi;
#endif
    }
}

#endif  // BALANCER_CONTROL_KEYS_P4
