package cli

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/config/matchexpr"
	"github.com/dpi-balancer/balancer/tables"
)

const matchHelp = `Match expressions (--match, --not): terms joined by spaces, commas or
"and"; every term must hold. Unset fields match anything.
  vlan 1,100-110        outer VLAN id: ids and ranges
  inner-vlan 5          second tag's VLAN id (QinQ): ids and ranges
  vlan-depth 2          number of VLAN tags, 0..3 (0: untagged)
  mpls-depth 2          number of MPLS labels, 0..8
  src 10.0.0.0/8        source IPv4 or IPv6 prefix (or address)
  dst 2001:db8::/32     destination prefix
  proto tcp             IP protocol: a number or tcp, udp, icmp, gre, ...
  l4-port 179           TCP/UDP source OR destination port (or lo-hi)
  l4-src 1000-2000      source port or range
  l4-dst 53             destination port or range
  src-mac aa:bb:cc:00:00:00/ff:ff:ff:00:00:00   source MAC, with a mask
  dst-mac 01:00:5e:00:00:00/25                  destination MAC, /length
  ethertype 0x8100      ethertype after the VLAN tags
  any                   everything (alone): a catch-all
A list of VLANs, or l4-port, makes several entries of the same rule in the
switch's TCAM; 'rule list' shows the count.`

func newRuleCmd(a *app) *cobra.Command {
	cmd := group("rule", "Flow rules (priority, match, action): add, set, delete, move, list",
		`Flow rules decide, for every packet entering a link, whether it goes through
the filters or bypasses them. The rule with the highest priority (1..65535,
each used once) that matches wins:
  bypass            the packet leaves straight out of the link's other port
  balance:GROUP     the packet is hashed onto balance group GROUP's filters
A packet no rule matches bypasses (fail open); IP-less traffic a rule
balances bypasses too. A rule applies to every link unless --link names
some. --not gives exceptions: packets that match the rule and an exception
bypass (they do not fall through to lower rules).

`+matchHelp,
		`  # BGP and multicast never go through the filters
  balancer rule add bgp --prio 1000 --match 'proto tcp l4-port 179' --action bypass
  balancer rule add mcast --prio 900 --match 'dst 224.0.0.0/4' --action bypass
  # VLANs 1 and 100-110 of link L1 to the filters, except a test prefix
  balancer rule add vlans --prio 500 --link L1 --match 'vlan 1,100-110' \
      --not 'src 192.0.2.0/24' --action balance:group_filter
  balancer rule list
  balancer rule set vlans --action bypass
  balancer rule move vlans --prio 600`)
	cmd.AddCommand(newRuleAddCmd(a), newRuleSetCmd(a), newRuleDelCmd(a), newRuleMoveCmd(a), newRuleListCmd(a))
	return cmd
}

// parseAction reads --action: bypass, balance:GROUP or "balance GROUP",
// into the configuration's form ("bypass", "balance GROUP").
func parseAction(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "bypass" {
		return s, nil
	}
	if g, ok := strings.CutPrefix(s, "balance"); ok {
		g = strings.TrimSpace(strings.TrimPrefix(g, ":"))
		if g != "" && !strings.ContainsAny(g, " \t:") {
			return "balance " + g, nil
		}
	}
	return "", usagef("--action %q: want bypass or balance:GROUP (a balance group's name)", s)
}

// formatAction writes a configuration action as --action takes it.
func formatAction(s string) string {
	if g, ok := strings.CutPrefix(s, "balance "); ok {
		return "balance:" + strings.TrimSpace(g)
	}
	return s
}

// ruleFlags are the flags that say what a rule is, as rule add and rule
// set take them.
type ruleFlags struct {
	prio          uint32
	match, action string
	links, nots   []string
}

