package cli

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"google.golang.org/grpc/codes"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/config"
)

// applyOpts are the flags of every command that changes the
// configuration.
type applyOpts struct {
	dryRun  bool
	force   bool
	strict  bool
	comment string
}

func addApplyFlags(cmd *cobra.Command, o *applyOpts) {
	cmd.Flags().BoolVar(&o.dryRun, "dry-run", false, "validate and show what would change; save and program nothing")
	cmd.Flags().BoolVar(&o.force, "force", false, "apply even when the change removes links, filter groups or balance groups, or most switch entries")
	cmd.Flags().StringVar(&o.comment, "comment", "", "comment saved with the new revision (default: the command line)")
}

// strictHelp is --strict's help: rules that can never match.
const strictHelp = "refuse the change when a flow rule can never match (a --not covering its own match or every value of a field, or a higher-priority rule matching all it matches); without it such a rule is accepted with a warning"

// addStrictFlag adds --strict to a command that changes flow rules.
func addStrictFlag(cmd *cobra.Command, o *applyOpts) {
	cmd.Flags().BoolVar(&o.strict, "strict", false, strictHelp)
}

// checkComment refuses a comment the daemon would refuse, before any call.
func checkComment(comment string) error {
	if err := config.CheckText("--comment", comment, config.MaxCommentBytes); err != nil {
		return usagef("%v", err)
	}
	return nil
}

// checkRange refuses a numeric flag given outside lo..hi: 0 is a value,
// never "not given" (that is what leaving the flag out means).
func checkRange(cmd *cobra.Command, flag string, v, lo, hi uint32, unit string) error {
	if !cmd.Flags().Changed(flag) || (v >= lo && v <= hi) {
		return nil
	}
	if unit != "" {
		unit = " " + unit
	}
	return usagef("--%s %d is out of range %d..%d%s%s", flag, v, lo, hi, unit, leaveOut(cmd, flag))
}

// leaveOut says what leaving flag out does instead, for a range error:
// set keeps the current value, add takes the default, and a flag that add
// requires cannot be left out.
func leaveOut(cmd *cobra.Command, flag string) string {
	if cmd.Name() != "add" {
		return " (leave the flag out to keep the current value)"
	}
	if f := cmd.Flags().Lookup(flag); f != nil && len(f.Annotations[cobra.BashCompOneRequiredFlag]) > 0 {
		return ""
	}
	return " (leave the flag out for the default)"
}

// editRetries bounds how often an edit is redone when another change
// lands between reading and applying.
const editRetries = 3

// edit reads the running configuration, lets change modify it, and
// applies the whole result as a new revision (while a configuration
// session is open, it stages the edit into it instead: stage). change returns a note to
// print (or "") and an error that stops before anything is applied.
// When another change lands in between, it starts again from the new
// running configuration.
func (a *app) edit(cmd *cobra.Command, args []string, o *applyOpts, change func(c *config.Config) (string, error)) error {
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
	// While a configuration session is open, the edit stages into it.
	if staged, err := a.stage(ctx, cl, o, comment, change); staged || err != nil {
		return err
	}
	for attempt := 1; ; attempt++ {
		running, err := cl.GetConfig(ctx, &apiv1.GetConfigRequest{})
		if err != nil {
			return err
		}
		data, note, err := editYAML(running, change)
		if err != nil {
			return err
		}
		res, err := cl.ApplyConfig(ctx, &apiv1.ApplyConfigRequest{
			Yaml: string(data), DryRun: o.dryRun, Comment: comment, Force: o.force, Strict: o.strict,
			BaseRevision: running.GetRevision().GetNumber(),
		})
		var ae *apiError
		if errors.As(err, &ae) && ae.code == codes.Aborted && attempt < editRetries {
			continue
		}
		if err != nil {
			return err
		}
		if note != "" && !a.structured() {
			fmt.Fprintln(a.stdout, note)
		}
		return a.printApply(res)
	}
}

// editYAML is an edit's client side: it reads the running configuration,
// lets change modify it and writes the result as a change to the running
// file, so that only what changed is rewritten (the operator's comments,
// order and layout of everything else stay). The file's text is parsed
// once; the copies the edit compares are made from its nodes.
func editYAML(running *apiv1.GetConfigResponse, change func(c *config.Config) (string, error)) ([]byte, string, error) {
	doc, err := config.ReadDocument([]byte(running.GetYaml()))
	if err != nil {
		return nil, "", notReadBack(running, err)
	}
	cfg, written, err := parseWritten(running, doc)
	if err != nil {
		return nil, "", err
	}
	note, err := change(cfg)
	if err != nil {
		return nil, "", err
	}
	unpinIDs(cfg, written)
	data, err := doc.Edit(cfg)
	if err != nil {
		return nil, "", err
	}
	return data, note, nil
}

