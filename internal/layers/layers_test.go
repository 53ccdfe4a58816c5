// Package layers holds the test of the import layers that docs/layers.md
// writes down.
package layers

import (
	"bufio"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	module = "github.com/dpi-balancer/balancer"
	root   = "../.."
	doc    = "docs/layers.md"
)

// readLayers reads the layers block of docs/layers.md: package -> layer.
func readLayers(t *testing.T) map[string]int {
	t.Helper()
	f, err := os.Open(filepath.Join(root, doc))
	require.NoError(t, err)
	defer f.Close()
	line := regexp.MustCompile(`^(\d+) [a-z-]+: (.+)$`)
	out := map[string]int{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		s := sc.Text()
		switch {
		case s == "```layers":
			in = true
		case in && s == "```":
			in = false
		case in:
			m := line.FindStringSubmatch(s)
			require.NotNil(t, m, "%s: layers line %q: want \"N name: pkg pkg ...\"", doc, s)
			n, _ := strconv.Atoi(m[1])
			for _, p := range strings.Fields(m[2]) {
				_, dup := out[p]
				require.False(t, dup, "%s: package %s is listed twice", doc, p)
				out[p] = n
			}
		}
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, out, "%s has no layers block", doc)
	return out
}

// packageImports lists every package of the module (by path inside it)
// with the module packages its non-test files import. Folders holding
// another module (a go.mod of their own) and testdata are not walked.
func packageImports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		pkg := filepath.ToSlash(filepath.Dir(rel))
		if strings.HasSuffix(path, "_test.go") {
			if _, ok := out[pkg]; !ok {
				out[pkg] = nil // a package of tests only
			}
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if p == module || strings.HasPrefix(p, module+"/") {
				dep := strings.TrimPrefix(strings.TrimPrefix(p, module), "/")
				if !slices.Contains(out[pkg], dep) {
					out[pkg] = append(out[pkg], dep)
				}
			}
		}
		if _, ok := out[pkg]; !ok {
			out[pkg] = []string{}
		}
		return nil
	})
	require.NoError(t, err)
	return out
}

// folder is the folder a package belongs to: its top-level directory, or
// internal/x for the packages under internal/x.
func folder(pkg string) string {
	parts := strings.Split(pkg, "/")
	if parts[0] == "internal" && len(parts) > 1 {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}

// Every package is in a layer, imports nothing above it, and the folders
// import each other in no circle.
func TestImportLayers(t *testing.T) {
	layers := readLayers(t)
	imports := packageImports(t)
	for pkg := range layers {
		_, ok := imports[pkg]
		assert.True(t, ok, "%s lists %s, which is no package of the module: remove it", doc, pkg)
	}
	folders := map[string]map[string]bool{}
	for pkg, deps := range imports {
		l, ok := layers[pkg]
		if !assert.True(t, ok, "package %s is in no layer: add it to the layers block of %s", pkg, doc) {
			continue
		}
		for _, dep := range deps {
			if dl, ok := layers[dep]; ok && dl > l {
				t.Errorf("%s (layer %d) imports %s (layer %d), a layer above it", pkg, l, dep, dl)
			}
			if a, b := folder(pkg), folder(dep); a != b {
				if folders[a] == nil {
					folders[a] = map[string]bool{}
				}
				folders[a][b] = true
			}
		}
	}
	// A circle among folders: depth-first search for a back edge.
	state := map[string]int{} // 1 on the path, 2 done
	var path []string
	var visit func(string)
	visit = func(f string) {
		state[f] = 1
		path = append(path, f)
		for _, g := range slices.Sorted(maps.Keys(folders[f])) {
			switch state[g] {
			case 1:
				i := slices.Index(path, g)
				t.Errorf("folders import each other in a circle: %s -> %s", strings.Join(path[i:], " -> "), g)
			case 0:
				visit(g)
			}
		}
		path = path[:len(path)-1]
		state[f] = 2
	}
	for _, f := range slices.Sorted(maps.Keys(folders)) {
		if state[f] == 0 {
			visit(f)
		}
	}
}

// The stores do not import the daemon (nor anything that does).
func TestStoresDoNotImportTheDaemon(t *testing.T) {
	imports := packageImports(t)
	for _, pkg := range []string{"daemon/etcdstore", "daemon/statestore", "daemon/pipeline"} {
		seen := map[string]bool{}
		var walk func(string)
		walk = func(p string) {
			for _, d := range imports[p] {
				if !seen[d] {
					seen[d] = true
					walk(d)
				}
			}
		}
		walk(pkg)
		assert.False(t, seen["daemon"], "%s depends on package daemon", pkg)
	}
}

// The switch session knows P4Runtime and its contract with what it writes
// (program), nothing of the balancer's domain: it depends on no package
// of the site and spec layers (config, tables, ...), directly or through
// another package. The daemon hands it the compiler as a program.Program.
func TestSessionKnowsOnlyTheContract(t *testing.T) {
	layers := readLayers(t)
	imports := packageImports(t)
	const session = "controlplane"
	seen := map[string]bool{}
	var walk func(string, []string)
	walk = func(p string, via []string) {
		for _, d := range imports[p] {
			if seen[d] {
				continue
			}
			seen[d] = true
			path := append(slices.Clone(via), d)
			if l := layers[d]; l == 2 || l == 3 {
				t.Errorf("%s depends on %s (layer %d: the balancer's domain) through %s: hand the session what it needs through package program",
					session, d, l, strings.Join(path, " -> "))
			}
			walk(d, path)
		}
	}
	walk(session, []string{session})
}
