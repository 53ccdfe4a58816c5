// Balancing: a packet the rules balance goes to a slot of its balance
// group (hash & slot_mask), and the slot names a filter group and core.
// What cannot be balanced is bypassed to the peer port (or dropped by a
// group in drop state), each counted by why. The slots table has no
// direct counter: Statistics counts per (filter group, core) instead.
#ifndef BALANCER_CONTROL_BALANCING_P4
#define BALANCER_CONTROL_BALANCING_P4

control Balancing(in headers_t hdr, inout local_md_t md) {
    // Per filter core, instead of a direct counter on the 2^17 slots:
    // telemetry reads one cell per configured core. Counted here, right
    // after the slot lookup, so that on Tofino its 2^16 cells sit in the
    // stage after the slots rather than in the crowded last one.
    @name(".BalancerIngress.core_counters") @id(ID_COUNTER_CORE)
    LARGE_INDEXED_COUNTER(core_counters, CORE_COUNTER_SIZE);

    @name(".BalancerIngress.group_active") @id(ID_ACTION_GROUP_ACTIVE)
    action group_active(slot_t slot_mask) {
        // The slot in the same action: one AND with the action's data,
        // no stage of its own between balance_groups and slots.
        md.slot_mask = slot_mask;
        md.slot = md.hash[15:0] & slot_mask;
    }

    @name(".BalancerIngress.group_bypass") @id(ID_ACTION_GROUP_BYPASS)
    action group_bypass() {
        BYPASS_TO_PEER(LINK_CNT_GROUP_BYPASS);
    }

    @name(".BalancerIngress.group_drop") @id(ID_ACTION_GROUP_DROP)
    action group_drop() {
        DROP_PACKET(DROP_BALANCE_GROUP);
        md.count_link = true;
        md.link_kind = LINK_CNT_DROPPED;
    }

    @name(".BalancerIngress.balance_groups") @id(ID_TABLE_BALANCE_GROUPS)
    table balance_groups {
        key = {
            md.balance_group : exact @name("balance_group");
        }
        actions = {
            group_active;
            group_bypass;
            group_drop;
        }
        default_action = group_bypass();
        size = BALANCE_GROUP_TABLE_SIZE;
    }

    @name(".BalancerIngress.to_filter") @id(ID_ACTION_TO_FILTER)
    action to_filter(fg_id_t filter_group, core_id_t core) {
        md.target_fg = filter_group;
        md.core = core;
        md.slot_hit = true;
    }

    @name(".BalancerIngress.slot_miss") @id(ID_ACTION_SLOT_MISS)
    action slot_miss() { }

#ifdef WITH_SESSIONS
    // The session memory (docs/sessions.md): a session the controller
    // learned (by the session digest) keeps the filter group and core it
    // was first balanced to, whatever the slots say since. Looked up
    // beside balance_groups (both need only the flow rules' result), its
    // hit taken in place of the slot. Entries age out by the target's
    // idle timeout; the controller deletes them.
    @name(".BalancerIngress.keep") @id(ID_ACTION_KEEP)
    action keep(fg_id_t filter_group, core_id_t core) {
        md.session_hit = true;
        md.sess_fg = filter_group;
        md.sess_core = core;
    }

    @name(".BalancerIngress.session_miss") @id(ID_ACTION_SESSION_MISS)
    action session_miss() { }

    @name(".BalancerIngress.sessions") @id(ID_TABLE_SESSIONS)
    table sessions {
        key = {
            md.balance_group : exact @name("balance_group");
            md.sess_lo       : exact @name("addr_lo");
            md.sess_hi       : exact @name("addr_hi");
            md.ip_proto      : exact @name("proto");
        }
        actions = {
            keep;
            @defaultonly session_miss;
        }
        const default_action = session_miss();
        size = SESSIONS_TABLE_SIZE;
        ARCH_SESSION_TIMEOUT
    }
#endif

    @name(".BalancerIngress.slots") @id(ID_TABLE_SLOTS)
    table slots {
        key = {
            md.balance_group : exact @name("balance_group");
            md.slot          : exact @name("slot");
        }
        actions = {
            to_filter;
            @defaultonly slot_miss;
        }
        const default_action = slot_miss();
        size = SLOTS_TABLE_SIZE;
    }

    apply {
        if (!md.balance) {
            BYPASS_TO_PEER(LINK_CNT_RULE_BYPASS);
        } else if ((!hdr.ipv4.isValid() && !hdr.ipv6.isValid()) || hdr.core.isValid()) {
            // Nothing to hash on (or a frame that already carries a core
            // TPID): pass it unfiltered.
            BYPASS_TO_PEER(LINK_CNT_NONIP_BYPASS);
        } else {
#ifdef WITH_SESSIONS
            sessions.apply();
#endif
            switch (balance_groups.apply().action_run) {
                group_active: {
#ifdef WITH_SESSIONS
                    // A held session in place of its slot; the per-core
                    // counter counted once, after either (one stage).
                    if (md.session_hit) {
                        md.target_fg = md.sess_fg;
                        md.core = md.sess_core;
                        md.slot_hit = true;
                    } else if (slots.apply().hit) {
                        md.learn = true;
                    } else {
                        BYPASS_TO_PEER(LINK_CNT_GROUP_BYPASS);
                    }
                    if (md.slot_hit) {
                        core_counters.count((bit<32>)(md.target_fg ++ md.core));
                    }
#else
                    if (slots.apply().hit) {
                        core_counters.count((bit<32>)(md.target_fg ++ md.core));
                    } else {
                        BYPASS_TO_PEER(LINK_CNT_GROUP_BYPASS);
                    }
#endif
                }
            }
        }
    }
}

#endif  // BALANCER_CONTROL_BALANCING_P4
