package gnmi

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
)

// originOpenConfig is the default origin; requests may name it or leave the
// origin empty, the server stores both as "".
const originOpenConfig = "openconfig"

// pathString renders p (prefix elements then path elements) in the usual
// gNMI string form, e.g. /interfaces/interface[name=P1]/state/oper-status.
// Keys are printed in name order so the result is deterministic.
func pathString(prefix, p *gpb.Path) string {
	var b strings.Builder
	for _, pp := range []*gpb.Path{prefix, p} {
		for _, e := range pp.GetElem() {
			b.WriteByte('/')
			b.WriteString(e.GetName())
			keys := make([]string, 0, len(e.GetKey()))
			for k := range e.GetKey() {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				fmt.Fprintf(&b, "[%s=%s]", k, e.GetKey()[k])
			}
		}
		if len(pp.GetElem()) > 0 {
			// The deprecated string form is read only without elem (normalize):
			// a client that sends both (gnmi_cli) wrote the path once.
			continue
		}
		for _, s := range pp.GetElement() {
			b.WriteByte('/')
			b.WriteString(s)
		}
	}
	if b.Len() == 0 {
		return "/"
	}
	return b.String()
}

// joinPath returns prefix elements followed by path elements as a new path
// without target or origin. The PathElems themselves are shared.
func joinPath(prefix, p *gpb.Path) *gpb.Path {
	elems := make([]*gpb.PathElem, 0, len(prefix.GetElem())+len(p.GetElem()))
	elems = append(elems, prefix.GetElem()...)
	elems = append(elems, p.GetElem()...)
	return &gpb.Path{Elem: elems}
}

// listSchema remembers, for every list seen in published data, the names of
// its keys. The cache indexes a list entry by its key values, so a request
// that names a list without keys (/interfaces/interface/state) would never
// match; with the schema the request is rewritten to use wildcards
// (/interfaces/interface[name=*]/state), as gNMI requires.
type listSchema struct {
	mu   sync.RWMutex
	keys map[string][]string // names-only path "/interfaces/interface" -> sorted key names
}

func newListSchema() *listSchema {
	return &listSchema{keys: map[string][]string{
		// OpenConfig interfaces are always keyed by name; seeded so that a
		// subscription made before the first interface is published works.
		"/interfaces/interface": {"name"},
	}}
}

// learn records the keys of every keyed element of p.
func (ls *listSchema) learn(p *gpb.Path) {
	var b strings.Builder
	for _, e := range p.GetElem() {
		b.WriteByte('/')
		b.WriteString(e.GetName())
		if len(e.GetKey()) == 0 {
			continue
		}
		k := b.String()
		ls.mu.RLock()
		known, ok := ls.keys[k]
		ls.mu.RUnlock()
		if ok && len(known) == len(e.GetKey()) {
			continue
		}
		names := make([]string, 0, len(e.GetKey()))
		for n := range e.GetKey() {
			names = append(names, n)
		}
		slices.Sort(names)
		ls.mu.Lock()
		ls.keys[k] = names
		ls.mu.Unlock()
	}
}

func (ls *listSchema) lookup(namesPath string) ([]string, bool) {
	ls.mu.RLock()
	defer ls.mu.RUnlock()
	k, ok := ls.keys[namesPath]
	return k, ok
}

// normalize validates a request path (prefix elements already joined in) and
// returns a copy that the cache understands:
//   - a trailing "..." is dropped (everything below is matched anyway); "..."
//     anywhere else is rejected;
//   - a known list named without (some of) its keys gets "*" for them;
//   - unknown key names of a known list and empty key values are rejected.
//
// Errors name the offending path and wrap ErrInvalidArgument.
func (ls *listSchema) normalize(p *gpb.Path) (*gpb.Path, error) {
	if len(p.GetElem()) == 0 && len(p.GetElement()) > 0 {
		// The deprecated string form ("interface[name=1/0]"), which the
		// openconfig gnmi_cli still sends.
		elems, err := elementsToElems(p.GetElement())
		if err != nil {
			return nil, fmt.Errorf("%w: path %s: %v", ErrInvalidArgument, strings.Join(p.GetElement(), "/"), err)
		}
		p = &gpb.Path{Origin: p.GetOrigin(), Target: p.GetTarget(), Elem: elems}
	}
	out := &gpb.Path{Elem: make([]*gpb.PathElem, 0, len(p.GetElem()))}
	var names strings.Builder
	for i, e := range p.GetElem() {
		name := e.GetName()
		switch {
		case name == "":
			return nil, fmt.Errorf("%w: path %s has an empty element name", ErrInvalidArgument, pathString(nil, p))
		case name == "..." && i == len(p.GetElem())-1:
			return out, nil
		case name == "...":
			return nil, fmt.Errorf("%w: path %s: multi-level wildcard \"...\" is only supported as the last element", ErrInvalidArgument, pathString(nil, p))
		}
		for k, v := range e.GetKey() {
			if v == "" {
				return nil, fmt.Errorf("%w: path %s: empty value for key %q", ErrInvalidArgument, pathString(nil, p), k)
			}
		}
		names.WriteByte('/')
		names.WriteString(name)
		known, isList := ls.lookup(names.String())
		if !isList {
			out.Elem = append(out.Elem, e)
			continue
		}
		for k := range e.GetKey() {
			if !slices.Contains(known, k) {
				return nil, fmt.Errorf("%w: path %s: list %s has keys %v, not %q", ErrInvalidArgument, pathString(nil, p), name, known, k)
			}
		}
		keys := make(map[string]string, len(known))
		for _, k := range known {
			v, ok := e.GetKey()[k]
			if !ok {
				v = "*"
			}
			keys[k] = v
		}
		out.Elem = append(out.Elem, &gpb.PathElem{Name: name, Key: keys})
	}
	return out, nil
}

