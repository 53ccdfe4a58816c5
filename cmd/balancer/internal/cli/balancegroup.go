package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/config"
)

func newBalanceGroupCmd(a *app) *cobra.Command {
	cmd := group("balance-group", "Filter groups sharing traffic by hash: add, change, delete, list, members",
		`A balance group is a set of filter groups that share the traffic rules send
to it ('rule add --action balance:GROUP'). A symmetric hash of source IP,
destination IP and protocol picks one of 2^slot-bits slots; every slot is
dealt to one core of one filter, in proportion to the filters' cores, so
both directions of a session land on the same filter and core.

The availability profile ('profile') says how keep-alives probe the members
and what happens to a dead member's share (--failure-action):
  bypass     its share loops LAN<->WAN on the switch, uninspected (default)
  drop       its share is dropped: for operators who must never pass
             uninspected traffic
  rebalance  its slots are dealt to the surviving members; their own
             sessions never move; the layout returns on recovery
  spare      its whole share (slots, core for core) goes to a healthy
             spare (--spares: filter groups on standby, carrying
             nothing until then), and back when the member returns;
             with no healthy spare free, it is bypassed
When fewer than the profile's min-active members are alive, the whole
group bypasses.`,
		`  balancer balance-group add group_filter --members F1,F2,F3
  balancer balance-group member add group_filter F4
  balancer balance-group set group_filter --failure-action rebalance
  balancer balance-group list`)
	member := group("member", "Add or remove a member filter group",
		`Add a filter group to a balance group, or take it out. The group's slots are
dealt again: sessions move once.`,
		`  balancer balance-group member add group_filter F4
  balancer balance-group member del group_filter F4`)
	member.AddCommand(newMemberCmd(a, true), newMemberCmd(a, false))
	cmd.AddCommand(newBalanceGroupAddCmd(a), newBalanceGroupSetCmd(a), newBalanceGroupDelCmd(a), newBalanceGroupListCmd(a), member)
	return cmd
}

var failureActions = []string{string(config.FailBypass), string(config.FailDrop), string(config.FailRebalance), string(config.FailSpare)}

func parseFailureAction(s string) (config.FailureAction, error) {
	if s == "" || slices.Contains(failureActions, s) {
		return config.FailureAction(s), nil
	}
	return "", usagef("--failure-action %q: want %s", s, strings.Join(failureActions, ", "))
}

// balanceGroupFlags are the settings add and set share.
type balanceGroupFlags struct {
	profile       string
	slotBits      uint32
	failureAction string
	spares        []string
}

func (f *balanceGroupFlags) register(cmd *cobra.Command, add bool) {
	def := func(s string) string {
		if add {
			return " (default: " + s + ")"
		}
		return ""
	}
	cmd.Flags().StringVar(&f.profile, "profile", "", "availability profile"+def("default"))
	cmd.Flags().Uint32Var(&f.slotBits, "slot-bits", 0, "2^n hash slots, 1..16"+def("defaults.slot_bits, 12"))
	cmd.Flags().StringVar(&f.failureAction, "failure-action", "", "bypass, drop, rebalance or spare"+def("the profile's"))
	cmd.Flags().StringSliceVar(&f.spares, "spares", nil, "standby filter groups, comma-separated, for failure action spare (set: --spares '' removes them)")
}

// apply sets the flags given on cmd in b.
func (f *balanceGroupFlags) apply(cmd *cobra.Command, b *config.BalanceGroup) error {
	fa, err := parseFailureAction(f.failureAction)
	if err != nil {
		return err
	}
	if err := checkRange(cmd, "slot-bits", f.slotBits, 1, config.MaxSlotBits, "bits"); err != nil {
		return err
	}
	if cmd.Flags().Changed("profile") {
		b.Profile = f.profile
	}
	if cmd.Flags().Changed("slot-bits") {
		b.SlotBits = f.slotBits
	}
	if cmd.Flags().Changed("failure-action") {
		b.FailureAction = fa
	}
	if cmd.Flags().Changed("spares") {
		b.Spares = nil
		for _, s := range f.spares {
			if s != "" {
				b.Spares = append(b.Spares, s)
			}
		}
	}
	return nil
}

