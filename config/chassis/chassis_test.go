package chassis_test

import (
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/config/chassis"
)

// stratumCommon describes the part of Stratum's ChassisConfig the
// balancer writes, with the field numbers and enum values of
// stratum/hal/lib/common/common.proto at stratum/stratum commit
// f8f71301cb602ac663818f2b185d57771b27d8e2 (the file last changed in
// f24b65c5dcf4a88ff5e9827aac898bf5d75016b6). It is written here from that
// file, not generated from the renderer, so a wrong number or name in the
// rendered text fails to decode.
func stratumCommon(t *testing.T) protoreflect.MessageDescriptor {
	t.Helper()
	opt := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum()
	rep := descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum()
	field := func(name string, num int32, typ descriptorpb.FieldDescriptorProto_Type, typeName string, label *descriptorpb.FieldDescriptorProto_Label) *descriptorpb.FieldDescriptorProto {
		f := &descriptorpb.FieldDescriptorProto{Name: proto.String(name), Number: proto.Int32(num), Type: typ.Enum(), Label: label}
		if typeName != "" {
			f.TypeName = proto.String(".stratum.hal." + typeName)
		}
		return f
	}
	const (
		tMsg  = descriptorpb.FieldDescriptorProto_TYPE_MESSAGE
		tEnum = descriptorpb.FieldDescriptorProto_TYPE_ENUM
		tStr  = descriptorpb.FieldDescriptorProto_TYPE_STRING
		tU64  = descriptorpb.FieldDescriptorProto_TYPE_UINT64
		tU32  = descriptorpb.FieldDescriptorProto_TYPE_UINT32
		tI32  = descriptorpb.FieldDescriptorProto_TYPE_INT32
	)
	enum := func(name string, values ...any) *descriptorpb.EnumDescriptorProto {
		e := &descriptorpb.EnumDescriptorProto{Name: proto.String(name)}
		for i := 0; i < len(values); i += 2 {
			e.Value = append(e.Value, &descriptorpb.EnumValueDescriptorProto{Name: proto.String(values[i].(string)), Number: proto.Int32(int32(values[i+1].(int)))})
		}
		return e
	}
	fd := &descriptorpb.FileDescriptorProto{
		Name:    proto.String("stratum/hal/lib/common/common.proto"),
		Package: proto.String("stratum.hal"),
		Syntax:  proto.String("proto3"),
		EnumType: []*descriptorpb.EnumDescriptorProto{
			enum("TriState", "TRI_STATE_UNKNOWN", 0, "TRI_STATE_TRUE", 1, "TRI_STATE_FALSE", 2),
			enum("Platform", "PLT_UNKNOWN", 0, "PLT_P4_SOFT_SWITCH", 10, "PLT_GENERIC_BAREFOOT_TOFINO", 14, "PLT_GENERIC_BAREFOOT_TOFINO2", 15),
			enum("FecMode", "FEC_MODE_UNKNOWN", 0, "FEC_MODE_ON", 1, "FEC_MODE_OFF", 2, "FEC_MODE_AUTO", 3),
			enum("AdminState", "ADMIN_STATE_UNKNOWN", 0, "ADMIN_STATE_ENABLED", 1, "ADMIN_STATE_DISABLED", 2, "ADMIN_STATE_DIAG", 3),
		},
		MessageType: []*descriptorpb.DescriptorProto{
			{Name: proto.String("PortConfigParams"), Field: []*descriptorpb.FieldDescriptorProto{
				field("admin_state", 1, tEnum, "AdminState", opt),
				field("mtu", 2, tI32, "", opt),
				field("autoneg", 3, tEnum, "TriState", opt),
				field("fec_mode", 6, tEnum, "FecMode", opt),
			}},
			{Name: proto.String("Chassis"), Field: []*descriptorpb.FieldDescriptorProto{
				field("platform", 1, tEnum, "Platform", opt),
				field("name", 2, tStr, "", opt),
			}},
			{Name: proto.String("Node"), Field: []*descriptorpb.FieldDescriptorProto{
				field("id", 1, tU64, "", opt),
				field("name", 2, tStr, "", opt),
				field("slot", 3, tI32, "", opt),
				field("index", 4, tI32, "", opt),
			}},
			{Name: proto.String("SingletonPort"), Field: []*descriptorpb.FieldDescriptorProto{
				field("id", 1, tU32, "", opt),
				field("name", 2, tStr, "", opt),
				field("slot", 3, tI32, "", opt),
				field("port", 4, tI32, "", opt),
				field("channel", 5, tI32, "", opt),
				field("speed_bps", 6, tU64, "", opt),
				field("config_params", 8, tMsg, "PortConfigParams", opt),
				field("node", 9, tU64, "", opt),
			}},
			{Name: proto.String("ChassisConfig"), Field: []*descriptorpb.FieldDescriptorProto{
				field("description", 1, tStr, "", opt),
				field("chassis", 2, tMsg, "Chassis", opt),
				field("nodes", 3, tMsg, "Node", rep),
				field("singleton_ports", 4, tMsg, "SingletonPort", rep),
			}},
		},
	}
	f, err := protodesc.NewFile(fd, nil)
	require.NoError(t, err)
	return f.Messages().ByName("ChassisConfig")
}

