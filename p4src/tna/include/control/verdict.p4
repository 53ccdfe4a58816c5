// TNA Verdict: the same evidence and verdict as the v1model build
// (p4src/v1model/include/control/verdict.p4, docs/availability.md), with
// one RegisterAction per register per pass and 32-bit stateful ALUs (pairs
// of 32 bits). bf-p4c 1.2.5.16 accepts its stateful ALUs and actions
// (two comparisons per RegisterAction, one operation per field per
// action); the whole program does not fit yet: PHV allocation fails on
// the packet-in header (docs/tofino.md, "Data-plane verdict").
//
// md.now is the 32-bit tick as it is; 0 means "never" in ev_time and
// ev_ka, so a send or a keep-alive at tick 0 exactly (one 1.024 µs tick
// every 73.3 minutes) reads as none: at most that window starts again.
// (The v1model build uses now | 1; on Tofino that OR in the same action
// as its use spans two stages, and bf-p4c propagates it into the use
// wherever it is written.)
//
// Stage plan after filter_groups (each step needs the one before):
//   1  ev_time   {since, last}: a return writes since = 0; a send starts
//                a window (since = now) when nothing is pending or the last
//                send is older than detect, and returns since
//   2  ev_seen   (e ++ bucket): the window the bucket last sent data in;
//                returns 1 when the bucket is new in this window
//      ev_ka     {tag, time}: the oldest unanswered keep-alive of the window
//   3  ev_count  {tag, count}: buckets marked in the window
//   4  the proof (gateway compares in PHV), then verdict {cell}: reads the
//      cell, writes VERDICT_SET | epoch when proven, returns the old cell
//   5  the failure action (ingress.p4)
#ifndef BALANCER_TNA_VERDICT_P4
#define BALANCER_TNA_VERDICT_P4

struct ev_pair_t {
    bit<32> first;
    bit<32> second;
}

control Verdict(inout headers_t hdr, inout local_md_t md) {
    tick_t since;
    tick_t ka;
    bit<32> fresh;
    bit<32> count;
    tick_t deadline;
    bit<16> key;
    bit<16> cell;

    @name(".BalancerIngress.ev_time")
    Register<ev_pair_t, bit<7>>(EVIDENCE_SIZE) ev_time;
    @name(".BalancerIngress.ev_seen")
    Register<bit<32>, bit<12>>(EVIDENCE_SEEN_SIZE) ev_seen;
    @name(".BalancerIngress.ev_ka")
    Register<ev_pair_t, bit<7>>(EVIDENCE_SIZE) ev_ka;
    @name(".BalancerIngress.ev_count")
    Register<ev_pair_t, bit<7>>(EVIDENCE_SIZE) ev_count;
    @name(".BalancerIngress.verdict")
    Register<bit<16>, fg_id_t>(FILTER_GROUP_TABLE_SIZE) verdict;

    // second holds last + detect (the end of the quiet-spell allowance),
    // so that the ALU compares two operands: now - deadline, signed.
    RegisterAction<ev_pair_t, bit<7>, bit<32>>(ev_time) ev_time_return = {
        void apply(inout ev_pair_t v) {
            v.first = 0;
        }
    };
    RegisterAction<ev_pair_t, bit<7>, bit<32>>(ev_time) ev_time_send = {
        void apply(inout ev_pair_t v, out bit<32> rv) {
            if (v.first == 0 || (int<32>)(md.now - v.second) > 0) {
                v.first = md.now;
            }
            v.second = deadline;
            rv = v.first;
        }
    };
    RegisterAction<bit<32>, bit<12>, bit<32>>(ev_seen) ev_seen_mark = {
        void apply(inout bit<32> v, out bit<32> rv) {
            rv = 0;
            if (v != since) {
                v = since;
                rv = 1;
            }
        }
    };
    // Two actions on ev_ka, chosen by the kind of send: a stateful ALU
    // has two comparison units, and one action for both kinds would need
    // three (the window, the pending keep-alive and the kind).
    RegisterAction<ev_pair_t, bit<7>, bit<32>>(ev_ka) ev_ka_send_ka = {
        void apply(inout ev_pair_t v, out bit<32> rv) {
            rv = 0;
            if (v.first != since) {
                v.first = since;
                v.second = md.now;
            } else {
                rv = v.second;
                if (v.second == 0) {
                    v.second = md.now;
                }
            }
        }
    };
    RegisterAction<ev_pair_t, bit<7>, bit<32>>(ev_ka) ev_ka_send_data = {
        void apply(inout ev_pair_t v, out bit<32> rv) {
            rv = 0;
            if (v.first != since) {
                v.first = since;
                v.second = 0;
            } else {
                rv = v.second;
            }
        }
    };
    RegisterAction<ev_pair_t, bit<7>, bit<32>>(ev_count) ev_count_add = {
        void apply(inout ev_pair_t v, out bit<32> rv) {
            if (v.first != since) {
                v.first = since;
                v.second = fresh;
            } else {
                v.second = v.second + fresh;
            }
            rv = v.second;
        }
    };
    RegisterAction<bit<16>, fg_id_t, bit<16>>(verdict) verdict_check = {
        void apply(inout bit<16> v, out bit<16> rv) {
            rv = v;
            if (v != key && md.verdict_now) {
                v = key;
            }
        }
    };

    apply {
        deadline = md.now + md.detect;
        key = VERDICT_SET | (bit<16>)md.epoch;
        fresh = 0;
        if (md.ev_return) {
            ev_time_return.execute(md.ev_index);
        } else if (md.ev_send) {
            since = ev_time_send.execute(md.ev_index);
            if (!md.ka_send) {
                fresh = ev_seen_mark.execute(md.ev_index ++ md.ev_bucket);
            }
            if (md.ka_send) {
                ka = ev_ka_send_ka.execute(md.ev_index);
            } else {
                ka = ev_ka_send_data.execute(md.ev_index);
            }
            count = ev_count_add.execute(md.ev_index);
            // since == md.now: this send started the window.
            if (since != md.now) {
                tick_t ka_age = md.now - ka;
                tick_t age = md.now - since;
                if (ka != 0 && ka_age > md.detect) {
                    md.verdict_now = true;
                    md.verdict_reason = VERDICT_REASON_KEEPALIVE;
                    md.verdict_age = ka_age;
                } else if (age > md.detect && count >= (bit<32>)VERDICT_MIN_BUCKETS) {
                    md.verdict_now = true;
                    md.verdict_reason = VERDICT_REASON_DATA;
                    md.verdict_age = age;
                }
            }
        }
        if (md.fg_forward) {
            cell = verdict_check.execute(md.target_fg);
            if (cell == key) {
                md.verdict_hit = true;
                md.verdict_now = false;
            } else if (md.verdict_now) {
                md.verdict_hit = true;
            }
        }
    }
}

#endif  // BALANCER_TNA_VERDICT_P4
