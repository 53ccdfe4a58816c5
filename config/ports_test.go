package config_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
)

// portsConfig has port 1 and 4 broken out, 9, 10, 11 unbroken.
func portsConfig() *config.Config {
	return &config.Config{Ports: []config.Port{
		{Port: 1, Speed: "10G", Breakout: 4},
		{Port: 4, Speed: "25G", Breakout: 4},
		{Port: 9, Speed: "100G"},
		{Port: 10, Speed: "100G"},
		{Port: 11, Speed: "100G"},
	}}
}

func TestResolvePort(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    config.PortName
		wantErr error
		msg     string
	}{
		{name: "P9 unbroken", in: "P9", want: config.PortName{Port: 9}},
		{name: "lower-case p", in: "p9", want: config.PortName{Port: 9}},
		{name: "bare number", in: "9", want: config.PortName{Port: 9}},
		{name: "9/0 unbroken", in: "9/0", want: config.PortName{Port: 9}},
		{name: "P10 is port 10 (no lane 0)", in: "P10", want: config.PortName{Port: 10}},
		{name: "P41 lane", in: "P41", want: config.PortName{Port: 4, Lane: 1}},
		{name: "P44 last lane", in: "P44", want: config.PortName{Port: 4, Lane: 4}},
		{name: "4/1 lane", in: "4/1", want: config.PortName{Port: 4, Lane: 1}},
		{name: "P12 only the lane reading is defined", in: "P12", want: config.PortName{Port: 1, Lane: 2}},
		{name: "1/1 disambiguates the lane", in: "1/1", want: config.PortName{Port: 1, Lane: 1}},
		{name: "11/0 disambiguates the port", in: "11/0", want: config.PortName{Port: 11}},
		{name: "11 disambiguates the port", in: "11", want: config.PortName{Port: 11}},
		{
			name: "P11 ambiguous", in: "P11", wantErr: config.ErrAmbiguousPort,
			msg: "P11 is ambiguous: port 1 lane 1 or port 11; write 1/1 or 11/0",
		},
		{
			name: "lane on unbroken P91", in: "P91", wantErr: config.ErrNoLane,
			msg: "P91: port 9 is not broken out, so it has no lane 1",
		},
		{
			name: "lane on unbroken 9/1", in: "9/1", wantErr: config.ErrNoLane,
			msg: "9/1: port 9 is not broken out, so it has no lane 1",
		},
		{
			name: "lane beyond breakout", in: "P45", wantErr: config.ErrLaneRange,
			msg: "P45: port 4 has 4 lanes, so there is no lane 5",
		},
		{
			name: "lane beyond breakout slash", in: "4/9", wantErr: config.ErrLaneRange,
			msg: "4/9: port 4 has 4 lanes, so there is no lane 9",
		},
		{
			name: "broken-out port as a whole", in: "P4", wantErr: config.ErrBrokenOut,
			msg: "P4: port 4 is broken out; name one of its lanes, P41..P44 (4/1..4/4)",
		},
		{
			name: "broken-out port as 4/0", in: "4/0", wantErr: config.ErrBrokenOut,
			msg: "4/0: port 4 is broken out; name one of its lanes, P41..P44 (4/1..4/4)",
		},
		{
			name: "unknown P5", in: "P5", wantErr: config.ErrUnknownPort,
			msg: "unknown port P5: port 5 is not defined; add it to ports (balancer port add 5 --speed 100G)",
		},
		{
			name: "unknown lane reading", in: "P77", wantErr: config.ErrUnknownPort,
			msg: "unknown port P77: front-panel ports are 1..32 and lanes 1..4 (P9 is port 9, P41 is port 4 lane 1)",
		},
		{
			name: "unknown both readings", in: "P23", wantErr: config.ErrUnknownPort,
			msg: "unknown port P23: neither port 23 nor port 2 (lane 3) is defined; add one to ports (balancer port add 23 --speed 100G)",
		},
		{
			name: "no reading in range", in: "P999", wantErr: config.ErrUnknownPort,
			msg: "unknown port P999: front-panel ports are 1..32 and lanes 1..4 (P9 is port 9, P41 is port 4 lane 1)",
		},
		{
			name: "port 0", in: "0", wantErr: config.ErrUnknownPort,
			msg: "unknown port 0: front-panel ports are numbered 1..32",
		},
		{
			name: "unknown slash", in: "5/1", wantErr: config.ErrUnknownPort,
			msg: "unknown port 5/1: port 5 is not defined; add it to ports (balancer port add 5 --speed 100G)",
		},
	}
	for _, bad := range []string{"", "P", "X1", "4/", "/1", "4/1/2", "P-1", "P 9", "P9a", "eth0", "+4", "P+4", "99999"} {
		tests = append(tests, struct {
			name    string
			in      string
			want    config.PortName
			wantErr error
			msg     string
		}{
			name: "bad name " + bad, in: bad, wantErr: config.ErrBadPortName,
			msg: `"` + bad + `" is not a port name; write P<port>, P<port><lane>, <port>/<lane> or <port>`,
		})
	}
	c := portsConfig()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.ResolvePort(tt.in)
			if tt.wantErr != nil {
				require.Error(t, err)
				assert.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, tt.msg, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestPortNameForms(t *testing.T) {
	tests := []struct {
		name      string
		in        config.PortName
		str, key  string
		side      config.Side
		sideLabel string
	}{
		{name: "unbroken odd", in: config.PortName{Port: 9}, str: "P9", key: "9/0", side: config.SideWAN, sideLabel: "WAN"},
		{name: "unbroken even", in: config.PortName{Port: 10}, str: "P10", key: "10/0", side: config.SideLAN, sideLabel: "LAN"},
		{name: "lane odd on even port", in: config.PortName{Port: 4, Lane: 1}, str: "P41", key: "4/1", side: config.SideWAN, sideLabel: "WAN"},
		{name: "lane even on odd port", in: config.PortName{Port: 3, Lane: 2}, str: "P32", key: "3/2", side: config.SideLAN, sideLabel: "LAN"},
	}
	c := portsConfig()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.str, tt.in.String())
			assert.Equal(t, tt.key, tt.in.Key())
			assert.Equal(t, tt.side, c.PortSide(tt.in))
			assert.Equal(t, tt.sideLabel, c.PortSide(tt.in).String())
		})
	}
	assert.Equal(t, "Side(7)", config.Side(7).String())
}

