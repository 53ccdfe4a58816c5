package cli

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/config"
)

func newFilterGroupCmd(a *app) *cobra.Command {
	cmd := group("filter-group", "DPI filters: add, change, delete, list, return to service",
		`A filter group is one DPI filter, a bump in the wire between a LAN port and
a WAN port of the switch. Traffic a rule balances enters the filter on the
side it arrived on (LAN traffic on the LAN port), crosses it, and comes back
on the other port, carrying a 4-byte core header (TPID, link id, core id)
that tells the filter which CPU core must take the session.

--cores is the filter's traffic-processing core count (its CPUs less one
service core; N_UNIT_QA in the seed product). Slots of the balance group are
dealt in proportion to cores, so every core gets an equal share.`,
		`  balancer filter-group add F1 --lan P2 --wan P1 --cores 31
  balancer filter-group set F1 --cores 47
  balancer filter-group list`)
	cmd.AddCommand(newFilterGroupAddCmd(a), newFilterGroupSetCmd(a), newFilterGroupDelCmd(a), newFilterGroupListCmd(a), newFilterGroupShowCmd(a), newFilterGroupReturnCmd(a))
	return cmd
}

// parseTPID reads an ethertype: 0x88B5 or decimal.
func parseTPID(flag, s string) (uint16, error) {
	var n uint64
	var err error
	if h, ok := strings.CutPrefix(strings.ToLower(s), "0x"); ok {
		n, err = strconv.ParseUint(h, 16, 16)
	} else {
		n, err = strconv.ParseUint(s, 10, 16)
	}
	if err != nil {
		return 0, usagef("--%s %q: want a 16-bit ethertype like 0x88B5", flag, s)
	}
	if n == 0 {
		return 0, usagef("--%s %s is not an ethertype: give 0x0001..0xFFFF, like 0x88B5 (leave the flag out for the default)", flag, s)
	}
	return uint16(n), nil
}

func newFilterGroupAddCmd(a *app) *cobra.Command {
	var o applyOpts
	var f config.FilterGroup
	var id uint32
	var tpid string
	cmd := &cobra.Command{
		Use:   "add NAME --lan PORT --wan PORT [--cores N] [--tpid 0x88B5]",
		Short: "Add a DPI filter wired between a LAN and a WAN port",
		Long: `Add filter group NAME: the filter's LAN interface is cabled to the switch's
LAN port, its WAN interface to the WAN port (even = LAN, odd = WAN, unless
--ignore-parity). It carries traffic once it is a member of a balance group
('balance-group add --members' or 'balance-group member add').`,
		Example: `  balancer filter-group add F1 --lan P2 --wan P1 --cores 31
  # a filter expecting another core header TPID
  balancer filter-group add F2 --lan P12 --wan P11 --cores 15 --tpid 0x88B7`,
		Args: exactArgs("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.Name = args[0]
			if err := checkRange(cmd, "cores", f.Cores, 1, config.MaxCores, "cores"); err != nil {
				return err
			}
			if err := checkRange(cmd, "id", id, 0, config.MaxFilterGroups-1, ""); err != nil {
				return err
			}
			if cmd.Flags().Changed("id") {
				f.ID = &id
			}
			if cmd.Flags().Changed("tpid") {
				t, err := parseTPID("tpid", tpid)
				if err != nil {
					return err
				}
				f.TPID = t
			}
			return a.edit(cmd, args, &o, func(c *config.Config) (string, error) {
				if c.FilterGroupByName(f.Name) != nil {
					return "", errExists("filter group", f.Name, "change it with 'balancer filter-group set'")
				}
				if err := checkEndpoints(c, "filter group "+f.Name, f.LAN, f.WAN, f.IgnoreParity); err != nil {
					return "", err
				}
				c.FilterGroups = append(c.FilterGroups, f)
				return "", nil
			})
		},
	}
	cmd.Flags().StringVar(&f.LAN, "lan", "", "port the filter's LAN side is cabled to (even), e.g. P2")
	cmd.Flags().StringVar(&f.WAN, "wan", "", "port the filter's WAN side is cabled to (odd), e.g. P1")
	cmd.Flags().Uint32Var(&f.Cores, "cores", 0, "traffic-processing cores, 1..1024 (default: defaults.cores)")
	cmd.Flags().StringVar(&tpid, "tpid", "", "core header TPID for this filter (default: defaults.core_tpid, 0x88B5)")
	cmd.Flags().Uint32Var(&id, "id", 0, "filter group id 0..63 (default: the lowest free one)")
	cmd.Flags().BoolVar(&f.IgnoreParity, "ignore-parity", false, "allow an odd LAN port / even WAN port")
	_ = cmd.MarkFlagRequired("lan")
	_ = cmd.MarkFlagRequired("wan")
	addApplyFlags(cmd, &o)
	return cmd
}

