package testgen

import (
	"encoding/hex"
	"net"
	"net/netip"
	"strings"
	"testing"

	"github.com/gopacket/gopacket/layers"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sim/dataplane"
	"github.com/dpi-balancer/balancer/sim/frames"
)

func tcpFrame() []byte {
	return frames.Frame(net.HardwareAddr{0, 0x11, 0x22, 0x33, 0x44, 0x55}, net.HardwareAddr{0, 0x66, 0x77, 0x88, 0x99, 0xaa}, frames.Encap{},
		frames.L3{Src: netip.MustParseAddr("10.0.0.1"), Dst: netip.MustParseAddr("198.51.100.7"), Proto: layers.IPProtocolTCP, SrcPort: 40000, DstPort: 443})
}

func hexFrame() string { return hex.EncodeToString(tcpFrame()) }

func newDP(t *testing.T) *dataplane.Dataplane {
	t.Helper()
	s, err := p4src.Load()
	require.NoError(t, err)
	d, err := dataplane.New(s)
	require.NoError(t, err)
	return d
}

// Cases in the shape P4Testgen's STF templates write them (Tofino's
// unquoted names, BMv2's quoted ones), replayed on the software switch.
func TestReplaySTF(t *testing.T) {
	pkt := strings.ToUpper(hex.EncodeToString(tcpFrame()))
	// Don't care about the IPv4 checksum's nibbles (bytes 24-25).
	masked := pkt[:48] + "****" + pkt[52:]
	for _, tc := range []struct {
		name, stf string
		entries   int
		expect    bool
	}{
		{"tofino: an operator port bypasses by the flow rules' default", `# p4testgen seed: 1
# Date generated: 2026-12-03-15:00:00.000
# Current statement coverage: 0.12
# Traces
# [Parser] IngressParser
# Table BalancerIngress.port_role
add BalancerIngress.port_role port:0x014 BalancerIngress.set_operator_port(link_id:0x00,side:0x0,peer_port:0x00A)

packet 20 ` + pkt + `
expect 10 ` + masked + `$
`, 1, true},
		{"bmv2: a ternary rule with its priority, and a default action", `# p4testgen seed: 2
# Current node coverage: 0.2
# Table BalancerIngress.port_role
add "BalancerIngress.port_role" "port":0x014 "BalancerIngress.set_operator_port"("link_id":0x00,"side":0x0,"peer_port":0x00A)

# Table BalancerIngress.flow_rules
add "BalancerIngress.flow_rules" 7 "link_id":0b000000 "is_ipv4":0b1 "ip_proto":0b00000110 "l4_dst":0b****************  "BalancerIngress.bypass"()

# Table BalancerIngress.balance_groups
setdefault "BalancerIngress.balance_groups" "BalancerIngress.group_bypass"()

packet 20 ` + pkt + `
expect 10 ` + pkt + `$
`, 3, true},
		{"no entry: a frame from an unknown port is dropped", `# Current statement coverage: 0.01
packet 20 ` + pkt + `
`, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseSTF(tc.name, strings.NewReader(tc.stf))
			require.NoError(t, err)
			assert.NotEmpty(t, c.Coverage)
			assert.Len(t, c.Entries, tc.entries)
			assert.Equal(t, uint32(20), c.InPort)
			assert.Equal(t, tc.expect, c.Expect != nil)
			require.NoError(t, Replay(newDP(t), c))
		})
	}
}

