package pipeline

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/tofino"
)

// Every built-in platform names a format this package loads.
func TestEveryPlatformHasAFormat(t *testing.T) {
	for _, name := range config.Platforms() {
		p, err := config.LookupPlatform(name)
		require.NoError(t, err)
		assert.Contains(t, Formats(), p.PipelineFormat, name)
		f, err := ForPlatform(name)
		require.NoError(t, err, name)
		assert.Equal(t, Format(p.PipelineFormat), f)
	}
}

func TestForPlatform(t *testing.T) {
	for platform, want := range map[string]Format{"": FormatBMv2, "sim": FormatBMv2, "bmv2": FormatBMv2, "wedge100bf-32x": FormatTofinoStratum} {
		got, err := ForPlatform(platform)
		require.NoError(t, err, platform)
		assert.Equal(t, want, got, platform)
	}
	_, err := ForPlatform("tofino9")
	assert.ErrorIs(t, err, ErrPipeline)
	assert.ErrorContains(t, err, `unknown platform "tofino9"; known: bmv2, sim, wedge100bf-32x`)
}

// tnaP4Info is the TNA P4Info bf-p4c made of p4src/tna (committed by make
// p4-tna): the contract's names, its own architecture, sizes and extern ids.
func tnaP4Info(t *testing.T) *p4configv1.P4Info {
	text, err := os.ReadFile("../../p4src/build/tofino/balancer.p4info.txtpb")
	require.NoError(t, err)
	s, err := p4src.ParseSchema(text)
	require.NoError(t, err)
	require.Equal(t, "tna", s.Info.GetPkgInfo().GetArch())
	return s.Info
}

func writeText(t *testing.T, path string, info *p4configv1.P4Info) {
	t.Helper()
	data, err := prototext.Marshal(info)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, data, 0o644))
}

// compilerOutput writes what bf-p4c -o DIR --p4runtime-files
// DIR/balancer.p4info.txtpb leaves for our purpose.
func compilerOutput(t *testing.T, info *p4configv1.P4Info) string {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "pipe"), 0o755))
	for name, data := range map[string]string{
		"bfrt.json":         `{"schema_version":"1.0.0"}`,
		"pipe/context.json": `{"program_name":"balancer"}`,
		"pipe/tofino.bin":   "\x00tofino binary\xff",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644))
	}
	writeText(t, filepath.Join(dir, "balancer.p4info.txtpb"), info)
	return dir
}

func TestLoadEmbedded(t *testing.T) {
	s, err := p4src.Load()
	require.NoError(t, err)
	for _, platform := range []string{"", "sim", "bmv2"} {
		p, err := Load(Source{Platform: platform})
		require.NoError(t, err, platform)
		assert.Equal(t, FormatBMv2, p.Format)
		assert.Same(t, s.Info, p.P4Info)
		assert.Equal(t, p4src.BMv2JSON, p.DeviceConfig)
		assert.Equal(t, "embedded v1model build", p.P4InfoFrom)
	}
}

func TestLoadBMv2Files(t *testing.T) {
	s, err := p4src.Load()
	require.NoError(t, err)
	dir := t.TempDir()
	p4info, js := filepath.Join(dir, "b.p4info.txtpb"), filepath.Join(dir, "b.json")
	writeText(t, p4info, s.Info)
	require.NoError(t, os.WriteFile(js, p4src.BMv2JSON, 0o644))
	p, err := Load(Source{Platform: "bmv2", P4Info: p4info, DeviceConfig: js})
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff(s.Info, p.P4Info, protocmp.Transform()))
	assert.Equal(t, p4src.BMv2JSON, p.DeviceConfig)
	assert.Equal(t, p4info, p.P4InfoFrom)

	bin := filepath.Join(dir, "b.p4info.bin")
	data, err := proto.Marshal(s.Info)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(bin, data, 0o644))
	p, err = Load(Source{Format: FormatBMv2, P4Info: bin, DeviceConfig: js})
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff(s.Info, p.P4Info, protocmp.Transform()))

	notJSON := filepath.Join(dir, "x.json")
	require.NoError(t, os.WriteFile(notJSON, []byte("\x00\x01"), 0o644))
	for name, tt := range map[string]struct {
		src  Source
		want string
	}{
		"p4info alone":        {Source{P4Info: p4info}, "needs the BMv2 JSON of the same compilation: give --device-config"},
		"device config alone": {Source{DeviceConfig: js}, "needs the P4Info of the same compilation: give --p4info"},
		"not JSON":            {Source{P4Info: p4info, DeviceConfig: notJSON}, "is not JSON"},
		"no such file":        {Source{P4Info: filepath.Join(dir, "nope"), DeviceConfig: js}, "no such file"},
		"unknown format":      {Source{Format: "tofino9"}, `unknown format "tofino9"; known: bmv2, tofino-stratum, tofino-legacy`},
		"tna p4info on bmv2": {func() Source {
			p := filepath.Join(dir, "tna.txtpb")
			writeText(t, p, tnaP4Info(t))
			return Source{P4Info: p, DeviceConfig: js}
		}(), "is of a tna build; format bmv2 takes the v1model build"},
	} {
		_, err := Load(tt.src)
		assert.ErrorIs(t, err, ErrPipeline, name)
		assert.ErrorContains(t, err, tt.want, name)
	}
}

