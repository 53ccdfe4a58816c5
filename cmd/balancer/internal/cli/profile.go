package cli

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dpi-balancer/balancer/config"
)

func newProfileCmd(a *app) *cobra.Command {
	cmd := group("profile", "Availability profiles (keep-alive parameters): add, change, delete, list",
		`An availability profile says how the switch checks that the filters of a
balance group are alive, and what happens when one is not.

Every --interval the switch sends a keep-alive frame into each filter's LAN
port (and its WAN port with --probe both); the filter passes it through
like any non-IP frame and the switch times it. --loss-threshold keep-alives
lost in a row mark the filter down (about loss-threshold x interval after
it stops: 5 x 100ms = 500ms); a port going down marks it down at once.
--recovery-threshold answered in a row bring it back. Nothing is counted
for --initial-delay after a start.

When most filters of a balance group lose keep-alives at the same time while
their ports stay up (the switch's keep-alive path or the daemon stalled,
rather than the filters), --stall-guard hold (the default) keeps them up for
at most --stall-hold before failing them over; --stall-guard off fails them
over at --loss-threshold regardless.

A filter that failed returns to service once --recovery-threshold keep-alives
in a row pass and, with --min-up-time, once they have passed without a loss
for that long. With --failback manual it does not return by itself: it stays
out of service (its failure action keeps applying), shown as "recovered,
waiting for return", until 'balancer filter-group return NAME'.

Beyond liveness: with --max-rtt, --rtt-rounds keep-alive rounds in a row
whose round trip through the filter (by the switch's clock) is over it take
the filter out; with --max-loss, losing more than that share of the last
--loss-window rounds takes it out, even if it never loses --loss-threshold
in a row. Each says why with its figures; the filter comes back by the
recovery rules above. Both are off (0) by default.

Fail-open probes: with --probe-payload (or --probe-payload-hex), every
--probe-every keep-alive rounds a frame carrying that payload goes through
each filter in both directions. A healthy filter must drop it (its DPI
blocks the payload); one that comes back means the filter passes traffic
uninspected (failed open). --fail-open-action alarm raises an alarm and keeps
it in service; bypass, drop or rebalance take it out until its probes are
dropped again (then the recovery rules above). See docs/availability.md for
how to choose a payload.

A down filter's share follows --failure-action (bypass, drop, rebalance; see
'balancer balance-group --help'). When fewer than --min-active members of a
balance group are alive, the whole group bypasses.

The built-in profile "default" (100ms, 5 lost, 5 answered, min-active 1,
bypass) is used by balance groups that name none; change it with
'profile set default'.`,
		`  balancer profile add fast --interval 50ms --loss-threshold 3
  balancer profile set default --failure-action rebalance
  balancer profile list`)
	cmd.AddCommand(newProfileAddSetCmd(a, true), newProfileAddSetCmd(a, false), newProfileDelCmd(a), newProfileListCmd(a))
	return cmd
}

var probeDirections = []string{string(config.ProbeLANToWAN), string(config.ProbeBoth)}

// profileFlags are the settings of add and set.
type profileFlags struct {
	interval, initialDelay       string
	lossThreshold, recoveryThres uint32
	minActive                    uint32
	failureAction, probe         string
	stallGuard, stallHold        string
	failback, minUpTime          string
	sessionReturn                string
	maxRTT, maxLoss              string
	rttRounds, lossWindow        uint32
	probePayload, probeHex       string
	probeEvery                   uint32
	failOpenAction               string
	noProbes                     bool
}

