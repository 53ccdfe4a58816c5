// v1model egress: per-port tx counter and the keep-alive tx timestamp.
#ifndef BALANCER_V1MODEL_EGRESS_P4
#define BALANCER_V1MODEL_EGRESS_P4

control BalancerEgress(inout headers_t hdr, inout local_md_t md,
               inout standard_metadata_t std) {
    @id(ID_COUNTER_PORT_TX)
    INDEXED_COUNTER(port_tx, PORT_COUNTER_SIZE);

    apply {
        port_tx.count((bit<32>)std.egress_port);
        if (md.ka_stamp && hdr.keepalive.isValid()) {
            hdr.keepalive.tx_timestamp = (bit<64>)std.egress_global_timestamp;
        }
    }
}

control NoVerifyChecksum(inout headers_t hdr, inout local_md_t md) {
    apply { }
}

// The balancer never changes a byte that a checksum covers.
control NoComputeChecksum(inout headers_t hdr, inout local_md_t md) {
    apply { }
}

#endif  // BALANCER_V1MODEL_EGRESS_P4
