package dataplane

import (
	"fmt"
	"math/bits"
	"slices"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
)

// Tuple space search for the ternary/range tables (doc.go explains the
// design). A table's key fields are packed into at most keyWords 64-bit
// words; an entry becomes one or more rules (its ranges expanded to
// prefixes), each rule lives in the shape of its per-field masks, and a
// shape is one hash map from masked key to the rules with that key.

const (
	keyWords = 8
	// maxExpansion bounds the rules one entry expands to; ranges beyond
	// the budget stay ranges and are checked after the hash probe.
	maxExpansion = 64
)

type pktKey [keyWords]uint64

type tssField struct {
	pos   int // index in table.fields
	ext   extractor
	kind  p4configv1.MatchField_MatchType
	width int
	word  int  // the field's word (wide fields: the high word; low is word+1)
	shift uint // bit offset in the word (narrow fields)
	wide  bool // wider than 64 bits
	mask  u128 // ones(width)
}

type tss struct {
	fields []tssField
	words  int
	shapes []*shape // by maxPrio, highest first (sorted by finish)
	byID   map[shapeID]*shape
	dirty  bool // shapes needs sorting
	seq    uint64
}

type shapeID struct {
	mask pktKey
	res  uint32 // bit i: field i is checked as a range after the probe
}

// shape holds the rules of one mask. Buckets are keyed by a hash of the
// masked key words the mask uses (often 1 or 2 of the 8): cheaper than
// hashing the whole 64-byte key; rules carry their key, compared on a hit.
type shape struct {
	id      shapeID
	words   []int // words where the mask is not zero
	maxPrio int32
	prios   map[int32]int32 // priority -> rules with it
	buckets htab
	n       int
	seq     uint64
}

// hash mixes the masked words of k the shape uses; never 0.
func (s *shape) hash(k *pktKey) uint64 {
	h := uint64(len(s.words)) * 0x9E3779B97F4A7C15
	for _, w := range s.words {
		h ^= k[w] & s.id.mask[w]
		h *= 0xBF58476D1CE4E5B9
		h ^= h >> 31
	}
	return h | 1
}

// matches reports whether a rule's key is the masked packet key.
func (s *shape) matches(r *rule, k *pktKey) bool {
	for _, w := range s.words {
		if r.key[w] != k[w]&s.id.mask[w] {
			return false
		}
	}
	return true
}

// rule is one expansion of an entry. Buckets keep rules by priority,
// highest first, then by handle (BMv2's tie-break).
type rule struct {
	e      *entry
	s      *shape
	key    pktKey
	prio   int32
	handle int32
	res    []resRange
}

type resRange struct {
	f      int // index in tss.fields
	lo, hi u128
}

func (t *table) useTSS(keys map[string]extractor) error {
	x := &tss{byID: map[shapeID]*shape{}}
	if len(t.fields) > 32 {
		return fmt.Errorf("table %q: %d match fields, the lookup holds 32", t.name, len(t.fields))
	}
	for i, f := range t.fields {
		ext, ok := keys[f.name]
		if !ok {
			return fmt.Errorf("table %q: match field %q is not a key the pipeline knows", t.name, f.name)
		}
		x.fields = append(x.fields, tssField{pos: i, ext: ext, kind: f.kind, width: f.width, wide: f.width > 64, mask: ones(f.width)})
	}
	// Pack: wide fields take two words, the others first fit by
	// decreasing width.
	order := make([]int, len(x.fields))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return x.fields[b].width - x.fields[a].width })
	var used []int // bits used per word
	for _, i := range order {
		f := &x.fields[i]
		if f.wide {
			f.word = len(used)
			used = append(used, 64, 64)
			continue
		}
		placed := false
		for w := range used {
			if used[w]+f.width <= 64 {
				f.word, f.shift = w, uint(used[w])
				used[w] += f.width
				placed = true
				break
			}
		}
		if !placed {
			f.word = len(used)
			used = append(used, f.width)
		}
	}
	if len(used) > keyWords {
		return fmt.Errorf("table %q: key needs %d words, the lookup holds %d", t.name, len(used), keyWords)
	}
	x.words = len(used)
	t.tss = x
	return nil
}

func (x *tss) clear() {
	x.shapes = nil
	x.byID = map[shapeID]*shape{}
	x.dirty = false
}

// place writes a value of field f into a key.
func (x *tss) place(k *pktKey, f *tssField, v u128) {
	if f.wide {
		k[f.word] = v.hi & f.mask.hi
		k[f.word+1] = v.lo & f.mask.lo
		return
	}
	k[f.word] |= (v.lo & f.mask.lo) << f.shift
}

