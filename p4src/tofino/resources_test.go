package tofino

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite docs/tofino.md's resource table from the committed report")

const (
	reportPath = "../build/tofino/resources.json"
	docPath    = "../../docs/tofino.md"
	docBegin   = "<!-- resources: made from p4src/build/tofino/resources.json by p4src/tofino (go test -run TestResourceDoc -update) -->\n"
	docEnd     = "<!-- resources end -->\n"
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
	want := docBegin + committedReport(t).Markdown() + docEnd
	doc, err := os.ReadFile(docPath)
	require.NoError(t, err)
	s := string(doc)
	i, j := strings.Index(s, docBegin), strings.Index(s, docEnd)
	require.True(t, i >= 0 && j > i, "docs/tofino.md has no resource table between %q and %q", docBegin, docEnd)
	got := s[i : j+len(docEnd)]
	if *update && got != want {
		require.NoError(t, os.WriteFile(docPath, []byte(s[:i]+want+s[j+len(docEnd):]), 0o644))
		return
	}
	assert.Equal(t, want, got, "docs/tofino.md is stale: go test ./p4src/tofino -run TestResourceDoc -update")
}

func TestParseResourcesRefusesOther(t *testing.T) {
	_, err := ParseResources([]byte(`{"resources": {}}`))
	assert.ErrorContains(t, err, "no match-action stages")
	_, err = ParseResources([]byte(`not json`))
	assert.ErrorContains(t, err, "resources.json")
}
