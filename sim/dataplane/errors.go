package dataplane

import "errors"

// Sentinel errors. Every error returned by Write and Read wraps exactly one
// of them; the P4Runtime server maps them to gRPC codes (the name says
// which). Messages name the object and the problem, for example
//
//	table "BalancerIngress.slots": match field 2 (slot): value 0x1ffff wider than 16 bits: invalid argument
var (
	ErrInvalidArgument   = errors.New("invalid argument")
	ErrAlreadyExists     = errors.New("already exists")
	ErrNotFound          = errors.New("not found")
	ErrResourceExhausted = errors.New("resource exhausted")
	ErrUnimplemented     = errors.New("unimplemented")
	ErrPermissionDenied  = errors.New("permission denied")
	// ErrOutOfRange: a counter index beyond the counter's size (P4Runtime
	// spec, CounterEntry), or a byte string wider than its field (spec,
	// "Bytestrings").
	ErrOutOfRange = errors.New("out of range")
	// ErrAborted marks the updates of a ROLLBACK_ON_ERROR or
	// DATAPLANE_ATOMIC batch that did not fail themselves but were rolled
	// back (or never applied) because another update of the batch failed.
	ErrAborted = errors.New("aborted")
)
