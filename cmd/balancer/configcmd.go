package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/config"
)

func newConfigCmd(a *app) *cobra.Command {
	cmd := group("config", "The whole configuration: show, export, apply, diff, rollback, history",
		`The running configuration is one YAML document (the site model; see
examples/site.yaml). Every change, by the object commands or by 'config
apply', makes a new revision: validated as a whole, saved atomically, then
programmed into the switch. 'config history' lists the revisions;
'config rollback' re-applies an old one as a new revision.`,
		`  balancer config export -f site.yaml
  $EDITOR site.yaml
  balancer config check site.yaml
  balancer config diff -f site.yaml
  balancer config apply -f site.yaml --comment 'add link L3'
  balancer config history
  balancer config rollback 4`)
	cmd.AddCommand(newConfigShowCmd(a), newConfigExportCmd(a), newConfigApplyCmd(a), newConfigDiffCmd(a), newConfigCheckCmd(a),
		newConfigRollbackCmd(a), newConfigHistoryCmd(a))
	return cmd
}

func (a *app) fetchConfig(cmd *cobra.Command) (*apiv1.GetConfigResponse, error) {
	cl, err := a.client()
	if err != nil {
		return nil, err
	}
	ctx, cancel := a.rpcContext(cmd)
	defer cancel()
	return cl.GetConfig(ctx, &apiv1.GetConfigRequest{})
}

func newConfigShowCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "show",
		Short: "Print the running configuration with its revision",
		Example: `  balancer config show
  balancer config show -o json | jq -r .yaml`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := a.fetchConfig(cmd)
			if err != nil {
				return err
			}
			if a.structured() {
				return a.printProto(r)
			}
			rev := r.GetRevision()
			fmt.Fprintf(a.stdout, "# revision %d, %s, digest %s", rev.GetNumber(), fmtTime(rev.GetTime()), rev.GetDigest())
			if rev.GetComment() != "" {
				fmt.Fprintf(a.stdout, ": %s", rev.GetComment())
			}
			fmt.Fprintln(a.stdout)
			_, err = io.WriteString(a.stdout, ensureNewline(r.GetYaml()))
			return err
		},
	}
}

func ensureNewline(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}

func newConfigExportCmd(a *app) *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "export [-f FILE]",
		Short: "Write the running configuration's YAML to a file or stdout",
		Long: `Write the running configuration, as YAML 'config apply' takes back, to FILE
(or stdout). Nothing else is written to stdout, so it can be piped.`,
		Example: `  balancer config export -f site.yaml
  balancer config export > site-$(date +%F).yaml`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := a.fetchConfig(cmd)
			if err != nil {
				return err
			}
			data := ensureNewline(r.GetYaml())
			if file == "" || file == "-" {
				_, err := io.WriteString(a.stdout, data)
				return err
			}
			if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
				return fmt.Errorf("export: %w", err)
			}
			fmt.Fprintf(a.stderr, "revision %d written to %s\n", r.GetRevision().GetNumber(), file)
			return nil
		},
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "write to FILE instead of stdout")
	return cmd
}

// readConfigFile reads -f FILE ("-": stdin).
func (a *app) readConfigFile(file string) (string, error) {
	if file == "" {
		return "", usagef("-f FILE is missing: the configuration file to send (- for stdin)")
	}
	var data []byte
	var err error
	if file == "-" {
		data, err = io.ReadAll(a.stdin)
	} else {
		data, err = os.ReadFile(file)
	}
	if err != nil {
		return "", fmt.Errorf("reading the configuration: %w", err)
	}
	// The size, the encoding and the YAML itself are checked here, so
	// that the message is the same as the daemon's and does not come
	// from the transport (whose limit is higher, 4 MiB).
	if _, err := config.Decode(data); err != nil {
		lines := strings.Split(err.Error(), "\n")
		return "", fmt.Errorf("configuration rejected, nothing was sent:\n  %s: %s", file, strings.Join(lines, "\n  "+file+": "))
	}
	return string(data), nil
}

