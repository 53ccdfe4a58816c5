package daemon

import (
	"errors"

	"github.com/dpi-balancer/balancer/daemon/statestore"
	"github.com/dpi-balancer/balancer/internal/kinderr"
)

// Errors the API maps to gRPC codes.
var (
	ErrNotFound    = statestore.ErrNotFound
	ErrInvalid     = errors.New("invalid")
	ErrUnavailable = statestore.ErrUnavailable
)

// kindf is an error of a kind (one of the sentinels above) whose message
// does not repeat the kind's name.
func kindf(kind error, format string, args ...any) error {
	return kinderr.New(kind, format, args...)
}
