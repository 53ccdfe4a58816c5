package dataplane

import (
	"math/rand/v2"
	"testing"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// smallValue draws a value of a field from a small domain, so that random
// entries and packets meet often.
func smallValue(r *rand.Rand, width int) u128 {
	var v u128
	switch r.IntN(6) {
	case 0:
	case 1:
		v = ones(width)
	case 2:
		v = u64(uint64(r.IntN(4)))
	case 3:
		v = ones(width)
		v.lo -= uint64(r.IntN(3))
	default:
		// Mostly low bits, so that masks and ranges overlap.
		v = u128{r.Uint64(), r.Uint64()}.and(ones(6))
	}
	return v.and(ones(width))
}

// randomMatch draws a valid match for a table of ternary/range/exact
// fields.
func randomMatch(r *rand.Rand, t *table) []*p4v1.FieldMatch {
	var ms []*p4v1.FieldMatch
	for _, f := range t.fields {
		if f.kind != p4configv1.MatchField_EXACT && r.IntN(3) != 0 {
			continue // don't care
		}
		switch f.kind {
		case p4configv1.MatchField_EXACT:
			ms = append(ms, exactM(f.id, smallValue(r, f.width).canonical()...))
		case p4configv1.MatchField_TERNARY:
			mask := smallValue(r, f.width)
			if r.IntN(2) == 0 {
				mask = ones(f.width)
			}
			if mask.isZero() {
				mask = u64(1)
			}
			v := smallValue(r, f.width).and(mask)
			ms = append(ms, ternM(f.id, v.canonical(), mask.canonical()))
		case p4configv1.MatchField_RANGE:
			a, b := smallValue(r, f.width), smallValue(r, f.width)
			if b.less(a) {
				a, b = b, a
			}
			if r.IntN(3) == 0 && f.width <= 64 {
				// A wide random range: many prefixes.
				a = u64(r.Uint64() & ones(f.width).lo >> 1)
				b = u64(a.lo + r.Uint64()%(ones(f.width).lo-a.lo))
			}
			if a.isZero() && b == ones(f.width) {
				b.lo--
			}
			ms = append(ms, rangeM(f.id, a.canonical(), b.canonical()))
		}
	}
	return ms
}

// refLookup is the obvious lookup: every entry, highest priority, lowest
// handle.
func refLookup(t *table, k *pktKey) *entry {
	x := t.tss
	var best *entry
	for _, e := range t.list {
		ok := true
		for i := range x.fields {
			f := &x.fields[i]
			m := e.match[f.pos]
			if !m.present {
				continue
			}
			v := x.value(k, f)
			switch f.kind {
			case p4configv1.MatchField_EXACT, p4configv1.MatchField_OPTIONAL:
				ok = v == m.a
			case p4configv1.MatchField_TERNARY:
				ok = v.and(m.b) == m.a
			case p4configv1.MatchField_LPM:
				ok = v.and(prefixMask(f.width, int(m.b.lo))) == m.a
			case p4configv1.MatchField_RANGE:
				ok = !v.less(m.a) && !m.b.less(v)
			}
			if !ok {
				break
			}
		}
		if ok && (best == nil || e.prio > best.prio || (e.prio == best.prio && e.handle < best.handle)) {
			best = e
		}
	}
	return best
}

func randomKey(r *rand.Rand, x *tss) pktKey {
	var k pktKey
	for i := range x.fields {
		f := &x.fields[i]
		x.place(&k, f, smallValue(r, f.width))
	}
	return k
}

// TestTSSMatchesReference checks the tuple space search against a linear
// scan over random tables, packets, deletes and rolled-back batches.
func TestTSSMatchesReference(t *testing.T) {
	for _, tc := range []struct {
		name  string
		table func(d *Dataplane) *table
	}{
		{"flow_rules", func(d *Dataplane) *table { return d.flowRules }},
		{"flow_rules_v6", func(d *Dataplane) *table { return d.flowRulesV6 }},
		{"heartbeat", func(d *Dataplane) *table { return d.heartbeat }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(len(tc.name))))
			d := newDP(t)
			tb := tc.table(d)
			var live []*p4v1.Entity
			for round := 0; round < 30; round++ {
				var ups []*p4v1.Update
				for i := 0; i < 40 && len(live)+len(ups) < tb.size; i++ {
					e := te(tb.id, int32(1+r.IntN(20)), act(minAllowed(tb)), randomMatch(r, tb)...)
					ups = append(ups, ins(e))
				}
				// Delete some live entries.
				for i := 0; i < 10 && len(live) > 0; i++ {
					j := r.IntN(len(live))
					ups = append(ups, del(live[j]))
					live = append(live[:j], live[j+1:]...)
				}
				mode := p4v1.WriteRequest_CONTINUE_ON_ERROR
				if round%5 == 4 {
					// A batch that fails at the end: everything rolls back.
					mode = p4v1.WriteRequest_ROLLBACK_ON_ERROR
					ups = append(ups, del(te(tb.id, 1, nil, randomMatch(r, tb)...)))
					ups = append(ups, ins(te(0x7777, 0, nil)))
				}
				errs := d.Write(ups, mode)
				if mode == p4v1.WriteRequest_CONTINUE_ON_ERROR {
					for i, err := range errs {
						if err == nil && ups[i].Type == p4v1.Update_INSERT {
							live = append(live, ups[i].Entity)
						}
					}
				} else {
					// Restore the deleted ones to live: the batch was undone.
					for _, u := range ups {
						if u.Type == p4v1.Update_DELETE && u.Entity.GetTableEntry().GetTableId() == tb.id {
							live = append(live, u.Entity)
						}
					}
					live = dedupeLive(d, tb, live)
				}
				require.Equal(t, len(tb.list), len(tb.entries))
				checkInvariants(t, d)
				for p := 0; p < 300; p++ {
					k := randomKey(r, tb.tss)
					want, got := refLookup(tb, &k), tb.tss.lookup(&k)
					if !assert.Same(t, want, got, "round %d packet %d: key %x", round, p, k) {
						return
					}
				}
			}
			t.Logf("%s: %d entries, %d shapes", tc.name, len(tb.list), len(tb.tss.shapes))
		})
	}
}

