package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Bounds on what a configuration and a revision may hold. The API's
// transport carries messages up to 4 MiB; a configuration stays well below
// that so that reading it back (with its revision) always fits.
const (
	MaxConfigBytes  = 1 << 20 // 1 MiB of YAML
	MaxNameLen      = 64      // link, filter group, balance group, profile and rule names
	MaxSiteLen      = 128     // the site name
	MaxCommentBytes = 1024    // a revision's comment
	// PortBits is the width of a data-plane port number (port_t in
	// p4src/shared/defines.p4): port_map values are 0..511.
	PortBits         = 9
	MaxDataPlanePort = 1<<PortBits - 1
)

// Keep-alive timing bounds.
const (
	MinInterval     = Duration(10 * time.Millisecond)
	MaxInterval     = Duration(60 * time.Second)
	MinInitialDelay = Duration(10 * time.Millisecond)
	MaxInitialDelay = Duration(10 * time.Minute)
	MaxThreshold    = 1000 // loss_threshold and recovery_threshold
)

// ErrTooLarge: a configuration, name or comment is longer than its bound.
var ErrTooLarge = errors.New("too large")

// ErrEncoding: the text is not UTF-8 or holds a control character.
var ErrEncoding = errors.New("bad text encoding")

// Decode reads a YAML configuration strictly and returns it as written:
// no defaults applied and not validated (Parse does both). An unknown key,
// a value of the wrong type, a fraction where a whole number belongs, an
// explicit 0 where 0 is not allowed, a control character or invalid UTF-8
// are errors, each with its line and path. A document that holds nothing
// (empty, "---", only comments, "null") decodes to an empty Config.
func Decode(data []byte) (*Config, error) {
	var doc yaml.Node
	if err := parseText(data, &doc); err != nil {
		return nil, err
	}
	return decodeDoc(data, &doc)
}

// parseText checks data and parses it into doc: Decode's first half.
func parseText(data []byte, doc *yaml.Node) error {
	if len(data) > MaxConfigBytes {
		return errorf(errors.Join(ErrDecode, ErrTooLarge),
			"the configuration is %s; the limit is %s (%d bytes): remove objects or split rules", sizeText(len(data)), sizeText(MaxConfigBytes), MaxConfigBytes)
	}
	if err := checkText(data); err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(doc); err != nil && !errors.Is(err, io.EOF) {
		return decodeError(err, nil)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return errorf(ErrDecode, "the file holds more than one YAML document; keep one (remove the second '---')")
	}
	return nil
}

// decodeDoc is Decode's second half: doc is data parsed (parseText).
func decodeDoc(data []byte, doc *yaml.Node) (*Config, error) {
	c := new(Config)
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind == 0 || root.Kind == yaml.DocumentNode || (root.Kind == yaml.ScalarNode && root.Tag == "!!null") {
		return c, nil
	}
	w := &walker{lines: make(map[int][]string), values: make(map[int]map[string]string)}
	w.walk(root, reflect.TypeFor[Config](), "")

	if !w.unknown && len(w.p) == 0 {
		// Every key is known (the walker saw them all): decoding the
		// document already parsed is what the strict decoder does with
		// the text. Any problem there is reported as that decoder
		// words it, below.
		if err := doc.Decode(c); err == nil {
			return c, nil
		}
		c = new(Config)
	}
	sd := yaml.NewDecoder(bytes.NewReader(data))
	sd.KnownFields(true)
	if err := sd.Decode(c); err != nil && !errors.Is(err, io.EOF) {
		w.p = append(w.p, decodeError(err, w))
	}
	if err := w.p.err(); err != nil {
		return nil, err
	}
	return c, nil
}

