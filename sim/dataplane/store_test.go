package dataplane

import (
	"math/rand/v2"
	"slices"
	"testing"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/google/go-cmp/cmp"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/tables"
)

// ids of the P4Info objects the tests use, resolved by name.
type idSet struct {
	portRole, heartbeat, flowRules, flowRulesV6, balanceGroups, slots, filterGroups, links uint32
	setOperatorPort, setFilterPort, unknownPort, heartbeatPass, bypass, balance, bypassV6  uint32
	groupActive, groupBypass, toFilter, slotMiss, filterForward, filterSWBypass, setLink   uint32
	coreTPID, keepAlive                                                                    uint32
	portRx, portTx, linkCtr, fgCtr, dropCtr                                                uint32
	directFlow                                                                             uint32
}

func testIDs(tb testing.TB) idSet {
	s := loadSchema(tb)
	tid := func(n string) uint32 {
		t, err := s.Table(n)
		require.NoError(tb, err)
		return t.GetPreamble().GetId()
	}
	aid := func(n string) uint32 {
		a, err := s.Action(n)
		require.NoError(tb, err)
		return a.GetPreamble().GetId()
	}
	vid := func(n string) uint32 {
		v, err := s.ValueSet(n)
		require.NoError(tb, err)
		return v.GetPreamble().GetId()
	}
	cid := func(n string) uint32 {
		c, err := s.Counter(n)
		require.NoError(tb, err)
		return c.GetPreamble().GetId()
	}
	did := func(n string) uint32 {
		c, err := s.DirectCounter(n)
		require.NoError(tb, err)
		return c.GetPreamble().GetId()
	}
	return idSet{
		portRole: tid(p4src.TablePortRole), heartbeat: tid(p4src.TableHeartbeat), flowRules: tid(p4src.TableFlowRules),
		flowRulesV6: tid(p4src.TableFlowRulesV6), balanceGroups: tid(p4src.TableBalanceGroups), slots: tid(p4src.TableSlots),
		filterGroups: tid(p4src.TableFilterGroups), links: tid(p4src.TableLinks),
		setOperatorPort: aid(p4src.ActionSetOperatorPort), setFilterPort: aid(p4src.ActionSetFilterPort),
		unknownPort: aid(p4src.ActionUnknownPort), heartbeatPass: aid(p4src.ActionHeartbeatPass),
		bypass: aid(p4src.ActionBypass), balance: aid(p4src.ActionBalance), bypassV6: aid(p4src.ActionBypassV6),
		groupActive: aid(p4src.ActionGroupActive), groupBypass: aid(p4src.ActionGroupBypass),
		toFilter: aid(p4src.ActionToFilter), slotMiss: aid(p4src.ActionSlotMiss),
		filterForward: aid(p4src.ActionFilterForward), filterSWBypass: aid(p4src.ActionFilterSWBypass),
		setLink:  aid(p4src.ActionSetLink),
		coreTPID: vid(p4src.ValueSetCoreTPID), keepAlive: vid(p4src.ValueSetKeepAlive),
		portRx: cid(p4src.CounterPortRx), portTx: cid(p4src.CounterPortTx), linkCtr: cid(p4src.CounterLink),
		fgCtr: cid(p4src.CounterFilterGroup), dropCtr: cid(p4src.CounterDrop),
		directFlow: did(p4src.DirectFlowRules),
	}
}

func b(v ...byte) []byte { return v }

// Entities used by several tests.
func (id idSet) role(port byte) *p4v1.Entity {
	return te(id.portRole, 0, act(id.setOperatorPort, b(1), b(0), b(20)), exactM(1, port))
}

func (id idSet) slot(group byte, slot uint16, fg, core byte) *p4v1.Entity {
	return te(id.slots, 0, act(id.toFilter, b(fg), b(core)), exactM(1, group), exactM(2, byte(slot>>8), byte(slot)))
}

func (id idSet) rule(prio int32, proto byte) *p4v1.Entity {
	return te(id.flowRules, prio, act(id.bypass), ternM(12, b(proto), b(0xff)))
}

func (id idSet) vset(vsID uint32, values ...uint16) *p4v1.Entity {
	ve := &p4v1.ValueSetEntry{ValueSetId: vsID}
	for _, v := range values {
		ve.Members = append(ve.Members, &p4v1.ValueSetMember{Match: []*p4v1.FieldMatch{exactM(1, byte(v>>8), byte(v))}})
	}
	return &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: ve}}
}

func withTE(e *p4v1.Entity, f func(*p4v1.TableEntry)) *p4v1.Entity {
	c := proto.Clone(e).(*p4v1.Entity)
	f(c.GetTableEntry())
	return c
}

func counterE(id uint32, index *int64, pkts, bytes int64) *p4v1.Entity {
	ce := &p4v1.CounterEntry{CounterId: id, Data: &p4v1.CounterData{PacketCount: pkts, ByteCount: bytes}}
	if index != nil {
		ce.Index = &p4v1.Index{Index: *index}
	}
	return &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: ce}}
}

func directE(t *p4v1.TableEntry, pkts, bytes int64) *p4v1.Entity {
	return &p4v1.Entity{Entity: &p4v1.Entity_DirectCounterEntry{DirectCounterEntry: &p4v1.DirectCounterEntry{
		TableEntry: t, Data: &p4v1.CounterData{PacketCount: pkts, ByteCount: bytes}}}}
}

func i64(v int64) *int64 { return &v }

