// Statistics: the indexed counters every decision is counted in (index
// layouts in defines.p4, contract). The per-core counter is counted by
// Balancing, right after the slot lookup that chose the core.
#ifndef BALANCER_CONTROL_STATISTICS_P4
#define BALANCER_CONTROL_STATISTICS_P4

control Statistics(in local_md_t md) {
    @name(".BalancerIngress.port_rx") @id(ID_COUNTER_PORT_RX)
    INDEXED_COUNTER(port_rx, PORT_COUNTER_SIZE);
    @name(".BalancerIngress.link_counters") @id(ID_COUNTER_LINK)
    INDEXED_COUNTER(link_counters, LINK_COUNTER_SIZE);
    @name(".BalancerIngress.filter_group_counters") @id(ID_COUNTER_FILTER_GROUP)
    INDEXED_COUNTER(filter_group_counters, FILTER_GROUP_COUNTER_SIZE);
    @name(".BalancerIngress.drop_counters") @id(ID_COUNTER_DROP)
    INDEXED_COUNTER(drop_counters, DROP_COUNTER_SIZE);
#ifdef WITH_VERDICT
    @name(".BalancerIngress.verdict_counters") @id(ID_COUNTER_VERDICT)
    INDEXED_COUNTER(verdict_counters, VERDICT_COUNTER_SIZE);
#endif

    apply {
        if (md.count_rx) {
            port_rx.count((bit<32>)md.ingress_port);
        }
        if (md.count_link) {
            link_counters.count((bit<32>)(md.link_id ++ md.link_kind));
        }
        if (md.count_fg) {
            filter_group_counters.count((bit<32>)(md.fg_index ++ md.fg_kind));
        }
        if (md.drop) {
            drop_counters.count((bit<32>)md.drop_reason);
        }
#ifdef WITH_VERDICT
        if (md.count_verdict) {
            verdict_counters.count((bit<32>)(md.target_fg ++ md.verdict_kind));
        }
#endif
    }
}

#endif  // BALANCER_CONTROL_STATISTICS_P4
