package cli

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/config/matchexpr"
)

// completionTimeout bounds the daemon call of a completion: a shell
// waits for it at every TAB.
const completionTimeout = 2 * time.Second

// Completion: every command says what completes each of its arguments,
// and every flag that takes a value says what completes it, so that TAB
// never offers file names where an object, an enum value or nothing is
// wanted. A command or flag the tables below do not name gets no
// completion, and TestCompletionCoversEveryCommand fails: a new one
// cannot be forgotten.

// none offers nothing (a new name, a number, free text).
var none cobra.CompletionFunc = cobra.NoFileCompletions

// files offers the shell's file names.
func files(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveDefault
}

// dirs offers the shell's directory names.
func dirs(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveFilterDirs
}

// fixed offers a fixed set of values.
func fixed[T ~string](values ...T) cobra.CompletionFunc {
	out := make([]cobra.Completion, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return cobra.FixedCompletions(out, cobra.ShellCompDirectiveNoFileComp)
}

// protocols offers the IP protocol names.
var protocols = fixed(config.ProtoNames()...)

// freeFlags take values no list holds (numbers, durations, addresses,
// text): they complete nothing. (An Extra lists its own flags.)
var freeFlags = []string{
	// root and CLI
	"addr", "timeout", "comment", "id", "cores", "tpid", "mtu", "slot-bits", "prio",
	"interval", "loss-threshold", "recovery-threshold", "min-active", "initial-delay", "stall-hold", "min-up-time",
	"max-rtt", "rtt-rounds", "max-loss", "loss-window", "probe-every", "probe-payload", "probe-payload-hex",
	"rate", "replay", "history", "node-id", "confirm",
	// trace
	"vlan", "mpls", "src", "dst", "src-mac", "dst-mac", "ethertype", "sport", "dport",
}

// fileFlags take a file's path.
var fileFlags = []string{"socket", "tls-cert", "tls-key", "tls-ca", "file"}

// dirFlags take a directory's path.
var dirFlags = []string{}

// flagCompletions says what completes each flag that takes a value, by
// its name; "command path --flag" keys (below "balancer") say it for one
// command where a name means something else there. The free, file and
// directory flags are added to it (completions).
func (a *app) flagCompletions() map[string]cobra.CompletionFunc {
	m := map[string]cobra.CompletionFunc{
		"output":           fixed(outTable, outJSON, outYAML),
		"speed":            fixed(config.Speeds...),
		"fec":              fixed(config.FECs...),
		"failure-action":   fixed(failureActions...),
		"probe":            fixed(probeDirections...),
		"stall-guard":      fixed(stallGuards...),
		"failback":         fixed(failbacks...),
		"return":           fixed(sessionReturns...),
		"fail-open-action": a.failOpenActions(),
		"side":             fixed("lan", "wan"),
		"proto":            protocols,

		"port add --breakout": fixed("4"),
		"port set --breakout": fixed("0", "4"),
		"group":               a.fromConfig(filterGroupNames),
		"members":             a.memberList(),
		"spares":              a.memberList(),
		"profile":             a.fromConfig(profileNames),
		"revision":            a.revisions(),
		"action":              a.actions(),
		"match":               matchExpr,
		"not":                 matchExpr,
		"lan":                 a.freePorts(config.SideLAN),
		"wan":                 a.freePorts(config.SideWAN),
		"object":              a.fromConfig(func(c *config.Config) []string { return append(filterGroupNames(c), "all") }),
		"trace --link":        a.fromConfig(linkNames),
		"rule add --link":     a.fromConfig(ruleLinks),
		"rule set --link":     a.fromConfig(ruleLinks),
	}
	return m
}

// argCompletions says what completes each argument of every command
// (below "balancer"), one function per position: none for a new name,
// nothing for a command without arguments.
func (a *app) argCompletions() map[string][]cobra.CompletionFunc {
	var (
		links         = a.fromConfig(linkNames)
		filterGroups  = a.fromConfig(filterGroupNames)
		balanceGroups = a.fromConfig(balanceGroupNames)
		profiles      = a.fromConfig(profileNames)
		rules         = a.fromConfig(ruleNames)
		ports         = a.fromConfig(portNumbers)
		revisions     = a.revisions()
	)
	return map[string][]cobra.CompletionFunc{
		"port list": nil, "port show": {a.fromConfig(portLabels)}, "port add": {a.fromConfig(undefinedPorts)},
		"port set": {ports}, "port del": {ports},
		"link add": {none}, "link set": {links}, "link del": {links}, "link list": nil,
		"filter-group add": {none}, "filter-group set": {filterGroups}, "filter-group del": {filterGroups},
		"filter-group list": nil, "filter-group show": {filterGroups}, "filter-group return": {filterGroups},
		"balance-group add": {none}, "balance-group set": {balanceGroups}, "balance-group del": {balanceGroups},
		"balance-group list":       nil,
		"balance-group member add": {balanceGroups, a.fromArgs(nonMembers)},
		"balance-group member del": {balanceGroups, a.fromArgs(members)},
		"profile add":              {none}, "profile set": {profiles}, "profile del": {profiles}, "profile list": nil,
		"rule add": {none}, "rule set": {rules}, "rule del": {rules}, "rule move": {rules}, "rule list": nil,
		"bypass": {fixed("on", "off")},
		"status": nil, "counters": nil, "slots": {balanceGroups}, "trace": nil, "locate": {none, none, protocols},
		"config show": {revisions}, "config export": nil, "config apply": nil, "config check": {files},
		"config diff": {revisions, revisions}, "config rollback": {revisions}, "config history": nil,
		"config session start": nil, "config session diff": nil, "config session commit": nil, "config session abort": nil, "config session rebase": nil,
		"config confirm":        nil,
		"switch chassis-config": nil, "version": nil, "monitor": nil,
		"alarm list": nil, "alarm ack": {fixed(apiv1.AlarmNames...)},
	}
}

// addCompletions sets every command's argument completion and registers
// every flag's from the tables (the ones above and the Extras').
func addCompletions(root *cobra.Command, t Completions) {
	args, flags := t.Args, t.Flags
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		path := strings.TrimPrefix(c.CommandPath(), root.Name()+" ")
		if fns, ok := args[path]; ok && !c.HasSubCommands() {
			c.ValidArgsFunction = positional(fns)
		}
		register := func(f *pflag.Flag) {
			if f.Value.Type() == "bool" {
				return
			}
			fn, ok := flags[path+" --"+f.Name]
			if !ok {
				fn, ok = flags[f.Name]
			}
			if ok {
				// Each flag is registered once: by the command that
				// defines it (a persistent one serves its children).
				_ = c.RegisterFlagCompletionFunc(f.Name, fn)
			}
		}
		c.LocalNonPersistentFlags().VisitAll(register)
		c.PersistentFlags().VisitAll(register)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// positional completes argument i with fns[i], and nothing past them.
func positional(fns []cobra.CompletionFunc) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) >= len(fns) {
			return none(cmd, args, toComplete)
		}
		return fns[len(args)](cmd, args, toComplete)
	}
}

