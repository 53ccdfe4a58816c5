package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Parse decodes a YAML configuration strictly (see Decode), applies
// defaults and validates it. It returns the configuration only when it is
// valid; otherwise every problem, joined with errors.Join (decode problems
// wrap ErrDecode; validation problems are *FieldError values).
func Parse(data []byte) (*Config, error) {
	c, err := Decode(data)
	if err != nil {
		return nil, err
	}
	c.ApplyDefaults()
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// Load reads and parses the configuration file at path. Each problem is
// prefixed with the path.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load config: %w", err)
	}
	c, err := Parse(data)
	if err != nil {
		return nil, prefixEach(path, err)
	}
	return c, nil
}

// Marshal writes the configuration as YAML that Parse reads back into an
// equal Config (for a Config that went through ApplyDefaults).
func (c *Config) Marshal() ([]byte, error) {
	doc, err := c.encode()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("marshal config: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("marshal config: %w", err)
	}
	return buf.Bytes(), nil
}

// etherTypeKeys are the keys whose values Marshal writes in hex.
var etherTypeKeys = map[string]bool{"ethertype": true, "core_tpid": true, "tpid": true}

// hexEtherTypes rewrites ethertype values as 0x88B5 rather than 34997.
func hexEtherTypes(n *yaml.Node) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if etherTypeKeys[k.Value] && v.Kind == yaml.ScalarNode && v.Tag == "!!int" {
				if x, err := strconv.ParseUint(v.Value, 10, 16); err == nil {
					v.Value = fmt.Sprintf("0x%04X", x)
				}
			}
		}
	}
	for _, c := range n.Content {
		hexEtherTypes(c)
	}
}

// prefixEach wraps every joined error of err with "prefix: ".
func prefixEach(prefix string, err error) error {
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else {
		errs = []error{err}
	}
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = fmt.Errorf("%s: %w", prefix, e)
	}
	return errors.Join(out...)
}

// modelTypes are the structs strict decoding can report unknown keys in,
// with the name to use in messages.
var modelTypes = map[string]struct {
	what string
	t    reflect.Type
}{
	"config.Config":             {"the top level", reflect.TypeFor[Config]()},
	"config.Defaults":           {"defaults", reflect.TypeFor[Defaults]()},
	"config.KeepAlive":          {"keepalive", reflect.TypeFor[KeepAlive]()},
	"config.HeartbeatMatch":     {"a heartbeat entry", reflect.TypeFor[HeartbeatMatch]()},
	"config.Port":               {"a port", reflect.TypeFor[Port]()},
	"config.Link":               {"a link", reflect.TypeFor[Link]()},
	"config.FilterGroup":        {"a filter group", reflect.TypeFor[FilterGroup]()},
	"config.BalanceGroup":       {"a balance group", reflect.TypeFor[BalanceGroup]()},
	"config.Profile":            {"a profile", reflect.TypeFor[Profile]()},
	"config.Rule":               {"a rule", reflect.TypeFor[Rule]()},
	"config.Match":              {"a match", reflect.TypeFor[Match]()},
	"config.Sessions":           {"sessions", reflect.TypeFor[Sessions]()},
	"config.SessionIdleTimeout": {"sessions.idle_timeout", reflect.TypeFor[SessionIdleTimeout]()},
}

// describeType names a model struct and lists its keys.
func describeType(goType string) string {
	mt, ok := modelTypes[goType]
	if !ok {
		return goType
	}
	var keys []string
	for f := range mt.t.Fields() {
		tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if tag != "" && tag != "-" {
			keys = append(keys, tag)
		}
	}
	return fmt.Sprintf("%s (known keys: %s)", mt.what, strings.Join(keys, ", "))
}