func TestPortLabel(t *testing.T) {
	c := portsConfig()
	assert.Equal(t, "1/1", c.PortLabel(config.PortName{Port: 1, Lane: 1}), "P11 would be ambiguous")
	assert.Equal(t, "11/0", c.PortLabel(config.PortName{Port: 11}))
	assert.Equal(t, "P12", c.PortLabel(config.PortName{Port: 1, Lane: 2}))
	assert.Equal(t, "P41", c.PortLabel(config.PortName{Port: 4, Lane: 1}))
	assert.Equal(t, "P9", c.PortLabel(config.PortName{Port: 9}))
}

func TestPortNumber(t *testing.T) {
	tests := []struct {
		name     string
		platform string
		portMap  map[string]uint32
		port     string
		want     uint32
	}{
		{name: "sim lane", platform: "sim", port: "P41", want: 41},
		{name: "sim unbroken", platform: "sim", port: "P9", want: 90},
		{name: "sim is the default", platform: "", port: "4/4", want: 44},
		{name: "bmv2 numbers like sim", platform: "bmv2", port: "P11", want: 110},
		{name: "override by canonical name", platform: "sim", portMap: map[string]uint32{"P9": 7}, port: "9/0", want: 7},
		{name: "override by slash name", platform: "sim", portMap: map[string]uint32{"4/2": 3}, port: "P42", want: 3},
		{name: "override of another port", platform: "sim", portMap: map[string]uint32{"P10": 3}, port: "P9", want: 90},
		{name: "wedge port 1", platform: "wedge100bf-32x", port: "P11", want: 40},
		{name: "wedge port 4 lane 1", platform: "wedge100bf-32x", port: "4/1", want: 156},
		{name: "wedge port 4 lane 4", platform: "wedge100bf-32x", port: "P44", want: 159},
		{name: "wedge port 9", platform: "wedge100bf-32x", port: "P9", want: 56},
		{name: "wedge port 10", platform: "wedge100bf-32x", port: "P10", want: 48},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := portsConfig()
			c.Ports[0].Breakout = 0 // port 1 unbroken, so P11 is port 11
			c.Platform = tt.platform
			c.PortMap = tt.portMap
			got, err := c.PortNumber(tt.port)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}

	c := portsConfig()
	_, err := c.PortNumber("P5")
	assert.ErrorIs(t, err, config.ErrUnknownPort)
	c.Platform = "nope"
	_, err = c.PortNumber("P9")
	assert.ErrorIs(t, err, config.ErrUnknownPlatform)
}

