package daemon

import (
	"errors"

	"github.com/dpi-balancer/balancer/daemon/statestore"
	"github.com/dpi-balancer/balancer/internal/kinderr"
	"github.com/dpi-balancer/balancer/profiles"
)

// Errors the API maps to gRPC codes.
var (
	ErrNotFound    = statestore.ErrNotFound
	ErrInvalid     = errors.New("invalid")
	ErrUnavailable = statestore.ErrUnavailable
	// ErrNotWaiting: a filter group given to ReturnFilterGroup is not
	// recovered and waiting for return.
	ErrNotWaiting = profiles.ErrNotWaiting
)

// kindf is an error of a kind (one of the sentinels above) whose message
// does not repeat the kind's name.
func kindf(kind error, format string, args ...any) error {
	return kinderr.New(kind, format, args...)
}
