package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/internal/stallproxy"
	"github.com/dpi-balancer/balancer/internal/testbed"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sim"
)

// twoPipeSite is a site on the 2-pipe Tofino platform whose ports keep
// the software switch's numbers (P1..P4 are ports 10..40).
const twoPipeSite = `site: twopipe
platform: wedge100bf-32x
port_map: {P1: 10, P2: 20, P3: 30, P4: 40}
ports:
  - {port: 1, speed: 100G}
  - {port: 2, speed: 100G}
  - {port: 3, speed: 100G}
  - {port: 4, speed: 100G}
links:
  - {name: L1, lan: P2, wan: P1}
filter_groups:
  - {name: F1, lan: P4, wan: P3, cores: 4}
balance_groups:
  - {name: G, members: [F1], slot_bits: 8}
rules:
  - {name: all, priority: 10, action: balance G}
`

// evidenceCopyBuild writes a stand-in for bf-p4c's output of the TNA
// verdict build that the software switch can run: the v1model P4Info
// with the Tofino build's slots table, marked a tna build, and with the
// evidence copy's rate-limit register (p4src.RegisterEvidenceCopy, which
// only the TNA verdict build has, and by which the daemon knows the
// program copies returns across pipes); a BF-Runtime schema, a context
// and a binary beside it. It returns the directory and the P4Info.
func evidenceCopyBuild(t *testing.T) (string, *p4configv1.P4Info) {
	t.Helper()
	s, err := p4src.Load()
	require.NoError(t, err)
	info := proto.Clone(s.Info).(*p4configv1.P4Info)
	info.PkgInfo = &p4configv1.PkgInfo{Arch: "tna"}
	for _, tb := range info.GetTables() {
		if tb.GetPreamble().GetName() == p4src.TableSlots {
			tb.Size = p4src.SlotsSizeTofino
		}
	}
	require.NotEmpty(t, info.GetRegisters())
	reg := proto.Clone(info.GetRegisters()[0]).(*p4configv1.Register)
	reg.Preamble = &p4configv1.Preamble{Id: 0x0f00_0ec0, Name: p4src.RegisterEvidenceCopy, Alias: "ev_copy_slot"}
	info.Registers = append(info.Registers, reg)
	text, err := prototext.Marshal(info)
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "pipe"), 0o755))
	for name, data := range map[string][]byte{
		"balancer.p4info.txtpb": text,
		"bfrt.json":             []byte(`{"schema_version":"1.0.0","tables":[]}`),
		"pipe/context.json":     []byte(`{"program_name":"balancer"}`),
		"pipe/tofino.bin":       []byte("\x00\x01tofino"),
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	return dir, info
}

// refusingSwitch serves a 2-pipe software switch running info whose
// P4Runtime server refuses every clone session write while refuse is
// set (as a P4Runtime agent without clone sessions would).
type refusingSwitch struct {
	sw      *sim.Switch
	addr    string
	refuse  atomic.Bool
	refused atomic.Uint64 // clone session writes refused
}

func serveRefusingSwitch(t *testing.T, info *p4configv1.P4Info) *refusingSwitch {
	t.Helper()
	schema, err := p4src.NewSchema(info)
	require.NoError(t, err)
	require.True(t, schema.HasEvidenceCopy())
	ports := map[uint32]sim.Port{}
	for _, n := range []uint32{10, 20, 30, 40} {
		p, _ := sim.NewMemPort(64)
		ports[n] = p
	}
	sw, err := sim.New(sim.Options{Ports: ports, Schema: schema, SlotCapacity: p4src.SlotsSizeTofino, Pipes: 2, CPUPort: 192})
	require.NoError(t, err)
	r := &refusingSwitch{sw: sw}
	unary := func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		if w, ok := req.(*p4v1.WriteRequest); ok && r.refuse.Load() {
			for _, u := range w.GetUpdates() {
				if u.GetEntity().GetPacketReplicationEngineEntry().GetCloneSessionEntry() != nil {
					r.refused.Add(1)
					return nil, status.Error(codes.Unimplemented, "clone sessions are not supported by this P4Runtime server")
				}
			}
		}
		return h(ctx, req)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	r.addr = lis.Addr().String()
	g := grpc.NewServer(append(sw.ServerOptions(), grpc.ChainUnaryInterceptor(unary))...)
	sw.Register(g)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	sw.Start(ctx, &wg)
	wg.Go(func() { _ = g.Serve(lis) })
	t.Cleanup(func() {
		cancel()
		g.Stop()
		wg.Wait()
	})
	return r
}

