package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dpi-balancer/balancer/internal/testpki"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
	"go.yaml.in/yaml/v3"
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
	srv := grpc.NewServer()
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
		"NAME ID MEMBERS PROFILE FAILURE ACTION SLOT BITS STATE ALIVE",
		"group_filter 0 F1,F2,F3 default bypass 4 active 3/3 (min 1)")

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
	assert.Contains(t, r.stderr, `rules[1].action: unknown balance group "group_filter"`)
	e.ok("balance-group", "del", "strict", "--force")
	r = e.run("balance-group", "set", "nope", "--slot-bits", "3")
	assert.Equal(t, exitError, r.code)
	assert.Equal(t, "balancer: unknown balance group \"nope\" (balance groups: group_filter)\n", r.stderr)
}

func TestProfile(t *testing.T) {
	e := newEnv(t)
	out := e.ok("profile", "add", "fast", "--interval", "50ms", "--loss-threshold", "3", "--probe", "both")
	assertRows(t, out, "+ profile fast")
	assertRows(t, e.ok("profile", "list"),
		"NAME INTERVAL LOSS RECOVERY MIN ACTIVE FAILURE ACTION PROBE INITIAL DELAY DETECTS IN USED BY",
		"default 100ms 5 5 1 bypass lan-to-wan 1s ~500ms group_filter",
		"fast 50ms 3 5 1 bypass both 1s ~150ms -")

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

	r := e.run("profile", "del", "default")
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

// TestRuleSet: rule set changes what its flags give and nothing else; the
// rule keeps its name and its place among the rules; a dry run saves
// nothing; a set to what the rule already is makes no revision.
func TestRuleSet(t *testing.T) {
	e := newEnv(t)
	before := e.running()
	vb := *ruleByName(before, "vlan-balanced")

	out := e.ok("rule", "set", "vlan-balanced", "--action", "bypass", "--dry-run")
	assertRows(t, out, "dry run: 1 change (nothing saved or written):", "~ rule vlan-balanced: action balance group_filter -> bypass")
	assert.Same(t, before, e.running(), "a dry run changes nothing")
	assert.Equal(t, 1, e.revisions())

	out = e.ok("rule", "set", "vlan-balanced", "--action", "bypass", "--comment", "VLANs bypass tonight")
	assertRows(t, out, "revision 2 saved: 1 change:", "~ rule vlan-balanced: action balance group_filter -> bypass")
	got := *ruleByName(e.running(), "vlan-balanced")
	want := vb
	want.Action = "bypass"
	assert.Equal(t, want, got, "only the action changed")
	assertRows(t, e.ok("config", "history"), "* 2 2025-03-01 12:01:00 "+digestOf([]byte(e.ok("config", "export")))+" VLANs bypass tonight")

	// Below the catch-all, on one link, with an exception: the rule stays
	// where it is among the rules (the file's order); rule list orders
	// them by priority.
	out = e.ok("rule", "set", "vlan-balanced", "--priority", "16", "--match", "vlan 7 proto udp", "--link", "L2", "--not", "dst 10.0.0.0/8")
	assertRows(t, out, "revision 3 saved: 1 change:")
	names := func() []string { return ruleNames(e.running()) }
	assert.Equal(t, []string{"bgp", "vlan-balanced", "default"}, names())
	assertRows(t, e.ok("rule", "list"),
		"1000 bgp all proto tcp l4-port 179 bypass - 4",
		"16 vlan-balanced L2 vlan 7 proto udp bypass dst 10.0.0.0/8 3",
		"1 default all any bypass - 2")
	assert.Equal(t, *ruleByName(before, "bgp"), *ruleByName(e.running(), "bgp"), "the other rules are untouched")
	assert.Equal(t, *ruleByName(before, "default"), *ruleByName(e.running(), "default"))

	// To what it already is: no revision.
	assert.Equal(t, "no change to the configuration: revision 3 stays, nothing saved\n", e.ok("rule", "set", "vlan-balanced", "--prio", "16", "--link", "L2"))
	assert.Equal(t, 3, e.revisions())
}

func TestBypass(t *testing.T) {
	e := newEnv(t)
	out := e.ok("bypass", "on", "--group", "F2")
	assert.Equal(t, "manual bypass on for filter group F2\nmanual bypass: filter groups F2\n", out)
	out = e.ok("bypass", "on", "--all")
	assert.Equal(t, "manual bypass on for every filter (--all)\nmanual bypass: ALL (every filter); also filter groups F2\n", out)
	e.ok("bypass", "off", "--all")
	out = e.ok("bypass", "off", "--group", "F2")
	assertRows(t, out, "manual bypass: none")
	assert.Equal(t, 1, e.revisions(), "bypass is not a revision")

	r := e.run("bypass", "on", "--group", "F9")
	assert.Equal(t, exitError, r.code)
	assert.Equal(t, "balancer: not found: unknown filter group \"F9\"; the filter groups are F1, F2, F3\n", r.stderr)
	for _, args := range [][]string{
		{"bypass", "on"},
		{"bypass", "on", "--group", "F1", "--all"},
		{"bypass", "maybe", "--all"},
		{"bypass", "--all"},
	} {
		r := e.run(args...)
		assert.Equal(t, exitUsage, r.code, "%v: %s", args, r.stderr)
	}
}

func TestStatus(t *testing.T) {
	e := newEnv(t)
	e.svc.down["F3"] = "5 keep-alives lost"
	e.ok("bypass", "on", "--group", "F2")
	out := e.ok("status")
	assertRows(t, out,
		"site test-site, revision 1 (2025-03-01 12:00:00, digest "+digestOf([]byte(testSite))+"): initial configuration",
		"switch 127.0.0.1:9559: connected, primary, election id 0:1, atomic writes, port status watched",
		"last reconcile 2025-03-01 12:59:00 (1m0s ago): 0 inserts, 0 modifies, 0 deletes",
		"manual bypass: filter groups F2",
		"LINK ID LAN WAN LAN OPER WAN OPER",
		"L2 1 P10 P9 up down",
		"FILTER GROUP BALANCE GROUP PORTS CORES STATE SINCE EFFECTIVE LAST PASS TIME OF PASS LOSSES REASON",
		"F1 group_filter P2/P1 2 up 1h0m0s ago forward 100ms ago 120µs 0 keep-alives answered",
		"F2 group_filter P12/P11 2 admin-bypass 1h0m0s ago sw-bypass 100ms ago 120µs 0 manual bypass",
		"F3 group_filter P14/P13 4 down 1h0m0s ago sw-bypass 100ms ago 120µs 12 (7 in a row) 5 keep-alives lost",
		"BALANCE GROUP STATE ALIVE MIN ACTIVE MEMBERS SLOTS DIGEST",
		"group_filter active 2/3 1 F1,F2,F3 16 (4 bits) 0123456789ab",
	)

	e.svc.switchDown = true
	out = e.ok("status")
	assertRows(t, out, "switch 127.0.0.1:9559: NOT CONNECTED, election id 0:1, atomic writes, port status watched",
		"last error: connection refused",
		"the switch is not connected: port states are unknown, filter states are the last seen (stale)",
		"L1 0 P42 P41 unknown unknown",
		"F1 group_filter P2/P1 2 up (stale) 1h0m0s ago forward (stale) 100ms ago 120µs 0 keep-alives answered")
	out = e.ok("link", "list")
	assertRows(t, out, "L1 0 P42 P41 unknown unknown even/odd")
}

func TestCounters(t *testing.T) {
	e := newEnv(t)
	out := e.ok("counters")
	assertRows(t, out,
		"PORT DP RX PACKETS RX BYTES TX PACKETS TX BYTES",
		"LINK TO FILTER RETURNED RULE BYPASS NON-IP BYPASS SW BYPASS GROUP BYPASS HEARTBEAT DROPPED",
		"L1 500 499 10 0 0 0 0 0",
		"FILTER GROUP TO FILTER RETURNED KEEP-ALIVE SW BYPASS VERDICT BYPASS VERDICT DROP",
		"F1 300 0 36000 0 7 3",
		"PRIO RULE ENTRIES PACKETS BYTES",
		"1000 bgp 4 1000 100000",
		"FILTER GROUP CORE SLOTS PACKETS BYTES SHARE",
		"F3 3 2 20 2000 25.0%",
		"DROP REASON PACKETS BYTES",
		"unknown port 3 180",
	)
	out = e.ok("counters", "--rules")
	assert.Equal(t, "PRIO RULE ENTRIES PACKETS BYTES", rows(out)[0])
	assert.NotContains(t, out, "LINK")

	e.svc.switchDown = true
	r := e.run("counters")
	assert.Equal(t, exitError, r.code)
	assert.Equal(t, "balancer: switch unavailable: reading counters: not connected\n", r.stderr)
}

func TestSlots(t *testing.T) {
	e := newEnv(t)
	out := e.ok("slots")
	assertRows(t, out,
		"balance group group_filter: 16 slots (slot bits 4), layout digest 0123456789ab",
		"FILTER GROUP CORES SLOTS SHARE SLOTS PER CORE",
		"F1 2 4 25.0% 2",
		"F3 4 8 50.0% 2",
		"FILTER GROUP CORE SLOTS SHARE",
		"F3 3 2 12.50%",
	)
	assert.NotContains(t, out, "SLOT FILTER GROUP CORE")

	out = e.ok("slots", "group_filter", "--all-slots")
	assertRows(t, out, "SLOT FILTER GROUP CORE", "0 F1 0", "15 F3 3")

	r := e.run("slots", "nope")
	assert.Equal(t, exitError, r.code)
	assert.Equal(t, "balancer: unknown balance group \"nope\" (defined: group_filter)\n", r.stderr)
	r = e.run("slots", "a", "b")
	assert.Equal(t, exitUsage, r.code)
}

func TestTrace(t *testing.T) {
	e := newEnv(t)
	out := e.ok("trace", "--link", "L1", "--side", "lan", "--vlan", "100", "--src", "10.1.2.3", "--dst", "192.0.2.10",
		"--proto", "tcp", "--sport", "40000", "--dport", "443")
	h := fakeHash(mustAddr("10.1.2.3"), mustAddr("192.0.2.10"), 6)
	assertRows(t, out,
		"packet: link L1, LAN port: vlan 100, 10.1.2.3:40000 -> 192.0.2.10:443 tcp",
		"1. enters link L1 on its LAN port",
		"2. hits rule vlan-balanced (priority 500)",
		"rule: vlan-balanced",
		"action: balance",
		"balance group: group_filter",
	)
	slot := h & 15
	assert.Contains(t, rows(out), "slot: "+itoa(slot))
	assert.Contains(t, out, "core header:")
	assert.Contains(t, out, "(TPID 0x88B5, link id 0, core ")

	out = e.ok("trace", "--link", "L2", "--side", "wan", "--src", "192.0.2.1", "--dst", "192.0.2.2", "--proto", "tcp", "--dport", "179")
	assertRows(t, out, "rule: bgp", "action: bypass", "output port: P10 (data-plane port 100)", "verdict: bypass")

	out = e.ok("trace", "--link", "L1", "--side", "lan", "--ethertype", "0x0806")
	assertRows(t, out, "packet: link L1, LAN port: non-IP, ethertype 0x0806")

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"trace", "--link", "L1", "--src", "10.0.0.1", "--dst", "10.0.0.2", "--proto", "tcp"}, `required flag(s) "side" not set`},
		{[]string{"trace", "--link", "L1", "--side", "up"}, `--side "up": want lan or wan`},
		{[]string{"trace", "--link", "L1", "--side", "lan", "--src", "10.0.0.1"}, "give both --src and --dst"},
		{[]string{"trace", "--link", "L1", "--side", "lan", "--src", "10.0.0.1", "--dst", "10.0.0.2"}, "--proto is missing"},
		{[]string{"trace", "--link", "L1", "--side", "lan", "--src", "10.0.0.1", "--dst", "10.0.0.2", "--proto", "gre", "--dport", "1"}, "--sport and --dport need --proto tcp or udp"},
		{[]string{"trace", "--link", "L1", "--side", "lan", "--src", "10.0.0.1", "--dst", "10.0.0.2", "--proto", "tcp", "--dport", "70000"}, `--dport 70000 is out of range: want a whole number 0..65535`},
	} {
		r := e.run(tt.args...)
		assert.Equal(t, exitUsage, r.code, "%v: %s", tt.args, r.stderr)
		assert.Contains(t, r.stderr, tt.want)
	}
	// Checked by the API.
	r := e.run("trace", "--link", "L1", "--side", "lan", "--vlan", "1,2,3,4")
	assert.Equal(t, exitError, r.code)
	assert.Equal(t, "balancer: vlans: 4 tags; the data plane parses at most 3\n", r.stderr)
	r = e.run("trace", "--link", "L9", "--side", "lan")
	assert.Equal(t, exitError, r.code)
	assert.Equal(t, "balancer: not found: link \"L9\"\n", r.stderr)
}

