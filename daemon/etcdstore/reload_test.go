package etcdstore

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/daemon"
)

// loadHook is a Store that runs a function once, right after a read of
// the runtime state (as another goroutine would, between the read and its
// use).
type loadHook struct {
	*Store
	after func()
}

func (h *loadHook) LoadRuntimeRev() (daemon.Runtime, int64, error) {
	rt, rev, err := h.Store.LoadRuntimeRev()
	if f := h.after; f != nil {
		h.after = nil
		f()
	}
	return rt, rev, err
}

// A reload that finds the store holding what the engine holds records
// the store revision it read on the state owner, and never replaces a
// newer one the owner saved meanwhile: the next runtime save is not
// refused as a conflict.
func TestReloadKeepsTheNewerRuntimeRevision(t *testing.T) {
	t.Parallel()
	addr := startEtcd(t)
	st, err := Open(newClient(t, addr), keys(t, "/b/sw/"), 0)
	require.NoError(t, err)
	initial, err := os.ReadFile("testdata/ha.yaml")
	require.NoError(t, err)
	_, err = st.Seed(initial, "initial", time.Now())
	require.NoError(t, err)
	h := &loadHook{Store: st}
	d, err := daemon.New(daemon.Options{SharedStore: h, FixedElection: true, SwitchAddr: "127.0.0.1:1", DeviceID: 1})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	run := make(chan error, 1)
	go func() { run <- d.Run(ctx) }()
	defer func() { cancel(); <-run }()

	// Between the reload's read and its use, the state owner saves the
	// runtime state twice (a bypass set and cleared): the store ends
	// where it was, at a newer revision.
	var hookErr error
	h.after = func() {
		bctx, bcancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer bcancel()
		if hookErr = d.SetBypass(bctx, "F1", true); hookErr == nil {
			hookErr = d.SetBypass(bctx, "F1", false)
		}
	}
	require.NoError(t, d.ReloadAs(ctx, false))
	require.NoError(t, hookErr)
	// The next change is conditioned on the newest revision.
	bctx, bcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer bcancel()
	require.NoError(t, d.SetBypass(bctx, "F2", true), "the runtime save is conditioned on the revision the owner saved last")
	rt, err := st.LoadRuntime()
	require.NoError(t, err)
	require.Equal(t, []string{"F2"}, rt.BypassGroups)
}
