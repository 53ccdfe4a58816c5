# PTF test for tests/testgen/testdata/tofino-verdict/forward
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

logger = logging.getLogger('tests/testgen/testdata/tofino-verdict/forward')
logger.addHandler(logging.StreamHandler())

class AbstractTest(BfRuntimeTest):
    def setUp(self):
        BfRuntimeTest.setUp(self, 0, 'tests/testgen/testdata/tofino-verdict/forward')
        self.dev_id = 0
        self.table_entries = []
        self.bfrt_info = None
        # Get bfrt_info and set it as part of the test.
        self.bfrt_info = self.interface.bfrt_info_get('tests/testgen/testdata/tofino-verdict/forward')

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
    # Date generated: 2026-12-07-20:47:26.799
    # Current statement coverage: 0.53
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
    [ExtractSuccess] hdr.ethernet@0 | Condition: |*packetLen_bits(bit<32>)| >= 96; | Extract Size: 96 -> hdr.ethernet.dst_addr = 0xCA9B_FF53_B7D3 | hdr.ethernet.src_addr = 0x8BFA_E9AC_0665
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 112;]
    [P4Testgen AssignmentStatement]: tmp_0 = 37120;
    [State] parse_vlan_0
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[0]);
    [ExtractSuccess] hdr.vlan[0]@96 | Condition: |*packetLen_bits(bit<32>)| >= 128; | Extract Size: 32 -> hdr.vlan[0].tpid = 0x9100 | hdr.vlan[0].pcp = 0x0 | hdr.vlan[0].dei = 0x0 | hdr.vlan[0].vid = 0x718
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 144;]
    [P4Testgen AssignmentStatement]: tmp_4 = 37120;
    [State] parse_vlan_1
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[1]);
    [ExtractSuccess] hdr.vlan[1]@128 | Condition: |*packetLen_bits(bit<32>)| >= 160; | Extract Size: 32 -> hdr.vlan[1].tpid = 0x9100 | hdr.vlan[1].pcp = 0x0 | hdr.vlan[1].dei = 0x0 | hdr.vlan[1].vid = 0x159
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
    [Lookahead result]: 4
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 244;]
    [P4Testgen AssignmentStatement]: tmp_8 = 4;
    [State] parse_ipv4
    [MethodCall]: pkt.extract<ipv4_t>(hdr.ipv4);
    [ExtractSuccess] hdr.ipv4@240 | Condition: |*packetLen_bits(bit<32>)| >= 400; | Extract Size: 160 -> hdr.ipv4.version = 0x4 | hdr.ipv4.ihl = 0x9 | hdr.ipv4.dscp_ecn = 0x00 | hdr.ipv4.total_len = 0x0000 | hdr.ipv4.identification = 0x0000 | hdr.ipv4.flags = 0x0 | hdr.ipv4.frag_offset = 0x18C0 | hdr.ipv4.ttl = 0x00 | hdr.ipv4.protocol = 0x11 | hdr.ipv4.hdr_checksum = 0x0000 | hdr.ipv4.src_addr = 0x5272_4FD5 | hdr.ipv4.dst_addr = 0xA996_A99B
    [State] parse_ipv4_option_0
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[0]);
    [ExtractSuccess] hdr.ipv4_options[0]@400 | Condition: |*packetLen_bits(bit<32>)| >= 432; | Extract Size: 32 -> hdr.ipv4_options[0].data = 0x0000_0000
    [State] parse_ipv4_option_1
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[1]);
    [ExtractSuccess] hdr.ipv4_options[1]@432 | Condition: |*packetLen_bits(bit<32>)| >= 464; | Extract Size: 32 -> hdr.ipv4_options[1].data = 0x0000_0000
    [State] parse_ipv4_option_2
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[2]);
    [ExtractSuccess] hdr.ipv4_options[2]@464 | Condition: |*packetLen_bits(bit<32>)| >= 496; | Extract Size: 32 -> hdr.ipv4_options[2].data = 0x0000_0000
    [State] parse_ipv4_option_3
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[3]);
    [ExtractSuccess] hdr.ipv4_options[3]@496 | Condition: |*packetLen_bits(bit<32>)| >= 528; | Extract Size: 32 -> hdr.ipv4_options[3].data = 0x0000_0000
    [State] parse_ipv4_l4
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
    [AssignmentStatement]: md.side = side;| Computed: md.side = 1;
    [AssignmentStatement]: md.peer_port = peer_port;| Computed: md.peer_port = 68;
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
    [AssignmentStatement]: if (hdr.vlan[0].isValid()) { md.outer_vid = hdr.vlan[0].vid; }| Computed: md.outer_vid = 1816;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[1].isValid()) { md.inner_vid = hdr.vlan[1].vid; }| Computed: md.inner_vid = 345;
    [AssignmentStatement]: md.is_ipv4 = 0;| Computed: md.is_ipv4 = 0;
    [AssignmentStatement]: md.ipv4_src = 0;| Computed: md.ipv4_src = 0;
    [AssignmentStatement]: md.ipv4_dst = 0;| Computed: md.ipv4_dst = 0;
    [AssignmentStatement]: md.ip_proto = 0;| Computed: md.ip_proto = 0;
    [AssignmentStatement]: md.addr_x = 0;| Computed: md.addr_x = 0;
    [AssignmentStatement]: md.addr_y = 0;| Computed: md.addr_y = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.is_ipv4 = 1;| Computed: md.is_ipv4 = 1;
    [AssignmentStatement]: md.ipv4_src = hdr.ipv4.src_addr;| Computed: md.ipv4_src = 1383223253;
    [AssignmentStatement]: md.ipv4_dst = hdr.ipv4.dst_addr;| Computed: md.ipv4_dst = 2845223323;
    [AssignmentStatement]: md.ip_proto = hdr.ipv4.protocol;| Computed: md.ip_proto = 17;
    [AssignmentStatement]: md.addr_x = hdr.ipv4.src_addr;| Computed: md.addr_x = 1383223253;
    [AssignmentStatement]: md.addr_y = hdr.ipv4.dst_addr;| Computed: md.addr_y = 2845223323;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [AssignmentStatement]: md.l4_src = 0;| Computed: md.l4_src = 0;
    [AssignmentStatement]: md.l4_dst = 0;| Computed: md.l4_dst = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
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
    [Table Branch: BalancerIngress.flow_rules | Key(s): |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |pktvar_5(bit<12>)|, |pktvar_9(bit<12>)|, 3, 1, |pktvar_1(bit<48>)|, |pktvar_0(bit<48>)|, |pktvar_14(bit<16>)|, 1, |pktvar_29(bit<32>)|, |pktvar_30(bit<32>)|, |pktvar_27(bit<8>)|, 0, 0| Chosen action: BalancerIngress.balance]
    [MethodCall]: _BalancerIngress_balance_0/balance(|BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|);
    [AssignmentStatement]: md.balance = true;| Computed: md.balance = true;
    [AssignmentStatement]: md.balance_group = group;| Computed: md.balance_group = 2;
    [MethodCall]: _BalancerIngress_flow_rules_counter/flow_rules_counter.count();
    [If Statement]: (md.addr_x < md.addr_y) Condition: |pktvar_29(bit<32>)| < |pktvar_30(bit<32>)|; Result: true
    [AssignmentStatement]: bit<32> lo = (md.addr_x < md.addr_y) ? md.addr_x : md.addr_y;| Computed: session_hash_tmp = 1383223253;
    [If Statement]: (md.addr_x < md.addr_y) Condition: |pktvar_29(bit<32>)| < |pktvar_30(bit<32>)|; Result: true
    [AssignmentStatement]: bit<32> hi = (md.addr_x < md.addr_y) ? md.addr_y : md.addr_x;| Computed: session_hash_tmp_0 = 2845223323;
    [AssignmentStatement]: md.hash = sym_hash.get({ lo, hi, md.ip_proto });| Computed: md.hash = 4116097773;
    [If Statement]: true Condition: true; Result: true
    [If Statement]: (!hdr.ipv4.isValid() && !hdr.ipv6.isValid()) || hdr.core.isValid() Condition: !true && !false || false; Result: false
    [MethodCall]: _BalancerIngress_balance_groups/balance_groups.apply();
    [Table Branch: BalancerIngress.balance_groups | Key(s): |BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|| Chosen action: BalancerIngress.group_active]
    [MethodCall]: _BalancerIngress_group_active_0/group_active(|BalancerIngress.balance_groups_BalancerIngress.group_active_arg_slot_mask_1(bit<16>)|);
    [AssignmentStatement]: md.slot_mask = slot_mask;| Computed: md.slot_mask = 64099;
    [AssignmentStatement]: md.slot = md.hash[15:0] & slot_mask;| Computed: md.slot = 43617;
    [SwitchCase]: group_active
    [MethodCall]: _BalancerIngress_slots/slots.apply();
    [Table Branch: BalancerIngress.slots | Key(s): |BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|, Concolic_Hash_get_3420853_0({ {    f0:|pktvar_29(bit<32>)|;    f1:|pktvar_30(bit<32>)|;    f2:|pktvar_27(bit<8>)|; } })[15:0] & |BalancerIngress.balance_groups_BalancerIngress.group_active_arg_slot_mask_1(bit<16>)|;| Chosen action: BalancerIngress.to_filter]
    [MethodCall]: _BalancerIngress_to_filter_0/to_filter(|BalancerIngress.slots_BalancerIngress.to_filter_arg_filter_group_3(bit<6>)|, |BalancerIngress.slots_BalancerIngress.to_filter_arg_core_1(bit<10>)|);
    [AssignmentStatement]: md.target_fg = filter_group;| Computed: md.target_fg = 2;
    [AssignmentStatement]: md.core = core;| Computed: md.core = 0;
    [AssignmentStatement]: md.slot_hit = true;| Computed: md.slot_hit = true;
    [P4Testgen If Statement]: Condition: true; Result: true
    [MethodCall]: _BalancerIngress_core_counters/core_counters.count((bit<32>)(md.target_fg ++ md.core));
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: port_t named = md.out_port;| Computed: filter_groups_ctl_named/named = 0;
    [MethodCall]: _BalancerIngress_filter_groups/filter_groups.apply();
    [Table Branch: BalancerIngress.filter_groups | Key(s): |BalancerIngress.slots_BalancerIngress.to_filter_arg_filter_group_3(bit<6>)|| Chosen action: BalancerIngress.filter_forward]
    [MethodCall]: _BalancerIngress_filter_forward_0/filter_forward(|BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_lan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_wan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_tpid_1(bit<16>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_detect_1(bit<32>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_fail_drop_1(bit<1>)|);
    [AssignmentStatement]: md.epoch = epoch;| Computed: md.epoch = 16;
    [AssignmentStatement]: md.detect = detect;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = fail_drop;| Computed: md.fail_drop = 0;
    [AssignmentStatement]: md.fg_forward = true;| Computed: md.fg_forward = true;
    [AssignmentStatement]: md.ev_index = md.target_fg ++ md.side;| Computed: md.ev_index = 5;
    [AssignmentStatement]: md.digest.filter_group = (bit<8>)md.target_fg;| Computed: md.digest.filter_group = 2;
    [AssignmentStatement]: md.digest.direction = (bit<8>)md.side;| Computed: md.digest.direction = 1;
    [AssignmentStatement]: md.digest.epoch = epoch;| Computed: md.digest.epoch = 16;
    [AssignmentStatement]: md.deadline = md.now + (detect);| Computed: md.deadline = "Taint";
    [AssignmentStatement]: md.fg_lan_port = lan_port;| Computed: md.fg_lan_port = 0;
    [AssignmentStatement]: md.fg_wan_port = wan_port;| Computed: md.fg_wan_port = 0;
    [AssignmentStatement]: md.tpid = tpid;| Computed: md.tpid = 0;
    [AssignmentStatement]: md.count_fg = true;| Computed: md.count_fg = true;
    [AssignmentStatement]: md.fg_index = md.target_fg;| Computed: md.fg_index = 2;
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
    [If Statement]: md.side == SIDE_LAN Condition: |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_side_2(bit<1>)| == 0; Result: false
    [AssignmentStatement]: md.out_port = md.fg_wan_port;| Computed: md.out_port = 0;
    [AssignmentStatement]: md.ev_bucket = md.hash[20:16];| Computed: md.ev_bucket = 22;
    [MethodCall]: verdict_ctl_verdict_cell/verdict_cell.apply();
    [Constant Table Branch: BalancerIngress.verdict_ctl.verdict_cell | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: cell_read()]
    [MethodCall]: verdict_ctl_cell_read_0/cell_read();
    [AssignmentStatement]: rv = v;| Computed: rv = 32784;
    [AssignmentStatement]: md.cell = verdict_read.execute(md.target_fg);| Computed: md.cell = 32784;
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
    [AssignmentStatement]: { md.out_port = md.peer_port; md.count_link = true; md.link_kind = (LINK_CNT_SW_BYPASS); };| Computed: md.out_port = 68;
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
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 16;
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
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 16;
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
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.to_cpu = 0;
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.ka_stamp = 0;
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_dprsr_md.digest_type = 1;
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_tm_md.ucast_egress_port = 68;
    [P4Testgen MethodCall]: *.copy_out("BalancerIngress");
    [P4Testgen MethodCall]: *.copy_in("IngressDeparser");
    [Control IngressDeparser start]
    [If Statement]: ig_dprsr_md.digest_type == 1 Condition: 1 == 1; Result: true
    [MethodCall]: verdict_digest_0/verdict_digest.pack(md.digest);
    [MethodCall]: pkt.emit<bridged_md_t>(hdr.bridged);
    [Emit]: {$headerValid:true;;    _pad0:0;  to_cpu:0;  ka_stamp:0;  }
    [MethodCall]: pkt.emit<packet_in_t>(hdr.packet_in);
    [Invalid emit: { ingress_port = TaintedExpression(bit<9>), _pad0 = TaintedExpression(bit<7>), reason = TaintedExpression(bit<8>), rx_timestamp = TaintedExpression(bit<48>) }]
    [MethodCall]: pkt.emit<ethernet_t>(hdr.ethernet);
    [Emit]: {$headerValid:true;;    dst_addr:222771352418259;  src_addr:153909778450021;  }
    [MethodCall]: pkt.emit<core_t>(hdr.core);
    [Invalid emit: { tpid = TaintedExpression(bit<16>), link_id = TaintedExpression(bit<6>), core_id = TaintedExpression(bit<10>) }]
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[0]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:1816;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[1]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:345;  }
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
    [Emit]: {$headerValid:true;;    version:4;  ihl:9;  dscp_ecn:0;  total_len:0;  identification:0;  flags:0;  frag_offset:6336;  ttl:0;  protocol:17;  hdr_checksum:0;  src_addr:1383223253;  dst_addr:2845223323;  }
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
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), seq_no = TaintedExpression(bit<32>), ack_no = TaintedExpression(bit<32>), data_offset = TaintedExpression(bit<4>), res = TaintedExpression(bit<4>), flags = TaintedExpression(bit<8>), window = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>), urgent_ptr = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<udp_t>(hdr.udp);
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), length = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<keepalive_t>(hdr.keepalive);
    [Invalid emit: { magic = TaintedExpression(bit<32>), version = TaintedExpression(bit<8>), direction = TaintedExpression(bit<8>), filter_group = TaintedExpression(bit<16>), seq = TaintedExpression(bit<32>), tx_timestamp = TaintedExpression(bit<64>) }]
    [P4Testgen MethodCall]: *.copy_out("IngressDeparser");
    [P4Testgen AssignmentStatement]: *eg_intr_md.egress_port = 68;
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    [P4Testgen If Statement]: Condition: true && (false || 0 <= |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_peer_port_1(bit<9>)| && |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_peer_port_1(bit<9>)| <= 191) && 1 == 0; Result: false
    [P4Testgen MethodCall]: *.StartEgress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*eg_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    _pad0:0;  egress_port:68;  }
    [P4Testgen MethodCall]: *.copy_in("EgressParser");
    [Parser] EgressParser
    [State] start
    [MethodCall]: pkt.extract<egress_intrinsic_metadata_t>(eg_intr_md);
    [ExtractSuccess] eg_intr_md@528 | Condition: |*packetLen_bits(bit<32>)| >= 544; | Extract Size: 16 -> eg_intr_md._pad0 = 0x00 | eg_intr_md.egress_port = 0x044
    [State] parse_ev_copy
    [MethodCall]: pkt.extract<ev_copy_t>(hdr.ev_copy);
    [ExtractSuccess] hdr.ev_copy@528 | Condition: |*packetLen_bits(bit<32>)| >= 552; | Extract Size: 24 -> hdr.ev_copy.magic = Taint | hdr.ev_copy._pad0 = 0x1 | hdr.ev_copy.ev_index = 0x4A | hdr.ev_copy.epoch = 0x9B
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
    [Emit]: {$headerValid:true;;    magic:0;  _pad0:1;  ev_index:74;  epoch:155;  }
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
        self.setRegisterValue('BalancerIngress.verdict', 0x802E, 3)
        self.setRegisterValue('BalancerIngress.ev_time', [('BalancerIngress.ev_time.first', 0x00000000), ('BalancerIngress.ev_time.second', 0x00000000)], 7)
        self.setRegisterValue('BalancerIngress.ev_ka', 0x00000000, 7)
        self.setRegisterValue('BalancerIngress.ev_seen', 0x00000000, 248)
        self.setRegisterValue('BalancerIngress.ev_count', [('BalancerIngress.ev_count.first', 0x00000000), ('BalancerIngress.ev_count.second', 0x00000000)], 7)
        # Table BalancerIngress.port_role
        self.insertTableEntry(
            'BalancerIngress.port_role',
            [
                gc.KeyTuple('port', 0x069),
            ],
            'BalancerIngress.set_operator_port',
            [
                gc.DataTuple('link_id', 0x17),
                gc.DataTuple('side', 0x1),
                gc.DataTuple('peer_port', 0x044),
            ]
        )
        # Table BalancerIngress.flow_rules
        self.insertTableEntry(
            'BalancerIngress.flow_rules',
            [
                gc.KeyTuple('link_id', 0x1F, 0x37),
                gc.KeyTuple('outer_vid', 0x3EA, 0xC27),
                gc.KeyTuple('inner_vid', 0xEEC, 0x3A5),
                gc.KeyTuple('vlan_depth', 0x1, 0x0),
                gc.KeyTuple('mpls_depth', 0xB, 0x4),
                gc.KeyTuple('src_mac', 0xC5EACFDFBDFA, 0xEFF8EBF52FDD),
                gc.KeyTuple('dst_mac', 0xCAE66B6FD68E, 0xEFFDA0EFFF9F),
                gc.KeyTuple('eth_type', 0xCFEE, 0xB002),
                gc.KeyTuple('is_ipv4', 0x0, 0x0),
                gc.KeyTuple('ipv4_src', 0x46E2C9B3, 0xEA490999),
                gc.KeyTuple('ipv4_dst', 0x0D178547, 0x0B5A9223),
                gc.KeyTuple('ip_proto', 0x36, 0xC8),
                gc.KeyTuple('l4_src', 0x5D43, 0x0234),
                gc.KeyTuple('l4_dst', 0x6559, 0x9882),
            ],
            'BalancerIngress.balance',
            [
                gc.DataTuple('group', 0x6),
            ]
        )
        # Table BalancerIngress.balance_groups
        self.insertTableEntry(
            'BalancerIngress.balance_groups',
            [
                gc.KeyTuple('balance_group', 0x6),
            ],
            'BalancerIngress.group_active',
            [
                gc.DataTuple('slot_mask', 0xE6F6),
            ]
        )
        # Table BalancerIngress.slots
        self.insertTableEntry(
            'BalancerIngress.slots',
            [
                gc.KeyTuple('balance_group', 0x6),
                gc.KeyTuple('slot', 0x24E4),
            ],
            'BalancerIngress.to_filter',
            [
                gc.DataTuple('filter_group', 0x03),
                gc.DataTuple('core', 0x000),
            ]
        )
        # Table BalancerIngress.filter_groups
        self.insertTableEntry(
            'BalancerIngress.filter_groups',
            [
                gc.KeyTuple('filter_group', 0x03),
            ],
            'BalancerIngress.filter_forward',
            [
                gc.DataTuple('lan_port', 0x000),
                gc.DataTuple('wan_port', 0x000),
                gc.DataTuple('tpid', 0x0000),
                gc.DataTuple('epoch', 0x2E),
                gc.DataTuple('detect', 0x00000000),
                gc.DataTuple('fail_drop', 0x0),
            ]
        )

    def sendPacket(self):
        ig_port = 105
        pkt = b'\xDA\xE4\x6B\x6F\xD6\xAE\xC5\xEF\xDB\xDF\xAD\xFA\x91\x00\x03\x3A\x91\x00\x0E\xA6\x91\x00\x00\x00\x88\x47\x00\x00\x01\x00\x49\x00\x00\x00\x00\x00\x11\xC7\x00\x11\x00\x00\x52\x72\x4F\xD5\xA9\x96\xA9\x9B\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xA4\x01\x07\x1A\x40\x1D\x57\x76\x26\x79\x93\xA3\x3E\x90\x46\x46\x82\x31\xF5\x61\x2D\x88\xFA\xEB\xFF\xF2\x7B\xEA\xEF\x48\x33\x9E\xE0\xE1\xE9\x7A\x10\x05\x4D\xCA\xB4\xCB\x9A\x0D\x2F\xF9\x0C\xFC\xF1\xBC\xD6\x14\x6D\x73\x9F\xBB\xD0\x20\x63\x10\x8B\xC2\x11\x2D\x5E\xD2\xE8\xD6\xF3\xC5\x66\xF6\x36\x91\x5F\x56\xF3\x7D\x45\xBC\x62\x9C\x92\x6F\x2B\x7F\x16\xB1\xB8\xA2\x51\x61\xCB\xBE\x2E\x46\xD5\x4E\x62\x86\xD5\x7E\x89\x8C\xF0\x90\xBF\x89\x0D\xD3\xB5\x7A\xD5\x74\x27\x70\xE0\x97\xFF\xD3\x3B\xBF\x08\xC6\x47\x0A\x7C\x0C\xF0\xDE\xCE\x6B\xFC\x03\x4E\x21\x55\x82\x88\x68\x42\xBE\x22\x9C\xB6\x82\xD0\x00\x5D\xAD\x35\x0B\x49\x0D\xC9\x46\x45\xA4\xE7\x44\x8B\x86\x82\xEE\x4D\xBD\xBE\xB0\x23\x56\x4C\xFE\x27\x28\x8D\xCE\x1C\x29\x7E\xD0\x0B\x41\x75\x49\xEC\xDE\x8A\x1A\x1F\x48\x45\x3C\xB6\x32\x90\x17\x6C\x34\x9F\xF2\xD5\xF5\x38\x65\xB0\x71\x7D\x18\x98\x30\x57\x59\x89\x21\x09\x29\x34\x4C\x17\x75\x7B\xFD\xD7\x4F\xE0\xCE\x04\xCD\x55\x79\x62\x89\x64\x7B\xE0\x3D\x9B\xCD\x36\xC4\xD7\x1D\x4A\x28\x2C\x40\x21\x80\x55\x82\x3F\xAD\x0C\xE1\xAA\xEF\xCC\xA6\x43\xF4\x1A\x78\xD5\x97\xDB\x07\x92\xA3\xD3\x79\xC4\x95\x25\x45\x98\xD6\x13\x83\xA3\xB6\x13\x40\x4C\xF4\xE4\xDD\xC9\x26\x4F\xF4\xCD\x9C\xEF\x0C\x88\xE4\xEA\xAB\x44\x41\x98\x33\x4C\xAD\x6D\x05\x23\xC7\x8A\x69\x3C\x0C\x34\xD9\xB1\xB9\xA7\xBE\xDC\xAA\x7D\x3A\x29\x84\xDA\xAD\x75\xAE\x43\x65\x18\x99\x66\x7B\xBA\x3D\xCC\xA1\xF6\xE0\xBE\xB4\x7D\x4C\xD2\xA1\x53\xD0\x1A\xED\x14\xF6\x0B\xEA\x38\x64\xEB\x09\xC7\xDF\xB9\x98\x53\x9B\x4A\x75\x65\x95\x15\x5E\xD0\x2C\xAD\x45\x94\x72\x96\x8C\xB6\x93\xBF\x85\xE8\x35\x0C\x06\x4F\x00\xFE\x9F\x33\xAF\xAF\x91\x10\x14\x04\x72\x32\xB0\x1E\xF0\x31\xDE\x0A\x86\xA4\x3E\x1E\x9B\x60\x18\xFF\x61\x3E\x73\x30\x8B\xD2\x83\x11\xE9\xB6\x05\x73\x91\xE7\x62\x76\x4F\xB8\x60\x1E\x3C\x19\x35\x3D\x60\x19\xA1\x56\x87\xB4\x9B\xD8\xA5\x3B\x4F\x37\x6A\xA1\x06\xC3\x9F\xEF\x1F\x33\x2C\x6D\xB4\xD0\xD6\xC6\x61\x57\x97\xC9\x2A\x0C\x70\xF1\xE3\x4D\x29\x08\x69\x1D\x8A\x08\x03\x68\x83\xC6\x9A\xB1\x3A\x29\x07\xE8\x8A\x4E\x6D\xEA\x4F\x7B\x10\xAD\x55\x55\x2F\xC1\xA0\xAC\xB4\x14\x05\xAD\xAD\x08\x26\x7A\xAB\x8F\xD6\x81\x4B\xBC\xF9\xA1\x9A\xBD\x7A\x3E\xB7\xEF\x92\x49\x2E\x58\x35\x22\x69\xCA\xC2\xE6\xF9\x80\x88\xF0\x1B\x12\xEA\x89\xD1\xE5\xC2\x7D\xFB\x84\x62\x9D\x16\xF3\x19\x00\xA2\xB0\x23\xA7\xA1\x80\x19\xF4\x4C\x42\x91\x0D\x48\xEF\x66\xD7\x53\xD5\x7A\x00\x7B\x61\xC1\xD9\x23\xBA\x42\x19\x97\x4D\x68\xEE\x06\xBE\xC9\xA6\xC8\x4C\xE0\x53\x36\xEC\x34\x51\x8A\xE5\x79\x85\xEE\x6C\xD2\x7E\x70\xC4\xEA\x9C\x70\x59\x2E\xF9\xFE\xD2\xEF\x62\xE9\x84\xF6\xDB\x31\xF1\xB2\xE1\x5B\x45\xA9\xB8\xCD\xD9\x75\x4F\xC0\x64\x1C\xC6\x3A\xFA\x15\xA4\xFF\xAB\x09\xA7\x02\x89\x85\xB0\x72\xCF\x96\xD4\x1C\x30\xF4\x1D\xFA\x98\x67\xD0\xA1\xA1\x14\x47\xBF\xA9\x89\xE5\x7A\xC8\x6E\x36\x2B\x42\x4C\x33\xCD\xE8\x9F\x52\xD2\xC3\xCA\xA6\x16\x5A\xEB\x4A\x95\x1B\xD0\x57\xB2\xD7\x9B\x6A\x27\xB2\xF2\xEB\xC9\x8C\x70\x76\xD6\x9E\xC9\x56\xB9\x8A\x94\x34\xC2\xD0\x90\x9A\xA8\xF9\x53\xEF\x66\x39\x49\x2D\x21\xCD\x06'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        eg_port = 68
        exp_pkt = b'\x00\xDA\xE4\x6B\x6F\xD6\xAE\xC5\xEF\xDB\xDF\xAD\xFA\x91\x00\x03\x3A\x91\x00\x0E\xA6\x91\x00\x00\x00\x88\x47\x00\x00\x01\x00\x49\x00\x00\x00\x00\x00\x11\xC7\x00\x11\x00\x00\x52\x72\x4F\xD5\xA9\x96\xA9\x9B\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xA4\x01\x07\x1A\x40\x1D\x57\x76\x26\x79\x93\xA3\x3E\x90\x46\x46\x82\x31\xF5\x61\x2D\x88\xFA\xEB\xFF\xF2\x7B\xEA\xEF\x48\x33\x9E\xE0\xE1\xE9\x7A\x10\x05\x4D\xCA\xB4\xCB\x9A\x0D\x2F\xF9\x0C\xFC\xF1\xBC\xD6\x14\x6D\x73\x9F\xBB\xD0\x20\x63\x10\x8B\xC2\x11\x2D\x5E\xD2\xE8\xD6\xF3\xC5\x66\xF6\x36\x91\x5F\x56\xF3\x7D\x45\xBC\x62\x9C\x92\x6F\x2B\x7F\x16\xB1\xB8\xA2\x51\x61\xCB\xBE\x2E\x46\xD5\x4E\x62\x86\xD5\x7E\x89\x8C\xF0\x90\xBF\x89\x0D\xD3\xB5\x7A\xD5\x74\x27\x70\xE0\x97\xFF\xD3\x3B\xBF\x08\xC6\x47\x0A\x7C\x0C\xF0\xDE\xCE\x6B\xFC\x03\x4E\x21\x55\x82\x88\x68\x42\xBE\x22\x9C\xB6\x82\xD0\x00\x5D\xAD\x35\x0B\x49\x0D\xC9\x46\x45\xA4\xE7\x44\x8B\x86\x82\xEE\x4D\xBD\xBE\xB0\x23\x56\x4C\xFE\x27\x28\x8D\xCE\x1C\x29\x7E\xD0\x0B\x41\x75\x49\xEC\xDE\x8A\x1A\x1F\x48\x45\x3C\xB6\x32\x90\x17\x6C\x34\x9F\xF2\xD5\xF5\x38\x65\xB0\x71\x7D\x18\x98\x30\x57\x59\x89\x21\x09\x29\x34\x4C\x17\x75\x7B\xFD\xD7\x4F\xE0\xCE\x04\xCD\x55\x79\x62\x89\x64\x7B\xE0\x3D\x9B\xCD\x36\xC4\xD7\x1D\x4A\x28\x2C\x40\x21\x80\x55\x82\x3F\xAD\x0C\xE1\xAA\xEF\xCC\xA6\x43\xF4\x1A\x78\xD5\x97\xDB\x07\x92\xA3\xD3\x79\xC4\x95\x25\x45\x98\xD6\x13\x83\xA3\xB6\x13\x40\x4C\xF4\xE4\xDD\xC9\x26\x4F\xF4\xCD\x9C\xEF\x0C\x88\xE4\xEA\xAB\x44\x41\x98\x33\x4C\xAD\x6D\x05\x23\xC7\x8A\x69\x3C\x0C\x34\xD9\xB1\xB9\xA7\xBE\xDC\xAA\x7D\x3A\x29\x84\xDA\xAD\x75\xAE\x43\x65\x18\x99\x66\x7B\xBA\x3D\xCC\xA1\xF6\xE0\xBE\xB4\x7D\x4C\xD2\xA1\x53\xD0\x1A\xED\x14\xF6\x0B\xEA\x38\x64\xEB\x09\xC7\xDF\xB9\x98\x53\x9B\x4A\x75\x65\x95\x15\x5E\xD0\x2C\xAD\x45\x94\x72\x96\x8C\xB6\x93\xBF\x85\xE8\x35\x0C\x06\x4F\x00\xFE\x9F\x33\xAF\xAF\x91\x10\x14\x04\x72\x32\xB0\x1E\xF0\x31\xDE\x0A\x86\xA4\x3E\x1E\x9B\x60\x18\xFF\x61\x3E\x73\x30\x8B\xD2\x83\x11\xE9\xB6\x05\x73\x91\xE7\x62\x76\x4F\xB8\x60\x1E\x3C\x19\x35\x3D\x60\x19\xA1\x56\x87\xB4\x9B\xD8\xA5\x3B\x4F\x37\x6A\xA1\x06\xC3\x9F\xEF\x1F\x33\x2C\x6D\xB4\xD0\xD6\xC6\x61\x57\x97\xC9\x2A\x0C\x70\xF1\xE3\x4D\x29\x08\x69\x1D\x8A\x08\x03\x68\x83\xC6\x9A\xB1\x3A\x29\x07\xE8\x8A\x4E\x6D\xEA\x4F\x7B\x10\xAD\x55\x55\x2F\xC1\xA0\xAC\xB4\x14\x05\xAD\xAD\x08\x26\x7A\xAB\x8F\xD6\x81\x4B\xBC\xF9\xA1\x9A\xBD\x7A\x3E\xB7\xEF\x92\x49\x2E\x58\x35\x22\x69\xCA\xC2\xE6\xF9\x80\x88\xF0\x1B\x12\xEA\x89\xD1\xE5\xC2\x7D\xFB\x84\x62\x9D\x16\xF3\x19\x00\xA2\xB0\x23\xA7\xA1\x80\x19\xF4\x4C\x42\x91\x0D\x48\xEF\x66\xD7\x53\xD5\x7A\x00\x7B\x61\xC1\xD9\x23\xBA\x42\x19\x97\x4D\x68\xEE\x06\xBE\xC9\xA6\xC8\x4C\xE0\x53\x36\xEC\x34\x51\x8A\xE5\x79\x85\xEE\x6C\xD2\x7E\x70\xC4\xEA\x9C\x70\x59\x2E\xF9\xFE\xD2\xEF\x62\xE9\x84\xF6\xDB\x31\xF1\xB2\xE1\x5B\x45\xA9\xB8\xCD\xD9\x75\x4F\xC0\x64\x1C\xC6\x3A\xFA\x15\xA4\xFF\xAB\x09\xA7\x02\x89\x85\xB0\x72\xCF\x96\xD4\x1C\x30\xF4\x1D\xFA\x98\x67\xD0\xA1\xA1\x14\x47\xBF\xA9\x89\xE5\x7A\xC8\x6E\x36\x2B\x42\x4C\x33\xCD\xE8\x9F\x52\xD2\xC3\xCA\xA6\x16\x5A\xEB\x4A\x95\x1B\xD0\x57\xB2\xD7\x9B\x6A\x27\xB2\xF2\xEB\xC9\x8C\x70\x76\xD6\x9E\xC9\x56\xB9\x8A\x94\x34\xC2\xD0\x90\x9A\xA8\xF9\x53\xEF\x66\x39\x49\x2D\x21\xCD\x06'
        exp_pkt = Mask(exp_pkt)
        exp_pkt.set_do_not_care(0, 6)
        verify_packet(self, exp_pkt, eg_port)

    def runTest(self):
        self.runTestImpl()


