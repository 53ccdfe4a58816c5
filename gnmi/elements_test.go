package gnmi

import (
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestElementsToElems(t *testing.T) {
	got, err := elementsToElems([]string{"interfaces", "interface[name=1/0]", "state", `x[a=b\]c][d=e]`})
	require.NoError(t, err)
	assert.Equal(t, []*gpb.PathElem{{Name: "interfaces"}, {Name: "interface", Key: map[string]string{"name": "1/0"}},
		{Name: "state"}, {Name: "x", Key: map[string]string{"a": "b]c", "d": "e"}}}, got)
	for _, bad := range []string{"a[b", "a[=c]", "a[b=c]x"} {
		_, err := elementsToElems([]string{bad})
		assert.Error(t, err, bad)
	}
}
