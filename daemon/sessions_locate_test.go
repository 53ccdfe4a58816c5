package daemon

import (
	"context"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sessionmem"
)

// locate consults the session memory: after F3 joins, each held session
// whose slot moved is located on its entry's filter group and core (where
// the software switch sends it), said to be held, with its slot's target
// beside; a session never seen is located on its slot, not held. Then F1
// fails under bypass: a held session on F1 is located there in sw-bypass
// (the failure action applies to held sessions), as the switch does.
func TestSessionMemoryLocateSaysHeld(t *testing.T) {
	const n = 300
	b, d, old, placed := heldSessionsBed(t, n, 12)
	dp := b.sw.Dataplane()
	ctx := context.Background()
	fgName := []string{"F1", "F2", "F3"}
	lanName := []string{"P4", "P6", "P8"}
	locate := func(s twoWay) Placement {
		t.Helper()
		ps, err := d.Locate(ctx, s.a, s.b, 6)
		require.NoError(t, err)
		require.Len(t, ps, 1)
		return ps[0]
	}

	_, err := d.ApplyConfig(ctx, []byte(sessionsSite(t, "F1, F2, F3", "tcp: 300s")), false, "F3 joins")
	require.NoError(t, err)
	waitSettled(t, d)
	b.allUp(d)
	slots := slotTargetsOf(t, dp)
	elsewhere := 0
	var onF1 twoWay
	for _, s := range old {
		k := sessionmem.AddrKey(0, s.a, s.b, 6)
		tg := slots[k.Hash()&0xff]
		if placed[s].fg == 0 {
			onF1 = s
		}
		if int(tg.FilterGroup) == placed[s].fg && tg.Core == placed[s].core {
			continue
		}
		elsewhere++
		p := locate(s)
		require.Equal(t, "held", p.Session)
		assert.Equal(t, "the switch's table", p.SessionFrom)
		assert.Equal(t, fgName[placed[s].fg], p.FilterGroup, "held on its filter group")
		assert.Equal(t, placed[s].core, p.Core, "and core")
		assert.Equal(t, lanName[placed[s].fg], p.LANPort)
		assert.Equal(t, fgName[tg.FilterGroup], p.SlotFilterGroup, "its slot points elsewhere")
		assert.Equal(t, tg.Core, p.SlotCore)
		assert.Equal(t, "forward", p.Effective)
		assert.Equal(t, k.Hash()&0xff, p.Slot)
		out, _ := s.frames(layers.IPProtocolTCP)
		assert.Equal(t, placed[s], placeOf(t, dp.Process(20, out, nil)), "the switch sends it where locate says")
		// Either direction.
		back := locate(twoWay{s.b, s.a})
		assert.Equal(t, p, back)
	}
	require.Positive(t, elsewhere)

	fresh := manySessions(1, 13)[0]
	p := locate(fresh)
	assert.Equal(t, "not held", p.Session)
	k := sessionmem.AddrKey(0, fresh.a, fresh.b, 6)
	tg := slots[k.Hash()&0xff]
	assert.Equal(t, fgName[tg.FilterGroup], p.FilterGroup, "a session not held is where its slot points")
	assert.Equal(t, tg.Core, p.Core)
	assert.Empty(t, p.SlotFilterGroup)

	// F1 fails (bypass): its held session is in sw-bypass, where the
	// switch puts it.
	require.NotZero(t, onF1.a)
	b.filters["F1"].alive.Store(false)
	b.waitFG(0, p4src.ActionFilterSWBypass, 30*time.Second)
	require.Eventually(t, func() bool { return locate(onF1).Effective == "sw-bypass" }, 30*time.Second, 5*time.Millisecond, "%+v", locate(onF1))
	p = locate(onF1)
	assert.Equal(t, "held", p.Session)
	assert.Equal(t, "F1", p.FilterGroup)
	out, _ := onF1.frames(layers.IPProtocolTCP)
	assert.Equal(t, -1, placeOf(t, dp.Process(20, out, nil)).fg, "the switch bypasses it too")
	t.Logf("%d held sessions whose slot moved located on their entries; e.g. %+v", elsewhere, p)
}
