package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/durationpb"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/config"
)

// Configuration sessions: while one is open (the daemon keeps it, for
// every operator), the edit commands stage into it instead of applying;
// 'config session commit' applies what is staged as one revision.

// Bounds of --confirm (the daemon's too).
const (
	minConfirm = time.Second
	maxConfirm = 24 * time.Hour
)

// openSession returns the daemon's open configuration session (nil: none,
// or a daemon without sessions).
func openSession(ctx context.Context, cl apiv1.BalancerClient) (*apiv1.ConfigSessionResponse, error) {
	r, err := cl.ConfigSession(ctx, &apiv1.ConfigSessionRequest{Action: apiv1.ConfigSessionRequest_SHOW})
	var ae *apiError
	if errors.As(err, &ae) && ae.code == codes.Unimplemented {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if r.GetSession() == nil {
		return nil, nil
	}
	return r, nil
}

// stage makes an edit in the open session: it reads the staged
// configuration, lets change modify it and stages the result. With
// --dry-run it only shows what the edit would stage. It returns false
// when the session closed meanwhile (the edit is then applied directly).
func (a *app) stage(ctx context.Context, cl apiv1.BalancerClient, o *applyOpts, comment string, change func(c *config.Config) (string, error)) (bool, error) {
	for attempt := 1; ; attempt++ {
		sess, err := openSession(ctx, cl)
		if err != nil || sess == nil {
			return false, err
		}
		s := sess.GetSession()
		staged := &apiv1.GetConfigResponse{Yaml: s.GetYaml(), Revision: s.GetBase()}
		data, note, err := editYAML(staged, change)
		if err != nil {
			return true, err
		}
		res, err := cl.ConfigSession(ctx, &apiv1.ConfigSessionRequest{Action: apiv1.ConfigSessionRequest_STAGE,
			Yaml: string(data), Version: s.GetVersion(), Edit: comment, DryRun: o.dryRun})
		var ae *apiError
		if errors.As(err, &ae) && ae.code == codes.Aborted && attempt < editRetries {
			continue // another edit was staged meanwhile: redo it on top
		}
		if errors.As(err, &ae) && ae.code == codes.FailedPrecondition && attempt < editRetries {
			if again, _ := openSession(ctx, cl); again == nil {
				return false, nil // committed or aborted meanwhile
			}
		}
		if err != nil {
			return true, err
		}
		if a.structured() {
			res.GetSession().Yaml = ""
			return true, a.printProto(res)
		}
		if note != "" {
			fmt.Fprintln(a.stdout, note)
		}
		writeStage(a.stdout, res, o.dryRun)
		for _, f := range []struct {
			name string
			on   bool
		}{{"--force", o.force}, {"--strict", o.strict}} {
			if f.on {
				fmt.Fprintf(a.stdout, "note: %s is for the commit: staging applies nothing; give it to 'balancer config session commit'\n", f.name)
			}
		}
		return true, nil
	}
}

func writeStage(w io.Writer, res *apiv1.ConfigSessionResponse, dryRun bool) {
	s := res.GetSession()
	switch {
	case dryRun:
		fmt.Fprintf(w, "dry run: would stage in the configuration session (on revision %d):\n", s.GetBase().GetNumber())
	case len(res.GetChanges()) == 0:
		fmt.Fprintf(w, "staged in the configuration session (on revision %d), edit %d: no change to the staged configuration\n",
			s.GetBase().GetNumber(), len(s.GetEdits()))
	default:
		fmt.Fprintf(w, "staged in the configuration session (on revision %d), edit %d:\n", s.GetBase().GetNumber(), len(s.GetEdits()))
	}
	for _, c := range res.GetChanges() {
		fmt.Fprintf(w, "  %s\n", c)
	}
	if res.GetWarning() != "" {
		fmt.Fprintf(w, "warning: %s\n", res.GetWarning())
	}
	if !dryRun {
		fmt.Fprintln(w, "nothing is applied until 'balancer config session commit' ('balancer config session diff' shows it all)")
	}
}

func newConfigSessionCmd(a *app) *cobra.Command {
	cmd := group("session", "Stage several edits and commit them as one revision",
		`A configuration session stages edits against the running revision and
commits them together: one revision, one switch write.

'session start' opens it on the running revision. While it is open, the
edit commands (port, link, filter-group, balance-group, profile, rule: add,
set, del, ...) stage into it instead of applying: for every operator, since
the daemon keeps the session (it survives the CLI exiting and a daemon
restart). 'config apply' and 'config rollback' still apply at once.
'session diff' shows the staged edits and what they change; 'session
commit' applies them, 'session abort' drops them.

A commit is refused when the running revision moved since 'session start'
(another operator applied a change): the refusal shows what moved.
'session rebase' moves the session onto the running revision (refused,
naming them, where an object changed both in the session and since), or
'session abort' drops it.

'session commit --confirm 5m' applies the revision and rolls it back by
itself to the revision before it unless 'balancer config confirm' comes
within 5 minutes: a change that cuts the operator's own access undoes
itself. The deadline is saved with the configuration, so a daemon restart
or an HA takeover still rolls back on time; until then other changes are
refused.`,
		`  balancer config session start
  balancer rule add bgp --prio 900 --match 'proto tcp l4-port 179' --action bypass
  balancer filter-group set F2 --cores 8
  balancer config session diff
  balancer config session commit --confirm 5m
  balancer config confirm`)
	cmd.AddCommand(newSessionStartCmd(a), newSessionDiffCmd(a), newSessionCommitCmd(a), newSessionAbortCmd(a), newSessionRebaseCmd(a))
	return cmd
}

func (a *app) sessionCall(cmd *cobra.Command, action apiv1.ConfigSessionRequest_Action) (*apiv1.ConfigSessionResponse, error) {
	cl, err := a.client()
	if err != nil {
		return nil, err
	}
	ctx, cancel := a.rpcContext(cmd)
	defer cancel()
	return cl.ConfigSession(ctx, &apiv1.ConfigSessionRequest{Action: action})
}

func newSessionStartCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "start",
		Short: "Open a configuration session on the running revision",
		Example: `  balancer config session start
  balancer rule add bgp --prio 900 --match 'proto tcp l4-port 179' --action bypass`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := a.sessionCall(cmd, apiv1.ConfigSessionRequest_START)
			if err != nil {
				return err
			}
			if a.structured() {
				r.GetSession().Yaml = ""
				return a.printProto(r)
			}
			fmt.Fprintf(a.stdout, "configuration session started on revision %d: edits now stage into it; 'balancer config session commit' applies them as one revision, 'balancer config session abort' drops them\n",
				r.GetSession().GetBase().GetNumber())
			return nil
		},
	}
}

