package tables

import (
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
)

// Count is what a counter cell counted.
type Count struct{ Packets, Bytes uint64 }

// counterRefs are the ids of the indirect counters a snapshot reads,
// resolved by name in New (0: not in the P4Info). err is the first
// required counter the P4Info lacks: New does not need them, a snapshot
// does, so CounterReads fails with it. The verdict counter is optional
// (a program without the data-plane verdict has none).
type counterRefs struct {
	portRx, portTx, link, filterGroup, drop, verdict uint32
	err                                              error
}

// resolveCounters resolves the snapshot's counters in s.
func resolveCounters(s *p4src.Schema) counterRefs {
	var r counterRefs
	for _, x := range []struct {
		name string
		id   *uint32
	}{{p4src.CounterPortRx, &r.portRx}, {p4src.CounterPortTx, &r.portTx}, {p4src.CounterLink, &r.link},
		{p4src.CounterFilterGroup, &r.filterGroup}, {p4src.CounterDrop, &r.drop}} {
		c, err := s.Counter(x.name)
		if err != nil {
			if r.err == nil {
				r.err = err
			}
			continue
		}
		*x.id = c.GetPreamble().GetId()
	}
	if c, err := s.Counter(p4src.CounterVerdict); err == nil {
		r.verdict = c.GetPreamble().GetId()
	}
	return r
}

// CounterReads is the read request of a counter snapshot of cfg: every
// cell of the port, link, filter group and drop counters (and of the
// verdict counter, when the program has it), the flow rules' direct
// counters, and the core_counters cells of cfg's cores alone; and those
// cores, in cfg's order. It fails when the P4Info lacks one of those
// counters, or a core's cell is outside core_counters.
func (c *Compiler) CounterReads(cfg *config.Config) ([]*p4v1.Entity, []Target, error) {
	r := c.counters
	if r.err != nil {
		return nil, nil, r.err
	}
	wildcard := func(id uint32) *p4v1.Entity {
		return &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: id}}}
	}
	es := []*p4v1.Entity{wildcard(r.portRx), wildcard(r.portTx), wildcard(r.link), wildcard(r.filterGroup), wildcard(r.drop)}
	if r.verdict != 0 {
		es = append(es, wildcard(r.verdict))
	}
	for _, t := range []*tableRef{c.flowRules, c.flowRulesV6} {
		es = append(es, &p4v1.Entity{Entity: &p4v1.Entity_DirectCounterEntry{DirectCounterEntry: &p4v1.DirectCounterEntry{
			TableEntry: &p4v1.TableEntry{TableId: t.id}}}})
	}
	cores, targets, err := c.CoreCounterReads(cfg)
	if err != nil {
		return nil, nil, err
	}
	return append(es, cores...), targets, nil
}

// FilterTrafficReads is the read request of the cells that count, for
// each filter group id, the packets sent to its filter and those that came
// back (the stall guard's evidence): a snapshot of those cells alone.
func (c *Compiler) FilterTrafficReads(fgs []uint32) ([]*p4v1.Entity, error) {
	id := c.counters.filterGroup
	if id == 0 {
		_, err := c.schema.Counter(p4src.CounterFilterGroup)
		return nil, err
	}
	es := make([]*p4v1.Entity, 0, 2*len(fgs))
	for _, fg := range fgs {
		for _, k := range []uint32{p4src.FGCntToFilter, p4src.FGCntReturned} {
			es = append(es, &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{
				CounterId: id, Index: &p4v1.Index{Index: int64(p4src.FilterGroupCounterIndex(fg, k))}}}})
		}
	}
	return es, nil
}

// CounterSnapshot is a read of CounterReads (or of a part of it), decoded once: every cell by
// what it counts. A cell the read did not answer counts zero.
type CounterSnapshot struct {
	cells map[uint32]map[int64]Count // indirect counters: by id, then index
	rules map[uint32]Count           // by rule priority, both flow rule tables summed
	cores map[Target]Count
	refs  counterRefs
}

// DecodeCounters decodes the answer to a CounterReads request.
// Entities of other counters or tables are left out.
func (c *Compiler) DecodeCounters(es []*p4v1.Entity) *CounterSnapshot {
	s := &CounterSnapshot{cells: map[uint32]map[int64]Count{}, rules: map[uint32]Count{}, cores: map[Target]Count{}, refs: c.counters}
	for _, e := range es {
		if ce := e.GetCounterEntry(); ce != nil {
			n := Count{uint64(ce.GetData().GetPacketCount()), uint64(ce.GetData().GetByteCount())}
			if t, ok := c.DecodeCoreCounter(ce); ok {
				s.cores[t] = n
				continue
			}
			m := s.cells[ce.GetCounterId()]
			if m == nil {
				m = map[int64]Count{}
				s.cells[ce.GetCounterId()] = m
			}
			m[ce.GetIndex().GetIndex()] = n
		}
		if dc := e.GetDirectCounterEntry(); dc != nil {
			// A direct-counter read names the entry by its key alone (no
			// action): the rule is found by table and priority.
			if rule, _, ok := c.DecodeRuleCounter(dc); ok {
				x := s.rules[rule]
				s.rules[rule] = Count{x.Packets + uint64(dc.GetData().GetPacketCount()), x.Bytes + uint64(dc.GetData().GetByteCount())}
			}
		}
	}
	return s
}

// cell is one cell of an indirect counter (zero for a counter the
// program lacks: id 0).
func (s *CounterSnapshot) cell(id uint32, index uint32) Count {
	if id == 0 {
		return Count{}
	}
	return s.cells[id][int64(index)]
}

// PortRx is what a port received.
func (s *CounterSnapshot) PortRx(port uint32) Count { return s.cell(s.refs.portRx, port) }

// PortTx is what a port sent.
func (s *CounterSnapshot) PortTx(port uint32) Count { return s.cell(s.refs.portTx, port) }

// Link is a link's count of one kind (p4src.LinkCnt*).
func (s *CounterSnapshot) Link(link, kind uint32) Count {
	return s.cell(s.refs.link, p4src.LinkCounterIndex(link, kind))
}

// FilterGroup is a filter group's count of one kind (p4src.FGCnt*).
func (s *CounterSnapshot) FilterGroup(fg, kind uint32) Count {
	return s.cell(s.refs.filterGroup, p4src.FilterGroupCounterIndex(fg, kind))
}

// Verdict is a filter group's data-plane verdict count of one kind
// (p4src.VerdictCnt*); zero on a program without the verdict.
func (s *CounterSnapshot) Verdict(fg, kind uint32) Count {
	return s.cell(s.refs.verdict, p4src.VerdictCounterIndex(fg, kind))
}

// Drop is the count of one drop reason (1 to p4src.DropReasons-1).
func (s *CounterSnapshot) Drop(reason int64) Count {
	if s.refs.drop == 0 || reason < 0 {
		return Count{}
	}
	return s.cells[s.refs.drop][reason]
}

// Rule is what the entries of the rule of that priority counted, in both
// flow rule tables.
func (s *CounterSnapshot) Rule(priority uint32) Count { return s.rules[priority] }

// Core is what a filter core's core_counters cell counted.
func (s *CounterSnapshot) Core(t Target) Count { return s.cores[t] }
