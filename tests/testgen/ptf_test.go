package testgen

import (
	"strings"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sim/dataplane"
)

// Two cases as P4Testgen's PTF back end writes them (trimmed of the
// preamble's helper methods): the first with register cells, a ternary
// key and an expected packet with don't-care bits, the second a drop.
const ptfSample = `# PTF test for x/forward
class AbstractTest(BfRuntimeTest):
    def setUp(self):
        BfRuntimeTest.setUp(self, 0, 'x/forward')

class Test1(AbstractTest):
    # Date generated: 2026-12-07-19:55:36.819
    # Current statement coverage: 0.53
    '''
    [Control BalancerIngress start]
    '''

    def setupCtrlPlane(self):
        self.setRegisterValue('BalancerIngress.verdict', 0xF212, 46)
        self.setRegisterValue('BalancerIngress.ev_time', [('BalancerIngress.ev_time.first', 0x00000001), ('BalancerIngress.ev_time.second', 0x00000002)], 92)
        # Table BalancerIngress.port_role
        self.insertTableEntry(
            'BalancerIngress.port_role',
            [
                gc.KeyTuple('port', 0x037),
            ],
            'BalancerIngress.set_operator_port',
            [
                gc.DataTuple('link_id', 0x3A),
                gc.DataTuple('side', 0x0),
                gc.DataTuple('peer_port', 0x02D),
            ]
        )
        self.insertTableEntry(
            'BalancerIngress.flow_rules',
            [
                gc.KeyTuple('link_id', 0x3A, 0x2F),
            ],
            'BalancerIngress.balance',
            [
                gc.DataTuple('group', 0x1),
            ]
        )
        # Table BalancerIngress.balance_groups
        self.overrideDefaultEntry(
            'BalancerIngress.balance_groups',
            'BalancerIngress.group_drop',
            [
            ]
        )

    def sendPacket(self):
        ig_port = 55
        pkt = b'\xC0\x25\x6A\xA7'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        eg_port = 45
        exp_pkt = b'\xC0\x25\x6A\xA7'
        exp_pkt = Mask(exp_pkt)
        exp_pkt.set_do_not_care(4, 8)
        exp_pkt.set_do_not_care(24, 8)
        verify_packet(self, exp_pkt, eg_port)

    def runTest(self):
        self.runTestImpl()


class Test2(AbstractTest):
    # Current statement coverage: 0.60
    '''
    [Packet marked dropped.]
    '''

    def setupCtrlPlane(self):
        pass

    def sendPacket(self):
        ig_port = 3
        pkt = b'\x01\x02'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        pass

    def runTest(self):
        self.runTestImpl()
`

func TestParsePTF(t *testing.T) {
	cs, err := ParsePTF("forward.py", strings.NewReader(ptfSample))
	require.NoError(t, err)
	require.Len(t, cs, 2)
	c := cs[0]
	assert.Equal(t, "forward.py/Test1", c.Name)
	assert.Equal(t, "0.53", c.Coverage)
	assert.Equal(t, []string{"[Control BalancerIngress start]"}, c.Traces)
	assert.Equal(t, []RegisterCell{
		{Register: "BalancerIngress.verdict", Index: 46, Fields: []Arg{{Value: "0xF212"}}},
		{Register: "BalancerIngress.ev_time", Index: 92, Fields: []Arg{{Param: "first", Value: "0x00000001"}, {Param: "second", Value: "0x00000002"}}},
	}, c.Registers)
	assert.Equal(t, []Entry{
		{Table: "BalancerIngress.port_role", Matches: []Match{{Field: "port", Value: "0x037"}}, Action: "BalancerIngress.set_operator_port",
			Args: []Arg{{"link_id", "0x3A"}, {"side", "0x0"}, {"peer_port", "0x02D"}}},
		{Table: "BalancerIngress.flow_rules", Matches: []Match{{Field: "link_id", Value: "0x3A", Mask: "0x2F"}}, Action: "BalancerIngress.balance",
			Args: []Arg{{"group", "0x1"}}},
		{Default: true, Table: "BalancerIngress.balance_groups", Action: "BalancerIngress.group_drop"},
	}, c.Entries)
	assert.Equal(t, uint32(55), c.InPort)
	assert.Equal(t, []byte{0xc0, 0x25, 0x6a, 0xa7}, c.Packet)
	require.NotNil(t, c.Expect)
	assert.Equal(t, uint32(45), c.Expect.Port)
	// Bits 4-11 and 24-31 (MSB first) are don't care.
	assert.Equal(t, []byte{0xf0, 0x0f, 0xff, 0x00}, c.Expect.Mask)

	assert.Nil(t, cs[1].Expect, "no packet expected: dropped")
	assert.Equal(t, uint32(3), cs[1].InPort)

	// The entries and cells as P4Runtime writes on the program.
	s := modelSchema(t, p4src.ArchTNA, "verdict")
	us, err := c.Updates(s)
	require.NoError(t, err)
	require.Len(t, us, 5)
	tern := us[1].GetEntity().GetTableEntry().GetMatch()[0].GetTernary()
	assert.Equal(t, []byte{0x2a}, tern.GetValue(), "the value under its mask")
	assert.Equal(t, []byte{0x2f}, tern.GetMask())
	assert.Equal(t, int32(1), us[1].GetEntity().GetTableEntry().GetPriority())
	cell := us[4].GetEntity().GetRegisterEntry()
	assert.Equal(t, int64(92), cell.GetIndex().GetIndex())
	assert.Equal(t, []byte{1, 0, 0, 0, 2}, cell.GetData().GetBitstring(), "ev_time: first ++ second")
	assert.Equal(t, p4v1.Update_MODIFY, us[4].GetType())

	// Written to the software switch, a cell is what the case starts from.
	d, err := dataplane.New(s, dataplane.WithCPUPort(p4src.CPUPortTofino))
	require.NoError(t, err)
	for i, err := range d.Write(us[3:], p4v1.WriteRequest_CONTINUE_ON_ERROR) {
		require.NoError(t, err, "update %d", i)
	}
	epoch, set := d.Verdict(46)
	assert.True(t, set)
	assert.Equal(t, uint8(0x12), epoch)
}

func TestParsePTFRefuses(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"no case", "# nothing\n", "no test case"},
		{"no packet", "class Test1(AbstractTest):\n    def setupCtrlPlane(self):\n        pass\n", "no packet sent"},
		{"unknown line", "class Test1(AbstractTest):\n    def sendPacket(self):\n        ig_port = 3\n        something_else()\n", `unexpected "something_else()"`},
		{"entry not closed", "class Test1(AbstractTest):\n    def setupCtrlPlane(self):\n        self.insertTableEntry(\n            'T',\n    def sendPacket(self):\n        pkt = b'\\x01'\n", "table entry not closed"},
		{"mask past the packet", "class Test1(AbstractTest):\n    def sendPacket(self):\n        ig_port = 3\n        pkt = b'\\x01'\n    def verifyPackets(self):\n        eg_port = 4\n        exp_pkt = b'\\x01'\n        exp_pkt.set_do_not_care(4, 8)\n", "beyond the 1-byte packet"},
	} {
		_, err := ParsePTF("f.py", strings.NewReader(c.text))
		require.Error(t, err, c.name)
		assert.Contains(t, err.Error(), c.want, c.name)
	}
}
