package config

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// Decode takes the document it parsed when the walker knew every key;
// that is what the strict decoder makes of the text.
func TestDecodeOfTheParsedDocumentIsTheStrictDecoders(t *testing.T) {
	for _, path := range []string{"../examples/site.yaml", "testdata/full.yaml"} {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		got, err := Decode(data)
		require.NoError(t, err, path)
		want := new(Config)
		sd := yaml.NewDecoder(bytes.NewReader(data))
		sd.KnownFields(true)
		require.NoError(t, sd.Decode(want), path)
		assert.Equal(t, want, got, path)
	}
}

// The walker's keys are the strict decoder's: every field of every struct
// it walks into has a yaml name (a field without one is keyed by its
// lowercased name, which the walker would take for an unknown key).
func TestWalkedStructsNameEveryField(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || seen[typ] || leafTypes[typ] {
			return
		}
		seen[typ] = true
		for f := range typ.Fields() {
			name := f.Tag.Get("yaml")
			assert.True(t, f.IsExported() && name != "" && name != "-", "%s.%s: yaml tag %q", typ, f.Name, name)
			walk(f.Type)
		}
	}
	walk(reflect.TypeFor[Config]())
	assert.Greater(t, len(seen), 5)
}
