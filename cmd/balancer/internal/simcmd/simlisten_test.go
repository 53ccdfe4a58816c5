package simcmd

import (
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestListenSwitchUnix(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "p4rt.sock")
	for range 2 { // the second time over the first one's stale socket file
		lis, err := listenSwitch("unix://" + sock)
		require.NoError(t, err)
		c, err := net.Dial("unix", sock)
		require.NoError(t, err)
		c.Close()
		// Leave the file behind, as a killed switch would.
		lis.(*net.UnixListener).SetUnlinkOnClose(false)
		require.NoError(t, lis.Close())
		_, err = os.Stat(sock)
		require.NoError(t, err)
	}

	// A regular file in the way is not removed.
	file := filepath.Join(t.TempDir(), "not-a-socket")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	_, err := listenSwitch("unix://" + file)
	assert.Error(t, err)
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, "x", string(data))

	_, err = listenSwitch("unix://")
	assert.ErrorContains(t, err, "want unix:///path/to/socket")

	lis, err := listenSwitch("127.0.0.1:0")
	require.NoError(t, err)
	assert.Equal(t, "tcp", lis.Addr().Network())
	lis.Close()
}
