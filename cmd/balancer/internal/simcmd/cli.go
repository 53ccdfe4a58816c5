package simcmd

import (
	"log/slog"

	"github.com/spf13/cobra"

	"github.com/dpi-balancer/balancer/cmd/balancer/internal/cli"
)

// usagef is a mistake on the command line: exit code 2.
func usagef(format string, args ...any) error { return cli.Usagef(format, args...) }

// newLogger returns a text logger on stderr at the named level.
func newLogger(level string) (*slog.Logger, error) { return cli.NewLogger(level) }

// Extra is `balancer sim`, with what completes its flags.
func Extra() cli.Extra {
	return cli.Extra{
		New: newSimCmd,
		Completions: cli.Completions{
			Args:  map[string][]cobra.CompletionFunc{"sim": nil},
			Flags: map[string]cobra.CompletionFunc{"log-level": cli.Fixed(cli.LogLevels...)},
			FreeFlags: []string{
				"port", "mem-port", "loop", "p4rt", "gnmi", "control", "slot-capacity", "read-limit", "demo-traffic",
				"keepalive-time", "keepalive-timeout", "pipes", "pipe-port",
			},
			FileFlags: []string{"from-config", "tls-cert", "tls-key", "tls-ca"},
		},
	}
}
