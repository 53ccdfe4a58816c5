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
// The MAC's arrival stamp (nanoseconds, the clock the egress stamps
// keep-alives with): written into the packet-in header by the finish
// below, in an action of its own (see ARCH_STAMP_PACKET_IN).
#define ARCH_INGRESS_TS     ig_intr_md.ingress_mac_tstamp
// Ticks of 65.536 µs (bits 47:16 of the nanosecond clock), wrapping every
// 78.2 hours: 32 bits, the width of a stateful ALU, on a container
// boundary of the clock (a slice starting inside a container cannot be
// lined up with the 32-bit fields the verdict relates it to: PHV
// allocation fails). The floor of every timing the pipeline judges.
#define ARCH_INGRESS_TICK   ig_prsr_md.global_tstamp[47:16]
// The packet-in header's timestamp: written in the finish (the header's
// port and reason are written in filter_return; one action writing all
// three from three sources is more than a Tofino action may do).
#define ARCH_STAMP_PACKET_IN
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

// Two pipes (docs/tofino.md, "Two pipes"). A 2-pipe Tofino keeps a copy
// of every register per pipe, and a frame runs in the pipe of the port it
// arrives on: sends are recorded in the pipe of the link port (or of the
// CPU port, for keep-alives), returns arrive in the pipe of the filter
// port. So every return is also mirrored, as a 3-byte evidence copy in
// front of the frame's first bytes, to the recirculation port of the
// other pipe (mirror session EV_COPY_SESSION_BASE + the arrival pipe,
// which the controller points there, truncated), whose ingress takes it
// as that return and drops it. Data returns are copied at most once per
// EV_COPY_TICKS per filter group and direction (a window is cleared by
// any return: the other pipe learns of life at most ~1 ms late), a
// returning keep-alive always (each clears its own pending send).
// A proof is copied too: the proving frame's second pass, which writes
// its pipe's verdict cell, mirrors a proof copy (EV_PROOF_MAGIC, with the
// epoch) the same way, and the other pipe's ingress writes its own cell
// from it, so a verdict proven in one pipe stands in every pipe.
header ev_copy_t {
    bit<8> magic;          // EV_COPY_MAGIC or EV_PROOF_MAGIC
    @padding bit<1> _pad0;
    bit<7> ev_index;       // filter group ++ the side the sends left by
    bit<8> epoch;          // a proof copy: the epoch the verdict is of
}
#ifdef WITH_VERDICT
#define EV_COPY_MAGIC        0xE5
#define EV_PROOF_MAGIC       0xE6
// Pipe-local port 68 of every pipe loops back into its own ingress
// (device ports 68, 196, ...): the recirculation port.
#define EV_COPY_RECIRC_PORT  68
#define EV_COPY_SESSION_BASE 960
// 16 ticks of 65.536 µs: 1.05 ms.
#define EV_COPY_SHIFT        4
#define ARCH_HEADERS ev_copy_t ev_copy;
#define ARCH_INGRESS_BRANCH                                   \
    else if (hdr.ev_copy.isValid()) {                         \
        /* The other pipe's return or proof, then dropped. */ \
        ig_dprsr_md.drop_ctl = 1;                             \
        if (hdr.ev_copy.magic == EV_COPY_MAGIC) {             \
            md.ev_return = true;                              \
            md.ev_index = hdr.ev_copy.ev_index;               \
        } else if (hdr.ev_copy.magic == EV_PROOF_MAGIC) {     \
            /* Verdict's cell, written from the copy. */      \
            md.proof_copy = true;                             \
            md.target_fg = hdr.ev_copy.ev_index[6:1];         \
        }                                                     \
    }
#else
#define ARCH_INGRESS_BRANCH
#endif