func (f *profileFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.interval, "interval", "", "time between keep-alives, e.g. 100ms (default 100ms)")
	fl.Uint32Var(&f.lossThreshold, "loss-threshold", 0, "keep-alives lost in a row that mark a filter down (default 5)")
	fl.Uint32Var(&f.recoveryThres, "recovery-threshold", 0, "keep-alives answered in a row that bring it back (default 5)")
	fl.Uint32Var(&f.minActive, "min-active", 0, "fewer live members and the whole balance group bypasses (default 1)")
	fl.StringVar(&f.failureAction, "failure-action", "", "bypass, drop or rebalance (default bypass)")
	fl.StringVar(&f.probe, "probe", "", "lan-to-wan, or both to probe each direction (default lan-to-wan)")
	fl.StringVar(&f.initialDelay, "initial-delay", "", "wait after a start before counting losses, e.g. 1s (default 1s)")
	fl.StringVar(&f.stallGuard, "stall-guard", "", "hold: when most of a balance group loses keep-alives at once with ports up, hold the filters up for --stall-hold; off: fail them over at loss-threshold (default hold)")
	fl.StringVar(&f.stallHold, "stall-hold", "", "how long the stall guard holds, e.g. 1s (default 1s)")
	fl.StringVar(&f.failback, "failback", "", "auto: a recovered filter returns to service by itself; manual: it waits for 'filter-group return' (default auto)")
	fl.StringVar(&f.sessionReturn, "return", "", "with the session memory, which held sessions a filter in software bypass gets back when it returns: all, or new-sessions (those of the bypass stay bypassed until idle) (default all)")
	fl.StringVar(&f.maxRTT, "max-rtt", "", "longest keep-alive round trip through a filter, by the switch's clock, e.g. 10ms; --rtt-rounds rounds in a row over it take the filter out; 0s: no limit (default 0s)")
	fl.Uint32Var(&f.rttRounds, "rtt-rounds", 0, "keep-alive rounds in a row over --max-rtt that take a filter out (default 3)")
	fl.StringVar(&f.maxLoss, "max-loss", "", "share of keep-alive rounds a filter may lose over --loss-window, in percent, e.g. 20; more takes it out; 0: no limit (default 0)")
	fl.Uint32Var(&f.lossWindow, "loss-window", 0, "keep-alive rounds --max-loss is judged over (default 100)")
	fl.StringVar(&f.probePayload, "probe-payload", "", "fail-open probes: text a healthy filter must block (e.g. a signature its DPI drops), sent after a keep-alive header every --probe-every rounds; a probe that comes back means the filter failed open")
	fl.StringVar(&f.probeHex, "probe-payload-hex", "", "the fail-open probe's payload as hex bytes, e.g. '58 35 4f 21' (instead of --probe-payload)")
	fl.Uint32Var(&f.probeEvery, "probe-every", 0, "send a fail-open probe every this many keep-alive rounds, 1..1000 (default 10)")
	fl.StringVar(&f.failOpenAction, "fail-open-action", "", "what a filter whose probes come back gets: alarm (stays in service), bypass, drop or rebalance (default alarm)")
	fl.BoolVar(&f.noProbes, "no-fail-open-probes", false, "stop fail-open probing: removes the probe payload, --probe-every and --fail-open-action")
	fl.StringVar(&f.minUpTime, "min-up-time", "", "how long a failed filter must pass keep-alives before it returns (or waits for return), e.g. 30s; 0s: recovery-threshold alone (default 0s)")
}