func notReadBack(r *apiv1.GetConfigResponse, err error) error {
	return fmt.Errorf("the running configuration (revision %d) does not read back: %w", r.GetRevision().GetNumber(), err)
}

// parseRunning reads the daemon's running configuration.
func parseRunning(r *apiv1.GetConfigResponse) (*config.Config, error) {
	cfg, err := config.Parse([]byte(r.GetYaml()))
	if err != nil {
		return nil, notReadBack(r, err)
	}
	return cfg, nil
}

// parseWritten reads the daemon's running configuration (doc) as the
// operator wrote it, for an edit: values left to their defaults stay unset
// (so they keep following the defaults), but every object keeps the id it
// runs with, so that others coming and going never renumber it. written
// holds the keys (idFields) of the objects whose id the file gives.
func parseWritten(r *apiv1.GetConfigResponse, doc *config.Document) (*config.Config, map[string]bool, error) {
	raw := doc.Decode()
	eff := raw.Clone()
	eff.ApplyDefaults()
	if err := eff.Validate(); err != nil {
		return nil, nil, notReadBack(r, err)
	}
	effIDs := idFields(eff)
	written := map[string]bool{}
	for key, id := range idFields(raw) {
		if *id == nil {
			*id = idOf(effIDs, key)
		} else {
			written[key] = true
		}
	}
	return raw, written, nil
}

// unpinIDs takes out the ids parseWritten pinned where the object gets the
// same id without it: the edited file then says only what the operator
// wrote (and an edit and its undo give back the same bytes). A pin stays
// where dropping it would renumber the object. written: the objects whose
// id the running file gives.
func unpinIDs(c *config.Config, written map[string]bool) {
	pins := idFields(c)
	want := map[string]uint32{}
	for key, id := range pins {
		if *id == nil || written[key] {
			delete(pins, key)
			continue
		}
		want[key] = **id
		*id = nil
	}
	// Restore the pins an object needs, until none is missing.
	for range len(pins) + 1 {
		got := idFields(effective(c))
		restored := false
		for key, id := range pins {
			if *id == nil && idValue(got, key) != want[key] {
				pin := want[key]
				*id = &pin
				restored = true
			}
		}
		if !restored {
			return
		}
	}
}

// idFields gives the id field of every numbered object of c (links,
// filter groups, balance groups) by its kind and name ("link L1").
func idFields(c *config.Config) map[string]**uint32 {
	out := map[string]**uint32{}
	for i := range c.Links {
		out["link "+c.Links[i].Name] = &c.Links[i].ID
	}
	for i := range c.FilterGroups {
		out["filter group "+c.FilterGroups[i].Name] = &c.FilterGroups[i].ID
	}
	for i := range c.BalanceGroups {
		out["balance group "+c.BalanceGroups[i].Name] = &c.BalanceGroups[i].ID
	}
	return out
}

// idOf is the id at key of idFields' result (nil: none, or no such object).
func idOf(ids map[string]**uint32, key string) *uint32 {
	if f := ids[key]; f != nil {
		return *f
	}
	return nil
}

// idValue is idOf's id, 0 when there is none.
func idValue(ids map[string]**uint32, key string) uint32 {
	if id := idOf(ids, key); id != nil {
		return *id
	}
	return 0
}

// effective returns a copy of a configuration as written with the
// defaults applied.
func effective(c *config.Config) *config.Config {
	eff := c.Clone()
	eff.ApplyDefaults()
	return eff
}

// commandLine is the default revision comment: the command and what it
// was given ("balancer link add L3 --lan=P44 --wan=P43").
func commandLine(cmd *cobra.Command, args []string) string {
	parts := []string{cmd.CommandPath()}
	for _, arg := range args {
		parts = append(parts, printable(arg))
	}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if f.Name == "dry-run" || f.Name == "comment" || f.Name == "force" || cmd.Flags().Lookup(f.Name) != cmd.LocalFlags().Lookup(f.Name) {
			return
		}
		v := f.Value.String()
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			v = strings.Join(sv.GetSlice(), ",")
		}
		if strings.ContainsAny(v, " '\"") {
			v = "'" + v + "'"
		}
		v = printable(v)
		parts = append(parts, "--"+f.Name+"="+v)
	})
	return strings.Join(parts, " ")
}

