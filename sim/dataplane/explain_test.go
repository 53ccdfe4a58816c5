package dataplane

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	pc "github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
)

// TestExplainMatchesProcess: Explain forwards every pipeline case as
// Process does, and the tables it lists start with port_role (none for a
// malformed frame).
func TestExplainMatchesProcess(t *testing.T) {
	cfg := siteConfig(t)
	a, b := siteDP(t), siteDP(t)
	for _, c := range pc.Cases(cfg) {
		if c.PacketOut != nil {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			want := a.Process(c.In, c.Frame, make([]byte, len(c.Frame)+4))
			got, hits := b.Explain(c.In, c.Frame)
			assert.Equal(t, want.Kind, got.Kind)
			assert.Equal(t, want.Port, got.Port)
			assert.Equal(t, want.DropReason, got.DropReason)
			if want.PacketIn.Reason == 0 {
				assert.True(t, bytes.Equal(want.Frame, got.Frame), "frames differ")
			}
			if want.DropReason == p4src.DropMalformed {
				// Dropped on the parser's verdict, before any table.
				assert.Empty(t, hits)
				return
			}
			require.NotEmpty(t, hits)
			assert.Equal(t, p4src.TablePortRole, hits[0].Table)
		})
	}
}

// TestExplainBalanced lists each table a balanced packet meets, with the
// entries that matched and their parameters.
func TestExplainBalanced(t *testing.T) {
	cfg := siteConfig(t)
	d := siteDP(t)
	k := pc.KnownAnswer
	var c pc.Case
	for _, x := range pc.Cases(cfg) {
		if strings.HasPrefix(x.Name, "balance: known answer") {
			c = x
		}
	}
	require.NotNil(t, c.Frame, "the known-answer case")
	r, hits := d.Explain(c.In, c.Frame)
	require.Equal(t, Forward, r.Kind)
	var tables []string
	for _, h := range hits {
		tables = append(tables, h.Table)
	}
	assert.Equal(t, []string{p4src.TablePortRole, p4src.TableHeartbeat, p4src.TableFlowRules,
		p4src.TableBalanceGroups, p4src.TableSlots, p4src.TableFilterGroups}, tables)
	assert.True(t, hits[0].Matched)
	assert.Equal(t, p4src.ActionSetOperatorPort, hits[0].Action)
	assert.False(t, hits[1].Matched, "no heartbeat entry matches")
	assert.True(t, hits[2].Matched)
	assert.Equal(t, p4src.ActionBalance, hits[2].Action)
	assert.NotZero(t, hits[2].Priority)
	slot := hits[4]
	assert.True(t, slot.Matched)
	assert.Equal(t, p4src.ActionToFilter, slot.Action)
	assert.Equal(t, map[string]uint64{"filter_group": uint64(k.FG), "core": uint64(k.Core)}, slot.Params)
	assert.Equal(t, p4src.ActionFilterForward, hits[5].Action)
}