func newFilterGroupSetCmd(a *app) *cobra.Command {
	var o applyOpts
	var cores uint32
	var tpid, lan, wan string
	cmd := &cobra.Command{
		Use:   "set NAME [--cores N] [--tpid 0x..] [--lan PORT] [--wan PORT]",
		Short: "Change a filter's core count, core header TPID or ports (re-cabling in place)",
		Long: `Change filter group NAME. Changing --cores re-deals its balance group's slots:
sessions move between cores (and filters) once; plan it like a
maintenance.`,
		Example: `  balancer filter-group set F1 --cores 47 --dry-run`,
		Args:    exactArgs("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("cores") && !cmd.Flags().Changed("tpid") && !cmd.Flags().Changed("lan") && !cmd.Flags().Changed("wan") {
				return usagef("nothing to change: give --cores, --tpid, --lan or --wan")
			}
			if err := checkRange(cmd, "cores", cores, 1, config.MaxCores, "cores"); err != nil {
				return err
			}
			var t uint16
			if cmd.Flags().Changed("tpid") {
				var err error
				if t, err = parseTPID("tpid", tpid); err != nil {
					return err
				}
			}
			return a.edit(cmd, args, &o, func(c *config.Config) (string, error) {
				f := c.FilterGroupByName(args[0])
				if f == nil {
					return "", errUnknown("filter group", args[0], filterGroupNames(c))
				}
				if cmd.Flags().Changed("cores") {
					f.Cores = cores
				}
				if cmd.Flags().Changed("tpid") {
					f.TPID = t
				}
				if cmd.Flags().Changed("lan") || cmd.Flags().Changed("wan") {
					i := slices.IndexFunc(c.FilterGroups, func(g config.FilterGroup) bool { return g.Name == args[0] })
					if err := setFilterGroupPorts(c, i, lan, wan, cmd.Flags().Changed("lan"), cmd.Flags().Changed("wan")); err != nil {
						return "", err
					}
				}
				return "", nil
			})
		},
	}
	cmd.Flags().Uint32Var(&cores, "cores", 0, "traffic-processing cores, 1..1024")
	cmd.Flags().StringVar(&tpid, "tpid", "", "core header TPID, e.g. 0x88B5")
	cmd.Flags().StringVar(&lan, "lan", "", "new port of the filter's LAN side (even), e.g. P2")
	cmd.Flags().StringVar(&wan, "wan", "", "new port of the filter's WAN side (odd), e.g. P1")
	addApplyFlags(cmd, &o)
	return cmd
}

func newFilterGroupDelCmd(a *app) *cobra.Command {
	var o applyOpts
	cmd := &cobra.Command{
		Use:   "del NAME",
		Short: "Delete a filter group (and take it out of its balance group)",
		Long: `Delete filter group NAME. It is also taken out of the balance group it is a
member of; its share of the traffic is dealt to the other members. A
balance group left without members makes the change fail: delete the
balance group first.`,
		Example: `  balancer filter-group del F3 --dry-run
  balancer filter-group del F3`,
		Args: exactArgs("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.edit(cmd, args, &o, func(c *config.Config) (string, error) {
				if !deleteFunc(&c.FilterGroups, func(f config.FilterGroup) bool { return f.Name == args[0] }) {
					return "", errUnknown("filter group", args[0], filterGroupNames(c))
				}
				if b := c.BalanceGroupOf(args[0]); b != nil && len(b.Members) == 1 {
					return "", lastMemberError(c, args[0], b.Name)
				}
				var note string
				for i := range c.BalanceGroups {
					b := &c.BalanceGroups[i]
					if deleteFunc(&b.Members, func(m string) bool { return m == args[0] }) {
						note = fmt.Sprintf("%s is also taken out of balance group %s", args[0], b.Name)
					}
					if deleteFunc(&b.Spares, func(m string) bool { return m == args[0] }) {
						note = fmt.Sprintf("%s is also taken out of the spares of balance group %s", args[0], b.Name)
					}
				}
				return note, nil
			})
		},
	}
	addApplyFlags(cmd, &o)
	return cmd
}

