package tofino

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

// bfProto is stratum/hal/lib/barefoot/bf.proto's BfPipelineConfig, built
// as a descriptor so that the protobuf library itself checks the encoding.
func bfProto(t *testing.T) protoreflect.MessageDescriptor {
	t.Helper()
	str, byt, u32 := descriptorpb.FieldDescriptorProto_TYPE_STRING.Enum(), descriptorpb.FieldDescriptorProto_TYPE_BYTES.Enum(), descriptorpb.FieldDescriptorProto_TYPE_UINT32.Enum()
	msg := descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum()
	opt, rep := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(), descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum()
	field := func(name string, num int32, typ *descriptorpb.FieldDescriptorProto_Type, label *descriptorpb.FieldDescriptorProto_Label, typeName string) *descriptorpb.FieldDescriptorProto {
		f := &descriptorpb.FieldDescriptorProto{Name: proto.String(name), Number: proto.Int32(num), Type: typ, Label: label, JsonName: proto.String(name)}
		if typeName != "" {
			f.TypeName = proto.String(typeName)
		}
		return f
	}
	fd := &descriptorpb.FileDescriptorProto{
		Name:    proto.String("stratum/hal/lib/barefoot/bf.proto"),
		Package: proto.String("stratum.hal.barefoot"),
		Syntax:  proto.String("proto3"),
		MessageType: []*descriptorpb.DescriptorProto{{
			Name: proto.String("BfPipelineConfig"),
			Field: []*descriptorpb.FieldDescriptorProto{
				field("p4_name", 1, str, opt, ""),
				field("bfruntime_info", 2, byt, opt, ""),
				field("profiles", 3, msg, rep, ".stratum.hal.barefoot.BfPipelineConfig.Profile"),
			},
			NestedType: []*descriptorpb.DescriptorProto{{
				Name: proto.String("Profile"),
				Field: []*descriptorpb.FieldDescriptorProto{
					field("profile_name", 1, str, opt, ""),
					field("context", 2, byt, opt, ""),
					field("binary", 3, byt, opt, ""),
					field("pipe_scope", 4, u32, rep, ""),
				},
			}},
		}},
	}
	f, err := protodesc.NewFile(fd, nil)
	require.NoError(t, err)
	return f.Messages().ByName("BfPipelineConfig")
}

func sample() *PipelineConfig {
	return &PipelineConfig{
		P4Name:        "balancer",
		BfRuntimeInfo: []byte(`{"schema_version":"1.0.0","tables":[]}`),
		Profiles: []Profile{
			{Name: "pipe", Context: []byte(`{"program_name":"balancer"}`), Binary: []byte{0, 1, 2, 0xff, 0x80}, PipeScope: []uint32{0, 1, 2, 3}},
			{Name: "pipe1", Context: []byte(`{}`), Binary: []byte{9}, PipeScope: []uint32{200}},
		},
	}
}

func TestPipelineConfigRoundTrip(t *testing.T) {
	for _, c := range []*PipelineConfig{sample(), {P4Name: "x", Profiles: []Profile{{Name: "pipe", Context: []byte("c"), Binary: []byte("b")}}}} {
		got, err := UnmarshalPipelineConfig(c.Marshal())
		require.NoError(t, err)
		assert.Empty(t, cmp.Diff(c, got))
	}
}

// TestPipelineConfigWireFormat checks the encoding against the protobuf
// library's, for a message built from bf.proto's descriptor: the same
// bytes, and each side reads the other's.
func TestPipelineConfigWireFormat(t *testing.T) {
	md := bfProto(t)
	c := sample()
	m := dynamicpb.NewMessage(md)
	m.Set(md.Fields().ByName("p4_name"), protoreflect.ValueOfString(c.P4Name))
	m.Set(md.Fields().ByName("bfruntime_info"), protoreflect.ValueOfBytes(c.BfRuntimeInfo))
	profiles := m.Mutable(md.Fields().ByName("profiles")).List()
	pd := md.Fields().ByName("profiles").Message()
	for _, p := range c.Profiles {
		pm := dynamicpb.NewMessage(pd)
		pm.Set(pd.Fields().ByName("profile_name"), protoreflect.ValueOfString(p.Name))
		pm.Set(pd.Fields().ByName("context"), protoreflect.ValueOfBytes(p.Context))
		pm.Set(pd.Fields().ByName("binary"), protoreflect.ValueOfBytes(p.Binary))
		scope := pm.Mutable(pd.Fields().ByName("pipe_scope")).List()
		for _, s := range p.PipeScope {
			scope.Append(protoreflect.ValueOfUint32(s))
		}
		profiles.Append(protoreflect.ValueOfMessage(pm))
	}
	want, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	require.NoError(t, err)
	assert.Equal(t, want, c.Marshal(), "same bytes as the protobuf library")

	back := dynamicpb.NewMessage(md)
	require.NoError(t, proto.Unmarshal(c.Marshal(), back))
	assert.True(t, proto.Equal(m, back), "the protobuf library reads ours")

	// Unpacked pipe_scope (proto2 writers) reads the same.
	pm := dynamicpb.NewMessage(pd)
	pm.Set(pd.Fields().ByName("profile_name"), protoreflect.ValueOfString("pipe"))
	b, err := proto.Marshal(pm)
	require.NoError(t, err)
	b = append(b, 0x20, 0x02, 0x20, 0x03) // field 4 varint 2, field 4 varint 3
	p, err := unmarshalProfile(b)
	require.NoError(t, err)
	assert.Equal(t, []uint32{2, 3}, p.PipeScope)
}