func mustAddr(s string) netip.Addr { return netip.MustParseAddr(s) }

func itoa(v uint32) string  { return strconv.FormatUint(uint64(v), 10) }
func hex32(v uint32) string { return fmt.Sprintf("0x%08x", v) }

func TestLocate(t *testing.T) {
	e := newEnv(t)
	e.svc.down["F1"] = "port down"
	out := e.ok("locate", "10.1.2.3", "192.0.2.10", "tcp")
	h := fakeHash(mustAddr("10.1.2.3"), mustAddr("192.0.2.10"), 6)
	v := fakeLayout(e.running(), &e.running().BalanceGroups[0])
	tgt := v.Slots[h&15]
	now := "forward"
	if tgt.FilterGroup == "F1" {
		now = "sw-bypass"
	}
	fg := e.running().FilterGroupByName(tgt.FilterGroup)
	assertRows(t, out,
		"session 10.1.2.3 <-> 192.0.2.10 tcp",
		"BALANCE GROUP HASH SLOT FILTER GROUP CORE PORTS NOW",
		strings.Join([]string{"group_filter", hex32(h), itoa(h & 15), tgt.FilterGroup, itoa(tgt.Core), fg.LAN + "/" + fg.WAN, now}, " "),
	)
	// Symmetric: the other direction lands on the same core.
	back := e.ok("locate", "192.0.2.10", "10.1.2.3", "6")
	assert.Equal(t, rows(out)[2], rows(back)[2])

	r := e.run("locate", "10.1.2.3", "nope", "tcp")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, `DST "nope" is not an IPv4 or IPv6 address`)
	r = e.run("locate", "10.1.2.3", "192.0.2.10", "tcpx")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, `PROTO: unknown IP protocol "tcpx"`)
	r = e.run("locate", "10.1.2.3", "2001:db8::1", "tcp")
	assert.Equal(t, exitError, r.code)
	assert.Equal(t, "balancer: src and dst: 10.1.2.3 and 2001:db8::1 are of different families\n", r.stderr)
	r = e.run("locate", "10.1.2.3")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "balancer locate needs DST and PROTO")
}

