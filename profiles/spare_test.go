package profiles

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/tables"
)

func effective(b *bench, name string) string {
	for _, s := range b.e.Status() {
		if s.Name == name {
			return s.Effective
		}
	}
	b.t.Fatalf("no filter group %s", name)
	return ""
}

// N+1 by the fake clock: members F1 and F2, spare F3, min_active 2.
func TestSpareAssignment(t *testing.T) {
	yml := strings.Replace(sprintf(site, "spare", "lan-to-wan"), "members: [F1, F2, F3], profile: p", "members: [F1, F2], spares: [F3], profile: p", 1)
	cfg, err := config.Parse([]byte(yml))
	require.NoError(t, err)
	b := &bench{t: t, now: time.Unix(1000, 0), dead: map[uint32]bool{}}
	b.e, err = New(cfg, b.send, Options{TimestampUnit: time.Nanosecond})
	require.NoError(t, err)
	b.e.Start(b.now)
	b.run(1300 * time.Millisecond)
	require.Equal(t, StateUp, b.state("F3"), "a spare is probed like any filter")
	assert.Empty(t, latest(b.e).Spared)
	assert.Equal(t, "spare (standby)", effective(b, "F3"))
	fgs := func(kv ...string) map[string]tables.FilterGroupState {
		m := map[string]tables.FilterGroupState{}
		for _, k := range kv {
			m[k] = tables.FGSWBypass
		}
		return m
	}

	// F1 dies: the spare carries its share; F2 and spared F1 meet min_active 2.
	b.dead[40] = true
	b.run(400 * time.Millisecond)
	s := latest(b.e)
	assert.Equal(t, map[string]string{"F1": "F3"}, s.Spared)
	assert.Equal(t, fgs("F1"), s.FilterGroups, "anything still pointing at F1 bypasses")
	assert.Empty(t, s.BalanceGroups)
	assert.Equal(t, "spared to F3", effective(b, "F1"))
	assert.Equal(t, "spare for F1", effective(b, "F3"))

	// F2 dies too: no spare free (F1 keeps F3): F2 falls back to bypass;
	// one of two alive is below min_active.
	b.dead[60] = true
	b.run(400 * time.Millisecond)
	s = latest(b.e)
	assert.Equal(t, map[string]string{"F1": "F3"}, s.Spared, "a later failure takes no spare in use")
	assert.Equal(t, fgs("F1", "F2"), s.FilterGroups)
	assert.Equal(t, tables.BGBypass, s.BalanceGroups["G"])
	assert.Equal(t, "group-bypass", effective(b, "F2"))

	// The spare dies: F1's share goes back to its bypass.
	b.dead[80] = true
	b.run(400 * time.Millisecond)
	s = latest(b.e)
	assert.Empty(t, s.Spared)
	assert.Equal(t, fgs("F1", "F2", "F3"), s.FilterGroups)

	// The spare returns: the first member in list order takes it.
	delete(b.dead, 80)
	b.run(300 * time.Millisecond)
	require.Equal(t, StateUp, b.state("F3"))
	assert.Equal(t, map[string]string{"F1": "F3"}, latest(b.e).Spared)

	// F1 returns: its share comes back; the spare goes to F2.
	delete(b.dead, 40)
	b.run(300 * time.Millisecond)
	require.Equal(t, StateUp, b.state("F1"))
	s = latest(b.e)
	assert.Equal(t, map[string]string{"F2": "F3"}, s.Spared)
	assert.Equal(t, fgs("F2"), s.FilterGroups)
	assert.Empty(t, s.BalanceGroups)
	assert.Equal(t, "forward", effective(b, "F1"))

	// F2 returns: the spare is on standby.
	delete(b.dead, 60)
	b.run(300 * time.Millisecond)
	s = latest(b.e)
	assert.Empty(t, s.Spared)
	assert.Empty(t, s.FilterGroups)
	assert.Equal(t, "spare (standby)", effective(b, "F3"))
}

// fail_open_action spare: a member that failed open gives its share to
// the spare, and gets it back once its probes are dropped again and the
// recovery rules are met; its keep-alives pass throughout.
func TestFailOpenSpare(t *testing.T) {
	src := strings.Replace(sprintf(failbackSite, "auto", "0s"), "min_up_time: 0s}", "min_up_time: 0s, probe_payload: BLOCKME, probe_every: 2, fail_open_action: spare}", 1)
	src = strings.Replace(src, "members: [F1, F2, F3], profile: p}", "members: [F1, F2], spares: [F3], profile: p}", 1)
	cfg, err := config.Parse([]byte(src))
	require.NoError(t, err)
	b := &bench{t: t, now: time.Unix(1000, 0), dead: map[uint32]bool{}, open: map[uint32]bool{}}
	b.e, err = New(cfg, b.send, Options{TimestampUnit: time.Nanosecond})
	require.NoError(t, err)
	b.e.Start(b.now)
	b.run(1300 * time.Millisecond)
	require.Equal(t, StateUp, b.state("F3"))
	assert.Empty(t, latest(b.e).Spared)

	b.open[40] = true
	b.run(300 * time.Millisecond)
	require.Equal(t, StateDown, b.state("F1"))
	s := latest(b.e)
	assert.Equal(t, map[string]string{"F1": "F3"}, s.Spared)
	assert.Equal(t, tables.FGSWBypass, s.FilterGroups["F1"])
	assert.Equal(t, "spared to F3", effective(b, "F1"))

	b.open[40] = false
	b.run(500 * time.Millisecond)
	require.Equal(t, StateUp, b.state("F1"))
	s = latest(b.e)
	assert.Empty(t, s.Spared)
	assert.Empty(t, s.FilterGroups)
	assert.Equal(t, "spare (standby)", effective(b, "F3"))
}
