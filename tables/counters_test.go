package tables

import (
	"os"
	"testing"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/prototext"

	"github.com/dpi-balancer/balancer/p4src"
)

// TestCoreCounterReads: one cell per configured core, each decoding back
// to its filter group and core, none twice.
func TestCoreCounterReads(t *testing.T) {
	c := compiler(t)
	cfg := load(t, "../examples/site.yaml")
	es, ts, err := c.CoreCounterReads(cfg)
	require.NoError(t, err)
	var cores int
	for _, f := range cfg.FilterGroups {
		cores += int(f.Cores)
	}
	require.Len(t, es, cores)
	require.Len(t, ts, cores)
	seen := map[int64]bool{}
	for i, e := range es {
		ce := e.GetCounterEntry()
		require.NotNil(t, ce)
		require.False(t, seen[ce.GetIndex().GetIndex()], "cell %d twice", ce.GetIndex().GetIndex())
		seen[ce.GetIndex().GetIndex()] = true
		got, ok := c.DecodeCoreCounter(ce)
		require.True(t, ok)
		assert.Equal(t, ts[i], got)
	}
	// The first core of filter group 2 is cell 2<<10 (filter_group ++ core).
	ce := c.CoreCounterEntry(Target{FilterGroup: 2, Core: 0}).GetCounterEntry()
	assert.Equal(t, int64(2048), ce.GetIndex().GetIndex())
	got, ok := c.DecodeCoreCounter(ce)
	assert.True(t, ok)
	assert.Equal(t, Target{FilterGroup: 2}, got)

	// The last filter group's last core is the counter's last cell.
	last := c.CoreCounterEntry(Target{FilterGroup: p4src.FilterGroupSize - 1, Core: p4src.CoreCounterCores - 1}).GetCounterEntry()
	assert.Equal(t, c.coreCounterSize-1, last.GetIndex().GetIndex())

	for _, bad := range []*p4v1.CounterEntry{
		{CounterId: c.coreCounter + 1, Index: &p4v1.Index{Index: 1}},
		{CounterId: c.coreCounter},
		{CounterId: c.coreCounter, Index: &p4v1.Index{Index: c.coreCounterSize}},
		{CounterId: c.coreCounter, Index: &p4v1.Index{Index: -1}},
	} {
		_, ok := c.DecodeCoreCounter(bad)
		assert.False(t, ok, "%v", bad)
	}
}

// TestCoreCounterReadsSmallCounter: a P4Info whose core_counters is too
// small for a configured core is an error naming the filter group, not a
// read the switch would refuse.
func TestCoreCounterReadsSmallCounter(t *testing.T) {
	info := &p4configv1.P4Info{}
	require.NoError(t, prototext.Unmarshal(p4src.P4InfoText, info))
	for _, cc := range info.GetCounters() {
		if cc.GetPreamble().GetName() == p4src.CounterCore {
			cc.Size = 1024 // filter group 0 only
		}
	}
	s, err := p4src.NewSchema(info)
	require.NoError(t, err)
	c, err := New(s)
	require.NoError(t, err)
	cfg := load(t, "../examples/site.yaml")
	_, _, err = c.CoreCounterReads(cfg)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "filter group")
	assert.Contains(t, err.Error(), "1024 cells")
}

// With the TNA P4Info bf-p4c made (committed in p4src/build/tofino), whose
// counters and value sets have ids of their own, the compiler builds the
// site and its counter reads with the ids of that P4Info, found by name.
func TestCompileWithTNAP4Info(t *testing.T) {
	text, err := os.ReadFile("../p4src/build/tofino/balancer.p4info.txtpb")
	require.NoError(t, err)
	s, err := p4src.ParseSchema(text)
	require.NoError(t, err)
	c, err := New(s)
	require.NoError(t, err)
	cfg := load(t, "../examples/site.yaml")
	d, err := c.Compile(cfg, State{})
	require.NoError(t, err)
	require.NotEmpty(t, d.Entities)
	tpid, err := s.ValueSet(p4src.ValueSetCoreTPID)
	require.NoError(t, err)
	var vsIDs []uint32
	for _, e := range d.Entities {
		if vs := e.GetValueSetEntry(); vs != nil {
			vsIDs = append(vsIDs, vs.GetValueSetId())
		}
	}
	assert.Contains(t, vsIDs, tpid.GetPreamble().GetId(), "value sets by the TNA P4Info's ids")

	v1 := compiler(t)
	tnaCore, err := s.Counter(p4src.CounterCore)
	require.NoError(t, err)
	v1Schema, err := p4src.Load()
	require.NoError(t, err)
	v1Core, err := v1Schema.Counter(p4src.CounterCore)
	require.NoError(t, err)
	require.NotEqual(t, v1Core.GetPreamble().GetId(), tnaCore.GetPreamble().GetId(), "bf-p4c gives TNA counters ids of its own")

	es, _, err := c.CoreCounterReads(cfg)
	require.NoError(t, err)
	require.NotEmpty(t, es)
	for _, e := range es {
		assert.Equal(t, tnaCore.GetPreamble().GetId(), e.GetCounterEntry().GetCounterId())
	}
	v1es, _, err := v1.CoreCounterReads(cfg)
	require.NoError(t, err)
	assert.Equal(t, len(v1es), len(es))
}