func TestConfig(t *testing.T) {
	e := newEnv(t)
	out := e.ok("config", "show")
	assert.True(t, strings.HasPrefix(out, "# revision 1, 2025-03-01 12:00:00, digest "+digestOf([]byte(testSite))+": initial configuration\n"), out)
	_, err := config.Parse([]byte(out))
	require.NoError(t, err, "config show prints YAML (with a comment)")

	dir := t.TempDir()
	file := filepath.Join(dir, "site.yaml")
	r := e.run("config", "export", "-f", file)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Equal(t, "revision 1 written to "+file+"\n", r.stderr)
	assert.Empty(t, r.stdout)
	exported, err := os.ReadFile(file)
	require.NoError(t, err)
	cfg, err := config.Parse(exported)
	require.NoError(t, err)
	assert.Equal(t, e.running(), cfg)
	assert.Equal(t, string(exported), e.ok("config", "export"))

	// Edit the file: a new link, one rule less.
	cfg.Links = append(cfg.Links, config.Link{Name: "L3", LAN: "P44", WAN: "P43"})
	cfg.Rules = cfg.Rules[:2]
	data, err := cfg.Marshal()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(file, data, 0o600))

	out = e.ok("config", "diff", "-f", file)
	assert.Equal(t, file+" against the running revision 1:\ndry run: 2 changes (nothing saved or written):\n  + link L3\n  - rule default\nswitch: would write 4 inserts, 1 modify, 0 deletes\n", out)
	assert.Equal(t, 1, e.revisions())

	out = e.ok("config", "apply", "-f", file, "--comment", "ticket 4711")
	assertRows(t, out, "revision 2 saved: 2 changes:", "+ link L3", "- rule default")
	out = e.ok("config", "history")
	assertRows(t, out,
		"REV TIME DIGEST COMMENT",
		"1 2025-03-01 12:00:00 "+digestOf([]byte(testSite))+" initial configuration",
		"* 2 2025-03-01 12:01:00 "+digestOf(data)+" ticket 4711")

	r = e.run("config", "rollback", "1")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "it would remove link L3; if that is meant, repeat with --force")
	out = e.ok("config", "rollback", "1", "--force")
	assertRows(t, out, "revision 3 saved: 2 changes:", "- link L3", "+ rule default")
	assertRows(t, e.ok("config", "history"), "* 3 2025-03-01 12:02:00 "+digestOf([]byte(testSite))+" rollback to revision 1")

	// From stdin.
	r = runCLI(t, string(data), "--socket", e.socket, "config", "apply", "-f", "-", "--dry-run")
	require.Equal(t, exitOK, r.code, r.stderr)
	assertRows(t, r.stdout, "dry run: 2 changes (nothing saved or written):")

	// An invalid file: every problem with its path, nothing applied.
	bad := strings.Replace(string(data), "lan: P44", "lan: P45", 1) + "x: 1\n"
	require.NoError(t, os.WriteFile(file, []byte(bad), 0o600))
	r = e.run("config", "apply", "-f", file)
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "configuration rejected")
	assert.Contains(t, r.stderr, `unknown key "x"`)
	bad = strings.Replace(string(data), "lan: P44", "lan: P43", 1)
	require.NoError(t, os.WriteFile(file, []byte(bad), 0o600))
	r = e.run("config", "diff", "-f", file)
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "links[2].lan: P43 is odd")
	assert.Contains(t, r.stderr, "links[2].wan: P43 is already used by links[2].lan")
	assert.Equal(t, 3, e.revisions())

	r = e.run("config", "rollback", "42")
	assert.Equal(t, exitError, r.code)
	assert.Equal(t, "balancer: revision 42: not found\n", r.stderr)
	r = e.run("config", "rollback", "latest")
	assert.Equal(t, exitUsage, r.code)
	r = e.run("config", "apply")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, `required flag(s) "file" not set`)
	r = e.run("config", "apply", "-f", filepath.Join(dir, "missing.yaml"))
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "reading the configuration: open ")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	r = e.run("config", "apply", "-f", file)
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "the configuration is empty")
}

