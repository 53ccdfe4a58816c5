package simcmd

import (
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/sim"
)

// --pipes and --pipe-port: what the operator typed is taken as typed or
// refused naming it and the fix.
func TestSimPipePorts(t *testing.T) {
	got, err := parsePipePorts(2, []string{"30,40=1", "53=0"})
	require.NoError(t, err)
	assert.Equal(t, map[uint32]int{30: 1, 40: 1, 53: 0}, got)
	got, err = parsePipePorts(1, nil)
	require.NoError(t, err)
	assert.Empty(t, got)
	for _, tc := range []struct {
		pipes int
		vals  []string
		want  string
	}{
		{0, nil, "--pipes 0: give 1 to 4"},
		{5, nil, "--pipes 5: give 1 to 4"},
		{1, []string{"40=0"}, "--pipe-port 40=0: there is one pipe; give --pipes 2 (or 4) too"},
		{2, []string{"40=2"}, "--pipe-port 40=2: want PORT[,PORT...]=PIPE with PIPE 0 to 1, like 30,40=1"},
		{2, []string{"40"}, "--pipe-port 40: want PORT[,PORT...]=PIPE"},
		{2, []string{"40,x=1"}, `--pipe-port 40,x=1: "x" is not a data-plane port (0 to 511)`},
		{2, []string{"600=1"}, `--pipe-port 600=1: "600" is not a data-plane port (0 to 511)`},
		{2, []string{"40=1", "40=0"}, "--pipe-port 40=0: port 40 is already placed in pipe 1"},
	} {
		_, err := parsePipePorts(tc.pipes, tc.vals)
		require.Error(t, err, "%d %v", tc.pipes, tc.vals)
		assert.Contains(t, err.Error(), tc.want)
	}
}

// The control API's /pipes: the switch's pipes, the CPU port's and the
// copy counters.
func TestSimControlPipes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sw, err := sim.New(sim.Options{Ports: map[uint32]sim.Port{}, Pipes: 2})
	require.NoError(t, err)
	addr, err := serveControl(ctx, "127.0.0.1:0", nil, sw.Dataplane())
	require.NoError(t, err)
	resp, err := http.Get("http://" + addr + "/pipes")
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "pipes 2\ncpu-port 255 pipe 1\n"+
		"data-returns 0 data-copies 0 data-suppressed 0\nkeepalive-returns 0 keepalive-copies 0\n"+
		"proof-copies 0 proofs-taken 0\n"+
		"copies-taken 0 copies-early 0 copies-in-flight 0\n", string(b))
}
