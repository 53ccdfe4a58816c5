package tofino

import (
	"fmt"
	"os"
	"strings"
	"testing"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/prototext"
)

// Tofino 1 memory geometry (every bf-p4c resource report of the target
// assumes it): a TCAM block is 44 bits x 512 entries, a unit SRAM 128
// bits x 1,024 words.
const (
	tcamBits    = 44
	tcamEntries = 512
	sramBits    = 128
	sramWords   = 1024
)

const p4infoPath = "../build/tofino/balancer.p4info.txtpb"

// tableUse sums a table's (or counter's) memories over every stage of the
// committed report.
func tableUse(r *Resources, name string) Memories {
	var m Memories
	for _, st := range r.StagesUsed {
		for _, t := range st.Tables {
			if t.Name == name {
				m.SRAM += t.SRAM
				m.TCAM += t.TCAM
				m.MapRAM += t.MapRAM
			}
		}
	}
	return m
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// The numbers docs/tofino.md gives about the flow rules' keys and the
// per-core counter's cells are the committed P4Info's and report's, by
// arithmetic done here.
func TestDocNumbersMatchCommittedBuild(t *testing.T) {
	raw, err := os.ReadFile(p4infoPath)
	require.NoError(t, err)
	info := &p4configv1.P4Info{}
	require.NoError(t, prototext.Unmarshal(raw, info))
	r := committedReport(t)
	docRaw, err := os.ReadFile(docPath)
	require.NoError(t, err)
	doc := strings.Join(strings.Fields(string(docRaw)), " ") // line breaks do not matter

	for _, tt := range []struct {
		table  string
		fields int
		bits   int
		doc    string
	}{
		{"BalancerIngress.flow_rules", 14, 253, "the committed P4Info's 14 match fields make a 253-bit key, 6 blocks wide; 4,096 entries are 8 blocks deep"},
		{"BalancerIngress.flow_rules_v6", 13, 444, "a 444-bit key, 11 blocks wide; 1,024 entries, 2 deep"},
	} {
		var tbl *p4configv1.Table
		for _, x := range info.GetTables() {
			if x.GetPreamble().GetName() == tt.table {
				tbl = x
			}
		}
		require.NotNil(t, tbl, tt.table)
		bits := 0
		for _, f := range tbl.GetMatchFields() {
			bits += int(f.GetBitwidth())
			assert.Equal(t, p4configv1.MatchField_TERNARY, f.GetMatchType(), "%s %s", tt.table, f.GetName())
		}
		assert.Equal(t, tt.fields, len(tbl.GetMatchFields()), tt.table)
		assert.Equal(t, tt.bits, bits, "%s: key bits per the committed P4Info", tt.table)
		wide, deep := ceilDiv(bits, tcamBits), ceilDiv(int(tbl.GetSize()), tcamEntries)
		assert.Equal(t, tableUse(r, tt.table).TCAM, wide*deep, "%s: %d blocks wide x %d deep is what the report allocates", tt.table, wide, deep)
		want := fmt.Sprintf("%d-bit key", bits)
		assert.Contains(t, tt.doc, want)
		assert.Contains(t, tt.doc, fmt.Sprintf("%d blocks wide", wide))
		assert.Contains(t, doc, tt.doc, "docs/tofino.md says it")
	}
	assert.NotContains(t, doc, "251-bit", "the flow-rule key is 253 bits")

	// core_counters: RAMs = cells / (cells per word x words) + 1 spare.
	var size int
	for _, c := range info.GetCounters() {
		if c.GetPreamble().GetName() == "BalancerIngress.core_counters" {
			size = int(c.GetSize())
			assert.Equal(t, p4configv1.CounterSpec_BOTH, c.GetSpec().GetUnit(), "packets and bytes")
		}
	}
	require.Equal(t, 65536, size)
	use := tableUse(r, "BalancerIngress.core_counters")
	require.Equal(t, 33, use.SRAM)
	require.Equal(t, 33, use.MapRAM)
	perWord := size / ((use.SRAM - 1) * sramWords)
	assert.Equal(t, 2, perWord, "two cells per RAM word")
	cellBits := sramBits / perWord
	assert.Equal(t, 64, cellBits)
	assert.Equal(t, 28+36, cellBits, "a 28-bit packet count and a 36-bit byte count")
	assert.Equal(t, 17, size/(4*sramWords)+1, "32-bit cells would take 17")
	assert.Contains(t, doc, fmt.Sprintf("Its cells are %d bits on Tofino: a packets-and-bytes counter of this size is laid out two cells to a 128-bit RAM word, each a 28-bit packet count and a 36-bit byte count, so 2^16 cells fill 2^16 / (2 x 1,024 words) = %d RAMs, and the statistics ALU's read-modify-write takes one spare RAM more: %d (32-bit cells, four to a word, would take 17)", cellBits, use.SRAM-1, use.SRAM))
	assert.NotContains(t, doc, "32 bits wide on Tofino")

	// The Tofino 2 refusal is named as the known regression.
	assert.Contains(t, doc, "p4lang/p4c #5752")
	assert.Contains(t, doc, "p4lang/p4c #5753, was merged after v1.2.5.16")
}