// completionConfig reads the running configuration for a completion: nil
// when the daemon does not answer (nothing is offered then).
func (a *app) completionConfig() *config.Config {
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
	return c
}

// fromConfig offers what names finds in the running configuration.
func (a *app) fromConfig(names func(c *config.Config) []string) cobra.CompletionFunc {
	return a.fromArgs(func(c *config.Config, _ *cobra.Command, _ []string) []string { return names(c) })
}

// fromArgs offers what names finds in the running configuration for the
// command line so far.
func (a *app) fromArgs(names func(c *config.Config, cmd *cobra.Command, args []string) []string) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		c := a.completionConfig()
		if c == nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return names(c, cmd, args), cobra.ShellCompDirectiveNoFileComp
	}
}

// revisions offers the saved revisions, each with its comment.
func (a *app) revisions() cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		cl, err := a.client()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		ctx, cancel := context.WithTimeout(context.Background(), completionTimeout)
		defer cancel()
		h, err := cl.History(ctx, &apiv1.HistoryRequest{})
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []cobra.Completion
		for _, rev := range h.GetRevisions() {
			out = append(out, cobra.CompletionWithDesc(strconv.FormatUint(rev.GetNumber(), 10), rev.GetComment()))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// actions offers bypass and balance:GROUP for every balance group.
func (a *app) actions() cobra.CompletionFunc {
	return a.fromConfig(func(c *config.Config) []string {
		out := []string{"bypass"}
		for _, g := range balanceGroupNames(c) {
			out = append(out, "balance:"+g)
		}
		return out
	})
}

// ruleLinks are the values of a rule's --link: a link, or all of them.
func ruleLinks(c *config.Config) []string { return append(linkNames(c), config.AllLinks) }

// memberList completes --members F1,F2: the filter groups of no balance
// group, after those already written.
func (a *app) memberList() cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		c := a.completionConfig()
		if c == nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		written := strings.Split(toComplete, ",")
		head := strings.Join(written[:len(written)-1], ",")
		if head != "" {
			head += ","
		}
		var out []cobra.Completion
		for _, f := range nonMembers(c, cmd, nil) {
			if !slices.Contains(written[:len(written)-1], f) {
				out = append(out, head+f)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
}

// nonMembers are the filter groups no balance group has (a filter group
// is a member of one at most).
func nonMembers(c *config.Config, _ *cobra.Command, _ []string) []string {
	var out []string
	for _, f := range c.FilterGroups {
		if c.BalanceGroupOf(f.Name) == nil {
			out = append(out, f.Name)
		}
	}
	return out
}

// members are the members of the balance group args[0].
func members(c *config.Config, _ *cobra.Command, args []string) []string {
	if b := c.BalanceGroupByName(args[0]); b != nil {
		return b.Members
	}
	return nil
}

// portNumbers are the defined front-panel ports, as port set and del take
// them.
func portNumbers(c *config.Config) []string {
	var out []string
	for _, p := range c.Ports {
		out = append(out, strconv.FormatUint(uint64(p.Port), 10))
	}
	return out
}

// undefinedPorts are the front-panel ports port add can still define.
func undefinedPorts(c *config.Config) []string {
	var out []string
	for p := uint32(config.MinPort); p <= config.MaxPort; p++ {
		if !slices.ContainsFunc(c.Ports, func(d config.Port) bool { return d.Port == p }) {
			out = append(out, strconv.FormatUint(uint64(p), 10))
		}
	}
	return out
}

// portLabels are the names of the defined ports and lanes (P9, P41).
func portLabels(c *config.Config) []string {
	var out []string
	for _, v := range PortViews(c, nil) {
		out = append(out, v.Name)
	}
	return out
}

// freePorts offers the ports and lanes no link or filter group uses, on
// side (either side once --ignore-parity is given).
func (a *app) freePorts(side config.Side) cobra.CompletionFunc {
	return a.fromArgs(func(c *config.Config, cmd *cobra.Command, _ []string) []string {
		anySide := cmd.Flags().Changed("ignore-parity")
		var out []string
		for _, v := range PortViews(c, nil) {
			if v.UsedBy == "" && (anySide || v.Side == side.String()) {
				out = append(out, v.Name)
			}
		}
		return out
	})
}

// matchExpr completes a match expression (--match, --not) term by term:
// the keywords not yet used, or a keyword's values when they are a fixed
// set (proto tcp, vlan-depth 2). Each offer is the whole expression so
// far with the word added.
func matchExpr(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	cut := strings.LastIndexAny(toComplete, " ,") + 1
	head := toComplete[:cut]
	words := strings.FieldsFunc(head, func(r rune) bool { return r == ' ' || r == ',' })
	keyword := func(w string) string { return strings.ReplaceAll(strings.ToLower(w), "_", "-") }
	var offer []string
	switch {
	case len(words) == 0:
		offer = append(matchexpr.Keywords(), matchexpr.Any)
	case strings.EqualFold(words[0], matchexpr.Any):
		// "any" stands alone.
	case slices.Contains(matchexpr.Keywords(), keyword(words[len(words)-1])):
		// A keyword's value is due: offered when it is one of a set.
		offer = matchexpr.Values(words[len(words)-1])
	default:
		for _, kw := range matchexpr.Keywords() {
			if !slices.ContainsFunc(words, func(w string) bool { return keyword(w) == kw }) {
				offer = append(offer, kw)
			}
		}
	}
	out := make([]cobra.Completion, len(offer))
	for i, w := range offer {
		out[i] = head + w
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// failOpenActions completes --fail-open-action with the profile's actions.
func (a *app) failOpenActions() cobra.CompletionFunc {
	names := make([]string, 0, len(config.FailOpenActions))
	for _, x := range config.FailOpenActions {
		names = append(names, string(x))
	}
	return fixed(names...)
}
