package tofino

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpi-balancer/balancer/p4src"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite docs/tofino.md's resource table from the committed report")

const (
	reportPath = "../build/tofino/resources.json"
	docPath    = "../../docs/tofino.md"
	docBegin   = "<!-- resources: made from p4src/build/tofino/resources.json by p4src/tofino (go test -run TestResourceDoc -update) -->\n"
	docEnd     = "<!-- resources end -->\n"

	verdictReportPath = "../build/tofino-verdict/resources.json"
	verdictDocBegin   = "<!-- resources: made from p4src/build/tofino-verdict/resources.json by p4src/tofino (go test -run TestResourceDoc -update) -->\n"

	sessionsReportPath = "../build/tofino-sessions/resources.json"
	sessionsDocBegin   = "<!-- resources: made from p4src/build/tofino-sessions/resources.json by p4src/tofino (go test -run TestResourceDoc -update) -->\n"
)

func committedReport(t *testing.T) *Resources {
	t.Helper()
	data, err := os.ReadFile(reportPath)
	require.NoError(t, err, "the Tofino resource report is committed (make p4-tna)")
	r, err := ParseResources(data)
	require.NoError(t, err)
	return r
}

// The committed Tofino 1 build fits the target, and the tables the sizes in
// docs/dataplane.md call for are where they must be.
func TestCommittedBuildFits(t *testing.T) {
	r := committedReport(t)
	assert.Equal(t, 12, r.Stages, "Tofino 1 has 12 match-action stages")
	assert.LessOrEqual(t, len(r.StagesUsed), r.Stages)
	assert.Equal(t, Memories{SRAM: 80, TCAM: 24, MapRAM: 48}, r.Capacity, "one Tofino 1 stage")
	total := map[string]Memories{}
	for _, st := range r.StagesUsed {
		assert.LessOrEqual(t, st.Used.SRAM, r.Capacity.SRAM, "stage %d", st.Stage)
		assert.LessOrEqual(t, st.Used.TCAM, r.Capacity.TCAM, "stage %d", st.Stage)
		assert.LessOrEqual(t, st.Used.MapRAM, r.Capacity.MapRAM, "stage %d", st.Stage)
		for _, tb := range st.Tables {
			m := total[tb.Name]
			m.SRAM += tb.SRAM
			m.TCAM += tb.TCAM
			m.MapRAM += tb.MapRAM
			total[tb.Name] = m
		}
	}
	// 4,096 IPv4 rules of a 6-block-wide key: 8 blocks deep.
	assert.Equal(t, 48, total["BalancerIngress.flow_rules"].TCAM)
	assert.Positive(t, total["BalancerIngress.flow_rules_v6"].TCAM)
	assert.Positive(t, total["BalancerIngress.slots"].SRAM)
	assert.Zero(t, total["BalancerIngress.slots"].MapRAM, "no direct counter on the slots")
	assert.Positive(t, total["BalancerIngress.core_counters"].MapRAM)
}

// docs/tofino.md's resource table is the committed report's, as
// Markdown renders it.
func TestResourceDoc(t *testing.T) {
	// One table per committed Tofino profile, each between its markers:
	// the base profile's (docBegin), the verdict profile's and the
	// sessions profile's.
	for _, m := range []struct{ report, begin string }{
		{reportPath, docBegin},
		{verdictReportPath, verdictDocBegin},
		{sessionsReportPath, sessionsDocBegin},
	} {
		data, err := os.ReadFile(m.report)
		require.NoError(t, err, "%s is committed (make p4-tna)", m.report)
		r, err := ParseResources(data)
		require.NoError(t, err)
		want := m.begin + r.Markdown() + docEnd
		doc, err := os.ReadFile(docPath)
		require.NoError(t, err)
		s := string(doc)
		i := strings.Index(s, m.begin)
		require.True(t, i >= 0, "docs/tofino.md has no resource table after %q", m.begin)
		j := i + strings.Index(s[i:], docEnd)
		require.True(t, j > i, "docs/tofino.md: no %q after %q", docEnd, m.begin)
		got := s[i : j+len(docEnd)]
		if *update && got != want {
			require.NoError(t, os.WriteFile(docPath, []byte(s[:i]+want+s[j+len(docEnd):]), 0o644))
			continue
		}
		assert.Equal(t, want, got, "docs/tofino.md is stale: go test ./p4src/tofino -run TestResourceDoc -update")
	}
}

func TestParseResourcesRefusesOther(t *testing.T) {
	_, err := ParseResources([]byte(`{"resources": {}}`))
	assert.ErrorContains(t, err, "no match-action stages")
	_, err = ParseResources([]byte(`not json`))
	assert.ErrorContains(t, err, "resources.json")
}

// Every committed Tofino profile's report is within the stage budget
// and the target's memories.
func TestCommittedReportsWithinBudget(t *testing.T) {
	for _, b := range p4src.Builds {
		if b.Arch != "tna" {
			continue
		}
		data, err := os.ReadFile(filepath.Join("..", b.Dir, "resources.json"))
		if b.Optional && os.IsNotExist(err) {
			continue
		}
		require.NoError(t, err, "p4src/%s: the Tofino report is committed (%s)", b.Dir, b.Make)
		r, err := ParseResources(data)
		require.NoError(t, err)
		assert.NoError(t, r.CheckBudget(), "p4src/%s (%s)", b.Dir, b.Make)
	}
}

// The budget check on an edited copy of the committed report: a stage
// more than the budget, and a stage over its SRAM, each fail it.
func TestBudgetCheckFailsOnAnEditedCopy(t *testing.T) {
	data, err := os.ReadFile(reportPath)
	require.NoError(t, err)
	edit := func(f func(stages []any) []any) *Resources {
		var raw map[string]any
		require.NoError(t, json.Unmarshal(data, &raw))
		mau := raw["resources"].(map[string]any)["mau"].(map[string]any)
		mau["mau_stages"] = f(mau["mau_stages"].([]any))
		out, err := json.Marshal(raw)
		require.NoError(t, err)
		r, err := ParseResources(out)
		require.NoError(t, err)
		return r
	}
	same := edit(func(s []any) []any { return s })
	require.NoError(t, same.CheckBudget(), "the copy is as committed")

	more := edit(func(s []any) []any {
		for len(s) < StageBudget+1 {
			s = append(s, s[len(s)-1])
		}
		return s
	})
	err = more.CheckBudget()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "12 stages used, over the budget of 11 of the target's 12")

	full := edit(func(s []any) []any {
		rams := s[0].(map[string]any)["rams"].(map[string]any)
		srams := rams["srams"].([]any)
		for len(srams) <= same.Capacity.SRAM {
			srams = append(srams, srams[0])
		}
		rams["srams"] = srams
		return s
	})
	err = full.CheckBudget()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "stage 0: SRAM 81 of 80")
}
