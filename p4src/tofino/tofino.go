// Package tofino packs the output of the Tofino compiler (bf-p4c) into the
// P4Runtime device config that Stratum expects on a Tofino switch, and
// unpacks it again.
//
// Two formats exist:
//
//   - BfPipelineConfig (stratum/hal/lib/barefoot/bf.proto), what
//     stratum_bfrt takes: the program name, the BF-Runtime schema
//     (bfrt.json) and one profile per pipeline with its context.json, its
//     binary (tofino.bin) and the hardware pipes it runs on.
//   - The legacy binary layout of the SDE's PI implementation, the loader
//     behind bf_switchd's own P4Runtime server (legacy.go): one pipeline,
//     <name length><name><tofino.bin length><tofino.bin><context.json
//     length><context.json><pipeline name length>[<pipeline name><bfrt.json
//     length><bfrt.json>], lengths as 32-bit little-endian integers.
//     stratum_bfrt does not take it.
package tofino

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// ErrFormat is returned for a device config or compiler output that is not
// what the format says.
var ErrFormat = errors.New("tofino device config")

// PipelineConfig is Stratum's BfPipelineConfig.
type PipelineConfig struct {
	P4Name        string    // field 1
	BfRuntimeInfo []byte    // field 2: bfrt.json
	Profiles      []Profile // field 3
}

// Profile is one pipeline of the program (BfPipelineConfig.Profile).
type Profile struct {
	Name      string   // field 1, the pipeline's name ("pipe")
	Context   []byte   // field 2: context.json
	Binary    []byte   // field 3: tofino.bin (tofino2.bin on Tofino 2)
	PipeScope []uint32 // field 4: the hardware pipes it runs on
}

// Marshal encodes the config as Stratum's BfPipelineConfig protobuf
// message (proto3: empty fields are left out; pipe_scope is packed).
func (c *PipelineConfig) Marshal() []byte {
	var b []byte
	b = appendString(b, 1, c.P4Name)
	b = appendBytes(b, 2, c.BfRuntimeInfo)
	for _, p := range c.Profiles {
		var m []byte
		m = appendString(m, 1, p.Name)
		m = appendBytes(m, 2, p.Context)
		m = appendBytes(m, 3, p.Binary)
		if len(p.PipeScope) > 0 {
			var packed []byte
			for _, s := range p.PipeScope {
				packed = protowire.AppendVarint(packed, uint64(s))
			}
			m = protowire.AppendTag(m, 4, protowire.BytesType)
			m = protowire.AppendBytes(m, packed)
		}
		b = protowire.AppendTag(b, 3, protowire.BytesType)
		b = protowire.AppendBytes(b, m)
	}
	return b
}