// apply sets the flags given on cmd in p.
func (f *profileFlags) apply(cmd *cobra.Command, p *config.Profile) error {
	changed := cmd.Flags().Changed
	dur := func(flag, s string, dst *config.Duration) error {
		if !changed(flag) {
			return nil
		}
		d, err := config.ParseDuration(s)
		if err != nil {
			return usagef("--%s: %v", flag, err)
		}
		*dst = d
		return nil
	}
	if err := dur("interval", f.interval, &p.Interval); err != nil {
		return err
	}
	if err := dur("initial-delay", f.initialDelay, &p.InitialDelay); err != nil {
		return err
	}
	if err := dur("stall-hold", f.stallHold, &p.StallHold); err != nil {
		return err
	}
	// The value is echoed as typed (10h, not 10h0m0s).
	durRange := func(flag, typed string, d, lo, hi config.Duration) error {
		if changed(flag) && (d < lo || d > hi) {
			return usagef("--%s %s is out of range %s..%s%s", flag, typed, durWords(lo), durWords(hi), leaveOut(cmd, flag))
		}
		return nil
	}
	if err := durRange("interval", f.interval, p.Interval, config.MinInterval, config.MaxInterval); err != nil {
		return err
	}
	if err := durRange("initial-delay", f.initialDelay, p.InitialDelay, config.MinInitialDelay, config.MaxInitialDelay); err != nil {
		return err
	}
	if err := durRange("stall-hold", f.stallHold, p.StallHold, config.MinStallHold, config.MaxStallHold); err != nil {
		return err
	}
	if changed("min-up-time") {
		d, err := config.ParseDuration(f.minUpTime)
		if err != nil {
			return usagef("--min-up-time: %v", err)
		}
		if d < 0 || d > config.MaxMinUpTime {
			return usagef("--min-up-time %s is out of range 0s..%s%s", f.minUpTime, durWords(config.MaxMinUpTime), leaveOut(cmd, "min-up-time"))
		}
		p.MinUpTime = d
	}
	if changed("max-rtt") {
		d, err := config.ParseDuration(f.maxRTT)
		if err != nil {
			return usagef("--max-rtt: %v", err)
		}
		if d < 0 || (d > 0 && d < config.MinMaxRTT) {
			return usagef("--max-rtt %s is out of range: 0s (no limit) or %s up to under the profile's interval%s", f.maxRTT, config.MinMaxRTT, leaveOut(cmd, "max-rtt"))
		}
		p.MaxRTT = d
	}
	if changed("max-loss") {
		v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(f.maxLoss), "%"), 64)
		if err != nil || math.IsNaN(v) || v < 0 || v >= 100 {
			return usagef("--max-loss %q: want a percentage, 0 (no limit) or more than 0 and under 100, e.g. 20", f.maxLoss)
		}
		p.MaxLoss = v
	}
	if err := checkRange(cmd, "rtt-rounds", f.rttRounds, 1, config.MaxRTTRounds, "rounds"); err != nil {
		return err
	}
	if err := checkRange(cmd, "loss-window", f.lossWindow, config.MinLossWindow, config.MaxLossWindow, "rounds"); err != nil {
		return err
	}
	if changed("rtt-rounds") {
		p.RTTRounds = f.rttRounds
	}
	if changed("loss-window") {
		p.LossWindow = f.lossWindow
	}
	if err := f.applyProbe(cmd, p); err != nil {
		return err
	}
	if changed("failback") {
		if !slices.Contains(failbacks, f.failback) {
			return usagef("--failback %q: want %s", f.failback, strings.Join(failbacks, " or "))
		}
		p.Failback = config.Failback(f.failback)
	}
	if changed("return") {
		if !slices.Contains(sessionReturns, f.sessionReturn) {
			return usagef("--return %q: want %s", f.sessionReturn, strings.Join(sessionReturns, " or "))
		}
		p.Return = config.SessionReturn(f.sessionReturn)
	}
	for _, c := range []struct {
		flag string
		v    uint32
		hi   uint32
		unit string
	}{
		{"loss-threshold", f.lossThreshold, config.MaxThreshold, "keep-alives"},
		{"recovery-threshold", f.recoveryThres, config.MaxThreshold, "keep-alives"},
		{"min-active", f.minActive, config.MaxFilterGroups, "members"},
	} {
		if err := checkRange(cmd, c.flag, c.v, 1, c.hi, c.unit); err != nil {
			return err
		}
	}
	if changed("loss-threshold") {
		p.LossThreshold = f.lossThreshold
	}
	if changed("recovery-threshold") {
		p.RecoveryThreshold = f.recoveryThres
	}
	if changed("min-active") {
		p.MinActive = f.minActive
	}
	if changed("failure-action") {
		fa, err := parseFailureAction(f.failureAction)
		if err != nil {
			return err
		}
		p.FailureAction = fa
	}
	if changed("probe") {
		if !slices.Contains(probeDirections, f.probe) {
			return usagef("--probe %q: want %s", f.probe, strings.Join(probeDirections, " or "))
		}
		p.Probe = config.ProbeDirection(f.probe)
	}
	if changed("stall-guard") {
		if !slices.Contains(stallGuards, f.stallGuard) {
			return usagef("--stall-guard %q: want %s", f.stallGuard, strings.Join(stallGuards, " or "))
		}
		p.StallGuard = config.StallGuard(f.stallGuard)
	}
	return nil
}

var stallGuards = []string{string(config.StallGuardHold), string(config.StallGuardOff)}

var failbacks = []string{string(config.FailbackAuto), string(config.FailbackManual)}

var sessionReturns = []string{string(config.ReturnAll), string(config.ReturnNewSessions)}

