package cli

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/config"
)

// PortView is one port or lane as port list and port show print it (and
// their -o json form).
type PortView struct {
	Name   string  `json:"name"`             // as the configuration names it: P9, P41
	Key    string  `json:"key"`              // unambiguous: 9/0, 4/1
	Port   uint32  `json:"port"`             // front-panel port 1..32
	Lane   uint32  `json:"lane"`             // 0: the whole port
	Number *uint32 `json:"number,omitempty"` // data-plane port number
	Side   string  `json:"side"`             // LAN or WAN by the even/odd convention
	Speed  string  `json:"speed"`
	// FEC, Autoneg, MTU and Enabled are the port's settings (for a lane,
	// its port's), defaults filled in.
	FEC     string `json:"fec"`
	Autoneg bool   `json:"autoneg"`
	MTU     uint32 `json:"mtu"`
	Enabled bool   `json:"enabled"`
	UsedBy  string `json:"used_by,omitempty"` // "link L1 lan", "filter-group F1 wan"
	// Oper is up, down or unknown (the switch does not report the port,
	// or is not connected), from the daemon's status; "" when the daemon
	// does not report it.
	Oper string       `json:"oper,omitempty"`
	Rx   *packetBytes `json:"rx,omitempty"` // port show only
	Tx   *packetBytes `json:"tx,omitempty"`
}

type packetBytes struct {
	Packets uint64 `json:"packets"`
	Bytes   uint64 `json:"bytes"`
}

// PortViews lists every port and lane the configuration defines, by port
// and lane.
func PortViews(c *config.Config, st *apiv1.Status) []PortView {
	type use struct{ by, oper string }
	uses := map[config.PortName]use{}
	oper := map[string]*apiv1.LinkStatus{}
	for _, l := range st.GetLinks() {
		oper[l.GetName()] = l
	}
	for _, l := range c.Links {
		ls := oper[l.Name]
		for _, p := range []struct {
			name, side, oper string
		}{{l.LAN, "lan", operState(ls.GetLanState(), ls.GetLanUp())}, {l.WAN, "wan", operState(ls.GetWanState(), ls.GetWanUp())}} {
			if n, err := c.ResolvePort(p.name); err == nil {
				u := use{by: "link " + l.Name + " " + p.side}
				if ls != nil {
					u.oper = p.oper
				}
				uses[n] = u
			}
		}
	}
	fstate := map[string]*apiv1.FilterStatus{}
	for _, f := range st.GetFilters() {
		fstate[f.GetName()] = f
	}
	for _, f := range c.FilterGroups {
		fs := fstate[f.Name]
		for _, p := range []struct{ name, side, oper string }{{f.LAN, "lan", fs.GetLanState()}, {f.WAN, "wan", fs.GetWanState()}} {
			if n, err := c.ResolvePort(p.name); err == nil {
				uses[n] = use{by: "filter-group " + f.Name + " " + p.side, oper: p.oper}
			}
		}
	}
	defs := slices.Clone(c.Ports)
	slices.SortFunc(defs, func(a, b config.Port) int { return cmp.Compare(a.Port, b.Port) })
	var out []PortView
	for _, d := range defs {
		lanes := []uint32{0}
		if d.Breakout > 1 {
			lanes = lanes[:0]
			for l := uint32(1); l <= d.Breakout; l++ {
				lanes = append(lanes, l)
			}
		}
		for _, lane := range lanes {
			n := config.PortName{Port: d.Port, Lane: lane}
			ps := d.Settings()
			v := PortView{Name: c.PortLabel(n), Key: n.Key(), Port: d.Port, Lane: lane,
				Side: c.PortSide(n).String(), Speed: d.Speed, FEC: string(ps.FEC), Autoneg: ps.Autoneg, MTU: ps.MTU, Enabled: ps.Enabled,
				UsedBy: uses[n].by, Oper: uses[n].oper}
			if num, err := c.PortNumber(n.Key()); err == nil {
				v.Number = &num
			}
			out = append(out, v)
		}
	}
	return out
}

