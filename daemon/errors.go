package daemon

import "errors"

// Errors the API maps to gRPC codes.
var (
	ErrNotFound    = errors.New("not found")
	ErrInvalid     = errors.New("invalid")
	ErrUnavailable = errors.New("switch unavailable")
)
