// TNA Verdict: the data-plane verdict refitted to Tofino 1's stages
// (docs/tofino.md, "Data-plane verdict on Tofino"). The same evidence as
// the v1model build (a window of unanswered sends per filter group and
// direction, the session buckets marked in it, the oldest unanswered
// keep-alive), proven by stateful-ALU predicates, and the proof decoupled
// from the frame being forwarded: a frame whose evidence proves loss is
// resubmitted, and its second pass writes the verdict cell, takes the
// failure action and sends the digest. Every later frame of the group
// finds the standing verdict in the cell right beside filter_groups.
//
// Clock: md.now is global_tstamp[47:16] (65.536 µs ticks). Deadlines are
// computed in filter_forward's action (md.deadline = now + detect), so
// that every stateful ALU compares two operands (now - deadline, signed):
//   ev_time  {tag, last}: tag = the window's since + detect (0: nothing
//            unanswered); last = the last send's deadline. A return
//            clears tag; a send opens a window (tag = deadline) when none
//            is open or the last send is past its deadline (a quiet
//            spell), and returns tag.
//   ev_seen  (e ++ bucket): the window tag a bucket last sent data in;
//            returns 1 when the bucket is new in this window.
//   ev_ka    the oldest unanswered keep-alive's deadline (0: none); a
//            return clears it; returns how far past it `now` is (0 when
//            not past).
//   ev_count {tag, buckets}: buckets marked in the window; when the
//            window's deadline has passed (now - tag >= 0) and at least
//            VERDICT_MIN_BUCKETS buckets were marked before this frame,
//            returns the resubmit type straight into the deparser's field.
//
// Stage plan (filter_groups in stage 7):
//   7   verdict cell: read (first pass), or written VERDICT_SET | epoch
//       (second pass), beside filter_groups
//   8   standing check (cell against filter_forward's epoch); ev_time
//   9   the failure action (ingress.p4); ev_seen, ev_ka; overdue = now - tag
//   10  statistics and the finish; ev_count, the resubmit decision
#ifndef BALANCER_TNA_VERDICT_P4
#define BALANCER_TNA_VERDICT_P4

struct ev_pair_t {
    bit<32> first;
    bit<32> second;
}

// Verdict: the cell and the standing check, applied before the failure
// action (ingress.p4).
control Verdict(inout headers_t hdr, inout local_md_t md,
                inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    @name(".BalancerIngress.verdict")
    Register<bit<16>, fg_id_t>(FILTER_GROUP_TABLE_SIZE) verdict;


    RegisterAction<bit<16>, fg_id_t, bit<16>>(verdict) verdict_read = {
        void apply(inout bit<16> v, out bit<16> rv) {
            rv = v;
        }
    };
    RegisterAction<bit<16>, fg_id_t, bit<16>>(verdict) verdict_write = {
        void apply(inout bit<16> v) {
            v = VERDICT_SET | (bit<16>)md.resub.epoch;
        }
    };
    // Another pipe's proof (EvidenceCopy, below): the same cell, of the
    // epoch the copy carries.
    RegisterAction<bit<16>, fg_id_t, bit<16>>(verdict) verdict_write_copy = {
        void apply(inout bit<16> v) {
            v = VERDICT_SET | (bit<16>)hdr.ev_copy.epoch;
        }
    };

    @hidden action verdict_none() { }
    @hidden action cell_read() {
        md.cell = verdict_read.execute(md.target_fg);
    }
    @hidden action cell_write() {
        verdict_write.execute(md.target_fg);
    }
    @hidden action cell_write_copy() {
        verdict_write_copy.execute(md.target_fg);
    }
    // Stage 7: the cell, beside filter_groups (gated as it is), pinned
    // there (bf-p4c's placement otherwise gives it stage 8). A proof copy
    // from another pipe (arch.p4, "Two pipes") writes it too.
    @hidden @stage(7) table verdict_cell {
        key = {
            md.slot_hit         : exact;
            md.resub.isValid()  : exact;
            md.proof_copy       : exact;
        }
        actions = { cell_read; cell_write; cell_write_copy; verdict_none; }
        const entries = {
            (true,  false, false) : cell_read();
            (true,  true,  false) : cell_write();
            (false, false, true)  : cell_write_copy();
        }
        const default_action = verdict_none();
        size = 4;
    }

    apply {
        verdict_cell.apply();
        // Stage 8: a standing verdict, or the proving frame's second pass.
        if (md.fg_forward) {
            if (md.resub.isValid()) {
                md.verdict_hit = true;
                md.verdict_now = true;
                md.digest.reason = md.resub.reason;
                md.digest.age = md.resub.overdue + md.detect;
            } else if (md.cell[15:8] == VERDICT_SET[15:8] && md.cell[7:0] == md.epoch) {
                // The whole cell equals VERDICT_SET | epoch (defines.p4),
                // compared in its two bytes: no computed key before the
                // gateway.
                md.verdict_hit = true;
            }
        }
    }
}

