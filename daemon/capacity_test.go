package daemon

import (
	"context"
	"os"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/tables"
)

// TestDryRunRefusesHugeRule: a "not" with two 4094-long VLAN lists (16.7
// million flow entries) is refused on a dry run with the compiler's
// capacity error naming the rule, without allocating its entries.
func TestDryRunRefusesHugeRule(t *testing.T) {
	d, err := New(Options{StateDir: t.TempDir(), InitialConfig: "testdata/fast.yaml", SwitchAddr: "127.0.0.1:1", DeviceID: 1})
	require.NoError(t, err)
	cfg, _, err := d.Config(context.Background())
	require.NoError(t, err)
	vlans := make([]config.Range, 4094)
	for i := range vlans {
		vlans[i] = config.Range{Lo: uint32(i + 1), Hi: uint32(i + 1)}
	}
	tcp := config.ProtoTCP
	huge := *cfg
	huge.Rules = append(append([]config.Rule(nil), cfg.Rules...), config.Rule{Name: "huge", Priority: 60000, Action: "bypass",
		Match: config.Match{Proto: &tcp}, Not: []config.Match{{VLAN: vlans, InnerVLAN: vlans}}})
	data, err := huge.Marshal()
	require.NoError(t, err)

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = d.ApplyConfig(context.Background(), data, true, "dry")
	runtime.ReadMemStats(&after)
	require.ErrorIs(t, err, ErrInvalid)
	assert.Contains(t, err.Error(), `"huge" alone expands to at least`)
	assert.Contains(t, err.Error(), "capacity")
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(128<<20), "bytes allocated")
}

// TestInitialConfigPastCapacity: an initial configuration whose rules do
// not fit the flow tables (by the compiler's exact count) is refused
// before it is saved as the running revision.
func TestInitialConfigPastCapacity(t *testing.T) {
	dir := t.TempDir()
	_, err := New(Options{StateDir: dir, InitialConfig: "../tables/testdata/too_many_rules.yaml", SwitchAddr: "127.0.0.1:1", DeviceID: 1})
	require.ErrorIs(t, err, tables.ErrCapacity)
	assert.Contains(t, err.Error(), `rules: 5120 entries for the IPv4 table exceed its 4096 capacity (rules[3] "x" alone expands to 2048)`)
	st, err := OpenStore(dir)
	require.NoError(t, err)
	_, _, err = st.Running()
	assert.ErrorIs(t, err, os.ErrNotExist, "nothing saved")
}