// readQ reads one query and returns the entities.
func readQ(tb testing.TB, d *Dataplane, q ...*p4v1.Entity) []*p4v1.Entity {
	tb.Helper()
	var out []*p4v1.Entity
	require.NoError(tb, d.Read(q, func(e *p4v1.Entity) bool { out = append(out, e); return true }))
	return out
}

// state is everything a Read can see, for "unchanged" checks.
func state(tb testing.TB, d *Dataplane) []*p4v1.Entity {
	tb.Helper()
	var q []*p4v1.Entity
	q = append(q, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{CounterData: &p4v1.CounterData{}}}})
	for _, t := range d.tables {
		q = append(q, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: t.id, IsDefaultAction: true, CounterData: &p4v1.CounterData{}}}})
	}
	q = append(q, &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{}}})
	for _, c := range d.counters {
		if c != d.coreCtr {
			q = append(q, &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: c.id}}})
		}
	}
	out := readQ(tb, d, q...)
	// core_counters (64k cells, nearly all zero): the cells that are not
	// zero, read one by one. Two states differ in a cell iff one of them
	// lists it, or both with other data.
	for i := range d.coreCtr.cells {
		if p, b := d.coreCtr.cells[i].get(); p != 0 || b != 0 {
			out = append(out, readQ(tb, d, &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{
				CounterId: d.coreCtr.id, Index: &p4v1.Index{Index: int64(i)}}}})...)
		}
	}
	// Entry order within a table is not part of the state.
	slices.SortStableFunc(out, func(a, b *p4v1.Entity) int {
		ka, kb := tables.Key(a), tables.Key(b)
		switch {
		case a.GetTableEntry() == nil || b.GetTableEntry() == nil:
			return 0
		case ka < kb:
			return -1
		case ka > kb:
			return 1
		}
		return 0
	})
	return out
}

func requireSameState(tb testing.TB, want, got []*p4v1.Entity) {
	tb.Helper()
	same := len(want) == len(got)
	for i := 0; same && i < len(want); i++ {
		same = proto.Equal(want[i], got[i])
	}
	if same {
		return
	}
	if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
		tb.Fatalf("state changed (-before +after):\n%s", diff)
	}
}

// TestWriteErrors checks every error case of the entity store with its
// sentinel, and that a failed update changes nothing.
func TestWriteErrors(t *testing.T) {
	id := testIDs(t)
	for _, tc := range writeErrorCases(id) {
		t.Run(tc.name, func(t *testing.T) {
			d := newDP(t)
			if tc.rng {
				d = newRangeDP(t)
			}
			for i, err := range d.Write(tc.setup, p4v1.WriteRequest_CONTINUE_ON_ERROR) {
				require.NoError(t, err, "setup %d", i)
			}
			before := state(t, d)
			errs := d.Write([]*p4v1.Update{tc.u}, p4v1.WriteRequest_CONTINUE_ON_ERROR)
			require.Len(t, errs, 1)
			require.ErrorIs(t, errs[0], tc.want)
			if tc.msg != "" {
				assert.Contains(t, errs[0].Error(), tc.msg)
			}
			requireSameState(t, before, state(t, d))
			checkInvariants(t, d)
		})
	}
}

type writeErrorCase struct {
	name  string
	rng   bool // on rangeSchema
	setup []*p4v1.Update
	u     *p4v1.Update
	want  error
	msg   string // substring of the message, when set
}

