package daemoncmd

import (
	"bytes"
	"context"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/cmd/balancer/internal/cli"
	"github.com/dpi-balancer/balancer/cmd/balancer/internal/simcmd"
)

const (
	exitOK    = cli.ExitOK
	exitError = cli.ExitError
)

// run runs a balancer command line as the binary does: the client's
// commands, the daemon and the software switch.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.Run(ctx, args, stdin, stdout, stderr, Extra(), simcmd.Extra())
}

// result is what one command line printed and its exit code.
type result struct {
	stdout, stderr string
	code           int
}

func runCLI(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return result{out.String(), errb.String(), code}
}

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().String()
}
