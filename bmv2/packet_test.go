package bmv2

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/internal/p4rttest"
	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/internal/rawport"
	"github.com/dpi-balancer/balancer/internal/testbed"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/tables"
)

// target drives BMv2 through veth host ends and the P4Runtime stream.
type target struct {
	ports  map[uint32]*rawport.Port
	client *p4rttest.Client
}

var _ pipelinecases.Target = (*target)(nil)

func (tg *target) Send(port uint32, frame []byte) error { return tg.ports[port].Send(frame) }

func (tg *target) PacketOut(port uint32, flags uint8, frame []byte) error {
	return tg.client.PacketOut(port, flags, frame)
}

func (tg *target) Recv(port uint32, timeout time.Duration) ([]byte, error) {
	return tg.ports[port].Recv(timeout)
}

func (tg *target) PacketIn(timeout time.Duration) (*pipelinecases.PacketIn, error) {
	p, err := tg.client.PacketIn(timeout)
	if err != nil {
		return nil, err
	}
	if ts := p4rttest.Uint(p.Metadata["rx_timestamp"]); ts == 0 {
		return nil, fmt.Errorf("packet-in without rx timestamp")
	}
	return &pipelinecases.PacketIn{
		IngressPort: uint32(p4rttest.Uint(p.Metadata["ingress_port"])),
		Reason:      uint8(p4rttest.Uint(p.Metadata["reason"])),
		Frame:       p.Payload,
	}, nil
}

// startBMv2 brings up BMv2 with the pipeline and site.yaml programmed.
func startBMv2(t *testing.T) *target {
	schema, err := p4src.Load()
	require.NoError(t, err)
	return startBMv2With(t, schema, p4src.BMv2JSON)
}

// startBMv2With is startBMv2 with another build of the program.
func startBMv2With(t *testing.T, schema *p4src.Schema, bmv2JSON []byte) *target {
	if why := Available(); why != "" {
		t.Skip("bmv2: " + why)
	}
	ns := testbed.NewNS(t)
	bind := map[uint32]string{}
	for _, p := range pipelinecases.Ports {
		sw, host := fmt.Sprintf("s%d", p), fmt.Sprintf("h%d", p)
		ns.Veth(t, sw, host)
		bind[p] = sw
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sw, err := Start(ctx, ns, bind, t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() {
		sw.Stop()
		if t.Failed() {
			t.Logf("bmv2 log: %s", sw.LogPath)
		}
	})
	client, err := p4rttest.Dial(ctx, sw.Addr, 1, schema)
	require.NoError(t, err)
	t.Cleanup(func() { client.Close() })
	require.NoError(t, client.SetPipeline(ctx, schema.Info, bmv2JSON))

	cfg, err := pipelinecases.Config()
	require.NoError(t, err)
	comp, err := tables.New(schema)
	require.NoError(t, err)
	desired, err := comp.Compile(cfg, tables.State{})
	require.NoError(t, err)
	plan := comp.Diff(desired.Entities, nil)
	for _, b := range plan.Batches {
		var rest []*p4v1.Update
		for _, u := range b.Updates {
			if u.GetEntity().GetValueSetEntry() == nil {
				rest = append(rest, u)
				continue
			}
			// PI 0.1.2 cannot write value sets; the program parses the
			// default TPID and keep-alive EtherType without them.
			if err := client.Write(ctx, []*p4v1.Update{u}, 1); err != nil {
				require.Contains(t, err.Error(), "code 12", "value set write")
				t.Logf("bmv2: value set not written (%v); relying on the program's defaults", err)
			}
		}
		require.NoError(t, client.Write(ctx, rest, 500), "batch %q", b.Name)
	}
	// Read back: the target holds exactly what was written.
	var wild []*p4v1.Entity
	for _, id := range comp.TableIDs() {
		wild = append(wild, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: id}}})
	}
	back, err := client.Read(ctx, wild...)
	require.NoError(t, err)
	require.Equal(t, plan.Inserts, len(back), "entries read back")
	_ = plan

	tg := &target{ports: map[uint32]*rawport.Port{}, client: client}
	for _, p := range pipelinecases.Ports {
		rp, err := rawport.Open(ns.Path, fmt.Sprintf("h%d", p))
		require.NoError(t, err)
		t.Cleanup(func() { rp.Close() })
		tg.ports[p] = rp
	}
	return tg
}

// TestPipelineCases runs the shared packet cases through the compiled P4
// program on BMv2.
func TestPipelineCases(t *testing.T) {
	tg := startBMv2(t)
	cfg, err := pipelinecases.Config()
	require.NoError(t, err)
	passed, failed := pipelinecases.RunT(t, tg, pipelinecases.Cases(cfg),
		pipelinecases.Timing{Expect: 2 * time.Second, Quiet: 150 * time.Millisecond})
	t.Logf("bmv2 pipeline cases: %d passed, %d failed", passed, failed)
	checkCaseCounters(t, tg, cfg)
}

// checkCaseCounters: after the cases, the compiled program has counted
// every malformed frame in drop_counters[6] and every balanced frame in
// the core_counters cell of the filter core its core header names.
func checkCaseCounters(t *testing.T, tg *target, cfg *config.Config) {
	schema, err := p4src.Load()
	require.NoError(t, err)
	comp, err := tables.New(schema)
	require.NoError(t, err)
	fgOfPort := map[uint32]uint32{pipelinecases.F1LAN: pipelinecases.F1ID, pipelinecases.F1WAN: pipelinecases.F1ID,
		pipelinecases.F2LAN: pipelinecases.F2ID, pipelinecases.F2WAN: pipelinecases.F2ID}
	var wantMalformed uint64
	wantCore := map[tables.Target]uint64{}
	for _, c := range pipelinecases.Cases(cfg) {
		if c.PacketOut != nil {
			continue
		}
		if strings.HasPrefix(c.Name, "malformed:") {
			wantMalformed++
		}
		if _, fromFilter := fgOfPort[c.In]; fromFilter || c.In == pipelinecases.Unknown {
			continue
		}
		for _, o := range c.Out {
			if fg, ok := fgOfPort[o.Port]; ok {
				h, ok := wire.ParseCoreHeader(o.Frame[12:])
				require.True(t, ok, c.Name)
				wantCore[tables.Target{FilterGroup: fg, Core: h.Core}]++
			}
		}
	}
	require.NotEmpty(t, wantCore)
	reads, targets, err := comp.CoreCounterReads(cfg)
	require.NoError(t, err)
	drop, err := schema.Counter(p4src.CounterDrop)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	es, err := tg.client.Read(ctx, append(reads, &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{
		CounterId: drop.GetPreamble().GetId(), Index: &p4v1.Index{Index: p4src.DropMalformed}}}})...)
	require.NoError(t, err)
	require.Len(t, es, len(targets)+1)
	gotCore := map[tables.Target]uint64{}
	for _, e := range es {
		ce := e.GetCounterEntry()
		if tg, ok := comp.DecodeCoreCounter(ce); ok {
			if n := uint64(ce.GetData().GetPacketCount()); n != 0 {
				gotCore[tg] = n
			}
			continue
		}
		assert.Equal(t, wantMalformed, uint64(ce.GetData().GetPacketCount()), "drop_counters[malformed]")
	}
	assert.Equal(t, wantCore, gotCore, "core_counters")
	t.Logf("bmv2 counters: %d malformed frames dropped, core_counters %v", wantMalformed, gotCore)
}
