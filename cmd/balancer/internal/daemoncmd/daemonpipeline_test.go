package daemoncmd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/tofino"
)

// tnaBuild writes a stand-in for bf-p4c's output of the TNA build: the
// embedded P4Info marked as a tna build (and changed by change, when set),
// a BF-Runtime schema, a context and a binary. Not the real TNA P4Info
// (p4src/build/tofino): its counters have bf-p4c's own ids, and the
// software switch these tests push to runs only the v1model program.
func tnaBuild(t *testing.T, change func(*p4configv1.P4Info)) string {
	t.Helper()
	s, err := p4src.Load()
	require.NoError(t, err)
	info := proto.Clone(s.Info).(*p4configv1.P4Info)
	info.PkgInfo = &p4configv1.PkgInfo{Arch: "tna"}
	if change != nil {
		change(info)
	}
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
	return dir
}

// tofinoSlots gives a stand-in P4Info the slots table of the Tofino build
// (the build of the wedge100bf-32x platform).
func tofinoSlots(info *p4configv1.P4Info) {
	for _, tb := range info.GetTables() {
		if tb.GetPreamble().GetName() == p4src.TableSlots {
			tb.Size = p4src.SlotsSizeTofino
		}
	}
}

func TestDaemonRefusesPipeline(t *testing.T) {
	wedge := filepath.Join(t.TempDir(), "wedge.yaml")
	site, err := os.ReadFile("../../../../examples/site.yaml")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(wedge, bytes.Replace(site, []byte("platform: sim"), []byte("platform: wedge100bf-32x"), 1), 0o644))
	table := func(name string, f func(*p4configv1.Table)) func(*p4configv1.P4Info) {
		return func(info *p4configv1.P4Info) {
			tofinoSlots(info)
			for _, tb := range info.GetTables() {
				if tb.GetPreamble().GetName() == name {
					f(tb)
				}
			}
		}
	}
	broken := tnaBuild(t, table(p4src.TableSlots, func(tb *p4configv1.Table) { tb.Preamble.Name += "_v2" }))
	small := tnaBuild(t, table(p4src.TableFlowRules, func(tb *p4configv1.Table) { tb.Size = 2 }))
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"tofino platform without its build", []string{"--config", wedge},
			"format tofino-stratum (platform \"wedge100bf-32x\") needs the Tofino build: give --device-config DIR"},
		{"p4info that breaks the contract", []string{"--config", wedge, "--device-config", broken},
			`p4info: table "BalancerIngress.slots": missing (the v1model build has it with id 0x2000006): p4info breaks the balancer's naming contract`},
		{"site larger than the pushed build's tables", []string{"--config", wedge, "--device-config", small},
			"rules: 9 entries for the IPv4 table exceed its 2 capacity"},
		{"v1model build for a tofino site", []string{"--config", wedge, "--pipeline-format", "bmv2"},
			"platform wedge100bf-32x runs the tna build, whose BalancerIngress.slots has 131072 entries; the P4Info has 16384"},
		{"unknown format", []string{"--config", "../../../../examples/site.yaml", "--pipeline-format", "tofino9"},
			`unknown format "tofino9"; known: bmv2, tofino-stratum, tofino-legacy`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{"daemon", "--state-dir", filepath.Join(dir, "state"), "--socket", filepath.Join(dir, "b.sock"),
				"--switch", "127.0.0.1:1", "--switch-gnmi", "", "--telemetry", "", "--metrics", "", "--log-level", "error"}, tt.args...)
			r := runCLI(t, "", args...)
			assert.Equal(t, exitError, r.code, "stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
			assert.Contains(t, r.stderr, tt.want)
		})
	}
}

// TestDaemonPushesTofinoPipeline runs the daemon with a Tofino pipeline
// against the software switch (which accepts any device config with the
// balancer's P4Info) and reads back what was pushed: the compiler output
// packed as Stratum's BfPipelineConfig.
func TestDaemonPushesTofinoPipeline(t *testing.T) {
	build := tnaBuild(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	start := func(args ...string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var out, errb bytes.Buffer
			if code := run(ctx, args, strings.NewReader(""), &out, &errb); code != exitOK && ctx.Err() == nil {
				t.Errorf("balancer %s exited %d: %s", strings.Join(args, " "), code, errb.String())
			}
		}()
	}
	t.Cleanup(func() { cancel(); wg.Wait() })
	p4rt := freeAddr(t)
	dir := t.TempDir()
	start("sim", "--from-config", "../../../../examples/site.yaml", "--p4rt", p4rt, "--gnmi", "", "--log-level", "warn")
	start("daemon", "--config", "../../../../examples/site.yaml", "--state-dir", filepath.Join(dir, "state"), "--socket", filepath.Join(dir, "b.sock"),
		"--switch", p4rt, "--switch-gnmi", "", "--telemetry", "", "--metrics", "", "--log-level", "warn",
		"--pipeline-format", "tofino-stratum", "--device-config", build)

	conn, err := grpc.NewClient(p4rt, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer conn.Close()
	rt := p4v1.NewP4RuntimeClient(conn)
	var got *p4v1.ForwardingPipelineConfig
	require.Eventually(t, func() bool {
		c, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		resp, err := rt.GetForwardingPipelineConfig(c, &p4v1.GetForwardingPipelineConfigRequest{DeviceId: 1,
			ResponseType: p4v1.GetForwardingPipelineConfigRequest_ALL})
		if err != nil || len(resp.GetConfig().GetP4DeviceConfig()) == 0 {
			return false
		}
		got = resp.GetConfig()
		return true
	}, 30*time.Second, 50*time.Millisecond, "the daemon pushes a pipeline")
	assert.Equal(t, "tna", got.GetP4Info().GetPkgInfo().GetArch())
	bf, err := tofino.UnmarshalPipelineConfig(got.GetP4DeviceConfig())
	require.NoError(t, err)
	assert.Equal(t, "balancer", bf.P4Name)
	assert.Equal(t, `{"schema_version":"1.0.0","tables":[]}`, string(bf.BfRuntimeInfo))
	require.Len(t, bf.Profiles, 1)
	assert.Equal(t, "pipe", bf.Profiles[0].Name)
	assert.Equal(t, []byte("\x00\x01tofino"), bf.Profiles[0].Binary)
	assert.Equal(t, `{"program_name":"balancer"}`, string(bf.Profiles[0].Context))
	assert.Equal(t, []uint32{0, 1, 2, 3}, bf.Profiles[0].PipeScope)
}
