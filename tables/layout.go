package tables

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"sync/atomic"
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

// Layout is the slot table of one balance group (docs/integrity.md, "Slot layouts on planned changes").
// Slots[i] is where hash slot i sends a session.
type Layout struct {
	Group    uint32
	SlotBits uint
	Slots    []Target

	digest atomic.Pointer[string] // Digest, once computed
}

// BaseLayout deals 2^slotBits slots over the members in proportion to their
// core counts, round-robin over the cores of each filter group, so that every
// core of every filter gets an equal share (within one slot). The dealing
// order interleaves filter groups: core 0 of each member in member order,
// then core 1 of each member that has one, and so on; slot i takes the
// (i mod C)-th of these C cores. Same input, same layout, on any controller.
func BaseLayout(group uint32, slotBits uint, members []Member) (*Layout, error) {
	seq, err := layoutInput(group, slotBits, members)
	if err != nil {
		return nil, err
	}
	n := 1 << slotBits
	l := &Layout{Group: group, SlotBits: slotBits, Slots: make([]Target, n)}
	for i := range l.Slots {
		l.Slots[i] = seq[i%len(seq)]
	}
	return l, nil
}

// layoutInput checks a layout's input and returns the cores in dealing
// order.
func layoutInput(group uint32, slotBits uint, members []Member) ([]Target, error) {
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
	return seq, nil
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
// group is then below its minimum and in bypass). A layout is never
// changed once made: with nothing to deal, l itself is returned.
func (l *Layout) Rebalanced(failed map[uint32]bool) *Layout {
	if len(failed) == 0 {
		return l
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
		return l
	}
	out := &Layout{Group: l.Group, SlotBits: l.SlotBits, Slots: slices.Clone(l.Slots)}
	// Fewest slots first; ties keep the dealing order. Counts differ by at
	// most one, so cycling over this order keeps them within one.
	sort.SliceStable(order, func(i, j int) bool { return count[order[i]] < count[order[j]] })
	for k, i := range orphans {
		out.Slots[i] = order[k%len(order)]
	}
	return out
}

// Spared returns the layout with every slot of a member in sub given to
// the member's spare (sub: member id -> spare id), on the same core: the
// spare takes the member's whole share and core mapping (a spare has at
// least as many cores as the member; config validates it). No other slot
// moves, and without the entry the member's slots return, so the layout
// is a function of its input alone.
func (l *Layout) Spared(sub map[uint32]uint32) *Layout {
	if len(sub) == 0 {
		return l
	}
	out := &Layout{Group: l.Group, SlotBits: l.SlotBits, Slots: slices.Clone(l.Slots)}
	for i, t := range out.Slots {
		if s, ok := sub[t.FilterGroup]; ok {
			out.Slots[i].FilterGroup = s
		}
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
// digits of SHA-256 over group, slot bits and every slot's target. It is
// computed once (a status shows the digests of every layout, and a
// Tofino group has 65,536 slots): a layout is not changed once made.
func (l *Layout) Digest() string {
	if d := l.digest.Load(); d != nil {
		return *d
	}
	h := sha256.New()
	var buf [4096]byte
	b := binary.BigEndian.AppendUint32(buf[:0], l.Group)
	b = binary.BigEndian.AppendUint32(b, uint32(l.SlotBits))
	for _, t := range l.Slots {
		if len(b)+8 > len(buf) {
			h.Write(b)
			b = buf[:0]
		}
		b = binary.BigEndian.AppendUint32(b, t.FilterGroup)
		b = binary.BigEndian.AppendUint32(b, t.Core)
	}
	h.Write(b)
	d := hex.EncodeToString(h.Sum(nil))[:16]
	l.digest.Store(&d)
	return d
}

// PlannedLayout is the slot layout of a planned change (a configuration
// apply or rollback): it starts from prev, the base layout the switch was
// last programmed with, and moves only the slots it must:
//   - a grow (more slot bits) copies every slot to the slots the wider mask
//     adds, so no session moves;
//   - a shrink keeps, for each remaining slot, the target most of the slots
//     folding onto it had (the lowest such slot's on a tie);
//   - slots of a filter group that left, or of a core beyond a filter
//     group's new core count, are orphans;
//   - every core's quota is the slot count divided by the number of cores,
//     the remainder going one each to the cores holding the most slots (the
//     dealing order of BaseLayout breaks ties), so every core's share is
//     equal within one slot; a core above its quota gives up its highest
//     slots;
//   - orphans are dealt in slot order, round robin over the cores below
//     their quota in the dealing order.
//
// Adding a member of k cores to a group of C cores moves about k/(C+k) of
// the slots, all to the new member; removing one moves only its slots;
// every other session keeps its filter group and core. The result depends
// only on prev's slots, slotBits and the members' ids and core counts
// (not on their order), so every controller holding the same previous
// layout computes the same one. With no prev it is BaseLayout; when prev
// is already a balanced layout for the members, it is returned unchanged
// (a copy), so compiling again is a fixed point.
func PlannedLayout(prev *Layout, group uint32, slotBits uint, members []Member) (*Layout, error) {
	if prev == nil || len(prev.Slots) == 0 || len(prev.Slots)&(len(prev.Slots)-1) != 0 {
		return BaseLayout(group, slotBits, members)
	}
	seq, err := layoutInput(group, slotBits, sortedMembers(members))
	if err != nil {
		return nil, err
	}
	index := newCoreIndex(seq)
	n := 1 << slotBits
	pn := len(prev.Slots)
	out := &Layout{Group: group, SlotBits: slotBits, Slots: make([]Target, n)}
	orphan := make([]bool, n)
	count := make([]int, len(seq))
	if n >= pn {
		for i := range out.Slots {
			out.Slots[i] = prev.Slots[i&(pn-1)]
		}
	} else {
		// Majority of the folded slots, valid targets only.
		votes := map[Target]int{}
		for i := range out.Slots {
			clear(votes)
			best, bestN := Target{}, 0
			for j := i; j < pn; j += n {
				t := prev.Slots[j]
				if _, ok := index.of(t); !ok {
					continue
				}
				votes[t]++
				if v := votes[t]; v > bestN {
					best, bestN = t, v
				}
			}
			if bestN == 0 {
				best = prev.Slots[i] // an orphan below
			}
			out.Slots[i] = best
		}
	}
	for i, t := range out.Slots {
		if k, ok := index.of(t); ok {
			count[k]++
		} else {
			orphan[i] = true
		}
	}
	// Quotas: the remainder to the cores holding the most.
	c := len(seq)
	quota := make([]int, c)
	order := make([]int, c)
	for k := range order {
		order[k] = k
		quota[k] = n / c
	}
	sort.SliceStable(order, func(a, b int) bool { return count[order[a]] > count[order[b]] })
	for _, k := range order[:n%c] {
		quota[k]++
	}
	// Release what is above quota: each core's highest slots.
	for i := n - 1; i >= 0; i-- {
		if orphan[i] {
			continue
		}
		k, _ := index.of(out.Slots[i])
		if count[k] > quota[k] {
			count[k]--
			orphan[i] = true
		}
	}
	// Deal the orphans round robin over the cores below quota.
	var need []int
	for k := range seq {
		if count[k] < quota[k] {
			need = append(need, k)
		}
	}
	next := 0
	for i := range out.Slots {
		if !orphan[i] {
			continue
		}
		for count[need[next]] >= quota[need[next]] {
			next = (next + 1) % len(need)
		}
		k := need[next]
		out.Slots[i] = seq[k]
		count[k]++
		next = (next + 1) % len(need)
	}
	return out, nil
}

// coreIndex maps a target to its position in a core sequence: per filter
// group, the positions of its cores (few filter groups, many slots).
type coreIndex map[uint32][]int

func newCoreIndex(seq []Target) coreIndex {
	ix := coreIndex{}
	for i, t := range seq {
		ix[t.FilterGroup] = append(ix[t.FilterGroup], i) // cores in order
	}
	return ix
}

func (ix coreIndex) of(t Target) (int, bool) {
	cores := ix[t.FilterGroup]
	if int64(t.Core) >= int64(len(cores)) {
		return 0, false
	}
	return cores[t.Core], true
}

// sortedMembers orders members by filter group id, so that the member
// order of the configuration does not change a planned layout.
func sortedMembers(members []Member) []Member {
	out := slices.Clone(members)
	slices.SortStableFunc(out, func(a, b Member) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// Move is what a change of layout does to one balance group's sessions.
// Shares are of the group's hash space (its sessions, hashed uniformly).
type Move struct {
	Group uint32
	// Slots is the number of slot entries written: slots whose target
	// changes, plus slots added or removed by a new slot count.
	Slots int
	// Moved is the share of the group's sessions whose filter group or core
	// changes.
	Moved float64
	// Filters lists every filter group of either layout, by id.
	Filters []FilterMove
}

// FilterMove is what a change of layout does to one filter group.
type FilterMove struct {
	FilterGroup uint32
	// Before and After are the filter group's shares of the group's
	// sessions.
	Before, After float64
	// Moved is the share of the filter group's own sessions (Before) that
	// leave it or change core; 0 for a new filter group.
	Moved float64
}

// Moves compares two layouts of one balance group (either may be nil: a
// group added or removed). Sessions are compared at the finer of the two
// slot counts: session h goes to slot h&mask in each.
func Moves(old, new *Layout) Move {
	var m Move
	switch {
	case old == nil && new == nil:
		return m
	case new != nil:
		m.Group = new.Group
	default:
		m.Group = old.Group
	}
	on, nn := 0, 0
	if old != nil {
		on = len(old.Slots)
	}
	if new != nil {
		nn = len(new.Slots)
	}
	for i := 0; i < min(on, nn); i++ {
		if old.Slots[i] != new.Slots[i] {
			m.Slots++
		}
	}
	m.Slots += max(on, nn) - min(on, nn)
	if on == 0 || nn == 0 {
		m.Moved = 1
		if on == 0 && nn == 0 {
			m.Moved = 0
		}
	}
	type acc struct{ before, after, moved int }
	per := map[uint32]*acc{}
	get := func(fg uint32) *acc {
		a := per[fg]
		if a == nil {
			a = &acc{}
			per[fg] = a
		}
		return a
	}
	total := max(on, nn)
	moved := 0
	for i := 0; i < total; i++ {
		var o, w Target
		if on > 0 {
			o = old.Slots[i&(on-1)]
			get(o.FilterGroup).before++
		}
		if nn > 0 {
			w = new.Slots[i&(nn-1)]
			get(w.FilterGroup).after++
		}
		if on > 0 && nn > 0 && o != w {
			moved++
			get(o.FilterGroup).moved++
		}
	}
	if on > 0 && nn > 0 {
		m.Moved = float64(moved) / float64(total)
	}
	for fg, a := range per {
		fm := FilterMove{FilterGroup: fg, Before: float64(a.before) / float64(total), After: float64(a.after) / float64(total)}
		switch {
		case a.before > 0 && nn == 0:
			fm.Moved = 1
		case a.before > 0:
			fm.Moved = float64(a.moved) / float64(a.before)
		}
		m.Filters = append(m.Filters, fm)
	}
	slices.SortFunc(m.Filters, func(a, b FilterMove) int { return cmp.Compare(a.FilterGroup, b.FilterGroup) })
	return m
}

// GroupMove is Move for one balance group, by name.
type GroupMove struct {
	Name string
	Move
}

// LayoutMoves compares the in-use layouts of two compilations (before and
// after a change), balance group by balance group: what --dry-run and
// config diff report. Groups of either side are listed, by name.
func LayoutMoves(old, new []*GroupLayout) []GroupMove {
	byName := map[string][2]*Layout{}
	for _, g := range old {
		p := byName[g.Name]
		p[0] = g.Active
		byName[g.Name] = p
	}
	for _, g := range new {
		p := byName[g.Name]
		p[1] = g.Active
		byName[g.Name] = p
	}
	out := make([]GroupMove, 0, len(byName))
	for name, p := range byName {
		out = append(out, GroupMove{Name: name, Move: Moves(p[0], p[1])})
	}
	slices.SortFunc(out, func(a, b GroupMove) int { return cmp.Compare(a.Name, b.Name) })
	return out
}
