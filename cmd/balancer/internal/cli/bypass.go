package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	apiv1 "github.com/dpi-balancer/balancer/api"
)

// notOnSwitch says why a change the daemon saved is not on the switch
// yet ("" when it is, or when a leader programs it).
func notOnSwitch(st *apiv1.Status) string {
	sw := st.GetSwitchStatus()
	if h := st.GetHa(); h != nil && !h.GetLeader() {
		return "saved; standby: the leader programs the switch"
	}
	switch {
	case sw.GetStalled():
		return "saved, but not on the switch yet: the switch is not answering (stalled); it is written when the switch answers again"
	case !sw.GetConnected():
		return "saved, but not on the switch yet: the switch is not connected; it is written on reconnection"
	case !sw.GetPrimary() && sw.GetAlarm() != "":
		return "saved, but not on the switch: " + sw.GetAlarm()
	case !sw.GetPrimary():
		return "saved, but not on the switch yet: this daemon is not the switch's primary controller yet; it is written when it is"
	case sw.GetStatePending():
		return "saved, but not on the switch yet: the write did not go through and is retried (see balancer status)"
	}
	return ""
}

func newBypassCmd(a *app) *cobra.Command {
	var groupName string
	var all bool
	cmd := &cobra.Command{
		Use:   "bypass on|off (--group FILTER-GROUP | --all)",
		Short: "Put a filter, or everything, in manual bypass, or take it out",
		Long: `Manual bypass, for maintenance of a filter or of the whole filter row.

With --group, filter group FILTER-GROUP's share of the traffic loops LAN<->WAN
on the switch (software bypass), as when the filter fails with failure
action bypass: the filter can be rebooted or re-cabled without the
operator's links seeing a flap. Keep-alives still cross it, so 'status'
shows whether it answers before you take it out of bypass.

With --all, every link bypasses every filter: the switch is a wire.

Manual bypass is runtime state, not configuration: it is not a revision,
and it survives restarts of the daemon until turned off.`,
		Example: `  # before upgrading filter F2
  balancer bypass on --group F2
  balancer status            # F2: admin-bypass
  balancer bypass off --group F2

  # take the whole filter row out of the path
  balancer bypass on --all`,
		Args: func(cmd *cobra.Command, args []string) error {
			if err := exactArgs("on|off")(cmd, args); err != nil {
				return err
			}
			if args[0] != "on" && args[0] != "off" {
				return usagef("bypass %q: want on or off", args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			on := args[0] == "on"
			if all && groupName != "" {
				return usagef("give either --group or --all, not both")
			}
			if !all && groupName == "" {
				return usagef("say what to bypass: --group FILTER-GROUP, or --all for every filter")
			}
			cl, err := a.client()
			if err != nil {
				return err
			}
			ctx, cancel := a.rpcContext(cmd)
			defer cancel()
			if _, err := cl.SetBypass(ctx, &apiv1.SetBypassRequest{Group: groupName, On: on}); err != nil {
				return err
			}
			st, err := cl.GetStatus(ctx, &apiv1.GetStatusRequest{})
			if err != nil {
				return err
			}
			if a.structured() {
				return a.printProto(st.GetBypass())
			}
			what := "every filter (--all)"
			if groupName != "" {
				what = "filter group " + groupName
			}
			fmt.Fprintf(a.stdout, "manual bypass %s for %s\n", args[0], what)
			writeBypass(a.stdout, st.GetBypass())
			if w := notOnSwitch(st); w != "" {
				fmt.Fprintf(a.stdout, "warning: %s\n", w)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&groupName, "group", "", "the filter group to bypass")
	cmd.Flags().BoolVar(&all, "all", false, "bypass every filter: all traffic goes straight through")
	return cmd
}

func writeBypass(w io.Writer, b *apiv1.BypassStatus) {
	switch {
	case b.GetAll() && len(b.GetGroups()) > 0:
		fmt.Fprintf(w, "manual bypass: ALL (every filter); also filter groups %s\n", strings.Join(b.GetGroups(), ", "))
	case b.GetAll():
		fmt.Fprintln(w, "manual bypass: ALL (every filter)")
	case len(b.GetGroups()) > 0:
		fmt.Fprintf(w, "manual bypass: filter groups %s\n", strings.Join(b.GetGroups(), ", "))
	default:
		fmt.Fprintln(w, "manual bypass: none")
	}
}