// printApply shows what an apply did or would do.
func (a *app) printApply(res *apiv1.ApplyResult) error {
	if a.structured() {
		return a.printProto(res)
	}
	writeApply(a.stdout, res)
	return nil
}

func writeApply(w io.Writer, res *apiv1.ApplyResult) {
	n := int64(len(res.GetChanges()))
	switch {
	case res.GetUnchanged():
		fmt.Fprintf(w, "no change to the configuration: revision %d stays, nothing saved\n", res.GetRevision().GetNumber())
		return
	case res.GetDryRun() && n == 0:
		fmt.Fprintln(w, "dry run: no change to the configuration")
	case res.GetDryRun():
		fmt.Fprintf(w, "dry run: %s (nothing saved or written):\n", plural(n, "change"))
	case n == 0:
		fmt.Fprintf(w, "revision %d saved: no change to the configuration\n", res.GetRevision().GetNumber())
	default:
		fmt.Fprintf(w, "revision %d saved: %s:\n", res.GetRevision().GetNumber(), plural(n, "change"))
	}
	for _, c := range res.GetChanges() {
		fmt.Fprintf(w, "  %s\n", c)
	}
	entries := fmt.Sprintf("%s, %s, %s", plural(res.GetInserts(), "insert"),
		countOf(res.GetModifies(), "modify", "modifies"), plural(res.GetDeletes(), "delete"))
	switch {
	case res.GetDryRun():
		fmt.Fprintf(w, "switch: would write %s\n", entries)
	case res.GetWritten():
		fmt.Fprintf(w, "switch: programmed (%s)\n", entries)
	default:
		fmt.Fprintln(w, "switch: not programmed yet")
	}
	for _, m := range res.GetSlotMoves() {
		if m.GetSlots() == 0 {
			continue
		}
		verb := "rewrites"
		if res.GetDryRun() {
			verb = "would rewrite"
		}
		// With the session memory on, the slot shares are those of the
		// sessions it does not hold (and of new ones); the held ones are
		// counted on their own line.
		which, newOnes := "sessions", ""
		if res.GetSessionMemory() {
			which, newOnes = "sessions not held", " (new sessions follow the new layout)"
		}
		fmt.Fprintf(w, "slots: balance group %s: %s %s, %s of its %s move%s\n",
			m.GetBalanceGroup(), verb, plural(m.GetSlots(), "slot"), percent(m.GetMoved()), which, newOnes)
		if res.GetSessionMemory() {
			writeHeldMove(w, m.GetBalanceGroup(), m.GetHeldSessions(), res.GetDryRun())
		}
		for _, f := range m.GetFilterGroups() {
			fmt.Fprintf(w, "  %-12s share %s -> %s, %s of its %s move\n",
				f.GetFilterGroup(), percent(f.GetBefore()), percent(f.GetAfter()), percent(f.GetMoved()), which)
		}
	}
	if res.GetWarning() != "" {
		fmt.Fprintf(w, "warning: %s\n", res.GetWarning())
	}
}

// writeHeldMove is the line of a balance group's held sessions: how
// many move (only those held on a filter group or core the change takes
// out: the learner rewrites their entries to where their slots point),
// how many stay, and how many would have moved without the memory.
func writeHeldMove(w io.Writer, group string, h *apiv1.HeldSessionMove, dryRun bool) {
	move := "move"
	if dryRun {
		move = "would move"
	}
	leave := ""
	if h.GetLeave() > 0 {
		leave = " (held on a filter group or core the change takes out: their entries are rewritten to where their slots point)"
	}
	fmt.Fprintf(w, "held sessions: balance group %s: %d held: %d %s%s, %d stay on their filter group and core (%d would move without the session memory)\n",
		group, h.GetHeld(), h.GetLeave(), move, leave, h.GetStay(), h.GetWouldMove())
}

// percent prints a share (0..1) as a percentage with one decimal.
func percent(share float64) string { return fmt.Sprintf("%.1f%%", 100*share) }

// names lists object names for messages: "L1, L2" or "none".
func names(ns []string) string {
	if len(ns) == 0 {
		return "none defined"
	}
	return strings.Join(ns, ", ")
}

func linkNames(c *config.Config) []string {
	var out []string
	for _, l := range c.Links {
		out = append(out, l.Name)
	}
	return out
}

func filterGroupNames(c *config.Config) []string {
	var out []string
	for _, f := range c.FilterGroups {
		out = append(out, f.Name)
	}
	return out
}

