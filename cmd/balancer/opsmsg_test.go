package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/daemon/apiserver"
)

// TestBalanceGroupDelInUse: deleting a balance group a rule balances to
// names the rule and says what to do, not "unknown balance group".
func TestBalanceGroupDelInUse(t *testing.T) {
	e := newEnv(t)
	n := e.revisions()
	r := e.run("balance-group", "del", "group_filter", "--force")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "balance group group_filter is in use by rule vlan-balanced (action balance group_filter): point the rule elsewhere first ('balancer rule set vlan-balanced --action bypass'")
	assert.NotContains(t, r.stderr, "unknown balance group")
	assert.Equal(t, n, e.revisions(), "nothing saved")
}

// TestFilterGroupDelLast: deleting the last filter group of a balance
// group says what to do.
func TestFilterGroupDelLast(t *testing.T) {
	e := newEnv(t)
	e.ok("filter-group", "del", "F1", "--force")
	e.ok("filter-group", "del", "F2", "--force")
	n := e.revisions()
	want := "filter group F3 is the last member of balance group group_filter, and a balance group needs at least one: " +
		"add another filter group to group_filter first ('balancer filter-group add NAME --lan PORT --wan PORT', then 'balancer balance-group member add group_filter NAME'), " +
		"or delete the balance group ('balancer balance-group del group_filter', after pointing rule vlan-balanced elsewhere ('balancer rule set vlan-balanced --action bypass'))"
	r := e.run("filter-group", "del", "F3", "--force")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, want)
	r = e.run("balance-group", "member", "del", "group_filter", "F3")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, want)
	assert.Equal(t, n, e.revisions(), "nothing saved")
}

// TestTraceUnknownLinkListsLinks: trace on a link the daemon does not
// have lists the links it has (the real daemon's answer).
func TestTraceUnknownLinkListsLinks(t *testing.T) {
	e := realDaemonEnv(t)
	r := e.run("trace", "--link", "L9", "--side", "lan", "--src", "10.0.0.1", "--dst", "10.0.0.2", "--proto", "tcp")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, `unknown link "L9" (links: L1)`)
}

// syncBuffer is a bytes.Buffer safe to read while the CLI writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestMonitorDaemonStops: a monitor following the daemon's events ends
// cleanly (exit 0) with a message saying the daemon stopped, not a raw
// gRPC error, when the daemon goes away.
func TestMonitorDaemonStops(t *testing.T) {
	svc, err := newFakeDaemon(testSite)
	require.NoError(t, err)
	socket := filepath.Join(t.TempDir(), "balancer.sock")
	lis, err := apiserver.ListenUnix(socket)
	require.NoError(t, err)
	srv := grpc.NewServer()
	apiv1.RegisterBalancerServer(srv, apiserver.New(svc))
	served := make(chan struct{})
	go func() {
		defer close(served)
		srv.Serve(lis)
	}()
	e := &env{t: t, socket: socket, svc: svc}
	e.ok("bypass", "on", "--group", "F2")

	var out, errb syncBuffer
	code := make(chan int, 1)
	go func() {
		code <- run(context.Background(), []string{"--socket", socket, "monitor", "--replay", "1"}, strings.NewReader(""), &out, &errb)
	}()
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "F2: on") }, 10*time.Second, 10*time.Millisecond, "the replayed event")
	srv.Stop()
	<-served
	select {
	case c := <-code:
		assert.Equal(t, exitOK, c)
	case <-time.After(10 * time.Second):
		t.Fatal("monitor did not end when the daemon stopped")
	}
	assert.Contains(t, errb.String(), "balancer: the event stream ended: the daemon at "+socket+" stopped (or the connection to it was lost) after 1 event")
	assert.NotContains(t, errb.String(), "rpc error")
	assert.NotContains(t, errb.String(), "code =")
}

// TestEveryAlarmDocumented: every alarm the daemon raises is listed by
// 'balancer alarm --help' and in docs/telemetry.md, by its name and by
// its Prometheus label.
func TestEveryAlarmDocumented(t *testing.T) {
	var out, errb bytes.Buffer
	require.Equal(t, exitOK, run(context.Background(), []string{"alarm", "--help"}, strings.NewReader(""), &out, &errb), errb.String())
	doc, err := os.ReadFile("../../docs/telemetry.md")
	require.NoError(t, err)
	for _, name := range apiv1.AlarmNames {
		assert.Contains(t, out.String(), "\n  "+name+" ", "alarm --help")
		assert.Contains(t, string(doc), "| `"+name+"` |", "docs/telemetry.md, Alarms")
		assert.Contains(t, string(doc), "`"+strings.ReplaceAll(name, "-", "_")+"`", "docs/telemetry.md, balancer_alarm's labels")
	}
}

// TestRangeErrorSaysWhatLeavingOutDoes: a flag out of range says what
// leaving it out does: on set the current value stays, on add the default
// is taken, and a flag add requires is not said to be optional.
func TestRangeErrorSaysWhatLeavingOutDoes(t *testing.T) {
	e := newEnv(t)
	for _, tt := range []struct {
		args       []string
		want, not  string
		wantSuffix string
	}{
		{[]string{"filter-group", "set", "F1", "--cores", "0"}, "--cores 0 is out of range 1..1024 cores (leave the flag out to keep the current value)", "", ""},
		{[]string{"filter-group", "add", "F9", "--lan", "P44", "--wan", "P43", "--cores", "0"}, "--cores 0 is out of range 1..1024 cores (leave the flag out for the default)", "current value", ""},
		{[]string{"profile", "add", "p2", "--interval", "1ms"}, "--interval 1ms is out of range 10ms..60s (leave the flag out for the default)", "current value", ""},
		{[]string{"profile", "set", "default", "--max-rtt", "-1s"}, "(leave the flag out to keep the current value)", "", ""},
		{[]string{"rule", "add", "x", "--prio", "0", "--match", "any", "--action", "bypass"}, "--prio 0 is out of range 1..65535", "leave the flag out", ""},
	} {
		r := e.run(tt.args...)
		assert.Equal(t, exitUsage, r.code, "%v", tt.args)
		assert.Contains(t, r.stderr, tt.want, "%v", tt.args)
		if tt.not != "" {
			assert.NotContains(t, r.stderr, tt.not, "%v", tt.args)
		}
	}
}