// A case the switch disagrees with is reported, with what differs.
func TestReplaySTFDisagreements(t *testing.T) {
	pkt := hex.EncodeToString(tcpFrame())
	entry := "add BalancerIngress.port_role port:0x014 BalancerIngress.set_operator_port(link_id:0x00,side:0x0,peer_port:0x00A)\n"
	for _, tc := range []struct{ name, stf, want string }{
		{"another port", entry + "packet 20 " + pkt + "\nexpect 11 " + pkt + "$\n", "out of port 10, expected 11"},
		{"other bytes", entry + "packet 20 " + pkt + "\nexpect 10 " + strings.Replace(pkt, "0011", "0012", 1) + "$\n", "packet differs at byte 7: 0x11, expected 0x12"},
		{"a drop expected", entry + "packet 20 " + pkt + "\n", "expected a drop, got forward out of port 10"},
		{"a packet expected", "packet 20 " + pkt + "\nexpect 10 " + pkt + "$\n", "the switch dropped it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseSTF(tc.name, strings.NewReader(tc.stf))
			require.NoError(t, err)
			err = Replay(newDP(t), c)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// What the translation makes of P4Testgen's values, and its errors, each
// naming what is wrong.
func TestTranslate(t *testing.T) {
	s, err := p4src.Load()
	require.NoError(t, err)
	c, err := ParseSTF("t", strings.NewReader(`add BalancerIngress.flow_rules 3 ipv4_dst:0b00001010************************ l4_dst:0x01BB BalancerIngress.balance(group:0x1)
packet 1 00
`))
	require.NoError(t, err)
	us, err := c.Updates(s)
	require.NoError(t, err)
	require.Len(t, us, 1)
	te := us[0].GetEntity().GetTableEntry()
	assert.Equal(t, p4v1.Update_INSERT, us[0].GetType())
	assert.Equal(t, int32(3), te.GetPriority())
	require.Len(t, te.GetMatch(), 2)
	tern := te.GetMatch()[0].GetTernary()
	assert.Equal(t, []byte{0x0a, 0, 0, 0}, tern.GetValue())
	assert.Equal(t, []byte{0xff, 0, 0, 0}, tern.GetMask())
	assert.Equal(t, []byte{0x01, 0xbb}, te.GetMatch()[1].GetTernary().GetValue(), "a hex value on a ternary key: every bit cares")
	assert.Equal(t, []byte{0xff, 0xff}, te.GetMatch()[1].GetTernary().GetMask())

	for _, tc := range []struct{ stf, want string }{
		{"add BalancerIngress.nope port:0x1 BalancerIngress.unknown_port()\npacket 1 00\n", `"BalancerIngress.nope"`},
		{"add BalancerIngress.port_role nope:0x1 BalancerIngress.unknown_port()\npacket 1 00\n", "nope"},
		{"add BalancerIngress.port_role port:0x1FFF BalancerIngress.unknown_port()\npacket 1 00\n", "0x1FFF needs 13 bits; the field has 9"},
		{"add BalancerIngress.port_role port:0b1 BalancerIngress.unknown_port()\npacket 1 00\n", "1 binary digits for a 9-bit field"},
	} {
		c, err := ParseSTF("t", strings.NewReader(tc.stf))
		require.NoError(t, err)
		_, err = c.Updates(s)
		require.Error(t, err, tc.stf)
		assert.Contains(t, err.Error(), tc.want)
	}
	for _, tc := range []struct{ stf, want string }{
		{"packet 1 00\npacket 2 00\n", "a second packet"},
		{"expect 1 00$\n", "expect before the packet"},
		{"add T\npacket 1 00\n", "no action call"},
		{"add T x y A()\npacket 1 00\n", "neither a priority"},
		{"packet 1 0\n", "odd length"},
		{"packet 1 00\nexpect 1 0g$\n", "is not a hex digit"},
		{"mirroring_add 1 2\n", `unknown command "mirroring_add"`},
		{"# nothing\n", "no packet"},
	} {
		_, err := ParseSTF("t", strings.NewReader(tc.stf))
		require.Error(t, err, tc.stf)
		assert.Contains(t, err.Error(), tc.want)
	}
}

// The TNA verdict build's recirculation ports (pipe-local port 68), as
// P4Testgen's Tofino model has them: a frame arriving there is an
// evidence copy (dropped, taken as its return when the magic is right),
// and a frame sent there leaves with the bridged metadata byte in front
// (the egress parses it as a copy). The software switch agrees on both
// only for a TNA build with the verdict: the v1model build forwards both.
func TestReplayRecirculationPorts(t *testing.T) {
	pkt := strings.ToUpper(hex.EncodeToString(tcpFrame()))
	masked := pkt[:48] + "****" + pkt[52:]
	toRecirc := `add BalancerIngress.port_role port:0x048 BalancerIngress.set_operator_port(link_id:0x00,side:0x0,peer_port:0x0C4)

packet 72 ` + pkt + `
expect 196 **` + masked + `$
`
	copyIn := `add BalancerIngress.port_role port:0x044 BalancerIngress.set_operator_port(link_id:0x00,side:0x0,peer_port:0x000)

packet 68 E500` + pkt + `
`
	notACopy := `add BalancerIngress.port_role port:0x044 BalancerIngress.set_operator_port(link_id:0x00,side:0x0,peer_port:0x000)

packet 68 ` + pkt + `
`
	verdict := modelSchema(t, p4src.ArchTNA, "verdict")
	for _, tc := range []struct {
		name, stf string
		copies    uint64
	}{
		{"a frame sent to pipe 1's recirculation port", toRecirc, 0},
		{"an evidence copy arriving", copyIn, 1},
		{"a frame without the magic arriving", notACopy, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseSTF(tc.name, strings.NewReader(tc.stf))
			require.NoError(t, err)
			d, err := dataplane.New(verdict, dataplane.WithCPUPort(p4src.CPUPortTofino), dataplane.WithPipes(2, nil))
			require.NoError(t, err)
			require.NoError(t, Replay(d, c))
			assert.Equal(t, tc.copies, d.EvidenceCopies().Taken, "copies taken as returns")

			// The v1model build knows no recirculation port.
			require.Error(t, Replay(newDP(t), c))
		})
	}
}
