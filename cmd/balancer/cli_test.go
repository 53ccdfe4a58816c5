package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
	"google.golang.org/grpc"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/daemon/apiserver"
)

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		// A child process of a test: the balancer command itself.
		childMain()
	}
	time.Local = time.UTC // times in the output are predictable
	// glog (linked in through the daemon package) starts its flusher at init.
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/golang/glog.(*fileSink).flushDaemon"))
}

const testSite = `
site: test-site
platform: sim
ports:
  - {port: 4, speed: 10G, breakout: 4}
  - {port: 9, speed: 100G}
  - {port: 10, speed: 100G}
  - {port: 1, speed: 100G}
  - {port: 2, speed: 100G}
  - {port: 11, speed: 100G}
  - {port: 12, speed: 100G}
  - {port: 13, speed: 100G}
  - {port: 14, speed: 100G}
links:
  - {name: L1, lan: P42, wan: P41}
  - {name: L2, lan: P10, wan: P9}
filter_groups:
  - {name: F1, lan: P2, wan: P1, cores: 2}
  - {name: F2, lan: P12, wan: P11, cores: 2}
  - {name: F3, lan: P14, wan: P13, cores: 4}
balance_groups:
  - {name: group_filter, members: [F1, F2, F3], slot_bits: 4}
rules:
  - {name: bgp, priority: 1000, match: {proto: tcp, l4_port: 179}, action: bypass}
  - {name: vlan-balanced, priority: 500, match: {vlan: [1, 100-110]}, action: balance group_filter}
  - {name: default, priority: 1, action: bypass}
`

// env is a daemon API server on a unix socket, backed by a fakeDaemon.
type env struct {
	t      *testing.T
	socket string
	svc    *fakeDaemon
}

func newEnv(t *testing.T) *env {
	t.Helper()
	return newEnvSite(t, testSite)
}

// newEnvSite is newEnv running site.
func newEnvSite(t *testing.T, site string) *env {
	t.Helper()
	svc, err := newFakeDaemon(site)
	require.NoError(t, err)
	socket := filepath.Join(t.TempDir(), "balancer.sock")
	lis, err := apiserver.ListenUnix(socket)
	require.NoError(t, err)
	// As the daemon serves its socket: every call carries its client's
	// peer credentials.
	srv := grpc.NewServer(grpc.Creds(apiserver.PeerCredentials()))
	apiv1.RegisterBalancerServer(srv, apiserver.New(svc))
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(lis)
	}()
	t.Cleanup(func() {
		srv.Stop()
		<-done
	})
	return &env{t: t, socket: socket, svc: svc}
}

type result struct {
	stdout, stderr string
	code           int
}

// run runs the CLI against the env's socket.
func (e *env) run(args ...string) result {
	e.t.Helper()
	return runCLI(e.t, "", append([]string{"--socket", e.socket}, args...)...)
}

func runCLI(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return result{out.String(), errb.String(), code}
}

// ok runs and requires success.
func (e *env) ok(args ...string) string {
	e.t.Helper()
	r := e.run(args...)
	require.Equal(e.t, exitOK, r.code, "balancer %s\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.stdout, r.stderr)
	return r.stdout
}

// rows gives the output's lines with runs of spaces collapsed, so that
// table rows compare without their alignment.
func rows(s string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		out = append(out, strings.Join(strings.Fields(l), " "))
	}
	return out
}

// me is how the API names this test's user (it reaches the socket as
// itself): "root (uid 0)" when the tests run as root.
func me() string { return apiserver.PeerCred{UID: uint32(os.Getuid())}.User() }

// assertRows checks that every wanted row is in the output.
func assertRows(t *testing.T, out string, want ...string) {
	t.Helper()
	got := rows(out)
	for _, w := range want {
		assert.Contains(t, got, w, "output:\n%s", out)
	}
}

func (e *env) running() *config.Config {
	e.t.Helper()
	cfg, _, err := e.svc.Config(context.Background())
	require.NoError(e.t, err)
	return cfg
}

