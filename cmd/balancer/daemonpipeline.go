package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/p4src/pipeline"
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

// resolve picks the pipeline for the site the daemon will run: the
// running configuration in stateDir, else the initial one.
func (p *pipelineFlags) resolve(stateDir, cfgPath string) (*pipeline.Pipeline, error) {
	platform, err := sitePlatform(stateDir, cfgPath)
	if err != nil {
		return nil, err
	}
	return pipeline.Load(pipeline.Source{Format: pipeline.Format(p.format), Platform: platform,
		P4Info: p.p4info, DeviceConfig: p.deviceConfig, ProgramName: p.programName})
}

// sitePlatform reads the platform of the configuration the daemon will
// load. A configuration that does not parse gives "": the daemon reports
// it with its revision when it loads it.
func sitePlatform(stateDir, cfgPath string) (string, error) {
	store, err := daemon.OpenStore(stateDir)
	if err != nil {
		return "", err
	}
	defer store.Close() // the daemon takes the directory next
	data, _, err := store.Running()
	if errors.Is(err, os.ErrNotExist) {
		if cfgPath == "" {
			return "", nil
		}
		if data, err = os.ReadFile(cfgPath); err != nil {
			return "", fmt.Errorf("daemon: %w", err)
		}
	} else if err != nil {
		return "", fmt.Errorf("daemon: %w", err)
	}
	cfg, err := config.Parse(data)
	if err != nil {
		return "", nil
	}
	return cfg.Platform, nil
}
