package simcmd

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/profiles"
	"github.com/dpi-balancer/balancer/sim"
)

// The control API's loops: what a demo filter does, and the data frames
// the switch sent it, counted whatever it does with them (a dead filter
// still counts what it was given); keep-alives are not data.
func TestSimControlLoopCounts(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pa, peerA := sim.NewMemPort(16)
	pb, peerB := sim.NewMemPort(16)
	st := &loopState{}
	done := make(chan struct{}, 2)
	go func() { transparentFilter(ctx, peerA, peerB, st); done <- struct{}{} }()
	go func() { transparentFilter(ctx, peerB, peerA, st); done <- struct{}{} }()
	defer func() { cancel(); <-done; <-done }()
	back := make(chan []byte, 16)
	rctx, rcancel := context.WithCancel(ctx)
	defer rcancel()
	go func() { _ = pb.Run(rctx, func(f []byte) { back <- f }) }()
	go func() { _ = pa.Run(rctx, func([]byte) {}) }()

	addr, err := serveControl(ctx, "127.0.0.1:0", map[string]*loopState{"120:110": st}, nil)
	require.NoError(t, err)
	get := func(method, path string) (int, string) {
		req, err := http.NewRequest(method, "http://"+addr+path, nil)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(b)
	}
	data := append(make([]byte, 12), 0x08, 0x00, 0x45, 0)
	keepAlive := append(make([]byte, 12), 0x88, 0xB6, 0, 0)

	require.NoError(t, pa.Send(data)) // the switch sends a data frame to the filter
	require.NoError(t, pa.Send(keepAlive))
	for range 2 {
		select {
		case <-back:
		case <-time.After(5 * time.Second):
			t.Fatal("the loop did not pass the frames on")
		}
	}
	code, body := get(http.MethodGet, "/loops")
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "120:110 ok data=1\n", body)

	code, body = get(http.MethodPost, "/loops/120:110?state=dead")
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "120:110 dead\n", body)
	for range 3 {
		require.NoError(t, pa.Send(data))
	}
	require.Eventually(t, func() bool { return st.data.Load() == 4 }, 5*time.Second, time.Millisecond)
	select {
	case <-back:
		t.Fatal("a dead loop passed a frame on")
	case <-time.After(50 * time.Millisecond):
	}
	_, body = get(http.MethodGet, "/loops")
	assert.Equal(t, "120:110 dead data=4\n", body)

	code, body = get(http.MethodPost, "/loops/9:9?state=dead")
	assert.Equal(t, http.StatusNotFound, code)
	assert.True(t, strings.HasPrefix(body, "no loop 9:9"), body)
	code, _ = get(http.MethodPost, "/loops/120:110?state=sleepy")
	assert.Equal(t, http.StatusBadRequest, code)

	// Fail-open probes: a healthy loop drops them, one that passes
	// everything (failed open) returns them.
	probe := profiles.EncodeProbe([6]byte{2, 0, 0, 0, 0, 2}, [6]byte{2, 0, 0, 0, 0, 1}, wire.DefaultKeepAliveEtherType, 1, wire.LANToWAN, 5, []byte("block-me"))
	code, _ = get(http.MethodPost, "/loops/120:110?state=ok")
	assert.Equal(t, http.StatusOK, code)
	require.NoError(t, pa.Send(probe))
	require.NoError(t, pa.Send(keepAlive)) // passed after the probe: the probe was dropped
	select {
	case f := <-back:
		assert.Equal(t, keepAlive, f, "the probe was dropped, the keep-alive passed")
	case <-time.After(5 * time.Second):
		t.Fatal("the loop did not pass the keep-alive on")
	}
	code, body = get(http.MethodPost, "/loops/120:110?state=pass-all")
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "120:110 pass-all\n", body)
	require.NoError(t, pa.Send(probe))
	select {
	case f := <-back:
		assert.Equal(t, probe, f, "failed open: the probe came back")
	case <-time.After(5 * time.Second):
		t.Fatal("a pass-all loop did not pass the probe on")
	}
}