// Evidence: the windows, marks and counts of every send and return, and
// the resubmit of a frame that proves loss. Applied after the failure
// action: on Tofino its stages run beside the failure action and the
// statistics, not before them.
control Evidence(inout headers_t hdr, inout local_md_t md,
                 inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    @name(".BalancerIngress.ev_time")
    Register<ev_pair_t, bit<7>>(EVIDENCE_SIZE) ev_time;
    @name(".BalancerIngress.ev_seen")
    Register<bit<32>, bit<12>>(EVIDENCE_SEEN_SIZE) ev_seen;
    @name(".BalancerIngress.ev_ka")
    Register<bit<32>, bit<7>>(EVIDENCE_SIZE) ev_ka;
    @name(".BalancerIngress.ev_count")
    Register<ev_pair_t, bit<7>>(EVIDENCE_SIZE) ev_count;
    RegisterAction<ev_pair_t, bit<7>, bit<32>>(ev_time) ev_time_return = {
        void apply(inout ev_pair_t v) {
            v.first = 0;
        }
    };
    RegisterAction<ev_pair_t, bit<7>, bit<32>>(ev_time) ev_time_send = {
        void apply(inout ev_pair_t v, out bit<32> rv) {
            if (v.first == 0 || (int<32>)(md.now - v.second) > 0) {
                v.first = md.deadline;
            }
            v.second = md.deadline;
            rv = v.first;
        }
    };

    RegisterAction<bit<32>, bit<12>, bit<32>>(ev_seen) ev_seen_mark = {
        void apply(inout bit<32> v, out bit<32> rv) {
            rv = 0;
            if (v != md.tag) {
                v = md.tag;
                rv = 1;
            }
        }
    };

    RegisterAction<bit<32>, bit<7>, bit<32>>(ev_ka) ev_ka_return = {
        void apply(inout bit<32> v) {
            v = 0;
        }
    };
    RegisterAction<bit<32>, bit<7>, bit<32>>(ev_ka) ev_ka_send_ka = {
        void apply(inout bit<32> v, out bit<32> rv) {
            rv = 0;
            if (v == 0) {
                v = md.deadline;
            } else if ((int<32>)(md.now - v) > 0) {
                rv = md.now - v;
            }
        }
    };
    RegisterAction<bit<32>, bit<7>, bit<32>>(ev_ka) ev_ka_send_data = {
        void apply(inout bit<32> v, out bit<32> rv) {
            rv = 0;
            if (v != 0 && (int<32>)(md.now - v) > 0) {
                rv = md.now - v;
            }
        }
    };

    RegisterAction<ev_pair_t, bit<7>, bit<32>>(ev_count) ev_count_add = {
        void apply(inout ev_pair_t v) {
            if (v.first != md.tag) {
                v.first = md.tag;
                v.second = md.fresh;
            } else {
                v.second = v.second + md.fresh;
            }
        }
    };
    RegisterAction<ev_pair_t, bit<7>, bit<3>>(ev_count) ev_count_proof = {
        void apply(inout ev_pair_t v, out bit<3> rv) {
            rv = 0;
            if (v.first != md.tag) {
                v.first = md.tag;
                v.second = md.fresh;
            } else {
                if (v.second >= (bit<32>)VERDICT_MIN_BUCKETS) {
                    rv = 1;
                }
                v.second = v.second + md.fresh;
            }
        }
    };

    // The steps as tables with constant entries, each pinned to its stage
    // (@stage): bf-p4c's placement otherwise puts the whole evidence
    // after the statistics and the finish (14 stages where the
    // dependencies need 11). Keys: md.ev_return (a return), md.fg_forward
    // (a send: filter_forward ran), md.ka_send (a keep-alive packet-out),
    // the resubmit header (the second pass takes no evidence).
    @hidden action ev_none() { }
    // md.fresh stays 0 (metadata starts at 0) but for data sends, which
    // mark their bucket: a keep-alive marks none.

    // Stage 8: the window.
    @hidden action ev_time_of_return() {
        ev_time_return.execute(md.ev_index);
    }
    @hidden action ev_time_of_send() {
        md.tag = ev_time_send.execute(md.ev_index);
    }
    @hidden @stage(8) table ev_time_step {
        key = {
            md.ev_return        : exact;
            md.fg_forward       : exact;
            md.resub.isValid()  : exact;
        }
        actions = { ev_time_of_return; ev_time_of_send; ev_none; }
        const entries = {
            (true,  false, false) : ev_time_of_return();
            (false, true,  false) : ev_time_of_send();
        }
        const default_action = ev_none();
        size = 4;
    }

    // Stage 9: the bucket marks, the keep-alive, the window's overdue.
    @hidden action ev_ka_of_return() {
        ev_ka_return.execute(md.ev_index);
    }
    @hidden action ev_ka_of_keepalive() {
        md.ka_overdue = ev_ka_send_ka.execute(md.ev_index);
        md.overdue = md.now - md.tag;
    }
    @hidden action ev_ka_of_data() {
        md.ka_overdue = ev_ka_send_data.execute(md.ev_index);
        md.overdue = md.now - md.tag;
    }
    @hidden @stage(9) table ev_ka_step {
        key = {
            md.ev_return        : exact;
            md.fg_forward       : exact;
            md.ka_send          : exact;
            md.resub.isValid()  : exact;
        }
        actions = { ev_ka_of_return; ev_ka_of_keepalive; ev_ka_of_data; ev_none; }
        const entries = {
            (true,  false, false, false) : ev_ka_of_return();
            (false, true,  true,  false) : ev_ka_of_keepalive();
            (false, true,  false, false) : ev_ka_of_data();
        }
        const default_action = ev_none();
        size = 8;
    }
    @hidden action ev_seen_of_data() {
        md.fresh = ev_seen_mark.execute(md.ev_index ++ md.ev_bucket);
    }
    @hidden @stage(9) table ev_seen_step {
        key = {
            md.fg_forward       : exact;
            md.ka_send          : exact;
            md.resub.isValid()  : exact;
        }
        actions = { ev_seen_of_data; ev_none; }
        const entries = {
            (true, false, false) : ev_seen_of_data();
        }
        const default_action = ev_none();
        size = 2;
    }

    // Stage 10: the count, and the resubmit of a proving frame: a
    // keep-alive past its deadline, or data of the expired window from
    // at least VERDICT_MIN_BUCKETS buckets (the count's own predicate
    // is the resubmit type).
    @hidden action ev_count_of_send() {
        ev_count_add.execute(md.ev_index);
    }
    @hidden action ev_count_of_keepalive_proof() {
        ev_count_add.execute(md.ev_index);
        ig_dprsr_md.resubmit_type = 1;
        md.resub.setValid();
        md.resub.epoch = md.epoch;
        md.resub.reason = VERDICT_REASON_KEEPALIVE;
        md.resub.overdue = md.ka_overdue;
    }
    @hidden action ev_count_of_expired_data() {
        ig_dprsr_md.resubmit_type = ev_count_proof.execute(md.ev_index);
        md.resub.setValid();
        md.resub.epoch = md.epoch;
        md.resub.reason = VERDICT_REASON_DATA;
        md.resub.overdue = md.overdue;
    }
    @hidden @stage(10) table ev_count_step {
        key = {
            md.fg_forward       : exact;
            md.resub.isValid()  : exact;
            md.verdict_hit      : ternary;
            md.ka_send          : ternary;
            md.ka_overdue       : ternary;
            md.overdue[31:31]   : ternary;
        }
        actions = { ev_count_of_send; ev_count_of_keepalive_proof; ev_count_of_expired_data; ev_none; }
        const entries = {
            // In order (the first that matches): a standing verdict (it
            // proves nothing new), no keep-alive overdue and an unexpired
            // window, or a keep-alive send with none overdue: counted.
            (true, false, true, _,     _, _) : ev_count_of_send();
            (true, false, _,    _,     0, 1) : ev_count_of_send();
            (true, false, _,    true,  0, _) : ev_count_of_send();
            (true, false, _,    false, 0, 0) : ev_count_of_expired_data();
            (true, false, _,    _,     _, _) : ev_count_of_keepalive_proof();
        }
        const default_action = ev_none();
        size = 8;
    }

    apply {
        ev_time_step.apply();
        ev_ka_step.apply();
        ev_seen_step.apply();
        ev_count_step.apply();
    }
}