func newFilterGroupListCmd(a *app) *cobra.Command {
	return newListCmd(a, listSpec[config.FilterGroup]{noun: "filter-group", plural: "filter groups",
		short: "List the filter groups with their balance group and state",
		example: `  balancer filter-group list
  balancer filter-group list -o json`,
		items:  func(c *config.Config) []config.FilterGroup { return c.FilterGroups },
		header: []string{"NAME", "ID", "LAN", "WAN", "CORES", "TPID", "BALANCE GROUP", "STATE", "EFFECTIVE", "PORTS OPER"},
		rows: func(w io.Writer, cfg *config.Config, st *apiv1.Status) {
			state := map[string]*apiv1.FilterStatus{}
			for _, f := range st.GetFilters() {
				state[f.GetName()] = f
			}
			for _, f := range cfg.FilterGroups {
				bg := ""
				if b := cfg.BalanceGroupOf(f.Name); b != nil {
					bg = b.Name
				} else if b := cfg.BalanceGroupWith(f.Name); b != nil {
					bg = b.Name + " (spare)"
				}
				s := state[f.Name]
				oper := "-"
				if s.GetLanState() != "" {
					oper = s.GetLanState() + "/" + s.GetWanState()
				}
				row(w, f.Name, optNum(f.ID), f.LAN, f.WAN, f.Cores, fmt.Sprintf("0x%04X", f.TPID), bg, stale(st, s.GetState()), stale(st, s.GetEffective()), oper)
			}
		}})
}

// lastMemberError refuses taking the last filter group out of a balance
// group (one needs a member) and says the two ways on.
func lastMemberError(c *config.Config, fg, bg string) error {
	var users []string
	for _, r := range c.Rules {
		if act, g, err := r.ParseAction(); err == nil && act == config.ActionBalance && g == bg {
			users = append(users, r.Name)
		}
	}
	delGroup := fmt.Sprintf("'balancer balance-group del %s'", bg)
	if len(users) > 0 {
		delGroup += fmt.Sprintf(", after pointing rule %s elsewhere ('balancer rule set %s --action bypass')", strings.Join(users, ", rule "), users[0])
	}
	return fmt.Errorf("filter group %s is the last member of balance group %s, and a balance group needs at least one: "+
		"add another filter group to %s first ('balancer filter-group add NAME --lan PORT --wan PORT', then 'balancer balance-group member add %s NAME'), "+
		"or delete the balance group (%s)", fg, bg, bg, bg, delGroup)
}

func newFilterGroupReturnCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "return NAME",
		Short: "Return a recovered filter to service (manual failback)",
		Long: `Under an availability profile with failback manual, a filter that failed and
whose keep-alives pass again (for the profile's min_up_time) is not put back
into service by itself: its failure action keeps applying and 'status' shows
it as recovered, waiting for return. 'return' puts it back: it forwards its
share again at once.

The return is saved before it is applied, like a manual bypass, and is
listed by 'monitor' and 'filter-group show'. A filter group that is not
waiting (still down, already up) is refused, naming why. The wait itself
survives a restart of the daemon and an HA takeover.`,
		Example: `  balancer status                 # F2: recovered (recovered, waiting for return)
  balancer filter-group return F2`,
		Args: exactArgs("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			cl, err := a.client()
			if err != nil {
				return err
			}
			ctx, cancel := a.rpcContext(cmd)
			defer cancel()
			if _, err := cl.ReturnFilterGroup(ctx, &apiv1.ReturnFilterGroupRequest{FilterGroup: args[0]}); err != nil {
				return err
			}
			st, err := cl.GetStatus(ctx, &apiv1.GetStatusRequest{})
			if err != nil {
				return err
			}
			var f *apiv1.FilterStatus
			for _, x := range st.GetFilters() {
				if x.GetName() == args[0] {
					f = x
				}
			}
			if a.structured() {
				return a.printProto(f)
			}
			fmt.Fprintf(a.stdout, "filter group %s returned to service: %s (%s), the data plane: %s\n", args[0], f.GetState(), f.GetReason(), f.GetEffective())
			if w := notOnSwitch(st); w != "" {
				fmt.Fprintf(a.stdout, "warning: %s\n", w)
			}
			return nil
		},
	}
}
