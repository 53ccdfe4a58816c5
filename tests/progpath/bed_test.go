// Package progpath measures the programming path at Tofino size with the
// real binaries: `balancer sim` and `balancer daemon` as processes, the
// daemon driven over its API. BenchmarkProgrammingBigSite reports, in one
// run: the floor (a minimal client writing the same pre-built updates to a
// P4Runtime server that does nothing), the cold start (daemon exec -> the
// last entry acknowledged) against that server and against the software
// switch, planned changes, and the resident memory of the daemon beside
// the software switch's after changes and failovers. TestProgrammingBed
// runs the same bed once on a smaller site with two changes and two
// failovers, so a broken bed fails the tests.
// The daemon pushes the v1model build (the software switch runs it) for a
// wedge100bf-32x site: the Tofino platform's slot table, the sim's pipeline.
package progpath

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/prototext"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/internal/p4rtfloor"
	"github.com/dpi-balancer/balancer/internal/testsites"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/tables"
)

var (
	changes   = flag.Int("changes", 100, "planned changes to make (F1's cores 31 -> 12 and back)")
	failovers = flag.Int("failovers", 100, "failovers to make (F1 into manual bypass and back)")
)

// tofinoBits is the slot bits of the benchmark's balance groups.
const tofinoBits = 16

func freeAddr(b testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(b, err)
	defer l.Close()
	return l.Addr().String()
}

// build compiles the balancer binary into dir.
func build(b testing.TB, dir string) string {
	bin := filepath.Join(dir, "balancer")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/dpi-balancer/balancer/cmd/balancer").CombinedOutput()
	require.NoError(b, err, "%s", out)
	return bin
}

// proc is a started process; exited closes when it ends.
type proc struct {
	*exec.Cmd
	exited chan struct{}
}

// start runs the binary until the benchmark ends.
func start(b testing.TB, bin string, args ...string) proc {
	cmd := exec.Command(bin, args...)
	cmd.Stderr = os.Stderr
	require.NoError(b, cmd.Start())
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	p := proc{cmd, done}
	b.Cleanup(func() { stopProc(p) })
	return p
}

// rssMiB is a process's resident set (VmRSS) in MiB.
func rssMiB(b testing.TB, pid int) float64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	require.NoError(b, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			require.NoError(b, err)
			return kb / 1024
		}
	}
	b.Fatalf("no VmRSS for pid %d", pid)
	return 0
}

// metric reads the one sample of a metric from a Prometheus endpoint
// (its only labels being those every series of the daemon carries, such
// as the balancer's name).
func metric(b testing.TB, addr, name string) float64 {
	resp, err := http.Get("http://" + addr + "/metrics")
	require.NoError(b, err)
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, name)
		if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '{') {
			continue
		}
		if rest[0] == '{' {
			_, rest, ok = strings.Cut(rest, "} ")
			require.True(b, ok, "metric line %q", line)
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
		require.NoError(b, err)
		return v
	}
	b.Fatalf("no metric %s at %s", name, addr)
	return 0
}

// programmed polls the daemon until the switch holds its desired state.
func programmed(b testing.TB, api apiv1.BalancerClient, daemon proc, within time.Duration) {
	deadline := time.Now().Add(within)
	for {
		select {
		case <-daemon.exited:
			b.Fatalf("the daemon exited: %v", daemon.ProcessState)
		default:
		}
		st, err := api.GetStatus(context.Background(), &apiv1.GetStatusRequest{})
		if err == nil && st.GetSwitchStatus().GetPrimary() && !st.GetSwitchStatus().GetPending() && st.GetSwitchStatus().GetLastPlan() != "" {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("not programmed within %v: %v %v", within, err, st.GetSwitchStatus())
		}
		time.Sleep(2 * time.Millisecond) // polling another process, with a deadline
	}
}

// settled polls the daemon until no filter group is in its initial
// state and the switch holds the desired state.
func settled(b testing.TB, api apiv1.BalancerClient, daemon proc) {
	deadline := time.Now().Add(time.Minute)
	for {
		programmed(b, api, daemon, time.Minute)
		st, err := api.GetStatus(context.Background(), &apiv1.GetStatusRequest{})
		require.NoError(b, err)
		starting := slices.ContainsFunc(st.GetFilters(), func(f *apiv1.FilterStatus) bool { return f.GetState() == "init" })
		if !starting && !st.GetSwitchStatus().GetPending() && !st.GetSwitchStatus().GetStatePending() {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("not settled within a minute: %v", st)
		}
		time.Sleep(10 * time.Millisecond) // polling another process, with a deadline
	}
}

func uptime() string {
	out, _ := os.ReadFile("/proc/loadavg")
	return strings.Join(strings.Fields(string(out))[:3], " ")
}

func BenchmarkProgrammingBigSite(b *testing.B) {
	if b.N > 1 {
		b.Skip("one run is the measurement (processes, a cold start, 100 changes and 100 failovers)")
	}
	runBed(b, tofinoBits, *changes, *failovers, b.ReportMetric)
}