func newPortCmd(a *app) *cobra.Command {
	cmd := group("port", "Front-panel ports and lanes: list, show, add, delete",
		`A port is a front-panel QSFP28 port (1..32) or one lane of a port broken
out into 4 x 10G/25G lanes.

Names: P9 is unbroken port 9; P41 is lane 1 of broken-out port 4 (also
written 4/1). When a name could mean both (P11: port 1 lane 1, or port 11),
write 1/1 or 11/0.

Side: even is LAN (towards subscribers), odd is WAN (towards the internet):
the lane number for a lane, the port number for a whole port. Links and
filter groups pair a LAN port with a WAN port.`,
		`  balancer port list
  balancer port show P41
  balancer port add 4 --speed 10G --breakout 4
  balancer port set 9 --mtu 9600 --fec none
  balancer port del 4`)
	cmd.AddCommand(newPortListCmd(a), newPortShowCmd(a), newPortAddCmd(a), newPortSetCmd(a), newPortDelCmd(a))
	return cmd
}

func newPortListCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List ports and lanes: data-plane number, side, speed, FEC, autoneg, MTU, admin and oper state, user",
		Long: `List every port and lane the configuration defines, with its data-plane port
number (from the platform's table or port_map), its side by the even/odd
convention, its speed, FEC, auto-negotiation, MTU and admin state (ADMIN:
up, or down when the site disables the port), the link or filter group
using it, and the oper state the daemon sees for link ports.`,
		Example: `  balancer port list
  balancer port list -o json`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, _, err := a.getConfig(cmd)
			if err != nil {
				return err
			}
			st, err := a.getStatus(cmd)
			if err != nil {
				return err
			}
			views := PortViews(cfg, st)
			if a.structured() {
				return a.printValue(nonNil(views))
			}
			if len(views) == 0 {
				fmt.Fprintln(a.stdout, "no ports defined; add one with 'balancer port add'")
				return nil
			}
			w := table(a.stdout)
			row(w, "NAME", "PORT", "DP", "SIDE", "SPEED", "FEC", "AUTONEG", "MTU", "ADMIN", "USED BY", "OPER")
			for _, v := range views {
				row(w, v.Name, v.Key, optNum(v.Number), v.Side, v.Speed, v.FEC, onOff(v.Autoneg), v.MTU, upDown(v.Enabled), v.UsedBy, v.Oper)
			}
			return w.Flush()
		},
	}
}

func newPortShowCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "show NAME",
		Short: "Show one port or lane, with its counters",
		Long: `Show one port or lane: its data-plane number, side, speed, who uses it, its
oper state, and its packet counters read from the switch.`,
		Example: `  balancer port show P41
  balancer port show 4/1`,
		Args: exactArgs("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, _, err := a.getConfig(cmd)
			if err != nil {
				return err
			}
			n, err := cfg.ResolvePort(args[0])
			if err != nil {
				return err
			}
			st, err := a.getStatus(cmd)
			if err != nil {
				return err
			}
			var v PortView
			for _, pv := range PortViews(cfg, st) {
				if pv.Key == n.Key() {
					v = pv
				}
			}
			var countersErr error
			if cl, err := a.client(); err == nil {
				ctx, cancel := a.rpcContext(cmd)
				c, err := cl.GetCounters(ctx, &apiv1.GetCountersRequest{})
				cancel()
				countersErr = err
				for _, pc := range c.GetPorts() {
					if v.Number != nil && pc.GetNumber() == *v.Number {
						v.Rx = &packetBytes{pc.GetRx().GetPackets(), pc.GetRx().GetBytes()}
						v.Tx = &packetBytes{pc.GetTx().GetPackets(), pc.GetTx().GetBytes()}
					}
				}
			}
			if a.structured() {
				return a.printValue(v)
			}
			w := table(a.stdout)
			row(w, "name:", v.Name)
			row(w, "port/lane:", v.Key)
			row(w, "data-plane port:", optNum(v.Number))
			row(w, "side:", v.Side)
			row(w, "speed:", v.Speed)
			row(w, "fec:", v.FEC)
			row(w, "autoneg:", onOff(v.Autoneg))
			row(w, "mtu:", v.MTU)
			row(w, "admin:", upDown(v.Enabled))
			used := v.UsedBy
			if used == "" {
				used = "unused"
			}
			row(w, "used by:", used)
			row(w, "oper:", v.Oper)
			switch {
			case v.Rx != nil:
				row(w, "rx:", fmt.Sprintf("%d packets, %d bytes", v.Rx.Packets, v.Rx.Bytes))
				row(w, "tx:", fmt.Sprintf("%d packets, %d bytes", v.Tx.Packets, v.Tx.Bytes))
			case countersErr != nil:
				row(w, "counters:", "unavailable: "+countersErr.Error())
			}
			return w.Flush()
		},
	}
}