// sizeText gives a byte count in plain words: "10.0 MiB", "1 MiB", "900 bytes".
func sizeText(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// badRune reports whether r may not appear in a configuration or a stored
// string: control characters (other than tab and line ends, which text
// checks allow separately) and the bidirectional overrides and isolates
// that reorder what a terminal shows.
func badRune(r rune) bool {
	switch {
	case r == utf8.RuneError:
		return true
	case unicode.IsControl(r):
		return true
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
		return true
	}
	return false
}

// runeName names a refused character for messages.
func runeName(r rune) string {
	names := map[rune]string{0: "NUL", 0x1b: "ESC", '\r': "CR", '\n': "LF", '\t': "TAB", 0x7f: "DEL", 0x08: "BS",
		0x202E: "RIGHT-TO-LEFT OVERRIDE", 0x202D: "LEFT-TO-RIGHT OVERRIDE", 0x202A: "LEFT-TO-RIGHT EMBEDDING",
		0x202B: "RIGHT-TO-LEFT EMBEDDING", 0x202C: "POP DIRECTIONAL FORMATTING", 0x2066: "LEFT-TO-RIGHT ISOLATE",
		0x2067: "RIGHT-TO-LEFT ISOLATE", 0x2068: "FIRST STRONG ISOLATE", 0x2069: "POP DIRECTIONAL ISOLATE"}
	if n, ok := names[r]; ok {
		return fmt.Sprintf("U+%04X (%s)", r, n)
	}
	return fmt.Sprintf("U+%04X", r)
}

// checkText refuses a document that is not UTF-8 or holds a control
// character outside tab, LF and CR LF line ends.
func checkText(data []byte) error {
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return errorf(errors.Join(ErrDecode, ErrEncoding),
				"line %d column %d: byte 0x%02x is not UTF-8; save the file as UTF-8", line, col, data[i])
		case r == '\n':
			line, col = line+1, 0
		case r == '\t':
		case r == '\r' && i+1 < len(data) && data[i+1] == '\n':
		case badRune(r):
			return errorf(errors.Join(ErrDecode, ErrEncoding),
				"line %d column %d: control character %s is not allowed; remove it", line, col, runeName(r))
		}
		i += size
		col++
	}
	return nil
}

// CheckText checks a string to be stored (a site name, a revision
// comment): UTF-8, no control or bidirectional-override characters, at
// most max bytes. what names it in the message ("comment").
func CheckText(what, s string, max int) error {
	if len(s) > max {
		return errorf(ErrTooLarge, "%s is %d bytes; the limit is %d: shorten it", what, len(s), max)
	}
	if !utf8.ValidString(s) {
		return errorf(ErrEncoding, "%s is not valid UTF-8: write it as UTF-8 text", what)
	}
	for i, r := range s {
		if badRune(r) {
			return errorf(ErrEncoding, "%s holds control character %s at byte %d; remove it", what, runeName(r), i)
		}
	}
	return nil
}

// zeroNotAllowed names the keys where an explicit 0 is refused (0 is not
// "unset": it would otherwise be replaced by the default), with the
// allowed range for the message.
var zeroNotAllowed = map[reflect.Type]map[string]string{
	reflect.TypeFor[Defaults]():     {"cores": coresBound.String(), "slot_bits": slotBitsBound.String(), "core_tpid": etherTypeRange},
	reflect.TypeFor[KeepAlive]():    {"ethertype": etherTypeRange},
	reflect.TypeFor[FilterGroup]():  {"cores": coresBound.String(), "tpid": etherTypeRange},
	reflect.TypeFor[BalanceGroup](): {"slot_bits": slotBitsBound.String()},
	reflect.TypeFor[Port]():         {"mtu": fmt.Sprintf("%d..%d bytes", MinMTU, MaxMTU)},
	reflect.TypeFor[SessionIdleTimeout](): {"tcp": sessionIdleBound.String() + " (default 300s)",
		"udp": sessionIdleBound.String() + " (default 60s)", "other": sessionIdleBound.String() + " (default 30s)"},
	reflect.TypeFor[Profile](): {"interval": intervalBound.String(),
		"initial_delay":      initialDelayBound.String(),
		"loss_threshold":     thresholdBound.String(),
		"recovery_threshold": thresholdBound.String(),
		"min_active":         fmt.Sprintf("1..%d members (at most the members of each balance group using the profile)", MaxFilterGroups),
		"stall_hold":         stallHoldBound.String(),
		"rtt_rounds":         fmt.Sprintf("1..%d rounds over max_rtt in a row (default %d)", MaxRTTRounds, DefaultRTTRounds),
		"loss_window":        fmt.Sprintf("%d..%d keep-alive rounds (default %d)", MinLossWindow, MaxLossWindow, DefaultLossWindow),
		"probe_every":        fmt.Sprintf("1..%d keep-alive rounds (default %d)", MaxProbeEvery, DefaultProbeEvery)},
}

// emptyNotAllowed names the keys of one of a few words where an explicit
// empty value (or a key with no value) is refused: "" would otherwise be
// replaced by the default. The value lists the words for the message.
var emptyNotAllowed = map[reflect.Type]map[string]string{
	reflect.TypeFor[Profile](): {
		"failback":         "auto or manual (default auto)",
		"return":           "all or new-sessions (default all)",
		"fail_open_action": "alarm, bypass, drop, rebalance or spare (default alarm)",
		"failure_action":   "bypass, drop, rebalance or spare (default bypass)",
		"probe":            "lan-to-wan or both (default lan-to-wan)",
		"stall_guard":      "hold or off (default hold)",
	},
	reflect.TypeFor[BalanceGroup](): {
		"failure_action": "bypass, drop, rebalance or spare (default: its profile's)",
	},
}