// register adds the flags to cmd; set says they change a rule's values
// (rule set) rather than give them (rule add).
func (f *ruleFlags) register(cmd *cobra.Command, set bool) {
	link, not := "apply to this link only; repeat for several (default: every link)", "exception: matching packets bypass; repeat for several"
	if set {
		link, not = "the links the rule applies to, instead of its own; repeat for several ('all': every link)",
			"the rule's exceptions, instead of its own; repeat for several (--clear-not: none)"
	}
	cmd.Flags().Uint32Var(&f.prio, "prio", 0, "priority 1..65535, higher wins, each used once (also --priority)")
	cmd.Flags().StringVar(&f.match, "match", "", "match expression (see above); 'any' for a catch-all")
	cmd.Flags().StringVar(&f.action, "action", "", "bypass, or balance:GROUP")
	cmd.Flags().StringArrayVar(&f.links, "link", nil, link)
	cmd.Flags().StringArrayVar(&f.nots, "not", nil, not)
	cmd.Flags().SetNormalizeFunc(prioAlias)
}

// prioAlias reads --priority, the configuration's word, as --prio.
func prioAlias(_ *pflag.FlagSet, name string) pflag.NormalizedName {
	if name == "priority" {
		name = "prio"
	}
	return pflag.NormalizedName(name)
}

// parse reads the rule flags given on the command line (only those) and
// returns what they make of a rule. A bad value is a usage error, found
// before the daemon is asked.
func (f *ruleFlags) parse(cmd *cobra.Command) (func(*config.Rule), error) {
	if err := checkRange(cmd, "prio", f.prio, 1, config.MaxPriority, ""); err != nil {
		return nil, err
	}
	var set []func(*config.Rule)
	changed := cmd.Flags().Changed
	if changed("prio") {
		set = append(set, func(r *config.Rule) { r.Priority = f.prio })
	}
	if changed("match") {
		m, err := matchexpr.Parse(f.match)
		if err != nil {
			return nil, &usageError{fmt.Errorf("--match: %w", err)}
		}
		set = append(set, func(r *config.Rule) { r.Match = m })
	}
	if changed("not") {
		var nots []config.Match
		for i, n := range f.nots {
			m, err := matchexpr.Parse(n)
			if err != nil {
				return nil, &usageError{fmt.Errorf("--not %d (%q): %w", i+1, n, err)}
			}
			nots = append(nots, m)
		}
		set = append(set, func(r *config.Rule) { r.Not = nots })
	}
	if changed("action") {
		act, err := parseAction(f.action)
		if err != nil {
			return nil, err
		}
		set = append(set, func(r *config.Rule) { r.Action = act })
	}
	if changed("link") {
		links := slices.Clone(f.links)
		set = append(set, func(r *config.Rule) { r.Links = links })
	}
	return func(r *config.Rule) {
		for _, s := range set {
			s(r)
		}
	}, nil
}

func newRuleAddCmd(a *app) *cobra.Command {
	var o applyOpts
	var f ruleFlags
	cmd := &cobra.Command{
		Use:   "add NAME --prio N --match EXPR --action bypass|balance:GROUP [--link L]... [--not EXPR]...",
		Short: "Add a flow rule",
		Long: `Add flow rule NAME at priority N (higher wins; each priority is used once).

` + matchHelp,
		Example: `  balancer rule add bgp --prio 1000 --match 'proto tcp l4-port 179' --action bypass
  balancer rule add mcast6 --prio 890 --match 'dst ff00::/8' --action bypass
  balancer rule add qinq --prio 700 --match 'vlan 200 inner-vlan 10-20' --action balance:group_filter
  balancer rule add l2-links --prio 600 --link L1 --link L2 --match 'vlan-depth 2 and mpls-depth 1' --action balance:group_filter
  balancer rule add dns --prio 550 --match 'proto udp, l4-dst 53' --not 'src 10.0.0.0/8' --action balance:group_filter
  # catch-all at the bottom: everything else through the filters
  balancer rule add rest --prio 1 --match any --action balance:group_filter`,
		Args: exactArgs("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			set, err := f.parse(cmd)
			if err != nil {
				return err
			}
			r := config.Rule{Name: args[0]}
			set(&r)
			return a.edit(cmd, args, &o, func(c *config.Config) (string, error) {
				if ruleByName(c, r.Name) != nil {
					return "", errExists("rule", r.Name, "change it with 'balancer rule set', or delete it first with 'balancer rule del'")
				}
				c.Rules = append(c.Rules, r)
				sortRules(c.Rules)
				return "", nil
			})
		},
	}
	f.register(cmd, false)
	_ = cmd.MarkFlagRequired("prio")
	_ = cmd.MarkFlagRequired("match")
	_ = cmd.MarkFlagRequired("action")
	addApplyFlags(cmd, &o)
	addStrictFlag(cmd, &o)
	return cmd
}

