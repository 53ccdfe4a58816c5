package testgen

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/p4src"
)

// neverCoveredWhy explains the statements no P4Testgen run reaches
// (docs/testgen.md), per build ("" for both): each names a block of the
// program by the line that opens it (the block runs to its closing brace)
// or a statement by its text, and says why.
type coverageWhy struct {
	build, file, opens, text string
	why                      string
}

var neverCoveredWhy = []coverageWhy{
	// v1model: P4Testgen starts every case from registers at their reset
	// value (0): no send is pending and no verdict stands, so no
	// single-frame case proves loss or meets a standing verdict.
	{build: "v1model", file: "p4src/v1model/include/control/verdict.p4", opens: "if (md.fg_forward && cell == key) {", why: "registers at reset"},
	{build: "v1model", file: "p4src/v1model/include/control/verdict.p4", text: "ka_overdue = std.ingress_global_timestamp", why: "registers at reset"},
	{build: "v1model", file: "p4src/v1model/include/control/verdict.p4", opens: "if (!md.verdict_hit) {", why: "registers at reset"},
	{build: "v1model", file: "p4src/v1model/include/control/verdict.p4", opens: "if (md.verdict_now) {", why: "registers at reset"},
	{build: "v1model", file: "p4src/shared/ingress.p4", opens: "if (md.verdict_hit) {", why: "registers at reset"},
	{build: "v1model", file: "p4src/shared/control/statistics.p4", opens: "if (md.count_verdict) {", why: "registers at reset"},
	{build: "v1model", file: "p4src/shared/ingress.p4", text: "digest", why: "registers at reset"},

	// Reachable, not reached by the search within TESTGEN_SECONDS: a
	// keep-alive coming back on a filter port, to the CPU (no run chose a
	// filter port, the keep-alive EtherType and a valid keep-alive
	// together; sim/keepalive_test.go and the BMv2 tests cover it). The
	// verdict profiles' guided run "return" reaches it.
	{file: "p4src/shared/control/filter_return.p4", opens: "if (hdr.keepalive.isValid()) {", why: "search: keep-alive return"},
	{build: "v1model", file: "p4src/shared/ingress.p4", text: "std.egress_spec = 255", why: "search: keep-alive return"},
	{build: "tofino", file: "p4src/shared/ingress.p4", text: "ig_tm_md.ucast_egress_port = 192", why: "search: keep-alive return"},
	{build: "tofino", file: "p4src/tna/include/parser.p4", opens: "state parse_packet_in {", why: "search: keep-alive return"},
	{build: "tofino", file: "p4src/shared/ingress.p4", text: "hdr.packet_in.rx_timestamp = ig_intr_md.ingress_mac_tstamp", why: "search: keep-alive return"},
}

// The Tofino profiles with the data-plane verdict (sets tofino-verdict
// and tofino-sessions, built with -DTESTGEN_NO_RESUBMIT).
func init() {
	for _, set := range []string{"tofino-verdict", "tofino-sessions"} {
		neverCoveredWhy = append(neverCoveredWhy, []coverageWhy{
			// The proving frame's second pass: P4Testgen's Tofino model
			// starts every frame with resubmit_flag 0 (and its build
			// leaves the resubmit out), so no case is a resubmitted frame.
			{build: set, file: "p4src/tna/include/parser.p4", opens: "state parse_resubmit {", why: "second pass"},
			{build: set, file: "p4src/tna/include/control/verdict.p4", opens: "RegisterAction<bit<16>, fg_id_t, bit<16>>(verdict) verdict_write = {", why: "second pass"},
			{build: set, file: "p4src/tna/include/control/verdict.p4", text: "verdict_write.execute(md.target_fg)", why: "second pass"},
			{build: set, file: "p4src/tna/include/control/verdict.p4", opens: "if (md.resub.isValid()) {", why: "second pass"},
			// The second pass's proof copy to the other pipes (its
			// cell write from an arriving copy is a single frame, and
			// covered).
			{build: set, file: "p4src/tna/include/control/verdict.p4", opens: "@hidden action copy_proof() {", why: "second pass"},
		}...)
	}
	neverCoveredWhy = append(neverCoveredWhy, []coverageWhy{
		// Reachable in a first pass, not reached by the search within
		// TESTGEN_SECONDS: the verdict set's unguided runs did not
		// choose a balance group in bypass or drop state this time
		// (its guided runs keep only other paths); the base set and
		// the sessions set cover both actions.
		{build: "tofino-verdict", file: "p4src/shared/control/balancing.p4", opens: "action group_bypass() {", why: "search: balance group bypass or drop"},
		{build: "tofino-verdict", file: "p4src/shared/control/balancing.p4", opens: "action group_drop() {", why: "search: balance group bypass or drop"},
		// The sessions set: an active group whose slot misses (no
		// slot entry for the hash), beside the session lookup.
		{build: "tofino-sessions", file: "p4src/shared/control/balancing.p4", opens: "if (md.session_hit) {", why: "search: slot miss"},
	}...)
}

