package controlplane

import (
	"fmt"
	"strings"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dpi-balancer/balancer/p4entity"
)

// WriteError is a Write the switch rejected: its gRPC status and each
// failed update with its own code and message (P4Runtime's per-update
// errors). errors.Is(err, ErrWrite) holds for it.
type WriteError struct {
	Code    codes.Code
	Message string
	Updates []UpdateError // the failed updates, in request order
}

// UpdateError is one failed update of a WriteError.
type UpdateError struct {
	Update  *p4v1.Update
	Code    codes.Code
	Message string
}

func (u *UpdateError) Error() string {
	return fmt.Sprintf("%s %s: %s: %s", u.Update.GetType(), p4entity.Key(u.Update.GetEntity()), u.Code, u.Message)
}

// maxListed is how many failed updates a WriteError's message lists.
const maxListed = 10

func (e *WriteError) Error() string {
	if len(e.Updates) == 0 {
		return fmt.Sprintf("%v: %s: %s", ErrWrite, e.Code, e.Message)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%v: ", ErrWrite)
	for i, u := range e.Updates {
		if i == maxListed {
			b.WriteString("\n... and more")
			break
		}
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s %s: %s: %s", u.Update.GetType(), p4entity.Key(u.Update.GetEntity()), u.Code, u.Message)
	}
	return b.String()
}

// Is reports ErrWrite.
func (e *WriteError) Is(target error) bool { return target == ErrWrite }

// Unimplemented reports whether the switch refused the write, or every
// failed update, as not implemented.
func (e *WriteError) Unimplemented() bool {
	if e.Code == codes.Unimplemented {
		return true
	}
	for _, u := range e.Updates {
		if u.Code != codes.Unimplemented {
			return false
		}
	}
	return len(e.Updates) > 0
}

// describeWriteError turns a Write error into a WriteError.
func describeWriteError(err error, us []*p4v1.Update) error {
	st := status.Convert(err)
	we := &WriteError{Code: st.Code(), Message: st.Message()}
	for i, d := range st.Details() {
		pe, ok := d.(*p4v1.Error)
		if !ok || pe.GetCanonicalCode() == int32(code.Code_OK) || i >= len(us) {
			continue
		}
		we.Updates = append(we.Updates, UpdateError{Update: us[i], Code: codes.Code(pe.GetCanonicalCode()), Message: pe.GetMessage()})
	}
	return we
}
