package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// healthSite is testSite with a profile "careful" used by group_filter;
// keys holds the profile's further lines (each indented 4 spaces).
func healthSite(keys ...string) string {
	s := strings.Replace(testSite, "members: [F1, F2, F3], slot_bits: 4}", "members: [F1, F2, F3], slot_bits: 4, profile: careful}", 1)
	s += "profiles:\n  - name: careful\n"
	for _, k := range keys {
		s += "    " + k + "\n"
	}
	return s
}

// TestHealthValuesNeverReplaced: an explicit 0, an empty value, a negative
// or an absurd value of a filter-health key (round-trip and loss limits,
// fail-open probes, failback) is refused, by 'config check' and 'config
// apply' of a file and by the profile flags, with the profile's name, the
// key, the valid range and the fix; nothing is taken as "unset" and
// replaced by a default. The values that mean "off" (max_rtt 0s, max_loss
// 0, min_up_time 0s) are accepted and kept as written.
func TestHealthValuesNeverReplaced(t *testing.T) {
	refused := []struct {
		name string
		keys []string
		want string
	}{
		{"rtt_rounds 0 with max_rtt", []string{"max_rtt: 5ms", "rtt_rounds: 0"},
			"profile careful: profiles[0].rtt_rounds: 0 is out of range 1..1000 rounds over max_rtt in a row (default 3) (0 is a value, not \"unset\": leave the key out for the default)"},
		{"rtt_rounds 0 alone", []string{"rtt_rounds: 0"}, "profile careful: profiles[0].rtt_rounds: 0 is out of range 1..1000"},
		{"rtt_rounds no value", []string{"max_rtt: 5ms", "rtt_rounds:"}, "profile careful: profiles[0].rtt_rounds: no value is out of range 1..1000"},
		{"rtt_rounds negative", []string{"max_rtt: 5ms", "rtt_rounds: -3"}, "profile careful: profiles[0].rtt_rounds: -3 is out of range 1..1000"},
		{"rtt_rounds past uint32", []string{"max_rtt: 5ms", "rtt_rounds: 99999999999"}, "profile careful: profiles[0].rtt_rounds: 99999999999 is out of range 1..1000"},
		{"rtt_rounds absurd", []string{"max_rtt: 5ms", "rtt_rounds: 5000"}, "profile careful: profiles[0].rtt_rounds: 5000 is out of range 1..1000 rounds"},
		{"loss_window 0 with max_loss", []string{"max_loss: 10", "loss_window: 0"},
			"profile careful: profiles[0].loss_window: 0 is out of range 10..10000 keep-alive rounds (default 100) (0 is a value, not \"unset\": leave the key out for the default)"},
		{"loss_window negative", []string{"max_loss: 10", "loss_window: -1"}, "profile careful: profiles[0].loss_window: -1 is out of range 10..10000"},
		{"loss_window absurd", []string{"max_loss: 10", "loss_window: 1000000"}, "profile careful: profiles[0].loss_window: 1000000 is out of range 10..10000 rounds"},
		{"probe_every 0 with a payload", []string{"probe_payload: X5O!", "probe_every: 0"},
			"profile careful: profiles[0].probe_every: 0 is out of range 1..1000 keep-alive rounds (default 10) (0 is a value, not \"unset\": leave the key out for the default)"},
		{"probe_every 0 alone", []string{"probe_every: 0"}, "profile careful: profiles[0].probe_every: 0 is out of range 1..1000"},
		{"probe_every absurd", []string{"probe_payload: X5O!", "probe_every: 100000"}, "profile careful: profiles[0].probe_every: 100000 is out of range 1..1000"},
		{"fail_open_action empty", []string{"probe_payload: X5O!", "fail_open_action: ''"},
			"profile careful: profiles[0].fail_open_action: an empty value is not one of alarm, bypass, drop, rebalance or spare (default alarm): give one, or leave the key out for the default"},
		{"fail_open_action no value", []string{"probe_payload: X5O!", "fail_open_action:"}, "profile careful: profiles[0].fail_open_action: an empty value is not one of alarm"},
		{"failback empty", []string{"failback: ''"}, "profile careful: profiles[0].failback: an empty value is not one of auto or manual (default auto)"},
		{"failure_action empty", []string{"failure_action: ''"}, "profile careful: profiles[0].failure_action: an empty value is not one of bypass, drop, rebalance or spare (default bypass)"},
		{"probe empty", []string{"probe:"}, "profile careful: profiles[0].probe: an empty value is not one of lan-to-wan or both"},
		{"stall_guard empty", []string{"stall_guard: ''"}, "profile careful: profiles[0].stall_guard: an empty value is not one of hold or off"},
		{"max_rtt negative", []string{"max_rtt: -1ms"}, `profile careful: profiles[0].max_rtt: -1ms is out of range: 0s (no limit) or 1µs up to under the interval 100ms (profile "careful")`},
		{"max_rtt absurd", []string{"max_rtt: 1h"}, `profile careful: profiles[0].max_rtt: 1h0m0s is not under the interval 100ms (profile "careful": a keep-alive not back within the interval is lost already; lower max_rtt or raise interval)`},
		{"max_loss negative", []string{"max_loss: -5"}, `profile careful: profiles[0].max_loss: -5 is out of range: 0 (no limit) or more than 0 and under 100 percent (profile "careful")`},
		{"max_loss 100", []string{"max_loss: 100"}, `profile careful: profiles[0].max_loss: 100 is out of range: 0 (no limit) or more than 0 and under 100 percent`},
		{"max_loss NaN", []string{"max_loss: .nan"}, `profile careful: profiles[0].max_loss: NaN is out of range`},
		{"min_up_time negative", []string{"min_up_time: -1s"}, `profile careful: profiles[0].min_up_time: -1s is out of range 0s..60m (profile "careful"`},
		{"min_up_time absurd", []string{"min_up_time: 1000h"}, `profile careful: profiles[0].min_up_time: 1000h0m0s is out of range 0s..60m`},
	}
	for _, cmd := range [][]string{{"config", "check"}, {"config", "apply", "-f"}} {
		for _, tt := range refused {
			t.Run(strings.Join(cmd, " ")+"/"+tt.name, func(t *testing.T) {
				e := newEnv(t)
				path := filepath.Join(t.TempDir(), "site.yaml")
				require.NoError(t, os.WriteFile(path, []byte(healthSite(tt.keys...)), 0o600))
				revs := e.revisions()
				r := e.run(append(cmd, path)...)
				assert.Equal(t, exitError, r.code, "stderr: %s", r.stderr)
				assert.Contains(t, r.stderr, tt.want)
				assert.NotContains(t, r.stderr, "4294967295", "the key's range, not its Go type's")
				assert.Equal(t, revs, e.revisions(), "no revision saved")
			})
		}
	}

	// A balance group's failure action: empty is not "the profile's".
	{
		e := newEnv(t)
		path := filepath.Join(t.TempDir(), "site.yaml")
		site := strings.Replace(healthSite(), "profile: careful}", "profile: careful, failure_action: ''}", 1)
		require.NoError(t, os.WriteFile(path, []byte(site), 0o600))
		r := e.run("config", "check", path)
		assert.Equal(t, exitError, r.code, "stderr: %s", r.stderr)
		assert.Contains(t, r.stderr, "balance group group_filter: balance_groups[0].failure_action: an empty value is not one of bypass, drop, rebalance or spare (default: its profile's): give one, or leave the key out for the default")
	}

	// "Off" values and explicit values are kept as written.
	for _, keys := range [][]string{
		{"max_rtt: 0s", "max_loss: 0", "min_up_time: 0s"},
		{"max_rtt: 5ms", "rtt_rounds: 1", "max_loss: 0.5", "loss_window: 10", "probe_payload: X5O!", "probe_every: 1", "fail_open_action: alarm", "failback: manual", "min_up_time: 0s"},
	} {
		e := newEnv(t)
		path := filepath.Join(t.TempDir(), "site.yaml")
		require.NoError(t, os.WriteFile(path, []byte(healthSite(keys...)), 0o600))
		e.ok("config", "check", path)
		e.ok("config", "apply", "-f", path)
		p := e.running().ProfileByName("careful")
		require.NotNil(t, p)
		if len(keys) > 3 {
			assert.EqualValues(t, 1, p.RTTRounds, "rtt_rounds 1 kept")
			assert.EqualValues(t, 10, p.LossWindow, "loss_window 10 kept")
			assert.EqualValues(t, 1, p.ProbeEvery, "probe_every 1 kept")
		} else {
			assert.Zero(t, p.MaxRTT)
			assert.Zero(t, p.MaxLoss)
			assert.Zero(t, p.RTTRounds, "no limit: no count filled in")
		}
	}

	// The flags: each names the profile as typed, the flag, the range and
	// the fix.
	flags := []struct {
		args []string
		want string
	}{
		{[]string{"--rtt-rounds", "0"}, "--rtt-rounds 0 is out of range 1..1000 rounds (leave the flag out "},
		{[]string{"--loss-window", "0"}, "--loss-window 0 is out of range 10..10000 rounds"},
		{[]string{"--probe-every", "0"}, "--probe-every 0 is out of range 1..1000 keep-alive rounds"},
		{[]string{"--probe-every", "-1"}, `--probe-every "-1": want a whole number 1..1000 keep-alive rounds`},
		{[]string{"--rtt-rounds", "99999999999"}, "--rtt-rounds 99999999999 is out of range: want a whole number 1..1000 rounds"},
		{[]string{"--loss-window", "-5"}, `--loss-window "-5": want a whole number 10..10000 rounds`},
		{[]string{"--min-up-time", "-1s"}, "--min-up-time -1s is out of range 0s..60m"},
		{[]string{"--max-rtt", "-1ms"}, "--max-rtt -1ms is out of range: 0s (no limit) or 1µs up to under the profile's interval"},
		{[]string{"--max-loss", "-1"}, `--max-loss "-1": want a percentage, 0 (no limit) or more than 0 and under 100`},
		{[]string{"--fail-open-action", ""}, `--fail-open-action "": want alarm, bypass, drop, rebalance or spare`},
		{[]string{"--failback", ""}, `--failback "": want auto or manual`},
	}
	for _, verb := range []string{"add", "set"} {
		for _, tt := range flags {
			t.Run("profile "+verb+" "+strings.Join(tt.args, " "), func(t *testing.T) {
				e := newEnvSite(t, healthSite("interval: 100ms"))
				revs := e.revisions()
				name := "careful" // set: the profile the file has; add: a new one
				if verb == "add" {
					name = "strict-2"
				}
				r := e.run(append([]string{"profile", verb, name}, tt.args...)...)
				assert.Equal(t, exitUsage, r.code, "stderr: %s", r.stderr)
				assert.Contains(t, r.stderr, "balancer: profile "+name+": "+tt.want)
				// What leaving the flag out does: set keeps the profile's
				// value, add takes the default.
				if verb == "set" {
					assert.NotContains(t, r.stderr, "leave the flag out for the default")
				} else {
					assert.NotContains(t, r.stderr, "keep the current value")
				}
				assert.Equal(t, revs, e.revisions(), "no revision saved")
			})
		}
	}
}
