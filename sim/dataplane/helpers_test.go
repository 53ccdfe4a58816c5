package dataplane

import (
	"bytes"
	"errors"
	"testing"
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/tables"
)

func loadSchema(tb testing.TB) *p4src.Schema {
	tb.Helper()
	s, err := p4src.Load()
	require.NoError(tb, err)
	return s
}

// rangeSchema is the program's P4Info with flow_rules' l4_dst as a range
// key (the program writes it ternary, ranges expanded into prefixes): the
// store's range matches are tested with it.
func rangeSchema(tb testing.TB) *p4src.Schema {
	tb.Helper()
	info := proto.Clone(loadSchema(tb).Info).(*p4configv1.P4Info)
	for _, t := range info.GetTables() {
		if t.GetPreamble().GetName() != p4src.TableFlowRules {
			continue
		}
		for _, f := range t.GetMatchFields() {
			if f.GetName() == "l4_dst" {
				f.Match = &p4configv1.MatchField_MatchType_{MatchType: p4configv1.MatchField_RANGE}
			}
		}
	}
	s, err := p4src.NewSchema(info)
	require.NoError(tb, err)
	return s
}

// newRangeDP is newDP on rangeSchema.
func newRangeDP(tb testing.TB) *Dataplane {
	tb.Helper()
	d, err := New(rangeSchema(tb), WithClock(func() uint64 { return 1_000_000 }))
	require.NoError(tb, err)
	return d
}

// newDP returns an empty data plane with a fixed clock.
func newDP(tb testing.TB, opts ...Option) *Dataplane {
	tb.Helper()
	clock := uint64(1_000_000)
	opts = append([]Option{WithClock(func() uint64 { clock += 1000; return clock })}, opts...)
	d, err := New(loadSchema(tb), opts...)
	require.NoError(tb, err)
	return d
}

// compileSite compiles a configuration with the tables compiler.
func compileSite(tb testing.TB, cfg *config.Config, st tables.State) (*tables.Compiler, *tables.Desired) {
	tb.Helper()
	comp, err := tables.New(siteSchema(tb, cfg))
	require.NoError(tb, err)
	desired, err := comp.Compile(cfg, st)
	require.NoError(tb, err)
	return comp, desired
}

// program writes a configuration into d the way the controller does:
// Compile, Diff against what d holds, write the batches in order.
func program(tb testing.TB, d *Dataplane, cfg *config.Config, st tables.State) *tables.Plan {
	tb.Helper()
	comp, desired := compileSite(tb, cfg, st)
	current := readAll(tb, d, comp)
	plan := comp.Diff(desired.Entities, current)
	for _, b := range plan.Batches {
		for i, err := range d.Write(b.Updates, p4v1.WriteRequest_CONTINUE_ON_ERROR) {
			require.NoError(tb, err, "batch %q update %d", b.Name, i)
		}
	}
	return plan
}

// readAll reads back every table entry, default entry and value set the
// compiler writes.
func readAll(tb testing.TB, d *Dataplane, comp *tables.Compiler) []*p4v1.Entity {
	tb.Helper()
	tq, vq := comp.ReadQueries()
	q := append(tq, vq...)
	var out []*p4v1.Entity
	require.NoError(tb, d.Read(q, func(e *p4v1.Entity) bool { out = append(out, e); return true }))
	return out
}

func siteConfig(tb testing.TB) *config.Config {
	tb.Helper()
	cfg, err := pipelinecases.Config()
	require.NoError(tb, err)
	return cfg
}

// siteDP is a data plane programmed with the pipeline cases' site.
func siteDP(tb testing.TB, opts ...Option) *Dataplane {
	tb.Helper()
	d := newDP(tb, opts...)
	program(tb, d, siteConfig(tb), tables.State{})
	return d
}

// target runs the shared pipeline cases against the in-memory data plane:
// every result is queued on its port (or as a packet-in) at once.
type target struct {
	d    *Dataplane
	out  map[uint32][][]byte
	pins []*pipelinecases.PacketIn
}

var _ pipelinecases.Target = (*target)(nil)

var errNothing = errors.New("nothing received")

func newTarget(d *Dataplane) *target { return &target{d: d, out: map[uint32][][]byte{}} }

func (tg *target) deliver(r Result) error {
	switch r.Kind {
	case Forward:
		tg.out[r.Port] = append(tg.out[r.Port], bytes.Clone(r.Frame))
	case ToCPU:
		if r.PacketIn.RxTimestamp == 0 {
			return errors.New("packet-in without rx timestamp")
		}
		tg.pins = append(tg.pins, &pipelinecases.PacketIn{IngressPort: r.PacketIn.IngressPort, Reason: r.PacketIn.Reason, Frame: bytes.Clone(r.Frame)})
	}
	return nil
}

func (tg *target) Send(port uint32, frame []byte) error {
	return tg.deliver(tg.d.Process(port, frame, make([]byte, 0, len(frame)+4)))
}

func (tg *target) PacketOut(port uint32, flags uint8, frame []byte) error {
	return tg.deliver(tg.d.PacketOut(port, flags, frame, make([]byte, 0, len(frame)+4)))
}

func (tg *target) Recv(port uint32, _ time.Duration) ([]byte, error) {
	q := tg.out[port]
	if len(q) == 0 {
		return nil, errNothing
	}
	tg.out[port] = q[1:]
	return q[0], nil
}

func (tg *target) PacketIn(_ time.Duration) (*pipelinecases.PacketIn, error) {
	if len(tg.pins) == 0 {
		return nil, errNothing
	}
	p := tg.pins[0]
	tg.pins = tg.pins[1:]
	return p, nil
}

// Entity constructors for the store tests.

func te(tableID uint32, prio int32, action *p4v1.TableAction, m ...*p4v1.FieldMatch) *p4v1.Entity {
	return &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: tableID, Priority: prio, Action: action, Match: m}}}
}

func exactM(id uint32, v ...byte) *p4v1.FieldMatch {
	return &p4v1.FieldMatch{FieldId: id, FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: v}}}
}

func ternM(id uint32, v, mask []byte) *p4v1.FieldMatch {
	return &p4v1.FieldMatch{FieldId: id, FieldMatchType: &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{Value: v, Mask: mask}}}
}

func rangeM(id uint32, lo, hi []byte) *p4v1.FieldMatch {
	return &p4v1.FieldMatch{FieldId: id, FieldMatchType: &p4v1.FieldMatch_Range_{Range: &p4v1.FieldMatch_Range{Low: lo, High: hi}}}
}

func act(id uint32, params ...[]byte) *p4v1.TableAction {
	a := &p4v1.Action{ActionId: id}
	for i, p := range params {
		a.Params = append(a.Params, &p4v1.Action_Param{ParamId: uint32(i + 1), Value: p})
	}
	return &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: a}}
}

func upd(typ p4v1.Update_Type, e *p4v1.Entity) *p4v1.Update {
	return &p4v1.Update{Type: typ, Entity: e}
}

func ins(e *p4v1.Entity) *p4v1.Update { return upd(p4v1.Update_INSERT, e) }
func mod(e *p4v1.Entity) *p4v1.Update { return upd(p4v1.Update_MODIFY, e) }
func del(e *p4v1.Entity) *p4v1.Update { return upd(p4v1.Update_DELETE, e) }
