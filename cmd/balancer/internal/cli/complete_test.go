package cli

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
)

// The client's own tables complete every argument and every flag of its
// commands, with no Extra added: none of them relies on the daemon's or
// the software switch's (the binary's whole tree is checked by
// TestCompletionCoversEveryCommand).
func TestClientCompletesItsOwnCommands(t *testing.T) {
	root, tables := NewRoot()
	seen := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		switch c.Name() {
		case "help", "completion":
			return // cobra's
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			seen[f.Name], seen[strings.TrimPrefix(c.CommandPath(), "balancer ")+" --"+f.Name] = true, true
			if f.Value.Type() == "bool" {
				return
			}
			_, ok := c.GetFlagCompletionFunc(f.Name)
			assert.True(t, ok, "%s --%s completes nothing without the Extras", c.CommandPath(), f.Name)
		})
		if !c.HasSubCommands() {
			assert.NotNil(t, c.ValidArgsFunction, "%s completes no arguments without the Extras", c.CommandPath())
		}
	}
	walk(root)
	for name := range tables.Flags {
		assert.True(t, seen[name], "the client's tables name --%s, which none of its commands has", name)
	}
	for _, f := range []string{"store", "pipeline-format", "ha-on-quorum-loss", "state-dir", "etcd-endpoints", "p4rt"} {
		assert.NotContains(t, tables.Flags, f, "the daemon's and sim's flags are their Extras'")
	}
}
