// Table and counter sizes. The Go code mirrors these (config capacities) and a
// test checks them against the committed P4Info.
#ifndef BALANCER_SIZES_P4
#define BALANCER_SIZES_P4

#define PORT_ROLE_TABLE_SIZE      512   // every bit<9> port
#define HEARTBEAT_TABLE_SIZE      16
#define FLOW_RULES_TABLE_SIZE     4096  // IPv4 and non-IP packets
#define FLOW_RULES_V6_TABLE_SIZE  1024  // IPv6 packets
#define LINK_TABLE_SIZE           64    // link_id is 6 bits
#define FILTER_GROUP_TABLE_SIZE   64
#define BALANCE_GROUP_TABLE_SIZE  16    // bg_id_t is 4 bits

#ifdef __TARGET_TOFINO__
#define SLOTS_TABLE_SIZE          131072  // 2^17 over all balance groups
#else
#define SLOTS_TABLE_SIZE          16384   // 2^14 on BMv2
#endif

#define PORT_COUNTER_SIZE         512
#define LINK_COUNTER_SIZE         512   // 64 links x 8 kinds
#define FILTER_GROUP_COUNTER_SIZE 256   // 64 filter groups x 4 kinds
#define DROP_COUNTER_SIZE         16
#define VERDICT_COUNTER_SIZE      128   // 64 filter groups x 2 actions
#define EVIDENCE_SIZE             128   // 64 filter groups x 2 directions
#define EVIDENCE_BUCKETS          32    // session buckets per direction (hash bits 20:16)
#define EVIDENCE_SEEN_SIZE        4096  // EVIDENCE_SIZE x EVIDENCE_BUCKETS
#define CORES_PER_FILTER_GROUP    1024  // core_id_t is 10 bits
// Every filter group x every core id: 64 x 1024 = 65536 cells.
#define CORE_COUNTER_SIZE         (FILTER_GROUP_TABLE_SIZE * CORES_PER_FILTER_GROUP)

// The session memory (profile WITH_SESSIONS, TNA only for now;
// docs/sessions.md): live sessions kept on their filter group and core.
#define SESSIONS_TABLE_SIZE       65536

#define CORE_TPID_VALUE_SET_SIZE  4
#define KEEPALIVE_VALUE_SET_SIZE  2
#define CPU_PORT_VALUE_SET_SIZE   1

#endif  // BALANCER_SIZES_P4
