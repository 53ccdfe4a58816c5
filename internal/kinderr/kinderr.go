// Package kinderr is an error of a kind: errors.Is finds its kind (a
// sentinel such as config.ErrRange or daemon.ErrInvalid) while its message
// says what is wrong without repeating the kind's own text.
package kinderr

import "fmt"

// Error is a message of a kind.
type Error struct {
	Kind error
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the kind, so errors.Is(err, kind) holds.
func (e *Error) Unwrap() error { return e.Kind }

// New returns an error of kind with the formatted message.
func New(kind error, format string, args ...any) error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}
