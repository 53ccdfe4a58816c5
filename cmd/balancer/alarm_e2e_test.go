package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// TestStateRepairedAlarm starts a daemon on a state directory whose
// layouts file was removed (a real file, after a real change): the repair
// the daemon makes at start is an alarm in `balancer status`, in the gNMI
// tree and in the metrics, with the object, the remedy and how it clears,
// until an operator acknowledges it; then it is gone from all three, and
// a later save does not raise it again.
func TestStateRepairedAlarm(t *testing.T) {
	dir := t.TempDir()
	state, socket := filepath.Join(dir, "state"), filepath.Join(dir, "b.sock")
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	start := func(ctx context.Context, args ...string) *sync.WaitGroup {
		var one sync.WaitGroup
		wg.Add(1)
		one.Add(1)
		go func() {
			defer wg.Done()
			defer one.Done()
			var out, errb bytes.Buffer
			if code := run(ctx, args, strings.NewReader(""), &out, &errb); code != exitOK && ctx.Err() == nil {
				t.Errorf("balancer %s exited %d: %s", strings.Join(args, " "), code, errb.String())
			}
		}()
		return &one
	}
	t.Cleanup(func() { cancel(); wg.Wait() })
	p4rt, swGNMI, tele, metrics := freeAddr(t), freeAddr(t), freeAddr(t), freeAddr(t)
	start(ctx, "sim", "--from-config", "../../examples/site.yaml", "--p4rt", p4rt, "--gnmi", swGNMI, "--log-level", "warn")
	daemonArgs := []string{"daemon", "--name", "lab1", "--config", "../../examples/site.yaml", "--state-dir", state, "--socket", socket,
		"--switch", p4rt, "--switch-gnmi", swGNMI, "--log-level", "warn"}
	cli := func(args ...string) result { return runCLI(t, "", append([]string{"--socket", socket}, args...)...) }
	statusOK := func() string {
		r := cli("status")
		if r.code != exitOK {
			return ""
		}
		return r.stdout
	}

	// A first daemon makes revision 2 (so the layouts file matters), and
	// ends.
	firstCtx, stopFirst := context.WithCancel(ctx)
	first := start(firstCtx, append(daemonArgs, "--telemetry", "", "--metrics", "")...)
	require.Eventually(t, func() bool { return strings.Contains(statusOK(), "primary") }, 30*time.Second, 50*time.Millisecond)
	r := cli("rule", "add", "dns", "--prio", "800", "--match", "proto udp l4-port 53", "--action", "bypass")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.NotContains(t, statusOK(), "ALARM state-repaired", "a healthy directory raises nothing")
	stopFirst()
	first.Wait()

	require.NoError(t, os.Remove(filepath.Join(state, "layouts.json")))
	start(ctx, append(daemonArgs, "--telemetry", tele, "--metrics", metrics)...)

	// status
	var out string
	require.Eventually(t, func() bool { out = statusOK(); return out != "" }, 30*time.Second, 50*time.Millisecond)
	t.Log(out)
	assert.Contains(t, out, "ALARM state-repaired: state directory "+state+": repaired at start: layouts.json is missing: "+
		"the slot layouts are dealt again from revision 2's configuration")
	assert.Contains(t, out, "  remedy: files of the state directory were removed or damaged outside the daemon")
	assert.Contains(t, out, "then acknowledge with `balancer alarm ack state-repaired`")
	r = cli("alarm", "list")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "ALARM state-repaired: state directory "+state)

	// gNMI: Get of the alarm's leaves with a real client.
	conn, err := grpc.NewClient(tele, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer conn.Close()
	gc := gpb.NewGNMIClient(conn)
	alarmLeaves := func() map[string]*gpb.TypedValue { return gnmiAlarmLeaves(ctx, gc, "state-repaired") }
	var leaves map[string]*gpb.TypedValue
	require.Eventually(t, func() bool { leaves = alarmLeaves(); return leaves["raised"].GetBoolVal() }, 30*time.Second, 50*time.Millisecond,
		"gNMI /balancer/alarms/alarm[name=state-repaired]/state/raised")
	assert.Equal(t, "state directory "+state, leaves["object"].GetStringVal())
	assert.Contains(t, leaves["message"].GetStringVal(), "layouts.json is missing")
	assert.Contains(t, leaves["remedy"].GetStringVal(), "balancer alarm ack state-repaired")
	assert.True(t, leaves["acknowledge"].GetBoolVal())
	assert.NotZero(t, leaves["since"].GetUintVal())

	// Prometheus.
	scrape := func() string {
		resp, err := (&http.Client{Timeout: 5 * time.Second}).Get("http://" + metrics + "/metrics")
		if err != nil {
			return ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	require.Eventually(t, func() bool {
		return strings.Contains(scrape(), `balancer_alarm{balancer="lab1",name="state_repaired"} 1`)
	}, 30*time.Second, 50*time.Millisecond)
	body := scrape()
	assert.Contains(t, body, `balancer_alarm{balancer="lab1",name="runtime_save_failed"} 0`)

	// Acknowledged: gone everywhere.
	r = cli("alarm", "ack", "state-repaired")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "alarm state-repaired acknowledged (state directory "+state)
	assert.NotContains(t, statusOK(), "ALARM")
	require.Eventually(t, func() bool {
		l := alarmLeaves()
		return l != nil && !l["raised"].GetBoolVal() && l["message"].GetStringVal() == ""
	},
		30*time.Second, 50*time.Millisecond, "gNMI raised false once acknowledged")
	require.Eventually(t, func() bool {
		return strings.Contains(scrape(), `balancer_alarm{balancer="lab1",name="state_repaired"} 0`)
	}, 30*time.Second, 50*time.Millisecond)
	r = cli("alarm", "ack", "state-repaired")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "alarm state-repaired is not raised (none is raised)")
	r = cli("alarm", "ack", "disk-full")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, `alarm "disk-full": no such alarm; the daemon raises state-repaired, runtime-save-failed`)

	// A save writes layouts.json again and raises nothing.
	r = cli("rule", "del", "dns")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.FileExists(t, filepath.Join(state, "layouts.json"))
	assert.NotContains(t, statusOK(), "ALARM")
}

// gnmiAlarmLeaves gets the leaves of /balancer/alarms/alarm[name]/state
// by name (nil when the Get fails).
func gnmiAlarmLeaves(ctx context.Context, gc gpb.GNMIClient, name string) map[string]*gpb.TypedValue {
	gctx, gcancel := context.WithTimeout(ctx, 5*time.Second)
	defer gcancel()
	resp, err := gc.Get(gctx, &gpb.GetRequest{Encoding: gpb.Encoding_PROTO, Path: []*gpb.Path{{Elem: []*gpb.PathElem{
		{Name: "balancer"}, {Name: "alarms"}, {Name: "alarm", Key: map[string]string{"name": name}}, {Name: "state"}}}}})
	if err != nil {
		return nil
	}
	got := map[string]*gpb.TypedValue{}
	for _, n := range resp.GetNotification() {
		for _, u := range n.GetUpdate() {
			e := u.GetPath().GetElem()
			got[e[len(e)-1].GetName()] = u.GetVal()
		}
	}
	return got
}
