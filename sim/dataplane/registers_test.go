package dataplane

import (
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
)

// registerID is the P4Info id of register name.
func registerID(tb testing.TB, d *Dataplane, name string) uint32 {
	tb.Helper()
	r, err := d.Schema().Register(name)
	require.NoError(tb, err)
	return r.GetPreamble().GetId()
}

func regWrite(typ p4v1.Update_Type, id uint32, index int64, value []byte) *p4v1.Update {
	re := &p4v1.RegisterEntry{RegisterId: id, Data: &p4v1.P4Data{Data: &p4v1.P4Data_Bitstring{Bitstring: value}}}
	if index >= 0 {
		re.Index = &p4v1.Index{Index: index}
	}
	return &p4v1.Update{Type: typ, Entity: &p4v1.Entity{Entity: &p4v1.Entity_RegisterEntry{RegisterEntry: re}}}
}

// negative gives u's register entry the index -1.
func negative(u *p4v1.Update) *p4v1.Update {
	u.GetEntity().GetRegisterEntry().Index.Index = -1
	return u
}

// A verdict cell written over P4Runtime is a standing verdict: the
// group's next frame takes the failure action, as one the pipeline proved
// itself. A batch that fails is rolled back, register cells included, and
// a write the register cannot hold is refused naming it.
func TestRegisterWriteSetsTheVerdict(t *testing.T) {
	cfg, err := pipelinecases.VerdictConfig(false)
	require.NoError(t, err)
	vt := newVerdictTarget(t, uint64(time.Second))
	require.NoError(t, vt.Fresh(cfg))
	frame := pipelinecases.VerdictScenarios(cfg)[0].Steps[0].Frame
	toFilter := vt.d.Process(pipelinecases.L1LAN, frame, nil)
	require.Equal(t, Forward, toFilter.Kind)
	require.NotEqual(t, uint32(pipelinecases.L1WAN), toFilter.Port, "no verdict: the frame goes to its filter")

	verdict := registerID(t, vt.d, "BalancerIngress.verdict")
	set := []byte{0x80, 0x00} // VERDICT_SET | epoch 0, the epoch Fresh writes

	// Rolled back with the batch it is in.
	errs := vt.d.Write([]*p4v1.Update{
		regWrite(p4v1.Update_MODIFY, verdict, int64(pipelinecases.F1ID), set),
		regWrite(p4v1.Update_MODIFY, verdict, p4src.FilterGroupSize, set),
	}, p4v1.WriteRequest_ROLLBACK_ON_ERROR)
	require.ErrorIs(t, errs[0], ErrAborted)
	require.ErrorIs(t, errs[1], ErrOutOfRange)
	_, on := vt.d.Verdict(pipelinecases.F1ID)
	require.False(t, on, "a rolled-back batch left the cell set")
	r := vt.d.Process(pipelinecases.L1LAN, frame, nil)
	assert.Equal(t, toFilter.Port, r.Port)

	for i, err := range vt.d.Write([]*p4v1.Update{regWrite(p4v1.Update_MODIFY, verdict, int64(pipelinecases.F1ID), set)}, p4v1.WriteRequest_CONTINUE_ON_ERROR) {
		require.NoError(t, err, "update %d", i)
	}
	epoch, on := vt.d.Verdict(pipelinecases.F1ID)
	require.True(t, on)
	assert.Zero(t, epoch)
	r = vt.d.Process(pipelinecases.L1LAN, frame, nil)
	assert.Equal(t, Forward, r.Kind)
	assert.Equal(t, uint32(pipelinecases.L1WAN), r.Port, "a standing verdict: bypassed to the peer port")
	dgs, _ := vt.d.VerdictDigests()
	require.Len(t, dgs, 1)
	assert.Equal(t, uint8(p4src.VerdictStanding), dgs[0].Reason)

	// Every cell (index unset) back to 0: to the filter again.
	for _, err := range vt.d.Write([]*p4v1.Update{regWrite(p4v1.Update_MODIFY, verdict, -1, []byte{0})}, p4v1.WriteRequest_CONTINUE_ON_ERROR) {
		require.NoError(t, err)
	}
	r = vt.d.Process(pipelinecases.L1LAN, frame, nil)
	assert.Equal(t, toFilter.Port, r.Port)

	evTime := registerID(t, vt.d, "BalancerIngress.ev_time")
	for _, c := range []struct {
		u    *p4v1.Update
		want error
		msg  string
	}{
		{regWrite(p4v1.Update_INSERT, verdict, 1, set), ErrInvalidArgument, `register "BalancerIngress.verdict": only MODIFY`},
		{regWrite(p4v1.Update_MODIFY, verdict, 1, []byte{1, 0, 0}), ErrOutOfRange, "17 bits does not fit its 16"},
		{negative(regWrite(p4v1.Update_MODIFY, evTime, 0, set)), ErrInvalidArgument, "negative index"},
		{regWrite(p4v1.Update_MODIFY, 0x03000999, 0, set), ErrInvalidArgument, "unknown register id"},
	} {
		err := vt.d.Write([]*p4v1.Update{c.u}, p4v1.WriteRequest_CONTINUE_ON_ERROR)[0]
		require.ErrorIs(t, err, c.want)
		assert.Contains(t, err.Error(), c.msg)
	}
}

// The pairs are written first ++ second, as the v1model program packs
// them: ev_time's tag in the high half.
func TestRegisterWritePacksPairs(t *testing.T) {
	vt := newVerdictTarget(t, uint64(time.Second))
	evTime := registerID(t, vt.d, "BalancerIngress.ev_time")
	evCount := registerID(t, vt.d, "BalancerIngress.ev_count")
	errs := vt.d.Write([]*p4v1.Update{
		regWrite(p4v1.Update_MODIFY, evTime, 5, []byte{0, 0, 0, 7, 0, 0, 0, 9}),
		regWrite(p4v1.Update_MODIFY, evCount, 6, []byte{0, 0, 0, 3, 0, 0, 0, 4}),
	}, p4v1.WriteRequest_CONTINUE_ON_ERROR)
	require.NoError(t, errs[0])
	require.NoError(t, errs[1])
	r := &vt.d.ev.pipes[0]
	assert.Equal(t, [2]uint32{7, 9}, [2]uint32{r.tag[5], r.last[5]})
	assert.Equal(t, [2]uint32{3, 4}, [2]uint32{r.cntTag[6], r.count[6]})
}
