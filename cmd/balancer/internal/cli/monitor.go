package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	apiv1 "github.com/dpi-balancer/balancer/api"
)

// eventReplayMax is how many past events the daemon keeps.
const eventReplayMax = 4096

// eventLine is one event as a line of text.
func eventLine(e *apiv1.Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  %-12s %s", e.GetAt().AsTime().Local().Format("2006-01-02 15:04:05.000"), e.GetKind(), e.GetObject())
	switch {
	case e.GetFrom() != "":
		fmt.Fprintf(&b, ": %s -> %s", e.GetFrom(), e.GetTo())
	case e.GetTo() != "":
		fmt.Fprintf(&b, ": %s", e.GetTo())
	}
	if e.GetReason() != "" {
		fmt.Fprintf(&b, " (%s)", e.GetReason())
	}
	if e.GetBy() != "" {
		fmt.Fprintf(&b, " by %s", e.GetBy())
	}
	return b.String()
}

// streamEvents prints the daemon's events: replay past ones, then (with
// follow) each new one as it comes, as text lines or one JSON object per
// line (-o json; -o yaml writes YAML documents).
func (a *app) streamEvents(cmd *cobra.Command, replay int, object string, follow bool, header string) error {
	if replay < 0 || replay > eventReplayMax {
		return usagef("--replay %d: give 0 to %d events (the daemon keeps the last %d)", replay, eventReplayMax, eventReplayMax)
	}
	cl, err := a.client()
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	if !follow {
		var cancel func()
		ctx, cancel = a.rpcContext(cmd)
		defer cancel()
	}
	st, err := cl.Monitor(ctx, &apiv1.MonitorRequest{Replay: uint32(replay), Object: object, Follow: follow})
	if err != nil {
		return err
	}
	lineJSON := protojson.MarshalOptions{UseProtoNames: true, EmitUnpopulated: true}
	n := 0
	for {
		e, err := st.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if follow && ctx.Err() != nil && status.Code(err) == codes.Canceled {
				return nil // Ctrl-C
			}
			// (A client that fell behind is ended UNAVAILABLE too, by the
			// daemon, saying so: that stays an error.)
			lagged := strings.Contains(status.Convert(err).Message(), "monitor client fell")
			if follow && ctx.Err() == nil && !lagged && (status.Code(err) == codes.Unavailable || status.Code(err) == codes.Canceled) {
				// The daemon went away (stopped, restarted, crashed): the
				// stream ends as it would at its end, with what happened.
				where := "the daemon"
				if a.dial != nil {
					where += " at " + a.dial.where
				}
				fmt.Fprintf(a.stderr, "balancer: the event stream ended: %s stopped (or the connection to it was lost) after %s; "+
					"when it is running again, 'balancer monitor' follows it again (--replay N shows the last N events)\n", where, plural(int64(n), "event"))
				return nil
			}
			return err
		}
		if n == 0 && header != "" && !a.structured() {
			fmt.Fprintln(a.stdout, header)
		}
		n++
		switch a.output {
		case outJSON:
			b, err := lineJSON.Marshal(e)
			if err != nil {
				return fmt.Errorf("encoding the event: %w", err)
			}
			fmt.Fprintf(a.stdout, "%s\n", b)
		case outYAML:
			fmt.Fprintln(a.stdout, "---")
			if err := a.printProto(e); err != nil {
				return err
			}
		default:
			fmt.Fprintln(a.stdout, eventLine(e))
		}
	}
	if n == 0 && !a.structured() && object != "" {
		fmt.Fprintf(a.stdout, "no events of %s among the daemon's last %d\n", object, eventReplayMax)
	}
	return nil
}

