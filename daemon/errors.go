package daemon

import (
	"errors"
	"fmt"

	"github.com/dpi-balancer/balancer/daemon/statestore"
)

// Errors the API maps to gRPC codes.
var (
	ErrNotFound    = statestore.ErrNotFound
	ErrInvalid     = errors.New("invalid")
	ErrUnavailable = statestore.ErrUnavailable
)

// kindError is an error of a kind (one of the sentinels above) whose
// message does not repeat the kind's name.
type kindError struct {
	kind error
	msg  string
}

func (e *kindError) Error() string        { return e.msg }
func (e *kindError) Is(target error) bool { return target == e.kind }

func kindf(kind error, format string, args ...any) error {
	return &kindError{kind: kind, msg: fmt.Sprintf(format, args...)}
}
