package main

import (
	"context"
	"strings"
	"time"

	"github.com/spf13/cobra"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/config"
)

// completionTimeout bounds the daemon call of a completion: a shell
// waits for it at every TAB.
const completionTimeout = 2 * time.Second

// enumFlags are the flags whose values are a fixed set, for completion.
var enumFlags = map[string][]string{
	"side":           {"lan", "wan"},
	"failure-action": {"bypass", "drop", "rebalance"},
	"probe":          {"lan-to-wan", "both"},
	"stall-guard":    {"hold", "off"},
	"speed":          {"10G", "25G", "40G", "50G", "100G"},
	"breakout":       {"4"},
	"output":         {outTable, "json", "yaml"},
}

// objectNames lists the running configuration's objects of a kind (by
// the command group's name), or nothing when the daemon does not answer.
func (a *app) objectNames(kind string) []string {
	cl, err := a.client()
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), completionTimeout)
	defer cancel()
	r, err := cl.GetConfig(ctx, &apiv1.GetConfigRequest{})
	if err != nil {
		return nil
	}
	c, err := config.Parse([]byte(r.GetYaml()))
	if err != nil {
		return nil
	}
	var out []string
	switch kind {
	case "link":
		for _, l := range c.Links {
			out = append(out, l.Name)
		}
	case "filter-group":
		for _, f := range c.FilterGroups {
			out = append(out, f.Name)
		}
	case "balance-group", "slots":
		for _, b := range c.BalanceGroups {
			out = append(out, b.Name)
		}
	case "profile":
		for _, p := range c.Profiles {
			out = append(out, p.Name)
		}
	case "rule":
		for _, r := range c.Rules {
			out = append(out, r.Name)
		}
	case "port":
		for _, p := range c.Ports {
			out = append(out, itoaPort(p.Port))
		}
	case "revision":
		h, err := cl.History(ctx, &apiv1.HistoryRequest{})
		if err != nil {
			return nil
		}
		for _, rev := range h.GetRevisions() {
			out = append(out, itoaPort(uint32(rev.GetNumber())))
		}
	}
	return out
}

func itoaPort(p uint32) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + p%10)}, b...)
		p /= 10
		if p == 0 {
			return string(b)
		}
	}
}

// addCompletions completes, across the command tree: the object an
// object command names (link del L<TAB>, rule set <TAB>), --group and
// --link with filter group and link names, a revision for config
// show/diff/rollback and --revision, and the enum flags' values.
func addCompletions(root *cobra.Command, a *app) {
	names := func(kind string) cobra.CompletionFunc {
		return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return a.objectNames(kind), cobra.ShellCompDirectiveNoFileComp
		}
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		parent := ""
		if c.HasParent() {
			parent = c.Parent().Name()
		}
		switch {
		case parent == "config" && (c.Name() == "show" || c.Name() == "diff" || c.Name() == "rollback"):
			c.ValidArgsFunction = names("revision")
		case c.Name() != "add" && c.Name() != "list" && strings.HasPrefix(c.Use, c.Name()+" ") && parent != "config" && parent != "" && c.ValidArgsFunction == nil:
			c.ValidArgsFunction = names(parent)
		case c.Name() == "slots":
			c.ValidArgsFunction = names("slots")
		}
		for flag, vals := range enumFlags {
			if c.Flags().Lookup(flag) != nil {
				vs := vals
				_ = c.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(vs, cobra.ShellCompDirectiveNoFileComp))
			}
		}
		for flag, kind := range map[string]string{"group": "filter-group", "link": "link", "revision": "revision", "profile": "profile"} {
			if c.Flags().Lookup(flag) != nil {
				_ = c.RegisterFlagCompletionFunc(flag, names(kind))
			}
		}
		if c.Flags().Lookup("action") != nil {
			_ = c.RegisterFlagCompletionFunc("action", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
				out := []string{"bypass"}
				for _, g := range a.objectNames("balance-group") {
					out = append(out, "balance:"+g)
				}
				return out, cobra.ShellCompDirectiveNoFileComp
			})
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
