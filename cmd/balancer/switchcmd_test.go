package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestChassisConfig(t *testing.T) {
	site := strings.Replace(testSite, "platform: sim", "platform: wedge100bf-32x", 1)
	site = strings.Replace(site, "{port: 9, speed: 100G}", "{port: 9, speed: 100G, mtu: 9600, enabled: false}", 1)

	// The running site.
	e := newEnvSite(t, site)
	out := e.ok("switch", "chassis-config", "--node-id", "3")
	assert.Contains(t, out, "platform: PLT_GENERIC_BAREFOOT_TOFINO")
	assert.Contains(t, out, "nodes {\n  id: 3\n  slot: 1\n  index: 1\n}\n")
	assert.Contains(t, out, `singleton_ports {
  id: 900
  name: "9/0"
  slot: 1
  port: 9
  speed_bps: 100000000000
  config_params {
    admin_state: ADMIN_STATE_DISABLED
    mtu: 9600
    autoneg: TRI_STATE_FALSE
    fec_mode: FEC_MODE_ON
  }
  node: 3
}`)
	assert.Contains(t, out, `  name: "4/4"
  slot: 1
  port: 4
  channel: 4
  speed_bps: 10000000000
`)
	assert.Equal(t, 12, strings.Count(out, "singleton_ports {"), "4 lanes of port 4 and 8 whole ports")

	// A file, no daemon needed.
	f := filepath.Join(t.TempDir(), "site.yaml")
	require.NoError(t, os.WriteFile(f, []byte(site), 0o600))
	r := runCLI(t, "", "--socket", filepath.Join(t.TempDir(), "none.sock"), "switch", "chassis-config", "-f", f)
	require.Equal(t, exitOK, r.code, r.stderr)
	want := strings.ReplaceAll(strings.ReplaceAll(out, "  id: 3\n  slot", "  id: 1\n  slot"), "node: 3\n", "node: 1\n")
	assert.Equal(t, want, r.stdout, "the same config on node 1")

	r = e.run("switch", "chassis-config", "--node-id", "0")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "--node-id 0")

	sim := newEnv(t)
	r = sim.run("switch", "chassis-config")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "platform sim is not run by Stratum")
}
