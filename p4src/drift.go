package p4src

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A committed build: the compiler's outputs for one architecture and
// profile, with sources.sha256, the SHA-256 of every P4 source it was
// made from as sha256sum writes it (paths from the repository's root).
type Build struct {
	// Dir is the build's directory under p4src, e.g. "build/v1model".
	Dir string
	// Arch is the architecture's source directory under p4src ("v1model",
	// "tna"); p4src/shared is a source of every build.
	Arch string
	// Make is the make target that makes the build again.
	Make string
	// Optional: a profile whose outputs are committed only once it fits
	// the target (no directory: nothing to check). Every profile fits
	// now; kept for the next one.
	Optional bool
}

// Builds are the committed builds (docs/tofino.md, "Profiles").
var Builds = []Build{
	{Dir: "build/v1model", Arch: "v1model", Make: "make p4"},
	{Dir: "build/v1model-sessions", Arch: "v1model", Make: "make p4"},
	{Dir: "build/tofino", Arch: "tna", Make: "make p4-tna"},
	{Dir: "build/tofino-verdict", Arch: "tna", Make: "make p4-tna"},
	{Dir: "build/tofino-sessions", Arch: "tna", Make: "make p4-tna"},
}

// SourcesFile is the name of a build's source digest file.
const SourcesFile = "sources.sha256"

// SourceDigests returns the sha256sum lines of a build's P4 sources, as
// the Makefile writes them: every .p4 file under p4src/shared and
// p4src/<arch>, sorted by path, each path from the repository's root
// (root is the p4src directory).
func SourceDigests(root, arch string) ([]string, error) {
	var paths []string
	for _, sub := range []string{"shared", arch} {
		err := filepath.WalkDir(filepath.Join(root, sub), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(path, ".p4") {
				paths = append(paths, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	rel := func(p string) string {
		r, _ := filepath.Rel(root, p)
		return "p4src/" + filepath.ToSlash(r)
	}
	slices.SortFunc(paths, func(a, b string) int { return strings.Compare(rel(a), rel(b)) })
	lines := make([]string, 0, len(paths))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(data)
		lines = append(lines, hex.EncodeToString(sum[:])+"  "+rel(p))
	}
	return lines, nil
}

// CheckSources compares a committed build's sources.sha256 with the
// sources as they are (root is the p4src directory). The error names
// every source added, removed or changed since the build was made, and
// the make target that makes it again. An optional build with no
// directory passes.
func CheckSources(root string, b Build) error {
	data, err := os.ReadFile(filepath.Join(root, b.Dir, SourcesFile))
	if err != nil {
		if b.Optional && os.IsNotExist(err) {
			if _, derr := os.Stat(filepath.Join(root, b.Dir)); os.IsNotExist(derr) {
				return nil
			}
		}
		return fmt.Errorf("p4src/%s: no %s (the digest of the sources it was made from): run %s and commit its outputs: %w", b.Dir, SourcesFile, b.Make, err)
	}
	made := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		sum, path, ok := strings.Cut(line, "  ")
		if !ok || len(sum) != 64 {
			return fmt.Errorf("p4src/%s/%s: line %q is not sha256sum's \"HASH  PATH\": run %s", b.Dir, SourcesFile, line, b.Make)
		}
		made[path] = sum
	}
	now, err := SourceDigests(root, b.Arch)
	if err != nil {
		return err
	}
	var diffs []string
	seen := map[string]bool{}
	for _, line := range now {
		sum, path, _ := strings.Cut(line, "  ")
		seen[path] = true
		switch old, ok := made[path]; {
		case !ok:
			diffs = append(diffs, path+" is new")
		case old != sum:
			diffs = append(diffs, path+" changed")
		}
	}
	for path := range made {
		if !seen[path] {
			diffs = append(diffs, path+" was removed")
		}
	}
	if len(diffs) == 0 {
		return nil
	}
	slices.Sort(diffs)
	return fmt.Errorf("p4src/%s was made from other sources (%s): run %s and commit its outputs", b.Dir, strings.Join(diffs, ", "), b.Make)
}
