// Package sessionmem is the session memory's contract (docs/sessions.md):
// a session's key as the pipeline derives it (the symmetric hash's
// ordered pair of folded addresses), the session digest's wire format,
// and the entries of the sessions table. The software switch, the
// controller and the tests share this one definition.
package sessionmem

import (
	"errors"
	"fmt"
	"net/netip"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/symhash"
)

// The P4 names of the session memory (p4src/shared/control/balancing.p4,
// the "sessions" profile).
const (
	TableName   = p4src.TableSessions
	ActionKeep  = "BalancerIngress.keep"
	ActionMiss  = "BalancerIngress.session_miss"
	DigestName  = "session_digest_t"
	FieldGroup  = "balance_group"
	FieldLo     = "addr_lo"
	FieldHi     = "addr_hi"
	FieldProto  = "proto"
	ParamFG     = "filter_group"
	ParamCore   = "core"
	widthGroup  = 4
	widthFG     = 6
	widthCore   = 10
	widthAddr   = 32
	widthProto  = 8
	maxDigestsB = 8
)

// Key is a session as the sessions table keys it: its balance group, its
// two addresses (IPv6 folded to 32 bits) ordered as the hash orders them,
// and the IP protocol.
type Key struct {
	BalanceGroup uint8
	Lo, Hi       uint32
	Proto        uint8
}

// KeyOf orders two folded addresses as the pipeline does: lo = x when
// x < y, else y.
func KeyOf(group uint8, x, y uint32, proto uint8) Key {
	if x < y {
		return Key{BalanceGroup: group, Lo: x, Hi: y, Proto: proto}
	}
	return Key{BalanceGroup: group, Lo: y, Hi: x, Proto: proto}
}

// AddrKey is the key of the session between two addresses.
func AddrKey(group uint8, a, b netip.Addr, proto uint8) Key {
	return KeyOf(group, symhash.Fold(a), symhash.Fold(b), proto)
}

// Hash is the session's symmetric hash (its slot's).
func (k Key) Hash() uint32 { return symhash.Folded(k.Lo, k.Hi, k.Proto) }

func (k Key) String() string {
	return fmt.Sprintf("group %d %08x-%08x proto %d", k.BalanceGroup, k.Lo, k.Hi, k.Proto)
}

// Digest is one session_digest_t: a balanced session the table does not
// hold, with the filter group and core its slot gave it.
type Digest struct {
	Key
	FilterGroup uint8
	Core        uint16
}

// DigestWidths are the struct's member widths, in order: addr_lo,
// addr_hi, proto, balance_group, filter_group, core.
var DigestWidths = [6]int{widthAddr, widthAddr, widthProto, widthGroup, widthFG, widthCore}

func (d Digest) values() [6]uint64 {
	return [6]uint64{uint64(d.Lo), uint64(d.Hi), uint64(d.Proto), uint64(d.BalanceGroup), uint64(d.FilterGroup), uint64(d.Core)}
}

// Data encodes the digest as P4Runtime P4Data (a struct of bitstrings,
// canonical: no leading zero bytes).
func (d Digest) Data() *p4v1.P4Data {
	st := &p4v1.P4StructLike{Members: make([]*p4v1.P4Data, 0, len(DigestWidths))}
	for _, x := range d.values() {
		st.Members = append(st.Members, &p4v1.P4Data{Data: &p4v1.P4Data_Bitstring{Bitstring: canonical(x)}})
	}
	return &p4v1.P4Data{Data: &p4v1.P4Data_Struct{Struct: st}}
}

func canonical(x uint64) []byte {
	var b []byte
	for x > 0 {
		b = append([]byte{byte(x)}, b...)
		x >>= 8
	}
	if len(b) == 0 {
		b = []byte{0}
	}
	return b
}

// DecodeDigest reads one digest data item.
func DecodeDigest(d *p4v1.P4Data) (Digest, error) {
	st := d.GetStruct()
	if st == nil || len(st.GetMembers()) != len(DigestWidths) {
		return Digest{}, fmt.Errorf("session digest: want a struct of %d members, got %v", len(DigestWidths), d)
	}
	var v [6]uint64
	for i, m := range st.GetMembers() {
		b := m.GetBitstring()
		if b == nil || len(b) > maxDigestsB {
			return Digest{}, fmt.Errorf("session digest: member %d is not a bitstring of at most 64 bits", i)
		}
		var x uint64
		for _, c := range b {
			x = x<<8 | uint64(c)
		}
		if x >= 1<<DigestWidths[i] {
			return Digest{}, fmt.Errorf("session digest: member %d = %d does not fit %d bits", i, x, DigestWidths[i])
		}
		v[i] = x
	}
	return Digest{Key: Key{Lo: uint32(v[0]), Hi: uint32(v[1]), Proto: uint8(v[2]), BalanceGroup: uint8(v[3])},
		FilterGroup: uint8(v[4]), Core: uint16(v[5])}, nil
}

// ErrNoTable is returned by Resolve for a program without the session
// memory.
var ErrNoTable = errors.New("the program has no session memory (table " + TableName + "): it is the sessions profile's (p4src/build/v1model-sessions, tofino-sessions)")

