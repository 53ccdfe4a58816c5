package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/internal/buildinfo"
)

// versionDaemonTimeout bounds version's question to the daemon unless
// --timeout is given: a daemon that does not answer (stopped, starved)
// must not hold up the CLI's own answer for the default 30 s.
const versionDaemonTimeout = 5 * time.Second

// VersionInfo is what 'balancer version -o json' prints: the CLI's own
// build at the top level and, unless --client, the daemon's (its build
// and start time) or why it did not answer.
type VersionInfo struct {
	buildinfo.Info
	Daemon      *daemonVersion `json:"daemon,omitempty"`
	DaemonError string         `json:"daemon_error,omitempty"`
}

// daemonVersion is the answering daemon's build and when it started.
type daemonVersion struct {
	buildinfo.Info
	StartedAt time.Time `json:"started_at"`
}

func daemonVersionFromProto(d *apiv1.DaemonInfo) *daemonVersion {
	return &daemonVersion{Info: buildinfo.Info{Version: d.GetVersion(), Revision: d.GetRevision(), Time: d.GetRevisionTime(),
		Modified: d.GetModified(), Go: d.GetGo(), Platform: d.GetPlatform()}, StartedAt: d.GetStartedAt().AsTime()}
}

func newVersionCmd(a *app) *cobra.Command {
	var clientOnly bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the CLI's and the daemon's versions (module version, source revision, start time)",
		Long: `Print the build of this CLI and of the daemon it talks to: the module
version, the source revision (with "(modified)" for a build from a tree
with uncommitted changes), the Go release, and when the daemon started.
A daemon that does not answer does not make version fail: the CLI's line
is printed and the daemon's says why it is missing. --client asks no
daemon.`,
		Example: "  balancer version\n  balancer version --client\n  balancer version -o json",
		Args:    exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			v := VersionInfo{Info: buildinfo.Read()}
			var observed time.Time
			if !clientOnly {
				st, err := a.daemonStatusForVersion(cmd)
				if err != nil {
					v.DaemonError = err.Error()
				} else {
					v.Daemon = daemonVersionFromProto(st.GetDaemon())
					observed = st.GetObservedAt().AsTime()
				}
			}
			if a.structured() {
				return a.printValue(v)
			}
			fmt.Fprintf(a.stdout, "balancer %s\n", v.Info)
			switch {
			case v.Daemon != nil && v.Daemon.Version == "":
				// A daemon from before it said its build.
				fmt.Fprintln(a.stdout, "daemon   (its build unknown: the daemon predates 'version')")
			case v.Daemon != nil:
				up := observed.Sub(v.Daemon.StartedAt)
				if up < 0 {
					up = 0
				}
				fmt.Fprintf(a.stdout, "daemon   %s, started %s (up %s)\n", v.Daemon.Info,
					v.Daemon.StartedAt.Local().Format(TimeLayout), roundDur(up))
			case v.DaemonError != "":
				fmt.Fprintf(a.stdout, "daemon   not answering: %s\n", v.DaemonError)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&clientOnly, "client", false, "print only the CLI's version; do not ask the daemon")
	return cmd
}

// daemonStatusForVersion asks the daemon for its status, within --timeout
// when given and versionDaemonTimeout otherwise.
func (a *app) daemonStatusForVersion(cmd *cobra.Command) (*apiv1.Status, error) {
	if f := cmd.Flags().Lookup("timeout"); f == nil || !f.Changed {
		a.timeout = versionDaemonTimeout
	}
	return a.getStatus(cmd)
}