func (e *env) revisions() int {
	h, err := e.svc.History(context.Background())
	require.NoError(e.t, err)
	return len(h)
}

func TestPort(t *testing.T) {
	e := newEnv(t)
	out := e.ok("port", "list")
	assertRows(t, out,
		"NAME PORT DP SIDE SPEED FEC AUTONEG MTU ADMIN USED BY OPER",
		"P1 1/0 10 WAN 100G rs off 9216 up filter-group F1 wan up",
		"P41 4/1 41 WAN 10G none off 9216 up link L1 wan up",
		"P42 4/2 42 LAN 10G none off 9216 up link L1 lan up",
		"P43 4/3 43 WAN 10G none off 9216 up - -",
		"P9 9/0 90 WAN 100G rs off 9216 up link L2 wan down",
	)

	out = e.ok("port", "show", "4/2")
	assertRows(t, out, "name: P42", "data-plane port: 42", "side: LAN", "used by: link L1 lan", "oper: up",
		"rx: 1003 packets, 64003 bytes")

	out = e.ok("port", "add", "5", "--speed", "100g")
	assertRows(t, out, "revision 2 saved: 1 change:", "+ port 5")
	ports := e.running().Ports
	assert.Equal(t, config.Port{Port: 5, Speed: "100G"}.Settings(), ports[1].Settings(), "a new port goes after the next lower one; the others keep the operator's order")
	assert.Equal(t, uint32(5), ports[1].Port)
	assert.Equal(t, uint32(4), ports[0].Port)
	out = e.ok("port", "del", "P5")
	assertRows(t, out, "- port 5")

	r := e.run("port", "show", "P5")
	assert.Equal(t, exitError, r.code)
	assert.Equal(t, "balancer: unknown port P5: port 5 is not defined; add it to ports (balancer port add 5 --speed 100G)\n", r.stderr)

	r = e.run("port", "del", "4")
	assert.Equal(t, exitError, r.code, "links use its lanes")
	assert.Equal(t, "balancer: port 4 is still used by link L1 (lan P42), link L1 (wan P41): delete or move them first\n", r.stderr,
		"one line naming each user")

	r = e.run("port", "add", "40", "--speed", "100G")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, `"40" is not a front-panel port`)
	r = e.run("port", "add", "9", "--speed", "100G")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, `port "9" already exists`)
}