// TestGeneratedCoverage reads what each committed P4Testgen run left
// uncovered (testdata/<set>/*.uncovered, make p4-testgen), reports the
// statement coverage of all runs together, and checks that every
// statement no run covered is one P4Testgen cannot reach, for a reason
// written down above.
//
// The reports name statements by line: they map onto the sources they
// were generated from (testdata/<set>/sources.sha256, written by make
// p4-testgen), not onto sources changed since. A set generated from other
// sources is skipped, naming the make target that generates it again
// (its cases are still replayed by TestGeneratedCases).
func TestGeneratedCoverage(t *testing.T) {
	for _, set := range generatedSets {
		t.Run(set.dir, func(t *testing.T) {
			if stale := generatedFrom(t, set.dir, set.arch); stale != "" {
				t.Skipf("testdata/%s was generated from other P4 sources (%s): its coverage report does not map onto them; run make p4-testgen-%s", set.dir, stale, set.dir)
			}
			files, err := filepath.Glob(filepath.Join("testdata", set.dir, "*.uncovered"))
			require.NoError(t, err)
			require.NotEmpty(t, files, "no coverage reports in testdata/%s: run make p4-testgen", set.dir)
			var runs []Uncovered
			for _, f := range files {
				fh, err := os.Open(f)
				require.NoError(t, err)
				u, err := ReadUncovered(fh)
				fh.Close()
				require.NoError(t, err, f)
				if guidedRuns[strings.TrimSuffix(filepath.Base(f), ".uncovered")] {
					u = withoutGuide(t, f, u)
				}
				t.Logf("%s: %d of %d statements covered (%.1f %%)", filepath.Base(f), u.Nodes-len(u.Statements), u.Nodes,
					100*float64(u.Nodes-len(u.Statements))/float64(u.Nodes))
				runs = append(runs, u)
			}
			never, err := NeverCovered(runs)
			require.NoError(t, err)
			nodes := runs[0].Nodes
			t.Logf("all runs: %d of %d statements covered (%.1f %%)", nodes-len(never), nodes, 100*float64(nodes-len(never))/float64(nodes))
			why := map[string]int{}
			var unexplained []string
			for _, s := range never {
				r, err := explain(set.dir, s)
				require.NoError(t, err)
				if r == "" {
					unexplained = append(unexplained, s)
					continue
				}
				why[r]++
			}
			t.Logf("never covered, by reason: %v", why)
			// Of the statements a single frame can reach (the reasons that
			// are not "search: ..." are limits of single-frame cases).
			reach := nodes - why["second pass"] - why["registers at reset"]
			t.Logf("single-frame reachable: %d of %d covered (%.1f %%)", nodes-len(never), reach, 100*float64(nodes-len(never))/float64(reach))
			assert.Empty(t, unexplained, "statements no run covered, for no reason written down: generate longer, or explain them")
		})
	}
}

// guidedRuns are the verdict profiles' guided runs (the Makefile's
// TESTGEN_RUNS_verdict): P4Testgen's build of each has one statement
// more, the guide (arch.p4, TESTGEN_GUIDE), which every case it keeps
// runs.
var guidedRuns = map[string]bool{"forward": true, "return": true}

// withoutGuide is a guided run's report on the program every other run
// covers: its guide taken out of the statements it counts.
func withoutGuide(t *testing.T, file string, u Uncovered) Uncovered {
	t.Helper()
	for _, s := range u.Statements {
		require.NotContains(t, s, "testgen_assume", "%s: the guide is run by every case the run keeps", file)
	}
	u.Nodes--
	return u
}

var statementRE = regexp.MustCompile(`^(.+?)\\([0-9]+): (.*)$`)

