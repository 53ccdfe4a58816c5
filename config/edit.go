package config

import (
	"bytes"
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Edit returns the YAML of edited written as a change to orig, the
// operator's file: only the parts whose meaning changed are rewritten, in
// place, and everything else (comments, the order of objects and keys,
// flow or block style, spacing) is kept byte for byte. Objects in lists
// are matched by name (ports by port number), so an object added and then
// deleted gives back the original bytes. A value is compared by what it
// means (0x88B5 and 34997, P41 and 4/1 are the same), never by its text.
//
// When orig is not a YAML mapping (empty, a comment only) the result is
// edited.Marshal().
func Edit(orig []byte, edited *Config) ([]byte, error) {
	var od yaml.Node
	if err := yaml.Unmarshal(orig, &od); err != nil {
		return edited.Marshal()
	}
	return editNode(orig, &od, nil, edited)
}

// Document is a configuration file read once: its text, its YAML nodes
// and what they decode to. Decode and Edit work from these, so an edit
// (read, change, write back) parses the text once.
type Document struct {
	data []byte
	doc  yaml.Node
	cfg  *Config // as decoded; never handed out
}

// ReadDocument parses data once, as Decode reads it; the errors are
// Decode's.
func ReadDocument(data []byte) (*Document, error) {
	d := &Document{data: data}
	if err := parseText(data, &d.doc); err != nil {
		return nil, err
	}
	cfg, err := decodeDoc(data, &d.doc)
	if err != nil {
		return nil, err
	}
	d.cfg = cfg
	return d, nil
}

// Decode returns what config.Decode returns for the document's text: a
// new Config each call.
func (d *Document) Decode() *Config { return d.cfg.Clone() }

// Edit is config.Edit of the document's text. Only the top-level keys
// whose value edited changes are written as YAML and compared: the others
// keep their nodes.
func (d *Document) Edit(edited *Config) ([]byte, error) {
	return editNode(d.data, &d.doc, d.cfg, edited)
}

// encode is Marshal's YAML nodes, before they are written as text.
func (c *Config) encode() (*yaml.Node, error) {
	var doc yaml.Node
	if err := doc.Encode(c); err != nil {
		return nil, fmt.Errorf("marshal config: %w", err)
	}
	hexEtherTypes(&doc)
	return &doc, nil
}

// Clone returns a deep copy of c: nothing of it (a list, a pointed-to
// value) is shared with c.
func (c *Config) Clone() *Config {
	out := new(Config)
	deepCopy(reflect.ValueOf(out).Elem(), reflect.ValueOf(c).Elem())
	return out
}

// deepCopy copies src into dst (settable, of src's type), allocating
// anew every pointer, slice and map.
func deepCopy(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Type().Elem())
		deepCopy(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := range src.Len() {
			deepCopy(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(src.Type(), src.Len())
		for it := src.MapRange(); it.Next(); {
			v := reflect.New(src.Type().Elem()).Elem()
			deepCopy(v, it.Value())
			m.SetMapIndex(it.Key(), v)
		}
		dst.Set(m)
	case reflect.Struct:
		dst.Set(src) // unexported fields as they are
		for i := range src.NumField() {
			if dst.Field(i).CanSet() {
				deepCopy(dst.Field(i), src.Field(i))
			}
		}
	case reflect.Array:
		for i := range src.Len() {
			deepCopy(dst.Index(i), src.Index(i))
		}
	default:
		dst.Set(src)
	}
}

// editNode is Edit with orig already parsed into od (not changed) and,
// unless nil, decoded into origCfg (not changed).
func editNode(orig []byte, od *yaml.Node, origCfg *Config, edited *Config) ([]byte, error) {
	if len(od.Content) != 1 || od.Content[0].Kind != yaml.MappingNode || od.Content[0].Style&yaml.FlowStyle != 0 {
		return edited.Marshal()
	}
	om := od.Content[0]
	nm, err := editedMapping(om, origCfg, edited)
	if err != nil {
		return nil, err
	}
	// Edits style new nodes: take the meaning before.
	var want Config
	if err := nm.Decode(&want); err != nil {
		return nil, fmt.Errorf("config: edit: %w", err)
	}
	e := &editor{lines: splitLines(orig)}
	if err := e.mapping(om, nm, func(n *yaml.Node) *yaml.Node { return n }, len(e.lines)); err != nil {
		return nil, err
	}
	out := e.apply()
	// The result must mean what edited means: otherwise write it whole.
	if got, err := Decode(out); err != nil || !reflect.DeepEqual(orderless(got), orderless(&want)) {
		return edited.Marshal()
	}
	return out, nil
}

// editedMapping is edited's top-level YAML mapping, in Marshal's order of
// keys. A key whose value is what origCfg (orig's meaning; nil: unknown)
// holds and that om has keeps om's nodes (the editor then skips it
// without comparing); only the other keys are encoded.
func editedMapping(om *yaml.Node, origCfg, edited *Config) (*yaml.Node, error) {
	oldVal := map[string][2]*yaml.Node{}
	for i := 0; i+1 < len(om.Content); i += 2 {
		oldVal[om.Content[i].Value] = [2]*yaml.Node{om.Content[i], om.Content[i+1]}
	}
	ev := reflect.ValueOf(edited).Elem()
	t := ev.Type()
	keep := make([]bool, t.NumField())
	part := new(Config)
	pv := reflect.ValueOf(part).Elem()
	for i := range t.NumField() {
		key, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if _, ok := oldVal[key]; ok && origCfg != nil &&
			reflect.DeepEqual(reflect.ValueOf(origCfg).Elem().Field(i).Interface(), ev.Field(i).Interface()) {
			keep[i] = true
			continue
		}
		pv.Field(i).Set(ev.Field(i))
	}
	doc, err := part.encode()
	if err != nil {
		return nil, err
	}
	enc := map[string][2]*yaml.Node{}
	m := doc // Node.Encode gives the document's root
	if m.Kind == yaml.DocumentNode && len(m.Content) == 1 {
		m = m.Content[0]
	}
	if m.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(m.Content); i += 2 {
			enc[m.Content[i].Value] = [2]*yaml.Node{m.Content[i], m.Content[i+1]}
		}
	}
	nm := &yaml.Node{Kind: yaml.MappingNode}
	for i := range t.NumField() {
		key, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		kv, ok := enc[key]
		if keep[i] {
			kv, ok = oldVal[key], true
		}
		if ok {
			nm.Content = append(nm.Content, kv[0], kv[1])
		}
	}
	return nm, nil
}

// editor collects line replacements over the original file.
type editor struct {
	lines []string // with their "\n"
	edits []lineEdit
}

// lineEdit replaces lines [from, to) (0-based) with text; from == to
// inserts before from.
type lineEdit struct {
	from, to int
	text     string
	order    int
}

func (e *editor) replace(from, to int, text string) {
	e.edits = append(e.edits, lineEdit{from: from, to: to, text: text, order: len(e.edits)})
}

func (e *editor) apply() []byte {
	var b bytes.Buffer
	cur := 0
	// Edits do not overlap. At one line, what is inserted before it comes
	// before the text that replaces it; inserts keep their order.
	sorted := slices.Clone(e.edits)
	slices.SortStableFunc(sorted, func(a, b lineEdit) int {
		return cmp.Or(cmp.Compare(a.from, b.from), cmp.Compare(a.to-a.from, b.to-b.from), cmp.Compare(a.order, b.order))
	})
	for _, ed := range sorted {
		for ; cur < ed.from && cur < len(e.lines); cur++ {
			b.WriteString(e.lines[cur])
		}
		b.WriteString(ed.text)
		if ed.to > cur {
			cur = ed.to
		}
	}
	for ; cur < len(e.lines); cur++ {
		b.WriteString(e.lines[cur])
	}
	return b.Bytes()
}

func splitLines(b []byte) []string {
	s := string(b)
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	lines := strings.SplitAfter(s, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// wrapFn rebuilds, around a node, the path from the document's root to
// it, so that the node alone decodes into a Config for comparison.
type wrapFn func(*yaml.Node) *yaml.Node

// same says whether two nodes at the same place mean the same.
func same(wrap wrapFn, a, b *yaml.Node) bool {
	if a == b {
		return true
	}
	var ca, cb Config
	if wrap(a).Decode(&ca) != nil || wrap(b).Decode(&cb) != nil {
		return false
	}
	return reflect.DeepEqual(ca, cb)
}

// orderless sorts the lists whose order means nothing (ports, profiles,
// rules: a rule's priority orders it); links, filter groups and balance
// groups keep theirs (ids left out are dealt in order).
func orderless(c *Config) *Config {
	slices.SortStableFunc(c.Ports, func(a, b Port) int { return cmp.Compare(a.Port, b.Port) })
	slices.SortStableFunc(c.Profiles, func(a, b Profile) int { return cmp.Compare(a.Name, b.Name) })
	slices.SortStableFunc(c.Rules, func(a, b Rule) int { return cmp.Compare(b.Priority, a.Priority) })
	return c
}

// lastLine is the last line (1-based) a node's text takes.
func lastLine(n *yaml.Node) int {
	l := n.Line
	for _, c := range n.Content {
		l = max(l, lastLine(c))
	}
	return l
}

// headLines is how many comment lines right above line (1-based) belong
// to the node starting there (its head comment).
func (e *editor) headLines(n *yaml.Node) int {
	if n.HeadComment == "" {
		return 0
	}
	k := 0
	for i := n.Line - 2; i >= 0 && strings.HasPrefix(strings.TrimSpace(e.lines[i]), "#"); i-- {
		k++
	}
	return min(k, strings.Count(n.HeadComment, "\n")+1)
}

func pair(k, v *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{k, v}}
}

func isBlock(n *yaml.Node) bool {
	return (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && n.Style&yaml.FlowStyle == 0 && len(n.Content) > 0
}

// mapping splices the changes from om to nm (block mappings); end is
// the line (0-based, exclusive) where om's text ends at the latest.
func (e *editor) mapping(om, nm *yaml.Node, wrap wrapFn, end int) error {
	newVal := map[string]*yaml.Node{}
	var newKeys []string
	for i := 0; i+1 < len(nm.Content); i += 2 {
		newVal[nm.Content[i].Value] = nm.Content[i+1]
		newKeys = append(newKeys, nm.Content[i].Value)
	}
	oldIdx := map[string]int{}
	for i := 0; i+1 < len(om.Content); i += 2 {
		oldIdx[om.Content[i].Value] = i
	}
	indent := om.Content[0].Column - 1
	for i := 0; i+1 < len(om.Content); i += 2 {
		k, v := om.Content[i], om.Content[i+1]
		from, to := k.Line-1, lastLine(v)
		nv, ok := newVal[k.Value]
		if !ok {
			if !same(func(n *yaml.Node) *yaml.Node { return wrap(pair(k, n)) }, v, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}) {
				e.replace(from-e.headLines(k), to, "")
			}
			continue
		}
		kw := func(n *yaml.Node) *yaml.Node { return wrap(pair(k, n)) }
		if same(kw, v, nv) {
			continue
		}
		if err := e.value(k, v, nv, kw, indent, from, to); err != nil {
			return err
		}
	}
	// New keys go after the key before them in the new order (or first).
	after := -1
	for _, key := range newKeys {
		if i, ok := oldIdx[key]; ok {
			after = i
			continue
		}
		nv := newVal[key]
		if nv.Kind == yaml.ScalarNode && nv.Tag == "!!null" {
			continue
		}
		text, err := render(pair(&yaml.Node{Kind: yaml.ScalarNode, Value: key}, nv), indent)
		if err != nil {
			return err
		}
		at := om.Content[0].Line - 1 - e.headLines(om.Content[0])
		if after >= 0 {
			at = lastLine(om.Content[after+1])
		}
		e.replace(at, at, text)
	}
	return nil
}

// value splices one key's value: inside it when both are block
// collections, else the key's lines are written again.
func (e *editor) value(k, v, nv *yaml.Node, wrap wrapFn, indent, from, to int) error {
	switch {
	case v.Kind == yaml.MappingNode && nv.Kind == yaml.MappingNode && isBlock(v):
		return e.mapping(v, nv, wrap, to)
	case v.Kind == yaml.SequenceNode && nv.Kind == yaml.SequenceNode && isBlock(v) && len(nv.Content) > 0:
		return e.sequence(v, nv, wrap)
	}
	if v.Kind == yaml.ScalarNode && nv.Kind == yaml.ScalarNode && k.Line == v.Line {
		if line, ok := e.scalarInLine(v, nv); ok {
			e.replace(from, to, line)
			return nil
		}
	}
	keepStyle(v, nv)
	nk := &yaml.Node{Kind: yaml.ScalarNode, Value: k.Value, LineComment: k.LineComment}
	if nv.LineComment == "" {
		nv.LineComment = v.LineComment
	}
	text, err := render(pair(nk, nv), indent)
	if err != nil {
		return err
	}
	e.replace(from, to, text)
	return nil
}

// scalarInLine rewrites a plain scalar where it stands in its line, so
// that what follows it (a comment, aligned) stays where it was.
func (e *editor) scalarInLine(v, nv *yaml.Node) (string, bool) {
	line := e.lines[v.Line-1]
	start := v.Column - 1
	if v.Style != 0 || start+len(v.Value) > len(line) || line[start:start+len(v.Value)] != v.Value {
		return "", false
	}
	text, err := render(nv, 0)
	if err != nil || strings.Count(text, "\n") != 1 {
		return "", false
	}
	text = strings.TrimSuffix(text, "\n")
	rest := line[start+len(v.Value):]
	if c := strings.Index(rest, "#"); c > 0 && strings.TrimSpace(rest[:c]) == "" {
		// Keep the comment's column when the new value leaves room.
		pad := max(c+len(v.Value)-len(text), 1)
		rest = strings.Repeat(" ", pad) + rest[c:]
	}
	return line[:start] + text + rest, true
}

// keepStyle writes a new value in the style of the one it replaces: flow
// collections stay flow.
func keepStyle(old, n *yaml.Node) {
	if old.Style&yaml.FlowStyle != 0 && (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) {
		n.Style |= yaml.FlowStyle
	}
}

// identity is what matches a list item across an edit: its name (ports:
// its port number), or "" (matched by position).
func identity(n *yaml.Node) string {
	if n.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i].Value; k == "name" || k == "port" {
			return k + "=" + n.Content[i+1].Value
		}
	}
	return ""
}

