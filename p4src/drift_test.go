package p4src

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every committed compiler output was made from the P4 sources as they
// are: a change to a source without its outputs made again fails here,
// naming the make target to run (docs/tofino.md, "Profiles and the stage
// budget").
func TestCommittedBuildsMatchTheirSources(t *testing.T) {
	for _, b := range Builds {
		t.Run(b.Dir, func(t *testing.T) {
			require.NoError(t, CheckSources(".", b))
		})
	}
}

// copyTree copies the P4 sources and one build's digest file into a
// scratch p4src directory.
func copyTree(t *testing.T, b Build) string {
	t.Helper()
	root := t.TempDir()
	for _, sub := range []string{"shared", b.Arch, b.Dir} {
		err := filepath.WalkDir(sub, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			dst := filepath.Join(root, path)
			if d.IsDir() {
				return os.MkdirAll(dst, 0o755)
			}
			if filepath.Ext(path) != ".p4" && d.Name() != SourcesFile {
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(dst, data, 0o644)
		})
		require.NoError(t, err)
	}
	return root
}

// The drift check on an edited copy: a changed, an added and a removed
// source each fail it with the build, the file and the make target.
func TestDriftCheckFailsOnAnEditedCopy(t *testing.T) {
	for _, b := range Builds[:2] {
		t.Run(b.Dir, func(t *testing.T) {
			root := copyTree(t, b)
			require.NoError(t, CheckSources(root, b), "the copy is as committed")

			f := filepath.Join(root, "shared", "control", "filter_groups.p4")
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(f, append(data, "// edited\n"...), 0o644))
			err = CheckSources(root, b)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "p4src/"+b.Dir+" was made from other sources")
			assert.Contains(t, err.Error(), "p4src/shared/control/filter_groups.p4 changed")
			assert.Contains(t, err.Error(), "run "+b.Make)
			require.NoError(t, os.WriteFile(f, data, 0o644))

			added := filepath.Join(root, b.Arch, "include", "extra.p4")
			require.NoError(t, os.WriteFile(added, []byte("// new\n"), 0o644))
			err = CheckSources(root, b)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "p4src/"+b.Arch+"/include/extra.p4 is new")
			require.NoError(t, os.Remove(added))

			require.NoError(t, os.Remove(filepath.Join(root, "shared", "sizes.p4")))
			err = CheckSources(root, b)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "p4src/shared/sizes.p4 was removed")
		})
	}
}

// A build directory without its digest file fails; an optional profile
// not built at all passes.
func TestDriftCheckWantsTheDigest(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "shared"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "tna"), 0o755))
	opt := Build{Dir: "build/tofino-x", Arch: "tna", Make: "make p4-tna-x", Optional: true}
	require.NoError(t, CheckSources(root, opt))
	require.NoError(t, os.MkdirAll(filepath.Join(root, opt.Dir), 0o755))
	err := CheckSources(root, opt)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no sources.sha256")
	assert.Contains(t, err.Error(), "make p4-tna-x")
}
