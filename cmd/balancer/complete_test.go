package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/cmd/balancer/internal/cli"
	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/config/matchexpr"
	"github.com/dpi-balancer/balancer/daemon/pipeline"
)

// completeSite is testSite with two filter groups in no balance group
// (for --members and balance-group member add).
var completeSite = strings.Replace(strings.Replace(testSite,
	"  - {port: 14, speed: 100G}\n", "  - {port: 14, speed: 100G}\n  - {port: 15, speed: 100G}\n  - {port: 16, speed: 100G}\n  - {port: 17, speed: 100G}\n  - {port: 18, speed: 100G}\n", 1),
	"  - {name: F3, lan: P14, wan: P13, cores: 4}\n", "  - {name: F3, lan: P14, wan: P13, cores: 4}\n  - {name: F4, lan: P16, wan: P15}\n  - {name: F5, lan: P18, wan: P17}\n", 1)

// completion is what `balancer __complete ARGS` offers: the values, their
// descriptions and the shell directive.
type completion struct {
	values, descs []string
	directive     cobra.ShellCompDirective
}

func (e *env) complete(args ...string) completion {
	e.t.Helper()
	out := e.ok(append([]string{"__complete"}, args...)...)
	var c completion
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.True(e.t, strings.HasPrefix(lines[len(lines)-1], ":"), "the last line is the directive: %q", out)
	d, err := strconv.Atoi(strings.TrimPrefix(lines[len(lines)-1], ":"))
	require.NoError(e.t, err)
	c.directive = cobra.ShellCompDirective(d)
	for _, l := range lines[:len(lines)-1] {
		v, desc, _ := strings.Cut(l, "\t")
		c.values = append(c.values, v)
		c.descs = append(c.descs, desc)
	}
	return c
}

// useArgs are the argument placeholders of a command's Use line, up to
// its first flag: "set NAME [--prio N]" gives NAME.
func useArgs(c *cobra.Command) []string {
	var out []string
	for _, w := range strings.Fields(c.Use)[1:] {
		if strings.HasPrefix(w, "-") || strings.HasPrefix(w, "[-") || strings.HasPrefix(w, "(") {
			break
		}
		out = append(out, strings.Trim(w, "[]."))
	}
	return out
}

// Argument placeholders: the ones that name an object or an enum (their
// completion must offer something against the test site), and the ones
// that take free text, a new name or a file.
var (
	objectArgs = []string{"NAME", "PORT", "GROUP", "FILTER-GROUP", "BALANCE-GROUP", "REVISION", "PROTO", "on|off"}
	freeArgs   = []string{"SRC", "DST", "FILE"}
)

// TestCompletionCoversEveryCommand walks the whole command tree: every
// command that runs completes its arguments (nothing offered for a
// command without any, never the shell's file names by default), every
// flag that takes a value has a completion, every argument that names an
// object or an enum, and every flag whose value does, offers something
// from the running daemon or the enum. A command or flag added later
// without its completion fails here.
func TestCompletionCoversEveryCommand(t *testing.T) {
	e := newEnvSite(t, completeSite)
	e.ok("link", "set", "L1", "--lan", "P42", "--comment", "a second revision")
	root, tables := cli.NewRoot(extras()...)
	args, flags := tables.Args, tables.Flags
	leaves := map[string]bool{}
	seenFlags := map[string]bool{}

	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		path := strings.TrimPrefix(c.CommandPath(), "balancer ")
		check := func(f *pflag.Flag) {
			seenFlags[f.Name], seenFlags[path+" --"+f.Name] = true, true
			if f.Value.Type() == "bool" {
				return
			}
			if _, ok := c.GetFlagCompletionFunc(f.Name); !ok {
				t.Errorf("%s --%s takes a value but completes nothing: say what completes it in flagCompletions (freeFlags for free text, fileFlags for a path), or in its Extra's Completions", c.CommandPath(), f.Name)
				return
			}
			if slices.Contains(tables.FreeFlags, f.Name) || slices.Contains(tables.FileFlags, f.Name) || slices.Contains(tables.DirFlags, f.Name) {
				return
			}
			words := strings.Fields(path)
			if c == root {
				words = []string{"status"}
			}
			got := e.complete(append(words, "--"+f.Name, "")...)
			assert.NotEmpty(t, got.values, "%s --%s <TAB> offers nothing", c.CommandPath(), f.Name)
			assert.NotEqual(t, cobra.ShellCompDirectiveDefault, got.directive, "%s --%s <TAB> offers file names", c.CommandPath(), f.Name)
		}
		c.LocalFlags().VisitAll(check)
		if c.HasSubCommands() {
			return
		}
		leaves[path] = true
		if c.ValidArgsFunction == nil {
			t.Errorf("%s completes no arguments (the shell would offer file names): say what completes them in argCompletions, or in its Extra's Completions (nil when it takes none, none for a new name)", c.CommandPath())
			return
		}
		var prior []string
		for i, w := range useArgs(c) {
			got := e.complete(append(append(strings.Fields(path), prior...), "")...)
			switch {
			case w == "NAME" && c.Name() == "add", slices.Contains(freeArgs, w):
				prior = append(prior, "x")
				continue
			case !slices.Contains(objectArgs, w):
				t.Errorf("%s: argument %d %s is neither an object, an enum nor free text: add it to objectArgs or freeArgs", c.CommandPath(), i+1, w)
				continue
			}
			if assert.NotEmpty(t, got.values, "%s: argument %d %s <TAB> offers nothing", c.CommandPath(), i+1, w) {
				prior = append(prior, got.values[0])
			}
		}
		if n := len(useArgs(c)); n > 0 {
			over := make([]string, n)
			for i := range over {
				over[i] = "x"
			}
			got := e.complete(append(append(strings.Fields(path), over...), "")...).values
			// (cobra offers the required flags not given yet.)
			assert.Empty(t, slices.DeleteFunc(got, func(v string) bool { return strings.HasPrefix(v, "--") }), "%s: nothing past its %d arguments", c.CommandPath(), n)
		}
	}
	walk(root)

	// The tables name only what exists.
	for path := range args {
		assert.True(t, leaves[path], "argCompletions names %q, which is no command", path)
	}
	for name := range flags {
		assert.True(t, seenFlags[name], "flagCompletions names %q, which no command has", name)
	}
}

