// Package pipeline chooses the forwarding pipeline the daemon pushes to a
// switch: a P4Info and a device config in the format the target takes,
// picked by the running site's platform (the daemon resolves it once its
// store is open) or given explicitly. Every P4Info other
// than the embedded v1model one is checked against the naming contract
// first (p4src.CheckContract), so a switch never gets a program whose
// names or ids mean something else.
package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/controlplane"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/tofino"
)

// Format is a device config format.
type Format string

// The formats.
const (
	// FormatBMv2 is the BMv2 JSON of the v1model build (BMv2's
	// simple_switch_grpc; the software switch takes it too).
	FormatBMv2 Format = "bmv2"
	// FormatTofinoStratum is bf-p4c's output packed as Stratum's
	// BfPipelineConfig (stratum_bfrt; stratum_bf takes it too).
	FormatTofinoStratum Format = "tofino-stratum"
	// FormatTofinoLegacy is bf-p4c's output in PI's binary layout
	// (stratum_bf and other PI-based agents; not stratum_bfrt).
	FormatTofinoLegacy Format = "tofino-legacy"
)

// ErrPipeline is returned for a pipeline that cannot be given to the
// switch: unknown format, missing or unreadable files, a P4Info of the
// wrong architecture.
var ErrPipeline = errors.New("pipeline")

// Formats lists the format names.
func Formats() []string {
	return []string{string(FormatBMv2), string(FormatTofinoStratum), string(FormatTofinoLegacy)}
}

// ForPlatform returns the format the switch of a platform takes, as the
// platform names it (config.Platform.PipelineFormat; "" is the default
// platform).
func ForPlatform(platform string) (Format, error) {
	if platform == "" {
		platform = config.DefaultPlatform
	}
	p, err := config.LookupPlatform(platform)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrPipeline, err)
	}
	if f := Format(p.PipelineFormat); slices.Contains(Formats(), string(f)) {
		return f, nil
	}
	return "", fmt.Errorf("%w: platform %s has no pipeline format: give --pipeline-format (%s)",
		ErrPipeline, platform, strings.Join(Formats(), ", "))
}

// Source says where the pipeline comes from. Empty fields take the
// defaults documented on each.
type Source struct {
	// Format of the device config; "" = the platform's (ForPlatform).
	Format Format
	// Platform is the site's platform (config's platform:).
	Platform string
	// P4Info is a P4Info file (text format, or binary for .bin/.pb).
	// "": for bmv2, the embedded v1model P4Info; for Tofino, the P4Info
	// bf-p4c wrote into the DeviceConfig directory (*.p4info.txtpb,
	// p4info.txt, p4info.pb.txt).
	P4Info string
	// DeviceConfig is, for bmv2, a BMv2 JSON file ("": the embedded one,
	// with the embedded P4Info only). For Tofino, bf-p4c's output
	// directory (-o), packed here; or a file already packed in the
	// format, used as it is after a check.
	DeviceConfig string
	// ProgramName names the program of a compiler output directory that
	// holds no .conf ("" = "balancer"); with a .conf, it must be the one
	// the .conf names ("" = any).
	ProgramName string
	// Sessions asks for the session memory (the site's sessions.enabled,
	// docs/sessions.md): for bmv2 without files, the embedded "sessions"
	// profile; a P4Info given must have the sessions table.
	Sessions bool
}

// Pipeline is a resolved pipeline and where it came from.
type Pipeline struct {
	controlplane.Pipeline
	Format Format
	// P4InfoFrom and DeviceConfigFrom say where each part came from
	// ("embedded v1model build", a path), for the log.
	P4InfoFrom, DeviceConfigFrom string
}

// maxFile bounds a P4Info or device config file read here.
const maxFile = 512 << 20

