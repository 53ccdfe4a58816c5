// Parser value sets shared by both architectures, included at the top of
// each architecture's IngressParser body (P4 wants parser locals before the
// states). Their P4Runtime names are IngressParser.core_tpid and
// IngressParser.keepalive_ethertype in both builds.

    // Contract: runtime-configurable EtherTypes.
    @id(ID_VALUE_SET_CORE_TPID)
    value_set<bit<16>>(CORE_TPID_VALUE_SET_SIZE) core_tpid;
    @id(ID_VALUE_SET_KEEPALIVE_ETHERTYPE)
    value_set<bit<16>>(KEEPALIVE_VALUE_SET_SIZE) keepalive_ethertype;

