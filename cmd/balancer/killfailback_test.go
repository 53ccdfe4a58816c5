package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/daemon"
)

// killSite is testSite whose balance group runs a profile with manual
// failback (and min_up_time) and fail-open probes with the action bypass,
// at keep-alives every 100 ms, down after 20 lost (2 s).
//
// The test is about what a kill -9 keeps, not detection speed: at 50 ms
// with 3 lost (150 ms), a host busy beside -race failed the healthy filters
// now and then, and with manual failback each such failure is for good
// (recovered, waiting for return): the filters never all up, F2 down again
// before the kill, the balance group in bypass. 2 s of lost keep-alives in
// a row is more than that host stalled the test (under 1 s seen).
//
// At 200 ms with 50 lost (10 s, as daemon/testdata/relaxed.yaml) F2 was
// failed again by the pipeline at its return, every run, before the WAN
// side keep-alive of failed filter groups (profiles, evidenceKeepAlive):
// returned within the detection time of the last data sent out of its
// WAN side, the evidence of its death was still open.
var killSite = strings.Replace(testSite, "slot_bits: 4}", "slot_bits: 4, profile: careful}", 1) + `profiles:
  - {name: careful, interval: 100ms, loss_threshold: 20, recovery_threshold: 3, failback: manual, min_up_time: 200ms,
     probe_payload: dpi-probe-block-me, probe_every: 4, fail_open_action: bypass}
`

// simLoops reads the software switch's loops (the filters of
// --from-config) from its control API: state and data frames sent them.
func simLoops(t *testing.T, control string) map[string]string {
	t.Helper()
	resp, err := http.Get("http://" + control + "/loops")
	require.NoError(t, err)
	defer resp.Body.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 3 {
			out[f[0]] = f[1] + " " + f[2]
		}
	}
	return out
}

// loopData is the data frames the switch sent loop name.
func loopData(t *testing.T, control, name string) uint64 {
	t.Helper()
	var state string
	var n uint64
	_, err := fmt.Sscanf(simLoops(t, control)[name], "%s data=%d", &state, &n)
	require.NoError(t, err, "loop %s: %v", name, simLoops(t, control))
	return n
}

func setLoop(t *testing.T, control, name, state string) {
	t.Helper()
	resp, err := http.Post("http://"+control+"/loops/"+name+"?state="+state, "", nil)
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, string(b))
}

// procStatus reads the daemon's status through the CLI (-o json).
func procStatus(t *testing.T, socket string) (*apiv1.Status, bool) {
	r := runCLI(t, "", "--socket", socket, "status", "-o", "json")
	if r.code != exitOK {
		return nil, false
	}
	var st apiv1.Status
	if protojson.Unmarshal([]byte(r.stdout), &st) != nil {
		return nil, false
	}
	return &st, true
}

func procFilter(st *apiv1.Status, name string) *apiv1.FilterStatus {
	for _, f := range st.GetFilters() {
		if f.GetName() == name {
			return f
		}
	}
	return nil
}