class Test6(AbstractTest):
    # Date generated: 2026-12-07-20:49:08.872
    # Current statement coverage: 0.53
    '''
    [P4Testgen MethodCall]: *.StartIngress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(0);
    [PrependToProgramHeader]: 0
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*ig_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    resubmit_flag:0;  _pad1:0;  packet_version:0;  _pad2:0;  ingress_port:30;  ingress_mac_tstamp:0;  }
    [P4Testgen MethodCall]: *.copy_in("IngressParser");
    [Parser] IngressParser
    [State] start
    [MethodCall]: pkt.extract<ingress_intrinsic_metadata_t>(ig_intr_md);
    [ExtractSuccess] ig_intr_md@0 | Condition: |*packetLen_bits(bit<32>)| >= 64; | Extract Size: 64 -> ig_intr_md.resubmit_flag = 0x0 | ig_intr_md._pad1 = 0x0 | ig_intr_md.packet_version = 0x0 | ig_intr_md._pad2 = 0x0 | ig_intr_md.ingress_port = 0x01E | ig_intr_md.ingress_mac_tstamp = Taint
    [AssignmentStatement]: md.eth_type = 0;| Computed: md.eth_type = 0;
    [AssignmentStatement]: md.copy_pipe = ig_intr_md.ingress_port[8:7];| Computed: md.copy_pipe = 0;
    [AssignmentStatement]: md.proof_copy = false;| Computed: md.proof_copy = false;
    [State] parse_port_metadata
    [MethodCall]: pkt.advance(64);
    [Advance Condition: |*packetLen_bits(bit<32>)| >= 64;]
    [State] parse_port
    [State] parse_ethernet
    [MethodCall]: pkt.extract<ethernet_t>(hdr.ethernet);
    [ExtractSuccess] hdr.ethernet@0 | Condition: |*packetLen_bits(bit<32>)| >= 96; | Extract Size: 96 -> hdr.ethernet.dst_addr = 0x3DAA_5CA7_DFD8 | hdr.ethernet.src_addr = 0xFBF2_3531_7FBE
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 112;]
    [P4Testgen AssignmentStatement]: tmp_0 = 37120;
    [State] parse_vlan_0
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[0]);
    [ExtractSuccess] hdr.vlan[0]@96 | Condition: |*packetLen_bits(bit<32>)| >= 128; | Extract Size: 32 -> hdr.vlan[0].tpid = 0x9100 | hdr.vlan[0].pcp = 0x0 | hdr.vlan[0].dei = 0x0 | hdr.vlan[0].vid = 0xDAC
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 144;]
    [P4Testgen AssignmentStatement]: tmp_4 = 37120;
    [State] parse_vlan_1
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[1]);
    [ExtractSuccess] hdr.vlan[1]@128 | Condition: |*packetLen_bits(bit<32>)| >= 160; | Extract Size: 32 -> hdr.vlan[1].tpid = 0x9100 | hdr.vlan[1].pcp = 0x0 | hdr.vlan[1].dei = 0x0 | hdr.vlan[1].vid = 0xA5E
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
    [Lookahead result]: 4
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 244;]
    [P4Testgen AssignmentStatement]: tmp_8 = 4;
    [State] parse_ipv4
    [MethodCall]: pkt.extract<ipv4_t>(hdr.ipv4);
    [ExtractSuccess] hdr.ipv4@240 | Condition: |*packetLen_bits(bit<32>)| >= 400; | Extract Size: 160 -> hdr.ipv4.version = 0x4 | hdr.ipv4.ihl = 0x9 | hdr.ipv4.dscp_ecn = 0x00 | hdr.ipv4.total_len = 0x0000 | hdr.ipv4.identification = 0x0000 | hdr.ipv4.flags = 0x0 | hdr.ipv4.frag_offset = 0x0000 | hdr.ipv4.ttl = 0x00 | hdr.ipv4.protocol = 0xDB | hdr.ipv4.hdr_checksum = 0x0000 | hdr.ipv4.src_addr = 0x3C07_E383 | hdr.ipv4.dst_addr = 0xF7E3_E5D7
    [State] parse_ipv4_option_0
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[0]);
    [ExtractSuccess] hdr.ipv4_options[0]@400 | Condition: |*packetLen_bits(bit<32>)| >= 432; | Extract Size: 32 -> hdr.ipv4_options[0].data = 0x0000_0000
    [State] parse_ipv4_option_1
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[1]);
    [ExtractSuccess] hdr.ipv4_options[1]@432 | Condition: |*packetLen_bits(bit<32>)| >= 464; | Extract Size: 32 -> hdr.ipv4_options[1].data = 0x0000_0000
    [State] parse_ipv4_option_2
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[2]);
    [ExtractSuccess] hdr.ipv4_options[2]@464 | Condition: |*packetLen_bits(bit<32>)| >= 496; | Extract Size: 32 -> hdr.ipv4_options[2].data = 0x0000_0000
    [State] parse_ipv4_option_3
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[3]);
    [ExtractSuccess] hdr.ipv4_options[3]@496 | Condition: |*packetLen_bits(bit<32>)| >= 528; | Extract Size: 32 -> hdr.ipv4_options[3].data = 0x0000_0000
    [State] parse_ipv4_l4
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("IngressParser");
    [P4Testgen MethodCall]: *.copy_in("BalancerIngress");
    [Control BalancerIngress start]
    [AssignmentStatement]: md.ingress_port = ig_intr_md.ingress_port;| Computed: md.ingress_port = 30;
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
    [AssignmentStatement]: md.peer_port = peer_port;| Computed: md.peer_port = 91;
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
    [AssignmentStatement]: if (hdr.vlan[0].isValid()) { md.outer_vid = hdr.vlan[0].vid; }| Computed: md.outer_vid = 3500;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[1].isValid()) { md.inner_vid = hdr.vlan[1].vid; }| Computed: md.inner_vid = 2654;
    [AssignmentStatement]: md.is_ipv4 = 0;| Computed: md.is_ipv4 = 0;
    [AssignmentStatement]: md.ipv4_src = 0;| Computed: md.ipv4_src = 0;
    [AssignmentStatement]: md.ipv4_dst = 0;| Computed: md.ipv4_dst = 0;
    [AssignmentStatement]: md.ip_proto = 0;| Computed: md.ip_proto = 0;
    [AssignmentStatement]: md.addr_x = 0;| Computed: md.addr_x = 0;
    [AssignmentStatement]: md.addr_y = 0;| Computed: md.addr_y = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.is_ipv4 = 1;| Computed: md.is_ipv4 = 1;
    [AssignmentStatement]: md.ipv4_src = hdr.ipv4.src_addr;| Computed: md.ipv4_src = 1007149955;
    [AssignmentStatement]: md.ipv4_dst = hdr.ipv4.dst_addr;| Computed: md.ipv4_dst = 4158907863;
    [AssignmentStatement]: md.ip_proto = hdr.ipv4.protocol;| Computed: md.ip_proto = 219;
    [AssignmentStatement]: md.addr_x = hdr.ipv4.src_addr;| Computed: md.addr_x = 1007149955;
    [AssignmentStatement]: md.addr_y = hdr.ipv4.dst_addr;| Computed: md.addr_y = 4158907863;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [AssignmentStatement]: md.l4_src = 0;| Computed: md.l4_src = 0;
    [AssignmentStatement]: md.l4_dst = 0;| Computed: md.l4_dst = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
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
    [Table Branch: BalancerIngress.flow_rules | Key(s): |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |pktvar_5(bit<12>)|, |pktvar_9(bit<12>)|, 3, 1, |pktvar_1(bit<48>)|, |pktvar_0(bit<48>)|, |pktvar_14(bit<16>)|, 1, |pktvar_29(bit<32>)|, |pktvar_30(bit<32>)|, |pktvar_27(bit<8>)|, 0, 0| Chosen action: BalancerIngress.balance]
    [MethodCall]: _BalancerIngress_balance_0/balance(|BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|);
    [AssignmentStatement]: md.balance = true;| Computed: md.balance = true;
    [AssignmentStatement]: md.balance_group = group;| Computed: md.balance_group = 12;
    [MethodCall]: _BalancerIngress_flow_rules_counter/flow_rules_counter.count();
    [If Statement]: (md.addr_x < md.addr_y) Condition: |pktvar_29(bit<32>)| < |pktvar_30(bit<32>)|; Result: true
    [AssignmentStatement]: bit<32> lo = (md.addr_x < md.addr_y) ? md.addr_x : md.addr_y;| Computed: session_hash_tmp = 1007149955;
    [If Statement]: (md.addr_x < md.addr_y) Condition: |pktvar_29(bit<32>)| < |pktvar_30(bit<32>)|; Result: true
    [AssignmentStatement]: bit<32> hi = (md.addr_x < md.addr_y) ? md.addr_y : md.addr_x;| Computed: session_hash_tmp_0 = 4158907863;
    [AssignmentStatement]: md.hash = sym_hash.get({ lo, hi, md.ip_proto });| Computed: md.hash = 3032545079;
    [If Statement]: true Condition: true; Result: true
    [If Statement]: (!hdr.ipv4.isValid() && !hdr.ipv6.isValid()) || hdr.core.isValid() Condition: !true && !false || false; Result: false
    [MethodCall]: _BalancerIngress_balance_groups/balance_groups.apply();
    [Table Branch: BalancerIngress.balance_groups | Key(s): |BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|| Chosen action: BalancerIngress.group_active]
    [MethodCall]: _BalancerIngress_group_active_0/group_active(|BalancerIngress.balance_groups_BalancerIngress.group_active_arg_slot_mask_1(bit<16>)|);
    [AssignmentStatement]: md.slot_mask = slot_mask;| Computed: md.slot_mask = 28253;
    [AssignmentStatement]: md.slot = md.hash[15:0] & slot_mask;| Computed: md.slot = 26133;
    [SwitchCase]: group_active
    [MethodCall]: _BalancerIngress_slots/slots.apply();
    [Table Branch: BalancerIngress.slots | Key(s): |BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|, Concolic_Hash_get_3420853_0({ {    f0:|pktvar_29(bit<32>)|;    f1:|pktvar_30(bit<32>)|;    f2:|pktvar_27(bit<8>)|; } })[15:0] & |BalancerIngress.balance_groups_BalancerIngress.group_active_arg_slot_mask_1(bit<16>)|;| Chosen action: BalancerIngress.to_filter]
    [MethodCall]: _BalancerIngress_to_filter_0/to_filter(|BalancerIngress.slots_BalancerIngress.to_filter_arg_filter_group_3(bit<6>)|, |BalancerIngress.slots_BalancerIngress.to_filter_arg_core_1(bit<10>)|);
    [AssignmentStatement]: md.target_fg = filter_group;| Computed: md.target_fg = 37;
    [AssignmentStatement]: md.core = core;| Computed: md.core = 0;
    [AssignmentStatement]: md.slot_hit = true;| Computed: md.slot_hit = true;
    [P4Testgen If Statement]: Condition: true; Result: true
    [MethodCall]: _BalancerIngress_core_counters/core_counters.count((bit<32>)(md.target_fg ++ md.core));
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: port_t named = md.out_port;| Computed: filter_groups_ctl_named/named = 0;
    [MethodCall]: _BalancerIngress_filter_groups/filter_groups.apply();
    [Table Branch: BalancerIngress.filter_groups | Key(s): |BalancerIngress.slots_BalancerIngress.to_filter_arg_filter_group_3(bit<6>)|| Chosen action: BalancerIngress.filter_forward]
    [MethodCall]: _BalancerIngress_filter_forward_0/filter_forward(|BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_lan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_wan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_tpid_1(bit<16>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_detect_1(bit<32>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_fail_drop_1(bit<1>)|);
    [AssignmentStatement]: md.epoch = epoch;| Computed: md.epoch = 24;
    [AssignmentStatement]: md.detect = detect;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = fail_drop;| Computed: md.fail_drop = 0;
    [AssignmentStatement]: md.fg_forward = true;| Computed: md.fg_forward = true;
    [AssignmentStatement]: md.ev_index = md.target_fg ++ md.side;| Computed: md.ev_index = 75;
    [AssignmentStatement]: md.digest.filter_group = (bit<8>)md.target_fg;| Computed: md.digest.filter_group = 37;
    [AssignmentStatement]: md.digest.direction = (bit<8>)md.side;| Computed: md.digest.direction = 1;
    [AssignmentStatement]: md.digest.epoch = epoch;| Computed: md.digest.epoch = 24;
    [AssignmentStatement]: md.deadline = md.now + (detect);| Computed: md.deadline = "Taint";
    [AssignmentStatement]: md.fg_lan_port = lan_port;| Computed: md.fg_lan_port = 0;
    [AssignmentStatement]: md.fg_wan_port = wan_port;| Computed: md.fg_wan_port = 0;
    [AssignmentStatement]: md.tpid = tpid;| Computed: md.tpid = 0;
    [AssignmentStatement]: md.count_fg = true;| Computed: md.count_fg = true;
    [AssignmentStatement]: md.fg_index = md.target_fg;| Computed: md.fg_index = 37;
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
    [AssignmentStatement]: rv = v;| Computed: rv = 32792;
    [AssignmentStatement]: md.cell = verdict_read.execute(md.target_fg);| Computed: md.cell = 32792;
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
    [AssignmentStatement]: { md.out_port = md.peer_port; md.count_link = true; md.link_kind = (LINK_CNT_SW_BYPASS); };| Computed: md.out_port = 91;
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
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 24;
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
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 24;
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
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.to_cpu = 0;
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.ka_stamp = 0;
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_dprsr_md.digest_type = 1;
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_tm_md.ucast_egress_port = 91;
    [P4Testgen MethodCall]: *.copy_out("BalancerIngress");
    [P4Testgen MethodCall]: *.copy_in("IngressDeparser");
    [Control IngressDeparser start]
    [If Statement]: ig_dprsr_md.digest_type == 1 Condition: 1 == 1; Result: true
    [MethodCall]: verdict_digest_0/verdict_digest.pack(md.digest);
    [MethodCall]: pkt.emit<bridged_md_t>(hdr.bridged);
    [Emit]: {$headerValid:true;;    _pad0:0;  to_cpu:0;  ka_stamp:0;  }
    [MethodCall]: pkt.emit<packet_in_t>(hdr.packet_in);
    [Invalid emit: { ingress_port = TaintedExpression(bit<9>), _pad0 = TaintedExpression(bit<7>), reason = TaintedExpression(bit<8>), rx_timestamp = TaintedExpression(bit<48>) }]
    [MethodCall]: pkt.emit<ethernet_t>(hdr.ethernet);
    [Emit]: {$headerValid:true;;    dst_addr:67801908240344;  src_addr:277017693093822;  }
    [MethodCall]: pkt.emit<core_t>(hdr.core);
    [Invalid emit: { tpid = TaintedExpression(bit<16>), link_id = TaintedExpression(bit<6>), core_id = TaintedExpression(bit<10>) }]
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[0]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:3500;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[1]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:2654;  }
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
    [Emit]: {$headerValid:true;;    version:4;  ihl:9;  dscp_ecn:0;  total_len:0;  identification:0;  flags:0;  frag_offset:0;  ttl:0;  protocol:219;  hdr_checksum:0;  src_addr:1007149955;  dst_addr:4158907863;  }
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
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), seq_no = TaintedExpression(bit<32>), ack_no = TaintedExpression(bit<32>), data_offset = TaintedExpression(bit<4>), res = TaintedExpression(bit<4>), flags = TaintedExpression(bit<8>), window = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>), urgent_ptr = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<udp_t>(hdr.udp);
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), length = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<keepalive_t>(hdr.keepalive);
    [Invalid emit: { magic = TaintedExpression(bit<32>), version = TaintedExpression(bit<8>), direction = TaintedExpression(bit<8>), filter_group = TaintedExpression(bit<16>), seq = TaintedExpression(bit<32>), tx_timestamp = TaintedExpression(bit<64>) }]
    [P4Testgen MethodCall]: *.copy_out("IngressDeparser");
    [P4Testgen AssignmentStatement]: *eg_intr_md.egress_port = 91;
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    [P4Testgen If Statement]: Condition: true && (false || 0 <= |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_peer_port_1(bit<9>)| && |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_peer_port_1(bit<9>)| <= 191) && 1 == 0; Result: false
    [P4Testgen MethodCall]: *.StartEgress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*eg_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    _pad0:0;  egress_port:91;  }
    [P4Testgen MethodCall]: *.copy_in("EgressParser");
    [Parser] EgressParser
    [State] start
    [MethodCall]: pkt.extract<egress_intrinsic_metadata_t>(eg_intr_md);
    [ExtractSuccess] eg_intr_md@528 | Condition: |*packetLen_bits(bit<32>)| >= 544; | Extract Size: 16 -> eg_intr_md._pad0 = 0x00 | eg_intr_md.egress_port = 0x05B
    [State] parse_bridged
    [MethodCall]: pkt.extract<bridged_md_t>(hdr.bridged);
    [ExtractSuccess] hdr.bridged@528 | Condition: |*packetLen_bits(bit<32>)| >= 536; | Extract Size: 8 -> hdr.bridged._pad0 = Taint | hdr.bridged.to_cpu = 0x0 | hdr.bridged.ka_stamp = 0x0
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
        self.setRegisterValue('BalancerIngress.verdict', 0x8040, 59)
        self.setRegisterValue('BalancerIngress.ev_time', [('BalancerIngress.ev_time.first', 0x00000000), ('BalancerIngress.ev_time.second', 0x00000000)], 119)
        self.setRegisterValue('BalancerIngress.ev_ka', 0x00000000, 119)
        self.setRegisterValue('BalancerIngress.ev_seen', 0x00000000, 3818)
        self.setRegisterValue('BalancerIngress.ev_count', [('BalancerIngress.ev_count.first', 0x00000000), ('BalancerIngress.ev_count.second', 0x00000000)], 119)
        # Table BalancerIngress.port_role
        self.insertTableEntry(
            'BalancerIngress.port_role',
            [
                gc.KeyTuple('port', 0x032),
            ],
            'BalancerIngress.set_operator_port',
            [
                gc.DataTuple('link_id', 0x01),
                gc.DataTuple('side', 0x1),
                gc.DataTuple('peer_port', 0x080),
            ]
        )
        # Table BalancerIngress.flow_rules
        self.insertTableEntry(
            'BalancerIngress.flow_rules',
            [
                gc.KeyTuple('link_id', 0x23, 0x0D),
                gc.KeyTuple('outer_vid', 0xDBC, 0x126),
                gc.KeyTuple('inner_vid', 0xEFD, 0xFE8),
                gc.KeyTuple('vlan_depth', 0x1, 0x1),
                gc.KeyTuple('mpls_depth', 0x3, 0xD),
                gc.KeyTuple('src_mac', 0x7FD7DFBAEF99, 0xF377CD6FDD90),
                gc.KeyTuple('dst_mac', 0xB3BABBBEBB9D, 0x3BE3BBDEFE09),
                gc.KeyTuple('eth_type', 0xAAED, 0x4510),
                gc.KeyTuple('is_ipv4', 0x1, 0x1),
                gc.KeyTuple('ipv4_src', 0xB8078320, 0x43FE9544),
                gc.KeyTuple('ipv4_dst', 0x776AE753, 0x3B54C55A),
                gc.KeyTuple('ip_proto', 0xDF, 0x49),
                gc.KeyTuple('l4_src', 0x2880, 0x127C),
                gc.KeyTuple('l4_dst', 0xD872, 0x008C),
            ],
            'BalancerIngress.balance',
            [
                gc.DataTuple('group', 0xC),
            ]
        )
        # Table BalancerIngress.balance_groups
        self.insertTableEntry(
            'BalancerIngress.balance_groups',
            [
                gc.KeyTuple('balance_group', 0xC),
            ],
            'BalancerIngress.group_active',
            [
                gc.DataTuple('slot_mask', 0x4A7D),
            ]
        )
        # Table BalancerIngress.slots
        self.insertTableEntry(
            'BalancerIngress.slots',
            [
                gc.KeyTuple('balance_group', 0xC),
                gc.KeyTuple('slot', 0x4859),
            ],
            'BalancerIngress.to_filter',
            [
                gc.DataTuple('filter_group', 0x3B),
                gc.DataTuple('core', 0x000),
            ]
        )
        # Table BalancerIngress.filter_groups
        self.insertTableEntry(
            'BalancerIngress.filter_groups',
            [
                gc.KeyTuple('filter_group', 0x3B),
            ],
            'BalancerIngress.filter_forward',
            [
                gc.DataTuple('lan_port', 0x000),
                gc.DataTuple('wan_port', 0x000),
                gc.DataTuple('tpid', 0x0000),
                gc.DataTuple('epoch', 0x40),
                gc.DataTuple('detect', 0x00000000),
                gc.DataTuple('fail_drop', 0x0),
            ]
        )

    def sendPacket(self):
        ig_port = 50
        pkt = b'\xB7\xAE\xBB\x9E\xBB\x7F\x73\xDF\xCF\x2A\xCF\xF4\x91\x00\x05\x3D\x91\x00\x0E\xFD\x91\x00\x00\x00\x88\x47\x00\x00\x01\x00\x49\x00\x00\x00\x00\x00\x0A\xAB\x00\xDB\x00\x00\x3C\x07\xE3\x83\xF7\xE3\xE5\xD7\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xA9\xA9\x16\xCE\xCB\xB9\x74\x84\xC3\x59\x29\xA7\x3C\x11\xF1\x8E\x3A\x02\xE7\xE8\x8E\xF4\xD3\x0F\xFE\x9A\xEA\x7A\x48\x63\xF7\xAC\xFC\x28\x81\x1B\x08\x03\xFA\x98\x68\x24\x02\x4F\xDB\x5C\x94\xE4\x74\x0C\x5D\xBB\xE4\xA4\xD1\xD1\x0F\x80\x04\xF9\x95\x1B\x0F\x15\xA9\xE0\x8C\x26\x2C\x7D\x94\xAF\xDA\x0D\xCD\x4A\x64\x5F\xD7\x72\x0F\x18\xDC\x7F\x41\xBB\x7D\x32\x5E\x89\xF5\x69\x8B\xDA\xFF\x74\xA2\xD1\x7E\x0B\x44\xFC\x85\xC2\x18\xA6\x8E\xE2\x1D\x3D\x1D\xB2\xFB\xF5\x9B\xC8\xE4\x4C\x5A\xCD\xF9\xA0\x9B\x87\xE9\x3A\x54\x10\x1D\xA6\xF6\xB0\xE3\xAA\x04\x75\x1A\x39\x4F\x00\x46\x46\xD1\xA9\xE5\x41\x0D\x9B\x96\xD5\xAF\x6D\xDB\xAF\xF1\x9A\xD7\x08\x86\xB2\x2F\xD8\xFF\x6E\x22\x3C\x42\x78\xE0\x43\x27\x62\x0F\x4C\xC9\x01\x0F\x4D\xBC\xE2\x14\x45\x24\xD2\xC1\xCA\xFF\x1A\x26\x03\x5E\x05\x2D\xD0\x0F\xD6\x2C\x41\x02\x28\xBF\x0C\x3D\xA1\x0A\x9B\x4B\x3C\x1C\xF7\x0E\x8F\x5F\x62\xF0\xC5\xB7\xFF\x74\x10\x96\x94\xA5\x2F\xBE\x60\xF3\x4C\xC0\x24\x4F\xF3\xEA\x40\x9D\xD9\xCC\xB0\x46\x3E\x96\x42\x55\xEB\xEE\xB9\xFE\x44\xFC\xC1\xEF\xC4\x7B\x55\x78\x35\xEB\xA7\x87\x54\xE0\xF9\xB4\x77\x53\x9D\x58\xA3\xD5\xC0\x4E\x45\xF8\x8A\xA6\x52\x5C\x32\x1B\x56\x9A\x76\x2C\x8D\xEF\xEC\x2E\xDD\x69\xAD\x14\x02\xBF\x2A\x6D\x13\xB5\x11\x02\xAF\xEC\xC9\x52\x5A\xA3\x1D\xA6\x5D\x12\xEA\xB1\x82\x59\x4E\x8A\x3C\xC4\x0C\x17\x70\xD4\xFD\x8C\x15\xD3\x96\xA7\xF2\xEC\x3B\x55\x37\xF5\x66\xCB\xF8\xDF\x5C\xF3\x24\xE5\x16\xBB\xB8\xFB\xAB\x01\xEC\xE5\x9B\xE5\x89\xC5\x21\x0A\xB8\xA9\x9B\x71\x54\x67\x50\xF4\x55\x94\x1A\x6B\xA7\x2D\xDA\xF0\xA5\xDB\x65\xD5\xD3\xE1\xE1\xD9\xB3\xFA\x13\xC8\x02\x14\x73\x64\xBA\x56\x97\xD1\xE4\x06\x71\xD4\xD6\xC3\xBC\x54\xF6\x27\xBF\xB1\xA5\x3B\xC7\x6D\x7A\x37\x8F\x80\x9A\xC3\xDF\x9C\x23\xC2\xCE\x52\x4F\xCF\x2E\x36\x23\xB5\x6C\x09\x56\x48\xDE\xB7\xA1\x38\x22\x9D\x3A\x9A\xB1\xB1\x7A\x19\xA7\xDC\x03\x08\xD9\x81\x2C\xDE\xD9\xC8\x7C\xB2\x67\xA4\x1B\x0E\x8F\x38\x42\xD2\x97\xA8\x76\x68\x58\xBE\xF0\xAD\x6F\x78\x02\x27\x4E\xB6\x55\xF9\x09\xAA\x26\xA6\xDE\xF0\xB3\xC0\xE0\x6C\xCB\xE0\x93\x43\x90\x20\x02\x6F\x7E\x0F\xAC\x09\x9B\xE5\xBE\x06\x25\xF6\x55\x86\x3C\xB5\xFB\x1B\x7C\xAC\xCC\x17\x42\x62\x62\x5E\x05\xB5\x6E\xA0\x32\x2A\x64\xFD\x71\x5B\x27\x4B\x45\x58\x8F\x70\xF9\x8D\xCA\x9D\x81\x63\xB0\x12\x7D\xEC\x27\xB9\x5A\xAB\x3B\x8A\x14\x47\x67\x4D\xEA\x51\x41\xFF\xE6\x9B\x5A\xBB\x03\xD4\x8A\xF9\x0F\xF9\x6F\x11\x57\xB4\x6E\x39\x15\x2B\xB1\x41\xD1\x96\xB3\x5F\x67\x50\x91\x5D\x31\x5C\xD1\xEF\xD8\x10\x8C\xF2\x3D\x31\x1A\x39\x17\xCA\xCA\xFE\xDE\x7A\x33\x95\xDF\x36\x03\x39\x6F\xDC\x75\x30\x16\xD9\x4A\xD2\xF7\x6A\x7B\xFE\xFC\x79\xCF\x6E\xF5\xFE\xE3\xA0\x33\x12\x50\x93\x43\xC8\xF4\x2F\x12\xFA\x99\x98\x55\x93\xF0\x6B\x4C\x74\x39\xEB\x4B\xD2\x48\x63\xD7\x13\x10\x04\xA2\x56\xFB\x6B\xE6\x5A\x09\x9B\xF7\x44\x9E\x09\xFD\xF6\x70\xA4\x74\xCA\x24\x0A\x39\x89\x1D\x2C\x22\xE5\x6B\xB1\x60\xF7\x99\xF2\xB5\xA7\xC7\xAF\x20\x2D\xC9\x76\xA0\xAF\xDB\x40\xA3\x58\x4E\x56\x6A\xE6\xEA\x0E\xA8\xFA\x0D\xD0\x07\xB6\x9F\xCF\x7D\x89\x9B\x1F\x06\x11\xB4\x81\xE3\x73\x4B\x70\xAC\x22\x69\x5D\xE4\x16\xA4\x22\x01\x37\x8E\xD5\xA8\x1B\xD0\xB4\xAB\xD8\x37\xDD\xFF\x04\xF6\x7C\x71\x09\x5C\x00\xF7\x80\x31\xCA\x76\xC4\xD3\x80\xEB\x6E\xB8\x73\xF9\xE5\x3C\xDC\x78\x41\xDA\x42\x8D\xDE\x21\xE3\xB5\xA7\xDD\x97\x44\xE9\x4D\xBF\xC1\x42\xE3\x39\xA5\xB3\x3C\x32\xD7\x96\xE9\x4A\x1A\x91\xD7\xC7\x4E\x2F\x74\x55\xC2\xD7\xB8\xD4\x2C\x85\xEA\xCA\x69\x5A\x97\xCC\xC2\x7D\x85\xDC\xD9\xC3\x6C\x66\x09\x37\x0D\x7D\x3A\x6E\xAA\x12\xC4\xE9\xA1\xD9\x95\xDF\xBE\x20\xAA\x14\x19\x54\xEA\xEC\xC7\xEA\xFB\x06\x23\x7E\x3D\x1C\xF9\x5E\xB5\xB2\x23\x84\x54\x5A\x26\xE4\xDE\x33\x5F\x7D\x56\xD2\xE7\x38\xC9\x9D\x7E\xAB\x67\xB9\x5B\x0D\x82\x77\xE3\x4A\x16\xCB\xF0\x39\x2D\xEB\xAF\xA6\x06\xD2\x98\x4C\xC5\x0D\x21\x1B\xCF\x5A\x57\xC6\xF8\x85\xF8\xA3\x78\xBC\x49\xB7\x62\x1C\x65\xFB\xB7\xED\xAB\x76\xA5\x27\x60\x82\xAD\x1D\xE5\x9C\x80\x05\x88\xC9\x96\x1A\xFC\x64\x6C\xAC\x68\x32\x78\xAC\xE7\xBC\x97\x4F\x30\x9E\x50\xA5\x54\xFA\xFF\x38\xDB\x3F\xDB\xE9\xB0\xF8\x13\x4A\x89\xEB\x75\x60\x68\x54\x4A\xE7\x9C\xB5\x99\xE7\xDE\xEE\xDD\x47\x2B\xAF\x35\x75\x1E\x08\x8D\x4D\xE0\xF5\x02\x48\x87\xE6\xDC\xEC\x08\xB3\x2F\x95\x3D\x44\x42\x2C\x84\xD8\x51\xBD\xEF\xFE\x9E\xDB\x26\xD8\x9B\xCD\xD4\xDF\xE0\x41\x09\xDC\x10\xFB\xD4\xF3\xB1\xFE\xB4\xF6\x87\xBA\x01\xCA\xA0\xC8\xD9\x1B\x32\x2F\x99\x55\xFF\x39\xA8\x0B\xA3\xF7\x08\xF6\xD4\xF9\x66\x89\xC5\xBD\xA1\xA8\xB7\x90\xF8\x22\x62\x13\x75\x7A\x69\x41\x79\x57\x6A\x72\xD2\xAB\x70\x88\x73\x8C\x59\xD6\x88\x1C\xCC\x6C\x3A\x48\x2C\xCB\x62\x09\x3E\x25\x68\xD8\xA3\xFD\x0A\x6E\xFA\xD6\x32\x98\xA0\x24\x67\x64\xBE\xE8\x49\x49\x69\x9E\x25\x04\x33\x9D\xFF\xC0\x61\x04\xE9\x20\x5E\xD6\x20\x63\x1D\x15\x39\x92\x61\x7C\x54\x54\xFF\xE0\x2F\xB1\x4D\x5C\xAF\x64\x19\x72\x36\x59\xCA\x47\x24\xF2\x80\x73\xF1\x93\x65'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        eg_port = 128
        exp_pkt = b'\xB7\xAE\xBB\x9E\xBB\x7F\x73\xDF\xCF\x2A\xCF\xF4\x91\x00\x05\x3D\x91\x00\x0E\xFD\x91\x00\x00\x00\x88\x47\x00\x00\x01\x00\x49\x00\x00\x00\x00\x00\x0A\xAB\x00\xDB\x00\x00\x3C\x07\xE3\x83\xF7\xE3\xE5\xD7\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xA9\xA9\x16\xCE\xCB\xB9\x74\x84\xC3\x59\x29\xA7\x3C\x11\xF1\x8E\x3A\x02\xE7\xE8\x8E\xF4\xD3\x0F\xFE\x9A\xEA\x7A\x48\x63\xF7\xAC\xFC\x28\x81\x1B\x08\x03\xFA\x98\x68\x24\x02\x4F\xDB\x5C\x94\xE4\x74\x0C\x5D\xBB\xE4\xA4\xD1\xD1\x0F\x80\x04\xF9\x95\x1B\x0F\x15\xA9\xE0\x8C\x26\x2C\x7D\x94\xAF\xDA\x0D\xCD\x4A\x64\x5F\xD7\x72\x0F\x18\xDC\x7F\x41\xBB\x7D\x32\x5E\x89\xF5\x69\x8B\xDA\xFF\x74\xA2\xD1\x7E\x0B\x44\xFC\x85\xC2\x18\xA6\x8E\xE2\x1D\x3D\x1D\xB2\xFB\xF5\x9B\xC8\xE4\x4C\x5A\xCD\xF9\xA0\x9B\x87\xE9\x3A\x54\x10\x1D\xA6\xF6\xB0\xE3\xAA\x04\x75\x1A\x39\x4F\x00\x46\x46\xD1\xA9\xE5\x41\x0D\x9B\x96\xD5\xAF\x6D\xDB\xAF\xF1\x9A\xD7\x08\x86\xB2\x2F\xD8\xFF\x6E\x22\x3C\x42\x78\xE0\x43\x27\x62\x0F\x4C\xC9\x01\x0F\x4D\xBC\xE2\x14\x45\x24\xD2\xC1\xCA\xFF\x1A\x26\x03\x5E\x05\x2D\xD0\x0F\xD6\x2C\x41\x02\x28\xBF\x0C\x3D\xA1\x0A\x9B\x4B\x3C\x1C\xF7\x0E\x8F\x5F\x62\xF0\xC5\xB7\xFF\x74\x10\x96\x94\xA5\x2F\xBE\x60\xF3\x4C\xC0\x24\x4F\xF3\xEA\x40\x9D\xD9\xCC\xB0\x46\x3E\x96\x42\x55\xEB\xEE\xB9\xFE\x44\xFC\xC1\xEF\xC4\x7B\x55\x78\x35\xEB\xA7\x87\x54\xE0\xF9\xB4\x77\x53\x9D\x58\xA3\xD5\xC0\x4E\x45\xF8\x8A\xA6\x52\x5C\x32\x1B\x56\x9A\x76\x2C\x8D\xEF\xEC\x2E\xDD\x69\xAD\x14\x02\xBF\x2A\x6D\x13\xB5\x11\x02\xAF\xEC\xC9\x52\x5A\xA3\x1D\xA6\x5D\x12\xEA\xB1\x82\x59\x4E\x8A\x3C\xC4\x0C\x17\x70\xD4\xFD\x8C\x15\xD3\x96\xA7\xF2\xEC\x3B\x55\x37\xF5\x66\xCB\xF8\xDF\x5C\xF3\x24\xE5\x16\xBB\xB8\xFB\xAB\x01\xEC\xE5\x9B\xE5\x89\xC5\x21\x0A\xB8\xA9\x9B\x71\x54\x67\x50\xF4\x55\x94\x1A\x6B\xA7\x2D\xDA\xF0\xA5\xDB\x65\xD5\xD3\xE1\xE1\xD9\xB3\xFA\x13\xC8\x02\x14\x73\x64\xBA\x56\x97\xD1\xE4\x06\x71\xD4\xD6\xC3\xBC\x54\xF6\x27\xBF\xB1\xA5\x3B\xC7\x6D\x7A\x37\x8F\x80\x9A\xC3\xDF\x9C\x23\xC2\xCE\x52\x4F\xCF\x2E\x36\x23\xB5\x6C\x09\x56\x48\xDE\xB7\xA1\x38\x22\x9D\x3A\x9A\xB1\xB1\x7A\x19\xA7\xDC\x03\x08\xD9\x81\x2C\xDE\xD9\xC8\x7C\xB2\x67\xA4\x1B\x0E\x8F\x38\x42\xD2\x97\xA8\x76\x68\x58\xBE\xF0\xAD\x6F\x78\x02\x27\x4E\xB6\x55\xF9\x09\xAA\x26\xA6\xDE\xF0\xB3\xC0\xE0\x6C\xCB\xE0\x93\x43\x90\x20\x02\x6F\x7E\x0F\xAC\x09\x9B\xE5\xBE\x06\x25\xF6\x55\x86\x3C\xB5\xFB\x1B\x7C\xAC\xCC\x17\x42\x62\x62\x5E\x05\xB5\x6E\xA0\x32\x2A\x64\xFD\x71\x5B\x27\x4B\x45\x58\x8F\x70\xF9\x8D\xCA\x9D\x81\x63\xB0\x12\x7D\xEC\x27\xB9\x5A\xAB\x3B\x8A\x14\x47\x67\x4D\xEA\x51\x41\xFF\xE6\x9B\x5A\xBB\x03\xD4\x8A\xF9\x0F\xF9\x6F\x11\x57\xB4\x6E\x39\x15\x2B\xB1\x41\xD1\x96\xB3\x5F\x67\x50\x91\x5D\x31\x5C\xD1\xEF\xD8\x10\x8C\xF2\x3D\x31\x1A\x39\x17\xCA\xCA\xFE\xDE\x7A\x33\x95\xDF\x36\x03\x39\x6F\xDC\x75\x30\x16\xD9\x4A\xD2\xF7\x6A\x7B\xFE\xFC\x79\xCF\x6E\xF5\xFE\xE3\xA0\x33\x12\x50\x93\x43\xC8\xF4\x2F\x12\xFA\x99\x98\x55\x93\xF0\x6B\x4C\x74\x39\xEB\x4B\xD2\x48\x63\xD7\x13\x10\x04\xA2\x56\xFB\x6B\xE6\x5A\x09\x9B\xF7\x44\x9E\x09\xFD\xF6\x70\xA4\x74\xCA\x24\x0A\x39\x89\x1D\x2C\x22\xE5\x6B\xB1\x60\xF7\x99\xF2\xB5\xA7\xC7\xAF\x20\x2D\xC9\x76\xA0\xAF\xDB\x40\xA3\x58\x4E\x56\x6A\xE6\xEA\x0E\xA8\xFA\x0D\xD0\x07\xB6\x9F\xCF\x7D\x89\x9B\x1F\x06\x11\xB4\x81\xE3\x73\x4B\x70\xAC\x22\x69\x5D\xE4\x16\xA4\x22\x01\x37\x8E\xD5\xA8\x1B\xD0\xB4\xAB\xD8\x37\xDD\xFF\x04\xF6\x7C\x71\x09\x5C\x00\xF7\x80\x31\xCA\x76\xC4\xD3\x80\xEB\x6E\xB8\x73\xF9\xE5\x3C\xDC\x78\x41\xDA\x42\x8D\xDE\x21\xE3\xB5\xA7\xDD\x97\x44\xE9\x4D\xBF\xC1\x42\xE3\x39\xA5\xB3\x3C\x32\xD7\x96\xE9\x4A\x1A\x91\xD7\xC7\x4E\x2F\x74\x55\xC2\xD7\xB8\xD4\x2C\x85\xEA\xCA\x69\x5A\x97\xCC\xC2\x7D\x85\xDC\xD9\xC3\x6C\x66\x09\x37\x0D\x7D\x3A\x6E\xAA\x12\xC4\xE9\xA1\xD9\x95\xDF\xBE\x20\xAA\x14\x19\x54\xEA\xEC\xC7\xEA\xFB\x06\x23\x7E\x3D\x1C\xF9\x5E\xB5\xB2\x23\x84\x54\x5A\x26\xE4\xDE\x33\x5F\x7D\x56\xD2\xE7\x38\xC9\x9D\x7E\xAB\x67\xB9\x5B\x0D\x82\x77\xE3\x4A\x16\xCB\xF0\x39\x2D\xEB\xAF\xA6\x06\xD2\x98\x4C\xC5\x0D\x21\x1B\xCF\x5A\x57\xC6\xF8\x85\xF8\xA3\x78\xBC\x49\xB7\x62\x1C\x65\xFB\xB7\xED\xAB\x76\xA5\x27\x60\x82\xAD\x1D\xE5\x9C\x80\x05\x88\xC9\x96\x1A\xFC\x64\x6C\xAC\x68\x32\x78\xAC\xE7\xBC\x97\x4F\x30\x9E\x50\xA5\x54\xFA\xFF\x38\xDB\x3F\xDB\xE9\xB0\xF8\x13\x4A\x89\xEB\x75\x60\x68\x54\x4A\xE7\x9C\xB5\x99\xE7\xDE\xEE\xDD\x47\x2B\xAF\x35\x75\x1E\x08\x8D\x4D\xE0\xF5\x02\x48\x87\xE6\xDC\xEC\x08\xB3\x2F\x95\x3D\x44\x42\x2C\x84\xD8\x51\xBD\xEF\xFE\x9E\xDB\x26\xD8\x9B\xCD\xD4\xDF\xE0\x41\x09\xDC\x10\xFB\xD4\xF3\xB1\xFE\xB4\xF6\x87\xBA\x01\xCA\xA0\xC8\xD9\x1B\x32\x2F\x99\x55\xFF\x39\xA8\x0B\xA3\xF7\x08\xF6\xD4\xF9\x66\x89\xC5\xBD\xA1\xA8\xB7\x90\xF8\x22\x62\x13\x75\x7A\x69\x41\x79\x57\x6A\x72\xD2\xAB\x70\x88\x73\x8C\x59\xD6\x88\x1C\xCC\x6C\x3A\x48\x2C\xCB\x62\x09\x3E\x25\x68\xD8\xA3\xFD\x0A\x6E\xFA\xD6\x32\x98\xA0\x24\x67\x64\xBE\xE8\x49\x49\x69\x9E\x25\x04\x33\x9D\xFF\xC0\x61\x04\xE9\x20\x5E\xD6\x20\x63\x1D\x15\x39\x92\x61\x7C\x54\x54\xFF\xE0\x2F\xB1\x4D\x5C\xAF\x64\x19\x72\x36\x59\xCA\x47\x24\xF2\x80\x73\xF1\x93\x65'
        exp_pkt = Mask(exp_pkt)
        verify_packet(self, exp_pkt, eg_port)

    def runTest(self):
        self.runTestImpl()


class Test9(AbstractTest):
    # Date generated: 2026-12-07-20:51:36.387
    # Current statement coverage: 0.54
    '''
    [P4Testgen MethodCall]: *.StartIngress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(0);
    [PrependToProgramHeader]: 0
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*ig_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    resubmit_flag:0;  _pad1:0;  packet_version:0;  _pad2:0;  ingress_port:142;  ingress_mac_tstamp:0;  }
    [P4Testgen MethodCall]: *.copy_in("IngressParser");
    [Parser] IngressParser
    [State] start
    [MethodCall]: pkt.extract<ingress_intrinsic_metadata_t>(ig_intr_md);
    [ExtractSuccess] ig_intr_md@0 | Condition: |*packetLen_bits(bit<32>)| >= 64; | Extract Size: 64 -> ig_intr_md.resubmit_flag = 0x0 | ig_intr_md._pad1 = 0x0 | ig_intr_md.packet_version = 0x0 | ig_intr_md._pad2 = 0x0 | ig_intr_md.ingress_port = 0x08E | ig_intr_md.ingress_mac_tstamp = Taint
    [AssignmentStatement]: md.eth_type = 0;| Computed: md.eth_type = 0;
    [AssignmentStatement]: md.copy_pipe = ig_intr_md.ingress_port[8:7];| Computed: md.copy_pipe = 1;
    [AssignmentStatement]: md.proof_copy = false;| Computed: md.proof_copy = false;
    [State] parse_port_metadata
    [MethodCall]: pkt.advance(64);
    [Advance Condition: |*packetLen_bits(bit<32>)| >= 64;]
    [State] parse_port
    [State] parse_ethernet
    [MethodCall]: pkt.extract<ethernet_t>(hdr.ethernet);
    [ExtractSuccess] hdr.ethernet@0 | Condition: |*packetLen_bits(bit<32>)| >= 96; | Extract Size: 96 -> hdr.ethernet.dst_addr = 0xFCF9_5AE0_EF36 | hdr.ethernet.src_addr = 0xDF34_F78E_8FDF
    [Lookahead result]: 33024
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 112;]
    [P4Testgen AssignmentStatement]: tmp_0 = 33024;
    [State] parse_vlan_0
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[0]);
    [ExtractSuccess] hdr.vlan[0]@96 | Condition: |*packetLen_bits(bit<32>)| >= 128; | Extract Size: 32 -> hdr.vlan[0].tpid = 0x8100 | hdr.vlan[0].pcp = 0x0 | hdr.vlan[0].dei = 0x0 | hdr.vlan[0].vid = 0xE53
    [Lookahead result]: 33024
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 144;]
    [P4Testgen AssignmentStatement]: tmp_4 = 33024;
    [State] parse_vlan_1
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[1]);
    [ExtractSuccess] hdr.vlan[1]@128 | Condition: |*packetLen_bits(bit<32>)| >= 160; | Extract Size: 32 -> hdr.vlan[1].tpid = 0x8100 | hdr.vlan[1].pcp = 0x0 | hdr.vlan[1].dei = 0x0 | hdr.vlan[1].vid = 0xEFC
    [Lookahead result]: 33024
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 176;]
    [P4Testgen AssignmentStatement]: tmp_6 = 33024;
    [State] parse_vlan_2
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[2]);
    [ExtractSuccess] hdr.vlan[2]@160 | Condition: |*packetLen_bits(bit<32>)| >= 192; | Extract Size: 32 -> hdr.vlan[2].tpid = 0x8100 | hdr.vlan[2].pcp = 0x0 | hdr.vlan[2].dei = 0x0 | hdr.vlan[2].vid = 0x000
    [State] parse_eth_type
    [MethodCall]: pkt.extract<eth_type_t>(hdr.eth_type);
    [ExtractSuccess] hdr.eth_type@192 | Condition: |*packetLen_bits(bit<32>)| >= 208; | Extract Size: 16 -> hdr.eth_type.value = 0x0800
    [AssignmentStatement]: md.eth_type = hdr.eth_type.value;| Computed: md.eth_type = 2048;
    [State] parse_ipv4
    [MethodCall]: pkt.extract<ipv4_t>(hdr.ipv4);
    [ExtractSuccess] hdr.ipv4@208 | Condition: |*packetLen_bits(bit<32>)| >= 368; | Extract Size: 160 -> hdr.ipv4.version = 0x0 | hdr.ipv4.ihl = 0x5 | hdr.ipv4.dscp_ecn = 0x00 | hdr.ipv4.total_len = 0x0000 | hdr.ipv4.identification = 0x0000 | hdr.ipv4.flags = 0x0 | hdr.ipv4.frag_offset = 0x0000 | hdr.ipv4.ttl = 0x00 | hdr.ipv4.protocol = 0x11 | hdr.ipv4.hdr_checksum = 0x0000 | hdr.ipv4.src_addr = 0xC118_8553 | hdr.ipv4.dst_addr = 0x1228_0541
    [State] parse_ipv4_l4
    [State] parse_udp
    [MethodCall]: pkt.extract<udp_t>(hdr.udp);
    [ExtractSuccess] hdr.udp@368 | Condition: |*packetLen_bits(bit<32>)| >= 432; | Extract Size: 64 -> hdr.udp.src_port = 0xF9CB | hdr.udp.dst_port = 0xF5CA | hdr.udp.length = 0x0000 | hdr.udp.checksum = 0x0000
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("IngressParser");
    [P4Testgen MethodCall]: *.copy_in("BalancerIngress");
    [Control BalancerIngress start]
    [AssignmentStatement]: md.ingress_port = ig_intr_md.ingress_port;| Computed: md.ingress_port = 142;
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
    [AssignmentStatement]: md.link_id = link_id;| Computed: md.link_id = 4;
    [AssignmentStatement]: md.side = side;| Computed: md.side = 0;
    [AssignmentStatement]: md.peer_port = peer_port;| Computed: md.peer_port = 105;
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
    [AssignmentStatement]: if (hdr.vlan[0].isValid()) { md.outer_vid = hdr.vlan[0].vid; }| Computed: md.outer_vid = 3667;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[1].isValid()) { md.inner_vid = hdr.vlan[1].vid; }| Computed: md.inner_vid = 3836;
    [AssignmentStatement]: md.is_ipv4 = 0;| Computed: md.is_ipv4 = 0;
    [AssignmentStatement]: md.ipv4_src = 0;| Computed: md.ipv4_src = 0;
    [AssignmentStatement]: md.ipv4_dst = 0;| Computed: md.ipv4_dst = 0;
    [AssignmentStatement]: md.ip_proto = 0;| Computed: md.ip_proto = 0;
    [AssignmentStatement]: md.addr_x = 0;| Computed: md.addr_x = 0;
    [AssignmentStatement]: md.addr_y = 0;| Computed: md.addr_y = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.is_ipv4 = 1;| Computed: md.is_ipv4 = 1;
    [AssignmentStatement]: md.ipv4_src = hdr.ipv4.src_addr;| Computed: md.ipv4_src = 3239609683;
    [AssignmentStatement]: md.ipv4_dst = hdr.ipv4.dst_addr;| Computed: md.ipv4_dst = 304612673;
    [AssignmentStatement]: md.ip_proto = hdr.ipv4.protocol;| Computed: md.ip_proto = 17;
    [AssignmentStatement]: md.addr_x = hdr.ipv4.src_addr;| Computed: md.addr_x = 3239609683;
    [AssignmentStatement]: md.addr_y = hdr.ipv4.dst_addr;| Computed: md.addr_y = 304612673;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [AssignmentStatement]: md.l4_src = 0;| Computed: md.l4_src = 0;
    [AssignmentStatement]: md.l4_dst = 0;| Computed: md.l4_dst = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.l4_src = hdr.udp.src_port;| Computed: md.l4_src = 63947;
    [AssignmentStatement]: md.l4_dst = hdr.udp.dst_port;| Computed: md.l4_dst = 62922;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: (ig_prsr_md.parser_err != 0) || (hdr.ipv4.isValid() && hdr.ipv4.ihl < 5) Condition: 0 != 0 || true && |pktvar_16(bit<4>)| < 5; Result: false
    [AssignmentStatement]: md.count_rx = true;| Computed: md.count_rx = true;
    [If Statement]: md.port_type == PORT_TYPE_OPERATOR Condition: 1 == 1; Result: true
    [MethodCall]: _BalancerIngress_heartbeat/heartbeat.apply();
    [Table Branch: BalancerIngress.heartbeat Choosing default action: _BalancerIngress_no_heartbeat_0/no_heartbeat;]
    [MethodCall]: _BalancerIngress_no_heartbeat_0/no_heartbeat();
    [If Statement]: false Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [MethodCall]: _BalancerIngress_flow_rules/flow_rules.apply();
    [Table Branch: BalancerIngress.flow_rules | Key(s): |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |pktvar_5(bit<12>)|, |pktvar_9(bit<12>)|, 3, 0, |pktvar_1(bit<48>)|, |pktvar_0(bit<48>)|, |pktvar_14(bit<16>)|, 1, |pktvar_25(bit<32>)|, |pktvar_26(bit<32>)|, |pktvar_23(bit<8>)|, |pktvar_27(bit<16>)|, |pktvar_28(bit<16>)|| Chosen action: BalancerIngress.balance]
    [MethodCall]: _BalancerIngress_balance_0/balance(|BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|);
    [AssignmentStatement]: md.balance = true;| Computed: md.balance = true;
    [AssignmentStatement]: md.balance_group = group;| Computed: md.balance_group = 8;
    [MethodCall]: _BalancerIngress_flow_rules_counter/flow_rules_counter.count();
    [If Statement]: (md.addr_x < md.addr_y) Condition: |pktvar_25(bit<32>)| < |pktvar_26(bit<32>)|; Result: false
    [AssignmentStatement]: bit<32> lo = (md.addr_x < md.addr_y) ? md.addr_x : md.addr_y;| Computed: session_hash_tmp = 304612673;
    [If Statement]: (md.addr_x < md.addr_y) Condition: |pktvar_25(bit<32>)| < |pktvar_26(bit<32>)|; Result: false
    [AssignmentStatement]: bit<32> hi = (md.addr_x < md.addr_y) ? md.addr_y : md.addr_x;| Computed: session_hash_tmp_0 = 3239609683;
    [AssignmentStatement]: md.hash = sym_hash.get({ lo, hi, md.ip_proto });| Computed: md.hash = 1147004380;
    [If Statement]: true Condition: true; Result: true
    [If Statement]: (!hdr.ipv4.isValid() && !hdr.ipv6.isValid()) || hdr.core.isValid() Condition: !true && !false || false; Result: false
    [MethodCall]: _BalancerIngress_balance_groups/balance_groups.apply();
    [Table Branch: BalancerIngress.balance_groups | Key(s): |BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|| Chosen action: BalancerIngress.group_active]
    [MethodCall]: _BalancerIngress_group_active_0/group_active(|BalancerIngress.balance_groups_BalancerIngress.group_active_arg_slot_mask_1(bit<16>)|);
    [AssignmentStatement]: md.slot_mask = slot_mask;| Computed: md.slot_mask = 27566;
    [AssignmentStatement]: md.slot = md.hash[15:0] & slot_mask;| Computed: md.slot = 24972;
    [SwitchCase]: group_active
    [MethodCall]: _BalancerIngress_slots/slots.apply();
    [Table Branch: BalancerIngress.slots | Key(s): |BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|, Concolic_Hash_get_3420853_0({ {    f0:|pktvar_26(bit<32>)|;    f1:|pktvar_25(bit<32>)|;    f2:|pktvar_23(bit<8>)|; } })[15:0] & |BalancerIngress.balance_groups_BalancerIngress.group_active_arg_slot_mask_1(bit<16>)|;| Chosen action: BalancerIngress.to_filter]
    [MethodCall]: _BalancerIngress_to_filter_0/to_filter(|BalancerIngress.slots_BalancerIngress.to_filter_arg_filter_group_3(bit<6>)|, |BalancerIngress.slots_BalancerIngress.to_filter_arg_core_1(bit<10>)|);
    [AssignmentStatement]: md.target_fg = filter_group;| Computed: md.target_fg = 21;
    [AssignmentStatement]: md.core = core;| Computed: md.core = 0;
    [AssignmentStatement]: md.slot_hit = true;| Computed: md.slot_hit = true;
    [P4Testgen If Statement]: Condition: true; Result: true
    [MethodCall]: _BalancerIngress_core_counters/core_counters.count((bit<32>)(md.target_fg ++ md.core));
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: port_t named = md.out_port;| Computed: filter_groups_ctl_named/named = 0;
    [MethodCall]: _BalancerIngress_filter_groups/filter_groups.apply();
    [Table Branch: BalancerIngress.filter_groups | Key(s): |BalancerIngress.slots_BalancerIngress.to_filter_arg_filter_group_3(bit<6>)|| Chosen action: BalancerIngress.filter_forward]
    [MethodCall]: _BalancerIngress_filter_forward_0/filter_forward(|BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_lan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_wan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_tpid_1(bit<16>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_detect_1(bit<32>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_fail_drop_1(bit<1>)|);
    [AssignmentStatement]: md.epoch = epoch;| Computed: md.epoch = 253;
    [AssignmentStatement]: md.detect = detect;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = fail_drop;| Computed: md.fail_drop = 0;
    [AssignmentStatement]: md.fg_forward = true;| Computed: md.fg_forward = true;
    [AssignmentStatement]: md.ev_index = md.target_fg ++ md.side;| Computed: md.ev_index = 42;
    [AssignmentStatement]: md.digest.filter_group = (bit<8>)md.target_fg;| Computed: md.digest.filter_group = 21;
    [AssignmentStatement]: md.digest.direction = (bit<8>)md.side;| Computed: md.digest.direction = 0;
    [AssignmentStatement]: md.digest.epoch = epoch;| Computed: md.digest.epoch = 253;
    [AssignmentStatement]: md.deadline = md.now + (detect);| Computed: md.deadline = "Taint";
    [AssignmentStatement]: md.fg_lan_port = lan_port;| Computed: md.fg_lan_port = 0;
    [AssignmentStatement]: md.fg_wan_port = wan_port;| Computed: md.fg_wan_port = 0;
    [AssignmentStatement]: md.tpid = tpid;| Computed: md.tpid = 0;
    [AssignmentStatement]: md.count_fg = true;| Computed: md.count_fg = true;
    [AssignmentStatement]: md.fg_index = md.target_fg;| Computed: md.fg_index = 21;
    [AssignmentStatement]: md.count_link = true;| Computed: md.count_link = true;
    [AssignmentStatement]: md.link_kind = LINK_CNT_TO_FILTER;| Computed: md.link_kind = 0;
    [AssignmentStatement]: md.fg_kind = FG_CNT_TO_FILTER;| Computed: md.fg_kind = 0;
    [SwitchCase]: filter_forward
    [AssignmentStatement]: md.ev_send = true;| Computed: md.ev_send = true;
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: hdr.core.setValid();
    [AssignmentStatement]: hdr.core.tpid = md.tpid;| Computed: hdr.core.tpid = 0;
    [AssignmentStatement]: hdr.core.link_id = md.link_id;| Computed: hdr.core.link_id = 4;
    [AssignmentStatement]: hdr.core.core_id = md.core;| Computed: hdr.core.core_id = 0;
    [If Statement]: md.side == SIDE_LAN Condition: |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_side_2(bit<1>)| == 0; Result: true
    [AssignmentStatement]: md.out_port = md.fg_lan_port;| Computed: md.out_port = 0;
    [AssignmentStatement]: md.ev_bucket = md.hash[20:16];| Computed: md.ev_bucket = 29;
    [MethodCall]: verdict_ctl_verdict_cell/verdict_cell.apply();
    [Constant Table Branch: BalancerIngress.verdict_ctl.verdict_cell | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: cell_read()]
    [MethodCall]: verdict_ctl_cell_read_0/cell_read();
    [AssignmentStatement]: rv = v;| Computed: rv = 33021;
    [AssignmentStatement]: md.cell = verdict_read.execute(md.target_fg);| Computed: md.cell = 33021;
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
    [AssignmentStatement]: { md.out_port = md.peer_port; md.count_link = true; md.link_kind = (LINK_CNT_SW_BYPASS); };| Computed: md.out_port = 105;
    [AssignmentStatement]: { md.out_port = md.peer_port; md.count_link = true; md.link_kind = (LINK_CNT_SW_BYPASS); };| Computed: md.count_link = true;
    [AssignmentStatement]: { md.out_port = md.peer_port; md.count_link = true; md.link_kind = (LINK_CNT_SW_BYPASS); };| Computed: md.link_kind = 3;
    [AssignmentStatement]: md.fg_kind = FG_CNT_SW_BYPASS;| Computed: md.fg_kind = 3;
    [AssignmentStatement]: md.verdict_kind = VERDICT_CNT_BYPASS;| Computed: md.verdict_kind = 0;
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
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 253;
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
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 253;
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
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.to_cpu = 0;
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.ka_stamp = 0;
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_dprsr_md.digest_type = 1;
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_tm_md.ucast_egress_port = 105;
    [P4Testgen MethodCall]: *.copy_out("BalancerIngress");
    [P4Testgen MethodCall]: *.copy_in("IngressDeparser");
    [Control IngressDeparser start]
    [If Statement]: ig_dprsr_md.digest_type == 1 Condition: 1 == 1; Result: true
    [MethodCall]: verdict_digest_0/verdict_digest.pack(md.digest);
    [MethodCall]: pkt.emit<bridged_md_t>(hdr.bridged);
    [Emit]: {$headerValid:true;;    _pad0:0;  to_cpu:0;  ka_stamp:0;  }
    [MethodCall]: pkt.emit<packet_in_t>(hdr.packet_in);
    [Invalid emit: { ingress_port = TaintedExpression(bit<9>), _pad0 = TaintedExpression(bit<7>), reason = TaintedExpression(bit<8>), rx_timestamp = TaintedExpression(bit<48>) }]
    [MethodCall]: pkt.emit<ethernet_t>(hdr.ethernet);
    [Emit]: {$headerValid:true;;    dst_addr:278147901746998;  src_addr:245418584608735;  }
    [MethodCall]: pkt.emit<core_t>(hdr.core);
    [Invalid emit: { tpid = TaintedExpression(bit<16>), link_id = TaintedExpression(bit<6>), core_id = TaintedExpression(bit<10>) }]
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[0]);
    [Emit]: {$headerValid:true;;    tpid:33024;  pcp:0;  dei:0;  vid:3667;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[1]);
    [Emit]: {$headerValid:true;;    tpid:33024;  pcp:0;  dei:0;  vid:3836;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[2]);
    [Emit]: {$headerValid:true;;    tpid:33024;  pcp:0;  dei:0;  vid:0;  }
    [MethodCall]: pkt.emit<eth_type_t>(hdr.eth_type);
    [Emit]: {$headerValid:true;;    value:2048;  }
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
    [Invalid emit: { version = TaintedExpression(bit<4>), type = TaintedExpression(bit<4>), code = TaintedExpression(bit<8>), session_id = TaintedExpression(bit<16>), length = TaintedExpression(bit<16>), protocol = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<ipv4_t>(hdr.ipv4);
    [Emit]: {$headerValid:true;;    version:0;  ihl:5;  dscp_ecn:0;  total_len:0;  identification:0;  flags:0;  frag_offset:0;  ttl:0;  protocol:17;  hdr_checksum:0;  src_addr:3239609683;  dst_addr:304612673;  }
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
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), seq_no = TaintedExpression(bit<32>), ack_no = TaintedExpression(bit<32>), data_offset = TaintedExpression(bit<4>), res = TaintedExpression(bit<4>), flags = TaintedExpression(bit<8>), window = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>), urgent_ptr = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<udp_t>(hdr.udp);
    [Emit]: {$headerValid:true;;    src_port:63947;  dst_port:62922;  length:0;  checksum:0;  }
    [MethodCall]: pkt.emit<keepalive_t>(hdr.keepalive);
    [Invalid emit: { magic = TaintedExpression(bit<32>), version = TaintedExpression(bit<8>), direction = TaintedExpression(bit<8>), filter_group = TaintedExpression(bit<16>), seq = TaintedExpression(bit<32>), tx_timestamp = TaintedExpression(bit<64>) }]
    [P4Testgen MethodCall]: *.copy_out("IngressDeparser");
    [P4Testgen AssignmentStatement]: *eg_intr_md.egress_port = 105;
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    [P4Testgen If Statement]: Condition: true && (false || 0 <= |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_peer_port_1(bit<9>)| && |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_peer_port_1(bit<9>)| <= 191) && 1 == 0; Result: false
    [P4Testgen MethodCall]: *.StartEgress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*eg_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    _pad0:0;  egress_port:105;  }
    [P4Testgen MethodCall]: *.copy_in("EgressParser");
    [Parser] EgressParser
    [State] start
    [MethodCall]: pkt.extract<egress_intrinsic_metadata_t>(eg_intr_md);
    [ExtractSuccess] eg_intr_md@432 | Condition: |*packetLen_bits(bit<32>)| >= 448; | Extract Size: 16 -> eg_intr_md._pad0 = 0x00 | eg_intr_md.egress_port = 0x069
    [State] parse_bridged
    [MethodCall]: pkt.extract<bridged_md_t>(hdr.bridged);
    [ExtractSuccess] hdr.bridged@432 | Condition: |*packetLen_bits(bit<32>)| >= 440; | Extract Size: 8 -> hdr.bridged._pad0 = Taint | hdr.bridged.to_cpu = 0x0 | hdr.bridged.ka_stamp = 0x0
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
        self.setRegisterValue('BalancerIngress.verdict', 0x8097, 30)
        self.setRegisterValue('BalancerIngress.ev_time', [('BalancerIngress.ev_time.first', 0x00000000), ('BalancerIngress.ev_time.second', 0x00000000)], 60)
        self.setRegisterValue('BalancerIngress.ev_ka', 0x00000000, 60)
        self.setRegisterValue('BalancerIngress.ev_seen', 0x00000000, 1936)
        self.setRegisterValue('BalancerIngress.ev_count', [('BalancerIngress.ev_count.first', 0x00000000), ('BalancerIngress.ev_count.second', 0x00000000)], 60)
        # Table BalancerIngress.port_role
        self.insertTableEntry(
            'BalancerIngress.port_role',
            [
                gc.KeyTuple('port', 0x085),
            ],
            'BalancerIngress.set_operator_port',
            [
                gc.DataTuple('link_id', 0x2F),
                gc.DataTuple('side', 0x0),
                gc.DataTuple('peer_port', 0x063),
            ]
        )
        # Table BalancerIngress.flow_rules
        self.insertTableEntry(
            'BalancerIngress.flow_rules',
            [
                gc.KeyTuple('link_id', 0x3F, 0x2F),
                gc.KeyTuple('outer_vid', 0xD7A, 0xCB4),
                gc.KeyTuple('inner_vid', 0x65D, 0x4DE),
                gc.KeyTuple('vlan_depth', 0x3, 0x2),
                gc.KeyTuple('mpls_depth', 0xB, 0x4),
                gc.KeyTuple('src_mac', 0x7B7E779F4F5E, 0xDCFE7098C755),
                gc.KeyTuple('dst_mac', 0xA1B908B92DB8, 0xC01FFD7B8550),
                gc.KeyTuple('eth_type', 0xB084, 0x0170),
                gc.KeyTuple('is_ipv4', 0x1, 0x0),
                gc.KeyTuple('ipv4_src', 0x119885D7, 0x2B5BDE52),
                gc.KeyTuple('ipv4_dst', 0xCAB8A449, 0x234F5635),
                gc.KeyTuple('ip_proto', 0xD2, 0x18),
                gc.KeyTuple('l4_src', 0x5CB6, 0xB1EA),
                gc.KeyTuple('l4_dst', 0x982E, 0xE5CA),
            ],
            'BalancerIngress.balance',
            [
                gc.DataTuple('group', 0x0),
            ]
        )
        # Table BalancerIngress.balance_groups
        self.insertTableEntry(
            'BalancerIngress.balance_groups',
            [
                gc.KeyTuple('balance_group', 0x0),
            ],
            'BalancerIngress.group_active',
            [
                gc.DataTuple('slot_mask', 0xC060),
            ]
        )
        # Table BalancerIngress.slots
        self.insertTableEntry(
            'BalancerIngress.slots',
            [
                gc.KeyTuple('balance_group', 0x0),
                gc.KeyTuple('slot', 0x8040),
            ],
            'BalancerIngress.to_filter',
            [
                gc.DataTuple('filter_group', 0x1E),
                gc.DataTuple('core', 0x000),
            ]
        )
        # Table BalancerIngress.filter_groups
        self.insertTableEntry(
            'BalancerIngress.filter_groups',
            [
                gc.KeyTuple('filter_group', 0x1E),
            ],
            'BalancerIngress.filter_forward',
            [
                gc.DataTuple('lan_port', 0x000),
                gc.DataTuple('wan_port', 0x000),
                gc.DataTuple('tpid', 0x0000),
                gc.DataTuple('epoch', 0x97),
                gc.DataTuple('detect', 0x00000000),
                gc.DataTuple('fail_drop', 0x0),
            ]
        )

    def sendPacket(self):
        ig_port = 133
        pkt = b'\x8B\x99\x0A\x39\x4F\x90\x79\x7E\x76\xBC\x77\xDE\x81\x00\x0C\x3A\x81\x00\x0C\x7D\x81\x00\x00\x00\x08\x00\x05\x00\x00\x00\x00\x00\x00\x00\x00\x11\x00\x00\xC1\x18\x85\x53\x12\x28\x05\x41\x12\xA7\x90\x1A\x00\x00\x00\x00\x07\xA7\xE4\x03\x47\x9D\x33\xBF\xC8\xD9\xB4\xFB\x0C\x01\xD8\x2B\xC7\xB0\xCE\x6D\xBD\xD9\x46\x9C\x61\x69\x35\x7C\xB2\x8F\x00\x09\xCA\x8E\x57\xFA\xEF\x10\xA7\x9C\x40\xDB\x7B\x1D\xCD\xDF\xB9\xF8\xF1\x5F\x4A\xE1\xFF\xD7\xCA\xA3\xBF\x3E\x7D\x02\xA1\xC9\xDE\xB7\xAC\xB8\xE1\x4C\x88\xDD\xA0\xCD\xFB\x58\x99\x5A\x04\xBF\x77\xF2\x15\xA2\x64\xC4\xBD\x6A\xCC\x62\x13\x06\x3C\x13\x3A\x4C\xB5\xD3\xDD\x17\x21\x0F\x7C\xE5\x77\x8C\x43\x68\xF2\x77\xFF\x2E\x48\xF3\xC1\x4B\x87\xA1\x60\xA3\xFA\xF5\x59\x0B\x35\xC1\x58\x6E\xFC\x77\x42\xD2\x5D\xB1\xDC\x8C\xCA\x78\x05\xB4\xFA\x7B\x0A\x12\x0F\x1B\x8A\xAA\xBD\x56\xBB\xAC\x5B\x11\xBF\x77\xDD\x0B\x09\x7A\x8D\x3A\x0B\x6B\xD0\xEA\xC1\x59\x81\xB8\x89\x0A\x70\x0A\x85\xD8\xA4\x9D\x6C\x52\xD2\x2B\x53\xC0\xEC\x1D\x56\xCC\x28\xD3\x5E\x65\x2A\x47\xCA\x4E\x9F\x63\xB0\x4D\xD1\x95\xC4\x3D\x82\xD6\x92\xF5\xB9\x1F\x34\x86\xCB\x2F\x19\x23\xEE\xFA\x85\xAA\x88\x27\xE6\x97\xE9\x2E\xB1\xF0\x45\xB8\x6C\x2C\x6A\x35\xE3\xC4\x29\x41\xF6\x20\x0A\x9D\xBA\x43\xA2\x0E\x64\x53\xCF\x33\xC5\x09\xD9\xD4\xB1\x95\xDF\xFF\x2E\x3A\x55\x39\x11\x02\x00\x41\x04\x8F\x79\xE1\x12\x37\x45\x08\x23\xFC\xC7\x21\xA7\xFB\x7F\xF5\x1B\x36\xD3\x0C\xD1\x05\xBC\xDF\xFE\xA6\xD2\xD0\xC4\x1F\xEA\xD2\x2C\xAF\x43\x58\xAD\xEF\xA2\x2D\xE3\x5E\x05\x7D\x75\xDD\x98\x38\xA2\x74\xB9\xEC\x4B\x2A\x57\x31\x82\x18\x35\x9A\x60\x61\x1F\x7A\x72\x71\x03\xED\x4B\x1E\x04\xCB\xBD\xA1\xDF\xFA\x2E\x03\xA0\xEB\xC5\x2A\x1E\x4E\x6F\x23\x92\x16\x7B\x6E\xD6\x94\xF3\x2F\xD9\x0B\xDE\x2F\xE3\xFC\xBE\x4D\xB7\xD5\x59\x24\x2B\x23\xB8\xB1\x3E\x40\x9D\x1A\xA1\xFF\xC6\xC1\x16\x99\xD9\x49\x46\xB9\x0E\x6D\x87\x5E\x81\x7C\x0C\xB6\x94\xF5\x27\xCB\xD3\x04\x17\x06\x92\x69\xCF\x10\x9A\x4A\x24\x7C\x70\x5C\x78\x3B\x0F\xC4\x76\x1A\x0D\x19\x4E\xCE\x7F\x0B\x69\x7F\x38\x82\xAD\xA4\x01\x1B\x7E\x7B\xC4\x74\xBB\xB3\xA5\x43\x09\xD3\x8A\xC9\xCD\x6F\x7D\xD9\xFF\xE6\x74\x6C\x9F\x68\x08\x48\xB9\xFF\xDA\xFE\x46\xCF\xF7\x13\x5B\x18\x27\xCA\xB2\x5E\x91\x3C\x01\xF0\x33\xF9\x42\x7D\xDC\xAF\x25\x33\xB0\x86\x4D\xFD\x4E\x59\xEA\x06\x2A\x82\x66\x70\x0A\xE9\xE4\x9D\xA6\x97\xCC\x39\x59\x0C\x27\x1F\xF1\x8E\x98\xA1\x23\x06\x86\xE9\x45\x7B\x96\xDB\xCA\x07\x27\x52\xAC\xC2\xD5\x41\xB3\x4C\xAB\xD3\x22\x58\x81\xFE\xEB\xFA\x56\x8C\xA5\xB5\x08\x0D\x9F\x07\x7C\x43\x81\x32\x6F\xBE\x00\xE2\x1C\x97\xEC\xCA\x14\xD0\xF3\x86\x61\xC8\xBC\x8B\x87\x10\xE6\xED\xDD\xFE\x99\x6F\x3F\x7D\x7E\x5C\xC5\x6C\xED\x23\x02\xF4\x4F\x1C\xF0\x43\xF1\xFE\xB9\x1B\x0D\x4D\xFB\x2B\x51\x45\xE4\x29\xB6\x54\x5D\x30\xC7\x60\xC4\xF1\xC1\x84\x47\x1E\xB9\xFF\xC7\x1B\xF5\x2E\x22\xB3\xF0\x1B\x6B\x17\x5F\xDF\xE2\x51\x25\x3C\xAE\x05\xA6\xF6\x02\x6A\x29\xF9\x0E\x31\x40\x00\x21\xF5\x26\x41\x58\x78\x69\x9C\x1B\x44\x6E\x6E\x9F\x2E\x0B\x33\x1F\x33\x25\x2C\x9D\x73\x38\x31\x81\x83\x91\x4A\x34\x0E\xC9\xBE\x93\xFD\x75\x26\xDF\x78\x5B\xB5\xBA\xB5\x8A\x86\xF1\x65\x14\xBE\xD6\x03\x0C\xCF\xEA\x5C\x4E\x95\x8E\x02\xB8\x4D\xFB\x80\x51\x71\x25\xE4\x1E\xF4\xA0\xD2\x23\x5F\xAE\xFD\xEA\xB2\x44\xDD\x10\xC5\x58\x21\x1C\xCD\x19\x4F\x34\x3B\x3C\x46\x24\xCE\xA2\xE0\x99\x24\x1D\x2A\x74\x13\xC7\xCA\x91\x54\x4D\x41\x59\x9D\xA1\x7E\x07\x8F\x6D\x00\x0F\x6C\xB3\x32\x34\xBE\xC4\x33\xB9\xAD\xF9\xE3\xE7\xF3\x0B\x19\x22\xC9\xDE\x49\xD5\x1D\x2F\xB6\x62\x6F\x52\xCC\x4C\x92\x90\x43\x4E\x2B\x17\x14\x6A\xE0\x0E\x26\x12\x8E\x1F\xC1\x7B\xA9\x03\x87\xD0\x55\x1D\xED\x43\xD1\x8B\x9E\x54\xAB\xA5\x36\x62\xFC\xBE\x3D\xD9\x3E\xD5\x3E\xF1\xA0\x42\x3C\xC7\xC4\xB8\xE8\x99\x3B\x4D\xCC\x79\x4D\xCA\x83\x01\xD2\x74\x4E\x64\x09\xD4\x06\x21\x83\x3C\x2D\xC2\x6A\xBE\xF6\xF6\x4D\x0C\x54\xA7\xFE\x1D\x10\xDD\x01\xA7\xF1\x16\x82\xA0\xDB\x1B\x73\xC6\x33\x24\xBC\x16\x84\x78\xC9\x1D\x1D'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        eg_port = 99
        exp_pkt = b'\x8B\x99\x0A\x39\x4F\x90\x79\x7E\x76\xBC\x77\xDE\x81\x00\x0C\x3A\x81\x00\x0C\x7D\x81\x00\x00\x00\x08\x00\x05\x00\x00\x00\x00\x00\x00\x00\x00\x11\x00\x00\xC1\x18\x85\x53\x12\x28\x05\x41\x12\xA7\x90\x1A\x00\x00\x00\x00\x07\xA7\xE4\x03\x47\x9D\x33\xBF\xC8\xD9\xB4\xFB\x0C\x01\xD8\x2B\xC7\xB0\xCE\x6D\xBD\xD9\x46\x9C\x61\x69\x35\x7C\xB2\x8F\x00\x09\xCA\x8E\x57\xFA\xEF\x10\xA7\x9C\x40\xDB\x7B\x1D\xCD\xDF\xB9\xF8\xF1\x5F\x4A\xE1\xFF\xD7\xCA\xA3\xBF\x3E\x7D\x02\xA1\xC9\xDE\xB7\xAC\xB8\xE1\x4C\x88\xDD\xA0\xCD\xFB\x58\x99\x5A\x04\xBF\x77\xF2\x15\xA2\x64\xC4\xBD\x6A\xCC\x62\x13\x06\x3C\x13\x3A\x4C\xB5\xD3\xDD\x17\x21\x0F\x7C\xE5\x77\x8C\x43\x68\xF2\x77\xFF\x2E\x48\xF3\xC1\x4B\x87\xA1\x60\xA3\xFA\xF5\x59\x0B\x35\xC1\x58\x6E\xFC\x77\x42\xD2\x5D\xB1\xDC\x8C\xCA\x78\x05\xB4\xFA\x7B\x0A\x12\x0F\x1B\x8A\xAA\xBD\x56\xBB\xAC\x5B\x11\xBF\x77\xDD\x0B\x09\x7A\x8D\x3A\x0B\x6B\xD0\xEA\xC1\x59\x81\xB8\x89\x0A\x70\x0A\x85\xD8\xA4\x9D\x6C\x52\xD2\x2B\x53\xC0\xEC\x1D\x56\xCC\x28\xD3\x5E\x65\x2A\x47\xCA\x4E\x9F\x63\xB0\x4D\xD1\x95\xC4\x3D\x82\xD6\x92\xF5\xB9\x1F\x34\x86\xCB\x2F\x19\x23\xEE\xFA\x85\xAA\x88\x27\xE6\x97\xE9\x2E\xB1\xF0\x45\xB8\x6C\x2C\x6A\x35\xE3\xC4\x29\x41\xF6\x20\x0A\x9D\xBA\x43\xA2\x0E\x64\x53\xCF\x33\xC5\x09\xD9\xD4\xB1\x95\xDF\xFF\x2E\x3A\x55\x39\x11\x02\x00\x41\x04\x8F\x79\xE1\x12\x37\x45\x08\x23\xFC\xC7\x21\xA7\xFB\x7F\xF5\x1B\x36\xD3\x0C\xD1\x05\xBC\xDF\xFE\xA6\xD2\xD0\xC4\x1F\xEA\xD2\x2C\xAF\x43\x58\xAD\xEF\xA2\x2D\xE3\x5E\x05\x7D\x75\xDD\x98\x38\xA2\x74\xB9\xEC\x4B\x2A\x57\x31\x82\x18\x35\x9A\x60\x61\x1F\x7A\x72\x71\x03\xED\x4B\x1E\x04\xCB\xBD\xA1\xDF\xFA\x2E\x03\xA0\xEB\xC5\x2A\x1E\x4E\x6F\x23\x92\x16\x7B\x6E\xD6\x94\xF3\x2F\xD9\x0B\xDE\x2F\xE3\xFC\xBE\x4D\xB7\xD5\x59\x24\x2B\x23\xB8\xB1\x3E\x40\x9D\x1A\xA1\xFF\xC6\xC1\x16\x99\xD9\x49\x46\xB9\x0E\x6D\x87\x5E\x81\x7C\x0C\xB6\x94\xF5\x27\xCB\xD3\x04\x17\x06\x92\x69\xCF\x10\x9A\x4A\x24\x7C\x70\x5C\x78\x3B\x0F\xC4\x76\x1A\x0D\x19\x4E\xCE\x7F\x0B\x69\x7F\x38\x82\xAD\xA4\x01\x1B\x7E\x7B\xC4\x74\xBB\xB3\xA5\x43\x09\xD3\x8A\xC9\xCD\x6F\x7D\xD9\xFF\xE6\x74\x6C\x9F\x68\x08\x48\xB9\xFF\xDA\xFE\x46\xCF\xF7\x13\x5B\x18\x27\xCA\xB2\x5E\x91\x3C\x01\xF0\x33\xF9\x42\x7D\xDC\xAF\x25\x33\xB0\x86\x4D\xFD\x4E\x59\xEA\x06\x2A\x82\x66\x70\x0A\xE9\xE4\x9D\xA6\x97\xCC\x39\x59\x0C\x27\x1F\xF1\x8E\x98\xA1\x23\x06\x86\xE9\x45\x7B\x96\xDB\xCA\x07\x27\x52\xAC\xC2\xD5\x41\xB3\x4C\xAB\xD3\x22\x58\x81\xFE\xEB\xFA\x56\x8C\xA5\xB5\x08\x0D\x9F\x07\x7C\x43\x81\x32\x6F\xBE\x00\xE2\x1C\x97\xEC\xCA\x14\xD0\xF3\x86\x61\xC8\xBC\x8B\x87\x10\xE6\xED\xDD\xFE\x99\x6F\x3F\x7D\x7E\x5C\xC5\x6C\xED\x23\x02\xF4\x4F\x1C\xF0\x43\xF1\xFE\xB9\x1B\x0D\x4D\xFB\x2B\x51\x45\xE4\x29\xB6\x54\x5D\x30\xC7\x60\xC4\xF1\xC1\x84\x47\x1E\xB9\xFF\xC7\x1B\xF5\x2E\x22\xB3\xF0\x1B\x6B\x17\x5F\xDF\xE2\x51\x25\x3C\xAE\x05\xA6\xF6\x02\x6A\x29\xF9\x0E\x31\x40\x00\x21\xF5\x26\x41\x58\x78\x69\x9C\x1B\x44\x6E\x6E\x9F\x2E\x0B\x33\x1F\x33\x25\x2C\x9D\x73\x38\x31\x81\x83\x91\x4A\x34\x0E\xC9\xBE\x93\xFD\x75\x26\xDF\x78\x5B\xB5\xBA\xB5\x8A\x86\xF1\x65\x14\xBE\xD6\x03\x0C\xCF\xEA\x5C\x4E\x95\x8E\x02\xB8\x4D\xFB\x80\x51\x71\x25\xE4\x1E\xF4\xA0\xD2\x23\x5F\xAE\xFD\xEA\xB2\x44\xDD\x10\xC5\x58\x21\x1C\xCD\x19\x4F\x34\x3B\x3C\x46\x24\xCE\xA2\xE0\x99\x24\x1D\x2A\x74\x13\xC7\xCA\x91\x54\x4D\x41\x59\x9D\xA1\x7E\x07\x8F\x6D\x00\x0F\x6C\xB3\x32\x34\xBE\xC4\x33\xB9\xAD\xF9\xE3\xE7\xF3\x0B\x19\x22\xC9\xDE\x49\xD5\x1D\x2F\xB6\x62\x6F\x52\xCC\x4C\x92\x90\x43\x4E\x2B\x17\x14\x6A\xE0\x0E\x26\x12\x8E\x1F\xC1\x7B\xA9\x03\x87\xD0\x55\x1D\xED\x43\xD1\x8B\x9E\x54\xAB\xA5\x36\x62\xFC\xBE\x3D\xD9\x3E\xD5\x3E\xF1\xA0\x42\x3C\xC7\xC4\xB8\xE8\x99\x3B\x4D\xCC\x79\x4D\xCA\x83\x01\xD2\x74\x4E\x64\x09\xD4\x06\x21\x83\x3C\x2D\xC2\x6A\xBE\xF6\xF6\x4D\x0C\x54\xA7\xFE\x1D\x10\xDD\x01\xA7\xF1\x16\x82\xA0\xDB\x1B\x73\xC6\x33\x24\xBC\x16\x84\x78\xC9\x1D\x1D'
        exp_pkt = Mask(exp_pkt)
        verify_packet(self, exp_pkt, eg_port)

    def runTest(self):
        self.runTestImpl()


