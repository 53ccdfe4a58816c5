// Parser states shared by both architectures. This file is included inside
// each architecture's IngressParser body, after its start state (which
// consumes the intrinsic metadata and transitions to parse_packet_out from
// the CPU port, parse_ethernet otherwise); parser_value_sets.p4 is included
// before it. It expects the names pkt, hdr and md.
//
// What is parsed: Ethernet; at the outermost position the core header
// (EtherType in core_tpid) or a keep-alive (EtherType in
// keepalive_ethertype); up to 3 VLAN tags (0x8100, 0x88A8, 0x9100); an MPLS
// stack of up to 8 labels (IPv4/IPv6 chosen after bottom of stack by the
// version nibble); a PPPoE session (PPP 0x0021, 0x0057); IPv4 (with up to
// 10 words of options, fixed-size extracts)
// or IPv6; TCP or UDP of unfragmented packets / first fragments. Anything
// else stays payload and is forwarded byte for byte. Every extract is of a
// fixed size. A frame that ends inside a header stops the parser with an
// error; the ingress drops it as malformed (docs/dataplane.md).

    state parse_packet_out {
        pkt.extract(hdr.packet_out);
        transition parse_ethernet;
    }

    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        // The defaults are constants too, so that a target that cannot
        // program parser value sets (BMv2 with PI 0.1.2 answers
        // UNIMPLEMENTED) still recognises them.
        transition select(pkt.lookahead<bit<16>>()) {
            DEFAULT_CORE_TPID:           parse_core;
            DEFAULT_KEEPALIVE_ETHERTYPE: parse_keepalive;
            core_tpid:            parse_core;
            keepalive_ethertype:  parse_keepalive;
            ETHERTYPE_VLAN:       parse_vlan_0;
            ETHERTYPE_QINQ:       parse_vlan_0;
            ETHERTYPE_QINQ_OLD:   parse_vlan_0;
            default:              parse_eth_type;
        }
    }

    state parse_core {
        pkt.extract(hdr.core);
        transition select(pkt.lookahead<bit<16>>()) {
            ETHERTYPE_VLAN:       parse_vlan_0;
            ETHERTYPE_QINQ:       parse_vlan_0;
            ETHERTYPE_QINQ_OLD:   parse_vlan_0;
            default:              parse_eth_type;
        }
    }

    state parse_keepalive {
        pkt.extract(hdr.eth_type);
        md.eth_type = hdr.eth_type.value;
        pkt.extract(hdr.keepalive);
        transition accept;
    }

    state parse_vlan_0 {
        pkt.extract(hdr.vlan[0]);
        transition select(pkt.lookahead<bit<16>>()) {
            ETHERTYPE_VLAN:       parse_vlan_1;
            ETHERTYPE_QINQ:       parse_vlan_1;
            ETHERTYPE_QINQ_OLD:   parse_vlan_1;
            default:              parse_eth_type;
        }
    }

    state parse_vlan_1 {
        pkt.extract(hdr.vlan[1]);
        transition select(pkt.lookahead<bit<16>>()) {
            ETHERTYPE_VLAN:       parse_vlan_2;
            ETHERTYPE_QINQ:       parse_vlan_2;
            ETHERTYPE_QINQ_OLD:   parse_vlan_2;
            default:              parse_eth_type;
        }
    }

    state parse_vlan_2 {
        pkt.extract(hdr.vlan[2]);
        // A fourth tag is not parsed: its TPID becomes the EtherType and
        // the rest is payload (non-IP).
        transition parse_eth_type;
    }

    state parse_eth_type {
        pkt.extract(hdr.eth_type);
        md.eth_type = hdr.eth_type.value;
        transition select(hdr.eth_type.value) {
            ETHERTYPE_IPV4:       parse_ipv4;
            ETHERTYPE_IPV6:       parse_ipv6;
            ETHERTYPE_MPLS:       parse_mpls_0;
            ETHERTYPE_MPLS_MC:    parse_mpls_0;
            ETHERTYPE_PPPOE_SESS: parse_pppoe;
            default:              accept;
        }
    }