// wholeRanges are the ranges of the numeric keys that are not in
// zeroNotAllowed (0 there is refused by validation, or allowed).
var wholeRanges = map[reflect.Type]map[string]string{
	reflect.TypeFor[Rule]():         {"priority": fmt.Sprintf("1..%d (higher wins)", MaxPriority)},
	reflect.TypeFor[Link]():         {"id": fmt.Sprintf("0..%d", MaxLinks-1)},
	reflect.TypeFor[FilterGroup]():  {"id": fmt.Sprintf("0..%d", MaxFilterGroups-1)},
	reflect.TypeFor[BalanceGroup](): {"id": fmt.Sprintf("0..%d", MaxBalanceGroups-1)},
	reflect.TypeFor[Sessions]():     {"bypass_id": fmt.Sprintf("0..%d (default %d)", MaxFilterGroups-1, DefaultSessionBypassID)},
	reflect.TypeFor[Port]():         {"port": fmt.Sprintf("%d..%d", MinPort, MaxPort)},
}

// fieldRange is the allowed range of numeric key key of struct t, for a
// message about a value its Go type cannot hold.
func fieldRange(t reflect.Type, key string) (string, bool) {
	if r, ok := zeroNotAllowed[t][key]; ok {
		return r, true
	}
	r, ok := wholeRanges[t][key]
	return r, ok
}

// leafTypes are decoded from one scalar by their own UnmarshalYAML.
var leafTypes = map[reflect.Type]bool{
	reflect.TypeFor[Range](): true, reflect.TypeFor[MAC](): true, reflect.TypeFor[MACMask](): true,
	reflect.TypeFor[Prefix](): true, reflect.TypeFor[IPProto](): true, reflect.TypeFor[Duration](): true,
}

// walker checks a document's values against the model's types before
// decoding, and notes the path of each line for decode messages.
type walker struct {
	lines map[int][]string // line -> paths of the values on it, leaves last
	// values: line -> scalar text -> its path, to name the one value a
	// decode error quotes when a line holds several.
	values map[int]map[string]string
	p      problems
	depth  int
	// unknown: a mapping holds a key its struct does not have (the
	// strict decoder reports it).
	unknown bool
	// rangeLines: lines where a whole number outside its type was
	// reported with the field's range (the decoder's type error for it
	// would only repeat it with the type's).
	rangeLines map[int]bool
}

// outsideType reports whether scalar n is a whole number that integer
// type t cannot hold (a negative one for an unsigned type, or too big).
func outsideType(n *yaml.Node, t reflect.Type) bool {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
		return false
	}
	switch t.Kind() {
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		_, err := strconv.ParseUint(n.Value, 0, t.Bits())
		return err != nil
	}
	return false
}

// objectName names the object mapping n (of struct type t) is, as the
// operator named it: "profile fast", "filter group F1"; "defaults".
func objectName(t reflect.Type, n *yaml.Node) string {
	kind := map[reflect.Type]string{
		reflect.TypeFor[Profile](): "profile", reflect.TypeFor[FilterGroup](): "filter group",
		reflect.TypeFor[BalanceGroup](): "balance group", reflect.TypeFor[Link](): "link", reflect.TypeFor[Rule](): "rule",
	}[t]
	if kind == "" {
		return ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "name" && n.Content[i+1].Kind == yaml.ScalarNode {
			return kind + " " + n.Content[i+1].Value
		}
	}
	return ""
}

func (w *walker) note(n *yaml.Node, path string) {
	if path != "" {
		w.lines[n.Line] = append(w.lines[n.Line], path)
	}
}

// linePath names the value on a line: its one leaf, or what the values on
// the line have in common.
func linePath(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	p := paths[len(paths)-1]
	for _, q := range paths {
		if strings.HasPrefix(p, q) {
			continue
		}
		for !strings.HasPrefix(q, p) && p != "" {
			i := strings.LastIndexAny(p, ".[")
			if i < 0 {
				return ""
			}
			p = p[:i]
		}
	}
	return p
}