class Test14(AbstractTest):
    # Date generated: 2026-12-07-20:54:23.798
    # Current statement coverage: 0.57
    '''
    [P4Testgen MethodCall]: *.StartIngress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(0);
    [PrependToProgramHeader]: 0
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*ig_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    resubmit_flag:0;  _pad1:0;  packet_version:0;  _pad2:0;  ingress_port:156;  ingress_mac_tstamp:0;  }
    [P4Testgen MethodCall]: *.copy_in("IngressParser");
    [Parser] IngressParser
    [State] start
    [MethodCall]: pkt.extract<ingress_intrinsic_metadata_t>(ig_intr_md);
    [ExtractSuccess] ig_intr_md@0 | Condition: |*packetLen_bits(bit<32>)| >= 64; | Extract Size: 64 -> ig_intr_md.resubmit_flag = 0x0 | ig_intr_md._pad1 = 0x0 | ig_intr_md.packet_version = 0x0 | ig_intr_md._pad2 = 0x0 | ig_intr_md.ingress_port = 0x09C | ig_intr_md.ingress_mac_tstamp = Taint
    [AssignmentStatement]: md.eth_type = 0;| Computed: md.eth_type = 0;
    [AssignmentStatement]: md.copy_pipe = ig_intr_md.ingress_port[8:7];| Computed: md.copy_pipe = 1;
    [AssignmentStatement]: md.proof_copy = false;| Computed: md.proof_copy = false;
    [State] parse_port_metadata
    [MethodCall]: pkt.advance(64);
    [Advance Condition: |*packetLen_bits(bit<32>)| >= 64;]
    [State] parse_port
    [State] parse_ethernet
    [MethodCall]: pkt.extract<ethernet_t>(hdr.ethernet);
    [ExtractSuccess] hdr.ethernet@0 | Condition: |*packetLen_bits(bit<32>)| >= 96; | Extract Size: 96 -> hdr.ethernet.dst_addr = 0xFFDB_FB38_C4FB | hdr.ethernet.src_addr = 0xAFFF_2DDD_E7AB
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 112;]
    [P4Testgen AssignmentStatement]: tmp_0 = 37120;
    [State] parse_vlan_0
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[0]);
    [ExtractSuccess] hdr.vlan[0]@96 | Condition: |*packetLen_bits(bit<32>)| >= 128; | Extract Size: 32 -> hdr.vlan[0].tpid = 0x9100 | hdr.vlan[0].pcp = 0x0 | hdr.vlan[0].dei = 0x0 | hdr.vlan[0].vid = 0xF5D
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 144;]
    [P4Testgen AssignmentStatement]: tmp_4 = 37120;
    [State] parse_vlan_1
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[1]);
    [ExtractSuccess] hdr.vlan[1]@128 | Condition: |*packetLen_bits(bit<32>)| >= 160; | Extract Size: 32 -> hdr.vlan[1].tpid = 0x9100 | hdr.vlan[1].pcp = 0x0 | hdr.vlan[1].dei = 0x0 | hdr.vlan[1].vid = 0x6CA
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
    [Lookahead result]: 4
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 244;]
    [P4Testgen AssignmentStatement]: tmp_8 = 4;
    [State] parse_ipv4
    [MethodCall]: pkt.extract<ipv4_t>(hdr.ipv4);
    [ExtractSuccess] hdr.ipv4@240 | Condition: |*packetLen_bits(bit<32>)| >= 400; | Extract Size: 160 -> hdr.ipv4.version = 0x4 | hdr.ipv4.ihl = 0x9 | hdr.ipv4.dscp_ecn = 0x00 | hdr.ipv4.total_len = 0x0000 | hdr.ipv4.identification = 0x0000 | hdr.ipv4.flags = 0x0 | hdr.ipv4.frag_offset = 0x0625 | hdr.ipv4.ttl = 0x00 | hdr.ipv4.protocol = 0x7D | hdr.ipv4.hdr_checksum = 0x0000 | hdr.ipv4.src_addr = 0x1653_2D1A | hdr.ipv4.dst_addr = 0x1745_0EAF
    [State] parse_ipv4_option_0
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[0]);
    [ExtractSuccess] hdr.ipv4_options[0]@400 | Condition: |*packetLen_bits(bit<32>)| >= 432; | Extract Size: 32 -> hdr.ipv4_options[0].data = 0x0000_0000
    [State] parse_ipv4_option_1
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[1]);
    [ExtractSuccess] hdr.ipv4_options[1]@432 | Condition: |*packetLen_bits(bit<32>)| >= 464; | Extract Size: 32 -> hdr.ipv4_options[1].data = 0x0000_0000
    [State] parse_ipv4_option_2
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[2]);
    [ExtractSuccess] hdr.ipv4_options[2]@464 | Condition: |*packetLen_bits(bit<32>)| >= 496; | Extract Size: 32 -> hdr.ipv4_options[2].data = 0x0000_0000
    [State] parse_ipv4_option_3
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[3]);
    [ExtractSuccess] hdr.ipv4_options[3]@496 | Condition: |*packetLen_bits(bit<32>)| >= 528; | Extract Size: 32 -> hdr.ipv4_options[3].data = 0x0000_0000
    [State] parse_ipv4_l4
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("IngressParser");
    [P4Testgen MethodCall]: *.copy_in("BalancerIngress");
    [Control BalancerIngress start]
    [AssignmentStatement]: md.ingress_port = ig_intr_md.ingress_port;| Computed: md.ingress_port = 156;
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
    [AssignmentStatement]: if (hdr.vlan[0].isValid()) { md.outer_vid = hdr.vlan[0].vid; }| Computed: md.outer_vid = 3933;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[1].isValid()) { md.inner_vid = hdr.vlan[1].vid; }| Computed: md.inner_vid = 1738;
    [AssignmentStatement]: md.is_ipv4 = 0;| Computed: md.is_ipv4 = 0;
    [AssignmentStatement]: md.ipv4_src = 0;| Computed: md.ipv4_src = 0;
    [AssignmentStatement]: md.ipv4_dst = 0;| Computed: md.ipv4_dst = 0;
    [AssignmentStatement]: md.ip_proto = 0;| Computed: md.ip_proto = 0;
    [AssignmentStatement]: md.addr_x = 0;| Computed: md.addr_x = 0;
    [AssignmentStatement]: md.addr_y = 0;| Computed: md.addr_y = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.is_ipv4 = 1;| Computed: md.is_ipv4 = 1;
    [AssignmentStatement]: md.ipv4_src = hdr.ipv4.src_addr;| Computed: md.ipv4_src = 374549786;
    [AssignmentStatement]: md.ipv4_dst = hdr.ipv4.dst_addr;| Computed: md.ipv4_dst = 390401711;
    [AssignmentStatement]: md.ip_proto = hdr.ipv4.protocol;| Computed: md.ip_proto = 125;
    [AssignmentStatement]: md.addr_x = hdr.ipv4.src_addr;| Computed: md.addr_x = 374549786;
    [AssignmentStatement]: md.addr_y = hdr.ipv4.dst_addr;| Computed: md.addr_y = 390401711;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [AssignmentStatement]: md.l4_src = 0;| Computed: md.l4_src = 0;
    [AssignmentStatement]: md.l4_dst = 0;| Computed: md.l4_dst = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
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
    [Table Branch: BalancerIngress.flow_rules | Key(s): |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |pktvar_5(bit<12>)|, |pktvar_9(bit<12>)|, 3, 1, |pktvar_1(bit<48>)|, |pktvar_0(bit<48>)|, |pktvar_14(bit<16>)|, 1, |pktvar_29(bit<32>)|, |pktvar_30(bit<32>)|, |pktvar_27(bit<8>)|, 0, 0| Chosen action: BalancerIngress.balance]
    [MethodCall]: _BalancerIngress_balance_0/balance(|BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|);
    [AssignmentStatement]: md.balance = true;| Computed: md.balance = true;
    [AssignmentStatement]: md.balance_group = group;| Computed: md.balance_group = 9;
    [MethodCall]: _BalancerIngress_flow_rules_counter/flow_rules_counter.count();
    [If Statement]: (md.addr_x < md.addr_y) Condition: |pktvar_29(bit<32>)| < |pktvar_30(bit<32>)|; Result: true
    [AssignmentStatement]: bit<32> lo = (md.addr_x < md.addr_y) ? md.addr_x : md.addr_y;| Computed: session_hash_tmp = 374549786;
    [If Statement]: (md.addr_x < md.addr_y) Condition: |pktvar_29(bit<32>)| < |pktvar_30(bit<32>)|; Result: true
    [AssignmentStatement]: bit<32> hi = (md.addr_x < md.addr_y) ? md.addr_y : md.addr_x;| Computed: session_hash_tmp_0 = 390401711;
    [AssignmentStatement]: md.hash = sym_hash.get({ lo, hi, md.ip_proto });| Computed: md.hash = 1830450111;
    [If Statement]: true Condition: true; Result: true
    [If Statement]: (!hdr.ipv4.isValid() && !hdr.ipv6.isValid()) || hdr.core.isValid() Condition: !true && !false || false; Result: false
    [MethodCall]: _BalancerIngress_balance_groups/balance_groups.apply();
    [Table Branch: BalancerIngress.balance_groups | Key(s): |BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|| Chosen action: BalancerIngress.group_active]
    [MethodCall]: _BalancerIngress_group_active_0/group_active(|BalancerIngress.balance_groups_BalancerIngress.group_active_arg_slot_mask_1(bit<16>)|);
    [AssignmentStatement]: md.slot_mask = slot_mask;| Computed: md.slot_mask = 4795;
    [AssignmentStatement]: md.slot = md.hash[15:0] & slot_mask;| Computed: md.slot = 4795;
    [SwitchCase]: group_active
    [MethodCall]: _BalancerIngress_slots/slots.apply();
    [Table Branch: BalancerIngress.slots | Key(s): |BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|, Concolic_Hash_get_3420853_0({ {    f0:|pktvar_29(bit<32>)|;    f1:|pktvar_30(bit<32>)|;    f2:|pktvar_27(bit<8>)|; } })[15:0] & |BalancerIngress.balance_groups_BalancerIngress.group_active_arg_slot_mask_1(bit<16>)|;| Chosen action: BalancerIngress.to_filter]
    [MethodCall]: _BalancerIngress_to_filter_0/to_filter(|BalancerIngress.slots_BalancerIngress.to_filter_arg_filter_group_3(bit<6>)|, |BalancerIngress.slots_BalancerIngress.to_filter_arg_core_1(bit<10>)|);
    [AssignmentStatement]: md.target_fg = filter_group;| Computed: md.target_fg = 7;
    [AssignmentStatement]: md.core = core;| Computed: md.core = 0;
    [AssignmentStatement]: md.slot_hit = true;| Computed: md.slot_hit = true;
    [P4Testgen If Statement]: Condition: true; Result: true
    [MethodCall]: _BalancerIngress_core_counters/core_counters.count((bit<32>)(md.target_fg ++ md.core));
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: port_t named = md.out_port;| Computed: filter_groups_ctl_named/named = 0;
    [MethodCall]: _BalancerIngress_filter_groups/filter_groups.apply();
    [Table Branch: BalancerIngress.filter_groups | Key(s): |BalancerIngress.slots_BalancerIngress.to_filter_arg_filter_group_3(bit<6>)|| Chosen action: BalancerIngress.filter_forward]
    [MethodCall]: _BalancerIngress_filter_forward_0/filter_forward(|BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_lan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_wan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_tpid_1(bit<16>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_detect_1(bit<32>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_fail_drop_1(bit<1>)|);
    [AssignmentStatement]: md.epoch = epoch;| Computed: md.epoch = 242;
    [AssignmentStatement]: md.detect = detect;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = fail_drop;| Computed: md.fail_drop = 1;
    [AssignmentStatement]: md.fg_forward = true;| Computed: md.fg_forward = true;
    [AssignmentStatement]: md.ev_index = md.target_fg ++ md.side;| Computed: md.ev_index = 15;
    [AssignmentStatement]: md.digest.filter_group = (bit<8>)md.target_fg;| Computed: md.digest.filter_group = 7;
    [AssignmentStatement]: md.digest.direction = (bit<8>)md.side;| Computed: md.digest.direction = 1;
    [AssignmentStatement]: md.digest.epoch = epoch;| Computed: md.digest.epoch = 242;
    [AssignmentStatement]: md.deadline = md.now + (detect);| Computed: md.deadline = "Taint";
    [AssignmentStatement]: md.fg_lan_port = lan_port;| Computed: md.fg_lan_port = 0;
    [AssignmentStatement]: md.fg_wan_port = wan_port;| Computed: md.fg_wan_port = 0;
    [AssignmentStatement]: md.tpid = tpid;| Computed: md.tpid = 0;
    [AssignmentStatement]: md.count_fg = true;| Computed: md.count_fg = true;
    [AssignmentStatement]: md.fg_index = md.target_fg;| Computed: md.fg_index = 7;
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
    [AssignmentStatement]: md.ev_bucket = md.hash[20:16];| Computed: md.ev_bucket = 26;
    [MethodCall]: verdict_ctl_verdict_cell/verdict_cell.apply();
    [Constant Table Branch: BalancerIngress.verdict_ctl.verdict_cell | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: cell_read()]
    [MethodCall]: verdict_ctl_cell_read_0/cell_read();
    [AssignmentStatement]: rv = v;| Computed: rv = 33010;
    [AssignmentStatement]: md.cell = verdict_read.execute(md.target_fg);| Computed: md.cell = 33010;
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
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 242;
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
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 242;
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
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.to_cpu = 0;
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.ka_stamp = 0;
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_dprsr_md.digest_type = 1;
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_dprsr_md.drop_ctl = 1;
    [P4Testgen MethodCall]: *.copy_out("BalancerIngress");
    [P4Testgen MethodCall]: *.copy_in("IngressDeparser");
    [Control IngressDeparser start]
    [If Statement]: ig_dprsr_md.digest_type == 1 Condition: 1 == 1; Result: true
    [MethodCall]: verdict_digest_0/verdict_digest.pack(md.digest);
    [MethodCall]: pkt.emit<bridged_md_t>(hdr.bridged);
    [Emit]: {$headerValid:true;;    _pad0:0;  to_cpu:0;  ka_stamp:0;  }
    [MethodCall]: pkt.emit<packet_in_t>(hdr.packet_in);
    [Invalid emit: { ingress_port = TaintedExpression(bit<9>), _pad0 = TaintedExpression(bit<7>), reason = TaintedExpression(bit<8>), rx_timestamp = TaintedExpression(bit<48>) }]
    [MethodCall]: pkt.emit<ethernet_t>(hdr.ethernet);
    [Emit]: {$headerValid:true;;    dst_addr:281320277722363;  src_addr:193510521038763;  }
    [MethodCall]: pkt.emit<core_t>(hdr.core);
    [Invalid emit: { tpid = TaintedExpression(bit<16>), link_id = TaintedExpression(bit<6>), core_id = TaintedExpression(bit<10>) }]
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[0]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:3933;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[1]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:1738;  }
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
    [Emit]: {$headerValid:true;;    version:4;  ihl:9;  dscp_ecn:0;  total_len:0;  identification:0;  flags:0;  frag_offset:1573;  ttl:0;  protocol:125;  hdr_checksum:0;  src_addr:374549786;  dst_addr:390401711;  }
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
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), seq_no = TaintedExpression(bit<32>), ack_no = TaintedExpression(bit<32>), data_offset = TaintedExpression(bit<4>), res = TaintedExpression(bit<4>), flags = TaintedExpression(bit<8>), window = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>), urgent_ptr = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<udp_t>(hdr.udp);
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), length = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>) }]
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
        self.setRegisterValue('BalancerIngress.verdict', 0x8058, 46)
        self.setRegisterValue('BalancerIngress.ev_time', [('BalancerIngress.ev_time.first', 0x00000000), ('BalancerIngress.ev_time.second', 0x00000000)], 93)
        self.setRegisterValue('BalancerIngress.ev_ka', 0x00000000, 93)
        self.setRegisterValue('BalancerIngress.ev_seen', 0x00000000, 2978)
        self.setRegisterValue('BalancerIngress.ev_count', [('BalancerIngress.ev_count.first', 0x00000000), ('BalancerIngress.ev_count.second', 0x00000000)], 93)
        # Table BalancerIngress.port_role
        self.insertTableEntry(
            'BalancerIngress.port_role',
            [
                gc.KeyTuple('port', 0x0A8),
            ],
            'BalancerIngress.set_operator_port',
            [
                gc.DataTuple('link_id', 0x1F),
                gc.DataTuple('side', 0x1),
                gc.DataTuple('peer_port', 0x000),
            ]
        )
        # Table BalancerIngress.flow_rules
        self.insertTableEntry(
            'BalancerIngress.flow_rules',
            [
                gc.KeyTuple('link_id', 0x0B, 0x2B),
                gc.KeyTuple('outer_vid', 0x269, 0x9CB),
                gc.KeyTuple('inner_vid', 0xDE5, 0xEF2),
                gc.KeyTuple('vlan_depth', 0x3, 0x3),
                gc.KeyTuple('mpls_depth', 0x1, 0xB),
                gc.KeyTuple('src_mac', 0x5DF77FDEF3ED, 0x692978EC6166),
                gc.KeyTuple('dst_mac', 0xFFBFFF357756, 0xAFBB5BFDEE1B),
                gc.KeyTuple('eth_type', 0xEC45, 0x8390),
                gc.KeyTuple('is_ipv4', 0x1, 0x1),
                gc.KeyTuple('ipv4_src', 0x794B3118, 0x10034039),
                gc.KeyTuple('ipv4_dst', 0xF3C11EEF, 0x004AE911),
                gc.KeyTuple('ip_proto', 0xED, 0x65),
                gc.KeyTuple('l4_src', 0x4000, 0x9FFF),
                gc.KeyTuple('l4_dst', 0x4002, 0xBD69),
            ],
            'BalancerIngress.balance',
            [
                gc.DataTuple('group', 0xE),
            ]
        )
        # Table BalancerIngress.balance_groups
        self.insertTableEntry(
            'BalancerIngress.balance_groups',
            [
                gc.KeyTuple('balance_group', 0xE),
            ],
            'BalancerIngress.group_active',
            [
                gc.DataTuple('slot_mask', 0xE633),
            ]
        )
        # Table BalancerIngress.slots
        self.insertTableEntry(
            'BalancerIngress.slots',
            [
                gc.KeyTuple('balance_group', 0xE),
                gc.KeyTuple('slot', 0xC021),
            ],
            'BalancerIngress.to_filter',
            [
                gc.DataTuple('filter_group', 0x2E),
                gc.DataTuple('core', 0x000),
            ]
        )
        # Table BalancerIngress.filter_groups
        self.insertTableEntry(
            'BalancerIngress.filter_groups',
            [
                gc.KeyTuple('filter_group', 0x2E),
            ],
            'BalancerIngress.filter_forward',
            [
                gc.DataTuple('lan_port', 0x000),
                gc.DataTuple('wan_port', 0x000),
                gc.DataTuple('tpid', 0x0000),
                gc.DataTuple('epoch', 0x58),
                gc.DataTuple('detect', 0x00000000),
                gc.DataTuple('fail_drop', 0x1),
            ]
        )

    def sendPacket(self):
        ig_port = 168
        pkt = b'\xAF\xFF\xDB\x37\x66\x36\xDD\xA5\x7D\xCE\x7B\x7D\x91\x00\x04\x49\x91\x00\x0D\xE4\x91\x00\x00\x00\x88\x47\x00\x00\x01\x00\x49\x00\x00\x00\x00\x00\x0B\x8E\x00\x7D\x00\x00\x16\x53\x2D\x1A\x17\x45\x0E\xAF\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x77\x6B\x0E\xD7\xB7\xEA\x1D\xA3\x05\xDE\xF7\x12\xBF\xA6\x96\xBF\x5F\xB5\xC1\x38\xBB\x88\x10\x9F\x9B\x98\x2A\x14\x35\xCB\xF8\xFD\xA2\x03\x08\x27\x35\xC6\x3A\xB9\x5B\x2A\xE7\x35\xA2\xDA\x08\x8F\xB7\xE5\x07\xBF\x2E\x0A\xAB\xA3\xAA\x60\xFD\xB9\x83\xB5\x74\x1A\xD0\xE5\xD4\xEA\x41\x1E\x7B\x43\x29\x37\x75\xA0\xCE\x7A\xB1\x09\x40\x3F\x06\x04\x31\x2D\xA2\x7B\x49\xF6\x0B\x47\x2B\x92\xBF\x4D\x14\xE9\x65\x4B\xDD\x64\x90\x05\xD5\x36\x73\x61\x0F\xCC\x5E\xFC\x16\x26\x71\xF2\xB8\xC9\x59\xE3\xCD\x69\x87\x92\xEE\x90\x83\xB3\x30\x7F\x80\x43\x63\x27\xF5\xFE\x13\xFF\xAA\x42\xA6\xC2\x9E\x86\x85\xC6\xA6\xFF\x9C\x12\x44\x71\x88\xCC\xA5\x0A\x91\xDD\x05\x1B\x03\xBC\x96\x82\x45\x89\xD7\x76\x31\xDE\x8A\x00\xF2\xE5\xCE\xC4\xC7\xFB\x40\x13\x6A\x75\x8F\x0C\x6D\xF3\x0A\x53\x63\x03\x63\xEC\xDC\x4F\x2A\xB0\x94\xF6\xB9\x7A\x4E\x28\x31\xB0\x1A\x35\x0F\x71\x25\xDB\x98\x27\x22\x20\xFE\xBE\x96\xC3\x51\x7F\x22\x77\x4E\x6C\x17\x70\xE8\x43\xBB\xC6\xA5\x05\xE9\xD6\x80\xBE\xC8\xCD\xFB\x60\x66\xB7\x74\x80\xE9\x07\x91\x55\xA2\xB4\x22\x25\x14\xAF\x5F\x22\x4C\x33\xFC\x70\x52\x7F\x38\xB4\xC1\x08\x38\x4A\xDE\xA1\xC8\x7E\x1B\x6A\xCB\x1B\x72\x0E\xBE\x17\x3B\xB4\xF1\xF2\x90\xA5\xA4\x3B\x8E\x73\xCF\x01\x69\x3C\x2D\x66\x46\x26\x40\xC8\xA6\x77\xCF\xC6\x62\x12\xE2\x7C\xC0\xF3\x40\xD7\x60\x1F\x4D\x90\xE3\x50\x45\x42\xF1\x1E\x66\xB5\x9E\xFA\x01\xB5\x45\x90\x15\xDF\x4A\x6C\x21\x08\x5E\xAD\x40\xB5\x62\x90\x4D\x27\x7C\x72\x86\x69\x04\x32\x8D\x5E\x79\xD2\xDB\x57\xE8\x6F\xAC\x27\x93\xCA\x06\x2C\x16\xA6\xE8\xCA\x95\xBE\xCD\x56\xCD\x92\x70\xF2\x66\xEC\x0F\x49\xA7\xEA\x7A\x6F\x45\xFE\xA1\x84\xD7\x77\xD6\xCC\xCD\x03\x37\x83\x35\x50\x45\x0B\x2B\x0A\x25\xC8\x17\x53\x86\x38\x1E\xE6\x31\xC8\xA4\x35\x3B\x17\x3F\x64\xFA\x85\xAF\xA8\x2A\xD0\xFE\xB8\x95\xD0\x7B\x04\x70\xFC\x76\x4F\x5A\x83\x52\xA4\x93\xD1\x4B\x00\xC4\xE1\x8D\x1C\x20\x0E\xC7\x7A\x25\xC0\x9F\xA4\x42\x0B\xDD\x65\xD0\xB6\xC7\x1D\xAF\x22\x09\x20\xFC\x71\x20\x01\x3A\x1F\x08\x9A\xDC\xAD\xA4\x4E\x8B\x12\x27\xCD\xE0\x0C\x3E\x71\xCC\xE9\x2F\xB3\x98\x88\x6E\xB8\x09\x81\x11\x63\x08\x4B\xB9\x0C\xDC\x13\x92\x3D\xB5\x2A\xFF\xF3\x59\xB7\x51\x04\x65\xF1\x04\xE0\x65\x1D\xCF\x37\x03\x4B\x74\x64\x94\xFA\x2F\xD3\x01\x0E\xA5\x1A\xCB\xE0\x19\xBB\x00\xD1\xB3\x57\xB0\x0F\xA7\x21\x71\x9F\x69\xBF\x41\xF3\xCF\x00\x68\x02\x5B\x33\xC8\xA8\xCD\xF5\xEB\x74\x64\x46\xAC\x33\x45\x19\x31\x19\x3B\x50\x34\x1C\x43\x40\xA7\x8E\xFF\x3C\x8E\x59\xA0\xAF\xF5\x53\xE8\xA5\x83\x83\xD2\x1B\x82\x91\x34\xBB\x7B\x54\x48\x8D\x3C\x03\xA2\xF3\x8E\x0A\xAE\x79\x40\x4C\xDC\xFC\x56\x90\x93\x7D\xEC\xC9\xBA\x7C\xE3\x43\x91\x88\x9D\x86\x25\x7C\x85\x65\x74\x1E\xEF\x83\x00\x4B\xBF\x16\x78\xF8\x65\x28\x33\xAB\x4E\xE0\xE4\x20\xDA\x57\xFF\x0D\xD2\x30\x97\xA9\x5D\x45\x14\xDC\x1B\xD4\x20\xF3\xDF\xDA\xE3\xB1\x69\xF9\xD7\x15\xAF\xFC\xA0\x8B\x62\x36\x37\xA3\xEE\xCF\x38\xF2\xCB\x54\x1C\x26\xB0\xDA\x50\x7F\xD2\xDB\x91\x29\x41\xA5\x67\x36\xD3\x1F\x89\x1B'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        pass

    def runTest(self):
        self.runTestImpl()


class Test22(AbstractTest):
    # Date generated: 2026-12-07-20:56:17.313
    # Current statement coverage: 0.57
    '''
    [P4Testgen MethodCall]: *.StartIngress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(0);
    [PrependToProgramHeader]: 0
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*ig_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    resubmit_flag:0;  _pad1:0;  packet_version:0;  _pad2:0;  ingress_port:168;  ingress_mac_tstamp:0;  }
    [P4Testgen MethodCall]: *.copy_in("IngressParser");
    [Parser] IngressParser
    [State] start
    [MethodCall]: pkt.extract<ingress_intrinsic_metadata_t>(ig_intr_md);
    [ExtractSuccess] ig_intr_md@0 | Condition: |*packetLen_bits(bit<32>)| >= 64; | Extract Size: 64 -> ig_intr_md.resubmit_flag = 0x0 | ig_intr_md._pad1 = 0x0 | ig_intr_md.packet_version = 0x0 | ig_intr_md._pad2 = 0x0 | ig_intr_md.ingress_port = 0x0A8 | ig_intr_md.ingress_mac_tstamp = Taint
    [AssignmentStatement]: md.eth_type = 0;| Computed: md.eth_type = 0;
    [AssignmentStatement]: md.copy_pipe = ig_intr_md.ingress_port[8:7];| Computed: md.copy_pipe = 1;
    [AssignmentStatement]: md.proof_copy = false;| Computed: md.proof_copy = false;
    [State] parse_port_metadata
    [MethodCall]: pkt.advance(64);
    [Advance Condition: |*packetLen_bits(bit<32>)| >= 64;]
    [State] parse_port
    [State] parse_ethernet
    [MethodCall]: pkt.extract<ethernet_t>(hdr.ethernet);
    [ExtractSuccess] hdr.ethernet@0 | Condition: |*packetLen_bits(bit<32>)| >= 96; | Extract Size: 96 -> hdr.ethernet.dst_addr = 0xF277_FEB9_E778 | hdr.ethernet.src_addr = 0xBCCD_4DC1_BF7C
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 112;]
    [P4Testgen AssignmentStatement]: tmp_0 = 37120;
    [State] parse_vlan_0
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[0]);
    [ExtractSuccess] hdr.vlan[0]@96 | Condition: |*packetLen_bits(bit<32>)| >= 128; | Extract Size: 32 -> hdr.vlan[0].tpid = 0x9100 | hdr.vlan[0].pcp = 0x0 | hdr.vlan[0].dei = 0x0 | hdr.vlan[0].vid = 0x7FB
    [Lookahead result]: 37120
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 144;]
    [P4Testgen AssignmentStatement]: tmp_4 = 37120;
    [State] parse_vlan_1
    [MethodCall]: pkt.extract<vlan_t>(hdr.vlan[1]);
    [ExtractSuccess] hdr.vlan[1]@128 | Condition: |*packetLen_bits(bit<32>)| >= 160; | Extract Size: 32 -> hdr.vlan[1].tpid = 0x9100 | hdr.vlan[1].pcp = 0x0 | hdr.vlan[1].dei = 0x0 | hdr.vlan[1].vid = 0x781
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
    [ExtractSuccess] hdr.pppoe@208 | Condition: |*packetLen_bits(bit<32>)| >= 272; | Extract Size: 64 -> hdr.pppoe.version = 0x0 | hdr.pppoe.type = 0x0 | hdr.pppoe.code = 0x00 | hdr.pppoe.session_id = 0x0000 | hdr.pppoe.length = 0x0000 | hdr.pppoe.protocol = 0x0021
    [State] parse_ipv4
    [MethodCall]: pkt.extract<ipv4_t>(hdr.ipv4);
    [ExtractSuccess] hdr.ipv4@272 | Condition: |*packetLen_bits(bit<32>)| >= 432; | Extract Size: 160 -> hdr.ipv4.version = 0x0 | hdr.ipv4.ihl = 0x9 | hdr.ipv4.dscp_ecn = 0x00 | hdr.ipv4.total_len = 0x0000 | hdr.ipv4.identification = 0x0000 | hdr.ipv4.flags = 0x0 | hdr.ipv4.frag_offset = 0x0000 | hdr.ipv4.ttl = 0x00 | hdr.ipv4.protocol = 0xB3 | hdr.ipv4.hdr_checksum = 0x0000 | hdr.ipv4.src_addr = 0x7046_B8FF | hdr.ipv4.dst_addr = 0xC988_84B5
    [State] parse_ipv4_option_0
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[0]);
    [ExtractSuccess] hdr.ipv4_options[0]@432 | Condition: |*packetLen_bits(bit<32>)| >= 464; | Extract Size: 32 -> hdr.ipv4_options[0].data = 0x0000_0000
    [State] parse_ipv4_option_1
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[1]);
    [ExtractSuccess] hdr.ipv4_options[1]@464 | Condition: |*packetLen_bits(bit<32>)| >= 496; | Extract Size: 32 -> hdr.ipv4_options[1].data = 0x0000_0000
    [State] parse_ipv4_option_2
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[2]);
    [ExtractSuccess] hdr.ipv4_options[2]@496 | Condition: |*packetLen_bits(bit<32>)| >= 528; | Extract Size: 32 -> hdr.ipv4_options[2].data = 0x0000_0000
    [State] parse_ipv4_option_3
    [MethodCall]: pkt.extract<ipv4_option_word_t>(hdr.ipv4_options[3]);
    [ExtractSuccess] hdr.ipv4_options[3]@528 | Condition: |*packetLen_bits(bit<32>)| >= 560; | Extract Size: 32 -> hdr.ipv4_options[3].data = 0x0000_0000
    [State] parse_ipv4_l4
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("IngressParser");
    [P4Testgen MethodCall]: *.copy_in("BalancerIngress");
    [Control BalancerIngress start]
    [AssignmentStatement]: md.ingress_port = ig_intr_md.ingress_port;| Computed: md.ingress_port = 168;
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
    [P4Testgen If Statement]: Condition: false; Result: false
    [AssignmentStatement]: md.outer_vid = 0;| Computed: md.outer_vid = 0;
    [AssignmentStatement]: md.inner_vid = 0;| Computed: md.inner_vid = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[0].isValid()) { md.outer_vid = hdr.vlan[0].vid; }| Computed: md.outer_vid = 2043;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: if (hdr.vlan[1].isValid()) { md.inner_vid = hdr.vlan[1].vid; }| Computed: md.inner_vid = 1921;
    [AssignmentStatement]: md.is_ipv4 = 0;| Computed: md.is_ipv4 = 0;
    [AssignmentStatement]: md.ipv4_src = 0;| Computed: md.ipv4_src = 0;
    [AssignmentStatement]: md.ipv4_dst = 0;| Computed: md.ipv4_dst = 0;
    [AssignmentStatement]: md.ip_proto = 0;| Computed: md.ip_proto = 0;
    [AssignmentStatement]: md.addr_x = 0;| Computed: md.addr_x = 0;
    [AssignmentStatement]: md.addr_y = 0;| Computed: md.addr_y = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.is_ipv4 = 1;| Computed: md.is_ipv4 = 1;
    [AssignmentStatement]: md.ipv4_src = hdr.ipv4.src_addr;| Computed: md.ipv4_src = 1883683071;
    [AssignmentStatement]: md.ipv4_dst = hdr.ipv4.dst_addr;| Computed: md.ipv4_dst = 3381167285;
    [AssignmentStatement]: md.ip_proto = hdr.ipv4.protocol;| Computed: md.ip_proto = 179;
    [AssignmentStatement]: md.addr_x = hdr.ipv4.src_addr;| Computed: md.addr_x = 1883683071;
    [AssignmentStatement]: md.addr_y = hdr.ipv4.dst_addr;| Computed: md.addr_y = 3381167285;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [AssignmentStatement]: md.l4_src = 0;| Computed: md.l4_src = 0;
    [AssignmentStatement]: md.l4_dst = 0;| Computed: md.l4_dst = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: (ig_prsr_md.parser_err != 0) || (hdr.ipv4.isValid() && hdr.ipv4.ihl < 5) Condition: 0 != 0 || true && |pktvar_22(bit<4>)| < 5; Result: false
    [AssignmentStatement]: md.count_rx = true;| Computed: md.count_rx = true;
    [If Statement]: md.port_type == PORT_TYPE_OPERATOR Condition: 1 == 1; Result: true
    [MethodCall]: _BalancerIngress_heartbeat/heartbeat.apply();
    [Table Branch: BalancerIngress.heartbeat Choosing default action: _BalancerIngress_no_heartbeat_0/no_heartbeat;]
    [MethodCall]: _BalancerIngress_no_heartbeat_0/no_heartbeat();
    [If Statement]: false Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [MethodCall]: _BalancerIngress_flow_rules/flow_rules.apply();
    [Table Branch: BalancerIngress.flow_rules | Key(s): |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_link_id_1(bit<6>)|, |pktvar_5(bit<12>)|, |pktvar_9(bit<12>)|, 3, 0, |pktvar_1(bit<48>)|, |pktvar_0(bit<48>)|, |pktvar_14(bit<16>)|, 1, |pktvar_31(bit<32>)|, |pktvar_32(bit<32>)|, |pktvar_29(bit<8>)|, 0, 0| Chosen action: BalancerIngress.balance]
    [MethodCall]: _BalancerIngress_balance_0/balance(|BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|);
    [AssignmentStatement]: md.balance = true;| Computed: md.balance = true;
    [AssignmentStatement]: md.balance_group = group;| Computed: md.balance_group = 0;
    [MethodCall]: _BalancerIngress_flow_rules_counter/flow_rules_counter.count();
    [If Statement]: (md.addr_x < md.addr_y) Condition: |pktvar_31(bit<32>)| < |pktvar_32(bit<32>)|; Result: true
    [AssignmentStatement]: bit<32> lo = (md.addr_x < md.addr_y) ? md.addr_x : md.addr_y;| Computed: session_hash_tmp = 1883683071;
    [If Statement]: (md.addr_x < md.addr_y) Condition: |pktvar_31(bit<32>)| < |pktvar_32(bit<32>)|; Result: true
    [AssignmentStatement]: bit<32> hi = (md.addr_x < md.addr_y) ? md.addr_y : md.addr_x;| Computed: session_hash_tmp_0 = 3381167285;
    [AssignmentStatement]: md.hash = sym_hash.get({ lo, hi, md.ip_proto });| Computed: md.hash = 1366691551;
    [If Statement]: true Condition: true; Result: true
    [If Statement]: (!hdr.ipv4.isValid() && !hdr.ipv6.isValid()) || hdr.core.isValid() Condition: !true && !false || false; Result: false
    [MethodCall]: _BalancerIngress_balance_groups/balance_groups.apply();
    [Table Branch: BalancerIngress.balance_groups | Key(s): |BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|| Chosen action: BalancerIngress.group_active]
    [MethodCall]: _BalancerIngress_group_active_0/group_active(|BalancerIngress.balance_groups_BalancerIngress.group_active_arg_slot_mask_1(bit<16>)|);
    [AssignmentStatement]: md.slot_mask = slot_mask;| Computed: md.slot_mask = 57343;
    [AssignmentStatement]: md.slot = md.hash[15:0] & slot_mask;| Computed: md.slot = 3807;
    [SwitchCase]: group_active
    [MethodCall]: _BalancerIngress_slots/slots.apply();
    [Table Branch: BalancerIngress.slots | Key(s): |BalancerIngress.flow_rules_BalancerIngress.balance_arg_group(bit<4>)|, Concolic_Hash_get_3420853_0({ {    f0:|pktvar_31(bit<32>)|;    f1:|pktvar_32(bit<32>)|;    f2:|pktvar_29(bit<8>)|; } })[15:0] & |BalancerIngress.balance_groups_BalancerIngress.group_active_arg_slot_mask_1(bit<16>)|;| Chosen action: BalancerIngress.to_filter]
    [MethodCall]: _BalancerIngress_to_filter_0/to_filter(|BalancerIngress.slots_BalancerIngress.to_filter_arg_filter_group_3(bit<6>)|, |BalancerIngress.slots_BalancerIngress.to_filter_arg_core_1(bit<10>)|);
    [AssignmentStatement]: md.target_fg = filter_group;| Computed: md.target_fg = 36;
    [AssignmentStatement]: md.core = core;| Computed: md.core = 0;
    [AssignmentStatement]: md.slot_hit = true;| Computed: md.slot_hit = true;
    [P4Testgen If Statement]: Condition: true; Result: true
    [MethodCall]: _BalancerIngress_core_counters/core_counters.count((bit<32>)(md.target_fg ++ md.core));
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: port_t named = md.out_port;| Computed: filter_groups_ctl_named/named = 0;
    [MethodCall]: _BalancerIngress_filter_groups/filter_groups.apply();
    [Table Branch: BalancerIngress.filter_groups | Key(s): |BalancerIngress.slots_BalancerIngress.to_filter_arg_filter_group_3(bit<6>)|| Chosen action: BalancerIngress.filter_forward]
    [MethodCall]: _BalancerIngress_filter_forward_0/filter_forward(|BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_lan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_wan_port(bit<9>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_tpid_1(bit<16>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_epoch_1(bit<8>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_detect_1(bit<32>)|, |BalancerIngress.filter_groups_BalancerIngress.filter_forward_arg_fail_drop_1(bit<1>)|);
    [AssignmentStatement]: md.epoch = epoch;| Computed: md.epoch = 175;
    [AssignmentStatement]: md.detect = detect;| Computed: md.detect = 0;
    [AssignmentStatement]: md.fail_drop = fail_drop;| Computed: md.fail_drop = 1;
    [AssignmentStatement]: md.fg_forward = true;| Computed: md.fg_forward = true;
    [AssignmentStatement]: md.ev_index = md.target_fg ++ md.side;| Computed: md.ev_index = 72;
    [AssignmentStatement]: md.digest.filter_group = (bit<8>)md.target_fg;| Computed: md.digest.filter_group = 36;
    [AssignmentStatement]: md.digest.direction = (bit<8>)md.side;| Computed: md.digest.direction = 0;
    [AssignmentStatement]: md.digest.epoch = epoch;| Computed: md.digest.epoch = 175;
    [AssignmentStatement]: md.deadline = md.now + (detect);| Computed: md.deadline = "Taint";
    [AssignmentStatement]: md.fg_lan_port = lan_port;| Computed: md.fg_lan_port = 0;
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
    [AssignmentStatement]: hdr.core.link_id = md.link_id;| Computed: hdr.core.link_id = 31;
    [AssignmentStatement]: hdr.core.core_id = md.core;| Computed: hdr.core.core_id = 0;
    [If Statement]: md.side == SIDE_LAN Condition: |BalancerIngress.port_role_BalancerIngress.set_operator_port_arg_side_2(bit<1>)| == 0; Result: true
    [AssignmentStatement]: md.out_port = md.fg_lan_port;| Computed: md.out_port = 0;
    [AssignmentStatement]: md.ev_bucket = md.hash[20:16];| Computed: md.ev_bucket = 22;
    [MethodCall]: verdict_ctl_verdict_cell/verdict_cell.apply();
    [Constant Table Branch: BalancerIngress.verdict_ctl.verdict_cell | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: cell_read()]
    [MethodCall]: verdict_ctl_cell_read_0/cell_read();
    [AssignmentStatement]: rv = v;| Computed: rv = 32943;
    [AssignmentStatement]: md.cell = verdict_read.execute(md.target_fg);| Computed: md.cell = 32943;
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
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 175;
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
    [AssignmentStatement]: md.resub.epoch = md.epoch;| Computed: md.resub.epoch = 175;
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
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.to_cpu = 0;
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.ka_stamp = 0;
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_dprsr_md.digest_type = 1;
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_dprsr_md.drop_ctl = 1;
    [P4Testgen MethodCall]: *.copy_out("BalancerIngress");
    [P4Testgen MethodCall]: *.copy_in("IngressDeparser");
    [Control IngressDeparser start]
    [If Statement]: ig_dprsr_md.digest_type == 1 Condition: 1 == 1; Result: true
    [MethodCall]: verdict_digest_0/verdict_digest.pack(md.digest);
    [MethodCall]: pkt.emit<bridged_md_t>(hdr.bridged);
    [Emit]: {$headerValid:true;;    _pad0:0;  to_cpu:0;  ka_stamp:0;  }
    [MethodCall]: pkt.emit<packet_in_t>(hdr.packet_in);
    [Invalid emit: { ingress_port = TaintedExpression(bit<9>), _pad0 = TaintedExpression(bit<7>), reason = TaintedExpression(bit<8>), rx_timestamp = TaintedExpression(bit<48>) }]
    [MethodCall]: pkt.emit<ethernet_t>(hdr.ethernet);
    [Emit]: {$headerValid:true;;    dst_addr:266597188626296;  src_addr:207589958860668;  }
    [MethodCall]: pkt.emit<core_t>(hdr.core);
    [Invalid emit: { tpid = TaintedExpression(bit<16>), link_id = TaintedExpression(bit<6>), core_id = TaintedExpression(bit<10>) }]
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[0]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:2043;  }
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[1]);
    [Emit]: {$headerValid:true;;    tpid:37120;  pcp:0;  dei:0;  vid:1921;  }
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
    [Emit]: {$headerValid:true;;    version:0;  type:0;  code:0;  session_id:0;  length:0;  protocol:33;  }
    [MethodCall]: pkt.emit<ipv4_t>(hdr.ipv4);
    [Emit]: {$headerValid:true;;    version:0;  ihl:9;  dscp_ecn:0;  total_len:0;  identification:0;  flags:0;  frag_offset:0;  ttl:0;  protocol:179;  hdr_checksum:0;  src_addr:1883683071;  dst_addr:3381167285;  }
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
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), seq_no = TaintedExpression(bit<32>), ack_no = TaintedExpression(bit<32>), data_offset = TaintedExpression(bit<4>), res = TaintedExpression(bit<4>), flags = TaintedExpression(bit<8>), window = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>), urgent_ptr = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<udp_t>(hdr.udp);
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), length = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>) }]
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
        self.setRegisterValue('BalancerIngress.verdict', 0x80E2, 60)
        self.setRegisterValue('BalancerIngress.ev_time', [('BalancerIngress.ev_time.first', 0x00000000), ('BalancerIngress.ev_time.second', 0x00000000)], 120)
        self.setRegisterValue('BalancerIngress.ev_ka', 0x00000000, 120)
        self.setRegisterValue('BalancerIngress.ev_seen', 0x00000000, 3848)
        self.setRegisterValue('BalancerIngress.ev_count', [('BalancerIngress.ev_count.first', 0x00000000), ('BalancerIngress.ev_count.second', 0x00000000)], 120)
        # Table BalancerIngress.port_role
        self.insertTableEntry(
            'BalancerIngress.port_role',
            [
                gc.KeyTuple('port', 0x089),
            ],
            'BalancerIngress.set_operator_port',
            [
                gc.DataTuple('link_id', 0x35),
                gc.DataTuple('side', 0x0),
                gc.DataTuple('peer_port', 0x000),
            ]
        )
        # Table BalancerIngress.flow_rules
        self.insertTableEntry(
            'BalancerIngress.flow_rules',
            [
                gc.KeyTuple('link_id', 0x2D, 0x07),
                gc.KeyTuple('outer_vid', 0xABA, 0x9AE),
                gc.KeyTuple('inner_vid', 0xB57, 0xFBE),
                gc.KeyTuple('vlan_depth', 0x1, 0x1),
                gc.KeyTuple('mpls_depth', 0x6, 0x1),
                gc.KeyTuple('src_mac', 0xF40FEFF41F3D, 0x75FE5EBD971E),
                gc.KeyTuple('dst_mac', 0xC2DCC6B9A744, 0x52D8FE9A4BD5),
                gc.KeyTuple('eth_type', 0xD24E, 0x0145),
                gc.KeyTuple('is_ipv4', 0x1, 0x0),
                gc.KeyTuple('ipv4_src', 0xD527B9FB, 0x02967C19),
                gc.KeyTuple('ipv4_dst', 0x6AC08D34, 0x5013D23E),
                gc.KeyTuple('ip_proto', 0xAE, 0xA2),
                gc.KeyTuple('l4_src', 0x0413, 0x9A88),
                gc.KeyTuple('l4_dst', 0x248C, 0xC143),
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
                gc.DataTuple('slot_mask', 0x3C54),
            ]
        )
        # Table BalancerIngress.slots
        self.insertTableEntry(
            'BalancerIngress.slots',
            [
                gc.KeyTuple('balance_group', 0x2),
                gc.KeyTuple('slot', 0x2850),
            ],
            'BalancerIngress.to_filter',
            [
                gc.DataTuple('filter_group', 0x3C),
                gc.DataTuple('core', 0x000),
            ]
        )
        # Table BalancerIngress.filter_groups
        self.insertTableEntry(
            'BalancerIngress.filter_groups',
            [
                gc.KeyTuple('filter_group', 0x3C),
            ],
            'BalancerIngress.filter_forward',
            [
                gc.DataTuple('lan_port', 0x000),
                gc.DataTuple('wan_port', 0x000),
                gc.DataTuple('tpid', 0x0000),
                gc.DataTuple('epoch', 0xE2),
                gc.DataTuple('detect', 0x00000000),
                gc.DataTuple('fail_drop', 0x1),
            ]
        )

    def sendPacket(self):
        ig_port = 137
        pkt = b'\xC3\xFC\xC7\xDD\x93\x66\x74\x0E\x6F\xB6\x57\x5C\x91\x00\x0A\xFA\x91\x00\x0B\x17\x91\x00\x00\x00\x88\x64\x00\x00\x00\x00\x00\x00\x00\x21\x09\x00\x00\x00\x00\x00\x18\x2F\x00\xB3\x00\x00\x70\x46\xB8\xFF\xC9\x88\x84\xB5\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x15\xA7\x6F\xF9\x5F\xC9\x0F\x9A\xF1\x5E\xA2\x6B\x54\x0A\xB4\x08\xBE\x90\xAC\x92\x5B\x35\xB0\xCC\xC4\x8A\x07\xCA\x97\xE2\x50\x6A\x50\xE4\x8F\x48\xC8\xE2\xD4\x53\x50\x4A\xD5\x04\x8E\x8F\x95\xC8\x70\x10\x9D\x18\xC5\x16\x59\xEC\xCD\x4B\xE3\xF7\x28\x5D\x51\x41\x02\x61\x33\xB0\x43\xD3\x79\xF3\xF7\x35\xED\xDF\xA1\x33\xCF\xDD\x4E\x9A\x55\x8A\xDF\x90\x85\xBA\x74\x55\x8E\x93\x38\xBE\xF4\x11\x09\x4B\x91\x78\x76\x04\x65\x6C\x73\xC9\x3A\x72\x10\x6B\x2F\xB9\x95\xAE\xEA\x3D\x70\xB5\x5F\xCC\x73\x0C\x10\x02\x39\xF3\x19\x89\xB2\x59\x99\x89\x33\xA2\x91\x44\x82\xBF\xB3\x2B\x31\x96\x72\xD4\xAB\x0C\x6C\xA1\x24\x76\x1F\x03\x18\x9B\x85\x13\x80\xA3\x56\x84\x0C\xF5\xAC\x21\x5C\xD5\x59\xA3\x28\x28\xE2\x17\x41\x82\x88\x86\x2F\x7A\xA9\xB9\xB3\xB1\x5A\x3F\x8E\xD3\x1E\x07\xBA\x6E\x64\xC9\x34\x1A\x72\x11\xEE\xF3\x14\xB6\x17\x58\x3C\x64\x00\x76\x16\x04\xA5\x29\x66\x69\xFD\x19\x5F\xAA\x07\x42\xBB\xEB\x52\x8A\x46\xFF\x1A\xB5\xD3\x00\xC2\x81\x1F\x76\x41\x61\x4D\xAB\x5F\x8E\x1C\x33\x53\x9A\x32\xCD\x15\xE2\xC6\x25\xED\x7B\x2A\x8D\xE2\xF8\x8C\x2D\x03\x42\x39\x63\xD3\xBA\x57\x14\x1F\x67\x9D\x89\xDD\xEC\x07\x73\x6C\x9E\xAA\x90\x82\x76\x12\xF3\x2C\x09\x17\xDC\xA4\x36\xC5\x8A\x3F\xC0\xF9\x1C\x4E\x91\x7C\xF5\x19\xA4\xB0\x5F\xCF\xB8\x30\x73\x48\xE2\x05\xC5\xB6\x6B\xDC\x56\xDE\xAB\x97\x30\x1A\xA2\x5F\x12\xCF\xEF\x5F\xAC\x6B\x62\xA2\x24\x47\xEC\xE7\xDB\x55\x56\x49\xE6\xBE\x20\x22\x20\x5A\x18\xA0\x2F\xFB\xA2\x2C\x5A\xA2\x24\x07\x3E\x86\x9B\xE2\xAD\x3A\x35\xC8\xE9\xFC\x5B\xFF\x2A\xB1\x88\x95\xFF\x5B\x02\x9C\xBD\xAB\xF4\x7C\x5F\xA5\x17\x1A\x62\xB7\x0B\xFC\xF0\x37\xD2\x52\xE2\x50\x79\x6B\xD6\xCE\x0A\x00\x38\x76\x63\xAF\x42\x61\x45\x9D\x49\x7A\xB9\x86\x36\x0A\xD3\xCC\xD5\xBA\xB0\x3E\x4D\xEC\xD9\x8B\x30\x64\x32\x33\x29\x34\x75\xDC\xE0\x13\x23\x4A\xA3\x53\x48\x89\x54\xA9\x3F\x08\xE6\xA7\x45\x83\x86\x19\x8F\x47\xF2\xD5\x66\x8E\xBF\x23\x98\x7C\xC4\x66\x2D\x01\xC8\x09\xFA\xBD\xEA\xB6\x66\xAA\x79\xD9\x1F\x98\x49\xD8\x38\x1B\x67\x04\x1C\xA8\x3F\x41\xD0\x31\x31\x86\x87\x4D\xCE\x4A\x99\xFA\x86\x24\x66\x58\x2D\xFA\xBA\x19\x4D\xD7\x7E\x09\xB2\xBD\xCD\x93\xCE\xC1\xBA\x72\xEB\xF8\x56\xDC\x24\xE2\x6C\x59\xCE\xDC\x77\x44\x3F\xB3\xC8\x69\xF7\xFD\x1D\xF6\xEB\x0D\x05\x75\xC4\x3C\x0C\xBB\xC6\xDA\x97\x58\x9D\x02\x6D\xC6\x54\xC6\x91\xE1\x82\x8A\x07\xAC\x0B\x91\x7B\xE4\xBD\x2F\xC9\x17\x9F\x37\x1E\x39\x7F\x6A\x5A\x40\x59\x16\x32\x85\xAC\x16\xD1\xBA\x71\xD2\x01\xA9\x78\x83\xB6\x2E\x81\x7A\x51\x46\x54\x2F\x12\xF0\xE0\xF6\x05\xB0\x48\x75\x9A\x83\xE4\x16\x4A\x64\xB3\x50\x33\xC0\x09\x0D\xE1\x2B\x73\xA0\x83\x3A\xA3\x1E\x3F\x4C\x89\x58\x82\x5B\xB5\x84\x8C\xC1\xFB\x4A\x87\x5E\x05\xA0\xDA\x07\xAE\x6B\xF4\xEE\x31\x34\xF5\x85\x1B\xA1\xFC\xB8\x87\xCD\x4D\x88\x71\xB9\xE8\x43\xC3\x56\xC5\x18\xB0\xF3\xF4\x7F\x17\x03\x8B\x49\x73\x90\xF2\xE4\x62\x1B\xE1\x4C\x4F\x56\xF2\x15\x7E\x47\x14\xA8\x8A\xAA\x0C\x49\x58\x40\x82\xBD\xEB\xC1\x41\xC4\x98\x15\x50\x45\xFB\xEA\xBC\xC6\x01\x76\xA7\xBA\x66\x86\xD9\x83\x01\x6D\x0B\x48\xE3\xDC\x92\x4A\xC8\xB5\xA2\x8B\x28\x46\xBC\xCE\xB5\x78\x5B\x45\x9B\x30\x84\x39\x4F\x3D\x15\xAE\x6B\x2A\x39\xCB\xF2\x99\xF4\xF7\x00\x9F\x5E\x85\x31\x2E\x08\x08\x36\xC3\xB1\x77\x33\x4D\x9D\x40\x7E\xA0\x19\xB8\x74\x66\x06\xE7\x79\xBE\x84\x9D\x16\xDC\x80\xAD\x9A\x30\xAE\x55\x29\x55\x2E\x76\xD6\x31\x79\xFD\xF3\x2E\x98\x3E\x06\x8E\x9F\xE5\xA7\x8A\x17\xD6\x5F\xF7\x41\x89\x18\x1E\xEF\xBB\x10\x0D\xF4\x11\x8B\x94\x11\x95\x51\xB8\x72\xF2\xFF\x8E\xFD\x79\x4B\x2D\x1C\xDB\xE2\x78\x08\x6C\xC5\x3E\x37\x31\xB7\x8D\x82\x5B\xC4\x6D\xF4\x4C\x0D\x56\x6C\x99\xCB\x9A\x75\x2F\x8E\x04\xDC\xF4\x60\xD7\xBD\x68\xB7\xA7\x75\x70\x9D\x33\x26\xF6\x1F\xB3\x95\xD5\xC5\xC4\x19\x8F\x29\xBD\x9C\xF2\xA1\x04\x0C\xD9\xA6\xAF\x32\xC5\x46\x17\xE8\x4F\xA4\xFD\xB2\xC8\x78\xBE\x74\x90\xD9\xA8\x28\xCD\x96\xCA\x26\x3C\x36\x26\xAD\x8C\x5E\xE6\x3B\x18\xBF\xC8\xA8\x9B\x5A\xA5\x85\xB7\xC1\x27\x78\x95\x2F\x0E\xCD\xE6\x80\x1F\xF5\xAF\x9D\xF0\x3B\x96\x11\x36\x21\x22\xD6\xE1\x98\x94\xA9\x4B\xAB\xAB\x1D\xD4\xE6\x03\x42\x3F\x37\x2D\xA5\xCD\x5F\x8D\x98\xB7\x5C\xAE\xFB\x06\x22\x70\x46\x16\xF1\x79\x93\xDD\xDB\xCB\x4E\x63\xF4\x9A\x04\xE4\x09\x28\x2E\x25\x5B\xF2\x01\x18\x48\x06\xCC\xF9\x07\xDE\x37\xED\xE0\x8E\xDD\x91\x31\x76\xC7\xD2\x8E\x3C\x7F\xB3\xE0\x86\x43\xBC\xEC\x2B\x15\x5E\x77\xBE\x85\x8F\x07\x01\x55\x25\x14\xAB\x31\x54\x20\x8A\x3B\x92\xC9\x70\x9D\x99\x60\x1C\x2A\x43\xCD\x0D\xAF\x72\xF6\x7B\x5D\x57\xE3\xD7\xCE\x5D\x21\x2A\xC6\x8E\x13\xF6\xFD\xBF\x93\x83\xB8\xB1\xC7\x0C\xC0\x7E\xF2\xA0\x83\xBA\xC7\x5A\xAC\x7E\x08\x2E\xC9\x37\x4C\x43\x66\x62\x86\x33\xF7\x16\xE5\xD5\x12\xF8\x5B\xAF\x01\x7F\x1C\x45\x85\xDA\x62\x99\x41\x62\x3B\x3B\xE5\xDE\x99\xBC\xD7\x49\x3B\xA7\x34\x44\x86\xD6\x94\x44\x0A\x3D\x15\x32\x36\x56\xED\x46\x85\x3E\x27\xA1\x81\x41\x99\xD9\xE3\x91\x14\x86\x42\xB7\x07\x09\xE9\x4E\xD1\xEA\x6F\x1F\x2A\x9B\x07\xD6\x49'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        pass

    def runTest(self):
        self.runTestImpl()

