package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDaemonSocketGroupUnknown: a --socket-group that does not exist stops
// the daemon at start, naming the group and the fix, before anything is
// opened; with --listen it is refused as meaningless.
func TestDaemonSocketGroupUnknown(t *testing.T) {
	dir := t.TempDir()
	r := runCLI(t, "", "daemon", "--config", "../../examples/site.yaml", "--state-dir", filepath.Join(dir, "state"),
		"--socket", filepath.Join(dir, "b.sock"), "--socket-group", "no-such-group-xq", "--telemetry", "", "--metrics", "")
	assert.Equal(t, exitUsage, r.code, r.stderr)
	assert.Contains(t, r.stderr, `--socket-group: socket group "no-such-group-xq" does not exist on this host: create it (groupadd no-such-group-xq) or name an existing group`)
	assert.NoFileExists(t, filepath.Join(dir, "state", "running.yaml"), "nothing was started")

	r = runCLI(t, "", "daemon", "--listen", "127.0.0.1:0", "--socket-group", "root", "--state-dir", filepath.Join(dir, "state"))
	assert.Equal(t, exitUsage, r.code, r.stderr)
	assert.Contains(t, r.stderr, "--socket-group is for the unix socket")
}