func newRuleSetCmd(a *app) *cobra.Command {
	var o applyOpts
	var f ruleFlags
	var clearNot bool
	cmd := &cobra.Command{
		Use:   "set NAME [--prio N] [--match EXPR] [--action bypass|balance:GROUP] [--link L]... [--not EXPR]... [--clear-not]",
		Short: "Change a flow rule in place: only what the flags give",
		Long: `Change flow rule NAME in place: it keeps its name and its place in the
configuration file, and only the values given change (--link and --not
replace the rule's list; --clear-not takes its exceptions away; --link all
applies it to every link). The new rule is checked as 'rule add' checks
one, and must fit in the flow tables.

` + matchHelp,
		Example: `  # BGP through the filters from now on
  balancer rule set bgp --action balance:group_filter
  balancer rule set vlans --match 'vlan 1,100-120' --link L1 --link L2 --dry-run
  balancer rule set dns --prio 650 --clear-not --comment 'no exceptions for DNS'`,
		Args: exactArgs("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			if countChanged(cmd, "prio", "match", "action", "link", "not", "clear-not") == 0 {
				return usagef("rule %s: nothing to change: give --prio, --match, --action, --link, --not or --clear-not", name)
			}
			if clearNot && cmd.Flags().Changed("not") {
				return usagef("rule %s: give either --not or --clear-not, not both", name)
			}
			set, err := f.parse(cmd)
			if err != nil {
				return &usageError{fmt.Errorf("rule %s: %w", name, err)}
			}
			return a.edit(cmd, args, &o, func(c *config.Config) (string, error) {
				r := ruleByName(c, name)
				if r == nil {
					return "", errUnknown("rule", name, ruleNames(c))
				}
				set(r)
				if clearNot {
					r.Not = nil
				}
				if err := prioFree(c, r.Name, r.Priority); err != nil {
					return "", fmt.Errorf("rule %s: --prio %w", name, err)
				}
				return "", nil
			})
		},
	}
	f.register(cmd, true)
	cmd.Flags().BoolVar(&clearNot, "clear-not", false, "take the rule's exceptions (--not) away")
	addApplyFlags(cmd, &o)
	addStrictFlag(cmd, &o)
	return cmd
}

// prioFree refuses priority prio for rule name when another rule has it.
func prioFree(c *config.Config, name string, prio uint32) error {
	for _, other := range c.Rules {
		if other.Priority == prio && other.Name != name {
			return fmt.Errorf("%d is taken by rule %q; move that one first or pick another", prio, other.Name)
		}
	}
	return nil
}

func ruleByName(c *config.Config, name string) *config.Rule {
	for i := range c.Rules {
		if c.Rules[i].Name == name {
			return &c.Rules[i]
		}
	}
	return nil
}

// sortRules orders rules by priority, highest first, as they act.
func sortRules(rs []config.Rule) {
	slices.SortStableFunc(rs, func(a, b config.Rule) int { return cmp.Compare(b.Priority, a.Priority) })
}

