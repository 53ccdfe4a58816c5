// Command balancer drives the inline DPI traffic balancer: it defines the
// site (ports, links, filter groups, balance groups, availability profiles,
// flow rules) through the daemon's management API, shows status, counters
// and slot layouts, traces packets and locates sessions. docs/cli.md is
// its reference.
//
// Exit codes: 0 success, 1 error, 2 usage error (unknown command or flag,
// wrong arguments, a bad value given on the command line).
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Exit codes.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes the command line args and returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := newApp(stdin, stdout, stderr)
	defer a.close()
	root := newRootCmd(a)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	return a.report(cmd, err)
}
