package tofino

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
)

// MaxLegacyName is the longest program or pipeline name the SDE's PI
// loader takes (_PI_UPDATE_MAX_NAME_SIZE in bf-drivers' pi_imp.c: a
// longer one fails the whole pipeline push with PI_STATUS_BUFFER_ERROR).
const MaxLegacyName = 100

// Legacy is one pipeline in the binary layout of the SDE's PI
// implementation (bf-drivers src/pi/pi_imp.c, _pi_update_device_start),
// what bf_switchd's P4Runtime server (and the PI-based stratum_bf of old)
// loads:
//
//	<u32 len><program name>          at most MaxLegacyName bytes
//	<u32 len><tofino.bin>
//	<u32 len><context.json>
//	<u32 len><pipeline name>         0: none, and nothing follows
//	<u32 len><bfrt.json>             only after a pipeline name
//
// Lengths are 32-bit little-endian. The loader reads the fourth length
// whatever the buffer holds (it has no bounds check), so a config that
// ends after the context.json makes it read past the end: Pack always
// writes it.
type Legacy struct {
	Name    string
	Binary  []byte // tofino.bin
	Context []byte // context.json
	// Pipeline and BfRuntimeInfo are optional together: with them the
	// driver also serves the program over BF-Runtime.
	Pipeline      string
	BfRuntimeInfo []byte // bfrt.json
}

// checkLegacyName refuses what the loader cannot take: it copies the
// name into a buffer of MaxLegacyName bytes and makes temporary files
// "<name>-cfg.bin.XXXXXX" in its working directory from it.
func checkLegacyName(what, name string, optional bool) error {
	switch {
	case name == "" && !optional:
		return fmt.Errorf("%w: legacy layout: no %s", ErrFormat, what)
	case len(name) > MaxLegacyName:
		return fmt.Errorf("%w: legacy layout: %s %q is %d bytes; the SDE's PI loader takes at most %d: compile under a shorter name",
			ErrFormat, what, name[:16]+"...", len(name), MaxLegacyName)
	case strings.ContainsAny(name, "/\x00"):
		return fmt.Errorf("%w: legacy layout: %s %q holds '/' or NUL; the loader names temporary files after it: use letters, digits, '_' and '-'",
			ErrFormat, what, name)
	}
	return nil
}

// Pack lays the pipeline out. A pipeline name needs the bfrt.json and the
// other way round.
func (l *Legacy) Pack() ([]byte, error) {
	if err := checkLegacyName("program name", l.Name, false); err != nil {
		return nil, err
	}
	if err := checkLegacyName("pipeline name", l.Pipeline, true); err != nil {
		return nil, err
	}
	switch {
	case len(l.Binary) == 0:
		return nil, fmt.Errorf("%w: legacy layout: program %q has no binary (tofino.bin)", ErrFormat, l.Name)
	case len(l.Context) == 0:
		return nil, fmt.Errorf("%w: legacy layout: program %q has no context.json", ErrFormat, l.Name)
	case l.Pipeline != "" && len(l.BfRuntimeInfo) == 0:
		return nil, fmt.Errorf("%w: legacy layout: pipeline %q without a bfrt.json", ErrFormat, l.Pipeline)
	case l.Pipeline == "" && len(l.BfRuntimeInfo) > 0:
		return nil, fmt.Errorf("%w: legacy layout: a bfrt.json needs the pipeline's name (\"pipe\" for a TNA program)", ErrFormat)
	}
	parts := [][]byte{[]byte(l.Name), l.Binary, l.Context, []byte(l.Pipeline)}
	if l.Pipeline != "" {
		parts = append(parts, l.BfRuntimeInfo)
	}
	size := 0
	for _, part := range parts {
		if len(part) > math.MaxInt32 {
			return nil, fmt.Errorf("%w: a part of %d bytes does not fit the legacy layout", ErrFormat, len(part))
		}
		size += 4 + len(part)
	}
	out := make([]byte, 0, size)
	for _, part := range parts {
		out = binary.LittleEndian.AppendUint32(out, uint32(len(part)))
		out = append(out, part...)
	}
	return out, nil
}

// PackLegacy lays out one pipeline without its BF-Runtime part: the
// program name, binary and context, then a zero pipeline-name length.
func PackLegacy(name string, bin, context []byte) ([]byte, error) {
	l := Legacy{Name: name, Binary: bin, Context: context}
	return l.Pack()
}

// LegacyFromConfig takes the one pipeline of a compiled program, with its
// pipeline name and the program's bfrt.json when it has one.
func LegacyFromConfig(c *PipelineConfig) (*Legacy, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if len(c.Profiles) != 1 {
		return nil, fmt.Errorf("%w: the legacy layout holds one pipeline; program %q has %d", ErrFormat, c.P4Name, len(c.Profiles))
	}
	p := c.Profiles[0]
	l := &Legacy{Name: c.P4Name, Binary: p.Binary, Context: p.Context}
	if len(c.BfRuntimeInfo) > 0 {
		l.Pipeline, l.BfRuntimeInfo = p.Name, c.BfRuntimeInfo
	}
	return l, nil
}

// UnpackLegacyConfig reads a device config of the legacy layout, with the
// checks the loader lacks: every length within the data, the names within
// MaxLegacyName, the pipeline-name length present, nothing after the end.
func UnpackLegacyConfig(data []byte) (*Legacy, error) {
	part := func(what string) ([]byte, error) {
		if len(data) < 4 {
			if what == "pipeline name" {
				return nil, fmt.Errorf("%w: legacy layout: it ends after the context.json, without the pipeline-name length the SDE's loader reads (it would read past the end): pack it again", ErrFormat)
			}
			return nil, fmt.Errorf("%w: legacy layout: truncated before the %s length", ErrFormat, what)
		}
		n := binary.LittleEndian.Uint32(data)
		data = data[4:]
		if uint64(n) > uint64(len(data)) {
			return nil, fmt.Errorf("%w: legacy layout: %s of %d bytes, only %d left", ErrFormat, what, n, len(data))
		}
		v := data[:n]
		data = data[n:]
		return v, nil
	}
	l := &Legacy{}
	var fields [4][]byte
	for i, what := range []string{"program name", "binary", "context.json", "pipeline name"} {
		v, err := part(what)
		if err != nil {
			return nil, err
		}
		fields[i] = v
	}
	l.Name, l.Binary, l.Context, l.Pipeline = string(fields[0]), fields[1], fields[2], string(fields[3])
	if err := checkLegacyName("program name", l.Name, false); err != nil {
		return nil, err
	}
	if err := checkLegacyName("pipeline name", l.Pipeline, true); err != nil {
		return nil, err
	}
	if l.Pipeline != "" {
		v, err := part("bfrt.json")
		if err != nil {
			return nil, err
		}
		l.BfRuntimeInfo = v
	}
	if len(data) != 0 {
		return nil, fmt.Errorf("%w: legacy layout: %d bytes after the end", ErrFormat, len(data))
	}
	return l, nil
}

// UnpackLegacy splits a device config of the legacy layout into its
// program name, binary and context (UnpackLegacyConfig has the rest).
func UnpackLegacy(data []byte) (name string, bin, context []byte, err error) {
	l, err := UnpackLegacyConfig(data)
	if err != nil {
		return "", nil, nil, err
	}
	return l.Name, l.Binary, l.Context, nil
}
