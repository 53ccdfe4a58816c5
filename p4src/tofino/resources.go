package tofino

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Resources is what the Tofino compiler's resource report
// (<out>/pipe/logs/resources.json, bf-p4c --verbose 1) says of the
// match-action stages: how many stages the target has, which ones the
// program uses, and the memories each table and counter takes.
type Resources struct {
	Compiler string // compiler_version of the report
	Stages   int    // match-action stages of the target (12 on Tofino 1)
	// StagesUsed are the stages the program uses, in order. A stage is shared
	// by ingress and egress: its tables are of either.
	StagesUsed []StageUse
	// Capacity is one stage's memories (the same in every stage).
	Capacity Memories
}

// Memories counts memory units of one stage.
type Memories struct {
	SRAM   int // unit RAMs (exact-match entries, action data, counters)
	TCAM   int // TCAM blocks (ternary and range entries)
	MapRAM int // map RAMs (counters, meters)
}

// StageUse is one stage's memories and who uses them.
type StageUse struct {
	Stage  int
	Used   Memories
	Tables []TableUse // sorted by name
}

// TableUse is one P4 table's or counter's memories in a stage. Its
// action-data RAMs ("<table>$action") count with the table.
type TableUse struct {
	Name string
	Memories
}

type resourcesJSON struct {
	CompilerVersion string `json:"compiler_version"`
	Resources       struct {
		MAU struct {
			NStages int `json:"nStages"`
			Stages  []struct {
				Stage int `json:"stage_number"`
				RAMs  struct {
					Columns int     `json:"nColumns"`
					Rows    int     `json:"nRows"`
					SRAMs   []units `json:"srams"`
				} `json:"rams"`
				TCAMs struct {
					Columns int     `json:"nColumns"`
					Rows    int     `json:"nRows"`
					TCAMs   []units `json:"tcams"`
				} `json:"tcams"`
				MapRAMs struct {
					Rows    int     `json:"nRows"`
					Units   int     `json:"nUnits"`
					MapRAMs []units `json:"maprams"`
				} `json:"map_rams"`
				LogicalTables struct {
					IDs []struct {
						Name string `json:"table_name"`
					} `json:"ids"`
				} `json:"logical_tables"`
			} `json:"mau_stages"`
		} `json:"mau"`
	} `json:"resources"`
}

type units struct {
	Usages []struct {
		UsedBy string `json:"used_by"`
	} `json:"usages"`
}

// ParseResources reads bf-p4c's resources.json.
func ParseResources(data []byte) (*Resources, error) {
	var raw resourcesJSON
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("tofino: resources.json: %w", err)
	}
	mau := raw.Resources.MAU
	if mau.NStages == 0 || len(mau.Stages) == 0 {
		return nil, fmt.Errorf("tofino: resources.json: no match-action stages (not a bf-p4c resource report?)")
	}
	r := &Resources{Compiler: raw.CompilerVersion, Stages: mau.NStages}
	for _, st := range mau.Stages {
		r.Capacity = Memories{
			SRAM:   st.RAMs.Columns * st.RAMs.Rows,
			TCAM:   st.TCAMs.Columns * st.TCAMs.Rows,
			MapRAM: st.MapRAMs.Units * st.MapRAMs.Rows,
		}
		use := StageUse{Stage: st.Stage}
		byName := map[string]*Memories{}
		add := func(us []units, f func(*Memories)) {
			for _, u := range us {
				var counted []string
				for _, x := range u.Usages {
					name, _, _ := strings.Cut(x.UsedBy, "$")
					if slices.Contains(counted, name) {
						continue
					}
					counted = append(counted, name)
					if byName[name] == nil {
						byName[name] = &Memories{}
					}
					f(byName[name])
				}
				if len(u.Usages) > 0 {
					f(&use.Used)
				}
			}
		}
		add(st.RAMs.SRAMs, func(m *Memories) { m.SRAM++ })
		add(st.TCAMs.TCAMs, func(m *Memories) { m.TCAM++ })
		add(st.MapRAMs.MapRAMs, func(m *Memories) { m.MapRAM++ })
		for _, t := range st.LogicalTables.IDs {
			name, _, _ := strings.Cut(t.Name, "$")
			if strings.HasPrefix(name, "BalancerIngress.") || strings.HasPrefix(name, "BalancerEgress.") {
				if byName[name] == nil {
					byName[name] = &Memories{}
				}
			}
		}
		for name, m := range byName {
			use.Tables = append(use.Tables, TableUse{Name: name, Memories: *m})
		}
		slices.SortFunc(use.Tables, func(a, b TableUse) int { return strings.Compare(a.Name, b.Name) })
		r.StagesUsed = append(r.StagesUsed, use)
	}
	return r, nil
}

// Markdown is the report as a Markdown table: a row per stage with the
// tables and counters in it and what they take, and the stage's totals
// against its capacity.
func (r *Resources) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "bf-p4c %s, Tofino 1: %d of %d stages used.\n\n", r.Compiler, len(r.StagesUsed), r.Stages)
	fmt.Fprintf(&b, "| stage | tables and counters (SRAM / TCAM / map RAM) | stage total SRAM of %d | TCAM of %d | map RAM of %d |\n",
		r.Capacity.SRAM, r.Capacity.TCAM, r.Capacity.MapRAM)
	b.WriteString("|---|---|---|---|---|\n")
	for _, st := range r.StagesUsed {
		var names []string
		for _, t := range st.Tables {
			name := strings.TrimPrefix(strings.TrimPrefix(t.Name, "BalancerIngress."), "BalancerEgress.")
			if t.Memories == (Memories{}) {
				names = append(names, fmt.Sprintf("`%s`", name))
				continue
			}
			names = append(names, fmt.Sprintf("`%s` %d / %d / %d", name, t.SRAM, t.TCAM, t.MapRAM))
		}
		if len(names) == 0 {
			names = []string{"(statements only)"}
		}
		fmt.Fprintf(&b, "| %d | %s | %d | %d | %d |\n", st.Stage, strings.Join(names, ", "),
			st.Used.SRAM, st.Used.TCAM, st.Used.MapRAM)
	}
	return b.String()
}

// StageBudget is how many of Tofino 1's 12 match-action stages a
// committed build may use: one stage is kept free, so that a fix or a
// small feature does not start with a redesign (docs/tofino.md,
// "Profiles and the stage budget").
const StageBudget = 11

// CheckBudget fails when the report is over the target: more stages used
// than StageBudget (or than the target has), or a stage whose memories
// exceed one stage's. The error names the stage and what is over.
func (r *Resources) CheckBudget() error {
	var errs []string
	if n := len(r.StagesUsed); n > StageBudget || n > r.Stages {
		errs = append(errs, fmt.Sprintf("%d stages used, over the budget of %d of the target's %d", n, min(StageBudget, r.Stages), r.Stages))
	}
	for _, st := range r.StagesUsed {
		over := func(what string, used, capacity int) {
			if used > capacity {
				errs = append(errs, fmt.Sprintf("stage %d: %s %d of %d", st.Stage, what, used, capacity))
			}
		}
		over("SRAM", st.Used.SRAM, r.Capacity.SRAM)
		over("TCAM", st.Used.TCAM, r.Capacity.TCAM)
		over("map RAM", st.Used.MapRAM, r.Capacity.MapRAM)
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("tofino: %s", strings.Join(errs, "; "))
}
