package cli

import (
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dpi-balancer/balancer/config"
)

const portSettingsHelp = `
Settings (each holds for the whole port, or every lane of a broken-out
port; left out, a setting follows its default):
  --fec none|fc|rs   forward error correction; default rs at 25G, 50G and
                     100G, none at 10G and 40G (on wedge100bf-32x, Stratum
                     runs fc only at 10G/40G and rs only at 25G/50G/100G)
  --autoneg          auto-negotiation (default off)
  --mtu BYTES        largest frame, 1200..10240 (the sim platform: ..9216);
                     default 9216
  --enabled=false    keep the port administratively down (default enabled)`

// portSettingFlags are the flags port add and port set take for a port's
// settings.
type portSettingFlags struct {
	fec              string
	autoneg, enabled bool
	mtu              uint32
}

func (f *portSettingFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.fec, "fec", "", "none, fc or rs (default: by speed); 'default' to follow the speed again")
	fl.BoolVar(&f.autoneg, "autoneg", config.DefaultAutoneg, "auto-negotiation")
	fl.Uint32Var(&f.mtu, "mtu", 0, "largest frame in bytes, 1200..10240 (default 9216); 0 to follow the default again")
	fl.BoolVar(&f.enabled, "enabled", config.DefaultEnabled, "admin state: false keeps the port down")
}

// apply sets on p the settings whose flags were given. name is the port
// as the operator typed it, for messages.
func (f *portSettingFlags) apply(cmd *cobra.Command, name string, p *config.Port) error {
	fl := cmd.Flags()
	if fl.Changed("fec") {
		switch v := config.FEC(strings.ToLower(f.fec)); {
		case v == "default":
			p.FEC = ""
		case v.Valid():
			p.FEC = v
		default:
			return usagef("port %s: --fec %q: want none, fc, rs or default", name, f.fec)
		}
	}
	if fl.Changed("autoneg") {
		v := f.autoneg
		p.Autoneg = &v
	}
	if fl.Changed("mtu") {
		if f.mtu != 0 && (f.mtu < config.MinMTU || f.mtu > config.MaxMTU) {
			return usagef("port %s: --mtu %d: want %d..%d bytes, or 0 for the default (%d)", name, f.mtu, config.MinMTU, config.MaxMTU, config.DefaultMTU)
		}
		p.MTU = f.mtu
	}
	if fl.Changed("enabled") {
		v := f.enabled
		p.Enabled = &v
	}
	return nil
}

func newPortSetCmd(a *app) *cobra.Command {
	var o applyOpts
	var ps portSettingFlags
	var speed string
	var breakout uint32
	cmd := &cobra.Command{
		Use:   "set PORT [--speed SPEED] [--breakout 0|4] [--fec MODE] [--autoneg] [--mtu BYTES] [--enabled=false]",
		Short: "Change a front-panel port's speed, breakout, FEC, autoneg, MTU or admin state",
		Long: `Change the settings of front-panel port PORT (1..32; P4 and 4/0 also name it).
Only the flags given change. A new speed or breakout must still suit the
links and filter groups on the port's lanes (the change is refused
otherwise, with the reason).
` + portSettingsHelp,
		Example: `  balancer port set 9 --mtu 9600
  balancer port set 9 --fec none --autoneg
  balancer port set 4 --enabled=false
  balancer port set 9 --fec default`,
		Args: exactArgs("PORT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := parsePortNumber(args[0])
			if err != nil {
				return err
			}
			changed := false
			for _, n := range []string{"speed", "breakout", "fec", "autoneg", "mtu", "enabled"} {
				changed = changed || cmd.Flags().Changed(n)
			}
			if !changed {
				return usagef("port set %s: give at least one of --speed, --breakout, --fec, --autoneg, --mtu, --enabled", args[0])
			}
			return a.edit(cmd, args, &o, func(c *config.Config) (string, error) {
				for i := range c.Ports {
					d := &c.Ports[i]
					if d.Port != p {
						continue
					}
					if cmd.Flags().Changed("speed") {
						d.Speed = strings.ToUpper(speed)
					}
					if cmd.Flags().Changed("breakout") {
						d.Breakout = breakout
					}
					return "", ps.apply(cmd, args[0], d)
				}
				var defined []string
				for _, d := range c.Ports {
					defined = append(defined, strconv.Itoa(int(d.Port)))
				}
				return "", errUnknown("port", args[0], defined)
			})
		},
	}
	cmd.Flags().StringVar(&speed, "speed", "", "10G, 25G, 40G, 50G or 100G (per lane when broken out)")
	cmd.Flags().Uint32Var(&breakout, "breakout", 0, "4 to break the port out into 4 lanes, 0 to run it whole")
	ps.register(cmd)
	addApplyFlags(cmd, &o)
	return cmd
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
