package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	apiv1 "github.com/dpi-balancer/balancer/api"
)

// spareSite is testSite with balance group group_filter of members F1
// and F2 (2 cores each) and spare F3 (4 cores), failure action spare.
var spareSite = strings.Replace(testSite, "members: [F1, F2, F3], slot_bits: 4}",
	"members: [F1, F2], spares: [F3], failure_action: spare, slot_bits: 4, profile: quick}", 1) + `profiles:
  - {name: quick, interval: 50ms, loss_threshold: 3, recovery_threshold: 3}
`

// spareLines is what the daemon's Prometheus exposition must hold for the
// spares of st, derived from the status's own words: every spare's state
// (standby, active, unavailable) and who carries whom, every member's
// spared gauge and the effective enum of each.
func spareLines(st *apiv1.Status) []string {
	var out []string
	line := func(metric, labels string, v int) {
		out = append(out, fmt.Sprintf(`%s{balancer="lab1",%s} %d`, metric, labels, v))
	}
	members, spares := []string{"F1", "F2"}, []string{"F3"}
	eff := map[string]string{}
	for _, f := range st.GetFilters() {
		eff[f.GetName()] = f.GetEffective()
	}
	for _, sp := range spares {
		state := "unavailable"
		switch {
		case strings.HasPrefix(eff[sp], "spare for "):
			state = "active"
		case eff[sp] == "spare (standby)":
			state = "standby"
		}
		for _, s := range spareStates {
			line("balancer_filter_group_spare_state", fmt.Sprintf(`filter_group=%q,state=%q`, sp, s), b2i(s == state))
		}
		for _, m := range members {
			line("balancer_filter_group_spare_carries", fmt.Sprintf(`filter_group=%q,member=%q`, sp, m), b2i(eff[sp] == "spare for "+m))
		}
		switch {
		case state == "active":
			line("balancer_filter_group_effective", fmt.Sprintf(`effective="spare_active",filter_group=%q`, sp), 1)
		case state == "standby":
			line("balancer_filter_group_effective", fmt.Sprintf(`effective="spare_standby",filter_group=%q`, sp), 1)
		}
	}
	for _, m := range members {
		spared := strings.HasPrefix(eff[m], "spared to ")
		line("balancer_filter_group_spared", fmt.Sprintf(`filter_group=%q`, m), b2i(spared))
		line("balancer_filter_group_effective", fmt.Sprintf(`effective="spared",filter_group=%q`, m), b2i(spared))
	}
	return out
}

var spareStates = []string{"standby", "active", "unavailable"}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestSpareMetricsMatchStatus runs the software switch (balancer sim) and
// the daemon as a child process with its metrics endpoint, a balance group
// of members F1 and F2 with spare F3. The spare states in Prometheus are
// gauges of fixed labels (balancer_filter_group_spare_state,
// _spare_carries, _spared, and effective spared / spare_active /
// spare_standby), and at each step they say what the daemon's status
// says: F3 on standby; F1 dies and F3 carries its share; F1 returns and F3
// is on standby again. The set of series never changes across the steps.
func TestSpareMetricsMatchStatus(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "site.yaml")
	require.NoError(t, os.WriteFile(cfgPath, []byte(spareSite), 0o600))
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	p4rt, control, metrics := freeAddr(t), freeAddr(t), freeAddr(t)
	wg.Add(1)
	go func() {
		defer wg.Done()
		var out, errb bytes.Buffer
		if code := run(ctx, []string{"sim", "--from-config", cfgPath, "--p4rt", p4rt, "--gnmi", "", "--control", control,
			"--log-level", "error"}, strings.NewReader(""), &out, &errb); code != exitOK && ctx.Err() == nil {
			t.Errorf("balancer sim exited %d: %s", code, errb.String())
		}
	}()
	d := startDaemonProc(t, filepath.Join(dir, "state"), cfgPath, filepath.Join(dir, "d.sock"), "--switch", p4rt, "--metrics", metrics, "--name", "lab1")
	scrape := func() string {
		resp, err := (&http.Client{Timeout: 5 * time.Second}).Get("http://" + metrics + "/metrics")
		if err != nil {
			return ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	series := func(body string) []string {
		var out []string
		for _, l := range strings.Split(body, "\n") {
			for _, m := range []string{"balancer_filter_group_spare_state{", "balancer_filter_group_spare_carries{", "balancer_filter_group_spared{", "balancer_filter_group_effective{"} {
				if strings.HasPrefix(l, m) {
					out = append(out, l[:strings.LastIndex(l, " ")])
				}
			}
		}
		slices.Sort(out)
		return out
	}
	// step waits until the status says want for F1 and F3, then until the
	// exposition holds what that status says, and returns its series.
	step := func(what, f1, f3 string) []string {
		t.Helper()
		var st *apiv1.Status
		require.Eventually(t, func() bool {
			var ok bool
			st, ok = procStatus(t, d.socket)
			return ok && procFilter(st, "F1").GetEffective() == f1 && procFilter(st, "F3").GetEffective() == f3
		}, 30*time.Second, 20*time.Millisecond, "%s: F1 %s, F3 %s", what, f1, f3)
		want := spareLines(st)
		var body, missing string
		ok := assertEventually(30*time.Second, func() bool {
			body, missing = scrape(), ""
			for _, w := range want {
				if !strings.Contains(body, w+"\n") {
					missing = w
					return false
				}
			}
			return true
		})
		require.True(t, ok, "%s: the exposition lacks %s; it has:\n%s", what, missing, strings.Join(series(body), "\n"))
		t.Logf("%s: %d spare lines as the status says (F1 %q, F3 %q)", what, len(want), f1, f3)
		return series(body)
	}
	standby := step("healthy", "forward", "spare (standby)")
	setLoop(t, control, "20:10", "dead")
	active := step("F1 dead", "spared to F3", "spare for F1")
	setLoop(t, control, "20:10", "ok")
	back := step("F1 back", "forward", "spare (standby)")
	require.Equal(t, standby, active, "the same series while the spare carries a share")
	require.Equal(t, standby, back, "the same series after")
}

// assertEventually polls cond every 20 ms until it holds or within ends.
func assertEventually(within time.Duration, cond func() bool) bool {
	for end := time.Now().Add(within); ; time.Sleep(20 * time.Millisecond) {
		if cond() {
			return true
		}
		if time.Now().After(end) {
			return false
		}
	}
}
