package daemon

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestApplyWarnsOfRulesThatCannotMatch: a configuration with a rule a
// higher one shadows is accepted with the warning (config apply), and
// refused under WithStrict, naming the rule; nothing is saved then.
func TestApplyWarnsOfRulesThatCannotMatch(t *testing.T) {
	d, err := New(Options{StateDir: t.TempDir(), InitialConfig: "testdata/fast.yaml", SwitchAddr: "127.0.0.1:1", DeviceID: 1})
	require.NoError(t, err)
	defer d.Close()
	site, err := os.ReadFile("testdata/fast.yaml")
	require.NoError(t, err)
	data := append(site, "  - {name: web, priority: 5, action: bypass, match: {proto: tcp}, not: [{proto: tcp}]}\n"...)
	ctx := context.Background()

	res, err := d.ApplyConfig(ctx, data, true, "")
	require.NoError(t, err)
	assert.Contains(t, res.Warning, `rules[1].not[0]: rule "web" can never apply its action "bypass"`)
	assert.Contains(t, res.Warning, `rules[1]: rule "web" (priority 5) can never match: rule "all" (priority 10)`)

	hist, err := d.History(ctx)
	require.NoError(t, err)
	_, err = d.ApplyConfig(WithStrict(ctx, true), data, false, "")
	require.ErrorIs(t, err, ErrInvalid)
	assert.Contains(t, err.Error(), "configuration rejected (--strict), the running one is unchanged: a flow rule can never match")
	assert.Contains(t, err.Error(), `rule "web"`)
	after, err := d.History(ctx)
	require.NoError(t, err)
	assert.Len(t, after, len(hist), "nothing saved")
}
