package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/config/chassis"
)

func newSwitchCmd(a *app) *cobra.Command {
	cmd := group("switch", "What the switch itself needs from the site: its chassis (port) config",
		`Commands that turn the site into the switch's own configuration.`,
		`  balancer switch chassis-config > chassis_config.pb.txt
  balancer switch chassis-config -f site.yaml --node-id 1`)
	cmd.AddCommand(newChassisConfigCmd(a))
	return cmd
}

const chassisConfigLong = `Print the Stratum chassis config of the site (protobuf text format,
Stratum's ChassisConfig): one singleton port per whole port and per lane of
a broken-out port, numbered as the platform's Stratum does (slot 1, the
front-panel port, the lane as channel), with the site's speed, FEC,
autoneg, MTU and admin state, on node NODE-ID (the switch's P4Runtime
device id, --device-id of the daemon). The gNMI interface names are the
<port>/<lane> names (9/0, 4/1) the daemon watches.

Without -f it renders the daemon's running site. The platform must be one
Stratum runs (wedge100bf-32x).

Push it to Stratum at start (stratum_bfrt --chassis_config_file=FILE) or
at run time with a gNMI Set that replaces "/" with the file's bytes
(bytes_val); docs/tofino.md shows both.`

func newChassisConfigCmd(a *app) *cobra.Command {
	var file string
	var nodeID uint64
	cmd := &cobra.Command{
		Use:   "chassis-config [-f SITE.yaml] [--node-id N]",
		Short: "Print the site's Stratum chassis config (ports, speeds, FEC, autoneg, MTU, admin state)",
		Long:  chassisConfigLong,
		Example: `  balancer switch chassis-config > chassis_config.pb.txt
  balancer switch chassis-config -f examples/site.yaml --node-id 1`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			var cfg *config.Config
			if file != "" {
				c, err := config.Load(file)
				if err != nil {
					return err
				}
				cfg = c
			} else {
				c, _, err := a.getConfig(cmd)
				if err != nil {
					return err
				}
				cfg = c
			}
			if nodeID == 0 {
				return usagef("--node-id 0: give the switch's P4Runtime device id (1 or more)")
			}
			text, err := chassis.Render(cfg, nodeID)
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(a.stdout, string(text))
			return err
		},
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "the site configuration to render (default: the daemon's running one)")
	cmd.Flags().Uint64Var(&nodeID, "node-id", 1, "Stratum's node id: the switch's P4Runtime device id")
	return cmd
}