// parsePortNumber reads a front-panel port: 4, P4 or 4/0.
func parsePortNumber(s string) (uint32, error) {
	t := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(s, "P"), "p"), "/0")
	n, err := strconv.ParseUint(t, 10, 32)
	if err != nil || n < config.MinPort || n > config.MaxPort {
		return 0, usagef("%q is not a front-panel port: give its number, %d..%d (the whole port; lanes come from --breakout)", s, config.MinPort, config.MaxPort)
	}
	return uint32(n), nil
}

func newPortAddCmd(a *app) *cobra.Command {
	var o applyOpts
	var speed string
	var breakout uint32
	var ps portSettingFlags
	cmd := &cobra.Command{
		Use:   "add PORT --speed SPEED [--breakout 4] [--fec MODE] [--autoneg] [--mtu BYTES] [--enabled=false]",
		Short: "Define a front-panel port (whole, or broken out into lanes)",
		Long: `Define front-panel port PORT (1..32) running at SPEED: 40G or 100G whole, or
with --breakout 4 as four 10G or 25G lanes named P<port>1..P<port>4.
` + portSettingsHelp,
		Example: `  # port 9 whole at 100G: P9 (odd: WAN)
  balancer port add 9 --speed 100G
  # port 4 as four 10G lanes: P41 (WAN), P42 (LAN), P43 (WAN), P44 (LAN)
  balancer port add 4 --speed 10G --breakout 4`,
		Args: exactArgs("PORT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := parsePortNumber(args[0])
			if err != nil {
				return err
			}
			return a.edit(cmd, args, &o, func(c *config.Config) (string, error) {
				for _, d := range c.Ports {
					if d.Port == p {
						return "", errExists("port", strconv.Itoa(int(p)), "delete it first with 'balancer port del' to change it")
					}
				}
				np := config.Port{Port: p, Speed: strings.ToUpper(speed), Breakout: breakout}
				if err := ps.apply(cmd, args[0], &np); err != nil {
					return "", err
				}
				c.Ports = append(c.Ports, np)
				slices.SortStableFunc(c.Ports, func(a, b config.Port) int { return cmp.Compare(a.Port, b.Port) })
				return "", nil
			})
		},
	}
	cmd.Flags().StringVar(&speed, "speed", "", "10G, 25G, 40G, 50G or 100G (per lane when broken out)")
	cmd.Flags().Uint32Var(&breakout, "breakout", 0, "4 to break the port out into 4 lanes")
	ps.register(cmd)
	_ = cmd.MarkFlagRequired("speed")
	addApplyFlags(cmd, &o)
	return cmd
}

func newPortDelCmd(a *app) *cobra.Command {
	var o applyOpts
	cmd := &cobra.Command{
		Use:   "del PORT",
		Short: "Remove a front-panel port (and its lanes) from the configuration",
		Long: `Remove front-panel port PORT from the configuration. A link or filter group
still using it (or one of its lanes) makes the change fail: delete or move
them first.`,
		Example: `  balancer port del 4`,
		Args:    exactArgs("PORT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := parsePortNumber(args[0])
			if err != nil {
				return err
			}
			return a.edit(cmd, args, &o, func(c *config.Config) (string, error) {
				var users []string
				for n, by := range portUse(c) {
					if n.Port == p {
						users = append(users, by)
					}
				}
				if len(users) > 0 {
					slices.Sort(users)
					return "", fmt.Errorf("port %d is still used by %s: delete or move them first", p, strings.Join(users, ", "))
				}
				if !deleteFunc(&c.Ports, func(d config.Port) bool { return d.Port == p }) {
					var defined []string
					for _, d := range c.Ports {
						defined = append(defined, strconv.Itoa(int(d.Port)))
					}
					return "", errUnknown("port", args[0], defined)
				}
				return "", nil
			})
		},
	}
	addApplyFlags(cmd, &o)
	return cmd
}

func optNum(n *uint32) string {
	if n == nil {
		return "-"
	}
	return strconv.FormatUint(uint64(*n), 10)
}

// nonNil makes a nil slice encode as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
