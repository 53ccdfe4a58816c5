package p4src

import (
	"errors"
	"fmt"
	"sync"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	"google.golang.org/protobuf/encoding/prototext"
)

// ErrUnknownName is returned for a P4 object name the P4Info does not have.
var ErrUnknownName = errors.New("unknown p4info name")

// Schema is a P4Info indexed by name. Lookups of names that the P4Info lacks
// return ErrUnknownName, never a zero id.
type Schema struct {
	Info *p4configv1.P4Info

	tables         map[string]*Table
	actions        map[string]*Action
	counters       map[string]*p4configv1.Counter
	directCounters map[string]*p4configv1.DirectCounter
	registers      map[string]*p4configv1.Register
	valueSets      map[string]*p4configv1.ValueSet
	ctrlHeaders    map[string]*ControllerHeader
	tablesByID     map[uint32]*Table
	actionsByID    map[uint32]*Action
}

// Table is a table of the P4Info with its match fields by name.
type Table struct {
	*p4configv1.Table
	Fields     map[string]*p4configv1.MatchField
	FieldsByID map[uint32]*p4configv1.MatchField
	Actions    map[uint32]bool // action ids allowed in entries (not default-only)
}

// Action is an action of the P4Info with its parameters by name.
type Action struct {
	*p4configv1.Action
	Params     map[string]*p4configv1.Action_Param
	ParamsByID map[uint32]*p4configv1.Action_Param
}

// ControllerHeader is a packet_in / packet_out header with fields by name.
type ControllerHeader struct {
	*p4configv1.ControllerPacketMetadata
	Fields map[string]*p4configv1.ControllerPacketMetadata_Metadata
}

var (
	embeddedOnce   sync.Once
	embeddedSchema *Schema
	embeddedErr    error
)

// Load returns the schema of the embedded v1model P4Info. It is parsed once
// and shared; callers must not modify it.
func Load() (*Schema, error) {
	embeddedOnce.Do(func() {
		embeddedSchema, embeddedErr = ParseSchema(P4InfoText)
	})
	return embeddedSchema, embeddedErr
}

var (
	sessionsOnce   sync.Once
	sessionsSchema *Schema
	sessionsErr    error
)

// LoadSessions returns the schema of the embedded v1model "sessions"
// profile (the session memory's table beside the verdict). Parsed once
// and shared; callers must not modify it.
func LoadSessions() (*Schema, error) {
	sessionsOnce.Do(func() {
		sessionsSchema, sessionsErr = ParseSchema(SessionsP4InfoText)
	})
	return sessionsSchema, sessionsErr
}

// TableSessions is the session memory's table (docs/sessions.md), in
// the builds of the "sessions" profile only.
const TableSessions = "BalancerIngress.sessions"

// HasSessions says whether the program holds the session memory's table.
func (s *Schema) HasSessions() bool {
	for _, t := range s.Info.GetTables() {
		if t.GetPreamble().GetName() == TableSessions {
			return true
		}
	}
	return false
}

// The P4 architectures the balancer program is built for.
const (
	ArchV1Model = "v1model" // BMv2 and the software switch
	ArchTNA     = "tna"     // Tofino
)

var (
	tnaOnce   sync.Once
	tnaSchema *Schema
	tnaErr    error
)

// LoadArch returns the schema of the embedded P4Info of the build for an
// architecture: ArchV1Model ("" too) is Load's; ArchTNA is the committed
// bf-p4c build's. Parsed once and shared; callers must not modify it.
func LoadArch(arch string) (*Schema, error) {
	switch arch {
	case "", ArchV1Model:
		return Load()
	case ArchTNA:
		tnaOnce.Do(func() {
			tnaSchema, tnaErr = ParseSchema(TNAP4InfoText)
		})
		return tnaSchema, tnaErr
	}
	return nil, fmt.Errorf("p4info: no build for architecture %q (known: %s, %s)", arch, ArchV1Model, ArchTNA)
}

// ParseSchema parses a P4Info in protobuf text format.
func ParseSchema(text []byte) (*Schema, error) {
	info := &p4configv1.P4Info{}
	if err := prototext.Unmarshal(text, info); err != nil {
		return nil, fmt.Errorf("p4info: parse: %w", err)
	}
	return NewSchema(info)
}

