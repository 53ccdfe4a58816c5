package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	apiv1 "github.com/dpi-balancer/balancer/api"
)

func newAlarmCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "alarm list|ack",
		Short: "List the daemon's alarms, or acknowledge one",
		Long: `The daemon's own alarms: conditions that need the operator, each with a
stable name, what it concerns, what to do and how it clears. 'balancer
status' prints them as ALARM lines, the gNMI tree under /balancer/alarms
and the metric balancer_alarm (docs/telemetry.md); 'list' lists them.

  state-repaired                files of the state directory were removed or
                                damaged and repaired at start; stays until
                                acknowledged
  runtime-save-failed           the failure states or manual bypass were not
                                saved; clears with the next save
  verdict-unknown-filter-group  the switch sent a verdict for a filter group
                                the configuration does not have; clears with
                                the next configuration, or acknowledged
  store-catch-up-failed         the shared store could not be read again after
                                a refused save; clears with the next read
  store-unreachable             the shared store does not answer; clears when
                                it does
  daemon-task-ended             a task of the daemon ended with an error;
                                clears with a restart
  evidence-copy-refused         a multi-pipe Tofino refused the evidence
                                copy's mirror sessions; clears when a
                                reconciliation writes them
  session-memory                the session table is over 90 % full or its
                                learner is behind (sessions.enabled); clears
                                when neither holds`,
		Example: `  balancer alarm list
  balancer alarm ack state-repaired`,
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "List the raised alarms, each with its remedy",
		Example: `  balancer alarm list
  balancer alarm list -o json`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			cl, err := a.client()
			if err != nil {
				return err
			}
			ctx, cancel := a.rpcContext(cmd)
			defer cancel()
			st, err := cl.GetStatus(ctx, &apiv1.GetStatusRequest{})
			if err != nil {
				return err
			}
			if a.structured() {
				return a.printProto(&apiv1.Status{Alarms: st.GetAlarms()})
			}
			if len(st.GetAlarms()) == 0 {
				fmt.Fprintln(a.stdout, "no alarm raised")
				return nil
			}
			writeAlarms(a.stdout, st)
			return nil
		},
	}, &cobra.Command{
		Use:   "ack NAME",
		Short: "Acknowledge a raised alarm: it clears",
		Long: `Acknowledge the raised alarm NAME (as 'balancer alarm list' names it): it
clears. One that clears itself when its condition ends is raised again while
the condition stands.`,
		Example: `  balancer alarm ack state-repaired`,
		Args:    exactArgs("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			cl, err := a.client()
			if err != nil {
				return err
			}
			ctx, cancel := a.rpcContext(cmd)
			defer cancel()
			r, err := cl.AckAlarm(ctx, &apiv1.AckAlarmRequest{Name: args[0]})
			if err != nil {
				return err
			}
			if a.structured() {
				return a.printProto(r)
			}
			fmt.Fprintf(a.stdout, "alarm %s acknowledged (%s: %s)\n", r.GetAlarm().GetName(), r.GetAlarm().GetObject(), r.GetAlarm().GetMessage())
			return nil
		},
	})
	return cmd
}

// writeAlarms writes the daemon's alarms, one ALARM line each and its
// remedy (which says how it clears).
func writeAlarms(w io.Writer, st *apiv1.Status) {
	now := st.GetObservedAt()
	for _, al := range st.GetAlarms() {
		fmt.Fprintf(w, "ALARM %s: %s: %s, since %s (%s)\n  remedy: %s\n", al.GetName(), al.GetObject(), al.GetMessage(),
			fmtTime(al.GetSince()), fmtAge(al.GetSince(), now), al.GetRemedy())
	}
}