// decode reads rendered text as a ChassisConfig and returns it as the
// fields the test checks.
type singleton struct {
	ID                  uint32
	Name                string
	Slot, Port, Channel int32
	Speed, Node         uint64
	Admin, Autoneg, FEC string
	MTU                 int32
}

func decode(t *testing.T, text []byte) (platform string, nodes []uint64, ports []singleton) {
	t.Helper()
	md := stratumCommon(t)
	m := dynamicpb.NewMessage(md)
	require.NoError(t, prototext.Unmarshal(text, m), "%s", text)
	enumName := func(m protoreflect.Message, f string) string {
		fd := m.Descriptor().Fields().ByName(protoreflect.Name(f))
		return string(fd.Enum().Values().ByNumber(m.Get(fd).Enum()).Name())
	}
	get := func(m protoreflect.Message, f string) protoreflect.Value {
		return m.Get(m.Descriptor().Fields().ByName(protoreflect.Name(f)))
	}
	platform = enumName(get(m, "chassis").Message(), "platform")
	for i, l := 0, get(m, "nodes").List(); i < l.Len(); i++ {
		nodes = append(nodes, get(l.Get(i).Message(), "id").Uint())
	}
	for i, l := 0, get(m, "singleton_ports").List(); i < l.Len(); i++ {
		p := l.Get(i).Message()
		cp := get(p, "config_params").Message()
		ports = append(ports, singleton{
			ID: uint32(get(p, "id").Uint()), Name: get(p, "name").String(),
			Slot: int32(get(p, "slot").Int()), Port: int32(get(p, "port").Int()), Channel: int32(get(p, "channel").Int()),
			Speed: get(p, "speed_bps").Uint(), Node: get(p, "node").Uint(),
			Admin: enumName(cp, "admin_state"), Autoneg: enumName(cp, "autoneg"), FEC: enumName(cp, "fec_mode"),
			MTU: int32(get(cp, "mtu").Int()),
		})
	}
	return platform, nodes, ports
}

const examplePath = "../../examples/site.yaml"