// Load resolves src into the pipeline to push.
func Load(src Source) (*Pipeline, error) {
	format := src.Format
	if format == "" {
		f, err := ForPlatform(src.Platform)
		if err != nil {
			return nil, err
		}
		format = f
	}
	if !slices.Contains(Formats(), string(format)) {
		return nil, fmt.Errorf("%w: unknown format %q; known: %s", ErrPipeline, format, strings.Join(Formats(), ", "))
	}
	ref, err := p4src.Load()
	if err != nil {
		return nil, err
	}
	p := &Pipeline{Format: format}
	if format == FormatBMv2 {
		err = p.loadBMv2(src, ref)
	} else {
		err = p.loadTofino(src, ref)
	}
	if err != nil {
		return p, err
	}
	if src.Sessions {
		if err := CheckSessions(p.P4Info, p.P4InfoFrom); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// CheckSessions refuses a P4Info without the session memory's table for
// a site that enables it, saying which build to give.
func CheckSessions(info *p4configv1.P4Info, from string) error {
	if (&p4src.Schema{Info: info}).HasSessions() {
		return nil
	}
	return fmt.Errorf("%w: sessions.enabled is true, but the P4Info (%s) has no table %s: give the sessions profile's build "+
		"(p4src/build/v1model-sessions for BMv2, p4src/build/tofino-sessions for Tofino) with --p4info and --device-config, "+
		"or set sessions.enabled: false", ErrPipeline, from, p4src.TableSessions)
}

func (p *Pipeline) loadBMv2(src Source, ref *p4src.Schema) error {
	switch {
	case src.P4Info == "" && src.DeviceConfig == "" && src.Sessions:
		sess, err := p4src.LoadSessions()
		if err != nil {
			return err
		}
		p.P4Info, p.DeviceConfig = sess.Info, p4src.SessionsBMv2JSON
		p.P4InfoFrom, p.DeviceConfigFrom = "embedded v1model sessions build", "embedded v1model sessions build"
		return nil
	case src.P4Info == "" && src.DeviceConfig == "":
		p.P4Info, p.DeviceConfig = ref.Info, p4src.BMv2JSON
		p.P4InfoFrom, p.DeviceConfigFrom = "embedded v1model build", "embedded v1model build"
		return nil
	case src.P4Info == "":
		return fmt.Errorf("%w: --device-config %s needs the P4Info of the same compilation: give --p4info", ErrPipeline, src.DeviceConfig)
	case src.DeviceConfig == "":
		return fmt.Errorf("%w: --p4info %s needs the BMv2 JSON of the same compilation: give --device-config", ErrPipeline, src.P4Info)
	}
	if err := p.loadP4Info(src.P4Info, ref, "v1model"); err != nil {
		return err
	}
	data, err := readFile(src.DeviceConfig)
	if err != nil {
		return err
	}
	if !json.Valid(data) {
		return fmt.Errorf("%w: --device-config %s is not JSON: format bmv2 takes the BMv2 JSON p4c-bm2-ss wrote", ErrPipeline, src.DeviceConfig)
	}
	p.DeviceConfig, p.DeviceConfigFrom = data, src.DeviceConfig
	return nil
}

func (p *Pipeline) loadTofino(src Source, ref *p4src.Schema) error {
	if src.DeviceConfig == "" {
		return fmt.Errorf("%w: format %s (platform %q) needs the Tofino build: give --device-config DIR, bf-p4c's output directory (make p4-tna writes p4src/build/tna), and --p4info unless that directory holds it",
			ErrPipeline, p.Format, src.Platform)
	}
	fi, err := os.Stat(src.DeviceConfig)
	if err != nil {
		return fmt.Errorf("%w: --device-config: %w", ErrPipeline, err)
	}
	p4info := src.P4Info
	if p4info == "" && fi.IsDir() {
		p4info = findP4Info(src.DeviceConfig)
	}
	if p4info == "" {
		return fmt.Errorf("%w: format %s needs the TNA P4Info: give --p4info (what bf-p4c wrote with --p4runtime-files)", ErrPipeline, p.Format)
	}
	if err := p.loadP4Info(p4info, ref, "tna"); err != nil {
		return err
	}
	p.DeviceConfigFrom = src.DeviceConfig
	if !fi.IsDir() {
		data, err := readFile(src.DeviceConfig)
		if err != nil {
			return err
		}
		if p.Format == FormatTofinoStratum {
			c, err := tofino.UnmarshalPipelineConfig(data)
			if err == nil {
				err = c.Validate()
			}
			if err != nil {
				return fmt.Errorf("%w: --device-config %s is not a packed BfPipelineConfig (give bf-p4c's output directory to have it packed): %w", ErrPipeline, src.DeviceConfig, err)
			}
		} else if _, _, _, err := tofino.UnpackLegacy(data); err != nil {
			return fmt.Errorf("%w: --device-config %s: %w", ErrPipeline, src.DeviceConfig, err)
		}
		p.DeviceConfig = data
		return nil
	}
	name := src.ProgramName
	if confs, _ := filepath.Glob(filepath.Join(src.DeviceConfig, "*.conf")); name == "" && len(confs) == 0 {
		name = "balancer"
	}
	c, err := tofino.LoadCompilerOutput(src.DeviceConfig, name)
	if err != nil {
		return fmt.Errorf("%w: --device-config: %w", ErrPipeline, err)
	}
	if p.Format == FormatTofinoStratum {
		p.DeviceConfig = c.Marshal()
		return nil
	}
	if len(c.Profiles) != 1 {
		return fmt.Errorf("%w: format %s holds one pipeline; %s has %d: use %s", ErrPipeline, p.Format, src.DeviceConfig, len(c.Profiles), FormatTofinoStratum)
	}
	p.DeviceConfig, err = tofino.PackLegacy(c.P4Name, c.Profiles[0].Binary, c.Profiles[0].Context)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrPipeline, err)
	}
	return nil
}

