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

func newLinkCmd(a *app) *cobra.Command {
	cmd := group("link", "Operator links: add, set (re-cable), delete, list",
		`A link is the operator side of the broker: a LAN port (towards subscribers)
and a WAN port (towards the internet), cabled to the operator's bypass unit.
What enters on one port leaves on the other, through the filters or not as
the flow rules say. The link id (0..63) travels in the core header to the
filters and back; it is assigned when not given and then kept.`,
		`  balancer link add L1 --lan P42 --wan P41
  balancer link list
  balancer link del L1`)
	cmd.AddCommand(newLinkAddCmd(a), newLinkSetCmd(a), newLinkDelCmd(a), newLinkListCmd(a))
	return cmd
}

func newLinkAddCmd(a *app) *cobra.Command {
	var o applyOpts
	var l config.Link
	var id uint32
	cmd := &cobra.Command{
		Use:   "add NAME --lan PORT --wan PORT [--id N] [--ignore-parity]",
		Short: "Add an operator link (a LAN port and a WAN port)",
		Long: `Add link NAME between a LAN port and a WAN port. The LAN port must be even
and the WAN port odd (lane number for a lane), unless --ignore-parity says
the cabling is the other way round. Both ports must be defined ('port add')
and not used by another link or filter group.

Rules apply to every link unless they list links ('rule add --link').`,
		Example: `  # port 4 lanes 2 (LAN) and 1 (WAN)
  balancer link add L1 --lan P42 --wan P41
  # whole ports 10 and 9, with a fixed id
  balancer link add L2 --lan P10 --wan P9 --id 7
  # see what would change first
  balancer link add L3 --lan P44 --wan P43 --dry-run`,
		Args: exactArgs("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			l.Name = args[0]
			if err := checkRange(cmd, "id", id, 0, config.MaxLinks-1, ""); err != nil {
				return err
			}
			if cmd.Flags().Changed("id") {
				l.ID = &id
			}
			return a.edit(cmd, args, &o, func(c *config.Config) (string, error) {
				if c.LinkByName(l.Name) != nil {
					return "", errExists("link", l.Name, "delete it first with 'balancer link del' to change it")
				}
				if err := checkEndpoints(c, "link "+l.Name, l.LAN, l.WAN, l.IgnoreParity); err != nil {
					return "", err
				}
				c.Links = append(c.Links, l)
				return "", nil
			})
		},
	}
	cmd.Flags().StringVar(&l.LAN, "lan", "", "LAN-side port (even), e.g. P42 or 4/2")
	cmd.Flags().StringVar(&l.WAN, "wan", "", "WAN-side port (odd), e.g. P41 or 4/1")
	cmd.Flags().Uint32Var(&id, "id", 0, "link id 0..63 carried in the core header (default: the lowest free one)")
	cmd.Flags().BoolVar(&l.IgnoreParity, "ignore-parity", false, "allow an odd LAN port / even WAN port")
	_ = cmd.MarkFlagRequired("lan")
	_ = cmd.MarkFlagRequired("wan")
	addApplyFlags(cmd, &o)
	return cmd
}

func newLinkDelCmd(a *app) *cobra.Command {
	var o applyOpts
	cmd := &cobra.Command{
		Use:   "del NAME",
		Short: "Delete an operator link",
		Long: `Delete link NAME. Rules that list it by name make the change fail (the
daemon names them): change or delete those rules first. Traffic on the
link's ports is dropped once the link is gone.`,
		Example: `  balancer link del L2`,
		Args:    exactArgs("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.edit(cmd, args, &o, func(c *config.Config) (string, error) {
				if c.LinkByName(args[0]) == nil {
					return "", errUnknown("link", args[0], linkNames(c))
				}
				var users []string
				for _, r := range c.Rules {
					if slices.Contains(r.Links, args[0]) {
						users = append(users, r.Name)
					}
				}
				switch len(users) {
				case 0:
				case 1:
					return "", fmt.Errorf("rule %s still uses link %s: take the link out of the rule ('balancer rule del %s' and add it again without --link %s) first", users[0], args[0], users[0], args[0])
				default:
					return "", fmt.Errorf("rules %s still use link %s: take the link out of those rules first", strings.Join(users, ", "), args[0])
				}
				deleteFunc(&c.Links, func(l config.Link) bool { return l.Name == args[0] })
				return "", nil
			})
		},
	}
	addApplyFlags(cmd, &o)
	return cmd
}

func newLinkListCmd(a *app) *cobra.Command {
	return newListCmd(a, listSpec[config.Link]{noun: "link", plural: "links",
		short: "List the operator links with their ports' oper state",
		example: `  balancer link list
  balancer link list -o json`,
		items:  func(c *config.Config) []config.Link { return c.Links },
		header: []string{"NAME", "ID", "LAN", "WAN", "LAN OPER", "WAN OPER", "PARITY"},
		rows: func(w io.Writer, cfg *config.Config, st *apiv1.Status) {
			state := map[string]*apiv1.LinkStatus{}
			for _, l := range st.GetLinks() {
				state[l.GetName()] = l
			}
			for _, l := range cfg.Links {
				lan, wan := "-", "-"
				if s := state[l.Name]; s != nil {
					lan, wan = operState(s.GetLanState(), s.GetLanUp()), operState(s.GetWanState(), s.GetWanUp())
				}
				parity := "even/odd"
				if l.IgnoreParity {
					parity = "ignored"
				}
				row(w, l.Name, optNum(l.ID), l.LAN, l.WAN, lan, wan, parity)
			}
		}})
}
