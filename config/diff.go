package config

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// Diff lists what changes from configuration a to b, one line per object:
// "+ link L3" (added), "- filter-group F4" (removed), and for a changed
// object the fields that differ with their old and new values
// ("~ profile default: interval 100ms -> 50ms"). Site, platform, port_map
// and defaults are reported as fields of their own. Compare configurations
// that went through ApplyDefaults to see effective values, or as decoded to
// see what the operator wrote. A nil configuration is an empty one.
func Diff(a, b *Config) []string {
	if a == nil {
		a = new(Config)
	}
	if b == nil {
		b = new(Config)
	}
	var out []string
	if a.Site != b.Site {
		out = append(out, fmt.Sprintf("~ site: %s -> %s", quoteOrUnset(a.Site), quoteOrUnset(b.Site)))
	}
	if a.Platform != b.Platform {
		out = append(out, fmt.Sprintf("~ platform: %s -> %s", quoteOrUnset(a.Platform), quoteOrUnset(b.Platform)))
	}
	for _, k := range slices.Sorted(maps.Keys(joinKeys(a.PortMap, b.PortMap))) {
		x, inA := a.PortMap[k]
		y, inB := b.PortMap[k]
		switch {
		case !inA:
			out = append(out, fmt.Sprintf("+ port_map %s: %d", k, y))
		case !inB:
			out = append(out, fmt.Sprintf("- port_map %s (was %d)", k, x))
		case x != y:
			out = append(out, fmt.Sprintf("~ port_map %s: %d -> %d", k, x, y))
		}
	}
	if f := fieldChanges(reflect.ValueOf(a.Defaults), reflect.ValueOf(b.Defaults)); len(f) > 0 {
		out = append(out, "~ defaults: "+strings.Join(f, ", "))
	}
	out = append(out, diffList("port", a.Ports, b.Ports, func(p Port) string { return fmt.Sprint(p.Port) })...)
	out = append(out, diffList("link", a.Links, b.Links, func(l Link) string { return l.Name })...)
	out = append(out, diffList("filter-group", a.FilterGroups, b.FilterGroups, func(f FilterGroup) string { return f.Name })...)
	out = append(out, diffList("balance-group", a.BalanceGroups, b.BalanceGroups, func(g BalanceGroup) string { return g.Name })...)
	out = append(out, diffList("profile", a.Profiles, b.Profiles, func(p Profile) string { return p.Name })...)
	out = append(out, diffList("rule", a.Rules, b.Rules, func(r Rule) string { return r.Name })...)
	return out
}

func quoteOrUnset(s string) string {
	if s == "" {
		return "(unset)"
	}
	return fmt.Sprintf("%q", s)
}

func joinKeys[V any](a, b map[string]V) map[string]bool {
	m := make(map[string]bool, len(a)+len(b))
	for k := range a {
		m[k] = true
	}
	for k := range b {
		m[k] = true
	}
	return m
}

// diffList compares two lists of one kind by key, in key order.
func diffList[T any](kind string, a, b []T, key func(T) string) []string {
	am, bm := make(map[string]T, len(a)), make(map[string]T, len(b))
	for _, x := range a {
		am[key(x)] = x
	}
	for _, x := range b {
		bm[key(x)] = x
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(joinKeys(am, bm))) {
		x, inA := am[k]
		y, inB := bm[k]
		switch {
		case !inA:
			out = append(out, fmt.Sprintf("+ %s %s", kind, k))
		case !inB:
			out = append(out, fmt.Sprintf("- %s %s", kind, k))
		default:
			if f := fieldChanges(reflect.ValueOf(x), reflect.ValueOf(y)); len(f) > 0 {
				out = append(out, fmt.Sprintf("~ %s %s: %s", kind, k, strings.Join(f, ", ")))
			}
		}
	}
	return out
}

// fieldChanges lists "key old -> new" for each differing field of two
// structs of one type, by YAML key.
func fieldChanges(a, b reflect.Value) []string {
	var out []string
	t := a.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		key, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if key == "" || key == "-" {
			continue
		}
		x, y := a.Field(i), b.Field(i)
		if reflect.DeepEqual(x.Interface(), y.Interface()) {
			continue
		}
		if f.Type.Kind() == reflect.Struct && !leafTypes[f.Type] && f.Type != reflect.TypeFor[Match]() {
			for _, c := range fieldChanges(x, y) {
				out = append(out, key+"."+c)
			}
			continue
		}
		out = append(out, fmt.Sprintf("%s %s -> %s", key, valueText(x), valueText(y)))
	}
	return out
}

// valueText writes a field's value for a diff line: scalars in their YAML
// form, lists and matches as compact JSON, "(unset)" for nothing.
func valueText(v reflect.Value) string {
	if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Slice || v.Kind() == reflect.Map) && v.IsNil() {
		return "(unset)"
	}
	if v.Kind() == reflect.Bool {
		return fmt.Sprint(v.Bool())
	}
	if v.IsZero() {
		return "(unset)"
	}
	if s, ok := v.Interface().(fmt.Stringer); ok {
		return s.String()
	}
	if v.Kind() == reflect.Pointer {
		return valueText(v.Elem())
	}
	switch v.Kind() {
	case reflect.String:
		return v.String()
	case reflect.Uint16:
		return fmt.Sprintf("0x%04X", v.Uint())
	case reflect.Uint8, reflect.Uint32, reflect.Uint64, reflect.Int, reflect.Int64, reflect.Bool:
		return fmt.Sprint(v.Interface())
	}
	js, err := json.Marshal(v.Interface())
	if err != nil {
		return fmt.Sprint(v.Interface())
	}
	return string(js)
}
