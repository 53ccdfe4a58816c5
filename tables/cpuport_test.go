package tables

import (
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
)

// cpuPortOf finds what a compile wrote for the CPU port: the value set's
// members and the cpu_port table's default entry.
func cpuPortOf(t *testing.T, c *Compiler, es []*p4v1.Entity) (members []uint64, def *p4v1.TableEntry) {
	t.Helper()
	for _, e := range es {
		if vs := e.GetValueSetEntry(); vs != nil && vs.GetValueSetId() == c.cpuVS {
			for _, m := range vs.GetMembers() {
				members = append(members, wire.Uint(m.GetMatch()[0].GetExact().GetValue()))
			}
		}
		if te := e.GetTableEntry(); te != nil && te.GetTableId() == c.cpuTable.id {
			require.Nil(t, def, "one cpu_port entry")
			def = te
		}
	}
	return members, def
}

// The switch's CPU port is written into the program: the parser's
// cpu_port value set (packet-outs) and the cpu_port table's default action
// (packet-ins); the compiled-in port until SetCPUPort.
func TestCompileCPUPort(t *testing.T) {
	c := compiler(t)
	require.True(t, c.HasCPUPortSetting(), "the v1model build takes the CPU port at run time")
	cfg := load(t, "testdata/small.yaml")

	d, err := c.Compile(cfg, State{})
	require.NoError(t, err)
	members, def := cpuPortOf(t, c, d.Entities)
	assert.Equal(t, []uint64{p4src.CPUPortBMv2}, members, "the compiled-in port until set")
	require.NotNil(t, def)
	assert.True(t, def.GetIsDefaultAction())
	assert.Empty(t, def.GetMatch())
	a := def.GetAction().GetAction()
	assert.Equal(t, c.setCPUPort.id, a.GetActionId())
	require.Len(t, a.GetParams(), 1)
	assert.Equal(t, uint64(p4src.CPUPortBMv2), wire.Uint(a.GetParams()[0].GetValue()))

	require.NoError(t, c.SetCPUPort(320))
	assert.Equal(t, uint32(320), c.CPUPort())
	d, err = c.Compile(cfg, State{})
	require.NoError(t, err)
	members, def = cpuPortOf(t, c, d.Entities)
	assert.Equal(t, []uint64{320}, members)
	assert.Equal(t, uint64(320), wire.Uint(def.GetAction().GetAction().GetParams()[0].GetValue()))

	err = c.SetCPUPort(512)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "CPU port 512 does not fit the program's 9-bit ports")
	assert.Equal(t, uint32(320), c.CPUPort(), "a refused port changes nothing")
}

// A default entry is only ever modified: written first (with the value
// sets) when the switch holds another or did not answer it, never
// inserted or deleted, and left alone when it is the desired one.
func TestDiffCPUPortDefaultEntry(t *testing.T) {
	c := compiler(t)
	require.NoError(t, c.SetCPUPort(64))
	d, err := c.Compile(load(t, "testdata/small.yaml"), State{})
	require.NoError(t, err)
	_, want := cpuPortOf(t, c, d.Entities)

	// Against an empty switch: a modify, in the first batch of writes.
	plan := c.Diff(d.Entities, nil)
	var found *p4v1.Update
	for _, b := range plan.Batches {
		for _, u := range b.Updates {
			if u.GetEntity().GetTableEntry().GetTableId() == c.cpuTable.id {
				require.Nil(t, found)
				found = u
				assert.Equal(t, "value sets, filter ports and links", b.Name)
			}
		}
	}
	require.NotNil(t, found)
	assert.Equal(t, p4v1.Update_MODIFY, found.GetType())
	assert.True(t, proto.Equal(want, found.GetEntity().GetTableEntry()))

	// The switch holds everything: no write. It holds the compiled-in
	// port: one modify, nothing deleted.
	assert.True(t, c.Diff(d.Entities, d.Entities).Empty())
	cur := make([]*p4v1.Entity, len(d.Entities))
	for i, e := range d.Entities {
		if te := e.GetTableEntry(); te != nil && te.GetTableId() == c.cpuTable.id {
			old := proto.Clone(e).(*p4v1.Entity)
			old.GetTableEntry().GetAction().GetAction().GetParams()[0].Value = wire.Canonical(p4src.CPUPortBMv2)
			e = old
		}
		cur[i] = e
	}
	plan = c.Diff(d.Entities, cur)
	assert.Equal(t, 1, plan.Modifies)
	assert.Zero(t, plan.Inserts)
	assert.Zero(t, plan.Deletes)

	// A read-back without the desired default entry (a program whose
	// entry the compiler does not write is not asked for it) deletes
	// nothing either.
	var noDefault []*p4v1.Entity
	for _, e := range d.Entities {
		if !e.GetTableEntry().GetIsDefaultAction() {
			noDefault = append(noDefault, e)
		}
	}
	plan = c.Diff(noDefault, d.Entities)
	assert.Zero(t, plan.Deletes)
}