// sequence splices the changes from os to ns (a block sequence).
func (e *editor) sequence(os, ns *yaml.Node, wrap wrapFn) error {
	key := func(n *yaml.Node, i int) string {
		if id := identity(n); id != "" {
			return id
		}
		return fmt.Sprintf("#%d", i)
	}
	oldAt := map[string]int{}
	for i, it := range os.Content {
		oldAt[key(it, i)] = i
	}
	if len(oldAt) != len(os.Content) {
		return e.rewriteSequence(os, ns)
	}
	newAt := map[string]int{}
	for i, it := range ns.Content {
		newAt[key(it, i)] = i
	}
	indent := os.Content[0].Column - 3 // "- " before the item
	itemWrap := func(n *yaml.Node) *yaml.Node {
		return wrap(&yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{n}})
	}
	flow := os.Content[0].Style&yaml.FlowStyle != 0
	for i, it := range os.Content {
		from, to := it.Line-1, lastLine(it)
		j, ok := newAt[key(it, i)]
		if !ok {
			e.replace(from-e.headLines(it), to, "")
			continue
		}
		nit := ns.Content[j]
		if same(itemWrap, it, nit) {
			continue
		}
		if it.Kind == yaml.MappingNode && nit.Kind == yaml.MappingNode && isBlock(it) {
			if err := e.mapping(it, nit, itemWrap, to); err != nil {
				return err
			}
			continue
		}
		keepStyle(it, nit)
		if nit.LineComment == "" {
			nit.LineComment = it.LineComment
		}
		text, err := render(&yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{nit}}, indent)
		if err != nil {
			return err
		}
		e.replace(from, to, text)
	}
	prev := -1
	for j, nit := range ns.Content {
		if i, ok := oldAt[key(nit, j)]; ok {
			prev = i
			continue
		}
		if flow && nit.Kind == yaml.MappingNode {
			nit.Style |= yaml.FlowStyle
		}
		text, err := render(&yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{nit}}, indent)
		if err != nil {
			return err
		}
		at := os.Content[0].Line - 1 - e.headLines(os.Content[0])
		if prev >= 0 {
			at = lastLine(os.Content[prev])
		}
		e.replace(at, at, text)
	}
	return nil
}

// rewriteSequence writes a whole sequence's items again (items that
// cannot be told apart).
func (e *editor) rewriteSequence(os, ns *yaml.Node) error {
	indent := os.Content[0].Column - 3
	text, err := render(&yaml.Node{Kind: yaml.SequenceNode, Content: ns.Content}, indent)
	if err != nil {
		return err
	}
	e.replace(os.Content[0].Line-1, lastLine(os), text)
	return nil
}

// render writes a node as YAML lines indented by indent spaces.
func render(n *yaml.Node, indent int) (string, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return "", fmt.Errorf("config: edit: %w", err)
	}
	if err := enc.Close(); err != nil {
		return "", fmt.Errorf("config: edit: %w", err)
	}
	pad := strings.Repeat(" ", max(indent, 0))
	var out strings.Builder
	for _, l := range splitLines(b.Bytes()) {
		if strings.TrimSpace(l) == "" {
			out.WriteString(l)
			continue
		}
		out.WriteString(pad + l)
	}
	return out.String(), nil
}