func TestLink(t *testing.T) {
	e := newEnv(t)
	out := e.ok("link", "list")
	assertRows(t, out,
		"NAME ID LAN WAN LAN OPER WAN OPER PARITY",
		"L1 0 P42 P41 up up even/odd",
		"L2 1 P10 P9 up down even/odd")

	out = e.ok("link", "add", "L3", "--lan", "P44", "--wan", "P43", "--dry-run")
	assert.Equal(t, "dry run: 1 change (nothing saved or written):\n  + link L3\nswitch: would write 2 inserts, 1 modify, 0 deletes\n", out)
	assert.Equal(t, 1, e.revisions(), "a dry run saves nothing")

	out = e.ok("link", "add", "L3", "--lan", "P44", "--wan", "P43", "--id", "9")
	assert.Equal(t, "revision 2 saved: 1 change:\n  + link L3\nswitch: programmed (2 inserts, 1 modify, 0 deletes)\n", out)
	l := e.running().LinkByName("L3")
	require.NotNil(t, l)
	assert.Equal(t, uint32(9), *l.ID)
	h, err := e.svc.History(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "balancer link add L3 --id=9 --lan=P44 --wan=P43", h[1].Comment, "the command line is the default comment")

	r := e.run("link", "add", "L3", "--lan", "P44", "--wan", "P43")
	assert.Equal(t, exitError, r.code)
	assert.Equal(t, "balancer: link \"L3\" already exists; delete it first with 'balancer link del' to change it\n", r.stderr)

	r = e.run("link", "del", "L9")
	assert.Equal(t, exitError, r.code)
	assert.Equal(t, "balancer: unknown link \"L9\" (links: L1, L2, L3)\n", r.stderr)

	r = e.run("link", "del", "L3", "--comment", "cabling moved")
	assert.Equal(t, exitError, r.code)
	assert.Equal(t, "balancer: change refused without --force, the running configuration is unchanged: it would remove link L3; "+
		"if that is meant, repeat with --force (a configuration file removes every object it leaves out)\n", r.stderr)
	out = e.ok("link", "del", "L3", "--comment", "cabling moved", "--force")
	assertRows(t, out, "- link L3")
	h, err = e.svc.History(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "cabling moved", h[2].Comment)

	// Every problem of the new link, named by the link and its flags
	// (not blamed on the filter group already there).
	r = e.run("link", "add", "L4", "--lan", "P43", "--wan", "P2")
	assert.Equal(t, exitError, r.code)
	assert.Equal(t, "balancer: link L4: --lan P43: the port is on the WAN side (even is LAN, odd is WAN); give a LAN port, or --ignore-parity if the cabling is crossed; "+
		"--wan P2: the port is on the LAN side (even is LAN, odd is WAN); give a WAN port, or --ignore-parity if the cabling is crossed; "+
		"--wan P2: the port is already used by filter group F1 (lan P2); pick a free port ('balancer port list' shows USED BY)\n", r.stderr)
	assert.Equal(t, 3, e.revisions())

	// The daemon's validation still has the last word, every problem with its path.
	r = e.run("link", "add", "L4", "--lan", "P44", "--wan", "P43", "--id", "0")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "balancer: invalid: configuration rejected, the running one is unchanged:\n")
	assert.Contains(t, r.stderr, "  link L4: links[2].id: 0 is already used by links[0] \"L1\"", "the problem names the object as the operator named it")
	assert.Equal(t, 3, e.revisions())

	r = e.run("link", "add", "L4", "--lan", "P44")
	assert.Equal(t, exitUsage, r.code)
	assert.Equal(t, "balancer: required flag(s) \"wan\" not set\nRun 'balancer link add --help' for usage.\n", r.stderr)
}

func TestFilterGroup(t *testing.T) {
	e := newEnv(t)
	assertRows(t, e.ok("filter-group", "list"),
		"NAME ID LAN WAN CORES TPID BALANCE GROUP STATE EFFECTIVE PORTS OPER",
		"F1 0 P2 P1 2 0x88B5 group_filter up forward up/up")

	e.ok("port", "add", "3", "--speed", "100G")
	e.ok("port", "add", "6", "--speed", "100G")
	out := e.ok("filter-group", "add", "F4", "--lan", "P6", "--wan", "P3", "--cores", "8", "--tpid", "0x88b7")
	assertRows(t, out, "+ filter-group F4")
	f := e.running().FilterGroupByName("F4")
	require.NotNil(t, f)
	assert.Equal(t, uint32(8), f.Cores)
	assert.Equal(t, uint16(0x88B7), f.TPID)

	e.ok("filter-group", "set", "F1", "--cores", "4")
	assert.Equal(t, uint32(4), e.running().FilterGroupByName("F1").Cores)

	r := e.run("filter-group", "del", "F3")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "it would remove filter group F3")
	assert.Equal(t, []string{"F1", "F2", "F3"}, e.running().BalanceGroupByName("group_filter").Members, "a refused change changes nothing")
	out = e.ok("filter-group", "del", "F3", "--force")
	assert.Equal(t, "F3 is also taken out of balance group group_filter\nrevision 6 saved: 2 changes:\n  - filter-group F3\n  ~ balance-group group_filter: members [\"F1\",\"F2\",\"F3\"] -> [\"F1\",\"F2\"]\nswitch: programmed (4 inserts, 1 modify, 0 deletes)\n", out)
	assert.Equal(t, []string{"F1", "F2"}, e.running().BalanceGroupByName("group_filter").Members)

	r = e.run("filter-group", "set", "F1")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "nothing to change: give --cores, --tpid, --lan or --wan")
	r = e.run("filter-group", "add", "F5", "--lan", "P6", "--wan", "P3", "--tpid", "zz")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, `--tpid "zz": want a 16-bit ethertype like 0x88B5`)
	r = e.run("filter-group", "set", "F9", "--cores", "2")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, `unknown filter group "F9" (filter groups: F1, F2, F4)`)
}

