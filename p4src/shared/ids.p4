// Fixed P4Runtime ids (contract). p4c adds the object-type prefix
// (tables 0x02, actions 0x01, counters 0x12, direct counters 0x13, value sets
// 0x03...), so table 1 is 0x02000001. Never renumber: controllers and saved
// state refer to them.
#ifndef BALANCER_IDS_P4
#define BALANCER_IDS_P4

#define ID_TABLE_PORT_ROLE        1
#define ID_TABLE_HEARTBEAT        2
#define ID_TABLE_FLOW_RULES       3
#define ID_TABLE_FLOW_RULES_V6    4
#define ID_TABLE_BALANCE_GROUPS   5
#define ID_TABLE_SLOTS            6
#define ID_TABLE_FILTER_GROUPS    7
#define ID_TABLE_LINKS            8
#define ID_TABLE_SWITCH_INFO      9
#define ID_TABLE_SESSIONS         10  // the sessions profile only

#define ID_ACTION_SET_OPERATOR_PORT  1
#define ID_ACTION_SET_FILTER_PORT    2
#define ID_ACTION_UNKNOWN_PORT       3
#define ID_ACTION_HEARTBEAT_PASS     4
#define ID_ACTION_BYPASS             5
#define ID_ACTION_BALANCE            6
#define ID_ACTION_BYPASS_V6          7
#define ID_ACTION_BALANCE_V6         8
#define ID_ACTION_GROUP_ACTIVE       9
#define ID_ACTION_GROUP_BYPASS       10
#define ID_ACTION_GROUP_DROP         11
#define ID_ACTION_TO_FILTER          12
#define ID_ACTION_FILTER_FORWARD     13
#define ID_ACTION_FILTER_SW_BYPASS   14
#define ID_ACTION_FILTER_DROP        15
#define ID_ACTION_SET_LINK           16
#define ID_ACTION_UNKNOWN_LINK       17
#define ID_ACTION_NO_HEARTBEAT       18
#define ID_ACTION_SLOT_MISS          19
#define ID_ACTION_SET_SWITCH_INFO    20
#define ID_ACTION_KEEP               21  // the sessions profile only
#define ID_ACTION_SESSION_MISS       22  // the sessions profile only

#define ID_COUNTER_PORT_RX               1
#define ID_COUNTER_LINK                  2
#define ID_COUNTER_FILTER_GROUP          3
#define ID_COUNTER_DROP                  4
#define ID_COUNTER_PORT_TX               5
#define ID_COUNTER_CORE                  6
#define ID_COUNTER_VERDICT               7

#define ID_DIRECT_COUNTER_FLOW_RULES     1
#define ID_DIRECT_COUNTER_FLOW_RULES_V6  2
// Direct counter 3 was the slots table's (replaced by ID_COUNTER_CORE):
// retired, never reuse it.

#define ID_VALUE_SET_CORE_TPID           1
#define ID_VALUE_SET_KEEPALIVE_ETHERTYPE 2
#define ID_VALUE_SET_CPU_PORT            3

// Registers (0x10 prefix) of the data-plane liveness: read by no controller
// (PI answers UNIMPLEMENTED), ids fixed for the record.
#define ID_REGISTER_EV_TIME              1   // 2 (ev_last) is retired: ev_time holds both
#define ID_REGISTER_EV_KA                3
#define ID_REGISTER_EV_SEEN              4
#define ID_REGISTER_EV_COUNT             5
#define ID_REGISTER_VERDICT              6

#endif  // BALANCER_IDS_P4
