package daemoncmd

import (
	"log/slog"

	"github.com/spf13/cobra"

	"github.com/dpi-balancer/balancer/cmd/balancer/internal/cli"
	"github.com/dpi-balancer/balancer/daemon/etcdstore"
	"github.com/dpi-balancer/balancer/daemon/pipeline"
)

// usagef is a mistake on the command line: exit code 2.
func usagef(format string, args ...any) error { return cli.Usagef(format, args...) }

// newLogger returns a text logger on stderr at the named level.
func newLogger(level string) (*slog.Logger, error) { return cli.NewLogger(level) }

// Extra is `balancer daemon`, with what completes its flags.
func Extra() cli.Extra {
	return cli.Extra{
		New: newDaemonCmd,
		Completions: cli.Completions{
			Args: map[string][]cobra.CompletionFunc{"daemon": nil},
			Flags: map[string]cobra.CompletionFunc{
				"log-level":         cli.Fixed(cli.LogLevels...),
				"store":             cli.Fixed(storeKinds...),
				"ha-on-quorum-loss": cli.Fixed(etcdstore.QuorumLossHold.String(), etcdstore.QuorumLossStepDown.String()),
				"pipeline-format":   cli.Fixed(pipeline.Formats()...),
			},
			FreeFlags: []string{
				"history-revisions", "history-bytes", "switch", "switch-gnmi", "device-id", "cpu-port", "election-id", "role",
				"listen", "telemetry", "metrics", "telemetry-max-subscriptions", "telemetry-max-subscriptions-per-client",
				"telemetry-max-leaf-rate", "telemetry-max-leaf-rate-per-client",
				"switch-keepalive-time", "switch-keepalive-timeout", "switch-pipeline-timeout", "switch-probe-interval",
				"switch-read-timeout", "switch-reconcile-interval", "switch-rpc-timeout", "switch-stall-timeout",
				"etcd-endpoints", "etcd-prefix", "etcd-name", "etcd-lease-ttl", "etcd-timeout", "etcd-keep-revisions", "p4-program-name",
				"name", "socket-group",
			},
			FileFlags: []string{
				"socket", "tls-cert", "tls-key", "tls-client-ca", "config",
				"switch-tls-ca", "switch-tls-cert", "switch-tls-key", "etcd-tls-ca", "etcd-tls-cert", "etcd-tls-key",
				"p4info", "device-config",
			},
			DirFlags: []string{"state-dir"},
		},
	}
}