func TestBalanceGroup(t *testing.T) {
	e := newEnv(t)
	assertRows(t, e.ok("balance-group", "list"),
		"NAME ID MEMBERS SPARES PROFILE FAILURE ACTION SLOT BITS STATE ALIVE",
		"group_filter 0 F1,F2,F3 - default bypass 4 active 3/3 (min 1)")

	e.ok("balance-group", "member", "del", "group_filter", "F3")
	e.ok("balance-group", "add", "strict", "--members", "F3", "--failure-action", "drop", "--slot-bits", "3")
	b := e.running().BalanceGroupByName("strict")
	require.NotNil(t, b)
	assert.Equal(t, config.FailDrop, b.FailureAction)
	assert.Equal(t, uint32(3), b.SlotBits)
	assert.Equal(t, "default", b.Profile)

	out := e.ok("balance-group", "set", "group_filter", "--failure-action", "rebalance")
	assertRows(t, out, "~ balance-group group_filter: failure_action bypass -> rebalance")
	assert.Equal(t, config.FailRebalance, e.running().BalanceGroupByName("group_filter").FailureAction)

	r := e.run("balance-group", "member", "add", "group_filter", "F1")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, `filter group "F1" is already a member of group_filter`)
	r = e.run("balance-group", "member", "del", "group_filter", "F3")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, `filter group "F3" is not a member of group_filter (members: F1, F2)`)

	// F3 in two groups: the daemon says where.
	r = e.run("balance-group", "member", "add", "group_filter", "F3")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, `balance_groups[1].members[0]: filter group "F3" is already a member of balance_groups[0]`)

	r = e.run("balance-group", "set", "group_filter", "--failure-action", "explode")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, `--failure-action "explode": want bypass, drop, rebalance`)

	r = e.run("balance-group", "del", "group_filter")
	assert.Equal(t, exitError, r.code, "a rule balances to it")
	assert.Contains(t, r.stderr, `balance group group_filter is in use by rule vlan-balanced (action balance group_filter): point the rule elsewhere first`)
	e.ok("balance-group", "del", "strict", "--force")
	r = e.run("balance-group", "set", "nope", "--slot-bits", "3")
	assert.Equal(t, exitError, r.code)
	assert.Equal(t, "balancer: unknown balance group \"nope\" (balance groups: group_filter)\n", r.stderr)

	// N+1: F3 becomes group_filter's spare.
	out = e.ok("balance-group", "set", "group_filter", "--failure-action", "spare", "--spares", "F3")
	assert.Contains(t, out, "failure_action rebalance -> spare")
	b = e.running().BalanceGroupByName("group_filter")
	assert.Equal(t, []string{"F3"}, b.Spares)
	assert.Equal(t, config.FailSpare, b.FailureAction)
	assertRows(t, e.ok("balance-group", "list"),
		"NAME ID MEMBERS SPARES PROFILE FAILURE ACTION SLOT BITS STATE ALIVE",
		"group_filter 0 F1,F2 F3 default spare 4 active 2/2 (min 1)")
	r = e.run("balance-group", "set", "group_filter", "--spares", "")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, `balance group "group_filter" has failure action spare but no spares: list a standby filter group in spares`)
	assert.Contains(t, e.ok("filter-group", "list"), "group_filter (spare)")
	r = e.run("filter-group", "del", "F3")
	assert.Equal(t, exitError, r.code, "the last spare of a group under failure action spare")
	assert.Contains(t, r.stderr, `balance group "group_filter" has failure action spare but no spares`)
}

