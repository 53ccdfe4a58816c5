package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"google.golang.org/grpc"

	"github.com/dpi-balancer/balancer/config"
)

// Defaults of the root flags.
const (
	defaultSocket  = "/run/balancer/balancer.sock"
	socketEnv      = "BALANCER_SOCKET"
	defaultTimeout = 30 * time.Second
)

// Output formats.
const (
	outTable = "table"
	outJSON  = "json"
	outYAML  = "yaml"
)

// app is the state one command line runs with: the root flags, the
// output streams and the connection to the daemon (made on first use).
type app struct {
	socket  string
	addr    string
	tlsCert string
	tlsKey  string
	tlsCA   string
	output  string
	timeout time.Duration

	stdin          io.Reader
	stdout, stderr io.Writer

	conn *grpc.ClientConn
	dial *dialState

	// ran is set when a command's RunE starts: an error before that is
	// a usage error (flags, arguments, unknown command).
	ran bool
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *app {
	return &app{stdin: stdin, stdout: stdout, stderr: stderr}
}

func (a *app) close() {
	if a.conn != nil {
		a.conn.Close()
	}
}

// usageError is a mistake on the command line: exit code 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// report prints err and returns the exit code for it.
func (a *app) report(cmd *cobra.Command, err error) int {
	var ue *usageError
	usage := errors.As(err, &ue) || !a.ran
	fmt.Fprintf(a.stderr, "balancer: %v\n", err)
	if usage {
		path := "balancer"
		if cmd != nil {
			path = cmd.CommandPath()
		}
		fmt.Fprintf(a.stderr, "Run '%s --help' for usage.\n", path)
		return exitUsage
	}
	return exitError
}

const rootLong = `balancer drives the inline DPI traffic balancer: a P4 switch between the
operator's links (bypass units) and a row of DPI filters.

Traffic entering a link's LAN or WAN port is matched against the flow rules;
a rule either bypasses the filters (the packet leaves straight out of the
link's other port) or balances it over a balance group's filters by a
symmetric hash of source IP, destination IP and protocol, so both directions
of a session reach the same filter and the same CPU core. Every packet comes
back out of the same link it came in on. Keep-alives cross every filter; a
filter that stops answering goes into software bypass (or drop, or its share
is rebalanced), without the operator's link seeing a flap.

The site is described by objects:
  port           a front-panel port or lane (P9; P41 is port 4 lane 1)
  link           the operator side: a LAN port and a WAN port
  filter-group   one DPI filter wired between a LAN port and a WAN port
  balance-group  filter groups sharing traffic by hash
  profile        keep-alive parameters and the failure action
  rule           priority + match + action (bypass, or balance:GROUP)

Every change reads the running configuration, changes it, and applies the
whole result as a new revision: the daemon validates it as a whole (an
invalid change is refused with every problem and its path; nothing is
changed), saves it and programs the switch. 'config history' lists the
revisions, 'config rollback' returns to one. --dry-run on any change shows
what it would do.

The CLI talks to the daemon over its unix socket (--socket, or
$BALANCER_SOCKET), or over TCP with mutual TLS (--addr with --tls-cert,
--tls-key and --tls-ca).

Exit codes: 0 success, 1 error, 2 usage error.`

const rootExample = `  # What is running and how the filters are doing
  balancer status

  # Define a site from nothing
  balancer port add 4 --speed 10G --breakout 4
  balancer port add 1 --speed 100G
  balancer port add 2 --speed 100G
  balancer link add L1 --lan P42 --wan P41
  balancer filter-group add F1 --lan P2 --wan P1 --cores 31
  balancer balance-group add group_filter --members F1
  balancer rule add bgp --prio 1000 --match 'proto tcp l4-port 179' --action bypass
  balancer rule add all --prio 10 --match any --action balance:group_filter

  # Which filter and core does a session land on?
  balancer locate 10.1.2.3 192.0.2.10 tcp

  # Machine-readable output
  balancer status -o json`

// newRootCmd builds the command tree: the client's commands and extras'.
func newRootCmd(a *app, extras []Extra) *cobra.Command {
	root := &cobra.Command{
		Use:           "balancer",
		Short:         "Drive the inline DPI traffic balancer",
		Long:          rootLong,
		Example:       rootExample,
		SilenceErrors: true,
		SilenceUsage:  true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if err := checkUTF8(cmd, args); err != nil {
				return err
			}
			switch a.output {
			case outTable, outJSON, outYAML:
			default:
				return usagef("--output %q: want table, json or yaml", a.output)
			}
			if a.timeout <= 0 {
				return usagef("--timeout %s: want a positive duration like 30s", a.timeout)
			}
			return nil
		},
	}
	socket := os.Getenv(socketEnv)
	if socket == "" {
		socket = defaultSocket
	}
	pf := root.PersistentFlags()
	pf.StringVar(&a.socket, "socket", socket, "the daemon's unix socket (env "+socketEnv+")")
	pf.StringVar(&a.addr, "addr", "", "the daemon's TCP address host:port, over mutual TLS (instead of --socket)")
	pf.StringVar(&a.tlsCert, "tls-cert", "", "client certificate (PEM) for --addr")
	pf.StringVar(&a.tlsKey, "tls-key", "", "client certificate's key (PEM) for --addr")
	pf.StringVar(&a.tlsCA, "tls-ca", "", "CA certificate (PEM) that signed the daemon's certificate, for --addr")
	pf.StringVarP(&a.output, "output", "o", outTable, "output format: table, json or yaml")
	pf.DurationVar(&a.timeout, "timeout", defaultTimeout, "how long to wait for the daemon")
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return &usageError{flagError(cmd, err)} })

	root.AddCommand(
		newPortCmd(a),
		newLinkCmd(a),
		newFilterGroupCmd(a),
		newBalanceGroupCmd(a),
		newProfileCmd(a),
		newRuleCmd(a),
		newBypassCmd(a),
		newStatusCmd(a),
		newCountersCmd(a),
		newSlotsCmd(a),
		newTraceCmd(a),
		newLocateCmd(a),
		newConfigCmd(a),
		newSwitchCmd(a),
		newVersionCmd(a),
		newMonitorCmd(a),
		newAlarmCmd(a),
	)
	for _, x := range extras {
		root.AddCommand(x.New())
	}
	addCompletions(root, a.completions(extras))
	markRuns(root, a)
	return root
}