// The verdict's own fields (include/control/verdict.p4). A frame whose
// evidence proves loss is resubmitted with verdict_resubmit_t, the 64 bits
// Tofino 1 carries into the second pass (in place of the port metadata):
// the epoch its filter group was forwarding at, the reason and how far
// past the deadline the proof came (the digest's age is that + detect).
header verdict_resubmit_t {
    bit<8>  epoch;
    bit<8>  reason;
    @padding bit<16> _pad0;
    bit<32> overdue;
}
#define ARCH_VERDICT_MD                                                 \
    bit<32> deadline;      /* now + detect (filter_forward)          */ \
    bit<32> tag;           /* the window: its since + detect; 0 none */ \
    bit<32> overdue;       /* now - tag: >= 0 when the window expired */ \
    bit<32> ka_overdue;    /* > 0: a keep-alive past its deadline    */ \
    bit<32> fresh;         /* 1: a bucket new in this window         */ \
    bit<16> cell;          /* the verdict cell read in this pass     */ \
    verdict_resubmit_t resub;                                           \
    ev_copy_t copy;        /* the evidence copy a return mirrors     */ \
    MirrorId_t copy_session;                                            \
    bit<2>  copy_pipe;     /* the arrival pipe (set by the parser)   */ \
    bit<28> copy_slot;     /* now in units of EV_COPY_TICKS          */ \
    bool    proof_copy;    /* another pipe's proof (the parser: false) */
#define ARCH_VERDICT_ARGS , ig_dprsr_md
// The evidence is a control of its own, applied after the failure action.
// The copy first: it reads the second pass's resubmit header, which the
// evidence writes when a first pass proves loss (applied after it, the
// copy would wait for the evidence's last stage).
#define ARCH_EVIDENCE_DECL  Evidence() evidence_ctl; EvidenceCopy() evidence_copy_ctl;
#define ARCH_EVIDENCE_APPLY                                  \
    TESTGEN_GUIDE                                            \
    evidence_copy_ctl.apply(hdr, md, ig_dprsr_md);           \
    evidence_ctl.apply(hdr, md, ig_dprsr_md);
// P4Testgen's guided runs (make p4-testgen; docs/testgen.md, "Guided
// runs"): its build of the program keeps only the paths of one kind, the
// ones an unguided search of the verdict profiles does not reach in its
// time (P4Testgen's testgen_assume, which constrains the search and
// changes nothing of what a path does). Every other build: nothing.
#if defined(TESTGEN_GUIDE_FORWARD)
// A data frame balanced to a group in service (a standing verdict or not).
#define TESTGEN_GUIDE testgen_assume(md.fg_forward && !md.ka_send);
#elif defined(TESTGEN_GUIDE_RETURN)
// A keep-alive coming back on a filter port.
#define TESTGEN_GUIDE testgen_assume(md.port_type == PORT_TYPE_FILTER && hdr.keepalive.isValid());
#else
#define TESTGEN_GUIDE
#endif
#define ARCH_FORWARD_VERDICT(epoch, detect)                              \
    md.deadline = md.now + (detect);

// The session table's ageing (control/balancing.p4): the target's idle
// timeout, notified to the controller.
#define ARCH_SESSION_TIMEOUT idle_timeout = true;

#if defined(WITH_VERDICT) && defined(WITH_SESSIONS)
// One digest per frame: the verdict's first (a session is learned from
// its next frame).
#define ARCH_DIGEST                                      \
    if (md.send_digest) {                                \
        ig_dprsr_md.digest_type = 1;                     \
    } else if (md.learn) {                               \
        ig_dprsr_md.digest_type = 2;                     \
    }
#elif defined(WITH_VERDICT)
#define ARCH_DIGEST                                      \
    if (md.send_digest) {                                \
        ig_dprsr_md.digest_type = 1;                     \
    }
#elif defined(WITH_SESSIONS)
#define ARCH_DIGEST                                      \
    if (md.learn) {                                      \
        ig_dprsr_md.digest_type = 2;                     \
    }
#else
#define ARCH_DIGEST
#endif

#define ARCH_INGRESS_FINISH                              \
    if (md.to_cpu) {                                     \
        hdr.packet_in.rx_timestamp = md.ingress_ts;      \
    }                                                    \
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