func TestSwitchNotConnectedWarns(t *testing.T) {
	e := newEnv(t)
	e.svc.switchDown = true
	out := e.ok("link", "add", "L3", "--lan", "P44", "--wan", "P43")
	assertRows(t, out, "switch: not programmed yet",
		"warning: saved; the switch is not connected (or this daemon is a backup): it will be programmed on connection")
}

func TestEditRetriesWhenAnotherChangeLands(t *testing.T) {
	e := newEnv(t)
	// Right after the CLI reads revision 1, another operator applies.
	e.svc.onConfig = func() {
		cfg := *e.svc.cfg
		cfg.Site = "renamed"
		data, err := cfg.Marshal()
		require.NoError(t, err)
		_, err = e.svc.apply(data, false, "someone else")
		require.NoError(t, err)
	}
	out := e.ok("link", "add", "L3", "--lan", "P44", "--wan", "P43")
	assertRows(t, out, "revision 3 saved: 1 change:", "+ link L3")
	assert.Equal(t, "renamed", e.running().Site, "the other change is kept")
	assert.NotNil(t, e.running().LinkByName("L3"))
}

func TestJSONOutput(t *testing.T) {
	e := newEnv(t)
	decode := func(t *testing.T, args ...string) any {
		t.Helper()
		out := e.ok(append(args, "-o", "json")...)
		var v any
		require.NoError(t, json.Unmarshal([]byte(out), &v), "%v:\n%s", args, out)
		return v
	}
	get := func(v any, path ...any) any {
		for _, p := range path {
			switch k := p.(type) {
			case string:
				v = v.(map[string]any)[k]
			case int:
				v = v.([]any)[k]
			}
		}
		return v
	}

	st := decode(t, "status")
	assert.Equal(t, "test-site", get(st, "site"))
	assert.Equal(t, "1", get(st, "revision", "number"), "64-bit integers are strings in protojson")
	assert.Equal(t, "2025-03-01T12:00:00Z", get(st, "revision", "time"))
	assert.Equal(t, "F1", get(st, "filters", 0, "name"))
	assert.Equal(t, "0.000120s", get(st, "filters", 0, "time_of_pass"))
	assert.Equal(t, true, get(st, "switch_status", "connected"))
	assert.Equal(t, false, get(st, "bypass", "all"), "unset fields are present")

	links := decode(t, "link", "list")
	assert.Equal(t, "P42", get(links, 0, "lan"))
	assert.Equal(t, float64(1), get(links, 1, "id"))
	rules := decode(t, "rule", "list")
	assert.Equal(t, []any{"1", "100-110"}[1], get(rules, 1, "match", "vlan", 1))
	assert.Equal(t, "balance group_filter", get(rules, 1, "action"))
	assert.Equal(t, "100ms", get(decode(t, "profile", "list"), 0, "interval"))
	assert.Equal(t, "group_filter", get(decode(t, "balance-group", "list"), 0, "name"))
	assert.Equal(t, float64(2), get(decode(t, "filter-group", "list"), 0, "cores"))
	ports := decode(t, "port", "list")
	assert.Equal(t, "P1", get(ports, 0, "name"))
	assert.Equal(t, float64(10), get(ports, 0, "number"))
	assert.Equal(t, "filter-group F1 wan", get(ports, 0, "used_by"))
	assert.Equal(t, float64(1003), get(decode(t, "port", "show", "P42"), "rx", "packets"))
}

