// TNA parsers and deparsers.
#ifndef BALANCER_TNA_PARSER_P4
#define BALANCER_TNA_PARSER_P4

parser IngressParser(packet_in pkt, out headers_t hdr, out local_md_t md,
                     out ingress_intrinsic_metadata_t ig_intr_md) {
#include "../../shared/parser_value_sets.p4"

    state start {
        pkt.extract(ig_intr_md);
        md.eth_type = 0;
#ifdef WITH_VERDICT
        // The arrival pipe, for the evidence copy's mirror session: taken
        // here, where it is extracted (a slice of the port in an action
        // would split the port the packet-in header is written from).
        md.copy_pipe = ig_intr_md.ingress_port[8:7];
        // Set by the ingress for another pipe's proof copy only.
        md.proof_copy = false;
        // A frame resubmitted by the verdict (include/control/verdict.p4)
        // carries its proof where the port metadata would be.
        transition select(ig_intr_md.resubmit_flag) {
            1:       parse_resubmit;
            default: parse_port_metadata;
        }
    }

    state parse_resubmit {
        pkt.extract(md.resub);
        transition parse_port;
    }

    state parse_port_metadata {
#endif
        pkt.advance(PORT_METADATA_SIZE);
        transition parse_port;
    }

    state parse_port {
        transition select(ig_intr_md.ingress_port) {
            CPU_PORT: parse_packet_out;
            cpu_port: parse_packet_out;
#ifdef WITH_VERDICT
            // The recirculation port of this pipe: an evidence copy of a
            // return in the other pipe (arch.p4, "Two pipes").
            EV_COPY_RECIRC_PORT &&& 0x7F: parse_ev_copy;
#endif
            default:  parse_ethernet;
        }
    }

#ifdef WITH_VERDICT
    state parse_ev_copy {
        pkt.extract(hdr.ev_copy);
        transition accept;
    }
#endif

#include "../../shared/parser.p4"
}

control IngressDeparser(packet_out pkt, inout headers_t hdr, in local_md_t md,
                        in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
#ifdef WITH_SESSIONS
    @name(".session_digest_t") Digest<session_digest_t>() session_digest;
#endif
#ifdef WITH_VERDICT
    // Named as the v1model build names its digest (by the struct): the
    // controller finds it by that name in either P4Info.
    @name(".verdict_digest_t") Digest<verdict_digest_t>() verdict_digest;
    Resubmit() resubmit;
    Mirror() ev_copy_mirror;
#endif

    apply {
#ifdef WITH_SESSIONS
        if (ig_dprsr_md.digest_type == 2) {
            session_digest.pack({md.sess_lo, md.sess_hi, md.ip_proto,
                                 md.balance_group, md.target_fg, md.core});
        }
#endif
#ifdef WITH_VERDICT
        if (ig_dprsr_md.digest_type == 1) {
            verdict_digest.pack(md.digest);
        }
#ifndef TESTGEN_NO_RESUBMIT
        // P4Testgen 1.2.5.16's Tofino target implements neither extern
        // method and stops at the first path that reaches them: its build
        // leaves them out (docs/testgen.md, "The verdict profiles").
        if (ig_dprsr_md.resubmit_type == 1) {
            resubmit.emit(md.resub);
        }
        if (ig_dprsr_md.mirror_type == 1) {
            ev_copy_mirror.emit<ev_copy_t>(md.copy_session, md.copy);
        }
#endif
#endif
        pkt.emit(hdr.bridged);
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

// Egress parses only what it may change: the bridged flags, the packet-in
// header towards the CPU, and a keep-alive to timestamp.
parser EgressParser(packet_in pkt, out headers_t hdr, out local_md_t md,
                    out egress_intrinsic_metadata_t eg_intr_md) {
    state start {
        pkt.extract(eg_intr_md);
#ifdef WITH_VERDICT
        // A frame to a recirculation port is an evidence copy (mirrored
        // with its header in front, no bridged metadata): nothing else is
        // ever sent there.
        transition select(eg_intr_md.egress_port) {
            EV_COPY_RECIRC_PORT &&& 0x7F: parse_ev_copy;
            default: parse_bridged;
        }
    }

    state parse_ev_copy {
        pkt.extract(hdr.ev_copy);
        transition accept;
    }

    state parse_bridged {
#endif
        pkt.extract(hdr.bridged);
        transition select(hdr.bridged.to_cpu, hdr.bridged.ka_stamp) {
            (1, _): parse_packet_in;
            (0, 1): parse_keepalive_frame;
            default: accept;
        }
    }

    state parse_packet_in {
        pkt.extract(hdr.packet_in);
        transition accept;
    }

    state parse_keepalive_frame {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.eth_type);
        pkt.extract(hdr.keepalive);
        transition accept;
    }
}

control EgressDeparser(packet_out pkt, inout headers_t hdr, in local_md_t md,
                       in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply {
#ifdef WITH_VERDICT
        pkt.emit(hdr.ev_copy);
#endif
        pkt.emit(hdr.packet_in);
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.eth_type);
        pkt.emit(hdr.keepalive);
    }
}

#endif  // BALANCER_TNA_PARSER_P4
