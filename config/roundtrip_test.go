package config_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
)

func TestRoundTrip(t *testing.T) {
	for _, path := range []string{examplePath, "testdata/full.yaml"} {
		t.Run(path, func(t *testing.T) {
			c, err := config.Load(path)
			require.NoError(t, err)

			out, err := c.Marshal()
			require.NoError(t, err)
			back, err := config.Parse(out)
			require.NoError(t, err, "marshaled config:\n%s", out)
			assert.Equal(t, c, back)

			// Marshal is stable: the second pass writes the same bytes.
			again, err := back.Marshal()
			require.NoError(t, err)
			assert.Equal(t, string(out), string(again))

			js, err := json.Marshal(c)
			require.NoError(t, err)
			var fromJSON config.Config
			require.NoError(t, json.Unmarshal(js, &fromJSON))
			assert.Equal(t, c, &fromJSON)
			require.NoError(t, fromJSON.Validate())
		})
	}
}

func TestFullConfig(t *testing.T) {
	c, err := config.Load("testdata/full.yaml")
	require.NoError(t, err)

	// Explicit ids are kept; the others take the lowest free ones.
	ids := func(get func(i int) *uint32, n int) []uint32 {
		out := make([]uint32, n)
		for i := range out {
			out[i] = *get(i)
		}
		return out
	}
	assert.Equal(t, []uint32{5, 0, 1}, ids(func(i int) *uint32 { return c.Links[i].ID }, len(c.Links)))
	assert.Equal(t, []uint32{1, 0, 2}, ids(func(i int) *uint32 { return c.FilterGroups[i].ID }, len(c.FilterGroups)))
	assert.Equal(t, []uint32{0, 3}, ids(func(i int) *uint32 { return c.BalanceGroups[i].ID }, len(c.BalanceGroups)))

	// The file's own default profile gets the remaining defaults.
	assert.Len(t, c.Profiles, 2)
	assert.Equal(t, "45s", c.ProfileByName("default").Interval.String())
	assert.Equal(t, "1s", c.ProfileByName("default").InitialDelay.String())
	assert.Equal(t, config.FailBypass, c.BalanceGroupByName("spare").FailureAction)
	assert.Equal(t, config.FailRebalance, c.BalanceGroupByName("g1").FailureAction, "the group overrides its profile")

	// port_map overrides the platform's numbering.
	for name, want := range map[string]uint32{"P9": 300, "P44": 301, "P42": 157, "P10": 48, "P1": 132} {
		got, err := c.PortNumber(name)
		require.NoError(t, err, name)
		assert.Equal(t, want, got, name)
	}

	out, err := c.Marshal()
	require.NoError(t, err)
	s := string(out)
	for _, want := range []string{
		"core_tpid: 0x88B5", "ethertype: 0x88B6", "tpid: 0x88B8", "ethertype: 0x0800",
		"src_mac: 02:00:00:00:00:bb", "dst_mac: 00:e0:ed:00:00:00/ff:ff:ff:00:00:00",
		"l4_src: 1024-65535", "proto: 200", "proto: icmpv6", "src: 2001:db8::/32", "dst: 192.0.2.7/32",
	} {
		assert.True(t, strings.Contains(s, want), "marshaled config lacks %q:\n%s", want, s)
	}
}

func TestExampleIsDocumented(t *testing.T) {
	// The example is for operators: it explains itself.
	data, err := os.ReadFile(examplePath)
	require.NoError(t, err)
	comments := 0
	for _, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, "#") {
			comments++
		}
	}
	assert.Greater(t, comments, 30)
}
