package config

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func editOf(t *testing.T, orig []byte, change func(c *Config)) []byte {
	t.Helper()
	c, err := Decode(orig)
	require.NoError(t, err)
	change(c)
	out, err := Edit(orig, c)
	require.NoError(t, err)
	got, err := Decode(out)
	require.NoError(t, err)
	want, err := Decode(mustMarshal(t, c))
	require.NoError(t, err)
	require.Equal(t, want, got, "the edit means the edited configuration:\n%s", out)
	return out
}

func mustMarshal(t *testing.T, c *Config) []byte {
	t.Helper()
	b, err := c.Marshal()
	require.NoError(t, err)
	return b
}

// comments lists a file's comment lines and trailing comments.
func comments(b []byte) []string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if i := strings.Index(l, "#"); i >= 0 {
			out = append(out, strings.TrimSpace(l[i:]))
		}
	}
	return out
}

// TestEditKeepsTheFile: an edit and its undo give back the operator's
// bytes; what an edit does not touch keeps its comments, order and style.
func TestEditKeepsTheFile(t *testing.T) {
	orig, err := os.ReadFile("../examples/site.yaml")
	require.NoError(t, err)

	added := editOf(t, orig, func(c *Config) { c.Ports = append(c.Ports, Port{Port: 3, Speed: "100G"}) })
	assert.Contains(t, string(added), "  - {port: 14, speed: 100G}\n  - {port: 3, speed: 100G}\n")
	assert.Equal(t, comments(orig), comments(added))
	back := editOf(t, added, func(c *Config) {
		for i, p := range c.Ports {
			if p.Port == 3 {
				c.Ports = append(c.Ports[:i], c.Ports[i+1:]...)
				break
			}
		}
	})
	assert.Equal(t, string(orig), string(back), "port add 3 + port del 3 is byte-identical")

	// A changed value in a commented block: only its line changes, its
	// comment stays.
	out := editOf(t, orig, func(c *Config) { c.Profiles[0].Interval = Duration(50e6) })
	assert.Contains(t, string(out), "    interval: 50ms         # one keep-alive per filter per interval\n")
	assert.Equal(t, comments(orig), comments(out))
	assert.Equal(t, strings.Count(string(orig), "\n"), strings.Count(string(out), "\n"))

	// Removing an object removes its lines only.
	out = editOf(t, orig, func(c *Config) { c.Rules = c.Rules[1:] })
	assert.NotContains(t, string(out), "name: bgp")
	assert.Contains(t, string(out), "# Catch-all: whatever no rule above sent to the filters bypasses them.")
}

// TestEditNewKeyBeforeAChangedOne: a key the edit adds goes where the
// model writes it (match after priority), also when the key after it
// changes in the same edit.
func TestEditNewKeyBeforeAChangedOne(t *testing.T) {
	orig, err := os.ReadFile("../examples/site.yaml")
	require.NoError(t, err)
	last := func(c *Config) *Rule { return &c.Rules[len(c.Rules)-1] }
	udp := IPProto(17)
	out := editOf(t, orig, func(c *Config) {
		last(c).Match = Match{Proto: &udp}
		last(c).Action = "balance group_filter"
	})
	assert.True(t, strings.HasSuffix(string(out),
		"  # Catch-all: whatever no rule above sent to the filters bypasses them.\n  - name: default\n    priority: 1\n    match:\n      proto: udp\n    action: balance group_filter\n"),
		"%s", out)
	back := editOf(t, out, func(c *Config) {
		last(c).Match = Match{}
		last(c).Action = "bypass"
	})
	assert.Equal(t, string(orig), string(back))
}
