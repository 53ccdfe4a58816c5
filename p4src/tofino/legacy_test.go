package tofino

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// le builds the layout by hand: each part preceded by its length.
func le(parts ...string) []byte {
	var out []byte
	for _, p := range parts {
		out = binary.LittleEndian.AppendUint32(out, uint32(len(p)))
		out = append(out, p...)
	}
	return out
}

func TestLegacyWithBfRuntime(t *testing.T) {
	l := Legacy{Name: "balancer", Binary: []byte("BIN"), Context: []byte(`{"c":1}`), Pipeline: "pipe", BfRuntimeInfo: []byte(`{"tables":[]}`)}
	data, err := l.Pack()
	require.NoError(t, err)
	assert.Equal(t, le("balancer", "BIN", `{"c":1}`, "pipe", `{"tables":[]}`), data)
	got, err := UnpackLegacyConfig(data)
	require.NoError(t, err)
	assert.Equal(t, &l, got)

	// Without the BF-Runtime part: a zero fourth length, then the end.
	data, err = PackLegacy("balancer", []byte("BIN"), []byte("{}"))
	require.NoError(t, err)
	assert.Equal(t, le("balancer", "BIN", "{}", ""), data)
	got, err = UnpackLegacyConfig(data)
	require.NoError(t, err)
	assert.Equal(t, &Legacy{Name: "balancer", Binary: []byte("BIN"), Context: []byte("{}"), Pipeline: ""}, got)
}

func TestLegacyFromConfig(t *testing.T) {
	c := &PipelineConfig{P4Name: "balancer", BfRuntimeInfo: []byte(`{"b":1}`),
		Profiles: []Profile{{Name: "pipe", Context: []byte("{}"), Binary: []byte("BIN"), PipeScope: []uint32{0, 1}}}}
	l, err := LegacyFromConfig(c)
	require.NoError(t, err)
	assert.Equal(t, &Legacy{Name: "balancer", Binary: []byte("BIN"), Context: []byte("{}"), Pipeline: "pipe", BfRuntimeInfo: []byte(`{"b":1}`)}, l)
	c.BfRuntimeInfo = nil
	l, err = LegacyFromConfig(c)
	require.NoError(t, err)
	assert.Empty(t, l.Pipeline, "no bfrt.json: no pipeline part")
	c.Profiles = append(c.Profiles, c.Profiles[0])
	_, err = LegacyFromConfig(c)
	assert.ErrorContains(t, err, "holds one pipeline")
}

func TestLegacyNameLimit(t *testing.T) {
	ok := strings.Repeat("n", MaxLegacyName)
	_, err := PackLegacy(ok, []byte("B"), []byte("C"))
	require.NoError(t, err, "100 bytes is the limit, inclusive")

	long := strings.Repeat("n", MaxLegacyName+1)
	_, err = PackLegacy(long, []byte("B"), []byte("C"))
	assert.ErrorIs(t, err, ErrFormat)
	assert.ErrorContains(t, err, "program name \"nnnnnnnnnnnnnnnn...\" is 101 bytes; the SDE's PI loader takes at most 100: compile under a shorter name")
	_, err = (&Legacy{Name: "b", Binary: []byte("B"), Context: []byte("C"), Pipeline: long, BfRuntimeInfo: []byte("{}")}).Pack()
	assert.ErrorContains(t, err, "pipeline name")
	assert.ErrorContains(t, err, "at most 100")
	// A packed file from elsewhere with a long name is refused as the
	// loader would refuse it.
	_, err = UnpackLegacyConfig(le(long, "B", "C", ""))
	assert.ErrorContains(t, err, "at most 100")
	_, err = UnpackLegacyConfig(le("b", "B", "C", long, "{}"))
	assert.ErrorContains(t, err, "pipeline name")
}

func TestLegacyRefuses(t *testing.T) {
	for _, tt := range []struct {
		name string
		l    Legacy
		msg  string
	}{
		{"no name", Legacy{Binary: []byte("B"), Context: []byte("C")}, "no program name"},
		{"slash", Legacy{Name: "a/b", Binary: []byte("B"), Context: []byte("C")}, "holds '/' or NUL"},
		{"no binary", Legacy{Name: "a", Context: []byte("C")}, "no binary"},
		{"no context", Legacy{Name: "a", Binary: []byte("B")}, "no context.json"},
		{"pipeline without bfrt", Legacy{Name: "a", Binary: []byte("B"), Context: []byte("C"), Pipeline: "pipe"}, "without a bfrt.json"},
		{"bfrt without pipeline", Legacy{Name: "a", Binary: []byte("B"), Context: []byte("C"), BfRuntimeInfo: []byte("{}")}, "needs the pipeline's name"},
	} {
		_, err := tt.l.Pack()
		assert.ErrorIs(t, err, ErrFormat, tt.name)
		assert.ErrorContains(t, err, tt.msg, tt.name)
	}
	for _, tt := range []struct {
		name string
		data []byte
		msg  string
	}{
		{"three parts: the loader would read past the end", le("b", "B", "C"), "without the pipeline-name length"},
		{"bfrt length missing", le("b", "B", "C", "pipe"), "truncated before the bfrt.json length"},
		{"bfrt longer than the data", append(le("b", "B", "C", "pipe"), 9, 0, 0, 0, '{'), "bfrt.json of 9 bytes, only 1 left"},
		{"trailing bytes", append(le("b", "B", "C", ""), 0), "1 bytes after the end"},
		{"huge length", []byte{0xff, 0xff, 0xff, 0xff}, "program name of 4294967295 bytes, only 0 left"},
	} {
		_, err := UnpackLegacyConfig(tt.data)
		assert.ErrorIs(t, err, ErrFormat, tt.name)
		assert.ErrorContains(t, err, tt.msg, tt.name)
	}
}