func (w *walker) walk(n *yaml.Node, t reflect.Type, path string) {
	w.depth++
	defer func() { w.depth-- }()
	if w.depth > 64 {
		w.unknown = true // not looked at: the strict decoder judges
		return
	}
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	w.note(n, path)
	if n.Kind == yaml.ScalarNode && path != "" {
		if w.values[n.Line] == nil {
			w.values[n.Line] = map[string]string{}
		}
		w.values[n.Line][n.Value] = path
	}
	if leafTypes[t] {
		if n.Kind == yaml.ScalarNode {
			w.str(n, path)
		}
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind == yaml.MappingNode {
			w.walkStruct(n, t, path)
		}
	case reflect.Slice:
		if n.Kind == yaml.SequenceNode {
			for i, e := range n.Content {
				w.walk(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i))
			}
		}
	case reflect.Map:
		if n.Kind == yaml.MappingNode {
			w.walkMap(n, t, path)
		}
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Int, reflect.Int32, reflect.Int64:
		if n.Kind == yaml.ScalarNode && n.Tag == "!!float" {
			w.p.addf(path, ErrSyntax, "%s is not a whole number; write an integer", n.Value)
		}
	case reflect.String:
		if n.Kind == yaml.ScalarNode {
			w.str(n, path)
		}
	}
}

// walkStruct walks the keys of mapping n that name fields of struct t.
func (w *walker) walkStruct(n *yaml.Node, t reflect.Type, path string) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		f, ok := fieldByKey(t, k.Value)
		if !ok {
			w.unknown = true
			continue // strict decoding reports it
		}
		p := k.Value
		if path != "" {
			p = path + "." + k.Value
		}
		w.note(k, p)
		if rng, ok := zeroNotAllowed[t][k.Value]; ok && (isZero(v, f.Type) || isNull(v)) {
			what := "0"
			if isNull(v) {
				what = "no value"
			}
			w.p = append(w.p, &FieldError{Path: p, Object: objectName(t, n),
				Err: errorf(ErrOutOfRange, "%s is out of range %s (%s is a value, not \"unset\": leave the key out for the default)", what, rng, what)})
		} else if words, ok := emptyNotAllowed[t][k.Value]; ok && (isNull(v) || (v.Kind == yaml.ScalarNode && v.Value == "")) {
			w.p = append(w.p, &FieldError{Path: p, Object: objectName(t, n),
				Err: errorf(ErrInvalid, "an empty value is not one of %s: give one, or leave the key out for the default", words)})
		} else if rng, ok := fieldRange(t, k.Value); ok && outsideType(v, f.Type) {
			// A negative number or one past the type: the field's own
			// range, not the Go type's, and the object by its name.
			fe := &FieldError{Path: p, Err: errorf(ErrOutOfRange, "%s is out of range %s", v.Value, rng), Object: objectName(t, n)}
			w.p = append(w.p, fe)
			if w.rangeLines == nil {
				w.rangeLines = map[int]bool{}
			}
			w.rangeLines[v.Line] = true
		}
		w.walk(v, f.Type, p)
	}
}

// walkMap walks the keys and values of mapping n, for map type t.
func (w *walker) walkMap(n *yaml.Node, t reflect.Type, path string) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		p := fmt.Sprintf("%s[%q]", path, k.Value)
		w.note(k, p)
		w.str(k, p)
		w.walk(v, t.Elem(), p)
	}
}

// str refuses control characters in a decoded string (YAML escapes such
// as "\e" get past checkText).
func (w *walker) str(n *yaml.Node, path string) {
	for _, r := range n.Value {
		if badRune(r) {
			w.p.addf(path, ErrEncoding, "holds control character %s; remove it", runeName(r))
			return
		}
	}
}

// isNull reports whether n is a key's missing value ("key:", "key: ~").
func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// isZero reports whether a scalar reads as 0 for a field of type t.
func isZero(n *yaml.Node, t reflect.Type) bool {
	if n.Kind != yaml.ScalarNode {
		return false
	}
	if t == reflect.TypeFor[Duration]() {
		d, err := ParseDuration(n.Value)
		return err == nil && d == 0
	}
	switch t.Kind() {
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v, err := strconv.ParseUint(n.Value, 0, 64)
		return err == nil && v == 0
	}
	return false
}

// fieldByKey finds the struct field whose yaml key is key.
func fieldByKey(t reflect.Type, key string) (reflect.StructField, bool) {
	f, ok := yamlFields(t)[key]
	return f, ok
}

// fieldsByType holds, per struct type, its fields by yaml key: built once
// per type, not once per key of every document (a site's thousand rules
// have a handful of keys each).
var fieldsByType sync.Map // reflect.Type -> map[string]reflect.StructField

