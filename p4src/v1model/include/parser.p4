// v1model parser and deparser.
#ifndef BALANCER_V1MODEL_PARSER_P4
#define BALANCER_V1MODEL_PARSER_P4

parser IngressParser(packet_in pkt, out headers_t hdr, inout local_md_t md,
                     inout standard_metadata_t std) {
#include "../../shared/parser_value_sets.p4"

    state start {
        md.eth_type = 0;
        transition select(std.ingress_port) {
            CPU_PORT: parse_packet_out;
            cpu_port: parse_packet_out;
            default:  parse_ethernet;
        }
    }

#include "../../shared/parser.p4"
}

control BalancerDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.packet_in);
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.core);
        pkt.emit(hdr.vlan);
        pkt.emit(hdr.eth_type);
        pkt.emit(hdr.mpls);
        pkt.emit(hdr.pppoe);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.ipv4_options);
        pkt.emit(hdr.ipv6);
        pkt.emit(hdr.tcp);
        pkt.emit(hdr.udp);
        pkt.emit(hdr.keepalive);
    }
}

#endif  // BALANCER_V1MODEL_PARSER_P4
