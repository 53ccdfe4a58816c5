package p4src

import (
	"slices"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	"google.golang.org/protobuf/proto"
)

// HasCPUPortSetting says whether the program takes the switch's CPU port
// at run time: the parser's cpu_port value set (packet-outs) and the
// switch_info table, whose default action set_switch_info names the port
// packet-ins leave by. A program built before it has the compiled-in
// port only (CompiledCPUPort).
func (s *Schema) HasCPUPortSetting() bool {
	if _, err := s.ValueSet(ValueSetCPUPort); err != nil {
		return false
	}
	if _, err := s.Table(TableSwitchInfo); err != nil {
		return false
	}
	a, err := s.Action(ActionSwitchInfo)
	if err != nil {
		return false
	}
	_, err = a.Param(ParamCPUPort)
	return err == nil
}

// CompiledCPUPort is the CPU port the program was compiled with (the
// packet-in port until the controller sets another, and a packet-out port
// always): CPUPortTofino for a TNA build, CPUPortBMv2 otherwise.
func (s *Schema) CompiledCPUPort() uint32 {
	if s.Info.GetPkgInfo().GetArch() == "tna" {
		return CPUPortTofino
	}
	return CPUPortBMv2
}

// hasCPUPortSetting is HasCPUPortSetting on a bare P4Info: the switch_info
// table is there.
func hasCPUPortSetting(info *p4configv1.P4Info) bool {
	for _, t := range info.GetTables() {
		if t.GetPreamble().GetName() == TableSwitchInfo {
			return true
		}
	}
	return false
}

// WithoutCPUPortSetting is a copy of info without the run-time CPU port's
// objects (the cpu_port value set, the switch_info table and its action):
// what a build of the program made before that setting holds.
func WithoutCPUPortSetting(info *p4configv1.P4Info) *p4configv1.P4Info {
	out := proto.Clone(info).(*p4configv1.P4Info)
	out.Tables = slices.DeleteFunc(out.Tables, func(t *p4configv1.Table) bool { return t.GetPreamble().GetName() == TableSwitchInfo })
	out.Actions = slices.DeleteFunc(out.Actions, func(a *p4configv1.Action) bool { return a.GetPreamble().GetName() == ActionSwitchInfo })
	out.ValueSets = slices.DeleteFunc(out.ValueSets, func(v *p4configv1.ValueSet) bool { return v.GetPreamble().GetName() == ValueSetCPUPort })
	return out
}