// TestCompletionOffers: what TAB offers, from the running daemon and the
// enums.
func TestCompletionOffers(t *testing.T) {
	e := newEnvSite(t, completeSite)
	e.ok("rule", "set", "bgp", "--action", "balance:group_filter", "--comment", "bgp through the filters")
	protocols := config.ProtoNames()
	withHead := func(head string, words ...string) []string {
		out := make([]string, len(words))
		for i, w := range words {
			out[i] = head + w
		}
		return out
	}
	keywords := matchexpr.Keywords()
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"link", "set", ""}, []string{"L1", "L2"}},
		{[]string{"link", "set", "L1", ""}, nil},
		{[]string{"link", "add", ""}, []string{"--lan", "--wan"}}, // a new name; cobra offers the required flags
		{[]string{"link", "add", "L3", "--lan", ""}, []string{"P44"}},
		{[]string{"link", "add", "L3", "--wan", ""}, []string{"P43"}},
		{[]string{"link", "add", "L3", "--ignore-parity", "--lan", ""}, []string{"P43", "P44"}},
		{[]string{"filter-group", "set", "F1", "--wan", ""}, []string{"P43"}},
		{[]string{"filter-group", "show", ""}, []string{"F1", "F2", "F3", "F4", "F5"}},
		{[]string{"port", "show", ""}, []string{"P1", "P2", "P41", "P42", "P43", "P44", "P9", "P10", "P11", "P12", "P13", "P14", "P15", "P16", "P17", "P18"}},
		{[]string{"port", "del", ""}, []string{"4", "9", "10", "1", "2", "11", "12", "13", "14", "15", "16", "17", "18"}},
		{[]string{"port", "add", ""}, []string{"--speed", "3", "5", "6", "7", "8", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31", "32"}},
		{[]string{"port", "add", "5", "--speed", ""}, config.Speeds},
		{[]string{"port", "add", "5", "--fec", ""}, []string{"none", "fc", "rs"}},
		{[]string{"port", "add", "5", "--breakout", ""}, []string{"4"}},
		{[]string{"port", "set", "4", "--breakout", ""}, []string{"0", "4"}},
		{[]string{"balance-group", "member", "add", ""}, []string{"group_filter"}},
		{[]string{"balance-group", "member", "add", "group_filter", ""}, []string{"F4", "F5"}},
		{[]string{"balance-group", "member", "del", "group_filter", ""}, []string{"F1", "F2", "F3"}},
		{[]string{"balance-group", "member", "del", "nosuch", ""}, nil},
		{[]string{"balance-group", "add", "g2", "--members", ""}, []string{"F4", "F5"}},
		{[]string{"balance-group", "add", "g2", "--members", "F5,"}, []string{"F5,F4"}},
		{[]string{"balance-group", "set", "group_filter", "--failure-action", ""}, []string{"bypass", "drop", "rebalance", "spare"}},
		{[]string{"balance-group", "set", "group_filter", "--profile", ""}, []string{"default"}},
		{[]string{"profile", "set", ""}, []string{"default"}},
		{[]string{"profile", "add", "p", "--probe", ""}, []string{"lan-to-wan", "both"}},
		{[]string{"profile", "add", "p", "--stall-guard", ""}, []string{"hold", "off"}},
		{[]string{"rule", "set", ""}, []string{"bgp", "vlan-balanced", "default"}},
		{[]string{"rule", "move", "bgp", ""}, []string{"--prio"}},
		{[]string{"rule", "set", "bgp", "--action", ""}, []string{"bypass", "balance:group_filter"}},
		{[]string{"rule", "set", "bgp", "--link", ""}, []string{"L1", "L2", "all"}},
		{[]string{"rule", "add", "x", "--match", ""}, append(slices.Clone(keywords), "any")},
		{[]string{"rule", "add", "x", "--match", "proto "}, withHead("proto ", protocols...)},
		{[]string{"rule", "add", "x", "--match", "vlan 5 "}, withHead("vlan 5 ", slices.DeleteFunc(slices.Clone(keywords), func(k string) bool { return k == "vlan" })...)},
		{[]string{"rule", "add", "x", "--match", "vlan "}, nil},
		{[]string{"rule", "add", "x", "--match", "any "}, nil},
		{[]string{"rule", "set", "bgp", "--not", "src 10.0.0.0/8,vlan_depth "}, withHead("src 10.0.0.0/8,vlan_depth ", "0", "1", "2", "3")},
		{[]string{"bypass", ""}, []string{"on", "off"}},
		{[]string{"bypass", "on", "--group", ""}, []string{"F1", "F2", "F3", "F4", "F5"}},
		{[]string{"monitor", "--object", ""}, []string{"F1", "F2", "F3", "F4", "F5", "all"}},
		{[]string{"slots", ""}, []string{"group_filter"}},
		{[]string{"locate", "10.0.0.1", "10.0.0.2", ""}, protocols},
		{[]string{"trace", "--proto", ""}, protocols},
		{[]string{"trace", "--link", ""}, []string{"L1", "L2"}},
		{[]string{"trace", "--side", ""}, []string{"lan", "wan"}},
		{[]string{"config", "rollback", ""}, []string{"1", "2"}},
		{[]string{"config", "diff", "1", ""}, []string{"1", "2"}},
		{[]string{"config", "diff", "1", "2", ""}, nil},
		{[]string{"config", "show", "1", ""}, nil},
		{[]string{"config", "export", "--revision", ""}, []string{"1", "2"}},
		{[]string{"status", "-o", ""}, []string{"table", "json", "yaml"}},
		{[]string{"status", ""}, nil},
		{[]string{"counters", "--rate", ""}, nil},
		{[]string{"daemon", "--log-level", ""}, []string{"debug", "info", "warn", "error"}},
		{[]string{"sim", "--log-level", ""}, []string{"debug", "info", "warn", "error"}},
		{[]string{"daemon", "--store", ""}, []string{"dir", "etcd"}},
		{[]string{"daemon", "--ha-on-quorum-loss", ""}, []string{"hold", "step-down"}},
		{[]string{"daemon", "--pipeline-format", ""}, pipeline.Formats()},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			got := e.complete(tt.args...)
			assert.Equal(t, tt.want, got.values)
			assert.Equal(t, cobra.ShellCompDirectiveNoFileComp, got.directive&cobra.ShellCompDirectiveNoFileComp, "no file names")
		})
	}

	// Revisions come with their comments.
	got := e.complete("config", "rollback", "")
	assert.Equal(t, []string{"initial configuration", "bgp through the filters"}, got.descs)
	// A list of members goes on: no space after a name.
	assert.NotZero(t, e.complete("balance-group", "add", "g2", "--members", "").directive&cobra.ShellCompDirectiveNoSpace)
	// Files where a file is wanted.
	for _, args := range [][]string{{"config", "check", ""}, {"config", "apply", "-f", ""}, {"--tls-ca", ""}, {"daemon", "--config", ""}} {
		assert.Equal(t, cobra.ShellCompDirectiveDefault, e.complete(args...).directive, "%v", args)
	}
	assert.Equal(t, cobra.ShellCompDirectiveFilterDirs, e.complete("daemon", "--state-dir", "").directive)
}

// Without a daemon, TAB offers no names and says nothing: the shell must
// not print errors at every TAB.
func TestCompletionWithoutDaemon(t *testing.T) {
	for _, args := range [][]string{{"link", "del", ""}, {"config", "rollback", ""}, {"rule", "add", "x", "--action", ""}} {
		r := runCLI(t, "", append([]string{"--socket", "/nonexistent", "--timeout", "1s", "__complete"}, args...)...)
		require.Equal(t, exitOK, r.code, r.stderr)
		assert.Equal(t, fmt.Sprintf(":%d\n", cobra.ShellCompDirectiveNoFileComp), r.stdout, "%v", args)
	}
}
