package kinderr

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestKind(t *testing.T) {
	errRange := errors.New("out of range")
	errOther := errors.New("other")
	err := New(errRange, "cores: %d is more than %d", 2000, 1024)
	assert.Equal(t, "cores: 2000 is more than 1024", err.Error(), "the kind's text is not repeated")
	assert.ErrorIs(t, err, errRange)
	assert.NotErrorIs(t, err, errOther)
	wrapped := fmt.Errorf("filter_groups[0]: %w", err)
	assert.ErrorIs(t, wrapped, errRange)
	var ke *Error
	assert.ErrorAs(t, wrapped, &ke)
	// A kind of several sentinels (errors.Join) is each of them.
	both := New(errors.Join(errRange, errOther), "line 3: bad")
	assert.ErrorIs(t, both, errRange)
	assert.ErrorIs(t, both, errOther)
}