func TestJSONOutputOfDaemonAnswers(t *testing.T) {
	e := newEnv(t)
	decode := func(t *testing.T, args ...string) map[string]any {
		t.Helper()
		out := e.ok(append(args, "-o", "json")...)
		var v map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &v), "%v:\n%s", args, out)
		return v
	}
	c := decode(t, "counters", "--links")
	assert.Len(t, c["links"], 2)
	assert.Empty(t, c["ports"], "unselected sections are left out")
	s := decode(t, "slots", "group_filter", "--all-slots")
	assert.Len(t, s["groups"].([]any)[0].(map[string]any)["slots"], 16)
	tr := decode(t, "trace", "--link", "L1", "--side", "lan", "--vlan", "100", "--src", "10.0.0.1", "--dst", "10.0.0.2", "--proto", "udp")
	assert.Equal(t, "vlan-balanced", tr["rule"])
	assert.Equal(t, "to-filter", tr["verdict"])
	l := decode(t, "locate", "10.0.0.1", "10.0.0.2", "udp")
	assert.Len(t, l["placements"], 1)
	cfg := decode(t, "config", "show")
	_, err := config.Parse([]byte(cfg["yaml"].(string)))
	assert.NoError(t, err)
	h := decode(t, "config", "history")
	assert.Len(t, h["revisions"], 1)
	a := decode(t, "link", "add", "L3", "--lan", "P44", "--wan", "P43")
	assert.Equal(t, []any{"+ link L3"}, a["changes"])
	assert.Equal(t, "2", a["revision"].(map[string]any)["number"])
	assert.Equal(t, true, a["written"])
	b := decode(t, "bypass", "on", "--all")
	assert.Equal(t, true, b["all"])

	// YAML is the same data.
	out := e.ok("status", "-o", "yaml")
	var y map[string]any
	require.NoError(t, yaml.Unmarshal([]byte(out), &y), out)
	assert.Equal(t, "test-site", y["site"])
	assert.Equal(t, "2", y["revision"].(map[string]any)["number"], "numbers that are strings stay strings")
	out = e.ok("link", "list", "-o", "yaml")
	var ly []map[string]any
	require.NoError(t, yaml.Unmarshal([]byte(out), &ly), out)
	assert.Equal(t, "L1", ly[0]["name"])
}

