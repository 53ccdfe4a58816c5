package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/cmd/balancer/internal/cli"
	"github.com/dpi-balancer/balancer/internal/buildinfo"
)

// TestPreviewAndAudit: every old revision can be shown, exported and
// diffed; rollback previews (--dry-run) and takes a comment; a change
// that changes nothing, and a repeated rollback, make no revision.
func TestPreviewAndAudit(t *testing.T) {
	e := newEnv(t)
	e.ok("link", "add", "L3", "--lan", "P44", "--wan", "P43", "--comment", "add L3")
	require.Equal(t, 2, e.revisions())

	// show and export of an old revision: as saved.
	out := e.ok("config", "show", "1")
	assert.True(t, strings.HasPrefix(out, "# revision 1, 2025-03-01 12:00:00, digest "+digestOf([]byte(testSite))+": initial configuration\n"), out)
	assert.Equal(t, testSite, strings.SplitN(out, "\n", 2)[1])
	assert.Equal(t, testSite, e.ok("config", "export", "--revision", "1"))
	file := filepath.Join(t.TempDir(), "r1.yaml")
	r := e.run("config", "export", "--revision", "r1", "-f", file)
	require.Equal(t, exitOK, r.code, r.stderr)
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, testSite, string(data))
	r = e.run("config", "show", "9")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "revision 9: not found")
	r = e.run("config", "show", "x")
	assert.Equal(t, exitUsage, r.code)

	// diff REV [REV].
	assert.Equal(t, "revision 1 -> revision 2 (running): 1 change:\n  + link L3\n", e.ok("config", "diff", "1"))
	assert.Equal(t, "revision 2 -> revision 1: 1 change:\n  - link L3\n", e.ok("config", "diff", "2", "1"))
	assert.Equal(t, "revision 2 and revision 2 (running): no change to the configuration\n", e.ok("config", "diff", "2"))
	var d cli.RevisionDiff
	require.NoError(t, json.Unmarshal([]byte(e.ok("config", "diff", "1", "2", "-o", "json")), &d))
	assert.Equal(t, cli.RevisionDiff{From: 1, To: 2, Changes: []string{"+ link L3"}}, d)
	r = e.run("config", "diff", "1", "-f", file)
	assert.Equal(t, exitUsage, r.code)

	// Rollback: a preview saves nothing.
	out = e.ok("config", "rollback", "1", "--dry-run", "--force")
	assertRows(t, out, "dry run: 1 change (nothing saved or written):", "- link L3")
	assert.Equal(t, 2, e.revisions())
	out = e.ok("config", "rollback", "1", "--force", "--comment", "undo L3")
	assertRows(t, out, "revision 3 saved: 1 change:", "- link L3")
	assertRows(t, e.ok("config", "history"), "* 3 2025-03-01 12:02:00 "+digestOf([]byte(testSite))+" "+me()+" undo L3")
	// Again: it is what runs, no revision.
	assert.Equal(t, "no change to the configuration: revision 3 stays, nothing saved\n", e.ok("config", "rollback", "1"))
	assert.Equal(t, 3, e.revisions())

	// Applying what runs, or a change to what it already is: no revision.
	require.NoError(t, os.WriteFile(file, []byte(testSite), 0o600))
	assert.Equal(t, "no change to the configuration: revision 3 stays, nothing saved\n", e.ok("config", "apply", "-f", file))
	assert.Equal(t, 3, e.revisions())
}

// TestVersion: version says the CLI's build and Go release and the
// daemon's build and start time, as text and as JSON; a daemon that does
// not answer leaves the CLI's line and says why, and --client asks none.
func TestVersion(t *testing.T) {
	own := buildinfo.Read()
	r := runCLI(t, "", "--socket", "/nonexistent", "version")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Equal(t, "balancer "+own.String()+"\n"+
		"daemon   not answering: cannot reach the balancer daemon at /nonexistent: connect: no such file or directory"+
		" (no socket there: is the daemon running? give its socket with --socket or $BALANCER_SOCKET)\n", r.stdout)
	assert.Contains(t, r.stdout, runtime.Version())

	r = runCLI(t, "", "--socket", "/nonexistent", "version", "-o", "json")
	require.Equal(t, exitOK, r.code, r.stderr)
	var v cli.VersionInfo
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &v))
	assert.Equal(t, runtime.Version(), v.Go)
	assert.Equal(t, own, v.Info)
	assert.Nil(t, v.Daemon)
	assert.Contains(t, v.DaemonError, "cannot reach the balancer daemon at /nonexistent")

	r = runCLI(t, "", "--socket", "/nonexistent", "version", "--client")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Equal(t, "balancer "+own.String()+"\n", r.stdout)

	e := newEnv(t)
	assert.Equal(t, "balancer "+own.String()+"\n"+
		"daemon   v9.8.7, revision 0123456789ab (modified), 2025-02-28T10:00:00Z, go1.99 plan9/mips, started "+
		fakeNow.Local().Format(cli.TimeLayout)+" (up 1h0m0s)\n", e.ok("version"))
	v = cli.VersionInfo{}
	require.NoError(t, json.Unmarshal([]byte(e.ok("version", "-o", "json")), &v))
	assert.Equal(t, own, v.Info)
	require.NotNil(t, v.Daemon)
	assert.Equal(t, fakeDaemonInfo.Build, v.Daemon.Info)
	assert.True(t, fakeNow.Equal(v.Daemon.StartedAt), "started_at %s", v.Daemon.StartedAt)
	assert.Empty(t, v.DaemonError)
}

