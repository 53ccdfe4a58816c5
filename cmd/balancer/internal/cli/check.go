package cli

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/tables"
)

// tableUse is one table's entries against its size, as config check
// prints it.
type tableUse struct {
	Table    string  `json:"table"`
	Entries  int     `json:"entries"`
	Capacity int     `json:"capacity"`
	Percent  float64 `json:"percent"`
}

// checkReport is config check's result.
type checkReport struct {
	File     string     `json:"file"`
	Platform string     `json:"platform"`
	Objects  string     `json:"objects"`
	Tables   []tableUse `json:"tables"`
	// Warnings are the flow rules that can never match (config.RuleWarnings).
	Warnings []string `json:"warnings,omitempty"`
}

func newConfigCheckCmd(a *app) *cobra.Command {
	var strict bool
	cmd := &cobra.Command{
		Use:   "check FILE",
		Short: "Validate and compile a configuration file offline (no daemon)",
		Long: `Read FILE (- for stdin) as 'config apply' would, validate it, and compile it
into the switch's table entries, without a daemon or a switch. Every problem
is listed with its path; otherwise it prints how full each table would be
against the sizes of the file's platform, and a warning for each flow rule
that can never match (with --strict such a rule fails the check, as it
fails 'config apply --strict').`,
		Example: `  balancer config check examples/site.yaml
  balancer config check site.yaml -o json`,
		Args: exactArgs("FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := a.readConfigFile(args[0])
			if err != nil {
				return err
			}
			cfg, err := config.Parse([]byte(data))
			if err != nil {
				return fmt.Errorf("%s is not valid:\n  %s", args[0], problemLines(err))
			}
			rep, err := checkTables(cfg)
			if err != nil {
				// Every line: the compiler's problems are field errors
				// (rule capacity) and others (slots, widths).
				return fmt.Errorf("%s does not compile:\n  %s", args[0], strings.ReplaceAll(strings.TrimPrefix(err.Error(), "tables: "), "\n", "\n  "))
			}
			rep.File = args[0]
			ws := cfg.RuleWarnings()
			if strict && len(ws) > 0 {
				return fmt.Errorf("%s is refused (--strict): a flow rule can never match:\n  %s", args[0],
					strings.ReplaceAll(config.WarningList(ws), "\n", "\n  "))
			}
			for _, w := range ws {
				rep.Warnings = append(rep.Warnings, w.String())
			}
			if a.structured() {
				return a.printValue(rep)
			}
			fmt.Fprintf(a.stdout, "%s: valid for platform %s (%s)\n", rep.File, rep.Platform, rep.Objects)
			w := table(a.stdout)
			row(w, "TABLE", "ENTRIES", "CAPACITY", "USE")
			for _, u := range rep.Tables {
				row(w, u.Table, u.Entries, u.Capacity, fmt.Sprintf("%.1f%%", u.Percent))
			}
			if err := w.Flush(); err != nil {
				return err
			}
			for _, w := range rep.Warnings {
				fmt.Fprintf(a.stdout, "warning: %s\n", w)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&strict, "strict", false, "fail when a flow rule can never match (by default it is a warning)")
	return cmd
}

// problemLines writes joined problems one per line.
func problemLines(err error) string {
	var lines []string
	for _, fe := range config.FieldErrors(err) {
		lines = append(lines, fe.Named())
	}
	if len(lines) == 0 {
		lines = strings.Split(err.Error(), "\n")
	}
	return strings.Join(lines, "\n  ")
}

// checkTables compiles cfg with the build of its platform (the v1model
// build's sizes for sim and bmv2, the committed Tofino build's for a
// Tofino platform) and counts the entries of each table against its size
// (the slots table's from the platform).
func checkTables(cfg *config.Config) (*checkReport, error) {
	comp, err := tables.LoadPlatform(cfg.Platform)
	if err != nil {
		return nil, err
	}
	des, err := comp.Compile(cfg, tables.State{})
	if err != nil {
		return nil, err
	}
	pl, err := config.LookupPlatform(cfg.Platform)
	if err != nil {
		return nil, err
	}
	count := map[uint32]int{}
	for _, e := range des.Entities {
		if te := e.GetTableEntry(); te != nil {
			count[te.GetTableId()]++
		}
	}
	rep := &checkReport{Platform: pl.Name, Objects: fmt.Sprintf("%s, %s, %s, %s, %s",
		plural(int64(len(cfg.Links)), "link"), plural(int64(len(cfg.FilterGroups)), "filter group"),
		plural(int64(len(cfg.BalanceGroups)), "balance group"), plural(int64(len(cfg.Profiles)), "profile"),
		plural(int64(len(cfg.Rules)), "rule"))}
	for id, n := range count {
		t := comp.Schema().TableByID(id)
		u := tableUse{Table: t.GetPreamble().GetName(), Entries: n, Capacity: int(t.GetSize())}
		if u.Table == p4src.TableSlots {
			u.Capacity = pl.SlotCapacity
		}
		if u.Capacity > 0 {
			u.Percent = 100 * float64(n) / float64(u.Capacity)
		}
		rep.Tables = append(rep.Tables, u)
	}
	sort.Slice(rep.Tables, func(i, j int) bool { return rep.Tables[i].Table < rep.Tables[j].Table })
	return rep, nil
}
