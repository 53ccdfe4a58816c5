package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/cmd/balancer/internal/cli"
	"github.com/dpi-balancer/balancer/config"
)

func TestPortSettings(t *testing.T) {
	e := newEnv(t)

	out := e.ok("port", "add", "5", "--speed", "100G", "--fec", "none", "--mtu", "1500", "--autoneg", "--enabled=false")
	assertRows(t, out, "+ port 5")
	p := portNumbered(t, e.running(), 5)
	assert.Equal(t, config.PortSettings{Speed: "100G", FEC: config.FECNone, Autoneg: true, MTU: 1500, Enabled: false}, p.Settings())
	assertRows(t, e.ok("port", "list"), "P5 5/0 50 WAN 100G none on 1500 down - -")
	assertRows(t, e.ok("port", "show", "P5"), "fec: none", "autoneg: on", "mtu: 1500", "admin: down")

	// set changes only what it is given; --fec default follows the speed again.
	out = e.ok("port", "set", "P5", "--enabled", "--fec", "default")
	assertRows(t, out, "~ port 5: fec none -> rs, enabled false -> true")
	p = portNumbered(t, e.running(), 5)
	assert.Equal(t, config.PortSettings{Speed: "100G", FEC: config.FECRS, Autoneg: true, MTU: 1500, Enabled: true}, p.Settings())

	// The lanes of a broken-out port share its settings.
	e.ok("port", "set", "4", "--mtu", "9000")
	var views []cli.PortView
	require.NoError(t, json.Unmarshal([]byte(e.ok("port", "list", "-o", "json")), &views))
	lanes := 0
	for _, v := range views {
		if v.Port == 4 {
			lanes++
			assert.Equal(t, uint32(9000), v.MTU, v.Name)
			assert.Equal(t, "none", v.FEC, v.Name)
			assert.True(t, v.Enabled, v.Name)
		}
	}
	assert.Equal(t, 4, lanes)

	for _, tt := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"port", "set", "P9", "--fec", "base-r"}, exitUsage, `port P9: --fec "base-r": want none, fc, rs or default`},
		{[]string{"port", "set", "9", "--mtu", "64"}, exitUsage, "port 9: --mtu 64: want 1200..10240 bytes, or 0 for the default (9216)"},
		{[]string{"port", "set", "9"}, exitUsage, "port set 9: give at least one of"},
		{[]string{"port", "set", "7", "--mtu", "1500"}, exitError, `unknown port "7"`},
		// The platform's own limits come from the site's validation.
		{[]string{"port", "set", "P9", "--fec", "fc"}, exitError, "port 9: fec fc is not available at 100G on platform sim"},
		{[]string{"port", "set", "P9", "--mtu", "10000"}, exitError, "port 9: mtu 10000 is out of range 1200..9216 on platform sim"},
	} {
		r := e.run(tt.args...)
		assert.Equal(t, tt.code, r.code, "%v: %s", tt.args, r.stderr)
		assert.Contains(t, r.stderr, tt.msg, tt.args)
	}
}

// portNumbered is the port entry of front-panel port n (CLI edits keep
// the operator's order of the ports list, so not by position).
func portNumbered(t *testing.T, c *config.Config, n uint32) config.Port {
	t.Helper()
	for _, p := range c.Ports {
		if p.Port == n {
			return p
		}
	}
	require.Failf(t, "no port", "port %d is not in the running configuration", n)
	return config.Port{}
}
