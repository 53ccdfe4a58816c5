package cli

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
'config rollback' re-applies an old one as a new revision. 'config session'
stages several edits and commits them as one revision, optionally rolled
back by the daemon unless confirmed ('config confirm').`,
		`  balancer config export -f site.yaml
  $EDITOR site.yaml
  balancer config check site.yaml
  balancer config diff -f site.yaml
  balancer config apply -f site.yaml --comment 'add link L3'
  balancer config history
  balancer config rollback 4`)
	cmd.AddCommand(newConfigShowCmd(a), newConfigExportCmd(a), newConfigApplyCmd(a), newConfigDiffCmd(a), newConfigCheckCmd(a),
		newConfigRollbackCmd(a), newConfigHistoryCmd(a), newConfigSessionCmd(a), newConfigConfirmCmd(a))
	return cmd
}

// fetchConfig reads the running configuration, or revision rev (0:
// running).
func (a *app) fetchConfig(cmd *cobra.Command, rev uint64) (*apiv1.GetConfigResponse, error) {
	cl, err := a.client()
	if err != nil {
		return nil, err
	}
	ctx, cancel := a.rpcContext(cmd)
	defer cancel()
	return cl.GetConfig(ctx, &apiv1.GetConfigRequest{Revision: rev})
}

// parseRevision reads a revision number as 'config history' prints it
// (4 or r4).
func parseRevision(s string) (uint64, error) {
	n, err := strconv.ParseUint(strings.TrimPrefix(s, "r"), 10, 64)
	if err != nil || n == 0 {
		return 0, usagef("REVISION %q: want a revision number (see 'balancer config history')", s)
	}
	return n, nil
}

func newConfigShowCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "show [REVISION]",
		Short: "Print the running configuration (or a saved revision) with its revision",
		Example: `  balancer config show
  balancer config show 4
  balancer config show -o json | jq -r .yaml`,
		Args: rangeArgs(0, 1, "[REVISION]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			var want uint64
			if len(args) == 1 {
				n, err := parseRevision(args[0])
				if err != nil {
					return err
				}
				want = n
			}
			r, err := a.fetchConfig(cmd, want)
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
	var file, revision string
	cmd := &cobra.Command{
		Use:   "export [-f FILE] [--revision REVISION]",
		Short: "Write the running configuration's YAML (or a saved revision's) to a file or stdout",
		Long: `Write the running configuration, as YAML 'config apply' takes back, to FILE
(or stdout). With --revision, that saved revision instead (as saved: its
comments and layout too). Nothing else is written to stdout, so it can be
piped.`,
		Example: `  balancer config export -f site.yaml
  balancer config export --revision 4 -f site-r4.yaml
  balancer config export > site-$(date +%F).yaml`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			var rev uint64
			if revision != "" {
				n, err := parseRevision(revision)
				if err != nil {
					return err
				}
				rev = n
			}
			r, err := a.fetchConfig(cmd, rev)
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
	cmd.Flags().StringVar(&revision, "revision", "", "export this saved revision instead of the running one")
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
		lines := config.Problems(err)
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
			res, err := cl.ApplyConfig(ctx, &apiv1.ApplyConfigRequest{Yaml: data, DryRun: o.dryRun, Comment: comment, Force: o.force, Strict: o.strict})
			if err != nil {
				return err
			}
			return a.printApply(res)
		},
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "the configuration file (- for stdin)")
	_ = cmd.MarkFlagRequired("file")
	addApplyFlags(cmd, &o)
	addStrictFlag(cmd, &o)
	return cmd
}

func newConfigDiffCmd(a *app) *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "diff -f FILE | diff REVISION [REVISION]",
		Short: "Show what applying a file would change, or what changed between revisions",
		Long: `With -f FILE: validate FILE against the daemon and show, without applying
anything, the objects it adds (+), changes (~) and removes (-), and how many
switch entries would be written. An invalid file is reported as 'config
apply' would.