func newRuleDelCmd(a *app) *cobra.Command {
	var o applyOpts
	cmd := &cobra.Command{
		Use:     "del NAME",
		Short:   "Delete a flow rule",
		Example: `  balancer rule del bgp`,
		Args:    exactArgs("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.edit(cmd, args, &o, func(c *config.Config) (string, error) {
				if !deleteFunc(&c.Rules, func(r config.Rule) bool { return r.Name == args[0] }) {
					return "", errUnknown("rule", args[0], ruleNames(c))
				}
				return "", nil
			})
		},
	}
	addApplyFlags(cmd, &o)
	return cmd
}

func newRuleMoveCmd(a *app) *cobra.Command {
	var o applyOpts
	var prio uint32
	cmd := &cobra.Command{
		Use:   "move NAME --prio N",
		Short: "Give a flow rule another priority",
		Long: `Give rule NAME priority N. The switch's entries for it are rewritten in one
apply; no packet sees the rule missing.`,
		Example: `  balancer rule move vlans --prio 600`,
		Args:    exactArgs("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkRange(cmd, "prio", prio, 1, config.MaxPriority, ""); err != nil {
				return err
			}
			return a.edit(cmd, args, &o, func(c *config.Config) (string, error) {
				r := ruleByName(c, args[0])
				if r == nil {
					return "", errUnknown("rule", args[0], ruleNames(c))
				}
				if err := prioFree(c, r.Name, prio); err != nil {
					return "", fmt.Errorf("priority %w", err)
				}
				r.Priority = prio
				sortRules(c.Rules)
				return "", nil
			})
		},
	}
	cmd.Flags().Uint32Var(&prio, "prio", 0, "the new priority, 1..65535 (also --priority)")
	cmd.Flags().SetNormalizeFunc(prioAlias)
	_ = cmd.MarkFlagRequired("prio")
	addApplyFlags(cmd, &o)
	return cmd
}

func newRuleListCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the flow rules, highest priority first",
		Long: `List the flow rules in the order they act (highest priority first), with the
match in the --match syntax and the number of TCAM entries each takes.`,
		Example: `  balancer rule list
  balancer rule list -o json`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, _, err := a.getConfig(cmd)
			if err != nil {
				return err
			}
			rules := slices.Clone(cfg.Rules)
			sortRules(rules)
			if a.structured() {
				return a.printValue(nonNil(rules))
			}
			if len(rules) == 0 {
				fmt.Fprintln(a.stdout, "no rules defined: every packet bypasses the filters; add one with 'balancer rule add'")
				return nil
			}
			count, err := ruleEntryCounter()
			if err != nil {
				return err
			}
			w := table(a.stdout)
			row(w, "PRIO", "NAME", "LINKS", "MATCH", "ACTION", "EXCEPT", "ENTRIES")
			for _, r := range rules {
				ls := "all"
				if !r.AllLinks() {
					ls = strings.Join(r.Links, ",")
				}
				var nots []string
				for _, n := range r.Not {
					nots = append(nots, matchexpr.Format(n))
				}
				row(w, r.Priority, r.Name, ls, matchexpr.Format(r.Match), formatAction(r.Action), strings.Join(nots, " | "), count(cfg, r))
			}
			return w.Flush()
		},
	}
}

// ruleEntryCounter returns how a rule's entries are counted for `rule
// list`: exactly what the compiler writes for it in both flow tables,
// counted without building them ("more than N" past the larger table's
// size; "?" when the rule cannot be compiled, e.g. an unknown link).
func ruleEntryCounter() (func(cfg *config.Config, r config.Rule) string, error) {
	comp, err := tables.Load()
	if err != nil {
		return nil, err
	}
	limit := max(config.FlowRulesCapacity, config.FlowRulesV6Capacity)
	return func(cfg *config.Config, r config.Rule) string {
		v4, v6, err := comp.RuleEntries(cfg, r, limit)
		switch {
		case err != nil:
			return "?"
		case v4 > limit || v6 > limit:
			return fmt.Sprintf("more than %d", limit)
		}
		return fmt.Sprint(v4 + v6)
	}, nil
}
