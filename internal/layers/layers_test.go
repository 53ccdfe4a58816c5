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
	"os/exec"
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

// readForbidden reads the forbidden block of docs/layers.md: package ->
// the import paths nothing it links may be or lie under (a word with a
// dot in its first element is a whole import path, e.g. a module; any
// other one a package of this module).
func readForbidden(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, doc))
	require.NoError(t, err)
	line := regexp.MustCompile(`^([a-z0-9_/.-]+): (.+)$`)
	out := map[string][]string{}
	in := false
	for _, s := range strings.Split(string(b), "\n") {
		switch {
		case s == "```forbidden":
			in = true
		case in && s == "```":
			in = false
		case in:
			m := line.FindStringSubmatch(s)
			require.NotNil(t, m, "%s: forbidden line %q: want \"pkg: path path ...\"", doc, s)
			for _, p := range strings.Fields(m[2]) {
				if !strings.Contains(strings.Split(p, "/")[0], ".") {
					p = module + "/" + p
				}
				out[m[1]] = append(out[m[1]], p)
			}
		}
	}
	require.NotEmpty(t, out, "%s has no forbidden block", doc)
	return out
}

// Nothing a package of the forbidden block links (go list -deps: its
// imports, theirs, and so on) is one it must not link. The message gives
// the chain of imports that brings it in.
func TestForbiddenDependencies(t *testing.T) {
	for pkg, banned := range readForbidden(t) {
		cmd := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, module+"/"+pkg)
		cmd.Dir = root
		out, err := cmd.Output()
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		require.NoError(t, err, "go list -deps %s (%s lists it): %s", pkg, doc, stderr)
		imports := map[string][]string{}
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Fields(l)
			imports[f[0]] = f[1:]
		}
		// Breadth first from pkg: the shortest chain to each dependency.
		from := map[string]string{module + "/" + pkg: ""}
		queue := []string{module + "/" + pkg}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			for _, d := range imports[p] {
				if _, ok := from[d]; !ok {
					from[d] = p
					queue = append(queue, d)
				}
			}
		}
		isBanned := func(p string) bool {
			return slices.ContainsFunc(banned, func(b string) bool { return p == b || strings.HasPrefix(p, b+"/") })
		}
		var all []string
		for _, dep := range slices.Sorted(maps.Keys(imports)) {
			if isBanned(dep) {
				all = append(all, dep)
			}
		}
		// Each way in once: a forbidden package brought in by another
		// forbidden one is counted, not reported.
		for _, dep := range all {
			if isBanned(from[dep]) {
				continue
			}
			var chain []string
			for p := dep; p != ""; p = from[p] {
				chain = append(chain, strings.TrimPrefix(p, module+"/"))
			}
			slices.Reverse(chain)
			t.Errorf("%s links %s (%s), which %s forbids it (%d forbidden packages linked in all): move what it uses into a package it may link",
				pkg, strings.TrimPrefix(dep, module+"/"), strings.Join(chain, " -> "), doc, len(all))
		}
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