// Table is the sessions table of one program: its ids and size.
type Table struct {
	ID       uint32
	Size     int64
	DigestID uint32
	fields   [4]uint32 // group, lo, hi, proto
	keep     uint32
	fg, core uint32
}

// Resolve finds the session memory's objects in a program.
func Resolve(s *p4src.Schema) (*Table, error) {
	if s == nil || !s.HasSessions() {
		return nil, ErrNoTable
	}
	t, err := s.Table(TableName)
	if err != nil {
		return nil, err
	}
	out := &Table{ID: t.GetPreamble().GetId(), Size: t.GetSize()}
	var errs []error
	for i, n := range []string{FieldGroup, FieldLo, FieldHi, FieldProto} {
		f, err := t.Field(n)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out.fields[i] = f.GetId()
	}
	a, err := s.Action(ActionKeep)
	if err != nil {
		return nil, errors.Join(append(errs, err)...)
	}
	out.keep = a.GetPreamble().GetId()
	for dst, n := range map[*uint32]string{&out.fg: ParamFG, &out.core: ParamCore} {
		p, err := a.Param(n)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		*dst = p.GetId()
	}
	if d := s.Digest(DigestName); d != nil {
		out.DigestID = d.GetPreamble().GetId()
	} else {
		errs = append(errs, fmt.Errorf("p4info: digest %q: %w", DigestName, p4src.ErrUnknownName))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

// KeyEntry is the entry of a session with its key only (a DELETE's).
func (t *Table) KeyEntry(k Key) *p4v1.TableEntry {
	ex := func(id uint32, v uint64) *p4v1.FieldMatch {
		return &p4v1.FieldMatch{FieldId: id, FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: canonical(v)}}}
	}
	return &p4v1.TableEntry{TableId: t.ID, Match: []*p4v1.FieldMatch{
		ex(t.fields[0], uint64(k.BalanceGroup)), ex(t.fields[1], uint64(k.Lo)),
		ex(t.fields[2], uint64(k.Hi)), ex(t.fields[3], uint64(k.Proto))}}
}

// Entry is the entry that keeps a session on a filter group and core,
// aged out after idle (0: never).
func (t *Table) Entry(k Key, fg uint8, core uint16, idle time.Duration) *p4v1.TableEntry {
	te := t.KeyEntry(k)
	te.Action = &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: &p4v1.Action{ActionId: t.keep, Params: []*p4v1.Action_Param{
		{ParamId: t.fg, Value: canonical(uint64(fg))}, {ParamId: t.core, Value: canonical(uint64(core))}}}}}
	te.IdleTimeoutNs = int64(idle)
	return te
}

// Held is an entry of the sessions table as read back.
type Held struct {
	Key
	FilterGroup uint8
	Core        uint16
	Idle        time.Duration
}

// Decode reads an entry of the table (a read-back's, an idle
// notification's: the action is then absent).
func (t *Table) Decode(te *p4v1.TableEntry) (Held, error) {
	if te.GetTableId() != t.ID {
		return Held{}, fmt.Errorf("session entry: table id %#x, want %#x", te.GetTableId(), t.ID)
	}
	var h Held
	seen := 0
	for _, m := range te.GetMatch() {
		x, err := uintOf(m.GetExact().GetValue())
		if err != nil || m.GetExact() == nil {
			return Held{}, fmt.Errorf("session entry: field %d: not an exact value of at most 32 bits", m.GetFieldId())
		}
		switch m.GetFieldId() {
		case t.fields[0]:
			h.BalanceGroup = uint8(x)
		case t.fields[1]:
			h.Lo = uint32(x)
		case t.fields[2]:
			h.Hi = uint32(x)
		case t.fields[3]:
			h.Proto = uint8(x)
		default:
			return Held{}, fmt.Errorf("session entry: unknown field id %d", m.GetFieldId())
		}
		seen++
	}
	if seen != 4 {
		return Held{}, fmt.Errorf("session entry: %d of 4 key fields", seen)
	}
	if a := te.GetAction().GetAction(); a != nil && a.GetActionId() == t.keep {
		for _, p := range a.GetParams() {
			x, err := uintOf(p.GetValue())
			if err != nil {
				return Held{}, fmt.Errorf("session entry: param %d: %w", p.GetParamId(), err)
			}
			switch p.GetParamId() {
			case t.fg:
				h.FilterGroup = uint8(x)
			case t.core:
				h.Core = uint16(x)
			}
		}
	}
	h.Idle = time.Duration(te.GetIdleTimeoutNs())
	return h, nil
}

func uintOf(b []byte) (uint64, error) {
	if len(b) > 4 {
		// Leading zero bytes are allowed on input.
		for _, c := range b[:len(b)-4] {
			if c != 0 {
				return 0, errors.New("wider than 32 bits")
			}
		}
		b = b[len(b)-4:]
	}
	var x uint64
	for _, c := range b {
		x = x<<8 | uint64(c)
	}
	return x, nil
}