// TestVersionStoppedDaemon: a daemon that accepts but does not answer
// holds version up for its 5 s bound, or for --timeout when given, and
// the CLI's own line is still printed.
func TestVersionStoppedDaemon(t *testing.T) {
	socket := filepath.Join(t.TempDir(), "b.sock")
	lis, err := net.Listen("unix", socket)
	require.NoError(t, err)
	t.Cleanup(func() { lis.Close() })
	go func() {
		var held []net.Conn // accepted and never served, like a stopped daemon's backlog
		for {
			c, err := lis.Accept()
			if err != nil {
				for _, c := range held {
					c.Close()
				}
				return
			}
			held = append(held, c)
		}
	}()
	r := runCLI(t, "", "--socket", socket, "version", "--timeout", "300ms")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "balancer "+buildinfo.Read().String()+"\n")
	assert.Contains(t, r.stdout, "daemon   not answering: the balancer daemon at "+socket+" did not answer within 300ms (see --timeout)")
}

// TestCompletion: TAB completes the running configuration's object names
// (from the daemon), revisions, and the enum flags' values.
func TestCompletion(t *testing.T) {
	e := newEnv(t)
	complete := func(args ...string) []string {
		out := e.ok(append([]string{"__complete"}, args...)...)
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if !strings.HasPrefix(l, ":") {
				got = append(got, strings.SplitN(l, "\t", 2)[0])
			}
		}
		return got
	}
	assert.Equal(t, []string{"L1", "L2"}, complete("link", "del", ""))
	assert.Equal(t, []string{"F1", "F2", "F3"}, complete("filter-group", "set", ""))
	assert.Equal(t, []string{"F1", "F2", "F3"}, complete("bypass", "on", "--group", ""))
	assert.Equal(t, []string{"bgp", "vlan-balanced", "default"}, complete("rule", "del", ""))
	assert.Equal(t, []string{"1"}, complete("config", "rollback", ""))
	assert.Equal(t, []string{"bypass", "drop", "rebalance", "spare"}, complete("profile", "set", "default", "--failure-action", ""))
	assert.Equal(t, []string{"lan", "wan"}, complete("trace", "--side", ""))
	assert.Equal(t, []string{"bypass", "balance:group_filter"}, complete("rule", "add", "x", "--action", ""))
}

// TestSetPortsInPlace: a link and a filter group are re-cabled in place,
// keeping their ids (no delete + add --force); a taken port is refused.
func TestSetPortsInPlace(t *testing.T) {
	e := newEnv(t)
	id := *e.running().LinkByName("L1").ID
	out := e.ok("link", "set", "L1", "--lan", "P44", "--wan", "P43")
	assertRows(t, out, "revision 2 saved: 1 change:")
	l := e.running().LinkByName("L1")
	assert.Equal(t, []string{"P44", "P43"}, []string{l.LAN, l.WAN})
	assert.Equal(t, id, *l.ID)
	r := e.run("link", "set", "L1", "--lan", "P10")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "--lan P10: the port is already used by link L2")
	r = e.run("link", "set", "L9", "--lan", "P42")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "L9")
	assert.Equal(t, exitUsage, e.run("link", "set", "L1").code)

	out = e.ok("filter-group", "set", "F1", "--lan", "P42", "--wan", "P41", "--cores", "3")
	assertRows(t, out, "revision 3 saved: 1 change:")
	f := e.running().FilterGroupByName("F1")
	assert.Equal(t, []string{"P42", "P41"}, []string{f.LAN, f.WAN})
	assert.Equal(t, uint32(3), f.Cores)
	assert.Equal(t, 3, e.revisions())
}