// failbackText is a profile's failback for a table: "auto", "manual",
// "auto after 30s up", and ", new sessions only" under return:
// new-sessions.
func failbackText(p config.Profile) string {
	s := string(p.Failback)
	if s == "" {
		s = string(config.FailbackAuto)
	}
	if p.MinUpTime > 0 {
		s += " after " + p.MinUpTime.String() + " up"
	}
	if p.Return == config.ReturnNewSessions {
		s += ", new sessions only"
	}
	return s
}

// applyProbe sets the fail-open probe flags given on cmd in p.
func (f *profileFlags) applyProbe(cmd *cobra.Command, p *config.Profile) error {
	changed := cmd.Flags().Changed
	if f.noProbes {
		if n := countChanged(cmd, "probe-payload", "probe-payload-hex", "probe-every", "fail-open-action"); n > 0 {
			return usagef("--no-fail-open-probes removes the probe settings: give it alone, without --probe-payload, --probe-payload-hex, --probe-every or --fail-open-action")
		}
		p.ProbePayload, p.ProbePayloadHex, p.ProbeEvery, p.FailOpenAction = "", "", 0, ""
		return nil
	}
	if changed("probe-payload") && changed("probe-payload-hex") {
		return usagef("--probe-payload and --probe-payload-hex both given: give the probe's payload one way")
	}
	if changed("probe-payload") {
		if f.probePayload == "" {
			return usagef("--probe-payload is empty: give the text a healthy filter blocks, or --no-fail-open-probes to stop probing")
		}
		if len(f.probePayload) > config.MaxProbePayload {
			return usagef("--probe-payload is %d bytes, over the %d a probe carries: give only the pattern the filter blocks", len(f.probePayload), config.MaxProbePayload)
		}
		p.ProbePayload, p.ProbePayloadHex = f.probePayload, ""
	}
	if changed("probe-payload-hex") {
		b, err := config.Profile{ProbePayloadHex: f.probeHex}.ProbeBytes()
		switch {
		case err != nil || len(b) == 0:
			return usagef("--probe-payload-hex %q: want hex bytes, two digits a byte, optionally separated by spaces or colons, e.g. '58 35 4f 21'", f.probeHex)
		case len(b) > config.MaxProbePayload:
			return usagef("--probe-payload-hex is %d bytes, over the %d a probe carries: give only the pattern the filter blocks", len(b), config.MaxProbePayload)
		}
		p.ProbePayload, p.ProbePayloadHex = "", f.probeHex
	}
	if err := checkRange(cmd, "probe-every", f.probeEvery, 1, config.MaxProbeEvery, "keep-alive rounds"); err != nil {
		return err
	}
	if changed("probe-every") {
		p.ProbeEvery = f.probeEvery
	}
	if changed("fail-open-action") {
		a := config.FailOpenAction(f.failOpenAction)
		if !slices.Contains(config.FailOpenActions, a) {
			return usagef("--fail-open-action %q: want alarm, bypass, drop, rebalance or spare", f.failOpenAction)
		}
		p.FailOpenAction = a
	}
	return nil
}

// healthText is a profile's round-trip and loss limits for a table:
// "rtt>10ms x3,loss>20%/100", "-" when it has none.
func healthText(p config.Profile) string {
	var out []string
	if p.MaxRTT > 0 {
		out = append(out, fmt.Sprintf("rtt>%s x%d", p.MaxRTT, p.RTTRounds))
	}
	if p.MaxLoss > 0 {
		out = append(out, fmt.Sprintf("loss>%s%%/%d", strconv.FormatFloat(p.MaxLoss, 'f', -1, 64), p.LossWindow))
	}
	if p.Probes() {
		out = append(out, fmt.Sprintf("fail-open probe/%d:%s", p.ProbeEvery, p.FailOpenAction))
	}
	if len(out) == 0 {
		return "-"
	}
	return strings.Join(out, ",")
}