func newSessionDiffCmd(a *app) *cobra.Command {
	var yaml bool
	cmd := &cobra.Command{
		Use:   "diff [--yaml]",
		Short: "Show the open session: its edits, what they change, and what moved since it started",
		Example: `  balancer config session diff
  balancer config session diff --yaml > staged.yaml`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := a.sessionCall(cmd, apiv1.ConfigSessionRequest_SHOW)
			if err != nil {
				return err
			}
			if a.structured() {
				if !yaml && r.GetSession() != nil {
					r.GetSession().Yaml = ""
				}
				return a.printProto(r)
			}
			if r.GetSession() == nil {
				fmt.Fprintf(a.stdout, "no configuration session is open (revision %d runs); 'balancer config session start' opens one\n", r.GetRunning().GetNumber())
				return nil
			}
			if yaml {
				_, err := io.WriteString(a.stdout, ensureNewline(r.GetSession().GetYaml()))
				return err
			}
			writeSessionDiff(a.stdout, r)
			return nil
		},
	}
	cmd.Flags().BoolVar(&yaml, "yaml", false, "print the whole staged configuration instead")
	return cmd
}

func writeSessionDiff(w io.Writer, r *apiv1.ConfigSessionResponse) {
	s := r.GetSession()
	base := s.GetBase().GetNumber()
	fmt.Fprintf(w, "configuration session started %s on revision %d; revision %d runs\n", fmtTime(s.GetStarted()), base, r.GetRunning().GetNumber())
	fmt.Fprintf(w, "%s staged:\n", plural(int64(len(s.GetEdits())), "edit"))
	for i, e := range s.GetEdits() {
		fmt.Fprintf(w, "  %d. %s\n", i+1, e)
	}
	if len(r.GetChanges()) == 0 {
		fmt.Fprintf(w, "no change against revision %d\n", base)
	} else {
		fmt.Fprintf(w, "changes against revision %d:\n", base)
		for _, c := range r.GetChanges() {
			fmt.Fprintf(w, "  %s\n", c)
		}
	}
	if r.GetRunning().GetNumber() != base {
		fmt.Fprintf(w, "the running revision moved since the session started (now %d: %s); what moved:\n", r.GetRunning().GetNumber(), r.GetRunning().GetComment())
		for _, c := range r.GetMoved() {
			fmt.Fprintf(w, "  %s\n", c)
		}
		fmt.Fprintf(w, "a commit is refused: rebase the session onto revision %d ('balancer config session rebase') or abort it ('balancer config session abort')\n", r.GetRunning().GetNumber())
	}
	if r.GetWarning() != "" {
		fmt.Fprintf(w, "warning: %s\n", r.GetWarning())
	}
}

