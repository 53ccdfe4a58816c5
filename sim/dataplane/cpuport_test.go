package dataplane

import (
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	pc "github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/tables"
)

// programCPU writes the pipeline cases' site into d as a controller whose
// CPU port is cpu does, reading back the default entry it writes too.
func programCPU(t *testing.T, d *Dataplane, cpu uint32) {
	t.Helper()
	comp, err := tables.New(loadSchema(t))
	require.NoError(t, err)
	require.NoError(t, comp.SetCPUPort(cpu))
	desired, err := comp.Compile(siteConfig(t), tables.State{})
	require.NoError(t, err)
	current := readAll(t, d, comp)
	for _, id := range comp.DefaultEntryTableIDs() {
		q := []*p4v1.Entity{{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: id, IsDefaultAction: true}}}}
		require.NoError(t, d.Read(q, func(e *p4v1.Entity) bool { current = append(current, e); return true }))
	}
	for _, b := range comp.Diff(desired.Entities, current).Batches {
		for i, err := range d.Write(b.Updates, p4v1.WriteRequest_CONTINUE_ON_ERROR) {
			require.NoError(t, err, "batch %q update %d", b.Name, i)
		}
	}
}

// On a switch whose CPU port is not the compiled-in one (320, as a
// four-pipe Tofino's), the controller's packet-outs are taken as such and
// packet-ins reach it only once the controller has written that port into
// the pipeline; until then a packet-out is a frame from an unknown port
// (dropped and counted) and a returning keep-alive leaves by the
// compiled-in port, a plain data-plane port there.
func TestCPUPortRunTimeSetting(t *testing.T) {
	d := newDP(t, WithCPUPort(320))
	require.True(t, d.Schema().HasCPUPortSetting())
	assert.Equal(t, uint32(p4src.CPUPortBMv2), d.packetInPort(), "the compiled-in port before any write")
	ka := pc.KeepAlive(pc.F1ID, 5, 0)

	programCPU(t, d, p4src.CPUPortBMv2) // a controller that does not know the switch's port
	unknown := d.dropCtr.cells[p4src.DropUnknownPort].pkts.Load()
	r := d.PacketOut(pc.F1LAN, wire.PacketOutFlagKeepAlive, ka, nil)
	assert.Equal(t, Drop, r.Kind, "a packet-out from port 320 is not the controller's")
	assert.Equal(t, uint8(p4src.DropUnknownPort), r.DropReason)
	assert.Equal(t, unknown+1, d.dropCtr.cells[p4src.DropUnknownPort].pkts.Load())
	r = d.Process(pc.F1WAN, ka, nil)
	assert.Equal(t, Forward, r.Kind)
	assert.Equal(t, uint32(p4src.CPUPortBMv2), r.Port, "the keep-alive leaves by the compiled-in port")

	programCPU(t, d, 320)
	assert.Equal(t, uint32(320), d.packetInPort())
	r = d.PacketOut(pc.F1LAN, wire.PacketOutFlagKeepAlive, ka, nil)
	require.Equal(t, Forward, r.Kind)
	assert.Equal(t, uint32(pc.F1LAN), r.Port)
	r = d.Process(pc.F1WAN, ka, nil)
	require.Equal(t, ToCPU, r.Kind)
	assert.Equal(t, uint32(320), r.Port)
	assert.Equal(t, uint8(wire.PacketInReasonKeepAlive), r.PacketIn.Reason)
	// The compiled-in port stays a packet-out port (parsed before the
	// value set), as on the switch.
	raw := append([]byte{pc.F1LAN >> 1, pc.F1LAN & 1 << 7, wire.PacketOutFlagKeepAlive}, ka...)
	r = d.Process(p4src.CPUPortBMv2, raw, nil)
	require.Equal(t, Forward, r.Kind)
	assert.Equal(t, uint32(pc.F1LAN), r.Port)

	// A reset (a new pipeline) forgets the setting.
	d.Reset()
	assert.Equal(t, uint32(p4src.CPUPortBMv2), d.packetInPort())
	assert.False(t, d.packetOutPort(320))
}
