package main

import (
	"cmp"
	"slices"

	"github.com/dpi-balancer/balancer/cmd/balancer/internal/cli"
	"github.com/dpi-balancer/balancer/config"
)

// Exit codes.
const (
	exitOK    = cli.ExitOK
	exitError = cli.ExitError
	exitUsage = cli.ExitUsage
)

// ruleByName is the rule of c named name, nil when there is none.
func ruleByName(c *config.Config, name string) *config.Rule {
	for i := range c.Rules {
		if c.Rules[i].Name == name {
			return &c.Rules[i]
		}
	}
	return nil
}

// ruleNames are the names of c's rules, in the order of the file.
func ruleNames(c *config.Config) []string {
	var out []string
	for _, r := range c.Rules {
		out = append(out, r.Name)
	}
	return out
}

// sortRules orders rules as the switch matches them: higher priority
// first, a tie in the order of the file.
func sortRules(rs []config.Rule) {
	slices.SortStableFunc(rs, func(a, b config.Rule) int { return cmp.Compare(b.Priority, a.Priority) })
}

// versionInfo is what balancer version -o json prints.
type versionInfo = cli.VersionInfo