func TestLoadTofino(t *testing.T) {
	info := tnaP4Info(t)
	dir := compilerOutput(t, info)
	want := &tofino.PipelineConfig{P4Name: "balancer", BfRuntimeInfo: []byte(`{"schema_version":"1.0.0"}`), Profiles: []tofino.Profile{
		{Name: "pipe", Context: []byte(`{"program_name":"balancer"}`), Binary: []byte("\x00tofino binary\xff"), PipeScope: []uint32{0, 1, 2, 3}},
	}}

	t.Run("stratum by platform, P4Info from the output directory", func(t *testing.T) {
		p, err := Load(Source{Platform: "wedge100bf-32x", DeviceConfig: dir})
		require.NoError(t, err)
		assert.Equal(t, FormatTofinoStratum, p.Format)
		assert.Empty(t, cmp.Diff(info, p.P4Info, protocmp.Transform()))
		assert.Equal(t, filepath.Join(dir, "balancer.p4info.txtpb"), p.P4InfoFrom)
		got, err := tofino.UnmarshalPipelineConfig(p.DeviceConfig)
		require.NoError(t, err)
		assert.Empty(t, cmp.Diff(want, got))

		// The packed file, given back, is pushed as it is.
		packed := filepath.Join(t.TempDir(), "device_config.pb.bin")
		require.NoError(t, os.WriteFile(packed, p.DeviceConfig, 0o644))
		again, err := Load(Source{Platform: "wedge100bf-32x", DeviceConfig: packed, P4Info: p.P4InfoFrom})
		require.NoError(t, err)
		assert.Equal(t, p.DeviceConfig, again.DeviceConfig)
	})
	t.Run("legacy by flag on any platform", func(t *testing.T) {
		p, err := Load(Source{Platform: "sim", Format: FormatTofinoLegacy, DeviceConfig: dir})
		require.NoError(t, err)
		name, bin, ctx, err := tofino.UnpackLegacy(p.DeviceConfig)
		require.NoError(t, err)
		assert.Equal(t, "balancer", name)
		assert.Equal(t, want.Profiles[0].Binary, bin)
		assert.Equal(t, want.Profiles[0].Context, ctx)
	})

	garbage := filepath.Join(t.TempDir(), "garbage.bin")
	require.NoError(t, os.WriteFile(garbage, []byte("\xff\xff\xff"), 0o644))
	v1 := filepath.Join(t.TempDir(), "v1.txtpb")
	s, err := p4src.Load()
	require.NoError(t, err)
	writeText(t, v1, s.Info)
	noP4Info := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(noP4Info, "pipe"), 0o755))
	for name, tt := range map[string]struct {
		src  Source
		want string
	}{
		"no device config":    {Source{Platform: "wedge100bf-32x"}, "needs the Tofino build: give --device-config DIR"},
		"no p4info":           {Source{Platform: "wedge100bf-32x", DeviceConfig: noP4Info}, "needs the TNA P4Info: give --p4info"},
		"not packed":          {Source{Platform: "wedge100bf-32x", DeviceConfig: garbage, P4Info: filepath.Join(dir, "balancer.p4info.txtpb")}, "is not a packed BfPipelineConfig"},
		"not legacy":          {Source{Format: FormatTofinoLegacy, DeviceConfig: garbage, P4Info: filepath.Join(dir, "balancer.p4info.txtpb")}, "legacy layout"},
		"v1model p4info":      {Source{Platform: "wedge100bf-32x", DeviceConfig: dir, P4Info: v1}, "is of a v1model build; format tofino-stratum takes the tna build"},
		"missing device path": {Source{Platform: "wedge100bf-32x", DeviceConfig: filepath.Join(dir, "nope")}, "no such file"},
	} {
		_, err := Load(tt.src)
		assert.ErrorIs(t, err, ErrPipeline, name)
		assert.ErrorContains(t, err, tt.want, name)
	}
}

// TestLoadRefusesContractBreak: a P4Info whose names or ids differ from
// the v1model build's is refused with the first difference named.
func TestLoadRefusesContractBreak(t *testing.T) {
	info := tnaP4Info(t)
	for _, tb := range info.GetTables() {
		if tb.GetPreamble().GetName() == p4src.TableFilterGroups {
			tb.Preamble.Name = "pipe.BalancerIngress.filter_groups"
		}
	}
	dir := compilerOutput(t, info)
	_, err := Load(Source{Platform: "wedge100bf-32x", DeviceConfig: dir})
	require.Error(t, err)
	assert.ErrorIs(t, err, p4src.ErrContract)
	assert.Contains(t, err.Error(), `balancer.p4info.txtpb: p4info: table "BalancerIngress.filter_groups": missing (the v1model build has it with id 0x2000007)`)
}

// The session memory (sessions.enabled): the embedded sessions build for
// BMv2; a P4Info given without the sessions table is refused, naming the
// build to give.
func TestLoadSessions(t *testing.T) {
	p, err := Load(Source{Format: FormatBMv2, Sessions: true})
	require.NoError(t, err)
	assert.True(t, (&p4src.Schema{Info: p.P4Info}).HasSessions())
	assert.Equal(t, p4src.SessionsBMv2JSON, p.DeviceConfig)
	assert.Equal(t, "embedded v1model sessions build", p.P4InfoFrom)

	_, err = Load(Source{Platform: "wedge100bf-32x", DeviceConfig: compilerOutput(t, tnaP4Info(t)), Sessions: true})
	require.ErrorIs(t, err, ErrPipeline)
	assert.ErrorContains(t, err, "has no table BalancerIngress.sessions")
	assert.ErrorContains(t, err, "p4src/build/tofino-sessions")

	tna, err := os.ReadFile("../../p4src/build/tofino-sessions/balancer.p4info.txtpb")
	require.NoError(t, err)
	info := &p4configv1.P4Info{}
	require.NoError(t, prototext.Unmarshal(tna, info))
	p, err = Load(Source{Platform: "wedge100bf-32x", DeviceConfig: compilerOutput(t, info), Sessions: true})
	require.NoError(t, err, "the TNA sessions build")
	assert.True(t, (&p4src.Schema{Info: p.P4Info}).HasSessions())
}