func newProfileAddSetCmd(a *app, add bool) *cobra.Command {
	var o applyOpts
	var flags profileFlags
	cmd := &cobra.Command{
		Use:   "add NAME [--interval 100ms] [--loss-threshold 5] [--recovery-threshold 5] [--min-active 1] [--failure-action bypass|drop|rebalance] [--probe lan-to-wan|both] [--initial-delay 1s] [--stall-guard hold|off] [--stall-hold 1s] [--failback auto|manual] [--min-up-time 0s] [--return all|new-sessions] [--max-rtt 0s] [--rtt-rounds 3] [--max-loss 0] [--loss-window 100] [--probe-payload TEXT | --probe-payload-hex HEX] [--probe-every 10] [--fail-open-action alarm|bypass|drop|rebalance]",
		Short: "Add an availability profile",
		Long: `Add availability profile NAME; settings not given take the defaults. Balance
groups use it with 'balance-group add/set --profile NAME'.`,
		Example: `  # detect a dead filter in ~150ms, and never pass uninspected traffic
  balancer profile add strict --interval 50ms --loss-threshold 3 --failure-action drop
  # need two live filters, probe both directions
  balancer profile add pair --min-active 2 --probe both
  # a filter that failed comes back only when an operator says so, and
  # only after answering keep-alives for a minute
  balancer profile add careful --failback manual --min-up-time 1m
  # take out a filter slower than 10ms for 3 rounds, or losing more than
  # 20 % of its keep-alives over the last 100 rounds
  balancer profile add healthy --max-rtt 10ms --rtt-rounds 3 --max-loss 20 --loss-window 100
  # every 10 rounds, send a frame the DPI must block; if it comes back
  # the filter failed open: take it out (bypass its share)
  balancer profile add inspected --probe-payload 'dpi-probe-block-me' --probe-every 10 --fail-open-action bypass`,
		Args: exactArgs("NAME"),
	}
	if !add {
		cmd.Use = strings.Replace(cmd.Use, "add NAME", "set NAME", 1)
		cmd.Short = "Change an availability profile"
		cmd.Long = `Change the settings given of availability profile NAME; the others stay.
Balance groups whose failure action is the profile's follow a change of
--failure-action; those that set another one keep it.`
		cmd.Example = `  balancer profile set default --interval 50ms --loss-threshold 3
  balancer profile set default --failure-action rebalance --dry-run`
	}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		var probe config.Profile
		if err := flags.apply(cmd, &probe); err != nil { // check the values before any call
			return inProfile(args[0], err)
		}
		if !add && countChanged(cmd, "interval", "loss-threshold", "recovery-threshold", "min-active", "failure-action", "probe", "initial-delay", "stall-guard", "stall-hold", "failback", "min-up-time", "return", "max-rtt", "rtt-rounds", "max-loss", "loss-window",
			"probe-payload", "probe-payload-hex", "probe-every", "fail-open-action", "no-fail-open-probes") == 0 {
			return usagef("nothing to change: give one of --interval, --loss-threshold, --recovery-threshold, --min-active, --failure-action, --probe, --initial-delay, --stall-guard, --stall-hold, --failback, --min-up-time, --return, --max-rtt, --rtt-rounds, --max-loss, --loss-window, --probe-payload, --probe-payload-hex, --probe-every, --fail-open-action, --no-fail-open-probes")
		}
		return a.edit(cmd, args, &o, func(c *config.Config) (string, error) {
			p := c.ProfileByName(args[0])
			if add {
				if p != nil {
					return "", errExists("profile", args[0], "change it with 'balancer profile set'")
				}
				np := config.Profile{Name: args[0]}
				if err := flags.apply(cmd, &np); err != nil {
					return "", inProfile(args[0], err)
				}
				c.Profiles = append(c.Profiles, np)
				return "", nil
			}
			if p == nil && args[0] == config.DefaultProfile {
				// The built-in profile, not written out: write what is set.
				c.Profiles = append(c.Profiles, config.Profile{Name: config.DefaultProfile})
				p = &c.Profiles[len(c.Profiles)-1]
			}
			if p == nil {
				known := profileNames(c)
				if !slices.Contains(known, config.DefaultProfile) {
					known = append(known, config.DefaultProfile)
				}
				slices.Sort(known)
				return "", errUnknown("profile", args[0], known)
			}
			old := p.FailureAction
			if err := flags.apply(cmd, p); err != nil {
				return "", inProfile(args[0], err)
			}
			if p.FailureAction == old {
				return "", nil
			}
			// Balance groups that had the profile's failure action
			// follow it; the others set their own.
			var follow, keep []string
			for i := range c.BalanceGroups {
				b := &c.BalanceGroups[i]
				profile := b.Profile
				if profile == "" {
					profile = config.DefaultProfile
				}
				if profile != p.Name {
					continue
				}
				switch {
				case b.FailureAction == "":
					// It sets none of its own: it follows the profile.
					follow = append(follow, b.Name)
				case b.FailureAction == old && old != "":
					b.FailureAction = p.FailureAction
					follow = append(follow, b.Name)
				default:
					keep = append(keep, fmt.Sprintf("%s (%s)", b.Name, b.FailureAction))
				}
			}
			var notes []string
			if len(follow) > 0 {
				notes = append(notes, fmt.Sprintf("failure action %s now applies to balance groups %s", p.FailureAction, strings.Join(follow, ", ")))
			}
			if len(keep) > 0 {
				notes = append(notes, fmt.Sprintf("balance groups keeping their own failure action: %s", strings.Join(keep, ", ")))
			}
			return strings.Join(notes, "\n"), nil
		})
	}
	flags.register(cmd)
	addApplyFlags(cmd, &o)
	return cmd
}