func appendString(b []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendBytes(b []byte, num protowire.Number, v []byte) []byte {
	if len(v) == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

// UnmarshalPipelineConfig decodes a BfPipelineConfig message. Unknown
// fields are skipped, as protobuf does.
func UnmarshalPipelineConfig(data []byte) (*PipelineConfig, error) {
	c := &PipelineConfig{}
	err := walk(data, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
		switch {
		case num == 1 && typ == protowire.BytesType:
			c.P4Name = string(v)
		case num == 2 && typ == protowire.BytesType:
			c.BfRuntimeInfo = v
		case num == 3 && typ == protowire.BytesType:
			p, err := unmarshalProfile(v)
			if err != nil {
				return fmt.Errorf("profile %d: %w", len(c.Profiles)+1, err)
			}
			c.Profiles = append(c.Profiles, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w: BfPipelineConfig: %w", ErrFormat, err)
	}
	return c, nil
}

func unmarshalProfile(data []byte) (Profile, error) {
	var p Profile
	err := walk(data, func(num protowire.Number, typ protowire.Type, v []byte, x uint64) error {
		switch {
		case num == 1 && typ == protowire.BytesType:
			p.Name = string(v)
		case num == 2 && typ == protowire.BytesType:
			p.Context = v
		case num == 3 && typ == protowire.BytesType:
			p.Binary = v
		case num == 4 && typ == protowire.VarintType:
			p.PipeScope = append(p.PipeScope, uint32(x))
		case num == 4 && typ == protowire.BytesType: // packed
			for len(v) > 0 {
				s, n := protowire.ConsumeVarint(v)
				if n < 0 {
					return fmt.Errorf("pipe_scope: %w", protowire.ParseError(n))
				}
				p.PipeScope = append(p.PipeScope, uint32(s))
				v = v[n:]
			}
		}
		return nil
	})
	return p, err
}

// walk calls f for every field of a message: the bytes of a
// length-delimited field, or the value of a varint.
func walk(data []byte, f func(protowire.Number, protowire.Type, []byte, uint64) error) error {
	for len(data) > 0 {
		num, typ, n := protowire.ConsumeTag(data)
		if n < 0 {
			return protowire.ParseError(n)
		}
		data = data[n:]
		var v []byte
		var x uint64
		switch typ {
		case protowire.BytesType:
			v, n = protowire.ConsumeBytes(data)
		case protowire.VarintType:
			x, n = protowire.ConsumeVarint(data)
		default:
			n = protowire.ConsumeFieldValue(num, typ, data)
		}
		if n < 0 {
			return fmt.Errorf("field %d: %w", num, protowire.ParseError(n))
		}
		data = data[n:]
		if err := f(num, typ, v, x); err != nil {
			return err
		}
	}
	return nil
}

// Validate checks what Stratum needs: a program name and at least one
// profile, each with a name, a context and a binary.
func (c *PipelineConfig) Validate() error {
	if c.P4Name == "" {
		return fmt.Errorf("%w: no program name", ErrFormat)
	}
	if len(c.Profiles) == 0 {
		return fmt.Errorf("%w: program %q has no pipeline profile", ErrFormat, c.P4Name)
	}
	for i, p := range c.Profiles {
		switch {
		case p.Name == "":
			return fmt.Errorf("%w: profile %d has no name", ErrFormat, i+1)
		case len(p.Context) == 0:
			return fmt.Errorf("%w: profile %q has no context.json", ErrFormat, p.Name)
		case len(p.Binary) == 0:
			return fmt.Errorf("%w: profile %q has no binary (tofino.bin)", ErrFormat, p.Name)
		}
	}
	return nil
}

// compilerConf is the part of bf-p4c's <program>.conf that names its
// outputs.
type compilerConf struct {
	P4Devices []struct {
		P4Programs []struct {
			ProgramName string `json:"program-name"`
			BfrtConfig  string `json:"bfrt-config"`
			P4Pipelines []struct {
				Name      string   `json:"p4_pipeline_name"`
				Context   string   `json:"context"`
				Config    string   `json:"config"`
				PipeScope []uint32 `json:"pipe_scope"`
			} `json:"p4_pipelines"`
		} `json:"p4_programs"`
	} `json:"p4_devices"`
}

// maxOutputFile bounds each file read from a compiler output directory
// (a tofino.bin is a few MB, a context.json some tens).
const maxOutputFile = 512 << 20

// LoadCompilerOutput reads bf-p4c's output directory (-o DIR): the
// <program>.conf it writes names the program, the BF-Runtime schema and,
// per pipeline, its context.json, binary and pipes. Each file is taken
// from DIR (bfrt.json) or DIR/<pipeline>/ (context.json, tofino.bin)
// when it is there, else from the absolute path the .conf names; a name
// given must be the .conf's. Without
// a .conf, the program is called name and the one subdirectory holding a
// context.json and a tofino.bin (tofino2.bin, tofino3.bin) is its
// pipeline, running on all four pipes.
func LoadCompilerOutput(dir, name string) (*PipelineConfig, error) {
	confs, _ := filepath.Glob(filepath.Join(dir, "*.conf"))
	switch len(confs) {
	case 0:
		return loadByLayout(dir, name)
	case 1:
	default:
		return nil, fmt.Errorf("%w: %s holds %d .conf files (%s): give the directory of one compilation",
			ErrFormat, dir, len(confs), strings.Join(confs, ", "))
	}
	data, err := readLimited(confs[0])
	if err != nil {
		return nil, err
	}
	var conf compilerConf
	if err := json.Unmarshal(data, &conf); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrFormat, confs[0], err)
	}
	if len(conf.P4Devices) != 1 || len(conf.P4Devices[0].P4Programs) != 1 {
		return nil, fmt.Errorf("%w: %s: want one device with one program (Stratum runs one)", ErrFormat, confs[0])
	}
	prog := conf.P4Devices[0].P4Programs[0]
	if name != "" && name != prog.ProgramName {
		return nil, fmt.Errorf("%w: %s is the output of program %q, not %q", ErrFormat, confs[0], prog.ProgramName, name)
	}
	c := &PipelineConfig{P4Name: prog.ProgramName}
	if prog.BfrtConfig != "" {
		if c.BfRuntimeInfo, err = readOutput(dir, prog.BfrtConfig, ""); err != nil {
			return nil, err
		}
	}
	for _, p := range prog.P4Pipelines {
		pr := Profile{Name: p.Name, PipeScope: p.PipeScope}
		if pr.Context, err = readOutput(dir, p.Context, p.Name); err != nil {
			return nil, err
		}
		if pr.Binary, err = readOutput(dir, p.Config, p.Name); err != nil {
			return nil, err
		}
		c.Profiles = append(c.Profiles, pr)
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", confs[0], err)
	}
	return c, nil
}

// readOutput reads a file the .conf names: from dir/sub (dir for the
// BF-Runtime schema) under the same base name when it is there (the
// directory given is the compilation meant, wherever it was moved), else
// at the absolute path the .conf gives. A relative path in the .conf is
// relative to where bf-p4c ran, unknown here: only dir/sub counts.
func readOutput(dir, path, sub string) ([]byte, error) {
	if path == "" {
		return nil, fmt.Errorf("%w: the .conf in %s names no file for pipeline %q", ErrFormat, dir, sub)
	}
	local := filepath.Join(dir, sub, filepath.Base(path))
	if _, err := os.Stat(local); err == nil {
		return readLimited(local)
	}
	if filepath.IsAbs(path) {
		if _, err := os.Stat(path); err == nil {
			return readLimited(path)
		}
	}
	return nil, fmt.Errorf("%w: the .conf in %s names %s, which is neither at %s nor there", ErrFormat, dir, path, local)
}

func loadByLayout(dir, name string) (*PipelineConfig, error) {
	if name == "" {
		return nil, fmt.Errorf("%w: %s has no .conf: give the program name", ErrFormat, dir)
	}
	c := &PipelineConfig{P4Name: name}
	for _, f := range []string{"bfrt.json", "bf-rt.json"} {
		if data, err := readLimited(filepath.Join(dir, f)); err == nil {
			c.BfRuntimeInfo = data
			break
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		sub := filepath.Join(dir, e.Name())
		ctx, err := readLimited(filepath.Join(sub, "context.json"))
		if err != nil {
			continue
		}
		var bin []byte
		for _, b := range []string{"tofino.bin", "tofino2.bin", "tofino3.bin"} {
			if bin, err = readLimited(filepath.Join(sub, b)); err == nil {
				break
			}
		}
		if bin == nil {
			return nil, fmt.Errorf("%w: %s has a context.json but no tofino.bin", ErrFormat, sub)
		}
		c.Profiles = append(c.Profiles, Profile{Name: e.Name(), Context: ctx, Binary: bin})
	}
	if len(c.Profiles) == 0 {
		return nil, fmt.Errorf("%w: %s holds no .conf and no pipeline directory (<pipe>/context.json, <pipe>/tofino.bin): is it bf-p4c's output (-o)?", ErrFormat, dir)
	}
	if len(c.Profiles) > 1 {
		names := make([]string, len(c.Profiles))
		for i, p := range c.Profiles {
			names[i] = p.Name
		}
		slices.Sort(names)
		return nil, fmt.Errorf("%w: %s holds %d pipelines (%s) and no .conf to say which pipes run which", ErrFormat, dir, len(names), strings.Join(names, ", "))
	}
	// One pipeline runs on every pipe.
	c.Profiles[0].PipeScope = []uint32{0, 1, 2, 3}
	return c, nil
}

func readLimited(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	if fi.Size() > maxOutputFile {
		return nil, fmt.Errorf("%w: %s is %d bytes, more than a compiler output file can be (%d)", ErrFormat, path, fi.Size(), maxOutputFile)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	return data, nil
}
