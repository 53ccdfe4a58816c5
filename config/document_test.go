package config

import (
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocumentEdit: an edit made from a Document (the text parsed once,
// unchanged top-level keys not encoded again) writes the same bytes as
// Edit, and Decode hands out copies that share nothing.
func TestDocumentEdit(t *testing.T) {
	orig, err := os.ReadFile("../examples/site.yaml")
	require.NoError(t, err)
	changes := map[string]func(c *Config){
		"nothing":        func(c *Config) {},
		"cores":          func(c *Config) { c.FilterGroups[0].Cores = 12 },
		"add port":       func(c *Config) { c.Ports = append(c.Ports, Port{Port: 3, Speed: "100G"}) },
		"delete rule":    func(c *Config) { c.Rules = slices.Delete(c.Rules, 1, 2) },
		"profile":        func(c *Config) { c.Profiles[0].LossThreshold = 7 },
		"site name":      func(c *Config) { c.Site = "other" },
		"drop defaults":  func(c *Config) { c.Defaults = Defaults{} },
		"balance member": func(c *Config) { c.BalanceGroups[0].Members = c.BalanceGroups[0].Members[:2] },
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			doc, err := ReadDocument(orig)
			require.NoError(t, err)
			c := doc.Decode()
			change(c)
			whole, err := Decode(orig)
			require.NoError(t, err)
			change(whole)
			want, err := Edit(orig, whole)
			require.NoError(t, err)
			got, err := doc.Edit(c)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
			// The document is not changed by an edit: a second one
			// from it starts from the same file.
			again, err := doc.Edit(doc.Decode())
			require.NoError(t, err)
			assert.Equal(t, string(orig), string(again))
		})
	}
}

// TestCloneSharesNothing: a change to a clone's lists and pointed-to
// values leaves the original as it was.
func TestCloneSharesNothing(t *testing.T) {
	orig, err := os.ReadFile("../examples/site.yaml")
	require.NoError(t, err)
	c, err := Decode(orig)
	require.NoError(t, err)
	before, err := c.Marshal()
	require.NoError(t, err)
	cl := c.Clone()
	require.Equal(t, c, cl)
	cl.Ports[0].Speed = "40G"
	cl.BalanceGroups[0].Members[0] = "X"
	*cl.Rules[0].Match.Proto = 17
	cl.Rules[3].Match.VLAN[0].Lo = 7
	cl.ApplyDefaults()
	after, err := c.Marshal()
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after))
}
