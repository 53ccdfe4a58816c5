package config_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
)

func TestDecodeEmptyDocuments(t *testing.T) {
	for _, doc := range []string{"", "---\n", "# only a comment\n", "null\n", "---\n# c\n...\n", "~\n"} {
		c, err := config.Decode([]byte(doc))
		require.NoError(t, err, "%q", doc)
		assert.Empty(t, c.Links, "%q", doc)
		assert.Empty(t, c.FilterGroups, "%q", doc)
	}
}

func TestDecodeKeepsWhatWasWritten(t *testing.T) {
	c, err := config.Decode([]byte("filter_groups: [{name: F1, lan: P2, wan: P1}]\n"))
	require.NoError(t, err)
	assert.Zero(t, c.FilterGroups[0].Cores, "no default applied")
	assert.Nil(t, c.FilterGroups[0].ID)
	assert.Empty(t, c.Profiles, "no built-in profile added")
}

func TestDecodeRefuses(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		kind error
		want string
	}{
		{"explicit zero cores", "defaults: {cores: 0}\n", config.ErrOutOfRange, "defaults.cores: 0 is out of range 1..1024 cores"},
		{"explicit zero slot bits", "balance_groups: [{name: g, members: [F1], slot_bits: 0}]\n", config.ErrOutOfRange, "balance_groups[0].slot_bits: 0 is out of range 1..16 bits"},
		{"explicit zero interval", "profiles: [{name: p, interval: 0s}]\n", config.ErrOutOfRange, "profiles[0].interval: 0 is out of range 10ms..60s"},
		{"explicit zero initial delay", "profiles: [{name: p, initial_delay: 0s}]\n", config.ErrOutOfRange, "profiles[0].initial_delay: 0 is out of range 10ms..10m"},
		{"explicit zero tpid", "filter_groups: [{name: F1, lan: P2, wan: P1, tpid: 0x0}]\n", config.ErrOutOfRange, "filter_groups[0].tpid: 0 is out of range 0x0001..0xFFFF"},
		{"fraction", "rules: [{name: r, priority: 1000.5, action: bypass}]\n", config.ErrSyntax, "rules[0].priority: 1000.5 is not a whole number"},
		{"fraction in port_map", "port_map: {P1: 1.5}\n", config.ErrSyntax, `port_map["P1"]: 1.5 is not a whole number`},
		{"NUL", "site: a\x00b\n", config.ErrEncoding, "line 1 column 8: control character U+0000 (NUL) is not allowed"},
		{"lone CR", "site: a\rb\n", config.ErrEncoding, "control character U+000D (CR) is not allowed"},
		{"escaped ESC", "site: \"a\\eb\"\n", config.ErrEncoding, "site: holds control character U+001B (ESC)"},
		{"escaped bidi in a name", "links: [{name: \"L\\u202e1\", lan: P2, wan: P1}]\n", config.ErrEncoding, "links[0].name: holds control character U+202E (RIGHT-TO-LEFT OVERRIDE)"},
		{"invalid UTF-8", "site: \xc3\x28\n", config.ErrEncoding, "line 1 column 7: byte 0xc3 is not UTF-8"},
		{"too large", "site: x\n#" + strings.Repeat("x", config.MaxConfigBytes), config.ErrTooLarge, "the limit is 1 MiB (1048576 bytes)"},
		{"type error", "links:\n  - name: L1\n    id: first\n", config.ErrDecode, `line 3: links[0].id: "first" is text; want a whole number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := config.Decode([]byte(tt.doc))
			require.Error(t, err)
			assert.Nil(t, c)
			assert.True(t, errors.Is(err, tt.kind), "%v", err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestDecodeAllowsCRLF(t *testing.T) {
	c, err := config.Decode([]byte("site: a\r\nplatform: sim\r\n"))
	require.NoError(t, err)
	assert.Equal(t, "a", c.Site)
}

func TestValidateBounds(t *testing.T) {
	c, err := config.Parse([]byte("site: x\n"))
	require.NoError(t, err)
	c.Site = strings.Repeat("s", config.MaxSiteLen+1)
	assert.ErrorContains(t, c.Validate(), "site: site is 129 bytes; the limit is 128")
	c.Site = "ok"
	c.Profiles[0].Name = strings.Repeat("n", config.MaxNameLen+1)
	assert.ErrorContains(t, c.Validate(), "the limit is 64")
	assert.ErrorIs(t, config.CheckText("comment", "a\u202eb", config.MaxCommentBytes), config.ErrEncoding)
	assert.NoError(t, config.CheckText("comment", "ticket 4711: äöü", config.MaxCommentBytes))
}
