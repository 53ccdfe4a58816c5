// v1model (BMv2 simple_switch_grpc) bindings for the shared pipeline.
#ifndef BALANCER_V1MODEL_ARCH_P4
#define BALANCER_V1MODEL_ARCH_P4

#include <core.p4>
#include <v1model.p4>

// The compiled-in CPU port, simple_switch_grpc's usual --cpu-port. The
// controller sets the switch's own at run time (IngressParser.cpu_port,
// BalancerIngress.switch_info).
#ifndef CPU_PORT
#define CPU_PORT 255
#endif

// The v1model build has one profile: with the data-plane verdict
// (shared/ingress.p4, "Profiles").
#ifndef WITH_VERDICT
#define WITH_VERDICT 1
// The verdict needs no fields, arguments or forwarding-action statements
// of its own here (include/control/verdict.p4 proves and applies in one
// pass).
#define ARCH_VERDICT_MD
#define ARCH_VERDICT_ARGS
#define ARCH_EVIDENCE_DECL
#define ARCH_EVIDENCE_APPLY
#define ARCH_FORWARD_VERDICT(epoch, detect)
#endif
// One pipe: no frames of the architecture's own (shared/ingress.p4).
#define ARCH_INGRESS_BRANCH

#define INGRESS_ARCH_PARAMS inout standard_metadata_t std
#define ARCH_INGRESS_PORT   std.ingress_port
#define ARCH_INGRESS_TS     std.ingress_global_timestamp
// The packet-in header's timestamp, written where its port and reason are.
#define ARCH_STAMP_PACKET_IN hdr.packet_in.rx_timestamp = md.ingress_ts;
// Ticks of 1 µs (BMv2's clock), wrapping every 71.6 minutes.
#define ARCH_INGRESS_TICK   std.ingress_global_timestamp[31:0]
// BMv2 continues to ingress after a parser error, with the headers
// extracted before it valid and the error in parser_error.
#define ARCH_PARSER_ERROR   (std.parser_error != error.NoError)

#define DIRECT_COUNTER(name)        direct_counter(CounterType.packets_and_bytes) name
#define INDEXED_COUNTER(name, size) counter(size, CounterType.packets_and_bytes) name
#define LARGE_INDEXED_COUNTER(name, size) INDEXED_COUNTER(name, size)

// Contract (hash): BMv2's crc32 is CRC-32/ISO-HDLC; max 2^32 keeps all bits.
#define SYM_HASH_DECL
#define SYM_HASH(dst, ...) \
    hash(dst, HashAlgorithm.crc32, (bit<32>)0, { __VA_ARGS__ }, (bit<64>)0x100000000)

// Contract (hash): a 128-bit IPv6 address folds into 32 bits by XOR of its
// four 32-bit words.
#define FOLD128_DECL(name)
#define FOLD128(name, dst, addr) \
    dst = addr[127:96] ^ addr[95:64] ^ addr[63:32] ^ addr[31:0]

// The session table's ageing (control/balancing.p4): BMv2's idle
// timeout, notified to the controller through PI.
#define ARCH_SESSION_TIMEOUT support_timeout = true;

// One digest per frame, the verdict's first (a session is learned from
// its next frame), as in the TNA build.
#ifdef WITH_SESSIONS
#define ARCH_SESSION_DIGEST                                              \
    else if (md.learn) {                                                 \
        digest<session_digest_t>(2, {md.sess_lo, md.sess_hi, md.ip_proto, \
                                     md.balance_group, md.target_fg, md.core}); \
    }
#else
#define ARCH_SESSION_DIGEST
#endif

#define ARCH_INGRESS_FINISH                  \
    if (md.send_digest) {                    \
        digest<verdict_digest_t>(1, md.digest); \
    } ARCH_SESSION_DIGEST                    \
    if (md.drop) {                           \
        mark_to_drop(std);                   \
    } else if (md.to_cpu) {                  \
        std.egress_spec = md.cpu_port;       \
    } else {                                 \
        std.egress_spec = md.out_port;       \
    }

#endif  // BALANCER_V1MODEL_ARCH_P4