// NewSchema indexes a P4Info. Objects are known by their fully qualified
// name ("BalancerIngress.flow_rules") and by their alias ("flow_rules").
func NewSchema(info *p4configv1.P4Info) (*Schema, error) {
	s := &Schema{
		Info:           info,
		tables:         map[string]*Table{},
		actions:        map[string]*Action{},
		counters:       map[string]*p4configv1.Counter{},
		directCounters: map[string]*p4configv1.DirectCounter{},
		registers:      map[string]*p4configv1.Register{},
		valueSets:      map[string]*p4configv1.ValueSet{},
		ctrlHeaders:    map[string]*ControllerHeader{},
		tablesByID:     map[uint32]*Table{},
		actionsByID:    map[uint32]*Action{},
	}
	add := func(p *p4configv1.Preamble, put func(string)) {
		put(p.GetName())
		if a := p.GetAlias(); a != "" && a != p.GetName() {
			put(a)
		}
	}
	for _, a := range info.GetActions() {
		act := &Action{Action: a, Params: map[string]*p4configv1.Action_Param{}, ParamsByID: map[uint32]*p4configv1.Action_Param{}}
		for _, p := range a.GetParams() {
			act.Params[p.GetName()] = p
			act.ParamsByID[p.GetId()] = p
		}
		add(a.GetPreamble(), func(n string) { s.actions[n] = act })
		s.actionsByID[a.GetPreamble().GetId()] = act
	}
	for _, t := range info.GetTables() {
		tb := &Table{Table: t, Fields: map[string]*p4configv1.MatchField{}, FieldsByID: map[uint32]*p4configv1.MatchField{}, Actions: map[uint32]bool{}}
		for _, f := range t.GetMatchFields() {
			tb.Fields[f.GetName()] = f
			tb.FieldsByID[f.GetId()] = f
		}
		for _, ar := range t.GetActionRefs() {
			if ar.GetScope() != p4configv1.ActionRef_DEFAULT_ONLY {
				tb.Actions[ar.GetId()] = true
			}
		}
		add(t.GetPreamble(), func(n string) { s.tables[n] = tb })
		s.tablesByID[t.GetPreamble().GetId()] = tb
	}
	for _, c := range info.GetCounters() {
		add(c.GetPreamble(), func(n string) { s.counters[n] = c })
	}
	for _, c := range info.GetDirectCounters() {
		add(c.GetPreamble(), func(n string) { s.directCounters[n] = c })
	}
	for _, r := range info.GetRegisters() {
		add(r.GetPreamble(), func(n string) { s.registers[n] = r })
	}
	for _, v := range info.GetValueSets() {
		add(v.GetPreamble(), func(n string) { s.valueSets[n] = v })
	}
	for _, c := range info.GetControllerPacketMetadata() {
		h := &ControllerHeader{ControllerPacketMetadata: c, Fields: map[string]*p4configv1.ControllerPacketMetadata_Metadata{}}
		for _, m := range c.GetMetadata() {
			h.Fields[m.GetName()] = m
		}
		add(c.GetPreamble(), func(n string) { s.ctrlHeaders[n] = h })
	}
	return s, nil
}

// Table returns the table of that name.
func (s *Schema) Table(name string) (*Table, error) {
	if t, ok := s.tables[name]; ok {
		return t, nil
	}
	return nil, fmt.Errorf("p4info: table %q: %w", name, ErrUnknownName)
}

// TableByID returns the table of that id, or nil.
func (s *Schema) TableByID(id uint32) *Table { return s.tablesByID[id] }

// ActionByID returns the action of that id, or nil.
func (s *Schema) ActionByID(id uint32) *Action { return s.actionsByID[id] }

// Field returns a match field of the table.
func (t *Table) Field(name string) (*p4configv1.MatchField, error) {
	if f, ok := t.Fields[name]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("p4info: table %q field %q: %w", t.GetPreamble().GetName(), name, ErrUnknownName)
}

// Action returns the action of that name.
func (s *Schema) Action(name string) (*Action, error) {
	if a, ok := s.actions[name]; ok {
		return a, nil
	}
	return nil, fmt.Errorf("p4info: action %q: %w", name, ErrUnknownName)
}

// Param returns a parameter of the action.
func (a *Action) Param(name string) (*p4configv1.Action_Param, error) {
	if p, ok := a.Params[name]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("p4info: action %q param %q: %w", a.GetPreamble().GetName(), name, ErrUnknownName)
}

// Counter returns the indexed counter of that name.
func (s *Schema) Counter(name string) (*p4configv1.Counter, error) {
	if c, ok := s.counters[name]; ok {
		return c, nil
	}
	return nil, fmt.Errorf("p4info: counter %q: %w", name, ErrUnknownName)
}

// DirectCounter returns the direct counter of that name.
func (s *Schema) DirectCounter(name string) (*p4configv1.DirectCounter, error) {
	if c, ok := s.directCounters[name]; ok {
		return c, nil
	}
	return nil, fmt.Errorf("p4info: direct counter %q: %w", name, ErrUnknownName)
}

// Register returns the register of that name.
func (s *Schema) Register(name string) (*p4configv1.Register, error) {
	if r, ok := s.registers[name]; ok {
		return r, nil
	}
	return nil, fmt.Errorf("p4info: register %q: %w", name, ErrUnknownName)
}

// ValueSet returns the parser value set of that name.
func (s *Schema) ValueSet(name string) (*p4configv1.ValueSet, error) {
	if v, ok := s.valueSets[name]; ok {
		return v, nil
	}
	return nil, fmt.Errorf("p4info: value set %q: %w", name, ErrUnknownName)
}

// ControllerHeader returns the controller packet metadata of that name
// ("packet_in", "packet_out").
func (s *Schema) ControllerHeader(name string) (*ControllerHeader, error) {
	if h, ok := s.ctrlHeaders[name]; ok {
		return h, nil
	}
	return nil, fmt.Errorf("p4info: controller header %q: %w", name, ErrUnknownName)
}
