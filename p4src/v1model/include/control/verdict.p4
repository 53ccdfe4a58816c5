// v1model Verdict: the data plane's own liveness evidence and verdict
// (docs/availability.md, "Data-plane verdict"). Per filter group and
// direction (index e = filter_group ++ the side the sends left by):
//   ev_since[e]     the oldest unanswered send (tick | 1); 0: nothing pending
//   ev_last[e]      the last send
//   ev_seen[e ++ b] the ev_since at which session bucket b (hash bits
//                   20:16) last sent data: b is marked in the current
//                   window when it equals ev_since[e]
//   ev_count[e]     how many buckets are marked, valid for ev_count_tag[e]
//   ev_ka[e]        the oldest unanswered keep-alive, valid for ev_ka_tag[e]
// and per filter group verdict[f] (VERDICT_SET | epoch). Everything but
// ev_since is tagged with the window (the ev_since it belongs to), so a
// return clears the evidence by one write, ev_since = 0, and a new window
// makes the old marks, count and keep-alive stale by itself (the TNA build
// does the same with one register access each).
//
// A send starts the clock (a new window) when nothing is pending or after
// a quiet spell longer than detect (so the first frame after a quiet spell
// proves nothing); otherwise it proves loss when the oldest unanswered
// keep-alive waited longer than detect, or when the oldest unanswered send
// did and the unanswered data came from at least VERDICT_MIN_BUCKETS
// buckets. Time differences are unsigned 32-bit: wrap-safe.
#ifndef BALANCER_V1MODEL_VERDICT_P4
#define BALANCER_V1MODEL_VERDICT_P4

control Verdict(inout headers_t hdr, inout local_md_t md) {
    @name(".BalancerIngress.ev_since") @id(ID_REGISTER_EV_SINCE)
    register<tick_t>(EVIDENCE_SIZE) ev_since;
    @name(".BalancerIngress.ev_last") @id(ID_REGISTER_EV_LAST)
    register<tick_t>(EVIDENCE_SIZE) ev_last;
    @name(".BalancerIngress.ev_ka") @id(ID_REGISTER_EV_KA)
    register<bit<64>>(EVIDENCE_SIZE) ev_ka;        // tag ++ keep-alive time
    @name(".BalancerIngress.ev_seen") @id(ID_REGISTER_EV_SEEN)
    register<tick_t>(EVIDENCE_SEEN_SIZE) ev_seen;
    @name(".BalancerIngress.ev_count") @id(ID_REGISTER_EV_COUNT)
    register<bit<64>>(EVIDENCE_SIZE) ev_count;     // tag ++ count
    @name(".BalancerIngress.verdict") @id(ID_REGISTER_VERDICT)
    register<bit<16>>(FILTER_GROUP_TABLE_SIZE) verdict;

    apply {
        bit<32> i = (bit<32>)md.ev_index;
        if (md.ev_return) {
            ev_since.write(i, 0);
        } else if (md.ev_send) {
            tick_t now = md.now | 1;
            tick_t since;
            tick_t last;
            ev_since.read(since, i);
            ev_last.read(last, i);
            bool restart = false;
            if (since == 0 || now - last > md.detect) {
                // Nothing pending, or the first send after a quiet spell:
                // a new window; it proves nothing.
                restart = true;
                since = now;
                ev_since.write(i, since);
            }
            ev_last.write(i, now);

            bit<32> fresh = 0;
            if (!md.ka_send) {
                bit<32> j = (bit<32>)(md.ev_index ++ md.ev_bucket);
                tick_t seen;
                ev_seen.read(seen, j);
                if (seen != since) {
                    fresh = 1;
                    ev_seen.write(j, since);
                }
            }
            bit<64> c;
            ev_count.read(c, i);
            bit<32> count = c[31:0];
            if (c[63:32] != since) {
                count = 0;
            }
            count = count + fresh;
            ev_count.write(i, since ++ count);

            bit<64> k;
            ev_ka.read(k, i);
            tick_t ka = k[31:0];
            if (k[63:32] != since) {
                ka = 0;
            }
            if (!restart) {
                if (ka != 0 && now - ka > md.detect) {
                    md.verdict_now = true;
                    md.verdict_reason = VERDICT_REASON_KEEPALIVE;
                    md.verdict_age = now - ka;
                } else if (now - since > md.detect && count >= (bit<32>)VERDICT_MIN_BUCKETS) {
                    md.verdict_now = true;
                    md.verdict_reason = VERDICT_REASON_DATA;
                    md.verdict_age = now - since;
                }
            }
            if (md.ka_send && ka == 0) {
                ka = now;
            }
            ev_ka.write(i, since ++ ka);
        }
        if (md.fg_forward) {
            bit<32> f = (bit<32>)md.target_fg;
            bit<16> key = VERDICT_SET | (bit<16>)md.epoch;
            bit<16> v;
            verdict.read(v, f);
            if (v == key) {
                // Standing: no new proof (and no new digest age).
                md.verdict_hit = true;
                md.verdict_now = false;
            } else if (md.verdict_now) {
                verdict.write(f, key);
                md.verdict_hit = true;
            }
        }
    }
}

#endif  // BALANCER_V1MODEL_VERDICT_P4