func newConfigApplyCmd(a *app) *cobra.Command {
	var o applyOpts
	var file string
	cmd := &cobra.Command{
		Use:   "apply -f FILE [--dry-run] [--comment TEXT]",
		Short: "Replace the running configuration with a file",
		Long: `Send FILE (- for stdin) as the whole new configuration. The daemon validates
it as a whole: when anything is wrong, every problem is listed with its
path (links[1].lan: ...) and nothing changes. Otherwise it is saved as a new
revision and the switch is programmed with the difference only.`,
		Example: `  balancer config apply -f site.yaml --dry-run
  balancer config apply -f site.yaml --comment 'ticket 4711: add filter F4'
  generate-site | balancer config apply -f -`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := a.readConfigFile(file)
			if err != nil {
				return err
			}
			cl, err := a.client()
			if err != nil {
				return err
			}
			ctx, cancel := a.rpcContext(cmd)
			defer cancel()
			comment := o.comment
			if comment == "" {
				comment = commandLine(cmd, args)
			}
			if err := checkComment(comment); err != nil {
				return err
			}
			res, err := cl.ApplyConfig(ctx, &apiv1.ApplyConfigRequest{Yaml: data, DryRun: o.dryRun, Comment: comment, Force: o.force})
			if err != nil {
				return err
			}
			return a.printApply(res)
		},
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "the configuration file (- for stdin)")
	_ = cmd.MarkFlagRequired("file")
	addApplyFlags(cmd, &o)
	return cmd
}

func newConfigDiffCmd(a *app) *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "diff -f FILE",
		Short: "Show what applying a file would change (a dry run)",
		Long: `Validate FILE against the daemon and show, without applying anything, the
objects it adds (+), changes (~) and removes (-), and how many switch
entries would be written. An invalid file is reported as 'config apply'
would.`,
		Example: `  balancer config diff -f site.yaml`,
		Args:    exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			data, err := a.readConfigFile(file)
			if err != nil {
				return err
			}
			cl, err := a.client()
			if err != nil {
				return err
			}
			ctx, cancel := a.rpcContext(cmd)
			defer cancel()
			running, err := cl.GetConfig(ctx, &apiv1.GetConfigRequest{})
			if err != nil {
				return err
			}
			res, err := cl.ApplyConfig(ctx, &apiv1.ApplyConfigRequest{Yaml: data, DryRun: true})
			if err != nil {
				return err
			}
			if a.structured() {
				return a.printProto(res)
			}
			fmt.Fprintf(a.stdout, "%s against the running revision %d:\n", file, running.GetRevision().GetNumber())
			writeApply(a.stdout, res)
			return nil
		},
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "the configuration file (- for stdin)")
	_ = cmd.MarkFlagRequired("file")
	return cmd
}

func newConfigRollbackCmd(a *app) *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "rollback REVISION",
		Short: "Re-apply an earlier revision (as a new revision)",
		Long: `Re-apply the configuration of revision REVISION ('config history' lists
them). It becomes a new revision; history is never rewritten.`,
		Example: `  balancer config history
  balancer config rollback 4`,
		Args: exactArgs("REVISION"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := strconv.ParseUint(strings.TrimPrefix(args[0], "r"), 10, 64)
			if err != nil || n == 0 {
				return usagef("REVISION %q: want a revision number (see 'balancer config history')", args[0])
			}
			cl, err := a.client()
			if err != nil {
				return err
			}
			ctx, cancel := a.rpcContext(cmd)
			defer cancel()
			res, err := cl.Rollback(ctx, &apiv1.RollbackRequest{Revision: n, Force: force})
			if err != nil {
				return err
			}
			return a.printApply(res)
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "roll back even when it removes links, filter groups or balance groups, or most switch entries")
	return cmd
}

func newConfigHistoryCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "history",
		Short: "List the saved revisions (* marks the running one)",
		Example: `  balancer config history
  balancer config history -o json`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			cl, err := a.client()
			if err != nil {
				return err
			}
			ctx, cancel := a.rpcContext(cmd)
			defer cancel()
			h, err := cl.History(ctx, &apiv1.HistoryRequest{})
			if err != nil {
				return err
			}
			if a.structured() {
				return a.printProto(h)
			}
			running, err := cl.GetConfig(ctx, &apiv1.GetConfigRequest{})
			if err != nil {
				return err
			}
			if len(h.GetRevisions()) == 0 {
				fmt.Fprintln(a.stdout, "no revisions saved yet")
				return nil
			}
			t := table(a.stdout)
			row(t, " ", "REV", "TIME", "DIGEST", "COMMENT")
			for _, r := range h.GetRevisions() {
				mark := " "
				if r.GetNumber() == running.GetRevision().GetNumber() {
					mark = "*"
				}
				row(t, mark, r.GetNumber(), fmtTime(r.GetTime()), r.GetDigest(), r.GetComment())
			}
			return t.Flush()
		},
	}
}
