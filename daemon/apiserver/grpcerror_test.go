package apiserver

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dpi-balancer/balancer/daemon"
)

// A change refused by a shared store because another daemon changed it
// first is Aborted, like a stale base revision: read again and retry.
func TestConflictIsAborted(t *testing.T) {
	err := grpcError(fmt.Errorf("saving the configuration: %w", fmt.Errorf("%w: re-read revision 7", daemon.ErrConflict)))
	assert.Equal(t, codes.Aborted, status.Code(err))
	assert.Contains(t, status.Convert(err).Message(), "re-read revision 7")
}