// markRuns wraps every command's RunE to record that it started, so that
// an error before is known to be a usage error.
func markRuns(c *cobra.Command, a *app) {
	if f := c.RunE; f != nil {
		c.RunE = func(cmd *cobra.Command, args []string) error {
			a.ran = true
			return f(cmd, args)
		}
	} else if f := c.Run; f != nil {
		c.Run = func(cmd *cobra.Command, args []string) {
			a.ran = true
			f(cmd, args)
		}
	}
	for _, sub := range c.Commands() {
		markRuns(sub, a)
	}
}

// group makes a command that only holds subcommands: alone it prints its
// help; with an unknown subcommand it is a usage error.
func group(use, short, long, example string) *cobra.Command {
	return &cobra.Command{
		Use:     use,
		Short:   short,
		Long:    long,
		Example: example,
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
					return usagef("unknown command %q for %q; did you mean %s?", args[0], cmd.CommandPath(), strings.Join(s, " or "))
				}
				return usagef("unknown command %q for %q; its commands: %s", args[0], cmd.CommandPath(), subNames(cmd))
			}
			return cmd.Help()
		},
	}
}

func subNames(cmd *cobra.Command) string {
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	return strings.Join(names, ", ")
}

// exactArgs is cobra.ExactArgs with the argument names in the message.
func exactArgs(names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == len(names) {
			return nil
		}
		if len(names) == 0 {
			return usagef("%s takes no arguments, got %s", cmd.CommandPath(), strings.Join(args, " "))
		}
		if len(args) < len(names) {
			return usagef("%s needs %s", cmd.CommandPath(), strings.Join(names[len(args):], " and "))
		}
		return usagef("%s takes %d argument(s) (%s), got %d: %s", cmd.CommandPath(), len(names),
			strings.Join(names, " "), len(args), strings.Join(args, " "))
	}
}

// pflagParseRE is pflag's message for a value its parser refused, which
// names Go's strconv.
var pflagParseRE = regexp.MustCompile(`^invalid argument "(.*)" for "(.*)" flag: strconv\.Parse\w+: parsing ".*": (value out of range|invalid syntax)$`)

