package config_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
)

func TestPortSettingsDefaults(t *testing.T) {
	c, err := config.Parse([]byte(`
ports:
  - {port: 1, speed: 100G}
  - {port: 2, speed: 40G}
  - {port: 3, speed: 50G}
  - {port: 4, speed: 10G, breakout: 4}
  - {port: 5, speed: 25G, breakout: 4}
  - {port: 6, speed: 100G, fec: none, autoneg: true, mtu: 1500, enabled: false}
`))
	require.NoError(t, err)
	want := map[uint32]config.PortSettings{
		1: {Speed: "100G", FEC: config.FECRS, MTU: 9216, Enabled: true},
		2: {Speed: "40G", FEC: config.FECNone, MTU: 9216, Enabled: true},
		3: {Speed: "50G", FEC: config.FECRS, MTU: 9216, Enabled: true},
		4: {Speed: "10G", FEC: config.FECNone, MTU: 9216, Enabled: true},
		5: {Speed: "25G", FEC: config.FECRS, MTU: 9216, Enabled: true},
		6: {Speed: "100G", FEC: config.FECNone, Autoneg: true, MTU: 1500, Enabled: false},
	}
	for _, p := range c.Ports {
		assert.Equal(t, want[p.Port], p.Settings(), "port %d", p.Port)
		// ApplyDefaults wrote them into the entry.
		require.NotNil(t, p.Autoneg)
		require.NotNil(t, p.Enabled)
		assert.Equal(t, want[p.Port].FEC, p.FEC)
		assert.Equal(t, want[p.Port].MTU, p.MTU)
	}
	// The entry as written keeps what it left out.
	raw, err := config.Decode([]byte("ports: [{port: 1, speed: 100G}]"))
	require.NoError(t, err)
	assert.Equal(t, config.Port{Port: 1, Speed: "100G"}, raw.Ports[0])
	assert.Equal(t, config.PortSettings{Speed: "100G", FEC: config.FECRS, MTU: 9216, Enabled: true}, raw.Ports[0].Settings())
}

func TestPortSettingsValidation(t *testing.T) {
	tests := []struct {
		name     string
		platform string
		port     string
		kind     error
		msg      string
	}{
		{name: "unknown fec", platform: "sim", port: "{port: 9, speed: 100G, fec: base-r}", kind: config.ErrInvalid,
			msg: `ports[0].fec: port 9: "base-r" is not a FEC mode; one of none, fc, rs`},
		{name: "fc at 100G is not IEEE", platform: "sim", port: "{port: 9, speed: 100G, fec: fc}", kind: config.ErrConflict,
			msg: "ports[0].fec: port 9: fec fc is not available at 100G on platform sim (IEEE 802.3 defines fc at 10G to 50G and rs at 25G to 100G); use none, rs"},
		{name: "rs at 10G lanes", platform: "bmv2", port: "{port: 4, speed: 10G, breakout: 4, fec: rs}", kind: config.ErrConflict,
			msg: "ports[0].fec: port 4: fec rs is not available at 10G on platform bmv2 (IEEE 802.3 defines fc at 10G to 50G and rs at 25G to 100G); use none, fc"},
		{name: "fc at 25G on Stratum Tofino", platform: "wedge100bf-32x", port: "{port: 4, speed: 25G, breakout: 4, fec: fc}", kind: config.ErrConflict,
			msg: "ports[0].fec: port 4: fec fc is not available at 25G on platform wedge100bf-32x (Stratum sets FEC on or off: on is fc at 10G and 40G, rs at 25G, 50G and 100G); use none, rs"},
		{name: "mtu too small", platform: "wedge100bf-32x", port: "{port: 9, speed: 100G, mtu: 1000}", kind: config.ErrOutOfRange,
			msg: "ports[0].mtu: port 9: mtu 1000 is out of range 1200..10240 on platform wedge100bf-32x"},
		{name: "mtu too large", platform: "wedge100bf-32x", port: "{port: 9, speed: 100G, mtu: 10241}", kind: config.ErrOutOfRange,
			msg: "ports[0].mtu: port 9: mtu 10241 is out of range 1200..10240 on platform wedge100bf-32x"},
		{name: "sim frames are 9216 at most", platform: "sim", port: "{port: 9, speed: 100G, mtu: 10240}", kind: config.ErrOutOfRange,
			msg: "ports[0].mtu: port 9: mtu 10240 is out of range 1200..9216 on platform sim"},
		{name: "mtu 0 is not unset", platform: "sim", port: "{port: 9, speed: 100G, mtu: 0}", kind: config.ErrOutOfRange,
			msg: `ports[0].mtu: 0 is out of range 1200..10240 bytes (0 is a value, not "unset": leave the key out for the default)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.Parse([]byte("platform: " + tt.platform + "\nports:\n  - " + tt.port + "\n"))
			require.Error(t, err)
			assert.True(t, errors.Is(err, tt.kind), "%v", err)
			assert.Contains(t, err.Error(), tt.msg)
		})
	}
	for _, ok := range []string{
		"{port: 9, speed: 100G, fec: rs, mtu: 10240, autoneg: true, enabled: false}",
		"{port: 2, speed: 40G, fec: fc}",
		"{port: 4, speed: 10G, breakout: 4, fec: fc, mtu: 1200}",
		"{port: 5, speed: 25G, breakout: 4, fec: none}",
	} {
		_, err := config.Parse([]byte("platform: wedge100bf-32x\nports:\n  - " + ok + "\n"))
		assert.NoError(t, err, ok)
	}
}

func TestSpeedBPS(t *testing.T) {
	for _, s := range config.Speeds {
		assert.NotZero(t, config.SpeedBPS(s), s)
	}
	assert.Equal(t, uint64(25_000_000_000), config.SpeedBPS("25G"))
	assert.Zero(t, config.SpeedBPS("1G"))
}

func TestTofinoCPUPort(t *testing.T) {
	assert.Equal(t, uint32(192), config.TofinoCPUPort(2))
	assert.Equal(t, uint32(320), config.TofinoCPUPort(4))
	assert.Zero(t, config.TofinoCPUPort(3))
	pl, err := config.LookupPlatform(config.PlatformWedge100B)
	require.NoError(t, err)
	assert.Equal(t, 2, pl.Pipes)
	assert.Equal(t, config.TofinoCPUPort(pl.Pipes), pl.CPUPort)
}

func TestCheckCPUPort(t *testing.T) {
	c, err := config.Parse([]byte(`
platform: wedge100bf-32x
port_map: {P9: 320}
ports:
  - {port: 9, speed: 100G}
  - {port: 4, speed: 10G, breakout: 4}
`))
	require.NoError(t, err)
	assert.NoError(t, c.CheckCPUPort(192))
	err = c.CheckCPUPort(320)
	assert.ErrorIs(t, err, config.ErrConflict)
	assert.EqualError(t, err, "ports[0]: P9 has data-plane port 320, the CPU port: give it another in port_map, or check the CPU port")
	// Port 4 is dev_port 156..159 on this platform: lane 2 is 157.
	err = c.CheckCPUPort(157)
	assert.EqualError(t, err, "ports[1]: P42 has data-plane port 157, the CPU port: give it another in port_map, or check the CPU port")
}
