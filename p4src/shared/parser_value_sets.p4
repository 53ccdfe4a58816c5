// Parser value sets shared by both architectures, included at the top of
// each architecture's IngressParser body (P4 wants parser locals before the
// states). Their P4Runtime names are IngressParser.core_tpid,
// IngressParser.keepalive_ethertype and IngressParser.cpu_port in both
// builds.

    // Contract: runtime-configurable EtherTypes.
    @id(ID_VALUE_SET_CORE_TPID)
    value_set<bit<16>>(CORE_TPID_VALUE_SET_SIZE) core_tpid;
    @id(ID_VALUE_SET_KEEPALIVE_ETHERTYPE)
    value_set<bit<16>>(KEEPALIVE_VALUE_SET_SIZE) keepalive_ethertype;

    // The switch's CPU port (run-time setting): frames from it are
    // packet-outs. The compiled-in CPU_PORT is recognised too, before it
    // (a switch that cannot program value sets, BMv2 with PI 0.1.2, runs
    // with the compiled default only).
    @id(ID_VALUE_SET_CPU_PORT)
    value_set<port_t>(CPU_PORT_VALUE_SET_SIZE) cpu_port;
