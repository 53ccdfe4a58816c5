// v1model Verdict: the data plane's own liveness evidence and verdict
// (docs/availability.md, "Data-plane verdict"), the TNA algorithm
// (p4src/tna/include/control/verdict.p4) transcribed step by step: the
// same registers, windows, tick convention and encodings. Per filter
// group and direction (index e = filter_group ++ the side the sends left
// by):
//   ev_time[e]       tag ++ last: tag is the window's since + detect (0:
//                    nothing unanswered), last the last send's deadline
//                    (its tick + detect)
//   ev_seen[e ++ b]  the window tag session bucket b (hash bits 20:16) last
//                    sent data in
//   ev_ka[e]         the oldest unanswered keep-alive's deadline (0: none)
//   ev_count[e]      tag ++ the buckets marked in that window
// and per filter group verdict[f] (VERDICT_SET | epoch).
//
// A return clears the window's tag and the pending keep-alive. A send
// opens a window (tag = now + detect) when none is open or the last send
// is past its deadline (a quiet spell). It proves loss when a pending
// keep-alive is past its deadline, or, for data, when the window's
// deadline has passed (now - tag >= 0) and at least VERDICT_MIN_BUCKETS
// buckets were marked in it before this frame. Differences are signed
// 32-bit: wrap-safe within half the clock's range. The tick is used as
// it is (0 reads as "none": a deadline of exactly 0 at most restarts a
// window).
//
// One pass: where the TNA build resubmits the proving frame, whose second
// pass writes the cell and takes the failure action, this build writes
// the cell and takes the failure action on the proving frame itself (the
// same seen from the wire). The standing check reads the cell before the
// evidence, as the TNA build does in its first pass; a frame that finds
// the verdict standing proves nothing new.
#ifndef BALANCER_V1MODEL_VERDICT_P4
#define BALANCER_V1MODEL_VERDICT_P4

control Verdict(inout headers_t hdr, inout local_md_t md) {
    @name(".BalancerIngress.ev_time") @id(ID_REGISTER_EV_TIME)
    register<bit<64>>(EVIDENCE_SIZE) ev_time;      // tag ++ last deadline
    @name(".BalancerIngress.ev_ka") @id(ID_REGISTER_EV_KA)
    register<tick_t>(EVIDENCE_SIZE) ev_ka;
    @name(".BalancerIngress.ev_seen") @id(ID_REGISTER_EV_SEEN)
    register<tick_t>(EVIDENCE_SEEN_SIZE) ev_seen;
    @name(".BalancerIngress.ev_count") @id(ID_REGISTER_EV_COUNT)
    register<bit<64>>(EVIDENCE_SIZE) ev_count;     // tag ++ buckets
    @name(".BalancerIngress.verdict") @id(ID_REGISTER_VERDICT)
    register<bit<16>>(FILTER_GROUP_TABLE_SIZE) verdict;

    apply {
        bit<32> i = (bit<32>)md.ev_index;
        bit<32> f = (bit<32>)md.target_fg;
        tick_t now = md.now;
        bit<16> key = VERDICT_SET | (bit<16>)md.epoch;

        // The cell and the standing check (TNA stages 7 and 8).
        bit<16> cell = 0;
        if (md.slot_hit) {
            verdict.read(cell, f);
        }
        if (md.fg_forward && cell == key) {
            md.verdict_hit = true;
        }

        // The evidence (TNA stages 8 to 10).
        if (md.ev_return) {
            bit<64> t;
            ev_time.read(t, i);
            ev_time.write(i, 32w0 ++ t[31:0]);
            ev_ka.write(i, 0);
        } else if (md.fg_forward) {
            tick_t deadline = now + md.detect;
            // ev_time: the window.
            bit<64> t;
            ev_time.read(t, i);
            tick_t tag = t[63:32];
            if (tag == 0 || (int<32>)(now - t[31:0]) > 0) {
                tag = deadline;
            }
            ev_time.write(i, tag ++ deadline);
            // ev_ka: the oldest unanswered keep-alive.
            tick_t k;
            ev_ka.read(k, i);
            tick_t ka_overdue = 0;
            if (md.ka_send) {
                if (k == 0) {
                    ev_ka.write(i, deadline);
                } else if ((int<32>)(now - k) > 0) {
                    ka_overdue = now - k;
                }
            } else if (k != 0 && (int<32>)(now - k) > 0) {
                ka_overdue = now - k;
            }
            tick_t overdue = now - tag;
            // ev_seen: the bucket's mark.
            bit<32> fresh = 0;
            if (!md.ka_send) {
                bit<32> j = (bit<32>)(md.ev_index ++ md.ev_bucket);
                tick_t seen;
                ev_seen.read(seen, j);
                if (seen != tag) {
                    ev_seen.write(j, tag);
                    fresh = 1;
                }
            }
            // ev_count: the buckets marked before this frame decide.
            bit<64> c;
            ev_count.read(c, i);
            bool enough = false;
            if (c[63:32] != tag) {
                ev_count.write(i, tag ++ fresh);
            } else {
                enough = c[31:0] >= (bit<32>)VERDICT_MIN_BUCKETS;
                ev_count.write(i, tag ++ (c[31:0] + fresh));
            }
            if (!md.verdict_hit) {
                if (ka_overdue != 0) {
                    md.verdict_now = true;
                    md.digest.reason = VERDICT_REASON_KEEPALIVE;
                    md.digest.age = ka_overdue + md.detect;
                } else if (!md.ka_send && overdue[31:31] == 0 && enough) {
                    md.verdict_now = true;
                    md.digest.reason = VERDICT_REASON_DATA;
                    md.digest.age = overdue + md.detect;
                }
            }
        }

        // A proof (the TNA build's second pass): the cell, the failure
        // action and the digest with the reason and age.
        if (md.verdict_now) {
            verdict.write(f, key);
            md.verdict_hit = true;
        }
    }
}

#endif  // BALANCER_V1MODEL_VERDICT_P4
