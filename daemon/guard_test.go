package daemon

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
)

const guardSite = `
ports:
  - {port: 1, speed: 100G}
  - {port: 2, speed: 100G}
  - {port: 9, speed: 100G}
  - {port: 10, speed: 100G}
links: [{name: L1, lan: P10, wan: P9}]
filter_groups: [{name: F1, lan: P2, wan: P1}]
balance_groups: [{name: g, members: [F1]}]
`

func TestGuard(t *testing.T) {
	old, err := config.Parse([]byte(guardSite))
	require.NoError(t, err)
	empty := func(doc string) *config.Config {
		c, err := config.Parse([]byte(doc))
		require.NoError(t, err, doc)
		return c
	}
	tests := []struct {
		name             string
		cfg              *config.Config
		deletes, entries int
		force            bool
		want             string // "" = allowed
	}{
		{name: "same", cfg: old, entries: 100},
		{name: "document of only ---", cfg: empty("---\n"), deletes: 90, entries: 100,
			want: "change refused without --force, the running configuration is unchanged: it would remove link L1; filter group F1; balance group g; 90 of 100 switch entries (90%)"},
		{name: "only a comment", cfg: empty("# nothing\n"), want: "it would remove link L1; filter group F1; balance group g"},
		{name: "null", cfg: empty("null\n"), want: "it would remove link L1"},
		{name: "site only", cfg: empty("site: x\n"), want: "it would remove link L1"},
		{name: "forced", cfg: empty("---\n"), force: true},
		{name: "most entries", cfg: old, deletes: 3000, entries: 4000, want: "it would remove 3000 of 4000 switch entries (75%)"},
		{name: "half the entries pass", cfg: old, deletes: 2000, entries: 4000},
		{name: "small sites pass", cfg: old, deletes: 10, entries: 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Guard(Removals(old, tt.cfg, tt.deletes, tt.entries), tt.force, "change")
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.True(t, errors.Is(err, ErrDestructive))
			assert.Contains(t, err.Error(), tt.want)
			assert.Contains(t, err.Error(), "repeat with --force")
		})
	}
}

func TestGuardApplyDryRunWarns(t *testing.T) {
	old, err := config.Parse([]byte(guardSite))
	require.NoError(t, err)
	res := &ApplyResult{DryRun: true}
	require.NoError(t, guardApply(context.Background(), old, &config.Config{}, 0, 10, res))
	assert.Contains(t, res.Warning, "this change would remove link L1; filter group F1; balance group g; applying it needs --force")
	res = &ApplyResult{}
	assert.ErrorIs(t, guardApply(context.Background(), old, &config.Config{}, 0, 10, res), ErrDestructive)
	assert.NoError(t, guardApply(WithForce(context.Background(), true), old, &config.Config{}, 0, 10, res))
}

func TestPortState(t *testing.T) {
	cfg, err := config.Parse([]byte(guardSite))
	require.NoError(t, err)
	reports := map[uint32]bool{100: true, 90: false} // P10 up, P9 down, P1/P2 not reported
	assert.Equal(t, PortUp, PortState(cfg, reports, true, "P10"))
	assert.Equal(t, PortDown, PortState(cfg, reports, true, "P9"))
	assert.Equal(t, PortUnknown, PortState(cfg, reports, true, "P1"), "a port the switch does not report is unknown, not up")
	assert.Equal(t, PortUnknown, PortState(cfg, reports, false, "P10"), "nothing is known while the switch is not connected")
	assert.Equal(t, PortUnknown, PortState(cfg, reports, true, "P77"))
}

// On a daemon driving the software switch: a document empty after parsing
// is refused without force and changes nothing, not the switch either;
// forced, it applies.
func TestDaemonGuardsEmptyDocument(t *testing.T) {
	b := newBed(t)
	d, _ := b.startDaemon(10)
	b.allUp(d)
	ctx := context.Background()
	cfg0, rev0, _ := d.Config(ctx)
	updates := d.Session().Stats().Updates

	for _, doc := range []string{"---\n", "# nothing\n", "null\n"} {
		_, err := d.ApplyConfig(ctx, []byte(doc), false, "wipe")
		require.Error(t, err, "%q", doc)
		assert.ErrorIs(t, err, ErrDestructive)
		assert.Contains(t, err.Error(), "it would remove link L1; filter groups F1, F2, F3; balance group G; 271 of 275 switch entries (98%)")
	}
	cfg, rev, _ := d.Config(ctx)
	assert.Same(t, cfg0, cfg)
	assert.Equal(t, rev0, rev)
	assert.Equal(t, updates, d.Session().Stats().Updates, "nothing written to the switch")
	h, err := d.History(ctx)
	require.NoError(t, err)
	assert.Len(t, h, 1, "no revision saved")

	res, err := d.ApplyConfig(ctx, []byte("---\n"), true, "dry")
	require.NoError(t, err, "a dry run shows the plan")
	assert.Contains(t, res.Warning, "applying it needs --force")

	res, err = d.ApplyConfig(WithForce(ctx, true), []byte("---\n"), false, "wipe, forced")
	require.NoError(t, err)
	assert.Contains(t, res.Changes, "- link L1")
}
