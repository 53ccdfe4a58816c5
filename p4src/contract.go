package p4src

import (
	"errors"
	"fmt"
	"slices"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
)

// ErrContract is returned for a P4Info that breaks the naming contract:
// a program whose tables, actions, counters, value sets or controller
// headers do not have the names, ids and shapes of the v1model build.
var ErrContract = errors.New("p4info breaks the balancer's naming contract")

// CheckContract compares a P4Info (another build of the balancer program,
// such as the TNA one) with the reference (the embedded v1model build,
// from Load) and returns an error naming the first difference, or nil.
//
// Every object of the reference must be in info under the same name with
// the same id, and info must have no object the reference lacks. Counters,
// direct counters and value sets are matched by name only: bf-p4c derives
// the ids of TNA extern instances from their names and ignores @id, so
// those ids are the build's own (the daemon resolves them by name from
// the P4Info it pushes), and a table's direct resources are compared by
// name too. Tables
// must agree on their match fields (name, id, match kind, width), the
// actions they allow, their const default action and direct resources;
// actions on their parameters (name, id, width); counters and direct
// counters on their unit (and direct counters on their table); value sets
// and controller headers on their fields (a value set that describes no
// fields, as bf-p4c writes them, is taken as the reference's). Sizes are
// not compared: they are
// the target's (a Tofino slots table is larger than BMv2's).
func CheckContract(ref, info *p4configv1.P4Info) error {
	if info == nil {
		return fmt.Errorf("p4info: none given: %w", ErrContract)
	}
	if HasVerdict(ref) && !HasVerdict(info) {
		// A build made before the data-plane verdict (its filter_forward
		// has no liveness parameters): it keeps the rest of the contract,
		// and the controller runs it without the verdict.
		ref = WithoutVerdict(ref)
	}
	if hasCPUPortSetting(ref) && !hasCPUPortSetting(info) {
		// A build made before the run-time CPU port: the controller runs
		// it with its compiled-in port.
		ref = WithoutCPUPortSetting(ref)
	}
	c := &contractCtx{refNames: directResourceNames(ref), gotNames: directResourceNames(info)}
	for _, k := range contractKinds {
		want, got := k.list(ref), k.list(info)
		gotByName := make(map[string]contractObject, len(got))
		for _, o := range got {
			gotByName[o.pre.GetName()] = o
		}
		for _, w := range want {
			name := w.pre.GetName()
			g, ok := gotByName[name]
			if !ok {
				return contractErr(k.kind, name, "missing (the v1model build has it with id %#x)", w.pre.GetId())
			}
			if !k.anyID && g.pre.GetId() != w.pre.GetId() {
				return contractErr(k.kind, name, "id %#x, want %#x (the v1model build's)", g.pre.GetId(), w.pre.GetId())
			}
			if k.same != nil {
				if err := k.same(c, w.msg, g.msg); err != nil {
					return contractErr(k.kind, name, "%v", err)
				}
			}
		}
		wantNames := make(map[string]bool, len(want))
		for _, w := range want {
			wantNames[w.pre.GetName()] = true
		}
		for _, g := range got {
			if !wantNames[g.pre.GetName()] && !(k.kind == "register" && archOnlyRegisters[g.pre.GetName()]) {
				return contractErr(k.kind, g.pre.GetName(), "not in the v1model build (id %#x)", g.pre.GetId())
			}
		}
	}
	return nil
}

// archOnlyRegisters are registers an architecture's build may have that
// the v1model build lacks: the TNA evidence copy's rate limit across
// pipes (one pipe has nothing to copy). Like every register they are
// not read or written over P4Runtime.
var archOnlyRegisters = map[string]bool{RegisterEvidenceCopy: true}

func contractErr(kind, name, format string, args ...any) error {
	return fmt.Errorf("p4info: %s %q: %s: %w", kind, name, fmt.Sprintf(format, args...), ErrContract)
}

type contractObject struct {
	pre *p4configv1.Preamble
	msg any
}

type contractKind struct {
	kind string
	list func(*p4configv1.P4Info) []contractObject
	same func(c *contractCtx, want, got any) error // nil: name and id only
	// anyID: the id is the build's own (TNA extern instances).
	anyID bool
}

// contractCtx resolves the ids of direct resources to their names, in the
// reference and in the P4Info checked.
type contractCtx struct {
	refNames, gotNames map[uint32]string
}

func directResourceNames(i *p4configv1.P4Info) map[uint32]string {
	out := map[uint32]string{}
	for _, c := range i.GetDirectCounters() {
		out[c.GetPreamble().GetId()] = c.GetPreamble().GetName()
	}
	for _, m := range i.GetDirectMeters() {
		out[m.GetPreamble().GetId()] = m.GetPreamble().GetName()
	}
	return out
}

func objects[T interface{ GetPreamble() *p4configv1.Preamble }](xs []T) []contractObject {
	out := make([]contractObject, len(xs))
	for i, x := range xs {
		out[i] = contractObject{pre: x.GetPreamble(), msg: x}
	}
	return out
}

var contractKinds = []contractKind{
	{"table", func(i *p4configv1.P4Info) []contractObject { return objects(i.GetTables()) }, sameTable, false},
	{"action", func(i *p4configv1.P4Info) []contractObject { return objects(i.GetActions()) }, sameAction, false},
	{"counter", func(i *p4configv1.P4Info) []contractObject { return objects(i.GetCounters()) }, sameCounter, true},
	{"direct counter", func(i *p4configv1.P4Info) []contractObject { return objects(i.GetDirectCounters()) }, sameDirectCounter, true},
	{"value set", func(i *p4configv1.P4Info) []contractObject { return objects(i.GetValueSets()) }, sameValueSet, true},
	{"controller header", func(i *p4configv1.P4Info) []contractObject { return objects(i.GetControllerPacketMetadata()) }, sameControllerHeader, false},
	{"meter", func(i *p4configv1.P4Info) []contractObject { return objects(i.GetMeters()) }, nil, true},
	{"direct meter", func(i *p4configv1.P4Info) []contractObject { return objects(i.GetDirectMeters()) }, nil, true},
	{"register", func(i *p4configv1.P4Info) []contractObject { return objects(i.GetRegisters()) }, nil, true},
	{"action profile", func(i *p4configv1.P4Info) []contractObject { return objects(i.GetActionProfiles()) }, nil, true},
	{"digest", func(i *p4configv1.P4Info) []contractObject { return objects(i.GetDigests()) }, nil, true},
}