// TestProgrammingBed runs the benchmark's bed once with balance groups of
// 2^14 slots (more than the embedded v1model P4Info holds: a bed that
// pushes the wrong pipeline fails), two planned changes and two
// failovers.
func TestProgrammingBed(t *testing.T) {
	runBed(t, 14, 2, 2, func(v float64, unit string) { t.Logf("%s: %.2f", unit, v) })
}

// runBed is the bed: the site of 2^bits slots per balance group, n
// planned changes and f failovers, each figure given to report.
func runBed(b testing.TB, bits, n, f int, report func(v float64, unit string)) {
	dir := b.TempDir()
	bin := build(b, dir)
	site := filepath.Join(dir, "site.yaml")
	require.NoError(b, os.WriteFile(site, []byte(testsites.TofinoYAML(31, bits)), 0o644))
	cfg, err := config.Parse([]byte(testsites.TofinoYAML(31, bits)))
	require.NoError(b, err)
	// The daemon pushes the v1model build with its P4Info sized as the
	// Tofino build's (the pushed P4Info sizes every table it fills).
	info, err := testsites.TofinoSizedP4Info()
	require.NoError(b, err)
	infoFile, jsonFile := filepath.Join(dir, "p4info.txtpb"), filepath.Join(dir, "bmv2.json")
	infoText, err := prototext.Marshal(info)
	require.NoError(b, err)
	require.NoError(b, os.WriteFile(infoFile, infoText, 0o644))
	require.NoError(b, os.WriteFile(jsonFile, p4src.BMv2JSON, 0o644))
	schema, err := p4src.NewSchema(info)
	require.NoError(b, err)
	comp, err := tables.New(schema)
	require.NoError(b, err)
	des, err := comp.Compile(cfg, tables.State{})
	require.NoError(b, err)
	entries := len(des.Entities)
	b.Logf("load %s", uptime())

	// The floor, in this run: the minimal client and the server that
	// does nothing (in this process).
	floorSrv := &p4rtfloor.Server{}
	floorAddr, stopFloor, err := floorSrv.Serve()
	require.NoError(b, err)
	defer stopFloor()
	floor := floorRate(b, floorAddr, des.Entities)
	report(floor, "floor-entries/s")

	// daemon execs a daemon with a fresh state dir on the switch at
	// addr and returns it and its API once the switch holds the site,
	// and the time that took.
	daemon := func(name, addr string) (proc, apiv1.BalancerClient, string, time.Duration) {
		metrics := freeAddr(b)
		socket := filepath.Join(dir, name+".sock")
		t0 := time.Now()
		dm := start(b, bin, "daemon", "--config", site, "--state-dir", filepath.Join(dir, name), "--socket", socket,
			"--switch", addr, "--switch-gnmi", "", "--pipeline-format", "bmv2",
			"--p4info", infoFile, "--device-config", jsonFile, "--telemetry", "", "--metrics", metrics, "--log-level", "warn")
		// The socket appears once the daemon is up: retry every few
		// milliseconds, not after gRPC's default second, which would
		// count in the cold start.
		cc, err := grpc.NewClient("unix://"+socket, grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithConnectParams(grpc.ConnectParams{Backoff: backoff.Config{BaseDelay: 2 * time.Millisecond, Multiplier: 1, MaxDelay: 2 * time.Millisecond},
				MinConnectTimeout: time.Second}))
		require.NoError(b, err)
		b.Cleanup(func() { cc.Close() })
		api := apiv1.NewBalancerClient(cc)
		programmed(b, api, dm, 2*time.Minute)
		return dm, api, metrics, time.Since(t0)
	}

	// Cold start against the server that does nothing: the daemon's
	// own rate.
	dm, _, _, cold := daemon("floor", floorAddr)
	require.GreaterOrEqual(b, floorSrv.Updates(), uint64(entries))
	stopProc(dm)
	report(float64(entries)/cold.Seconds(), "cold-floor-entries/s")
	b.Logf("cold start against the floor's server: %d entries in %v (%.0f entries/s; x%.2f the floor), load %s",
		entries, cold, float64(entries)/cold.Seconds(), float64(entries)/cold.Seconds()/floor, uptime())

	// simSwitch starts a software switch holding Tofino's slot table.
	simSwitch := func() (proc, string) {
		p4rt, gnmi := freeAddr(b), freeAddr(b)
		sw := start(b, bin, "sim", "--mem-port", "10,20,30,40,50,60,70,80", "--p4rt", p4rt, "--gnmi", gnmi,
			"--slot-capacity", strconv.Itoa(p4src.SlotsSizeTofino), "--log-level", "warn")
		for deadline := time.Now().Add(30 * time.Second); ; {
			if c, err := net.Dial("tcp", p4rt); err == nil {
				c.Close()
				return sw, p4rt
			}
			if time.Now().After(deadline) {
				b.Fatal("the software switch does not listen")
			}
			time.Sleep(5 * time.Millisecond) // polling another process, with a deadline
		}
	}

	// The floor's client against a software switch: the switch's own
	// rate, which no controller can pass.
	sw, p4rt := simSwitch()
	cl, err := p4rtfloor.Dial(p4rt)
	require.NoError(b, err)
	require.NoError(b, cl.Primary(context.Background(), info, p4src.BMv2JSON))
	t0 := time.Now()
	require.NoError(b, cl.WriteAll(context.Background(), p4rtfloor.Requests(des.Entities)))
	floorSwitch := float64(entries) / time.Since(t0).Seconds()
	cl.Close()
	stopProc(sw)
	report(floorSwitch, "floor-switch-entries/s")
	b.Logf("floor's client to the software switch: %.0f entries/s, load %s", floorSwitch, uptime())

	// The software switch the daemon programs.
	sw, p4rt = simSwitch()

	// Cold start: exec -> the last entry acknowledged.
	dm, api, metrics, cold := daemon("state", p4rt)
	report(cold.Seconds(), "cold-s")
	report(float64(entries)/cold.Seconds(), "cold-entries/s")
	b.Logf("cold start: %d entries in %v (%.0f entries/s; floor %.0f: x%.2f; the floor's client to the software switch %.0f: x%.2f), load %s",
		entries, cold, float64(entries)/cold.Seconds(), floor, float64(entries)/cold.Seconds()/floor,
		floorSwitch, float64(entries)/cold.Seconds()/floorSwitch, uptime())
	rss := func(when string) {
		d, s := rssMiB(b, dm.Process.Pid), rssMiB(b, sw.Process.Pid)
		heap := metric(b, metrics, "go_memstats_heap_alloc_bytes") / (1 << 20)
		b.Logf("%s: daemon RSS %.0f MiB (heap %.0f MiB), software switch RSS %.0f MiB: x%.2f, load %s", when, d, heap, s, d/s, uptime())
		report(d, "rss-daemon-MiB/"+when)
		report(heap, "heap-daemon-MiB/"+when)
		report(d/s, "rss-ratio/"+when)
	}
	rss("fresh")

	// The filter groups leave their initial state (no keep-alive
	// crosses this switch's ports: they go down after their detection
	// time) and that is written, before the changes: a runtime change of
	// their own would make the state pending again.
	settled(b, api, dm)

	// Planned changes: F1's cores 31 -> 12 and back. The moment the
	// answer says "written", the status and the metrics say the switch
	// holds it (nothing pending).
	ctx := context.Background()
	var written int64
	var took time.Duration
	for i := range n {
		cores := 12
		if i%2 == 1 {
			cores = 31
		}
		t := time.Now()
		res, err := api.ApplyConfig(ctx, &apiv1.ApplyConfigRequest{Yaml: testsites.TofinoYAML(cores, bits), Comment: "bench"})
		took += time.Since(t)
		require.NoError(b, err)
		require.True(b, res.GetWritten(), "%v", res)
		st, err := api.GetStatus(ctx, &apiv1.GetStatusRequest{})
		require.NoError(b, err)
		require.False(b, st.GetSwitchStatus().GetPending(), "pending in the status right after the change was written: %v", st.GetSwitchStatus())
		require.Zero(b, metric(b, metrics, "balancer_switch_pending"), "balancer_switch_pending right after the change was written")
		written += res.GetInserts() + res.GetModifies() + res.GetDeletes()
		if i == n/2-1 {
			// Half way: the memory at the end of the changes is flat
			// when it is what it was here.
			rss("half-changes")
		}
		if i == 0 {
			b.Logf("planned change F1 31 -> 12 cores: %d entries in %v (%.0f entries/s), load %s", written, took, float64(written)/took.Seconds(), uptime())
		}
	}
	report(float64(written)/took.Seconds(), "planned-entries/s")
	b.Logf("%d planned changes: %d entries in %v (%.0f entries/s; x%.2f the cold start's), load %s",
		n, written, took, float64(written)/took.Seconds(), float64(written)/took.Seconds()/(float64(entries)/cold.Seconds()), uptime())
	rss("changes")

	// Failovers: F1 into manual bypass and back (the state owner's
	// failover path: only the filter group's entry is written).
	for i := range f {
		_, err := api.SetBypass(ctx, &apiv1.SetBypassRequest{Group: "F1", On: i%2 == 0})
		require.NoError(b, err)
	}
	programmed(b, api, dm, time.Minute)
	rss("failovers")
}

// stopProc interrupts a process and waits for it.
func stopProc(p proc) {
	_ = p.Process.Signal(os.Interrupt)
	select {
	case <-p.exited:
	case <-time.After(10 * time.Second):
		_ = p.Process.Kill()
		<-p.exited
	}
}

// floorRate writes every entity with the floor's minimal client to the
// server at addr, three times, and returns the best entries per second.
func floorRate(b testing.TB, addr string, ents []*p4v1.Entity) float64 {
	cl, err := p4rtfloor.Dial(addr)
	require.NoError(b, err)
	defer cl.Close()
	reqs := p4rtfloor.Requests(ents)
	best := 0.0
	for range 3 {
		t := time.Now()
		require.NoError(b, cl.WriteAll(context.Background(), reqs))
		best = max(best, float64(len(ents))/time.Since(t).Seconds())
	}
	b.Logf("floor: %d pre-built entries to a no-op P4Runtime server: %.0f entries/s (best of 3), load %s", len(ents), best, uptime())
	return best
}