func TestDaemonNotRunning(t *testing.T) {
	t.Run("no socket", func(t *testing.T) {
		sock := filepath.Join(t.TempDir(), "balancer.sock")
		r := runCLI(t, "", "--socket", sock, "status")
		assert.Equal(t, exitError, r.code)
		assert.Equal(t, "balancer: cannot reach the balancer daemon at "+sock+": connect: no such file or directory"+
			" (no socket there: is the daemon running? give its socket with --socket or $BALANCER_SOCKET)\n", r.stderr)
	})
	t.Run("stale socket", func(t *testing.T) {
		sock := filepath.Join(t.TempDir(), "balancer.sock")
		l, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
		require.NoError(t, err)
		l.SetUnlinkOnClose(false)
		require.NoError(t, l.Close())
		r := runCLI(t, "", "--socket", sock, "link", "add", "L3", "--lan", "P44", "--wan", "P43")
		assert.Equal(t, exitError, r.code)
		assert.Equal(t, "balancer: cannot reach the balancer daemon at "+sock+": connect: connection refused"+
			" (a socket file but no daemon listening: is the daemon running?)\n", r.stderr)
	})
	t.Run("from the environment", func(t *testing.T) {
		sock := filepath.Join(t.TempDir(), "env.sock")
		t.Setenv("BALANCER_SOCKET", sock)
		r := runCLI(t, "", "config", "history")
		assert.Equal(t, exitError, r.code)
		assert.Contains(t, r.stderr, "cannot reach the balancer daemon at "+sock+": ")
	})
	t.Run("tcp", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		addr := l.Addr().String()
		require.NoError(t, l.Close())
		pki := testpki.New(t)
		r := runCLI(t, "", "--addr", addr, "--tls-cert", pki.ClientCert, "--tls-key", pki.ClientKey, "--tls-ca", pki.CA, "status")
		assert.Equal(t, exitError, r.code)
		assert.Contains(t, r.stderr, "balancer: cannot reach the balancer daemon at "+addr+": connect: connection refused")
	})
}

func TestEnvSocket(t *testing.T) {
	e := newEnv(t)
	t.Setenv("BALANCER_SOCKET", e.socket)
	r := runCLI(t, "", "link", "list")
	assert.Equal(t, exitOK, r.code, r.stderr)
	assertRows(t, r.stdout, "L1 0 P42 P41 up up even/odd")
}

