package sim

import (
	"context"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
)

// The verdict digest's DigestEntry answers as PI does (BMv2, Stratum;
// P4Runtime spec 9.1): a repeated INSERT is ALREADY_EXISTS in the
// update's error (the RPC's code UNKNOWN, as for every batch error),
// MODIFY changes an existing entry, and MODIFY or DELETE of an entry not
// configured is NOT_FOUND. (The update's code was UNKNOWN for every
// DigestEntry error: the daemon warned on every takeover and restart that
// the switch had not taken the configuration.)
func TestDigestEntryCodes(t *testing.T) {
	_, addr, _ := startMemSwitch(t, pipelinecases.Ports)
	c := program(t, addr)
	s, err := p4src.Load()
	require.NoError(t, err)
	d := s.Digest(p4src.DigestVerdict)
	require.NotNil(t, d)
	entry := func(ack int64) *p4v1.Entity {
		return &p4v1.Entity{Entity: &p4v1.Entity_DigestEntry{DigestEntry: &p4v1.DigestEntry{DigestId: d.GetPreamble().GetId(),
			Config: &p4v1.DigestEntry_Config{MaxListSize: 1, AckTimeoutNs: ack}}}}
	}
	write := func(typ p4v1.Update_Type, e *p4v1.Entity) error {
		_, err := c.RawWrite(context.Background(), p4v1.WriteRequest_CONTINUE_ON_ERROR, []*p4v1.Update{{Type: typ, Entity: e}})
		return err
	}
	for _, tt := range []struct {
		name string
		typ  p4v1.Update_Type
		ack  int64
		want codes.Code
	}{
		{"modify, not configured", p4v1.Update_MODIFY, 1, codes.NotFound},
		{"delete, not configured", p4v1.Update_DELETE, 1, codes.NotFound},
		{"insert", p4v1.Update_INSERT, 500_000_000, codes.OK},
		{"insert again", p4v1.Update_INSERT, 500_000_000, codes.AlreadyExists},
		{"modify", p4v1.Update_MODIFY, 250_000_000, codes.OK},
		{"delete", p4v1.Update_DELETE, 0, codes.OK},
		{"insert after delete", p4v1.Update_INSERT, 500_000_000, codes.OK},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := write(tt.typ, entry(tt.ack))
			if tt.want == codes.OK {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			st := status.Convert(err)
			assert.Equal(t, codes.Unknown, st.Code(), "a batch error: the RPC's code is UNKNOWN")
			require.Len(t, st.Details(), 1)
			pe, ok := st.Details()[0].(*p4v1.Error)
			require.True(t, ok)
			assert.Equal(t, tt.want, codes.Code(pe.GetCanonicalCode()), pe.GetMessage())
			assert.Contains(t, pe.GetMessage(), "digest entry")
		})
	}
}
