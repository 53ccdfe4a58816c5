package tables

import (
	"fmt"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
)

// The per-core counter, core_counters, has one cell per filter core
// (p4src.CoreCounterIndex: filter_group<<10 | core): every packet a slot
// sends towards that core. Readers ask for the cells of the configured
// cores only, never the whole counter (64k cells).

// CoreCounterEntry is the core_counters cell of one filter core, as a read
// request (or to reset it by a write).
func (c *Compiler) CoreCounterEntry(t Target) *p4v1.Entity {
	return &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{
		CounterId: c.coreCounter, Index: &p4v1.Index{Index: int64(p4src.CoreCounterIndex(t.FilterGroup, t.Core))}}}}
}

// CoreCounterReads is the read request for the core_counters cells of
// every core of cfg's filter groups (one entity per cell), and those cores
// in the same order. It fails when a core's cell is outside the counter of
// the P4Info in use.
func (c *Compiler) CoreCounterReads(cfg *config.Config) ([]*p4v1.Entity, []Target, error) {
	var es []*p4v1.Entity
	var ts []Target
	for _, f := range cfg.FilterGroups {
		if f.ID == nil {
			return nil, nil, fmt.Errorf("core counters: filter group %q has no id", f.Name)
		}
		for core := uint32(0); core < f.Cores; core++ {
			t := Target{FilterGroup: *f.ID, Core: core}
			if core >= p4src.CoreCounterCores {
				return nil, nil, fmt.Errorf("core counters: filter group %q: core %d is beyond the %d cores %s counts", f.Name, core, p4src.CoreCounterCores, p4src.CounterCore)
			}
			if i := int64(p4src.CoreCounterIndex(t.FilterGroup, t.Core)); i >= c.coreCounterSize {
				return nil, nil, fmt.Errorf("core counters: filter group %q core %d needs cell %d, but %s has %d cells in this P4Info", f.Name, core, i, p4src.CounterCore, c.coreCounterSize)
			}
			es = append(es, c.CoreCounterEntry(t))
			ts = append(ts, t)
		}
	}
	return es, ts, nil
}

// DecodeCoreCounter is the filter core a core_counters cell counts (the
// inverse of CoreCounterEntry); ok is false for another counter or an
// index outside the counter.
func (c *Compiler) DecodeCoreCounter(ce *p4v1.CounterEntry) (t Target, ok bool) {
	if ce.GetCounterId() != c.coreCounter || ce.GetIndex() == nil || ce.GetIndex().GetIndex() >= c.coreCounterSize {
		return t, false
	}
	fg, core, ok := p4src.CoreCounterTarget(ce.GetIndex().GetIndex())
	return Target{FilterGroup: fg, Core: core}, ok
}