func TestUsage(t *testing.T) {
	e := newEnv(t)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no command", nil, exitOK, "Usage:\n  balancer [command]"},
		{"group alone prints help", []string{"link"}, exitOK, "balancer link [command]"},
		{"help of a command", []string{"rule", "add", "--help"}, exitOK, "vlan 1,100-110        outer VLAN id"},
		{"unknown command", []string{"lnk"}, exitUsage, "balancer: unknown command \"lnk\" for \"balancer\"\n\nDid you mean this?\n\tlink\n"},
		{"unknown subcommand", []string{"link", "ad", "L1"}, exitUsage, "balancer: unknown command \"ad\" for \"balancer link\"; did you mean add?\nRun 'balancer link --help' for usage.\n"},
		{"unknown subcommand without suggestion", []string{"link", "frobnicate"}, exitUsage, "its commands: add, del, list"},
		{"unknown flag", []string{"link", "list", "--colour"}, exitUsage, "balancer: unknown flag: --colour\nRun 'balancer link list --help' for usage.\n"},
		{"bad output", []string{"status", "-o", "xml"}, exitUsage, `--output "xml": want table, json or yaml`},
		{"bad timeout", []string{"status", "--timeout", "0s"}, exitUsage, "--timeout 0s: want a positive duration"},
		{"missing argument", []string{"link", "del"}, exitUsage, "balancer link del needs NAME"},
		{"extra argument", []string{"link", "list", "x"}, exitUsage, "balancer link list takes no arguments, got x"},
		{"tls without addr", []string{"status", "--tls-ca", "/x"}, exitUsage, "--tls-cert, --tls-key and --tls-ca go with --addr"},
		{"addr without tls", []string{"status", "--addr", "127.0.0.1:1"}, exitUsage, "--addr 127.0.0.1:1 needs --tls-cert, --tls-key and --tls-ca"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.run(tt.args...)
			assert.Equal(t, tt.code, r.code, "stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
			assert.Contains(t, r.stdout+r.stderr, tt.want)
		})
	}
}

// Every command has help text with examples.
func TestHelpTexts(t *testing.T) {
	root := newRootCmd(newApp(nil, nil, nil))
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		switch c.Name() {
		case "help", "completion", "daemon", "sim": // cobra's, and extraCommands'
			return
		}
		assert.NotEmpty(t, c.Short, c.CommandPath())
		if c.Runnable() && !c.HasSubCommands() {
			assert.NotEmpty(t, c.Example, "%s has no example", c.CommandPath())
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
}

func TestMutualTLS(t *testing.T) {
	svc, err := newFakeDaemon(testSite)
	require.NoError(t, err)
	pki := testpki.New(t)
	lis, creds, err := apiserver.ListenTLS("127.0.0.1:0", pki.ServerCert, pki.ServerKey, pki.CA)
	require.NoError(t, err)
	srv := grpc.NewServer(creds)
	apiv1.RegisterBalancerServer(srv, apiserver.New(svc))
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(lis)
	}()
	defer func() {
		srv.Stop()
		<-done
	}()
	addr := lis.Addr().String()

	r := runCLI(t, "", "--addr", addr, "--tls-cert", pki.ClientCert, "--tls-key", pki.ClientKey, "--tls-ca", pki.CA, "link", "list")
	require.Equal(t, exitOK, r.code, r.stderr)
	assertRows(t, r.stdout, "L1 0 P42 P41 up up even/odd")

	r = runCLI(t, "", "--addr", addr, "--tls-cert", pki.OtherCert, "--tls-key", pki.OtherKey, "--tls-ca", pki.CA, "link", "list")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "balancer: cannot reach the balancer daemon at "+addr+": ")

	r = runCLI(t, "", "--addr", addr, "--tls-cert", pki.ClientCert, "--tls-key", pki.ClientKey, "--tls-ca", filepath.Join(t.TempDir(), "none"), "link", "list")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "balancer: --tls-ca: open ")
}

