package testgen

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Uncovered is what one P4Testgen run (--track-coverage STATEMENTS
// --print-coverage) left uncovered: the program's statement count and
// the statements no case of the run covered, as P4Testgen names them
// ("file\line: statement"; a statement may appear more than once, for
// the expansions of one macro).
type Uncovered struct {
	Nodes      int
	Statements []string
}

var coveredRE = regexp.MustCompile(`Nodes covered: [0-9.]+ \(([0-9]+)/([0-9]+)\)`)

// ParseCoverageLog reads P4Testgen's --print-coverage output and returns
// its last report: after every case it prints the coverage so far and the
// statements not covered yet, each on a line of its own that starts with a
// tab (a statement's continuation lines start with spaces).
func ParseCoverageLog(r io.Reader) (Uncovered, error) {
	var (
		last  Uncovered
		cur   *Uncovered
		found bool
	)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := coveredRE.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			last, found = Uncovered{Nodes: n}, true
			cur = &last
			continue
		}
		if cur != nil && strings.HasPrefix(line, "\t") {
			cur.Statements = append(cur.Statements, strings.TrimSpace(line))
		} else if cur != nil && line != "" && !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "Not covered") {
			cur = nil // the report ended
		}
	}
	if err := sc.Err(); err != nil {
		return Uncovered{}, err
	}
	if !found {
		return Uncovered{}, fmt.Errorf("no coverage report (run p4testgen with --track-coverage STATEMENTS --print-coverage)")
	}
	return last, nil
}

// WriteUncovered writes u in the committed form: a "nodes N" line, then
// the statements, sorted.
func WriteUncovered(w io.Writer, u Uncovered) error {
	s := append([]string(nil), u.Statements...)
	sort.Strings(s)
	if _, err := fmt.Fprintf(w, "nodes %d\n", u.Nodes); err != nil {
		return err
	}
	for _, l := range s {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return err
		}
	}
	return nil
}

// ReadUncovered reads what WriteUncovered wrote.
func ReadUncovered(r io.Reader) (Uncovered, error) {
	var u Uncovered
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	first := true
	for sc.Scan() {
		line := sc.Text()
		if first {
			first = false
			n, err := fmt.Sscanf(line, "nodes %d", &u.Nodes)
			if err != nil || n != 1 || u.Nodes <= 0 {
				return Uncovered{}, fmt.Errorf("first line %q: want \"nodes N\"", line)
			}
			continue
		}
		if line != "" {
			u.Statements = append(u.Statements, line)
		}
	}
	if first {
		return Uncovered{}, fmt.Errorf("empty")
	}
	return u, sc.Err()
}

// NeverCovered returns the statements that no run covered (each as many
// times as every run left it), given runs of one program.
func NeverCovered(runs []Uncovered) ([]string, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("no runs")
	}
	count := func(u Uncovered) map[string]int {
		m := map[string]int{}
		for _, s := range u.Statements {
			m[s]++
		}
		return m
	}
	inter := count(runs[0])
	for _, r := range runs[1:] {
		if r.Nodes != runs[0].Nodes {
			return nil, fmt.Errorf("runs of different programs: %d and %d statements", runs[0].Nodes, r.Nodes)
		}
		c := count(r)
		for s, n := range inter {
			inter[s] = min(n, c[s])
		}
	}
	var out []string
	for s, n := range inter {
		for range n {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out, nil
}
