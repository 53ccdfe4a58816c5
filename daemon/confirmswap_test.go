package daemon

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The pending commit confirmed is replaced whole: a change made against
// a value no longer pending is refused, a reload's read does not replace
// a change made during it, and of rollbacks racing for one deadline one
// takes it (run with -race: nothing is changed in place).
func TestCommitConfirmedSwappedWhole(t *testing.T) {
	d := &Daemon{}
	require.Nil(t, d.pending())
	p1 := &CommitConfirm{Revision: 2, Previous: 1, Deadline: time.Now()}
	require.True(t, d.swapConfirm(nil, p1))
	p2 := &CommitConfirm{Revision: 3, Previous: 2, Deadline: time.Now()}
	assert.False(t, d.swapConfirm(p2, nil), "p2 is not pending: nothing changes")
	assert.Same(t, p1, d.pending())

	// A reload's read began before p2 was set: it leaves p2.
	read := d.confirm.Load()
	require.True(t, d.swapConfirm(nil, p2))
	assert.False(t, d.confirm.CompareAndSwap(read, &confirmState{p: p1, gen: genOf(read) + 1}))
	assert.Same(t, p2, d.pending())

	// Rollbacks racing for p2: one takes it (its rolling copy is
	// published), the others find it taken; readers meanwhile copy a
	// value nobody changes.
	var won atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			cp := *p2
			cp.rolling = true
			if d.swapConfirm(p2, &cp) {
				won.Add(1)
			}
		})
		wg.Go(func() {
			if c := d.PendingConfirm(); c != nil {
				_ = c.rolling
			}
		})
	}
	wg.Wait()
	assert.Equal(t, int32(1), won.Load())
	assert.True(t, d.pending().rolling)
	assert.False(t, p2.rolling, "the value once published is never changed")
}
