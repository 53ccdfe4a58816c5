package daemoncmd

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/dpi-balancer/balancer/daemon/pipeline"
)

// pipelineFlags choose the pipeline the daemon pushes to the switch.
type pipelineFlags struct {
	format, p4info, deviceConfig, programName string
}

func (p *pipelineFlags) register(f *pflag.FlagSet) {
	f.StringVar(&p.format, "pipeline-format", "", "device config format: "+strings.Join(pipeline.Formats(), ", ")+
		" (default: the site platform's: bmv2 for sim and bmv2, tofino-stratum for wedge100bf-32x)")
	f.StringVar(&p.p4info, "p4info", "", "P4Info file (default: the embedded v1model one for bmv2; for Tofino the one in --device-config's directory)")
	f.StringVar(&p.deviceConfig, "device-config", "", "BMv2 JSON file (bmv2; default the embedded one), or bf-p4c's output directory (Tofino: packed for Stratum) or an already packed file")
	f.StringVar(&p.programName, "p4-program-name", "", `program name of the bf-p4c output (without a .conf: default "balancer"; with one: must be the one it names)`)
}

// source is where the daemon takes the pipeline from; the daemon sets
// the platform, the one of the site it runs.
func (p *pipelineFlags) source() *pipeline.Source {
	return &pipeline.Source{Format: pipeline.Format(p.format), P4Info: p.p4info, DeviceConfig: p.deviceConfig, ProgramName: p.programName}
}