With REVISION: the objects that differ from that saved revision to the
running configuration, or to the second REVISION.`,
		Example: `  balancer config diff -f site.yaml
  balancer config diff 4
  balancer config diff 4 7`,
		Args: rangeArgs(0, 2, "[REVISION [REVISION]]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				if file != "" {
					return usagef("give -f FILE or REVISION, not both")
				}
				return a.diffRevisions(cmd, args)
			}
			if file == "" {
				return usagef("-f FILE or REVISION is missing: what to compare with the running configuration")
			}
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
	return cmd
}

// RevisionDiff is what 'config diff REV [REV]' prints with -o json.
type RevisionDiff struct {
	From    uint64   `json:"from"`
	To      uint64   `json:"to"`
	Changes []string `json:"changes"`
}

// diffRevisions prints the objects that differ between two revisions
// (the second defaults to the running one).
func (a *app) diffRevisions(cmd *cobra.Command, args []string) error {
	var revs [2]uint64
	for i, s := range args {
		n, err := parseRevision(s)
		if err != nil {
			return err
		}
		revs[i] = n
	}
	var cfgs [2]*config.Config
	var got [2]uint64
	for i, n := range revs {
		r, err := a.fetchConfig(cmd, n)
		if err != nil {
			return err
		}
		c, err := config.Parse([]byte(r.GetYaml()))
		if err != nil {
			return fmt.Errorf("revision %d does not read back: %w", r.GetRevision().GetNumber(), err)
		}
		cfgs[i], got[i] = c, r.GetRevision().GetNumber()
	}
	d := RevisionDiff{From: got[0], To: got[1], Changes: config.Diff(cfgs[0], cfgs[1])}
	if d.Changes == nil {
		d.Changes = []string{}
	}
	if a.structured() {
		return a.printValue(d)
	}
	to := fmt.Sprintf("revision %d", d.To)
	if len(args) == 1 {
		to += " (running)"
	}
	if len(d.Changes) == 0 {
		fmt.Fprintf(a.stdout, "revision %d and %s: no change to the configuration\n", d.From, to)
		return nil
	}
	fmt.Fprintf(a.stdout, "revision %d -> %s: %s:\n", d.From, to, plural(int64(len(d.Changes)), "change"))
	for _, c := range d.Changes {
		fmt.Fprintf(a.stdout, "  %s\n", c)
	}
	return nil
}

func newConfigRollbackCmd(a *app) *cobra.Command {
	var o applyOpts
	cmd := &cobra.Command{
		Use:   "rollback REVISION [--dry-run] [--comment TEXT]",
		Short: "Re-apply an earlier revision (as a new revision)",
		Long: `Re-apply the configuration of revision REVISION ('config history' lists
them). It becomes a new revision; history is never rewritten. Rolling back
to what already runs changes nothing and makes no revision.`,
		Example: `  balancer config history
  balancer config rollback 4 --dry-run
  balancer config rollback 4 --comment 'undo ticket 4711'`,
		Args: exactArgs("REVISION"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := parseRevision(args[0])
			if err != nil {
				return err
			}
			if err := checkComment(o.comment); err != nil {
				return err
			}
			cl, err := a.client()
			if err != nil {
				return err
			}
			ctx, cancel := a.rpcContext(cmd)
			defer cancel()
			res, err := cl.Rollback(ctx, &apiv1.RollbackRequest{Revision: n, Force: o.force, DryRun: o.dryRun, Comment: o.comment})
			if err != nil {
				return err
			}
			return a.printApply(res)
		},
	}
	addApplyFlags(cmd, &o)
	cmd.Flags().Lookup("comment").Usage = `comment saved with the new revision (default: "rollback to revision N")`
	return cmd
}

func newConfigHistoryCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "history",
		Short: "List the saved revisions (* marks the running one)",
		Long: `List the saved revisions, oldest first (* marks the running one): when
each was saved, its digest, who made it and its comment. BY is the user of
a client on the daemon's socket, from the socket's peer credentials
("root (uid 0)"), or the subject of a client's certificate over mutual TLS
("CN=ops1"); "-" when not known (the initial configuration).`,
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
			row(t, " ", "REV", "TIME", "DIGEST", "BY", "COMMENT")
			for _, r := range h.GetRevisions() {
				mark := " "
				if r.GetNumber() == running.GetRevision().GetNumber() {
					mark = "*"
				}
				row(t, mark, r.GetNumber(), fmtTime(r.GetTime()), r.GetDigest(), r.GetBy(), r.GetComment())
			}
			return t.Flush()
		},
	}
}