// findP4Info returns the P4Info file in a compiler output directory, or "".
func findP4Info(dir string) string {
	for _, pat := range []string{"*.p4info.txtpb", "*.p4info.txt", "p4info.txt", "p4info.pb.txt", "p4info.txtpb"} {
		if m, _ := filepath.Glob(filepath.Join(dir, pat)); len(m) == 1 {
			return m[0]
		}
	}
	return ""
}

// loadP4Info reads a P4Info, checks its architecture (when it states
// one) and the naming contract.
func (p *Pipeline) loadP4Info(path string, ref *p4src.Schema, arch string) error {
	data, err := readFile(path)
	if err != nil {
		return err
	}
	info := &p4configv1.P4Info{}
	switch filepath.Ext(path) {
	case ".bin", ".pb", ".binpb":
		err = proto.Unmarshal(data, info)
	default:
		err = prototext.Unmarshal(data, info)
	}
	if err != nil {
		return fmt.Errorf("%w: --p4info %s: %w", ErrPipeline, path, err)
	}
	if a := info.GetPkgInfo().GetArch(); a != "" && a != arch {
		return fmt.Errorf("%w: --p4info %s is of a %s build; format %s takes the %s build", ErrPipeline, path, a, p.Format, arch)
	}
	if (&p4src.Schema{Info: info}).HasSessions() {
		// The sessions profile: its names are the v1model sessions
		// build's (the base build's and the session memory's).
		if ref, err = p4src.LoadSessions(); err != nil {
			return err
		}
	}
	if err := p4src.CheckContract(ref.Info, info); err != nil {
		return fmt.Errorf("--p4info %s: %w", path, err)
	}
	p.P4Info, p.P4InfoFrom = info, path
	return nil
}

func readFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPipeline, err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%w: %s is a directory, want a file", ErrPipeline, path)
	}
	if fi.Size() > maxFile {
		return nil, fmt.Errorf("%w: %s is %d bytes, more than a pipeline file can be (%d)", ErrPipeline, path, fi.Size(), maxFile)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPipeline, err)
	}
	return data, nil
}