// EvidenceCopy: a return in this pipe is mirrored to the other pipe's
// recirculation port (arch.p4, "Two pipes"), where it clears that pipe's
// window and pending keep-alive of the same filter group and direction.
// Data returns at most once per EV_COPY_TICKS per group and direction
// (one copy per slot of that many ticks: an equality, wrap-safe),
// keep-alive returns always. A proving frame's second pass, which wrote
// this pipe's verdict cell (Verdict, above), is mirrored as a proof copy
// with the epoch: the other pipe writes its cell from it. Copies are
// never copied again.
control EvidenceCopy(inout headers_t hdr, inout local_md_t md,
                     inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    @name(".BalancerIngress.ev_copy_slot")
    Register<bit<32>, bit<7>>(EVIDENCE_SIZE) ev_copy_slot;
    RegisterAction<bit<32>, bit<7>, bit<3>>(ev_copy_slot) ev_copy_due = {
        void apply(inout bit<32> v, out bit<3> rv) {
            rv = 0;
            if (v != (bit<32>)md.copy_slot) {
                v = (bit<32>)md.copy_slot;
                rv = 1;
            }
        }
    };

    @hidden action copy_fields() {
        md.copy.setValid();
        md.copy.magic = EV_COPY_MAGIC;
        md.copy.ev_index = md.ev_index;
    }
    @hidden action copy_data_return() {
        copy_fields();
        ig_dprsr_md.mirror_type = ev_copy_due.execute(md.ev_index);
    }
    @hidden action copy_keepalive_return() {
        copy_fields();
        ig_dprsr_md.mirror_type = 1;
    }
    @hidden action copy_proof() {
        md.copy.setValid();
        md.copy.magic = EV_PROOF_MAGIC;
        md.copy.ev_index = md.ev_index;
        md.copy.epoch = md.resub.epoch;
        ig_dprsr_md.mirror_type = 1;
    }
    @hidden action copy_none() { }
    @hidden table ev_copy_step {
        key = {
            md.ev_return           : exact;
            hdr.ev_copy.isValid()  : exact;
            hdr.keepalive.isValid(): exact;
            md.slot_hit            : exact;
            md.resub.isValid()     : exact;
        }
        actions = { copy_data_return; copy_keepalive_return; copy_proof; copy_none; }
        const entries = {
            (true,  false, false, false, false) : copy_data_return();
            (true,  false, true,  false, false) : copy_keepalive_return();
            // The second pass of a proof (data or keep-alive): its cell
            // was written (verdict_cell, slot_hit and the resubmit).
            (false, false, false, true,  true)  : copy_proof();
            (false, false, true,  true,  true)  : copy_proof();
        }
        const default_action = copy_none();
        size = 8;
    }

    // The mirror session of the arrival pipe: EV_COPY_SESSION_BASE + pipe
    // (constants: an action adding the pipe to a constant would need two
    // sources the container does not line up).
    @hidden action copy_session_of(MirrorId_t session) {
        md.copy_session = session;
    }
    @hidden table ev_copy_session {
        key = {
            md.copy_pipe : exact;
        }
        actions = { copy_session_of; }
        const entries = {
            0 : copy_session_of(EV_COPY_SESSION_BASE);
            1 : copy_session_of(EV_COPY_SESSION_BASE + 1);
            2 : copy_session_of(EV_COPY_SESSION_BASE + 2);
            3 : copy_session_of(EV_COPY_SESSION_BASE + 3);
        }
        const default_action = copy_session_of(EV_COPY_SESSION_BASE);
        size = 4;
    }

    apply {
        md.copy_slot = md.now[31:EV_COPY_SHIFT];
        ev_copy_session.apply();
        ev_copy_step.apply();
    }
}

#endif  // BALANCER_TNA_VERDICT_P4