// monitor --replay prints past events as lines; filter-group show lists
// one group's state and its own events; -o json gives one object a line.
func TestMonitorAndShow(t *testing.T) {
	e := newEnv(t)
	e.ok("bypass", "on", "--group", "F2")
	e.ok("bypass", "off", "--group", "F2")
	e.ok("bypass", "on", "--group", "F1")

	// As Ctrl-C ends it: the context canceled.
	follow := func(args ...string) result {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		time.AfterFunc(300*time.Millisecond, cancel)
		var out, errb bytes.Buffer
		code := run(ctx, append([]string{"--socket", e.socket}, args...), strings.NewReader(""), &out, &errb)
		return result{out.String(), errb.String(), code}
	}
	r := follow("monitor", "--replay", "10")
	assert.Equal(t, exitOK, r.code, r.stderr)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	require.Len(t, lines, 3, r.stdout)
	assert.Contains(t, lines[0], "bypass       F2: on (by the operator)")
	assert.Contains(t, lines[1], "bypass       F2: off")
	assert.Contains(t, lines[2], "bypass       F1: on")

	out := e.ok("filter-group", "show", "F2")
	assert.Contains(t, out, "filter group F2 (id ")
	assert.Contains(t, out, "recent events:")
	assert.Contains(t, out, "F2: off")
	assert.NotContains(t, out, "F1: on", "only F2's events")

	js := e.ok("filter-group", "show", "F3", "--history", "5")
	assert.Contains(t, js, "no events of F3")

	r = follow("monitor", "--replay", "2", "--object", "F2", "-o", "json")
	assert.Equal(t, exitOK, r.code, r.stderr)
	jl := strings.Split(strings.TrimSpace(r.stdout), "\n")
	require.Len(t, jl, 2, r.stdout)
	var ev map[string]any
	require.NoError(t, json.Unmarshal([]byte(jl[1]), &ev))
	assert.Equal(t, "F2", ev["object"])
	assert.Equal(t, "off", ev["to"])
	assert.Equal(t, "bypass", ev["kind"])

	r = e.run("monitor", "--replay", "5000")
	assert.Equal(t, exitUsage, r.code, r.stderr)
	assert.Contains(t, r.stderr, "--replay 5000: give 0 to 4096 events")
	r = e.run("filter-group", "show", "NOSUCH")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, `unknown filter group "NOSUCH"; the filter groups are F1, F2, F3`)
}

// counters --rate reads twice and shows what moved per second, timed by
// the daemon's readings (500 ms apart in the fake, 100 packets more).
func TestCountersRate(t *testing.T) {
	e := newEnv(t)
	out := e.ok("counters", "--filters", "--rate", "100ms")
	assertRows(t, out,
		"per second over 0.500s (packets/s; -o json: packets and bytes per second)",
		"FILTER GROUP TO FILTER RETURNED KEEP-ALIVE SW BYPASS VERDICT BYPASS VERDICT DROP",
		"F1 200 0 0 0 0 0")
	js := e.ok("counters", "--filters", "--rate", "100ms", "-o", "json")
	var c struct {
		Filters []struct {
			Name     string `json:"name"`
			ToFilter struct {
				Packets string `json:"packets"`
				Bytes   string `json:"bytes"`
			} `json:"to_filter"`
		} `json:"filters"`
	}
	require.NoError(t, json.Unmarshal([]byte(js), &c), js)
	require.NotEmpty(t, c.Filters)
	assert.Equal(t, "200", c.Filters[0].ToFilter.Packets)
	assert.Equal(t, "20000", c.Filters[0].ToFilter.Bytes)
	r := e.run("counters", "--rate", "10ms")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "--rate 10ms: give 100ms to 1h0m0s")
}

// A counter that goes back between two readings (the switch was reset)
// or a site that changed shape gives no rate.
func TestCounterRatesRefuseLies(t *testing.T) {
	a := &apiv1.Counters{Filters: []*apiv1.FilterCounters{{Name: "F1", ToFilter: &apiv1.PacketBytes{Packets: 10, Bytes: 1000}}}}
	b := &apiv1.Counters{Filters: []*apiv1.FilterCounters{{Name: "F1", ToFilter: &apiv1.PacketBytes{Packets: 30, Bytes: 3000}}}}
	r, err := counterRates(a, b, 2)
	require.NoError(t, err)
	assert.Equal(t, uint64(10), r.GetFilters()[0].GetToFilter().GetPackets())
	assert.Equal(t, uint64(1000), r.GetFilters()[0].GetToFilter().GetBytes())
	assert.Equal(t, uint64(30), b.GetFilters()[0].GetToFilter().GetPackets(), "the reading is not changed")
	_, err = counterRates(b, a, 2)
	assert.ErrorContains(t, err, "counter .filters[0].to_filter went back")
	c := &apiv1.Counters{Filters: []*apiv1.FilterCounters{{Name: "F9", ToFilter: &apiv1.PacketBytes{Packets: 40}}}}
	_, err = counterRates(a, c, 2)
	assert.ErrorContains(t, err, "the site changed between the readings (.filters: F1 then F9)")
	_, err = counterRates(a, b, 0)
	assert.Error(t, err)
}