func writeErrorCases(id idSet) []writeErrorCase {
	return []writeErrorCase{
		{name: "unknown table", u: ins(te(0x02000099, 0, act(id.bypass))), want: ErrInvalidArgument, msg: "unknown table id 0x2000099"},
		{name: "unknown match field", u: ins(te(id.portRole, 0, act(id.setFilterPort, b(1), b(0)), exactM(1, 5), exactM(7, 1))), want: ErrInvalidArgument, msg: "unknown match field id 7"},
		{name: "duplicate match field", u: ins(te(id.portRole, 0, act(id.setFilterPort, b(1), b(0)), exactM(1, 5), exactM(1, 6))), want: ErrInvalidArgument, msg: "given twice"},
		{name: "wrong match kind", u: ins(te(id.portRole, 0, act(id.setFilterPort, b(1), b(0)), ternM(1, b(5), b(0xff)))), want: ErrInvalidArgument, msg: "is exact, got a ternary match"},
		{name: "missing exact field", u: ins(te(id.slots, 0, act(id.toFilter, b(1), b(1)), exactM(1, 1))), want: ErrInvalidArgument, msg: "missing exact match field 2 (slot)"},
		{name: "ternary mask zero", u: ins(te(id.flowRules, 1, act(id.bypass), ternM(12, b(0), b(0)))), want: ErrInvalidArgument, msg: "mask 0"},
		{name: "ternary value outside mask", u: ins(te(id.flowRules, 1, act(id.bypass), ternM(12, b(0x13), b(0xf0)))), want: ErrInvalidArgument, msg: "outside the mask"},
		{name: "range low above high", rng: true, u: ins(te(id.flowRules, 1, act(id.bypass), rangeM(14, b(0x10), b(0x01)))), want: ErrInvalidArgument, msg: "low 0x10 > high 0x1"},
		{name: "full range", rng: true, u: ins(te(id.flowRules, 1, act(id.bypass), rangeM(14, b(0), b(0xff, 0xff)))), want: ErrInvalidArgument, msg: "full range"},
		{name: "value wider than the field", u: ins(te(id.slots, 0, act(id.toFilter, b(1), b(1)), exactM(1, 1), exactM(2, 0x01, 0xff, 0xff))), want: ErrOutOfRange,
			msg: `table "BalancerIngress.slots": match field 2 (slot): value 0x1ffff wider than 16 bits`},
		{name: "value wider in the top byte", u: ins(te(id.portRole, 0, act(id.setFilterPort, b(1), b(0)), exactM(1, 0x02, 0x00))), want: ErrOutOfRange, msg: "value 0x200 wider than 9 bits"},
		{name: "empty value", u: ins(te(id.portRole, 0, act(id.setFilterPort, b(1), b(0)), exactM(1))), want: ErrInvalidArgument, msg: "empty value"},
		{name: "no match value", u: ins(te(id.portRole, 0, act(id.setFilterPort, b(1), b(0)), &p4v1.FieldMatch{FieldId: 1})), want: ErrInvalidArgument},
		{name: "priority 0 on a ternary table", u: ins(id.rule(0, 6)), want: ErrInvalidArgument, msg: "priority 0"},
		{name: "negative priority", u: ins(id.rule(-3, 6)), want: ErrInvalidArgument},
		{name: "priority on an exact table", u: ins(withTE(id.role(5), func(t *p4v1.TableEntry) { t.Priority = 4 })), want: ErrInvalidArgument, msg: "priority 4"},
		{name: "action not in the table", u: ins(te(id.portRole, 0, act(id.bypass), exactM(1, 5))), want: ErrInvalidArgument, msg: "not an action of the table"},
		{name: "unknown action", u: ins(te(id.portRole, 0, act(0x01000077), exactM(1, 5))), want: ErrInvalidArgument},
		{name: "defaultonly action in an entry", u: ins(te(id.slots, 0, act(id.slotMiss), exactM(1, 1), exactM(2, 1))), want: ErrPermissionDenied, msg: "@defaultonly"},
		{name: "missing param", u: ins(te(id.portRole, 0, act(id.setOperatorPort, b(1), b(0)), exactM(1, 5))), want: ErrInvalidArgument, msg: "missing param 3 (peer_port)"},
		{name: "extra param", u: ins(te(id.portRole, 0, act(id.setFilterPort, b(1), b(0), b(3)), exactM(1, 5))), want: ErrInvalidArgument, msg: "unknown param id 3"},
		{name: "duplicate param", u: ins(te(id.portRole, 0, &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: &p4v1.Action{ActionId: id.setFilterPort,
			Params: []*p4v1.Action_Param{{ParamId: 1, Value: b(1)}, {ParamId: 1, Value: b(1)}, {ParamId: 2, Value: b(0)}}}}}, exactM(1, 5))), want: ErrInvalidArgument, msg: "given twice"},
		{name: "param too wide", u: ins(te(id.portRole, 0, act(id.setFilterPort, b(0x40), b(0)), exactM(1, 5))), want: ErrOutOfRange, msg: "param 1 (filter_group): value 0x40 wider than 6 bits"},
		{name: "insert without action", u: ins(te(id.portRole, 0, nil, exactM(1, 5))), want: ErrInvalidArgument, msg: "without an action"},
		{name: "action profile member", u: ins(te(id.portRole, 0, &p4v1.TableAction{Type: &p4v1.TableAction_ActionProfileMemberId{ActionProfileMemberId: 1}}, exactM(1, 5))), want: ErrInvalidArgument},
		{name: "duplicate insert", setup: []*p4v1.Update{ins(id.role(5))}, u: ins(id.role(5)), want: ErrAlreadyExists},
		{name: "duplicate insert, padded bytes", setup: []*p4v1.Update{ins(id.role(5))}, u: ins(te(id.portRole, 0, act(id.setOperatorPort, b(1), b(0), b(20)), exactM(1, 0, 0, 5))), want: ErrAlreadyExists},
		{name: "modify missing", u: mod(id.role(5)), want: ErrNotFound},
		{name: "delete missing", u: del(id.role(5)), want: ErrNotFound},
		{name: "delete missing, other priority", setup: []*p4v1.Update{ins(id.rule(5, 6))}, u: del(id.rule(6, 6)), want: ErrNotFound},
		{name: "table full", setup: fill(id, 16), u: ins(te(id.heartbeat, 100, act(id.heartbeatPass), ternM(2, b(0x88, 0x99), b(0xff, 0xff)))), want: ErrResourceExhausted},
		{name: "is_const in a write", u: ins(withTE(id.role(5), func(t *p4v1.TableEntry) { t.IsConst = true })), want: ErrInvalidArgument},
		{name: "counter data without direct counter", u: ins(withTE(id.role(5), func(t *p4v1.TableEntry) { t.CounterData = &p4v1.CounterData{} })), want: ErrInvalidArgument, msg: "no direct counter"},
		{name: "meter config", u: ins(withTE(id.rule(1, 6), func(t *p4v1.TableEntry) { t.MeterConfig = &p4v1.MeterConfig{} })), want: ErrInvalidArgument, msg: "no direct meter"},
		{name: "idle timeout", u: ins(withTE(id.rule(1, 6), func(t *p4v1.TableEntry) { t.IdleTimeoutNs = 5 })), want: ErrInvalidArgument, msg: "idle timeout"},
		{name: "negative counter data", u: ins(withTE(id.rule(1, 6), func(t *p4v1.TableEntry) { t.CounterData = &p4v1.CounterData{PacketCount: -1} })), want: ErrInvalidArgument},
		// Default entries.
		{name: "modify a const default", u: mod(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: id.portRole, IsDefaultAction: true, Action: act(id.unknownPort)}}}), want: ErrPermissionDenied, msg: "const"},
		{name: "insert a default", u: ins(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: id.flowRules, IsDefaultAction: true, Action: act(id.bypass)}}}), want: ErrInvalidArgument},
		{name: "delete a default", u: del(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: id.flowRules, IsDefaultAction: true}}}), want: ErrInvalidArgument},
		{name: "default with a match", u: mod(withTE(id.rule(1, 6), func(t *p4v1.TableEntry) { t.IsDefaultAction = true })), want: ErrInvalidArgument},
		{name: "default with a table action", u: mod(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: id.flowRules, IsDefaultAction: true, Action: act(id.bypassV6)}}}), want: ErrInvalidArgument},
		// Value sets.
		{name: "value set insert", u: ins(id.vset(id.coreTPID, 0x88b5)), want: ErrInvalidArgument, msg: "only MODIFY"},
		{name: "value set delete", u: del(id.vset(id.coreTPID, 0x88b5)), want: ErrInvalidArgument},
		{name: "value set too many members", u: mod(id.vset(id.coreTPID, 1, 2, 3, 4, 5)), want: ErrResourceExhausted},
		{name: "value set duplicate member", u: mod(&p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{ValueSetId: id.coreTPID,
			Members: []*p4v1.ValueSetMember{{Match: []*p4v1.FieldMatch{exactM(1, 0x88, 0xb5)}}, {Match: []*p4v1.FieldMatch{exactM(1, 0, 0x88, 0xb5)}}}}}}), want: ErrAlreadyExists},
		{name: "value set member field id", u: mod(&p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{ValueSetId: id.coreTPID,
			Members: []*p4v1.ValueSetMember{{Match: []*p4v1.FieldMatch{exactM(2, 0x88, 0xb5)}}}}}}), want: ErrInvalidArgument},
		{name: "value set member too wide", u: mod(&p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{ValueSetId: id.coreTPID,
			Members: []*p4v1.ValueSetMember{{Match: []*p4v1.FieldMatch{exactM(1, 1, 0x88, 0xb5)}}}}}}), want: ErrOutOfRange, msg: "wider than 16 bits"},
		{name: "value set member ternary", u: mod(&p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{ValueSetId: id.coreTPID,
			Members: []*p4v1.ValueSetMember{{Match: []*p4v1.FieldMatch{ternM(1, b(0x88, 0), b(0xff, 0))}}}}}}), want: ErrInvalidArgument},
		{name: "unknown value set", u: mod(id.vset(0x03000077, 1)), want: ErrInvalidArgument},
		// Counters.
		{name: "counter insert", u: ins(counterE(id.portRx, i64(1), 1, 1)), want: ErrInvalidArgument},
		{name: "counter index out of range", u: mod(counterE(id.portRx, i64(512), 1, 1)), want: ErrOutOfRange},
		{name: "counter negative index", u: mod(counterE(id.portRx, i64(-1), 1, 1)), want: ErrInvalidArgument},
		{name: "counter negative data", u: mod(counterE(id.portRx, i64(1), -1, 1)), want: ErrInvalidArgument},
		{name: "unknown counter", u: mod(counterE(0x12000077, i64(1), 1, 1)), want: ErrInvalidArgument},
		{name: "direct counter of a missing entry", u: mod(directE(id.rule(1, 6).GetTableEntry(), 1, 1)), want: ErrNotFound},
		{name: "direct counter on a table without", u: mod(directE(id.role(5).GetTableEntry(), 1, 1)), want: ErrInvalidArgument},
		{name: "direct counter insert", setup: []*p4v1.Update{ins(id.rule(1, 6))}, u: ins(directE(id.rule(1, 6).GetTableEntry(), 1, 1)), want: ErrInvalidArgument},
		// Malformed updates.
		{name: "nil update", u: nil, want: ErrInvalidArgument},
		{name: "update without entity", u: &p4v1.Update{Type: p4v1.Update_INSERT}, want: ErrInvalidArgument},
		{name: "entity without type", u: ins(&p4v1.Entity{}), want: ErrInvalidArgument},
		{name: "unspecified update type", u: upd(p4v1.Update_UNSPECIFIED, id.role(5)), want: ErrInvalidArgument},
		{name: "nil table entry", u: ins(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{}}), want: ErrInvalidArgument},
		{name: "meter entity", u: mod(&p4v1.Entity{Entity: &p4v1.Entity_MeterEntry{MeterEntry: &p4v1.MeterEntry{}}}), want: ErrUnimplemented},
		{name: "register of no id", u: mod(&p4v1.Entity{Entity: &p4v1.Entity_RegisterEntry{RegisterEntry: &p4v1.RegisterEntry{}}}), want: ErrInvalidArgument},
	}
}