// flagError says what is wrong with a flag's value in the operator's
// words, not strconv's.
func flagError(cmd *cobra.Command, err error) error {
	m := pflagParseRE.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	value, flag, why := m[1], m[2], m[3]
	kind := "a number"
	if r := flagRange(cmd, strings.TrimLeft(flag, "-")); r != "" {
		// The value's own range, as checkRange gives it.
		kind = "a whole number " + r
	} else if f := cmd.Flags().Lookup(strings.TrimLeft(flag, "-")); f != nil {
		switch t := f.Value.Type(); t {
		case "uint8", "uint16", "uint32", "uint64", "uint":
			bits := map[string]int{"uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64, "uint": 64}[t]
			kind = fmt.Sprintf("a whole number 0..%d", uint64(1)<<bits-1)
		case "int8", "int16", "int32", "int64", "int":
			kind = "a whole number"
		case "bool":
			kind = "true or false"
		}
	}
	// The object, when its name came before the bad flag.
	object := ""
	if args := cmd.Flags().Args(); len(args) > 0 && cmd.Parent() != nil {
		if noun := map[string]string{"link": "link", "filter-group": "filter group", "balance-group": "balance group",
			"profile": "profile", "rule": "rule", "port": "port"}[cmd.Parent().Name()]; noun != "" {
			object = noun + " " + args[0] + ": "
		}
	}
	if why == "value out of range" {
		return fmt.Errorf("%s%s %s is out of range: want %s", object, flag, value, kind)
	}
	return fmt.Errorf("%s%s %q: want %s", object, flag, value, kind)
}

// rangeArgs accepts lo..hi arguments; usage names them ("[REVISION]").
func rangeArgs(lo, hi int, usage string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) >= lo && len(args) <= hi {
			return nil
		}
		return usagef("%s takes %s, got %d argument(s): %s", cmd.CommandPath(), usage, len(args), strings.Join(args, " "))
	}
}

// checkUTF8 refuses arguments and flag values that are not UTF-8: the API
// carries text, and the transport would refuse them with a message about
// marshalling.
func checkUTF8(cmd *cobra.Command, args []string) error {
	for i, arg := range args {
		if !utf8.ValidString(arg) {
			return usagef("argument %d (%q) is not valid UTF-8: give it as UTF-8 text", i+1, arg)
		}
	}
	var bad error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if bad == nil && !utf8.ValidString(f.Value.String()) {
			bad = usagef("--%s %q is not valid UTF-8: give it as UTF-8 text", f.Name, f.Value.String())
		}
	})
	return bad
}

// rpcContext bounds one command's calls by --timeout.
func (a *app) rpcContext(cmd *cobra.Command) (context.Context, context.CancelFunc) {
	return context.WithTimeout(cmd.Context(), a.timeout)
}

// flagRange is the allowed range of a numeric flag of cmd, as its command
// checks it (checkRange): "1..1024 cores". "" for a flag without one.
func flagRange(cmd *cobra.Command, flag string) string {
	r := func(lo, hi uint32, unit string) string {
		if unit != "" {
			unit = " " + unit
		}
		return fmt.Sprintf("%d..%d%s", lo, hi, unit)
	}
	switch flag {
	case "cores":
		return r(1, config.MaxCores, "cores")
	case "prio", "priority":
		return r(1, config.MaxPriority, "")
	case "slot-bits":
		return r(1, config.MaxSlotBits, "bits")
	case "loss-threshold", "recovery-threshold":
		return r(1, config.MaxThreshold, "keep-alives")
	case "min-active":
		return r(1, config.MaxFilterGroups, "members")
	case "rtt-rounds":
		return r(1, config.MaxRTTRounds, "rounds")
	case "loss-window":
		return r(config.MinLossWindow, config.MaxLossWindow, "rounds")
	case "probe-every":
		return r(1, config.MaxProbeEvery, "keep-alive rounds")
	case "id":
		if cmd.Parent() == nil {
			return ""
		}
		switch cmd.Parent().Name() {
		case "link":
			return r(0, config.MaxLinks-1, "")
		case "filter-group":
			return r(0, config.MaxFilterGroups-1, "")
		case "balance-group":
			return r(0, config.MaxBalanceGroups-1, "")
		}
	}
	return ""
}
