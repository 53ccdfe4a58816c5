package tables

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
)

// Member is one filter group of a balance group, as the slot layout sees it.
type Member struct {
	ID    uint32 // filter group id
	Cores uint32
}

// Target is what a slot points at: a filter group and one of its cores.
type Target struct {
	FilterGroup uint32
	Core        uint32
}

// Layout is the slot table of one balance group (ARCHITECTURE.md §3.4).
// Slots[i] is where hash slot i sends a session.
type Layout struct {
	Group    uint32
	SlotBits uint
	Slots    []Target
}

// BaseLayout deals 2^slotBits slots over the members in proportion to their
// core counts, round-robin over the cores of each filter group, so that every
// core of every filter gets an equal share (within one slot). The dealing
// order interleaves filter groups: core 0 of each member in member order,
// then core 1 of each member that has one, and so on; slot i takes the
// (i mod C)-th of these C cores. Same input, same layout, on any controller.
func BaseLayout(group uint32, slotBits uint, members []Member) (*Layout, error) {
	if slotBits < 1 || slotBits > 16 {
		return nil, fmt.Errorf("slot layout: group %d: slot bits %d outside 1..16", group, slotBits)
	}
	if len(members) == 0 {
		return nil, fmt.Errorf("slot layout: group %d: no members", group)
	}
	seq := coreSequence(members)
	if len(seq) == 0 {
		return nil, fmt.Errorf("slot layout: group %d: members have no cores", group)
	}
	n := 1 << slotBits
	l := &Layout{Group: group, SlotBits: slotBits, Slots: make([]Target, n)}
	for i := range l.Slots {
		l.Slots[i] = seq[i%len(seq)]
	}
	return l, nil
}

// coreSequence interleaves the members' cores: round r takes core r of
// every member that has more than r cores, in member order.
func coreSequence(members []Member) []Target {
	var maxCores, total uint32
	for _, m := range members {
		maxCores = max(maxCores, m.Cores)
		total += m.Cores
	}
	seq := make([]Target, 0, total)
	for r := uint32(0); r < maxCores; r++ {
		for _, m := range members {
			if r < m.Cores {
				seq = append(seq, Target{FilterGroup: m.ID, Core: r})
			}
		}
	}
	return seq
}

// Rebalanced returns the layout with the slots of the failed filter groups
// dealt to the survivors' cores. Survivors keep every slot they had in the
// base layout (0 % disruption of healthy sessions); the orphaned slots go,
// in slot order, to the survivor cores with the fewest slots first, so the
// per-core share stays equal within one slot. It is a function of the base
// layout and the failed set only, so on recovery the original layout
// returns. With no survivor the layout is returned unchanged (the balance
// group is then below its minimum and in bypass).
func (l *Layout) Rebalanced(failed map[uint32]bool) *Layout {
	out := &Layout{Group: l.Group, SlotBits: l.SlotBits, Slots: slices.Clone(l.Slots)}
	if len(failed) == 0 {
		return out
	}
	count := map[Target]int{}
	var order []Target // survivor cores in first-appearance order
	var orphans []int
	for i, t := range l.Slots {
		if failed[t.FilterGroup] {
			orphans = append(orphans, i)
			continue
		}
		if _, seen := count[t]; !seen {
			order = append(order, t)
		}
		count[t]++
	}
	if len(order) == 0 || len(orphans) == 0 {
		return out
	}
	// Fewest slots first; ties keep the dealing order. Counts differ by at
	// most one, so cycling over this order keeps them within one.
	sort.SliceStable(order, func(i, j int) bool { return count[order[i]] < count[order[j]] })
	for k, i := range orphans {
		out.Slots[i] = order[k%len(order)]
	}
	return out
}

// Share counts the slots of each core.
func (l *Layout) Share() map[Target]int {
	m := map[Target]int{}
	for _, t := range l.Slots {
		m[t]++
	}
	return m
}

// Digest is a short, stable fingerprint of the layout: the first 16 hex
// digits of SHA-256 over group, slot bits and every slot's target.
func (l *Layout) Digest() string {
	h := sha256.New()
	var b [8]byte
	binary.BigEndian.PutUint32(b[0:4], l.Group)
	binary.BigEndian.PutUint32(b[4:8], uint32(l.SlotBits))
	h.Write(b[:])
	for _, t := range l.Slots {
		binary.BigEndian.PutUint32(b[0:4], t.FilterGroup)
		binary.BigEndian.PutUint32(b[4:8], t.Core)
		h.Write(b[:])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
