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

	"github.com/dpi-balancer/balancer/cmd/balancer/internal/cli"
	"github.com/dpi-balancer/balancer/internal/testpki"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
	"google.golang.org/grpc"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/daemon/apiserver"
)

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
	assertRows(t, e.ok("config", "history"), "* 2 2025-03-01 12:01:00 "+digestOf([]byte(e.ok("config", "export")))+" "+me()+" VLANs bypass tonight")

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
		"switch 127.0.0.1:9559: connected, primary, election id 0:1, atomic writes, CPU port 255, data-plane verdict, port status watched",
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
	assertRows(t, out, "switch 127.0.0.1:9559: NOT CONNECTED, election id 0:1, atomic writes, CPU port 255, data-plane verdict, port status watched",
		"last error: connection refused",
		"the switch is not connected: port states are unknown, filter states are the last seen (stale)",
		"L1 0 P42 P41 unknown unknown",
		"F1 group_filter P2/P1 2 up (stale) 1h0m0s ago forward (stale) 100ms ago 120µs 0 keep-alives answered")
	out = e.ok("link", "list")
	assertRows(t, out, "L1 0 P42 P41 unknown unknown even/odd")

	// A build without the data-plane verdict (the Tofino 1 profile): the
	// switch line says the daemon alone judges the filters.
	e.svc.switchDown, e.svc.noVerdict = false, true
	out = e.ok("status")
	assertRows(t, out, "switch 127.0.0.1:9559: connected, primary, election id 0:1, atomic writes, CPU port 255, no data-plane verdict (the daemon alone judges the filters), port status watched")
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
		"REV TIME DIGEST BY COMMENT",
		"1 2025-03-01 12:00:00 "+digestOf([]byte(testSite))+" - initial configuration",
		"* 2 2025-03-01 12:01:00 "+digestOf(data)+" "+me()+" ticket 4711")

	r = e.run("config", "rollback", "1")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "it would remove link L3; if that is meant, repeat with --force")
	out = e.ok("config", "rollback", "1", "--force")
	assertRows(t, out, "revision 3 saved: 2 changes:", "- link L3", "+ rule default")
	assertRows(t, e.ok("config", "history"), "* 3 2025-03-01 12:02:00 "+digestOf([]byte(testSite))+" "+me()+" rollback to revision 1")

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
		_, err = e.svc.apply(context.Background(), data, false, "someone else")
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
	root, _ := cli.NewRoot(extras()...)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		switch c.Name() {
		case "help", "completion", "daemon", "sim": // cobra's, and the Extras'
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
