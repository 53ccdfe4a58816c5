# PTF test for tests/testgen/testdata/tofino-verdict/return
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

logger = logging.getLogger('tests/testgen/testdata/tofino-verdict/return')
logger.addHandler(logging.StreamHandler())

class AbstractTest(BfRuntimeTest):
    def setUp(self):
        BfRuntimeTest.setUp(self, 0, 'tests/testgen/testdata/tofino-verdict/return')
        self.dev_id = 0
        self.table_entries = []
        self.bfrt_info = None
        # Get bfrt_info and set it as part of the test.
        self.bfrt_info = self.interface.bfrt_info_get('tests/testgen/testdata/tofino-verdict/return')

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
    # Date generated: 2026-12-07-21:01:12.124
    # Current statement coverage: 0.28
    '''
    [P4Testgen MethodCall]: *.StartIngress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(0);
    [PrependToProgramHeader]: 0
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*ig_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    resubmit_flag:0;  _pad1:0;  packet_version:0;  _pad2:0;  ingress_port:190;  ingress_mac_tstamp:0;  }
    [P4Testgen MethodCall]: *.copy_in("IngressParser");
    [Parser] IngressParser
    [State] start
    [MethodCall]: pkt.extract<ingress_intrinsic_metadata_t>(ig_intr_md);
    [ExtractSuccess] ig_intr_md@0 | Condition: |*packetLen_bits(bit<32>)| >= 64; | Extract Size: 64 -> ig_intr_md.resubmit_flag = 0x0 | ig_intr_md._pad1 = 0x0 | ig_intr_md.packet_version = 0x0 | ig_intr_md._pad2 = 0x0 | ig_intr_md.ingress_port = 0x0BE | ig_intr_md.ingress_mac_tstamp = Taint
    [AssignmentStatement]: md.eth_type = 0;| Computed: md.eth_type = 0;
    [AssignmentStatement]: md.copy_pipe = ig_intr_md.ingress_port[8:7];| Computed: md.copy_pipe = 1;
    [AssignmentStatement]: md.proof_copy = false;| Computed: md.proof_copy = false;
    [State] parse_port_metadata
    [MethodCall]: pkt.advance(64);
    [Advance Condition: |*packetLen_bits(bit<32>)| >= 64;]
    [State] parse_port
    [State] parse_ethernet
    [MethodCall]: pkt.extract<ethernet_t>(hdr.ethernet);
    [ExtractSuccess] hdr.ethernet@0 | Condition: |*packetLen_bits(bit<32>)| >= 96; | Extract Size: 96 -> hdr.ethernet.dst_addr = 0x0000_0000_0000 | hdr.ethernet.src_addr = 0x0000_0000_0000
    [Lookahead result]: 34998
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 112;]
    [P4Testgen AssignmentStatement]: tmp_0 = 34998;
    [State] parse_keepalive
    [MethodCall]: pkt.extract<eth_type_t>(hdr.eth_type);
    [ExtractSuccess] hdr.eth_type@96 | Condition: |*packetLen_bits(bit<32>)| >= 112; | Extract Size: 16 -> hdr.eth_type.value = 0x88B6
    [AssignmentStatement]: md.eth_type = hdr.eth_type.value;| Computed: md.eth_type = 34998;
    [MethodCall]: pkt.extract<keepalive_t>(hdr.keepalive);
    [ExtractSuccess] hdr.keepalive@112 | Condition: |*packetLen_bits(bit<32>)| >= 272; | Extract Size: 160 -> hdr.keepalive.magic = 0x0000_0000 | hdr.keepalive.version = 0x00 | hdr.keepalive.direction = 0x00 | hdr.keepalive.filter_group = 0x768B | hdr.keepalive.seq = 0x0000_0000 | hdr.keepalive.tx_timestamp = 0x0000_0000_0000_0000
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("IngressParser");
    [P4Testgen MethodCall]: *.copy_in("BalancerIngress");
    [Control BalancerIngress start]
    [AssignmentStatement]: md.ingress_port = ig_intr_md.ingress_port;| Computed: md.ingress_port = 190;
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
    [Table Branch: BalancerIngress.port_role | Key(s): |tofino_ingress_port(bit<9>)|| Chosen action: BalancerIngress.set_filter_port]
    [MethodCall]: _BalancerIngress_set_filter_port_0/set_filter_port(|BalancerIngress.port_role_BalancerIngress.set_filter_port_arg_filter_group_2(bit<6>)|, |BalancerIngress.port_role_BalancerIngress.set_filter_port_arg_side_3(bit<1>)|);
    [AssignmentStatement]: md.port_type = PORT_TYPE_FILTER;| Computed: md.port_type = 2;
    [AssignmentStatement]: md.filter_group = filter_group;| Computed: md.filter_group = 8;
    [AssignmentStatement]: md.side = side;| Computed: md.side = 0;
    [AssignmentStatement]: md.vlan_depth = 0;| Computed: md.vlan_depth = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
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
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [AssignmentStatement]: md.is_ipv4 = 0;| Computed: md.is_ipv4 = 0;
    [AssignmentStatement]: md.ipv4_src = 0;| Computed: md.ipv4_src = 0;
    [AssignmentStatement]: md.ipv4_dst = 0;| Computed: md.ipv4_dst = 0;
    [AssignmentStatement]: md.ip_proto = 0;| Computed: md.ip_proto = 0;
    [AssignmentStatement]: md.addr_x = 0;| Computed: md.addr_x = 0;
    [AssignmentStatement]: md.addr_y = 0;| Computed: md.addr_y = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [AssignmentStatement]: md.l4_src = 0;| Computed: md.l4_src = 0;
    [AssignmentStatement]: md.l4_dst = 0;| Computed: md.l4_dst = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: (ig_prsr_md.parser_err != 0) || (hdr.ipv4.isValid() && hdr.ipv4.ihl < 5) Condition: 0 != 0 || false && TaintedExpression(bit<4>) < 5; Result: false
    [AssignmentStatement]: md.count_rx = true;| Computed: md.count_rx = true;
    [If Statement]: md.port_type == PORT_TYPE_OPERATOR Condition: 2 == 1; Result: false
    [If Statement]: md.port_type == PORT_TYPE_FILTER Condition: 2 == 2; Result: true
    [AssignmentStatement]: md.count_fg = true;| Computed: md.count_fg = true;
    [AssignmentStatement]: md.fg_index = md.filter_group;| Computed: md.fg_index = 8;
    [AssignmentStatement]: md.ev_index = md.filter_group ++ (~md.side);| Computed: md.ev_index = 17;
    [P4Testgen If Statement]: Condition: true; Result: true
    [If Statement]: hdr.keepalive.filter_group == group Condition: |pktvar_6(bit<16>)| == (bit<16>)|BalancerIngress.port_role_BalancerIngress.set_filter_port_arg_filter_group_2(bit<6>)|; Result: false
    [MethodCall]: hdr.packet_in.setValid();
    [AssignmentStatement]: hdr.packet_in.ingress_port = md.ingress_port;| Computed: hdr.packet_in.ingress_port = 190;
    [AssignmentStatement]: hdr.packet_in.reason = PACKET_IN_REASON_KEEPALIVE;| Computed: hdr.packet_in.reason = 1;
    [AssignmentStatement]: md.to_cpu = true;| Computed: md.to_cpu = true;
    [AssignmentStatement]: md.fg_kind = FG_CNT_KEEPALIVE;| Computed: md.fg_kind = 2;
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: verdict_ctl_verdict_cell/verdict_cell.apply();
    [Table Branch: BalancerIngress.verdict_ctl.verdict_cell Choosing default action: verdict_ctl_verdict_none_0/verdict_none;]
    [MethodCall]: verdict_ctl_verdict_none_0/verdict_none();
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: testgen_assume(md.port_type == 2 && hdr.keepalive.isValid());
    [Assume: applying condition: 2 == 2 && true;]
    [AssignmentStatement]: md.copy_slot = md.now[31:4];| Computed: md.copy_slot = "Taint";
    [MethodCall]: evidence_copy_ctl_ev_copy_session/ev_copy_session.apply();
    [Constant Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_session | Key(s): |tofino_ingress_port(bit<9>)|[8:7]; | Chosen action: copy_session_of(10w961) | Arg(s): 961]
    [MethodCall]: evidence_copy_ctl_copy_session_of_0/copy_session_of(961);
    [AssignmentStatement]: md.copy_session = session;| Computed: md.copy_session = 961;
    [MethodCall]: evidence_copy_ctl_ev_copy_step/ev_copy_step.apply();
    [Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_step Choosing default action: evidence_copy_ctl_copy_none_0/copy_none;]
    [MethodCall]: evidence_copy_ctl_copy_none_0/copy_none();
    [MethodCall]: evidence_ctl_ev_time_step/ev_time_step.apply();
    [Table Branch: BalancerIngress.evidence_ctl.ev_time_step Choosing default action: evidence_ctl_ev_none_0/ev_none;]
    [MethodCall]: evidence_ctl_ev_none_0/ev_none();
    [MethodCall]: evidence_ctl_ev_ka_step/ev_ka_step.apply();
    [Table Branch: BalancerIngress.evidence_ctl.ev_ka_step Choosing default action: evidence_ctl_ev_none_1/ev_none;]
    [MethodCall]: evidence_ctl_ev_none_1/ev_none();
    [MethodCall]: evidence_ctl_ev_seen_step/ev_seen_step.apply();
    [Table Branch: BalancerIngress.evidence_ctl.ev_seen_step Choosing default action: evidence_ctl_ev_none_2/ev_none;]
    [MethodCall]: evidence_ctl_ev_none_2/ev_none();
    [MethodCall]: evidence_ctl_ev_count_step/ev_count_step.apply();
    [Table Branch: BalancerIngress.evidence_ctl.ev_count_step Choosing default action: evidence_ctl_ev_none_3/ev_none;]
    [MethodCall]: evidence_ctl_ev_none_3/ev_none();
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_port_rx/port_rx.count((bit<32>)ig_intr_md.ingress_port);
    [If Statement]: false Condition: false; Result: false
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_filter_group_counters/filter_group_counters.count((bit<32>)(md.fg_index ++ md.fg_kind));
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.packet_in.rx_timestamp = "Taint";
    [MethodCall]: hdr.bridged.setValid();
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.to_cpu = 1;
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.ka_stamp = 0;
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_tm_md.ucast_egress_port = 192;
    [P4Testgen MethodCall]: *.copy_out("BalancerIngress");
    [P4Testgen MethodCall]: *.copy_in("IngressDeparser");
    [Control IngressDeparser start]
    [If Statement]: ig_dprsr_md.digest_type == 1 Condition: 0 == 1; Result: false
    [MethodCall]: pkt.emit<bridged_md_t>(hdr.bridged);
    [Emit]: {$headerValid:true;;    _pad0:0;  to_cpu:1;  ka_stamp:0;  }
    [MethodCall]: pkt.emit<packet_in_t>(hdr.packet_in);
    [Emit]: {$headerValid:true;;    ingress_port:190;  _pad0:0;  reason:1;  rx_timestamp:0;  }
    [MethodCall]: pkt.emit<ethernet_t>(hdr.ethernet);
    [Emit]: {$headerValid:true;;    dst_addr:0;  src_addr:0;  }
    [MethodCall]: pkt.emit<core_t>(hdr.core);
    [Invalid emit: { tpid = TaintedExpression(bit<16>), link_id = TaintedExpression(bit<6>), core_id = TaintedExpression(bit<10>) }]
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[0]);
    [Invalid emit: { tpid = TaintedExpression(bit<16>), pcp = TaintedExpression(bit<3>), dei = TaintedExpression(bit<1>), vid = TaintedExpression(bit<12>) }]
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[1]);
    [Invalid emit: { tpid = TaintedExpression(bit<16>), pcp = TaintedExpression(bit<3>), dei = TaintedExpression(bit<1>), vid = TaintedExpression(bit<12>) }]
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[2]);
    [Invalid emit: { tpid = TaintedExpression(bit<16>), pcp = TaintedExpression(bit<3>), dei = TaintedExpression(bit<1>), vid = TaintedExpression(bit<12>) }]
    [MethodCall]: pkt.emit<eth_type_t>(hdr.eth_type);
    [Emit]: {$headerValid:true;;    value:34998;  }
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
    [Invalid emit: { version = TaintedExpression(bit<4>), traffic_class = TaintedExpression(bit<8>), flow_label = TaintedExpression(bit<20>), payload_len = TaintedExpression(bit<16>), next_hdr = TaintedExpression(bit<8>), hop_limit = TaintedExpression(bit<8>), src_addr = TaintedExpression(bit<128>), dst_addr = TaintedExpression(bit<128>) }]
    [MethodCall]: pkt.emit<tcp_t>(hdr.tcp);
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), seq_no = TaintedExpression(bit<32>), ack_no = TaintedExpression(bit<32>), data_offset = TaintedExpression(bit<4>), res = TaintedExpression(bit<4>), flags = TaintedExpression(bit<8>), window = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>), urgent_ptr = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<udp_t>(hdr.udp);
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), length = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<keepalive_t>(hdr.keepalive);
    [Emit]: {$headerValid:true;;    magic:0;  version:0;  direction:0;  filter_group:30347;  seq:0;  tx_timestamp:0;  }
    [P4Testgen MethodCall]: *.copy_out("IngressDeparser");
    [P4Testgen AssignmentStatement]: *eg_intr_md.egress_port = 192;
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    [P4Testgen If Statement]: Condition: true && (false || 0 <= 192 && 192 <= 192) && 1 == 0; Result: false
    [P4Testgen MethodCall]: *.StartEgress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*eg_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    _pad0:0;  egress_port:192;  }
    [P4Testgen MethodCall]: *.copy_in("EgressParser");
    [Parser] EgressParser
    [State] start
    [MethodCall]: pkt.extract<egress_intrinsic_metadata_t>(eg_intr_md);
    [ExtractSuccess] eg_intr_md@272 | Condition: |*packetLen_bits(bit<32>)| >= 288; | Extract Size: 16 -> eg_intr_md._pad0 = 0x00 | eg_intr_md.egress_port = 0x0C0
    [State] parse_bridged
    [MethodCall]: pkt.extract<bridged_md_t>(hdr.bridged);
    [ExtractSuccess] hdr.bridged@272 | Condition: |*packetLen_bits(bit<32>)| >= 280; | Extract Size: 8 -> hdr.bridged._pad0 = Taint | hdr.bridged.to_cpu = 0x1 | hdr.bridged.ka_stamp = 0x0
    [State] parse_packet_in
    [MethodCall]: pkt.extract<packet_in_t>(hdr.packet_in);
    [ExtractSuccess] hdr.packet_in@272 | Condition: |*packetLen_bits(bit<32>)| >= 344; | Extract Size: 72 -> hdr.packet_in.ingress_port = 0x0BE | hdr.packet_in._pad0 = Taint | hdr.packet_in.reason = 0x01 | hdr.packet_in.rx_timestamp = Taint
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
    [Emit]: {$headerValid:true;;    ingress_port:190;  _pad0:0;  reason:1;  rx_timestamp:0;  }
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
        # Table BalancerIngress.port_role
        self.insertTableEntry(
            'BalancerIngress.port_role',
            [
                gc.KeyTuple('port', 0x0BE),
            ],
            'BalancerIngress.set_filter_port',
            [
                gc.DataTuple('filter_group', 0x08),
                gc.DataTuple('side', 0x0),
            ]
        )

    def sendPacket(self):
        ig_port = 190
        pkt = b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x88\xB6\x00\x00\x00\x00\x00\x00\x76\x8B\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x6A\x3A\xB9\x09\xDE\x36\xF2\x5E\x4E\xCD\xAF\x09\xEB\xA8\x52\xBB\x49\xF5\x35\x5F\xBB\xBD\x07\xC4\x2E\xA5\xA2\xB9\x6C\x0A\xB3\x41\x28\xF6\x63\xC0\x31\x50\x31\xB5\xE7\x61\xB6\xA0\xE0\x1C\xDE\xE6\xEE\x57\x87\x84\xDB\xF9\x10\xAC\xCF\xA1\x7E\xE7\x81\x8D\x0C\xE3\x52\x69\x68\x36\xF9\x59\xD2\xBD\xB1\xD3\x8C\xDA\x87\x6A\x37\x44\xC9\xEA\x1B\x12\x32\x7F\x40\x3A\x6E\xC4\x7A\x1C\x4B\x63\x34\xBC\x3F\x80\xD2\x2B\x24\xA9\x86\x12\x5C\x5D\x02\xEC\xF5\x06\x8A\x81\xBA\xE0\xD8\x49\xA8\x95\x2A\xD6\x3E\x5C\xAD\xD4\x00\x44\xF6\xAA\x1B\x36\x82\xCA\xFF\xCC\x22\xBA\xFA\x5B\x12\xAB\x64\x03\x55\x1A\xB1\xBA\x7E\xE0\xBB\x61\x13\xF1\x96\x01\x6B\x5B\xF3\xBC\x9B\x74\x94\xED\x32\x2A\xEF\xD4\xFF\x0F\x3F\x64\xD8\xCF\xEB\x63\x0B\x37\x27\x92\xDA\x3C\x1A\x42\x7E\xA1\xCD\x8D\xBA\xF2\x9E\x52\xD3\x9A\x8F\xE2\x6C\xBB\x11\x81\x06\x2C\x3B\x84\x76\x57\xA5\x70\xFC\xA2\xCA\xB6\x12\x55\x46\xFB\xAF\xF1\xA8\xEE\xC0\xBE\xD0\x0B\xB1\x9D\xDD\xC3\x0D\xD8\x2B\x5B\x4B\xBA\x95\x52\xA7\xE2\x7B\x86\x29\x3F\x37\x6D\x0F\xCF\xF5\x4B\x03\x92\x10\xF5\xD7\x1E\xE0\x2B\x52\x5B\xDB\x7B\x24\x3D\xE3\xC3\xD4\x68\xDA\xB4\xDF\xEF\xC8\x9A\x10\xAF\xCA\xB3\xB9\x06\xE5\xCC\xDD\xBB\x34\x80\xC5\x69\x2B\xF8\x77\xF3\x96\xF0\xF2\x0B\x57\xFE\x6D\x15\xDA\xE3\x67\xDF\xD4\x11\x30\x5F\x92\x6E\x79\x42\x61\x3F\x47\x01\xE5\xBF\x23\x3C\x7D\x06\xF6\xBB\xF9\x38\x93\x55\xC6\x68\x01\xA4\x3D\x83\xE0\x28\x51\xD9\xD1\x56\xA8\xD2\xA8\x91\x44\x5D\xC8\x9D\x81\xF2\xB6\x0D\xD2\x15\x04\x2C\x38\xD0\x6B\x60\x13\x8B\x51\x39\xC6\xCC\x56\xDC\x56\xF4\x28\x73\x46\x46\x30\x37\xE5\x89\x1D\x5A\xF6\x77\xC4\x86\x89\xC6\xCC\x95\x3C\x5A\x8A\x78\x22\x6F\xCE\xAB\x28\xCF\x26\x1C\x8A\x6D\x73\xA6\xFE\x42\x3C\x56\x4C\x91\x30\x5B\x88\x50\xB7\x55\xF2\x57\x73\xFE\x1A\xFE\x46\xB3\x20\xE3\xB7\x96\x2B\x37\x9F\x00\x60\x80\x00\x8C\x53\x82\x70\x49\xBE\xF6\xEC\xD1\xDA\xDA\x2F\x16\xFC\xB3\x64\x81\x6E\x26\x08\x57\x69\x29\x8C\x66\xB9\x1E\x96\x8E\x49\x94\x7B\x27\x75\xFD\xA8\x79\xFA\xCB\x2B\xD2\xF8\x9C\xEF\x83\x96\x63\x0B\x65\x91\xA9\xBE\x6A\xF7\x81\x57\x31\x88\xCB\x07\xED\xED\x7B\xAA\x76\xE9\xA7\x7D\xFD\x0F\xA3\xF1\xB1\xFA\x77\xFA\xFD\xED\x33\xA5\x71\xB2\x5E\x12\x9A\x88\x77\xC0\xEB\xAE\x2A\xF6\x77\xFF\x59\x8E\x37\x27\x93\xCA\x76\x31\x38\x65\xFC\xCF\xC4\x7A\x4D\x3F\x1B\x60\xCA\xDA\x38\xCA\x30\x84\x39\xDB\xEC\x32\x90\xD5\xFB\xCC\x98\xC4\x4C\xEE\x7E\x89\xC6\x34\x20\x8D\x8E\x50\x2E\x85\xA9\xC2\x18\xB6\x40\x1F\x1D\xBE\xD8\x79\x6D\x99\x6C\xD3\x49\xB1\xC5\x5F\x10\xB6\x9D\xC6\x4C\x09\x65\x2E\x81\x57\xCE\xC4\xF8\x39\xD4\x58\x14\x63\xA5\x45\x2D\x4E\xDD\x43\xD8\xB8\x40\xFF\x68\x45\x53\x7C\x7E\x86\x4E\x3A\x8B\xD4\x3E\x21\xDA\x9E\x1F\xEA\x42\x2C\xEE\x26\xC9\x0B\xB9\x67\xB8\x41\xD0\x33\x2F\x37\x73\x6B'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        eg_port = 192
        exp_pkt = b'\x5F\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x88\xB6\x00\x00\x00\x00\x00\x00\x76\x8B\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x6A\x3A\xB9\x09\xDE\x36\xF2\x5E\x4E\xCD\xAF\x09\xEB\xA8\x52\xBB\x49\xF5\x35\x5F\xBB\xBD\x07\xC4\x2E\xA5\xA2\xB9\x6C\x0A\xB3\x41\x28\xF6\x63\xC0\x31\x50\x31\xB5\xE7\x61\xB6\xA0\xE0\x1C\xDE\xE6\xEE\x57\x87\x84\xDB\xF9\x10\xAC\xCF\xA1\x7E\xE7\x81\x8D\x0C\xE3\x52\x69\x68\x36\xF9\x59\xD2\xBD\xB1\xD3\x8C\xDA\x87\x6A\x37\x44\xC9\xEA\x1B\x12\x32\x7F\x40\x3A\x6E\xC4\x7A\x1C\x4B\x63\x34\xBC\x3F\x80\xD2\x2B\x24\xA9\x86\x12\x5C\x5D\x02\xEC\xF5\x06\x8A\x81\xBA\xE0\xD8\x49\xA8\x95\x2A\xD6\x3E\x5C\xAD\xD4\x00\x44\xF6\xAA\x1B\x36\x82\xCA\xFF\xCC\x22\xBA\xFA\x5B\x12\xAB\x64\x03\x55\x1A\xB1\xBA\x7E\xE0\xBB\x61\x13\xF1\x96\x01\x6B\x5B\xF3\xBC\x9B\x74\x94\xED\x32\x2A\xEF\xD4\xFF\x0F\x3F\x64\xD8\xCF\xEB\x63\x0B\x37\x27\x92\xDA\x3C\x1A\x42\x7E\xA1\xCD\x8D\xBA\xF2\x9E\x52\xD3\x9A\x8F\xE2\x6C\xBB\x11\x81\x06\x2C\x3B\x84\x76\x57\xA5\x70\xFC\xA2\xCA\xB6\x12\x55\x46\xFB\xAF\xF1\xA8\xEE\xC0\xBE\xD0\x0B\xB1\x9D\xDD\xC3\x0D\xD8\x2B\x5B\x4B\xBA\x95\x52\xA7\xE2\x7B\x86\x29\x3F\x37\x6D\x0F\xCF\xF5\x4B\x03\x92\x10\xF5\xD7\x1E\xE0\x2B\x52\x5B\xDB\x7B\x24\x3D\xE3\xC3\xD4\x68\xDA\xB4\xDF\xEF\xC8\x9A\x10\xAF\xCA\xB3\xB9\x06\xE5\xCC\xDD\xBB\x34\x80\xC5\x69\x2B\xF8\x77\xF3\x96\xF0\xF2\x0B\x57\xFE\x6D\x15\xDA\xE3\x67\xDF\xD4\x11\x30\x5F\x92\x6E\x79\x42\x61\x3F\x47\x01\xE5\xBF\x23\x3C\x7D\x06\xF6\xBB\xF9\x38\x93\x55\xC6\x68\x01\xA4\x3D\x83\xE0\x28\x51\xD9\xD1\x56\xA8\xD2\xA8\x91\x44\x5D\xC8\x9D\x81\xF2\xB6\x0D\xD2\x15\x04\x2C\x38\xD0\x6B\x60\x13\x8B\x51\x39\xC6\xCC\x56\xDC\x56\xF4\x28\x73\x46\x46\x30\x37\xE5\x89\x1D\x5A\xF6\x77\xC4\x86\x89\xC6\xCC\x95\x3C\x5A\x8A\x78\x22\x6F\xCE\xAB\x28\xCF\x26\x1C\x8A\x6D\x73\xA6\xFE\x42\x3C\x56\x4C\x91\x30\x5B\x88\x50\xB7\x55\xF2\x57\x73\xFE\x1A\xFE\x46\xB3\x20\xE3\xB7\x96\x2B\x37\x9F\x00\x60\x80\x00\x8C\x53\x82\x70\x49\xBE\xF6\xEC\xD1\xDA\xDA\x2F\x16\xFC\xB3\x64\x81\x6E\x26\x08\x57\x69\x29\x8C\x66\xB9\x1E\x96\x8E\x49\x94\x7B\x27\x75\xFD\xA8\x79\xFA\xCB\x2B\xD2\xF8\x9C\xEF\x83\x96\x63\x0B\x65\x91\xA9\xBE\x6A\xF7\x81\x57\x31\x88\xCB\x07\xED\xED\x7B\xAA\x76\xE9\xA7\x7D\xFD\x0F\xA3\xF1\xB1\xFA\x77\xFA\xFD\xED\x33\xA5\x71\xB2\x5E\x12\x9A\x88\x77\xC0\xEB\xAE\x2A\xF6\x77\xFF\x59\x8E\x37\x27\x93\xCA\x76\x31\x38\x65\xFC\xCF\xC4\x7A\x4D\x3F\x1B\x60\xCA\xDA\x38\xCA\x30\x84\x39\xDB\xEC\x32\x90\xD5\xFB\xCC\x98\xC4\x4C\xEE\x7E\x89\xC6\x34\x20\x8D\x8E\x50\x2E\x85\xA9\xC2\x18\xB6\x40\x1F\x1D\xBE\xD8\x79\x6D\x99\x6C\xD3\x49\xB1\xC5\x5F\x10\xB6\x9D\xC6\x4C\x09\x65\x2E\x81\x57\xCE\xC4\xF8\x39\xD4\x58\x14\x63\xA5\x45\x2D\x4E\xDD\x43\xD8\xB8\x40\xFF\x68\x45\x53\x7C\x7E\x86\x4E\x3A\x8B\xD4\x3E\x21\xDA\x9E\x1F\xEA\x42\x2C\xEE\x26\xC9\x0B\xB9\x67\xB8\x41\xD0\x33\x2F\x37\x73\x6B'
        exp_pkt = Mask(exp_pkt)
        exp_pkt.set_do_not_care(9, 7)
        exp_pkt.set_do_not_care(24, 48)
        verify_packet(self, exp_pkt, eg_port)

    def runTest(self):
        self.runTestImpl()


class Test2(AbstractTest):
    # Date generated: 2026-12-07-21:01:55.667
    # Current statement coverage: 0.3
    '''
    [P4Testgen MethodCall]: *.StartIngress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(0);
    [PrependToProgramHeader]: 0
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*ig_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    resubmit_flag:0;  _pad1:0;  packet_version:0;  _pad2:0;  ingress_port:138;  ingress_mac_tstamp:0;  }
    [P4Testgen MethodCall]: *.copy_in("IngressParser");
    [Parser] IngressParser
    [State] start
    [MethodCall]: pkt.extract<ingress_intrinsic_metadata_t>(ig_intr_md);
    [ExtractSuccess] ig_intr_md@0 | Condition: |*packetLen_bits(bit<32>)| >= 64; | Extract Size: 64 -> ig_intr_md.resubmit_flag = 0x0 | ig_intr_md._pad1 = 0x0 | ig_intr_md.packet_version = 0x0 | ig_intr_md._pad2 = 0x0 | ig_intr_md.ingress_port = 0x08A | ig_intr_md.ingress_mac_tstamp = Taint
    [AssignmentStatement]: md.eth_type = 0;| Computed: md.eth_type = 0;
    [AssignmentStatement]: md.copy_pipe = ig_intr_md.ingress_port[8:7];| Computed: md.copy_pipe = 1;
    [AssignmentStatement]: md.proof_copy = false;| Computed: md.proof_copy = false;
    [State] parse_port_metadata
    [MethodCall]: pkt.advance(64);
    [Advance Condition: |*packetLen_bits(bit<32>)| >= 64;]
    [State] parse_port
    [State] parse_ethernet
    [MethodCall]: pkt.extract<ethernet_t>(hdr.ethernet);
    [ExtractSuccess] hdr.ethernet@0 | Condition: |*packetLen_bits(bit<32>)| >= 96; | Extract Size: 96 -> hdr.ethernet.dst_addr = 0x0000_0000_0000 | hdr.ethernet.src_addr = 0x0000_0000_0000
    [Lookahead result]: 34998
    [Lookahead Condition: |*packetLen_bits(bit<32>)| >= 112;]
    [P4Testgen AssignmentStatement]: tmp_0 = 34998;
    [State] parse_keepalive
    [MethodCall]: pkt.extract<eth_type_t>(hdr.eth_type);
    [ExtractSuccess] hdr.eth_type@96 | Condition: |*packetLen_bits(bit<32>)| >= 112; | Extract Size: 16 -> hdr.eth_type.value = 0x88B6
    [AssignmentStatement]: md.eth_type = hdr.eth_type.value;| Computed: md.eth_type = 34998;
    [MethodCall]: pkt.extract<keepalive_t>(hdr.keepalive);
    [ExtractSuccess] hdr.keepalive@112 | Condition: |*packetLen_bits(bit<32>)| >= 272; | Extract Size: 160 -> hdr.keepalive.magic = 0x0000_0000 | hdr.keepalive.version = 0x00 | hdr.keepalive.direction = 0x01 | hdr.keepalive.filter_group = 0x002F | hdr.keepalive.seq = 0x0000_0000 | hdr.keepalive.tx_timestamp = 0x0000_0000_0000_0000
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("IngressParser");
    [P4Testgen MethodCall]: *.copy_in("BalancerIngress");
    [Control BalancerIngress start]
    [AssignmentStatement]: md.ingress_port = ig_intr_md.ingress_port;| Computed: md.ingress_port = 138;
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
    [Table Branch: BalancerIngress.port_role | Key(s): |tofino_ingress_port(bit<9>)|| Chosen action: BalancerIngress.set_filter_port]
    [MethodCall]: _BalancerIngress_set_filter_port_0/set_filter_port(|BalancerIngress.port_role_BalancerIngress.set_filter_port_arg_filter_group_2(bit<6>)|, |BalancerIngress.port_role_BalancerIngress.set_filter_port_arg_side_3(bit<1>)|);
    [AssignmentStatement]: md.port_type = PORT_TYPE_FILTER;| Computed: md.port_type = 2;
    [AssignmentStatement]: md.filter_group = filter_group;| Computed: md.filter_group = 47;
    [AssignmentStatement]: md.side = side;| Computed: md.side = 0;
    [AssignmentStatement]: md.vlan_depth = 0;| Computed: md.vlan_depth = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
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
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [AssignmentStatement]: md.is_ipv4 = 0;| Computed: md.is_ipv4 = 0;
    [AssignmentStatement]: md.ipv4_src = 0;| Computed: md.ipv4_src = 0;
    [AssignmentStatement]: md.ipv4_dst = 0;| Computed: md.ipv4_dst = 0;
    [AssignmentStatement]: md.ip_proto = 0;| Computed: md.ip_proto = 0;
    [AssignmentStatement]: md.addr_x = 0;| Computed: md.addr_x = 0;
    [AssignmentStatement]: md.addr_y = 0;| Computed: md.addr_y = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [AssignmentStatement]: md.l4_src = 0;| Computed: md.l4_src = 0;
    [AssignmentStatement]: md.l4_dst = 0;| Computed: md.l4_dst = 0;
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [P4Testgen If Statement]: Condition: false; Result: false
    [If Statement]: (ig_prsr_md.parser_err != 0) || (hdr.ipv4.isValid() && hdr.ipv4.ihl < 5) Condition: 0 != 0 || false && TaintedExpression(bit<4>) < 5; Result: false
    [AssignmentStatement]: md.count_rx = true;| Computed: md.count_rx = true;
    [If Statement]: md.port_type == PORT_TYPE_OPERATOR Condition: 2 == 1; Result: false
    [If Statement]: md.port_type == PORT_TYPE_FILTER Condition: 2 == 2; Result: true
    [AssignmentStatement]: md.count_fg = true;| Computed: md.count_fg = true;
    [AssignmentStatement]: md.fg_index = md.filter_group;| Computed: md.fg_index = 47;
    [AssignmentStatement]: md.ev_index = md.filter_group ++ (~md.side);| Computed: md.ev_index = 95;
    [P4Testgen If Statement]: Condition: true; Result: true
    [If Statement]: hdr.keepalive.filter_group == group Condition: |pktvar_6(bit<16>)| == (bit<16>)|BalancerIngress.port_role_BalancerIngress.set_filter_port_arg_filter_group_2(bit<6>)|; Result: true
    [If Statement]: hdr.keepalive.direction == other Condition: |pktvar_5(bit<8>)| == (bit<8>)~|BalancerIngress.port_role_BalancerIngress.set_filter_port_arg_side_3(bit<1>)|; Result: true
    [AssignmentStatement]: md.ev_return = true;| Computed: md.ev_return = true;
    [MethodCall]: hdr.packet_in.setValid();
    [AssignmentStatement]: hdr.packet_in.ingress_port = md.ingress_port;| Computed: hdr.packet_in.ingress_port = 138;
    [AssignmentStatement]: hdr.packet_in.reason = PACKET_IN_REASON_KEEPALIVE;| Computed: hdr.packet_in.reason = 1;
    [AssignmentStatement]: md.to_cpu = true;| Computed: md.to_cpu = true;
    [AssignmentStatement]: md.fg_kind = FG_CNT_KEEPALIVE;| Computed: md.fg_kind = 2;
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: verdict_ctl_verdict_cell/verdict_cell.apply();
    [Table Branch: BalancerIngress.verdict_ctl.verdict_cell Choosing default action: verdict_ctl_verdict_none_0/verdict_none;]
    [MethodCall]: verdict_ctl_verdict_none_0/verdict_none();
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [MethodCall]: testgen_assume(md.port_type == 2 && hdr.keepalive.isValid());
    [Assume: applying condition: 2 == 2 && true;]
    [AssignmentStatement]: md.copy_slot = md.now[31:4];| Computed: md.copy_slot = "Taint";
    [MethodCall]: evidence_copy_ctl_ev_copy_session/ev_copy_session.apply();
    [Constant Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_session | Key(s): |tofino_ingress_port(bit<9>)|[8:7]; | Chosen action: copy_session_of(10w961) | Arg(s): 961]
    [MethodCall]: evidence_copy_ctl_copy_session_of_0/copy_session_of(961);
    [AssignmentStatement]: md.copy_session = session;| Computed: md.copy_session = 961;
    [MethodCall]: evidence_copy_ctl_ev_copy_step/ev_copy_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_copy_ctl.ev_copy_step | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: copy_keepalive_return()]
    [MethodCall]: evidence_copy_ctl_copy_keepalive_return_0/copy_keepalive_return();
    [MethodCall]: md.copy.setValid();
    [AssignmentStatement]: md.copy.magic = 0xE5;| Computed: md.copy.magic = 229;
    [AssignmentStatement]: md.copy.ev_index = md.ev_index;| Computed: md.copy.ev_index = 95;
    [AssignmentStatement]: ig_dprsr_md.mirror_type = 1;| Computed: ig_dprsr_md.mirror_type = 1;
    [MethodCall]: evidence_ctl_ev_time_step/ev_time_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_time_step | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false; | Chosen action: ev_time_of_return()]
    [MethodCall]: evidence_ctl_ev_time_of_return_0/ev_time_of_return();
    [MethodCall]: evidence_ctl_ev_time_return/ev_time_return.execute(md.ev_index);
    [AssignmentStatement]: v.first = 0;| Computed: v.first = 0;
    [MethodCall]: evidence_ctl_ev_ka_step/ev_ka_step.apply();
    [Constant Table Branch: BalancerIngress.evidence_ctl.ev_ka_step | Key(s): (bit<1>)true;, (bit<1>)false;, (bit<1>)false;, (bit<1>)false; | Chosen action: ev_ka_of_return()]
    [MethodCall]: evidence_ctl_ev_ka_of_return_0/ev_ka_of_return();
    [MethodCall]: evidence_ctl_ev_ka_return/ev_ka_return.execute(md.ev_index);
    [AssignmentStatement]: v = 0;| Computed: v = 0;
    [MethodCall]: evidence_ctl_ev_seen_step/ev_seen_step.apply();
    [Table Branch: BalancerIngress.evidence_ctl.ev_seen_step Choosing default action: evidence_ctl_ev_none_2/ev_none;]
    [MethodCall]: evidence_ctl_ev_none_2/ev_none();
    [MethodCall]: evidence_ctl_ev_count_step/ev_count_step.apply();
    [Table Branch: BalancerIngress.evidence_ctl.ev_count_step Choosing default action: evidence_ctl_ev_none_3/ev_none;]
    [MethodCall]: evidence_ctl_ev_none_3/ev_none();
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_port_rx/port_rx.count((bit<32>)ig_intr_md.ingress_port);
    [If Statement]: false Condition: false; Result: false
    [If Statement]: true Condition: true; Result: true
    [MethodCall]: _BalancerIngress_filter_group_counters/filter_group_counters.count((bit<32>)(md.fg_index ++ md.fg_kind));
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.packet_in.rx_timestamp = "Taint";
    [MethodCall]: hdr.bridged.setValid();
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.to_cpu = 1;
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: hdr.bridged.ka_stamp = 0;
    [If Statement]: false Condition: false; Result: false
    [If Statement]: false Condition: false; Result: false
    [If Statement]: true Condition: true; Result: true
    [AssignmentStatement]: if (md.to_cpu) { hdr.packet_in.rx_timestamp = md.ingress_ts; } hdr.bridged.setValid(); hdr.bridged.to_cpu = (bit<1>)md.to_cpu; hdr.bridged.ka_stamp = (bit<1>)md.ka_stamp; if (md.send_digest) { ig_dprsr_md.digest_type = 1; } if (md.drop) { ig_dprsr_md.drop_ctl = 1; } else if (md.to_cpu) { ig_tm_md.ucast_egress_port = md.cpu_port; } else { ig_tm_md.ucast_egress_port = md.out_port; }| Computed: ig_tm_md.ucast_egress_port = 192;
    [P4Testgen MethodCall]: *.copy_out("BalancerIngress");
    [P4Testgen MethodCall]: *.copy_in("IngressDeparser");
    [Control IngressDeparser start]
    [If Statement]: ig_dprsr_md.digest_type == 1 Condition: 0 == 1; Result: false
    [MethodCall]: pkt.emit<bridged_md_t>(hdr.bridged);
    [Emit]: {$headerValid:true;;    _pad0:0;  to_cpu:1;  ka_stamp:0;  }
    [MethodCall]: pkt.emit<packet_in_t>(hdr.packet_in);
    [Emit]: {$headerValid:true;;    ingress_port:138;  _pad0:0;  reason:1;  rx_timestamp:0;  }
    [MethodCall]: pkt.emit<ethernet_t>(hdr.ethernet);
    [Emit]: {$headerValid:true;;    dst_addr:0;  src_addr:0;  }
    [MethodCall]: pkt.emit<core_t>(hdr.core);
    [Invalid emit: { tpid = TaintedExpression(bit<16>), link_id = TaintedExpression(bit<6>), core_id = TaintedExpression(bit<10>) }]
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[0]);
    [Invalid emit: { tpid = TaintedExpression(bit<16>), pcp = TaintedExpression(bit<3>), dei = TaintedExpression(bit<1>), vid = TaintedExpression(bit<12>) }]
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[1]);
    [Invalid emit: { tpid = TaintedExpression(bit<16>), pcp = TaintedExpression(bit<3>), dei = TaintedExpression(bit<1>), vid = TaintedExpression(bit<12>) }]
    [MethodCall]: pkt.emit<vlan_t>(hdr.vlan[2]);
    [Invalid emit: { tpid = TaintedExpression(bit<16>), pcp = TaintedExpression(bit<3>), dei = TaintedExpression(bit<1>), vid = TaintedExpression(bit<12>) }]
    [MethodCall]: pkt.emit<eth_type_t>(hdr.eth_type);
    [Emit]: {$headerValid:true;;    value:34998;  }
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
    [Invalid emit: { version = TaintedExpression(bit<4>), traffic_class = TaintedExpression(bit<8>), flow_label = TaintedExpression(bit<20>), payload_len = TaintedExpression(bit<16>), next_hdr = TaintedExpression(bit<8>), hop_limit = TaintedExpression(bit<8>), src_addr = TaintedExpression(bit<128>), dst_addr = TaintedExpression(bit<128>) }]
    [MethodCall]: pkt.emit<tcp_t>(hdr.tcp);
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), seq_no = TaintedExpression(bit<32>), ack_no = TaintedExpression(bit<32>), data_offset = TaintedExpression(bit<4>), res = TaintedExpression(bit<4>), flags = TaintedExpression(bit<8>), window = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>), urgent_ptr = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<udp_t>(hdr.udp);
    [Invalid emit: { src_port = TaintedExpression(bit<16>), dst_port = TaintedExpression(bit<16>), length = TaintedExpression(bit<16>), checksum = TaintedExpression(bit<16>) }]
    [MethodCall]: pkt.emit<keepalive_t>(hdr.keepalive);
    [Emit]: {$headerValid:true;;    magic:0;  version:0;  direction:1;  filter_group:47;  seq:0;  tx_timestamp:0;  }
    [P4Testgen MethodCall]: *.copy_out("IngressDeparser");
    [P4Testgen AssignmentStatement]: *eg_intr_md.egress_port = 192;
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    [P4Testgen If Statement]: Condition: true && (false || 0 <= 192 && 192 <= 192) && 1 == 0; Result: false
    [P4Testgen MethodCall]: *.StartEgress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*eg_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    _pad0:0;  egress_port:192;  }
    [P4Testgen MethodCall]: *.copy_in("EgressParser");
    [Parser] EgressParser
    [State] start
    [MethodCall]: pkt.extract<egress_intrinsic_metadata_t>(eg_intr_md);
    [ExtractSuccess] eg_intr_md@272 | Condition: |*packetLen_bits(bit<32>)| >= 288; | Extract Size: 16 -> eg_intr_md._pad0 = 0x00 | eg_intr_md.egress_port = 0x0C0
    [State] parse_bridged
    [MethodCall]: pkt.extract<bridged_md_t>(hdr.bridged);
    [ExtractSuccess] hdr.bridged@272 | Condition: |*packetLen_bits(bit<32>)| >= 280; | Extract Size: 8 -> hdr.bridged._pad0 = Taint | hdr.bridged.to_cpu = 0x1 | hdr.bridged.ka_stamp = 0x0
    [State] parse_packet_in
    [MethodCall]: pkt.extract<packet_in_t>(hdr.packet_in);
    [ExtractSuccess] hdr.packet_in@272 | Condition: |*packetLen_bits(bit<32>)| >= 344; | Extract Size: 72 -> hdr.packet_in.ingress_port = 0x08A | hdr.packet_in._pad0 = Taint | hdr.packet_in.reason = 0x01 | hdr.packet_in.rx_timestamp = Taint
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
    [Emit]: {$headerValid:true;;    ingress_port:138;  _pad0:0;  reason:1;  rx_timestamp:0;  }
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
        self.setRegisterValue('BalancerIngress.ev_time', [('BalancerIngress.ev_time.first', 0x00000000), ('BalancerIngress.ev_time.second', 0x00000000)], 95)
        self.setRegisterValue('BalancerIngress.ev_ka', 0x00000000, 95)
        # Table BalancerIngress.port_role
        self.insertTableEntry(
            'BalancerIngress.port_role',
            [
                gc.KeyTuple('port', 0x08A),
            ],
            'BalancerIngress.set_filter_port',
            [
                gc.DataTuple('filter_group', 0x2F),
                gc.DataTuple('side', 0x0),
            ]
        )

    def sendPacket(self):
        ig_port = 138
        pkt = b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x88\xB6\x00\x00\x00\x00\x00\x01\x00\x2F\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xFF\x9D\xE8\x06\x21\x3D\x52\xFB\x69\x82\xB5\xED\xE9\xD3\xE0\x2F\x67\xF8\x19\x60\xF3\x58\x48\x93\x7E\xDA\x02\x0D\x11\xD6\x10\xEF\x23\x96\x03\x3E\x55\x26\x2A\x91\xE9\xFD\x7A\xCE\xD6\xE8\x0C\xE9\xA5\x35\xBF\x4A\x15\x47\xE1\x6F\x64\x32\x31\x4E\x35\xCB\xA8\x86\x2D\x78\xD0\x19\xC0\x09\x2F\x95\xE6\xF6\x40\x5F\xE9\xBA\x6C\x51\x39\x7B\x61\xA5\x5E\xFA\xEA\x10\xD2\x6A\x35\x09\x7E\x95\xFD\x27\xA9\xDA\xB5\x5C\x2A\xAF\x5A\xF3\x87\xFC\xD2\xF4\x45\xAE\x84\xEC\xBE\xEB\xF7\xD2\xA3\x1F\xA0\x00\xDA\x97\x72\x6A\x87\x59\x54\xE1\x18\xF3\x2B\xB0\xC6\x65\x5A\xA7\x53\x1B\x34\x75\x22\xB0\x99\xDA\xE7\xD5\x30\xA7\xD5\x6C\x24\x73\xEB\xDB\x2B\x9A\x40\x60\x2A\xF0\xBD\xE4\xD8\x87\x07\x85\x8A\x5F\x09\x43\x6E\xF0\xAE\x7A\x1B\x6F\x62\x37\x9D\x28\x15\xF5\x2B\x27\xEB\xFA\xDD\xCD\x51\xC5\xCB\xA0\x33\xAE\xC3\x0F\xBE\x69\xA7\xB2\xBD\x31\x67\x86\x55\xC0\x37\xF9\x4F\x63\x6F\x3E\x16\x85\x26\x6F\x21\xCA\x49\xCF\x57\xD0\x1A\x5F\x6D\xF2\xA8\xE1\x15\x84\xD6\x0F\xA7\xC5\xE9\x1F\x3D\xE0\x87\xA9\xA2\x75\xFE\x31\x34\x28\xD2\x56\x74\xCB\x0C\x5A\xB9\x95\x61\x79\xDA\x65\xFB\x66\x6F\xDF\x61\x8B\xFB\xFF\x54\x2E\x00\x58\x37\x35\x3D\xD9\xCF\xDB\xAD\x93\xE8\x90\x69\x5E\x95\x1D\x3A\x27\x46\xAD\xE8\x4F\x58\x85\xD3\x78\xD8\x5E\x4F\xAC\x9F\x60\xB2\x74\x28\xBE\x8E\x6F\x74\x27\x22\x51\x8C\x8B\xE0\x25\xDA\xEF\xAC\x10\x35\x0B\x75\xD8\xF5\x9D\xC8\xAC\x31\x88\x1B\x6B\x7D\xDD\x95\x3A\x5C\x8E\x95\x80\xB2\xFC\x84\x1C\xB0\xF6\x1D\xAA\xE4\x29\xD6\x11\xFB\x8B\x16\xEE\x3A\x2A\x18\x3F\x98\xA4\xB1\x2C\x8C\x34\x5C\xE1\x2C\xF0\xF1\x56\x10\xF9\x00\xEC\xCB\x39\x58\x26\x7F\x9C\x7F\x66\x33\xBD\x9E\xA3\xE9\x76\x2B\xEC\xBD\x90\x3C\xB0\x4E\xFF\xE3\xCE\x06\xF6\xA4\x33\xE3\x5B\x44\x3A\x15\x19\x3A\x92\xD6\xD0\x8E\x40\xE4\xDC\x84\xC3\x32\xAA\xDC\x75\x75\xBD\x26\xA3\xDC\xA4\x01\x7C\x32\x07\x1A\x40\x1D\x57\x76\x26\x79\x93\xA3\x3E\x90\x46\x46\x82\x31\xF5\x61\x2D\x88\xFA\xEB\xFF\xF2\x7B\xEA\xEF\x48\x33\x9E\xE0\xE1\xE9\x7A\x10\x05\x4D\xCA\xB4\xCB\x9A\x0D\x2F\xF9\x0C\xFC\xF1\xBC\xD6\x14\x6D\x73'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        eg_port = 192
        exp_pkt = b'\x45\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x88\xB6\x00\x00\x00\x00\x00\x01\x00\x2F\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xFF\x9D\xE8\x06\x21\x3D\x52\xFB\x69\x82\xB5\xED\xE9\xD3\xE0\x2F\x67\xF8\x19\x60\xF3\x58\x48\x93\x7E\xDA\x02\x0D\x11\xD6\x10\xEF\x23\x96\x03\x3E\x55\x26\x2A\x91\xE9\xFD\x7A\xCE\xD6\xE8\x0C\xE9\xA5\x35\xBF\x4A\x15\x47\xE1\x6F\x64\x32\x31\x4E\x35\xCB\xA8\x86\x2D\x78\xD0\x19\xC0\x09\x2F\x95\xE6\xF6\x40\x5F\xE9\xBA\x6C\x51\x39\x7B\x61\xA5\x5E\xFA\xEA\x10\xD2\x6A\x35\x09\x7E\x95\xFD\x27\xA9\xDA\xB5\x5C\x2A\xAF\x5A\xF3\x87\xFC\xD2\xF4\x45\xAE\x84\xEC\xBE\xEB\xF7\xD2\xA3\x1F\xA0\x00\xDA\x97\x72\x6A\x87\x59\x54\xE1\x18\xF3\x2B\xB0\xC6\x65\x5A\xA7\x53\x1B\x34\x75\x22\xB0\x99\xDA\xE7\xD5\x30\xA7\xD5\x6C\x24\x73\xEB\xDB\x2B\x9A\x40\x60\x2A\xF0\xBD\xE4\xD8\x87\x07\x85\x8A\x5F\x09\x43\x6E\xF0\xAE\x7A\x1B\x6F\x62\x37\x9D\x28\x15\xF5\x2B\x27\xEB\xFA\xDD\xCD\x51\xC5\xCB\xA0\x33\xAE\xC3\x0F\xBE\x69\xA7\xB2\xBD\x31\x67\x86\x55\xC0\x37\xF9\x4F\x63\x6F\x3E\x16\x85\x26\x6F\x21\xCA\x49\xCF\x57\xD0\x1A\x5F\x6D\xF2\xA8\xE1\x15\x84\xD6\x0F\xA7\xC5\xE9\x1F\x3D\xE0\x87\xA9\xA2\x75\xFE\x31\x34\x28\xD2\x56\x74\xCB\x0C\x5A\xB9\x95\x61\x79\xDA\x65\xFB\x66\x6F\xDF\x61\x8B\xFB\xFF\x54\x2E\x00\x58\x37\x35\x3D\xD9\xCF\xDB\xAD\x93\xE8\x90\x69\x5E\x95\x1D\x3A\x27\x46\xAD\xE8\x4F\x58\x85\xD3\x78\xD8\x5E\x4F\xAC\x9F\x60\xB2\x74\x28\xBE\x8E\x6F\x74\x27\x22\x51\x8C\x8B\xE0\x25\xDA\xEF\xAC\x10\x35\x0B\x75\xD8\xF5\x9D\xC8\xAC\x31\x88\x1B\x6B\x7D\xDD\x95\x3A\x5C\x8E\x95\x80\xB2\xFC\x84\x1C\xB0\xF6\x1D\xAA\xE4\x29\xD6\x11\xFB\x8B\x16\xEE\x3A\x2A\x18\x3F\x98\xA4\xB1\x2C\x8C\x34\x5C\xE1\x2C\xF0\xF1\x56\x10\xF9\x00\xEC\xCB\x39\x58\x26\x7F\x9C\x7F\x66\x33\xBD\x9E\xA3\xE9\x76\x2B\xEC\xBD\x90\x3C\xB0\x4E\xFF\xE3\xCE\x06\xF6\xA4\x33\xE3\x5B\x44\x3A\x15\x19\x3A\x92\xD6\xD0\x8E\x40\xE4\xDC\x84\xC3\x32\xAA\xDC\x75\x75\xBD\x26\xA3\xDC\xA4\x01\x7C\x32\x07\x1A\x40\x1D\x57\x76\x26\x79\x93\xA3\x3E\x90\x46\x46\x82\x31\xF5\x61\x2D\x88\xFA\xEB\xFF\xF2\x7B\xEA\xEF\x48\x33\x9E\xE0\xE1\xE9\x7A\x10\x05\x4D\xCA\xB4\xCB\x9A\x0D\x2F\xF9\x0C\xFC\xF1\xBC\xD6\x14\x6D\x73'
        exp_pkt = Mask(exp_pkt)
        exp_pkt.set_do_not_care(9, 7)
        exp_pkt.set_do_not_care(24, 48)
        verify_packet(self, exp_pkt, eg_port)

    def runTest(self):
        self.runTestImpl()