// value reads field f back from a packet key.
func (x *tss) value(k *pktKey, f *tssField) u128 {
	if f.wide {
		return u128{k[f.word], k[f.word+1]}
	}
	return u128{lo: k[f.word] >> f.shift & f.mask.lo}
}

type valMask struct{ v, m u128 }

// add expands an entry into rules and files them in their shapes.
func (x *tss) add(e *entry) {
	// Per field: the (value, mask) alternatives, or a residual range.
	alts := make([][]valMask, len(x.fields))
	var residual []resRange
	type rng struct{ f, n int }
	var ranges []rng
	for i := range x.fields {
		f := &x.fields[i]
		m := e.match[f.pos]
		switch {
		case !m.present:
			alts[i] = []valMask{{}}
		case f.kind == p4configv1.MatchField_EXACT, f.kind == p4configv1.MatchField_OPTIONAL:
			alts[i] = []valMask{{m.a, ones(f.width)}}
		case f.kind == p4configv1.MatchField_TERNARY:
			alts[i] = []valMask{{m.a, m.b}}
		case f.kind == p4configv1.MatchField_LPM:
			alts[i] = []valMask{{m.a, prefixMask(f.width, int(m.b.lo))}}
		case f.kind == p4configv1.MatchField_RANGE && !f.wide:
			alts[i] = rangePrefixes(m.a.lo, m.b.lo, f.width)
			ranges = append(ranges, rng{i, len(alts[i])})
		default: // wide range: always checked after the probe
			alts[i] = []valMask{{}}
			residual = append(residual, resRange{f: i, lo: m.a, hi: m.b})
		}
	}
	// Expand the ranges with the fewest prefixes while the budget holds.
	slices.SortFunc(ranges, func(a, b rng) int { return a.n - b.n })
	total := 1
	for _, r := range ranges {
		if total*r.n <= maxExpansion {
			total *= r.n
			continue
		}
		m := e.match[x.fields[r.f].pos]
		alts[r.f] = []valMask{{}}
		residual = append(residual, resRange{f: r.f, lo: m.a, hi: m.b})
	}
	slices.SortFunc(residual, func(a, b resRange) int { return a.f - b.f })
	var res uint32
	for _, r := range residual {
		res |= 1 << uint(r.f)
	}

	e.rules = make([]*rule, 0, total)
	idx := make([]int, len(x.fields))
	for {
		var key, mask pktKey
		for i := range x.fields {
			vm := alts[i][idx[i]]
			x.place(&mask, &x.fields[i], vm.m)
			x.place(&key, &x.fields[i], vm.v.and(vm.m))
		}
		r := &rule{e: e, key: key, prio: e.prio, handle: e.handle, res: residual}
		x.insertRule(r, shapeID{mask: mask, res: res})
		e.rules = append(e.rules, r)
		// Next combination.
		i := 0
		for ; i < len(idx); i++ {
			idx[i]++
			if idx[i] < len(alts[i]) {
				break
			}
			idx[i] = 0
		}
		if i == len(idx) {
			break
		}
	}
}

func (x *tss) insertRule(r *rule, id shapeID) {
	s := x.byID[id]
	if s == nil {
		x.seq++
		s = &shape{id: id, maxPrio: r.prio, prios: map[int32]int32{}, seq: x.seq}
		for w := 0; w < x.words; w++ {
			if id.mask[w] != 0 {
				s.words = append(s.words, w)
			}
		}
		x.byID[id] = s
		x.shapes = append(x.shapes, s)
		x.dirty = true
	}
	r.s = s
	h := s.hash(&r.key)
	b := s.buckets.get(h)
	i, _ := slices.BinarySearchFunc(b, r, ruleOrder)
	s.buckets.put(h, slices.Insert(b, i, r))
	s.n++
	s.prios[r.prio]++
	if r.prio > s.maxPrio {
		s.maxPrio = r.prio
		x.dirty = true
	}
}

// ruleOrder: higher priority first, then lower handle.
func ruleOrder(a, b *rule) int {
	switch {
	case a.prio > b.prio:
		return -1
	case a.prio < b.prio:
		return 1
	}
	return int(a.handle) - int(b.handle)
}

// remove takes an entry's rules out of their shapes.
func (x *tss) remove(e *entry) {
	for _, r := range e.rules {
		s := r.s
		h := s.hash(&r.key)
		b := s.buckets.get(h)
		if i := slices.Index(b, r); i >= 0 {
			b = slices.Delete(b, i, i+1)
		}
		if len(b) == 0 {
			s.buckets.del(h)
		} else {
			s.buckets.put(h, b)
		}
		s.n--
		if s.prios[r.prio]--; s.prios[r.prio] == 0 {
			delete(s.prios, r.prio)
			if r.prio == s.maxPrio && s.n > 0 {
				first := true
				for p := range s.prios {
					if first || p > s.maxPrio {
						s.maxPrio, first = p, false
					}
				}
				x.dirty = true
			}
		}
		if s.n == 0 {
			delete(x.byID, s.id)
			if i := slices.Index(x.shapes, s); i >= 0 {
				x.shapes = slices.Delete(x.shapes, i, i+1)
			}
		}
		r.s = nil
	}
	e.rules = nil
}