func newMonitorCmd(a *app) *cobra.Command {
	var replay int
	var object string
	cmd := &cobra.Command{
		Use:   "monitor",
		Short: "Stream what happens on the site as it happens",
		Long: `Stream the daemon's events as they happen: filter group state changes (with
the reason: keep-alive loss, a data-plane verdict, port down, ...), manual
bypass, applied configuration revisions, the switch session (primary or
backup) and alarms. --replay first prints that many past events (the daemon
keeps the last 4096). Ends with Ctrl-C.

-o json prints one JSON object per line (for jq and log shippers).`,
		Example: `  balancer monitor
  balancer monitor --replay 20
  balancer monitor --object F2 -o json | jq -r .to`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.streamEvents(cmd, replay, object, true, "")
		},
	}
	cmd.Flags().IntVar(&replay, "replay", 0, "print this many past events first (0-4096)")
	cmd.Flags().StringVar(&object, "object", "", "only the events of this object (a filter group, \"all\" for the site-wide bypass, ...)")
	return cmd
}

// newFilterGroupShowCmd: one filter group, its state now and its recent
// history (the daemon's events of it).
func newFilterGroupShowCmd(a *app) *cobra.Command {
	var history int
	cmd := &cobra.Command{
		Use:   "show NAME",
		Short: "Show one filter group: its wiring, its state now and its recent history",
		Example: `  balancer filter-group show F2
  balancer filter-group show F2 --history 50`,
		Args: exactArgs("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			if history < 0 || history > eventReplayMax {
				return usagef("--history %d: give 0 to %d events", history, eventReplayMax)
			}
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
			var f *apiv1.FilterStatus
			var names []string
			for _, x := range st.GetFilters() {
				names = append(names, x.GetName())
				if x.GetName() == name {
					f = x
				}
			}
			if f == nil {
				return fmt.Errorf("unknown filter group %q; the filter groups are %s", name, strings.Join(names, ", "))
			}
			if a.structured() {
				return a.printProto(f)
			}
			w := a.stdout
			fmt.Fprintf(w, "filter group %s (id %d), balance group %s, %d cores, LAN %s WAN %s\n", f.GetName(), f.GetId(),
				orDash(f.GetBalanceGroup()), f.GetCores(), f.GetLan(), f.GetWan())
			fmt.Fprintf(w, "state %s (%s) since %s (%s); the data plane: %s\n", f.GetState(), f.GetReason(),
				fmtTime(f.GetSince()), fmtAge(f.GetSince(), st.GetObservedAt()), f.GetEffective())
			fmt.Fprintf(w, "keep-alives: %d passed, %d lost (%d in a row now), %d misrouted; failure action %s\n",
				f.GetPasses(), f.GetLosses(), f.GetConsecutive(), f.GetMisrouted(), f.GetFailureAction())
			for _, r := range f.GetRoundTrips() {
				if r.GetSamples() > 0 {
					fmt.Fprintf(w, "round trip %s: p50 %s, p99 %s, last %s (the latest %d keep-alives, by the switch's clock)\n", r.GetDirection(),
						fmtRTT(r.GetP50()), fmtRTT(r.GetP99()), fmtRTT(r.GetLast()), r.GetSamples())
				}
			}
			if f.GetLossRounds() > 0 {
				fmt.Fprintf(w, "keep-alive loss: %.1f %% of the last %d rounds\n", f.GetLossPercent(), f.GetLossRounds())
			}
			if fo := f.GetFailOpen(); fo != nil {
				fmt.Fprintf(w, "fail-open probes: every %d rounds, %d sent, %d returned, %d rounds dropped; fail_open_action %s\n",
					fo.GetProbeEvery(), fo.GetSent(), fo.GetReturned(), fo.GetDropped(), fo.GetAction())
				if fo.GetFailedOpen() {
					fmt.Fprintf(w, "ALARM %s, since %s (%s)\n", fo.GetDetail(), fmtTime(fo.GetSince()), fmtAge(fo.GetSince(), st.GetObservedAt()))
				}
			}
			if f.GetVerdict() != "" {
				fmt.Fprintf(w, "data-plane verdict: %s (epoch %d)\n", f.GetVerdict(), f.GetVerdictEpoch())
			}
			if history == 0 {
				return nil
			}
			fmt.Fprintln(w)
			return a.streamEvents(cmd, history, name, false, "recent events:")
		},
	}
	cmd.Flags().IntVar(&history, "history", 20, "how many of its recent events to list (0-4096)")
	return cmd
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
