// TNA (Tofino) bindings for the shared pipeline.
#ifndef BALANCER_TNA_ARCH_P4
#define BALANCER_TNA_ARCH_P4

#include <core.p4>
#include <tna.p4>

// The compiled-in CPU port: the PCIe CPU port of a 2-pipe Tofino
// (Wedge100BF-32X); 320 on 4-pipe parts. The controller sets the switch's
// own at run time (IngressParser.cpu_port, BalancerIngress.switch_info).
#ifndef CPU_PORT
#define CPU_PORT 192
#endif

#define INGRESS_ARCH_PARAMS                                   \
    in ingress_intrinsic_metadata_t ig_intr_md,                \
    in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,    \
    inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md, \
    inout ingress_intrinsic_metadata_for_tm_t ig_tm_md
#define ARCH_INGRESS_PORT   ig_intr_md.ingress_port
#define ARCH_INGRESS_TS     ig_prsr_md.global_tstamp
// Ticks of 1.024 µs (bits 41:10 of the nanosecond clock), wrapping every
// 73.3 minutes: 32 bits, the width of a stateful ALU. Always odd (the
// lowest bit set, 1 µs of resolution given up), so that 0 means "never"
// in the verdict's registers and the verdict needs no operation of its
// own on it: a Tofino action does one operation per field.
#define ARCH_INGRESS_TICK   ig_prsr_md.global_tstamp[41:10]
// Tofino's ingress parser drops a frame with a parser error unless the
// program reads parser_err; reading it here makes such frames reach the
// ingress, which drops and counts them (DROP_MALFORMED).
#define ARCH_PARSER_ERROR   (ig_prsr_md.parser_err != 0)

#define DIRECT_COUNTER(name) \
    DirectCounter<bit<64>>(CounterType_t.PACKETS_AND_BYTES) name
#define INDEXED_COUNTER(name, size) \
    Counter<bit<64>, bit<32>>(size, CounterType_t.PACKETS_AND_BYTES) name
// A counter of many cells (core_counters, 2^16): 32-bit cells, so that it
// fits the statistics RAM of one stage (64-bit cells would need 64 RAMs and
// as many map RAMs, more than a stage has). The driver's counter sync
// folds the cells into the 64-bit totals P4Runtime reads return.
#define LARGE_INDEXED_COUNTER(name, size) \
    Counter<bit<32>, bit<32>>(size, CounterType_t.PACKETS_AND_BYTES) name

// Contract (hash): CRC-32/ISO-HDLC (reflected, init and xor-out all ones).
#define SYM_HASH_DECL                                                    \
    CRCPolynomial<bit<32>>(32w0x04C11DB7, true, false, false,            \
                           32w0xFFFFFFFF, 32w0xFFFFFFFF) crc32_poly;     \
    Hash<bit<32>>(HashAlgorithm_t.CUSTOM, crc32_poly) sym_hash;
#define SYM_HASH(dst, ...) dst = sym_hash.get({ __VA_ARGS__ })

// Contract (hash): a 128-bit IPv6 address folds into 32 bits by XOR of its
// four 32-bit words. On Tofino a hash unit does it (XOR32), in the stage's
// hash engine rather than in three dependent ALU operations.
#define FOLD128_DECL(name) Hash<bit<32>>(HashAlgorithm_t.XOR32) name;
#define FOLD128(name, dst, addr) dst = name.get({ addr })

#ifdef WITH_VERDICT
#define ARCH_DIGEST                                      \
    if (md.send_digest) {                                \
        ig_dprsr_md.digest_type = 1;                     \
    }
#else
#define ARCH_DIGEST
#endif

#define ARCH_INGRESS_FINISH                              \
    hdr.bridged.setValid();                              \
    hdr.bridged.to_cpu = (bit<1>)md.to_cpu;              \
    hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp;          \
    ARCH_DIGEST                                          \
    if (md.drop) {                                       \
        ig_dprsr_md.drop_ctl = 1;                        \
    } else if (md.to_cpu) {                              \
        ig_tm_md.ucast_egress_port = md.cpu_port;        \
    } else {                                             \
        ig_tm_md.ucast_egress_port = md.out_port;        \
    }

#endif  // BALANCER_TNA_ARCH_P4