func newBalanceGroupAddCmd(a *app) *cobra.Command {
	var o applyOpts
	var flags balanceGroupFlags
	var members []string
	var id uint32
	cmd := &cobra.Command{
		Use:   "add NAME --members F1,F2 [--profile P] [--slot-bits N] [--failure-action A] [--spares F4]",
		Short: "Add a balance group of filter groups",
		Long: `Add balance group NAME with the given member filter groups. slot-bits must
give at least as many slots as the members have cores (4096 slots for
3 x 31 cores gives every core 44 or 45 slots); more slots even out the
shares.`,
		Example: `  balancer balance-group add group_filter --members F1,F2,F3
  balancer balance-group add strict --members F4 --profile fast --failure-action drop --slot-bits 10`,
		Args: exactArgs("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			b := config.BalanceGroup{Name: args[0], Members: members}
			if err := flags.apply(cmd, &b); err != nil {
				return err
			}
			if err := checkRange(cmd, "id", id, 0, config.MaxBalanceGroups-1, ""); err != nil {
				return err
			}
			if cmd.Flags().Changed("id") {
				b.ID = &id
			}
			return a.edit(cmd, args, &o, func(c *config.Config) (string, error) {
				if c.BalanceGroupByName(b.Name) != nil {
					return "", errExists("balance group", b.Name, "change it with 'balancer balance-group set' or 'member add'")
				}
				c.BalanceGroups = append(c.BalanceGroups, b)
				return "", nil
			})
		},
	}
	cmd.Flags().StringSliceVar(&members, "members", nil, "member filter groups, comma-separated")
	cmd.Flags().Uint32Var(&id, "id", 0, "balance group id 0..15 (default: the lowest free one)")
	flags.register(cmd, true)
	_ = cmd.MarkFlagRequired("members")
	addApplyFlags(cmd, &o)
	return cmd
}

func newBalanceGroupSetCmd(a *app) *cobra.Command {
	var o applyOpts
	var flags balanceGroupFlags
	cmd := &cobra.Command{
		Use:   "set NAME [--profile P] [--slot-bits N] [--failure-action A] [--spares F4,...]",
		Short: "Change a balance group's profile, slot bits, failure action or spares",
		Example: `  balancer balance-group set group_filter --failure-action rebalance
  balancer balance-group set group_filter --slot-bits 14 --dry-run`,
		Args: exactArgs("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("profile") && !cmd.Flags().Changed("slot-bits") && !cmd.Flags().Changed("failure-action") && !cmd.Flags().Changed("spares") {
				return usagef("nothing to change: give --profile, --slot-bits, --failure-action or --spares")
			}
			if _, err := parseFailureAction(flags.failureAction); err != nil {
				return err
			}
			return a.edit(cmd, args, &o, func(c *config.Config) (string, error) {
				b := c.BalanceGroupByName(args[0])
				if b == nil {
					return "", errUnknown("balance group", args[0], balanceGroupNames(c))
				}
				if err := flags.apply(cmd, b); err != nil {
					return "", err
				}
				return profileNote(c, b), nil
			})
		},
	}
	flags.register(cmd, false)
	addApplyFlags(cmd, &o)
	return cmd
}

func newBalanceGroupDelCmd(a *app) *cobra.Command {
	var o applyOpts
	cmd := &cobra.Command{
		Use:   "del NAME",
		Short: "Delete a balance group",
		Long: `Delete balance group NAME (its filter groups stay, unused). Rules that
balance to it make the change fail: change or delete them first.`,
		Example: `  balancer balance-group del strict`,
		Args:    exactArgs("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.edit(cmd, args, &o, func(c *config.Config) (string, error) {
				if c.BalanceGroupByName(args[0]) == nil {
					return "", errUnknown("balance group", args[0], balanceGroupNames(c))
				}
				var users []string
				for _, r := range c.Rules {
					if act, g, err := r.ParseAction(); err == nil && act == config.ActionBalance && g == args[0] {
						users = append(users, r.Name)
					}
				}
				if len(users) > 0 {
					return "", fmt.Errorf("balance group %s is in use by rule %s (action balance %s): point the rule elsewhere first ('balancer rule set %s --action bypass' or --action balance:OTHER-GROUP, or 'balancer rule del %s'), then delete the group",
						args[0], strings.Join(users, ", rule "), args[0], users[0], users[0])
				}
				deleteFunc(&c.BalanceGroups, func(b config.BalanceGroup) bool { return b.Name == args[0] })
				return "", nil
			})
		},
	}
	addApplyFlags(cmd, &o)
	return cmd
}

