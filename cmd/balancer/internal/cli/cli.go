// Package cli is the balancer command's client side: the operator's
// commands, which talk to a running daemon over its management API
// (api), and the offline ones (config check, previews) that compile a
// site through tables. It links no daemon, software switch or etcd
// package (internal/layers checks it): the long-running programs are
// Extras the binary adds to its command tree.
package cli

import (
	"context"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// Exit codes.
const (
	ExitOK    = 0
	ExitError = 1
	ExitUsage = 2
)

const (
	exitOK    = ExitOK
	exitError = ExitError
	exitUsage = ExitUsage
)

// Extra is a command the binary adds to the client's: a long-running
// program (the daemon, the software switch), with what completes its
// arguments and flags.
type Extra struct {
	// New makes the command, a new one for each command tree.
	New func() *cobra.Command
	// Completions of the command's arguments (by its path below
	// "balancer") and of its flags; every flag of it that takes a value
	// is in one of them.
	Completions Completions
}

// Completions say what completes the arguments of commands and the
// values of flags.
type Completions struct {
	// Args: one function per argument of each command, by its path
	// below "balancer" (nil for a command that takes none).
	Args map[string][]cobra.CompletionFunc
	// Flags: by flag name, or "path --flag" for one command's flag where
	// the name means something else there. The free, file and directory
	// flags below are added to it.
	Flags map[string]cobra.CompletionFunc
	// FreeFlags take values no list holds (numbers, durations,
	// addresses, text): they complete nothing. FileFlags take a file's
	// path, DirFlags a directory's.
	FreeFlags, FileFlags, DirFlags []string
}

// Run executes the command line args with the client's commands and
// extras', and returns the exit code.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, extras ...Extra) int {
	a := newApp(stdin, stdout, stderr)
	defer a.close()
	root := newRootCmd(a, extras)
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

// NewRoot builds the command tree Run runs, with its completion tables
// (Flags holding every flag's), for a test that walks them.
func NewRoot(extras ...Extra) (*cobra.Command, Completions) {
	a := newApp(strings.NewReader(""), io.Discard, io.Discard)
	return newRootCmd(a, extras), a.completions(extras)
}

// Usagef is a mistake on the command line (exit code 2) of an Extra's
// command.
func Usagef(format string, args ...any) error { return usagef(format, args...) }

// Fixed completes one of values.
func Fixed[T ~string](values ...T) cobra.CompletionFunc { return fixed(values...) }

// completions are the client's tables with extras' added: Flags holds
// every flag's completion, the free, file and directory ones last (as
// they always were).
func (a *app) completions(extras []Extra) Completions {
	c := Completions{
		Args:      a.argCompletions(),
		Flags:     a.flagCompletions(),
		FreeFlags: slices.Clone(freeFlags),
		FileFlags: slices.Clone(fileFlags),
		DirFlags:  slices.Clone(dirFlags),
	}
	for _, x := range extras {
		maps.Copy(c.Args, x.Completions.Args)
		maps.Copy(c.Flags, x.Completions.Flags)
		c.FreeFlags = append(c.FreeFlags, x.Completions.FreeFlags...)
		c.FileFlags = append(c.FileFlags, x.Completions.FileFlags...)
		c.DirFlags = append(c.DirFlags, x.Completions.DirFlags...)
	}
	for _, f := range c.FreeFlags {
		c.Flags[f] = none
	}
	for _, f := range c.FileFlags {
		c.Flags[f] = files
	}
	for _, f := range c.DirFlags {
		c.Flags[f] = dirs
	}
	return c
}
