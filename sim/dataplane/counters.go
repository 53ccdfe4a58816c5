package dataplane

import (
	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
)

// counterArray is an indexed counter.
type counterArray struct {
	id    uint32
	name  string
	unit  p4configv1.CounterSpec_Unit
	cells []counterCell
}

// count adds one packet of n bytes to cell i; an index beyond the array
// is not counted (BMv2 logs it and goes on).
func (c *counterArray) count(i uint32, n uint64) {
	if i < uint32(len(c.cells)) {
		c.cells[i].add(n)
	}
}
