package daemon

import (
	"context"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/testbed"
)

// deadAddr returns a loopback address nothing listens on.
func deadAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

// A daemon whose switch does not answer on gNMI says so in its log (the
// port-status stream lost, with the address and the next retry), not only
// as "ports watched: no" in its status: while that stream is down a port
// going down fails nothing over, and the log is where an operator looks.
func TestPortStreamLossIsLogged(t *testing.T) {
	dir := t.TempDir()
	site, err := os.ReadFile("testdata/fast.yaml")
	require.NoError(t, err)
	cfgPath := filepath.Join(dir, "site.yaml")
	require.NoError(t, os.WriteFile(cfgPath, site, 0o600))
	gnmiAddr := deadAddr(t)
	var logs testbed.SyncBuffer
	d, err := New(Options{StateDir: filepath.Join(dir, "state"), InitialConfig: cfgPath, SwitchAddr: deadAddr(t),
		SwitchGNMI: gnmiAddr, DeviceID: 1, Tick: time.Millisecond, CounterInterval: time.Hour,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		d.Run(ctx)
	}()
	defer func() {
		cancel()
		<-done
	}()
	lost := func() bool {
		for _, l := range strings.Split(logs.String(), "\n") {
			if strings.Contains(l, "gnmi oper-status stream lost; reconnecting") && strings.Contains(l, gnmiAddr) &&
				strings.Contains(l, "level=WARN") && strings.Contains(l, "retry_in=") {
				return true
			}
		}
		return false
	}
	require.Eventually(t, lost, 10*time.Second, 10*time.Millisecond, "no log of the lost port-status stream:\n%s", logs.String())
	st, err := d.Status(context.Background())
	require.NoError(t, err)
	assert.False(t, st.Switch.PortsWatched)
}