// fill returns n heartbeat inserts.
func fill(id idSet, n int) []*p4v1.Update {
	var ups []*p4v1.Update
	for i := 0; i < n; i++ {
		ups = append(ups, ins(te(id.heartbeat, int32(i+1), act(id.heartbeatPass), ternM(2, b(0x88, byte(i)), b(0xff, 0xff)))))
	}
	return ups
}

func TestWriteAtomicityUnknownMode(t *testing.T) {
	id := testIDs(t)
	d := newDP(t)
	errs := d.Write([]*p4v1.Update{ins(id.role(5)), ins(id.role(6))}, p4v1.WriteRequest_Atomicity(7))
	require.Len(t, errs, 2)
	for _, err := range errs {
		assert.ErrorIs(t, err, ErrUnimplemented)
	}
	assert.Empty(t, readQ(t, d, te(0, 0, nil)))
}

func TestWriteAtomicity(t *testing.T) {
	id := testIDs(t)
	setup := []*p4v1.Update{
		ins(id.role(5)), ins(id.role(6)), ins(id.rule(10, 6)), ins(id.rule(11, 17)), ins(id.slot(1, 7, 2, 3)),
		mod(id.vset(id.coreTPID, 0x88b5)),
		mod(counterE(id.portRx, i64(5), 10, 1000)),
	}
	batch := []*p4v1.Update{
		ins(id.role(7)), // ok
		mod(te(id.portRole, 0, act(id.setFilterPort, b(3), b(1)), exactM(1, 5))), // ok
		del(id.role(6)),                                       // ok
		del(id.rule(10, 6)),                                   // ok
		ins(id.rule(10, 6)),                                   // ok again (re-insert)
		ins(id.rule(12, 1)),                                   // ok
		mod(id.vset(id.coreTPID, 0x88b5, 0x8100)),             // ok
		mod(counterE(id.portRx, nil, 0, 0)),                   // ok: reset every cell
		mod(directE(id.rule(11, 17).GetTableEntry(), 4, 400)), // ok
		mod(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: id.flowRules, IsDefaultAction: true, Action: act(id.balance, b(1))}}}), // ok
		del(id.slot(1, 7, 0, 0)), // ok
		ins(id.role(5)),          // fails: exists
		ins(te(id.slots, 0, act(id.toFilter, b(1), b(1)), exactM(1, 1), exactM(2, 1, 0, 0))), // fails: too wide
	}
	for _, mode := range []p4v1.WriteRequest_Atomicity{p4v1.WriteRequest_ROLLBACK_ON_ERROR, p4v1.WriteRequest_DATAPLANE_ATOMIC} {
		t.Run(mode.String(), func(t *testing.T) {
			d := newDP(t)
			for _, err := range d.Write(setup, 0) {
				require.NoError(t, err)
			}
			before := state(t, d)
			errs := d.Write(batch, mode)
			require.Len(t, errs, len(batch))
			for i, err := range errs[:len(batch)-2] {
				assert.ErrorIs(t, err, ErrAborted, "update %d", i)
			}
			assert.ErrorIs(t, errs[len(batch)-2], ErrAlreadyExists)
			assert.ErrorIs(t, errs[len(batch)-1], ErrOutOfRange)
			requireSameState(t, before, state(t, d))
			checkInvariants(t, d)

			// The same batch without its failing updates applies whole.
			errs = d.Write(batch[:len(batch)-2], mode)
			for i, err := range errs {
				require.NoError(t, err, "update %d", i)
			}
			checkInvariants(t, d)
			assert.Len(t, readQ(t, d, te(id.portRole, 0, nil)), 2)
			assert.Len(t, readQ(t, d, te(id.flowRules, 0, nil)), 3)
		})
	}
	t.Run("CONTINUE_ON_ERROR", func(t *testing.T) {
		d := newDP(t)
		errs := d.Write([]*p4v1.Update{ins(id.role(5)), ins(id.role(5)), ins(id.role(6)), del(id.role(9))}, p4v1.WriteRequest_CONTINUE_ON_ERROR)
		assert.NoError(t, errs[0])
		assert.ErrorIs(t, errs[1], ErrAlreadyExists)
		assert.NoError(t, errs[2])
		assert.ErrorIs(t, errs[3], ErrNotFound)
		assert.Len(t, readQ(t, d, te(id.portRole, 0, nil)), 2)
	})
	t.Run("rollback restores packets' view", func(t *testing.T) {
		// A rolled-back delete of a TCAM entry keeps its handle, so ties
		// resolve as before.
		d := newDP(t)
		for _, err := range d.Write([]*p4v1.Update{ins(id.rule(5, 6)), ins(te(id.flowRules, 5, act(id.balance, b(2)), ternM(11, b(10, 0, 0, 1), b(0xff, 0xff, 0xff, 0xff))))}, 0) {
			require.NoError(t, err)
		}
		handles := func() []int32 {
			var hs []int32
			for _, e := range d.flowRules.list {
				hs = append(hs, e.handle)
			}
			slices.Sort(hs)
			return hs
		}
		hs := handles()
		errs := d.Write([]*p4v1.Update{del(id.rule(5, 6)), ins(id.rule(7, 6)), ins(te(id.slots, 0, act(id.toFilter, b(1), b(1)), exactM(1, 1), exactM(2, 1, 0, 0)))}, p4v1.WriteRequest_ROLLBACK_ON_ERROR)
		require.ErrorIs(t, errs[2], ErrOutOfRange)
		assert.Equal(t, hs, handles())
		checkInvariants(t, d)
	})
}

