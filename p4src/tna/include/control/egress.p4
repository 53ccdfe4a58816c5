// TNA egress: per-port tx counter and the keep-alive tx timestamp.
#ifndef BALANCER_TNA_EGRESS_P4
#define BALANCER_TNA_EGRESS_P4

control BalancerEgress(inout headers_t hdr, inout local_md_t md,
               in egress_intrinsic_metadata_t eg_intr_md,
               in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
               inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
               inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    @id(ID_COUNTER_PORT_TX)
    INDEXED_COUNTER(port_tx, PORT_COUNTER_SIZE);

    apply {
        port_tx.count((bit<32>)eg_intr_md.egress_port);
        if (hdr.bridged.ka_stamp == 1 && hdr.keepalive.isValid()) {
            hdr.keepalive.tx_timestamp = (bit<64>)eg_prsr_md.global_tstamp;
        }
        hdr.bridged.setInvalid();
    }
}

#endif  // BALANCER_TNA_EGRESS_P4
