package daemon

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
