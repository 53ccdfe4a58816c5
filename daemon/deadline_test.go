package daemon

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A configuration change whose caller gives up before the state owner takes
// it is not made: the answer is an error, and neither the running revision
// nor the history changes, also later, once the owner is free again.
func TestApplyCancelledBeforeTakenIsNotMade(t *testing.T) {
	d, err := New(Options{StateDir: t.TempDir(), InitialConfig: "testdata/fast.yaml", SwitchAddr: "127.0.0.1:1"})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); d.Run(ctx) }()
	t.Cleanup(func() { cancel(); wg.Wait() })
	require.Eventually(t, d.started.Load, 10*time.Second, time.Millisecond, "the state owner starts")

	// Keep the owner busy.
	taken, release := make(chan struct{}), make(chan struct{})
	busy := make(chan error, 1)
	go func() {
		busy <- d.own(context.Background(), func(context.Context) error { close(taken); <-release; return nil })
	}()
	<-taken
	h0, err := d.History(ctx)
	require.NoError(t, err)
	_, rev0, _ := d.Config(ctx)

	base, err := os.ReadFile("testdata/fast.yaml")
	require.NoError(t, err)
	edit := []byte(strings.Replace(string(base), "site: fast", "site: late", 1))
	actx, acancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer acancel()
	_, err = d.ApplyConfig(actx, edit, false, "too late")
	require.Error(t, err, "the caller gave up before the owner took the change")
	assert.ErrorIs(t, err, context.DeadlineExceeded)

	close(release)
	require.NoError(t, <-busy)
	// The owner is free again: the abandoned change must not run now.
	require.NoError(t, d.own(ctx, func(context.Context) error { return nil }))
	_, rev, _ := d.Config(ctx)
	assert.Equal(t, rev0, rev, "the running revision is unchanged")
	h, err := d.History(ctx)
	require.NoError(t, err)
	assert.Equal(t, h0, h, "nothing was saved")
	cfg, _, _ := d.Config(ctx)
	assert.Equal(t, "fast", cfg.Site)
}
