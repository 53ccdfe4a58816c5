package cli

import (
	"slices"

	"github.com/spf13/cobra"

	"github.com/dpi-balancer/balancer/config"
)

// moveEndpoints checks new LAN/WAN ports for an object that has ports
// (re-cabling in place): the object's own current ports count as free.
// without is the configuration without the object.
func moveEndpoints(without *config.Config, what, lan, wan string, ignoreParity bool) error {
	return checkEndpoints(without, what, lan, wan, ignoreParity)
}

func newLinkSetCmd(a *app) *cobra.Command {
	var o applyOpts
	var lan, wan string
	var ignoreParity bool
	cmd := &cobra.Command{
		Use:   "set NAME [--lan PORT] [--wan PORT] [--ignore-parity]",
		Short: "Re-cable a link in place: new LAN and/or WAN port, same id and rules",
		Long: `Move link NAME to other ports. It keeps its id and the rules that name it
(no delete and add, no --force). The new ports must be defined and free.`,
		Example: `  balancer link set L2 --lan P12 --wan P11 --dry-run`,
		Args:    exactArgs("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("lan") && !cmd.Flags().Changed("wan") && !cmd.Flags().Changed("ignore-parity") {
				return usagef("nothing to change: give --lan, --wan or --ignore-parity")
			}
			return a.edit(cmd, args, &o, func(c *config.Config) (string, error) {
				i := slices.IndexFunc(c.Links, func(l config.Link) bool { return l.Name == args[0] })
				if i < 0 {
					return "", errUnknown("link", args[0], linkNames(c))
				}
				l := c.Links[i]
				if cmd.Flags().Changed("lan") {
					l.LAN = lan
				}
				if cmd.Flags().Changed("wan") {
					l.WAN = wan
				}
				if cmd.Flags().Changed("ignore-parity") {
					l.IgnoreParity = ignoreParity
				}
				without := *c
				without.Links = slices.Delete(slices.Clone(c.Links), i, i+1)
				if err := moveEndpoints(&without, "link "+l.Name, l.LAN, l.WAN, l.IgnoreParity); err != nil {
					return "", err
				}
				c.Links[i] = l
				return "", nil
			})
		},
	}
	cmd.Flags().StringVar(&lan, "lan", "", "new LAN-side port (even), e.g. P42 or 4/2")
	cmd.Flags().StringVar(&wan, "wan", "", "new WAN-side port (odd), e.g. P41 or 4/1")
	cmd.Flags().BoolVar(&ignoreParity, "ignore-parity", false, "allow an odd LAN port / even WAN port")
	addApplyFlags(cmd, &o)
	return cmd
}

// setFilterGroupPorts moves filter group f (index i of c) to new ports.
func setFilterGroupPorts(c *config.Config, i int, lan, wan string, lanSet, wanSet bool) error {
	f := c.FilterGroups[i]
	if lanSet {
		f.LAN = lan
	}
	if wanSet {
		f.WAN = wan
	}
	without := *c
	without.FilterGroups = slices.Delete(slices.Clone(c.FilterGroups), i, i+1)
	if err := moveEndpoints(&without, "filter group "+f.Name, f.LAN, f.WAN, f.IgnoreParity); err != nil {
		return err
	}
	c.FilterGroups[i] = f
	return nil
}