func TestDefaultEntries(t *testing.T) {
	id := testIDs(t)
	d := newDP(t)
	def := func(tableID uint32) *p4v1.Entity {
		return &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: tableID, IsDefaultAction: true}}}
	}
	readDef := func(tableID uint32) *p4v1.TableEntry {
		out := readQ(t, d, def(tableID))
		require.Len(t, out, 1)
		return out[0].GetTableEntry()
	}
	// Initial defaults: the program's.
	assert.Equal(t, id.bypass, readDef(id.flowRules).GetAction().GetAction().GetActionId())
	assert.Equal(t, id.groupBypass, readDef(id.balanceGroups).GetAction().GetAction().GetActionId())
	assert.Equal(t, id.filterSWBypass, readDef(id.filterGroups).GetAction().GetAction().GetActionId())
	pr := readDef(id.portRole)
	assert.Equal(t, id.unknownPort, pr.GetAction().GetAction().GetActionId())
	assert.True(t, pr.GetIsConst())
	assert.True(t, pr.GetIsDefaultAction())

	// Modify, read back (canonical bytes), reset.
	m := def(id.balanceGroups)
	m.GetTableEntry().Action = act(id.groupActive, b(0, 0, 0x0f))
	m.GetTableEntry().Metadata = []byte("cookie")
	require.NoError(t, d.Write([]*p4v1.Update{mod(m)}, 0)[0])
	got := readDef(id.balanceGroups)
	want := &p4v1.TableEntry{TableId: id.balanceGroups, IsDefaultAction: true, Metadata: []byte("cookie"), Action: act(id.groupActive, b(0x0f))}
	assert.Empty(t, cmp.Diff(want, got, protocmp.Transform()))
	require.NoError(t, d.Write([]*p4v1.Update{mod(def(id.balanceGroups))}, 0)[0])
	got = readDef(id.balanceGroups)
	want = &p4v1.TableEntry{TableId: id.balanceGroups, IsDefaultAction: true, Action: act(id.groupBypass)}
	assert.Empty(t, cmp.Diff(want, got, protocmp.Transform()))

	// A default is not a wildcard-read entry.
	assert.Empty(t, readQ(t, d, te(id.balanceGroups, 0, nil)))
	// Reset restores every default.
	require.NoError(t, d.Write([]*p4v1.Update{mod(m)}, 0)[0])
	d.Reset()
	assert.Equal(t, id.groupBypass, readDef(id.balanceGroups).GetAction().GetAction().GetActionId())
}

