package config

import (
	"errors"
	"strings"

	"github.com/dpi-balancer/balancer/internal/kinderr"
)

// Sentinel errors. Every problem Parse, Load, Validate and the scalar
// parsers report wraps one of these, so callers can use errors.Is; the
// problems Validate finds are also *FieldError values (errors.As).
var (
	// ErrDecode: the YAML (or JSON) could not be decoded into a Config.
	ErrDecode = errors.New("cannot decode config")
	// ErrUnknownKey: strict decoding met a key the model does not have.
	ErrUnknownKey = errors.New("unknown key")
	// ErrSyntax: a scalar (range, MAC, prefix, protocol, duration,
	// action) is not written in a form this package reads.
	ErrSyntax = errors.New("bad syntax")
	// ErrMissing: a required value is not set.
	ErrMissing = errors.New("missing value")
	// ErrOutOfRange: a number is outside its allowed range.
	ErrOutOfRange = errors.New("value out of range")
	// ErrInvalid: a value is not one of the allowed choices.
	ErrInvalid = errors.New("invalid value")
	// ErrDuplicate: a name, id, priority or port is defined twice.
	ErrDuplicate = errors.New("duplicate")
	// ErrUnknownName: a reference names a link, filter group, balance
	// group or profile that does not exist.
	ErrUnknownName = errors.New("unknown name")
	// ErrBadPortName: a port name is not written as P<port>,
	// P<port><lane>, <port>/<lane> or <port>.
	ErrBadPortName = errors.New("bad port name")
	// ErrUnknownPort: a port name refers to a port not listed in ports.
	ErrUnknownPort = errors.New("unknown port")
	// ErrAmbiguousPort: a P-name reads both as a lane and as an unbroken
	// port, and both are defined.
	ErrAmbiguousPort = errors.New("ambiguous port name")
	// ErrNoLane: a name gives a lane of a port that is not broken out.
	ErrNoLane = errors.New("lane of an unbroken port")
	// ErrLaneRange: a name gives a lane beyond the port's breakout.
	ErrLaneRange = errors.New("lane beyond breakout")
	// ErrBrokenOut: a name gives a broken-out port as a whole.
	ErrBrokenOut = errors.New("port is broken out")
	// ErrPortInUse: a port is used twice by links and filter groups.
	ErrPortInUse = errors.New("port already in use")
	// ErrParity: a LAN port is odd or a WAN port even.
	ErrParity = errors.New("port parity")
	// ErrTooMany: more objects than the data plane holds.
	ErrTooMany = errors.New("too many")
	// ErrEmpty: a balance group without members, or a heartbeat or not
	// entry that sets nothing.
	ErrEmpty = errors.New("empty")
	// ErrConflict: settings that contradict each other.
	ErrConflict = errors.New("conflicting settings")
	// ErrBadAction: a rule action is not "bypass" or "balance <group>".
	ErrBadAction = errors.New("bad rule action")
	// ErrCapacity: slots or flow rules exceed a table's capacity.
	ErrCapacity = errors.New("capacity exceeded")
	// ErrUnknownPlatform: the platform name is not a built-in one.
	ErrUnknownPlatform = errors.New("unknown platform")
)

// FieldError is one problem of a configuration, at a path such as
// "links[1].lan" or "rules[0].match.vlan[2]".
type FieldError struct {
	Path string
	Err  error
	// Object names the object the path is in as the operator named it
	// ("balance group group_filter"), when it has a name.
	Object string
}

func (e *FieldError) Error() string {
	if e.Path == "" {
		return e.Err.Error()
	}
	return e.Path + ": " + e.Err.Error()
}

// Named is Error with the object's name in front, as an operator reads
// it: "balance group G: balance_groups[0].members[1]: unknown filter
// group "F9"" (Error alone when the path is in no named object).
func (e *FieldError) Named() string {
	if e.Object == "" || e.Path == "" {
		return e.Error()
	}
	return e.Object + ": " + e.Error()
}

func (e *FieldError) Unwrap() error { return e.Err }

// Problems lists err's problems one per line for an operator: a field
// error with its object's name (FieldError.Named), any other error (or
// joined errors, each) as it reads.
func Problems(err error) []string {
	var out []string
	var walk func(error)
	walk = func(err error) {
		if err == nil {
			return
		}
		var fe *FieldError
		if errors.As(err, &fe) && fe == err {
			out = append(out, fe.Named())
			return
		}
		if u, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range u.Unwrap() {
				walk(e)
			}
			return
		}
		out = append(out, strings.Split(err.Error(), "\n")...)
	}
	walk(err)
	return out
}

// FieldErrors returns every *FieldError inside err, which may be a single
// error or one joined with errors.Join (as Validate returns), in order.
func FieldErrors(err error) []*FieldError {
	var out []*FieldError
	var walk func(error)
	walk = func(err error) {
		if err == nil {
			return
		}
		if fe, ok := err.(*FieldError); ok {
			out = append(out, fe)
			return
		}
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				walk(e)
			}
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		}
	}
	walk(err)
	return out
}

// errorf is a message that unwraps to a sentinel without repeating the
// sentinel's text.
func errorf(kind error, format string, args ...any) error {
	return kinderr.New(kind, format, args...)
}

// problems collects field errors in order.
type problems []error

func (p *problems) add(path string, err error) {
	*p = append(*p, &FieldError{Path: path, Err: err})
}

func (p *problems) addf(path string, kind error, format string, args ...any) {
	p.add(path, errorf(kind, format, args...))
}

func (p problems) err() error { return errors.Join(p...) }