// hasElem reports whether any element of prefix or p is named name.
func hasElem(prefix, p *gpb.Path, name string) bool {
	for _, pp := range []*gpb.Path{prefix, p} {
		for _, e := range pp.GetElem() {
			if e.GetName() == name {
				return true
			}
		}
	}
	return false
}

// jsonValue renders a scalar TypedValue as JSON. With ietf set it follows
// RFC 7951: 64-bit integers and decimals are strings. OpenConfig counters are
// 64-bit, and the proto has only 64-bit integer fields, so all integers are
// rendered that way.
func jsonValue(v *gpb.TypedValue, ietf bool) ([]byte, error) {
	var x any
	switch tv := v.GetValue().(type) {
	case *gpb.TypedValue_StringVal:
		x = tv.StringVal
	case *gpb.TypedValue_BoolVal:
		x = tv.BoolVal
	case *gpb.TypedValue_UintVal:
		if ietf {
			x = strconv.FormatUint(tv.UintVal, 10)
		} else {
			x = tv.UintVal
		}
	case *gpb.TypedValue_IntVal:
		if ietf {
			x = strconv.FormatInt(tv.IntVal, 10)
		} else {
			x = tv.IntVal
		}
	case *gpb.TypedValue_DoubleVal:
		x = tv.DoubleVal
	case *gpb.TypedValue_FloatVal:
		x = tv.FloatVal
	case *gpb.TypedValue_DecimalVal:
		s := decimalString(tv.DecimalVal.GetDigits(), tv.DecimalVal.GetPrecision())
		if ietf {
			x = s
		} else {
			x = json.Number(s)
		}
	case *gpb.TypedValue_BytesVal:
		x = base64.StdEncoding.EncodeToString(tv.BytesVal)
	case *gpb.TypedValue_JsonVal:
		return tv.JsonVal, nil
	case *gpb.TypedValue_JsonIetfVal:
		return tv.JsonIetfVal, nil
	case *gpb.TypedValue_LeaflistVal:
		elems := make([]json.RawMessage, 0, len(tv.LeaflistVal.GetElement()))
		for _, e := range tv.LeaflistVal.GetElement() {
			b, err := jsonValue(e, ietf)
			if err != nil {
				return nil, err
			}
			elems = append(elems, b)
		}
		x = elems
	default:
		return nil, fmt.Errorf("value of type %T has no JSON form", v.GetValue())
	}
	return json.Marshal(x)
}

func decimalString(digits int64, precision uint32) string {
	neg := digits < 0
	u := uint64(digits)
	if neg {
		u = uint64(-digits) // also right for math.MinInt64
	}
	s := strconv.FormatUint(u, 10)
	if precision > 0 {
		if len(s) <= int(precision) {
			s = strings.Repeat("0", int(precision)-len(s)+1) + s
		}
		s = s[:len(s)-int(precision)] + "." + s[len(s)-int(precision):]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// elementsToElems converts the deprecated string path elements, each
// "name" or "name[key=value]..." (a "]" or "\\" inside a value escaped with
// "\\"), to PathElems.
func elementsToElems(elements []string) ([]*gpb.PathElem, error) {
	out := make([]*gpb.PathElem, 0, len(elements))
	for _, s := range elements {
		i := strings.IndexByte(s, '[')
		if i < 0 {
			out = append(out, &gpb.PathElem{Name: s})
			continue
		}
		e := &gpb.PathElem{Name: s[:i], Key: map[string]string{}}
		rest := s[i:]
		for len(rest) > 0 {
			if rest[0] != '[' {
				return nil, fmt.Errorf("element %q: expected [ at %q", s, rest)
			}
			eq := strings.IndexByte(rest, '=')
			if eq < 0 {
				return nil, fmt.Errorf("element %q: key without =", s)
			}
			key := rest[1:eq]
			var val strings.Builder
			j := eq + 1
			for ; j < len(rest) && rest[j] != ']'; j++ {
				if rest[j] == '\\' && j+1 < len(rest) {
					j++
				}
				val.WriteByte(rest[j])
			}
			if j >= len(rest) {
				return nil, fmt.Errorf("element %q: unterminated key", s)
			}
			if key == "" {
				return nil, fmt.Errorf("element %q: empty key name", s)
			}
			e.Key[key] = val.String()
			rest = rest[j+1:]
		}
		out = append(out, e)
	}
	return out, nil
}