func TestPlatforms(t *testing.T) {
	assert.Equal(t, []string{"bmv2", "sim", "wedge100bf-32x"}, config.Platforms())

	_, err := config.LookupPlatform("tofino9")
	require.ErrorIs(t, err, config.ErrUnknownPlatform)
	assert.Equal(t, `unknown platform "tofino9"; known: bmv2, sim, wedge100bf-32x`, err.Error())

	tests := []struct {
		name     string
		slots    int
		cpu      uint32
		unit     string
		p1, p4l1 uint32
	}{
		{name: "sim", slots: 16384, cpu: 255, unit: "1ns", p1: 10, p4l1: 41},
		{name: "bmv2", slots: 16384, cpu: 255, unit: "1µs", p1: 10, p4l1: 41},
		{name: "wedge100bf-32x", slots: 131072, cpu: 192, unit: "1ns", p1: 132, p4l1: 156},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := config.LookupPlatform(tt.name)
			require.NoError(t, err)
			assert.Equal(t, tt.name, p.Name)
			assert.Equal(t, tt.slots, p.SlotCapacity)
			assert.Equal(t, tt.cpu, p.CPUPort)
			assert.Equal(t, tt.unit, p.TimestampUnit.String())
			assert.Len(t, p.Ports, 32*5, "32 ports, each unbroken and 4 lanes")
			assert.Equal(t, tt.p1, p.Ports["1/0"])
			assert.Equal(t, tt.p4l1, p.Ports["4/1"])

			// Unbroken ports are distinct, lanes of one port are distinct,
			// and nothing is the CPU port.
			whole := make(map[uint32]uint32)
			for port := uint32(1); port <= 32; port++ {
				n := p.Ports[config.PortName{Port: port}.Key()]
				prev, dup := whole[n]
				assert.False(t, dup, "ports %d and %d share %d", prev, port, n)
				whole[n] = port
				assert.NotEqual(t, p.CPUPort, n)
				lanes := make(map[uint32]bool)
				for l := uint32(1); l <= 4; l++ {
					v := p.Ports[config.PortName{Port: port, Lane: l}.Key()]
					assert.False(t, lanes[v])
					lanes[v] = true
					assert.NotEqual(t, p.CPUPort, v)
				}
			}

			// LookupPlatform hands out copies.
			p.Ports["1/0"] = 9999
			again, err := config.LookupPlatform(tt.name)
			require.NoError(t, err)
			assert.Equal(t, tt.p1, again.Ports["1/0"])
		})
	}

	// On the Wedge100BF-32X a lane l of a port is its base dev_port + l-1.
	p, err := config.LookupPlatform("wedge100bf-32x")
	require.NoError(t, err)
	for port := uint32(1); port <= 32; port++ {
		base := p.Ports[config.PortName{Port: port}.Key()]
		assert.Equal(t, uint32(0), base%4, "port %d", port)
		for l := uint32(1); l <= 4; l++ {
			assert.Equal(t, base+l-1, p.Ports[config.PortName{Port: port, Lane: l}.Key()])
		}
	}
}
