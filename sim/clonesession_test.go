package sim

import (
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dpi-balancer/balancer/p4src"
)

// Clone sessions are answered as PI answers them, and bounded.
func TestCloneSessionsAnswers(t *testing.T) {
	schema, err := p4src.Load()
	require.NoError(t, err)
	sw, err := New(Options{Ports: map[uint32]Port{}, Schema: schema})
	require.NoError(t, err)
	s := sw.P4Runtime()
	pre := func(cs *p4v1.CloneSessionEntry) *p4v1.PacketReplicationEngineEntry {
		return &p4v1.PacketReplicationEngineEntry{Type: &p4v1.PacketReplicationEngineEntry_CloneSessionEntry{CloneSessionEntry: cs}}
	}
	code := func(err error) codes.Code { return status.Code(err) }
	cs := p4src.EvidenceCopySessions(2)[0]

	assert.Equal(t, codes.NotFound, code(s.writePRE(p4v1.Update_MODIFY, pre(cs))), "MODIFY of a session not held")
	assert.Equal(t, codes.NotFound, code(s.writePRE(p4v1.Update_DELETE, pre(cs))), "DELETE of a session not held")
	require.NoError(t, s.writePRE(p4v1.Update_INSERT, pre(cs)))
	assert.Equal(t, codes.AlreadyExists, code(s.writePRE(p4v1.Update_INSERT, pre(cs))))
	require.NoError(t, s.writePRE(p4v1.Update_MODIFY, pre(cs)))
	assert.Len(t, s.CloneSessions(), 1)
	require.NoError(t, s.writePRE(p4v1.Update_DELETE, pre(cs)))
	assert.Empty(t, s.CloneSessions())

	many := &p4v1.CloneSessionEntry{SessionId: 5}
	for i := 0; i <= maxCloneReplicas; i++ {
		many.Replicas = append(many.Replicas, &p4v1.Replica{PortKind: &p4v1.Replica_EgressPort{EgressPort: uint32(i)}})
	}
	assert.Equal(t, codes.ResourceExhausted, code(s.writePRE(p4v1.Update_INSERT, pre(many))))
	assert.Equal(t, codes.InvalidArgument, code(s.writePRE(p4v1.Update_INSERT, pre(&p4v1.CloneSessionEntry{SessionId: maxCloneSessions}))))
	twice := &p4v1.CloneSessionEntry{SessionId: 6, Replicas: []*p4v1.Replica{
		{PortKind: &p4v1.Replica_EgressPort{EgressPort: 68}}, {PortKind: &p4v1.Replica_EgressPort{EgressPort: 68}}}}
	assert.Equal(t, codes.InvalidArgument, code(s.writePRE(p4v1.Update_INSERT, pre(twice))))
	assert.Equal(t, codes.Unimplemented, code(s.writePRE(p4v1.Update_INSERT, &p4v1.PacketReplicationEngineEntry{})), "multicast groups")
	assert.Empty(t, s.CloneSessions(), "nothing refused is held")
}

// Register writes are refused over P4Runtime, as PI refuses them on BMv2
// (the data plane takes them only from its own process).
func TestRegisterWritesRefusedOverP4Runtime(t *testing.T) {
	schema, err := p4src.Load()
	require.NoError(t, err)
	sw, err := New(Options{Ports: map[uint32]Port{}, Schema: schema})
	require.NoError(t, err)
	reg, err := schema.Register("BalancerIngress.verdict")
	require.NoError(t, err)
	id := reg.GetPreamble().GetId()
	u := &p4v1.Update{Type: p4v1.Update_MODIFY, Entity: &p4v1.Entity{Entity: &p4v1.Entity_RegisterEntry{RegisterEntry: &p4v1.RegisterEntry{
		RegisterId: id, Index: &p4v1.Index{Index: 1},
		Data: &p4v1.P4Data{Data: &p4v1.P4Data_Bitstring{Bitstring: []byte{0x80, 0x00}}}}}}}
	errs := sw.P4Runtime().writeUpdates([]*p4v1.Update{u}, p4v1.WriteRequest_CONTINUE_ON_ERROR)
	assert.Equal(t, codes.Unimplemented, status.Code(errs[0]))
	_, set := sw.Dataplane().Verdict(1)
	assert.False(t, set, "the cell was written")
}