// finish orders the shapes after a batch of changes; lookups rely on it.
func (x *tss) finish() {
	if !x.dirty {
		return
	}
	slices.SortFunc(x.shapes, func(a, b *shape) int {
		switch {
		case a.maxPrio > b.maxPrio:
			return -1
		case a.maxPrio < b.maxPrio:
			return 1
		}
		return cmpU64(a.seq, b.seq)
	})
	x.dirty = false
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// lookup returns the highest-priority entry matching the packet key (ties:
// lowest handle), or nil. Shapes are visited by their highest priority and
// the search stops at the first shape that cannot beat the best match.
func (x *tss) lookup(k *pktKey) *entry {
	var best *rule
	for _, s := range x.shapes {
		if best != nil && s.maxPrio < best.prio {
			break
		}
		for _, r := range s.buckets.get(s.hash(k)) {
			if best != nil && (r.prio < best.prio || (r.prio == best.prio && r.handle > best.handle)) {
				break
			}
			if !s.matches(r, k) || (r.res != nil && !x.inRanges(k, r.res)) {
				continue
			}
			best = r
			break
		}
	}
	if best == nil {
		return nil
	}
	return best.e
}

func (x *tss) inRanges(k *pktKey, rs []resRange) bool {
	for i := range rs {
		v := x.value(k, &x.fields[rs[i].f])
		if v.less(rs[i].lo) || rs[i].hi.less(v) {
			return false
		}
	}
	return true
}

// rangePrefixes splits [lo, hi] of a width-bit field (never the full
// range) into the fewest prefixes, as (value, mask) pairs.
func rangePrefixes(lo, hi uint64, width int) []valMask {
	full := ones(width).lo
	var out []valMask
	for {
		k := bits.TrailingZeros64(lo)
		k = min(k, width-1, 63)
		for k > 0 && lo+(uint64(1)<<uint(k)-1) > hi {
			k--
		}
		size := uint64(1) << uint(k)
		out = append(out, valMask{u64(lo), u64(full &^ (size - 1))})
		last := lo + size - 1
		if last >= hi {
			return out
		}
		lo = last + 1
	}
}

// htab maps a (non-zero) hash to a bucket: open addressing with linear
// probing, at most 3/4 full, backward-shift deletion (no tombstones, so
// lookups stay short however the table churns).
type htab struct {
	hs   []uint64 // 0: empty slot
	bs   [][]*rule
	n    int
	mask uint64
}

func (t *htab) get(h uint64) []*rule {
	if t.n == 0 {
		return nil
	}
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		switch t.hs[i] {
		case h:
			return t.bs[i]
		case 0:
			return nil
		}
	}
}

// put sets the bucket of h.
func (t *htab) put(h uint64, b []*rule) {
	if (t.n+1)*4 > len(t.hs)*3 {
		t.grow()
	}
	i := h & t.mask
	for t.hs[i] != 0 && t.hs[i] != h {
		i = (i + 1) & t.mask
	}
	if t.hs[i] == 0 {
		t.n++
	}
	t.hs[i], t.bs[i] = h, b
}

func (t *htab) grow() {
	old, oldB := t.hs, t.bs
	size := max(8, 2*len(old))
	t.hs, t.bs, t.n, t.mask = make([]uint64, size), make([][]*rule, size), 0, uint64(size-1)
	for i, h := range old {
		if h != 0 {
			t.put(h, oldB[i])
		}
	}
}

// del removes h, shifting back the entries after it in its probe run.
func (t *htab) del(h uint64) {
	if t.n == 0 {
		return
	}
	i := h & t.mask
	for t.hs[i] != h {
		if t.hs[i] == 0 {
			return
		}
		i = (i + 1) & t.mask
	}
	for {
		t.hs[i], t.bs[i] = 0, nil
		j := i
		for {
			j = (j + 1) & t.mask
			if t.hs[j] == 0 {
				t.n--
				return
			}
			// The entry at j may move to i if its home slot is not in
			// (i, j] (cyclically).
			home := t.hs[j] & t.mask
			if (j > i && (home <= i || home > j)) || (j < i && home <= i && home > j) {
				break
			}
		}
		t.hs[i], t.bs[i] = t.hs[j], t.bs[j]
		i = j
	}
}