// TestEvidenceCopyRefusedAlarm runs the daemon (balancer daemon, in
// process) on the 2-pipe Tofino platform with a pipeline that copies
// returns across pipes, against a switch that refuses the evidence copy's
// mirror sessions: the alarm evidence-copy-refused is raised with its
// remedy in `balancer status` (text and JSON), `balancer alarm`, the gNMI
// tree, the metrics and `balancer monitor`, and cannot be acknowledged.
// Once the switch takes clone sessions the periodic reconcile writes them
// on the same connection (pipe 0's copies to pipe 1's recirculation port
// 196, pipe 1's to 68) and the alarm clears everywhere. Refused again on
// a reconnect, it is raised again; taken on the next reconnect, it clears
// again.
func TestEvidenceCopyRefusedAlarm(t *testing.T) {
	const reconcileEvery = 300 * time.Millisecond
	build, info := evidenceCopyBuild(t)
	sw := serveRefusingSwitch(t, info)
	sw.refuse.Store(true)
	proxy := stallproxy.New(t, sw.addr)
	dir := t.TempDir()
	site := filepath.Join(dir, "site.yaml")
	require.NoError(t, os.WriteFile(site, []byte(twoPipeSite), 0o644))
	socket, tele, metrics := filepath.Join(dir, "b.sock"), freeAddr(t), freeAddr(t)

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	args := []string{"daemon", "--name", "pipes", "--config", site, "--state-dir", filepath.Join(dir, "state"), "--socket", socket,
		"--switch", proxy.Addr(), "--switch-gnmi", sw.addr, "--telemetry", tele, "--metrics", metrics, "--log-level", "warn",
		"--device-config", build, "--switch-reconcile-interval", reconcileEvery.String()}
	wg.Go(func() {
		var out, errb bytes.Buffer
		if code := run(ctx, args, strings.NewReader(""), &out, &errb); code != exitOK && ctx.Err() == nil {
			t.Errorf("balancer daemon exited %d: %s", code, errb.String())
		}
	})
	cli := func(args ...string) result { return runCLI(t, "", append([]string{"--socket", socket}, args...)...) }
	statusText := func() string {
		r := cli("status")
		if r.code != exitOK {
			return ""
		}
		return r.stdout
	}
	const name = apiv1.AlarmEvidenceCopy
	alarmOf := func(st *apiv1.Status) *apiv1.Alarm {
		for _, a := range st.GetAlarms() {
			if a.GetName() == name {
				return a
			}
		}
		return nil
	}

	// Monitor from the start: the alarm's events.
	events := &testbed.SyncBuffer{}
	monCtx, stopMon := context.WithCancel(ctx)
	defer stopMon()
	wg.Go(func() {
		for monCtx.Err() == nil {
			_ = run(monCtx, []string{"--socket", socket, "monitor", "--replay", "100"}, strings.NewReader(""), events, io.Discard)
			select {
			case <-monCtx.Done():
			case <-time.After(50 * time.Millisecond): // the daemon not up yet
			}
		}
	})

	// Raised: status (JSON, then text).
	var st *apiv1.Status
	require.Eventually(t, func() bool {
		var ok bool
		st, ok = procStatus(t, socket)
		return ok && st.GetSwitchStatus().GetPrimary() && alarmOf(st) != nil
	}, 60*time.Second, 50*time.Millisecond, "status -o json shows %s (status %v)", name, st)
	a := alarmOf(st)
	t.Logf("raised: %s: %s: %s\n  remedy: %s", a.GetName(), a.GetObject(), a.GetMessage(), a.GetRemedy())
	assert.Equal(t, "switch "+proxy.Addr(), a.GetObject())
	assert.Contains(t, a.GetMessage(), "the switch refused the evidence copy's mirror sessions")
	assert.Contains(t, a.GetMessage(), "mirror session 960")
	assert.Contains(t, a.GetMessage(), "mirror session 961")
	assert.Contains(t, a.GetMessage(), "clone sessions are not supported by this P4Runtime server")
	assert.Contains(t, a.GetRemedy(), "check that the switch's P4Runtime server takes clone sessions")
	assert.Contains(t, a.GetRemedy(), "this clears when a reconciliation writes them")
	assert.NotZero(t, a.GetSince().AsTime().Unix(), "raised since when")
	assert.False(t, a.GetAcknowledge())
	assert.Positive(t, sw.refused.Load())
	assert.Empty(t, sw.sw.P4Runtime().CloneSessions())

	text := statusText()
	t.Log(text)
	assert.Contains(t, text, "ALARM "+name+": switch "+proxy.Addr()+": the switch refused the evidence copy's mirror sessions (mirror session 960")
	assert.Contains(t, text, "  remedy: check that the switch's P4Runtime server takes clone sessions")
	assert.NotContains(t, text, "since 1970", "the alarm says when it was raised")
	r := cli("alarm", "list")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "ALARM "+name+": switch "+proxy.Addr())
	r = cli("alarm", "ack", name)
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "clears itself when the switch takes the mirror sessions")

	// gNMI and the metrics.
	conn, err := grpc.NewClient(tele, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer conn.Close()
	gc := gpb.NewGNMIClient(conn)
	leaves := func() map[string]*gpb.TypedValue { return gnmiAlarmLeaves(ctx, gc, name) }
	var l map[string]*gpb.TypedValue
	require.Eventually(t, func() bool { l = leaves(); return l["raised"].GetBoolVal() }, 30*time.Second, 50*time.Millisecond,
		"gNMI /balancer/alarms/alarm[name=%s]/state/raised", name)
	assert.Equal(t, "switch "+proxy.Addr(), l["object"].GetStringVal())
	assert.Contains(t, l["message"].GetStringVal(), "mirror session 960")
	assert.Contains(t, l["remedy"].GetStringVal(), "takes clone sessions")
	assert.NotZero(t, l["since"].GetUintVal(), "gNMI since")
	assert.False(t, l["acknowledge"].GetBoolVal())
	scrape := func() string {
		resp, err := (&http.Client{Timeout: 5 * time.Second}).Get("http://" + metrics + "/metrics")
		if err != nil {
			return ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	const series = `balancer_alarm{balancer="pipes",name="evidence_copy_refused"} `
	require.Eventually(t, func() bool { return strings.Contains(scrape(), series+"1") }, 30*time.Second, 50*time.Millisecond)
	require.Eventually(t, func() bool {
		return strings.Contains(events.String(), "switch "+proxy.Addr()+": raised ("+name+": the switch refused")
	}, 30*time.Second, 50*time.Millisecond,
		"balancer monitor shows the alarm raised: %s", events.String())

	// The switch takes clone sessions now: the periodic reconcile writes
	// them again, on the same connection, and the alarm clears
	// everywhere.
	held := func() bool {
		got := sw.sw.P4Runtime().CloneSessions()
		return len(got) == 2 && got[p4src.EvidenceCopySessionBase].GetReplicas()[0].GetEgressPort() == 196 && // pipe 0's copies to pipe 1
			got[p4src.EvidenceCopySessionBase+1].GetReplicas()[0].GetEgressPort() == 68 // pipe 1's to pipe 0
	}
	// cleared waits until the alarm is cleared everywhere; it returns how
	// long after from status showed it cleared.
	cleared := func(how string, from time.Time) time.Duration {
		t.Helper()
		require.Eventually(t, func() bool {
			st, ok := procStatus(t, socket)
			return ok && st.GetSwitchStatus().GetPrimary() && alarmOf(st) == nil
		}, 30*time.Second, 10*time.Millisecond, "the alarm clears once the switch takes the sessions (%s)", how)
		took := time.Since(from)
		assert.True(t, held(), "the switch holds the two sessions: %v", sw.sw.P4Runtime().CloneSessions())
		assert.NotContains(t, statusText(), "ALARM "+name)
		require.Eventually(t, func() bool {
			l := leaves()
			return l != nil && !l["raised"].GetBoolVal() && l["message"].GetStringVal() == ""
		}, 30*time.Second, 50*time.Millisecond, "gNMI raised false once cleared")
		require.Eventually(t, func() bool { return strings.Contains(scrape(), series+"0") }, 30*time.Second, 50*time.Millisecond)
		return took
	}
	monitorLines := func(what string) int { return strings.Count(events.String(), "switch "+proxy.Addr()+": "+what) }
	require.Equal(t, 1, monitorLines("raised ("+name))
	backups := monitorLines("primary -> backup")
	sw.refuse.Store(false)
	took := cleared("periodic reconcile", time.Now())
	t.Logf("status cleared %v after the switch took clone sessions (reconcile every %v), on the same connection", took.Round(time.Millisecond), reconcileEvery)
	require.Eventually(t, func() bool { return monitorLines("cleared ("+name+": the switch took the mirror sessions)") == 1 }, 30*time.Second, 50*time.Millisecond,
		"balancer monitor shows the alarm cleared: %s", events.String())
	assert.Equal(t, backups, monitorLines("primary -> backup"), "no reconnect: %s", events.String())

	// Refused again, after a reconnect (the new connection's
	// reconciliation): raised again; the switch takes them again and the
	// daemon reconnects: cleared.
	sw.refuse.Store(true)
	proxy.Cut()
	require.Eventually(t, func() bool {
		st, ok := procStatus(t, socket)
		return ok && alarmOf(st) != nil
	}, 30*time.Second, 20*time.Millisecond, "raised again after the reconnect")
	require.Eventually(t, func() bool { return monitorLines("raised ("+name) == 2 }, 30*time.Second, 50*time.Millisecond, "%s", events.String())
	sw.refuse.Store(false)
	at := time.Now()
	proxy.Cut()
	took = cleared("reconnect", at)
	t.Logf("status cleared %v after the reconnect", took.Round(time.Millisecond))
	require.Eventually(t, func() bool { return monitorLines("cleared ("+name) == 2 }, 30*time.Second, 50*time.Millisecond, "%s", events.String())
	t.Logf("monitor:\n%s", events.String())
}