// field is what the contract pins of a match field, parameter or header
// field.
type contractField struct {
	id    uint32
	name  string
	bits  int32
	match string
}

func (f contractField) String() string {
	s := fmt.Sprintf("%s (id %d, %d bits", f.name, f.id, f.bits)
	if f.match != "" {
		s += ", " + f.match
	}
	return s + ")"
}

func sameFields(what string, want, got []contractField) error {
	for i := range max(len(want), len(got)) {
		switch {
		case i >= len(got):
			return fmt.Errorf("%s %d: missing, want %v", what, i+1, want[i])
		case i >= len(want):
			return fmt.Errorf("%s %d: %v is not in the v1model build", what, i+1, got[i])
		case want[i] != got[i]:
			return fmt.Errorf("%s %d: %v, want %v", what, i+1, got[i], want[i])
		}
	}
	return nil
}

func matchFields(t *p4configv1.Table) []contractField {
	var out []contractField
	for _, m := range t.GetMatchFields() {
		out = append(out, contractField{m.GetId(), m.GetName(), m.GetBitwidth(), m.GetMatchType().String()})
	}
	return out
}

func actionRefs(t *p4configv1.Table) []string {
	var out []string
	for _, r := range t.GetActionRefs() {
		out = append(out, fmt.Sprintf("%#x (%s)", r.GetId(), r.GetScope()))
	}
	slices.Sort(out)
	return out
}

func sameTable(c *contractCtx, w, g any) error {
	want, got := w.(*p4configv1.Table), g.(*p4configv1.Table)
	if err := sameFields("match field", matchFields(want), matchFields(got)); err != nil {
		return err
	}
	if a, b := actionRefs(want), actionRefs(got); !slices.Equal(a, b) {
		return fmt.Errorf("actions %v, want %v", b, a)
	}
	if a, b := want.GetConstDefaultActionId(), got.GetConstDefaultActionId(); a != b {
		return fmt.Errorf("const default action %#x, want %#x", b, a)
	}
	resolve := func(ids []uint32, names map[uint32]string) []string {
		var out []string
		for _, id := range ids {
			if n, ok := names[id]; ok {
				out = append(out, n)
			} else {
				out = append(out, fmt.Sprintf("%#x (no such direct resource)", id))
			}
		}
		slices.Sort(out)
		return out
	}
	a, b := resolve(want.GetDirectResourceIds(), c.refNames), resolve(got.GetDirectResourceIds(), c.gotNames)
	if !slices.Equal(a, b) {
		return fmt.Errorf("direct resources %v, want %v", b, a)
	}
	return nil
}

func params(a *p4configv1.Action) []contractField {
	var out []contractField
	for _, p := range a.GetParams() {
		out = append(out, contractField{id: p.GetId(), name: p.GetName(), bits: p.GetBitwidth()})
	}
	return out
}

func sameAction(_ *contractCtx, w, g any) error {
	return sameFields("parameter", params(w.(*p4configv1.Action)), params(g.(*p4configv1.Action)))
}

func sameCounter(_ *contractCtx, w, g any) error {
	want, got := w.(*p4configv1.Counter), g.(*p4configv1.Counter)
	if a, b := want.GetSpec().GetUnit(), got.GetSpec().GetUnit(); a != b {
		return fmt.Errorf("unit %s, want %s", b, a)
	}
	return nil
}

func sameDirectCounter(_ *contractCtx, w, g any) error {
	want, got := w.(*p4configv1.DirectCounter), g.(*p4configv1.DirectCounter)
	if a, b := want.GetSpec().GetUnit(), got.GetSpec().GetUnit(); a != b {
		return fmt.Errorf("unit %s, want %s", b, a)
	}
	if a, b := want.GetDirectTableId(), got.GetDirectTableId(); a != b {
		return fmt.Errorf("direct table %#x, want %#x", b, a)
	}
	return nil
}

func sameValueSet(_ *contractCtx, w, g any) error {
	f := func(v *p4configv1.ValueSet) []contractField {
		var out []contractField
		for _, m := range v.GetMatch() {
			out = append(out, contractField{m.GetId(), m.GetName(), m.GetBitwidth(), m.GetMatchType().String()})
		}
		return out
	}
	got := g.(*p4configv1.ValueSet)
	if len(got.GetMatch()) == 0 {
		// bf-p4c's standard P4Info (--p4runtime-force-std-externs)
		// describes no fields of a TNA parser value set; members are
		// written as the v1model build describes them.
		return nil
	}
	return sameFields("match field", f(w.(*p4configv1.ValueSet)), f(got))
}

func sameControllerHeader(_ *contractCtx, w, g any) error {
	f := func(c *p4configv1.ControllerPacketMetadata) []contractField {
		var out []contractField
		for _, m := range c.GetMetadata() {
			out = append(out, contractField{id: m.GetId(), name: m.GetName(), bits: m.GetBitwidth()})
		}
		return out
	}
	return sameFields("field", f(w.(*p4configv1.ControllerPacketMetadata)), f(g.(*p4configv1.ControllerPacketMetadata)))
}