func TestUnmarshalPipelineConfigErrors(t *testing.T) {
	good := sample().Marshal()
	for _, n := range []int{1, 5, len(good) - 1} {
		_, err := UnmarshalPipelineConfig(good[:n])
		assert.ErrorIs(t, err, ErrFormat, "truncated at %d", n)
	}
	_, err := UnmarshalPipelineConfig([]byte("{\"json\": true}"))
	assert.ErrorIs(t, err, ErrFormat)
}

func TestValidate(t *testing.T) {
	assert.NoError(t, sample().Validate())
	for name, change := range map[string]func(*PipelineConfig){
		"no program name":     func(c *PipelineConfig) { c.P4Name = "" },
		"has no pipeline":     func(c *PipelineConfig) { c.Profiles = nil },
		"has no name":         func(c *PipelineConfig) { c.Profiles[1].Name = "" },
		"has no context.json": func(c *PipelineConfig) { c.Profiles[0].Context = nil },
		"has no binary":       func(c *PipelineConfig) { c.Profiles[0].Binary = nil },
	} {
		c := sample()
		change(c)
		err := c.Validate()
		assert.ErrorIs(t, err, ErrFormat, name)
		assert.ErrorContains(t, err, name)
	}
}

func TestLegacyRoundTrip(t *testing.T) {
	bin, ctx := []byte{0xde, 0xad, 0xbe, 0xef, 0}, []byte(`{"a":1}`)
	data, err := PackLegacy("balancer", bin, ctx)
	require.NoError(t, err)
	// <8 LE>balancer<5 LE><bin><7 LE><ctx><0 LE>: the loader reads a
	// fourth length (the pipeline name's) whatever the buffer holds.
	want := append([]byte{8, 0, 0, 0}, "balancer"...)
	want = append(append(want, 5, 0, 0, 0), bin...)
	want = append(append(want, 7, 0, 0, 0), ctx...)
	want = append(want, 0, 0, 0, 0)
	assert.Equal(t, want, data)
	name, gotBin, gotCtx, err := UnpackLegacy(data)
	require.NoError(t, err)
	assert.Equal(t, "balancer", name)
	assert.Equal(t, bin, gotBin)
	assert.Equal(t, ctx, gotCtx)

	for _, bad := range [][]byte{data[:3], data[:10], data[:len(data)-1], append(data, 0), {0xff, 0xff, 0xff, 0x7f}} {
		_, _, _, err := UnpackLegacy(bad)
		assert.ErrorIs(t, err, ErrFormat)
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
	}
}