func TestRenderExampleSiteOnWedge100BF(t *testing.T) {
	data, err := os.ReadFile(examplePath)
	require.NoError(t, err)
	raw, err := config.Decode(data)
	require.NoError(t, err)
	raw.Platform = config.PlatformWedge100B
	out, err := raw.Marshal()
	require.NoError(t, err)
	c, err := config.Parse(out)
	require.NoError(t, err)

	text, err := chassis.Render(c, 1)
	require.NoError(t, err)
	platform, nodes, ports := decode(t, text)
	assert.Equal(t, "PLT_GENERIC_BAREFOOT_TOFINO", platform)
	assert.Equal(t, []uint64{1}, nodes)

	// Every port and every lane of the site, with its speed, from the
	// site's ports list (not from the renderer).
	type want struct {
		speed   uint64
		fec     string
		channel int32
	}
	wantPorts := map[string]want{}
	for _, d := range c.Ports {
		bps := map[string]uint64{"10G": 10e9, "25G": 25e9, "40G": 40e9, "50G": 50e9, "100G": 100e9}[d.Speed]
		fec := map[string]string{"10G": "FEC_MODE_OFF", "100G": "FEC_MODE_ON"}[d.Speed]
		if d.Breakout == 4 {
			for l := int32(1); l <= 4; l++ {
				wantPorts[config.PortName{Port: d.Port, Lane: uint32(l)}.Key()] = want{bps, fec, l}
			}
		} else {
			wantPorts[config.PortName{Port: d.Port}.Key()] = want{bps, fec, 0}
		}
	}
	require.Len(t, wantPorts, 12, "examples/site.yaml: 4 lanes of port 4 and 8 whole ports")
	require.Len(t, ports, len(wantPorts))
	ids := map[uint32]bool{}
	for _, p := range ports {
		w, ok := wantPorts[p.Name]
		require.True(t, ok, "port %s is not in the site", p.Name)
		delete(wantPorts, p.Name)
		assert.Equal(t, w.speed, p.Speed, p.Name)
		assert.Equal(t, w.channel, p.Channel, p.Name)
		assert.Equal(t, w.fec, p.FEC, p.Name)
		assert.Equal(t, int32(1), p.Slot, p.Name)
		assert.Equal(t, uint64(1), p.Node, p.Name)
		assert.Equal(t, "ADMIN_STATE_ENABLED", p.Admin, p.Name)
		assert.Equal(t, "TRI_STATE_FALSE", p.Autoneg, p.Name)
		assert.Equal(t, int32(9216), p.MTU, p.Name)
		assert.NotZero(t, p.ID, p.Name)
		assert.NotEqual(t, uint32(0xFD), p.ID, "Stratum's reserved CPU port id")
		assert.False(t, ids[p.ID], "id %d twice", p.ID)
		ids[p.ID] = true
	}
	assert.Empty(t, wantPorts, "ports missing from the chassis config")
	// The lanes of port 4 are channels 1..4 of front-panel port 4.
	for _, p := range ports {
		if p.Name == "4/3" {
			assert.Equal(t, singleton{ID: 403, Name: "4/3", Slot: 1, Port: 4, Channel: 3, Speed: 10e9, Node: 1,
				Admin: "ADMIN_STATE_ENABLED", Autoneg: "TRI_STATE_FALSE", FEC: "FEC_MODE_OFF", MTU: 9216}, p)
		}
	}
}

func TestRenderSettings(t *testing.T) {
	c, err := config.Parse([]byte(`
platform: wedge100bf-32x
ports:
  - {port: 7, speed: 25G, breakout: 4, fec: none, autoneg: true, mtu: 1500, enabled: false}
  - {port: 3, speed: 40G, fec: fc}
`))
	require.NoError(t, err)
	text, err := chassis.Render(c, 7)
	require.NoError(t, err)
	_, nodes, ports := decode(t, text)
	assert.Equal(t, []uint64{7}, nodes)
	require.Len(t, ports, 5)
	assert.Equal(t, singleton{ID: 300, Name: "3/0", Slot: 1, Port: 3, Speed: 40e9, Node: 7,
		Admin: "ADMIN_STATE_ENABLED", Autoneg: "TRI_STATE_FALSE", FEC: "FEC_MODE_ON", MTU: 9216}, ports[0], "front-panel order")
	for i, p := range ports[1:] {
		assert.Equal(t, singleton{ID: 701 + uint32(i), Name: config.PortName{Port: 7, Lane: uint32(i + 1)}.Key(), Slot: 1, Port: 7, Channel: int32(i + 1),
			Speed: 25e9, Node: 7, Admin: "ADMIN_STATE_DISABLED", Autoneg: "TRI_STATE_TRUE", FEC: "FEC_MODE_OFF", MTU: 1500}, p)
	}
}

func TestRenderRefuses(t *testing.T) {
	c, err := config.Parse([]byte("platform: sim\nports: [{port: 9, speed: 100G}]\n"))
	require.NoError(t, err)
	_, err = chassis.Render(c, 1)
	assert.True(t, errors.Is(err, chassis.ErrNoChassis))
	assert.ErrorContains(t, err, "platform sim is not run by Stratum")

	c.Platform = config.PlatformWedge100B
	_, err = chassis.Render(c, 0)
	assert.ErrorContains(t, err, "node id 0")
}