// TestKill9KeepsManualWaitAndFailOpen runs the software switch (balancer
// sim, with demo traffic and its control API) and the balancer daemon as a
// child process. F2 dies, answers again and is recovered, waiting for
// return (manual failback); F3 fails open (its probes come back) and is
// taken out (fail_open_action bypass). The daemon process is killed with
// SIGKILL (no clean stop, nothing saved on the way out) and started again
// on the same state directory: F2 is still waiting and F3 still failed open
// and out; through 20 keep-alive rounds the switch sends neither a data
// frame. F2 returns only by 'filter-group return F2'; F3, once its probes
// are dropped again, recovers and waits for return too.
func TestKill9KeepsManualWaitAndFailOpen(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "site.yaml")
	require.NoError(t, os.WriteFile(cfgPath, []byte(killSite), 0o600))
	state := filepath.Join(dir, "state")

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	p4rt, control := freeAddr(t), freeAddr(t)
	wg.Add(1)
	go func() {
		defer wg.Done()
		var out, errb bytes.Buffer
		if code := run(ctx, []string{"sim", "--from-config", cfgPath, "--p4rt", p4rt, "--gnmi", "", "--control", control,
			"--demo-traffic", "600", "--log-level", "error"}, strings.NewReader(""), &out, &errb); code != exitOK && ctx.Err() == nil {
			t.Errorf("balancer sim exited %d: %s", code, errb.String())
		}
	}()
	const f2, f3 = "120:110", "140:130" // the loops of F2 (P12/P11) and F3 (P14/P13)

	d1 := startDaemonProc(t, state, cfgPath, filepath.Join(dir, "d1.sock"), "--switch", p4rt)
	wait := func(socket, what string, cond func(st *apiv1.Status) bool) *apiv1.Status {
		t.Helper()
		// last is written by the condition, which assert.Eventually runs
		// on a goroutine of its own that may still be running when it gives
		// up: under mu.
		var mu sync.Mutex
		var last *apiv1.Status
		ok := assert.Eventually(t, func() bool {
			st, ok := procStatus(t, socket)
			if ok {
				mu.Lock()
				last = st
				mu.Unlock()
			}
			return ok && cond(st)
		}, 30*time.Second, 20*time.Millisecond, what)
		mu.Lock()
		defer mu.Unlock()
		if !ok {
			var fs []string
			for _, f := range last.GetFilters() {
				fs = append(fs, f.GetName()+" "+f.GetState()+" ("+f.GetReason()+")")
			}
			t.Fatalf("%s: the filters were %s", what, strings.Join(fs, "; "))
		}
		return last
	}
	stateOf := func(st *apiv1.Status, name string) string { return procFilter(st, name).GetState() }
	wait(d1.socket, "all up", func(st *apiv1.Status) bool {
		return st.GetSwitchStatus().GetPrimary() && stateOf(st, "F1") == "up" && stateOf(st, "F2") == "up" && stateOf(st, "F3") == "up"
	})
	require.Eventually(t, func() bool { return loopData(t, control, f2) > 20 && loopData(t, control, f3) > 20 },
		30*time.Second, 20*time.Millisecond, "F2 and F3 carry traffic")

	// F2 dies and answers again: recovered, waiting for return.
	setLoop(t, control, f2, "dead")
	wait(d1.socket, "F2 down", func(st *apiv1.Status) bool { return stateOf(st, "F2") == "down" })
	setLoop(t, control, f2, "ok")
	st := wait(d1.socket, "F2 recovered", func(st *apiv1.Status) bool { return stateOf(st, "F2") == "recovered" })
	assert.Equal(t, "recovered, waiting for return", procFilter(st, "F2").GetReason())
	// F3 fails open: out by its fail-open action.
	setLoop(t, control, f3, "pass-all")
	st = wait(d1.socket, "F3 failed open", func(st *apiv1.Status) bool {
		return stateOf(st, "F3") == "down" && procFilter(st, "F3").GetFailOpen().GetFailedOpen()
	})
	f3Reason := procFilter(st, "F3").GetReason()
	require.True(t, strings.HasPrefix(f3Reason, "failed open: probe returned"), f3Reason)
	// Both saved as they happened (what a kill -9 leaves).
	require.Eventually(t, func() bool {
		b, err := os.ReadFile(filepath.Join(state, "runtime.json"))
		if err != nil {
			return false
		}
		var rt daemon.Runtime // runtime.json: the runtime state and its check
		return json.Unmarshal(b, &rt) == nil && len(rt.Recovered) == 1 && rt.Recovered[0] == "F2" &&
			rt.FailedOpen["F3"].Detail == f3Reason
	}, 10*time.Second, 5*time.Millisecond, "runtime.json holds the wait and the fail-open")

	// kill -9.
	data2, data3 := loopData(t, control, f2), loopData(t, control, f3)
	require.NoError(t, d1.cmd.Process.Signal(syscall.SIGKILL))
	<-d1.done
	require.ErrorContains(t, d1.err, "killed")

	d2 := startDaemonProc(t, state, cfgPath, filepath.Join(dir, "d2.sock"), "--switch", p4rt)
	st = wait(d2.socket, "the restarted daemon is primary", func(st *apiv1.Status) bool {
		return st.GetSwitchStatus().GetPrimary() && !st.GetSwitchStatus().GetStatePending()
	})
	t.Logf("after kill -9 and restart: F2 %s (%s); F3 %s (%s), failed open %v",
		stateOf(st, "F2"), procFilter(st, "F2").GetReason(), stateOf(st, "F3"), procFilter(st, "F3").GetReason(), procFilter(st, "F3").GetFailOpen().GetFailedOpen())
	assert.Equal(t, "recovered", stateOf(st, "F2"), "the wait survives kill -9")
	assert.Equal(t, "recovered, waiting for return", procFilter(st, "F2").GetReason())
	assert.Equal(t, "down", stateOf(st, "F3"))
	assert.True(t, procFilter(st, "F3").GetFailOpen().GetFailedOpen(), "the fail-open survives kill -9")
	assert.Equal(t, f3Reason, procFilter(st, "F3").GetReason())

	// 20 keep-alive rounds on (probes of F3 still coming back): both
	// still out, and the switch sent neither a data frame since the kill.
	p2, p3 := procFilter(st, "F2").GetPasses(), procFilter(st, "F3").GetPasses()
	st = wait(d2.socket, "20 rounds", func(st *apiv1.Status) bool {
		return procFilter(st, "F2").GetPasses() >= p2+20 && procFilter(st, "F3").GetPasses() >= p3+20
	})
	assert.Equal(t, "recovered", stateOf(st, "F2"))
	assert.Equal(t, "down", stateOf(st, "F3"))
	assert.Equal(t, "sw-bypass", procFilter(st, "F2").GetEffective())
	assert.Equal(t, "sw-bypass", procFilter(st, "F3").GetEffective())
	assert.Zero(t, loopData(t, control, f2)-data2, "no data frame to F2 across the kill and restart")
	assert.Zero(t, loopData(t, control, f3)-data3, "no data frame to F3 across the kill and restart")
	assert.Greater(t, loopData(t, control, "20:10"), uint64(0))

	// The operator returns F2: traffic again.
	r := runCLI(t, "", "--socket", d2.socket, "filter-group", "return", "F2")
	require.Equal(t, exitOK, r.code, r.stderr)
	wait(d2.socket, "F2 up", func(st *apiv1.Status) bool { return stateOf(st, "F2") == "up" })
	require.Eventually(t, func() bool { return loopData(t, control, f2) > data2+10 }, 10*time.Second, 5*time.Millisecond, "F2 carries traffic again")

	// F3 inspects again: the fail-open ends, it recovers and waits (manual).
	setLoop(t, control, f3, "ok")
	st = wait(d2.socket, "F3 recovered", func(st *apiv1.Status) bool { return stateOf(st, "F3") == "recovered" })
	assert.False(t, procFilter(st, "F3").GetFailOpen().GetFailedOpen())
	assert.Zero(t, loopData(t, control, f3)-data3, "no data frame to F3 before its return")
	r = runCLI(t, "", "--socket", d2.socket, "filter-group", "return", "F3")
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Eventually(t, func() bool { return loopData(t, control, f3) > data3+10 }, 10*time.Second, 5*time.Millisecond, "F3 carries traffic again")
}