func TestReadWildcards(t *testing.T) {
	id := testIDs(t)
	d := newDP(t)
	for _, err := range d.Write([]*p4v1.Update{
		ins(id.role(5)), ins(id.role(6)),
		ins(id.rule(10, 6)), ins(id.rule(11, 17)),
		ins(te(id.flowRules, 12, act(id.balance, b(1)), ternM(12, b(1), b(0xff)))),
		ins(id.slot(1, 7, 2, 3)), ins(id.slot(1, 8, 2, 3)),
		mod(id.vset(id.coreTPID, 0x88b5, 0x8100)),
		mod(id.vset(id.keepAlive, 0x88b6)),
	}, 0) {
		require.NoError(t, err)
	}
	tq := func(tableID uint32, prio int32, f func(*p4v1.TableEntry)) *p4v1.Entity {
		e := te(tableID, prio, nil)
		if f != nil {
			f(e.GetTableEntry())
		}
		return e
	}
	for _, tc := range []struct {
		name string
		q    []*p4v1.Entity
		n    int
		err  error
	}{
		{name: "all tables", q: []*p4v1.Entity{tq(0, 0, nil)}, n: 7},
		{name: "one table", q: []*p4v1.Entity{tq(id.flowRules, 0, nil)}, n: 3},
		{name: "by priority", q: []*p4v1.Entity{tq(id.flowRules, 11, nil)}, n: 1},
		{name: "by action", q: []*p4v1.Entity{tq(id.flowRules, 0, func(t *p4v1.TableEntry) { t.Action = act(id.balance) })}, n: 1},
		{name: "one entry", q: []*p4v1.Entity{id.rule(10, 6)}, n: 1},
		{name: "one entry, padded", q: []*p4v1.Entity{te(id.slots, 0, nil, exactM(1, 0, 1), exactM(2, 0, 0, 7))}, n: 1},
		{name: "missing entry", q: []*p4v1.Entity{id.rule(10, 17)}, n: 0},
		{name: "two queries", q: []*p4v1.Entity{tq(id.portRole, 0, nil), tq(id.slots, 0, nil)}, n: 4},
		{name: "default entry", q: []*p4v1.Entity{tq(id.slots, 0, func(t *p4v1.TableEntry) { t.IsDefaultAction = true })}, n: 1},
		{name: "all value sets", q: []*p4v1.Entity{{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{}}}}, n: 3},                                   // core_tpid, keepalive_ethertype, cpu_port,
		{name: "all counters", q: []*p4v1.Entity{{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{}}}}, n: 512 + 512 + 256 + 16 + 512 + 65536 + 128}, // + verdict_counters
		{name: "one counter", q: []*p4v1.Entity{{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: id.dropCtr}}}}, n: 16},
		{name: "one cell", q: []*p4v1.Entity{{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: id.dropCtr, Index: &p4v1.Index{Index: 3}}}}}, n: 1},
		{name: "all direct counters", q: []*p4v1.Entity{{Entity: &p4v1.Entity_DirectCounterEntry{DirectCounterEntry: &p4v1.DirectCounterEntry{}}}}, n: 3},
		{name: "direct counters of a table", q: []*p4v1.Entity{directE(&p4v1.TableEntry{TableId: id.flowRules}, 0, 0)}, n: 3},
		{name: "the slots table has no direct counter", q: []*p4v1.Entity{directE(&p4v1.TableEntry{TableId: id.slots}, 0, 0)}, err: ErrInvalidArgument},
		{name: "direct counter of an entry", q: []*p4v1.Entity{directE(id.rule(11, 17).GetTableEntry(), 0, 0)}, n: 1},
		{name: "direct counter of a missing entry", q: []*p4v1.Entity{directE(id.rule(13, 17).GetTableEntry(), 0, 0)}, err: ErrNotFound},
		{name: "direct counter of a table without", q: []*p4v1.Entity{directE(&p4v1.TableEntry{TableId: id.portRole}, 0, 0)}, err: ErrInvalidArgument},
		{name: "unknown table", q: []*p4v1.Entity{tq(0x02000077, 0, nil)}, err: ErrInvalidArgument},
		{name: "match value wider than its field", q: []*p4v1.Entity{te(id.slots, 0, nil, exactM(1, 0x1f))}, err: ErrOutOfRange},
		{name: "counter index out of range", q: []*p4v1.Entity{{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: id.dropCtr, Index: &p4v1.Index{Index: 16}}}}}, err: ErrOutOfRange},
		{name: "empty entity", q: []*p4v1.Entity{{}}, err: ErrInvalidArgument},
		{name: "a good and a bad query yield nothing", q: []*p4v1.Entity{tq(0, 0, nil), {}}, err: ErrInvalidArgument},
		{name: "unsupported entity", q: []*p4v1.Entity{{Entity: &p4v1.Entity_MeterEntry{MeterEntry: &p4v1.MeterEntry{}}}}, err: ErrUnimplemented},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []*p4v1.Entity
			err := d.Read(tc.q, func(e *p4v1.Entity) bool { got = append(got, e); return true })
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				assert.Empty(t, got)
				return
			}
			require.NoError(t, err)
			assert.Len(t, got, tc.n)
		})
	}
	t.Run("yield false stops", func(t *testing.T) {
		n := 0
		require.NoError(t, d.Read([]*p4v1.Entity{tq(0, 0, nil)}, func(*p4v1.Entity) bool { n++; return n < 2 }))
		assert.Equal(t, 2, n)
	})
}

