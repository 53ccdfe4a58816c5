package bmv2

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/dpi-balancer/balancer/controlplane"
	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/internal/testbed"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/tables"
)

// The switch's CPU port on BMv2: at 255 (the compiled-in one) the session
// writes it into switch_info's default entry and reads it back from BMv2
// as written. At 64, BMv2 with PI 0.1.2 cannot take it: it programs no
// parser value set, so packet-outs from port 64 would not be recognised;
// the session refuses the write with an error naming the port and the fix
// rather than run a switch whose keep-alives all vanish.
func TestCPUPortOnBMv2(t *testing.T) {
	if why := Available(); why != "" {
		t.Skip("bmv2: " + why)
	}
	schema, err := p4src.Load()
	require.NoError(t, err)
	cfg, err := pipelinecases.Config()
	require.NoError(t, err)
	for _, cpu := range []uint32{255, 64} {
		t.Run(fmt.Sprintf("cpu-port %d", cpu), func(t *testing.T) {
			ns := testbed.NewNS(t)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			sw, err := StartCPU(ctx, ns, nil, t.TempDir(), cpu)
			require.NoError(t, err)
			t.Cleanup(func() { sw.Stop() })

			comp, err := tables.New(schema)
			require.NoError(t, err)
			require.NoError(t, comp.SetCPUPort(cpu))
			desired, err := comp.Compile(cfg, tables.State{})
			require.NoError(t, err)
			s := controlplane.New(controlplane.Options{Addr: sw.Addr, DeviceID: 1, ElectionLow: 1, Program: comp, Guard: tables.NewWriteGuard(comp, tables.GuardOptions{}),
				Pipeline:   controlplane.Pipeline{P4Info: schema.Info, DeviceConfig: p4src.BMv2JSON},
				MinBackoff: 50 * time.Millisecond, MaxBackoff: 500 * time.Millisecond})
			s.SetDesired(desired.Entities)
			sctx, scancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { defer wg.Done(); s.Run(sctx) }()
			t.Cleanup(func() { scancel(); wg.Wait() })

			if cpu == 64 {
				require.Eventually(t, func() bool { return strings.Contains(s.Status().LastError, "CPU port 64 would not be recognised") },
					30*time.Second, 20*time.Millisecond, "the session names the port: %+v", s.Status())
				msg := s.Status().LastError
				t.Logf("BMv2 --cpu-port 64: %s", msg)
				assert.Contains(t, msg, "run the switch with CPU port 255 (BMv2: --cpu-port 255) and the daemon with --cpu-port 255")
				return
			}
			require.Eventually(t, func() bool { st := s.Status(); return !st.LastReconcile.IsZero() && !st.Pending },
				30*time.Second, 20*time.Millisecond, "programmed: %+v", s.Status())
			// Read switch_info's default entry from BMv2 (a Read needs no
			// arbitration: the session stays primary).
			conn, err := grpc.NewClient(sw.Addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
			require.NoError(t, err)
			defer conn.Close()
			tbl, err := schema.Table(p4src.TableSwitchInfo)
			require.NoError(t, err)
			rc, err := p4v1.NewP4RuntimeClient(conn).Read(ctx, &p4v1.ReadRequest{DeviceId: 1, Entities: []*p4v1.Entity{
				{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: tbl.GetPreamble().GetId(), IsDefaultAction: true}}}}})
			require.NoError(t, err)
			resp, err := rc.Recv()
			require.NoError(t, err)
			got := resp.GetEntities()
			require.Len(t, got, 1)
			a := got[0].GetTableEntry().GetAction().GetAction()
			act, err := schema.Action(p4src.ActionSwitchInfo)
			require.NoError(t, err)
			assert.Equal(t, act.GetPreamble().GetId(), a.GetActionId())
			require.Len(t, a.GetParams(), 1)
			assert.Equal(t, uint64(255), wire.Uint(a.GetParams()[0].GetValue()))
		})
	}
}
