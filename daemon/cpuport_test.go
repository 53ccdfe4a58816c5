package daemon

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
)

// The CPU port is the platform's unless the daemon is given another; no
// port of the site may take it, at start or in a later configuration.
func TestCPUPortSetting(t *testing.T) {
	site, err := os.ReadFile("testdata/fast.yaml")
	require.NoError(t, err)

	d, err := New(Options{StateDir: t.TempDir(), InitialConfig: "testdata/fast.yaml", SwitchAddr: "127.0.0.1:1"})
	require.NoError(t, err)
	assert.Equal(t, uint32(255), d.CPUPort(), "platform sim")
	assert.Error(t, d.sendKeepAlive(255, []byte{0}), "never a packet-out to the CPU port")

	d, err = New(Options{StateDir: t.TempDir(), InitialConfig: "testdata/fast.yaml", SwitchAddr: "127.0.0.1:1", CPUPort: 320})
	require.NoError(t, err)
	assert.Equal(t, uint32(320), d.CPUPort())

	// P1 is data-plane port 10 on platform sim.
	_, err = New(Options{StateDir: t.TempDir(), InitialConfig: "testdata/fast.yaml", SwitchAddr: "127.0.0.1:1", CPUPort: 10})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "CPU port 10: ports[0]: P1 has data-plane port 10, the CPU port")

	// A configuration that moves a port onto the CPU port is refused.
	changed := strings.Replace(string(site), "platform: sim\n", "platform: sim\nport_map: {P8: 320}\n", 1)
	require.NotEqual(t, string(site), changed)
	_, err = d.ApplyConfig(context.Background(), []byte(changed), true, "")
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrInvalid), "%v", err)
	assert.Contains(t, err.Error(), "P8 has data-plane port 320, the CPU port")
}

// On a switch whose CPU port is not the compiled-in one (320, a four-pipe
// Tofino's), a daemon given that port writes it into the pipeline and its
// keep-alives work: every filter comes up, and the switch holds the port
// in the cpu_port value set and switch_info's default action. A daemon
// left at the platform's port (255) gets no keep-alive through: the
// switch drops its packet-outs as frames from an unknown port.
func TestCPUPortWrittenIntoThePipeline(t *testing.T) {
	b := newBedCPU(t, "testdata/fast.yaml", 0, nil, 320)
	unknown := func() uint64 { return b.dropCount(p4src.DropUnknownPort) }

	b.cpuPort = 0 // the platform's: 255
	d, stop := b.startDaemon(10)
	require.Eventually(t, func() bool { return unknown() > 10 }, 10*time.Second, 10*time.Millisecond,
		"the keep-alives of a daemon on port 255 are frames from unknown port 320 to the switch")
	st, err := d.Status(context.Background())
	require.NoError(t, err)
	for _, f := range st.Filters {
		assert.NotEqual(t, "up", f.State, "%s: no keep-alive came back", f.Name)
	}
	stop()

	b.cpuPort = 320
	d, _ = b.startDaemon(20)
	assert.Equal(t, uint32(320), d.CPUPort())
	b.allUp(d)
	st, err = d.Status(context.Background())
	require.NoError(t, err)
	assert.Equal(t, uint32(320), st.Switch.CPUPort)
	assert.True(t, st.Switch.CPUPortWritten, "the committed v1model build takes the CPU port at run time")
	assert.True(t, st.Switch.PipelineVerdict, "the committed v1model build has the data-plane verdict")
	vs, def := b.cpuPortState()
	assert.Equal(t, []uint64{320}, vs, "cpu_port value set")
	assert.Equal(t, uint64(320), def, "switch_info default action")
	// A window of 60 packet-outs sent (3 filters, at least 10 rounds of
	// keep-alives), not of wall time: on a starved host 200 ms may see
	// none. The switch runs a stream's packet-outs in order, so all but
	// the last few are through the pipeline when the counter is read.
	before, out := unknown(), d.Session().Stats().PacketsOut
	require.Eventually(t, func() bool { return d.Session().Stats().PacketsOut >= out+60 }, 10*time.Second, time.Millisecond)
	assert.Equal(t, before, unknown(), "no packet-out dropped any more")
}

// dropCount reads one drop_counters cell (packets) from the switch.
func (b *bed) dropCount(reason uint32) uint64 {
	return b.counterPackets(p4src.CounterDrop, int64(reason))
}

// cpuPortState reads the CPU port the switch holds: the cpu_port value
// set's members and switch_info's default action's port.
func (b *bed) cpuPortState() (members []uint64, def uint64) {
	b.t.Helper()
	dp := b.sw.Dataplane()
	s := dp.Schema()
	vs, err := s.ValueSet(p4src.ValueSetCPUPort)
	require.NoError(b.t, err)
	tbl, err := s.Table(p4src.TableSwitchInfo)
	require.NoError(b.t, err)
	require.NoError(b.t, dp.Read([]*p4v1.Entity{
		{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{ValueSetId: vs.GetPreamble().GetId()}}},
		{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: tbl.GetPreamble().GetId(), IsDefaultAction: true}}},
	}, func(e *p4v1.Entity) bool {
		for _, m := range e.GetValueSetEntry().GetMembers() {
			members = append(members, wire.Uint(m.GetMatch()[0].GetExact().GetValue()))
		}
		if te := e.GetTableEntry(); te != nil {
			def = wire.Uint(te.GetAction().GetAction().GetParams()[0].GetValue())
		}
		return true
	}))
	return members, def
}