// TestCanonicalRead: padded bytes in, canonical bytes out; the entry read
// back has the identity tables.Key gives the written one.
func TestCanonicalRead(t *testing.T) {
	id := testIDs(t)
	d := newRangeDP(t)
	written := []*p4v1.Entity{
		te(id.portRole, 0, act(id.setOperatorPort, b(0, 1), b(0, 0, 0), b(0, 20)), exactM(1, 0, 0, 5)),
		te(id.flowRules, 9, act(id.balance, b(0, 1)), ternM(12, b(0, 6), b(0, 0xff)), rangeM(14, b(0, 0, 1), b(0, 0xff)), ternM(10, b(0, 10, 0, 0, 0), b(0, 0xff, 0, 0, 0))),
	}
	for _, e := range written {
		require.NoError(t, d.Write([]*p4v1.Update{ins(e)}, 0)[0])
	}
	got := readQ(t, d, te(0, 0, nil))
	require.Len(t, got, 2)
	want := []*p4v1.Entity{
		te(id.portRole, 0, act(id.setOperatorPort, b(1), b(0), b(20)), exactM(1, 5)),
		te(id.flowRules, 9, act(id.balance, b(1)), ternM(10, b(10, 0, 0, 0), b(0xff, 0, 0, 0)), ternM(12, b(6), b(0xff)), rangeM(14, b(1), b(0xff))),
	}
	assert.Empty(t, cmp.Diff(want, got, protocmp.Transform()))
	for i := range written {
		assert.Equal(t, tables.Key(written[i]), tables.Key(got[i]))
	}
}

// TestIdentityIsTablesKey: for random entries, the store's identity agrees
// with tables.Key (same key <=> same entry), whatever the byte padding and
// match order.
func TestIdentityIsTablesKey(t *testing.T) {
	d := newDP(t)
	r := rand.New(rand.NewPCG(7, 7))
	tb := d.flowRules
	keys := map[string]string{} // tables.Key -> internal key
	for i := 0; i < 2000; i++ {
		ms := randomMatch(r, tb)
		e := te(tb.id, int32(1+r.IntN(3)), act(minAllowed(tb)), ms...)
		// A variant: matches shuffled, values zero-padded.
		v := proto.Clone(e).(*p4v1.Entity)
		vm := v.GetTableEntry().Match
		r.Shuffle(len(vm), func(a, b int) { vm[a], vm[b] = vm[b], vm[a] })
		for _, m := range vm {
			switch x := m.FieldMatchType.(type) {
			case *p4v1.FieldMatch_Ternary_:
				x.Ternary.Value = append([]byte{0}, x.Ternary.Value...)
			case *p4v1.FieldMatch_Range_:
				x.Range.High = append([]byte{0, 0}, x.Range.High...)
			}
		}
		require.Equal(t, tables.Key(e), tables.Key(v))
		m1, err := tb.parseMatch(e.GetTableEntry().Match)
		require.NoError(t, err)
		m2, err := tb.parseMatch(vm)
		require.NoError(t, err)
		k1 := string(appendKey(nil, tb, e.GetTableEntry().Priority, m1))
		k2 := string(appendKey(nil, tb, v.GetTableEntry().Priority, m2))
		require.Equal(t, k1, k2)
		if old, ok := keys[tables.Key(e)]; ok {
			require.Equal(t, old, k1)
		}
		keys[tables.Key(e)] = k1
	}
	// Distinct tables.Keys give distinct internal keys.
	seen := map[string]bool{}
	for _, k := range keys {
		require.False(t, seen[k])
		seen[k] = true
	}
}