// dedupeLive keeps the live entities that are in the table, once.
func dedupeLive(d *Dataplane, tb *table, live []*p4v1.Entity) []*p4v1.Entity {
	seen := map[string]bool{}
	var out []*p4v1.Entity
	for _, e := range live {
		m, err := tb.parseMatch(e.GetTableEntry().GetMatch())
		if err != nil {
			continue
		}
		k := string(appendKey(nil, tb, e.GetTableEntry().GetPriority(), m))
		if tb.entries[k] != nil && !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	return out
}

// minAllowed is the table's lowest-id non-default-only action without
// parameters.
func minAllowed(t *table) uint32 {
	best := uint32(0)
	for id, s := range t.refs {
		if s == p4configv1.ActionRef_DEFAULT_ONLY {
			continue
		}
		if best == 0 || id < best {
			best = id
		}
	}
	return best
}

// checkInvariants verifies that every index agrees with the store.
func checkInvariants(tb testing.TB, d *Dataplane) {
	tb.Helper()
	for _, t := range d.tables {
		require.Equal(tb, len(t.list), len(t.entries), "table %s", t.name)
		handles := map[int32]bool{}
		for i, e := range t.list {
			require.Equal(tb, i, e.pos, "table %s: pos", t.name)
			require.Same(tb, e, t.entries[e.key], "table %s: key", t.name)
			if t.prioritized {
				require.False(tb, handles[e.handle], "table %s: handle %d twice", t.name, e.handle)
				handles[e.handle] = true
			}
			switch {
			case t.dindex != nil:
				require.Same(tb, e, t.dindex.get(t.dindex.index(e)), "table %s: direct index", t.name)
			case t.tss != nil:
				require.NotEmpty(tb, e.rules, "table %s: no rules", t.name)
				for _, r := range e.rules {
					require.NotNil(tb, r.s)
					require.Same(tb, r.s, t.tss.byID[r.s.id])
					require.Contains(tb, r.s.buckets.get(r.s.hash(&r.key)), r)
				}
			}
		}
		if t.tss != nil {
			n := 0
			for i, s := range t.tss.shapes {
				n += s.n
				if i > 0 {
					require.GreaterOrEqual(tb, t.tss.shapes[i-1].maxPrio, s.maxPrio, "table %s: shape order", t.name)
				}
				maxp := int32(-1 << 31)
				cnt := 0
				slotsUsed := 0
				for i, h := range s.buckets.hs {
					if h == 0 {
						continue
					}
					slotsUsed++
					b := s.buckets.bs[i]
					require.NotEmpty(tb, b, "table %s: empty bucket", t.name)
					require.Equal(tb, b, s.buckets.get(h), "table %s: bucket unreachable", t.name)
					cnt += len(b)
					for _, r := range b {
						maxp = max(maxp, r.prio)
					}
				}
				require.Equal(tb, s.buckets.n, slotsUsed, "table %s: htab count", t.name)
				require.Equal(tb, s.n, cnt, "table %s: shape count", t.name)
				require.Equal(tb, maxp, s.maxPrio, "table %s: shape max priority", t.name)
			}
			rules := 0
			for _, e := range t.list {
				rules += len(e.rules)
			}
			require.Equal(tb, rules, n, "table %s: rules in shapes", t.name)
			require.Equal(tb, len(t.tss.shapes), len(t.tss.byID))
		}
		if t.dindex != nil {
			n := 0
			for _, p := range t.dindex.pages {
				for _, e := range p {
					if e != nil {
						n++
					}
				}
			}
			require.Equal(tb, len(t.list), n, "table %s: direct index size", t.name)
		}
	}
}

func TestRangePrefixes(t *testing.T) {
	for _, tc := range []struct {
		lo, hi uint64
		width  int
		n      int
	}{
		{0, 0, 16, 1},
		{179, 179, 16, 1},
		{1024, 65535, 16, 6},
		{1, 65534, 16, 30},
		{1, 1, 1, 1},
		{2, 5, 12, 2},
		{0, 1<<63 - 1, 64, 1},
		{1, 1<<64 - 2, 64, 126},
	} {
		ps := rangePrefixes(tc.lo, tc.hi, tc.width)
		assert.Len(t, ps, tc.n, "[%d,%d]/%d", tc.lo, tc.hi, tc.width)
		// The prefixes cover exactly the range, in order, without gaps.
		next := tc.lo
		for _, p := range ps {
			assert.Equal(t, next, p.v.lo)
			size := (^p.m.lo & ones(tc.width).lo) + 1
			next = p.v.lo + size
		}
		assert.Equal(t, tc.hi+1, next)
	}
}

// TestHtab checks the open-addressing table against a map under random
// puts and deletes, with many collisions on a small table.
func TestHtab(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var h htab
	ref := map[uint64][]*rule{}
	keys := []uint64{}
	for i := 0; i < 20000; i++ {
		// Keys with equal low bits collide on their home slot.
		k := uint64(r.IntN(64))<<32 | uint64(r.IntN(4)) | 1
		if r.IntN(3) == 0 && len(keys) > 0 {
			k = keys[r.IntN(len(keys))]
			h.del(k)
			delete(ref, k)
		} else {
			b := []*rule{{prio: int32(i)}}
			h.put(k, b)
			ref[k] = b
			keys = append(keys, k)
		}
		if i%97 == 0 {
			require.Equal(t, len(ref), h.n)
			for k, b := range ref {
				require.Equal(t, b, h.get(k))
			}
			for _, k := range keys {
				if _, ok := ref[k]; !ok {
					require.Nil(t, h.get(k))
				}
			}
		}
	}
}