// inProfile puts the profile's name, as the operator typed it, in front of
// a flag's error.
func inProfile(name string, err error) error {
	var ue *usageError
	if errors.As(err, &ue) {
		return usagef("profile %s: %v", name, ue.err)
	}
	return fmt.Errorf("profile %s: %w", name, err)
}

// countChanged counts which of the named flags were given.
func countChanged(cmd *cobra.Command, names ...string) int {
	n := 0
	for _, name := range names {
		if cmd.Flags().Changed(name) {
			n++
		}
	}
	return n
}

func newProfileDelCmd(a *app) *cobra.Command {
	var o applyOpts
	cmd := &cobra.Command{
		Use:   "del NAME",
		Short: "Delete an availability profile",
		Long: `Delete availability profile NAME. Balance groups that use it make the change
fail: move them to another profile first. The built-in profile "default"
cannot be deleted.`,
		Example: `  balancer profile del strict`,
		Args:    exactArgs("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] == config.DefaultProfile {
				return fmt.Errorf("the profile %q is built in and cannot be deleted; change it with 'balancer profile set %s'", args[0], args[0])
			}
			return a.edit(cmd, args, &o, func(c *config.Config) (string, error) {
				if !deleteFunc(&c.Profiles, func(p config.Profile) bool { return p.Name == args[0] }) {
					return "", errUnknown("profile", args[0], profileNames(c))
				}
				return "", nil
			})
		},
	}
	addApplyFlags(cmd, &o)
	return cmd
}

func newProfileListCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the availability profiles",
		Example: `  balancer profile list
  balancer profile list -o yaml`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, _, err := a.getConfig(cmd)
			if err != nil {
				return err
			}
			if a.structured() {
				return a.printValue(nonNil(cfg.Profiles))
			}
			used := map[string][]string{}
			for _, b := range cfg.BalanceGroups {
				used[b.Profile] = append(used[b.Profile], b.Name)
			}
			w := table(a.stdout)
			row(w, "NAME", "INTERVAL", "LOSS", "RECOVERY", "MIN ACTIVE", "FAILURE ACTION", "PROBE", "INITIAL DELAY", "DETECTS IN", "FAILBACK", "HEALTH LIMITS", "USED BY")
			for _, p := range cfg.Profiles {
				detect := config.Duration(int64(p.Interval) * int64(p.LossThreshold))
				row(w, p.Name, p.Interval, p.LossThreshold, p.RecoveryThreshold, p.MinActive, p.FailureAction, p.Probe,
					p.InitialDelay, "~"+detect.String(), failbackText(p), healthText(p), strings.Join(used[p.Name], ","))
			}
			return w.Flush()
		},
	}
}

// durWords writes a duration bound plainly: "10ms", "60s", "10m".
func durWords(d config.Duration) string {
	t := d.Std()
	switch {
	case t > time.Minute && t%time.Minute == 0:
		return fmt.Sprintf("%dm", t/time.Minute)
	case t >= time.Second && t%time.Second == 0:
		return fmt.Sprintf("%ds", t/time.Second)
	}
	return d.String()
}
