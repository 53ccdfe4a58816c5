package simcmd

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
)

// balancer sim --from-config gives the software switch every port and
// lane of the site with its speed and admin state.
func TestSitePortStates(t *testing.T) {
	cfg, err := config.Parse([]byte(`
platform: sim
ports:
  - {port: 4, speed: 10G, breakout: 4}
  - {port: 9, speed: 100G, enabled: false}
`))
	require.NoError(t, err)
	speeds, disabled := sitePortStates(cfg)
	assert.Equal(t, map[uint32]uint64{41: 10e9, 42: 10e9, 43: 10e9, 44: 10e9, 90: 100e9}, speeds)
	assert.Equal(t, map[uint32]bool{90: true}, disabled)
}
