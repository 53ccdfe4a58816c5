package daemon

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
)

// TestChangesRecordWho: a revision applied, a manual bypass and its events
// carry who asked for them (WithBy, as the API server sets it from the
// client's credentials); what the daemon decides itself carries no one.
func TestChangesRecordWho(t *testing.T) {
	b := newBed(t)
	d, _ := b.startDaemon(10)
	b.allUp(d)
	ctx := WithBy(context.Background(), "ops (uid 1042)")

	cfg, _, err := d.Config(ctx)
	require.NoError(t, err)
	c := cfg.Clone()
	c.Rules = append(c.Rules, config.Rule{Name: "audit", Priority: 4242, Action: "bypass", Match: config.Match{VLAN: []config.Range{{Lo: 7, Hi: 7}}}})
	data, err := c.Marshal()
	require.NoError(t, err)
	res, err := d.ApplyConfig(ctx, data, false, "add audit")
	require.NoError(t, err)
	assert.Equal(t, "ops (uid 1042)", res.Revision.By)
	h, err := d.History(ctx)
	require.NoError(t, err)
	assert.Equal(t, "ops (uid 1042)", h[len(h)-1].By)
	assert.Empty(t, h[0].By, "the initial configuration: the daemon's own")
	st, err := d.Status(ctx)
	require.NoError(t, err)
	assert.Equal(t, "ops (uid 1042)", st.Revision.By)

	require.NoError(t, d.SetBypass(WithBy(context.Background(), "CN=ops2"), "F3", true))
	var by = map[string]string{}
	require.NoError(t, d.Monitor(ctx, 100, "", false, func(e Event) error {
		if e.Kind == EventConfig || e.Kind == EventBypass {
			by[e.Kind] = e.By
		}
		if e.Kind == EventFilterGroup {
			assert.Empty(t, e.By, "the daemon's own decision: %s", e)
		}
		return nil
	}))
	assert.Equal(t, map[string]string{EventConfig: "ops (uid 1042)", EventBypass: "CN=ops2"}, by)
}
