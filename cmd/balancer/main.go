// Command balancer drives the inline DPI traffic balancer: it defines the
// site (ports, links, filter groups, balance groups, availability profiles,
// flow rules) through the daemon's management API, shows status, counters
// and slot layouts, traces packets and locates sessions. docs/cli.md is
// its reference.
//
// Exit codes: 0 success, 1 error, 2 usage error (unknown command or flag,
// wrong arguments, a bad value given on the command line).
//
// The operator's commands are package cli's; the long-running programs,
// `balancer daemon` and `balancer sim`, are daemoncmd's and simcmd's: this
// package only puts them together.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/dpi-balancer/balancer/cmd/balancer/internal/cli"
	"github.com/dpi-balancer/balancer/cmd/balancer/internal/daemoncmd"
	"github.com/dpi-balancer/balancer/cmd/balancer/internal/simcmd"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// extras are the commands added to the client's: the daemon and the
// software switch.
func extras() []cli.Extra {
	return []cli.Extra{daemoncmd.Extra(), simcmd.Extra()}
}

// run executes the command line args and returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.Run(ctx, args, stdin, stdout, stderr, extras()...)
}