#define PARSE_MPLS(i, next)                          \
    state parse_mpls_##i {                           \
        pkt.extract(hdr.mpls[i]);                    \
        transition select(hdr.mpls[i].bos) {         \
            1:       parse_mpls_payload;             \
            default: next;                           \
        }                                            \
    }
    PARSE_MPLS(0, parse_mpls_1)
    PARSE_MPLS(1, parse_mpls_2)
    PARSE_MPLS(2, parse_mpls_3)
    PARSE_MPLS(3, parse_mpls_4)
    PARSE_MPLS(4, parse_mpls_5)
    PARSE_MPLS(5, parse_mpls_6)
    PARSE_MPLS(6, parse_mpls_7)
    PARSE_MPLS(7, accept)   // deeper stacks: depth 8, the rest is payload
#undef PARSE_MPLS

    state parse_mpls_payload {
        transition select(pkt.lookahead<bit<4>>()) {
            4:       parse_ipv4;
            6:       parse_ipv6;
            default: accept;   // pseudowire control word, Ethernet over MPLS...
        }
    }

    state parse_pppoe {
        pkt.extract(hdr.pppoe);
        transition select(hdr.pppoe.protocol) {
            PPP_IPV4: parse_ipv4;
            PPP_IPV6: parse_ipv6;
            default:  accept;
        }
    }

    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.ihl) {
            5:               parse_ipv4_l4;
            0 &&& 0xC:       accept;          // ihl 0..3: malformed, no L4
            4:               accept;          // ihl 4: malformed, no L4
            default:         parse_ipv4_option_0;
        }
    }

    // IPv4 options, one 32-bit word per state: IHL 6 stops after word 0,
    // IHL 15 after word 9.
#define PARSE_IPV4_OPTION(i, next)                   \
    state parse_ipv4_option_##i {                    \
        pkt.extract(hdr.ipv4_options[i]);            \
        transition select(hdr.ipv4.ihl) {            \
            i + 6:   parse_ipv4_l4;                  \
            default: next;                           \
        }                                            \
    }
    PARSE_IPV4_OPTION(0, parse_ipv4_option_1)
    PARSE_IPV4_OPTION(1, parse_ipv4_option_2)
    PARSE_IPV4_OPTION(2, parse_ipv4_option_3)
    PARSE_IPV4_OPTION(3, parse_ipv4_option_4)
    PARSE_IPV4_OPTION(4, parse_ipv4_option_5)
    PARSE_IPV4_OPTION(5, parse_ipv4_option_6)
    PARSE_IPV4_OPTION(6, parse_ipv4_option_7)
    PARSE_IPV4_OPTION(7, parse_ipv4_option_8)
    PARSE_IPV4_OPTION(8, parse_ipv4_option_9)
#undef PARSE_IPV4_OPTION
    state parse_ipv4_option_9 {   // IHL 15
        pkt.extract(hdr.ipv4_options[9]);
        transition parse_ipv4_l4;
    }

    state parse_ipv4_l4 {
        // Only the first fragment carries the L4 header.
        transition select(hdr.ipv4.frag_offset, hdr.ipv4.protocol) {
            (0, IP_PROTO_TCP): parse_tcp;
            (0, IP_PROTO_UDP): parse_udp;
            default:           accept;
        }
    }

    state parse_ipv6 {
        pkt.extract(hdr.ipv6);
        // Extension headers are not walked: L4 ports only when the next
        // header is TCP or UDP directly.
        transition select(hdr.ipv6.next_hdr) {
            IP_PROTO_TCP: parse_tcp;
            IP_PROTO_UDP: parse_udp;
            default:      accept;
        }
    }

    state parse_tcp {
        pkt.extract(hdr.tcp);
        transition accept;
    }

    state parse_udp {
        pkt.extract(hdr.udp);
        transition accept;
    }
