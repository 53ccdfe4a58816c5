package controlplane

import (
	"context"
	"net/netip"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"

	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sessionmem"
	"github.com/dpi-balancer/balancer/sim"
	"github.com/dpi-balancer/balancer/tables"
)

// A session with the session memory on, against the software switch: it
// pushes the sessions profile, configures the session digest, hands the
// digests and the idle notifications over, and writes entries the
// desired state does not hold with WriteUnowned, which the periodic
// read-back leaves alone (the table is not the program's to repair).
func TestSessionMemoryStream(t *testing.T) {
	schema, err := p4src.LoadSessions()
	require.NoError(t, err)
	sw, err := sim.New(sim.Options{Ports: map[uint32]sim.Port{}})
	require.NoError(t, err)
	addr := serveSwitch(t, sw)
	comp, err := tables.New(schema)
	require.NoError(t, err)
	cfg, err := pipelinecases.Config()
	require.NoError(t, err)
	d, err := comp.Compile(cfg, tables.State{})
	require.NoError(t, err)
	s, _, _ := newSession(t, addr, 1, comp, nil, withDesired(d.Entities), withOpts(func(o *Options) {
		o.Pipeline = Pipeline{P4Info: schema.Info, DeviceConfig: p4src.SessionsBMv2JSON}
		o.SessionMemory = SessionMemoryOptions{Enabled: true, ListSize: 8}
		o.ReconcileInterval = 50 * time.Millisecond
	}))
	waitPrimary(t, s)
	dp := sw.Dataplane()
	require.NotZero(t, dp.SessionDigestID(), "the session pushed the sessions profile")
	tbl, err := sessionmem.Resolve(schema)
	require.NoError(t, err)

	const n = 20
	for i := range n {
		f := pipelinecases.Frame([]byte{0, 1, 2, 3, 4, 5}, []byte{0, 1, 2, 3, 4, 6}, pipelinecases.Encap{}, pipelinecases.L3{
			Src: netip.AddrFrom4([4]byte{10, 7, 0, byte(i)}), Dst: netip.AddrFrom4([4]byte{10, 6, 0, 1}), Proto: layers.IPProtocolUDP, SrcPort: 5000, DstPort: 53})
		dp.Process(pipelinecases.L1LAN, f, nil)
	}
	var got []sessionmem.Digest
	for len(got) < n {
		select {
		case l := <-s.SessionDigests():
			assert.LessOrEqual(t, len(l), 8)
			got = append(got, l...)
		case <-time.After(10 * time.Second):
			t.Fatalf("%d of %d session digests", len(got), n)
		}
	}
	var us []*p4v1.Update
	for _, dg := range got {
		us = append(us, &p4v1.Update{Type: p4v1.Update_INSERT, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{
			TableEntry: tbl.Entry(dg.Key, dg.FilterGroup, dg.Core, 300*time.Millisecond)}}})
	}
	us = append(us, us[0]) // a duplicate: ALREADY_EXISTS for it alone
	ctx := context.Background()
	errs, err := s.WriteUnowned(ctx, us)
	require.NoError(t, err)
	for i, e := range errs[:n] {
		assert.NoError(t, e, "update %d", i)
	}
	assert.Equal(t, codes.AlreadyExists, UpdateCode(errs[n]))
	assert.Equal(t, n, dp.SessionStats().Held)

	idle := map[sessionmem.Key]bool{}
	for len(idle) < n {
		select {
		case tes := <-s.IdleEntries():
			for _, te := range tes {
				h, err := tbl.Decode(te)
				require.NoError(t, err)
				idle[h.Key] = true
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("idle notifications for %d of %d entries", len(idle), n)
		}
	}
	// Read-backs ran meanwhile and repaired nothing: the entries stay.
	require.Eventually(t, func() bool { return s.Stats().ReadBacks >= 2 }, 10*time.Second, 10*time.Millisecond)
	assert.Equal(t, n, dp.SessionStats().Held, "the read-back leaves the session memory alone")
	st := s.SessionMemoryStats()
	assert.Equal(t, uint64(n), st.Digests)
	assert.GreaterOrEqual(t, st.Idle, uint64(n))
	assert.Zero(t, st.DigestsDropped)
}
