package controlplane

import (
	"errors"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// writeStatus is a Write error as a switch sends it: a status with one
// p4.v1.Error per update.
func writeStatus(t *testing.T, top codes.Code, per ...codes.Code) error {
	t.Helper()
	st := status.New(top, "batch failed")
	for _, c := range per {
		var err error
		st, err = st.WithDetails(&p4v1.Error{CanonicalCode: int32(c), Message: c.String() + " here"})
		require.NoError(t, err)
	}
	return st.Err()
}

func TestWriteErrorKeepsCodes(t *testing.T) {
	vs := func() *p4v1.Update {
		return &p4v1.Update{Type: p4v1.Update_MODIFY, Entity: &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{ValueSetId: 7}}}}
	}
	tests := []struct {
		name          string
		err           error
		n             int
		failed        []codes.Code
		unimplemented bool
	}{
		{"whole write unimplemented", writeStatus(t, codes.Unimplemented), 1, nil, true},
		{"the update unimplemented", writeStatus(t, codes.Unknown, codes.Unimplemented), 1, []codes.Code{codes.Unimplemented}, true},
		{"one of two unimplemented", writeStatus(t, codes.Unknown, codes.OK, codes.Unimplemented), 2, []codes.Code{codes.Unimplemented}, true},
		{"mixed", writeStatus(t, codes.Unknown, codes.InvalidArgument, codes.Unimplemented), 2, []codes.Code{codes.InvalidArgument, codes.Unimplemented}, false},
		{"rejected", writeStatus(t, codes.InvalidArgument), 1, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var us []*p4v1.Update
			for range tt.n {
				us = append(us, vs())
			}
			err := describeWriteError(tt.err, us)
			assert.ErrorIs(t, err, ErrWrite)
			var we *WriteError
			require.True(t, errors.As(err, &we))
			assert.Equal(t, status.Code(tt.err), we.Code)
			var got []codes.Code
			for _, u := range we.Updates {
				got = append(got, u.Code)
				assert.Contains(t, err.Error(), u.Code.String()+" here")
			}
			assert.Equal(t, tt.failed, got)
			assert.Equal(t, tt.unimplemented, we.Unimplemented())
		})
	}
}