func TestProfile(t *testing.T) {
	e := newEnv(t)
	out := e.ok("profile", "add", "fast", "--interval", "50ms", "--loss-threshold", "3", "--probe", "both")
	assertRows(t, out, "+ profile fast")
	assertRows(t, e.ok("profile", "list"),
		"NAME INTERVAL LOSS RECOVERY MIN ACTIVE FAILURE ACTION PROBE INITIAL DELAY DETECTS IN FAILBACK HEALTH LIMITS USED BY",
		"default 100ms 5 5 1 bypass lan-to-wan 1s ~500ms auto - group_filter",
		"fast 50ms 3 5 1 bypass both 1s ~150ms auto - -")

	out = e.ok("profile", "set", "default", "--failure-action", "rebalance")
	assert.Equal(t, "failure action rebalance now applies to balance groups group_filter\n", rows(out)[0]+"\n")
	assert.Equal(t, config.FailRebalance, e.running().BalanceGroupByName("group_filter").FailureAction)

	e.ok("balance-group", "set", "group_filter", "--failure-action", "drop")
	out = e.ok("profile", "set", "default", "--failure-action", "bypass")
	assertRows(t, out, "balance groups keeping their own failure action: group_filter (drop)")
	assert.Equal(t, config.FailDrop, e.running().BalanceGroupByName("group_filter").FailureAction)

	e.ok("profile", "set", "fast", "--stall-guard", "off", "--stall-hold", "250ms")
	fast := e.running().ProfileByName("fast")
	assert.Equal(t, config.StallGuardOff, fast.StallGuard)
	assert.Equal(t, config.Duration(250*time.Millisecond), fast.StallHold)
	assert.Equal(t, config.Duration(50*time.Millisecond), fast.Interval, "settings not given stay")

	e.ok("profile", "set", "fast", "--failback", "manual", "--min-up-time", "30s")
	fast = e.running().ProfileByName("fast")
	assert.Equal(t, config.FailbackManual, fast.Failback)
	assert.Equal(t, config.Duration(30*time.Second), fast.MinUpTime)
	assertRows(t, e.ok("profile", "list"),
		"NAME INTERVAL LOSS RECOVERY MIN ACTIVE FAILURE ACTION PROBE INITIAL DELAY DETECTS IN FAILBACK HEALTH LIMITS USED BY",
		"default 100ms 5 5 1 bypass lan-to-wan 1s ~500ms auto - group_filter",
		"fast 50ms 3 5 1 bypass both 1s ~150ms manual after 30s up - -")
	r := e.run("profile", "set", "fast", "--return", "new")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, `--return "new": want all or new-sessions`)
	r = e.run("profile", "set", "fast", "--return", "new-sessions")
	assert.NotZero(t, r.code)
	assert.Contains(t, r.stderr, `profile fast: profiles[0].return: new-sessions keeps held sessions in bypass, which needs the session memory (profile "fast"): set sessions.enabled: true, or return: all`)
	assert.Empty(t, e.running().ProfileByName("fast").Return, "kept")
	r = e.run("profile", "set", "fast", "--min-up-time", "2h")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "--min-up-time 2h is out of range 0s..60m")
	assert.Equal(t, config.Duration(30*time.Second), e.running().ProfileByName("fast").MinUpTime, "kept")
	e.ok("profile", "set", "fast", "--max-rtt", "10ms", "--max-loss", "20%")
	fast = e.running().ProfileByName("fast")
	assert.Equal(t, config.Duration(10*time.Millisecond), fast.MaxRTT)
	assert.Equal(t, uint32(config.DefaultRTTRounds), fast.RTTRounds)
	assert.Equal(t, 20.0, fast.MaxLoss)
	assert.Equal(t, uint32(config.DefaultLossWindow), fast.LossWindow)
	e.ok("profile", "set", "fast", "--rtt-rounds", "5", "--loss-window", "400", "--max-loss", "2.5")
	assertRows(t, e.ok("profile", "list"),
		"NAME INTERVAL LOSS RECOVERY MIN ACTIVE FAILURE ACTION PROBE INITIAL DELAY DETECTS IN FAILBACK HEALTH LIMITS USED BY",
		"default 100ms 5 5 1 bypass lan-to-wan 1s ~500ms auto - group_filter",
		"fast 50ms 3 5 1 bypass both 1s ~150ms manual after 30s up rtt>10ms x5,loss>2.5%/400 -")
	r = e.run("profile", "set", "fast", "--max-rtt", "50ms")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, `max_rtt: 50ms is not under the interval 50ms (profile "fast"`)
	assert.Equal(t, config.Duration(10*time.Millisecond), e.running().ProfileByName("fast").MaxRTT, "kept")
	r = e.run("profile", "set", "fast", "--max-loss", "100")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, `--max-loss "100": want a percentage, 0 (no limit) or more than 0 and under 100`)
	r = e.run("profile", "set", "fast", "--loss-window", "5")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "--loss-window 5 is out of range 10..10000 rounds")
	r = e.run("profile", "set", "fast", "--rtt-rounds", "0")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "--rtt-rounds 0 is out of range 1..1000 rounds")
	// Fail-open probes.
	e.ok("profile", "set", "fast", "--probe-payload", "block-me", "--fail-open-action", "bypass")
	fast = e.running().ProfileByName("fast")
	assert.Equal(t, "block-me", fast.ProbePayload)
	assert.Equal(t, uint32(config.DefaultProbeEvery), fast.ProbeEvery)
	assert.Equal(t, config.FailOpenBypass, fast.FailOpenAction)
	assert.Contains(t, e.ok("profile", "list"), "rtt>10ms x5,loss>2.5%/400,fail-open probe/10:bypass")
	e.ok("profile", "set", "fast", "--probe-payload-hex", "62:6c 6f63", "--probe-every", "4")
	fast = e.running().ProfileByName("fast")
	assert.Empty(t, fast.ProbePayload, "one way or the other")
	assert.Equal(t, "62:6c 6f63", fast.ProbePayloadHex)
	assert.Equal(t, uint32(4), fast.ProbeEvery)
	for _, tt := range []struct{ args, want string }{
		{"--fail-open-action pass", `--fail-open-action "pass": want alarm, bypass, drop, rebalance or spare`},
		{"--probe-every 0", "--probe-every 0 is out of range 1..1000 keep-alive rounds"},
		{"--probe-payload-hex 6g", `--probe-payload-hex "6g": want hex bytes`},
		{"--no-fail-open-probes --probe-every 3", "--no-fail-open-probes removes the probe settings: give it alone"},
	} {
		r = e.run(append([]string{"profile", "set", "fast"}, strings.Fields(tt.args)...)...)
		assert.Equal(t, exitUsage, r.code, tt.args)
		assert.Contains(t, r.stderr, tt.want, tt.args)
	}
	r = e.run("profile", "set", "fast", "--probe-payload", strings.Repeat("x", config.MaxProbePayload+1))
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "--probe-payload is 1025 bytes, over the 1024 a probe carries")
	assert.Equal(t, uint32(4), e.running().ProfileByName("fast").ProbeEvery, "kept")
	e.ok("profile", "set", "fast", "--no-fail-open-probes")
	fast = e.running().ProfileByName("fast")
	assert.False(t, fast.Probes())
	assert.Zero(t, fast.ProbeEvery)
	assert.Empty(t, fast.FailOpenAction)
	r = e.run("profile", "set", "fast", "--failback", "sometimes")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, `--failback "sometimes": want auto or manual`)
	r = e.run("filter-group", "return", "F1")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "filter group F1 is not waiting for return")
	r = e.run("filter-group", "return", "nope")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, `unknown filter group "nope"`)

	r = e.run("profile", "del", "default")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, `the profile "default" is built in and cannot be deleted`)
	r = e.run("profile", "add", "slow", "--interval", "100")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, `--interval: bad duration "100": give a unit, like 100ms or 1s`)
	r = e.run("profile", "set", "fast")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "nothing to change")
	r = e.run("profile", "set", "fast", "--probe", "sideways")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, `--probe "sideways": want lan-to-wan or both`)

	r = e.run("profile", "set", "nope", "--interval", "1s")
	assert.Equal(t, exitError, r.code)
	assert.Equal(t, "balancer: unknown profile \"nope\" (profiles: default, fast)\n", r.stderr)

	e.ok("balance-group", "set", "group_filter", "--profile", "fast")
	r = e.run("profile", "del", "fast")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, `balance_groups[0].profile: unknown profile "fast"`)
}

