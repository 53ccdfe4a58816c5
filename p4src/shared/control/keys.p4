// PacketKeys: the lookup keys and the session hash, derived from the
// parsed headers (zero when a header is absent).
#ifndef BALANCER_CONTROL_KEYS_P4
#define BALANCER_CONTROL_KEYS_P4

control PacketKeys(in headers_t hdr, inout local_md_t md) {
    SYM_HASH_DECL

    apply {
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
    }
}

#endif  // BALANCER_CONTROL_KEYS_P4