func yamlFields(t reflect.Type) map[string]reflect.StructField {
	if m, ok := fieldsByType.Load(t); ok {
		return m.(map[string]reflect.StructField)
	}
	m := map[string]reflect.StructField{}
	for f := range t.Fields() {
		tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if _, dup := m[tag]; !dup {
			m[tag] = f // the first field of a key, as a scan finds it
		}
	}
	fieldsByType.Store(t, m)
	return m
}

var (
	unknownFieldRE   = regexp.MustCompile(`^line (\d+): field (.+) not found in type (\S+)$`)
	typeErrorRE      = regexp.MustCompile("^line (\\d+): cannot unmarshal !!(\\w+) `(.*)` into (\\S+)$")
	typeErrorNoValRE = regexp.MustCompile(`^line (\d+): cannot unmarshal !!(\w+) into (\S+)$`)
	lineRE           = regexp.MustCompile(`^line (\d+): (.*)$`)
)

// intRange says the range of a Go integer type the decoder names ("" for
// other types).
func intRange(t string) string {
	bits := map[string]int{"uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64, "uint": 64,
		"int8": 8, "int16": 16, "int32": 32, "int64": 64, "int": 64}
	b, ok := bits[t]
	if !ok {
		return ""
	}
	if strings.HasPrefix(t, "u") {
		return fmt.Sprintf("0..%d", uint64(1)<<b-1)
	}
	return fmt.Sprintf("%d..%d", -(int64(1) << (b - 1)), int64(1)<<(b-1)-1)
}

// goTypeWords describes a Go type the decoder names in a type error.
func goTypeWords(t string) string {
	switch {
	case strings.HasPrefix(t, "uint") || strings.HasPrefix(t, "int"):
		return "a whole number"
	case t == "string":
		return "a text value"
	case t == "bool":
		return "true or false"
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map["):
		return "a mapping (key: value)"
	case strings.HasPrefix(t, "config."):
		if mt, ok := modelTypes[t]; ok {
			return mt.what + " (a mapping)"
		}
	}
	return t
}

var yamlKinds = map[string]string{"str": "text", "int": "a number", "float": "a number", "bool": "a boolean",
	"seq": "a list", "map": "a mapping", "null": "nothing", "binary": "binary data", "timestamp": "a date"}

// decodeError turns a yaml.v3 error into one error per problem, each
// wrapping ErrDecode (and ErrUnknownKey for unknown keys). lines maps a
// line to the path of the value on it, when known.
func decodeError(err error, w *walker) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return errorf(ErrDecode, "%s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	at := func(line string, value ...string) string {
		n, _ := strconv.Atoi(line)
		if w == nil {
			return "line " + line
		}
		if len(value) == 1 {
			if p, ok := w.values[n][value[0]]; ok {
				return fmt.Sprintf("line %s: %s", line, p)
			}
		}
		if p := linePath(w.lines[n]); p != "" {
			return fmt.Sprintf("line %s: %s", line, p)
		}
		return "line " + line
	}
	errs := make([]error, 0, len(te.Errors))
	for _, msg := range te.Errors {
		if m := unknownFieldRE.FindStringSubmatch(msg); m != nil {
			errs = append(errs, errorf(errors.Join(ErrDecode, ErrUnknownKey),
				"line %s: unknown key %q in %s", m[1], m[2], describeType(m[3])))
			continue
		}
		if m := typeErrorRE.FindStringSubmatch(msg); m != nil {
			got := yamlKinds[m[2]]
			if got == "" {
				got = m[2]
			}
			if n, _ := strconv.Atoi(m[1]); w != nil && w.rangeLines[n] && m[2] == "int" && intRange(m[4]) != "" {
				continue // reported with the field's range
			}
			if r := intRange(m[4]); r != "" && m[2] == "int" {
				// A whole number the type cannot hold.
				errs = append(errs, errorf(ErrDecode, "%s: %s is out of range: want a whole number %s", at(m[1], m[3]), m[3], r))
				continue
			}
			errs = append(errs, errorf(ErrDecode, "%s: %q is %s; want %s", at(m[1], m[3]), m[3], got, goTypeWords(m[4])))
			continue
		}
		if m := typeErrorNoValRE.FindStringSubmatch(msg); m != nil {
			got := yamlKinds[m[2]]
			if got == "" {
				got = m[2]
			}
			errs = append(errs, errorf(ErrDecode, "%s: %s here; want %s", at(m[1]), got, goTypeWords(m[3])))
			continue
		}
		if m := lineRE.FindStringSubmatch(msg); m != nil {
			errs = append(errs, errorf(ErrDecode, "%s: %s", at(m[1]), m[2]))
			continue
		}
		errs = append(errs, errorf(ErrDecode, "%s", msg))
	}
	return errors.Join(errs...)
}