func newSessionCommitCmd(a *app) *cobra.Command {
	var o applyOpts
	var confirm time.Duration
	cmd := &cobra.Command{
		Use:   "commit [--confirm DURATION] [--comment TEXT] [--dry-run] [--force] [--strict]",
		Short: "Apply the open session's edits as one revision (optionally rolled back unless confirmed)",
		Long: `Apply what the open session staged as one revision, on top of the
revision it started on; refused when the running revision moved since.
The session closes once the revision is saved.

With --confirm DURATION the daemon rolls the new revision back by itself
to the revision before it unless 'balancer config confirm' comes within
DURATION (1s to 24h). 'balancer status' shows the deadline.`,
		Example: `  balancer config session commit
  balancer config session commit --confirm 5m --comment 'move bgp to bypass'
  balancer config session commit --dry-run`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkComment(o.comment); err != nil {
				return err
			}
			req := &apiv1.CommitSessionRequest{Comment: o.comment, Force: o.force, Strict: o.strict, DryRun: o.dryRun}
			if cmd.Flags().Changed("confirm") {
				if confirm < minConfirm || confirm > maxConfirm {
					return usagef("--confirm %s is out of range %s..%s (leave it out to commit without confirmation)", confirm, minConfirm, maxConfirm)
				}
				req.Confirm = durationpb.New(confirm)
			}
			cl, err := a.client()
			if err != nil {
				return err
			}
			ctx, cancel := a.rpcContext(cmd)
			defer cancel()
			res, err := cl.CommitSession(ctx, req)
			if err != nil {
				return err
			}
			return a.printApply(res)
		},
	}
	cmd.Flags().BoolVar(&o.dryRun, "dry-run", false, "validate and show what the commit would change; save and program nothing (the session stays)")
	cmd.Flags().BoolVar(&o.force, "force", false, "apply even when the change removes links, filter groups or balance groups, or most switch entries")
	cmd.Flags().StringVar(&o.comment, "comment", "", "comment saved with the new revision (default: the staged edits)")
	addStrictFlag(cmd, &o)
	cmd.Flags().DurationVar(&confirm, "confirm", 0, "roll the revision back by itself unless 'balancer config confirm' comes within this time (1s to 24h)")
	return cmd
}

func newSessionAbortCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:     "abort",
		Short:   "Drop the open session and its staged edits (nothing was applied)",
		Example: `  balancer config session abort`,
		Args:    exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := a.sessionCall(cmd, apiv1.ConfigSessionRequest_ABORT)
			if err != nil {
				return err
			}
			if a.structured() {
				return a.printProto(r)
			}
			fmt.Fprintf(a.stdout, "configuration session aborted: %s dropped; revision %d runs\n",
				plural(int64(len(r.GetSession().GetEdits())), "staged edit"), r.GetRunning().GetNumber())
			return nil
		},
	}
}

func newSessionRebaseCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "rebase",
		Short: "Move the open session onto the running revision, keeping its changes",
		Long: `When the running revision moved since the session started, apply what
the session changes to the running configuration instead, object by object
(a port by number; a link, filter group, balance group, profile or rule by
name; the site, platform, port map and defaults each as one). Refused,
naming them, when an object changed both in the session and since it
started: then abort the session and stage those edits again.`,
		Example: `  balancer config session commit     # refused: the running revision moved
  balancer config session rebase
  balancer config session commit`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := a.sessionCall(cmd, apiv1.ConfigSessionRequest_REBASE)
			if err != nil {
				return err
			}
			if a.structured() {
				r.GetSession().Yaml = ""
				return a.printProto(r)
			}
			if r.GetWarning() != "" {
				fmt.Fprintln(a.stdout, r.GetWarning())
				return nil
			}
			fmt.Fprintf(a.stdout, "configuration session rebased onto revision %d; what it changes against it:\n", r.GetSession().GetBase().GetNumber())
			for _, c := range r.GetChanges() {
				fmt.Fprintf(a.stdout, "  %s\n", c)
			}
			return nil
		},
	}
}

func newConfigConfirmCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "confirm",
		Short: "Keep the revision of a pending commit confirmed (else it rolls back at its deadline)",
		Example: `  balancer config session commit --confirm 5m
  balancer status        # check the access still works
  balancer config confirm`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			cl, err := a.client()
			if err != nil {
				return err
			}
			ctx, cancel := a.rpcContext(cmd)
			defer cancel()
			r, err := cl.ConfirmCommit(ctx, &apiv1.ConfirmCommitRequest{})
			if err != nil {
				return err
			}
			if a.structured() {
				return a.printProto(r)
			}
			fmt.Fprintf(a.stdout, "confirmed: revision %d stays\n", r.GetRevision().GetNumber())
			return nil
		},
	}
}

// writeConfirmAndSession writes status's lines on a pending commit
// confirmed and an open configuration session.
func writeConfirmAndSession(w io.Writer, st *apiv1.Status) {
	if c := st.GetCommitConfirm(); c != nil {
		in := ""
		if now := st.GetObservedAt(); now != nil {
			in = fmt.Sprintf(" (in %s)", c.GetDeadline().AsTime().Sub(now.AsTime()).Round(time.Second))
		}
		fmt.Fprintf(w, "  commit confirmed: revision %d rolls back to revision %d at %s%s unless `balancer config confirm`\n",
			c.GetRevision(), c.GetPrevious(), fmtTime(c.GetDeadline()), in)
	}
	if s := st.GetConfigSession(); s != nil {
		fmt.Fprintf(w, "  configuration session open: %s staged on revision %d since %s (balancer config session diff)\n",
			plural(int64(len(s.GetEdits())), "edit"), s.GetBase().GetNumber(), fmtTime(s.GetStarted()))
	}
}