func TestRule(t *testing.T) {
	e := newEnv(t)
	assertRows(t, e.ok("rule", "list"),
		"PRIO NAME LINKS MATCH ACTION EXCEPT ENTRIES",
		"1000 bgp all proto tcp l4-port 179 bypass - 4",
		// 1, and 100-110 as four ternary prefixes (100-103, 104-107,
		// 108-109, 110), in both flow tables.
		"500 vlan-balanced all vlan 1,100-110 balance:group_filter - 10",
		"1 default all any bypass - 2")

	out := e.ok("rule", "add", "dns", "--prio", "600", "--link", "L1", "--match", "proto udp, l4-dst 53",
		"--not", "src 10.0.0.0/8", "--not", "dst 192.0.2.0/24", "--action", "balance:group_filter")
	assertRows(t, out, "+ rule dns")
	r := ruleByName(e.running(), "dns")
	require.NotNil(t, r)
	assert.Equal(t, []string{"L1"}, r.Links)
	assert.Equal(t, "balance group_filter", r.Action)
	require.Len(t, r.Not, 2)
	// ENTRIES is what the compiler writes: the rule's entry in both flow
	// tables, and its two IPv4-only exceptions in the IPv4 table only
	// (3 + 1; the old estimate counted them in both tables: 6).
	assertRows(t, e.ok("rule", "list"),
		"600 dns L1 proto udp l4-dst 53 balance:group_filter src 10.0.0.0/8 | dst 192.0.2.0/24 4")

	e.ok("rule", "move", "dns", "--prio", "700")
	assert.Equal(t, uint32(700), ruleByName(e.running(), "dns").Priority)
	assert.Equal(t, "bgp", e.running().Rules[0].Name, "kept highest first")
	assert.Equal(t, "dns", e.running().Rules[1].Name)

	res := e.run("rule", "move", "dns", "--prio", "1000")
	assert.Equal(t, exitError, res.code)
	assert.Contains(t, res.stderr, `priority 1000 is taken by rule "bgp"`)

	res = e.run("rule", "add", "x", "--prio", "5", "--match", "vlna 100", "--action", "bypass")
	assert.Equal(t, exitUsage, res.code)
	assert.True(t, strings.HasPrefix(res.stderr, `balancer: --match: "vlna": unknown match term; known terms: vlan, inner-vlan,`), res.stderr)

	res = e.run("rule", "add", "x", "--prio", "5", "--match", "any", "--not", "vlan 1x", "--action", "bypass")
	assert.Equal(t, exitUsage, res.code)
	assert.Contains(t, res.stderr, `--not 1 ("vlan 1x"): "vlan 1x": bad range "1x"`)

	res = e.run("rule", "add", "x", "--prio", "5", "--match", "any", "--action", "balance")
	assert.Equal(t, exitUsage, res.code)
	assert.Contains(t, res.stderr, `--action "balance": want bypass or balance:GROUP`)

	// Values the parser reads but the model refuses: the daemon's paths.
	res = e.run("rule", "add", "x", "--prio", "5", "--match", "vlan 5000 l4-port 80", "--action", "balance:nope")
	assert.Equal(t, exitError, res.code)
	assert.Contains(t, res.stderr, "rules[3].match.vlan[0]: 5000 is out of range 1..4094")
	assert.Contains(t, res.stderr, `rules[3].action: unknown balance group "nope"`)

	res = e.run("rule", "add", "y", "--prio", "6", "--link", "L9", "--match", "any", "--action", "bypass")
	assert.Equal(t, exitError, res.code)
	assert.Contains(t, res.stderr, `rules[3].links[0]: rule y uses link "L9", which is not defined (links: L1, L2); define the link or take it out of the rule`)

	assertRows(t, e.ok("rule", "del", "dns"), "- rule dns")
	res = e.run("rule", "del", "dns")
	assert.Equal(t, exitError, res.code)
	assert.Contains(t, res.stderr, `unknown rule "dns" (rules: bgp, vlan-balanced, default)`)
}
