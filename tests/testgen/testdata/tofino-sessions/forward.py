# PTF test for tests/testgen/testdata/tofino-sessions/forward
# p4testgen seed: 2

import logging
import itertools

from bfruntime_client_base_tests import BfRuntimeTest
from ptf.mask import Mask
from ptf.testutils import send_packet
from ptf.testutils import verify_packet
from ptf.testutils import verify_no_other_packets

import bfrt_grpc.bfruntime_pb2 as bfruntime_pb2
import bfrt_grpc.client as gc

logger = logging.getLogger('tests/testgen/testdata/tofino-sessions/forward')
logger.addHandler(logging.StreamHandler())

class AbstractTest(BfRuntimeTest):
    def setUp(self):
        BfRuntimeTest.setUp(self, 0, 'tests/testgen/testdata/tofino-sessions/forward')
        self.dev_id = 0
        self.table_entries = []
        self.bfrt_info = None
        # Get bfrt_info and set it as part of the test.
        self.bfrt_info = self.interface.bfrt_info_get('tests/testgen/testdata/tofino-sessions/forward')

        # Set target to all pipes on device self.dev_id.
        self.target = gc.Target(device_id=0, pipe_id=0xFFFF)

    def tearDown(self):
        # Reset tables.
        for elt in reversed(self.table_entries):
            test_table = self.bfrt_info.table_get(elt[0])
            test_table.entry_del(self.target, elt[1])
        self.table_entries = []

        # End session.
        BfRuntimeTest.tearDown(self)

    def insertTableEntry(
        self, table_name, key_fields=None, action_name=None, data_fields=[]
    ):
        test_table = self.bfrt_info.table_get(table_name)
        key_list = [test_table.make_key(key_fields)]
        data_list = [test_table.make_data(data_fields, action_name)]
        test_table.entry_add(self.target, key_list, data_list)
        self.table_entries.append((table_name, key_list))

    def _responseDumpHelper(self, request):
        for response in self.interface.stub.Read(request, timeout=2):
            yield response

    def overrideDefaultEntry(self, table_name, action_name=None, data_fields=[]):
        test_table = self.bfrt_info.table_get(table_name)
        data = test_table.make_data(data_fields, action_name)
        test_table.default_entry_set(self.target, data)

    def setRegisterValue(self, reg_name, value, index):
        reg_table = self.bfrt_info.table_get(reg_name)
        key_list = [reg_table.make_key([gc.KeyTuple("$REGISTER_INDEX", index)])]
        value_list = []
        if isinstance(value, list):
            for val in value:
                value_list.append(gc.DataTuple(val[0], val[1]))
        else:
            value_list.append(gc.DataTuple("f1", value))
        reg_table.entry_add(self.target, key_list, [reg_table.make_data(value_list)])

    def entryAdd(self, table_obj, target, table_entry):
        req = bfruntime_pb2.WriteRequest()
        gc._cpy_target(req, target)
        req.atomicity = bfruntime_pb2.WriteRequest.CONTINUE_ON_ERROR
        update = req.updates.add()
        update.type = bfruntime_pb2.Update.MODIFY
        update.entity.table_entry.CopyFrom(table_entry)
        resp = self.interface.reader_writer_interface._write(req)
        table_obj.get_parser._parse_entry_write_response(resp)

    def setDirectRegisterValue(self, tbl_name, value):
        test_table = self.bfrt_info.table_get(tbl_name)
        table_id = test_table.info.id
        req = bfruntime_pb2.ReadRequest()
        req.client_id = self.client_id
        gc._cpy_target(req, self.target)
        entity = req.entities.add()
        table = entity.table_entry
        table.table_id = table_id
        table_entry = None
        for response in self._responseDumpHelper(req):
            for entity in response.entities:
                assert entity.WhichOneof("entity") == "table_entry"
                table_entry = entity.table_entry
                break
        if table_entry is None:
            raise self.failureException(
                "No entry in the table that the meter is attached to."
            )
        table_entry.ClearField("data")
        value_list = []
        if isinstance(value, list):
            for val in value:
                df = table_entry.data.fields.add()
        else:
            df = table_entry.data.fields.add()
            df.value = gc.DataTuple(gc.DataTuple("f1", value))
        self.entryAdd(test_table, self.target, table_entry)

    def setupCtrlPlane(self):
        pass

    def sendPacket(self):
        pass

    def verifyPackets(self):
        pass

    def runTestImpl(self):
        self.setupCtrlPlane()
        logger.info("Sending Packet ...")
        self.sendPacket()
        logger.info("Verifying Packet ...")
        self.verifyPackets()
        logger.info("Verifying no other packets ...")
        verify_no_other_packets(self, self.dev_id, timeout=2)

class Test1(AbstractTest):
    # Date generated: 2026-12-07-20:47:45.636
    # Current statement coverage: 0.5
    '''
    [P4Testgen MethodCall]: *.StartIngress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(0);
    [PrependToProgramHeader]: 0
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*ig_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    resubmit_flag:0;  _pad1:0;  packet_version:0;  _pad2:0;  ingress_port:46;  ingress_mac_tstamp:0;  }
    [P4Testgen MethodCall]: *.copy_in("IngressParser");
    [Parser] IngressParser
    [State] start
    [MethodCall]: pkt.extract<ingress_intrinsic_metadata_t>(ig_intr_md);
    [ExtractSuccess] ig_intr_md@0 | Condition: |*packetLen_bits(bit<32>)| >= 64; | Extract Size: 64 -> ig_intr_md.resubmit_flag = 0x0 | ig_intr_md._pad1 = 0x0 | ig_intr_md.packet_version = 0x0 | ig_intr_md._pad2 = 0x0 | ig_intr_md.ingress_port = 0x02E | ig_intr_md.ingress_mac_tstamp = Taint
    [AssignmentStatement]: md.eth_type = 0;| Computed: md.eth_type = 0;
    [AssignmentStatement]: md.copy_pipe = ig_intr_md.ingress_port[8:7];| Computed: md.copy_pipe = 0;
    [AssignmentStatement]: md.proof_copy = false;| Computed: md.proof_copy = false;
    [State] parse_port_metadata
    [MethodCall]: pkt.advance(64);
    [Advance Condition: |*packetLen_bits(bit<32>)| >= 64;]
    [State] parse_port
    [State] parse_ethernet
    [MethodCall]: pkt.extract<ethernet_t>(hdr.ethernet);
    [ExtractSuccess] hdr.ethernet@0 | Condition: |*packetLen_bits(bit<32>)| >= 96; | Extract Size: 96 -> hdr.ethernet.dst_addr = 0x5A73_FDFF_3F79 | hdr.ethernet.src_addr = 0x69FB_706F_1ABF
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 112;]
    [P4Testgen AssignmentStatement]: tmp_0 = 37120;
    [State] parse_vlan_0
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[0]);
    [ExtractSuccess] hdr.vlan[0]@96 | Condition: |*packetLen_bits(bit<32>)| >= 128; | Extract Size: 32 -> hdr.vlan[0].tpid = 0x9100 | hdr.vlan[0].pcp = 0x0 | hdr.vlan[0].dei = 0x0 | hdr.vlan[0].vid = 0x171
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 144;]
    [P4Testgen AssignmentStatement]: tmp_4 = 37120;
    [State] parse_vlan_1
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[1]);
    [ExtractSuccess] hdr.vlan[1]@128 | Condition: |*packetLen_bits(bit<32>)| >= 160; | Extract Size: 32 -> hdr.vlan[1].tpid = 0x9100 | hdr.vlan[1].pcp = 0x0 | hdr.vlan[1].dei = 0x0 | hdr.vlan[1].vid = 0x130
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 176;]
    [P4Testgen AssignmentStatement]: tmp_6 = 37120;
    [State] parse_vlan_2
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[2]);
    [ExtractSuccess] hdr.vlan[2]@160 | Condition: |*packetLen_bits(bit<32>)| >= 192; | Extract Size: 32 -> hdr.vlan[2].tpid = 0x9100 | hdr.vlan[2].pcp = 0x0 | hdr.vlan[2].dei = 0x0 | hdr.vlan[2].vid = 0x000
    [State] parse_eth_type
    [MethodCall]: pkt.extract<eth_type_t>(hdr.eth_type);
    [ExtractSuccess] hdr.eth_type@192 | Condition: |*packetLen_bits(bit<32>)| >= 208; | Extract Size: 16 -> hdr.eth_type.value = 0x8847
    [AssignmentStatement]: md.eth_type = hdr.eth_type.value;| Computed: md.eth_type = 34887;
    [State] parse_mpls_0
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[0]);
    [ExtractSuccess] hdr.mpls[0]@208 | Condition: |*packetLen_bits(bit<32>)| >= 240; | Extract Size: 32 -> hdr.mpls[0].label = 0x0000_0000 | hdr.mpls[0].tc = 0x0 | hdr.mpls[0].bos = 0x1 | hdr.mpls[0].ttl = 0x00
    [State] parse_mpls_payload
    [Lookahead result]: 6
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 244;]
    [P4Testgen AssignmentStatement]: tmp_8 = 6;
    [State] parse_ipv6
    [MethodCall]: pkt.extract<ipv6_t>(hdr.ipv6);
    [ExtractSuccess] hdr.ipv6@240 | Condition: |*packetLen_bits(bit<32>)| >= 560; | Extract Size: 320 -> hdr.ipv6.version = 0x6 | hdr.ipv6.traffic_class = 0x00 | hdr.ipv6.flow_label = 0x0000_0000 | hdr.ipv6.payload_len = 0x0000 | hdr.ipv6.next_hdr = 0x11 | hdr.ipv6.hop_limit = 0x00 | hdr.ipv6.src_addr = 0xBFE4_FC08_FFC9_E937_DC77_C667_FD61_FC24 | hdr.ipv6.dst_addr = 0x4FAF_C9FD_DBBF_3FDF_C9D8_26E0_E35D_B97B
    [State] parse_udp
    [MethodCall]: pkt.extract<udp_t>(hdr.udp);
    [ExtractSuccess] hdr.udp@560 | Condition: |*packetLen_bits(bit<32>)| >= 624; | Extract Size: 64 -> hdr.udp.src_port = 0x7DFF | hdr.udp.dst_port = 0xFDB5 | hdr.udp.length = 0x0000 | hdr.udp.checksum = 0x0000
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("IngressParser");
    [P4Testgen MethodCall]: *.copy_in("BalancerIngress");
    [Control BalancerIngress start]
    [AssignmentStatement]: md.ingress_port = ig_intr_md.ingress_port;| Computed: md.ingress_port = 46;
    [AssignmentStatement]: md.ingress_ts = ig_intr_md.ingress_mac_tstamp;| Computed: md.ingress_ts = "Taint";
    [AssignmentStatement]: md.port_type = PORT_TYPE_UNKNOWN;| Computed: md.port_type = 0;
    [AssignmentStatement]: md.drop = false;| Computed: md.drop = false;
    [AssignmentStatement]: md.to_cpu = false;| Computed: md.to_cpu = false;
    [AssignmentStatement]: md.ka_stamp = false;| Computed: md.ka_stamp = false;
    [AssignmentStatement]: md.drop_reason = DROP_NONE;| Computed: md.drop_reason = 0;
    [AssignmentStatement]: md.count_link = false;| Computed: md.count_link = false;
    [AssignmentStatement]: md.count_fg = false;| Computed: md.count_fg = false;
    [AssignmentStatement]: md.heartbeat = false;| Computed: md.heartbeat = false;
    [AssignmentStatement]: md.balance = false;| Computed: md.balance = false;
    [AssignmentStatement]: md.slot_hit = false;| Computed: md.slot_hit = false;
    [AssignmentStatement]: md.session_hit = false;| Computed: md.session_hit = false;
    [AssignmentStatement]: md.learn = false;| Computed: md.learn = false;
    [AssignmentStatement]: md.count_rx = false;| Computed: md.count_rx = false;
    [AssignmentStatement]: md.malformed = false;| Computed: md.malformed = false;
    [AssignmentStatement]: md.now = ig_prsr_md.global_tstamp[47:16];| Computed: md.now = "Taint";
    [AssignmentStatement]: md.fg_forward = false;| Computed: md.fg_forward = false;
    [AssignmentStatement]: md.ka_send = false;| Computed: md.ka_send = false;
    [AssignmentStatement]: md.ev_send = false;| Computed: md.ev_send = false;
    [AssignmentStatement]: md.ev_return = false;| Computed: md.ev_return = false;
    [AssignmentStatement]: md.ev_index = 0;| Computed: md.ev_index = 0;
    [AssignmentStatement]: md.ev_bucket = 0;| Computed: md.ev_bucket = 0;
    [AssignmentStatement]: md.target_fg = 0;| Computed: md.target_fg = 0;
    [AssignmentStatement]: md.epoch = 0;| Computed: md.epoch = 0;
    [AssignmentStatement]: md.detect = 0;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = 0;| Computed: md.fail_drop = 0;
    [AssignmentStatement]: md.verdict_now = false;| Computed: md.verdict_now = false;
    [AssignmentStatement]: md.digest.reason = VERDICT_REASON_STANDING;| Computed: md.digest.reason = 0;
    [AssignmentStatement]: md.digest.age = 0;| Computed: md.digest.age = 0;
    [AssignmentStatement]: md.verdict_hit = false;| Computed: md.verdict_hit = false;
    [AssignmentStatement]: md.count_verdict = false;| Computed: md.count_verdict = false;
    [AssignmentStatement]: md.verdict_kind = VERDICT_CNT_BYPASS;| Computed: md.verdict_kind = 0;
    [AssignmentStatement]: md.send_digest = false;| Computed: md.send_digest = false;
    [AssignmentStatement]: md.cpu_port = 192;| Computed: md.cpu_port = 192;
    [P4Testgen If Statement]: Condition: false; Result: false
    [MethodCall]: _BalancerIngress_port_role/port_role.apply();
    [Table Branch: BalancerIngress.port_role | Key(s): |tofino_ingress_port(bit<9>)|| Chosen action: BalancerIngress.set_operator_port]
    [MethodCall]: _BalancerIngress_set_operator_port_0/set_operator_port(|BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_side_2(bit<1>)|, |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_peer_port_1(bit<9>)|);
    [AssignmentStatement]: md.port_type = PORT_TYPE_OPERATOR;| Computed: md.port_type = 1;
    [AssignmentStatement]: md.link_id = link_id;| Computed: md.link_id = 63;
    [AssignmentStatement]: md.side = side;| Computed: md.side = 1;
    [AssignmentStatement]: md.peer_port = peer_port;| Computed: md.peer_port = 511;
    [AssignmentStatement]: md.vlan_depth = 0;| Computed: md.vlan_depth = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.vlan_depth = 3;| Computed: md.vlan_depth = 3;
    [AssignmentStatement]: md.mpls_depth = 0;| Computed: md.mpls_depth = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.mpls_depth = 1;| Computed: md.mpls_depth = 1;
    [AssignmentStatement]: md.outer_vid = 0;| Computed: md.outer_vid = 0;
    [AssignmentStatement]: md.inner_vid = 0;| Computed: md.inner_vid = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[0].isValid()) { md.outer_vid = hdr.vlan[0].vid; }| Computed: md.outer_vid = 369;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[1].isValid()) { md.inner_vid = hdr.vlan[1].vid; }| Computed: md.inner_vid = 304;
    [AssignmentStatement]: md.is_ipv4 = 0;| Computed: md.is_ipv4 = 0;
    [AssignmentStatement]: md.ipv4_src = 0;| Computed: md.ipv4_src = 0;
    [AssignmentStatement]: md.ipv4_dst = 0;| Computed: md.ipv4_dst = 0;
    [AssignmentStatement]: md.ip_proto = 0;| Computed: md.ip_proto = 0;
    [AssignmentStatement]: md.addr_x = 0;| Computed: md.addr_x = 0;
    [AssignmentStatement]: md.addr_y = 0;| Computed: md.addr_y = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.ip_proto = hdr.ipv6.next_hdr;| Computed: md.ip_proto = 17;
    [AssignmentStatement]: md.addr_x = fold_src.get({ hdr.ipv6.src_addr });| Computed: md.addr_x = 2841251698;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.addr_y = fold_dst.get({ hdr.ipv6.dst_addr });| Computed: md.addr_y = 2985828241;
    [AssignmentStatement]: md.l4_src = 0;| Computed: md.l4_src = 0;
    [AssignmentStatement]: md.l4_dst = 0;| Computed: md.l4_dst = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.l4_src = hdr.udp.src_port;| Computed: md.l4_src = 32255;
    [AssignmentStatement]: md.l4_dst = hdr.udp.dst_port;| Computed: md.l4_dst = 64949;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: (ig_prsr_md.parser_err != 0) || (hdr.ipv4.isValid() && hdr.ipv4.ihl < 5) Condition: 0 != 0 || false && TaintedExpression(bit<4>) < 5; Result: false
    [AssignmentStatement]: md.count_rx = true;| Computed: md.count_rx = true;
    [If Statement]: md.port_type == PORT_TYPE_OPERATOR Condition: 1 == 1; Result: true
    [MethodCall]: _BalancerIngress_heartbeat/heartbeat.apply();
    [Table Branch: BalancerIngress.heartbeat Choosing default action: _BalancerIngress_no_heartbeat_0/no_heartbeat;]
    [MethodCall]: _BalancerIngress_no_heartbeat_0/no_heartbeat();
    [If Statement]: false Condition: false; Result: false
    [P4Testgen If Statement]: Condition: true; Result: true
    [MethodCall]: _BalancerIngress_flow_rules_v6/flow_rules_v6.apply();
    [Table Branch: BalancerIngress.flow_rules_v6 | Key(s): |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |pktvar_5(bit<12>)|, |pktvar_9(bit<12>)|, 3, 1, |pktvar_1(bit<48>)|, |pktvar_0(bit<48>)|, |pktvar_14(bit<16>)|, |pktvar_25(bit<128>)|, |pktvar_26(bit<128>)|, |pktvar_23(bit<8>)|, |pktvar_27(bit<16>)|, |pktvar_28(bit<16>)|| Chosen action: BalancerIngress.balance_v6]
    [MethodCall]: _BalancerIngress_balance_v6_0/balance_v6(|BalancerIngress.flow_rules_v6_BalancerIngress.balance_v6_arg_group_0(bit<4>)|);
    [AssignmentStatement]: md.balance = true;| Computed: md.balance = true;
    [AssignmentStatement]: md.balance_group = group;| Computed: md.balance_group = 8;
    [MethodCall]: _BalancerIngress_flow_rules_v6_counter/flow_rules_v6_counter.count();
    [If Statement]: (md.addr_x < md.addr_y) Condition: Concolic_Hash_get_3495435_0({ {    f0:|pktvar_25(bit<128>)|; } }) < Concolic_Hash_get_3495587_0({ {    f0:|pktvar_26(bit<128>)|; } }); Result: true
    [AssignmentStatement]: bit<32> lo = (md.addr_x < md.addr_y) ? md.addr_x : md.addr_y;| Computed: session_hash_tmp = 2841251698;
    [If Statement]: (md.addr_x < md.addr_y) Condition: Concolic_Hash_get_3495435_0({ {    f0:|pktvar_25(bit<128>)|; } }) < Concolic_Hash_get_3495587_0({ {    f0:|pktvar_26(bit<128>)|; } }); Result: true
    [AssignmentStatement]: bit<32> hi = (md.addr_x < md.addr_y) ? md.addr_y : md.addr_x;| Computed: session_hash_tmp_0 = 2985828241;
    [AssignmentStatement]: md.hash = sym_hash.get({ lo, hi, md.ip_proto });| Computed: md.hash = 0;
    [AssignmentStatement]: md.sess_lo = lo;| Computed: md.sess_lo = 2841251698;
    [AssignmentStatement]: md.sess_hi = hi;| Computed: md.sess_hi = 2985828241;
    [If Statement]: true Condition: true; Result: true
    [If Statement]: (!hdr.ipv4.isValid() && !hdr.ipv6.isValid()) || hdr.core.isValid() Condition: !false && !true || false; Result: false
    [MethodCall]: _BalancerIngress_sessions/sessions.apply();
    [Table Branch: BalancerIngress.sessions | Key(s): |BalancerIngress.flow_rules_v6_BalancerIngress.balance_v6_arg_group_0(bit<4>)|, Concolic_Hash_get_3495435_0({ {    f0:|pktvar_25(bit<128>)|; } }), Concolic_Hash_get_3495587_0({ {    f0:|pktvar_26(bit<128>)|; } }), |pktvar_23(bit<8>)|| Chosen action: BalancerIngress.keep]
    [MethodCall]: _BalancerIngress_keep_0/keep(|BalancerIngress.sessions_BalancerIngress.keep_arg_filter_group_5(bit<6>)|, |BalancerIngress.sessions_BalancerIngress.keep_arg_core_3(bit<10>)|);
    [AssignmentStatement]: md.session_hit = true;| Computed: md.session_hit = true;
    [AssignmentStatement]: md.sess_fg = filter_group;| Computed: md.sess_fg = 27;
    [AssignmentStatement]: md.sess_core = core;| Computed: md.sess_core = 0;
    [MethodCall]: _BalancerIngress_balance_groups/balance_groups.apply();
    [Table Branch: BalancerIngress.balance_groups | Key(s): |BalancerIngress.flow_rules_v6_BalancerIngress.balance_v6_arg_group_0(bit<4>)|| Chosen action: BalancerIngress.group_active]
    [MethodCall]: _BalancerIngress_group_active_0/group_active(|BalancerIngress.balance_groups_BalancerIngress.group_active_arg_slot_mask_1(bit<16>)|);
    [AssignmentStatement]: md.slot_mask = slot_mask;| Computed: md.slot_mask = 0;
    [AssignmentStatement]: md.slot = md.hash[15:0] & slot_mask;| Computed: md.slot = 0;
    [SwitchCase]: group_active
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: md.target_fg = md.sess_fg;| Computed: md.target_fg = 27;
    [AssignmentStatement]: md.core = md.sess_core;| Computed: md.core = 0;
    [AssignmentStatement]: md.slot_hit = true;| Computed: md.slot_hit = true;
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_core_counters/core_counters.count((bit<32>)(md.target_fg ++ md.core));
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: port_t named = md.out_port;| Computed: filter_groups_ctl_named/named = 0;
    [MethodCall]: _BalancerIngress_filter_groups/filter_groups.apply();
    [Table Branch: BalancerIngress.filter_groups | Key(s): |BalancerIngress.sessions_BalancerIngress.keep_arg_filter_group_5(bit<6>)|| Chosen action: BalancerIngress.filter_forward]
    [MethodCall]: _BalancerIngress_filter_forward_0/filter_forward(|BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_lan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_wan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_tpid_1(bit<16>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_detect_1(bit<32>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_fail_drop_1(bit<1>)|);
    [AssignmentStatement]: md.epoch = epoch;| Computed: md.epoch = 10;
    [AssignmentStatement]: md.detect = detect;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = fail_drop;| Computed: md.fail_drop = 0;
    [AssignmentStatement]: md.fg_forward = true;| Computed: md.fg_forward = true;
    [AssignmentStatement]: md.ev_index = md.target_fg ++ md.side;| Computed: md.ev_index = 55;
    [AssignmentStatement]: md.digest.filter_group = (bit<8>)md.target_fg;| Computed: md.digest.filter_group = 27;
    [AssignmentStatement]: md.digest.direction = (bit<8>)md.side;| Computed: md.digest.direction = 1;
    [AssignmentStatement]: md.digest.epoch = epoch;| Computed: md.digest.epoch = 10;
    [AssignmentStatement]: md.deadline = md.now + (detect);| Computed: md.deadline = "Taint";
    [AssignmentStatement]: md.fg_lan_port = lan_port;| Computed: md.fg_lan_port = 0;
    [AssignmentStatement]: md.fg_wan_port = wan_port;| Computed: md.fg_wan_port = 0;
    [AssignmentStatement]: md.tpid = tpid;| Computed: md.tpid = 0;
    [AssignmentStatement]: md.count_fg = true;| Computed: md.count_fg = true;
    [AssignmentStatement]: md.fg_index = md.target_fg;| Computed: md.fg_index = 27;
    [AssignmentStatement]: md.count_link = true;| Computed: md.count_link = true;
    [AssignmentStatement]: md.link_kind = LINK_CNT_TO_FILTER;| Computed: md.link_kind = 0;
    [AssignmentStatement]: md.fg_kind = FG_CNT_TO_FILTER;| Computed: md.fg_kind = 0;
    [SwitchCase]: filter_forward
    [AssignmentStatement]: md.ev_send = true;| Computed: md.ev_send = true;
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.core.setValid();
    [AssignmentStatement]: hdr.core.tpid = md.tpid;| Computed: hdr.core.tpid = 0;
    [AssignmentStatement]: hdr.core.link_id = md.link_id;| Computed: hdr.core.link_id = 63;
    [AssignmentStatement]: hdr.core.core_id = md.core;| Computed: hdr.core.core_id = 0;
    [If Statement]: md.side == SIDE_LAN Condition: |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_side_2(bit<1>)| == 0; Result: false
    [AssignmentStatement]: md.out_port = md.fg_wan_port;| Computed: md.out_port = 0;
    [AssignmentStatement]: md.ev_bucket = md.hash[20:16];| Computed: md.ev_bucket = 0;
    [MethodCall]: verdict_ctl_verdict_cell/verdict_cell.apply();
    [Constant Table Branch: BalancerIngress.verdict_ctl.verdict_cell | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: cell_read()]
    [MethodCall]: verdict_ctl_cell_read_0/cell_read();
    [AssignmentStatement]: rv = v;| Computed: rv = 32778;
    [AssignmentStatement]: md.cell = verdict_read.execute(md.target_fg);| Computed: md.cell = 32778;
    [If Statement]: true Condition: true; Result: true
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: md.cell[15:8] == VERDICT_SET[15:8] && md.cell[7:0] == md.epoch Condition: |.BalancerIngress.verdict(bit<16>)|[15:8] == 128 && |.BalancerIngress.verdict(bit<16>)|[7:0] == |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|; Result: true
    [AssignmentStatement]: md.verdict_hit = true;| Computed: md.verdict_hit = true;
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: md.send_digest = true;| Computed: md.send_digest = true;
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.core.setInvalid();
    [AssignmentStatement]: md.count_verdict = true;| Computed: md.count_verdict = true;
    [If Statement]: md.fail_drop == FAIL_DROP Condition: |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_fail_drop_1(bit<1>)| == 1; Result: false
    [AssignmentStatement]: { md.out_port = md.peer_port; md.count_link = true; md.link_kind = (LINK_CNT_SW_BYPASS); };| Computed: md.out_port = 511;
    [AssignmentStatement]: { md.out_port = md.peer_port; md.count_link = true; md.link_kind = (LINK_CNT_SW_BYPASS); };| Computed: md.count_link = true;
    [AssignmentStatement]: { md.out_port = md.peer_port; md.count_link = true; md.link_kind = (LINK_CNT_SW_BYPASS); };| Computed: md.link_kind = 3;
    [AssignmentStatement]: md.fg_kind = FG_CNT_SW_BYPASS;| Computed: md.fg_kind = 3;
    [AssignmentStatement]: md.verdict_kind = VERDICT_CNT_BYPASS;| Computed: md.verdict_kind = 0;
    [MethodCall]: testgen_assume(md.fg_forward && !md.ka_send);
    [Assume: applying condition: true && !false;]
    [AssignmentStatement]: md.copy_slot = md.now[31:4];| Computed: md.copy_slot = "Taint";
    [MethodCall]: evidence_copy_ctl_ev_copy_session/ev_copy_session.apply();
    [Constant Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_session | Key(s): |tofino_ingress_port(bit<9>)|[8:7]; | Chosen action: copy_session_of(10w960) | Arg(s): 960]
    [MethodCall]: evidence_copy_ctl_copy_session_of_0/copy_session_of(960);
    [AssignmentStatement]: md.copy_session = session;| Computed: md.copy_session = 960;
    [MethodCall]: evidence_copy_ctl_ev_copy_step/ev_copy_step.apply();
    [Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_step Choosing default action: evidence_copy_ctl_copy_none_0/copy_none;]
    [MethodCall]: evidence_copy_ctl_copy_none_0/copy_none();
    [MethodCall]: evidence_ctl_ev_time_step/ev_time_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_time_step | Key(s): (bit<1>)false;, (bit<1>)true;, (bit<1>)false; | Chosen action: ev_time_of_send()]
    [MethodCall]: evidence_ctl_ev_time_of_send_0/ev_time_of_send();
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.deadline;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.deadline;| Computed: v.second = "Taint";
    [AssignmentStatement]: rv = v.first;| Computed: rv = "Taint";
    [AssignmentStatement]: md.tag = ev_time_send.execute(md.ev_index);| Computed: md.tag = "Taint";
    [MethodCall]: evidence_ctl_ev_ka_step/ev_ka_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_ka_step | Key(s): (bit<1>)false;, (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: ev_ka_of_data()]
    [MethodCall]: evidence_ctl_ev_ka_of_data_0/ev_ka_of_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: rv = md.now - v;| Computed: rv = "Taint";
    [AssignmentStatement]: md.ka_overdue = ev_ka_send_data.execute(md.ev_index);| Computed: md.ka_overdue = "Taint";
    [AssignmentStatement]: md.overdue = md.now - md.tag;| Computed: md.overdue = "Taint";
    [MethodCall]: evidence_ctl_ev_seen_step/ev_seen_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_seen_step | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: ev_seen_of_data()]
    [MethodCall]: evidence_ctl_ev_seen_of_data_0/ev_seen_of_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: v = md.tag;| Computed: v = "Taint";
    [AssignmentStatement]: rv = 1;| Computed: rv = 1;
    [AssignmentStatement]: md.fresh = ev_seen_mark.execute(md.ev_index ++ md.ev_bucket);| Computed: md.fresh = "Taint";
    [MethodCall]: evidence_ctl_ev_count_step/ev_count_step.apply();
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_expired_data_0/ev_count_of_expired_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [Tainted If Statement]: 
    [AssignmentStatement]: rv = 1;| Computed: rv = 1;
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: ig_dprsr_md.resubmit_type = ev_count_proof.execute(md.ev_index);| Computed: ig_dprsr_md.resubmit_type = "Taint";
    [MethodCall]: md.resub.setValid();
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 10;
    [AssignmentStatement]: md.resub.reason = VERDICT_REASON_DATA;| Computed: md.resub.reason = 2;
    [AssignmentStatement]: md.resub.overdue = md.overdue;| Computed: md.resub.overdue = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_keepalive_proof_0/ev_count_of_keepalive_proof();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: ig_dprsr_md.resubmit_type = 1;| Computed: ig_dprsr_md.resubmit_type = 1;
    [MethodCall]: md.resub.setValid();
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 10;
    [AssignmentStatement]: md.resub.reason = VERDICT_REASON_KEEPALIVE;| Computed: md.resub.reason = 1;
    [AssignmentStatement]: md.resub.overdue = md.ka_overdue;| Computed: md.resub.overdue = "Taint";
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_port_rx/port_rx.count((bit<32>)ig_intr_md.ingress_port);
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_link_counters/link_counters.count((bit<32>)(md.link_id ++ md.link_kind));
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_filter_group_counters/filter_group_counters.count((bit<32>)(md.fg_index ++ md.fg_kind));
    [If Statement]: false Condition: false; Result: false
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_verdict_counters/verdict_counters.count((bit<32>)(md.target_fg ++ md.verdict_kind));
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.bridged.setValid();
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.to_cpu = 0;
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.ka_stamp = 0;
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_dprsr_md.digest_type = 1;
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_tm_md.ucast_egress_port = 511;
    [P4Testgen MethodCall]: *.copy_out("BalancerIngress");
    [P4Testgen MethodCall]: *.copy_in("IngressDeparser");
    [Control IngressDeparser start]
    [If Statement]: ig_dprsr_md.digest_type == 2 Condition: 1 == 2; Result: false
    [If Statement]: ig_dprsr_md.digest_type == 1 Condition: 1 == 1; Result: true
    [MethodCall]: verdict_digest_0/verdict_digest.pack(md.digest);
    [MethodCall]: pkt.emit<bridged_md_t>(hdr.bridged);
    [Emit]: {$headerValid:true;;    _pad0:0;  to_cpu:0;  ka_stamp:0;  }
    [MethodCall]: pkt.emit<packet_in_t>(hdr.packet_in);
    [Invalid emit: { ingress_port = TaintedExpression(bit<9>), _pad0 = TaintedExpression(bit<7>), reason = TaintedExpression(bit<8>), rx_timestamp = TaintedExpression(bit<48>) }]
    [MethodCall]: pkt.emit<ethernet_t>(hdr.ethernet);
    [Emit]: {$headerValid:true;;    dst_addr:99454229102457;  src_addr:116528644037311;  }
    [MethodCall]: pkt.emit<core_t>(hdr.core);
    [Invalid emit: { tpid = TaintedExpression(bit<16>), link_id = TaintedExpression(bit<6>), core_id = TaintedExpression(bit<10>) }]
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[0]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:369;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[1]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:304;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[2]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:0;  }
    [MethodCall]: pkt.emit<eth_type_t>(hdr.eth_type);
    [Emit]: {$headerValid:true;;    value:34887;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[0]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:1;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[1]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[2]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[3]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[4]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[5]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[6]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[7]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<pppoe_t>(hdr.pppoe);
    [Invalid emit: { version = TaintedExpression(bit<4>), type = TaintedExpression(bit<4>), code = TaintedExpression(bit<8>), session_id = TaintedExpression(bit<16>), length = TaintedExpression(bit<16>), protocol = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<ipv4_t>(hdr.ipv4);
    [Invalid emit: { version = TaintedExpression(bit<4>), ihl = TaintedExpression(bit<4>), dscp_ecn = TaintedExpression(bit<8>), total_len = TaintedExpression(bit<16>), identification = TaintedExpression(bit<16>), flags = TaintedExpression(bit<3>), frag_offset = TaintedExpression(bit<13>), ttl = TaintedExpression(bit<8>), protocol = TaintedExpression(bit<8>), hdr_checksum = TaintedExpression(bit<16>), src_addr = TaintedExpression(bit<32>), dst_addr = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[0]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[1]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[2]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[3]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[4]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[5]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[6]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[7]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[8]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[9]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv6_t>(hdr.ipv6);
    [Emit]: {$headerValid:true;;    version:6;  traffic_class:0;  flow_label:0;  payload_len:0;  next_hdr:17;  hop_limit:0;  src_addr:255071502758873065695026987163086617636;  dst_addr:105921760494315822508703950375785183611;  }
    [MethodCall]: pkt.emit<tcp_t>(hdr.tcp);
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), seq_no = TaintedExpression(bit<32>), ack_no = TaintedExpression(bit<32>), data_offset = TaintedExpression(bit<4>), res = TaintedExpression(bit<4>), flags = TaintedExpression(bit<8>), window = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>), urgent_ptr = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<udp_t>(hdr.udp);
    [Emit]: {$headerValid:true;;    src_port:32255;  dst_port:64949;  length:0;  checksum:0;  }
    [MethodCall]: pkt.emit<keepalive_t>(hdr.keepalive);
    [Invalid emit: { magic = TaintedExpression(bit<32>), version = TaintedExpression(bit<8>), direction = TaintedExpression(bit<8>), filter_group = TaintedExpression(bit<16>), seq = TaintedExpression(bit<32>), tx_timestamp = TaintedExpression(bit<64>) }]
    [P4Testgen MethodCall]: *.copy_out("IngressDeparser");
    [P4Testgen AssignmentStatement]: *eg_intr_md.egress_port = 511;
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    [Drop packet smaller than 240 for PTF.]: 5488
    [P4Testgen MethodCall]: *.tofino_drop();
    [Packet marked dropped.]
    '''

    def setupCtrlPlane(self):
        self.setRegisterValue('BalancerIngress.verdict', 0x801F, 19)
        self.setRegisterValue('BalancerIngress.ev_time', [('BalancerIngress.ev_time.first', 0x00000000), ('BalancerIngress.ev_time.second', 0x00000000)], 39)
        self.setRegisterValue('BalancerIngress.ev_ka', 0x00000000, 39)
        self.setRegisterValue('BalancerIngress.ev_seen', 0x00000000, 1248)
        self.setRegisterValue('BalancerIngress.ev_count', [('BalancerIngress.ev_count.first', 0x00000000), ('BalancerIngress.ev_count.second', 0x00000000)], 39)
        # Table BalancerIngress.port_role
        self.insertTableEntry(
            'BalancerIngress.port_role',
            [
                gc.KeyTuple('port', 0x047),
            ],
            'BalancerIngress.set_operator_port',
            [
                gc.DataTuple('link_id', 0x34),
                gc.DataTuple('side', 0x1),
                gc.DataTuple('peer_port', 0x1FF),
            ]
        )
        # Table BalancerIngress.flow_rules_v6
        self.insertTableEntry(
            'BalancerIngress.flow_rules_v6',
            [
                gc.KeyTuple('link_id', 0x24, 0x25),
                gc.KeyTuple('outer_vid', 0x7FD, 0x9AC),
                gc.KeyTuple('inner_vid', 0x884, 0xD73),
                gc.KeyTuple('vlan_depth', 0x2, 0x0),
                gc.KeyTuple('mpls_depth', 0xC, 0x2),
                gc.KeyTuple('src_mac', 0xBDF77A7DBBF1, 0xF7B5507E9AEE),
                gc.KeyTuple('dst_mac', 0xF4FBFF677CBC, 0x8BFAFBFF1BFA),
                gc.KeyTuple('eth_type', 0xD955, 0xAA2D),
                gc.KeyTuple('ipv6_src', 0xE775E9CBDFE8C8B3DAF1CDEDD2C1FDEC, 0xA368E220DF108C6BA03164611001FE36),
                gc.KeyTuple('ipv6_dst', 0x4DAF51D7E77E2FF1C7BA3EC0A6DC785B, 0x7C8D6314833EE611C11CC4CD0A7C385D),
                gc.KeyTuple('ip_proto', 0xD9, 0x12),
                gc.KeyTuple('l4_src', 0xB6FA, 0xCFFE),
                gc.KeyTuple('l4_dst', 0x4F8F, 0x8F9A),
            ],
            'BalancerIngress.balance_v6',
            [
                gc.DataTuple('group', 0x5),
            ]
        )
        # Table BalancerIngress.sessions
        self.insertTableEntry(
            'BalancerIngress.sessions',
            [
                gc.KeyTuple('balance_group', 0x5),
                gc.KeyTuple('addr_lo', 0x613B2F7C),
                gc.KeyTuple('addr_hi', 0xBE9569B9),
                gc.KeyTuple('proto', 0x11),
            ],
            'BalancerIngress.keep',
            [
                gc.DataTuple('filter_group', 0x13),
                gc.DataTuple('core', 0x000),
            ]
        )
        # Table BalancerIngress.balance_groups
        self.insertTableEntry(
            'BalancerIngress.balance_groups',
            [
                gc.KeyTuple('balance_group', 0x5),
            ],
            'BalancerIngress.group_active',
            [
                gc.DataTuple('slot_mask', 0x0000),
            ]
        )
        # Table BalancerIngress.filter_groups
        self.insertTableEntry(
            'BalancerIngress.filter_groups',
            [
                gc.KeyTuple('filter_group', 0x13),
            ],
            'BalancerIngress.filter_forward',
            [
                gc.DataTuple('lan_port', 0x000),
                gc.DataTuple('wan_port', 0x000),
                gc.DataTuple('tpid', 0x0000),
                gc.DataTuple('epoch', 0x1F),
                gc.DataTuple('detect', 0x00000000),
                gc.DataTuple('fail_drop', 0x0),
            ]
        )

    def sendPacket(self):
        ig_port = 71
        pkt = b'\x90\xFE\xFB\x67\x3C\xB9\xBD\xBF\x55\x7C\xDF\xE0\x91\x00\x05\xEC\x91\x00\x08\x00\x91\x00\x00\x00\x88\x47\x00\x00\x01\x00\x60\x00\x00\x00\x00\x00\x11\x00\xBF\xE4\xFC\x08\xFF\xC9\xE9\x37\xDC\x77\xC6\x67\xFD\x61\xFC\x24\x4F\xAF\xC9\xFD\xDB\xBF\x3F\xDF\xC9\xD8\x26\xE0\xE3\x5D\xB9\x7B\x96\xFB\x1F\x8B\x00\x00\x00\x00\xFF\xD3\x3B\x08\xC6\x47\x0A\x7C\x0C\xF0\xDE\xCE\x6B\xFC\x03\x4E\x21\x55\x82\x88\x68\x42\xBE\x22\x9C\xB6\x82\xD0\x00\x5D\xAD\x35\x0B\x49\x0D\xC9\x46\x45\xA4\xE7\x44\x8B\x86\x82\xEE\x4D\xBD\xBE\xB0\x23\x56\x4C\xFE\x27\x28\x8D\xCE\x1C\x29\x7E\xD0\x0B\x41\x75\x49\xEC\xDE\x8A\x1A\x1F\x48\x45\x3C\xB6\x32\x90\x17\x6C\x34\x9F\xF2\xD5\xF5\x38\x65\xB0\x71\x7D\x18\x98\x30\x57\x59\x89\x21\x09\x29\x34\x4C\x17\x75\x7B\xFD\xD7\x4F\xE0\xCE\x04\xCD\x55\x79\x62\x89\x64\x7B\xE0\x3D\x9B\xCD\x36\xC4\xD7\x1D\x4A\x28\x2C\x40\x21\x80\x55\x82\x3F\xAD\x0C\xE1\xAA\xEF\xCC\xA6\x43\xF4\x1A\x78\xD5\x97\xDB\x07\x92\xA3\xD3\x79\xC4\x95\x25\x45\x98\xD6\x13\x83\xA3\xB6\x13\x40\x4C\xF4\xE4\xDD\xC9\x26\x4F\xF4\xCD\x9C\xEF\x0C\x88\xE4\xEA\xAB\x44\x41\x98\x33\x4C\xAD\x6D\x05\x23\xC7\x8A\x69\x3C\x0C\x34\xD9\xB1\xB9\xA7\xBE\xDC\xAA\x7D\x3A\x29\x84\xDA\xAD\x75\xAE\x43\x65\x18\x99\x66\x7B\xBA\x3D\xCC\xA1\xF6\xE0\xBE\xB4\x7D\x4C\xD2\xA1\x53\xD0\x1A\xED\x14\xF6\x0B\xEA\x38\x64\xEB\x09\xC7\xDF\xB9\x98\x53\x9B\x4A\x75\x65\x95\x15\x5E\xD0\x2C\xAD\x45\x94\x72\x96\x8C\xB6\x93\xBF\x85\xE8\x35\x0C\x06\x4F\x00\xFE\x9F\x33\xAF\xAF\x91\x10\x14\x04\x72\x32\xB0\x1E\xF0\x31\xDE\x0A\x86\xA4\x3E\x1E\x9B\x60\x18\xFF\x61\x3E\x73\x30\x8B\xD2\x83\x11\xE9\xB6\x05\x73\x91\xE7\x62\x76\x4F\xB8\x60\x1E\x3C\x19\x35\x3D\x60\x19\xA1\x56\x87\xB4\x9B\xD8\xA5\x3B\x4F\x37\x6A\xA1\x06\xC3\x9F\xEF\x1F\x33\x2C\x6D\xB4\xD0\xD6\xC6\x61\x57\x97\xC9\x2A\x0C\x70\xF1\xE3\x4D\x29\x08\x69\x1D\x8A\x08\x03\x68\x83\xC6\x9A\xB1\x3A\x29\x07\xE8\x8A\x4E\x6D\xEA\x4F\x7B\x10\xAD\x55\x55\x2F\xC1\xA0\xAC\xB4\x14\x05\xAD\xAD\x08\x26\x7A\xAB\x8F\xD6\x81\x4B\xBC\xF9\xA1\x9A\xBD\x7A\x3E\xB7\xEF\x92\x49\x2E\x58\x35\x22\x69\xCA\xC2\xE6\xF9\x80\x88\xF0\x1B\x12\xEA\x89\xD1\xE5\xC2\x7D\xFB\x84\x62\x9D\x16\xF3\x19\x00\xA2\xB0\x23\xA7\xA1\x80\x19\xF4\x4C\x42\x91\x0D\x48\xEF\x66\xD7\x53\xD5\x7A\x00\x7B\x61\xC1\xD9\x23\xBA\x42\x19\x97\x4D\x68\xEE\x06\xBE\xC9\xA6\xC8\x4C\xE0\x53\x36\xEC\x34\x51\x8A\xE5\x79\x85\xEE\x6C\xD2\x7E\x70\xC4\xEA\x9C\x70\x59\x2E\xF9\xFE\xD2\xEF\x62\xE9\x84\xF6\xDB\x31\xF1\xB2\xE1\x5B\x45\xA9\xB8\xCD\xD9\x75\x4F\xC0\x64\x1C\xC6\x3A\xFA\x15\xA4\xFF\xAB\x09\xA7\x02\x89\x85\xB0\x72\xCF\x96\xD4\x1C\x30\xF4\x1D\xFA\x98\x67\xD0\xA1\xA1\x14\x47\xBF\xA9\x89\xE5\x7A\xC8\x6E\x36\x2B\x42\x4C\x33\xCD\xE8\x9F\x52\xD2\xC3\xCA\xA6\x16\x5A\xEB\x4A\x95\x1B\xD0\x57\xB2\xD7\x9B\x6A\x27\xB2\xF2\xEB\xC9\x8C\x70\x76\xD6\x9E\xC9\x56\xB9\x8A\x94\x34\xC2\xD0\x90\x9A\xA8\xF9\x53\xEF\x66\x39\x49'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        pass

    def runTest(self):
        self.runTestImpl()


class Test2(AbstractTest):
    # Date generated: 2026-12-07-20:47:56.403
    # Current statement coverage: 0.52
    '''
    [P4Testgen MethodCall]: *.StartIngress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(0);
    [PrependToProgramHeader]: 0
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*ig_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    resubmit_flag:0;  _pad1:0;  packet_version:0;  _pad2:0;  ingress_port:128;  ingress_mac_tstamp:0;  }
    [P4Testgen MethodCall]: *.copy_in("IngressParser");
    [Parser] IngressParser
    [State] start
    [MethodCall]: pkt.extract<ingress_intrinsic_metadata_t>(ig_intr_md);
    [ExtractSuccess] ig_intr_md@0 | Condition: |*packetLen_bits(bit<32>)| >= 64; | Extract Size: 64 -> ig_intr_md.resubmit_flag = 0x0 | ig_intr_md._pad1 = 0x0 | ig_intr_md.packet_version = 0x0 | ig_intr_md._pad2 = 0x0 | ig_intr_md.ingress_port = 0x080 | ig_intr_md.ingress_mac_tstamp = Taint
    [AssignmentStatement]: md.eth_type = 0;| Computed: md.eth_type = 0;
    [AssignmentStatement]: md.copy_pipe = ig_intr_md.ingress_port[8:7];| Computed: md.copy_pipe = 1;
    [AssignmentStatement]: md.proof_copy = false;| Computed: md.proof_copy = false;
    [State] parse_port_metadata
    [MethodCall]: pkt.advance(64);
    [Advance Condition: |*packetLen_bits(bit<32>)| >= 64;]
    [State] parse_port
    [State] parse_ethernet
    [MethodCall]: pkt.extract<ethernet_t>(hdr.ethernet);
    [ExtractSuccess] hdr.ethernet@0 | Condition: |*packetLen_bits(bit<32>)| >= 96; | Extract Size: 96 -> hdr.ethernet.dst_addr = 0xECEF_57E9_FF4D | hdr.ethernet.src_addr = 0xEBF4_F53E_D5BA
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 112;]
    [P4Testgen AssignmentStatement]: tmp_0 = 37120;
    [State] parse_vlan_0
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[0]);
    [ExtractSuccess] hdr.vlan[0]@96 | Condition: |*packetLen_bits(bit<32>)| >= 128; | Extract Size: 32 -> hdr.vlan[0].tpid = 0x9100 | hdr.vlan[0].pcp = 0x0 | hdr.vlan[0].dei = 0x0 | hdr.vlan[0].vid = 0xF32
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 144;]
    [P4Testgen AssignmentStatement]: tmp_4 = 37120;
    [State] parse_vlan_1
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[1]);
    [ExtractSuccess] hdr.vlan[1]@128 | Condition: |*packetLen_bits(bit<32>)| >= 160; | Extract Size: 32 -> hdr.vlan[1].tpid = 0x9100 | hdr.vlan[1].pcp = 0x0 | hdr.vlan[1].dei = 0x0 | hdr.vlan[1].vid = 0xF9E
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 176;]
    [P4Testgen AssignmentStatement]: tmp_6 = 37120;
    [State] parse_vlan_2
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[2]);
    [ExtractSuccess] hdr.vlan[2]@160 | Condition: |*packetLen_bits(bit<32>)| >= 192; | Extract Size: 32 -> hdr.vlan[2].tpid = 0x9100 | hdr.vlan[2].pcp = 0x0 | hdr.vlan[2].dei = 0x0 | hdr.vlan[2].vid = 0x000
    [State] parse_eth_type
    [MethodCall]: pkt.extract<eth_type_t>(hdr.eth_type);
    [ExtractSuccess] hdr.eth_type@192 | Condition: |*packetLen_bits(bit<32>)| >= 208; | Extract Size: 16 -> hdr.eth_type.value = 0x8847
    [AssignmentStatement]: md.eth_type = hdr.eth_type.value;| Computed: md.eth_type = 34887;
    [State] parse_mpls_0
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[0]);
    [ExtractSuccess] hdr.mpls[0]@208 | Condition: |*packetLen_bits(bit<32>)| >= 240; | Extract Size: 32 -> hdr.mpls[0].label = 0x0000_0000 | hdr.mpls[0].tc = 0x0 | hdr.mpls[0].bos = 0x1 | hdr.mpls[0].ttl = 0x00
    [State] parse_mpls_payload
    [Lookahead result]: 6
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 244;]
    [P4Testgen AssignmentStatement]: tmp_8 = 6;
    [State] parse_ipv6
    [MethodCall]: pkt.extract<ipv6_t>(hdr.ipv6);
    [ExtractSuccess] hdr.ipv6@240 | Condition: |*packetLen_bits(bit<32>)| >= 560; | Extract Size: 320 -> hdr.ipv6.version = 0x6 | hdr.ipv6.traffic_class = 0x00 | hdr.ipv6.flow_label = 0x0000_0000 | hdr.ipv6.payload_len = 0x0000 | hdr.ipv6.next_hdr = 0x11 | hdr.ipv6.hop_limit = 0x00 | hdr.ipv6.src_addr = 0xBDCE_1F11_44FE_F7F7_11A3_B7EF_D6FF_BDB9 | hdr.ipv6.dst_addr = 0xBFB3_DABF_B6B3_7FBF_E9B2_71F8_BAEC_4BED
    [State] parse_udp
    [MethodCall]: pkt.extract<udp_t>(hdr.udp);
    [ExtractSuccess] hdr.udp@560 | Condition: |*packetLen_bits(bit<32>)| >= 624; | Extract Size: 64 -> hdr.udp.src_port = 0x3F5F | hdr.udp.dst_port = 0xF97C | hdr.udp.length = 0x0000 | hdr.udp.checksum = 0x0000
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("IngressParser");
    [P4Testgen MethodCall]: *.copy_in("BalancerIngress");
    [Control BalancerIngress start]
    [AssignmentStatement]: md.ingress_port = ig_intr_md.ingress_port;| Computed: md.ingress_port = 128;
    [AssignmentStatement]: md.ingress_ts = ig_intr_md.ingress_mac_tstamp;| Computed: md.ingress_ts = "Taint";
    [AssignmentStatement]: md.port_type = PORT_TYPE_UNKNOWN;| Computed: md.port_type = 0;
    [AssignmentStatement]: md.drop = false;| Computed: md.drop = false;
    [AssignmentStatement]: md.to_cpu = false;| Computed: md.to_cpu = false;
    [AssignmentStatement]: md.ka_stamp = false;| Computed: md.ka_stamp = false;
    [AssignmentStatement]: md.drop_reason = DROP_NONE;| Computed: md.drop_reason = 0;
    [AssignmentStatement]: md.count_link = false;| Computed: md.count_link = false;
    [AssignmentStatement]: md.count_fg = false;| Computed: md.count_fg = false;
    [AssignmentStatement]: md.heartbeat = false;| Computed: md.heartbeat = false;
    [AssignmentStatement]: md.balance = false;| Computed: md.balance = false;
    [AssignmentStatement]: md.slot_hit = false;| Computed: md.slot_hit = false;
    [AssignmentStatement]: md.session_hit = false;| Computed: md.session_hit = false;
    [AssignmentStatement]: md.learn = false;| Computed: md.learn = false;
    [AssignmentStatement]: md.count_rx = false;| Computed: md.count_rx = false;
    [AssignmentStatement]: md.malformed = false;| Computed: md.malformed = false;
    [AssignmentStatement]: md.now = ig_prsr_md.global_tstamp[47:16];| Computed: md.now = "Taint";
    [AssignmentStatement]: md.fg_forward = false;| Computed: md.fg_forward = false;
    [AssignmentStatement]: md.ka_send = false;| Computed: md.ka_send = false;
    [AssignmentStatement]: md.ev_send = false;| Computed: md.ev_send = false;
    [AssignmentStatement]: md.ev_return = false;| Computed: md.ev_return = false;
    [AssignmentStatement]: md.ev_index = 0;| Computed: md.ev_index = 0;
    [AssignmentStatement]: md.ev_bucket = 0;| Computed: md.ev_bucket = 0;
    [AssignmentStatement]: md.target_fg = 0;| Computed: md.target_fg = 0;
    [AssignmentStatement]: md.epoch = 0;| Computed: md.epoch = 0;
    [AssignmentStatement]: md.detect = 0;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = 0;| Computed: md.fail_drop = 0;
    [AssignmentStatement]: md.verdict_now = false;| Computed: md.verdict_now = false;
    [AssignmentStatement]: md.digest.reason = VERDICT_REASON_STANDING;| Computed: md.digest.reason = 0;
    [AssignmentStatement]: md.digest.age = 0;| Computed: md.digest.age = 0;
    [AssignmentStatement]: md.verdict_hit = false;| Computed: md.verdict_hit = false;
    [AssignmentStatement]: md.count_verdict = false;| Computed: md.count_verdict = false;
    [AssignmentStatement]: md.verdict_kind = VERDICT_CNT_BYPASS;| Computed: md.verdict_kind = 0;
    [AssignmentStatement]: md.send_digest = false;| Computed: md.send_digest = false;
    [AssignmentStatement]: md.cpu_port = 192;| Computed: md.cpu_port = 192;
    [P4Testgen If Statement]: Condition: false; Result: false
    [MethodCall]: _BalancerIngress_port_role/port_role.apply();
    [Table Branch: BalancerIngress.port_role | Key(s): |tofino_ingress_port(bit<9>)|| Chosen action: BalancerIngress.set_operator_port]
    [MethodCall]: _BalancerIngress_set_operator_port_0/set_operator_port(|BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_side_2(bit<1>)|, |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_peer_port_1(bit<9>)|);
    [AssignmentStatement]: md.port_type = PORT_TYPE_OPERATOR;| Computed: md.port_type = 1;
    [AssignmentStatement]: md.link_id = link_id;| Computed: md.link_id = 19;
    [AssignmentStatement]: md.side = side;| Computed: md.side = 0;
    [AssignmentStatement]: md.peer_port = peer_port;| Computed: md.peer_port = 0;
    [AssignmentStatement]: md.vlan_depth = 0;| Computed: md.vlan_depth = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.vlan_depth = 3;| Computed: md.vlan_depth = 3;
    [AssignmentStatement]: md.mpls_depth = 0;| Computed: md.mpls_depth = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.mpls_depth = 1;| Computed: md.mpls_depth = 1;
    [AssignmentStatement]: md.outer_vid = 0;| Computed: md.outer_vid = 0;
    [AssignmentStatement]: md.inner_vid = 0;| Computed: md.inner_vid = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[0].isValid()) { md.outer_vid = hdr.vlan[0].vid; }| Computed: md.outer_vid = 3890;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[1].isValid()) { md.inner_vid = hdr.vlan[1].vid; }| Computed: md.inner_vid = 3998;
    [AssignmentStatement]: md.is_ipv4 = 0;| Computed: md.is_ipv4 = 0;
    [AssignmentStatement]: md.ipv4_src = 0;| Computed: md.ipv4_src = 0;
    [AssignmentStatement]: md.ipv4_dst = 0;| Computed: md.ipv4_dst = 0;
    [AssignmentStatement]: md.ip_proto = 0;| Computed: md.ip_proto = 0;
    [AssignmentStatement]: md.addr_x = 0;| Computed: md.addr_x = 0;
    [AssignmentStatement]: md.addr_y = 0;| Computed: md.addr_y = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.ip_proto = hdr.ipv6.next_hdr;| Computed: md.ip_proto = 17;
    [AssignmentStatement]: md.addr_x = fold_src.get({ hdr.ipv6.src_addr });| Computed: md.addr_x = 2486310952;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.addr_y = fold_dst.get({ hdr.ipv6.dst_addr });| Computed: md.addr_y = 2990048465;
    [AssignmentStatement]: md.l4_src = 0;| Computed: md.l4_src = 0;
    [AssignmentStatement]: md.l4_dst = 0;| Computed: md.l4_dst = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.l4_src = hdr.udp.src_port;| Computed: md.l4_src = 16223;
    [AssignmentStatement]: md.l4_dst = hdr.udp.dst_port;| Computed: md.l4_dst = 63868;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: (ig_prsr_md.parser_err != 0) || (hdr.ipv4.isValid() && hdr.ipv4.ihl < 5) Condition: 0 != 0 || false && TaintedExpression(bit<4>) < 5; Result: false
    [AssignmentStatement]: md.count_rx = true;| Computed: md.count_rx = true;
    [If Statement]: md.port_type == PORT_TYPE_OPERATOR Condition: 1 == 1; Result: true
    [MethodCall]: _BalancerIngress_heartbeat/heartbeat.apply();
    [Table Branch: BalancerIngress.heartbeat Choosing default action: _BalancerIngress_no_heartbeat_0/no_heartbeat;]
    [MethodCall]: _BalancerIngress_no_heartbeat_0/no_heartbeat();
    [If Statement]: false Condition: false; Result: false
    [P4Testgen If Statement]: Condition: true; Result: true
    [MethodCall]: _BalancerIngress_flow_rules_v6/flow_rules_v6.apply();
    [Table Branch: BalancerIngress.flow_rules_v6 | Key(s): |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |pktvar_5(bit<12>)|, |pktvar_9(bit<12>)|, 3, 1, |pktvar_1(bit<48>)|, |pktvar_0(bit<48>)|, |pktvar_14(bit<16>)|, |pktvar_25(bit<128>)|, |pktvar_26(bit<128>)|, |pktvar_23(bit<8>)|, |pktvar_27(bit<16>)|, |pktvar_28(bit<16>)|| Chosen action: BalancerIngress.balance_v6]
    [MethodCall]: _BalancerIngress_balance_v6_0/balance_v6(|BalancerIngress.flow_rules_v6_BalancerIngress.balance_v6_arg_group_0(bit<4>)|);
    [AssignmentStatement]: md.balance = true;| Computed: md.balance = true;
    [AssignmentStatement]: md.balance_group = group;| Computed: md.balance_group = 6;
    [MethodCall]: _BalancerIngress_flow_rules_v6_counter/flow_rules_v6_counter.count();
    [If Statement]: (md.addr_x < md.addr_y) Condition: Concolic_Hash_get_3495435_0({ {    f0:|pktvar_25(bit<128>)|; } }) < Concolic_Hash_get_3495587_0({ {    f0:|pktvar_26(bit<128>)|; } }); Result: true
    [AssignmentStatement]: bit<32> lo = (md.addr_x < md.addr_y) ? md.addr_x : md.addr_y;| Computed: session_hash_tmp = 2486310952;
    [If Statement]: (md.addr_x < md.addr_y) Condition: Concolic_Hash_get_3495435_0({ {    f0:|pktvar_25(bit<128>)|; } }) < Concolic_Hash_get_3495587_0({ {    f0:|pktvar_26(bit<128>)|; } }); Result: true
    [AssignmentStatement]: bit<32> hi = (md.addr_x < md.addr_y) ? md.addr_y : md.addr_x;| Computed: session_hash_tmp_0 = 2990048465;
    [AssignmentStatement]: md.hash = sym_hash.get({ lo, hi, md.ip_proto });| Computed: md.hash = 0;
    [AssignmentStatement]: md.sess_lo = lo;| Computed: md.sess_lo = 2486310952;
    [AssignmentStatement]: md.sess_hi = hi;| Computed: md.sess_hi = 2990048465;
    [If Statement]: true Condition: true; Result: true
    [If Statement]: (!hdr.ipv4.isValid() && !hdr.ipv6.isValid()) || hdr.core.isValid() Condition: !false && !true || false; Result: false
    [MethodCall]: _BalancerIngress_sessions/sessions.apply();
    [Table Branch: BalancerIngress.sessions | Key(s): |BalancerIngress.flow_rules_v6_BalancerIngress.balance_v6_arg_group_0(bit<4>)|, Concolic_Hash_get_3495435_0({ {    f0:|pktvar_25(bit<128>)|; } }), Concolic_Hash_get_3495587_0({ {    f0:|pktvar_26(bit<128>)|; } }), |pktvar_23(bit<8>)|| Chosen action: BalancerIngress.keep]
    [MethodCall]: _BalancerIngress_keep_0/keep(|BalancerIngress.sessions_BalancerIngress.keep_arg_filter_group_5(bit<6>)|, |BalancerIngress.sessions_BalancerIngress.keep_arg_core_3(bit<10>)|);
    [AssignmentStatement]: md.session_hit = true;| Computed: md.session_hit = true;
    [AssignmentStatement]: md.sess_fg = filter_group;| Computed: md.sess_fg = 11;
    [AssignmentStatement]: md.sess_core = core;| Computed: md.sess_core = 0;
    [MethodCall]: _BalancerIngress_balance_groups/balance_groups.apply();
    [Table Branch: BalancerIngress.balance_groups | Key(s): |BalancerIngress.flow_rules_v6_BalancerIngress.balance_v6_arg_group_0(bit<4>)|| Chosen action: BalancerIngress.group_active]
    [MethodCall]: _BalancerIngress_group_active_0/group_active(|BalancerIngress.balance_groups_BalancerIngress.group_active_arg_slot_mask_1(bit<16>)|);
    [AssignmentStatement]: md.slot_mask = slot_mask;| Computed: md.slot_mask = 0;
    [AssignmentStatement]: md.slot = md.hash[15:0] & slot_mask;| Computed: md.slot = 0;
    [SwitchCase]: group_active
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: md.target_fg = md.sess_fg;| Computed: md.target_fg = 11;
    [AssignmentStatement]: md.core = md.sess_core;| Computed: md.core = 0;
    [AssignmentStatement]: md.slot_hit = true;| Computed: md.slot_hit = true;
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_core_counters/core_counters.count((bit<32>)(md.target_fg ++ md.core));
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: port_t named = md.out_port;| Computed: filter_groups_ctl_named/named = 0;
    [MethodCall]: _BalancerIngress_filter_groups/filter_groups.apply();
    [Table Branch: BalancerIngress.filter_groups | Key(s): |BalancerIngress.sessions_BalancerIngress.keep_arg_filter_group_5(bit<6>)|| Chosen action: BalancerIngress.filter_forward]
    [MethodCall]: _BalancerIngress_filter_forward_0/filter_forward(|BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_lan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_wan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_tpid_1(bit<16>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_detect_1(bit<32>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_fail_drop_1(bit<1>)|);
    [AssignmentStatement]: md.epoch = epoch;| Computed: md.epoch = 136;
    [AssignmentStatement]: md.detect = detect;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = fail_drop;| Computed: md.fail_drop = 1;
    [AssignmentStatement]: md.fg_forward = true;| Computed: md.fg_forward = true;
    [AssignmentStatement]: md.ev_index = md.target_fg ++ md.side;| Computed: md.ev_index = 22;
    [AssignmentStatement]: md.digest.filter_group = (bit<8>)md.target_fg;| Computed: md.digest.filter_group = 11;
    [AssignmentStatement]: md.digest.direction = (bit<8>)md.side;| Computed: md.digest.direction = 0;
    [AssignmentStatement]: md.digest.epoch = epoch;| Computed: md.digest.epoch = 136;
    [AssignmentStatement]: md.deadline = md.now + (detect);| Computed: md.deadline = "Taint";
    [AssignmentStatement]: md.fg_lan_port = lan_port;| Computed: md.fg_lan_port = 0;
    [AssignmentStatement]: md.fg_wan_port = wan_port;| Computed: md.fg_wan_port = 0;
    [AssignmentStatement]: md.tpid = tpid;| Computed: md.tpid = 0;
    [AssignmentStatement]: md.count_fg = true;| Computed: md.count_fg = true;
    [AssignmentStatement]: md.fg_index = md.target_fg;| Computed: md.fg_index = 11;
    [AssignmentStatement]: md.count_link = true;| Computed: md.count_link = true;
    [AssignmentStatement]: md.link_kind = LINK_CNT_TO_FILTER;| Computed: md.link_kind = 0;
    [AssignmentStatement]: md.fg_kind = FG_CNT_TO_FILTER;| Computed: md.fg_kind = 0;
    [SwitchCase]: filter_forward
    [AssignmentStatement]: md.ev_send = true;| Computed: md.ev_send = true;
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.core.setValid();
    [AssignmentStatement]: hdr.core.tpid = md.tpid;| Computed: hdr.core.tpid = 0;
    [AssignmentStatement]: hdr.core.link_id = md.link_id;| Computed: hdr.core.link_id = 19;
    [AssignmentStatement]: hdr.core.core_id = md.core;| Computed: hdr.core.core_id = 0;
    [If Statement]: md.side == SIDE_LAN Condition: |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_side_2(bit<1>)| == 0; Result: true
    [AssignmentStatement]: md.out_port = md.fg_lan_port;| Computed: md.out_port = 0;
    [AssignmentStatement]: md.ev_bucket = md.hash[20:16];| Computed: md.ev_bucket = 0;
    [MethodCall]: verdict_ctl_verdict_cell/verdict_cell.apply();
    [Constant Table Branch: BalancerIngress.verdict_ctl.verdict_cell | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: cell_read()]
    [MethodCall]: verdict_ctl_cell_read_0/cell_read();
    [AssignmentStatement]: rv = v;| Computed: rv = 32904;
    [AssignmentStatement]: md.cell = verdict_read.execute(md.target_fg);| Computed: md.cell = 32904;
    [If Statement]: true Condition: true; Result: true
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: md.cell[15:8] == VERDICT_SET[15:8] && md.cell[7:0] == md.epoch Condition: |.BalancerIngress.verdict(bit<16>)|[15:8] == 128 && |.BalancerIngress.verdict(bit<16>)|[7:0] == |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|; Result: true
    [AssignmentStatement]: md.verdict_hit = true;| Computed: md.verdict_hit = true;
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: md.send_digest = true;| Computed: md.send_digest = true;
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.core.setInvalid();
    [AssignmentStatement]: md.count_verdict = true;| Computed: md.count_verdict = true;
    [If Statement]: md.fail_drop == FAIL_DROP Condition: |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_fail_drop_1(bit<1>)| == 1; Result: true
    [AssignmentStatement]: { md.drop = true; md.drop_reason = (DROP_VERDICT); };| Computed: md.drop = true;
    [AssignmentStatement]: { md.drop = true; md.drop_reason = (DROP_VERDICT); };| Computed: md.drop_reason = 7;
    [AssignmentStatement]: md.count_fg = false;| Computed: md.count_fg = false;
    [AssignmentStatement]: md.count_link = true;| Computed: md.count_link = true;
    [AssignmentStatement]: md.link_kind = LINK_CNT_DROPPED;| Computed: md.link_kind = 7;
    [AssignmentStatement]: md.verdict_kind = VERDICT_CNT_DROP;| Computed: md.verdict_kind = 1;
    [MethodCall]: testgen_assume(md.fg_forward && !md.ka_send);
    [Assume: applying condition: true && !false;]
    [AssignmentStatement]: md.copy_slot = md.now[31:4];| Computed: md.copy_slot = "Taint";
    [MethodCall]: evidence_copy_ctl_ev_copy_session/ev_copy_session.apply();
    [Constant Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_session | Key(s): |tofino_ingress_port(bit<9>)|[8:7]; | Chosen action: copy_session_of(10w961) | Arg(s): 961]
    [MethodCall]: evidence_copy_ctl_copy_session_of_0/copy_session_of(961);
    [AssignmentStatement]: md.copy_session = session;| Computed: md.copy_session = 961;
    [MethodCall]: evidence_copy_ctl_ev_copy_step/ev_copy_step.apply();
    [Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_step Choosing default action: evidence_copy_ctl_copy_none_0/copy_none;]
    [MethodCall]: evidence_copy_ctl_copy_none_0/copy_none();
    [MethodCall]: evidence_ctl_ev_time_step/ev_time_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_time_step | Key(s): (bit<1>)false;, (bit<1>)true;, (bit<1>)false; | Chosen action: ev_time_of_send()]
    [MethodCall]: evidence_ctl_ev_time_of_send_0/ev_time_of_send();
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.deadline;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.deadline;| Computed: v.second = "Taint";
    [AssignmentStatement]: rv = v.first;| Computed: rv = "Taint";
    [AssignmentStatement]: md.tag = ev_time_send.execute(md.ev_index);| Computed: md.tag = "Taint";
    [MethodCall]: evidence_ctl_ev_ka_step/ev_ka_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_ka_step | Key(s): (bit<1>)false;, (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: ev_ka_of_data()]
    [MethodCall]: evidence_ctl_ev_ka_of_data_0/ev_ka_of_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: rv = md.now - v;| Computed: rv = "Taint";
    [AssignmentStatement]: md.ka_overdue = ev_ka_send_data.execute(md.ev_index);| Computed: md.ka_overdue = "Taint";
    [AssignmentStatement]: md.overdue = md.now - md.tag;| Computed: md.overdue = "Taint";
    [MethodCall]: evidence_ctl_ev_seen_step/ev_seen_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_seen_step | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: ev_seen_of_data()]
    [MethodCall]: evidence_ctl_ev_seen_of_data_0/ev_seen_of_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: v = md.tag;| Computed: v = "Taint";
    [AssignmentStatement]: rv = 1;| Computed: rv = 1;
    [AssignmentStatement]: md.fresh = ev_seen_mark.execute(md.ev_index ++ md.ev_bucket);| Computed: md.fresh = "Taint";
    [MethodCall]: evidence_ctl_ev_count_step/ev_count_step.apply();
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_expired_data_0/ev_count_of_expired_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [Tainted If Statement]: 
    [AssignmentStatement]: rv = 1;| Computed: rv = 1;
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: ig_dprsr_md.resubmit_type = ev_count_proof.execute(md.ev_index);| Computed: ig_dprsr_md.resubmit_type = "Taint";
    [MethodCall]: md.resub.setValid();
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 136;
    [AssignmentStatement]: md.resub.reason = VERDICT_REASON_DATA;| Computed: md.resub.reason = 2;
    [AssignmentStatement]: md.resub.overdue = md.overdue;| Computed: md.resub.overdue = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_keepalive_proof_0/ev_count_of_keepalive_proof();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: ig_dprsr_md.resubmit_type = 1;| Computed: ig_dprsr_md.resubmit_type = 1;
    [MethodCall]: md.resub.setValid();
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 136;
    [AssignmentStatement]: md.resub.reason = VERDICT_REASON_KEEPALIVE;| Computed: md.resub.reason = 1;
    [AssignmentStatement]: md.resub.overdue = md.ka_overdue;| Computed: md.resub.overdue = "Taint";
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_port_rx/port_rx.count((bit<32>)ig_intr_md.ingress_port);
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_link_counters/link_counters.count((bit<32>)(md.link_id ++ md.link_kind));
    [If Statement]: false Condition: false; Result: false
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_drop_counters/drop_counters.count((bit<32>)md.drop_reason);
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_verdict_counters/verdict_counters.count((bit<32>)(md.target_fg ++ md.verdict_kind));
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.bridged.setValid();
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.to_cpu = 0;
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.ka_stamp = 0;
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_dprsr_md.digest_type = 1;
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_dprsr_md.drop_ctl = 1;
    [P4Testgen MethodCall]: *.copy_out("BalancerIngress");
    [P4Testgen MethodCall]: *.copy_in("IngressDeparser");
    [Control IngressDeparser start]
    [If Statement]: ig_dprsr_md.digest_type == 2 Condition: 1 == 2; Result: false
    [If Statement]: ig_dprsr_md.digest_type == 1 Condition: 1 == 1; Result: true
    [MethodCall]: verdict_digest_0/verdict_digest.pack(md.digest);
    [MethodCall]: pkt.emit<bridged_md_t>(hdr.bridged);
    [Emit]: {$headerValid:true;;    _pad0:0;  to_cpu:0;  ka_stamp:0;  }
    [MethodCall]: pkt.emit<packet_in_t>(hdr.packet_in);
    [Invalid emit: { ingress_port = TaintedExpression(bit<9>), _pad0 = TaintedExpression(bit<7>), reason = TaintedExpression(bit<8>), rx_timestamp = TaintedExpression(bit<48>) }]
    [MethodCall]: pkt.emit<ethernet_t>(hdr.ethernet);
    [Emit]: {$headerValid:true;;    dst_addr:260512716291917;  src_addr:259437319083450;  }
    [MethodCall]: pkt.emit<core_t>(hdr.core);
    [Invalid emit: { tpid = TaintedExpression(bit<16>), link_id = TaintedExpression(bit<6>), core_id = TaintedExpression(bit<10>) }]
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[0]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:3890;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[1]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:3998;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[2]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:0;  }
    [MethodCall]: pkt.emit<eth_type_t>(hdr.eth_type);
    [Emit]: {$headerValid:true;;    value:34887;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[0]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:1;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[1]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[2]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[3]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[4]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[5]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[6]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[7]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<pppoe_t>(hdr.pppoe);
    [Invalid emit: { version = TaintedExpression(bit<4>), type = TaintedExpression(bit<4>), code = TaintedExpression(bit<8>), session_id = TaintedExpression(bit<16>), length = TaintedExpression(bit<16>), protocol = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<ipv4_t>(hdr.ipv4);
    [Invalid emit: { version = TaintedExpression(bit<4>), ihl = TaintedExpression(bit<4>), dscp_ecn = TaintedExpression(bit<8>), total_len = TaintedExpression(bit<16>), identification = TaintedExpression(bit<16>), flags = TaintedExpression(bit<3>), frag_offset = TaintedExpression(bit<13>), ttl = TaintedExpression(bit<8>), protocol = TaintedExpression(bit<8>), hdr_checksum = TaintedExpression(bit<16>), src_addr = TaintedExpression(bit<32>), dst_addr = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[0]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[1]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[2]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[3]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[4]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[5]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[6]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[7]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[8]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[9]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv6_t>(hdr.ipv6);
    [Emit]: {$headerValid:true;;    version:6;  traffic_class:0;  flow_label:0;  payload_len:0;  next_hdr:17;  hop_limit:0;  src_addr:252294334479136969222745395344709762489;  dst_addr:254816405087012574948681919147593714669;  }
    [MethodCall]: pkt.emit<tcp_t>(hdr.tcp);
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), seq_no = TaintedExpression(bit<32>), ack_no = TaintedExpression(bit<32>), data_offset = TaintedExpression(bit<4>), res = TaintedExpression(bit<4>), flags = TaintedExpression(bit<8>), window = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>), urgent_ptr = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<udp_t>(hdr.udp);
    [Emit]: {$headerValid:true;;    src_port:16223;  dst_port:63868;  length:0;  checksum:0;  }
    [MethodCall]: pkt.emit<keepalive_t>(hdr.keepalive);
    [Invalid emit: { magic = TaintedExpression(bit<32>), version = TaintedExpression(bit<8>), direction = TaintedExpression(bit<8>), filter_group = TaintedExpression(bit<16>), seq = TaintedExpression(bit<32>), tx_timestamp = TaintedExpression(bit<64>) }]
    [P4Testgen MethodCall]: *.copy_out("IngressDeparser");
    [P4Testgen AssignmentStatement]: *eg_intr_md.egress_port = "Taint";
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    [P4Testgen MethodCall]: *.tofino_drop();
    [Packet marked dropped.]
    '''

    def setupCtrlPlane(self):
        self.setRegisterValue('BalancerIngress.verdict', 0x801F, 19)
        self.setRegisterValue('BalancerIngress.ev_time', [('BalancerIngress.ev_time.first', 0x00000000), ('BalancerIngress.ev_time.second', 0x00000000)], 38)
        self.setRegisterValue('BalancerIngress.ev_ka', 0x00000000, 38)
        self.setRegisterValue('BalancerIngress.ev_seen', 0x00000000, 1216)
        self.setRegisterValue('BalancerIngress.ev_count', [('BalancerIngress.ev_count.first', 0x00000000), ('BalancerIngress.ev_count.second', 0x00000000)], 38)
        # Table BalancerIngress.port_role
        self.insertTableEntry(
            'BalancerIngress.port_role',
            [
                gc.KeyTuple('port', 0x095),
            ],
            'BalancerIngress.set_operator_port',
            [
                gc.DataTuple('link_id', 0x04),
                gc.DataTuple('side', 0x0),
                gc.DataTuple('peer_port', 0x000),
            ]
        )
        # Table BalancerIngress.flow_rules_v6
        self.insertTableEntry(
            'BalancerIngress.flow_rules_v6',
            [
                gc.KeyTuple('link_id', 0x26, 0x04),
                gc.KeyTuple('outer_vid', 0x09C, 0xC4A),
                gc.KeyTuple('inner_vid', 0x367, 0xF3A),
                gc.KeyTuple('vlan_depth', 0x3, 0x3),
                gc.KeyTuple('mpls_depth', 0x5, 0x2),
                gc.KeyTuple('src_mac', 0x8EFFD27AA5E0, 0xDEE4307349B3),
                gc.KeyTuple('dst_mac', 0xFF6B6BEEF8EF, 0xFE7E19BE3B95),
                gc.KeyTuple('eth_type', 0x7CFE, 0x0A46),
                gc.KeyTuple('ipv6_src', 0xA5FC5F210492F7DA9B07B7FBFABEE8BB, 0xE3499C8FB50385C27050D76B4292A820),
                gc.KeyTuple('ipv6_dst', 0xFB9750BF56F53F7B8B6637FAB8651F3F, 0x088250EF1119BF3A190239FC7954AA0C),
                gc.KeyTuple('ip_proto', 0x33, 0x58),
                gc.KeyTuple('l4_src', 0xBEFF, 0xB46B),
                gc.KeyTuple('l4_dst', 0xEFDE, 0xFFFE),
            ],
            'BalancerIngress.balance_v6',
            [
                gc.DataTuple('group', 0xB),
            ]
        )
        # Table BalancerIngress.sessions
        self.insertTableEntry(
            'BalancerIngress.sessions',
            [
                gc.KeyTuple('balance_group', 0xB),
                gc.KeyTuple('addr_lo', 0x3E6CE2B0),
                gc.KeyTuple('addr_hi', 0x5A5E9F15),
                gc.KeyTuple('proto', 0x11),
            ],
            'BalancerIngress.keep',
            [
                gc.DataTuple('filter_group', 0x13),
                gc.DataTuple('core', 0x000),
            ]
        )
        # Table BalancerIngress.balance_groups
        self.insertTableEntry(
            'BalancerIngress.balance_groups',
            [
                gc.KeyTuple('balance_group', 0xB),
            ],
            'BalancerIngress.group_active',
            [
                gc.DataTuple('slot_mask', 0x0000),
            ]
        )
        # Table BalancerIngress.filter_groups
        self.insertTableEntry(
            'BalancerIngress.filter_groups',
            [
                gc.KeyTuple('filter_group', 0x13),
            ],
            'BalancerIngress.filter_forward',
            [
                gc.DataTuple('lan_port', 0x000),
                gc.DataTuple('wan_port', 0x000),
                gc.DataTuple('tpid', 0x0000),
                gc.DataTuple('epoch', 0x1F),
                gc.DataTuple('detect', 0x00000000),
                gc.DataTuple('fail_drop', 0x1),
            ]
        )

    def sendPacket(self):
        ig_port = 149
        pkt = b'\xFE\xEB\xEB\xEE\xFC\xAD\x8E\xFF\x57\xF6\xA7\xA0\x91\x00\x00\x9C\x91\x00\x03\xE7\x91\x00\x00\x00\x88\x47\x00\x00\x01\x00\x60\x00\x00\x00\x00\x00\x11\x00\xBD\xCE\x1F\x11\x44\xFE\xF7\xF7\x11\xA3\xB7\xEF\xD6\xFF\xBD\xB9\xBF\xB3\xDA\xBF\xB6\xB3\x7F\xBF\xE9\xB2\x71\xF8\xBA\xEC\x4B\xED\xBE\x6B\xEF\xDE\x00\x00\x00\x00\x80\x4F\x23\xB0\xD6\xA2\x80\xF6\x2B\xF8\x71\x4E\x4E\x28\xD3\x7B\xA5\xFF\x1C\xF0\xEE\xE9\xEC\x24\x53\xEF\x0D\x96\x67\x81\x9F\xC1\x2A\x87\xDB\x97\x3A\xC2\xE3\x3D\xEE\xFB\x87\xA1\x3A\x09\x5B\xC1\x1A\xCD\x8C\x2F\x3E\xB2\x14\xE4\x14\x82\x37\x80\xD3\xAA\xFA\xB0\x14\xDB\x94\x28\xCF\x37\x1F\xE9\x12\x39\xBF\x18\xC3\x66\xBE\xB0\x35\xD9\x1F\x21\x14\x71\xE1\x14\x33\x61\x1C\x0F\x42\xFF\x51\x71\x07\xA1\x76\x95\x1F\xEE\x9F\x62\x4F\x67\xFD\xDE\x28\xBD\xD4\x46\x7A\x7A\xAC\xF5\xA4\xB4\xCF\x10\x70\xB3\xE6\x11\x28\x95\x4D\x39\x44\x61\x52\xF3\xD6\xF2\xD9\x6E\x2B\x56\xBA\x3B\xC7\xA9\x78\xFC\x87\x01\xE5\x56\xAD\x91\x7A\x50\x0E\xC0\x0D\x81\x03\x5F\x50\x9A\xB3\xB3\x61\x6C\xCA\xA2\x52\xD8\xF6\x50\x6C\xC2\x11\x59\x93\xD0\xB5\x13\x55\x8A\x64\xFA\xF7\x1B\x3F\x34\xA4\x8D\x25\x27\x33\xF0\xAE\x7C\x22\x8B\xE0\x32\x3E\xFF\x9D\x13\x50\x59\xAA\xB4\x8D\xCB\x1F\x46\x32\x4E\xF3\xC8\xEC\x99\xD9\x06\x95\x8C\xB0\x78\x84\x70\xEB\xDB\x62\x35\x85\x24\xAA\x88\xE0\x4A\xAE\x9B\xFF\xD1\xEF\xBE\x67\xAF\x94\x71\x18\xDB\xF7\x8E\x19\x0B\x4D\x06\x95\x70\xB6\x0F\x04\xC0\xFD\xEE\xCF\xFC\x1A\x96\xE3\x4B\xD0\xE4\x09\x22\x63\xCF\xEA\xB4\xF7\xA4\x77\x58\x97\x3B\x9A\xB9\x56\xF9\x25\x05\x82\xCF\xA7\xCA\x76\x5B\xC1\xDE\x68\x47\xCD\x85\x74\xCB\x9F\x6E\x40\xB8\x1A\xCC\x95\x50\xD2\x39\xAB\xB6\x76\x22\xEB\xDB\xF0\x4A\x9B\xE1\x94\xBA\xF7\x53\x42\x3E\x35\xBF\x7C\xFC\xFD\x3E\x05\xB0\xDF\xEA\x9E\x02\x3E\x22\xD7\x0B\x7B\x07\x8E\x54\x15\x41\x5B\x05\x6F\xAD\xB9\xCD\xBE\xDC\x94\x0B\xC3\x61\x16\xFD\x01\x6D\x2F\xEC\xA9\xE2\x37\x53\x1F\x1E\xA9\x3D\x4D\xC6\x93\xC3\xA5\xD8\xE2\x8E\x23\x73\x53\xFC\xB3\x18\x1C\xE1\x76\x5E\xCE\xDE\xC3\x4A\xE3\xD3\x8C\x96\xCE\x9C\x3C\xFF\x84\xD1\x72\xD4\xF9\x23\xFF\x8F\x3F\x49\x37\x74\x7B\xBB\x52\x87\x9D\x02\x69\x6C\xE9\x05\x4D\x04\xF4\xB3\xB2\x3D\xCF\xA7\xAD\x8D\xB3\x85\x41\xF1\xEE\x86\x72\x19\x8A\x01\xDF\x27\x2D\x38\x9F\xF8\xA1\xB8\x7D\x5F\xDA\x6D\x55\x69\xDC\xA0\x2E\x7A\x83\xD7\x5B\xDE\x5A\x90\xCC\x9A\x67\x58\x3B\x41\xED\x78\xDD\x3F\xE0\xCD\x71\xD6\xAA\xEA\x28\xAA\x0D\x20\x26\x6E\xC8\x38\x93\x2D\x6E\xAC\x47\x14\x45\x80\x06\xE5\xF1\xF4\x4D\xB7\xCC\x87\xBB\x04\x58\x0D\xE0\x1B\x9C\xE7\x48\xF4\xE2\x13\x2E\x5D\xF9\xA9\x5C\x4D\x8E\x8A\x4E\x6B\x32\xE5\x44\xEB\x17\x0A\xF0\x60\x43\xD3\x47\xBA\x95\x36\x9F\xFA\x42\x4D\xE9\xE9\x68\xED\x79\x0D\xE7\x70\x71\x27\x1C\xEC\x2B\x40\x25\xAA\x8E\xC1\xBC\x8C\xD6\x10\x44\x95\x6D\x9E\xDE\x45\x16\x56\x62\x5D\xCA\x5F\xA6\xF9\x19\xFB\x20\xAF\xF1\x94\x2E\xC9\x6D\x68\x9C\x0A\x3C\x45\x94\xBD\x23\x0F\xF6\xF7\x55\x7A\x45\xC8\x75\x9F\xF6\x0C\x51\x97\x2D\x9A\x59\xA0\x81\x9C\x23\x0F\x25\x6E\x32\xB6\x65\x3D\x05\xEA\x6D\xED\xB3\xC0\xE8\x1D\x8A\x17\x4E\x9F\xC0\xDD\xF5\x82\x8D\x06\xD8\x98\xD0\xB5\x8E\x2E\xC5\xDC\x19\x88\xB3\x40\x28\xD3\x35\xA8\x2D\x2B\x7E\xC9\x80\x4E\x1E\xEF\x6B\x5B\x00\xEA\x30\x5C\x7A\x9C\x31\x5C\x65\xBC\xAE\xF0\xE8\x6E\x73\x2C\xF4\x25\x21\x08\x12\x19\x33\x73\x3E\x32\x91\x2A\x0B\x10\x86\x3E\x4F\x34\xA9\x12\x38\x8C\x71\x08\x4A\x5B\x79\x23\x03\xEF\xE8\xFD\x79\x6C\x0F\x74\x4F\x3C\xF6\x57\x1A\x4D\xC6\xD6\x49\x34\x44\x9A\x76\x9B\x78\x31\x12\x0B\xA8\x16\xEE\x03\x3F\xF3\x46\xB4\x36\x1A\xD9\xD6\xAE\xCA\xC9\xCB\x5F\xE0\x81\x99\xEA\xBC\xD3\xA8\xFF\xEB\x03\x8F\x33\x71\x52\xAD\x49\x52\x3D\x95\x9E\x4F\x90\xF6\x95\x96\x23\xE3\x1C\x55\x93\x84\xB5\x02\xD0\x01\x28\xE3\x28\x75\x37\xF1\x10\x5D\x65\x3C\x97\x39\xBD\xCF\xA5\xD4\x38\x6B\x20\xE0\xB5\x6C\xB1\x73\xCD\x7C\x47\x81\xFD\xAB\x3D\x1F\xBC\x55\x43\xB8\xDE\x31\x3B\xB7\x36\x90\x5F\x48\xCC\xA5\x72\x3F\xBB\x59\x0A\xB9\x0A\x50\xB5\x98\xBE\x62\xF3\x18\xB0\x7C\x4E\x50\x96\x0C\xF5\xAF\xB8\x1E\x24\x07\xA0\x0A\xB7\xE6\xB6\x5C\x6C\x74\x41\xB6\xB6\xF3\xA5\x56\xD8\x9A\x83\xCB\x8B\x8F\xB2\xC6\x12\x83\xE9\x9C\x63\xBA\x65\xCA\xD1\xA4\x72\xF8\x8A\x7C\xE2\x9D\x32\x6F\xEB\x62\x6E\x57\x54\xA8\xD8\x16\x6B\x4D\x44\x8C\x90\x7D\x6C\x98\xC9\x01\xC2\xF9\xD1\xEF\xBE\x87\x8D\xD5\x07\x6A\x3F\xAF\x2B\x05\x87\x86\xAB\x46\x05\x39\xC5\xEF\x8E\x03\x65\x44\xDC\x88\x6A\x11\x97\xDB\xC9\x2A\x4C\x04\xFA\x84\x74\x23\xA9\xF9\x70\xC6\xEC\x8C\x42\x74\xEC\x59\x41\x99\xD7\x84\xA3\x17\xEC\x4D\xD6\xCC\x4B\xD4\x16\x7F\x57\x61\x44\xAE\x34\x31\x39\x1A\xB5\x1D\x6A\x4C\x44\x3F\x3B\x47\x55\x30\x9D\xD5\x8D\x82\xFC\xCA\x23\xA6\x7A\x7F\x5D\x9B\xEE\x53\xCE\x02\x0A\x77\xA9\xE4\x64\xB1\x81\x07\x95\x13\x0D\x12\x14\xD2\x76\x96\xB9\x9C\x63\x3C\x50\x0D\x70\xE5\x99\xE3\xB2\x55\xC2\xF8\xA1\x7E\xAC\x22\x73\x1A\x9F\xCB\x42\xF2\xB9\xDB\xE9\xDA\xD7\x34\x06\x68\xEE\x1A\x16\xCB\xFE\x67\xF6\x7E\x52\x90\xC5\x5E\xCF\xEE\x51\x3A\x9C\x75\xB5\x80\x72\x18\xD4\x62\x93\xC7\x97\x85\x62\xFE\x40\x33\x5E\xEE\x8A\x9E\x36\x81\x82\x70\xDA\x5A\x97\xFF\x5E\x6F\x07\x4C\x56\x7E\xA7\x7C\x66\x40\x22\x2D\x68\xA3\x94\x46\x94\x6F\x70\x43\x2D\x58\x2F\x6C\x26\x39\xB7\x76\x45\xB2\xA2\xF5\xD1\xE2\x4B\x0C\xB4\xDC\xC3\x2E\xA6\x33\x1F\xFF\x28\x82\x72\x4B\xBB\xE8\x03\x52\x0C\x27\xFF\x9D\xE8\xE9\x06\x21\x3D\x52\xFB\x69\x82\xB5\xED\xE9\xD3\xE0\x2F\x67\xF8\x19\x60\xF3\x58\x48\x93\x7E\xDA\x02\x0D\x11\xD6\x10\xEF\x23\x96\x03\x3E\x55\x26\x2A\x91\xE9\xFD\x7A\xCE\xD6\xE8\x0C\xE9\xA5\x35\xBF\x4A\x15\x47\xE1\x6F\x64\x32\x31\x4E\x35\xCB\xA8\x86\x2D\x78\xD0\x19\xC0\x09\x2F\x95\xE6\xF6\x40\x5F\xE9\xBA\x6C\x51\x39\x7B\x61\xA5\x5E\xFA\xEA\x10\xD2\x6A\x35\x09\x7E\x95\xFD\x27\xA9\xDA\xB5\x5C\x2A\xAF\x5A\xF3\x87\xFC\xD2\xF4\x45\xAE\x84\xEC\xBE\xEB\xF7'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        pass

    def runTest(self):
        self.runTestImpl()


class Test6(AbstractTest):
    # Date generated: 2026-12-07-20:51:16.732
    # Current statement coverage: 0.61
    '''
    [P4Testgen MethodCall]: *.StartIngress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(0);
    [PrependToProgramHeader]: 0
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*ig_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    resubmit_flag:0;  _pad1:0;  packet_version:0;  _pad2:0;  ingress_port:89;  ingress_mac_tstamp:0;  }
    [P4Testgen MethodCall]: *.copy_in("IngressParser");
    [Parser] IngressParser
    [State] start
    [MethodCall]: pkt.extract<ingress_intrinsic_metadata_t>(ig_intr_md);
    [ExtractSuccess] ig_intr_md@0 | Condition: |*packetLen_bits(bit<32>)| >= 64; | Extract Size: 64 -> ig_intr_md.resubmit_flag = 0x0 | ig_intr_md._pad1 = 0x0 | ig_intr_md.packet_version = 0x0 | ig_intr_md._pad2 = 0x0 | ig_intr_md.ingress_port = 0x059 | ig_intr_md.ingress_mac_tstamp = Taint
    [AssignmentStatement]: md.eth_type = 0;| Computed: md.eth_type = 0;
    [AssignmentStatement]: md.copy_pipe = ig_intr_md.ingress_port[8:7];| Computed: md.copy_pipe = 0;
    [AssignmentStatement]: md.proof_copy = false;| Computed: md.proof_copy = false;
    [State] parse_port_metadata
    [MethodCall]: pkt.advance(64);
    [Advance Condition: |*packetLen_bits(bit<32>)| >= 64;]
    [State] parse_port
    [State] parse_ethernet
    [MethodCall]: pkt.extract<ethernet_t>(hdr.ethernet);
    [ExtractSuccess] hdr.ethernet@0 | Condition: |*packetLen_bits(bit<32>)| >= 96; | Extract Size: 96 -> hdr.ethernet.dst_addr = 0xFBA6_D0E1_1736 | hdr.ethernet.src_addr = 0xFB3D_E682_0F5E
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 112;]
    [P4Testgen AssignmentStatement]: tmp_0 = 37120;
    [State] parse_vlan_0
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[0]);
    [ExtractSuccess] hdr.vlan[0]@96 | Condition: |*packetLen_bits(bit<32>)| >= 128; | Extract Size: 32 -> hdr.vlan[0].tpid = 0x9100 | hdr.vlan[0].pcp = 0x0 | hdr.vlan[0].dei = 0x0 | hdr.vlan[0].vid = 0xF39
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 144;]
    [P4Testgen AssignmentStatement]: tmp_4 = 37120;
    [State] parse_vlan_1
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[1]);
    [ExtractSuccess] hdr.vlan[1]@128 | Condition: |*packetLen_bits(bit<32>)| >= 160; | Extract Size: 32 -> hdr.vlan[1].tpid = 0x9100 | hdr.vlan[1].pcp = 0x0 | hdr.vlan[1].dei = 0x0 | hdr.vlan[1].vid = 0xA8A
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 176;]
    [P4Testgen AssignmentStatement]: tmp_6 = 37120;
    [State] parse_vlan_2
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[2]);
    [ExtractSuccess] hdr.vlan[2]@160 | Condition: |*packetLen_bits(bit<32>)| >= 192; | Extract Size: 32 -> hdr.vlan[2].tpid = 0x9100 | hdr.vlan[2].pcp = 0x0 | hdr.vlan[2].dei = 0x0 | hdr.vlan[2].vid = 0x000
    [State] parse_eth_type
    [MethodCall]: pkt.extract<eth_type_t>(hdr.eth_type);
    [ExtractSuccess] hdr.eth_type@192 | Condition: |*packetLen_bits(bit<32>)| >= 208; | Extract Size: 16 -> hdr.eth_type.value = 0x8848
    [AssignmentStatement]: md.eth_type = hdr.eth_type.value;| Computed: md.eth_type = 34888;
    [State] parse_mpls_0
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[0]);
    [ExtractSuccess] hdr.mpls[0]@208 | Condition: |*packetLen_bits(bit<32>)| >= 240; | Extract Size: 32 -> hdr.mpls[0].label = 0x0000_0000 | hdr.mpls[0].tc = 0x0 | hdr.mpls[0].bos = 0x0 | hdr.mpls[0].ttl = 0x00
    [State] parse_mpls_1
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[1]);
    [ExtractSuccess] hdr.mpls[1]@240 | Condition: |*packetLen_bits(bit<32>)| >= 272; | Extract Size: 32 -> hdr.mpls[1].label = 0x0000_0000 | hdr.mpls[1].tc = 0x0 | hdr.mpls[1].bos = 0x0 | hdr.mpls[1].ttl = 0x00
    [State] parse_mpls_2
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[2]);
    [ExtractSuccess] hdr.mpls[2]@272 | Condition: |*packetLen_bits(bit<32>)| >= 304; | Extract Size: 32 -> hdr.mpls[2].label = 0x0000_0000 | hdr.mpls[2].tc = 0x0 | hdr.mpls[2].bos = 0x0 | hdr.mpls[2].ttl = 0x00
    [State] parse_mpls_3
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[3]);
    [ExtractSuccess] hdr.mpls[3]@304 | Condition: |*packetLen_bits(bit<32>)| >= 336; | Extract Size: 32 -> hdr.mpls[3].label = 0x0000_0000 | hdr.mpls[3].tc = 0x0 | hdr.mpls[3].bos = 0x1 | hdr.mpls[3].ttl = 0x00
    [State] parse_mpls_payload
    [Lookahead result]: 4
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 340;]
    [P4Testgen AssignmentStatement]: tmp_8 = 4;
    [State] parse_ipv4
    [MethodCall]: pkt.extract<ipv4_t>(hdr.ipv4);
    [ExtractSuccess] hdr.ipv4@336 | Condition: |*packetLen_bits(bit<32>)| >= 496; | Extract Size: 160 -> hdr.ipv4.version = 0x4 | hdr.ipv4.ihl = 0x9 | hdr.ipv4.dscp_ecn = 0x00 | hdr.ipv4.total_len = 0x0000 | hdr.ipv4.identification = 0x0000 | hdr.ipv4.flags = 0x0 | hdr.ipv4.frag_offset = 0x0000 | hdr.ipv4.ttl = 0x00 | hdr.ipv4.protocol = 0x06 | hdr.ipv4.hdr_checksum = 0x0000 | hdr.ipv4.src_addr = 0x76F6_B1CB | hdr.ipv4.dst_addr = 0x8A0D_438A
    [State] parse_ipv4_option_0
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[0]);
    [ExtractSuccess] hdr.ipv4_options[0]@496 | Condition: |*packetLen_bits(bit<32>)| >= 528; | Extract Size: 32 -> hdr.ipv4_options[0].data = 0x0000_0000
    [State] parse_ipv4_option_1
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[1]);
    [ExtractSuccess] hdr.ipv4_options[1]@528 | Condition: |*packetLen_bits(bit<32>)| >= 560; | Extract Size: 32 -> hdr.ipv4_options[1].data = 0x0000_0000
    [State] parse_ipv4_option_2
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[2]);
    [ExtractSuccess] hdr.ipv4_options[2]@560 | Condition: |*packetLen_bits(bit<32>)| >= 592; | Extract Size: 32 -> hdr.ipv4_options[2].data = 0x0000_0000
    [State] parse_ipv4_option_3
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[3]);
    [ExtractSuccess] hdr.ipv4_options[3]@592 | Condition: |*packetLen_bits(bit<32>)| >= 624; | Extract Size: 32 -> hdr.ipv4_options[3].data = 0x0000_0000
    [State] parse_ipv4_l4
    [State] parse_tcp
    [MethodCall]: pkt.extract<tcp_t>(hdr.tcp);
    [ExtractSuccess] hdr.tcp@624 | Condition: |*packetLen_bits(bit<32>)| >= 784; | Extract Size: 160 -> hdr.tcp.src_port = 0x6A7E | hdr.tcp.dst_port = 0xFFFF | hdr.tcp.seq_no = 0x0000_0000 | hdr.tcp.ack_no = 0x0000_0000 | hdr.tcp.data_offset = 0x0 | hdr.tcp.res = 0x0 | hdr.tcp.flags = 0x00 | hdr.tcp.window = 0x0000 | hdr.tcp.checksum = 0x0000 | hdr.tcp.urgent_ptr = 0x0000
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("IngressParser");
    [P4Testgen MethodCall]: *.copy_in("BalancerIngress");
    [Control BalancerIngress start]
    [AssignmentStatement]: md.ingress_port = ig_intr_md.ingress_port;| Computed: md.ingress_port = 89;
    [AssignmentStatement]: md.ingress_ts = ig_intr_md.ingress_mac_tstamp;| Computed: md.ingress_ts = "Taint";
    [AssignmentStatement]: md.port_type = PORT_TYPE_UNKNOWN;| Computed: md.port_type = 0;
    [AssignmentStatement]: md.drop = false;| Computed: md.drop = false;
    [AssignmentStatement]: md.to_cpu = false;| Computed: md.to_cpu = false;
    [AssignmentStatement]: md.ka_stamp = false;| Computed: md.ka_stamp = false;
    [AssignmentStatement]: md.drop_reason = DROP_NONE;| Computed: md.drop_reason = 0;
    [AssignmentStatement]: md.count_link = false;| Computed: md.count_link = false;
    [AssignmentStatement]: md.count_fg = false;| Computed: md.count_fg = false;
    [AssignmentStatement]: md.heartbeat = false;| Computed: md.heartbeat = false;
    [AssignmentStatement]: md.balance = false;| Computed: md.balance = false;
    [AssignmentStatement]: md.slot_hit = false;| Computed: md.slot_hit = false;
    [AssignmentStatement]: md.session_hit = false;| Computed: md.session_hit = false;
    [AssignmentStatement]: md.learn = false;| Computed: md.learn = false;
    [AssignmentStatement]: md.count_rx = false;| Computed: md.count_rx = false;
    [AssignmentStatement]: md.malformed = false;| Computed: md.malformed = false;
    [AssignmentStatement]: md.now = ig_prsr_md.global_tstamp[47:16];| Computed: md.now = "Taint";
    [AssignmentStatement]: md.fg_forward = false;| Computed: md.fg_forward = false;
    [AssignmentStatement]: md.ka_send = false;| Computed: md.ka_send = false;
    [AssignmentStatement]: md.ev_send = false;| Computed: md.ev_send = false;
    [AssignmentStatement]: md.ev_return = false;| Computed: md.ev_return = false;
    [AssignmentStatement]: md.ev_index = 0;| Computed: md.ev_index = 0;
    [AssignmentStatement]: md.ev_bucket = 0;| Computed: md.ev_bucket = 0;
    [AssignmentStatement]: md.target_fg = 0;| Computed: md.target_fg = 0;
    [AssignmentStatement]: md.epoch = 0;| Computed: md.epoch = 0;
    [AssignmentStatement]: md.detect = 0;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = 0;| Computed: md.fail_drop = 0;
    [AssignmentStatement]: md.verdict_now = false;| Computed: md.verdict_now = false;
    [AssignmentStatement]: md.digest.reason = VERDICT_REASON_STANDING;| Computed: md.digest.reason = 0;
    [AssignmentStatement]: md.digest.age = 0;| Computed: md.digest.age = 0;
    [AssignmentStatement]: md.verdict_hit = false;| Computed: md.verdict_hit = false;
    [AssignmentStatement]: md.count_verdict = false;| Computed: md.count_verdict = false;
    [AssignmentStatement]: md.verdict_kind = VERDICT_CNT_BYPASS;| Computed: md.verdict_kind = 0;
    [AssignmentStatement]: md.send_digest = false;| Computed: md.send_digest = false;
    [AssignmentStatement]: md.cpu_port = 192;| Computed: md.cpu_port = 192;
    [P4Testgen If Statement]: Condition: false; Result: false
    [MethodCall]: _BalancerIngress_port_role/port_role.apply();
    [Table Branch: BalancerIngress.port_role | Key(s): |tofino_ingress_port(bit<9>)|| Chosen action: BalancerIngress.set_operator_port]
    [MethodCall]: _BalancerIngress_set_operator_port_0/set_operator_port(|BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_side_2(bit<1>)|, |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_peer_port_1(bit<9>)|);
    [AssignmentStatement]: md.port_type = PORT_TYPE_OPERATOR;| Computed: md.port_type = 1;
    [AssignmentStatement]: md.link_id = link_id;| Computed: md.link_id = 11;
    [AssignmentStatement]: md.side = side;| Computed: md.side = 0;
    [AssignmentStatement]: md.peer_port = peer_port;| Computed: md.peer_port = 0;
    [AssignmentStatement]: md.vlan_depth = 0;| Computed: md.vlan_depth = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.vlan_depth = 3;| Computed: md.vlan_depth = 3;
    [AssignmentStatement]: md.mpls_depth = 0;| Computed: md.mpls_depth = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.mpls_depth = 4;| Computed: md.mpls_depth = 4;
    [AssignmentStatement]: md.outer_vid = 0;| Computed: md.outer_vid = 0;
    [AssignmentStatement]: md.inner_vid = 0;| Computed: md.inner_vid = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[0].isValid()) { md.outer_vid = hdr.vlan[0].vid; }| Computed: md.outer_vid = 3897;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[1].isValid()) { md.inner_vid = hdr.vlan[1].vid; }| Computed: md.inner_vid = 2698;
    [AssignmentStatement]: md.is_ipv4 = 0;| Computed: md.is_ipv4 = 0;
    [AssignmentStatement]: md.ipv4_src = 0;| Computed: md.ipv4_src = 0;
    [AssignmentStatement]: md.ipv4_dst = 0;| Computed: md.ipv4_dst = 0;
    [AssignmentStatement]: md.ip_proto = 0;| Computed: md.ip_proto = 0;
    [AssignmentStatement]: md.addr_x = 0;| Computed: md.addr_x = 0;
    [AssignmentStatement]: md.addr_y = 0;| Computed: md.addr_y = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.is_ipv4 = 1;| Computed: md.is_ipv4 = 1;
    [AssignmentStatement]: md.ipv4_src = hdr.ipv4.src_addr;| Computed: md.ipv4_src = 1995878859;
    [AssignmentStatement]: md.ipv4_dst = hdr.ipv4.dst_addr;| Computed: md.ipv4_dst = 2316125066;
    [AssignmentStatement]: md.ip_proto = hdr.ipv4.protocol;| Computed: md.ip_proto = 6;
    [AssignmentStatement]: md.addr_x = hdr.ipv4.src_addr;| Computed: md.addr_x = 1995878859;
    [AssignmentStatement]: md.addr_y = hdr.ipv4.dst_addr;| Computed: md.addr_y = 2316125066;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [AssignmentStatement]: md.l4_src = 0;| Computed: md.l4_src = 0;
    [AssignmentStatement]: md.l4_dst = 0;| Computed: md.l4_dst = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.l4_src = hdr.tcp.src_port;| Computed: md.l4_src = 27262;
    [AssignmentStatement]: md.l4_dst = hdr.tcp.dst_port;| Computed: md.l4_dst = 65535;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: (ig_prsr_md.parser_err != 0) || (hdr.ipv4.isValid() && hdr.ipv4.ihl < 5) Condition: 0 != 0 || true && |pktvar_32(bit<4>)| < 5; Result: false
    [AssignmentStatement]: md.count_rx = true;| Computed: md.count_rx = true;
    [If Statement]: md.port_type == PORT_TYPE_OPERATOR Condition: 1 == 1; Result: true
    [MethodCall]: _BalancerIngress_heartbeat/heartbeat.apply();
    [Table Branch: BalancerIngress.heartbeat Choosing default action: _BalancerIngress_no_heartbeat_0/no_heartbeat;]
    [MethodCall]: _BalancerIngress_no_heartbeat_0/no_heartbeat();
    [If Statement]: false Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [MethodCall]: _BalancerIngress_flow_rules/flow_rules.apply();
    [Table Branch: BalancerIngress.flow_rules | Key(s): |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |pktvar_5(bit<12>)|, |pktvar_9(bit<12>)|, 3, 4, |pktvar_1(bit<48>)|, |pktvar_0(bit<48>)|, |pktvar_14(bit<16>)|, 1, |pktvar_41(bit<32>)|, |pktvar_42(bit<32>)|, |pktvar_39(bit<8>)|, |pktvar_47(bit<16>)|, |pktvar_48(bit<16>)|| Chosen action: BalancerIngress.balance]
    [MethodCall]: _BalancerIngress_balance_0/balance(|BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|);
    [AssignmentStatement]: md.balance = true;| Computed: md.balance = true;
    [AssignmentStatement]: md.balance_group = group;| Computed: md.balance_group = 7;
    [MethodCall]: _BalancerIngress_flow_rules_counter/flow_rules_counter.count();
    [If Statement]: (md.addr_x < md.addr_y) Condition: |pktvar_41(bit<32>)| < |pktvar_42(bit<32>)|; Result: true
    [AssignmentStatement]: bit<32> lo = (md.addr_x < md.addr_y) ? md.addr_x : md.addr_y;| Computed: session_hash_tmp = 1995878859;
    [If Statement]: (md.addr_x < md.addr_y) Condition: |pktvar_41(bit<32>)| < |pktvar_42(bit<32>)|; Result: true
    [AssignmentStatement]: bit<32> hi = (md.addr_x < md.addr_y) ? md.addr_y : md.addr_x;| Computed: session_hash_tmp_0 = 2316125066;
    [AssignmentStatement]: md.hash = sym_hash.get({ lo, hi, md.ip_proto });| Computed: md.hash = 1857990486;
    [AssignmentStatement]: md.sess_lo = lo;| Computed: md.sess_lo = 1995878859;
    [AssignmentStatement]: md.sess_hi = hi;| Computed: md.sess_hi = 2316125066;
    [If Statement]: true Condition: true; Result: true
    [If Statement]: (!hdr.ipv4.isValid() && !hdr.ipv6.isValid()) || hdr.core.isValid() Condition: !true && !false || false; Result: false
    [MethodCall]: _BalancerIngress_sessions/sessions.apply();
    [Table Branch: BalancerIngress.sessions Choosing default action: _BalancerIngress_session_miss_0/session_miss;]
    [MethodCall]: _BalancerIngress_session_miss_0/session_miss();
    [MethodCall]: _BalancerIngress_balance_groups/balance_groups.apply();
    [Table Branch: BalancerIngress.balance_groups | Key(s): |BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|| Chosen action: BalancerIngress.group_active]
    [MethodCall]: _BalancerIngress_group_active_0/group_active(|BalancerIngress.balance_groups_BalancerIngress.group_active_arg_slot_mask_1(bit<16>)|);
    [AssignmentStatement]: md.slot_mask = slot_mask;| Computed: md.slot_mask = 64503;
    [AssignmentStatement]: md.slot = md.hash[15:0] & slot_mask;| Computed: md.slot = 43862;
    [SwitchCase]: group_active
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: _BalancerIngress_slots/slots.apply();
    [Table Branch: BalancerIngress.slots | Key(s): |BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|, Concolic_Hash_get_3496838_0({ {    f0:|pktvar_41(bit<32>)|;    f1:|pktvar_42(bit<32>)|;    f2:|pktvar_39(bit<8>)|; } })[15:0] & |BalancerIngress.balance_groups_BalancerIngress.group_active_arg_slot_mask_1(bit<16>)|;| Chosen action: BalancerIngress.to_filter]
    [MethodCall]: _BalancerIngress_to_filter_0/to_filter(|BalancerIngress.slots_BalancerIngress.to_filter_arg_filter_group_4(bit<6>)|, |BalancerIngress.slots_BalancerIngress.to_filter_arg_core_2(bit<10>)|);
    [AssignmentStatement]: md.target_fg = filter_group;| Computed: md.target_fg = 36;
    [AssignmentStatement]: md.core = core;| Computed: md.core = 0;
    [AssignmentStatement]: md.slot_hit = true;| Computed: md.slot_hit = true;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.learn = true;| Computed: md.learn = true;
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_core_counters/core_counters.count((bit<32>)(md.target_fg ++ md.core));
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: port_t named = md.out_port;| Computed: filter_groups_ctl_named/named = 0;
    [MethodCall]: _BalancerIngress_filter_groups/filter_groups.apply();
    [Table Branch: BalancerIngress.filter_groups | Key(s): |BalancerIngress.slots_BalancerIngress.to_filter_arg_filter_group_4(bit<6>)|| Chosen action: BalancerIngress.filter_forward]
    [MethodCall]: _BalancerIngress_filter_forward_0/filter_forward(|BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_lan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_wan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_tpid_1(bit<16>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_detect_1(bit<32>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_fail_drop_1(bit<1>)|);
    [AssignmentStatement]: md.epoch = epoch;| Computed: md.epoch = 66;
    [AssignmentStatement]: md.detect = detect;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = fail_drop;| Computed: md.fail_drop = 0;
    [AssignmentStatement]: md.fg_forward = true;| Computed: md.fg_forward = true;
    [AssignmentStatement]: md.ev_index = md.target_fg ++ md.side;| Computed: md.ev_index = 72;
    [AssignmentStatement]: md.digest.filter_group = (bit<8>)md.target_fg;| Computed: md.digest.filter_group = 36;
    [AssignmentStatement]: md.digest.direction = (bit<8>)md.side;| Computed: md.digest.direction = 0;
    [AssignmentStatement]: md.digest.epoch = epoch;| Computed: md.digest.epoch = 66;
    [AssignmentStatement]: md.deadline = md.now + (detect);| Computed: md.deadline = "Taint";
    [AssignmentStatement]: md.fg_lan_port = lan_port;| Computed: md.fg_lan_port = 106;
    [AssignmentStatement]: md.fg_wan_port = wan_port;| Computed: md.fg_wan_port = 0;
    [AssignmentStatement]: md.tpid = tpid;| Computed: md.tpid = 0;
    [AssignmentStatement]: md.count_fg = true;| Computed: md.count_fg = true;
    [AssignmentStatement]: md.fg_index = md.target_fg;| Computed: md.fg_index = 36;
    [AssignmentStatement]: md.count_link = true;| Computed: md.count_link = true;
    [AssignmentStatement]: md.link_kind = LINK_CNT_TO_FILTER;| Computed: md.link_kind = 0;
    [AssignmentStatement]: md.fg_kind = FG_CNT_TO_FILTER;| Computed: md.fg_kind = 0;
    [SwitchCase]: filter_forward
    [AssignmentStatement]: md.ev_send = true;| Computed: md.ev_send = true;
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.core.setValid();
    [AssignmentStatement]: hdr.core.tpid = md.tpid;| Computed: hdr.core.tpid = 0;
    [AssignmentStatement]: hdr.core.link_id = md.link_id;| Computed: hdr.core.link_id = 11;
    [AssignmentStatement]: hdr.core.core_id = md.core;| Computed: hdr.core.core_id = 0;
    [If Statement]: md.side == SIDE_LAN Condition: |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_side_2(bit<1>)| == 0; Result: true
    [AssignmentStatement]: md.out_port = md.fg_lan_port;| Computed: md.out_port = 106;
    [AssignmentStatement]: md.ev_bucket = md.hash[20:16];| Computed: md.ev_bucket = 30;
    [MethodCall]: verdict_ctl_verdict_cell/verdict_cell.apply();
    [Constant Table Branch: BalancerIngress.verdict_ctl.verdict_cell | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: cell_read()]
    [MethodCall]: verdict_ctl_cell_read_0/cell_read();
    [AssignmentStatement]: rv = v;| Computed: rv = 65489;
    [AssignmentStatement]: md.cell = verdict_read.execute(md.target_fg);| Computed: md.cell = 65489;
    [If Statement]: true Condition: true; Result: true
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: md.cell[15:8] == VERDICT_SET[15:8] && md.cell[7:0] == md.epoch Condition: |.BalancerIngress.verdict(bit<16>)|[15:8] == 128 && |.BalancerIngress.verdict(bit<16>)|[7:0] == |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|; Result: false
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: testgen_assume(md.fg_forward && !md.ka_send);
    [Assume: applying condition: true && !false;]
    [AssignmentStatement]: md.copy_slot = md.now[31:4];| Computed: md.copy_slot = "Taint";
    [MethodCall]: evidence_copy_ctl_ev_copy_session/ev_copy_session.apply();
    [Constant Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_session | Key(s): |tofino_ingress_port(bit<9>)|[8:7]; | Chosen action: copy_session_of(10w960) | Arg(s): 960]
    [MethodCall]: evidence_copy_ctl_copy_session_of_0/copy_session_of(960);
    [AssignmentStatement]: md.copy_session = session;| Computed: md.copy_session = 960;
    [MethodCall]: evidence_copy_ctl_ev_copy_step/ev_copy_step.apply();
    [Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_step Choosing default action: evidence_copy_ctl_copy_none_0/copy_none;]
    [MethodCall]: evidence_copy_ctl_copy_none_0/copy_none();
    [MethodCall]: evidence_ctl_ev_time_step/ev_time_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_time_step | Key(s): (bit<1>)false;, (bit<1>)true;, (bit<1>)false; | Chosen action: ev_time_of_send()]
    [MethodCall]: evidence_ctl_ev_time_of_send_0/ev_time_of_send();
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.deadline;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.deadline;| Computed: v.second = "Taint";
    [AssignmentStatement]: rv = v.first;| Computed: rv = "Taint";
    [AssignmentStatement]: md.tag = ev_time_send.execute(md.ev_index);| Computed: md.tag = "Taint";
    [MethodCall]: evidence_ctl_ev_ka_step/ev_ka_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_ka_step | Key(s): (bit<1>)false;, (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: ev_ka_of_data()]
    [MethodCall]: evidence_ctl_ev_ka_of_data_0/ev_ka_of_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: rv = md.now - v;| Computed: rv = "Taint";
    [AssignmentStatement]: md.ka_overdue = ev_ka_send_data.execute(md.ev_index);| Computed: md.ka_overdue = "Taint";
    [AssignmentStatement]: md.overdue = md.now - md.tag;| Computed: md.overdue = "Taint";
    [MethodCall]: evidence_ctl_ev_seen_step/ev_seen_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_seen_step | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: ev_seen_of_data()]
    [MethodCall]: evidence_ctl_ev_seen_of_data_0/ev_seen_of_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: v = md.tag;| Computed: v = "Taint";
    [AssignmentStatement]: rv = 1;| Computed: rv = 1;
    [AssignmentStatement]: md.fresh = ev_seen_mark.execute(md.ev_index ++ md.ev_bucket);| Computed: md.fresh = "Taint";
    [MethodCall]: evidence_ctl_ev_count_step/ev_count_step.apply();
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_expired_data_0/ev_count_of_expired_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [Tainted If Statement]: 
    [AssignmentStatement]: rv = 1;| Computed: rv = 1;
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: ig_dprsr_md.resubmit_type = ev_count_proof.execute(md.ev_index);| Computed: ig_dprsr_md.resubmit_type = "Taint";
    [MethodCall]: md.resub.setValid();
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 66;
    [AssignmentStatement]: md.resub.reason = VERDICT_REASON_DATA;| Computed: md.resub.reason = 2;
    [AssignmentStatement]: md.resub.overdue = md.overdue;| Computed: md.resub.overdue = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_keepalive_proof_0/ev_count_of_keepalive_proof();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: ig_dprsr_md.resubmit_type = 1;| Computed: ig_dprsr_md.resubmit_type = 1;
    [MethodCall]: md.resub.setValid();
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 66;
    [AssignmentStatement]: md.resub.reason = VERDICT_REASON_KEEPALIVE;| Computed: md.resub.reason = 1;
    [AssignmentStatement]: md.resub.overdue = md.ka_overdue;| Computed: md.resub.overdue = "Taint";
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_port_rx/port_rx.count((bit<32>)ig_intr_md.ingress_port);
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_link_counters/link_counters.count((bit<32>)(md.link_id ++ md.link_kind));
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_filter_group_counters/filter_group_counters.count((bit<32>)(md.fg_index ++ md.fg_kind));
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.bridged.setValid();
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.to_cpu = 0;
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.ka_stamp = 0;
    [If Statement]: false Condition: false; Result: false
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_dprsr_md.digest_type = 2;
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_tm_md.ucast_egress_port = 106;
    [P4Testgen MethodCall]: *.copy_out("BalancerIngress");
    [P4Testgen MethodCall]: *.copy_in("IngressDeparser");
    [Control IngressDeparser start]
    [If Statement]: ig_dprsr_md.digest_type == 2 Condition: 2 == 2; Result: true
    [MethodCall]: session_digest_0/session_digest.pack({  addr_lo:md.sess_lo;  addr_hi:md.sess_hi;  proto:md.ip_proto;  balance_group:md.balance_group;  filter_group:md.target_fg;  core:md.core; });
    [If Statement]: ig_dprsr_md.digest_type == 1 Condition: 2 == 1; Result: false
    [MethodCall]: pkt.emit<bridged_md_t>(hdr.bridged);
    [Emit]: {$headerValid:true;;    _pad0:0;  to_cpu:0;  ka_stamp:0;  }
    [MethodCall]: pkt.emit<packet_in_t>(hdr.packet_in);
    [Invalid emit: { ingress_port = TaintedExpression(bit<9>), _pad0 = TaintedExpression(bit<7>), reason = TaintedExpression(bit<8>), rx_timestamp = TaintedExpression(bit<48>) }]
    [MethodCall]: pkt.emit<ethernet_t>(hdr.ethernet);
    [Emit]: {$headerValid:true;;    dst_addr:276693887555382;  src_addr:276243278860126;  }
    [MethodCall]: pkt.emit<core_t>(hdr.core);
    [Emit]: {$headerValid:true;;    tpid:0;  link_id:11;  core_id:0;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[0]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:3897;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[1]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:2698;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[2]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:0;  }
    [MethodCall]: pkt.emit<eth_type_t>(hdr.eth_type);
    [Emit]: {$headerValid:true;;    value:34888;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[0]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:0;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[1]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:0;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[2]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:0;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[3]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:1;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[4]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[5]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[6]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[7]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<pppoe_t>(hdr.pppoe);
    [Invalid emit: { version = TaintedExpression(bit<4>), type = TaintedExpression(bit<4>), code = TaintedExpression(bit<8>), session_id = TaintedExpression(bit<16>), length = TaintedExpression(bit<16>), protocol = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<ipv4_t>(hdr.ipv4);
    [Emit]: {$headerValid:true;;    version:4;  ihl:9;  dscp_ecn:0;  total_len:0;  identification:0;  flags:0;  frag_offset:0;  ttl:0;  protocol:6;  hdr_checksum:0;  src_addr:1995878859;  dst_addr:2316125066;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[0]);
    [Emit]: {$headerValid:true;;    data:0;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[1]);
    [Emit]: {$headerValid:true;;    data:0;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[2]);
    [Emit]: {$headerValid:true;;    data:0;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[3]);
    [Emit]: {$headerValid:true;;    data:0;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[4]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[5]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[6]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[7]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[8]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[9]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv6_t>(hdr.ipv6);
    [Invalid emit: { version = TaintedExpression(bit<4>), traffic_class = TaintedExpression(bit<8>), flow_label = TaintedExpression(bit<20>), payload_len = TaintedExpression(bit<16>), next_hdr = TaintedExpression(bit<8>), hop_limit = TaintedExpression(bit<8>), src_addr = TaintedExpression(bit<128>), dst_addr = TaintedExpression(bit<128>) }]
    [MethodCall]: pkt.emit<tcp_t>(hdr.tcp);
    [Emit]: {$headerValid:true;;    src_port:27262;  dst_port:65535;  seq_no:0;  ack_no:0;  data_offset:0;  res:0;  flags:0;  window:0;  checksum:0;  urgent_ptr:0;  }
    [MethodCall]: pkt.emit<udp_t>(hdr.udp);
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), length = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<keepalive_t>(hdr.keepalive);
    [Invalid emit: { magic = TaintedExpression(bit<32>), version = TaintedExpression(bit<8>), direction = TaintedExpression(bit<8>), filter_group = TaintedExpression(bit<16>), seq = TaintedExpression(bit<32>), tx_timestamp = TaintedExpression(bit<64>) }]
    [P4Testgen MethodCall]: *.copy_out("IngressDeparser");
    [P4Testgen AssignmentStatement]: *eg_intr_md.egress_port = 106;
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    [P4Testgen If Statement]: Condition: true && (false || 0 <= |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_lan_port(bit<9>)| && |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_lan_port(bit<9>)| <= 191) && 1 == 0; Result: false
    [P4Testgen MethodCall]: *.StartEgress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*eg_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    _pad0:0;  egress_port:106;  }
    [P4Testgen MethodCall]: *.copy_in("EgressParser");
    [Parser] EgressParser
    [State] start
    [MethodCall]: pkt.extract<egress_intrinsic_metadata_t>(eg_intr_md);
    [ExtractSuccess] eg_intr_md@784 | Condition: |*packetLen_bits(bit<32>)| >= 800; | Extract Size: 16 -> eg_intr_md._pad0 = 0x00 | eg_intr_md.egress_port = 0x06A
    [State] parse_bridged
    [MethodCall]: pkt.extract<bridged_md_t>(hdr.bridged);
    [ExtractSuccess] hdr.bridged@784 | Condition: |*packetLen_bits(bit<32>)| >= 792; | Extract Size: 8 -> hdr.bridged._pad0 = Taint | hdr.bridged.to_cpu = 0x0 | hdr.bridged.ka_stamp = 0x0
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("EgressParser");
    [P4Testgen MethodCall]: *.copy_in("BalancerEgress");
    [Control BalancerEgress start]
    [MethodCall]: port_tx_0/port_tx.count((bit<32>)eg_intr_md.egress_port);
    [If Statement]: hdr.bridged.ka_stamp == 1 && hdr.keepalive.isValid() Condition: 0 == 1 && false; Result: false
    [MethodCall]: hdr.bridged.setInvalid();
    [P4Testgen MethodCall]: *.copy_out("BalancerEgress");
    [P4Testgen MethodCall]: *.copy_in("EgressDeparser");
    [Control EgressDeparser start]
    [MethodCall]: pkt.emit<ev_copy_t>(hdr.ev_copy);
    [Invalid emit: { magic = TaintedExpression(bit<8>), _pad0 = TaintedExpression(bit<1>), ev_index = TaintedExpression(bit<7>), epoch = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<packet_in_t>(hdr.packet_in);
    [Invalid emit: { ingress_port = TaintedExpression(bit<9>), _pad0 = TaintedExpression(bit<7>), reason = TaintedExpression(bit<8>), rx_timestamp = TaintedExpression(bit<48>) }]
    [MethodCall]: pkt.emit<ethernet_t>(hdr.ethernet);
    [Invalid emit: { dst_addr = TaintedExpression(bit<48>), src_addr = TaintedExpression(bit<48>) }]
    [MethodCall]: pkt.emit<eth_type_t>(hdr.eth_type);
    [Invalid emit: { value = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<keepalive_t>(hdr.keepalive);
    [Invalid emit: { magic = TaintedExpression(bit<32>), version = TaintedExpression(bit<8>), direction = TaintedExpression(bit<8>), filter_group = TaintedExpression(bit<16>), seq = TaintedExpression(bit<32>), tx_timestamp = TaintedExpression(bit<64>) }]
    [P4Testgen MethodCall]: *.copy_out("EgressDeparser");
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    '''

    def setupCtrlPlane(self):
        self.setRegisterValue('BalancerIngress.verdict', 0xDCD8, 58)
        self.setRegisterValue('BalancerIngress.ev_time', [('BalancerIngress.ev_time.first', 0x00000000), ('BalancerIngress.ev_time.second', 0x00000000)], 116)
        self.setRegisterValue('BalancerIngress.ev_ka', 0x00000000, 116)
        self.setRegisterValue('BalancerIngress.ev_seen', 0x00000000, 3734)
        self.setRegisterValue('BalancerIngress.ev_count', [('BalancerIngress.ev_count.first', 0x00000000), ('BalancerIngress.ev_count.second', 0x00000000)], 116)
        # Table BalancerIngress.port_role
        self.insertTableEntry(
            'BalancerIngress.port_role',
            [
                gc.KeyTuple('port', 0x04A),
            ],
            'BalancerIngress.set_operator_port',
            [
                gc.DataTuple('link_id', 0x1B),
                gc.DataTuple('side', 0x0),
                gc.DataTuple('peer_port', 0x000),
            ]
        )
        # Table BalancerIngress.flow_rules
        self.insertTableEntry(
            'BalancerIngress.flow_rules',
            [
                gc.KeyTuple('link_id', 0x3F, 0x03),
                gc.KeyTuple('outer_vid', 0xF29, 0xFE1),
                gc.KeyTuple('inner_vid', 0xBBE, 0x430),
                gc.KeyTuple('vlan_depth', 0x3, 0x3),
                gc.KeyTuple('mpls_depth', 0x9, 0x2),
                gc.KeyTuple('src_mac', 0x7FDBEFCCDD9C, 0xBEEF15F3E181),
                gc.KeyTuple('dst_mac', 0x8DFFFF22FCBC, 0xDF736465BAC7),
                gc.KeyTuple('eth_type', 0x9840, 0xC687),
                gc.KeyTuple('is_ipv4', 0x0, 0x0),
                gc.KeyTuple('ipv4_src', 0xF47621EB, 0x754A2647),
                gc.KeyTuple('ipv4_dst', 0x8E0813CB, 0x68EAA4A8),
                gc.KeyTuple('ip_proto', 0x45, 0x3C),
                gc.KeyTuple('l4_src', 0x55A6, 0xE5B7),
                gc.KeyTuple('l4_dst', 0x1F78, 0xC7EF),
            ],
            'BalancerIngress.balance',
            [
                gc.DataTuple('group', 0x2),
            ]
        )
        # Table BalancerIngress.balance_groups
        self.insertTableEntry(
            'BalancerIngress.balance_groups',
            [
                gc.KeyTuple('balance_group', 0x2),
            ],
            'BalancerIngress.group_active',
            [
                gc.DataTuple('slot_mask', 0x7C28),
            ]
        )
        # Table BalancerIngress.slots
        self.insertTableEntry(
            'BalancerIngress.slots',
            [
                gc.KeyTuple('balance_group', 0x2),
                gc.KeyTuple('slot', 0x0C08),
            ],
            'BalancerIngress.to_filter',
            [
                gc.DataTuple('filter_group', 0x3A),
                gc.DataTuple('core', 0x000),
            ]
        )
        # Table BalancerIngress.filter_groups
        self.insertTableEntry(
            'BalancerIngress.filter_groups',
            [
                gc.KeyTuple('filter_group', 0x3A),
            ],
            'BalancerIngress.filter_forward',
            [
                gc.DataTuple('lan_port', 0x002),
                gc.DataTuple('wan_port', 0x000),
                gc.DataTuple('tpid', 0x0000),
                gc.DataTuple('epoch', 0x42),
                gc.DataTuple('detect', 0x00000000),
                gc.DataTuple('fail_drop', 0x0),
            ]
        )

    def sendPacket(self):
        ig_port = 74
        pkt = b'\x8D\xFF\x6D\x22\xFD\xA4\x7F\xDB\x47\xCC\xD1\x84\x91\x00\x0F\x3B\x91\x00\x08\x73\x91\x00\x00\x00\x88\x48\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x49\x00\x00\x00\x00\x00\x00\x00\x00\x06\x00\x00\x76\xF6\xB1\xCB\x8A\x0D\x43\x8A\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x55\xAE\x27\x78\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xD6\x29\xBC\x7A\xCD\x72\x79\xEA\x92\x23\x1F\x42\x74\x80\xAD\x8E\x51\x22\x06\xD9\xDC\x9A\x67\xE4\x5C\x5F\x2B\xA5\x36\xB7\x26\x91\xE3\xDC\xBF\xCC\x9A\xFB\xB9\xE3\x4F\x71\x24\xEE\x27\xC2\xEF\xF6\xF7\xAC\x5D\x30\x43\xD9\x6A\x04\x5D\x7D\x8E\x72\x52\xBF\x4D\xD7\x6F\x1B\x79\x76\x1F\x8D\x78\x35\xA6\xBA\x13\xF0\x86\x6C\x7B\xCD\x04\x36\x39\xB0\xD7\x2B\xE4\x3D\xDB\x77\x67\xA8\xB9\x91\x59\x13\xBF\xF9\xC4\x16\x98\xE0\xD5\x13\xAD\x8C\x4A\x22\xDE\x7E\x9D\x7F\xAD\x70\xEC\x8F\x63\x11\x4E\x63\x1D\xD1\x0F\x7A\x27\x16\xA1\x19\x28\x59\xA0\x46\xE1\x78\xF1\xD7\x16\x39\xFC\xF7\x68\x6D\x45\x4F\x6C\xE5\xF4\xAD\xC3\xD3\xC6\x76\x1B\x5F\xF5\xF6\x5D\x6F\xF2\x85\x45\x9F\xFB\x9C\x51\xBC\x4D\x3D\xCF\x37\xAA\xC5\x6D\x0E\xA3\xC2\xA8\x2E\xB9\x12\xAA\x39\x9C\xA2\x0E\x4F\x3B\x68\x1B\x9D\xFF\x37\x97\x55\xD8\x26\x5C\xAC\xA9\x4F\x3A\x47\x9F\x9C\xB8\x52\x85\xED\xE0\xD5\x66\x77\x0C\xF6\xE1\x08\x85\x34\xAA\x1C\x8C\xB0\xCD\x19\x94\xE2\xF3\xAE\x27\xAF\x71\x7E\xD7\xB6\xB9\xE2\xD1\x6F\x9E\x64\x33\x55\xA7\x91\x5A\x41\xCB\x74\x7D\x5E\x1D\x1D\xE3\xB2\xB0\xEF\x0C\x44\xEF\x76\xD2\xC8\x72\xD6\x49\xC3\x23\xED\xC8\xA0\xA7\xE8\x05\x97\xCF\x63\x4C\x98\xF1\x4D\x31\xFC\xD3\x11\x06\xF4\xAC\x87\x1C\x8E\x18\xCB\x29\xB9\x5C\x06\xF8\x9E\xDA\xCE\xE4\xDC\x0E\x94\x16\x41\xC3\x4B\x9E\x5E\xDF\x6F\x4F\xB8\xF1\x4A\xF6\xFF\x86\xFA\xF3\x7C\x02\xC0\x13\x5D\xD8\x32\xE7\xB4\x18\xF2\xA1\xB8\x69\x99\xE4\x39\x1A\x38\xD7\xC3\x66\xAE\xDB\x58\xF9\x46\xE4\x0F\x80\xD9\x2D\xC8\xC6\x13\x4D\x88\xB2\x88\xB4\x2C\x07\x67\x99\x5A\xB5\x87\x0F\x56\x97\x76\xCE\xBD\x00\x2F\xB2\x4C\xC9\xD2\x01\x28\xC1\x56\x05\xED\xDA\x51\xA0\x23\x7A\xF4\x79\x88\x30\x91\x1E\x38\xEE\x4D\x84\x82\x6D\x32\x30\x95\x71\x20\x4E\xB3\xAC\x21\x31\x51\x45\x56\xD1\x2C\x5E\xFD\x31\xCE\xA5\x44\xD8\x54\x52\x2F\xFC\x1D\xCE\xE8\x82\x2A\x44\xBC\x46\x3A\x60\x3A\x70\x81\xA7\x92\xF8\x53\x73\x1C\x7E\xC0\xD1\x6F\xB3\x4B\xF0\xDC\x5C\x42\xFD\x9E\xE5\xCD\x94\xCE\x1C\x2C\xD8\xE7\x94\x0C\x8D\xE4\x90\x55\xDF\x15\xB7\x60\xDD\xAB\x00\xD1\xF3\x9D\x91\xD3\x5B\x60\xC1\x92\xC0\x92\x39\x46\xDD\x66\xC6\x14\x7A\x3F\x13\x8E\xF7\x33\xD4\xE1\xAC\xDF\xA9\xF6\x11\xBF\xEC\xFA\xF7\x96\x11\x1C\xD0\x53\x08\xE1\xCE\x93\x98\x46\x60\xF3\x13\xE9\x6E\x0C\xAC\x77\x2B\x55\xB9\x80\x68\xF3\x2F\xE2\x6E\xDD\xD2\xAA\x6F\x75\x6F\xBC\x1B\x02\x18\x10\xA4\x34\xA3\x65\x23\xC5\xEB\xAF\xED\x52\x09\x87\x31\x08\x58\xA2\xA1\x45\xEF\x28\xED\x1C\x7E\xFC\x20\xB5\x32\xB1\x03\x1A\x10\xCA\xEA\x47\x0A\x2C\x74\x08\x10\x57\x52\x3F\x26\x4D\xAD\x0C\xC1\x9F\x3B\x75\x64\x56\xCB\x7A\xAC\x90\x0F\x80\xD4\xCC\xC4\x6B\xEE\x53\xFE\xDB\x94\xF2\xA2\x07\x30\x66\xE3\x56\x95\xE5\x0D\xC6\x96\xA2\x51\xA9\x50\xD0\x74\x56\x7E\x67\x91\x2F\x0E\xDA\x24\x51\x6E\x62\x9A\xEC\x36\xCF\x30\x74\xAA\x80\xF3\x82\xBC\xFB\x1F\xF1\xC5\x92\x63\x11\x2A\x96\x08\x57\x20\x86\xC0\xD3\x87\x90\x10\x29\xE7\x0C\x45\x4C\xC5\xC7\x3C\xFB\xFE\xB7\x02\x9A\xE3\xBB\xA3\xD4\x85\xEF\xDD\x8F\xE9\xFF\xBE\xBD\x31\x97\x97\x1D\x0A\xB2\x9A\xAF\x48\xDF\xCC\xBF\x02\x83\xC5\xC9\xD9\x49\x68\x05\x7F\x02\xE9\xA9\x4A\x4B\xC8\x13\x18\x34\xDA\x3A\x4A\x99\x99\xD0\x81\xBC\x69\x37\xB0\x81\xA7\x12\x21\xFC\x1D\x04\xEA\x77\xBE\x94\xBB\x01\xDF\x3B\x91\x5A\xC9\x56\x72\xC4\x39\x0A\x0C\x8B\x4A\x8D\xFB\x67\xA0\x88\x8F\xF0\x40\x74\x24\x28\xE7\x4B\xE2\x32\x3D\x7E\x31\x36\x29\xCC\xA6\x0B\x75\xE2\xA9\x16\xCB\x4B\xC7\x97\x22\x6C\xF3\x07\x0F\xCC\x4B\x2D\xA3\xDF\x3E\x45\xE7\x40\x50\x62\x99\x5C\xF3\xB0\x1B\x23\x26\x39\xFF\xFB\x57\x7B\xEB\xD1\xC2\x0C\xD6\x0B\x1C\x3C\x33\xF8\xBD\xFF\xA9\xE6\xF9\x06\x35\xFB\x0B\x48\xE5\xF3\x0D\xA5\x22\xC7\x2F\xA7\x1C\x9E\x95\xE9\x34\xA0\x9B\x13\x69\x94\xC4\x03\x51\xAD\xD1\xDD\x05\xC4\x52\x98\x81\x7A\x33\x20\xFD\xD5\xE7\xC3\x62\xD2\x62\xC1\x12\x05\x65\x6F\xB4\x9C\xAB\xAE\x3B\x00\x30\xCB\x2B\x68\x4D\x58\x18\x2D\xB3\x50\x81\xA3\x69\x7D\x8E\xAC\x5A\xEA\x27\xE9\xD0\x87\x19\xD2\x3D\x40\xC2\x47\xAB\x99\xAF\x0C\x09\xD3\xFA\xC6\x83\x17\xDF\x0A\x07\x8D\xDE\x4D\xA4\x21\xA9\xBC\x90\xCB\xB7\x3C\x06\xCB\x6F\xCA\x66\x61\xD5\xFD\xBF\x08\xFA\x9B\x02\xCF\x9D\x21\x9A\x14\xE7\x98\xB9\x2A\x6B\x29\x65\x8B\x8A\xB1\x29\x3C\xD1\x7F\x84\x05\xE2\xF5\xDA\xB6\x23\xD9\x62\xDE\x53\x78\xC6\x66\x2A\xF0\x81\x89\xB3\xFF\xB9\xE9\x17\xE5\x56\x3E\xB7\x0C\x79\x4F\x7D\x6D\x20\x78\xA6\x0F\xC6\x14\xAE\x9C\x86\x93\xA6\x75\x73\xDB\x81\x32\x64\x14\x61\xE1\xC1\xBF\x98\xA1\x83\xC9\xCB\x15\x86\x29\x35\x40\x0D\x91\xCD\x8C\xA5\x2E\x9F\xA5\xE1\x46\x3E\x33\x72\x29\xBB\x9A\xAB\xC5\x6D\x78\x94\x18\xEC\x33\x37\x56\x55\xD2\x4E\x6C\x9E\x6C\x3A\x24\x3F\xBE\x10\xA2\xEB\x53\x57\x13\x91\xC0\x48\x79\xA4\x13\x34\x1D\x02\x8B\x1A\x90\xEC\xA1\xA0\x44\x39\x59\x23\x54\x23\x2C\x5E\x84\x5B\x66\x52\xE2\x27\xAC\x46\xFE\xF7\x05\xEC\x42\x85\xF9\x17\x49\x8F\x1C\x91\x10\x44\x32\x1F\x52\x0C\x4B\x94\xDB\x8E\xD9\x04\xB6\x9C\xB0\x41\xE2\x42\x60\x5D\x71\x30\xA8\xE2\x39\xEF\x46\xE6\x78\x3A\xD1\xAF\xB8\x95\x2D\x62\xA4\xAB\x8F\x9D\xED\x28\x28\xED\x35\x38\xA2\xEE\x71\x36\xFD\x65\x9A\xBC\x1E\xCD\xCA\xD7\xCF\x5D\x04\x90\x99\x33\x93\x20\x27\xD8\x21\xF8\x1E\x3C\x5B\x8A\xEE\xDA\x01\xB0\x19\x87\x76\x06\xF3'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        eg_port = 2
        exp_pkt = b'\x8D\xFF\x6D\x22\xFD\xA4\x7F\xDB\x47\xCC\xD1\x84\x00\x00\x6C\x00\x91\x00\x0F\x3B\x91\x00\x08\x73\x91\x00\x00\x00\x88\x48\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x49\x00\x00\x00\x00\x00\x00\x00\x00\x06\x00\x00\x76\xF6\xB1\xCB\x8A\x0D\x43\x8A\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x55\xAE\x27\x78\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xD6\x29\xBC\x7A\xCD\x72\x79\xEA\x92\x23\x1F\x42\x74\x80\xAD\x8E\x51\x22\x06\xD9\xDC\x9A\x67\xE4\x5C\x5F\x2B\xA5\x36\xB7\x26\x91\xE3\xDC\xBF\xCC\x9A\xFB\xB9\xE3\x4F\x71\x24\xEE\x27\xC2\xEF\xF6\xF7\xAC\x5D\x30\x43\xD9\x6A\x04\x5D\x7D\x8E\x72\x52\xBF\x4D\xD7\x6F\x1B\x79\x76\x1F\x8D\x78\x35\xA6\xBA\x13\xF0\x86\x6C\x7B\xCD\x04\x36\x39\xB0\xD7\x2B\xE4\x3D\xDB\x77\x67\xA8\xB9\x91\x59\x13\xBF\xF9\xC4\x16\x98\xE0\xD5\x13\xAD\x8C\x4A\x22\xDE\x7E\x9D\x7F\xAD\x70\xEC\x8F\x63\x11\x4E\x63\x1D\xD1\x0F\x7A\x27\x16\xA1\x19\x28\x59\xA0\x46\xE1\x78\xF1\xD7\x16\x39\xFC\xF7\x68\x6D\x45\x4F\x6C\xE5\xF4\xAD\xC3\xD3\xC6\x76\x1B\x5F\xF5\xF6\x5D\x6F\xF2\x85\x45\x9F\xFB\x9C\x51\xBC\x4D\x3D\xCF\x37\xAA\xC5\x6D\x0E\xA3\xC2\xA8\x2E\xB9\x12\xAA\x39\x9C\xA2\x0E\x4F\x3B\x68\x1B\x9D\xFF\x37\x97\x55\xD8\x26\x5C\xAC\xA9\x4F\x3A\x47\x9F\x9C\xB8\x52\x85\xED\xE0\xD5\x66\x77\x0C\xF6\xE1\x08\x85\x34\xAA\x1C\x8C\xB0\xCD\x19\x94\xE2\xF3\xAE\x27\xAF\x71\x7E\xD7\xB6\xB9\xE2\xD1\x6F\x9E\x64\x33\x55\xA7\x91\x5A\x41\xCB\x74\x7D\x5E\x1D\x1D\xE3\xB2\xB0\xEF\x0C\x44\xEF\x76\xD2\xC8\x72\xD6\x49\xC3\x23\xED\xC8\xA0\xA7\xE8\x05\x97\xCF\x63\x4C\x98\xF1\x4D\x31\xFC\xD3\x11\x06\xF4\xAC\x87\x1C\x8E\x18\xCB\x29\xB9\x5C\x06\xF8\x9E\xDA\xCE\xE4\xDC\x0E\x94\x16\x41\xC3\x4B\x9E\x5E\xDF\x6F\x4F\xB8\xF1\x4A\xF6\xFF\x86\xFA\xF3\x7C\x02\xC0\x13\x5D\xD8\x32\xE7\xB4\x18\xF2\xA1\xB8\x69\x99\xE4\x39\x1A\x38\xD7\xC3\x66\xAE\xDB\x58\xF9\x46\xE4\x0F\x80\xD9\x2D\xC8\xC6\x13\x4D\x88\xB2\x88\xB4\x2C\x07\x67\x99\x5A\xB5\x87\x0F\x56\x97\x76\xCE\xBD\x00\x2F\xB2\x4C\xC9\xD2\x01\x28\xC1\x56\x05\xED\xDA\x51\xA0\x23\x7A\xF4\x79\x88\x30\x91\x1E\x38\xEE\x4D\x84\x82\x6D\x32\x30\x95\x71\x20\x4E\xB3\xAC\x21\x31\x51\x45\x56\xD1\x2C\x5E\xFD\x31\xCE\xA5\x44\xD8\x54\x52\x2F\xFC\x1D\xCE\xE8\x82\x2A\x44\xBC\x46\x3A\x60\x3A\x70\x81\xA7\x92\xF8\x53\x73\x1C\x7E\xC0\xD1\x6F\xB3\x4B\xF0\xDC\x5C\x42\xFD\x9E\xE5\xCD\x94\xCE\x1C\x2C\xD8\xE7\x94\x0C\x8D\xE4\x90\x55\xDF\x15\xB7\x60\xDD\xAB\x00\xD1\xF3\x9D\x91\xD3\x5B\x60\xC1\x92\xC0\x92\x39\x46\xDD\x66\xC6\x14\x7A\x3F\x13\x8E\xF7\x33\xD4\xE1\xAC\xDF\xA9\xF6\x11\xBF\xEC\xFA\xF7\x96\x11\x1C\xD0\x53\x08\xE1\xCE\x93\x98\x46\x60\xF3\x13\xE9\x6E\x0C\xAC\x77\x2B\x55\xB9\x80\x68\xF3\x2F\xE2\x6E\xDD\xD2\xAA\x6F\x75\x6F\xBC\x1B\x02\x18\x10\xA4\x34\xA3\x65\x23\xC5\xEB\xAF\xED\x52\x09\x87\x31\x08\x58\xA2\xA1\x45\xEF\x28\xED\x1C\x7E\xFC\x20\xB5\x32\xB1\x03\x1A\x10\xCA\xEA\x47\x0A\x2C\x74\x08\x10\x57\x52\x3F\x26\x4D\xAD\x0C\xC1\x9F\x3B\x75\x64\x56\xCB\x7A\xAC\x90\x0F\x80\xD4\xCC\xC4\x6B\xEE\x53\xFE\xDB\x94\xF2\xA2\x07\x30\x66\xE3\x56\x95\xE5\x0D\xC6\x96\xA2\x51\xA9\x50\xD0\x74\x56\x7E\x67\x91\x2F\x0E\xDA\x24\x51\x6E\x62\x9A\xEC\x36\xCF\x30\x74\xAA\x80\xF3\x82\xBC\xFB\x1F\xF1\xC5\x92\x63\x11\x2A\x96\x08\x57\x20\x86\xC0\xD3\x87\x90\x10\x29\xE7\x0C\x45\x4C\xC5\xC7\x3C\xFB\xFE\xB7\x02\x9A\xE3\xBB\xA3\xD4\x85\xEF\xDD\x8F\xE9\xFF\xBE\xBD\x31\x97\x97\x1D\x0A\xB2\x9A\xAF\x48\xDF\xCC\xBF\x02\x83\xC5\xC9\xD9\x49\x68\x05\x7F\x02\xE9\xA9\x4A\x4B\xC8\x13\x18\x34\xDA\x3A\x4A\x99\x99\xD0\x81\xBC\x69\x37\xB0\x81\xA7\x12\x21\xFC\x1D\x04\xEA\x77\xBE\x94\xBB\x01\xDF\x3B\x91\x5A\xC9\x56\x72\xC4\x39\x0A\x0C\x8B\x4A\x8D\xFB\x67\xA0\x88\x8F\xF0\x40\x74\x24\x28\xE7\x4B\xE2\x32\x3D\x7E\x31\x36\x29\xCC\xA6\x0B\x75\xE2\xA9\x16\xCB\x4B\xC7\x97\x22\x6C\xF3\x07\x0F\xCC\x4B\x2D\xA3\xDF\x3E\x45\xE7\x40\x50\x62\x99\x5C\xF3\xB0\x1B\x23\x26\x39\xFF\xFB\x57\x7B\xEB\xD1\xC2\x0C\xD6\x0B\x1C\x3C\x33\xF8\xBD\xFF\xA9\xE6\xF9\x06\x35\xFB\x0B\x48\xE5\xF3\x0D\xA5\x22\xC7\x2F\xA7\x1C\x9E\x95\xE9\x34\xA0\x9B\x13\x69\x94\xC4\x03\x51\xAD\xD1\xDD\x05\xC4\x52\x98\x81\x7A\x33\x20\xFD\xD5\xE7\xC3\x62\xD2\x62\xC1\x12\x05\x65\x6F\xB4\x9C\xAB\xAE\x3B\x00\x30\xCB\x2B\x68\x4D\x58\x18\x2D\xB3\x50\x81\xA3\x69\x7D\x8E\xAC\x5A\xEA\x27\xE9\xD0\x87\x19\xD2\x3D\x40\xC2\x47\xAB\x99\xAF\x0C\x09\xD3\xFA\xC6\x83\x17\xDF\x0A\x07\x8D\xDE\x4D\xA4\x21\xA9\xBC\x90\xCB\xB7\x3C\x06\xCB\x6F\xCA\x66\x61\xD5\xFD\xBF\x08\xFA\x9B\x02\xCF\x9D\x21\x9A\x14\xE7\x98\xB9\x2A\x6B\x29\x65\x8B\x8A\xB1\x29\x3C\xD1\x7F\x84\x05\xE2\xF5\xDA\xB6\x23\xD9\x62\xDE\x53\x78\xC6\x66\x2A\xF0\x81\x89\xB3\xFF\xB9\xE9\x17\xE5\x56\x3E\xB7\x0C\x79\x4F\x7D\x6D\x20\x78\xA6\x0F\xC6\x14\xAE\x9C\x86\x93\xA6\x75\x73\xDB\x81\x32\x64\x14\x61\xE1\xC1\xBF\x98\xA1\x83\xC9\xCB\x15\x86\x29\x35\x40\x0D\x91\xCD\x8C\xA5\x2E\x9F\xA5\xE1\x46\x3E\x33\x72\x29\xBB\x9A\xAB\xC5\x6D\x78\x94\x18\xEC\x33\x37\x56\x55\xD2\x4E\x6C\x9E\x6C\x3A\x24\x3F\xBE\x10\xA2\xEB\x53\x57\x13\x91\xC0\x48\x79\xA4\x13\x34\x1D\x02\x8B\x1A\x90\xEC\xA1\xA0\x44\x39\x59\x23\x54\x23\x2C\x5E\x84\x5B\x66\x52\xE2\x27\xAC\x46\xFE\xF7\x05\xEC\x42\x85\xF9\x17\x49\x8F\x1C\x91\x10\x44\x32\x1F\x52\x0C\x4B\x94\xDB\x8E\xD9\x04\xB6\x9C\xB0\x41\xE2\x42\x60\x5D\x71\x30\xA8\xE2\x39\xEF\x46\xE6\x78\x3A\xD1\xAF\xB8\x95\x2D\x62\xA4\xAB\x8F\x9D\xED\x28\x28\xED\x35\x38\xA2\xEE\x71\x36\xFD\x65\x9A\xBC\x1E\xCD\xCA\xD7\xCF\x5D\x04\x90\x99\x33\x93\x20\x27\xD8\x21\xF8\x1E\x3C\x5B\x8A\xEE\xDA\x01\xB0\x19\x87\x76\x06\xF3'
        exp_pkt = Mask(exp_pkt)
        verify_packet(self, exp_pkt, eg_port)

    def runTest(self):
        self.runTestImpl()


class Test7(AbstractTest):
    # Date generated: 2026-12-07-20:51:39.343
    # Current statement coverage: 0.62
    '''
    [P4Testgen MethodCall]: *.StartIngress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(0);
    [PrependToProgramHeader]: 0
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*ig_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    resubmit_flag:0;  _pad1:0;  packet_version:0;  _pad2:0;  ingress_port:84;  ingress_mac_tstamp:0;  }
    [P4Testgen MethodCall]: *.copy_in("IngressParser");
    [Parser] IngressParser
    [State] start
    [MethodCall]: pkt.extract<ingress_intrinsic_metadata_t>(ig_intr_md);
    [ExtractSuccess] ig_intr_md@0 | Condition: |*packetLen_bits(bit<32>)| >= 64; | Extract Size: 64 -> ig_intr_md.resubmit_flag = 0x0 | ig_intr_md._pad1 = 0x0 | ig_intr_md.packet_version = 0x0 | ig_intr_md._pad2 = 0x0 | ig_intr_md.ingress_port = 0x054 | ig_intr_md.ingress_mac_tstamp = Taint
    [AssignmentStatement]: md.eth_type = 0;| Computed: md.eth_type = 0;
    [AssignmentStatement]: md.copy_pipe = ig_intr_md.ingress_port[8:7];| Computed: md.copy_pipe = 0;
    [AssignmentStatement]: md.proof_copy = false;| Computed: md.proof_copy = false;
    [State] parse_port_metadata
    [MethodCall]: pkt.advance(64);
    [Advance Condition: |*packetLen_bits(bit<32>)| >= 64;]
    [State] parse_port
    [State] parse_ethernet
    [MethodCall]: pkt.extract<ethernet_t>(hdr.ethernet);
    [ExtractSuccess] hdr.ethernet@0 | Condition: |*packetLen_bits(bit<32>)| >= 96; | Extract Size: 96 -> hdr.ethernet.dst_addr = 0xD7EF_DDEB_BB7B | hdr.ethernet.src_addr = 0xBE13_F332_BD53
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 112;]
    [P4Testgen AssignmentStatement]: tmp_0 = 37120;
    [State] parse_vlan_0
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[0]);
    [ExtractSuccess] hdr.vlan[0]@96 | Condition: |*packetLen_bits(bit<32>)| >= 128; | Extract Size: 32 -> hdr.vlan[0].tpid = 0x9100 | hdr.vlan[0].pcp = 0x0 | hdr.vlan[0].dei = 0x0 | hdr.vlan[0].vid = 0xF81
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 144;]
    [P4Testgen AssignmentStatement]: tmp_4 = 37120;
    [State] parse_vlan_1
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[1]);
    [ExtractSuccess] hdr.vlan[1]@128 | Condition: |*packetLen_bits(bit<32>)| >= 160; | Extract Size: 32 -> hdr.vlan[1].tpid = 0x9100 | hdr.vlan[1].pcp = 0x0 | hdr.vlan[1].dei = 0x0 | hdr.vlan[1].vid = 0xE33
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 176;]
    [P4Testgen AssignmentStatement]: tmp_6 = 37120;
    [State] parse_vlan_2
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[2]);
    [ExtractSuccess] hdr.vlan[2]@160 | Condition: |*packetLen_bits(bit<32>)| >= 192; | Extract Size: 32 -> hdr.vlan[2].tpid = 0x9100 | hdr.vlan[2].pcp = 0x0 | hdr.vlan[2].dei = 0x0 | hdr.vlan[2].vid = 0x000
    [State] parse_eth_type
    [MethodCall]: pkt.extract<eth_type_t>(hdr.eth_type);
    [ExtractSuccess] hdr.eth_type@192 | Condition: |*packetLen_bits(bit<32>)| >= 208; | Extract Size: 16 -> hdr.eth_type.value = 0x8848
    [AssignmentStatement]: md.eth_type = hdr.eth_type.value;| Computed: md.eth_type = 34888;
    [State] parse_mpls_0
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[0]);
    [ExtractSuccess] hdr.mpls[0]@208 | Condition: |*packetLen_bits(bit<32>)| >= 240; | Extract Size: 32 -> hdr.mpls[0].label = 0x0000_0000 | hdr.mpls[0].tc = 0x0 | hdr.mpls[0].bos = 0x0 | hdr.mpls[0].ttl = 0x00
    [State] parse_mpls_1
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[1]);
    [ExtractSuccess] hdr.mpls[1]@240 | Condition: |*packetLen_bits(bit<32>)| >= 272; | Extract Size: 32 -> hdr.mpls[1].label = 0x0000_0000 | hdr.mpls[1].tc = 0x0 | hdr.mpls[1].bos = 0x0 | hdr.mpls[1].ttl = 0x00
    [State] parse_mpls_2
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[2]);
    [ExtractSuccess] hdr.mpls[2]@272 | Condition: |*packetLen_bits(bit<32>)| >= 304; | Extract Size: 32 -> hdr.mpls[2].label = 0x0000_0000 | hdr.mpls[2].tc = 0x0 | hdr.mpls[2].bos = 0x0 | hdr.mpls[2].ttl = 0x00
    [State] parse_mpls_3
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[3]);
    [ExtractSuccess] hdr.mpls[3]@304 | Condition: |*packetLen_bits(bit<32>)| >= 336; | Extract Size: 32 -> hdr.mpls[3].label = 0x0000_0000 | hdr.mpls[3].tc = 0x0 | hdr.mpls[3].bos = 0x1 | hdr.mpls[3].ttl = 0x00
    [State] parse_mpls_payload
    [Lookahead result]: 4
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 340;]
    [P4Testgen AssignmentStatement]: tmp_8 = 4;
    [State] parse_ipv4
    [MethodCall]: pkt.extract<ipv4_t>(hdr.ipv4);
    [ExtractSuccess] hdr.ipv4@336 | Condition: |*packetLen_bits(bit<32>)| >= 496; | Extract Size: 160 -> hdr.ipv4.version = 0x4 | hdr.ipv4.ihl = 0x9 | hdr.ipv4.dscp_ecn = 0x00 | hdr.ipv4.total_len = 0x0000 | hdr.ipv4.identification = 0x0000 | hdr.ipv4.flags = 0x0 | hdr.ipv4.frag_offset = 0x0000 | hdr.ipv4.ttl = 0x00 | hdr.ipv4.protocol = 0x06 | hdr.ipv4.hdr_checksum = 0x0000 | hdr.ipv4.src_addr = 0xA2D2_25B4 | hdr.ipv4.dst_addr = 0xB2E8_B2EF
    [State] parse_ipv4_option_0
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[0]);
    [ExtractSuccess] hdr.ipv4_options[0]@496 | Condition: |*packetLen_bits(bit<32>)| >= 528; | Extract Size: 32 -> hdr.ipv4_options[0].data = 0x0000_0000
    [State] parse_ipv4_option_1
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[1]);
    [ExtractSuccess] hdr.ipv4_options[1]@528 | Condition: |*packetLen_bits(bit<32>)| >= 560; | Extract Size: 32 -> hdr.ipv4_options[1].data = 0x0000_0000
    [State] parse_ipv4_option_2
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[2]);
    [ExtractSuccess] hdr.ipv4_options[2]@560 | Condition: |*packetLen_bits(bit<32>)| >= 592; | Extract Size: 32 -> hdr.ipv4_options[2].data = 0x0000_0000
    [State] parse_ipv4_option_3
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[3]);
    [ExtractSuccess] hdr.ipv4_options[3]@592 | Condition: |*packetLen_bits(bit<32>)| >= 624; | Extract Size: 32 -> hdr.ipv4_options[3].data = 0x0000_0000
    [State] parse_ipv4_l4
    [State] parse_tcp
    [MethodCall]: pkt.extract<tcp_t>(hdr.tcp);
    [ExtractSuccess] hdr.tcp@624 | Condition: |*packetLen_bits(bit<32>)| >= 784; | Extract Size: 160 -> hdr.tcp.src_port = 0x3E51 | hdr.tcp.dst_port = 0xFD73 | hdr.tcp.seq_no = 0x0000_0000 | hdr.tcp.ack_no = 0x0000_0000 | hdr.tcp.data_offset = 0x0 | hdr.tcp.res = 0x0 | hdr.tcp.flags = 0x00 | hdr.tcp.window = 0x0000 | hdr.tcp.checksum = 0x0000 | hdr.tcp.urgent_ptr = 0x0000
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("IngressParser");
    [P4Testgen MethodCall]: *.copy_in("BalancerIngress");
    [Control BalancerIngress start]
    [AssignmentStatement]: md.ingress_port = ig_intr_md.ingress_port;| Computed: md.ingress_port = 84;
    [AssignmentStatement]: md.ingress_ts = ig_intr_md.ingress_mac_tstamp;| Computed: md.ingress_ts = "Taint";
    [AssignmentStatement]: md.port_type = PORT_TYPE_UNKNOWN;| Computed: md.port_type = 0;
    [AssignmentStatement]: md.drop = false;| Computed: md.drop = false;
    [AssignmentStatement]: md.to_cpu = false;| Computed: md.to_cpu = false;
    [AssignmentStatement]: md.ka_stamp = false;| Computed: md.ka_stamp = false;
    [AssignmentStatement]: md.drop_reason = DROP_NONE;| Computed: md.drop_reason = 0;
    [AssignmentStatement]: md.count_link = false;| Computed: md.count_link = false;
    [AssignmentStatement]: md.count_fg = false;| Computed: md.count_fg = false;
    [AssignmentStatement]: md.heartbeat = false;| Computed: md.heartbeat = false;
    [AssignmentStatement]: md.balance = false;| Computed: md.balance = false;
    [AssignmentStatement]: md.slot_hit = false;| Computed: md.slot_hit = false;
    [AssignmentStatement]: md.session_hit = false;| Computed: md.session_hit = false;
    [AssignmentStatement]: md.learn = false;| Computed: md.learn = false;
    [AssignmentStatement]: md.count_rx = false;| Computed: md.count_rx = false;
    [AssignmentStatement]: md.malformed = false;| Computed: md.malformed = false;
    [AssignmentStatement]: md.now = ig_prsr_md.global_tstamp[47:16];| Computed: md.now = "Taint";
    [AssignmentStatement]: md.fg_forward = false;| Computed: md.fg_forward = false;
    [AssignmentStatement]: md.ka_send = false;| Computed: md.ka_send = false;
    [AssignmentStatement]: md.ev_send = false;| Computed: md.ev_send = false;
    [AssignmentStatement]: md.ev_return = false;| Computed: md.ev_return = false;
    [AssignmentStatement]: md.ev_index = 0;| Computed: md.ev_index = 0;
    [AssignmentStatement]: md.ev_bucket = 0;| Computed: md.ev_bucket = 0;
    [AssignmentStatement]: md.target_fg = 0;| Computed: md.target_fg = 0;
    [AssignmentStatement]: md.epoch = 0;| Computed: md.epoch = 0;
    [AssignmentStatement]: md.detect = 0;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = 0;| Computed: md.fail_drop = 0;
    [AssignmentStatement]: md.verdict_now = false;| Computed: md.verdict_now = false;
    [AssignmentStatement]: md.digest.reason = VERDICT_REASON_STANDING;| Computed: md.digest.reason = 0;
    [AssignmentStatement]: md.digest.age = 0;| Computed: md.digest.age = 0;
    [AssignmentStatement]: md.verdict_hit = false;| Computed: md.verdict_hit = false;
    [AssignmentStatement]: md.count_verdict = false;| Computed: md.count_verdict = false;
    [AssignmentStatement]: md.verdict_kind = VERDICT_CNT_BYPASS;| Computed: md.verdict_kind = 0;
    [AssignmentStatement]: md.send_digest = false;| Computed: md.send_digest = false;
    [AssignmentStatement]: md.cpu_port = 192;| Computed: md.cpu_port = 192;
    [P4Testgen If Statement]: Condition: false; Result: false
    [MethodCall]: _BalancerIngress_port_role/port_role.apply();
    [Table Branch: BalancerIngress.port_role | Key(s): |tofino_ingress_port(bit<9>)|| Chosen action: BalancerIngress.set_operator_port]
    [MethodCall]: _BalancerIngress_set_operator_port_0/set_operator_port(|BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_side_2(bit<1>)|, |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_peer_port_1(bit<9>)|);
    [AssignmentStatement]: md.port_type = PORT_TYPE_OPERATOR;| Computed: md.port_type = 1;
    [AssignmentStatement]: md.link_id = link_id;| Computed: md.link_id = 22;
    [AssignmentStatement]: md.side = side;| Computed: md.side = 0;
    [AssignmentStatement]: md.peer_port = peer_port;| Computed: md.peer_port = 0;
    [AssignmentStatement]: md.vlan_depth = 0;| Computed: md.vlan_depth = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.vlan_depth = 3;| Computed: md.vlan_depth = 3;
    [AssignmentStatement]: md.mpls_depth = 0;| Computed: md.mpls_depth = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.mpls_depth = 4;| Computed: md.mpls_depth = 4;
    [AssignmentStatement]: md.outer_vid = 0;| Computed: md.outer_vid = 0;
    [AssignmentStatement]: md.inner_vid = 0;| Computed: md.inner_vid = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[0].isValid()) { md.outer_vid = hdr.vlan[0].vid; }| Computed: md.outer_vid = 3969;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[1].isValid()) { md.inner_vid = hdr.vlan[1].vid; }| Computed: md.inner_vid = 3635;
    [AssignmentStatement]: md.is_ipv4 = 0;| Computed: md.is_ipv4 = 0;
    [AssignmentStatement]: md.ipv4_src = 0;| Computed: md.ipv4_src = 0;
    [AssignmentStatement]: md.ipv4_dst = 0;| Computed: md.ipv4_dst = 0;
    [AssignmentStatement]: md.ip_proto = 0;| Computed: md.ip_proto = 0;
    [AssignmentStatement]: md.addr_x = 0;| Computed: md.addr_x = 0;
    [AssignmentStatement]: md.addr_y = 0;| Computed: md.addr_y = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.is_ipv4 = 1;| Computed: md.is_ipv4 = 1;
    [AssignmentStatement]: md.ipv4_src = hdr.ipv4.src_addr;| Computed: md.ipv4_src = 2731681204;
    [AssignmentStatement]: md.ipv4_dst = hdr.ipv4.dst_addr;| Computed: md.ipv4_dst = 3001594607;
    [AssignmentStatement]: md.ip_proto = hdr.ipv4.protocol;| Computed: md.ip_proto = 6;
    [AssignmentStatement]: md.addr_x = hdr.ipv4.src_addr;| Computed: md.addr_x = 2731681204;
    [AssignmentStatement]: md.addr_y = hdr.ipv4.dst_addr;| Computed: md.addr_y = 3001594607;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [AssignmentStatement]: md.l4_src = 0;| Computed: md.l4_src = 0;
    [AssignmentStatement]: md.l4_dst = 0;| Computed: md.l4_dst = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.l4_src = hdr.tcp.src_port;| Computed: md.l4_src = 15953;
    [AssignmentStatement]: md.l4_dst = hdr.tcp.dst_port;| Computed: md.l4_dst = 64883;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: (ig_prsr_md.parser_err != 0) || (hdr.ipv4.isValid() && hdr.ipv4.ihl < 5) Condition: 0 != 0 || true && |pktvar_32(bit<4>)| < 5; Result: false
    [AssignmentStatement]: md.count_rx = true;| Computed: md.count_rx = true;
    [If Statement]: md.port_type == PORT_TYPE_OPERATOR Condition: 1 == 1; Result: true
    [MethodCall]: _BalancerIngress_heartbeat/heartbeat.apply();
    [Table Branch: BalancerIngress.heartbeat Choosing default action: _BalancerIngress_no_heartbeat_0/no_heartbeat;]
    [MethodCall]: _BalancerIngress_no_heartbeat_0/no_heartbeat();
    [If Statement]: false Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [MethodCall]: _BalancerIngress_flow_rules/flow_rules.apply();
    [Table Branch: BalancerIngress.flow_rules | Key(s): |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |pktvar_5(bit<12>)|, |pktvar_9(bit<12>)|, 3, 4, |pktvar_1(bit<48>)|, |pktvar_0(bit<48>)|, |pktvar_14(bit<16>)|, 1, |pktvar_41(bit<32>)|, |pktvar_42(bit<32>)|, |pktvar_39(bit<8>)|, |pktvar_47(bit<16>)|, |pktvar_48(bit<16>)|| Chosen action: BalancerIngress.balance]
    [MethodCall]: _BalancerIngress_balance_0/balance(|BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|);
    [AssignmentStatement]: md.balance = true;| Computed: md.balance = true;
    [AssignmentStatement]: md.balance_group = group;| Computed: md.balance_group = 5;
    [MethodCall]: _BalancerIngress_flow_rules_counter/flow_rules_counter.count();
    [If Statement]: (md.addr_x < md.addr_y) Condition: |pktvar_41(bit<32>)| < |pktvar_42(bit<32>)|; Result: true
    [AssignmentStatement]: bit<32> lo = (md.addr_x < md.addr_y) ? md.addr_x : md.addr_y;| Computed: session_hash_tmp = 2731681204;
    [If Statement]: (md.addr_x < md.addr_y) Condition: |pktvar_41(bit<32>)| < |pktvar_42(bit<32>)|; Result: true
    [AssignmentStatement]: bit<32> hi = (md.addr_x < md.addr_y) ? md.addr_y : md.addr_x;| Computed: session_hash_tmp_0 = 3001594607;
    [AssignmentStatement]: md.hash = sym_hash.get({ lo, hi, md.ip_proto });| Computed: md.hash = 2819149687;
    [AssignmentStatement]: md.sess_lo = lo;| Computed: md.sess_lo = 2731681204;
    [AssignmentStatement]: md.sess_hi = hi;| Computed: md.sess_hi = 3001594607;
    [If Statement]: true Condition: true; Result: true
    [If Statement]: (!hdr.ipv4.isValid() && !hdr.ipv6.isValid()) || hdr.core.isValid() Condition: !true && !false || false; Result: false
    [MethodCall]: _BalancerIngress_sessions/sessions.apply();
    [Table Branch: BalancerIngress.sessions Choosing default action: _BalancerIngress_session_miss_0/session_miss;]
    [MethodCall]: _BalancerIngress_session_miss_0/session_miss();
    [MethodCall]: _BalancerIngress_balance_groups/balance_groups.apply();
    [Table Branch: BalancerIngress.balance_groups | Key(s): |BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|| Chosen action: BalancerIngress.group_active]
    [MethodCall]: _BalancerIngress_group_active_0/group_active(|BalancerIngress.balance_groups_BalancerIngress.group_active_arg_slot_mask_1(bit<16>)|);
    [AssignmentStatement]: md.slot_mask = slot_mask;| Computed: md.slot_mask = 56303;
    [AssignmentStatement]: md.slot = md.hash[15:0] & slot_mask;| Computed: md.slot = 52071;
    [SwitchCase]: group_active
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: _BalancerIngress_slots/slots.apply();
    [Table Branch: BalancerIngress.slots | Key(s): |BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|, Concolic_Hash_get_3496838_0({ {    f0:|pktvar_41(bit<32>)|;    f1:|pktvar_42(bit<32>)|;    f2:|pktvar_39(bit<8>)|; } })[15:0] & |BalancerIngress.balance_groups_BalancerIngress.group_active_arg_slot_mask_1(bit<16>)|;| Chosen action: BalancerIngress.to_filter]
    [MethodCall]: _BalancerIngress_to_filter_0/to_filter(|BalancerIngress.slots_BalancerIngress.to_filter_arg_filter_group_4(bit<6>)|, |BalancerIngress.slots_BalancerIngress.to_filter_arg_core_2(bit<10>)|);
    [AssignmentStatement]: md.target_fg = filter_group;| Computed: md.target_fg = 40;
    [AssignmentStatement]: md.core = core;| Computed: md.core = 0;
    [AssignmentStatement]: md.slot_hit = true;| Computed: md.slot_hit = true;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.learn = true;| Computed: md.learn = true;
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_core_counters/core_counters.count((bit<32>)(md.target_fg ++ md.core));
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: port_t named = md.out_port;| Computed: filter_groups_ctl_named/named = 0;
    [MethodCall]: _BalancerIngress_filter_groups/filter_groups.apply();
    [Table Branch: BalancerIngress.filter_groups | Key(s): |BalancerIngress.slots_BalancerIngress.to_filter_arg_filter_group_4(bit<6>)|| Chosen action: BalancerIngress.filter_forward]
    [MethodCall]: _BalancerIngress_filter_forward_0/filter_forward(|BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_lan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_wan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_tpid_1(bit<16>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_detect_1(bit<32>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_fail_drop_1(bit<1>)|);
    [AssignmentStatement]: md.epoch = epoch;| Computed: md.epoch = 245;
    [AssignmentStatement]: md.detect = detect;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = fail_drop;| Computed: md.fail_drop = 0;
    [AssignmentStatement]: md.fg_forward = true;| Computed: md.fg_forward = true;
    [AssignmentStatement]: md.ev_index = md.target_fg ++ md.side;| Computed: md.ev_index = 80;
    [AssignmentStatement]: md.digest.filter_group = (bit<8>)md.target_fg;| Computed: md.digest.filter_group = 40;
    [AssignmentStatement]: md.digest.direction = (bit<8>)md.side;| Computed: md.digest.direction = 0;
    [AssignmentStatement]: md.digest.epoch = epoch;| Computed: md.digest.epoch = 245;
    [AssignmentStatement]: md.deadline = md.now + (detect);| Computed: md.deadline = "Taint";
    [AssignmentStatement]: md.fg_lan_port = lan_port;| Computed: md.fg_lan_port = 68;
    [AssignmentStatement]: md.fg_wan_port = wan_port;| Computed: md.fg_wan_port = 0;
    [AssignmentStatement]: md.tpid = tpid;| Computed: md.tpid = 0;
    [AssignmentStatement]: md.count_fg = true;| Computed: md.count_fg = true;
    [AssignmentStatement]: md.fg_index = md.target_fg;| Computed: md.fg_index = 40;
    [AssignmentStatement]: md.count_link = true;| Computed: md.count_link = true;
    [AssignmentStatement]: md.link_kind = LINK_CNT_TO_FILTER;| Computed: md.link_kind = 0;
    [AssignmentStatement]: md.fg_kind = FG_CNT_TO_FILTER;| Computed: md.fg_kind = 0;
    [SwitchCase]: filter_forward
    [AssignmentStatement]: md.ev_send = true;| Computed: md.ev_send = true;
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.core.setValid();
    [AssignmentStatement]: hdr.core.tpid = md.tpid;| Computed: hdr.core.tpid = 0;
    [AssignmentStatement]: hdr.core.link_id = md.link_id;| Computed: hdr.core.link_id = 22;
    [AssignmentStatement]: hdr.core.core_id = md.core;| Computed: hdr.core.core_id = 0;
    [If Statement]: md.side == SIDE_LAN Condition: |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_side_2(bit<1>)| == 0; Result: true
    [AssignmentStatement]: md.out_port = md.fg_lan_port;| Computed: md.out_port = 68;
    [AssignmentStatement]: md.ev_bucket = md.hash[20:16];| Computed: md.ev_bucket = 8;
    [MethodCall]: verdict_ctl_verdict_cell/verdict_cell.apply();
    [Constant Table Branch: BalancerIngress.verdict_ctl.verdict_cell | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: cell_read()]
    [MethodCall]: verdict_ctl_cell_read_0/cell_read();
    [AssignmentStatement]: rv = v;| Computed: rv = 63782;
    [AssignmentStatement]: md.cell = verdict_read.execute(md.target_fg);| Computed: md.cell = 63782;
    [If Statement]: true Condition: true; Result: true
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: md.cell[15:8] == VERDICT_SET[15:8] && md.cell[7:0] == md.epoch Condition: |.BalancerIngress.verdict(bit<16>)|[15:8] == 128 && |.BalancerIngress.verdict(bit<16>)|[7:0] == |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|; Result: false
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: testgen_assume(md.fg_forward && !md.ka_send);
    [Assume: applying condition: true && !false;]
    [AssignmentStatement]: md.copy_slot = md.now[31:4];| Computed: md.copy_slot = "Taint";
    [MethodCall]: evidence_copy_ctl_ev_copy_session/ev_copy_session.apply();
    [Constant Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_session | Key(s): |tofino_ingress_port(bit<9>)|[8:7]; | Chosen action: copy_session_of(10w960) | Arg(s): 960]
    [MethodCall]: evidence_copy_ctl_copy_session_of_0/copy_session_of(960);
    [AssignmentStatement]: md.copy_session = session;| Computed: md.copy_session = 960;
    [MethodCall]: evidence_copy_ctl_ev_copy_step/ev_copy_step.apply();
    [Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_step Choosing default action: evidence_copy_ctl_copy_none_0/copy_none;]
    [MethodCall]: evidence_copy_ctl_copy_none_0/copy_none();
    [MethodCall]: evidence_ctl_ev_time_step/ev_time_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_time_step | Key(s): (bit<1>)false;, (bit<1>)true;, (bit<1>)false; | Chosen action: ev_time_of_send()]
    [MethodCall]: evidence_ctl_ev_time_of_send_0/ev_time_of_send();
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.deadline;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.deadline;| Computed: v.second = "Taint";
    [AssignmentStatement]: rv = v.first;| Computed: rv = "Taint";
    [AssignmentStatement]: md.tag = ev_time_send.execute(md.ev_index);| Computed: md.tag = "Taint";
    [MethodCall]: evidence_ctl_ev_ka_step/ev_ka_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_ka_step | Key(s): (bit<1>)false;, (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: ev_ka_of_data()]
    [MethodCall]: evidence_ctl_ev_ka_of_data_0/ev_ka_of_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: rv = md.now - v;| Computed: rv = "Taint";
    [AssignmentStatement]: md.ka_overdue = ev_ka_send_data.execute(md.ev_index);| Computed: md.ka_overdue = "Taint";
    [AssignmentStatement]: md.overdue = md.now - md.tag;| Computed: md.overdue = "Taint";
    [MethodCall]: evidence_ctl_ev_seen_step/ev_seen_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_seen_step | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: ev_seen_of_data()]
    [MethodCall]: evidence_ctl_ev_seen_of_data_0/ev_seen_of_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: v = md.tag;| Computed: v = "Taint";
    [AssignmentStatement]: rv = 1;| Computed: rv = 1;
    [AssignmentStatement]: md.fresh = ev_seen_mark.execute(md.ev_index ++ md.ev_bucket);| Computed: md.fresh = "Taint";
    [MethodCall]: evidence_ctl_ev_count_step/ev_count_step.apply();
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_expired_data_0/ev_count_of_expired_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [Tainted If Statement]: 
    [AssignmentStatement]: rv = 1;| Computed: rv = 1;
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: ig_dprsr_md.resubmit_type = ev_count_proof.execute(md.ev_index);| Computed: ig_dprsr_md.resubmit_type = "Taint";
    [MethodCall]: md.resub.setValid();
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 245;
    [AssignmentStatement]: md.resub.reason = VERDICT_REASON_DATA;| Computed: md.resub.reason = 2;
    [AssignmentStatement]: md.resub.overdue = md.overdue;| Computed: md.resub.overdue = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_keepalive_proof_0/ev_count_of_keepalive_proof();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: ig_dprsr_md.resubmit_type = 1;| Computed: ig_dprsr_md.resubmit_type = 1;
    [MethodCall]: md.resub.setValid();
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 245;
    [AssignmentStatement]: md.resub.reason = VERDICT_REASON_KEEPALIVE;| Computed: md.resub.reason = 1;
    [AssignmentStatement]: md.resub.overdue = md.ka_overdue;| Computed: md.resub.overdue = "Taint";
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_port_rx/port_rx.count((bit<32>)ig_intr_md.ingress_port);
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_link_counters/link_counters.count((bit<32>)(md.link_id ++ md.link_kind));
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_filter_group_counters/filter_group_counters.count((bit<32>)(md.fg_index ++ md.fg_kind));
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.bridged.setValid();
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.to_cpu = 0;
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.ka_stamp = 0;
    [If Statement]: false Condition: false; Result: false
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_dprsr_md.digest_type = 2;
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_tm_md.ucast_egress_port = 68;
    [P4Testgen MethodCall]: *.copy_out("BalancerIngress");
    [P4Testgen MethodCall]: *.copy_in("IngressDeparser");
    [Control IngressDeparser start]
    [If Statement]: ig_dprsr_md.digest_type == 2 Condition: 2 == 2; Result: true
    [MethodCall]: session_digest_0/session_digest.pack({  addr_lo:md.sess_lo;  addr_hi:md.sess_hi;  proto:md.ip_proto;  balance_group:md.balance_group;  filter_group:md.target_fg;  core:md.core; });
    [If Statement]: ig_dprsr_md.digest_type == 1 Condition: 2 == 1; Result: false
    [MethodCall]: pkt.emit<bridged_md_t>(hdr.bridged);
    [Emit]: {$headerValid:true;;    _pad0:0;  to_cpu:0;  ka_stamp:0;  }
    [MethodCall]: pkt.emit<packet_in_t>(hdr.packet_in);
    [Invalid emit: { ingress_port = TaintedExpression(bit<9>), _pad0 = TaintedExpression(bit<7>), reason = TaintedExpression(bit<8>), rx_timestamp = TaintedExpression(bit<48>) }]
    [MethodCall]: pkt.emit<ethernet_t>(hdr.ethernet);
    [Emit]: {$headerValid:true;;    dst_addr:237425220369275;  src_addr:208992893844819;  }
    [MethodCall]: pkt.emit<core_t>(hdr.core);
    [Emit]: {$headerValid:true;;    tpid:0;  link_id:22;  core_id:0;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[0]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:3969;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[1]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:3635;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[2]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:0;  }
    [MethodCall]: pkt.emit<eth_type_t>(hdr.eth_type);
    [Emit]: {$headerValid:true;;    value:34888;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[0]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:0;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[1]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:0;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[2]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:0;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[3]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:1;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[4]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[5]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[6]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[7]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<pppoe_t>(hdr.pppoe);
    [Invalid emit: { version = TaintedExpression(bit<4>), type = TaintedExpression(bit<4>), code = TaintedExpression(bit<8>), session_id = TaintedExpression(bit<16>), length = TaintedExpression(bit<16>), protocol = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<ipv4_t>(hdr.ipv4);
    [Emit]: {$headerValid:true;;    version:4;  ihl:9;  dscp_ecn:0;  total_len:0;  identification:0;  flags:0;  frag_offset:0;  ttl:0;  protocol:6;  hdr_checksum:0;  src_addr:2731681204;  dst_addr:3001594607;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[0]);
    [Emit]: {$headerValid:true;;    data:0;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[1]);
    [Emit]: {$headerValid:true;;    data:0;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[2]);
    [Emit]: {$headerValid:true;;    data:0;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[3]);
    [Emit]: {$headerValid:true;;    data:0;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[4]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[5]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[6]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[7]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[8]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[9]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv6_t>(hdr.ipv6);
    [Invalid emit: { version = TaintedExpression(bit<4>), traffic_class = TaintedExpression(bit<8>), flow_label = TaintedExpression(bit<20>), payload_len = TaintedExpression(bit<16>), next_hdr = TaintedExpression(bit<8>), hop_limit = TaintedExpression(bit<8>), src_addr = TaintedExpression(bit<128>), dst_addr = TaintedExpression(bit<128>) }]
    [MethodCall]: pkt.emit<tcp_t>(hdr.tcp);
    [Emit]: {$headerValid:true;;    src_port:15953;  dst_port:64883;  seq_no:0;  ack_no:0;  data_offset:0;  res:0;  flags:0;  window:0;  checksum:0;  urgent_ptr:0;  }
    [MethodCall]: pkt.emit<udp_t>(hdr.udp);
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), length = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<keepalive_t>(hdr.keepalive);
    [Invalid emit: { magic = TaintedExpression(bit<32>), version = TaintedExpression(bit<8>), direction = TaintedExpression(bit<8>), filter_group = TaintedExpression(bit<16>), seq = TaintedExpression(bit<32>), tx_timestamp = TaintedExpression(bit<64>) }]
    [P4Testgen MethodCall]: *.copy_out("IngressDeparser");
    [P4Testgen AssignmentStatement]: *eg_intr_md.egress_port = 68;
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    [P4Testgen If Statement]: Condition: true && (false || 0 <= |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_lan_port(bit<9>)| && |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_lan_port(bit<9>)| <= 191) && 1 == 0; Result: false
    [P4Testgen MethodCall]: *.StartEgress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*eg_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    _pad0:0;  egress_port:68;  }
    [P4Testgen MethodCall]: *.copy_in("EgressParser");
    [Parser] EgressParser
    [State] start
    [MethodCall]: pkt.extract<egress_intrinsic_metadata_t>(eg_intr_md);
    [ExtractSuccess] eg_intr_md@784 | Condition: |*packetLen_bits(bit<32>)| >= 800; | Extract Size: 16 -> eg_intr_md._pad0 = 0x00 | eg_intr_md.egress_port = 0x044
    [State] parse_ev_copy
    [MethodCall]: pkt.extract<ev_copy_t>(hdr.ev_copy);
    [ExtractSuccess] hdr.ev_copy@784 | Condition: |*packetLen_bits(bit<32>)| >= 808; | Extract Size: 24 -> hdr.ev_copy.magic = Taint | hdr.ev_copy._pad0 = 0x1 | hdr.ev_copy.ev_index = 0x57 | hdr.ev_copy.epoch = 0xEF
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("EgressParser");
    [P4Testgen MethodCall]: *.copy_in("BalancerEgress");
    [Control BalancerEgress start]
    [MethodCall]: port_tx_0/port_tx.count((bit<32>)eg_intr_md.egress_port);
    [Tainted If Statement]: 
    [AssignmentStatement]: hdr.keepalive.tx_timestamp = (bit<64>)eg_prsr_md.global_tstamp;| Computed: hdr.keepalive.tx_timestamp = "Taint";
    [MethodCall]: hdr.bridged.setInvalid();
    [P4Testgen MethodCall]: *.copy_out("BalancerEgress");
    [P4Testgen MethodCall]: *.copy_in("EgressDeparser");
    [Control EgressDeparser start]
    [MethodCall]: pkt.emit<ev_copy_t>(hdr.ev_copy);
    [Emit]: {$headerValid:true;;    magic:0;  _pad0:1;  ev_index:87;  epoch:239;  }
    [MethodCall]: pkt.emit<packet_in_t>(hdr.packet_in);
    [Invalid emit: { ingress_port = TaintedExpression(bit<9>), _pad0 = TaintedExpression(bit<7>), reason = TaintedExpression(bit<8>), rx_timestamp = TaintedExpression(bit<48>) }]
    [MethodCall]: pkt.emit<ethernet_t>(hdr.ethernet);
    [Invalid emit: { dst_addr = TaintedExpression(bit<48>), src_addr = TaintedExpression(bit<48>) }]
    [MethodCall]: pkt.emit<eth_type_t>(hdr.eth_type);
    [Invalid emit: { value = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<keepalive_t>(hdr.keepalive);
    [Invalid emit: { magic = TaintedExpression(bit<32>), version = TaintedExpression(bit<8>), direction = TaintedExpression(bit<8>), filter_group = TaintedExpression(bit<16>), seq = TaintedExpression(bit<32>), tx_timestamp = TaintedExpression(bit<64>) }]
    [P4Testgen MethodCall]: *.copy_out("EgressDeparser");
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    '''

    def setupCtrlPlane(self):
        self.setRegisterValue('BalancerIngress.verdict', 0x44F2, 41)
        self.setRegisterValue('BalancerIngress.ev_time', [('BalancerIngress.ev_time.first', 0x00000000), ('BalancerIngress.ev_time.second', 0x00000000)], 82)
        self.setRegisterValue('BalancerIngress.ev_ka', 0x00000000, 82)
        self.setRegisterValue('BalancerIngress.ev_seen', 0x00000000, 2638)
        self.setRegisterValue('BalancerIngress.ev_count', [('BalancerIngress.ev_count.first', 0x00000000), ('BalancerIngress.ev_count.second', 0x00000000)], 82)
        # Table BalancerIngress.port_role
        self.insertTableEntry(
            'BalancerIngress.port_role',
            [
                gc.KeyTuple('port', 0x04D),
            ],
            'BalancerIngress.set_operator_port',
            [
                gc.DataTuple('link_id', 0x0D),
                gc.DataTuple('side', 0x0),
                gc.DataTuple('peer_port', 0x000),
            ]
        )
        # Table BalancerIngress.flow_rules
        self.insertTableEntry(
            'BalancerIngress.flow_rules',
            [
                gc.KeyTuple('link_id', 0x01, 0x31),
                gc.KeyTuple('outer_vid', 0xD11, 0xC15),
                gc.KeyTuple('inner_vid', 0xF34, 0x3F0),
                gc.KeyTuple('vlan_depth', 0x3, 0x2),
                gc.KeyTuple('mpls_depth', 0x7, 0xC),
                gc.KeyTuple('src_mac', 0xF33F7AD4CD5E, 0x162E2F690F37),
                gc.KeyTuple('dst_mac', 0x9F2FF48CE3AF, 0x977B4CE5C64A),
                gc.KeyTuple('eth_type', 0x6ADF, 0x0808),
                gc.KeyTuple('is_ipv4', 0x1, 0x1),
                gc.KeyTuple('ipv4_src', 0xA3D22EB9, 0xFE3DA0F0),
                gc.KeyTuple('ipv4_dst', 0xF26874EB, 0x0F733969),
                gc.KeyTuple('ip_proto', 0x7C, 0x84),
                gc.KeyTuple('l4_src', 0xF697, 0xF7E7),
                gc.KeyTuple('l4_dst', 0xFD5F, 0x882F),
            ],
            'BalancerIngress.balance',
            [
                gc.DataTuple('group', 0xB),
            ]
        )
        # Table BalancerIngress.balance_groups
        self.insertTableEntry(
            'BalancerIngress.balance_groups',
            [
                gc.KeyTuple('balance_group', 0xB),
            ],
            'BalancerIngress.group_active',
            [
                gc.DataTuple('slot_mask', 0xFA8D),
            ]
        )
        # Table BalancerIngress.slots
        self.insertTableEntry(
            'BalancerIngress.slots',
            [
                gc.KeyTuple('balance_group', 0xB),
                gc.KeyTuple('slot', 0xDA04),
            ],
            'BalancerIngress.to_filter',
            [
                gc.DataTuple('filter_group', 0x29),
                gc.DataTuple('core', 0x000),
            ]
        )
        # Table BalancerIngress.filter_groups
        self.insertTableEntry(
            'BalancerIngress.filter_groups',
            [
                gc.KeyTuple('filter_group', 0x29),
            ],
            'BalancerIngress.filter_forward',
            [
                gc.DataTuple('lan_port', 0x044),
                gc.DataTuple('wan_port', 0x000),
                gc.DataTuple('tpid', 0x0000),
                gc.DataTuple('epoch', 0x4A),
                gc.DataTuple('detect', 0x00000000),
                gc.DataTuple('fail_drop', 0x0),
            ]
        )

    def sendPacket(self):
        ig_port = 77
        pkt = b'\xB7\x2B\xD5\x94\xCA\xAB\x5B\x6F\x7A\xC6\x2D\x1E\x91\x00\x0D\x9B\x91\x00\x07\x3B\x91\x00\x00\x00\x88\x48\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x49\x00\x00\x00\x00\x00\x00\x00\x00\x06\x00\x00\xA2\xD2\x25\xB4\xB2\xE8\xB2\xEF\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xFE\x8F\xCF\x4F\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xE0\x3D\x64\x3E\x18\xA7\xF8\xDD\xE5\x97\xB4\xDB\xE8\x9A\xE6\x15\x99\x9D\xC2\xE6\xC7\x49\x31\x93\xB1\x0F\xFB\xF3\x6D\x58\x04\xCB\xFF\x03\x8A\xBE\x5C\x95\xC5\x87\xEA\xDA\x3B\xE5\x88\xCB\x1A\x1E\x39\xAE\xDE\xB1\xA6\x4B\x2F\x1B\xBA\x7D\xA6\x9A\xEA\x58\xA8\x5E\xF4\xB0\x6E\x9E\x49\xC6\xEE\x03\x01\x74\xF2\x4A\xFB\xDE\xB0\x8A\x83\x26\x88\xF0\x35\x20\x05\x14\x02\x4D\xA8\xBC\x7B\xAC\x0D\xB5\x90\xDE\x94\x54\xAA\xA8\xBA\xA7\xAE\x24\x2A\xFD\x96\x7A\x17\xAF\x48\xEE\xD8\x27\xBF\xAE\x54\x2D\x42\x58\x2B\xE6\xD9\x3C\xD8\x6B\xA6\x8A\xFD\x81\x4F\x0E\x8B\xD8\xE1\x2C\x3E\x4A\xF4\x09\x87\x0A\x9A\xEE\x63\x57\x0D\x6F\xA7\xD2\xA6\x50\x09\x7D\x49\xF1\xCB\xFE\xB6\xF8\x67\x6D\x78\xAA\xA4\xBC\xC0\x11\x3F\x68\xD1\xE5\xB2\xEB\x78\x99\x11\x90\x53\x8C\xD6\x13\x3A\x68\x43\xC3\x95\xFE\x9B\x8F\xBB\xCB\xF9\x6F\x0D\x1A\xD5\x6A\x3C\xB9\x6F\x47\xC3\xEB\x14\x73\x99\xC4\xBD\xF8\x4C\x22\xA6\x73\xF9\xAE\x0E\xAC\x33\xA3\x9F\x7B\x6F\x0A\x49\x2D\x39\x9C\x89\x05\x91\x57\x9C\xE2\x48\x2C\x7D\x34\xDF\xF4\xDC\xE7\xC4\xC6\x8E\xC9\xA1\x8A\x3C\xDA\x82\xB7\x98\x7E\xBE\x56\xBF\x6D\x6D\x1B\x38\xCB\xEA\x1C\xD5\x64\x87\x50\x6E\x22\x74\xAF\x75\x2C\x49\x21\x28\xFE\xEB\xCA\x21\x55\xBB\xEE\x01\x33\x8D\x21\xB8\x13\x5B\x91\x74\x54\x2D\x61\xCE\x0F\x9E\x23\xC2\x32\xA5\x7F\xB0\x51\x5C\x5A\x76\xF9\x90\x74\x93\xD8\x0F\x9B\x5D\xA9\x3A\x5E\xF3\x45\xAB\xF3\xD7\x01\xB5\x87\xFC\x63\xEE\x6C\xF3\x45\x36\xD5\x67\x75\x2B\x2D\x53\x33\x31\x06\x46\xF8\x5F\xD4\x2D\x1E\x8A\x7A\x97\x4E\xD3\x1B\x81\xA1\x68\xD9\x14\x92\xA2\xCE\x10\x46\x4E\x4D\xAE\x65\xAE\xD3\x70\x74\x8D\xFE\x15\xD8\x0C\x50\xE3\xBE\x57\x36\xB9\xCC\xBD\x92\xA3\x60\xEF\x97\x15\xFD\xCD\x1F\x9A\xF6\x87\xB5\x6D\x88\x47\xC0\xF4\x0E\xCC\x4B\xA8\xF3\xE6\xB0\xC8\xC5\x7F\x75\x95\x44\x70\x63\x9D\x97\x3E\xED\x37\x28\x18\x72\xA4\x44\xF6\x60\xCA\x3F\xF9\x31\x44\x70\xAD\x3B\xD0\x02\x06\x9C\x49\x13\x6C\x47\x39\xF1\x95\x34\xEC\xB6\x0B\xD4\x69\x4B\xEB\xD3\xE8\x8B\x32\x35\x23\xF9\x24\xA7\x4E\xC6\xC1\x98\x6D\x9E\x31\x5F\x62\x31\xB2\x78\x96\xD7\xDB\xE7\x07\x47\xE0\x24\xA7\xA0\x1E\x39\x05\xB4\xB5\xAD\x85\xBC\xB7\xD5\xAF\x63\xF6\xA5\x5C\x24\x9B\xE4\xA4\x1F\xB3\x39\xB7\xC4\x9E\x99\x41\x65\xB5\x4E\x54\xAF\x70\x7B\x39\x3F\x48\xE4\x25\xD4\x16\xA6\x7E\x7E\x6A\xC8\xE2\x9D\xFE\xCB\x08\x6A\xA1\x6D\x7E\x95\x41\x1C\xAB\x5F\xFD\x5A\xE3\xC0\xD1\xE7\x41\x85\xF8\xAA\xBA\xA2\xF4\xE0\xCD\x59\xF1\x27\x58\x92\x9C\x85\x23\x24\x5B\xB7\x83\x52\xA6\xD6\x35\x1E\x47\xBD\xD2\x1A\x93\x69\xB5\xD6\x7E\x24\xD9\xE7\xA8\xFF\x57\x26\xF0\x68\x02\x20\x42\x38\x90\xC0\xF2\x64\xA7\x7C\x41\x59\x39\x2E\x79\xB5\x76\x44\xAB\x21\x0B\x4C\xA4\x24\x1A\xAD\xFB\xB9\x85\xAA\x68\x75'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        eg_port = 68
        exp_pkt = b'\x00\xB7\x2B\xD5\x94\xCA\xAB\x5B\x6F\x7A\xC6\x2D\x1E\x00\x00\x34\x00\x91\x00\x0D\x9B\x91\x00\x07\x3B\x91\x00\x00\x00\x88\x48\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x49\x00\x00\x00\x00\x00\x00\x00\x00\x06\x00\x00\xA2\xD2\x25\xB4\xB2\xE8\xB2\xEF\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xFE\x8F\xCF\x4F\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xE0\x3D\x64\x3E\x18\xA7\xF8\xDD\xE5\x97\xB4\xDB\xE8\x9A\xE6\x15\x99\x9D\xC2\xE6\xC7\x49\x31\x93\xB1\x0F\xFB\xF3\x6D\x58\x04\xCB\xFF\x03\x8A\xBE\x5C\x95\xC5\x87\xEA\xDA\x3B\xE5\x88\xCB\x1A\x1E\x39\xAE\xDE\xB1\xA6\x4B\x2F\x1B\xBA\x7D\xA6\x9A\xEA\x58\xA8\x5E\xF4\xB0\x6E\x9E\x49\xC6\xEE\x03\x01\x74\xF2\x4A\xFB\xDE\xB0\x8A\x83\x26\x88\xF0\x35\x20\x05\x14\x02\x4D\xA8\xBC\x7B\xAC\x0D\xB5\x90\xDE\x94\x54\xAA\xA8\xBA\xA7\xAE\x24\x2A\xFD\x96\x7A\x17\xAF\x48\xEE\xD8\x27\xBF\xAE\x54\x2D\x42\x58\x2B\xE6\xD9\x3C\xD8\x6B\xA6\x8A\xFD\x81\x4F\x0E\x8B\xD8\xE1\x2C\x3E\x4A\xF4\x09\x87\x0A\x9A\xEE\x63\x57\x0D\x6F\xA7\xD2\xA6\x50\x09\x7D\x49\xF1\xCB\xFE\xB6\xF8\x67\x6D\x78\xAA\xA4\xBC\xC0\x11\x3F\x68\xD1\xE5\xB2\xEB\x78\x99\x11\x90\x53\x8C\xD6\x13\x3A\x68\x43\xC3\x95\xFE\x9B\x8F\xBB\xCB\xF9\x6F\x0D\x1A\xD5\x6A\x3C\xB9\x6F\x47\xC3\xEB\x14\x73\x99\xC4\xBD\xF8\x4C\x22\xA6\x73\xF9\xAE\x0E\xAC\x33\xA3\x9F\x7B\x6F\x0A\x49\x2D\x39\x9C\x89\x05\x91\x57\x9C\xE2\x48\x2C\x7D\x34\xDF\xF4\xDC\xE7\xC4\xC6\x8E\xC9\xA1\x8A\x3C\xDA\x82\xB7\x98\x7E\xBE\x56\xBF\x6D\x6D\x1B\x38\xCB\xEA\x1C\xD5\x64\x87\x50\x6E\x22\x74\xAF\x75\x2C\x49\x21\x28\xFE\xEB\xCA\x21\x55\xBB\xEE\x01\x33\x8D\x21\xB8\x13\x5B\x91\x74\x54\x2D\x61\xCE\x0F\x9E\x23\xC2\x32\xA5\x7F\xB0\x51\x5C\x5A\x76\xF9\x90\x74\x93\xD8\x0F\x9B\x5D\xA9\x3A\x5E\xF3\x45\xAB\xF3\xD7\x01\xB5\x87\xFC\x63\xEE\x6C\xF3\x45\x36\xD5\x67\x75\x2B\x2D\x53\x33\x31\x06\x46\xF8\x5F\xD4\x2D\x1E\x8A\x7A\x97\x4E\xD3\x1B\x81\xA1\x68\xD9\x14\x92\xA2\xCE\x10\x46\x4E\x4D\xAE\x65\xAE\xD3\x70\x74\x8D\xFE\x15\xD8\x0C\x50\xE3\xBE\x57\x36\xB9\xCC\xBD\x92\xA3\x60\xEF\x97\x15\xFD\xCD\x1F\x9A\xF6\x87\xB5\x6D\x88\x47\xC0\xF4\x0E\xCC\x4B\xA8\xF3\xE6\xB0\xC8\xC5\x7F\x75\x95\x44\x70\x63\x9D\x97\x3E\xED\x37\x28\x18\x72\xA4\x44\xF6\x60\xCA\x3F\xF9\x31\x44\x70\xAD\x3B\xD0\x02\x06\x9C\x49\x13\x6C\x47\x39\xF1\x95\x34\xEC\xB6\x0B\xD4\x69\x4B\xEB\xD3\xE8\x8B\x32\x35\x23\xF9\x24\xA7\x4E\xC6\xC1\x98\x6D\x9E\x31\x5F\x62\x31\xB2\x78\x96\xD7\xDB\xE7\x07\x47\xE0\x24\xA7\xA0\x1E\x39\x05\xB4\xB5\xAD\x85\xBC\xB7\xD5\xAF\x63\xF6\xA5\x5C\x24\x9B\xE4\xA4\x1F\xB3\x39\xB7\xC4\x9E\x99\x41\x65\xB5\x4E\x54\xAF\x70\x7B\x39\x3F\x48\xE4\x25\xD4\x16\xA6\x7E\x7E\x6A\xC8\xE2\x9D\xFE\xCB\x08\x6A\xA1\x6D\x7E\x95\x41\x1C\xAB\x5F\xFD\x5A\xE3\xC0\xD1\xE7\x41\x85\xF8\xAA\xBA\xA2\xF4\xE0\xCD\x59\xF1\x27\x58\x92\x9C\x85\x23\x24\x5B\xB7\x83\x52\xA6\xD6\x35\x1E\x47\xBD\xD2\x1A\x93\x69\xB5\xD6\x7E\x24\xD9\xE7\xA8\xFF\x57\x26\xF0\x68\x02\x20\x42\x38\x90\xC0\xF2\x64\xA7\x7C\x41\x59\x39\x2E\x79\xB5\x76\x44\xAB\x21\x0B\x4C\xA4\x24\x1A\xAD\xFB\xB9\x85\xAA\x68\x75'
        exp_pkt = Mask(exp_pkt)
        exp_pkt.set_do_not_care(0, 6)
        verify_packet(self, exp_pkt, eg_port)

    def runTest(self):
        self.runTestImpl()


class Test8(AbstractTest):
    # Date generated: 2026-12-07-20:53:06.908
    # Current statement coverage: 0.62
    '''
    [P4Testgen MethodCall]: *.StartIngress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(0);
    [PrependToProgramHeader]: 0
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*ig_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    resubmit_flag:0;  _pad1:0;  packet_version:0;  _pad2:0;  ingress_port:105;  ingress_mac_tstamp:0;  }
    [P4Testgen MethodCall]: *.copy_in("IngressParser");
    [Parser] IngressParser
    [State] start
    [MethodCall]: pkt.extract<ingress_intrinsic_metadata_t>(ig_intr_md);
    [ExtractSuccess] ig_intr_md@0 | Condition: |*packetLen_bits(bit<32>)| >= 64; | Extract Size: 64 -> ig_intr_md.resubmit_flag = 0x0 | ig_intr_md._pad1 = 0x0 | ig_intr_md.packet_version = 0x0 | ig_intr_md._pad2 = 0x0 | ig_intr_md.ingress_port = 0x069 | ig_intr_md.ingress_mac_tstamp = Taint
    [AssignmentStatement]: md.eth_type = 0;| Computed: md.eth_type = 0;
    [AssignmentStatement]: md.copy_pipe = ig_intr_md.ingress_port[8:7];| Computed: md.copy_pipe = 0;
    [AssignmentStatement]: md.proof_copy = false;| Computed: md.proof_copy = false;
    [State] parse_port_metadata
    [MethodCall]: pkt.advance(64);
    [Advance Condition: |*packetLen_bits(bit<32>)| >= 64;]
    [State] parse_port
    [State] parse_ethernet
    [MethodCall]: pkt.extract<ethernet_t>(hdr.ethernet);
    [ExtractSuccess] hdr.ethernet@0 | Condition: |*packetLen_bits(bit<32>)| >= 96; | Extract Size: 96 -> hdr.ethernet.dst_addr = 0x7F9F_D5E5_DA7F | hdr.ethernet.src_addr = 0xFBD0_A6FE_66F2
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 112;]
    [P4Testgen AssignmentStatement]: tmp_0 = 37120;
    [State] parse_vlan_0
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[0]);
    [ExtractSuccess] hdr.vlan[0]@96 | Condition: |*packetLen_bits(bit<32>)| >= 128; | Extract Size: 32 -> hdr.vlan[0].tpid = 0x9100 | hdr.vlan[0].pcp = 0x0 | hdr.vlan[0].dei = 0x0 | hdr.vlan[0].vid = 0x945
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 144;]
    [P4Testgen AssignmentStatement]: tmp_4 = 37120;
    [State] parse_vlan_1
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[1]);
    [ExtractSuccess] hdr.vlan[1]@128 | Condition: |*packetLen_bits(bit<32>)| >= 160; | Extract Size: 32 -> hdr.vlan[1].tpid = 0x9100 | hdr.vlan[1].pcp = 0x0 | hdr.vlan[1].dei = 0x0 | hdr.vlan[1].vid = 0x429
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 176;]
    [P4Testgen AssignmentStatement]: tmp_6 = 37120;
    [State] parse_vlan_2
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[2]);
    [ExtractSuccess] hdr.vlan[2]@160 | Condition: |*packetLen_bits(bit<32>)| >= 192; | Extract Size: 32 -> hdr.vlan[2].tpid = 0x9100 | hdr.vlan[2].pcp = 0x0 | hdr.vlan[2].dei = 0x0 | hdr.vlan[2].vid = 0x000
    [State] parse_eth_type
    [MethodCall]: pkt.extract<eth_type_t>(hdr.eth_type);
    [ExtractSuccess] hdr.eth_type@192 | Condition: |*packetLen_bits(bit<32>)| >= 208; | Extract Size: 16 -> hdr.eth_type.value = 0x8864
    [AssignmentStatement]: md.eth_type = hdr.eth_type.value;| Computed: md.eth_type = 34916;
    [State] parse_pppoe
    [MethodCall]: pkt.extract<pppoe_t>(hdr.pppoe);
    [ExtractSuccess] hdr.pppoe@208 | Condition: |*packetLen_bits(bit<32>)| >= 272; | Extract Size: 64 -> hdr.pppoe.version = 0x0 | hdr.pppoe.type = 0x0 | hdr.pppoe.code = 0x00 | hdr.pppoe.session_id = 0x0000 | hdr.pppoe.length = 0x0000 | hdr.pppoe.protocol = 0x0057
    [State] parse_ipv6
    [MethodCall]: pkt.extract<ipv6_t>(hdr.ipv6);
    [ExtractSuccess] hdr.ipv6@272 | Condition: |*packetLen_bits(bit<32>)| >= 592; | Extract Size: 320 -> hdr.ipv6.version = 0x0 | hdr.ipv6.traffic_class = 0x00 | hdr.ipv6.flow_label = 0x0000_0000 | hdr.ipv6.payload_len = 0x0000 | hdr.ipv6.next_hdr = 0x76 | hdr.ipv6.hop_limit = 0x00 | hdr.ipv6.src_addr = 0xDBA7_182E_96FD_A9FF_D7F5_99F7_9CFE_1EC9 | hdr.ipv6.dst_addr = 0xDF7B_D5C1_FBBC_F6FC_19FD_466F_F95C_A79D
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("IngressParser");
    [P4Testgen MethodCall]: *.copy_in("BalancerIngress");
    [Control BalancerIngress start]
    [AssignmentStatement]: md.ingress_port = ig_intr_md.ingress_port;| Computed: md.ingress_port = 105;
    [AssignmentStatement]: md.ingress_ts = ig_intr_md.ingress_mac_tstamp;| Computed: md.ingress_ts = "Taint";
    [AssignmentStatement]: md.port_type = PORT_TYPE_UNKNOWN;| Computed: md.port_type = 0;
    [AssignmentStatement]: md.drop = false;| Computed: md.drop = false;
    [AssignmentStatement]: md.to_cpu = false;| Computed: md.to_cpu = false;
    [AssignmentStatement]: md.ka_stamp = false;| Computed: md.ka_stamp = false;
    [AssignmentStatement]: md.drop_reason = DROP_NONE;| Computed: md.drop_reason = 0;
    [AssignmentStatement]: md.count_link = false;| Computed: md.count_link = false;
    [AssignmentStatement]: md.count_fg = false;| Computed: md.count_fg = false;
    [AssignmentStatement]: md.heartbeat = false;| Computed: md.heartbeat = false;
    [AssignmentStatement]: md.balance = false;| Computed: md.balance = false;
    [AssignmentStatement]: md.slot_hit = false;| Computed: md.slot_hit = false;
    [AssignmentStatement]: md.session_hit = false;| Computed: md.session_hit = false;
    [AssignmentStatement]: md.learn = false;| Computed: md.learn = false;
    [AssignmentStatement]: md.count_rx = false;| Computed: md.count_rx = false;
    [AssignmentStatement]: md.malformed = false;| Computed: md.malformed = false;
    [AssignmentStatement]: md.now = ig_prsr_md.global_tstamp[47:16];| Computed: md.now = "Taint";
    [AssignmentStatement]: md.fg_forward = false;| Computed: md.fg_forward = false;
    [AssignmentStatement]: md.ka_send = false;| Computed: md.ka_send = false;
    [AssignmentStatement]: md.ev_send = false;| Computed: md.ev_send = false;
    [AssignmentStatement]: md.ev_return = false;| Computed: md.ev_return = false;
    [AssignmentStatement]: md.ev_index = 0;| Computed: md.ev_index = 0;
    [AssignmentStatement]: md.ev_bucket = 0;| Computed: md.ev_bucket = 0;
    [AssignmentStatement]: md.target_fg = 0;| Computed: md.target_fg = 0;
    [AssignmentStatement]: md.epoch = 0;| Computed: md.epoch = 0;
    [AssignmentStatement]: md.detect = 0;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = 0;| Computed: md.fail_drop = 0;
    [AssignmentStatement]: md.verdict_now = false;| Computed: md.verdict_now = false;
    [AssignmentStatement]: md.digest.reason = VERDICT_REASON_STANDING;| Computed: md.digest.reason = 0;
    [AssignmentStatement]: md.digest.age = 0;| Computed: md.digest.age = 0;
    [AssignmentStatement]: md.verdict_hit = false;| Computed: md.verdict_hit = false;
    [AssignmentStatement]: md.count_verdict = false;| Computed: md.count_verdict = false;
    [AssignmentStatement]: md.verdict_kind = VERDICT_CNT_BYPASS;| Computed: md.verdict_kind = 0;
    [AssignmentStatement]: md.send_digest = false;| Computed: md.send_digest = false;
    [AssignmentStatement]: md.cpu_port = 192;| Computed: md.cpu_port = 192;
    [P4Testgen If Statement]: Condition: false; Result: false
    [MethodCall]: _BalancerIngress_port_role/port_role.apply();
    [Table Branch: BalancerIngress.port_role | Key(s): |tofino_ingress_port(bit<9>)|| Chosen action: BalancerIngress.set_operator_port]
    [MethodCall]: _BalancerIngress_set_operator_port_0/set_operator_port(|BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_side_2(bit<1>)|, |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_peer_port_1(bit<9>)|);
    [AssignmentStatement]: md.port_type = PORT_TYPE_OPERATOR;| Computed: md.port_type = 1;
    [AssignmentStatement]: md.link_id = link_id;| Computed: md.link_id = 53;
    [AssignmentStatement]: md.side = side;| Computed: md.side = 1;
    [AssignmentStatement]: md.peer_port = peer_port;| Computed: md.peer_port = 511;
    [AssignmentStatement]: md.vlan_depth = 0;| Computed: md.vlan_depth = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.vlan_depth = 3;| Computed: md.vlan_depth = 3;
    [AssignmentStatement]: md.mpls_depth = 0;| Computed: md.mpls_depth = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [AssignmentStatement]: md.outer_vid = 0;| Computed: md.outer_vid = 0;
    [AssignmentStatement]: md.inner_vid = 0;| Computed: md.inner_vid = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[0].isValid()) { md.outer_vid = hdr.vlan[0].vid; }| Computed: md.outer_vid = 2373;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[1].isValid()) { md.inner_vid = hdr.vlan[1].vid; }| Computed: md.inner_vid = 1065;
    [AssignmentStatement]: md.is_ipv4 = 0;| Computed: md.is_ipv4 = 0;
    [AssignmentStatement]: md.ipv4_src = 0;| Computed: md.ipv4_src = 0;
    [AssignmentStatement]: md.ipv4_dst = 0;| Computed: md.ipv4_dst = 0;
    [AssignmentStatement]: md.ip_proto = 0;| Computed: md.ip_proto = 0;
    [AssignmentStatement]: md.addr_x = 0;| Computed: md.addr_x = 0;
    [AssignmentStatement]: md.addr_y = 0;| Computed: md.addr_y = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.ip_proto = hdr.ipv6.next_hdr;| Computed: md.ip_proto = 118;
    [AssignmentStatement]: md.addr_x = fold_src.get({ hdr.ipv6.src_addr });| Computed: md.addr_x = 1277611516;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.addr_y = fold_dst.get({ hdr.ipv6.dst_addr });| Computed: md.addr_y = 2016600345;
    [AssignmentStatement]: md.l4_src = 0;| Computed: md.l4_src = 0;
    [AssignmentStatement]: md.l4_dst = 0;| Computed: md.l4_dst = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: (ig_prsr_md.parser_err != 0) || (hdr.ipv4.isValid() && hdr.ipv4.ihl < 5) Condition: 0 != 0 || false && TaintedExpression(bit<4>) < 5; Result: false
    [AssignmentStatement]: md.count_rx = true;| Computed: md.count_rx = true;
    [If Statement]: md.port_type == PORT_TYPE_OPERATOR Condition: 1 == 1; Result: true
    [MethodCall]: _BalancerIngress_heartbeat/heartbeat.apply();
    [Table Branch: BalancerIngress.heartbeat Choosing default action: _BalancerIngress_no_heartbeat_0/no_heartbeat;]
    [MethodCall]: _BalancerIngress_no_heartbeat_0/no_heartbeat();
    [If Statement]: false Condition: false; Result: false
    [P4Testgen If Statement]: Condition: true; Result: true
    [MethodCall]: _BalancerIngress_flow_rules_v6/flow_rules_v6.apply();
    [Table Branch: BalancerIngress.flow_rules_v6 | Key(s): |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |pktvar_5(bit<12>)|, |pktvar_9(bit<12>)|, 3, 0, |pktvar_1(bit<48>)|, |pktvar_0(bit<48>)|, |pktvar_14(bit<16>)|, |pktvar_27(bit<128>)|, |pktvar_28(bit<128>)|, |pktvar_25(bit<8>)|, 0, 0| Chosen action: BalancerIngress.balance_v6]
    [MethodCall]: _BalancerIngress_balance_v6_0/balance_v6(|BalancerIngress.flow_rules_v6_BalancerIngress.balance_v6_arg_group_0(bit<4>)|);
    [AssignmentStatement]: md.balance = true;| Computed: md.balance = true;
    [AssignmentStatement]: md.balance_group = group;| Computed: md.balance_group = 14;
    [MethodCall]: _BalancerIngress_flow_rules_v6_counter/flow_rules_v6_counter.count();
    [If Statement]: (md.addr_x < md.addr_y) Condition: Concolic_Hash_get_3495435_0({ {    f0:|pktvar_27(bit<128>)|; } }) < Concolic_Hash_get_3495587_0({ {    f0:|pktvar_28(bit<128>)|; } }); Result: true
    [AssignmentStatement]: bit<32> lo = (md.addr_x < md.addr_y) ? md.addr_x : md.addr_y;| Computed: session_hash_tmp = 1277611516;
    [If Statement]: (md.addr_x < md.addr_y) Condition: Concolic_Hash_get_3495435_0({ {    f0:|pktvar_27(bit<128>)|; } }) < Concolic_Hash_get_3495587_0({ {    f0:|pktvar_28(bit<128>)|; } }); Result: true
    [AssignmentStatement]: bit<32> hi = (md.addr_x < md.addr_y) ? md.addr_y : md.addr_x;| Computed: session_hash_tmp_0 = 2016600345;
    [AssignmentStatement]: md.hash = sym_hash.get({ lo, hi, md.ip_proto });| Computed: md.hash = 0;
    [AssignmentStatement]: md.sess_lo = lo;| Computed: md.sess_lo = 1277611516;
    [AssignmentStatement]: md.sess_hi = hi;| Computed: md.sess_hi = 2016600345;
    [If Statement]: true Condition: true; Result: true
    [If Statement]: (!hdr.ipv4.isValid() && !hdr.ipv6.isValid()) || hdr.core.isValid() Condition: !false && !true || false; Result: false
    [MethodCall]: _BalancerIngress_sessions/sessions.apply();
    [Table Branch: BalancerIngress.sessions | Key(s): |BalancerIngress.flow_rules_v6_BalancerIngress.balance_v6_arg_group_0(bit<4>)|, Concolic_Hash_get_3495435_0({ {    f0:|pktvar_27(bit<128>)|; } }), Concolic_Hash_get_3495587_0({ {    f0:|pktvar_28(bit<128>)|; } }), |pktvar_25(bit<8>)|| Chosen action: BalancerIngress.keep]
    [MethodCall]: _BalancerIngress_keep_0/keep(|BalancerIngress.sessions_BalancerIngress.keep_arg_filter_group_5(bit<6>)|, |BalancerIngress.sessions_BalancerIngress.keep_arg_core_3(bit<10>)|);
    [AssignmentStatement]: md.session_hit = true;| Computed: md.session_hit = true;
    [AssignmentStatement]: md.sess_fg = filter_group;| Computed: md.sess_fg = 46;
    [AssignmentStatement]: md.sess_core = core;| Computed: md.sess_core = 0;
    [MethodCall]: _BalancerIngress_balance_groups/balance_groups.apply();
    [Table Branch: BalancerIngress.balance_groups | Key(s): |BalancerIngress.flow_rules_v6_BalancerIngress.balance_v6_arg_group_0(bit<4>)|| Chosen action: BalancerIngress.group_active]
    [MethodCall]: _BalancerIngress_group_active_0/group_active(|BalancerIngress.balance_groups_BalancerIngress.group_active_arg_slot_mask_1(bit<16>)|);
    [AssignmentStatement]: md.slot_mask = slot_mask;| Computed: md.slot_mask = 0;
    [AssignmentStatement]: md.slot = md.hash[15:0] & slot_mask;| Computed: md.slot = 0;
    [SwitchCase]: group_active
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: md.target_fg = md.sess_fg;| Computed: md.target_fg = 46;
    [AssignmentStatement]: md.core = md.sess_core;| Computed: md.core = 0;
    [AssignmentStatement]: md.slot_hit = true;| Computed: md.slot_hit = true;
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_core_counters/core_counters.count((bit<32>)(md.target_fg ++ md.core));
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: port_t named = md.out_port;| Computed: filter_groups_ctl_named/named = 0;
    [MethodCall]: _BalancerIngress_filter_groups/filter_groups.apply();
    [Table Branch: BalancerIngress.filter_groups | Key(s): |BalancerIngress.sessions_BalancerIngress.keep_arg_filter_group_5(bit<6>)|| Chosen action: BalancerIngress.filter_forward]
    [MethodCall]: _BalancerIngress_filter_forward_0/filter_forward(|BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_lan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_wan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_tpid_1(bit<16>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_detect_1(bit<32>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_fail_drop_1(bit<1>)|);
    [AssignmentStatement]: md.epoch = epoch;| Computed: md.epoch = 163;
    [AssignmentStatement]: md.detect = detect;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = fail_drop;| Computed: md.fail_drop = 0;
    [AssignmentStatement]: md.fg_forward = true;| Computed: md.fg_forward = true;
    [AssignmentStatement]: md.ev_index = md.target_fg ++ md.side;| Computed: md.ev_index = 93;
    [AssignmentStatement]: md.digest.filter_group = (bit<8>)md.target_fg;| Computed: md.digest.filter_group = 46;
    [AssignmentStatement]: md.digest.direction = (bit<8>)md.side;| Computed: md.digest.direction = 1;
    [AssignmentStatement]: md.digest.epoch = epoch;| Computed: md.digest.epoch = 163;
    [AssignmentStatement]: md.deadline = md.now + (detect);| Computed: md.deadline = "Taint";
    [AssignmentStatement]: md.fg_lan_port = lan_port;| Computed: md.fg_lan_port = 0;
    [AssignmentStatement]: md.fg_wan_port = wan_port;| Computed: md.fg_wan_port = 0;
    [AssignmentStatement]: md.tpid = tpid;| Computed: md.tpid = 0;
    [AssignmentStatement]: md.count_fg = true;| Computed: md.count_fg = true;
    [AssignmentStatement]: md.fg_index = md.target_fg;| Computed: md.fg_index = 46;
    [AssignmentStatement]: md.count_link = true;| Computed: md.count_link = true;
    [AssignmentStatement]: md.link_kind = LINK_CNT_TO_FILTER;| Computed: md.link_kind = 0;
    [AssignmentStatement]: md.fg_kind = FG_CNT_TO_FILTER;| Computed: md.fg_kind = 0;
    [SwitchCase]: filter_forward
    [AssignmentStatement]: md.ev_send = true;| Computed: md.ev_send = true;
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.core.setValid();
    [AssignmentStatement]: hdr.core.tpid = md.tpid;| Computed: hdr.core.tpid = 0;
    [AssignmentStatement]: hdr.core.link_id = md.link_id;| Computed: hdr.core.link_id = 53;
    [AssignmentStatement]: hdr.core.core_id = md.core;| Computed: hdr.core.core_id = 0;
    [If Statement]: md.side == SIDE_LAN Condition: |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_side_2(bit<1>)| == 0; Result: false
    [AssignmentStatement]: md.out_port = md.fg_wan_port;| Computed: md.out_port = 0;
    [AssignmentStatement]: md.ev_bucket = md.hash[20:16];| Computed: md.ev_bucket = 0;
    [MethodCall]: verdict_ctl_verdict_cell/verdict_cell.apply();
    [Constant Table Branch: BalancerIngress.verdict_ctl.verdict_cell | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: cell_read()]
    [MethodCall]: verdict_ctl_cell_read_0/cell_read();
    [AssignmentStatement]: rv = v;| Computed: rv = 32931;
    [AssignmentStatement]: md.cell = verdict_read.execute(md.target_fg);| Computed: md.cell = 32931;
    [If Statement]: true Condition: true; Result: true
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: md.cell[15:8] == VERDICT_SET[15:8] && md.cell[7:0] == md.epoch Condition: |.BalancerIngress.verdict(bit<16>)|[15:8] == 128 && |.BalancerIngress.verdict(bit<16>)|[7:0] == |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|; Result: true
    [AssignmentStatement]: md.verdict_hit = true;| Computed: md.verdict_hit = true;
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: md.send_digest = true;| Computed: md.send_digest = true;
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.core.setInvalid();
    [AssignmentStatement]: md.count_verdict = true;| Computed: md.count_verdict = true;
    [If Statement]: md.fail_drop == FAIL_DROP Condition: |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_fail_drop_1(bit<1>)| == 1; Result: false
    [AssignmentStatement]: { md.out_port = md.peer_port; md.count_link = true; md.link_kind = (LINK_CNT_SW_BYPASS); };| Computed: md.out_port = 511;
    [AssignmentStatement]: { md.out_port = md.peer_port; md.count_link = true; md.link_kind = (LINK_CNT_SW_BYPASS); };| Computed: md.count_link = true;
    [AssignmentStatement]: { md.out_port = md.peer_port; md.count_link = true; md.link_kind = (LINK_CNT_SW_BYPASS); };| Computed: md.link_kind = 3;
    [AssignmentStatement]: md.fg_kind = FG_CNT_SW_BYPASS;| Computed: md.fg_kind = 3;
    [AssignmentStatement]: md.verdict_kind = VERDICT_CNT_BYPASS;| Computed: md.verdict_kind = 0;
    [MethodCall]: testgen_assume(md.fg_forward && !md.ka_send);
    [Assume: applying condition: true && !false;]
    [AssignmentStatement]: md.copy_slot = md.now[31:4];| Computed: md.copy_slot = "Taint";
    [MethodCall]: evidence_copy_ctl_ev_copy_session/ev_copy_session.apply();
    [Constant Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_session | Key(s): |tofino_ingress_port(bit<9>)|[8:7]; | Chosen action: copy_session_of(10w960) | Arg(s): 960]
    [MethodCall]: evidence_copy_ctl_copy_session_of_0/copy_session_of(960);
    [AssignmentStatement]: md.copy_session = session;| Computed: md.copy_session = 960;
    [MethodCall]: evidence_copy_ctl_ev_copy_step/ev_copy_step.apply();
    [Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_step Choosing default action: evidence_copy_ctl_copy_none_0/copy_none;]
    [MethodCall]: evidence_copy_ctl_copy_none_0/copy_none();
    [MethodCall]: evidence_ctl_ev_time_step/ev_time_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_time_step | Key(s): (bit<1>)false;, (bit<1>)true;, (bit<1>)false; | Chosen action: ev_time_of_send()]
    [MethodCall]: evidence_ctl_ev_time_of_send_0/ev_time_of_send();
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.deadline;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.deadline;| Computed: v.second = "Taint";
    [AssignmentStatement]: rv = v.first;| Computed: rv = "Taint";
    [AssignmentStatement]: md.tag = ev_time_send.execute(md.ev_index);| Computed: md.tag = "Taint";
    [MethodCall]: evidence_ctl_ev_ka_step/ev_ka_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_ka_step | Key(s): (bit<1>)false;, (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: ev_ka_of_data()]
    [MethodCall]: evidence_ctl_ev_ka_of_data_0/ev_ka_of_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: rv = md.now - v;| Computed: rv = "Taint";
    [AssignmentStatement]: md.ka_overdue = ev_ka_send_data.execute(md.ev_index);| Computed: md.ka_overdue = "Taint";
    [AssignmentStatement]: md.overdue = md.now - md.tag;| Computed: md.overdue = "Taint";
    [MethodCall]: evidence_ctl_ev_seen_step/ev_seen_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_seen_step | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: ev_seen_of_data()]
    [MethodCall]: evidence_ctl_ev_seen_of_data_0/ev_seen_of_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: v = md.tag;| Computed: v = "Taint";
    [AssignmentStatement]: rv = 1;| Computed: rv = 1;
    [AssignmentStatement]: md.fresh = ev_seen_mark.execute(md.ev_index ++ md.ev_bucket);| Computed: md.fresh = "Taint";
    [MethodCall]: evidence_ctl_ev_count_step/ev_count_step.apply();
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_expired_data_0/ev_count_of_expired_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [Tainted If Statement]: 
    [AssignmentStatement]: rv = 1;| Computed: rv = 1;
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: ig_dprsr_md.resubmit_type = ev_count_proof.execute(md.ev_index);| Computed: ig_dprsr_md.resubmit_type = "Taint";
    [MethodCall]: md.resub.setValid();
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 163;
    [AssignmentStatement]: md.resub.reason = VERDICT_REASON_DATA;| Computed: md.resub.reason = 2;
    [AssignmentStatement]: md.resub.overdue = md.overdue;| Computed: md.resub.overdue = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_keepalive_proof_0/ev_count_of_keepalive_proof();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: ig_dprsr_md.resubmit_type = 1;| Computed: ig_dprsr_md.resubmit_type = 1;
    [MethodCall]: md.resub.setValid();
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 163;
    [AssignmentStatement]: md.resub.reason = VERDICT_REASON_KEEPALIVE;| Computed: md.resub.reason = 1;
    [AssignmentStatement]: md.resub.overdue = md.ka_overdue;| Computed: md.resub.overdue = "Taint";
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_port_rx/port_rx.count((bit<32>)ig_intr_md.ingress_port);
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_link_counters/link_counters.count((bit<32>)(md.link_id ++ md.link_kind));
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_filter_group_counters/filter_group_counters.count((bit<32>)(md.fg_index ++ md.fg_kind));
    [If Statement]: false Condition: false; Result: false
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_verdict_counters/verdict_counters.count((bit<32>)(md.target_fg ++ md.verdict_kind));
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.bridged.setValid();
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.to_cpu = 0;
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.ka_stamp = 0;
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_dprsr_md.digest_type = 1;
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_tm_md.ucast_egress_port = 511;
    [P4Testgen MethodCall]: *.copy_out("BalancerIngress");
    [P4Testgen MethodCall]: *.copy_in("IngressDeparser");
    [Control IngressDeparser start]
    [If Statement]: ig_dprsr_md.digest_type == 2 Condition: 1 == 2; Result: false
    [If Statement]: ig_dprsr_md.digest_type == 1 Condition: 1 == 1; Result: true
    [MethodCall]: verdict_digest_0/verdict_digest.pack(md.digest);
    [MethodCall]: pkt.emit<bridged_md_t>(hdr.bridged);
    [Emit]: {$headerValid:true;;    _pad0:0;  to_cpu:0;  ka_stamp:0;  }
    [MethodCall]: pkt.emit<packet_in_t>(hdr.packet_in);
    [Invalid emit: { ingress_port = TaintedExpression(bit<9>), _pad0 = TaintedExpression(bit<7>), reason = TaintedExpression(bit<8>), rx_timestamp = TaintedExpression(bit<48>) }]
    [MethodCall]: pkt.emit<ethernet_t>(hdr.ethernet);
    [Emit]: {$headerValid:true;;    dst_addr:140324465138303;  src_addr:276873573459698;  }
    [MethodCall]: pkt.emit<core_t>(hdr.core);
    [Invalid emit: { tpid = TaintedExpression(bit<16>), link_id = TaintedExpression(bit<6>), core_id = TaintedExpression(bit<10>) }]
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[0]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:2373;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[1]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:1065;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[2]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:0;  }
    [MethodCall]: pkt.emit<eth_type_t>(hdr.eth_type);
    [Emit]: {$headerValid:true;;    value:34916;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[0]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[1]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[2]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[3]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[4]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[5]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[6]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[7]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<pppoe_t>(hdr.pppoe);
    [Emit]: {$headerValid:true;;    version:0;  type:0;  code:0;  session_id:0;  length:0;  protocol:87;  }
    [MethodCall]: pkt.emit<ipv4_t>(hdr.ipv4);
    [Invalid emit: { version = TaintedExpression(bit<4>), ihl = TaintedExpression(bit<4>), dscp_ecn = TaintedExpression(bit<8>), total_len = TaintedExpression(bit<16>), identification = TaintedExpression(bit<16>), flags = TaintedExpression(bit<3>), frag_offset = TaintedExpression(bit<13>), ttl = TaintedExpression(bit<8>), protocol = TaintedExpression(bit<8>), hdr_checksum = TaintedExpression(bit<16>), src_addr = TaintedExpression(bit<32>), dst_addr = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[0]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[1]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[2]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[3]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[4]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[5]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[6]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[7]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[8]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[9]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv6_t>(hdr.ipv6);
    [Emit]: {$headerValid:true;;    version:0;  traffic_class:0;  flow_label:0;  payload_len:0;  next_hdr:118;  hop_limit:0;  src_addr:291968535121327268181129161757540884169;  dst_addr:297060831095826148386527867318606538653;  }
    [MethodCall]: pkt.emit<tcp_t>(hdr.tcp);
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), seq_no = TaintedExpression(bit<32>), ack_no = TaintedExpression(bit<32>), data_offset = TaintedExpression(bit<4>), res = TaintedExpression(bit<4>), flags = TaintedExpression(bit<8>), window = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>), urgent_ptr = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<udp_t>(hdr.udp);
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), length = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<keepalive_t>(hdr.keepalive);
    [Invalid emit: { magic = TaintedExpression(bit<32>), version = TaintedExpression(bit<8>), direction = TaintedExpression(bit<8>), filter_group = TaintedExpression(bit<16>), seq = TaintedExpression(bit<32>), tx_timestamp = TaintedExpression(bit<64>) }]
    [P4Testgen MethodCall]: *.copy_out("IngressDeparser");
    [P4Testgen AssignmentStatement]: *eg_intr_md.egress_port = 511;
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    [Drop packet smaller than 240 for PTF.]: 9584
    [P4Testgen MethodCall]: *.tofino_drop();
    [Packet marked dropped.]
    '''

    def setupCtrlPlane(self):
        self.setRegisterValue('BalancerIngress.verdict', 0x80D0, 6)
        self.setRegisterValue('BalancerIngress.ev_time', [('BalancerIngress.ev_time.first', 0x00000000), ('BalancerIngress.ev_time.second', 0x00000000)], 13)
        self.setRegisterValue('BalancerIngress.ev_ka', 0x00000000, 13)
        self.setRegisterValue('BalancerIngress.ev_seen', 0x00000000, 416)
        self.setRegisterValue('BalancerIngress.ev_count', [('BalancerIngress.ev_count.first', 0x00000000), ('BalancerIngress.ev_count.second', 0x00000000)], 13)
        # Table BalancerIngress.port_role
        self.insertTableEntry(
            'BalancerIngress.port_role',
            [
                gc.KeyTuple('port', 0x03E),
            ],
            'BalancerIngress.set_operator_port',
            [
                gc.DataTuple('link_id', 0x33),
                gc.DataTuple('side', 0x1),
                gc.DataTuple('peer_port', 0x1FF),
            ]
        )
        # Table BalancerIngress.flow_rules_v6
        self.insertTableEntry(
            'BalancerIngress.flow_rules_v6',
            [
                gc.KeyTuple('link_id', 0x33, 0x1D),
                gc.KeyTuple('outer_vid', 0x4AC, 0x51D),
                gc.KeyTuple('inner_vid', 0x943, 0x5FD),
                gc.KeyTuple('vlan_depth', 0x3, 0x0),
                gc.KeyTuple('mpls_depth', 0xD, 0x0),
                gc.KeyTuple('src_mac', 0xCE77E161E472, 0xEEF57000253F),
                gc.KeyTuple('dst_mac', 0xEFA9FB6DD5F9, 0x79EE6EACDCFF),
                gc.KeyTuple('eth_type', 0xBDE8, 0xC222),
                gc.KeyTuple('ipv6_src', 0x2A730BF955FE0EF792C1ED53B60ECDF1, 0x000224283CB8007112488951D40B0487),
                gc.KeyTuple('ipv6_dst', 0xDD76B7C5F1E553EBDE681E77FB7AB1AD, 0xE5A2898B41045820182A07E02CC0A908),
                gc.KeyTuple('ip_proto', 0xE4, 0x6D),
                gc.KeyTuple('l4_src', 0x0503, 0x6A5C),
                gc.KeyTuple('l4_dst', 0x2084, 0x1E79),
            ],
            'BalancerIngress.balance_v6',
            [
                gc.DataTuple('group', 0xB),
            ]
        )
        # Table BalancerIngress.sessions
        self.insertTableEntry(
            'BalancerIngress.sessions',
            [
                gc.KeyTuple('balance_group', 0xB),
                gc.KeyTuple('addr_lo', 0x065136EF),
                gc.KeyTuple('addr_hi', 0xC466C2CF),
                gc.KeyTuple('proto', 0xE4),
            ],
            'BalancerIngress.keep',
            [
                gc.DataTuple('filter_group', 0x06),
                gc.DataTuple('core', 0x000),
            ]
        )
        # Table BalancerIngress.balance_groups
        self.insertTableEntry(
            'BalancerIngress.balance_groups',
            [
                gc.KeyTuple('balance_group', 0xB),
            ],
            'BalancerIngress.group_active',
            [
                gc.DataTuple('slot_mask', 0x0000),
            ]
        )
        # Table BalancerIngress.filter_groups
        self.insertTableEntry(
            'BalancerIngress.filter_groups',
            [
                gc.KeyTuple('filter_group', 0x06),
            ],
            'BalancerIngress.filter_forward',
            [
                gc.DataTuple('lan_port', 0x000),
                gc.DataTuple('wan_port', 0x000),
                gc.DataTuple('tpid', 0x0000),
                gc.DataTuple('epoch', 0xD0),
                gc.DataTuple('detect', 0x00000000),
                gc.DataTuple('fail_drop', 0x0),
            ]
        )

    def sendPacket(self):
        ig_port = 62
        pkt = b'\x6F\xA8\xFA\x7C\xF6\xF9\xDF\x7F\xE9\x3E\x7E\xB2\x91\x00\x04\x2C\x91\x00\x0B\x43\x91\x00\x00\x00\x88\x64\x00\x00\x00\x00\x00\x00\x00\x57\x00\x00\x00\x00\x00\x00\xE4\x00\xDB\xA7\x18\x2E\x96\xFD\xA9\xFF\xD7\xF5\x99\xF7\x9C\xFE\x1E\xC9\xDF\x7B\xD5\xC1\xFB\xBC\xF6\xFC\x19\xFD\x46\x6F\xF9\x5C\xA7\x9D\x21\x79\x08\x61\x88\xF3\x76\x83\x2F\x41\x86\x61\xC6\x30\xC3\x89\x3A\x97\xFC\xB9\x62\xD4\x71\xD6\x9B\xD1\x78\x28\xE7\xB7\xD0\xC5\xF4\xB4\xBD\x0C\xDA\x5F\x77\xC3\xA0\x7A\x3C\x5F\xB7\xB2\x07\x4F\x88\x6C\xF5\x39\xB6\x5C\x15\x27\x71\xDB\x6E\x16\xE5\x0F\x76\x37\xD0\xD8\x57\xBC\xF4\x3E\x1E\x34\x6F\xDC\xAE\x8D\xFD\x56\x7D\xE6\xF8\xC8\xB8\xA7\xEB\xA4\xF2\x79\x8C\x27\x8A\xAF\xE7\x46\xFF\x5B\xDC\xCB\x55\xE7\x1E\x16\xF3\xF0\x03\x1D\x92\xC0\xF2\x57\x8B\xB7\x09\x53\xCC\xEE\xD7\xAD\x87\x4A\xF3\x04\xA0\xA0\x92\xDC\x0B\xB4\xF4\x42\xAD\x41\x7C\xE0\xA1\xF2\xC3\xE8\x4F\xE1\x08\xE5\x13\xF5\x1B\xE4\x0E\x0D\x92\xF3\x80\xDB\xBC\xC0\x0E\xF3\x60\x38\x24\x35\x79\xD3\xCD\x36\x49\xCC\x90\xA9\xD1\x77\xEE\x77\xA4\x6B\x72\x4A\x69\x77\x6A\x76\x4B\x0B\x21\xCA\x23\xFD\x5D\x09\xE8\x3E\x81\x59\x19\x76\x61\xCA\xB6\xFF\x7A\x0F\xD5\x1A\xC5\xA9\xBC\x8C\xB2\xD4\xB7\x3C\x3D\x89\x7B\x61\x4D\x5B\xFD\xF9\x94\x0F\xA2\xAF\xD1\x96\xF8\xB5\x80\xA3\x09\xF2\xDD\x84\x93\x48\x2E\xFE\x39\x76\x8D\xD3\x13\xA8\x60\x74\x3C\xC2\x04\x33\xC7\xD5\xE8\x50\x09\x4A\x31\x35\x8E\x9C\xE7\xD3\xB9\xD4\x0B\x8A\xF2\x58\x22\x81\x01\x13\x12\xB8\x36\xCF\xD4\x02\x0E\x4A\x2D\xAF\xD2\x75\xAC\xE8\x1D\x9D\xFF\x63\xA0\x15\x22\x9F\x9B\x32\xD6\x20\x0A\x08\x36\x25\xA0\x03\x8E\x78\x41\x04\x64\xEC\x52\xBF\x47\x71\x92\x77\xBE\x67\xA2\x39\xF0\x46\x85\x3A\x8D\xB0\x2F\x27\xB8\x9E\x0E\x63\xFD\xB4\xFA\x29\x6D\x07\x47\xB0\xE5\xDC\x4F\x4F\x5C\x13\x7B\xCA\xDD\x06\xF2\x5D\xD8\x2B\x51\xE8\xF9\x52\x69\xBD\x3E\xE0\x7C\x69\x6C\xEB\xE0\x00\x8B\xE0\x62\xC7\x70\x88\xB1\xD1\x2A\xBE\x82\xCB\xF6\x5B\x97\xB3\x0C\xAE\x3D\xC2\x14\x22\x87\x30\x3F\x95\x97\xE7\x3B\x07\xA7\xE4\x03\x47\x9D\x33\xBF\xC8\xD9\xB4\xFB\x0C\x01\xD8\x2B\xC7\xB0\xCE\x6D\xBD\xD9\x46\x9C\x61\x69\x35\x7C\xB2\x8F\x00\x09\xCA\x8E\x57\xFA\xEF\x10\xA7\x9C\x40\xDB\x7B\x1D\xCD\xDF\xB9\xF8\xF1\x5F\x4A\xE1\xFF\xD7\xCA\xA3\xBF\x3E\x7D\x02\xA1\xC9\xDE\xB7\xAC\xB8\xE1\x4C\x88\xDD\xA0\xCD\xFB\x58\x99\x5A\x04\xBF\x77\xF2\x15\xA2\x64\xC4\xBD\x6A\xCC\x62\x13\x06\x3C\x13\x3A\x4C\xB5\xD3\xDD\x17\x21\x0F\x7C\xE5\x77\x8C\x43\x68\xF2\x77\xFF\x2E\x48\xF3\xC1\x4B\x87\xA1\x60\xA3\xFA\xF5\x59\x0B\x35\xC1\x58\x6E\xFC\x77\x42\xD2\x5D\xB1\xDC\x8C\xCA\x78\x05\xB4\xFA\x7B\x0A\x12\x0F\x1B\x8A\xAA\xBD\x56\xBB\xAC\x5B\x11\xBF\x77\xDD\x0B\x09\x7A\x8D\x3A\x0B\x6B\xD0\xEA\xC1\x59\x81\xB8\x89\x0A\x70\x0A\x85\xD8\xA4\x9D\x6C\x52\xD2\x2B\x53\xC0\xEC\x1D\x56\xCC\x28\xD3\x5E\x65\x2A\x47\xCA\x4E\x9F\x63\xB0\x4D\xD1\x95\xC4\x3D\x82\xD6\x92\xF5\xB9\x1F\x34\x86\xCB\x2F\x19\x23\xEE\xFA\x85\xAA\x88\x27\xE6\x97\xE9\x2E\xB1\xF0\x45\xB8\x6C\x2C\x6A\x35\xE3\xC4\x29\x41\xF6\x20\x0A\x9D\xBA\x43\xA2\x0E\x64\x53\xCF\x33\xC5\x09\xD9\xD4\xB1\x95\xDF\xFF\x2E\x3A\x55\x39\x11\x02\x00\x41\x04\x8F\x79\xE1\x12\x37\x45\x08\x23\xFC\xC7\x21\xA7\xFB\x7F\xF5\x1B\x36\xD3\x0C\xD1\x05\xBC\xDF\xFE\xA6\xD2\xD0\xC4\x1F\xEA\xD2\x2C\xAF\x43\x58\xAD\xEF\xA2\x2D\xE3\x5E\x05\x7D\x75\xDD\x98\x38\xA2\x74\xB9\xEC\x4B\x2A\x57\x31\x82\x18\x35\x9A\x60\x61\x1F\x7A\x72\x71\x03\xED\x4B\x1E\x04\xCB\xBD\xA1\xDF\xFA\x2E\x03\xA0\xEB\xC5\x2A\x1E\x4E\x6F\x23\x92\x16\x7B\x6E\xD6\x94\xF3\x2F\xD9\x0B\xDE\x2F\xE3\xFC\xBE\x4D\xB7\xD5\x59\x24\x2B\x23\xB8\xB1\x3E\x40\x9D\x1A\xA1\xFF\xC6\xC1\x16\x99\xD9\x49\x46\xB9\x0E\x6D\x87\x5E\x81\x7C\x0C\xB6\x94\xF5\x27\xCB\xD3\x04\x17\x06\x92\x69\xCF\x10\x9A\x4A\x24\x7C\x70\x5C\x78\x3B\x0F\xC4\x76\x1A\x0D\x19\x4E\xCE\x7F\x0B\x69\x7F\x38\x82\xAD\xA4\x01\x1B\x7E\x7B\xC4\x74\xBB\xB3\xA5\x43\x09\xD3\x8A\xC9\xCD\x6F\x7D\xD9\xFF\xE6\x74\x6C\x9F\x68\x08\x48\xB9\xFF\xDA\xFE\x46\xCF\xF7\x13\x5B\x18\x27\xCA\xB2\x5E\x91\x3C\x01\xF0\x33\xF9\x42\x7D\xDC\xAF\x25\x33\xB0\x86\x4D\xFD\x4E\x59\xEA\x06\x2A\x82\x66\x70\x0A\xE9\xE4\x9D\xA6\x97\xCC\x39\x59\x0C\x27\x1F\xF1\x8E\x98\xA1\x23\x06\x86\xE9\x45\x7B\x96\xDB\xCA\x07\x27\x52\xAC\xC2\xD5\x41\xB3\x4C\xAB\xD3\x22\x58\x81\xFE\xEB\xFA\x56\x8C\xA5\xB5\x08\x0D\x9F\x07\x7C\x43\x81\x32\x6F\xBE\x00\xE2\x1C\x97\xEC\xCA\x14\xD0\xF3\x86\x61\xC8\xBC\x8B\x87\x10\xE6\xED\xDD\xFE\x99\x6F\x3F\x7D\x7E\x5C\xC5\x6C\xED\x23\x02\xF4\x4F\x1C\xF0\x43\xF1\xFE\xB9\x1B\x0D\x4D\xFB\x2B\x51\x45\xE4\x29\xB6\x54\x5D\x30\xC7\x60\xC4\xF1\xC1\x84\x47\x1E\xB9\xFF\xC7\x1B\xF5\x2E\x22\xB3\xF0\x1B\x6B\x17\x5F\xDF\xE2\x51\x25\x3C\xAE\x05\xA6\xF6\x02\x6A\x29\xF9\x0E\x31\x40\x00\x21\xF5\x26\x41\x58\x78\x69\x9C\x1B\x44\x6E\x6E\x9F\x2E\x0B\x33\x1F\x33\x25\x2C\x9D\x73\x38\x31\x81\x83\x91\x4A\x34\x0E\xC9\xBE\x93\xFD\x75\x26\xDF\x78\x5B\xB5\xBA\xB5\x8A\x86\xF1\x65\x14\xBE\xD6\x03\x0C\xCF\xEA\x5C\x4E\x95\x8E\x02\xB8\x4D\xFB\x80\x51\x71\x25\xE4\x1E\xF4\xA0\xD2\x23\x5F\xAE\xFD\xEA\xB2\x44\xDD\x10\xC5\x58\x21\x1C\xCD\x19\x4F'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        pass

    def runTest(self):
        self.runTestImpl()


class Test9(AbstractTest):
    # Date generated: 2026-12-07-20:54:46.560
    # Current statement coverage: 0.62
    '''
    [P4Testgen MethodCall]: *.StartIngress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(0);
    [PrependToProgramHeader]: 0
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*ig_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    resubmit_flag:0;  _pad1:0;  packet_version:0;  _pad2:0;  ingress_port:59;  ingress_mac_tstamp:0;  }
    [P4Testgen MethodCall]: *.copy_in("IngressParser");
    [Parser] IngressParser
    [State] start
    [MethodCall]: pkt.extract<ingress_intrinsic_metadata_t>(ig_intr_md);
    [ExtractSuccess] ig_intr_md@0 | Condition: |*packetLen_bits(bit<32>)| >= 64; | Extract Size: 64 -> ig_intr_md.resubmit_flag = 0x0 | ig_intr_md._pad1 = 0x0 | ig_intr_md.packet_version = 0x0 | ig_intr_md._pad2 = 0x0 | ig_intr_md.ingress_port = 0x03B | ig_intr_md.ingress_mac_tstamp = Taint
    [AssignmentStatement]: md.eth_type = 0;| Computed: md.eth_type = 0;
    [AssignmentStatement]: md.copy_pipe = ig_intr_md.ingress_port[8:7];| Computed: md.copy_pipe = 0;
    [AssignmentStatement]: md.proof_copy = false;| Computed: md.proof_copy = false;
    [State] parse_port_metadata
    [MethodCall]: pkt.advance(64);
    [Advance Condition: |*packetLen_bits(bit<32>)| >= 64;]
    [State] parse_port
    [State] parse_ethernet
    [MethodCall]: pkt.extract<ethernet_t>(hdr.ethernet);
    [ExtractSuccess] hdr.ethernet@0 | Condition: |*packetLen_bits(bit<32>)| >= 96; | Extract Size: 96 -> hdr.ethernet.dst_addr = 0xF2BB_FDFA_C644 | hdr.ethernet.src_addr = 0x6BDE_F6A8_FDCC
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 112;]
    [P4Testgen AssignmentStatement]: tmp_0 = 37120;
    [State] parse_vlan_0
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[0]);
    [ExtractSuccess] hdr.vlan[0]@96 | Condition: |*packetLen_bits(bit<32>)| >= 128; | Extract Size: 32 -> hdr.vlan[0].tpid = 0x9100 | hdr.vlan[0].pcp = 0x0 | hdr.vlan[0].dei = 0x0 | hdr.vlan[0].vid = 0xE45
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 144;]
    [P4Testgen AssignmentStatement]: tmp_4 = 37120;
    [State] parse_vlan_1
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[1]);
    [ExtractSuccess] hdr.vlan[1]@128 | Condition: |*packetLen_bits(bit<32>)| >= 160; | Extract Size: 32 -> hdr.vlan[1].tpid = 0x9100 | hdr.vlan[1].pcp = 0x0 | hdr.vlan[1].dei = 0x0 | hdr.vlan[1].vid = 0xBF6
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 176;]
    [P4Testgen AssignmentStatement]: tmp_6 = 37120;
    [State] parse_vlan_2
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[2]);
    [ExtractSuccess] hdr.vlan[2]@160 | Condition: |*packetLen_bits(bit<32>)| >= 192; | Extract Size: 32 -> hdr.vlan[2].tpid = 0x9100 | hdr.vlan[2].pcp = 0x0 | hdr.vlan[2].dei = 0x0 | hdr.vlan[2].vid = 0x000
    [State] parse_eth_type
    [MethodCall]: pkt.extract<eth_type_t>(hdr.eth_type);
    [ExtractSuccess] hdr.eth_type@192 | Condition: |*packetLen_bits(bit<32>)| >= 208; | Extract Size: 16 -> hdr.eth_type.value = 0x8848
    [AssignmentStatement]: md.eth_type = hdr.eth_type.value;| Computed: md.eth_type = 34888;
    [State] parse_mpls_0
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[0]);
    [ExtractSuccess] hdr.mpls[0]@208 | Condition: |*packetLen_bits(bit<32>)| >= 240; | Extract Size: 32 -> hdr.mpls[0].label = 0x0000_0000 | hdr.mpls[0].tc = 0x0 | hdr.mpls[0].bos = 0x0 | hdr.mpls[0].ttl = 0x00
    [State] parse_mpls_1
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[1]);
    [ExtractSuccess] hdr.mpls[1]@240 | Condition: |*packetLen_bits(bit<32>)| >= 272; | Extract Size: 32 -> hdr.mpls[1].label = 0x0000_0000 | hdr.mpls[1].tc = 0x0 | hdr.mpls[1].bos = 0x0 | hdr.mpls[1].ttl = 0x00
    [State] parse_mpls_2
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[2]);
    [ExtractSuccess] hdr.mpls[2]@272 | Condition: |*packetLen_bits(bit<32>)| >= 304; | Extract Size: 32 -> hdr.mpls[2].label = 0x0000_0000 | hdr.mpls[2].tc = 0x0 | hdr.mpls[2].bos = 0x1 | hdr.mpls[2].ttl = 0x00
    [State] parse_mpls_payload
    [Lookahead result]: 6
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 308;]
    [P4Testgen AssignmentStatement]: tmp_8 = 6;
    [State] parse_ipv6
    [MethodCall]: pkt.extract<ipv6_t>(hdr.ipv6);
    [ExtractSuccess] hdr.ipv6@304 | Condition: |*packetLen_bits(bit<32>)| >= 624; | Extract Size: 320 -> hdr.ipv6.version = 0x6 | hdr.ipv6.traffic_class = 0x00 | hdr.ipv6.flow_label = 0x0000_0000 | hdr.ipv6.payload_len = 0x0000 | hdr.ipv6.next_hdr = 0x33 | hdr.ipv6.hop_limit = 0x00 | hdr.ipv6.src_addr = 0xBB19_5BDE_1FDA_ABAD_7F72_7EDF_AE7C_5C2A | hdr.ipv6.dst_addr = 0xF63C_5829_236C_EB00_98AE_FF72_DB7B_537F
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("IngressParser");
    [P4Testgen MethodCall]: *.copy_in("BalancerIngress");
    [Control BalancerIngress start]
    [AssignmentStatement]: md.ingress_port = ig_intr_md.ingress_port;| Computed: md.ingress_port = 59;
    [AssignmentStatement]: md.ingress_ts = ig_intr_md.ingress_mac_tstamp;| Computed: md.ingress_ts = "Taint";
    [AssignmentStatement]: md.port_type = PORT_TYPE_UNKNOWN;| Computed: md.port_type = 0;
    [AssignmentStatement]: md.drop = false;| Computed: md.drop = false;
    [AssignmentStatement]: md.to_cpu = false;| Computed: md.to_cpu = false;
    [AssignmentStatement]: md.ka_stamp = false;| Computed: md.ka_stamp = false;
    [AssignmentStatement]: md.drop_reason = DROP_NONE;| Computed: md.drop_reason = 0;
    [AssignmentStatement]: md.count_link = false;| Computed: md.count_link = false;
    [AssignmentStatement]: md.count_fg = false;| Computed: md.count_fg = false;
    [AssignmentStatement]: md.heartbeat = false;| Computed: md.heartbeat = false;
    [AssignmentStatement]: md.balance = false;| Computed: md.balance = false;
    [AssignmentStatement]: md.slot_hit = false;| Computed: md.slot_hit = false;
    [AssignmentStatement]: md.session_hit = false;| Computed: md.session_hit = false;
    [AssignmentStatement]: md.learn = false;| Computed: md.learn = false;
    [AssignmentStatement]: md.count_rx = false;| Computed: md.count_rx = false;
    [AssignmentStatement]: md.malformed = false;| Computed: md.malformed = false;
    [AssignmentStatement]: md.now = ig_prsr_md.global_tstamp[47:16];| Computed: md.now = "Taint";
    [AssignmentStatement]: md.fg_forward = false;| Computed: md.fg_forward = false;
    [AssignmentStatement]: md.ka_send = false;| Computed: md.ka_send = false;
    [AssignmentStatement]: md.ev_send = false;| Computed: md.ev_send = false;
    [AssignmentStatement]: md.ev_return = false;| Computed: md.ev_return = false;
    [AssignmentStatement]: md.ev_index = 0;| Computed: md.ev_index = 0;
    [AssignmentStatement]: md.ev_bucket = 0;| Computed: md.ev_bucket = 0;
    [AssignmentStatement]: md.target_fg = 0;| Computed: md.target_fg = 0;
    [AssignmentStatement]: md.epoch = 0;| Computed: md.epoch = 0;
    [AssignmentStatement]: md.detect = 0;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = 0;| Computed: md.fail_drop = 0;
    [AssignmentStatement]: md.verdict_now = false;| Computed: md.verdict_now = false;
    [AssignmentStatement]: md.digest.reason = VERDICT_REASON_STANDING;| Computed: md.digest.reason = 0;
    [AssignmentStatement]: md.digest.age = 0;| Computed: md.digest.age = 0;
    [AssignmentStatement]: md.verdict_hit = false;| Computed: md.verdict_hit = false;
    [AssignmentStatement]: md.count_verdict = false;| Computed: md.count_verdict = false;
    [AssignmentStatement]: md.verdict_kind = VERDICT_CNT_BYPASS;| Computed: md.verdict_kind = 0;
    [AssignmentStatement]: md.send_digest = false;| Computed: md.send_digest = false;
    [AssignmentStatement]: md.cpu_port = 192;| Computed: md.cpu_port = 192;
    [P4Testgen If Statement]: Condition: false; Result: false
    [MethodCall]: _BalancerIngress_port_role/port_role.apply();
    [Table Branch: BalancerIngress.port_role | Key(s): |tofino_ingress_port(bit<9>)|| Chosen action: BalancerIngress.set_operator_port]
    [MethodCall]: _BalancerIngress_set_operator_port_0/set_operator_port(|BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_side_2(bit<1>)|, |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_peer_port_1(bit<9>)|);
    [AssignmentStatement]: md.port_type = PORT_TYPE_OPERATOR;| Computed: md.port_type = 1;
    [AssignmentStatement]: md.link_id = link_id;| Computed: md.link_id = 10;
    [AssignmentStatement]: md.side = side;| Computed: md.side = 1;
    [AssignmentStatement]: md.peer_port = peer_port;| Computed: md.peer_port = 0;
    [AssignmentStatement]: md.vlan_depth = 0;| Computed: md.vlan_depth = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.vlan_depth = 3;| Computed: md.vlan_depth = 3;
    [AssignmentStatement]: md.mpls_depth = 0;| Computed: md.mpls_depth = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.mpls_depth = 3;| Computed: md.mpls_depth = 3;
    [AssignmentStatement]: md.outer_vid = 0;| Computed: md.outer_vid = 0;
    [AssignmentStatement]: md.inner_vid = 0;| Computed: md.inner_vid = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[0].isValid()) { md.outer_vid = hdr.vlan[0].vid; }| Computed: md.outer_vid = 3653;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[1].isValid()) { md.inner_vid = hdr.vlan[1].vid; }| Computed: md.inner_vid = 3062;
    [AssignmentStatement]: md.is_ipv4 = 0;| Computed: md.is_ipv4 = 0;
    [AssignmentStatement]: md.ipv4_src = 0;| Computed: md.ipv4_src = 0;
    [AssignmentStatement]: md.ipv4_dst = 0;| Computed: md.ipv4_dst = 0;
    [AssignmentStatement]: md.ip_proto = 0;| Computed: md.ip_proto = 0;
    [AssignmentStatement]: md.addr_x = 0;| Computed: md.addr_x = 0;
    [AssignmentStatement]: md.addr_y = 0;| Computed: md.addr_y = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.ip_proto = hdr.ipv6.next_hdr;| Computed: md.ip_proto = 51;
    [AssignmentStatement]: md.addr_x = fold_src.get({ hdr.ipv6.src_addr });| Computed: md.addr_x = 727536662;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.addr_y = fold_dst.get({ hdr.ipv6.dst_addr });| Computed: md.addr_y = 2821623409;
    [AssignmentStatement]: md.l4_src = 0;| Computed: md.l4_src = 0;
    [AssignmentStatement]: md.l4_dst = 0;| Computed: md.l4_dst = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: (ig_prsr_md.parser_err != 0) || (hdr.ipv4.isValid() && hdr.ipv4.ihl < 5) Condition: 0 != 0 || false && TaintedExpression(bit<4>) < 5; Result: false
    [AssignmentStatement]: md.count_rx = true;| Computed: md.count_rx = true;
    [If Statement]: md.port_type == PORT_TYPE_OPERATOR Condition: 1 == 1; Result: true
    [MethodCall]: _BalancerIngress_heartbeat/heartbeat.apply();
    [Table Branch: BalancerIngress.heartbeat Choosing default action: _BalancerIngress_no_heartbeat_0/no_heartbeat;]
    [MethodCall]: _BalancerIngress_no_heartbeat_0/no_heartbeat();
    [If Statement]: false Condition: false; Result: false
    [P4Testgen If Statement]: Condition: true; Result: true
    [MethodCall]: _BalancerIngress_flow_rules_v6/flow_rules_v6.apply();
    [Table Branch: BalancerIngress.flow_rules_v6 | Key(s): |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |pktvar_5(bit<12>)|, |pktvar_9(bit<12>)|, 3, 3, |pktvar_1(bit<48>)|, |pktvar_0(bit<48>)|, |pktvar_14(bit<16>)|, |pktvar_33(bit<128>)|, |pktvar_34(bit<128>)|, |pktvar_31(bit<8>)|, 0, 0| Chosen action: BalancerIngress.balance_v6]
    [MethodCall]: _BalancerIngress_balance_v6_0/balance_v6(|BalancerIngress.flow_rules_v6_BalancerIngress.balance_v6_arg_group_0(bit<4>)|);
    [AssignmentStatement]: md.balance = true;| Computed: md.balance = true;
    [AssignmentStatement]: md.balance_group = group;| Computed: md.balance_group = 7;
    [MethodCall]: _BalancerIngress_flow_rules_v6_counter/flow_rules_v6_counter.count();
    [If Statement]: (md.addr_x < md.addr_y) Condition: Concolic_Hash_get_3495435_0({ {    f0:|pktvar_33(bit<128>)|; } }) < Concolic_Hash_get_3495587_0({ {    f0:|pktvar_34(bit<128>)|; } }); Result: true
    [AssignmentStatement]: bit<32> lo = (md.addr_x < md.addr_y) ? md.addr_x : md.addr_y;| Computed: session_hash_tmp = 727536662;
    [If Statement]: (md.addr_x < md.addr_y) Condition: Concolic_Hash_get_3495435_0({ {    f0:|pktvar_33(bit<128>)|; } }) < Concolic_Hash_get_3495587_0({ {    f0:|pktvar_34(bit<128>)|; } }); Result: true
    [AssignmentStatement]: bit<32> hi = (md.addr_x < md.addr_y) ? md.addr_y : md.addr_x;| Computed: session_hash_tmp_0 = 2821623409;
    [AssignmentStatement]: md.hash = sym_hash.get({ lo, hi, md.ip_proto });| Computed: md.hash = 0;
    [AssignmentStatement]: md.sess_lo = lo;| Computed: md.sess_lo = 727536662;
    [AssignmentStatement]: md.sess_hi = hi;| Computed: md.sess_hi = 2821623409;
    [If Statement]: true Condition: true; Result: true
    [If Statement]: (!hdr.ipv4.isValid() && !hdr.ipv6.isValid()) || hdr.core.isValid() Condition: !false && !true || false; Result: false
    [MethodCall]: _BalancerIngress_sessions/sessions.apply();
    [Table Branch: BalancerIngress.sessions | Key(s): |BalancerIngress.flow_rules_v6_BalancerIngress.balance_v6_arg_group_0(bit<4>)|, Concolic_Hash_get_3495435_0({ {    f0:|pktvar_33(bit<128>)|; } }), Concolic_Hash_get_3495587_0({ {    f0:|pktvar_34(bit<128>)|; } }), |pktvar_31(bit<8>)|| Chosen action: BalancerIngress.keep]
    [MethodCall]: _BalancerIngress_keep_0/keep(|BalancerIngress.sessions_BalancerIngress.keep_arg_filter_group_5(bit<6>)|, |BalancerIngress.sessions_BalancerIngress.keep_arg_core_3(bit<10>)|);
    [AssignmentStatement]: md.session_hit = true;| Computed: md.session_hit = true;
    [AssignmentStatement]: md.sess_fg = filter_group;| Computed: md.sess_fg = 63;
    [AssignmentStatement]: md.sess_core = core;| Computed: md.sess_core = 0;
    [MethodCall]: _BalancerIngress_balance_groups/balance_groups.apply();
    [Table Branch: BalancerIngress.balance_groups | Key(s): |BalancerIngress.flow_rules_v6_BalancerIngress.balance_v6_arg_group_0(bit<4>)|| Chosen action: BalancerIngress.group_active]
    [MethodCall]: _BalancerIngress_group_active_0/group_active(|BalancerIngress.balance_groups_BalancerIngress.group_active_arg_slot_mask_1(bit<16>)|);
    [AssignmentStatement]: md.slot_mask = slot_mask;| Computed: md.slot_mask = 0;
    [AssignmentStatement]: md.slot = md.hash[15:0] & slot_mask;| Computed: md.slot = 0;
    [SwitchCase]: group_active
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: md.target_fg = md.sess_fg;| Computed: md.target_fg = 63;
    [AssignmentStatement]: md.core = md.sess_core;| Computed: md.core = 0;
    [AssignmentStatement]: md.slot_hit = true;| Computed: md.slot_hit = true;
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_core_counters/core_counters.count((bit<32>)(md.target_fg ++ md.core));
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: port_t named = md.out_port;| Computed: filter_groups_ctl_named/named = 0;
    [MethodCall]: _BalancerIngress_filter_groups/filter_groups.apply();
    [Table Branch: BalancerIngress.filter_groups | Key(s): |BalancerIngress.sessions_BalancerIngress.keep_arg_filter_group_5(bit<6>)|| Chosen action: BalancerIngress.filter_forward]
    [MethodCall]: _BalancerIngress_filter_forward_0/filter_forward(|BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_lan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_wan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_tpid_1(bit<16>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_detect_1(bit<32>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_fail_drop_1(bit<1>)|);
    [AssignmentStatement]: md.epoch = epoch;| Computed: md.epoch = 0;
    [AssignmentStatement]: md.detect = detect;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = fail_drop;| Computed: md.fail_drop = 0;
    [AssignmentStatement]: md.fg_forward = true;| Computed: md.fg_forward = true;
    [AssignmentStatement]: md.ev_index = md.target_fg ++ md.side;| Computed: md.ev_index = 127;
    [AssignmentStatement]: md.digest.filter_group = (bit<8>)md.target_fg;| Computed: md.digest.filter_group = 63;
    [AssignmentStatement]: md.digest.direction = (bit<8>)md.side;| Computed: md.digest.direction = 1;
    [AssignmentStatement]: md.digest.epoch = epoch;| Computed: md.digest.epoch = 0;
    [AssignmentStatement]: md.deadline = md.now + (detect);| Computed: md.deadline = "Taint";
    [AssignmentStatement]: md.fg_lan_port = lan_port;| Computed: md.fg_lan_port = 0;
    [AssignmentStatement]: md.fg_wan_port = wan_port;| Computed: md.fg_wan_port = 511;
    [AssignmentStatement]: md.tpid = tpid;| Computed: md.tpid = 0;
    [AssignmentStatement]: md.count_fg = true;| Computed: md.count_fg = true;
    [AssignmentStatement]: md.fg_index = md.target_fg;| Computed: md.fg_index = 63;
    [AssignmentStatement]: md.count_link = true;| Computed: md.count_link = true;
    [AssignmentStatement]: md.link_kind = LINK_CNT_TO_FILTER;| Computed: md.link_kind = 0;
    [AssignmentStatement]: md.fg_kind = FG_CNT_TO_FILTER;| Computed: md.fg_kind = 0;
    [SwitchCase]: filter_forward
    [AssignmentStatement]: md.ev_send = true;| Computed: md.ev_send = true;
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.core.setValid();
    [AssignmentStatement]: hdr.core.tpid = md.tpid;| Computed: hdr.core.tpid = 0;
    [AssignmentStatement]: hdr.core.link_id = md.link_id;| Computed: hdr.core.link_id = 10;
    [AssignmentStatement]: hdr.core.core_id = md.core;| Computed: hdr.core.core_id = 0;
    [If Statement]: md.side == SIDE_LAN Condition: |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_side_2(bit<1>)| == 0; Result: false
    [AssignmentStatement]: md.out_port = md.fg_wan_port;| Computed: md.out_port = 511;
    [AssignmentStatement]: md.ev_bucket = md.hash[20:16];| Computed: md.ev_bucket = 0;
    [MethodCall]: verdict_ctl_verdict_cell/verdict_cell.apply();
    [Constant Table Branch: BalancerIngress.verdict_ctl.verdict_cell | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: cell_read()]
    [MethodCall]: verdict_ctl_cell_read_0/cell_read();
    [AssignmentStatement]: rv = v;| Computed: rv = 15635;
    [AssignmentStatement]: md.cell = verdict_read.execute(md.target_fg);| Computed: md.cell = 15635;
    [If Statement]: true Condition: true; Result: true
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: md.cell[15:8] == VERDICT_SET[15:8] && md.cell[7:0] == md.epoch Condition: |.BalancerIngress.verdict(bit<16>)|[15:8] == 128 && |.BalancerIngress.verdict(bit<16>)|[7:0] == |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|; Result: false
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: testgen_assume(md.fg_forward && !md.ka_send);
    [Assume: applying condition: true && !false;]
    [AssignmentStatement]: md.copy_slot = md.now[31:4];| Computed: md.copy_slot = "Taint";
    [MethodCall]: evidence_copy_ctl_ev_copy_session/ev_copy_session.apply();
    [Constant Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_session | Key(s): |tofino_ingress_port(bit<9>)|[8:7]; | Chosen action: copy_session_of(10w960) | Arg(s): 960]
    [MethodCall]: evidence_copy_ctl_copy_session_of_0/copy_session_of(960);
    [AssignmentStatement]: md.copy_session = session;| Computed: md.copy_session = 960;
    [MethodCall]: evidence_copy_ctl_ev_copy_step/ev_copy_step.apply();
    [Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_step Choosing default action: evidence_copy_ctl_copy_none_0/copy_none;]
    [MethodCall]: evidence_copy_ctl_copy_none_0/copy_none();
    [MethodCall]: evidence_ctl_ev_time_step/ev_time_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_time_step | Key(s): (bit<1>)false;, (bit<1>)true;, (bit<1>)false; | Chosen action: ev_time_of_send()]
    [MethodCall]: evidence_ctl_ev_time_of_send_0/ev_time_of_send();
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.deadline;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.deadline;| Computed: v.second = "Taint";
    [AssignmentStatement]: rv = v.first;| Computed: rv = "Taint";
    [AssignmentStatement]: md.tag = ev_time_send.execute(md.ev_index);| Computed: md.tag = "Taint";
    [MethodCall]: evidence_ctl_ev_ka_step/ev_ka_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_ka_step | Key(s): (bit<1>)false;, (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: ev_ka_of_data()]
    [MethodCall]: evidence_ctl_ev_ka_of_data_0/ev_ka_of_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: rv = md.now - v;| Computed: rv = "Taint";
    [AssignmentStatement]: md.ka_overdue = ev_ka_send_data.execute(md.ev_index);| Computed: md.ka_overdue = "Taint";
    [AssignmentStatement]: md.overdue = md.now - md.tag;| Computed: md.overdue = "Taint";
    [MethodCall]: evidence_ctl_ev_seen_step/ev_seen_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_seen_step | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: ev_seen_of_data()]
    [MethodCall]: evidence_ctl_ev_seen_of_data_0/ev_seen_of_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: v = md.tag;| Computed: v = "Taint";
    [AssignmentStatement]: rv = 1;| Computed: rv = 1;
    [AssignmentStatement]: md.fresh = ev_seen_mark.execute(md.ev_index ++ md.ev_bucket);| Computed: md.fresh = "Taint";
    [MethodCall]: evidence_ctl_ev_count_step/ev_count_step.apply();
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_expired_data_0/ev_count_of_expired_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [Tainted If Statement]: 
    [AssignmentStatement]: rv = 1;| Computed: rv = 1;
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: ig_dprsr_md.resubmit_type = ev_count_proof.execute(md.ev_index);| Computed: ig_dprsr_md.resubmit_type = "Taint";
    [MethodCall]: md.resub.setValid();
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 0;
    [AssignmentStatement]: md.resub.reason = VERDICT_REASON_DATA;| Computed: md.resub.reason = 2;
    [AssignmentStatement]: md.resub.overdue = md.overdue;| Computed: md.resub.overdue = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_keepalive_proof_0/ev_count_of_keepalive_proof();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: ig_dprsr_md.resubmit_type = 1;| Computed: ig_dprsr_md.resubmit_type = 1;
    [MethodCall]: md.resub.setValid();
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 0;
    [AssignmentStatement]: md.resub.reason = VERDICT_REASON_KEEPALIVE;| Computed: md.resub.reason = 1;
    [AssignmentStatement]: md.resub.overdue = md.ka_overdue;| Computed: md.resub.overdue = "Taint";
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_port_rx/port_rx.count((bit<32>)ig_intr_md.ingress_port);
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_link_counters/link_counters.count((bit<32>)(md.link_id ++ md.link_kind));
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_filter_group_counters/filter_group_counters.count((bit<32>)(md.fg_index ++ md.fg_kind));
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.bridged.setValid();
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.to_cpu = 0;
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.ka_stamp = 0;
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_tm_md.ucast_egress_port = 511;
    [P4Testgen MethodCall]: *.copy_out("BalancerIngress");
    [P4Testgen MethodCall]: *.copy_in("IngressDeparser");
    [Control IngressDeparser start]
    [If Statement]: ig_dprsr_md.digest_type == 2 Condition: 0 == 2; Result: false
    [If Statement]: ig_dprsr_md.digest_type == 1 Condition: 0 == 1; Result: false
    [MethodCall]: pkt.emit<bridged_md_t>(hdr.bridged);
    [Emit]: {$headerValid:true;;    _pad0:0;  to_cpu:0;  ka_stamp:0;  }
    [MethodCall]: pkt.emit<packet_in_t>(hdr.packet_in);
    [Invalid emit: { ingress_port = TaintedExpression(bit<9>), _pad0 = TaintedExpression(bit<7>), reason = TaintedExpression(bit<8>), rx_timestamp = TaintedExpression(bit<48>) }]
    [MethodCall]: pkt.emit<ethernet_t>(hdr.ethernet);
    [Emit]: {$headerValid:true;;    dst_addr:266889233876548;  src_addr:118605365181900;  }
    [MethodCall]: pkt.emit<core_t>(hdr.core);
    [Emit]: {$headerValid:true;;    tpid:0;  link_id:10;  core_id:0;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[0]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:3653;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[1]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:3062;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[2]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:0;  }
    [MethodCall]: pkt.emit<eth_type_t>(hdr.eth_type);
    [Emit]: {$headerValid:true;;    value:34888;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[0]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:0;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[1]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:0;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[2]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:1;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[3]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[4]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[5]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[6]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[7]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<pppoe_t>(hdr.pppoe);
    [Invalid emit: { version = TaintedExpression(bit<4>), type = TaintedExpression(bit<4>), code = TaintedExpression(bit<8>), session_id = TaintedExpression(bit<16>), length = TaintedExpression(bit<16>), protocol = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<ipv4_t>(hdr.ipv4);
    [Invalid emit: { version = TaintedExpression(bit<4>), ihl = TaintedExpression(bit<4>), dscp_ecn = TaintedExpression(bit<8>), total_len = TaintedExpression(bit<16>), identification = TaintedExpression(bit<16>), flags = TaintedExpression(bit<3>), frag_offset = TaintedExpression(bit<13>), ttl = TaintedExpression(bit<8>), protocol = TaintedExpression(bit<8>), hdr_checksum = TaintedExpression(bit<16>), src_addr = TaintedExpression(bit<32>), dst_addr = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[0]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[1]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[2]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[3]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[4]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[5]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[6]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[7]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[8]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[9]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv6_t>(hdr.ipv6);
    [Emit]: {$headerValid:true;;    version:6;  traffic_class:0;  flow_label:0;  payload_len:0;  next_hdr:51;  hop_limit:0;  src_addr:248697305931027041250693231488249125930;  dst_addr:327303412885964827923274458833480274815;  }
    [MethodCall]: pkt.emit<tcp_t>(hdr.tcp);
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), seq_no = TaintedExpression(bit<32>), ack_no = TaintedExpression(bit<32>), data_offset = TaintedExpression(bit<4>), res = TaintedExpression(bit<4>), flags = TaintedExpression(bit<8>), window = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>), urgent_ptr = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<udp_t>(hdr.udp);
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), length = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<keepalive_t>(hdr.keepalive);
    [Invalid emit: { magic = TaintedExpression(bit<32>), version = TaintedExpression(bit<8>), direction = TaintedExpression(bit<8>), filter_group = TaintedExpression(bit<16>), seq = TaintedExpression(bit<32>), tx_timestamp = TaintedExpression(bit<64>) }]
    [P4Testgen MethodCall]: *.copy_out("IngressDeparser");
    [P4Testgen AssignmentStatement]: *eg_intr_md.egress_port = 511;
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    [Drop packet smaller than 240 for PTF.]: 4976
    [P4Testgen MethodCall]: *.tofino_drop();
    [Packet marked dropped.]
    '''

    def setupCtrlPlane(self):
        self.setRegisterValue('BalancerIngress.verdict', 0x71CB, 14)
        self.setRegisterValue('BalancerIngress.ev_time', [('BalancerIngress.ev_time.first', 0x00000000), ('BalancerIngress.ev_time.second', 0x00000000)], 29)
        self.setRegisterValue('BalancerIngress.ev_ka', 0x00000000, 29)
        self.setRegisterValue('BalancerIngress.ev_seen', 0x00000000, 928)
        self.setRegisterValue('BalancerIngress.ev_count', [('BalancerIngress.ev_count.first', 0x00000000), ('BalancerIngress.ev_count.second', 0x00000000)], 29)
        # Table BalancerIngress.port_role
        self.insertTableEntry(
            'BalancerIngress.port_role',
            [
                gc.KeyTuple('port', 0x04B),
            ],
            'BalancerIngress.set_operator_port',
            [
                gc.DataTuple('link_id', 0x02),
                gc.DataTuple('side', 0x1),
                gc.DataTuple('peer_port', 0x000),
            ]
        )
        # Table BalancerIngress.flow_rules_v6
        self.insertTableEntry(
            'BalancerIngress.flow_rules_v6',
            [
                gc.KeyTuple('link_id', 0x06, 0x3B),
                gc.KeyTuple('outer_vid', 0x9FD, 0xF75),
                gc.KeyTuple('inner_vid', 0xFE8, 0xEE1),
                gc.KeyTuple('vlan_depth', 0x3, 0x2),
                gc.KeyTuple('mpls_depth', 0xF, 0x1),
                gc.KeyTuple('src_mac', 0x7A88587AF2D9, 0xE9FE5C405BAC),
                gc.KeyTuple('dst_mac', 0xE39359E4EC4D, 0x99EE517E9CF5),
                gc.KeyTuple('eth_type', 0xD9D0, 0xA066),
                gc.KeyTuple('ipv6_src', 0xA73A711F7FFCFA60B57FD7D92A587C2A, 0xC3CC811E1E418E30159006D879828FFB),
                gc.KeyTuple('ipv6_dst', 0x75FD790BAAE51224B9E47F70D67ED5FB, 0x703E9E84123206C9CEA17699422A386B),
                gc.KeyTuple('ip_proto', 0x82, 0x27),
                gc.KeyTuple('l4_src', 0x652C, 0x8A93),
                gc.KeyTuple('l4_dst', 0xC010, 0x18AB),
            ],
            'BalancerIngress.balance_v6',
            [
                gc.DataTuple('group', 0x1),
            ]
        )
        # Table BalancerIngress.sessions
        self.insertTableEntry(
            'BalancerIngress.sessions',
            [
                gc.KeyTuple('balance_group', 0x1),
                gc.KeyTuple('addr_lo', 0x75CDD286),
                gc.KeyTuple('addr_hi', 0x96851F24),
                gc.KeyTuple('proto', 0xDA),
            ],
            'BalancerIngress.keep',
            [
                gc.DataTuple('filter_group', 0x0E),
                gc.DataTuple('core', 0x000),
            ]
        )
        # Table BalancerIngress.balance_groups
        self.insertTableEntry(
            'BalancerIngress.balance_groups',
            [
                gc.KeyTuple('balance_group', 0x1),
            ],
            'BalancerIngress.group_active',
            [
                gc.DataTuple('slot_mask', 0x0000),
            ]
        )
        # Table BalancerIngress.filter_groups
        self.insertTableEntry(
            'BalancerIngress.filter_groups',
            [
                gc.KeyTuple('filter_group', 0x0E),
            ],
            'BalancerIngress.filter_forward',
            [
                gc.DataTuple('lan_port', 0x000),
                gc.DataTuple('wan_port', 0x1FF),
                gc.DataTuple('tpid', 0x0000),
                gc.DataTuple('epoch', 0x00),
                gc.DataTuple('detect', 0x00000000),
                gc.DataTuple('fail_drop', 0x0),
            ]
        )

    def sendPacket(self):
        ig_port = 75
        pkt = b'\xC3\x93\x77\xE4\xAF\x47\x6E\x88\xD9\x46\x56\xCB\x91\x00\x09\xFD\x91\x00\x0E\xEE\x91\x00\x00\x00\x88\x48\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x60\x00\x00\x00\x00\x00\xDA\x00\xBB\x19\x5B\xDE\x1F\xDA\xAB\xAD\x7F\x72\x7E\xDF\xAE\x7C\x5C\x2A\xF6\x3C\x58\x29\x23\x6C\xEB\x00\x98\xAE\xFF\x72\xDB\x7B\x53\x7F\xEF\x56\xCE\xC5\xDA\x66\xA9\x93\x24\xAA\xA2\xF5\xE2\x57\x18\xAF\x85\xAB\xAB\x4A\x7C\xB6\x91\x65\x33\x34\xE3\xA1\x82\x35\x85\x40\x2B\x55\xE2\xE1\x41\xD3\x93\x96\x16\xF4\xB1\x86\xC5\x84\x62\x5F\x7A\x88\xC8\xE4\xCA\x1A\x0E\x92\xB8\x69\x10\x45\xD3\xD9\x35\x87\x92\x49\x6A\xF9\x41\xFF\xA7\x66\xBB\x27\x43\xD3\xC3\xF4\x78\x61\x10\x0B\xDA\x51\x17\x55\x22\xDA\xE2\xDA\x1C\xF8\x8F\x26\x12\xFA\x88\x0C\x6E\x43\x0B\x54\xF9\x41\xBD\xF6\x7A\x02\xFC\x7B\x0D\x2F\xD7\x44\xA4\x0A\x02\x9F\xD9\x32\xA2\x87\x85\xAC\xE2\x71\x47\x0B\x3A\x6B\xB8\xBC\xA5\x7F\xC4\x96\x7F\x08\x30\x38\xD8\x53\x8F\xE6\x9B\x30\x7F\x70\x7E\xAF\xA0\x9A\x44\x80\x2B\x7E\x26\x17\xCB\x67\x39\x44\x46\x17\x70\x28\xF5\x82\x7B\x60\x88\x0C\xFF\xF3\x1D\x47\xEB\x51\x56\x3F\x55\xD5\x7C\x55\x50\x69\xD3\x98\xE6\x09\xF0\xBD\xF4\xEB\x0C\xCA\xDF\xB1\x22\x3A\xA2\x21\xD6\xC6\xAB\x46\x0C\x63\xD5\xA5\x75\xFD\x5D\x51\x2C\x5B\x44\x10\x0B\x73\x38\xCE\x62\xBF\xDD\x6F\xB5\x0C\xBB\xF6\xCD\x18\xB8\x59\xC4\xDB\x77\xFF\xBB\xB0\x93\x40\xAD\xBA\xDE\xF5\xBB\x24\xE9\x4E\x15\x6A\x39\x57\xEB\x04\x07\xE6\x8D\x24\x7B\xE3\x55\x5A\xDD\xBC\x30\xF1\x16\x4E\x3D\xC7\xFD\x95\xD3\x04\x07\xA0\x33\xA6\xB9\x3E\x7C\x61\x63\x59\x0B\x5E\x00\x48\x3E\xA3\x22\x38\x39\xC8\x50\xCE\xB3\xC6\xB2\x23\x60\xE6\x05\x38\x5E\x2D\x31\x72\x52\x90\x85\x3A\x55\x3B\x1D\x7B\xBE\x24\x66\xCB\x51\x52\x3B\x2C\x11\xFE\x0C\xF3\x6B\x08\xD6\x85\xE5\x9F\x98\x34\xEE\x4B\x66\xD4\x4D\xDB\xC9\xF5\x22\x39\x2E\xA0\x96\xFD\xB5\x36\x22\xC6\x8F\xC2\xB4\xF5\xB5\x89\xFD\xA1\x73\xA0\xE5\xFA\xFD\x70\x7E\x60\xCF\x40\xBE\x2B\x17\x7B\x5C\x7A\x22\x2F\x0C\x34\xDA\x21\xF5\x87\x7E\x4F\xA3\x9D\x99\xB7\x16\x7D\xB4\x8D\xAD\xF2\xA1\xEB\x17\xAD\x76\xB5\x4F\xD8\xE5\x61\xDD\x1A\xA2\x74\xF0\x8F\x69\x00\x2E\x48\xC9\x6D\x87\xA0\x02\xC0\x8A\x8E\x6D\x2C\xD3\xC7\x96\xBB\xA4\x39\x45\xF4\xC1\x61\x00\x31\x84\xC2\x93\x29\x4D\xEF\xA8\xB3\x5D\x88\xC3\x58\x8F\x70\x0C\x86\x4C\xA5\x80\x92\xDB\x7A\x43\xCC\x70\xB5\x54\x82\x83\xD6\x2B\x88\xC8\x42\x74\xE4\x4B\x09\x6C\xAA\xEB\x81\x25\x26\xCA\x0A\xC1\xE5\xF2\xEA\xDA\xC2\x63\x22\x39\x20\x9F\x0E\xB3\x43\x9E\x13\x46\x0E\xF0\xA8\x48\x8A\xC8\xA5\xA0\x1D\x06\x26\xB6\x73\x25\x03\xB0\x79\x20\xFB\x09\x1A\xC3\xC8\x22\x1F\xAA\x64\x5C\x5E\xF5\xFB\x21\xF2\xB7'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        pass

    def runTest(self):
        self.runTestImpl()


class Test10(AbstractTest):
    # Date generated: 2026-12-07-20:54:50.805
    # Current statement coverage: 0.63
    '''
    [P4Testgen MethodCall]: *.StartIngress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(0);
    [PrependToProgramHeader]: 0
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*ig_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    resubmit_flag:0;  _pad1:0;  packet_version:0;  _pad2:0;  ingress_port:74;  ingress_mac_tstamp:0;  }
    [P4Testgen MethodCall]: *.copy_in("IngressParser");
    [Parser] IngressParser
    [State] start
    [MethodCall]: pkt.extract<ingress_intrinsic_metadata_t>(ig_intr_md);
    [ExtractSuccess] ig_intr_md@0 | Condition: |*packetLen_bits(bit<32>)| >= 64; | Extract Size: 64 -> ig_intr_md.resubmit_flag = 0x0 | ig_intr_md._pad1 = 0x0 | ig_intr_md.packet_version = 0x0 | ig_intr_md._pad2 = 0x0 | ig_intr_md.ingress_port = 0x04A | ig_intr_md.ingress_mac_tstamp = Taint
    [AssignmentStatement]: md.eth_type = 0;| Computed: md.eth_type = 0;
    [AssignmentStatement]: md.copy_pipe = ig_intr_md.ingress_port[8:7];| Computed: md.copy_pipe = 0;
    [AssignmentStatement]: md.proof_copy = false;| Computed: md.proof_copy = false;
    [State] parse_port_metadata
    [MethodCall]: pkt.advance(64);
    [Advance Condition: |*packetLen_bits(bit<32>)| >= 64;]
    [State] parse_port
    [State] parse_ethernet
    [MethodCall]: pkt.extract<ethernet_t>(hdr.ethernet);
    [ExtractSuccess] hdr.ethernet@0 | Condition: |*packetLen_bits(bit<32>)| >= 96; | Extract Size: 96 -> hdr.ethernet.dst_addr = 0x916D_779F_DB8E | hdr.ethernet.src_addr = 0xEAED_0917_8F7F
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 112;]
    [P4Testgen AssignmentStatement]: tmp_0 = 37120;
    [State] parse_vlan_0
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[0]);
    [ExtractSuccess] hdr.vlan[0]@96 | Condition: |*packetLen_bits(bit<32>)| >= 128; | Extract Size: 32 -> hdr.vlan[0].tpid = 0x9100 | hdr.vlan[0].pcp = 0x0 | hdr.vlan[0].dei = 0x0 | hdr.vlan[0].vid = 0xEB7
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 144;]
    [P4Testgen AssignmentStatement]: tmp_4 = 37120;
    [State] parse_vlan_1
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[1]);
    [ExtractSuccess] hdr.vlan[1]@128 | Condition: |*packetLen_bits(bit<32>)| >= 160; | Extract Size: 32 -> hdr.vlan[1].tpid = 0x9100 | hdr.vlan[1].pcp = 0x0 | hdr.vlan[1].dei = 0x0 | hdr.vlan[1].vid = 0xF9D
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 176;]
    [P4Testgen AssignmentStatement]: tmp_6 = 37120;
    [State] parse_vlan_2
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[2]);
    [ExtractSuccess] hdr.vlan[2]@160 | Condition: |*packetLen_bits(bit<32>)| >= 192; | Extract Size: 32 -> hdr.vlan[2].tpid = 0x9100 | hdr.vlan[2].pcp = 0x0 | hdr.vlan[2].dei = 0x0 | hdr.vlan[2].vid = 0x000
    [State] parse_eth_type
    [MethodCall]: pkt.extract<eth_type_t>(hdr.eth_type);
    [ExtractSuccess] hdr.eth_type@192 | Condition: |*packetLen_bits(bit<32>)| >= 208; | Extract Size: 16 -> hdr.eth_type.value = 0x8848
    [AssignmentStatement]: md.eth_type = hdr.eth_type.value;| Computed: md.eth_type = 34888;
    [State] parse_mpls_0
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[0]);
    [ExtractSuccess] hdr.mpls[0]@208 | Condition: |*packetLen_bits(bit<32>)| >= 240; | Extract Size: 32 -> hdr.mpls[0].label = 0x0000_0000 | hdr.mpls[0].tc = 0x0 | hdr.mpls[0].bos = 0x0 | hdr.mpls[0].ttl = 0x00
    [State] parse_mpls_1
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[1]);
    [ExtractSuccess] hdr.mpls[1]@240 | Condition: |*packetLen_bits(bit<32>)| >= 272; | Extract Size: 32 -> hdr.mpls[1].label = 0x0000_0000 | hdr.mpls[1].tc = 0x0 | hdr.mpls[1].bos = 0x0 | hdr.mpls[1].ttl = 0x00
    [State] parse_mpls_2
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[2]);
    [ExtractSuccess] hdr.mpls[2]@272 | Condition: |*packetLen_bits(bit<32>)| >= 304; | Extract Size: 32 -> hdr.mpls[2].label = 0x0000_0000 | hdr.mpls[2].tc = 0x0 | hdr.mpls[2].bos = 0x0 | hdr.mpls[2].ttl = 0x00
    [State] parse_mpls_3
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[3]);
    [ExtractSuccess] hdr.mpls[3]@304 | Condition: |*packetLen_bits(bit<32>)| >= 336; | Extract Size: 32 -> hdr.mpls[3].label = 0x0000_0000 | hdr.mpls[3].tc = 0x0 | hdr.mpls[3].bos = 0x1 | hdr.mpls[3].ttl = 0x00
    [State] parse_mpls_payload
    [Lookahead result]: 4
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 340;]
    [P4Testgen AssignmentStatement]: tmp_8 = 4;
    [State] parse_ipv4
    [MethodCall]: pkt.extract<ipv4_t>(hdr.ipv4);
    [ExtractSuccess] hdr.ipv4@336 | Condition: |*packetLen_bits(bit<32>)| >= 496; | Extract Size: 160 -> hdr.ipv4.version = 0x4 | hdr.ipv4.ihl = 0xC | hdr.ipv4.dscp_ecn = 0x00 | hdr.ipv4.total_len = 0x0000 | hdr.ipv4.identification = 0x0000 | hdr.ipv4.flags = 0x0 | hdr.ipv4.frag_offset = 0x0000 | hdr.ipv4.ttl = 0x00 | hdr.ipv4.protocol = 0x06 | hdr.ipv4.hdr_checksum = 0x0000 | hdr.ipv4.src_addr = 0x6C0D_1424 | hdr.ipv4.dst_addr = 0x0249_7623
    [State] parse_ipv4_option_0
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[0]);
    [ExtractSuccess] hdr.ipv4_options[0]@496 | Condition: |*packetLen_bits(bit<32>)| >= 528; | Extract Size: 32 -> hdr.ipv4_options[0].data = 0x0000_0000
    [State] parse_ipv4_option_1
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[1]);
    [ExtractSuccess] hdr.ipv4_options[1]@528 | Condition: |*packetLen_bits(bit<32>)| >= 560; | Extract Size: 32 -> hdr.ipv4_options[1].data = 0x0000_0000
    [State] parse_ipv4_option_2
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[2]);
    [ExtractSuccess] hdr.ipv4_options[2]@560 | Condition: |*packetLen_bits(bit<32>)| >= 592; | Extract Size: 32 -> hdr.ipv4_options[2].data = 0x0000_0000
    [State] parse_ipv4_option_3
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[3]);
    [ExtractSuccess] hdr.ipv4_options[3]@592 | Condition: |*packetLen_bits(bit<32>)| >= 624; | Extract Size: 32 -> hdr.ipv4_options[3].data = 0x0000_0000
    [State] parse_ipv4_option_4
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[4]);
    [ExtractSuccess] hdr.ipv4_options[4]@624 | Condition: |*packetLen_bits(bit<32>)| >= 656; | Extract Size: 32 -> hdr.ipv4_options[4].data = 0x0000_0000
    [State] parse_ipv4_option_5
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[5]);
    [ExtractSuccess] hdr.ipv4_options[5]@656 | Condition: |*packetLen_bits(bit<32>)| >= 688; | Extract Size: 32 -> hdr.ipv4_options[5].data = 0x0000_0000
    [State] parse_ipv4_option_6
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[6]);
    [ExtractSuccess] hdr.ipv4_options[6]@688 | Condition: |*packetLen_bits(bit<32>)| >= 720; | Extract Size: 32 -> hdr.ipv4_options[6].data = 0x0000_0000
    [State] parse_ipv4_l4
    [State] parse_tcp
    [MethodCall]: pkt.extract<tcp_t>(hdr.tcp);
    [ExtractSuccess] hdr.tcp@720 | Condition: |*packetLen_bits(bit<32>)| >= 880; | Extract Size: 160 -> hdr.tcp.src_port = 0xFBA6 | hdr.tcp.dst_port = 0xFDF1 | hdr.tcp.seq_no = 0x0000_0000 | hdr.tcp.ack_no = 0x0000_0000 | hdr.tcp.data_offset = 0x0 | hdr.tcp.res = 0x0 | hdr.tcp.flags = 0x00 | hdr.tcp.window = 0x0000 | hdr.tcp.checksum = 0x0000 | hdr.tcp.urgent_ptr = 0x0000
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("IngressParser");
    [P4Testgen MethodCall]: *.copy_in("BalancerIngress");
    [Control BalancerIngress start]
    [AssignmentStatement]: md.ingress_port = ig_intr_md.ingress_port;| Computed: md.ingress_port = 74;
    [AssignmentStatement]: md.ingress_ts = ig_intr_md.ingress_mac_tstamp;| Computed: md.ingress_ts = "Taint";
    [AssignmentStatement]: md.port_type = PORT_TYPE_UNKNOWN;| Computed: md.port_type = 0;
    [AssignmentStatement]: md.drop = false;| Computed: md.drop = false;
    [AssignmentStatement]: md.to_cpu = false;| Computed: md.to_cpu = false;
    [AssignmentStatement]: md.ka_stamp = false;| Computed: md.ka_stamp = false;
    [AssignmentStatement]: md.drop_reason = DROP_NONE;| Computed: md.drop_reason = 0;
    [AssignmentStatement]: md.count_link = false;| Computed: md.count_link = false;
    [AssignmentStatement]: md.count_fg = false;| Computed: md.count_fg = false;
    [AssignmentStatement]: md.heartbeat = false;| Computed: md.heartbeat = false;
    [AssignmentStatement]: md.balance = false;| Computed: md.balance = false;
    [AssignmentStatement]: md.slot_hit = false;| Computed: md.slot_hit = false;
    [AssignmentStatement]: md.session_hit = false;| Computed: md.session_hit = false;
    [AssignmentStatement]: md.learn = false;| Computed: md.learn = false;
    [AssignmentStatement]: md.count_rx = false;| Computed: md.count_rx = false;
    [AssignmentStatement]: md.malformed = false;| Computed: md.malformed = false;
    [AssignmentStatement]: md.now = ig_prsr_md.global_tstamp[47:16];| Computed: md.now = "Taint";
    [AssignmentStatement]: md.fg_forward = false;| Computed: md.fg_forward = false;
    [AssignmentStatement]: md.ka_send = false;| Computed: md.ka_send = false;
    [AssignmentStatement]: md.ev_send = false;| Computed: md.ev_send = false;
    [AssignmentStatement]: md.ev_return = false;| Computed: md.ev_return = false;
    [AssignmentStatement]: md.ev_index = 0;| Computed: md.ev_index = 0;
    [AssignmentStatement]: md.ev_bucket = 0;| Computed: md.ev_bucket = 0;
    [AssignmentStatement]: md.target_fg = 0;| Computed: md.target_fg = 0;
    [AssignmentStatement]: md.epoch = 0;| Computed: md.epoch = 0;
    [AssignmentStatement]: md.detect = 0;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = 0;| Computed: md.fail_drop = 0;
    [AssignmentStatement]: md.verdict_now = false;| Computed: md.verdict_now = false;
    [AssignmentStatement]: md.digest.reason = VERDICT_REASON_STANDING;| Computed: md.digest.reason = 0;
    [AssignmentStatement]: md.digest.age = 0;| Computed: md.digest.age = 0;
    [AssignmentStatement]: md.verdict_hit = false;| Computed: md.verdict_hit = false;
    [AssignmentStatement]: md.count_verdict = false;| Computed: md.count_verdict = false;
    [AssignmentStatement]: md.verdict_kind = VERDICT_CNT_BYPASS;| Computed: md.verdict_kind = 0;
    [AssignmentStatement]: md.send_digest = false;| Computed: md.send_digest = false;
    [AssignmentStatement]: md.cpu_port = 192;| Computed: md.cpu_port = 192;
    [P4Testgen If Statement]: Condition: false; Result: false
    [MethodCall]: _BalancerIngress_port_role/port_role.apply();
    [Table Branch: BalancerIngress.port_role | Key(s): |tofino_ingress_port(bit<9>)|| Chosen action: BalancerIngress.set_operator_port]
    [MethodCall]: _BalancerIngress_set_operator_port_0/set_operator_port(|BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_side_2(bit<1>)|, |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_peer_port_1(bit<9>)|);
    [AssignmentStatement]: md.port_type = PORT_TYPE_OPERATOR;| Computed: md.port_type = 1;
    [AssignmentStatement]: md.link_id = link_id;| Computed: md.link_id = 31;
    [AssignmentStatement]: md.side = side;| Computed: md.side = 1;
    [AssignmentStatement]: md.peer_port = peer_port;| Computed: md.peer_port = 511;
    [AssignmentStatement]: md.vlan_depth = 0;| Computed: md.vlan_depth = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.vlan_depth = 3;| Computed: md.vlan_depth = 3;
    [AssignmentStatement]: md.mpls_depth = 0;| Computed: md.mpls_depth = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.mpls_depth = 4;| Computed: md.mpls_depth = 4;
    [AssignmentStatement]: md.outer_vid = 0;| Computed: md.outer_vid = 0;
    [AssignmentStatement]: md.inner_vid = 0;| Computed: md.inner_vid = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[0].isValid()) { md.outer_vid = hdr.vlan[0].vid; }| Computed: md.outer_vid = 3767;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[1].isValid()) { md.inner_vid = hdr.vlan[1].vid; }| Computed: md.inner_vid = 3997;
    [AssignmentStatement]: md.is_ipv4 = 0;| Computed: md.is_ipv4 = 0;
    [AssignmentStatement]: md.ipv4_src = 0;| Computed: md.ipv4_src = 0;
    [AssignmentStatement]: md.ipv4_dst = 0;| Computed: md.ipv4_dst = 0;
    [AssignmentStatement]: md.ip_proto = 0;| Computed: md.ip_proto = 0;
    [AssignmentStatement]: md.addr_x = 0;| Computed: md.addr_x = 0;
    [AssignmentStatement]: md.addr_y = 0;| Computed: md.addr_y = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.is_ipv4 = 1;| Computed: md.is_ipv4 = 1;
    [AssignmentStatement]: md.ipv4_src = hdr.ipv4.src_addr;| Computed: md.ipv4_src = 1812796452;
    [AssignmentStatement]: md.ipv4_dst = hdr.ipv4.dst_addr;| Computed: md.ipv4_dst = 38368803;
    [AssignmentStatement]: md.ip_proto = hdr.ipv4.protocol;| Computed: md.ip_proto = 6;
    [AssignmentStatement]: md.addr_x = hdr.ipv4.src_addr;| Computed: md.addr_x = 1812796452;
    [AssignmentStatement]: md.addr_y = hdr.ipv4.dst_addr;| Computed: md.addr_y = 38368803;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [AssignmentStatement]: md.l4_src = 0;| Computed: md.l4_src = 0;
    [AssignmentStatement]: md.l4_dst = 0;| Computed: md.l4_dst = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.l4_src = hdr.tcp.src_port;| Computed: md.l4_src = 64422;
    [AssignmentStatement]: md.l4_dst = hdr.tcp.dst_port;| Computed: md.l4_dst = 65009;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: (ig_prsr_md.parser_err != 0) || (hdr.ipv4.isValid() && hdr.ipv4.ihl < 5) Condition: 0 != 0 || true && |pktvar_32(bit<4>)| < 5; Result: false
    [AssignmentStatement]: md.count_rx = true;| Computed: md.count_rx = true;
    [If Statement]: md.port_type == PORT_TYPE_OPERATOR Condition: 1 == 1; Result: true
    [MethodCall]: _BalancerIngress_heartbeat/heartbeat.apply();
    [Table Branch: BalancerIngress.heartbeat Choosing default action: _BalancerIngress_no_heartbeat_0/no_heartbeat;]
    [MethodCall]: _BalancerIngress_no_heartbeat_0/no_heartbeat();
    [If Statement]: false Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [MethodCall]: _BalancerIngress_flow_rules/flow_rules.apply();
    [Table Branch: BalancerIngress.flow_rules | Key(s): |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |pktvar_5(bit<12>)|, |pktvar_9(bit<12>)|, 3, 4, |pktvar_1(bit<48>)|, |pktvar_0(bit<48>)|, |pktvar_14(bit<16>)|, 1, |pktvar_41(bit<32>)|, |pktvar_42(bit<32>)|, |pktvar_39(bit<8>)|, |pktvar_50(bit<16>)|, |pktvar_51(bit<16>)|| Chosen action: BalancerIngress.balance]
    [MethodCall]: _BalancerIngress_balance_0/balance(|BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|);
    [AssignmentStatement]: md.balance = true;| Computed: md.balance = true;
    [AssignmentStatement]: md.balance_group = group;| Computed: md.balance_group = 11;
    [MethodCall]: _BalancerIngress_flow_rules_counter/flow_rules_counter.count();
    [If Statement]: (md.addr_x < md.addr_y) Condition: |pktvar_41(bit<32>)| < |pktvar_42(bit<32>)|; Result: false
    [AssignmentStatement]: bit<32> lo = (md.addr_x < md.addr_y) ? md.addr_x : md.addr_y;| Computed: session_hash_tmp = 38368803;
    [If Statement]: (md.addr_x < md.addr_y) Condition: |pktvar_41(bit<32>)| < |pktvar_42(bit<32>)|; Result: false
    [AssignmentStatement]: bit<32> hi = (md.addr_x < md.addr_y) ? md.addr_y : md.addr_x;| Computed: session_hash_tmp_0 = 1812796452;
    [AssignmentStatement]: md.hash = sym_hash.get({ lo, hi, md.ip_proto });| Computed: md.hash = 0;
    [AssignmentStatement]: md.sess_lo = lo;| Computed: md.sess_lo = 38368803;
    [AssignmentStatement]: md.sess_hi = hi;| Computed: md.sess_hi = 1812796452;
    [If Statement]: true Condition: true; Result: true
    [If Statement]: (!hdr.ipv4.isValid() && !hdr.ipv6.isValid()) || hdr.core.isValid() Condition: !true && !false || false; Result: false
    [MethodCall]: _BalancerIngress_sessions/sessions.apply();
    [Table Branch: BalancerIngress.sessions | Key(s): |BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|, |pktvar_42(bit<32>)|, |pktvar_41(bit<32>)|, |pktvar_39(bit<8>)|| Chosen action: BalancerIngress.keep]
    [MethodCall]: _BalancerIngress_keep_0/keep(|BalancerIngress.sessions_BalancerIngress.keep_arg_filter_group_5(bit<6>)|, |BalancerIngress.sessions_BalancerIngress.keep_arg_core_3(bit<10>)|);
    [AssignmentStatement]: md.session_hit = true;| Computed: md.session_hit = true;
    [AssignmentStatement]: md.sess_fg = filter_group;| Computed: md.sess_fg = 0;
    [AssignmentStatement]: md.sess_core = core;| Computed: md.sess_core = 0;
    [MethodCall]: _BalancerIngress_balance_groups/balance_groups.apply();
    [Table Branch: BalancerIngress.balance_groups | Key(s): |BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|| Chosen action: BalancerIngress.group_active]
    [MethodCall]: _BalancerIngress_group_active_0/group_active(|BalancerIngress.balance_groups_BalancerIngress.group_active_arg_slot_mask_1(bit<16>)|);
    [AssignmentStatement]: md.slot_mask = slot_mask;| Computed: md.slot_mask = 0;
    [AssignmentStatement]: md.slot = md.hash[15:0] & slot_mask;| Computed: md.slot = 0;
    [SwitchCase]: group_active
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: md.target_fg = md.sess_fg;| Computed: md.target_fg = 0;
    [AssignmentStatement]: md.core = md.sess_core;| Computed: md.core = 0;
    [AssignmentStatement]: md.slot_hit = true;| Computed: md.slot_hit = true;
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_core_counters/core_counters.count((bit<32>)(md.target_fg ++ md.core));
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: port_t named = md.out_port;| Computed: filter_groups_ctl_named/named = 0;
    [MethodCall]: _BalancerIngress_filter_groups/filter_groups.apply();
    [Table Branch: BalancerIngress.filter_groups | Key(s): |BalancerIngress.sessions_BalancerIngress.keep_arg_filter_group_5(bit<6>)|| Chosen action: BalancerIngress.filter_forward]
    [MethodCall]: _BalancerIngress_filter_forward_0/filter_forward(|BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_lan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_wan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_tpid_1(bit<16>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_detect_1(bit<32>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_fail_drop_1(bit<1>)|);
    [AssignmentStatement]: md.epoch = epoch;| Computed: md.epoch = 223;
    [AssignmentStatement]: md.detect = detect;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = fail_drop;| Computed: md.fail_drop = 0;
    [AssignmentStatement]: md.fg_forward = true;| Computed: md.fg_forward = true;
    [AssignmentStatement]: md.ev_index = md.target_fg ++ md.side;| Computed: md.ev_index = 1;
    [AssignmentStatement]: md.digest.filter_group = (bit<8>)md.target_fg;| Computed: md.digest.filter_group = 0;
    [AssignmentStatement]: md.digest.direction = (bit<8>)md.side;| Computed: md.digest.direction = 1;
    [AssignmentStatement]: md.digest.epoch = epoch;| Computed: md.digest.epoch = 223;
    [AssignmentStatement]: md.deadline = md.now + (detect);| Computed: md.deadline = "Taint";
    [AssignmentStatement]: md.fg_lan_port = lan_port;| Computed: md.fg_lan_port = 0;
    [AssignmentStatement]: md.fg_wan_port = wan_port;| Computed: md.fg_wan_port = 0;
    [AssignmentStatement]: md.tpid = tpid;| Computed: md.tpid = 0;
    [AssignmentStatement]: md.count_fg = true;| Computed: md.count_fg = true;
    [AssignmentStatement]: md.fg_index = md.target_fg;| Computed: md.fg_index = 0;
    [AssignmentStatement]: md.count_link = true;| Computed: md.count_link = true;
    [AssignmentStatement]: md.link_kind = LINK_CNT_TO_FILTER;| Computed: md.link_kind = 0;
    [AssignmentStatement]: md.fg_kind = FG_CNT_TO_FILTER;| Computed: md.fg_kind = 0;
    [SwitchCase]: filter_forward
    [AssignmentStatement]: md.ev_send = true;| Computed: md.ev_send = true;
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.core.setValid();
    [AssignmentStatement]: hdr.core.tpid = md.tpid;| Computed: hdr.core.tpid = 0;
    [AssignmentStatement]: hdr.core.link_id = md.link_id;| Computed: hdr.core.link_id = 31;
    [AssignmentStatement]: hdr.core.core_id = md.core;| Computed: hdr.core.core_id = 0;
    [If Statement]: md.side == SIDE_LAN Condition: |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_side_2(bit<1>)| == 0; Result: false
    [AssignmentStatement]: md.out_port = md.fg_wan_port;| Computed: md.out_port = 0;
    [AssignmentStatement]: md.ev_bucket = md.hash[20:16];| Computed: md.ev_bucket = 0;
    [MethodCall]: verdict_ctl_verdict_cell/verdict_cell.apply();
    [Constant Table Branch: BalancerIngress.verdict_ctl.verdict_cell | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: cell_read()]
    [MethodCall]: verdict_ctl_cell_read_0/cell_read();
    [AssignmentStatement]: rv = v;| Computed: rv = 32991;
    [AssignmentStatement]: md.cell = verdict_read.execute(md.target_fg);| Computed: md.cell = 32991;
    [If Statement]: true Condition: true; Result: true
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: md.cell[15:8] == VERDICT_SET[15:8] && md.cell[7:0] == md.epoch Condition: |.BalancerIngress.verdict(bit<16>)|[15:8] == 128 && |.BalancerIngress.verdict(bit<16>)|[7:0] == |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|; Result: true
    [AssignmentStatement]: md.verdict_hit = true;| Computed: md.verdict_hit = true;
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: md.send_digest = true;| Computed: md.send_digest = true;
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.core.setInvalid();
    [AssignmentStatement]: md.count_verdict = true;| Computed: md.count_verdict = true;
    [If Statement]: md.fail_drop == FAIL_DROP Condition: |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_fail_drop_1(bit<1>)| == 1; Result: false
    [AssignmentStatement]: { md.out_port = md.peer_port; md.count_link = true; md.link_kind = (LINK_CNT_SW_BYPASS); };| Computed: md.out_port = 511;
    [AssignmentStatement]: { md.out_port = md.peer_port; md.count_link = true; md.link_kind = (LINK_CNT_SW_BYPASS); };| Computed: md.count_link = true;
    [AssignmentStatement]: { md.out_port = md.peer_port; md.count_link = true; md.link_kind = (LINK_CNT_SW_BYPASS); };| Computed: md.link_kind = 3;
    [AssignmentStatement]: md.fg_kind = FG_CNT_SW_BYPASS;| Computed: md.fg_kind = 3;
    [AssignmentStatement]: md.verdict_kind = VERDICT_CNT_BYPASS;| Computed: md.verdict_kind = 0;
    [MethodCall]: testgen_assume(md.fg_forward && !md.ka_send);
    [Assume: applying condition: true && !false;]
    [AssignmentStatement]: md.copy_slot = md.now[31:4];| Computed: md.copy_slot = "Taint";
    [MethodCall]: evidence_copy_ctl_ev_copy_session/ev_copy_session.apply();
    [Constant Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_session | Key(s): |tofino_ingress_port(bit<9>)|[8:7]; | Chosen action: copy_session_of(10w960) | Arg(s): 960]
    [MethodCall]: evidence_copy_ctl_copy_session_of_0/copy_session_of(960);
    [AssignmentStatement]: md.copy_session = session;| Computed: md.copy_session = 960;
    [MethodCall]: evidence_copy_ctl_ev_copy_step/ev_copy_step.apply();
    [Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_step Choosing default action: evidence_copy_ctl_copy_none_0/copy_none;]
    [MethodCall]: evidence_copy_ctl_copy_none_0/copy_none();
    [MethodCall]: evidence_ctl_ev_time_step/ev_time_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_time_step | Key(s): (bit<1>)false;, (bit<1>)true;, (bit<1>)false; | Chosen action: ev_time_of_send()]
    [MethodCall]: evidence_ctl_ev_time_of_send_0/ev_time_of_send();
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.deadline;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.deadline;| Computed: v.second = "Taint";
    [AssignmentStatement]: rv = v.first;| Computed: rv = "Taint";
    [AssignmentStatement]: md.tag = ev_time_send.execute(md.ev_index);| Computed: md.tag = "Taint";
    [MethodCall]: evidence_ctl_ev_ka_step/ev_ka_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_ka_step | Key(s): (bit<1>)false;, (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: ev_ka_of_data()]
    [MethodCall]: evidence_ctl_ev_ka_of_data_0/ev_ka_of_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: rv = md.now - v;| Computed: rv = "Taint";
    [AssignmentStatement]: md.ka_overdue = ev_ka_send_data.execute(md.ev_index);| Computed: md.ka_overdue = "Taint";
    [AssignmentStatement]: md.overdue = md.now - md.tag;| Computed: md.overdue = "Taint";
    [MethodCall]: evidence_ctl_ev_seen_step/ev_seen_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_seen_step | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: ev_seen_of_data()]
    [MethodCall]: evidence_ctl_ev_seen_of_data_0/ev_seen_of_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: v = md.tag;| Computed: v = "Taint";
    [AssignmentStatement]: rv = 1;| Computed: rv = 1;
    [AssignmentStatement]: md.fresh = ev_seen_mark.execute(md.ev_index ++ md.ev_bucket);| Computed: md.fresh = "Taint";
    [MethodCall]: evidence_ctl_ev_count_step/ev_count_step.apply();
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_expired_data_0/ev_count_of_expired_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [Tainted If Statement]: 
    [AssignmentStatement]: rv = 1;| Computed: rv = 1;
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: ig_dprsr_md.resubmit_type = ev_count_proof.execute(md.ev_index);| Computed: ig_dprsr_md.resubmit_type = "Taint";
    [MethodCall]: md.resub.setValid();
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 223;
    [AssignmentStatement]: md.resub.reason = VERDICT_REASON_DATA;| Computed: md.resub.reason = 2;
    [AssignmentStatement]: md.resub.overdue = md.overdue;| Computed: md.resub.overdue = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_keepalive_proof_0/ev_count_of_keepalive_proof();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: ig_dprsr_md.resubmit_type = 1;| Computed: ig_dprsr_md.resubmit_type = 1;
    [MethodCall]: md.resub.setValid();
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 223;
    [AssignmentStatement]: md.resub.reason = VERDICT_REASON_KEEPALIVE;| Computed: md.resub.reason = 1;
    [AssignmentStatement]: md.resub.overdue = md.ka_overdue;| Computed: md.resub.overdue = "Taint";
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_port_rx/port_rx.count((bit<32>)ig_intr_md.ingress_port);
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_link_counters/link_counters.count((bit<32>)(md.link_id ++ md.link_kind));
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_filter_group_counters/filter_group_counters.count((bit<32>)(md.fg_index ++ md.fg_kind));
    [If Statement]: false Condition: false; Result: false
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_verdict_counters/verdict_counters.count((bit<32>)(md.target_fg ++ md.verdict_kind));
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.bridged.setValid();
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.to_cpu = 0;
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.ka_stamp = 0;
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_dprsr_md.digest_type = 1;
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_tm_md.ucast_egress_port = 511;
    [P4Testgen MethodCall]: *.copy_out("BalancerIngress");
    [P4Testgen MethodCall]: *.copy_in("IngressDeparser");
    [Control IngressDeparser start]
    [If Statement]: ig_dprsr_md.digest_type == 2 Condition: 1 == 2; Result: false
    [If Statement]: ig_dprsr_md.digest_type == 1 Condition: 1 == 1; Result: true
    [MethodCall]: verdict_digest_0/verdict_digest.pack(md.digest);
    [MethodCall]: pkt.emit<bridged_md_t>(hdr.bridged);
    [Emit]: {$headerValid:true;;    _pad0:0;  to_cpu:0;  ka_stamp:0;  }
    [MethodCall]: pkt.emit<packet_in_t>(hdr.packet_in);
    [Invalid emit: { ingress_port = TaintedExpression(bit<9>), _pad0 = TaintedExpression(bit<7>), reason = TaintedExpression(bit<8>), rx_timestamp = TaintedExpression(bit<48>) }]
    [MethodCall]: pkt.emit<ethernet_t>(hdr.ethernet);
    [Emit]: {$headerValid:true;;    dst_addr:159899344427918;  src_addr:258303780687743;  }
    [MethodCall]: pkt.emit<core_t>(hdr.core);
    [Invalid emit: { tpid = TaintedExpression(bit<16>), link_id = TaintedExpression(bit<6>), core_id = TaintedExpression(bit<10>) }]
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[0]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:3767;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[1]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:3997;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[2]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:0;  }
    [MethodCall]: pkt.emit<eth_type_t>(hdr.eth_type);
    [Emit]: {$headerValid:true;;    value:34888;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[0]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:0;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[1]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:0;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[2]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:0;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[3]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:1;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[4]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[5]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[6]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[7]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<pppoe_t>(hdr.pppoe);
    [Invalid emit: { version = TaintedExpression(bit<4>), type = TaintedExpression(bit<4>), code = TaintedExpression(bit<8>), session_id = TaintedExpression(bit<16>), length = TaintedExpression(bit<16>), protocol = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<ipv4_t>(hdr.ipv4);
    [Emit]: {$headerValid:true;;    version:4;  ihl:12;  dscp_ecn:0;  total_len:0;  identification:0;  flags:0;  frag_offset:0;  ttl:0;  protocol:6;  hdr_checksum:0;  src_addr:1812796452;  dst_addr:38368803;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[0]);
    [Emit]: {$headerValid:true;;    data:0;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[1]);
    [Emit]: {$headerValid:true;;    data:0;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[2]);
    [Emit]: {$headerValid:true;;    data:0;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[3]);
    [Emit]: {$headerValid:true;;    data:0;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[4]);
    [Emit]: {$headerValid:true;;    data:0;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[5]);
    [Emit]: {$headerValid:true;;    data:0;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[6]);
    [Emit]: {$headerValid:true;;    data:0;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[7]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[8]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[9]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv6_t>(hdr.ipv6);
    [Invalid emit: { version = TaintedExpression(bit<4>), traffic_class = TaintedExpression(bit<8>), flow_label = TaintedExpression(bit<20>), payload_len = TaintedExpression(bit<16>), next_hdr = TaintedExpression(bit<8>), hop_limit = TaintedExpression(bit<8>), src_addr = TaintedExpression(bit<128>), dst_addr = TaintedExpression(bit<128>) }]
    [MethodCall]: pkt.emit<tcp_t>(hdr.tcp);
    [Emit]: {$headerValid:true;;    src_port:64422;  dst_port:65009;  seq_no:0;  ack_no:0;  data_offset:0;  res:0;  flags:0;  window:0;  checksum:0;  urgent_ptr:0;  }
    [MethodCall]: pkt.emit<udp_t>(hdr.udp);
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), length = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<keepalive_t>(hdr.keepalive);
    [Invalid emit: { magic = TaintedExpression(bit<32>), version = TaintedExpression(bit<8>), direction = TaintedExpression(bit<8>), filter_group = TaintedExpression(bit<16>), seq = TaintedExpression(bit<32>), tx_timestamp = TaintedExpression(bit<64>) }]
    [P4Testgen MethodCall]: *.copy_out("IngressDeparser");
    [P4Testgen AssignmentStatement]: *eg_intr_md.egress_port = 511;
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    [Drop packet smaller than 240 for PTF.]: 2096
    [P4Testgen MethodCall]: *.tofino_drop();
    [Packet marked dropped.]
    '''

    def setupCtrlPlane(self):
        self.setRegisterValue('BalancerIngress.verdict', 0x80DF, 0)
        self.setRegisterValue('BalancerIngress.ev_time', [('BalancerIngress.ev_time.first', 0x00000000), ('BalancerIngress.ev_time.second', 0x00000000)], 1)
        self.setRegisterValue('BalancerIngress.ev_ka', 0x00000000, 1)
        self.setRegisterValue('BalancerIngress.ev_seen', 0x00000000, 32)
        self.setRegisterValue('BalancerIngress.ev_count', [('BalancerIngress.ev_count.first', 0x00000000), ('BalancerIngress.ev_count.second', 0x00000000)], 1)
        # Table BalancerIngress.port_role
        self.insertTableEntry(
            'BalancerIngress.port_role',
            [
                gc.KeyTuple('port', 0x04A),
            ],
            'BalancerIngress.set_operator_port',
            [
                gc.DataTuple('link_id', 0x1F),
                gc.DataTuple('side', 0x1),
                gc.DataTuple('peer_port', 0x1FF),
            ]
        )
        # Table BalancerIngress.flow_rules
        self.insertTableEntry(
            'BalancerIngress.flow_rules',
            [
                gc.KeyTuple('link_id', 0x19, 0x39),
                gc.KeyTuple('outer_vid', 0x7A5, 0x6ED),
                gc.KeyTuple('inner_vid', 0x79D, 0x4F7),
                gc.KeyTuple('vlan_depth', 0x1, 0x1),
                gc.KeyTuple('mpls_depth', 0xF, 0x4),
                gc.KeyTuple('src_mac', 0xAEC489868F73, 0xB0D07946EFE3),
                gc.KeyTuple('dst_mac', 0xBD0D759D9BCF, 0x939FCD798FBC),
                gc.KeyTuple('eth_type', 0x614B, 0x1628),
                gc.KeyTuple('is_ipv4', 0x1, 0x1),
                gc.KeyTuple('ipv4_src', 0x5F4D5466, 0xC80B8E95),
                gc.KeyTuple('ipv4_dst', 0x8630F62D, 0x3B021F71),
                gc.KeyTuple('ip_proto', 0xDE, 0x21),
                gc.KeyTuple('l4_src', 0x7B76, 0x7B2E),
                gc.KeyTuple('l4_dst', 0xDF33, 0x5C29),
            ],
            'BalancerIngress.balance',
            [
                gc.DataTuple('group', 0xB),
            ]
        )
        # Table BalancerIngress.sessions
        self.insertTableEntry(
            'BalancerIngress.sessions',
            [
                gc.KeyTuple('balance_group', 0xB),
                gc.KeyTuple('addr_lo', 0x02497623),
                gc.KeyTuple('addr_hi', 0x6C0D1424),
                gc.KeyTuple('proto', 0x06),
            ],
            'BalancerIngress.keep',
            [
                gc.DataTuple('filter_group', 0x00),
                gc.DataTuple('core', 0x000),
            ]
        )
        # Table BalancerIngress.balance_groups
        self.insertTableEntry(
            'BalancerIngress.balance_groups',
            [
                gc.KeyTuple('balance_group', 0xB),
            ],
            'BalancerIngress.group_active',
            [
                gc.DataTuple('slot_mask', 0x0000),
            ]
        )
        # Table BalancerIngress.filter_groups
        self.insertTableEntry(
            'BalancerIngress.filter_groups',
            [
                gc.KeyTuple('filter_group', 0x00),
            ],
            'BalancerIngress.filter_forward',
            [
                gc.DataTuple('lan_port', 0x000),
                gc.DataTuple('wan_port', 0x000),
                gc.DataTuple('tpid', 0x0000),
                gc.DataTuple('epoch', 0xDF),
                gc.DataTuple('detect', 0x00000000),
                gc.DataTuple('fail_drop', 0x0),
            ]
        )

    def sendPacket(self):
        ig_port = 74
        pkt = b'\x91\x6D\x77\x9F\xDB\x8E\xEA\xED\x09\x17\x8F\x7F\x91\x00\x0E\xB7\x91\x00\x0F\x9D\x91\x00\x00\x00\x88\x48\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x4C\x00\x00\x00\x00\x00\x00\x00\x00\x06\x00\x00\x6C\x0D\x14\x24\x02\x49\x76\x23\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xFB\xA6\xFD\xF1\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x14\x16\x72\xE9\x2E\x1C\xBA\x86\x3D\x8D\xA7\x2F\x63\x4A\x5D\xF5\x50\x00\x55\x17\x73\xA1\xDD\x67\x29\x06\xFE\xE0\x41\xCB\x09\x7C\x5C\xA2\xB5\xFD\x67\x2B\x2F\xD7\x66\x89\x46\xD4\xAA\xCC\xC6\x06\x76\x66\x51\x8E\x91\x48\x24\xE0\xCC\x84\x4E\x35\xEF\x8B\x13\x4A\x99\xCC\xD2\x93\xF8\xF9\x7E\x0B\x05\xD0\x53\x31\x73\xD7\x23\x6E\x4D\x24\x8D\x55\xAA\x7F\xC8\x76\x0A\x3F\x06\x78\x10\x47\xAD\xB2\xF0\x53\x90\xA7\xE2\xA5\x58\x62\x79\xD8\x8C\xD2\x53\x19\xC9\xF2\xBE\x8E\x54\x16\x8A\x8F\x01\xDC\x5C\xFC\xFA\x58\x08\x55\x26\xFE\x35\x17\x48\x7C\x00\x7F\x62\x2F\x5F\x60\x59\x44\xDD\x80\x52\x63\x11\xD2\xCA\x47\x2F\xF1\x5C'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        pass

    def runTest(self):
        self.runTestImpl()


class Test14(AbstractTest):
    # Date generated: 2026-12-07-20:56:13.687
    # Current statement coverage: 0.64
    '''
    [P4Testgen MethodCall]: *.StartIngress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(0);
    [PrependToProgramHeader]: 0
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*ig_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    resubmit_flag:0;  _pad1:0;  packet_version:0;  _pad2:0;  ingress_port:65;  ingress_mac_tstamp:0;  }
    [P4Testgen MethodCall]: *.copy_in("IngressParser");
    [Parser] IngressParser
    [State] start
    [MethodCall]: pkt.extract<ingress_intrinsic_metadata_t>(ig_intr_md);
    [ExtractSuccess] ig_intr_md@0 | Condition: |*packetLen_bits(bit<32>)| >= 64; | Extract Size: 64 -> ig_intr_md.resubmit_flag = 0x0 | ig_intr_md._pad1 = 0x0 | ig_intr_md.packet_version = 0x0 | ig_intr_md._pad2 = 0x0 | ig_intr_md.ingress_port = 0x041 | ig_intr_md.ingress_mac_tstamp = Taint
    [AssignmentStatement]: md.eth_type = 0;| Computed: md.eth_type = 0;
    [AssignmentStatement]: md.copy_pipe = ig_intr_md.ingress_port[8:7];| Computed: md.copy_pipe = 0;
    [AssignmentStatement]: md.proof_copy = false;| Computed: md.proof_copy = false;
    [State] parse_port_metadata
    [MethodCall]: pkt.advance(64);
    [Advance Condition: |*packetLen_bits(bit<32>)| >= 64;]
    [State] parse_port
    [State] parse_ethernet
    [MethodCall]: pkt.extract<ethernet_t>(hdr.ethernet);
    [ExtractSuccess] hdr.ethernet@0 | Condition: |*packetLen_bits(bit<32>)| >= 96; | Extract Size: 96 -> hdr.ethernet.dst_addr = 0x9DEB_F379_B28C | hdr.ethernet.src_addr = 0x5638_E3E3_697B
    [Lookahead result]: 33024
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 112;]
    [P4Testgen AssignmentStatement]: tmp_0 = 33024;
    [State] parse_vlan_0
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[0]);
    [ExtractSuccess] hdr.vlan[0]@96 | Condition: |*packetLen_bits(bit<32>)| >= 128; | Extract Size: 32 -> hdr.vlan[0].tpid = 0x8100 | hdr.vlan[0].pcp = 0x0 | hdr.vlan[0].dei = 0x0 | hdr.vlan[0].vid = 0x5EF
    [Lookahead result]: 34984
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 144;]
    [P4Testgen AssignmentStatement]: tmp_4 = 34984;
    [State] parse_vlan_1
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[1]);
    [ExtractSuccess] hdr.vlan[1]@128 | Condition: |*packetLen_bits(bit<32>)| >= 160; | Extract Size: 32 -> hdr.vlan[1].tpid = 0x88A8 | hdr.vlan[1].pcp = 0x0 | hdr.vlan[1].dei = 0x0 | hdr.vlan[1].vid = 0xCF7
    [Lookahead result]: 34887
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 176;]
    [P4Testgen AssignmentStatement]: tmp_6 = 34887;
    [State] parse_eth_type
    [MethodCall]: pkt.extract<eth_type_t>(hdr.eth_type);
    [ExtractSuccess] hdr.eth_type@160 | Condition: |*packetLen_bits(bit<32>)| >= 176; | Extract Size: 16 -> hdr.eth_type.value = 0x8847
    [AssignmentStatement]: md.eth_type = hdr.eth_type.value;| Computed: md.eth_type = 34887;
    [State] parse_mpls_0
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[0]);
    [ExtractSuccess] hdr.mpls[0]@176 | Condition: |*packetLen_bits(bit<32>)| >= 208; | Extract Size: 32 -> hdr.mpls[0].label = 0x0000_0000 | hdr.mpls[0].tc = 0x0 | hdr.mpls[0].bos = 0x0 | hdr.mpls[0].ttl = 0x00
    [State] parse_mpls_1
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[1]);
    [ExtractSuccess] hdr.mpls[1]@208 | Condition: |*packetLen_bits(bit<32>)| >= 240; | Extract Size: 32 -> hdr.mpls[1].label = 0x0000_0000 | hdr.mpls[1].tc = 0x0 | hdr.mpls[1].bos = 0x1 | hdr.mpls[1].ttl = 0x00
    [State] parse_mpls_payload
    [Lookahead result]: 4
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 244;]
    [P4Testgen AssignmentStatement]: tmp_8 = 4;
    [State] parse_ipv4
    [MethodCall]: pkt.extract<ipv4_t>(hdr.ipv4);
    [ExtractSuccess] hdr.ipv4@240 | Condition: |*packetLen_bits(bit<32>)| >= 400; | Extract Size: 160 -> hdr.ipv4.version = 0x4 | hdr.ipv4.ihl = 0x5 | hdr.ipv4.dscp_ecn = 0x00 | hdr.ipv4.total_len = 0x0000 | hdr.ipv4.identification = 0x0000 | hdr.ipv4.flags = 0x0 | hdr.ipv4.frag_offset = 0x0000 | hdr.ipv4.ttl = 0x00 | hdr.ipv4.protocol = 0x06 | hdr.ipv4.hdr_checksum = 0x0000 | hdr.ipv4.src_addr = 0xFD7A_49BD | hdr.ipv4.dst_addr = 0xBF7C_ECE6
    [State] parse_ipv4_l4
    [State] parse_tcp
    [MethodCall]: pkt.extract<tcp_t>(hdr.tcp);
    [ExtractSuccess] hdr.tcp@400 | Condition: |*packetLen_bits(bit<32>)| >= 560; | Extract Size: 160 -> hdr.tcp.src_port = 0xE8AC | hdr.tcp.dst_port = 0xFD7D | hdr.tcp.seq_no = 0x0000_0000 | hdr.tcp.ack_no = 0x0000_0000 | hdr.tcp.data_offset = 0x0 | hdr.tcp.res = 0x0 | hdr.tcp.flags = 0x00 | hdr.tcp.window = 0x0000 | hdr.tcp.checksum = 0x0000 | hdr.tcp.urgent_ptr = 0x0000
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("IngressParser");
    [P4Testgen MethodCall]: *.copy_in("BalancerIngress");
    [Control BalancerIngress start]
    [AssignmentStatement]: md.ingress_port = ig_intr_md.ingress_port;| Computed: md.ingress_port = 65;
    [AssignmentStatement]: md.ingress_ts = ig_intr_md.ingress_mac_tstamp;| Computed: md.ingress_ts = "Taint";
    [AssignmentStatement]: md.port_type = PORT_TYPE_UNKNOWN;| Computed: md.port_type = 0;
    [AssignmentStatement]: md.drop = false;| Computed: md.drop = false;
    [AssignmentStatement]: md.to_cpu = false;| Computed: md.to_cpu = false;
    [AssignmentStatement]: md.ka_stamp = false;| Computed: md.ka_stamp = false;
    [AssignmentStatement]: md.drop_reason = DROP_NONE;| Computed: md.drop_reason = 0;
    [AssignmentStatement]: md.count_link = false;| Computed: md.count_link = false;
    [AssignmentStatement]: md.count_fg = false;| Computed: md.count_fg = false;
    [AssignmentStatement]: md.heartbeat = false;| Computed: md.heartbeat = false;
    [AssignmentStatement]: md.balance = false;| Computed: md.balance = false;
    [AssignmentStatement]: md.slot_hit = false;| Computed: md.slot_hit = false;
    [AssignmentStatement]: md.session_hit = false;| Computed: md.session_hit = false;
    [AssignmentStatement]: md.learn = false;| Computed: md.learn = false;
    [AssignmentStatement]: md.count_rx = false;| Computed: md.count_rx = false;
    [AssignmentStatement]: md.malformed = false;| Computed: md.malformed = false;
    [AssignmentStatement]: md.now = ig_prsr_md.global_tstamp[47:16];| Computed: md.now = "Taint";
    [AssignmentStatement]: md.fg_forward = false;| Computed: md.fg_forward = false;
    [AssignmentStatement]: md.ka_send = false;| Computed: md.ka_send = false;
    [AssignmentStatement]: md.ev_send = false;| Computed: md.ev_send = false;
    [AssignmentStatement]: md.ev_return = false;| Computed: md.ev_return = false;
    [AssignmentStatement]: md.ev_index = 0;| Computed: md.ev_index = 0;
    [AssignmentStatement]: md.ev_bucket = 0;| Computed: md.ev_bucket = 0;
    [AssignmentStatement]: md.target_fg = 0;| Computed: md.target_fg = 0;
    [AssignmentStatement]: md.epoch = 0;| Computed: md.epoch = 0;
    [AssignmentStatement]: md.detect = 0;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = 0;| Computed: md.fail_drop = 0;
    [AssignmentStatement]: md.verdict_now = false;| Computed: md.verdict_now = false;
    [AssignmentStatement]: md.digest.reason = VERDICT_REASON_STANDING;| Computed: md.digest.reason = 0;
    [AssignmentStatement]: md.digest.age = 0;| Computed: md.digest.age = 0;
    [AssignmentStatement]: md.verdict_hit = false;| Computed: md.verdict_hit = false;
    [AssignmentStatement]: md.count_verdict = false;| Computed: md.count_verdict = false;
    [AssignmentStatement]: md.verdict_kind = VERDICT_CNT_BYPASS;| Computed: md.verdict_kind = 0;
    [AssignmentStatement]: md.send_digest = false;| Computed: md.send_digest = false;
    [AssignmentStatement]: md.cpu_port = 192;| Computed: md.cpu_port = 192;
    [P4Testgen If Statement]: Condition: false; Result: false
    [MethodCall]: _BalancerIngress_port_role/port_role.apply();
    [Table Branch: BalancerIngress.port_role | Key(s): |tofino_ingress_port(bit<9>)|| Chosen action: BalancerIngress.set_operator_port]
    [MethodCall]: _BalancerIngress_set_operator_port_0/set_operator_port(|BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_side_2(bit<1>)|, |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_peer_port_1(bit<9>)|);
    [AssignmentStatement]: md.port_type = PORT_TYPE_OPERATOR;| Computed: md.port_type = 1;
    [AssignmentStatement]: md.link_id = link_id;| Computed: md.link_id = 54;
    [AssignmentStatement]: md.side = side;| Computed: md.side = 1;
    [AssignmentStatement]: md.peer_port = peer_port;| Computed: md.peer_port = 0;
    [AssignmentStatement]: md.vlan_depth = 0;| Computed: md.vlan_depth = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.vlan_depth = 2;| Computed: md.vlan_depth = 2;
    [AssignmentStatement]: md.mpls_depth = 0;| Computed: md.mpls_depth = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.mpls_depth = 2;| Computed: md.mpls_depth = 2;
    [AssignmentStatement]: md.outer_vid = 0;| Computed: md.outer_vid = 0;
    [AssignmentStatement]: md.inner_vid = 0;| Computed: md.inner_vid = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[0].isValid()) { md.outer_vid = hdr.vlan[0].vid; }| Computed: md.outer_vid = 1519;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[1].isValid()) { md.inner_vid = hdr.vlan[1].vid; }| Computed: md.inner_vid = 3319;
    [AssignmentStatement]: md.is_ipv4 = 0;| Computed: md.is_ipv4 = 0;
    [AssignmentStatement]: md.ipv4_src = 0;| Computed: md.ipv4_src = 0;
    [AssignmentStatement]: md.ipv4_dst = 0;| Computed: md.ipv4_dst = 0;
    [AssignmentStatement]: md.ip_proto = 0;| Computed: md.ip_proto = 0;
    [AssignmentStatement]: md.addr_x = 0;| Computed: md.addr_x = 0;
    [AssignmentStatement]: md.addr_y = 0;| Computed: md.addr_y = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.is_ipv4 = 1;| Computed: md.is_ipv4 = 1;
    [AssignmentStatement]: md.ipv4_src = hdr.ipv4.src_addr;| Computed: md.ipv4_src = 4252649917;
    [AssignmentStatement]: md.ipv4_dst = hdr.ipv4.dst_addr;| Computed: md.ipv4_dst = 3212635366;
    [AssignmentStatement]: md.ip_proto = hdr.ipv4.protocol;| Computed: md.ip_proto = 6;
    [AssignmentStatement]: md.addr_x = hdr.ipv4.src_addr;| Computed: md.addr_x = 4252649917;
    [AssignmentStatement]: md.addr_y = hdr.ipv4.dst_addr;| Computed: md.addr_y = 3212635366;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [AssignmentStatement]: md.l4_src = 0;| Computed: md.l4_src = 0;
    [AssignmentStatement]: md.l4_dst = 0;| Computed: md.l4_dst = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.l4_src = hdr.tcp.src_port;| Computed: md.l4_src = 59564;
    [AssignmentStatement]: md.l4_dst = hdr.tcp.dst_port;| Computed: md.l4_dst = 64893;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: (ig_prsr_md.parser_err != 0) || (hdr.ipv4.isValid() && hdr.ipv4.ihl < 5) Condition: 0 != 0 || true && |pktvar_20(bit<4>)| < 5; Result: false
    [AssignmentStatement]: md.count_rx = true;| Computed: md.count_rx = true;
    [If Statement]: md.port_type == PORT_TYPE_OPERATOR Condition: 1 == 1; Result: true
    [MethodCall]: _BalancerIngress_heartbeat/heartbeat.apply();
    [Table Branch: BalancerIngress.heartbeat Choosing default action: _BalancerIngress_no_heartbeat_0/no_heartbeat;]
    [MethodCall]: _BalancerIngress_no_heartbeat_0/no_heartbeat();
    [If Statement]: false Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [MethodCall]: _BalancerIngress_flow_rules/flow_rules.apply();
    [Table Branch: BalancerIngress.flow_rules | Key(s): |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |pktvar_5(bit<12>)|, |pktvar_9(bit<12>)|, 2, 2, |pktvar_1(bit<48>)|, |pktvar_0(bit<48>)|, |pktvar_10(bit<16>)|, 1, |pktvar_29(bit<32>)|, |pktvar_30(bit<32>)|, |pktvar_27(bit<8>)|, |pktvar_31(bit<16>)|, |pktvar_32(bit<16>)|| Chosen action: BalancerIngress.balance]
    [MethodCall]: _BalancerIngress_balance_0/balance(|BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|);
    [AssignmentStatement]: md.balance = true;| Computed: md.balance = true;
    [AssignmentStatement]: md.balance_group = group;| Computed: md.balance_group = 15;
    [MethodCall]: _BalancerIngress_flow_rules_counter/flow_rules_counter.count();
    [If Statement]: (md.addr_x < md.addr_y) Condition: |pktvar_29(bit<32>)| < |pktvar_30(bit<32>)|; Result: false
    [AssignmentStatement]: bit<32> lo = (md.addr_x < md.addr_y) ? md.addr_x : md.addr_y;| Computed: session_hash_tmp = 3212635366;
    [If Statement]: (md.addr_x < md.addr_y) Condition: |pktvar_29(bit<32>)| < |pktvar_30(bit<32>)|; Result: false
    [AssignmentStatement]: bit<32> hi = (md.addr_x < md.addr_y) ? md.addr_y : md.addr_x;| Computed: session_hash_tmp_0 = 4252649917;
    [AssignmentStatement]: md.hash = sym_hash.get({ lo, hi, md.ip_proto });| Computed: md.hash = 0;
    [AssignmentStatement]: md.sess_lo = lo;| Computed: md.sess_lo = 3212635366;
    [AssignmentStatement]: md.sess_hi = hi;| Computed: md.sess_hi = 4252649917;
    [If Statement]: true Condition: true; Result: true
    [If Statement]: (!hdr.ipv4.isValid() && !hdr.ipv6.isValid()) || hdr.core.isValid() Condition: !true && !false || false; Result: false
    [MethodCall]: _BalancerIngress_sessions/sessions.apply();
    [Table Branch: BalancerIngress.sessions | Key(s): |BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|, |pktvar_30(bit<32>)|, |pktvar_29(bit<32>)|, |pktvar_27(bit<8>)|| Chosen action: BalancerIngress.keep]
    [MethodCall]: _BalancerIngress_keep_0/keep(|BalancerIngress.sessions_BalancerIngress.keep_arg_filter_group_5(bit<6>)|, |BalancerIngress.sessions_BalancerIngress.keep_arg_core_3(bit<10>)|);
    [AssignmentStatement]: md.session_hit = true;| Computed: md.session_hit = true;
    [AssignmentStatement]: md.sess_fg = filter_group;| Computed: md.sess_fg = 35;
    [AssignmentStatement]: md.sess_core = core;| Computed: md.sess_core = 0;
    [MethodCall]: _BalancerIngress_balance_groups/balance_groups.apply();
    [Table Branch: BalancerIngress.balance_groups | Key(s): |BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|| Chosen action: BalancerIngress.group_active]
    [MethodCall]: _BalancerIngress_group_active_0/group_active(|BalancerIngress.balance_groups_BalancerIngress.group_active_arg_slot_mask_1(bit<16>)|);
    [AssignmentStatement]: md.slot_mask = slot_mask;| Computed: md.slot_mask = 0;
    [AssignmentStatement]: md.slot = md.hash[15:0] & slot_mask;| Computed: md.slot = 0;
    [SwitchCase]: group_active
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: md.target_fg = md.sess_fg;| Computed: md.target_fg = 35;
    [AssignmentStatement]: md.core = md.sess_core;| Computed: md.core = 0;
    [AssignmentStatement]: md.slot_hit = true;| Computed: md.slot_hit = true;
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_core_counters/core_counters.count((bit<32>)(md.target_fg ++ md.core));
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: port_t named = md.out_port;| Computed: filter_groups_ctl_named/named = 0;
    [MethodCall]: _BalancerIngress_filter_groups/filter_groups.apply();
    [Table Branch: BalancerIngress.filter_groups | Key(s): |BalancerIngress.sessions_BalancerIngress.keep_arg_filter_group_5(bit<6>)|| Chosen action: BalancerIngress.filter_forward]
    [MethodCall]: _BalancerIngress_filter_forward_0/filter_forward(|BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_lan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_wan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_tpid_1(bit<16>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_detect_1(bit<32>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_fail_drop_1(bit<1>)|);
    [AssignmentStatement]: md.epoch = epoch;| Computed: md.epoch = 216;
    [AssignmentStatement]: md.detect = detect;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = fail_drop;| Computed: md.fail_drop = 0;
    [AssignmentStatement]: md.fg_forward = true;| Computed: md.fg_forward = true;
    [AssignmentStatement]: md.ev_index = md.target_fg ++ md.side;| Computed: md.ev_index = 71;
    [AssignmentStatement]: md.digest.filter_group = (bit<8>)md.target_fg;| Computed: md.digest.filter_group = 35;
    [AssignmentStatement]: md.digest.direction = (bit<8>)md.side;| Computed: md.digest.direction = 1;
    [AssignmentStatement]: md.digest.epoch = epoch;| Computed: md.digest.epoch = 216;
    [AssignmentStatement]: md.deadline = md.now + (detect);| Computed: md.deadline = "Taint";
    [AssignmentStatement]: md.fg_lan_port = lan_port;| Computed: md.fg_lan_port = 0;
    [AssignmentStatement]: md.fg_wan_port = wan_port;| Computed: md.fg_wan_port = 511;
    [AssignmentStatement]: md.tpid = tpid;| Computed: md.tpid = 0;
    [AssignmentStatement]: md.count_fg = true;| Computed: md.count_fg = true;
    [AssignmentStatement]: md.fg_index = md.target_fg;| Computed: md.fg_index = 35;
    [AssignmentStatement]: md.count_link = true;| Computed: md.count_link = true;
    [AssignmentStatement]: md.link_kind = LINK_CNT_TO_FILTER;| Computed: md.link_kind = 0;
    [AssignmentStatement]: md.fg_kind = FG_CNT_TO_FILTER;| Computed: md.fg_kind = 0;
    [SwitchCase]: filter_forward
    [AssignmentStatement]: md.ev_send = true;| Computed: md.ev_send = true;
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.core.setValid();
    [AssignmentStatement]: hdr.core.tpid = md.tpid;| Computed: hdr.core.tpid = 0;
    [AssignmentStatement]: hdr.core.link_id = md.link_id;| Computed: hdr.core.link_id = 54;
    [AssignmentStatement]: hdr.core.core_id = md.core;| Computed: hdr.core.core_id = 0;
    [If Statement]: md.side == SIDE_LAN Condition: |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_side_2(bit<1>)| == 0; Result: false
    [AssignmentStatement]: md.out_port = md.fg_wan_port;| Computed: md.out_port = 511;
    [AssignmentStatement]: md.ev_bucket = md.hash[20:16];| Computed: md.ev_bucket = 0;
    [MethodCall]: verdict_ctl_verdict_cell/verdict_cell.apply();
    [Constant Table Branch: BalancerIngress.verdict_ctl.verdict_cell | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: cell_read()]
    [MethodCall]: verdict_ctl_cell_read_0/cell_read();
    [AssignmentStatement]: rv = v;| Computed: rv = 53991;
    [AssignmentStatement]: md.cell = verdict_read.execute(md.target_fg);| Computed: md.cell = 53991;
    [If Statement]: true Condition: true; Result: true
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: md.cell[15:8] == VERDICT_SET[15:8] && md.cell[7:0] == md.epoch Condition: |.BalancerIngress.verdict(bit<16>)|[15:8] == 128 && |.BalancerIngress.verdict(bit<16>)|[7:0] == |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|; Result: false
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: testgen_assume(md.fg_forward && !md.ka_send);
    [Assume: applying condition: true && !false;]
    [AssignmentStatement]: md.copy_slot = md.now[31:4];| Computed: md.copy_slot = "Taint";
    [MethodCall]: evidence_copy_ctl_ev_copy_session/ev_copy_session.apply();
    [Constant Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_session | Key(s): |tofino_ingress_port(bit<9>)|[8:7]; | Chosen action: copy_session_of(10w960) | Arg(s): 960]
    [MethodCall]: evidence_copy_ctl_copy_session_of_0/copy_session_of(960);
    [AssignmentStatement]: md.copy_session = session;| Computed: md.copy_session = 960;
    [MethodCall]: evidence_copy_ctl_ev_copy_step/ev_copy_step.apply();
    [Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_step Choosing default action: evidence_copy_ctl_copy_none_0/copy_none;]
    [MethodCall]: evidence_copy_ctl_copy_none_0/copy_none();
    [MethodCall]: evidence_ctl_ev_time_step/ev_time_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_time_step | Key(s): (bit<1>)false;, (bit<1>)true;, (bit<1>)false; | Chosen action: ev_time_of_send()]
    [MethodCall]: evidence_ctl_ev_time_of_send_0/ev_time_of_send();
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.deadline;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.deadline;| Computed: v.second = "Taint";
    [AssignmentStatement]: rv = v.first;| Computed: rv = "Taint";
    [AssignmentStatement]: md.tag = ev_time_send.execute(md.ev_index);| Computed: md.tag = "Taint";
    [MethodCall]: evidence_ctl_ev_ka_step/ev_ka_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_ka_step | Key(s): (bit<1>)false;, (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: ev_ka_of_data()]
    [MethodCall]: evidence_ctl_ev_ka_of_data_0/ev_ka_of_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: rv = md.now - v;| Computed: rv = "Taint";
    [AssignmentStatement]: md.ka_overdue = ev_ka_send_data.execute(md.ev_index);| Computed: md.ka_overdue = "Taint";
    [AssignmentStatement]: md.overdue = md.now - md.tag;| Computed: md.overdue = "Taint";
    [MethodCall]: evidence_ctl_ev_seen_step/ev_seen_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_seen_step | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: ev_seen_of_data()]
    [MethodCall]: evidence_ctl_ev_seen_of_data_0/ev_seen_of_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: v = md.tag;| Computed: v = "Taint";
    [AssignmentStatement]: rv = 1;| Computed: rv = 1;
    [AssignmentStatement]: md.fresh = ev_seen_mark.execute(md.ev_index ++ md.ev_bucket);| Computed: md.fresh = "Taint";
    [MethodCall]: evidence_ctl_ev_count_step/ev_count_step.apply();
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_expired_data_0/ev_count_of_expired_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [Tainted If Statement]: 
    [AssignmentStatement]: rv = 1;| Computed: rv = 1;
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: ig_dprsr_md.resubmit_type = ev_count_proof.execute(md.ev_index);| Computed: ig_dprsr_md.resubmit_type = "Taint";
    [MethodCall]: md.resub.setValid();
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 216;
    [AssignmentStatement]: md.resub.reason = VERDICT_REASON_DATA;| Computed: md.resub.reason = 2;
    [AssignmentStatement]: md.resub.overdue = md.overdue;| Computed: md.resub.overdue = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_keepalive_proof_0/ev_count_of_keepalive_proof();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: ig_dprsr_md.resubmit_type = 1;| Computed: ig_dprsr_md.resubmit_type = 1;
    [MethodCall]: md.resub.setValid();
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 216;
    [AssignmentStatement]: md.resub.reason = VERDICT_REASON_KEEPALIVE;| Computed: md.resub.reason = 1;
    [AssignmentStatement]: md.resub.overdue = md.ka_overdue;| Computed: md.resub.overdue = "Taint";
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_port_rx/port_rx.count((bit<32>)ig_intr_md.ingress_port);
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_link_counters/link_counters.count((bit<32>)(md.link_id ++ md.link_kind));
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_filter_group_counters/filter_group_counters.count((bit<32>)(md.fg_index ++ md.fg_kind));
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.bridged.setValid();
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.to_cpu = 0;
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.ka_stamp = 0;
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_tm_md.ucast_egress_port = 511;
    [P4Testgen MethodCall]: *.copy_out("BalancerIngress");
    [P4Testgen MethodCall]: *.copy_in("IngressDeparser");
    [Control IngressDeparser start]
    [If Statement]: ig_dprsr_md.digest_type == 2 Condition: 0 == 2; Result: false
    [If Statement]: ig_dprsr_md.digest_type == 1 Condition: 0 == 1; Result: false
    [MethodCall]: pkt.emit<bridged_md_t>(hdr.bridged);
    [Emit]: {$headerValid:true;;    _pad0:0;  to_cpu:0;  ka_stamp:0;  }
    [MethodCall]: pkt.emit<packet_in_t>(hdr.packet_in);
    [Invalid emit: { ingress_port = TaintedExpression(bit<9>), _pad0 = TaintedExpression(bit<7>), reason = TaintedExpression(bit<8>), rx_timestamp = TaintedExpression(bit<48>) }]
    [MethodCall]: pkt.emit<ethernet_t>(hdr.ethernet);
    [Emit]: {$headerValid:true;;    dst_addr:173636727714444;  src_addr:94802341489019;  }
    [MethodCall]: pkt.emit<core_t>(hdr.core);
    [Emit]: {$headerValid:true;;    tpid:0;  link_id:54;  core_id:0;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[0]);
    [Emit]: {$headerValid:true;;    tpid:33024;  pcp:0;  dei:0;  vid:1519;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[1]);
    [Emit]: {$headerValid:true;;    tpid:34984;  pcp:0;  dei:0;  vid:3319;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[2]);
    [Invalid emit: { tpid = TaintedExpression(bit<16>), pcp = TaintedExpression(bit<3>), dei = TaintedExpression(bit<1>), vid = TaintedExpression(bit<12>) }]
    [MethodCall]: pkt.emit<eth_type_t>(hdr.eth_type);
    [Emit]: {$headerValid:true;;    value:34887;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[0]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:0;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[1]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:1;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[2]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[3]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[4]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[5]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[6]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[7]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<pppoe_t>(hdr.pppoe);
    [Invalid emit: { version = TaintedExpression(bit<4>), type = TaintedExpression(bit<4>), code = TaintedExpression(bit<8>), session_id = TaintedExpression(bit<16>), length = TaintedExpression(bit<16>), protocol = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<ipv4_t>(hdr.ipv4);
    [Emit]: {$headerValid:true;;    version:4;  ihl:5;  dscp_ecn:0;  total_len:0;  identification:0;  flags:0;  frag_offset:0;  ttl:0;  protocol:6;  hdr_checksum:0;  src_addr:4252649917;  dst_addr:3212635366;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[0]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[1]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[2]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[3]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[4]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[5]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[6]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[7]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[8]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[9]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv6_t>(hdr.ipv6);
    [Invalid emit: { version = TaintedExpression(bit<4>), traffic_class = TaintedExpression(bit<8>), flow_label = TaintedExpression(bit<20>), payload_len = TaintedExpression(bit<16>), next_hdr = TaintedExpression(bit<8>), hop_limit = TaintedExpression(bit<8>), src_addr = TaintedExpression(bit<128>), dst_addr = TaintedExpression(bit<128>) }]
    [MethodCall]: pkt.emit<tcp_t>(hdr.tcp);
    [Emit]: {$headerValid:true;;    src_port:59564;  dst_port:64893;  seq_no:0;  ack_no:0;  data_offset:0;  res:0;  flags:0;  window:0;  checksum:0;  urgent_ptr:0;  }
    [MethodCall]: pkt.emit<udp_t>(hdr.udp);
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), length = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<keepalive_t>(hdr.keepalive);
    [Invalid emit: { magic = TaintedExpression(bit<32>), version = TaintedExpression(bit<8>), direction = TaintedExpression(bit<8>), filter_group = TaintedExpression(bit<16>), seq = TaintedExpression(bit<32>), tx_timestamp = TaintedExpression(bit<64>) }]
    [P4Testgen MethodCall]: *.copy_out("IngressDeparser");
    [P4Testgen AssignmentStatement]: *eg_intr_md.egress_port = 511;
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    [Drop packet smaller than 240 for PTF.]: 6080
    [P4Testgen MethodCall]: *.tofino_drop();
    [Packet marked dropped.]
    '''

    def setupCtrlPlane(self):
        self.setRegisterValue('BalancerIngress.verdict', 0xD2E7, 35)
        self.setRegisterValue('BalancerIngress.ev_time', [('BalancerIngress.ev_time.first', 0x00000000), ('BalancerIngress.ev_time.second', 0x00000000)], 71)
        self.setRegisterValue('BalancerIngress.ev_ka', 0x00000000, 71)
        self.setRegisterValue('BalancerIngress.ev_seen', 0x00000000, 2272)
        self.setRegisterValue('BalancerIngress.ev_count', [('BalancerIngress.ev_count.first', 0x00000000), ('BalancerIngress.ev_count.second', 0x00000000)], 71)
        # Table BalancerIngress.port_role
        self.insertTableEntry(
            'BalancerIngress.port_role',
            [
                gc.KeyTuple('port', 0x041),
            ],
            'BalancerIngress.set_operator_port',
            [
                gc.DataTuple('link_id', 0x36),
                gc.DataTuple('side', 0x1),
                gc.DataTuple('peer_port', 0x000),
            ]
        )
        # Table BalancerIngress.flow_rules
        self.insertTableEntry(
            'BalancerIngress.flow_rules',
            [
                gc.KeyTuple('link_id', 0x36, 0x06),
                gc.KeyTuple('outer_vid', 0x166, 0xB36),
                gc.KeyTuple('inner_vid', 0xAB7, 0x9B7),
                gc.KeyTuple('vlan_depth', 0x2, 0x1),
                gc.KeyTuple('mpls_depth', 0xB, 0x6),
                gc.KeyTuple('src_mac', 0x56FEEEE30FEA, 0xFD29F2FF996E),
                gc.KeyTuple('dst_mac', 0x9DFB73F8A28F, 0x7E6E7B782B9C),
                gc.KeyTuple('eth_type', 0x2E4F, 0x09D5),
                gc.KeyTuple('is_ipv4', 0x1, 0x1),
                gc.KeyTuple('ipv4_src', 0xF23A0997, 0x30BFAB41),
                gc.KeyTuple('ipv4_dst', 0xBFBE4CE6, 0x070D1AEE),
                gc.KeyTuple('ip_proto', 0x94, 0x2C),
                gc.KeyTuple('l4_src', 0xCDAC, 0xC0EF),
                gc.KeyTuple('l4_dst', 0x7D71, 0x67F1),
            ],
            'BalancerIngress.balance',
            [
                gc.DataTuple('group', 0xF),
            ]
        )
        # Table BalancerIngress.sessions
        self.insertTableEntry(
            'BalancerIngress.sessions',
            [
                gc.KeyTuple('balance_group', 0xF),
                gc.KeyTuple('addr_lo', 0xBF7CECE6),
                gc.KeyTuple('addr_hi', 0xFD7A49BD),
                gc.KeyTuple('proto', 0x06),
            ],
            'BalancerIngress.keep',
            [
                gc.DataTuple('filter_group', 0x23),
                gc.DataTuple('core', 0x000),
            ]
        )
        # Table BalancerIngress.balance_groups
        self.insertTableEntry(
            'BalancerIngress.balance_groups',
            [
                gc.KeyTuple('balance_group', 0xF),
            ],
            'BalancerIngress.group_active',
            [
                gc.DataTuple('slot_mask', 0x0000),
            ]
        )
        # Table BalancerIngress.filter_groups
        self.insertTableEntry(
            'BalancerIngress.filter_groups',
            [
                gc.KeyTuple('filter_group', 0x23),
            ],
            'BalancerIngress.filter_forward',
            [
                gc.DataTuple('lan_port', 0x000),
                gc.DataTuple('wan_port', 0x1FF),
                gc.DataTuple('tpid', 0x0000),
                gc.DataTuple('epoch', 0xD8),
                gc.DataTuple('detect', 0x00000000),
                gc.DataTuple('fail_drop', 0x0),
            ]
        )

    def sendPacket(self):
        ig_port = 65
        pkt = b'\x9D\xEB\xF3\x79\xB2\x8C\x56\x38\xE3\xE3\x69\x7B\x81\x00\x05\xEF\x88\xA8\x0C\xF7\x88\x47\x00\x00\x00\x00\x00\x00\x01\x00\x45\x00\x00\x00\x00\x00\x00\x00\x00\x06\x00\x00\xFD\x7A\x49\xBD\xBF\x7C\xEC\xE6\xE8\xAC\xFD\x7D\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x3E\xB5\xD4\x74\x99\xFE\x47\xD1\x5E\xE8\xBB\x44\x8D\xD1\xA5\xAE\x1B\x06\x51\x83\xD2\x68\x64\x5C\xF6\xED\x88\x83\x02\x3E\xFF\x9B\xB3\x0F\xF1\x47\xB6\xD1\xCA\x06\xB9\x1C\xA4\x54\xF3\xCC\x9A\x9C\xF7\x59\x2E\xFC\x43\x10\xFD\x1E\xA0\x89\x43\x48\x95\xDF\xAE\x3E\x0C\x7F\xD8\x70\x75\x06\x11\xA8\xA5\x47\xA3\x63\x04\x65\x18\x8C\xBD\xB5\x6D\x08\x92\xC1\x0C\xB1\x76\xC8\x5A\x71\xC5\x51\xF1\xA3\x9E\xD8\x94\x93\x8B\xC0\xB5\x2E\x27\x59\xE8\x61\x6D\xAC\x11\x94\x24\xDA\xB6\xBB\xA7\x80\x82\x9E\x4D\x64\xE7\x4F\xA2\xA4\x9A\x2C\x9D\x72\xCF\xF9\x62\x7C\x4E\x95\x03\xAB\x70\x19\x3F\xB2\xB2\xBA\x27\xBC\xAB\xF3\x7D\xF8\xDD\x20\xC8\xE6\xD1\xC7\x7A\x94\x28\x87\xA8\x03\x3F\xE1\x16\xE1\xD9\xBA\x76\x09\xAA\x51\xAC\xAD\x56\x21\x5E\x9D\x5C\xBC\x4D\x0C\x16\xEC\x96\x4F\xD3\x74\x9D\x38\x72\xCF\x25\x60\xEB\x81\xB2\xAB\xDF\x06\xC3\x6D\x8F\x5E\x19\xCE\xD9\x51\x56\xAA\x13\x1C\x54\xF0\xA2\x28\x63\xA9\xF1\xC1\xBD\x8E\xB9\xB2\x37\x78\xCD\xC8\xB3\x48\xFF\x11\x54\x0D\xE1\x37\xDE\x3F\xBE\xC9\xE0\xB1\xDC\x70\x2A\xEF\x8E\xD3\x85\x6E\x45\x56\xAA\xCA\xC7\x83\x56\x71\xF7\x25\xA1\x88\xA4\x18\x00\xBD\x4B\x98\xED\xFC\x28\x04\xAA\x45\x28\x98\xFE\xFB\x66\x45\x34\xE6\x8A\x71\xDB\x06\x52\xC6\x38\x91\xC9\x0C\x62\x30\x4F\x47\x3B\x47\x90\x35\xC1\x6D\x0E\xFF\xF0\x8F\xD0\x62\x1B\x1E\x54\x1C\x35\xDB\x15\x7E\x1A\xB6\x99\xD8\x34\x0B\xB8\xF1\x2A\x2C\x69\x22\x56\x47\xC3\x6C\x65\xB3\x2E\x9D\xCA\x3B\x9E\x1B\x0A\xBF\x86\xF2\x50\x98\xD9\x4D\x37\x9C\x91\x7A\xD0\x9C\x30\x4D\x64\x5B\x1E\x52\x58\x7B\x37\x72\x33\x33\x5C\x75\x65\x9C\x11\xC9\xB6\x4E\x35\xBC\xBC\x74\xA0\x31\x1A\x94\x2E\x89\xDC\x54\xCB\xD5\x4E\x57\x6B\xF2\x43\x79\x2D\x57\xE1\x6A\xC9\x7D\xD1\x22\xE2\x3C\xF1\x11\x93\x34\x82\x75\x10\x38\xD4\x5B\x30\xFA\xE6\xF2\x53\xDF\x84\x9F\xE3\x8A\x97\x76\xCC\x06\x1C\xBC\x81\x26\xA8\xFD\x55\x14\xD6\x78\x57\x71\xB4\xD0\x0A\x00\x26\xDE\x53\xA2\x91\x94\xB9\x6B\xEE\x3A\x5A\x90\xC6\x86\x63\x80\xBE\xF0\x87\xF7\x0B\xDB\x60\xF0\x35\x8E\x94\xF4\xEE\x04\x93\x00\xFF\x07\x5B\x6A\x54\xF5\x6C\x81\x0E\x07\xB8\xA7\xDC\x45\x0A\xAE\x2B\x09\x55\x90\xD3\x63\xD3\x92\xEF\x97\x59\x7E\x45\xAD\xB5\xB6\xE7\xEE\xF2\xE3\x96\x5D\x83\xF9\x30\xB6\x63\xAB\x72\x1E\xBD\x14\xBE\xB8\xED\x6B\x6B\x66\x99\x55\x0F\xBD\xA6\xFE\x8B\xA7\x1A\x8D\xA8\x1A\x12\x2C\x71\x0B\xC4\xBC\xDC\x25\x22\xD4\x66\x03\x34\xFB\x67\xCA\x84\x8C\xF5\xA5\x87\x77\x28\xC9\x4F\x8F\xB8\xEC\x49\x75\x30\xDA\x00\x46\x8C\xEB\xBE\xA8\x29\xAE\xFD\x1E\xB1\xBF\x09\x5D\x3A\x2D\x05\xBD\x3E\xDD\xA5\xCF\xEA\xCE\x3B\x98\x14\xDC\x44\x53\xC1\x6C\x44\xB4\x18\x46\xA6\xAF\x0B\xBD\x14\x55\x4F\x4B\xC0\x7A\xFD\xC1\x7B\xA3\x52\xA6\x40\x2B\x1C\x67\x0D\x7D\xFF\xA4\xEE\x03\x95\x76\xAE\x89\x4A\xCF\xF5\x3B\x0C\x54\x9E\x33\x38\x3F\x62\x5D\xC0\xA0\x61\x01\x07\x4B\xA3\xFA\xED\x3C\xD6\x46\x81\x60\x22\x60\x31\x80\x8F\x70\x18\x0F\x7F\x50\xE2\x7E\xDC\xA6\x2B\x75\x08\x2E\x9D'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        pass

    def runTest(self):
        self.runTestImpl()


class Test21(AbstractTest):
    # Date generated: 2026-12-07-20:59:22.879
    # Current statement coverage: 0.64
    '''
    [P4Testgen MethodCall]: *.StartIngress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(0);
    [PrependToProgramHeader]: 0
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*ig_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    resubmit_flag:0;  _pad1:0;  packet_version:0;  _pad2:0;  ingress_port:170;  ingress_mac_tstamp:0;  }
    [P4Testgen MethodCall]: *.copy_in("IngressParser");
    [Parser] IngressParser
    [State] start
    [MethodCall]: pkt.extract<ingress_intrinsic_metadata_t>(ig_intr_md);
    [ExtractSuccess] ig_intr_md@0 | Condition: |*packetLen_bits(bit<32>)| >= 64; | Extract Size: 64 -> ig_intr_md.resubmit_flag = 0x0 | ig_intr_md._pad1 = 0x0 | ig_intr_md.packet_version = 0x0 | ig_intr_md._pad2 = 0x0 | ig_intr_md.ingress_port = 0x0AA | ig_intr_md.ingress_mac_tstamp = Taint
    [AssignmentStatement]: md.eth_type = 0;| Computed: md.eth_type = 0;
    [AssignmentStatement]: md.copy_pipe = ig_intr_md.ingress_port[8:7];| Computed: md.copy_pipe = 1;
    [AssignmentStatement]: md.proof_copy = false;| Computed: md.proof_copy = false;
    [State] parse_port_metadata
    [MethodCall]: pkt.advance(64);
    [Advance Condition: |*packetLen_bits(bit<32>)| >= 64;]
    [State] parse_port
    [State] parse_ethernet
    [MethodCall]: pkt.extract<ethernet_t>(hdr.ethernet);
    [ExtractSuccess] hdr.ethernet@0 | Condition: |*packetLen_bits(bit<32>)| >= 96; | Extract Size: 96 -> hdr.ethernet.dst_addr = 0xBD4C_285D_5B57 | hdr.ethernet.src_addr = 0xA78E_CE23_E6FC
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 112;]
    [P4Testgen AssignmentStatement]: tmp_0 = 37120;
    [State] parse_vlan_0
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[0]);
    [ExtractSuccess] hdr.vlan[0]@96 | Condition: |*packetLen_bits(bit<32>)| >= 128; | Extract Size: 32 -> hdr.vlan[0].tpid = 0x9100 | hdr.vlan[0].pcp = 0x0 | hdr.vlan[0].dei = 0x0 | hdr.vlan[0].vid = 0xDED
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 144;]
    [P4Testgen AssignmentStatement]: tmp_4 = 37120;
    [State] parse_vlan_1
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[1]);
    [ExtractSuccess] hdr.vlan[1]@128 | Condition: |*packetLen_bits(bit<32>)| >= 160; | Extract Size: 32 -> hdr.vlan[1].tpid = 0x9100 | hdr.vlan[1].pcp = 0x0 | hdr.vlan[1].dei = 0x0 | hdr.vlan[1].vid = 0xF7B
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 176;]
    [P4Testgen AssignmentStatement]: tmp_6 = 37120;
    [State] parse_vlan_2
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[2]);
    [ExtractSuccess] hdr.vlan[2]@160 | Condition: |*packetLen_bits(bit<32>)| >= 192; | Extract Size: 32 -> hdr.vlan[2].tpid = 0x9100 | hdr.vlan[2].pcp = 0x0 | hdr.vlan[2].dei = 0x0 | hdr.vlan[2].vid = 0x000
    [State] parse_eth_type
    [MethodCall]: pkt.extract<eth_type_t>(hdr.eth_type);
    [ExtractSuccess] hdr.eth_type@192 | Condition: |*packetLen_bits(bit<32>)| >= 208; | Extract Size: 16 -> hdr.eth_type.value = 0x8848
    [AssignmentStatement]: md.eth_type = hdr.eth_type.value;| Computed: md.eth_type = 34888;
    [State] parse_mpls_0
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[0]);
    [ExtractSuccess] hdr.mpls[0]@208 | Condition: |*packetLen_bits(bit<32>)| >= 240; | Extract Size: 32 -> hdr.mpls[0].label = 0x0000_0000 | hdr.mpls[0].tc = 0x0 | hdr.mpls[0].bos = 0x0 | hdr.mpls[0].ttl = 0x00
    [State] parse_mpls_1
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[1]);
    [ExtractSuccess] hdr.mpls[1]@240 | Condition: |*packetLen_bits(bit<32>)| >= 272; | Extract Size: 32 -> hdr.mpls[1].label = 0x0000_0000 | hdr.mpls[1].tc = 0x0 | hdr.mpls[1].bos = 0x0 | hdr.mpls[1].ttl = 0x00
    [State] parse_mpls_2
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[2]);
    [ExtractSuccess] hdr.mpls[2]@272 | Condition: |*packetLen_bits(bit<32>)| >= 304; | Extract Size: 32 -> hdr.mpls[2].label = 0x0000_0000 | hdr.mpls[2].tc = 0x0 | hdr.mpls[2].bos = 0x0 | hdr.mpls[2].ttl = 0x00
    [State] parse_mpls_3
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[3]);
    [ExtractSuccess] hdr.mpls[3]@304 | Condition: |*packetLen_bits(bit<32>)| >= 336; | Extract Size: 32 -> hdr.mpls[3].label = 0x0000_0000 | hdr.mpls[3].tc = 0x0 | hdr.mpls[3].bos = 0x0 | hdr.mpls[3].ttl = 0x00
    [State] parse_mpls_4
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[4]);
    [ExtractSuccess] hdr.mpls[4]@336 | Condition: |*packetLen_bits(bit<32>)| >= 368; | Extract Size: 32 -> hdr.mpls[4].label = 0x0000_0000 | hdr.mpls[4].tc = 0x0 | hdr.mpls[4].bos = 0x0 | hdr.mpls[4].ttl = 0x00
    [State] parse_mpls_5
    [MethodCall]: pkt.extract<mpls_t>(hdr.mpls[5]);
    [ExtractSuccess] hdr.mpls[5]@368 | Condition: |*packetLen_bits(bit<32>)| >= 400; | Extract Size: 32 -> hdr.mpls[5].label = 0x0000_0000 | hdr.mpls[5].tc = 0x0 | hdr.mpls[5].bos = 0x1 | hdr.mpls[5].ttl = 0x00
    [State] parse_mpls_payload
    [Lookahead result]: 4
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 404;]
    [P4Testgen AssignmentStatement]: tmp_8 = 4;
    [State] parse_ipv4
    [MethodCall]: pkt.extract<ipv4_t>(hdr.ipv4);
    [ExtractSuccess] hdr.ipv4@400 | Condition: |*packetLen_bits(bit<32>)| >= 560; | Extract Size: 160 -> hdr.ipv4.version = 0x4 | hdr.ipv4.ihl = 0x7 | hdr.ipv4.dscp_ecn = 0x00 | hdr.ipv4.total_len = 0x0000 | hdr.ipv4.identification = 0x0000 | hdr.ipv4.flags = 0x0 | hdr.ipv4.frag_offset = 0x0000 | hdr.ipv4.ttl = 0x00 | hdr.ipv4.protocol = 0x11 | hdr.ipv4.hdr_checksum = 0x0000 | hdr.ipv4.src_addr = 0x4424_7541 | hdr.ipv4.dst_addr = 0xA73C_7026
    [State] parse_ipv4_option_0
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[0]);
    [ExtractSuccess] hdr.ipv4_options[0]@560 | Condition: |*packetLen_bits(bit<32>)| >= 592; | Extract Size: 32 -> hdr.ipv4_options[0].data = 0x0000_0000
    [State] parse_ipv4_option_1
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[1]);
    [ExtractSuccess] hdr.ipv4_options[1]@592 | Condition: |*packetLen_bits(bit<32>)| >= 624; | Extract Size: 32 -> hdr.ipv4_options[1].data = 0x0000_0000
    [State] parse_ipv4_l4
    [State] parse_udp
    [MethodCall]: pkt.extract<udp_t>(hdr.udp);
    [ExtractSuccess] hdr.udp@624 | Condition: |*packetLen_bits(bit<32>)| >= 688; | Extract Size: 64 -> hdr.udp.src_port = 0x7702 | hdr.udp.dst_port = 0xF9DA | hdr.udp.length = 0x0000 | hdr.udp.checksum = 0x0000
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("IngressParser");
    [P4Testgen MethodCall]: *.copy_in("BalancerIngress");
    [Control BalancerIngress start]
    [AssignmentStatement]: md.ingress_port = ig_intr_md.ingress_port;| Computed: md.ingress_port = 170;
    [AssignmentStatement]: md.ingress_ts = ig_intr_md.ingress_mac_tstamp;| Computed: md.ingress_ts = "Taint";
    [AssignmentStatement]: md.port_type = PORT_TYPE_UNKNOWN;| Computed: md.port_type = 0;
    [AssignmentStatement]: md.drop = false;| Computed: md.drop = false;
    [AssignmentStatement]: md.to_cpu = false;| Computed: md.to_cpu = false;
    [AssignmentStatement]: md.ka_stamp = false;| Computed: md.ka_stamp = false;
    [AssignmentStatement]: md.drop_reason = DROP_NONE;| Computed: md.drop_reason = 0;
    [AssignmentStatement]: md.count_link = false;| Computed: md.count_link = false;
    [AssignmentStatement]: md.count_fg = false;| Computed: md.count_fg = false;
    [AssignmentStatement]: md.heartbeat = false;| Computed: md.heartbeat = false;
    [AssignmentStatement]: md.balance = false;| Computed: md.balance = false;
    [AssignmentStatement]: md.slot_hit = false;| Computed: md.slot_hit = false;
    [AssignmentStatement]: md.session_hit = false;| Computed: md.session_hit = false;
    [AssignmentStatement]: md.learn = false;| Computed: md.learn = false;
    [AssignmentStatement]: md.count_rx = false;| Computed: md.count_rx = false;
    [AssignmentStatement]: md.malformed = false;| Computed: md.malformed = false;
    [AssignmentStatement]: md.now = ig_prsr_md.global_tstamp[47:16];| Computed: md.now = "Taint";
    [AssignmentStatement]: md.fg_forward = false;| Computed: md.fg_forward = false;
    [AssignmentStatement]: md.ka_send = false;| Computed: md.ka_send = false;
    [AssignmentStatement]: md.ev_send = false;| Computed: md.ev_send = false;
    [AssignmentStatement]: md.ev_return = false;| Computed: md.ev_return = false;
    [AssignmentStatement]: md.ev_index = 0;| Computed: md.ev_index = 0;
    [AssignmentStatement]: md.ev_bucket = 0;| Computed: md.ev_bucket = 0;
    [AssignmentStatement]: md.target_fg = 0;| Computed: md.target_fg = 0;
    [AssignmentStatement]: md.epoch = 0;| Computed: md.epoch = 0;
    [AssignmentStatement]: md.detect = 0;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = 0;| Computed: md.fail_drop = 0;
    [AssignmentStatement]: md.verdict_now = false;| Computed: md.verdict_now = false;
    [AssignmentStatement]: md.digest.reason = VERDICT_REASON_STANDING;| Computed: md.digest.reason = 0;
    [AssignmentStatement]: md.digest.age = 0;| Computed: md.digest.age = 0;
    [AssignmentStatement]: md.verdict_hit = false;| Computed: md.verdict_hit = false;
    [AssignmentStatement]: md.count_verdict = false;| Computed: md.count_verdict = false;
    [AssignmentStatement]: md.verdict_kind = VERDICT_CNT_BYPASS;| Computed: md.verdict_kind = 0;
    [AssignmentStatement]: md.send_digest = false;| Computed: md.send_digest = false;
    [AssignmentStatement]: md.cpu_port = 192;| Computed: md.cpu_port = 192;
    [P4Testgen If Statement]: Condition: false; Result: false
    [MethodCall]: _BalancerIngress_port_role/port_role.apply();
    [Table Branch: BalancerIngress.port_role | Key(s): |tofino_ingress_port(bit<9>)|| Chosen action: BalancerIngress.set_operator_port]
    [MethodCall]: _BalancerIngress_set_operator_port_0/set_operator_port(|BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_side_2(bit<1>)|, |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_peer_port_1(bit<9>)|);
    [AssignmentStatement]: md.port_type = PORT_TYPE_OPERATOR;| Computed: md.port_type = 1;
    [AssignmentStatement]: md.link_id = link_id;| Computed: md.link_id = 43;
    [AssignmentStatement]: md.side = side;| Computed: md.side = 1;
    [AssignmentStatement]: md.peer_port = peer_port;| Computed: md.peer_port = 0;
    [AssignmentStatement]: md.vlan_depth = 0;| Computed: md.vlan_depth = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.vlan_depth = 3;| Computed: md.vlan_depth = 3;
    [AssignmentStatement]: md.mpls_depth = 0;| Computed: md.mpls_depth = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.mpls_depth = 6;| Computed: md.mpls_depth = 6;
    [AssignmentStatement]: md.outer_vid = 0;| Computed: md.outer_vid = 0;
    [AssignmentStatement]: md.inner_vid = 0;| Computed: md.inner_vid = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[0].isValid()) { md.outer_vid = hdr.vlan[0].vid; }| Computed: md.outer_vid = 3565;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[1].isValid()) { md.inner_vid = hdr.vlan[1].vid; }| Computed: md.inner_vid = 3963;
    [AssignmentStatement]: md.is_ipv4 = 0;| Computed: md.is_ipv4 = 0;
    [AssignmentStatement]: md.ipv4_src = 0;| Computed: md.ipv4_src = 0;
    [AssignmentStatement]: md.ipv4_dst = 0;| Computed: md.ipv4_dst = 0;
    [AssignmentStatement]: md.ip_proto = 0;| Computed: md.ip_proto = 0;
    [AssignmentStatement]: md.addr_x = 0;| Computed: md.addr_x = 0;
    [AssignmentStatement]: md.addr_y = 0;| Computed: md.addr_y = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.is_ipv4 = 1;| Computed: md.is_ipv4 = 1;
    [AssignmentStatement]: md.ipv4_src = hdr.ipv4.src_addr;| Computed: md.ipv4_src = 1143240001;
    [AssignmentStatement]: md.ipv4_dst = hdr.ipv4.dst_addr;| Computed: md.ipv4_dst = 2805755942;
    [AssignmentStatement]: md.ip_proto = hdr.ipv4.protocol;| Computed: md.ip_proto = 17;
    [AssignmentStatement]: md.addr_x = hdr.ipv4.src_addr;| Computed: md.addr_x = 1143240001;
    [AssignmentStatement]: md.addr_y = hdr.ipv4.dst_addr;| Computed: md.addr_y = 2805755942;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [AssignmentStatement]: md.l4_src = 0;| Computed: md.l4_src = 0;
    [AssignmentStatement]: md.l4_dst = 0;| Computed: md.l4_dst = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.l4_src = hdr.udp.src_port;| Computed: md.l4_src = 30466;
    [AssignmentStatement]: md.l4_dst = hdr.udp.dst_port;| Computed: md.l4_dst = 63962;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: (ig_prsr_md.parser_err != 0) || (hdr.ipv4.isValid() && hdr.ipv4.ihl < 5) Condition: 0 != 0 || true && |pktvar_40(bit<4>)| < 5; Result: false
    [AssignmentStatement]: md.count_rx = true;| Computed: md.count_rx = true;
    [If Statement]: md.port_type == PORT_TYPE_OPERATOR Condition: 1 == 1; Result: true
    [MethodCall]: _BalancerIngress_heartbeat/heartbeat.apply();
    [Table Branch: BalancerIngress.heartbeat Choosing default action: _BalancerIngress_no_heartbeat_0/no_heartbeat;]
    [MethodCall]: _BalancerIngress_no_heartbeat_0/no_heartbeat();
    [If Statement]: false Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [MethodCall]: _BalancerIngress_flow_rules/flow_rules.apply();
    [Table Branch: BalancerIngress.flow_rules | Key(s): |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |pktvar_5(bit<12>)|, |pktvar_9(bit<12>)|, 3, 6, |pktvar_1(bit<48>)|, |pktvar_0(bit<48>)|, |pktvar_14(bit<16>)|, 1, |pktvar_49(bit<32>)|, |pktvar_50(bit<32>)|, |pktvar_47(bit<8>)|, |pktvar_53(bit<16>)|, |pktvar_54(bit<16>)|| Chosen action: BalancerIngress.balance]
    [MethodCall]: _BalancerIngress_balance_0/balance(|BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|);
    [AssignmentStatement]: md.balance = true;| Computed: md.balance = true;
    [AssignmentStatement]: md.balance_group = group;| Computed: md.balance_group = 1;
    [MethodCall]: _BalancerIngress_flow_rules_counter/flow_rules_counter.count();
    [If Statement]: (md.addr_x < md.addr_y) Condition: |pktvar_49(bit<32>)| < |pktvar_50(bit<32>)|; Result: true
    [AssignmentStatement]: bit<32> lo = (md.addr_x < md.addr_y) ? md.addr_x : md.addr_y;| Computed: session_hash_tmp = 1143240001;
    [If Statement]: (md.addr_x < md.addr_y) Condition: |pktvar_49(bit<32>)| < |pktvar_50(bit<32>)|; Result: true
    [AssignmentStatement]: bit<32> hi = (md.addr_x < md.addr_y) ? md.addr_y : md.addr_x;| Computed: session_hash_tmp_0 = 2805755942;
    [AssignmentStatement]: md.hash = sym_hash.get({ lo, hi, md.ip_proto });| Computed: md.hash = 0;
    [AssignmentStatement]: md.sess_lo = lo;| Computed: md.sess_lo = 1143240001;
    [AssignmentStatement]: md.sess_hi = hi;| Computed: md.sess_hi = 2805755942;
    [If Statement]: true Condition: true; Result: true
    [If Statement]: (!hdr.ipv4.isValid() && !hdr.ipv6.isValid()) || hdr.core.isValid() Condition: !true && !false || false; Result: false
    [MethodCall]: _BalancerIngress_sessions/sessions.apply();
    [Table Branch: BalancerIngress.sessions | Key(s): |BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|, |pktvar_49(bit<32>)|, |pktvar_50(bit<32>)|, |pktvar_47(bit<8>)|| Chosen action: BalancerIngress.keep]
    [MethodCall]: _BalancerIngress_keep_0/keep(|BalancerIngress.sessions_BalancerIngress.keep_arg_filter_group_5(bit<6>)|, |BalancerIngress.sessions_BalancerIngress.keep_arg_core_3(bit<10>)|);
    [AssignmentStatement]: md.session_hit = true;| Computed: md.session_hit = true;
    [AssignmentStatement]: md.sess_fg = filter_group;| Computed: md.sess_fg = 42;
    [AssignmentStatement]: md.sess_core = core;| Computed: md.sess_core = 0;
    [MethodCall]: _BalancerIngress_balance_groups/balance_groups.apply();
    [Table Branch: BalancerIngress.balance_groups | Key(s): |BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|| Chosen action: BalancerIngress.group_active]
    [MethodCall]: _BalancerIngress_group_active_0/group_active(|BalancerIngress.balance_groups_BalancerIngress.group_active_arg_slot_mask_1(bit<16>)|);
    [AssignmentStatement]: md.slot_mask = slot_mask;| Computed: md.slot_mask = 0;
    [AssignmentStatement]: md.slot = md.hash[15:0] & slot_mask;| Computed: md.slot = 0;
    [SwitchCase]: group_active
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: md.target_fg = md.sess_fg;| Computed: md.target_fg = 42;
    [AssignmentStatement]: md.core = md.sess_core;| Computed: md.core = 0;
    [AssignmentStatement]: md.slot_hit = true;| Computed: md.slot_hit = true;
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_core_counters/core_counters.count((bit<32>)(md.target_fg ++ md.core));
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: port_t named = md.out_port;| Computed: filter_groups_ctl_named/named = 0;
    [MethodCall]: _BalancerIngress_filter_groups/filter_groups.apply();
    [Table Branch: BalancerIngress.filter_groups | Key(s): |BalancerIngress.sessions_BalancerIngress.keep_arg_filter_group_5(bit<6>)|| Chosen action: BalancerIngress.filter_forward]
    [MethodCall]: _BalancerIngress_filter_forward_0/filter_forward(|BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_lan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_wan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_tpid_1(bit<16>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_detect_1(bit<32>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_fail_drop_1(bit<1>)|);
    [AssignmentStatement]: md.epoch = epoch;| Computed: md.epoch = 0;
    [AssignmentStatement]: md.detect = detect;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = fail_drop;| Computed: md.fail_drop = 0;
    [AssignmentStatement]: md.fg_forward = true;| Computed: md.fg_forward = true;
    [AssignmentStatement]: md.ev_index = md.target_fg ++ md.side;| Computed: md.ev_index = 85;
    [AssignmentStatement]: md.digest.filter_group = (bit<8>)md.target_fg;| Computed: md.digest.filter_group = 42;
    [AssignmentStatement]: md.digest.direction = (bit<8>)md.side;| Computed: md.digest.direction = 1;
    [AssignmentStatement]: md.digest.epoch = epoch;| Computed: md.digest.epoch = 0;
    [AssignmentStatement]: md.deadline = md.now + (detect);| Computed: md.deadline = "Taint";
    [AssignmentStatement]: md.fg_lan_port = lan_port;| Computed: md.fg_lan_port = 0;
    [AssignmentStatement]: md.fg_wan_port = wan_port;| Computed: md.fg_wan_port = 511;
    [AssignmentStatement]: md.tpid = tpid;| Computed: md.tpid = 0;
    [AssignmentStatement]: md.count_fg = true;| Computed: md.count_fg = true;
    [AssignmentStatement]: md.fg_index = md.target_fg;| Computed: md.fg_index = 42;
    [AssignmentStatement]: md.count_link = true;| Computed: md.count_link = true;
    [AssignmentStatement]: md.link_kind = LINK_CNT_TO_FILTER;| Computed: md.link_kind = 0;
    [AssignmentStatement]: md.fg_kind = FG_CNT_TO_FILTER;| Computed: md.fg_kind = 0;
    [SwitchCase]: filter_forward
    [AssignmentStatement]: md.ev_send = true;| Computed: md.ev_send = true;
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.core.setValid();
    [AssignmentStatement]: hdr.core.tpid = md.tpid;| Computed: hdr.core.tpid = 0;
    [AssignmentStatement]: hdr.core.link_id = md.link_id;| Computed: hdr.core.link_id = 43;
    [AssignmentStatement]: hdr.core.core_id = md.core;| Computed: hdr.core.core_id = 0;
    [If Statement]: md.side == SIDE_LAN Condition: |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_side_2(bit<1>)| == 0; Result: false
    [AssignmentStatement]: md.out_port = md.fg_wan_port;| Computed: md.out_port = 511;
    [AssignmentStatement]: md.ev_bucket = md.hash[20:16];| Computed: md.ev_bucket = 0;
    [MethodCall]: verdict_ctl_verdict_cell/verdict_cell.apply();
    [Constant Table Branch: BalancerIngress.verdict_ctl.verdict_cell | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: cell_read()]
    [MethodCall]: verdict_ctl_cell_read_0/cell_read();
    [AssignmentStatement]: rv = v;| Computed: rv = 6067;
    [AssignmentStatement]: md.cell = verdict_read.execute(md.target_fg);| Computed: md.cell = 6067;
    [If Statement]: true Condition: true; Result: true
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: md.cell[15:8] == VERDICT_SET[15:8] && md.cell[7:0] == md.epoch Condition: |.BalancerIngress.verdict(bit<16>)|[15:8] == 128 && |.BalancerIngress.verdict(bit<16>)|[7:0] == |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|; Result: false
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: testgen_assume(md.fg_forward && !md.ka_send);
    [Assume: applying condition: true && !false;]
    [AssignmentStatement]: md.copy_slot = md.now[31:4];| Computed: md.copy_slot = "Taint";
    [MethodCall]: evidence_copy_ctl_ev_copy_session/ev_copy_session.apply();
    [Constant Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_session | Key(s): |tofino_ingress_port(bit<9>)|[8:7]; | Chosen action: copy_session_of(10w961) | Arg(s): 961]
    [MethodCall]: evidence_copy_ctl_copy_session_of_0/copy_session_of(961);
    [AssignmentStatement]: md.copy_session = session;| Computed: md.copy_session = 961;
    [MethodCall]: evidence_copy_ctl_ev_copy_step/ev_copy_step.apply();
    [Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_step Choosing default action: evidence_copy_ctl_copy_none_0/copy_none;]
    [MethodCall]: evidence_copy_ctl_copy_none_0/copy_none();
    [MethodCall]: evidence_ctl_ev_time_step/ev_time_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_time_step | Key(s): (bit<1>)false;, (bit<1>)true;, (bit<1>)false; | Chosen action: ev_time_of_send()]
    [MethodCall]: evidence_ctl_ev_time_of_send_0/ev_time_of_send();
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.deadline;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.deadline;| Computed: v.second = "Taint";
    [AssignmentStatement]: rv = v.first;| Computed: rv = "Taint";
    [AssignmentStatement]: md.tag = ev_time_send.execute(md.ev_index);| Computed: md.tag = "Taint";
    [MethodCall]: evidence_ctl_ev_ka_step/ev_ka_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_ka_step | Key(s): (bit<1>)false;, (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: ev_ka_of_data()]
    [MethodCall]: evidence_ctl_ev_ka_of_data_0/ev_ka_of_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: rv = md.now - v;| Computed: rv = "Taint";
    [AssignmentStatement]: md.ka_overdue = ev_ka_send_data.execute(md.ev_index);| Computed: md.ka_overdue = "Taint";
    [AssignmentStatement]: md.overdue = md.now - md.tag;| Computed: md.overdue = "Taint";
    [MethodCall]: evidence_ctl_ev_seen_step/ev_seen_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_seen_step | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: ev_seen_of_data()]
    [MethodCall]: evidence_ctl_ev_seen_of_data_0/ev_seen_of_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: v = md.tag;| Computed: v = "Taint";
    [AssignmentStatement]: rv = 1;| Computed: rv = 1;
    [AssignmentStatement]: md.fresh = ev_seen_mark.execute(md.ev_index ++ md.ev_bucket);| Computed: md.fresh = "Taint";
    [MethodCall]: evidence_ctl_ev_count_step/ev_count_step.apply();
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_send_0/ev_count_of_send();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_expired_data_0/ev_count_of_expired_data();
    [AssignmentStatement]: rv = 0;| Computed: rv = 0;
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [Tainted If Statement]: 
    [AssignmentStatement]: rv = 1;| Computed: rv = 1;
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: ig_dprsr_md.resubmit_type = ev_count_proof.execute(md.ev_index);| Computed: ig_dprsr_md.resubmit_type = "Taint";
    [MethodCall]: md.resub.setValid();
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 0;
    [AssignmentStatement]: md.resub.reason = VERDICT_REASON_DATA;| Computed: md.resub.reason = 2;
    [AssignmentStatement]: md.resub.overdue = md.overdue;| Computed: md.resub.overdue = "Taint";
    [MethodCall]: evidence_ctl_ev_count_of_keepalive_proof_0/ev_count_of_keepalive_proof();
    [MethodCall]: evidence_ctl_ev_count_add/ev_count_add.execute(md.ev_index);
    [Tainted If Statement]: 
    [AssignmentStatement]: v.first = md.tag;| Computed: v.first = "Taint";
    [AssignmentStatement]: v.second = md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: v.second = v.second + md.fresh;| Computed: v.second = "Taint";
    [AssignmentStatement]: ig_dprsr_md.resubmit_type = 1;| Computed: ig_dprsr_md.resubmit_type = 1;
    [MethodCall]: md.resub.setValid();
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 0;
    [AssignmentStatement]: md.resub.reason = VERDICT_REASON_KEEPALIVE;| Computed: md.resub.reason = 1;
    [AssignmentStatement]: md.resub.overdue = md.ka_overdue;| Computed: md.resub.overdue = "Taint";
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_port_rx/port_rx.count((bit<32>)ig_intr_md.ingress_port);
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_link_counters/link_counters.count((bit<32>)(md.link_id ++ md.link_kind));
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_filter_group_counters/filter_group_counters.count((bit<32>)(md.fg_index ++ md.fg_kind));
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.bridged.setValid();
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.to_cpu = 0;
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.ka_stamp = 0;
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } else if (md.learn) { ig_dprsr_md.digest_type = 2; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_tm_md.ucast_egress_port = 511;
    [P4Testgen MethodCall]: *.copy_out("BalancerIngress");
    [P4Testgen MethodCall]: *.copy_in("IngressDeparser");
    [Control IngressDeparser start]
    [If Statement]: ig_dprsr_md.digest_type == 2 Condition: 0 == 2; Result: false
    [If Statement]: ig_dprsr_md.digest_type == 1 Condition: 0 == 1; Result: false
    [MethodCall]: pkt.emit<bridged_md_t>(hdr.bridged);
    [Emit]: {$headerValid:true;;    _pad0:0;  to_cpu:0;  ka_stamp:0;  }
    [MethodCall]: pkt.emit<packet_in_t>(hdr.packet_in);
    [Invalid emit: { ingress_port = TaintedExpression(bit<9>), _pad0 = TaintedExpression(bit<7>), reason = TaintedExpression(bit<8>), rx_timestamp = TaintedExpression(bit<48>) }]
    [MethodCall]: pkt.emit<ethernet_t>(hdr.ethernet);
    [Emit]: {$headerValid:true;;    dst_addr:208134792371031;  src_addr:184231785654012;  }
    [MethodCall]: pkt.emit<core_t>(hdr.core);
    [Emit]: {$headerValid:true;;    tpid:0;  link_id:43;  core_id:0;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[0]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:3565;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[1]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:3963;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[2]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:0;  }
    [MethodCall]: pkt.emit<eth_type_t>(hdr.eth_type);
    [Emit]: {$headerValid:true;;    value:34888;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[0]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:0;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[1]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:0;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[2]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:0;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[3]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:0;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[4]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:0;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[5]);
    [Emit]: {$headerValid:true;;    label:0;  tc:0;  bos:1;  ttl:0;  }
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[6]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<mpls_t>(hdr.mpls[7]);
    [Invalid emit: { label = TaintedExpression(bit<20>), tc = TaintedExpression(bit<3>), bos = TaintedExpression(bit<1>), ttl = TaintedExpression(bit<8>) }]
    [MethodCall]: pkt.emit<pppoe_t>(hdr.pppoe);
    [Invalid emit: { version = TaintedExpression(bit<4>), type = TaintedExpression(bit<4>), code = TaintedExpression(bit<8>), session_id = TaintedExpression(bit<16>), length = TaintedExpression(bit<16>), protocol = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<ipv4_t>(hdr.ipv4);
    [Emit]: {$headerValid:true;;    version:4;  ihl:7;  dscp_ecn:0;  total_len:0;  identification:0;  flags:0;  frag_offset:0;  ttl:0;  protocol:17;  hdr_checksum:0;  src_addr:1143240001;  dst_addr:2805755942;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[0]);
    [Emit]: {$headerValid:true;;    data:0;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[1]);
    [Emit]: {$headerValid:true;;    data:0;  }
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[2]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[3]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[4]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[5]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[6]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[7]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[8]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv4_option_word_t>(hdr.ipv4_options[9]);
    [Invalid emit: { data = TaintedExpression(bit<32>) }]
    [MethodCall]: pkt.emit<ipv6_t>(hdr.ipv6);
    [Invalid emit: { version = TaintedExpression(bit<4>), traffic_class = TaintedExpression(bit<8>), flow_label = TaintedExpression(bit<20>), payload_len = TaintedExpression(bit<16>), next_hdr = TaintedExpression(bit<8>), hop_limit = TaintedExpression(bit<8>), src_addr = TaintedExpression(bit<128>), dst_addr = TaintedExpression(bit<128>) }]
    [MethodCall]: pkt.emit<tcp_t>(hdr.tcp);
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), seq_no = TaintedExpression(bit<32>), ack_no = TaintedExpression(bit<32>), data_offset = TaintedExpression(bit<4>), res = TaintedExpression(bit<4>), flags = TaintedExpression(bit<8>), window = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>), urgent_ptr = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<udp_t>(hdr.udp);
    [Emit]: {$headerValid:true;;    src_port:30466;  dst_port:63962;  length:0;  checksum:0;  }
    [MethodCall]: pkt.emit<keepalive_t>(hdr.keepalive);
    [Invalid emit: { magic = TaintedExpression(bit<32>), version = TaintedExpression(bit<8>), direction = TaintedExpression(bit<8>), filter_group = TaintedExpression(bit<16>), seq = TaintedExpression(bit<32>), tx_timestamp = TaintedExpression(bit<64>) }]
    [P4Testgen MethodCall]: *.copy_out("IngressDeparser");
    [P4Testgen AssignmentStatement]: *eg_intr_md.egress_port = 511;
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    [Drop packet smaller than 240 for PTF.]: 10032
    [P4Testgen MethodCall]: *.tofino_drop();
    [Packet marked dropped.]
    '''

    def setupCtrlPlane(self):
        self.setRegisterValue('BalancerIngress.verdict', 0x17B3, 42)
        self.setRegisterValue('BalancerIngress.ev_time', [('BalancerIngress.ev_time.first', 0x00000000), ('BalancerIngress.ev_time.second', 0x00000000)], 85)
        self.setRegisterValue('BalancerIngress.ev_ka', 0x00000000, 85)
        self.setRegisterValue('BalancerIngress.ev_seen', 0x00000000, 2720)
        self.setRegisterValue('BalancerIngress.ev_count', [('BalancerIngress.ev_count.first', 0x00000000), ('BalancerIngress.ev_count.second', 0x00000000)], 85)
        # Table BalancerIngress.port_role
        self.insertTableEntry(
            'BalancerIngress.port_role',
            [
                gc.KeyTuple('port', 0x0AA),
            ],
            'BalancerIngress.set_operator_port',
            [
                gc.DataTuple('link_id', 0x2B),
                gc.DataTuple('side', 0x1),
                gc.DataTuple('peer_port', 0x000),
            ]
        )
        # Table BalancerIngress.flow_rules
        self.insertTableEntry(
            'BalancerIngress.flow_rules',
            [
                gc.KeyTuple('link_id', 0x2F, 0x39),
                gc.KeyTuple('outer_vid', 0xE2D, 0x80F),
                gc.KeyTuple('inner_vid', 0xE7B, 0xA5E),
                gc.KeyTuple('vlan_depth', 0x1, 0x0),
                gc.KeyTuple('mpls_depth', 0x8, 0x0),
                gc.KeyTuple('src_mac', 0x85ACAE73B374, 0xDD4C1A8F0A67),
                gc.KeyTuple('dst_mac', 0xB96E387DDF55, 0x7B9DAADC1065),
                gc.KeyTuple('eth_type', 0x22FA, 0x5545),
                gc.KeyTuple('is_ipv4', 0x0, 0x0),
                gc.KeyTuple('ipv4_src', 0x5666DD6D, 0xCD9C1552),
                gc.KeyTuple('ipv4_dst', 0x21F7097C, 0x290086A5),
                gc.KeyTuple('ip_proto', 0xF7, 0x08),
                gc.KeyTuple('l4_src', 0x77D2, 0xBF2D),
                gc.KeyTuple('l4_dst', 0x9D9A, 0x9A19),
            ],
            'BalancerIngress.balance',
            [
                gc.DataTuple('group', 0x1),
            ]
        )
        # Table BalancerIngress.sessions
        self.insertTableEntry(
            'BalancerIngress.sessions',
            [
                gc.KeyTuple('balance_group', 0x1),
                gc.KeyTuple('addr_lo', 0x44247541),
                gc.KeyTuple('addr_hi', 0xA73C7026),
                gc.KeyTuple('proto', 0x11),
            ],
            'BalancerIngress.keep',
            [
                gc.DataTuple('filter_group', 0x2A),
                gc.DataTuple('core', 0x000),
            ]
        )
        # Table BalancerIngress.balance_groups
        self.insertTableEntry(
            'BalancerIngress.balance_groups',
            [
                gc.KeyTuple('balance_group', 0x1),
            ],
            'BalancerIngress.group_active',
            [
                gc.DataTuple('slot_mask', 0x0000),
            ]
        )
        # Table BalancerIngress.filter_groups
        self.insertTableEntry(
            'BalancerIngress.filter_groups',
            [
                gc.KeyTuple('filter_group', 0x2A),
            ],
            'BalancerIngress.filter_forward',
            [
                gc.DataTuple('lan_port', 0x000),
                gc.DataTuple('wan_port', 0x1FF),
                gc.DataTuple('tpid', 0x0000),
                gc.DataTuple('epoch', 0x00),
                gc.DataTuple('detect', 0x00000000),
                gc.DataTuple('fail_drop', 0x0),
            ]
        )

    def sendPacket(self):
        ig_port = 170
        pkt = b'\xBD\x4C\x28\x5D\x5B\x57\xA7\x8E\xCE\x23\xE6\xFC\x91\x00\x0D\xED\x91\x00\x0F\x7B\x91\x00\x00\x00\x88\x48\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x47\x00\x00\x00\x00\x00\x00\x00\x00\x11\x00\x00\x44\x24\x75\x41\xA7\x3C\x70\x26\x00\x00\x00\x00\x00\x00\x00\x00\x77\x02\xF9\xDA\x00\x00\x00\x00\xF6\x62\xAD\xDF\x14\x51\xDD\x1C\x61\xB7\xCC\x91\xB6\xAD\x5A\x4C\x6B\x3B\xEA\xD0\xCA\xA2\x3B\x5D\x2E\xFA\x7C\xAE\x33\x59\x54\x76\xC0\xBD\x1C\x8F\x03\xD2\x6F\x6A\x69\xD8\xC3\x34\xE1\x48\x08\xC7\x92\xE2\xAA\xEC\x83\x60\x3F\x21\x3A\xC2\x6C\xD3\x69\x77\x94\x42\xA7\xE8\xEE\xFF\x2F\xA6\xA8\x11\x4F\xB2\xFC\xC2\xB2\xA5\x28\x66\xDC\x12\xAB\x91\x80\x52\xB8\x30\x73\x0C\xA2\x71\x5B\xD2\x9E\x03\xA2\x68\x86\x1A\xEF\x47\x8A\x2A\x0A\x0C\x40\xBD\xBC\xE9\xCA\xE9\x8F\x6E\x7D\x81\x54\xA3\xFE\x83\x3D\xA9\x1D\x1D\x68\x4C\x0E\xBA\xF7\x98\x71\x52\x3A\x78\x74\xE0\x6F\xD0\xB2\x0B\xF4\xC9\x5F\xA1\x4A\xF4\x0F\x02\x24\x78\x44\x3E\x92\x9A\xBF\xF8\xC6\x85\x8B\x89\xF4\x94\x23\x8B\x9E\x65\xAA\x14\xC8\x35\x25\x94\x7A\x66\x38\x56\x05\xC9\x0B\x98\x8E\x52\x08\x2A\xB8\x35\x0A\x51\xE5\x01\xF7\xED\x11\x3A\x76\x8E\x01\x99\xD6\xFE\xFD\x6B\x68\x72\x43\x37\x24\xF4\x5C\xCE\x42\xC2\x16\x18\xBA\xBA\xF6\x03\x45\xE9\xA3\x91\x8F\x62\x51\x3B\x48\xC3\xA6\x85\xC3\x84\x03\x7F\xBE\x8D\x8B\xA9\xFF\x0C\x44\x50\x8F\x9E\xD2\xCA\x04\x1F\xFA\x94\x1A\x13\xB6\xDF\x8B\xB1\x90\xD3\x69\x1D\x6A\x64\x4A\xCD\x02\x15\x08\xDD\x49\x7A\x2D\x09\xBC\x03\xFC\xE2\x17\xCE\x25\x24\xD9\x5F\x08\x59\xFA\xB4\x92\x4C\x72\xCC\x45\x46\x46\xF9\xD6\x04\xFE\x1D\xA8\x37\x0C\xC3\x32\x39\x08\xA3\x5A\x1A\xD3\x2B\x1F\xF0\xEE\x30\x33\x5E\x03\x3C\x23\x10\x67\xBB\x70\x39\xFB\x6C\xC0\x70\x2B\x35\xBE\xD7\xAA\xE9\x82\x26\xB2\xFA\xEB\x62\xF7\xD1\xDD\xD1\x74\x5C\xE5\x8A\x26\x07\x34\x67\x1C\x69\xDC\x28\x13\x17\x62\xD1\x19\x3D\x92\x55\x94\x8C\x6F\x60\x7C\x64\x78\x0B\xA3\x4D\xE3\x99\x42\xC8\x2A\x44\x5C\xD1\x54\x7A\xF4\x09\x6C\x10\x23\x83\x4A\x8E\xBC\x59\x04\x58\x7D\x1F\xE6\x86\xC4\xBB\xCE\x15\x33\x77\xE9\xEF\x17\xD9\x97\x24\x12\x9F\x73\xEA\xAC\x48\xC0\xCA\x51\x19\x6B\x54\xF6\x4A\x36\xD4\x3B\x19\xFA\x36\x6A\x0F\xC4\x85\x3E\x45\x20\x84\x12\x41\xAE\xA0\x0B\xBF\x25\x50\xA7\xB2\xA0\x3F\x9A\x7F\x38\x55\x2B\xF9\x9F\x2F\xA6\x4D\x7C\x90\x61\x10\x24\x97\x58\x79\x6C\xBB\xDB\x38\x6B\x9D\x27\x29\x07\x67\xD5\x80\x81\x96\x05\xB6\x64\xF0\x98\xEE\x04\x35\xE3\x34\x67\x1F\xA3\xC6\x34\x39\xAA\x2F\xC6\x29\x74\x92\xF7\xF4\x1F\xE1\x76\x40\xB6\x30\x65\xC9\xC7\xB6\x3B\xBA\xBB\x2B\xE2\x3F\xE7\x70\x7D\x2A\xCB\xFD\xD7\xAE\x26\x24\x53\xC1\x4E\xC5\x9D\x64\xE7\xAC\x3F\x9D\xA5\x58\xA1\x29\x66\x95\xF8\x63\x2F\x51\xEC\xE2\x30\xF8\x21\x6F\x5B\x65\xF1\x49\x8A\x9C\x7E\x4F\x92\xC6\xCD\xEC\xD2\x51\xBB\xB9\x30\x3B\x5D\xD3\x3A\xC0\x68\xC8\xB8\x4C\x0F\xA5\x21\x1C\xD4\x48\xA2\x56\xC1\x1B\x0B\xC5\x8A\x15\xAC\x5E\x44\x85\x0B\x9D\x92\xDA\x0F\xB9\xEE\xFB\x35\x92\x7F\x7E\xD8\x00\xE2\xA0\x57\x10\x30\x38\x15\xCB\xBE\xE8\xEE\xBF\x91\x94\x1D\x8F\x7E\x4E\xE4\x36\x4A\x55\x0A\xE8\x30\xE3\xCB\x87\xDB\xF1\xE8\x6E\xA7\x14\x2E\x3E\x84\xC2\xC8\xCD\x52\xB3\x8E\x1C\x5F\xDB\xEB\x2A\x02\xB2\x7C\xA4\x5E\x16\x9F\x71\xE7\x87\xF6\xB4\x2D\xFB\x56\xFA\x29\x60\x66\x32\x0B\xA4\x5B\x67\xB0\xDA\xDA\xC5\x3E\x66\xB0\x66\xE0\x03\xDB\x89\x68\xB3\xCC\xEA\xC2\xAC\xC4\x59\xC1\x52\xF8\x8C\x15\xFB\x2C\x80\x50\x46\x08\xD9\x92\xAE\xC1\xC6\x1E\x56\x20\x02\x95\x69\x54\xEF\xAF\x0F\x72\xBE\xED\xC4\x1D\xCF\x7B\x6B\x90\x2F\x05\xBF\xB0\x92\x73\xCE\x0C\x8D\x19\xEB\x06\xA3\x37\x60\xB6\xD5\xEE\x88\x6A\x4D\xF8\x4B\x9B\xA8\x33\x3D\x0D\x3C\xFA\xEE\x17\x4B\xBD\x42\xD6\x5B\xA6\xB3\x4C\x11\xA7\x47\xC0\xC5\x6F\x08\x5B\xA0\x11\x9E\xA0\xB8\x19\xCD\xC0\x78\x46\xD5\x28\x05\x46\xD1\x1E\x79\xCA\x0E\x80\xA3\xFD\x28\xA7\x21\xEA\x90\x02\x6A\x24\xC3\x41\x9D\x85\xB8\x59\x3E\xBE\x2E\xD1\xD5\xA8\x8C\x1B\x2D\x06\x8D\xBE\x1A\x8D\xB2\xB4\xE0\x1D\x87\xB9\xC6\xC5\x54\x70\x01\x1D\x74\xE2\x45\x44\xB2\x3D\xF7\x06\x25\xF4\xD0\xC9\xB6\xB5\xB1\x93\x68\xDA\x0F\xD0\x62\xBD\x01\xF2\xD7\x6D\x43\x86\x3C\x2E\xF2\x8C\x48\xB9\xA2\x70\xAD\xF8\xDB\x8A\xFE\x85\x9E\x7B\x17\xF5\x90\x19\xDD\xCC\x3C\x51\xED\xEF\x1F\x9D\x11\x7E\xC0\x42\x59\x3F\x01\xC0\xD5\x26\x2B\xF4\x7C\x99\x68\x1D\x76\x60\x6F\xBD\x7E\xED\x1C\xE0\x87\x36\xCF\xEF\x25\xC6\x42\xD6\x19\xA1\x3C\xCD\xDA\xBC\xC2\xA7\xBE\x50\x92\xF9\xEA\xC9\xE3\x81\xF1\x19\x05\xCD\x8A\xA5\x83\x58\xF9\x74\x5A\x8D\x7D\x76\x4B\x3F\xE5\x7A\xF5\x55\xA0\xDD\xE6\xEC\x20\x05\x25\x55\x22\xCC\x46\x94\xD2\x9D\x06\xDE\x77\xAC\x11\x1E\x98\xA2\x0C\x96\x4E\xEE\x98\xD8\x1C\x0A\xE2\xDC\xF1\xFF\x49\xF1\x0B\x70\xB5\x36\xFF\x38\x7E\x7C\x4E\x66\x6B\xE9\xEA\xEA\x57\xBD\x5A\x7E\xF6\x27\xB9\x44\x02\x12\x81\x45\x9E\xA2\x38\xF1\x6F\xE8\x6C\xC3\x92\x09\x1B\xFA\x3D\x68\xD0\x12\xC6\x89\xD1\x01\xFC\x81\xD8\x7C\x40\x7C\x49\xA2\x9C\x55\x5D\xD0\x14\x12\x90\xCD\xC4\x7A\x53\xEE\x35\xE9\x04\x20\x87\xEB\x7A\x26\x6F\x9A\xA7\x3C\x34\xB2\xE5\xBE\x91\x01\xD1\x8B\x38\x55\x15\xEA\xA0\x75\x01\x9C\xDF\xAF\x38\xDC\x92\xB8\x3E\xF5\x55\xBA\xD4\xEA\xB4\x04\x4E\x95\x9B\x66\x76\x01\x67\x0C\x08\xD0\x94\x83\x66\x83\x89\x08\xD7\x1B\x93\x92\xE0\x34\x62\x15\x5B\x57\xE5\x1E\x6B\x28\x84\xA9\x0C\xD0\xA6\xCD\x3D\x10\xB3\x7B'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        pass

    def runTest(self):
        self.runTestImpl()