func TestValueSets(t *testing.T) {
	id := testIDs(t)
	d := newDP(t)
	require.NoError(t, d.Write([]*p4v1.Update{mod(id.vset(id.coreTPID, 0x88b5, 0x9999))}, 0)[0])
	got := readQ(t, d, &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{ValueSetId: id.coreTPID}}})
	assert.Empty(t, cmp.Diff([]*p4v1.Entity{id.vset(id.coreTPID, 0x88b5, 0x9999)}, got, protocmp.Transform()))
	assert.True(t, d.coreTPID.has(0x9999))
	// MODIFY replaces the members; an empty MODIFY empties the set.
	require.NoError(t, d.Write([]*p4v1.Update{mod(id.vset(id.coreTPID, 0x88b5))}, 0)[0])
	assert.False(t, d.coreTPID.has(0x9999))
	require.NoError(t, d.Write([]*p4v1.Update{mod(id.vset(id.coreTPID))}, 0)[0])
	assert.False(t, d.coreTPID.has(0x88b5))
	got = readQ(t, d, &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{ValueSetId: id.coreTPID}}})
	require.Len(t, got, 1)
	assert.Empty(t, got[0].GetValueSetEntry().GetMembers())
}

func TestCounterWrites(t *testing.T) {
	id := testIDs(t)
	d := newDP(t)
	cell := func(cid uint32, i int64) *p4v1.CounterData {
		out := readQ(t, d, &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: cid, Index: &p4v1.Index{Index: i}}}})
		require.Len(t, out, 1)
		return out[0].GetCounterEntry().GetData()
	}
	require.NoError(t, d.Write([]*p4v1.Update{mod(counterE(id.linkCtr, i64(9), 3, 300))}, 0)[0])
	assert.Equal(t, int64(3), cell(id.linkCtr, 9).GetPacketCount())
	assert.Equal(t, int64(300), cell(id.linkCtr, 9).GetByteCount())
	// Index unset: every cell.
	require.NoError(t, d.Write([]*p4v1.Update{mod(counterE(id.linkCtr, nil, 1, 2))}, 0)[0])
	for _, e := range readQ(t, d, &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: id.linkCtr}}}) {
		assert.Equal(t, int64(1), e.GetCounterEntry().GetData().GetPacketCount())
	}
	// Data unset: nothing changes.
	require.NoError(t, d.Write([]*p4v1.Update{mod(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: id.linkCtr}}})}, 0)[0])
	assert.Equal(t, int64(1), cell(id.linkCtr, 9).GetPacketCount())

	// Direct counters: set by insert, by MODIFY of the entry (kept when
	// unset), by DirectCounterEntry; read with the entry.
	rule := withTE(id.rule(3, 6), func(t *p4v1.TableEntry) { t.CounterData = &p4v1.CounterData{PacketCount: 7, ByteCount: 70} })
	require.NoError(t, d.Write([]*p4v1.Update{ins(rule)}, 0)[0])
	readRule := func() *p4v1.CounterData {
		out := readQ(t, d, withTE(id.rule(3, 6), func(t *p4v1.TableEntry) { t.Action = nil; t.CounterData = &p4v1.CounterData{} }))
		require.Len(t, out, 1)
		return out[0].GetTableEntry().GetCounterData()
	}
	assert.Equal(t, int64(7), readRule().GetPacketCount())
	require.NoError(t, d.Write([]*p4v1.Update{mod(id.rule(3, 6))}, 0)[0])
	assert.Equal(t, int64(7), readRule().GetPacketCount())
	require.NoError(t, d.Write([]*p4v1.Update{mod(directE(id.rule(3, 6).GetTableEntry(), 0, 0))}, 0)[0])
	assert.Equal(t, int64(0), readRule().GetPacketCount())
	// MODIFY without an action changes nothing but direct resources; with
	// one, it replaces the metadata too.
	withMeta := withTE(id.rule(3, 6), func(t *p4v1.TableEntry) { t.Metadata = []byte("m1"); t.ControllerMetadata = 9 })
	require.NoError(t, d.Write([]*p4v1.Update{mod(withMeta)}, 0)[0])
	require.NoError(t, d.Write([]*p4v1.Update{mod(withTE(id.rule(3, 6), func(t *p4v1.TableEntry) { t.Action = nil }))}, 0)[0])
	got := readQ(t, d, id.rule(3, 6))
	require.Len(t, got, 1)
	assert.Equal(t, []byte("m1"), got[0].GetTableEntry().GetMetadata())
	assert.Equal(t, uint64(9), got[0].GetTableEntry().GetControllerMetadata())
	assert.Equal(t, id.bypass, got[0].GetTableEntry().GetAction().GetAction().GetActionId())
	// Without counter_data in the query, none in the answer.
	out := readQ(t, d, id.rule(3, 6))
	require.Len(t, out, 1)
	assert.Nil(t, out[0].GetTableEntry().GetCounterData())
}

func TestNewErrors(t *testing.T) {
	_, err := New(nil)
	require.Error(t, err)
	s := loadSchema(t)
	info := proto.Clone(s.Info).(*p4configv1.P4Info)
	info.Tables = info.Tables[1:] // no port_role
	broken, err := p4src.NewSchema(info)
	require.NoError(t, err)
	_, err = New(broken)
	require.ErrorIs(t, err, p4src.ErrUnknownName)
	assert.Contains(t, err.Error(), p4src.TablePortRole)
	_, err = New(s, WithCPUPort(512))
	require.Error(t, err)
}