// explain returns the reason a never-covered statement of a build
// ("file\line: text") is out of P4Testgen's reach, or "".
func explain(build, stmt string) (string, error) {
	m := statementRE.FindStringSubmatch(stmt)
	if m == nil {
		return "", fmt.Errorf("statement %q: want file\\line: text", stmt)
	}
	file := filepath.ToSlash(filepath.Clean(m[1]))
	line, _ := strconv.Atoi(m[2])
	for _, w := range neverCoveredWhy {
		if w.file != file || !forBuild(w.build, build) {
			continue
		}
		if w.text != "" && strings.Contains(m[3], w.text) {
			return w.why, nil
		}
		if w.opens == "" {
			continue
		}
		from, to, err := block(file, w.opens)
		if err != nil {
			return "", err
		}
		if line >= from && line <= to {
			return w.why, nil
		}
	}
	return "", nil
}

// forBuild says whether an explanation for build want ("" every build;
// "tofino" every Tofino profile's set, "tofino-verdict" that one) holds
// for the set build.
func forBuild(want, build string) bool {
	return want == "" || want == build || strings.HasPrefix(build, want+"-")
}

// block finds the first line of file (from the repository's root)
// containing opens and returns it and the line where its braces close.
func block(file, opens string) (from, to int, err error) {
	b, err := os.ReadFile(filepath.Join("..", "..", file))
	if err != nil {
		return 0, 0, err
	}
	depth := 0
	for i, l := range strings.Split(string(b), "\n") {
		if from == 0 {
			if !strings.Contains(l, opens) {
				continue
			}
			from = i + 1
		}
		depth += strings.Count(l, "{") - strings.Count(l, "}")
		if depth <= 0 {
			return from, i + 1, nil
		}
	}
	if from == 0 {
		return 0, 0, fmt.Errorf("%s: no line with %q (the program changed: update neverCoveredWhy)", file, opens)
	}
	return 0, 0, fmt.Errorf("%s: the block at line %d does not close", file, from)
}

// The coverage report is read as P4Testgen prints it: the last report
// wins, statements start with a tab, continuation lines do not count.
func TestParseCoverageLog(t *testing.T) {
	log := "============ Test 1: Nodes covered: 0.5 (2/4) ============\n" +
		"Not covered program nodes:\n" +
		"\tp4src/a.p4\\3: x = 1;\n\tp4src/a.p4\\4: hash(md.h, {\n  f0:a;\n  f1:b; });\n\tp4src/a.p4\\5: y = 2;\n" +
		"some other line\n" +
		"============ Test 2: Nodes covered: 0.75 (3/4) ============\n" +
		"Not covered program nodes:\n" +
		"\tp4src/a.p4\\5: y = 2;\n"
	u, err := ParseCoverageLog(strings.NewReader(log))
	require.NoError(t, err)
	assert.Equal(t, Uncovered{Nodes: 4, Statements: []string{`p4src/a.p4\5: y = 2;`}}, u)

	var sb strings.Builder
	require.NoError(t, WriteUncovered(&sb, u))
	back, err := ReadUncovered(strings.NewReader(sb.String()))
	require.NoError(t, err)
	assert.Equal(t, u, back)

	_, err = ParseCoverageLog(strings.NewReader("no report here\n"))
	assert.Error(t, err)

	never, err := NeverCovered([]Uncovered{
		{Nodes: 4, Statements: []string{"a", "b", "b"}},
		{Nodes: 4, Statements: []string{"b", "b", "c"}},
		{Nodes: 4, Statements: []string{"b", "a", "b"}},
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"b", "b"}, never)
	_, err = NeverCovered([]Uncovered{{Nodes: 4}, {Nodes: 5}})
	assert.Error(t, err)
}

// generatedFrom compares the sources a set was generated from with the
// sources as they are: "" when they are the same, else what differs.
func generatedFrom(t *testing.T, dir, arch string) string {
	t.Helper()
	src := map[string]string{p4src.ArchV1Model: "v1model", p4src.ArchTNA: "tna"}[arch]
	require.NotEmpty(t, src, "architecture %q", arch)
	made, err := os.ReadFile(filepath.Join("testdata", dir, p4src.SourcesFile))
	if os.IsNotExist(err) {
		return "no " + p4src.SourcesFile + " recorded"
	}
	require.NoError(t, err)
	now, err := p4src.SourceDigests(filepath.Join("..", "..", "p4src"), src)
	require.NoError(t, err)
	if strings.TrimSpace(string(made)) == strings.Join(now, "\n") {
		return ""
	}
	return "the sources' digests differ"
}