func balanceGroupNames(c *config.Config) []string {
	var out []string
	for _, b := range c.BalanceGroups {
		out = append(out, b.Name)
	}
	return out
}

func profileNames(c *config.Config) []string {
	var out []string
	for _, p := range c.Profiles {
		out = append(out, p.Name)
	}
	return out
}

func ruleNames(c *config.Config) []string {
	var out []string
	for _, r := range c.Rules {
		out = append(out, r.Name)
	}
	return out
}

// errUnknown says an object named on the command line does not exist.
func errUnknown(kind, name string, known []string) error {
	return fmt.Errorf("unknown %s %q (%ss: %s)", kind, name, kind, names(known))
}

func errExists(kind, name, hint string) error {
	return fmt.Errorf("%s %q already exists; %s", kind, name, hint)
}

// deleteFunc removes the elements for which del is true and reports
// whether it removed any.
func deleteFunc[T any](s *[]T, del func(T) bool) bool {
	n := len(*s)
	*s = slices.DeleteFunc(*s, del)
	return len(*s) != n
}

// getConfig reads and parses the running configuration.
func (a *app) getConfig(cmd *cobra.Command) (*config.Config, *apiv1.GetConfigResponse, error) {
	cl, err := a.client()
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := a.rpcContext(cmd)
	defer cancel()
	r, err := cl.GetConfig(ctx, &apiv1.GetConfigRequest{})
	if err != nil {
		return nil, nil, err
	}
	cfg, err := parseRunning(r)
	if err != nil {
		return nil, nil, err
	}
	return cfg, r, nil
}

// getStatus fetches the daemon's status.
func (a *app) getStatus(cmd *cobra.Command) (*apiv1.Status, error) {
	cl, err := a.client()
	if err != nil {
		return nil, err
	}
	ctx, cancel := a.rpcContext(cmd)
	defer cancel()
	return cl.GetStatus(ctx, &apiv1.GetStatusRequest{})
}

// portUse names who uses each port of c: "link L1 lan".
func portUse(c *config.Config) map[config.PortName]string {
	use := map[config.PortName]string{}
	for _, l := range c.Links {
		for _, p := range []struct{ name, side string }{{l.LAN, "lan"}, {l.WAN, "wan"}} {
			if n, err := c.ResolvePort(p.name); err == nil {
				use[n] = fmt.Sprintf("link %s (%s %s)", l.Name, p.side, p.name)
			}
		}
	}
	for _, f := range c.FilterGroups {
		for _, p := range []struct{ name, side string }{{f.LAN, "lan"}, {f.WAN, "wan"}} {
			if n, err := c.ResolvePort(p.name); err == nil {
				use[n] = fmt.Sprintf("filter group %s (%s %s)", f.Name, p.side, p.name)
			}
		}
	}
	return use
}

// checkEndpoints checks the --lan and --wan ports of a new link or filter
// group (what: "link L9") against the configuration it joins, so that a
// problem names the new object and its flag rather than an object already
// there.
func checkEndpoints(c *config.Config, what, lan, wan string, ignoreParity bool) error {
	use := portUse(c)
	var errs []string
	for _, p := range []struct {
		flag, name string
		side       config.Side
	}{{"lan", lan, config.SideLAN}, {"wan", wan, config.SideWAN}} {
		n, err := c.ResolvePort(p.name)
		if err != nil {
			errs = append(errs, fmt.Sprintf("--%s %s: %v", p.flag, p.name, err))
			continue
		}
		if got := c.PortSide(n); got != p.side && !ignoreParity {
			errs = append(errs, fmt.Sprintf("--%s %s: the port is on the %s side (even is LAN, odd is WAN); give a %s port, or --ignore-parity if the cabling is crossed",
				p.flag, p.name, got, p.side))
		}
		if by, ok := use[n]; ok {
			errs = append(errs, fmt.Sprintf("--%s %s: the port is already used by %s; pick a free port ('balancer port list' shows USED BY)", p.flag, p.name, by))
		}
	}
	if lan == wan && len(errs) == 0 {
		errs = append(errs, fmt.Sprintf("--lan and --wan are both %s; give two ports", lan))
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("%s: %s", what, strings.Join(errs, "; "))
}

// printable writes s for a default revision comment: as it is, or quoted
// with escapes when it holds a control character (which a comment may not).
func printable(s string) string {
	if config.CheckText("", s, len(s)) == nil {
		return s
	}
	return strconv.Quote(s)
}