func TestLoadCompilerOutput(t *testing.T) {
	outputs := map[string]string{
		"bfrt.json":         `{"tables":[]}`,
		"pipe/context.json": `{"program_name":"balancer"}`,
		"pipe/tofino.bin":   "\x00\x01binary",
	}
	want := &PipelineConfig{P4Name: "balancer", BfRuntimeInfo: []byte(`{"tables":[]}`), Profiles: []Profile{
		{Name: "pipe", Context: []byte(`{"program_name":"balancer"}`), Binary: []byte("\x00\x01binary"), PipeScope: []uint32{0, 1, 2, 3}},
	}}

	t.Run("conf naming where the compiler wrote", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, outputs)
		writeFiles(t, dir, map[string]string{"balancer.conf": `{"chip_list":[{"chip_family":"tofino"}],
			"p4_devices":[{"device-id":0,"p4_programs":[{"program-name":"balancer",
			"bfrt-config":"` + dir + `/bfrt.json",
			"p4_pipelines":[{"p4_pipeline_name":"pipe","context":"` + dir + `/pipe/context.json",
			"config":"` + dir + `/pipe/tofino.bin","pipe_scope":[0,1,2,3],"path":"` + dir + `"}]}]}]}`})
		got, err := LoadCompilerOutput(dir, "balancer")
		require.NoError(t, err)
		assert.Empty(t, cmp.Diff(want, got))
		_, err = LoadCompilerOutput(dir, "fabric")
		assert.ErrorIs(t, err, ErrFormat)
		assert.ErrorContains(t, err, `balancer.conf is the output of program "balancer", not "fabric"`)
	})
	t.Run("conf naming a directory that moved", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, outputs)
		writeFiles(t, dir, map[string]string{"balancer.conf": `{"p4_devices":[{"p4_programs":[{"program-name":"balancer",
			"bfrt-config":"/build/elsewhere/bfrt.json",
			"p4_pipelines":[{"p4_pipeline_name":"pipe","context":"/build/elsewhere/pipe/context.json",
			"config":"/build/elsewhere/pipe/tofino.bin","pipe_scope":[0,2]}]}]}]}`})
		got, err := LoadCompilerOutput(dir, "")
		require.NoError(t, err)
		w := *want
		w.Profiles = []Profile{want.Profiles[0]}
		w.Profiles[0].PipeScope = []uint32{0, 2}
		assert.Empty(t, cmp.Diff(&w, got))
	})
	t.Run("conf naming files outside the directory", func(t *testing.T) {
		dir, elsewhere := t.TempDir(), t.TempDir()
		writeFiles(t, elsewhere, outputs)
		writeFiles(t, dir, map[string]string{"balancer.conf": `{"p4_devices":[{"p4_programs":[{"program-name":"balancer",
			"bfrt-config":"` + elsewhere + `/bfrt.json",
			"p4_pipelines":[{"p4_pipeline_name":"pipe","context":"` + elsewhere + `/pipe/context.json",
			"config":"` + elsewhere + `/pipe/tofino.bin","pipe_scope":[0,1,2,3]}]}]}]}`})
		got, err := LoadCompilerOutput(dir, "")
		require.NoError(t, err)
		assert.Empty(t, cmp.Diff(want, got))
	})
	t.Run("the directory's files win over the paths the conf names", func(t *testing.T) {
		dir, elsewhere := t.TempDir(), t.TempDir()
		writeFiles(t, dir, outputs)
		writeFiles(t, elsewhere, map[string]string{"bfrt.json": "other", "pipe/context.json": "other", "pipe/tofino.bin": "other"})
		writeFiles(t, dir, map[string]string{"balancer.conf": `{"p4_devices":[{"p4_programs":[{"program-name":"balancer",
			"bfrt-config":"` + elsewhere + `/bfrt.json",
			"p4_pipelines":[{"p4_pipeline_name":"pipe","context":"` + elsewhere + `/pipe/context.json",
			"config":"` + elsewhere + `/pipe/tofino.bin","pipe_scope":[0,1,2,3]}]}]}]}`})
		got, err := LoadCompilerOutput(dir, "")
		require.NoError(t, err)
		assert.Empty(t, cmp.Diff(want, got))
	})
	t.Run("no conf: the directory layout", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, outputs)
		got, err := LoadCompilerOutput(dir, "balancer")
		require.NoError(t, err)
		assert.Empty(t, cmp.Diff(want, got))
	})

	bad := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"empty directory", map[string]string{}, "no pipeline directory"},
		{"no binary", map[string]string{"pipe/context.json": "{}"}, "has a context.json but no tofino.bin"},
		{"two pipelines, no conf", map[string]string{"a/context.json": "{}", "a/tofino.bin": "x", "b/context.json": "{}", "b/tofino.bin": "x"}, "2 pipelines (a, b)"},
		{"conf with a missing file", map[string]string{"x.conf": `{"p4_devices":[{"p4_programs":[{"program-name":"balancer","p4_pipelines":[{"p4_pipeline_name":"pipe","context":"/nowhere/context.json","config":"/nowhere/tofino.bin"}]}]}]}`}, "names /nowhere/context.json, which is neither at"},
		{"conf with two programs", map[string]string{"x.conf": `{"p4_devices":[{"p4_programs":[{},{}]}]}`}, "one device with one program"},
		{"conf not JSON", map[string]string{"x.conf": `<xml/>`}, "x.conf"},
		{"two confs", map[string]string{"x.conf": `{}`, "y.conf": `{}`}, "2 .conf files"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tt.files)
			_, err := LoadCompilerOutput(dir, "balancer")
			assert.ErrorIs(t, err, ErrFormat)
			assert.ErrorContains(t, err, tt.want)
		})
	}
}