func newMemberCmd(a *app, add bool) *cobra.Command {
	var o applyOpts
	use, short := "del GROUP FILTER-GROUP", "Take a filter group out of a balance group"
	example := "  balancer balance-group member del group_filter F4 --dry-run"
	if add {
		use, short = "add GROUP FILTER-GROUP", "Add a filter group to a balance group"
		example = "  balancer balance-group member add group_filter F4"
	}
	cmd := &cobra.Command{
		Use:     use,
		Short:   short,
		Example: example,
		Args:    exactArgs("GROUP", "FILTER-GROUP"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.edit(cmd, args, &o, func(c *config.Config) (string, error) {
				b := c.BalanceGroupByName(args[0])
				if b == nil {
					return "", errUnknown("balance group", args[0], balanceGroupNames(c))
				}
				has := slices.Contains(b.Members, args[1])
				switch {
				case add && has:
					return "", fmt.Errorf("filter group %q is already a member of %s", args[1], b.Name)
				case add:
					b.Members = append(b.Members, args[1])
				case !has:
					return "", fmt.Errorf("filter group %q is not a member of %s (members: %s)", args[1], b.Name, names(b.Members))
				case len(b.Members) == 1:
					return "", lastMemberError(c, args[1], b.Name)
				default:
					deleteFunc(&b.Members, func(m string) bool { return m == args[1] })
				}
				return "", nil
			})
		},
	}
	addApplyFlags(cmd, &o)
	return cmd
}

func newBalanceGroupListCmd(a *app) *cobra.Command {
	return newListCmd(a, listSpec[config.BalanceGroup]{noun: "balance-group", plural: "balance groups",
		short: "List the balance groups with their members and state",
		example: `  balancer balance-group list
  balancer balance-group list -o json`,
		items:  func(c *config.Config) []config.BalanceGroup { return c.BalanceGroups },
		header: []string{"NAME", "ID", "MEMBERS", "SPARES", "PROFILE", "FAILURE ACTION", "SLOT BITS", "STATE", "ALIVE"},
		rows: func(w io.Writer, cfg *config.Config, st *apiv1.Status) {
			state := map[string]*apiv1.BalanceGroupStatus{}
			for _, b := range st.GetBalanceGroups() {
				state[b.GetName()] = b
			}
			for _, b := range cfg.BalanceGroups {
				s := state[b.Name]
				alive := ""
				if s != nil {
					alive = fmt.Sprintf("%d/%d (min %d)", s.GetAlive(), len(b.Members), s.GetMinActive())
				}
				row(w, b.Name, optNum(b.ID), strings.Join(b.Members, ","), orDash(strings.Join(b.Spares, ",")), b.Profile, b.FailureAction, b.SlotBits, s.GetState(), alive)
			}
		}})
}

// profileNote warns when a balance group sets a failure action of its own
// that differs from its profile's: a change of the profile's action then
// does not reach it.
func profileNote(c *config.Config, b *config.BalanceGroup) string {
	if b.FailureAction == "" {
		return ""
	}
	eff := effective(c)
	name := b.Profile
	if name == "" {
		name = config.DefaultProfile
	}
	p := eff.ProfileByName(name)
	if p == nil || p.FailureAction == b.FailureAction {
		return ""
	}
	return fmt.Sprintf("note: balance group %s keeps its own failure action %s; its profile %s says %s", b.Name, b.FailureAction, name, p.FailureAction)
}
